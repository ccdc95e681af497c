//! Every rule `@api3/ois` (2.3.x and 3.0.x) applies to an OIS object, plus the format text's
//! stricter rules, each with its own code. Works on `Value` so hand-edited files of any shape get
//! a diagnostic per problem rather than one deserialization error.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic};
use crate::ois::model::{FormatFamily, RESERVED_NAMES};
use crate::pointer;

const ROOT_KEYS: &[&str] = &[
    "oisFormat",
    "title",
    "version",
    "apiSpecifications",
    "endpoints",
];
const API_KEYS: &[&str] = &["servers", "paths", "components", "security"];
const ENDPOINT_REQUIRED: &[&str] = &[
    "name",
    "fixedOperationParameters",
    "parameters",
    "reservedParameters",
];
const ENDPOINT_KEYS: &[&str] = &[
    "name",
    "operation",
    "fixedOperationParameters",
    "reservedParameters",
    "parameters",
    "summary",
    "description",
    "externalDocs",
    "preProcessingSpecifications",
    "postProcessingSpecifications",
    "preProcessingSpecificationV2",
    "postProcessingSpecificationV2",
];
const PARAMETER_KEYS: &[&str] = &[
    "name",
    "operationParameter",
    "description",
    "example",
    "default",
    "required",
];
const OPERATION_LOCATIONS: &[&str] = &["path", "query", "header", "cookie", "processing"];
const RELAY_TYPES: &[&str] = &[
    "relayChainId",
    "relayChainType",
    "relayRequesterAddress",
    "relaySponsorAddress",
    "relaySponsorWalletAddress",
    "relayRequestId",
];

/// Checks one OIS object. `family` forces a format family; by default it comes from `oisFormat`.
pub fn check(ois: &Value, family: Option<FormatFamily>) -> Vec<Diagnostic> {
    let mut checker = Checker {
        diagnostics: Vec::new(),
        family: family.unwrap_or(FormatFamily::V3_0),
    };
    checker.root(ois, family);
    checker.diagnostics
}

struct Checker {
    diagnostics: Vec<Diagnostic>,
    family: FormatFamily,
}

/// An API operation's parameters as `(in, name)` pairs, for the mapping checks.
type OperationParameters = Vec<(String, String)>;

/// Every declared operation by `(path, method)`.
type Operations = HashMap<(String, String), OperationParameters>;

impl Checker {
    fn report(&mut self, code: Code, at: &str, message: impl Into<String>) -> &mut Diagnostic {
        self.diagnostics.push(Diagnostic::new(code, at, message));
        let last = self.diagnostics.len() - 1;
        &mut self.diagnostics[last]
    }

    fn help(&mut self, code: Code, at: &str, message: impl Into<String>, help: impl Into<String>) {
        self.report(code, at, message).help = Some(help.into());
    }

    /// The object at `at`, or a type error. Unknown keys (outside `allowed`) and missing `required`
    /// keys are reported.
    fn object<'v>(
        &mut self,
        value: &'v Value,
        at: &str,
        what: &str,
        allowed: &[&str],
        required: &[&str],
    ) -> Option<&'v Map<String, Value>> {
        let Some(object) = value.as_object() else {
            self.report(
                Code::WrongType,
                at,
                format!(
                    "{what} must be an object, not {}",
                    crate::openapi::kind_of(value)
                ),
            );
            return None;
        };
        for key in object.keys() {
            if !allowed.contains(&key.as_str()) {
                self.help(
                    Code::UnknownField,
                    &pointer::join(at, [key.as_str()]),
                    format!("{what} does not allow the field \"{key}\""),
                    format!("remove it; allowed fields: {}", allowed.join(", ")),
                );
            }
        }
        for key in required {
            if !object.contains_key(*key) {
                self.report(
                    Code::MissingField,
                    at,
                    format!("{what} is missing the required field \"{key}\""),
                );
            }
        }
        Some(object)
    }

    /// A map with free keys (paths, scheme names): only its type is checked here.
    fn record<'v>(
        &mut self,
        value: &'v Value,
        at: &str,
        what: &str,
    ) -> Option<&'v Map<String, Value>> {
        self.typed(value, at, what, "an object", Value::as_object)
    }

    /// `get(value)`, or a type error saying what `what` must be.
    fn typed<'v, T>(
        &mut self,
        value: &'v Value,
        at: &str,
        what: &str,
        expected: &str,
        get: impl Fn(&'v Value) -> Option<T>,
    ) -> Option<T> {
        let got = get(value);
        if got.is_none() {
            let message = format!(
                "{what} must be {expected}, not {}",
                crate::openapi::kind_of(value)
            );
            self.report(Code::WrongType, at, message);
        }
        got
    }

    fn string<'v>(&mut self, value: Option<&'v Value>, at: &str, what: &str) -> Option<&'v str> {
        self.typed(value?, at, what, "a string", Value::as_str)
    }

    fn array<'v>(
        &mut self,
        value: Option<&'v Value>,
        at: &str,
        what: &str,
    ) -> Option<&'v Vec<Value>> {
        self.typed(value?, at, what, "an array", Value::as_array)
    }

    fn one_of(
        &mut self,
        value: Option<&Value>,
        at: &str,
        what: &str,
        allowed: &[&str],
    ) -> Option<String> {
        self.one_of_as(Code::BadEnumValue, value, at, what, allowed)
    }

    /// An `in` field: its own code, since a wrong location is the most common slip.
    fn location(&mut self, value: Option<&Value>, at: &str, allowed: &[&str]) -> Option<String> {
        self.one_of_as(Code::BadLocation, value, at, "`in`", allowed)
    }

    fn one_of_as(
        &mut self,
        code: Code,
        value: Option<&Value>,
        at: &str,
        what: &str,
        allowed: &[&str],
    ) -> Option<String> {
        let text = self.string(value, at, what)?;
        if allowed.contains(&text) {
            Some(text.to_owned())
        } else {
            let message = format!(
                "{what} is \"{text}\"; it must be one of: {}",
                allowed.join(", ")
            );
            self.report(code, at, message);
            None
        }
    }

    fn root(&mut self, ois: &Value, forced: Option<FormatFamily>) {
        let Some(root) = self.object(ois, "", "the OIS object", ROOT_KEYS, ROOT_KEYS) else {
            return;
        };
        if let Some(format) = self.string(root.get("oisFormat"), "/oisFormat", "`oisFormat`") {
            self.ois_format(format, forced);
        }
        if let Some(title) = self.string(root.get("title"), "/title", "`title`") {
            let length = title.encode_utf16().count();
            let allowed =
                |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || is_js_whitespace(c);
            if !(1..=64).contains(&length) || !title.chars().all(allowed) {
                self.help(
                    Code::BadTitle,
                    "/title",
                    format!("title \"{title}\" must be 1-64 characters of ASCII letters, digits, `_`, `-` and spaces"),
                    "remove dots, slashes and non-ASCII letters",
                );
            }
        }
        if let Some(version) = self.string(root.get("version"), "/version", "`version`")
            && !self.is_semver(version)
        {
            self.help(
                Code::BadVersion,
                "/version",
                format!("version \"{version}\" must be x.y.z with numeric parts"),
                "for example \"1.0.0\"; no `v` prefix or pre-release tag",
            );
        }
        let mut operations = Operations::new();
        let mut schemes = HashSet::new();
        if let Some(api) = root.get("apiSpecifications") {
            self.api_specifications(api, &mut operations, &mut schemes);
        }
        if let Some(endpoints) = self.array(root.get("endpoints"), "/endpoints", "`endpoints`") {
            self.endpoints(endpoints, &operations);
        }
    }

    fn ois_format(&mut self, format: &str, forced: Option<FormatFamily>) {
        let family = FormatFamily::of(format);
        match (forced, family) {
            (None, Some(family)) => self.family = family,
            (Some(forced), Some(family)) if forced == family => {}
            (Some(forced), _) => {
                self.help(
                    Code::BadOisFormat,
                    "/oisFormat",
                    format!(
                        "oisFormat \"{format}\" is not of the {} family this check was asked for",
                        forced.default_version()
                    ),
                    format!("set \"oisFormat\": \"{}\"", forced.default_version()),
                );
                return;
            }
            (None, None) => {
                self.help(
                    Code::BadOisFormat,
                    "/oisFormat",
                    format!("oisFormat \"{format}\" is not supported"),
                    "use \"2.3.2\" (Airnode 0.15, Airnode Feed ≤ 3.3) or \"3.0.0\" (Airnode Feed 4.x)",
                );
                return;
            }
        }
        if !self.is_semver(format) {
            self.report(
                Code::BadOisFormat,
                "/oisFormat",
                format!("oisFormat \"{format}\" must be x.y.z with numeric parts"),
            );
        }
    }

    /// `@api3/ois`'s semver: three numeric parts. Before 3.0 an empty part slipped through.
    fn is_semver(&self, text: &str) -> bool {
        let parts: Vec<&str> = text.split('.').collect();
        parts.len() == 3
            && parts.iter().all(|part| {
                (part.is_empty() && self.family == FormatFamily::V2_3)
                    || (!part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
            })
    }

    fn api_specifications(
        &mut self,
        api: &Value,
        operations: &mut Operations,
        schemes: &mut HashSet<String>,
    ) {
        let at = "/apiSpecifications";
        let Some(api) = self.object(api, at, "`apiSpecifications`", API_KEYS, API_KEYS) else {
            return;
        };
        if let Some(servers) = self.array(
            api.get("servers"),
            "/apiSpecifications/servers",
            "`servers`",
        ) {
            self.servers(servers);
        }
        if let Some(paths) = api.get("paths") {
            self.paths(paths, operations);
        }
        if let Some(components) = api.get("components") {
            let at = "/apiSpecifications/components";
            let keys = &["securitySchemes"];
            if let Some(components) = self.object(components, at, "`components`", keys, keys)
                && let Some(defined) = components.get("securitySchemes")
            {
                let at = "/apiSpecifications/components/securitySchemes";
                if let Some(defined) = self.record(defined, at, "`securitySchemes`") {
                    self.security_schemes(defined, schemes);
                }
            }
        }
        if let Some(security) = api.get("security") {
            self.security(security, schemes);
        }
    }

    fn servers(&mut self, servers: &[Value]) {
        if servers.len() != 1 {
            self.help(
                Code::ServerCount,
                "/apiSpecifications/servers",
                format!(
                    "`servers` has {} entries; OIS needs exactly one",
                    servers.len()
                ),
                "keep the one server the node should call (the node uses only the first)",
            );
        }
        for (index, server) in servers.iter().enumerate() {
            let at = pointer::join("/apiSpecifications/servers", [index.to_string().as_str()]);
            let Some(server) = self.object(server, &at, "a server", &["url"], &["url"]) else {
                continue;
            };
            let url_at = format!("{at}/url");
            let Some(url) = self.string(server.get("url"), &url_at, "the server `url`") else {
                continue;
            };
            match url::Url::parse(url) {
                Err(err) => {
                    self.help(
                        Code::InvalidServerUrl,
                        &url_at,
                        format!("server URL \"{url}\" is not a valid URL ({err})"),
                        "write the absolute base URL, e.g. https://api.example.com/v1",
                    );
                }
                Ok(parsed) => {
                    if !matches!(parsed.scheme(), "http" | "https") || url.contains('{') {
                        self.help(
                            Code::ServerNotAbsoluteHttp,
                            &url_at,
                            format!("server URL \"{url}\" must be an absolute http(s) URL without {{variables}}"),
                            "the node does not substitute server variables; write the final URL",
                        );
                    }
                    if url.trim_end().ends_with('/') {
                        self.help(
                            Code::ServerTrailingSlash,
                            &url_at,
                            format!("server URL \"{url}\" ends with `/`; the node appends paths that start with `/`, giving `//`"),
                            "remove the trailing `/`",
                        );
                    }
                }
            }
        }
    }

    fn paths(
        &mut self,
        paths: &Value,
        operations: &mut Operations,
    ) {
        let at = "/apiSpecifications/paths";
        let Some(paths) = self.record(paths, at, "`paths`") else {
            return;
        };
        for (path, item) in paths {
            let path_at = pointer::join(at, [path.as_str()]);
            if !is_path_key(path) {
                self.report(
                    Code::BadPathKey,
                    &path_at,
                    format!("path \"{path}\" must start with `/` and contain no whitespace"),
                );
            }
            let Some(methods) = self.record(item, &path_at, "a path item") else {
                continue;
            };
            for (method, operation) in methods {
                let op_at = pointer::join(&path_at, [method.as_str()]);
                if method != "get" && method != "post" {
                    self.help(
                        Code::BadMethod,
                        &op_at,
                        format!("method \"{method}\" of {path} is not supported"),
                        "OIS operations are `get` or `post` (lower case)",
                    );
                    continue;
                }
                let keys = &["parameters"];
                let Some(operation) = self.object(operation, &op_at, "an operation", keys, keys)
                else {
                    continue;
                };
                let params_at = format!("{op_at}/parameters");
                let Some(parameters) =
                    self.array(operation.get("parameters"), &params_at, "`parameters`")
                else {
                    continue;
                };
                let pairs = self.operation_parameters(parameters, &params_at, path, method);
                operations.insert((path.clone(), method.clone()), pairs);
            }
        }
    }

    fn operation_parameters(
        &mut self,
        parameters: &[Value],
        at: &str,
        path: &str,
        method: &str,
    ) -> OperationParameters {
        let mut pairs: OperationParameters = Vec::new();
        let keys = &["in", "name"];
        for (index, parameter) in parameters.iter().enumerate() {
            let param_at = pointer::join(at, [index.to_string().as_str()]);
            let Some(parameter) = self.object(parameter, &param_at, "an API parameter", keys, keys)
            else {
                continue;
            };
            let location = self.location(
                parameter.get("in"),
                &format!("{param_at}/in"),
                OPERATION_LOCATIONS,
            );
            let name = self.string(parameter.get("name"), &format!("{param_at}/name"), "`name`");
            let (Some(location), Some(name)) = (location, name) else {
                continue;
            };
            if RESERVED_NAMES.contains(&name) {
                self.help(
                    Code::ReservedOperationParameter,
                    &format!("{param_at}/name"),
                    format!(
                        "API parameter \"{name}\" of {} {path} has a reserved name",
                        method.to_uppercase()
                    ),
                    "reserved names are for `reservedParameters`; rename or drop this parameter",
                );
            }
            let pair = (location, name.to_owned());
            if pairs.contains(&pair) {
                self.report(
                    Code::DuplicateOperationParameter,
                    &param_at,
                    format!(
                        "{} {path} declares {} parameter \"{name}\" twice",
                        method.to_uppercase(),
                        pair.0
                    ),
                );
            } else {
                pairs.push(pair);
            }
        }
        let placeholders = placeholders(path);
        for placeholder in &placeholders {
            if !pairs
                .iter()
                .any(|(location, name)| location == "path" && name == placeholder)
            {
                self.help(
                    Code::PathTemplateMismatch,
                    at,
                    format!(
                        "{} {path} has no path parameter for {{{placeholder}}}",
                        method.to_uppercase()
                    ),
                    format!("add {{\"in\": \"path\", \"name\": \"{placeholder}\"}}"),
                );
            }
        }
        for (location, name) in &pairs {
            if location == "path" && !placeholders.contains(&name.as_str()) {
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

    fn security_schemes(&mut self, schemes: &Map<String, Value>, defined: &mut HashSet<String>) {
        let at = "/apiSpecifications/components/securitySchemes";
        for (name, scheme) in schemes {
            defined.insert(name.clone());
            let scheme_at = pointer::join(at, [name.as_str()]);
            let Some(object) = scheme.as_object() else {
                self.report(
                    Code::WrongType,
                    &scheme_at,
                    format!("security scheme \"{name}\" must be an object"),
                );
                continue;
            };
            let kind = object
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let located = &["type", "in", "name"];
            match kind {
                "apiKey" => {
                    self.object(scheme, &scheme_at, "an apiKey scheme", located, located);
                    self.location(
                        object.get("in"),
                        &format!("{scheme_at}/in"),
                        &["query", "header", "cookie"],
                    );
                    self.string(object.get("name"), &format!("{scheme_at}/name"), "`name`");
                }
                "http" => {
                    let keys = &["type", "scheme"];
                    self.object(scheme, &scheme_at, "an http scheme", keys, keys);
                    self.one_of(
                        object.get("scheme"),
                        &format!("{scheme_at}/scheme"),
                        "`scheme`",
                        &["basic", "bearer"],
                    );
                }
                relay if RELAY_TYPES.contains(&relay) => {
                    self.object(scheme, &scheme_at, "a relay scheme", located, located);
                    self.location(
                        object.get("in"),
                        &format!("{scheme_at}/in"),
                        &["query", "header", "cookie"],
                    );
                    self.string(object.get("name"), &format!("{scheme_at}/name"), "`name`");
                }
                other => self.help(
                    Code::BadSecurityScheme,
                    &scheme_at,
                    format!(
                        "security scheme \"{name}\" has type \"{other}\", which OIS does not accept"
                    ),
                    format!(
                        "use apiKey, http (basic/bearer) or a relay type ({})",
                        RELAY_TYPES.join(", ")
                    ),
                ),
            }
        }
    }

    fn security(&mut self, security: &Value, defined: &HashSet<String>) {
        let at = "/apiSpecifications/security";
        let Some(security) = self.record(security, at, "`security`") else {
            return;
        };
        for (name, value) in security {
            let entry_at = pointer::join(at, [name.as_str()]);
            if !defined.contains(name) {
                self.help(
                    Code::UndefinedSecurity,
                    &entry_at,
                    format!(
                        "`security` names \"{name}\", which is not in components.securitySchemes"
                    ),
                    "define the scheme or remove this entry",
                );
            }
            if value.as_array().is_none_or(|items| !items.is_empty()) {
                self.help(
                    Code::SecurityNotEmpty,
                    &entry_at,
                    format!("`security.{name}` must be an empty list"),
                    format!("write \"{name}\": []"),
                );
            }
        }
    }

    fn endpoints(
        &mut self,
        endpoints: &[Value],
        operations: &Operations,
    ) {
        let mut names: HashSet<&str> = HashSet::new();
        for (index, endpoint) in endpoints.iter().enumerate() {
            let at = pointer::join("/endpoints", [index.to_string().as_str()]);
            let Some(object) = self.object(
                endpoint,
                &at,
                "an endpoint",
                ENDPOINT_KEYS,
                ENDPOINT_REQUIRED,
            ) else {
                continue;
            };
            if let Some(name) = self.string(
                object.get("name"),
                &format!("{at}/name"),
                "the endpoint `name`",
            ) && !names.insert(name)
            {
                self.help(
                    Code::DuplicateEndpointName,
                    &format!("{at}/name"),
                    format!("endpoint name \"{name}\" is used twice"),
                    "the node uses only the first endpoint of a name, and both get the same endpoint ID; rename one",
                );
            }
            for key in ["summary", "description", "externalDocs"] {
                self.string(
                    object.get(key),
                    &pointer::join(&at, [key]),
                    &format!("`{key}`"),
                );
            }
            self.endpoint(object, &at, operations);
        }
    }

    fn endpoint(
        &mut self,
        endpoint: &Map<String, Value>,
        at: &str,
        operations: &Operations,
    ) {
        let operation = endpoint
            .get("operation")
            .and_then(|operation| self.endpoint_operation(operation, at, operations));
        let fixed_at = format!("{at}/fixedOperationParameters");
        let fixed = self.array(
            endpoint.get("fixedOperationParameters"),
            &fixed_at,
            "`fixedOperationParameters`",
        );
        let params_at = format!("{at}/parameters");
        let parameters = self.array(endpoint.get("parameters"), &params_at, "`parameters`");
        let mut mapped: Vec<(String, String, String)> = Vec::new();
        for (index, item) in fixed.into_iter().flatten().enumerate() {
            let item_at = pointer::join(&fixed_at, [index.to_string().as_str()]);
            let keys = &["operationParameter", "value"];
            let Some(item) = self.object(
                item,
                &item_at,
                "a fixed operation parameter",
                keys,
                &["operationParameter"],
            ) else {
                continue;
            };
            if !item.contains_key("value") && self.family == FormatFamily::V3_0 {
                self.help(
                    Code::FixedValueMissing,
                    &item_at,
                    "a fixed operation parameter needs a `value` (required since OIS 3.0)",
                    "add \"value\": the value the node always sends",
                );
            }
            if let Some(pair) = item
                .get("operationParameter")
                .and_then(|p| self.operation_parameter(p, &item_at))
            {
                mapped.push((pair.0, pair.1, item_at));
            }
        }
        let mut names: HashSet<&str> = HashSet::new();
        for (index, parameter) in parameters.into_iter().flatten().enumerate() {
            let param_at = pointer::join(&params_at, [index.to_string().as_str()]);
            let Some(parameter) = self.object(
                parameter,
                &param_at,
                "an endpoint parameter",
                PARAMETER_KEYS,
                &["name"],
            ) else {
                continue;
            };
            let name_at = format!("{param_at}/name");
            if let Some(name) = self.string(parameter.get("name"), &name_at, "the parameter `name`")
            {
                if name.is_empty() || name.chars().any(is_js_whitespace) {
                    self.report(
                        Code::BadParameterName,
                        &name_at,
                        format!("parameter name \"{name}\" must be non-empty with no whitespace"),
                    );
                } else if name.starts_with('_') {
                    self.help(
                        Code::UnderscoreParameterName,
                        &name_at,
                        format!("parameter name \"{name}\" starts with `_`, which the OIS format reserves"),
                        "rename it; names starting with `_` are for reserved parameters",
                    );
                }
                if !names.insert(name) {
                    self.report(
                        Code::DuplicateParameterName,
                        &name_at,
                        format!("two parameters of this endpoint are named \"{name}\""),
                    );
                }
            }
            for key in ["default", "example"] {
                self.string_only(parameter.get(key), &pointer::join(&param_at, [key]), key);
            }
            self.string(
                parameter.get("description"),
                &format!("{param_at}/description"),
                "`description`",
            );
            if let Some(required) = parameter.get("required")
                && !required.is_boolean()
            {
                self.report(
                    Code::WrongType,
                    &format!("{param_at}/required"),
                    "`required` must be true or false",
                );
            }
            if let Some(pair) = parameter
                .get("operationParameter")
                .and_then(|p| self.operation_parameter(p, &param_at))
            {
                mapped.push((pair.0, pair.1, param_at));
            }
        }
        self.reserved_parameters(endpoint.get("reservedParameters"), at);
        self.processing(endpoint, at);
        match operation {
            Some((path, method, declared)) => self.mapping(&mapped, &path, &method, declared, at),
            None if !endpoint.contains_key("operation") => self.no_operation(endpoint, fixed, at),
            None => {}
        }
    }

    fn endpoint_operation<'o>(
        &mut self,
        operation: &Value,
        at: &str,
        operations: &'o Operations,
    ) -> Option<(String, String, &'o OperationParameters)> {
        let op_at = format!("{at}/operation");
        let keys = &["method", "path"];
        let operation = self.object(operation, &op_at, "`operation`", keys, keys)?;
        let method = self.one_of(
            operation.get("method"),
            &format!("{op_at}/method"),
            "`method`",
            &["get", "post"],
        );
        let path = self.string(operation.get("path"), &format!("{op_at}/path"), "`path`");
        let (method, path) = (method?, path?);
        if !is_path_key(path) {
            self.report(
                Code::BadPathKey,
                &format!("{op_at}/path"),
                format!("path \"{path}\" must start with `/` and contain no whitespace"),
            );
        }
        match operations.get(&(path.to_owned(), method.clone())) {
            Some(declared) => Some((path.to_owned(), method, declared)),
            None => {
                self.help(
                    Code::UnknownOperation,
                    &op_at,
                    format!("no operation {} {path} in apiSpecifications.paths", method.to_uppercase()),
                    "declare the operation under apiSpecifications.paths, or fix the method and path",
                );
                None
            }
        }
    }

    fn operation_parameter(&mut self, value: &Value, at: &str) -> Option<(String, String)> {
        let op_at = format!("{at}/operationParameter");
        let keys = &["in", "name"];
        let object = self.object(value, &op_at, "`operationParameter`", keys, keys)?;
        let location = self.location(
            object.get("in"),
            &format!("{op_at}/in"),
            OPERATION_LOCATIONS,
        );
        let name = self.string(object.get("name"), &format!("{op_at}/name"), "`name`");
        Some((location?, name?.to_owned()))
    }

    fn string_only(&mut self, value: Option<&Value>, at: &str, key: &str) {
        if let Some(value) = value
            && !value.is_string()
        {
            let suggestion = value.to_string();
            self.help(
                Code::NotAString,
                at,
                format!(
                    "`{key}` must be a string, not {}",
                    crate::openapi::kind_of(value)
                ),
                format!(
                    "write it as the string \"{}\"",
                    suggestion.replace('"', "\\\"")
                ),
            );
        }
    }

    fn mapping(
        &mut self,
        mapped: &[(String, String, String)],
        path: &str,
        method: &str,
        declared: &OperationParameters,
        at: &str,
    ) {
        let endpoint_name = "this endpoint";
        let mut seen: Vec<(&str, &str)> = Vec::new();
        for (location, name, item_at) in mapped {
            if seen.contains(&(location.as_str(), name.as_str())) {
                self.report(
                    Code::ParameterMappedTwice,
                    item_at,
                    format!("{location} parameter \"{name}\" is mapped twice by {endpoint_name}"),
                );
            }
            seen.push((location, name));
            if !declared.iter().any(|(l, n)| l == location && n == name) {
                self.help(
                    Code::UnknownOperationParameter,
                    &format!("{item_at}/operationParameter"),
                    format!(
                        "{} {path} has no {location} parameter \"{name}\"",
                        method.to_uppercase()
                    ),
                    "declare it in apiSpecifications.paths or fix the name and location",
                );
            }
        }
        for (location, name) in declared {
            if !mapped.iter().any(|(l, n, _)| l == location && n == name) {
                self.help(
                    Code::UnmappedParameter,
                    at,
                    format!("{location} parameter \"{name}\" of {} {path} is not mapped by this endpoint", method.to_uppercase()),
                    "add it to \"parameters\" or \"fixedOperationParameters\"",
                );
            }
        }
    }

    fn reserved_parameters(&mut self, reserved: Option<&Value>, at: &str) {
        let list_at = format!("{at}/reservedParameters");
        let Some(reserved) = self.array(reserved, &list_at, "`reservedParameters`") else {
            return;
        };
        let mut has_type = false;
        for (index, parameter) in reserved.iter().enumerate() {
            let param_at = pointer::join(&list_at, [index.to_string().as_str()]);
            let keys = &["name", "default", "fixed"];
            let Some(parameter) = self.object(
                parameter,
                &param_at,
                "a reserved parameter",
                keys,
                &["name"],
            ) else {
                continue;
            };
            let name = parameter.get("name").and_then(Value::as_str);
            match name {
                Some(name) if RESERVED_NAMES.contains(&name) => has_type |= name == "_type",
                Some(name) => self.help(
                    Code::BadReservedName,
                    &format!("{param_at}/name"),
                    format!("\"{name}\" is not a reserved parameter name"),
                    format!(
                        "use one of {}; requester parameters go in \"parameters\"",
                        RESERVED_NAMES.join(", ")
                    ),
                ),
                None => {
                    self.string(parameter.get("name"), &format!("{param_at}/name"), "`name`");
                }
            }
            for key in ["default", "fixed"] {
                self.string_only(parameter.get(key), &pointer::join(&param_at, [key]), key);
            }
            if parameter.contains_key("default") && parameter.contains_key("fixed") {
                self.help(
                    Code::FixedAndDefault,
                    &param_at,
                    "a reserved parameter cannot have both `fixed` and `default`",
                    "keep `fixed` to pin the value, or `default` to let requesters override it",
                );
            }
            if matches!(name, Some("_minConfirmations" | "_gasPrice")) {
                let value = match self.family {
                    // 2.3: `default ? default : fixed`; 3.0: `default ?? fixed`.
                    FormatFamily::V2_3 => parameter
                        .get("default")
                        .filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
                        .or_else(|| parameter.get("fixed")),
                    FormatFamily::V3_0 => {
                        parameter.get("default").or_else(|| parameter.get("fixed"))
                    }
                };
                if let Some(text) = value.and_then(Value::as_str)
                    && !text.is_empty()
                    && !js_parse_int_is_non_negative(text, self.family)
                {
                    self.report(
                        Code::BadReservedNumber,
                        &param_at,
                        format!(
                            "{} must be a non-negative integer, not \"{text}\"",
                            name.unwrap_or_default()
                        ),
                    );
                }
            }
        }
        if !has_type {
            self.help(
                Code::MissingType,
                &list_at,
                "`reservedParameters` must contain a `_type` entry",
                "add {\"name\": \"_type\"} (with \"fixed\" to pin the type, e.g. \"int256\")",
            );
        }
    }

    fn processing(&mut self, endpoint: &Map<String, Value>, at: &str) {
        for phase in ["pre", "post"] {
            let v1_key = format!("{phase}ProcessingSpecifications");
            let v2_key = format!("{phase}ProcessingSpecificationV2");
            if let Some(list) = self.array(
                endpoint.get(&v1_key),
                &pointer::join(at, [v1_key.as_str()]),
                &format!("`{v1_key}`"),
            ) {
                for (index, item) in list.iter().enumerate() {
                    let item_at = pointer::join(at, [v1_key.as_str(), index.to_string().as_str()]);
                    self.processing_item(item, &item_at, &["Node", "Node async"]);
                }
            }
            if let Some(item) = endpoint.get(&v2_key) {
                self.processing_item(item, &pointer::join(at, [v2_key.as_str()]), &["Node"]);
            }
            if endpoint.contains_key(&v1_key) && endpoint.contains_key(&v2_key) {
                self.help(
                    Code::ProcessingBothForms,
                    at,
                    format!("`{v1_key}` and `{v2_key}` cannot both be present"),
                    format!("keep `{v2_key}` (the V1 list is deprecated)"),
                );
            }
        }
    }

    fn processing_item(&mut self, item: &Value, at: &str, environments: &[&str]) {
        let keys = &["environment", "value", "timeoutMs"];
        let Some(object) = self.object(item, at, "a processing specification", keys, keys) else {
            return;
        };
        self.one_of(
            object.get("environment"),
            &format!("{at}/environment"),
            "`environment`",
            environments,
        );
        self.string(object.get("value"), &format!("{at}/value"), "`value`");
        if let Some(timeout) = object.get("timeoutMs")
            && !timeout
                .as_f64()
                .is_some_and(|t| t >= 0.0 && t.fract() == 0.0)
        {
            self.report(
                Code::BadProcessing,
                &format!("{at}/timeoutMs"),
                format!("`timeoutMs` must be a non-negative whole number, not {timeout}"),
            );
        }
    }

    fn no_operation(
        &mut self,
        endpoint: &Map<String, Value>,
        fixed: Option<&Vec<Value>>,
        at: &str,
    ) {
        if fixed.is_some_and(|items| !items.is_empty()) {
            self.help(
                Code::NoOperationRules,
                &format!("{at}/fixedOperationParameters"),
                "an endpoint without `operation` cannot have fixed operation parameters",
                "remove them, or add the `operation` they belong to",
            );
        }
        let non_empty_v1 = |key: &str| {
            endpoint
                .get(key)
                .and_then(Value::as_array)
                .is_some_and(|l| !l.is_empty())
        };
        let has_processing = non_empty_v1("preProcessingSpecifications")
            || non_empty_v1("postProcessingSpecifications")
            || endpoint.contains_key("preProcessingSpecificationV2")
            || endpoint.contains_key("postProcessingSpecificationV2");
        if !has_processing {
            self.help(
                Code::NoOperationRules,
                at,
                "an endpoint without `operation` needs pre- or post-processing to produce its value",
                "add `operation`, or a `preProcessingSpecificationV2`/`postProcessingSpecificationV2`",
            );
        }
    }
}

/// `@api3/ois` path keys: `/` followed by anything but whitespace.
fn is_path_key(path: &str) -> bool {
    path.starts_with('/') && !path.chars().any(is_js_whitespace)
}

/// The `{name}` placeholders of a path, as `/\{([^}]+)\}/g` finds them.
pub fn placeholders(path: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let after = rest.get(open + 1..).unwrap_or_default();
        match after.find('}') {
            Some(0) => rest = after,
            Some(close) => {
                found.push(after.get(..close).unwrap_or_default());
                rest = after.get(close + 1..).unwrap_or_default();
            }
            None => break,
        }
    }
    found
}

/// JavaScript's `\s`: what the real validator's regexes treat as whitespace.
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `Number.isInteger(parseInt(text)) && value >= 0` as the real validator computes it: leading
/// whitespace and trailing garbage are ignored; 2.3 (no radix) also reads `0x` hex.
fn js_parse_int_is_non_negative(text: &str, family: FormatFamily) -> bool {
    let trimmed = text.trim_start_matches(is_js_whitespace);
    let (negative, digits) = match trimmed.as_bytes().first() {
        Some(b'-') => (true, trimmed.get(1..).unwrap_or_default()),
        Some(b'+') => (false, trimmed.get(1..).unwrap_or_default()),
        _ => (false, trimmed),
    };
    let hex =
        family == FormatFamily::V2_3 && (digits.starts_with("0x") || digits.starts_with("0X"));
    let body = if hex {
        digits.get(2..).unwrap_or_default()
    } else {
        digits
    };
    let radix = if hex { 16 } else { 10 };
    let leading: String = body.chars().take_while(|c| c.is_digit(radix)).collect();
    if leading.is_empty() {
        return false;
    }
    !negative || leading.chars().all(|c| c == '0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_follow_the_real_regex() {
        assert_eq!(placeholders("/a/{id}/b/{x y}/{}/{z"), vec!["id", "x y"]);
        assert!(placeholders("/plain").is_empty());
    }

    #[test]
    fn parse_int_leniency() {
        use FormatFamily::*;
        assert!(js_parse_int_is_non_negative("12abc", V3_0));
        assert!(js_parse_int_is_non_negative(" 7", V3_0));
        assert!(js_parse_int_is_non_negative("-0", V3_0));
        assert!(!js_parse_int_is_non_negative("-1", V3_0));
        assert!(!js_parse_int_is_non_negative("abc", V3_0));
        assert!(js_parse_int_is_non_negative("0x1f", V2_3));
        assert!(js_parse_int_is_non_negative("0x1f", V3_0)); // parseInt("0x1f", 10) is 0
    }
}
