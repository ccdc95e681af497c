//! `--include` / `--exclude`: which operations to convert, by method and path glob
//! (`GET /coins/*`, `/coins/**`), by tag (`tag:market`) or by operationId (`id:coinsMarkets`).

use glob::{MatchOptions, Pattern};
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};

/// `*` stays within one path segment, `**` crosses them.
const SEGMENTS: MatchOptions =
    MatchOptions { case_sensitive: true, require_literal_separator: true, require_literal_leading_dot: false };

/// Which operations to convert: `GET /coins/*`, `tag:market` or `id:coinsMarkets`
/// ([`Filter::parse`]).
#[derive(Clone, Debug)]
pub enum Filter {
    /// A method (or any, `*`) and a path glob (`*` within a segment, `**` across segments).
    Path {
        /// The method, lower case; `None` matches any.
        method: Option<String>,
        /// The path glob.
        path: Pattern,
    },
    /// Operations with this tag.
    Tag(String),
    /// The operation with this operationId.
    OperationId(String),
}

impl Filter {
    /// Parses one `--include`/`--exclude` value.
    pub fn parse(text: &str) -> Result<Filter, Diagnostic> {
        let text = text.trim();
        if let Some(tag) = text.strip_prefix("tag:") {
            return Ok(Filter::Tag(tag.to_owned()));
        }
        if let Some(id) = text.strip_prefix("id:") {
            return Ok(Filter::OperationId(id.to_owned()));
        }
        let (method, path) = match text.split_once(char::is_whitespace) {
            Some((method, path)) => (Some(method.to_ascii_lowercase()).filter(|m| m != "*"), path.trim()),
            None => (None, text),
        };
        // `{` is literal (OpenAPI paths are full of `{id}`); `[...]` is a character class.
        let path = Pattern::new(path).map_err(|err| {
            Diagnostic::elsewhere(Code::BadFilter, format!("filter \"{text}\" is not a valid glob ({err})"))
                .with_help("examples: 'GET /coins/*', '/simple/**', 'GET /coins/{id}', 'tag:market', 'id:coinsMarkets'")
        })?;
        Ok(Filter::Path { method, path })
    }

    fn matches(&self, method: &str, path: &str, operation: &Value) -> bool {
        match self {
            Filter::Path { method: wanted, path: glob } => {
                wanted.as_deref().is_none_or(|m| m == method) && glob.matches_with(path, SEGMENTS)
            }
            Filter::Tag(tag) => operation
                .get("tags")
                .and_then(Value::as_array)
                .is_some_and(|tags| tags.iter().any(|t| t.as_str() == Some(tag))),
            Filter::OperationId(id) => operation.get("operationId").and_then(Value::as_str) == Some(id.as_str()),
        }
    }
}

/// Whether an operation passes `include` (when any) and no `exclude`.
pub fn selected(include: &[Filter], exclude: &[Filter], method: &str, path: &str, operation: &Value) -> bool {
    (include.is_empty() || include.iter().any(|f| f.matches(method, path, operation)))
        && !exclude.iter().any(|f| f.matches(method, path, operation))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keep(include: &[&str], exclude: &[&str], method: &str, path: &str, operation: Value) -> bool {
        let parse = |list: &[&str]| list.iter().map(|f| Filter::parse(f).unwrap()).collect::<Vec<_>>();
        selected(&parse(include), &parse(exclude), method, path, &operation)
    }

    #[test]
    fn method_path_tag_and_id() {
        let op = json!({"operationId": "coinsMarkets", "tags": ["market"]});
        assert!(keep(&["GET /coins/*"], &[], "get", "/coins/markets", op.clone()));
        assert!(!keep(&["POST /coins/*"], &[], "get", "/coins/markets", op.clone()));
        assert!(!keep(&["/coins/*"], &[], "get", "/coins/a/b", op.clone()));
        assert!(keep(&["/coins/**"], &[], "get", "/coins/a/b", op.clone()));
        // Path templates match as written (globset read `{id}` as an alternation of "id").
        assert!(keep(&["GET /coins/{id}"], &[], "get", "/coins/{id}", op.clone()));
        assert!(!keep(&["GET /coins/{id}"], &[], "get", "/coins/id", op.clone()));
        assert!(keep(&["/coins/{id}/*"], &[], "get", "/coins/{id}/history", op.clone()));
        assert!(keep(&["tag:market"], &[], "get", "/x", op.clone()));
        assert!(keep(&["id:coinsMarkets"], &[], "get", "/x", op.clone()));
        assert!(!keep(&[], &["tag:market"], "get", "/x", op.clone()));
        assert!(keep(&[], &[], "get", "/x", op.clone()));
        assert!(!keep(&["* /coins/*"], &["id:coinsMarkets"], "get", "/coins/m", op));
        assert_eq!(Filter::parse("GET /a/[").unwrap_err().code, Code::BadFilter);
    }
}
