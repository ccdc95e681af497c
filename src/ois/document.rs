//! The files OIS objects come in: one OIS object, an array of them, or a node's config.json with
//! a root `ois` array. Every command that reads OIS files tells them apart here.

use serde::Serialize;
use serde_json::Value;

use super::ConfigKind;
use crate::diagnostic::{Code, Diagnostic, Fix};

/// What a file of OIS objects turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocumentKind {
    /// One OIS object.
    Ois,
    /// An array of OIS objects.
    List,
    /// A node's configuration: one with a root `ois` array (an Airnode or Airnode Feed config,
    /// or a config.json fragment), or a Signed API config (no OIS in it).
    Node(ConfigKind),
    /// An OpenAPI 3.x or Swagger 2.0 document: something to convert, not an OIS.
    OpenApi,
}

impl DocumentKind {
    /// What `root` is at a glance, the one answer every command and the studio use: a node
    /// configuration (a root `ois`), an OpenAPI document (`openapi` or `swagger`, and no `ois`), an
    /// array of OIS objects, or one OIS object; `None` for a scalar. A Signed API config, which has
    /// no root `ois`, is told apart by [`ConfigKind::of`] where it matters.
    pub fn of(root: &Value) -> Option<DocumentKind> {
        match root {
            Value::Object(object) if object.contains_key("ois") => Some(DocumentKind::config_of(root)),
            Value::Object(object) if ["openapi", "swagger"].iter().any(|key| object.contains_key(*key)) => {
                Some(DocumentKind::OpenApi)
            }
            Value::Object(_) => Some(DocumentKind::Ois),
            Value::Array(_) => Some(DocumentKind::List),
            _ => None,
        }
    }

    /// A document with a root `ois`: the node config it is (a fragment when nothing else tells).
    fn config_of(root: &Value) -> DocumentKind {
        match ConfigKind::of(root) {
            Some(kind @ (ConfigKind::AirnodeFeed | ConfigKind::Airnode)) => DocumentKind::Node(kind),
            _ => DocumentKind::Node(ConfigKind::Fragment),
        }
    }

    /// Whether it is a node config holding OIS objects (a root `ois`): any but a Signed API's.
    pub fn holds_ois_list(self) -> bool {
        matches!(self, DocumentKind::Node(kind) if kind != ConfigKind::SignedApi)
    }

    /// Its name in reports: `ois`, `list`, `config`, `signed-api`, `openapi`.
    pub fn as_str(self) -> &'static str {
        match self {
            DocumentKind::Ois => "ois",
            DocumentKind::List => "list",
            DocumentKind::Node(ConfigKind::SignedApi) => "signed-api",
            DocumentKind::Node(_) => "config",
            DocumentKind::OpenApi => "openapi",
        }
    }
}

impl Serialize for DocumentKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl schemars::JsonSchema for DocumentKind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "DocumentKind".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "What a file is: one OIS, a list of them, a node config holding OIS objects, a Signed API config, or an OpenAPI document.",
            "type": "string",
            "enum": ["ois", "list", "config", "signed-api", "openapi"],
        })
    }
}

/// The OIS objects of a document, each with the pointer to it (`""`, `/2`, `/ois/0`).
#[derive(Clone, Debug)]
pub struct OisDocument<'a> {
    /// What the document is.
    pub kind: DocumentKind,
    /// The whole document.
    pub root: &'a Value,
    /// Each OIS object and its pointer in `root`.
    pub oises: Vec<(String, &'a Value)>,
}

impl<'a> OisDocument<'a> {
    /// Tells what `root` is. The error (with the kind it was taken for) is for a root that is
    /// neither an object nor an array, and for a config.json whose `ois` is not an array.
    pub fn read(root: &'a Value) -> Result<OisDocument<'a>, (DocumentKind, Diagnostic)> {
        let (kind, oises) = match root {
            Value::Object(object) => match object.get("ois") {
                Some(Value::Array(items)) => (DocumentKind::config_of(root), listed(items, "/ois/")),
                Some(_) => {
                    let error = Diagnostic::new(Code::WrongType, "/ois", "`ois` must be an array of OIS objects");
                    return Err((DocumentKind::config_of(root), error));
                }
                // An OpenAPI document passed by mistake: one clear error, not one per field.
                None if DocumentKind::of(root) == Some(DocumentKind::OpenApi) => {
                    let key = if object.contains_key("openapi") { "openapi" } else { "swagger" };
                    let error = Diagnostic::new(
                        Code::OpenApiNotOis,
                        format!("/{key}"),
                        "this is an OpenAPI document, not an OIS: it has an `openapi` or `swagger` field",
                    )
                    .with_fix(crate::diagnostic::Fix::ConvertFirst);
                    return Err((DocumentKind::OpenApi, error));
                }
                None => (DocumentKind::Ois, vec![(String::new(), root)]),
            },
            Value::Array(items) => (DocumentKind::List, listed(items, "/")),
            other => {
                let error = Diagnostic::new(
                    Code::RootNotObject,
                    "",
                    format!("the document is {}, not an OIS object", crate::openapi::kind_of(other)),
                )
                .with_help("pass an OIS object, an array of them, or a config.json");
                return Err((DocumentKind::Ois, error));
            }
        };
        Ok(OisDocument { kind, root, oises })
    }

    /// The OIS to use: the one titled `title`, or the only one. The error (REQ008) points at the
    /// document's OIS objects (`/ois` in a config.json, the root otherwise) and names the titles.
    pub fn choose(&self, title: Option<&str>) -> Result<Chosen<'a>, Diagnostic> {
        let titled = |(_, ois): &&(String, &'a Value)| ois.get("title").and_then(Value::as_str) == title;
        let found = match (title, self.oises.as_slice()) {
            (Some(_), oises) => oises.iter().find(titled),
            (None, [only]) => Some(only),
            (None, _) => None,
        };
        if let Some((pointer, ois)) = found {
            return Ok(Chosen { pointer: pointer.clone(), ois });
        }
        let at = if self.kind.holds_ois_list() { "/ois" } else { "" };
        let titles = self.titles().iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(", ");
        let error = match title {
            Some(title) => Diagnostic::new(Code::OisChoice, at, format!("the file has no OIS titled \"{title}\"")),
            None if self.oises.is_empty() => Diagnostic::new(Code::OisChoice, at, "the file holds no OIS object"),
            None => Diagnostic::new(
                Code::OisChoice,
                at,
                format!("the file holds {} OIS objects and none was chosen", self.oises.len()),
            )
            .with_fix(Fix::ChooseOis),
        };
        Err(if titles.is_empty() { error } else { error.with_help(format!("its titles: {titles}")) })
    }

    /// The titles of its OIS objects, for messages.
    pub fn titles(&self) -> Vec<&'a str> {
        self.oises.iter().filter_map(|(_, ois)| ois.get("title").and_then(Value::as_str)).collect()
    }
}

/// The OIS objects of the file at `path` (an OIS, a list of them, or a config.json), in order;
/// what stops reading it is located in its text.
pub fn oises_in_file(path: &std::path::Path) -> Result<Vec<Value>, Diagnostic> {
    oises_in(&crate::source::Source::read(path)?)
}

/// The OIS objects of `source`, in order; what stops reading it is located in its text.
pub fn oises_in(source: &crate::source::Source) -> Result<Vec<Value>, Diagnostic> {
    let document = source.parse()?;
    let read = OisDocument::read(&document).map_err(|(_, mut error)| {
        source.locate_diagnostic(&mut error);
        error
    })?;
    Ok(read.oises.into_iter().map(|(_, ois)| ois.clone()).collect())
}

/// The OIS objects of every file of `paths`, in order.
pub fn oises_in_files(paths: &[std::path::PathBuf]) -> Result<Vec<Value>, Diagnostic> {
    let mut oises = Vec::new();
    for path in paths {
        oises.extend(oises_in_file(path)?);
    }
    Ok(oises)
}

/// The OIS chosen from a document, and where it is.
#[derive(Clone, Debug)]
pub struct Chosen<'a> {
    /// Its pointer in the document (`""`, `/2`, `/ois/0`): what is said of the OIS is moved
    /// there with [`Diagnostic::within`].
    pub pointer: String,
    /// The OIS object.
    pub ois: &'a Value,
}

fn listed<'a>(items: &'a [Value], prefix: &str) -> Vec<(String, &'a Value)> {
    items.iter().enumerate().map(|(index, ois)| (format!("{prefix}{index}"), ois)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pointers(root: &Value) -> (DocumentKind, Vec<String>) {
        let document = OisDocument::read(root).unwrap();
        (document.kind, document.oises.into_iter().map(|(pointer, _)| pointer).collect())
    }

    #[test]
    fn tells_the_three_kinds_apart() {
        assert_eq!(pointers(&json!({"title": "A"})), (DocumentKind::Ois, vec![String::new()]));
        assert_eq!(pointers(&json!([{}, {}])), (DocumentKind::List, vec!["/0".into(), "/1".into()]));
        assert_eq!(
            pointers(&json!({"ois": [{}], "apiCredentials": []})),
            (DocumentKind::Node(ConfigKind::Fragment), vec!["/ois/0".into()])
        );
        let feed = json!({"ois": [{}], "templates": {}, "triggers": {"signedApiUpdates": []}});
        assert_eq!(pointers(&feed).0, DocumentKind::Node(ConfigKind::AirnodeFeed));
        assert_eq!(pointers(&json!({"ois": [], "chains": []})).0, DocumentKind::Node(ConfigKind::Airnode));
        let (kind, error) = OisDocument::read(&json!({"ois": {}})).unwrap_err();
        assert_eq!((kind, error.code), (DocumentKind::Node(ConfigKind::Fragment), Code::WrongType));
        // In reports: every config holding OIS objects is `config`.
        assert_eq!(serde_json::to_value(DocumentKind::Node(ConfigKind::Airnode)).unwrap(), json!("config"));
        assert_eq!(serde_json::to_value(DocumentKind::Node(ConfigKind::SignedApi)).unwrap(), json!("signed-api"));
        assert_eq!(OisDocument::read(&json!(1)).unwrap_err().1.code, Code::RootNotObject);
    }

    #[test]
    fn chooses_by_title_or_the_only_one_and_says_where_when_it_cannot() {
        let config = json!({"ois": [{"title": "A"}, {"title": "B"}]});
        let document = OisDocument::read(&config).unwrap();
        assert_eq!(document.choose(Some("B")).unwrap().pointer, "/ois/1");
        let none = document.choose(None).unwrap_err();
        assert_eq!((none.code, none.pointer(), &none.fix), (Code::OisChoice, "/ois", &Some(Fix::ChooseOis)));
        let missing = document.choose(Some("C")).unwrap_err();
        assert_eq!((missing.code, missing.pointer()), (Code::OisChoice, "/ois"));
        assert!(missing.help.unwrap().contains("\"A\", \"B\""));
        let list = json!([{"title": "A"}, {"title": "B"}]);
        assert_eq!(OisDocument::read(&list).unwrap().choose(None).unwrap_err().pointer(), "");
        let one = json!({"title": "A"});
        assert_eq!(OisDocument::read(&one).unwrap().choose(None).unwrap().pointer, "");
        assert_eq!(OisDocument::read(&json!([])).unwrap().choose(None).unwrap_err().code, Code::OisChoice);
    }
}
