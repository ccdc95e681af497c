//! What the conversion stages share: the operations kept and their parameters, the summary they
//! count into, and the small value rules more than one stage applies. Stages import this module,
//! never each other, except `operations` calling `body` for request bodies.

use heck::ToLowerCamelCase;
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::Location as Place;
use crate::ois::model::{Location, Method, OperationParameter};

/// One API parameter of a kept operation, with what its endpoint parameter needs. Its texts are
/// borrowed from the document (`'a`): a shared parameter's description is copied once, into the
/// OIS, not once more per operation on the way.
#[derive(Clone, Debug)]
pub(crate) struct ApiParameter<'a> {
    pub location: Location,
    pub name: String,
    pub required: bool,
    pub default: Option<String>,
    pub example: Option<String>,
    pub description: Option<&'a str>,
    /// The one value the document allows (`const`, or an `enum` of one): sent as a fixed value
    /// when the parameter is required, never asked of the requester.
    pub only: Option<Value>,
}

impl ApiParameter<'_> {
    pub fn operation_parameter(&self) -> OperationParameter {
        OperationParameter { location: self.location, name: self.name.clone() }
    }
}

/// An operation that will become an OIS operation and a mirror endpoint.
#[derive(Clone, Debug)]
pub(crate) struct KeptOperation<'a> {
    pub path: String,
    pub method: Method,
    /// Where the operation is (after following a path item `$ref`, perhaps into another file).
    pub place: Place,
    /// Where its path item is.
    pub path_item_place: Place,
    /// Where its natural name is in [`Collected::names`].
    pub name_index: usize,
    pub summary: Option<&'a str>,
    pub description: Option<&'a str>,
    pub external_docs: Option<&'a str>,
    pub parameters: Vec<ApiParameter<'a>>,
    /// The operation's own `security`, if it has one.
    pub security: Option<&'a Value>,
    pub servers: Option<&'a Value>,
    pub path_servers: Option<&'a Value>,
}

/// What a conversion kept and skipped, for reports.
#[derive(Clone, Debug, Default, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct Summary {
    /// Operations that became OIS operations (and endpoints).
    pub operations_kept: usize,
    /// reason → number of operations skipped for it
    pub operations_skipped: IndexMap<&'static str, usize>,
    /// Endpoint parameters, over all endpoints.
    pub parameters: usize,
    /// The security schemes the OIS uses.
    pub security_schemes: Vec<String>,
    /// The `oisFormat` written.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub ois_format: String,
    /// The released nodes that read it (`airnode-feed@4 = Airnode Feed 4.6.0`), newest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub read_by: Vec<String>,
}

impl Summary {
    pub(crate) fn skip(&mut self, reason: &'static str) {
        *self.operations_skipped.entry(reason).or_default() += 1;
    }

    /// Operations skipped, for every reason.
    pub fn skipped_total(&self) -> usize {
        self.operations_skipped.values().sum()
    }
}

/// Skip reasons, as they appear in summaries.
pub(crate) mod reason {
    pub const FILTERED: &str = "filtered out";
    pub const METHOD: &str = "method not get/post";
    pub const PATH: &str = "path OIS cannot express";
    pub const REF: &str = "unresolvable $ref";
    pub const INVALID: &str = "invalid operation";
}

/// `default` and `example` must be strings in OIS: strings as they are, numbers and booleans as
/// their JSON text, objects and arrays as compact JSON; `null` means there is none.
pub(crate) fn ois_string(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// The one value `schema` allows (`const`, or an `enum` of one), when the node can send it as
/// written: a string that is not empty and holds no `${` (the node would read it as a secret), a
/// number or a boolean.
pub(crate) fn only_value(schema: &Value) -> Option<Value> {
    let one = match schema.get("const") {
        Some(one) => one,
        None => match schema.get("enum")?.as_array()?.as_slice() {
            [one] => one,
            _ => return None,
        },
    };
    match one {
        Value::String(text) if text.is_empty() || text.contains("${") => None,
        Value::String(_) | Value::Number(_) | Value::Bool(_) => Some(one.clone()),
        _ => None,
    }
}

/// The natural name of an operation, before collisions are resolved.
pub(crate) fn base_name(operation_id: Option<&str>, method: &str, path: &str) -> String {
    let from_id = operation_id.map(ToLowerCamelCase::to_lower_camel_case).filter(|n| !n.is_empty());
    from_id.unwrap_or_else(|| {
        let name = format!("{method} {path}").to_lower_camel_case();
        if name.is_empty() { method.to_owned() } else { name }
    })
}
