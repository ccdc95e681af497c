//! `apiSpecifications`: servers, paths and their parameters, security schemes and `security`.

use std::collections::{HashMap, HashSet};

use indexmap::{IndexMap, IndexSet};

use super::tables::{self, OPERATION_LOCATIONS, RELAYS, RESERVED_PARAMETER_NAMES, SCHEME_LOCATIONS};
use super::tape::{Array, Node, Object};
use super::text::{is_http_token, is_path_key, placeholders};
use super::{At, Checker};
use crate::diagnostic::Code;
use crate::parallel;

/// Path items checked by one task.
const PATHS_PER_TASK: usize = 32;

/// An operation's parameters as `(in, name)`, in order, each once (borrowed from the OIS).
pub(super) type Parameters<'v> = IndexSet<(&'v str, &'v str)>;

/// What `apiSpecifications` declares, for the endpoint checks.
#[derive(Default)]
pub(super) struct Declared<'v> {
    /// `(path, method)` → the operation's parameters as `(in, name)`.
    pub operations: IndexMap<(&'v str, &'v str), Parameters<'v>>,
    pub schemes: HashSet<String>,
    /// Scheme name → where its credential goes (`in`, name; header names lowercased).
    pub slots: HashMap<String, (String, String)>,
}

impl Checker {
    pub(super) fn api_specifications<'v>(&mut self, api: Node<'v>, at: At<'_>, declared: &mut Declared<'v>) {
        let Some(api) = self.object(api, at, &tables::API) else { return };
        if let Some(servers) = self.array(api.get("servers"), at.key("servers"), "`servers`") {
            self.servers(servers, at.key("servers"));
        }
        if let Some(paths) = api.get("paths") {
            self.paths(paths, at.key("paths"), declared);
        }
        let components_at = at.key("components");
        if let Some(components) = api.get("components")
            && let Some(components) = self.object(components, components_at, &tables::COMPONENTS)
            && let Some(schemes) = components.get("securitySchemes")
        {
            let schemes_at = components_at.key("securitySchemes");
            if let Some(schemes) = self.record(schemes, schemes_at, "`securitySchemes`") {
                self.security_schemes(schemes, schemes_at, declared);
            }
        }
        if let Some(security) = api.get("security") {
            self.security(security, at.key("security"), declared);
        }
    }

    fn servers(&mut self, servers: Array<'_>, at: At<'_>) {
        let count = servers.len();
        if count != 1 {
            self.help(
                Code::ServerCount,
                at,
                format!("`servers` has {count} entries; OIS needs exactly one"),
                "keep the one server the node should call (the node uses only the first)",
            );
        }
        for (index, server) in servers.iter().enumerate() {
            let server_at = at.index(index);
            let Some(server) = self.object(server, server_at, &tables::SERVER) else { continue };
            let url_at = server_at.key("url");
            let Some(url) = self.string(server.get("url"), url_at, "the server `url`") else { continue };
            match url::Url::parse(url) {
                Err(err) => self.help(
                    Code::InvalidServerUrl,
                    url_at,
                    format!("server URL \"{url}\" is not a valid URL ({err})"),
                    "write the absolute base URL, e.g. https://api.example.com/v1",
                ),
                Ok(parsed) => {
                    // `${NAME}` is a secret the node fills, not a server variable.
                    let variable =
                        url.match_indices('{').any(|(at, _)| !url.get(..at).is_some_and(|b| b.ends_with('$')));
                    if !matches!(parsed.scheme(), "http" | "https") || variable {
                        self.help(
                            Code::ServerNotAbsoluteHttp,
                            url_at,
                            format!("server URL \"{url}\" must be an absolute http(s) URL without {{variables}}"),
                            "the node does not substitute server variables; write the final URL",
                        );
                    }
                    if url.trim_end().ends_with('/') {
                        self.help(
                            Code::ServerTrailingSlash,
                            url_at,
                            format!(
                                "server URL \"{url}\" ends with `/`; the node appends paths that start with `/`, giving `//`"
                            ),
                            "remove the trailing `/`",
                        );
                    }
                }
            }
        }
    }

    fn paths<'v>(&mut self, paths: Node<'v>, at: At<'_>, declared: &mut Declared<'v>) {
        let Some(paths) = self.record(paths, at, "`paths`") else { return };
        // Path items are checked on their own, side by side (a converted API can have thousands),
        // and their diagnostics kept in document order.
        let items: Vec<(&'v str, Node<'v>)> = paths.iter().collect();
        let family = self.family;
        let checked = parallel::map_chunks(&items, PATHS_PER_TASK, |items| {
            let mut checker = Checker { diagnostics: Vec::new(), family };
            let mut operations = Vec::new();
            for &(path, item) in items {
                checker.path_item(path, item, at, &mut operations);
            }
            (checker.diagnostics, operations)
        });
        for (diagnostics, operations) in checked {
            self.diagnostics.extend(diagnostics);
            declared.operations.extend(operations);
        }
    }

    fn path_item<'v>(
        &mut self,
        path: &'v str,
        item: Node<'v>,
        at: At<'_>,
        operations: &mut Vec<((&'v str, &'v str), Parameters<'v>)>,
    ) {
        let path_at = at.key(path);
        if !is_path_key(path) {
            self.report(
                Code::BadPathKey,
                path_at,
                format!("path \"{path}\" must start with `/` and contain no whitespace"),
            );
        }
        let Some(methods) = self.record(item, path_at, "a path item") else { return };
        for (method, operation) in methods {
            let operation_at = path_at.key(method);
            if !tables::METHODS.contains(&method) {
                self.help(
                    Code::BadMethod,
                    operation_at,
                    format!("method \"{method}\" of {path} is not supported"),
                    "OIS operations are `get` or `post` (lower case)",
                );
                continue;
            }
            let Some(operation) = self.object(operation, operation_at, &tables::OPERATION) else {
                continue;
            };
            let parameters_at = operation_at.key("parameters");
            let Some(parameters) = self.array(operation.get("parameters"), parameters_at, "`parameters`") else {
                continue;
            };
            let label = format!("{} {path}", method.to_uppercase());
            let pairs = self.operation_parameters(parameters, parameters_at, path, &label);
            operations.push(((path, method), pairs));
        }
    }

    /// A header name the node's HTTP client would refuse (spaces, a line break, non-ASCII).
    fn header_name(&mut self, name: &str, at: At<'_>) {
        if !is_http_token(name) {
            self.help(
                Code::BadHeaderName,
                at,
                format!("header name {name:?} is not an HTTP token; the node's HTTP client refuses to send it"),
                "use only letters, digits and !#$%&'*+-.^_`|~ (no spaces, colons or line breaks)",
            );
        }
    }

    fn operation_parameters<'v>(
        &mut self,
        parameters: Array<'v>,
        at: At<'_>,
        path: &str,
        label: &str,
    ) -> Parameters<'v> {
        let mut pairs = Parameters::new();
        for (index, parameter) in parameters.iter().enumerate() {
            let parameter_at = at.index(index);
            let Some(parameter) = self.object(parameter, parameter_at, &tables::API_PARAMETER) else {
                continue;
            };
            let location = self.location(parameter.get("in"), parameter_at.key("in"), OPERATION_LOCATIONS);
            let name = self.string(parameter.get("name"), parameter_at.key("name"), "`name`");
            let (Some(location), Some(name)) = (location, name) else { continue };
            if location == "header" {
                self.header_name(name, parameter_at.key("name"));
            }
            if RESERVED_PARAMETER_NAMES.contains(&name) {
                self.help(
                    Code::ReservedOperationParameter,
                    parameter_at.key("name"),
                    format!("API parameter \"{name}\" of {label} has a reserved name"),
                    "reserved names are for `reservedParameters`; rename or drop this parameter",
                );
            }
            if !pairs.insert((location, name)) {
                self.report(
                    Code::DuplicateOperationParameter,
                    parameter_at,
                    format!("{label} declares {location} parameter \"{name}\" twice"),
                );
            }
        }
        let template = placeholders(path);
        for placeholder in &template {
            if !pairs.contains(&("path", *placeholder)) {
                self.help(
                    Code::PathTemplateMismatch,
                    at,
                    format!("{label} has no path parameter for {{{placeholder}}}"),
                    format!("add {{\"in\": \"path\", \"name\": \"{placeholder}\"}}"),
                );
            }
        }
        let template: HashSet<&str> = template.into_iter().collect();
        for &(location, name) in &pairs {
            if location == "path" && !template.contains(name) {
                self.help(
                    Code::PathTemplateMismatch,
                    at,
                    format!("path parameter \"{name}\" does not appear as {{{name}}} in {path}"),
                    "add the placeholder to the path or remove the parameter",
                );
            }
        }
        pairs
    }

    fn security_schemes(&mut self, schemes: Object<'_>, at: At<'_>, declared: &mut Declared<'_>) {
        for (name, scheme) in schemes {
            declared.schemes.insert(name.to_owned());
            let scheme_at = at.key(name);
            let Some(object) = scheme.as_object() else {
                self.report(Code::WrongType, scheme_at, format!("security scheme \"{name}\" must be an object"));
                continue;
            };
            match object.get("type").and_then(Node::as_str).unwrap_or_default() {
                tables::API_KEY_TYPE => {
                    self.object(scheme, scheme_at, &tables::API_KEY_SCHEME);
                    let location = self.location(object.get("in"), scheme_at.key("in"), SCHEME_LOCATIONS);
                    let key = self.string(object.get("name"), scheme_at.key("name"), "`name`");
                    if let (Some("header"), Some(header)) = (location, key) {
                        self.header_name(header, scheme_at.key("name"));
                    }
                    if let (Some(location), Some(key)) = (location, key) {
                        let key = if location == "header" { key.to_ascii_lowercase() } else { key.to_owned() };
                        declared.slots.insert(name.to_owned(), (location.to_owned(), key));
                    }
                }
                tables::HTTP_TYPE => {
                    self.object(scheme, scheme_at, &tables::HTTP_SCHEME);
                    self.one_of(object.get("scheme"), scheme_at.key("scheme"), "`scheme`", tables::HTTP_SCHEMES);
                    declared.slots.insert(name.to_owned(), ("header".to_owned(), "authorization".to_owned()));
                }
                relay if RELAYS.contains(&relay) => {
                    self.object(scheme, scheme_at, &tables::RELAY_SCHEME);
                    self.location(object.get("in"), scheme_at.key("in"), SCHEME_LOCATIONS);
                    self.string(object.get("name"), scheme_at.key("name"), "`name`");
                }
                other => self.help(
                    Code::BadSecurityScheme,
                    scheme_at,
                    format!("security scheme \"{name}\" has type \"{other}\", which OIS does not accept"),
                    format!("use apiKey, http (basic/bearer) or a relay type ({})", RELAYS.join(", ")),
                ),
            }
        }
    }

    fn security(&mut self, security: Node<'_>, at: At<'_>, declared: &Declared<'_>) {
        let Some(security) = self.record(security, at, "`security`") else { return };
        let mut taken: HashMap<&(String, String), &str> = HashMap::new();
        for (name, value) in security {
            let entry_at = at.key(name);
            if let Some(slot) = declared.slots.get(name) {
                if let Some(first) = taken.get(slot) {
                    self.help(
                        Code::SchemesClash,
                        entry_at,
                        format!(
                            "\"{first}\" and \"{name}\" both write the {} {:?}; the node sends only the last one's value",
                            slot.0, slot.1
                        ),
                        "keep one of them in `security` (and its credential)",
                    );
                } else {
                    taken.insert(slot, name);
                }
            }
            if !declared.schemes.contains(name) {
                self.help(
                    Code::UndefinedSecurity,
                    entry_at,
                    format!("`security` names \"{name}\", which is not in components.securitySchemes"),
                    "define the scheme or remove this entry",
                );
            }
            if value.as_array().is_none_or(|items| !items.is_empty()) {
                self.help(
                    Code::SecurityNotEmpty,
                    entry_at,
                    format!("`security.{name}` must be an empty list"),
                    format!("write \"{name}\": []"),
                );
            }
        }
    }
}
