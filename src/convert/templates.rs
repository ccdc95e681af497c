//! The node interpolates secrets over its whole config.json, so a `${…}` the document carries
//! (a description "in ${Region}", a path `/x/${id}`) would be read as a secret and stop the node
//! from loading. Every `${` is written `\${`, which the node reads back as the text it was; each
//! place is reported.

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Document as Place};
use crate::ois::model::{Endpoint, Ois};
use crate::ois::templates::{escape, opens_inside_another};
use crate::request::Secrets;
use crate::{parallel, pointer};

/// Endpoints escaped by one task.
const ENDPOINTS_PER_TASK: usize = 64;

/// Escapes every `${` of `model`, reporting each string or key changed at its pointer in the OIS.
pub(super) fn escape_all(model: &mut Ois, diagnostics: &mut Vec<Diagnostic>) {
    let mut changed = Changed(Vec::new());
    changed.fix(&mut model.title, &|| "/title".to_owned());
    changed.fix(&mut model.version, &|| "/version".to_owned());
    let api = &mut model.api_specifications;
    for (index, server) in api.servers.iter_mut().enumerate() {
        changed.fix(&mut server.url, &|| format!("/apiSpecifications/servers/{index}/url"));
    }
    if api.paths.keys().any(|path| path.contains("${")) {
        api.paths = std::mem::take(&mut api.paths)
            .into_iter()
            .map(|(mut path, operations)| {
                let at = pointer::join("/apiSpecifications/paths", [path.as_str()]);
                changed.fix(&mut path, &|| at.clone());
                (path, operations)
            })
            .collect();
    }
    for (path, operations) in &mut api.paths {
        for (method, operation) in operations {
            for (index, parameter) in operation.parameters.iter_mut().enumerate() {
                let at = || {
                    pointer::join("/apiSpecifications/paths", [path.as_str(), method.as_str(), "parameters"])
                        + &format!("/{index}/name")
                };
                changed.fix(&mut parameter.name, &at);
            }
        }
    }
    if api.components.security_schemes.keys().any(|name| name.contains("${")) {
        let escaped = |name: String| escape(&name).unwrap_or(name);
        let schemes = std::mem::take(&mut api.components.security_schemes);
        api.components.security_schemes = schemes.into_iter().map(|(name, scheme)| (escaped(name), scheme)).collect();
        api.security =
            std::mem::take(&mut api.security).into_iter().map(|(name, none)| (escaped(name), none)).collect();
        changed.0.push(Escaped { at: "/apiSpecifications/components/securitySchemes".to_owned(), nested: None });
    }
    for (name, scheme) in &mut api.components.security_schemes {
        if let crate::ois::model::SecurityScheme::ApiKey { name: key, .. } = scheme {
            changed
                .fix(key, &|| pointer::join("/apiSpecifications/components/securitySchemes", [name.as_str(), "name"]));
        }
    }
    // Thousands of endpoints, each escaped on its own.
    let in_endpoints = parallel::map_chunks_mut(&mut model.endpoints, ENDPOINTS_PER_TASK, |first, endpoints| {
        let mut changed = Changed(Vec::new());
        for (index, endpoint) in (first..).zip(endpoints) {
            endpoint_strings(endpoint, &format!("/endpoints/{index}"), &mut changed);
        }
        changed.0
    });
    changed.0.extend(in_endpoints.into_iter().flatten());
    diagnostics.extend(changed.0.into_iter().map(|Escaped { at, nested }| {
        let diagnostic = match nested {
            None => Diagnostic::new(
                Code::TemplateEscaped,
                at,
                "`${` written as `\\${`: the node would read `${…}` as a secret when it loads its config",
            ),
            Some(Nested { reads }) => {
                let reads = reads
                    .filter(|text| text.chars().count() <= SHOWN_READING && !text.contains(char::is_control))
                    .map(|text| format!(": \"{text}\""))
                    .unwrap_or_default();
                Diagnostic::new(
                    Code::TemplateNested,
                    at,
                    format!(
                        "a `${{` opens inside another `${{…}}`, and no escape survives that: the node reads the text with a `\\` before the inner `${{`{reads}"
                    ),
                )
                .with_help("edit the text (here or in the document) so each `${` is closed by `}` before the next opens")
            }
        };
        diagnostic.in_document(Place::Output)
    }));
}

/// The longest reading a `TemplateNested` message quotes, on one line (a description can be
/// pages long).
const SHOWN_READING: usize = 120;

/// A string or key that was escaped.
struct Escaped {
    /// Its pointer in the OIS.
    at: String,
    /// Set when a `${` opens inside another, so the node reads back something else.
    nested: Option<Nested>,
}

/// A text with a `${` inside another `${…}`, escaped as well as it can be.
struct Nested {
    /// What the node reads instead (`None` if that could not be worked out).
    reads: Option<String>,
}

/// What was escaped.
struct Changed(Vec<Escaped>);

impl Changed {
    fn fix(&mut self, text: &mut String, at: &dyn Fn() -> String) {
        if let Some(escaped) = escape(text) {
            let nested =
                opens_inside_another(text).then(|| Nested { reads: Secrets::default().interpolate(&escaped, "").ok() });
            *text = escaped;
            self.0.push(Escaped { at: at(), nested });
        }
    }
}

fn endpoint_strings(endpoint: &mut Endpoint, at: &str, changed: &mut Changed) {
    changed.fix(&mut endpoint.name, &|| format!("{at}/name"));
    changed.fix(&mut endpoint.operation.path, &|| format!("{at}/operation/path"));
    for (index, fixed) in endpoint.fixed_operation_parameters.iter_mut().enumerate() {
        let here = format!("{at}/fixedOperationParameters/{index}");
        changed.fix(&mut fixed.operation_parameter.name, &|| format!("{here}/operationParameter/name"));
        escape_value(&mut fixed.value, &mut format!("{here}/value"), changed);
    }
    for (index, parameter) in endpoint.parameters.iter_mut().enumerate() {
        // Made only when something is escaped: most parameters have nothing to escape.
        let here = || format!("{at}/parameters/{index}");
        changed.fix(&mut parameter.name, &|| format!("{}/name", here()));
        if let Some(target) = &mut parameter.operation_parameter {
            changed.fix(&mut target.name, &|| format!("{}/operationParameter/name", here()));
        }
        for (key, text) in [
            ("default", &mut parameter.default),
            ("example", &mut parameter.example),
            ("description", &mut parameter.description),
        ] {
            if let Some(text) = text {
                changed.fix(text, &|| format!("{}/{key}", here()));
            }
        }
    }
    for (index, reserved) in endpoint.reserved_parameters.iter_mut().enumerate() {
        for (key, text) in [("fixed", &mut reserved.fixed), ("default", &mut reserved.default)] {
            if let Some(text) = text {
                changed.fix(text, &|| format!("{at}/reservedParameters/{index}/{key}"));
            }
        }
    }
    for (key, text) in [
        ("summary", &mut endpoint.summary),
        ("description", &mut endpoint.description),
        ("externalDocs", &mut endpoint.external_docs),
    ] {
        if let Some(text) = text {
            changed.fix(text, &|| format!("{at}/{key}"));
        }
    }
}

/// A fixed value from the document (any JSON), its strings and keys escaped.
fn escape_value(value: &mut Value, at: &mut String, changed: &mut Changed) {
    let Ok(()) = pointer::try_for_each_template_mut(value, at, &mut |text, at| {
        changed.fix(text, &|| at.to_owned());
        Ok::<(), std::convert::Infallible>(())
    });
}
