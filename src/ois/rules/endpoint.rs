//! `endpoints`: each endpoint's shape, its parameters, reserved parameters, processing, and the
//! mapping between its parameters and the operation's.

use foldhash::{HashSet, HashSetExt};
use serde::Serialize;

use super::api::{Declared, Parameters};
use super::tables::{self, DOCUMENTATION, OPERATION_LOCATIONS, PHASES, RESERVED_PARAMETER_NAMES};
use super::tape::{Array, Node, Object, Tape};
use super::text::{is_path_key, js_parse_int_is_non_negative};
use super::{At, Checker};
use crate::diagnostic::{Code, Diagnostic};
use crate::js::is_whitespace as is_js_whitespace;
use crate::ois::model::FormatFamily;
use crate::parallel;

/// Endpoints checked by one task: enough that splitting the work costs less than it saves.
const ENDPOINTS_PER_TASK: usize = 32;

/// One endpoint's diagnostics, the first `head` of them about its shape and name.
struct Checked {
    head: usize,
    name: Option<String>,
    diagnostics: Vec<Diagnostic>,
}

/// Which list a mapped `(in, name)` came from, and its index there.
#[derive(Clone, Copy)]
enum Origin {
    Fixed(usize),
    Parameter(usize),
}

/// One `operationParameter` an endpoint maps.
struct Mapped<'v> {
    location: &'v str,
    name: &'v str,
    origin: Origin,
}

/// The operation an endpoint calls, as declared.
struct Target<'d> {
    label: String,
    parameters: &'d Parameters<'d>,
}

/// The endpoints to check: the elements of a list in the tape being checked, or typed endpoints,
/// each serialized when the check gets to it into a tape its task reuses (a big API's endpoints
/// never all exist as JSON at once).
pub(crate) enum Endpoints<'v, T> {
    Listed(Array<'v>),
    Serialized(&'v [T]),
}

impl Checker {
    /// Each endpoint is checked on its own (in parallel for long lists: a converted API can have
    /// thousands), then names are compared across all of them; diagnostics keep document order.
    pub(super) fn endpoints<T: Serialize + Sync>(
        &mut self,
        endpoints: Endpoints<'_, T>,
        at: At<'_>,
        declared: &Declared<'_>,
    ) {
        let family = self.family;
        let checked: Vec<Vec<Checked>> = match endpoints {
            Endpoints::Listed(list) => {
                let nodes: Vec<Node<'_>> = list.iter().collect();
                parallel::map_indexed_chunks(&nodes, ENDPOINTS_PER_TASK, |first, group| {
                    let mut checker = Checker { diagnostics: Vec::new(), family };
                    let indexed = (first..).zip(group);
                    indexed.map(|(index, &node)| checker.checked(node, at.index(index), declared)).collect()
                })
            }
            Endpoints::Serialized(items) => parallel::map_indexed_chunks(items, ENDPOINTS_PER_TASK, |first, group| {
                let mut checker = Checker { diagnostics: Vec::new(), family };
                let mut tape = Tape::default();
                let mut checked = Vec::with_capacity(group.len());
                for (index, item) in (first..).zip(group) {
                    let endpoint_at = at.index(index);
                    checked.push(match tape.rewrite(item) {
                        Ok(node) => checker.checked(node, endpoint_at, declared),
                        Err(error) => {
                            let message = format!("the endpoint could not be serialized: {error}");
                            checker.report(Code::WrongType, endpoint_at, message);
                            Checked { head: 1, name: None, diagnostics: std::mem::take(&mut checker.diagnostics) }
                        }
                    });
                }
                checked
            }),
        };
        let mut names: HashSet<String> = HashSet::new();
        for (index, Checked { head, name, mut diagnostics }) in checked.into_iter().flatten().enumerate() {
            let rest = diagnostics.split_off(head.min(diagnostics.len()));
            self.diagnostics.extend(diagnostics);
            if let Some(name) = name
                && let Some(name) = names.replace(name)
            {
                self.help(
                    Code::DuplicateEndpointName,
                    at.index(index).key("name"),
                    format!("endpoint name \"{name}\" is used twice"),
                    "the node uses only the first endpoint of a name, and both get the same endpoint ID; rename one",
                );
            }
            self.diagnostics.extend(rest);
        }
    }

    /// One endpoint's diagnostics, taken from this checker, and its name.
    fn checked(&mut self, endpoint: Node<'_>, at: At<'_>, declared: &Declared<'_>) -> Checked {
        let head = self.endpoint_entry(endpoint, at, declared);
        let name = endpoint.get("name").and_then(Node::as_str).map(str::to_owned);
        Checked { head, name, diagnostics: std::mem::take(&mut self.diagnostics) }
    }

    /// One entry of `endpoints`: its shape, documentation fields and everything inside it. Returns
    /// how many of its diagnostics come before a duplicate-name one would (those about its shape
    /// and its `name`).
    fn endpoint_entry(&mut self, endpoint: Node<'_>, at: At<'_>, declared: &Declared<'_>) -> usize {
        let Some(object) = self.object(endpoint, at, &tables::ENDPOINT) else {
            return self.diagnostics.len();
        };
        let name = self.string(object.get("name"), at.key("name"), "the endpoint `name`");
        let head = self.diagnostics.len();
        for (key, what) in DOCUMENTATION {
            self.string(object.get(key), at.key(key), what);
        }
        self.endpoint(object, at, name.unwrap_or("?"), declared);
        head
    }

    fn endpoint(&mut self, endpoint: Object<'_>, at: At<'_>, name: &str, declared: &Declared<'_>) {
        let target = endpoint.get("operation").and_then(|operation| self.target(operation, at, declared));
        let fixed_at = at.key("fixedOperationParameters");
        let fixed = self.array(endpoint.get("fixedOperationParameters"), fixed_at, "`fixedOperationParameters`");
        let mut mapped = Vec::new();
        for (index, item) in fixed.into_iter().flatten().enumerate() {
            let item_at = fixed_at.index(index);
            let Some(item) = self.object(item, item_at, &tables::FIXED) else {
                continue;
            };
            if !item.contains_key(tables::FIXED_VALUE_SINCE_3_0) && self.family == FormatFamily::V3_0 {
                self.help(
                    Code::FixedValueMissing,
                    item_at,
                    "a fixed operation parameter needs a `value` (required since OIS 3.0)",
                    "add \"value\": the value the node always sends",
                );
            }
            if let Some((location, name)) =
                item.get("operationParameter").and_then(|p| self.operation_parameter(p, item_at))
            {
                mapped.push(Mapped { location, name, origin: Origin::Fixed(index) });
            }
        }
        self.parameters(endpoint.get("parameters"), at, &mut mapped);
        self.reserved_parameters(endpoint.get("reservedParameters"), at.key("reservedParameters"));
        self.processing(endpoint, at);
        match target {
            Some(target) => self.mapping(&mapped, &target, at, name),
            None if !endpoint.contains_key("operation") => self.no_operation(endpoint, fixed, at),
            None => {}
        }
    }

    fn parameters<'v>(&mut self, parameters: Option<Node<'v>>, at: At<'_>, mapped: &mut Vec<Mapped<'v>>) {
        let list_at = at.key("parameters");
        let parameters = self.array(parameters, list_at, "`parameters`");
        let mut names: HashSet<&str> = HashSet::new();
        for (index, parameter) in parameters.into_iter().flatten().enumerate() {
            let parameter_at = list_at.index(index);
            let Some(parameter) = self.object(parameter, parameter_at, &tables::PARAMETER) else {
                continue;
            };
            let name_at = parameter_at.key("name");
            if let Some(name) = self.string(parameter.get("name"), name_at, "the parameter `name`") {
                if name.is_empty() || name.chars().any(is_js_whitespace) {
                    let message = format!("parameter name \"{name}\" must be non-empty with no whitespace");
                    self.report(Code::BadParameterName, name_at, message);
                } else if name.starts_with('_') {
                    self.help(
                        Code::UnderscoreParameterName,
                        name_at,
                        format!("parameter name \"{name}\" starts with `_`, which the OIS format reserves"),
                        "rename it; names starting with `_` are for reserved parameters",
                    );
                }
                if !names.insert(name) {
                    let message = format!("two parameters of this endpoint are named \"{name}\"");
                    self.report(Code::DuplicateParameterName, name_at, message);
                }
            }
            for key in ["default", "example"] {
                self.string_only(parameter.get(key), parameter_at.key(key), key);
            }
            self.string(parameter.get("description"), parameter_at.key("description"), "`description`");
            if let Some(required) = parameter.get("required") {
                self.typed(required, parameter_at.key("required"), "`required`", "true or false", Node::as_bool);
            }
            let operation_parameter = parameter.get("operationParameter");
            if let Some((location, name)) = operation_parameter.and_then(|p| self.operation_parameter(p, parameter_at))
            {
                mapped.push(Mapped { location, name, origin: Origin::Parameter(index) });
            }
        }
    }

    fn target<'d>(&mut self, operation: Node<'_>, at: At<'_>, declared: &'d Declared<'_>) -> Option<Target<'d>> {
        let operation_at = at.key("operation");
        let operation = self.object(operation, operation_at, &tables::ENDPOINT_OPERATION)?;
        let method = self.one_of(operation.get("method"), operation_at.key("method"), "`method`", tables::METHODS);
        let path = self.string(operation.get("path"), operation_at.key("path"), "`path`");
        let (method, path) = (method?, path?);
        if !is_path_key(path) {
            let message = format!("path \"{path}\" must start with `/` and contain no whitespace");
            self.report(Code::BadPathKey, operation_at.key("path"), message);
        }
        let label = format!("{} {path}", method.to_uppercase());
        // Found by index: the key borrowed from this endpoint lives shorter than `declared`.
        let index = declared.operations.get_index_of(&(path, method));
        match index.and_then(|index| declared.operations.get_index(index)) {
            Some((_, parameters)) => Some(Target { label, parameters }),
            None => {
                self.help(
                    Code::UnknownOperation,
                    operation_at,
                    format!("no operation {label} in apiSpecifications.paths"),
                    "declare the operation under apiSpecifications.paths, or fix the method and path",
                );
                None
            }
        }
    }

    fn operation_parameter<'v>(&mut self, value: Node<'v>, at: At<'_>) -> Option<(&'v str, &'v str)> {
        let operation_at = at.key("operationParameter");
        let object = self.object(value, operation_at, &tables::OPERATION_PARAMETER)?;
        let location = self.location(object.get("in"), operation_at.key("in"), OPERATION_LOCATIONS);
        let name = self.string(object.get("name"), operation_at.key("name"), "`name`");
        Some((location?, name?))
    }

    fn mapping(&mut self, mapped: &[Mapped<'_>], target: &Target<'_>, at: At<'_>, endpoint: &str) {
        let label = &target.label;
        let fixed_at = at.key("fixedOperationParameters");
        let parameters_at = at.key("parameters");
        let mut seen: HashSet<(&str, &str)> = HashSet::new();
        for item in mapped {
            let (list_at, index) = match item.origin {
                Origin::Fixed(index) => (&fixed_at, index),
                Origin::Parameter(index) => (&parameters_at, index),
            };
            let item_at = list_at.index(index);
            let (location, name) = (item.location, item.name);
            if !seen.insert((location, name)) {
                let message = format!("{location} parameter \"{name}\" is mapped twice by endpoint \"{endpoint}\"");
                self.report(Code::ParameterMappedTwice, item_at, message);
            }
            if !target.parameters.contains(&(location, name)) {
                self.help(
                    Code::UnknownOperationParameter,
                    item_at.key("operationParameter"),
                    format!("{label} has no {location} parameter \"{name}\" (mapped by endpoint \"{endpoint}\")"),
                    "declare it in apiSpecifications.paths or fix the name and location",
                );
            }
        }
        for &(location, name) in target.parameters {
            if !seen.contains(&(location, name)) {
                self.help(
                    Code::UnmappedParameter,
                    at,
                    format!("{location} parameter \"{name}\" of {label} is not mapped by endpoint \"{endpoint}\""),
                    "add it to \"parameters\" or \"fixedOperationParameters\"",
                );
            }
        }
    }

    fn reserved_parameters(&mut self, reserved: Option<Node<'_>>, at: At<'_>) {
        let Some(reserved) = self.array(reserved, at, "`reservedParameters`") else { return };
        let mut has_type = false;
        for (index, parameter) in reserved.iter().enumerate() {
            let parameter_at = at.index(index);
            let Some(parameter) = self.object(parameter, parameter_at, &tables::RESERVED) else {
                continue;
            };
            let name = self.string(parameter.get("name"), parameter_at.key("name"), "`name`");
            match name {
                Some(name) if RESERVED_PARAMETER_NAMES.contains(&name) => has_type |= name == tables::TYPE_PARAMETER,
                Some(name) => self.help(
                    Code::BadReservedName,
                    parameter_at.key("name"),
                    format!("\"{name}\" is not a reserved parameter name"),
                    format!(
                        "use one of {}; requester parameters go in \"parameters\"",
                        RESERVED_PARAMETER_NAMES.join(", ")
                    ),
                ),
                None => {}
            }
            for key in ["default", "fixed"] {
                self.string_only(parameter.get(key), parameter_at.key(key), key);
            }
            if parameter.contains_key("default") && parameter.contains_key("fixed") {
                self.help(
                    Code::FixedAndDefault,
                    parameter_at,
                    "a reserved parameter cannot have both `fixed` and `default`",
                    "keep `fixed` to pin the value, or `default` to let requesters override it",
                );
            }
            if let Some(name) = name.filter(|name| tables::NUMERIC_RESERVED.contains(name)) {
                let value = match self.family {
                    // 2.3: `default ? default : fixed`; 3.0: `default ?? fixed`.
                    FormatFamily::V2_3 => parameter
                        .get("default")
                        .filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
                        .or_else(|| parameter.get("fixed")),
                    FormatFamily::V3_0 => parameter.get("default").or_else(|| parameter.get("fixed")),
                };
                if let Some(text) = value.and_then(Node::as_str)
                    && !text.is_empty()
                    && !js_parse_int_is_non_negative(text, self.family)
                {
                    let message = format!("{name} must be a non-negative integer, not \"{text}\"");
                    self.report(Code::BadReservedNumber, parameter_at, message);
                }
            }
        }
        if !has_type {
            self.help(
                Code::MissingType,
                at,
                "`reservedParameters` must contain a `_type` entry",
                "add {\"name\": \"_type\"} (with \"fixed\" to pin the type, e.g. \"int256\")",
            );
        }
    }

    fn processing(&mut self, endpoint: Object<'_>, at: At<'_>) {
        for (v1_key, v2_key, v1_what) in PHASES {
            let v1_at = at.key(v1_key);
            if let Some(list) = self.array(endpoint.get(v1_key), v1_at, v1_what) {
                for (index, item) in list.iter().enumerate() {
                    self.processing_item(item, v1_at.index(index), tables::V1_ENVIRONMENTS);
                }
            }
            if let Some(item) = endpoint.get(v2_key) {
                self.processing_item(item, at.key(v2_key), tables::V2_ENVIRONMENTS);
            }
            if endpoint.contains_key(v1_key) && endpoint.contains_key(v2_key) {
                self.help(
                    Code::ProcessingBothForms,
                    at,
                    format!("`{v1_key}` and `{v2_key}` cannot both be present (were they loaded, the node would run only `{v2_key}`)"),
                    format!("keep `{v2_key}` (the V1 list is deprecated)"),
                );
            }
        }
    }

    fn processing_item(&mut self, item: Node<'_>, at: At<'_>, environments: &[&str]) {
        let Some(object) = self.object(item, at, &tables::PROCESSING) else { return };
        self.one_of(object.get("environment"), at.key("environment"), "`environment`", environments);
        self.string(object.get("value"), at.key("value"), "`value`");
        if let Some(timeout) = object.get("timeoutMs")
            && !timeout.as_f64().is_some_and(|t| t >= 0.0 && t.fract() == 0.0)
        {
            let message = format!("`timeoutMs` must be a non-negative whole number, not {timeout}");
            self.report(Code::BadProcessing, at.key("timeoutMs"), message);
        }
    }

    fn no_operation(&mut self, endpoint: Object<'_>, fixed: Option<Array<'_>>, at: At<'_>) {
        if fixed.is_some_and(|items| !items.is_empty()) {
            self.help(
                Code::NoOperationRules,
                at.key("fixedOperationParameters"),
                "an endpoint without `operation` cannot have fixed operation parameters",
                "remove them, or add the `operation` they belong to",
            );
        }
        let non_empty_v1 = |key: &str| endpoint.get(key).and_then(Node::as_array).is_some_and(|l| !l.is_empty());
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
