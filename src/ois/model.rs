//! The OIS object as the converter writes it. Field order here is the order in the output, which
//! follows the hand-written OIS files integrators know. Validation works on `Value` instead (see
//! `rules`), because hand-edited files may be anything.

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ois {
    pub ois_format: String,
    pub title: String,
    pub version: String,
    pub api_specifications: ApiSpecifications,
    pub endpoints: Vec<Endpoint>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ApiSpecifications {
    pub servers: Vec<Server>,
    /// path → method → operation
    pub paths: IndexMap<String, IndexMap<String, Operation>>,
    pub components: Components,
    /// scheme name → `[]` (OIS reserves the list for per-endpoint authentication)
    pub security: IndexMap<String, [(); 0]>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Server {
    pub url: String,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Operation {
    pub parameters: Vec<OperationParameter>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct OperationParameter {
    #[serde(rename = "in")]
    pub location: Location,
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Location {
    Query,
    Header,
    Path,
    Cookie,
}

impl Location {
    pub fn parse(text: &str) -> Option<Location> {
        Some(match text {
            "query" => Location::Query,
            "header" => Location::Header,
            "path" => Location::Path,
            "cookie" => Location::Cookie,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Location::Query => "query",
            Location::Header => "header",
            Location::Path => "path",
            Location::Cookie => "cookie",
        }
    }
}

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Components {
    pub security_schemes: IndexMap<String, SecurityScheme>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type")]
pub enum SecurityScheme {
    #[serde(rename = "apiKey")]
    ApiKey {
        #[serde(rename = "in")]
        location: Location,
        name: String,
    },
    #[serde(rename = "http")]
    Http { scheme: HttpScheme },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HttpScheme {
    Basic,
    Bearer,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    pub name: String,
    pub operation: EndpointOperation,
    pub fixed_operation_parameters: Vec<FixedParameter>,
    pub reserved_parameters: Vec<ReservedParameter>,
    pub parameters: Vec<EndpointParameter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_docs: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EndpointOperation {
    pub method: Method,
    pub path: String,
}

/// The method of an OIS operation: the node calls only these two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Its parameters go in the query string (or where each says).
    Get,
    /// Its `query` parameters go in a JSON body, with their JSON types.
    Post,
}

impl Method {
    /// Every method an OIS operation can have.
    pub const ALL: [Method; 2] = [Method::Get, Method::Post];

    /// The method OIS writes `text` for (`get`, `post`); `None` for any other.
    pub fn named(text: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|method| method.as_str() == text)
    }

    /// As OIS writes it: `get`, `post`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Method::Get => "get",
            Method::Post => "post",
        }
    }
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FixedParameter {
    pub operation_parameter: OperationParameter,
    pub value: Value,
}

#[derive(Clone, Debug, Serialize)]
pub struct ReservedParameter {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

impl ReservedParameter {
    /// A reserved parameter the requester supplies (no fixed value, no default).
    pub fn open(name: &str) -> Self {
        ReservedParameter { name: name.to_owned(), fixed: None, default: None }
    }
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndpointParameter {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation_parameter: Option<OperationParameter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// Security scheme types whose values come from the request's metadata, not from a credential.
pub const RELAY_TYPES: [&str; 6] = [
    "relayChainId",
    "relayChainType",
    "relayRequesterAddress",
    "relaySponsorAddress",
    "relaySponsorWalletAddress",
    "relayRequestId",
];

/// Names a requester may use only as reserved parameters.
pub const RESERVED_NAMES: [&str; 5] = ["_type", "_path", "_times", "_gasPrice", "_minConfirmations"];

/// The OIS format families this tool knows, by the `@api3/ois` major.minor that accepts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormatFamily {
    /// `@api3/ois` 2.3.x: released Airnode 0.15, Airnode Feed ≤ 3.3.
    V2_3,
    /// `@api3/ois` 3.0.x: Airnode Feed 4.x, Airnode master.
    V3_0,
}

impl FormatFamily {
    /// The family of an `oisFormat` string (`2.3.x` or `3.0.x`).
    pub fn of(ois_format: &str) -> Option<FormatFamily> {
        let mut parts = ois_format.split('.');
        match (parts.next(), parts.next()) {
            (Some("2"), Some("3")) => Some(FormatFamily::V2_3),
            (Some("3"), Some("0")) => Some(FormatFamily::V3_0),
            _ => None,
        }
    }

    /// The family of a full `oisFormat` version to write (`2.3.2`, `3.0.0`, `3.0.1`): `x.y.z` with
    /// numeric parts, in a family the node reads. `2.3` alone is not one (the validator would
    /// refuse the OIS).
    pub fn of_version(version: &str) -> Option<FormatFamily> {
        let family = FormatFamily::of(version)?;
        let parts: Vec<&str> = version.split('.').collect();
        let numeric = |part: &&str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        (parts.len() == 3 && parts.iter().all(numeric)).then_some(family)
    }

    /// The family as people write it: `2.3.x`, `3.0.x`.
    pub fn name(self) -> &'static str {
        match self {
            FormatFamily::V2_3 => "2.3.x",
            FormatFamily::V3_0 => "3.0.x",
        }
    }

    /// The `oisFormat` this tool writes for the family.
    pub fn default_version(self) -> &'static str {
        match self {
            FormatFamily::V2_3 => "2.3.2",
            FormatFamily::V3_0 => "3.0.0",
        }
    }
}
