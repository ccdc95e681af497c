//! The shape of every OIS object as data: its fields, which of them are required, and the values
//! a closed field takes. The checker reads these tables, and so does the JSON Schema
//! ([`crate::ois::schema`]), so the two cannot disagree on a field.

use crate::ois::model::{RELAY_TYPES, RESERVED_NAMES};

/// One kind of OIS object: what messages call it, the fields it allows, and those it requires.
/// Every OIS object is strict: a field outside `allowed` is an error.
pub(crate) struct Fields {
    pub what: &'static str,
    pub allowed: &'static [&'static str],
    pub required: &'static [&'static str],
}

const ROOT_KEYS: &[&str] = &["oisFormat", "title", "version", "apiSpecifications", "endpoints"];
pub(crate) const ROOT: Fields = Fields { what: "the OIS object", allowed: ROOT_KEYS, required: ROOT_KEYS };

const API_KEYS: &[&str] = &["servers", "paths", "components", "security"];
pub(crate) const API: Fields = Fields { what: "`apiSpecifications`", allowed: API_KEYS, required: API_KEYS };

pub(crate) const SERVER: Fields = Fields { what: "a server", allowed: &["url"], required: &["url"] };

pub(crate) const COMPONENTS: Fields =
    Fields { what: "`components`", allowed: &["securitySchemes"], required: &["securitySchemes"] };

pub(crate) const OPERATION: Fields =
    Fields { what: "an operation", allowed: &["parameters"], required: &["parameters"] };

const LOCATED: &[&str] = &["in", "name"];
pub(crate) const API_PARAMETER: Fields = Fields { what: "an API parameter", allowed: LOCATED, required: LOCATED };

const SCHEME_LOCATED: &[&str] = &["type", "in", "name"];
pub(crate) const API_KEY_SCHEME: Fields =
    Fields { what: "an apiKey scheme", allowed: SCHEME_LOCATED, required: SCHEME_LOCATED };
pub(crate) const RELAY_SCHEME: Fields =
    Fields { what: "a relay scheme", allowed: SCHEME_LOCATED, required: SCHEME_LOCATED };
const HTTP_SCHEME_KEYS: &[&str] = &["type", "scheme"];
pub(crate) const HTTP_SCHEME: Fields =
    Fields { what: "an http scheme", allowed: HTTP_SCHEME_KEYS, required: HTTP_SCHEME_KEYS };

pub(crate) const ENDPOINT: Fields = Fields {
    what: "an endpoint",
    allowed: &[
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
    ],
    required: &["name", "fixedOperationParameters", "parameters", "reservedParameters"],
};

const ENDPOINT_OPERATION_KEYS: &[&str] = &["method", "path"];
pub(crate) const ENDPOINT_OPERATION: Fields =
    Fields { what: "`operation`", allowed: ENDPOINT_OPERATION_KEYS, required: ENDPOINT_OPERATION_KEYS };

/// `value` is required too from OIS 3.0 ([`FIXED_VALUE_SINCE_3_0`]), with its own code.
pub(crate) const FIXED: Fields = Fields {
    what: "a fixed operation parameter",
    allowed: &["operationParameter", "value"],
    required: &["operationParameter"],
};
pub(crate) const FIXED_VALUE_SINCE_3_0: &str = "value";

pub(crate) const OPERATION_PARAMETER: Fields =
    Fields { what: "`operationParameter`", allowed: LOCATED, required: LOCATED };

pub(crate) const PARAMETER: Fields = Fields {
    what: "an endpoint parameter",
    allowed: &["name", "operationParameter", "description", "example", "default", "required"],
    required: &["name"],
};

pub(crate) const RESERVED: Fields =
    Fields { what: "a reserved parameter", allowed: &["name", "default", "fixed"], required: &["name"] };

const PROCESSING_KEYS: &[&str] = &["environment", "value", "timeoutMs"];
pub(crate) const PROCESSING: Fields =
    Fields { what: "a processing specification", allowed: PROCESSING_KEYS, required: PROCESSING_KEYS };

const CREDENTIAL_KEYS: &[&str] = &["oisTitle", "securitySchemeName", "securitySchemeValue"];
/// An entry of a config's `apiCredentials` (not part of the OIS object).
pub(crate) const CREDENTIAL: Fields =
    Fields { what: "a credential", allowed: CREDENTIAL_KEYS, required: CREDENTIAL_KEYS };

/// The endpoint's documentation fields (strings), each with its name in messages.
pub(crate) const DOCUMENTATION: [(&str, &str); 3] =
    [("summary", "`summary`"), ("description", "`description`"), ("externalDocs", "`externalDocs`")];

/// Each phase's deprecated list (V1) and its single specification (V2), with the V1 name in messages.
pub(crate) const PHASES: [(&str, &str, &str); 2] = [
    ("preProcessingSpecifications", "preProcessingSpecificationV2", "`preProcessingSpecifications`"),
    ("postProcessingSpecifications", "postProcessingSpecificationV2", "`postProcessingSpecifications`"),
];

pub(crate) const METHODS: &[&str] = &["get", "post"];
pub(crate) const OPERATION_LOCATIONS: &[&str] = &["path", "query", "header", "cookie", "processing"];
pub(crate) const SCHEME_LOCATIONS: &[&str] = &["query", "header", "cookie"];
pub(crate) const HTTP_SCHEMES: &[&str] = &["basic", "bearer"];
pub(crate) const V1_ENVIRONMENTS: &[&str] = &["Node", "Node async"];
pub(crate) const V2_ENVIRONMENTS: &[&str] = &["Node"];
pub(crate) const API_KEY_TYPE: &str = "apiKey";
pub(crate) const HTTP_TYPE: &str = "http";
pub(crate) const RELAYS: &[&str] = &RELAY_TYPES;
pub(crate) const RESERVED_PARAMETER_NAMES: &[&str] = &RESERVED_NAMES;
/// The reserved parameter every endpoint must declare.
pub(crate) const TYPE_PARAMETER: &str = "_type";
/// Reserved parameters whose value must read as a non-negative integer.
pub(crate) const NUMERIC_RESERVED: &[&str] = &["_minConfirmations", "_gasPrice"];
