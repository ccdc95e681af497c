//! The one absolute base URL an OIS allows: chosen from `servers`, variables substituted,
//! relative URLs resolved against `--base-url`, trailing `/` removed.

use openapiv3::Server as OpenApiServer;
use serde_json::Value;

use super::options::ConvertOptions;
use super::shared::KeptOperation;
use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::pointer;

/// The server URL for the OIS, or the error that stops the conversion.
pub(super) fn choose(
    root: &Value,
    options: &ConvertOptions,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<String, Diagnostic> {
    let mut base_used = false;
    let chosen = choose_url(root, options, &mut base_used, diagnostics);
    if let (Ok(url), Some(base)) = (&chosen, &options.base_url)
        && !base_used
    {
        diagnostics.push(Diagnostic::elsewhere(
            Code::BaseUrlUnused,
            format!("the base URL \"{base}\" is not used: the server URL {url} is absolute"),
        ));
    }
    chosen
}

fn choose_url(
    root: &Value,
    options: &ConvertOptions,
    base_used: &mut bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<String, Diagnostic> {
    let servers: Vec<(usize, OpenApiServer)> = root
        .get("servers")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(index, item)| match serde_json::from_value::<OpenApiServer>(item.clone()) {
                    Ok(server) => Some((index, server)),
                    Err(err) => {
                        diagnostics.push(Diagnostic::new(
                            Code::InvalidItem,
                            format!("/servers/{index}"),
                            format!("server {index} is not a valid Server object ({err}); it is ignored"),
                        ));
                        None
                    }
                })
                .collect()
        })
        .unwrap_or_default();

    let (index, server) = match (&options.server, servers.first()) {
        (Some(wanted), _) => match pick(&servers, wanted) {
            Ok(found) => found,
            // A host the document does not list (a paid tier, a region) is used as given.
            Err(_) if is_absolute_http(wanted) => {
                let listed: Vec<&str> = servers.iter().map(|(_, s)| s.url.as_str()).collect();
                let others = if listed.is_empty() { "none".to_owned() } else { listed.join(", ") };
                diagnostics.push(Diagnostic::elsewhere(
                    Code::ServerChosen,
                    format!("using {wanted} as given: it is not one of the document's servers ({others})"),
                ));
                return finish(wanted, "", "the server URL");
            }
            Err(error) => return Err(error),
        },
        (None, Some(first)) => first.clone(),
        (None, None) => {
            let Some(base) = &options.base_url else {
                return Err(Diagnostic::new(Code::NoServer, "/servers", "the document declares no server URL")
                    .with_fix(Fix::GiveBaseUrl));
            };
            *base_used = true;
            return finish(base, "", "the base URL");
        }
    };
    let at = format!("/servers/{index}");
    let url = substitute(&server, &options.server_vars, &at)?;
    let resolved = if has_scheme(&url) {
        url
    } else {
        let Some(base) = &options.base_url else {
            return Err(Diagnostic::new(
                Code::RelativeServer,
                format!("{at}/url"),
                format!("the server URL \"{url}\" is relative, and OIS needs an absolute URL"),
            )
            .with_fix(Fix::GiveRelativeBase));
        };
        *base_used = true;
        let joined = url::Url::parse(base).and_then(|base| base.join(&url)).map_err(|err| {
            Diagnostic::elsewhere(
                Code::BadServerUrl,
                format!("the base URL \"{base}\" cannot resolve \"{url}\": {err}"),
            )
        })?;
        joined.to_string()
    };
    if servers.len() > 1 && options.server.is_none() {
        let others: Vec<&str> = servers.iter().skip(1).map(|(_, s)| s.url.as_str()).collect();
        diagnostics.push(
            Diagnostic::new(
                Code::ServerChosen,
                at.clone(),
                format!("using the first of {} servers; the others are: {}", servers.len(), others.join(", ")),
            )
            .with_fix(Fix::PickServer),
        );
    }
    finish(&resolved, &format!("{at}/url"), "the server URL")
}

/// The server asked for: a 0-based index, or a URL as written in the document.
fn pick(servers: &[(usize, OpenApiServer)], wanted: &str) -> Result<(usize, OpenApiServer), Diagnostic> {
    let found = match wanted.parse::<usize>() {
        Ok(index) => servers.iter().find(|(i, _)| *i == index),
        Err(_) => servers.iter().find(|(_, s)| s.url.trim_end_matches('/') == wanted.trim_end_matches('/')),
    };
    found.cloned().ok_or_else(|| {
        let listed: Vec<String> = servers.iter().map(|(i, s)| format!("{i}: {}", s.url)).collect();
        let diagnostic =
            Diagnostic::new(Code::ServerChoice, "/servers", format!("server {wanted} is not a server of the document"));
        if listed.is_empty() {
            diagnostic.with_help("the document has no servers").with_fix(Fix::UseBaseUrlInstead)
        } else {
            diagnostic.with_help(format!("the servers are {}", listed.join("; ")))
        }
    })
}

/// The URL with every `{variable}` replaced by the value given for it, or its default.
fn substitute(server: &OpenApiServer, overrides: &[(String, String)], at: &str) -> Result<String, Diagnostic> {
    let variables = server.variables.clone().unwrap_or_default();
    for (name, _) in overrides {
        if !variables.contains_key(name) {
            let known: Vec<&str> = variables.keys().map(String::as_str).collect();
            return Err(Diagnostic::new(
                Code::ServerVariable,
                format!("{at}/variables"),
                format!("server variable \"{name}\" was given, but the server has no such variable"),
            )
            .with_help(if known.is_empty() {
                "this server has no variables".to_owned()
            } else {
                format!("its variables are: {}", known.join(", "))
            }));
        }
    }
    let mut values: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
    for name in crate::ois::rules::placeholders(&server.url) {
        let variable_at = pointer::join(&format!("{at}/variables"), [name]);
        let Some(variable) = variables.get(name) else {
            return Err(Diagnostic::new(
                Code::ServerVariable,
                format!("{at}/url"),
                format!("the server URL uses {{{name}}}, which its `variables` do not define"),
            )
            .with_fix(Fix::GiveServerVariable(name.to_owned())));
        };
        let value = overrides.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        if let Some(value) = &value
            && !variable.enumeration.is_empty()
            && !variable.enumeration.contains(value)
        {
            return Err(Diagnostic::new(
                Code::ServerVariable,
                format!("{variable_at}/enum"),
                format!("server variable {name}={value}: \"{value}\" is not one of the allowed values"),
            )
            .with_help(format!("allowed: {}", variable.enumeration.join(", "))));
        }
        let from_flag = value.is_some();
        let value = value.unwrap_or_else(|| variable.default.clone());
        if value.contains(['{', '}']) {
            let message = format!(
                "server variable {name}=\"{value}\" contains `{{` or `}}`: the URL would keep a template the node sends as it is"
            );
            let diagnostic = if from_flag {
                Diagnostic::elsewhere(Code::ServerVariableTemplate, message)
            } else {
                Diagnostic::new(Code::ServerVariableTemplate, format!("{variable_at}/default"), message)
            };
            return Err(diagnostic.with_fix(Fix::GiveServerVariable(name.to_owned())));
        }
        values.insert(name, value);
    }
    // One pass over the template: values are never scanned again, so a value cannot make the
    // URL grow. Each placeholder is read as the node reads path placeholders.
    let mut url = String::with_capacity(server.url.len());
    let mut rest = server.url.as_str();
    for (matched, name) in crate::ois::rules::placeholder_matches(&server.url) {
        let Some((before, after)) = rest.split_once(matched) else { break };
        url.push_str(before);
        url.push_str(values.get(name).map_or(matched, String::as_str));
        rest = after;
    }
    url.push_str(rest);
    Ok(url)
}

fn is_absolute_http(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|parsed| matches!(parsed.scheme(), "http" | "https") && parsed.has_host())
}

fn has_scheme(url: &str) -> bool {
    url::Url::parse(url).is_ok()
}

/// Checks the final URL and removes trailing slashes (the node concatenates base and path).
fn finish(url: &str, at: &str, what: &str) -> Result<String, Diagnostic> {
    let parsed = url::Url::parse(url.trim()).map_err(|err| {
        Diagnostic::new(Code::BadServerUrl, at, format!("{what} \"{url}\" is not a valid URL ({err})"))
            .with_help("OIS needs an absolute http(s) URL such as https://api.example.com/v1")
    })?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none_or(str::is_empty) {
        return Err(Diagnostic::new(
            Code::BadServerUrl,
            at,
            format!("{what} \"{url}\" is not an http(s) URL with a host"),
        )
        .with_help("OIS needs an absolute http(s) URL such as https://api.example.com/v1"));
    }
    if url.contains(['{', '}']) {
        return Err(Diagnostic::new(
            Code::BadServerUrl,
            at,
            format!("{what} \"{url}\" still has `{{` or `}}` in it: a template the node would send as it is"),
        )
        .with_help("give every server variable a plain value")
        .with_fix(Fix::PickServer));
    }
    let mut url = url.trim().to_owned();
    while url.ends_with('/') {
        url.pop();
    }
    Ok(url)
}

/// Warns for every kept operation whose own (path- or operation-level) servers do not include the
/// chosen URL: the node will call the chosen one for it.
pub(super) fn check_operation_servers(chosen: &str, operations: &[KeptOperation], diagnostics: &mut Vec<Diagnostic>) {
    for operation in operations {
        let candidates = [(&operation.place, operation.servers), (&operation.path_item_place, operation.path_servers)];
        let Some((at, Some(Value::Array(servers)))) = candidates.into_iter().find(|(_, s)| s.is_some()) else {
            continue;
        };
        let matches = servers.iter().any(|server| {
            serde_json::from_value::<OpenApiServer>(server.clone())
                .ok()
                .and_then(|s| substitute(&s, &[], "").ok())
                .is_some_and(|url| url.trim_end_matches('/') == chosen || chosen.ends_with(url.trim_end_matches('/')))
        });
        if !matches {
            let urls: Vec<&str> = servers.iter().filter_map(|s| s.get("url").and_then(Value::as_str)).collect();
            diagnostics.push(
                Diagnostic::new(
                    Code::OperationServer,
                    at.join(["servers"]),
                    format!(
                        "{} {} declares its own servers ({}); the OIS has one server for all operations, {chosen}",
                        operation.method.as_str().to_uppercase(),
                        operation.path,
                        urls.join(", ")
                    ),
                )
                .with_fix(Fix::ConvertWithItsServer),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn url(root: Value, options: ConvertOptions) -> Result<String, Code> {
        choose(&root, &options, &mut Vec::new()).map_err(|d| d.code)
    }

    fn opts(f: impl FnOnce(&mut ConvertOptions)) -> ConvertOptions {
        let mut options = ConvertOptions::default();
        f(&mut options);
        options
    }

    #[test]
    fn first_server_with_trailing_slash_removed() {
        let root = json!({"servers": [{"url": "https://a.example/v1/"}, {"url": "https://b.example"}]});
        assert_eq!(url(root.clone(), ConvertOptions::default()), Ok("https://a.example/v1".into()));
        assert_eq!(url(root.clone(), opts(|o| o.server = Some("1".into()))), Ok("https://b.example".into()));
        assert_eq!(
            url(root.clone(), opts(|o| o.server = Some("https://b.example/".into()))),
            Ok("https://b.example".into())
        );
        assert_eq!(url(root, opts(|o| o.server = Some("7".into()))), Err(Code::ServerChoice));
    }

    #[test]
    fn any_absolute_url_can_be_the_server() {
        // A paid tier or a regional host the document does not list.
        let root = json!({"servers": [{"url": "https://api.example"}]});
        let mut diagnostics = Vec::new();
        let pro = opts(|o| o.server = Some("https://pro-api.example/v3/".into()));
        assert_eq!(choose(&root, &pro, &mut diagnostics).map_err(|d| d.code), Ok("https://pro-api.example/v3".into()));
        assert_eq!(diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::ServerChosen]);
        assert!(diagnostics[0].message.contains("not one of the document's servers"), "{}", diagnostics[0].message);
        // Neither an index nor an absolute http(s) URL: still refused.
        assert_eq!(url(root, opts(|o| o.server = Some("/relative".into()))), Err(Code::ServerChoice));
    }

    #[test]
    fn an_unused_base_url_is_a_warning() {
        let mut diagnostics = Vec::new();
        let base = opts(|o| o.base_url = Some("https://other.example".into()));
        let chosen = choose(&json!({"servers": [{"url": "https://api.example"}]}), &base, &mut diagnostics);
        assert_eq!(chosen.map_err(|d| d.code), Ok("https://api.example".into()));
        assert_eq!(diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::BaseUrlUnused]);
        let mut used = Vec::new();
        let _ = choose(&json!({"servers": [{"url": "/v1"}]}), &base, &mut used);
        assert!(used.is_empty(), "{used:?}");
    }

    #[test]
    fn variables_defaults_overrides_and_enums() {
        let root = json!({"servers": [{"url": "https://{env}.example/{v}", "variables": {
            "env": {"default": "api", "enum": ["api", "sandbox"]}, "v": {"default": "v2"}}}]});
        assert_eq!(url(root.clone(), ConvertOptions::default()), Ok("https://api.example/v2".into()));
        let sandbox = opts(|o| o.server_vars = vec![("env".into(), "sandbox".into())]);
        assert_eq!(url(root.clone(), sandbox), Ok("https://sandbox.example/v2".into()));
        let bad = opts(|o| o.server_vars = vec![("env".into(), "prod".into())]);
        assert_eq!(url(root.clone(), bad), Err(Code::ServerVariable));
        let unknown = opts(|o| o.server_vars = vec![("nope".into(), "x".into())]);
        assert_eq!(url(root, unknown), Err(Code::ServerVariable));
        assert_eq!(
            url(json!({"servers": [{"url": "https://{x}.example"}]}), ConvertOptions::default()),
            Err(Code::ServerVariable)
        );
    }

    #[test]
    fn a_value_naming_its_own_variable_does_not_grow_the_url() {
        // Found by fuzzing: repeated replace() re-expanded `{a}` inside the value, exponentially.
        let template = format!("https://x.example/{}", "{a}".repeat(30));
        let server: OpenApiServer =
            serde_json::from_value(json!({"url": template, "variables": {"a": {"default": "{a}{a}"}}})).unwrap();
        // Such a value is refused now: the URL would keep a template.
        let refused = substitute(&server, &[], "/servers/0").map_err(|d| d.code);
        assert_eq!(refused, Err(Code::ServerVariableTemplate));
        let plain = [("a".to_owned(), "b".to_owned())];
        assert_eq!(substitute(&server, &plain, "/servers/0").unwrap(), format!("https://x.example/{}", "b".repeat(30)));
    }

    #[test]
    fn relative_and_missing_servers_need_base_url() {
        let relative = json!({"servers": [{"url": "/api/v3"}]});
        assert_eq!(url(relative.clone(), ConvertOptions::default()), Err(Code::RelativeServer));
        let base = opts(|o| o.base_url = Some("https://petstore.example/".into()));
        assert_eq!(url(relative, base.clone()), Ok("https://petstore.example/api/v3".into()));
        assert_eq!(url(json!({}), ConvertOptions::default()), Err(Code::NoServer));
        assert_eq!(url(json!({"servers": []}), base), Ok("https://petstore.example".into()));
        assert_eq!(
            url(json!({"servers": [{"url": "ftp://x.example"}]}), ConvertOptions::default()),
            Err(Code::BadServerUrl)
        );
    }
}
