//! A lenient view of an OpenAPI document: the version, and `$ref` resolution over the parsed
//! `Value`. Nothing here deserializes the whole document: items are read one at a time, so one
//! broken item costs only itself.

pub mod files;
mod refs;
pub mod swagger2;

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};

pub use refs::Resolver;

/// The OpenAPI versions the converter reads, by major.minor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecVersion {
    V3_0,
    V3_1,
    V3_2,
}

/// Whether `root` is a Swagger 2.0 document (read through `swagger2::normalize`).
pub fn is_swagger2(root: &Value) -> bool {
    root.get("swagger").is_some_and(|v| version_text(v).starts_with("2.0"))
}

/// The HTTP methods a path item can hold (OpenAPI 3.0/3.1), in the order the spec lists them.
pub const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// A parsed OpenAPI document.
#[derive(Clone, Copy, Debug)]
pub struct Document<'a> {
    pub root: &'a Value,
    pub version: SpecVersion,
    files: Option<&'a files::Files>,
}

impl<'a> Document<'a> {
    /// Checks that `root` is an OpenAPI document of a version this tool converts.
    pub fn new(root: &'a Value) -> Result<Document<'a>, Diagnostic> {
        let Some(object) = root.as_object() else {
            return Err(Diagnostic::new(
                Code::RootNotObject,
                "",
                format!("the document root is {}, not an object", kind_of(root)),
            )
            .with_help("an OpenAPI document is an object with an `openapi` field"));
        };
        if let Some(swagger) = object.get("swagger").filter(|_| !object.contains_key("openapi")) {
            return Err(Diagnostic::new(
                Code::UnsupportedVersion,
                "/swagger",
                format!("Swagger version \"{}\" is not supported", version_text(swagger)),
            )
            .with_help("this tool reads Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2"));
        }
        let Some(openapi) = object.get("openapi") else {
            return Err(Diagnostic::new(
                Code::NotOpenApi,
                "",
                "not an OpenAPI document: there is no `openapi` (or `swagger`) field",
            )
            .with_help("pass an OpenAPI 3.0 or 3.1 document"));
        };
        let text = version_text(openapi);
        let mut parts = text.split('.');
        let version = match (parts.next(), parts.next()) {
            (Some("3"), Some("0")) => SpecVersion::V3_0,
            (Some("3"), Some("1")) => SpecVersion::V3_1,
            (Some("3"), Some("2")) => SpecVersion::V3_2,
            _ => {
                return Err(Diagnostic::new(
                    Code::UnsupportedVersion,
                    "/openapi",
                    format!("OpenAPI version \"{text}\" is not supported"),
                )
                .with_help("this tool converts Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2 documents"));
            }
        };
        Ok(Document { root, version, files: None })
    }

    /// The document with the files its `$ref`s pulled in.
    pub fn with_files(self, files: &'a files::Files) -> Document<'a> {
        Document { files: Some(files), ..self }
    }

    pub fn resolver(&self) -> Resolver<'a> {
        match self.files {
            Some(files) => Resolver::with_files(self.root, files),
            None => Resolver::new(self.root),
        }
    }
}

/// The version as text; YAML may have loaded `openapi: 3.0` as a number.
fn version_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// "an array", "a string", … for messages.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn code(root: Value) -> Code {
        Document::new(&root).unwrap_err().code
    }

    #[test]
    fn versions_by_major_minor() {
        assert_eq!(Document::new(&json!({"openapi": "3.0.9"})).unwrap().version, SpecVersion::V3_0);
        assert_eq!(Document::new(&json!({"openapi": "3.1.2"})).unwrap().version, SpecVersion::V3_1);
        assert_eq!(Document::new(&json!({"openapi": 3.1})).unwrap().version, SpecVersion::V3_1);
        assert_eq!(code(json!({"openapi": "4.0.0"})), Code::UnsupportedVersion);
        assert_eq!(code(json!({"swagger": "1.2"})), Code::UnsupportedVersion);
        assert_eq!(Document::new(&json!({"openapi": "3.2.0"})).unwrap().version, SpecVersion::V3_2);
        assert_eq!(code(json!({"info": {}})), Code::NotOpenApi);
        assert_eq!(code(json!([1])), Code::RootNotObject);
    }

    #[test]
    fn unsupported_version_names_it() {
        let err = Document::new(&json!({"openapi": "9.9"})).unwrap_err();
        assert!(err.message.contains("\"9.9\""), "{}", err.message);
    }
}
