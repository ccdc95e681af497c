//! `--include` / `--exclude`: which operations to convert, by method and path glob
//! (`GET /coins/*`, `/coins/**`), by tag (`tag:market`) or by operationId (`id:coinsMarkets`).

use glob::{MatchOptions, Pattern};
use serde_json::Value;

use super::shared::base_name;
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

    /// Whether the operation at `method` `path`, whose natural endpoint name is `name`, matches.
    fn matches(&self, method: &str, path: &str, operation: &Value, name: &str) -> bool {
        match self {
            Filter::Path { method: wanted, path: glob } => {
                wanted.as_deref().is_none_or(|m| m == method) && glob.matches_with(path, SEGMENTS)
            }
            Filter::Tag(tag) => operation
                .get("tags")
                .and_then(Value::as_array)
                .is_some_and(|tags| tags.iter().any(|t| t.as_str() == Some(tag))),
            // The operationId as written, or the endpoint name made from it (`simple-price` and
            // `simplePrice` both name the operation `simple-price`).
            Filter::OperationId(id) => {
                operation.get("operationId").and_then(Value::as_str) == Some(id.as_str())
                    || id == name
                    || base_name(Some(id), method, path) == name
            }
        }
    }
}

/// The filter as it was written (method upper case).
impl std::fmt::Display for Filter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Filter::Path { method: Some(method), path } => write!(f, "{} {}", method.to_uppercase(), path.as_str()),
            Filter::Path { method: None, path } => f.write_str(path.as_str()),
            Filter::Tag(tag) => write!(f, "tag:{tag}"),
            Filter::OperationId(id) => write!(f, "id:{id}"),
        }
    }
}

/// The include and exclude filters of one conversion, and which of them matched something.
pub(super) struct Selection<'f> {
    include: &'f [Filter],
    exclude: &'f [Filter],
    included: Vec<bool>,
    excluded: Vec<bool>,
}

impl<'f> Selection<'f> {
    pub(super) fn new(include: &'f [Filter], exclude: &'f [Filter]) -> Self {
        Selection { include, exclude, included: vec![false; include.len()], excluded: vec![false; exclude.len()] }
    }

    /// Whether any filter was given (without one, every operation is selected).
    pub(super) fn is_active(&self) -> bool {
        !self.include.is_empty() || !self.exclude.is_empty()
    }

    /// Whether an operation passes `include` (when any) and no `exclude`; every filter that
    /// matches it is remembered.
    pub(super) fn selects(&mut self, method: &str, path: &str, operation: &Value, name: &str) -> bool {
        let mark = |filters: &[Filter], matched: &mut [bool]| {
            let mut any = false;
            for (filter, hit) in filters.iter().zip(matched.iter_mut()) {
                if filter.matches(method, path, operation, name) {
                    *hit = true;
                    any = true;
                }
            }
            any
        };
        let included = mark(self.include, &mut self.included) || self.include.is_empty();
        let excluded = mark(self.exclude, &mut self.excluded);
        included && !excluded
    }

    /// Takes in what `other` (a selection over other operations, with the same filters) matched.
    pub(super) fn absorb(&mut self, other: &Selection<'_>) {
        for (mine, theirs) in [(&mut self.included, &other.included), (&mut self.excluded, &other.excluded)] {
            for (hit, other_hit) in mine.iter_mut().zip(theirs) {
                *hit |= *other_hit;
            }
        }
    }

    /// The filters that matched no operation: ("include" or "exclude", the filter).
    pub(super) fn unmatched(&self) -> Vec<(&'static str, &'f Filter)> {
        let unused = |kind: &'static str, filters: &'f [Filter], matched: &[bool]| {
            filters.iter().zip(matched).filter(|(_, hit)| !**hit).map(|(filter, _)| (kind, filter)).collect::<Vec<_>>()
        };
        let mut found = unused("include", self.include, &self.included);
        found.extend(unused("exclude", self.exclude, &self.excluded));
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keep(include: &[&str], exclude: &[&str], method: &str, path: &str, operation: Value) -> bool {
        let parse = |list: &[&str]| list.iter().map(|f| Filter::parse(f).unwrap()).collect::<Vec<_>>();
        let (include, exclude) = (parse(include), parse(exclude));
        let id = operation.get("operationId").and_then(Value::as_str);
        Selection::new(&include, &exclude).selects(method, path, &operation, &base_name(id, method, path))
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
        // `id:` names an operationId as written or the endpoint name made from it.
        let dashed = json!({"operationId": "simple-price"});
        assert!(keep(&["id:simple-price"], &[], "get", "/simple/price", dashed.clone()));
        assert!(keep(&["id:simplePrice"], &[], "get", "/simple/price", dashed));
        assert!(keep(&["id:getCoinsIdHistory"], &[], "get", "/coins/{id}/history", json!({})));
    }

    #[test]
    fn remembers_which_filters_matched_nothing() {
        let include = vec![Filter::parse("GET /coins/{id}").unwrap(), Filter::parse("GET /nope").unwrap()];
        let exclude = vec![Filter::parse("tag:never").unwrap()];
        let mut selection = Selection::new(&include, &exclude);
        assert!(selection.selects("get", "/coins/{id}", &json!({}), "getCoinsId"));
        assert!(!selection.selects("get", "/other", &json!({}), "getOther"));
        let unmatched: Vec<String> = selection.unmatched().iter().map(|(kind, f)| format!("{kind} {f}")).collect();
        assert_eq!(unmatched, ["include GET /nope", "exclude tag:never"]);
    }
}
