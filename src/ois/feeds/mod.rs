//! Feeds by name: API3's production `feed` endpoint. One endpoint named `feed` on a multiplexing
//! operation `GET /{path}` serves every data feed of an API; the requester (a template) gives
//! only the feed's `name` (`BTC/USD`), the pre-processing looks the name up in a table of the
//! vendor's path and parameters, and the post-processing in a table of parser snippets. This
//! module reads those tables from an OIS and writes them back in the text API3's own scripts
//! write (prettier's layout), so an OIS made here and one made there read alike.
//!
//! The tables are read as data (JSON5), never run; the code around them must be production's, or
//! the endpoint is not taken for a feed endpoint ([`read`] says why).

mod render;
pub mod rpc;
mod table;

use crate::pointer::Member as _;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic};

pub use render::{post_processing_code, pre_processing_code};

/// The name of the endpoint that serves feeds by name.
pub const FEED_ENDPOINT: &str = "feed";
/// The multiplexing operation's path; its `path` parameter is each feed's vendor path.
pub const FEED_OPERATION_PATH: &str = "/{path}";
/// The endpoint parameter that carries the feed's name (what a template gives).
pub const NAME_PARAMETER: &str = "name";
/// The endpoint parameter (and path parameter) that carries the vendor path.
pub const PATH_PARAMETER: &str = "path";
/// A feed name's longest encoding: it goes on chain as `string32`.
pub const MAX_NAME_BYTES: usize = 31;

/// One data feed served by name.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct Feed {
    /// The name a template gives (`BTC/USD`).
    pub name: String,
    /// The vendor's path, without the leading `/` (`simple/price`).
    pub path: String,
    /// The vendor's parameters for it, in order.
    pub parameters: Map<String, Value>,
    /// The parser snippet, `(response) => { … }`, as the node runs it; `None` when the
    /// post-processing table has no entry for the name.
    pub parser: Option<String>,
}

impl Feed {
    /// A feed of `name` on `path` with no parameters and no parser yet.
    pub fn new(name: impl Into<String>, path: impl Into<String>) -> Feed {
        Feed { name: name.into(), path: path.into(), parameters: Map::new(), parser: None }
    }

    /// The value path the parser reads (`quotes.USD.price`), when it is the plain reader
    /// [`parser_for`] writes (or one written like it).
    pub fn value_path(&self) -> Option<String> {
        self.parser.as_deref().and_then(value_path_of)
    }

    /// What the parser reads, as evidence beside the value it gives ([`reading_of`]).
    pub fn reading(&self) -> Option<String> {
        self.parser.as_deref().and_then(reading_of)
    }

    /// What the parser reads whatever the feed's name, as a key two feeds share exactly when
    /// they read the same value of one answer: its code without spaces outside quotes. `None`
    /// for a parser that reads the feed's own name (`endpointParameters.name`, as production's
    /// find the quote of their pair), whose value differs from feed to feed.
    pub fn same_value_key(&self) -> Option<String> {
        let parser = self.parser.as_deref()?;
        (!parser.contains("endpointParameters")).then(|| without_spaces_outside_quotes(parser))
    }
}

/// The element of the one answer that is feed `name`'s own, when one call answers it with others
/// (a batch: the same vendor path and parameters): the one its value path enters (`1` of
/// `1.data.last`, `silver` of `silver.usd`). `None` for a feed called alone, or read by code.
pub fn own_element(ois: &Value, name: &str) -> Option<String> {
    let tables = read(ois).ok()??;
    let own = tables.feeds.iter().find(|f| f.name == name)?;
    let batched = tables
        .feeds
        .iter()
        .any(|other| other.name != own.name && other.path == own.path && other.parameters == own.parameters);
    let path = own.value_path().filter(|_| batched)?;
    crate::ois::reserved::escape_aware_split(&path, '.').into_iter().next()
}

/// The method of the feed endpoint's operation: `POST` for a vendor whose feeds are POST bodies
/// (the node sends a POST's parameters as its JSON body), else `GET`.
pub fn method_of(ois: &Value) -> crate::ois::model::Method {
    feed_endpoint_index(ois)
        .and_then(|index| ois.pointer(&format!("/endpoints/{index}/operation/method"))?.as_str())
        .and_then(crate::ois::model::Method::named)
        .unwrap_or(crate::ois::model::Method::Get)
}

/// The feeds of a feed endpoint, and what its tables do not pair.
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FeedTables {
    /// The feeds, in the pre-processing table's order.
    pub feeds: Vec<Feed>,
    /// Names the post-processing table has and the pre-processing table does not.
    pub parsers_without_request: Vec<String>,
}

/// The index of the `feed` endpoint of `ois`.
pub fn feed_endpoint_index(ois: &Value) -> Option<usize> {
    ois.member("endpoints")?
        .as_array()?
        .iter()
        .position(|e| e.member("name").and_then(Value::as_str) == Some(FEED_ENDPOINT))
}

/// The feeds of `ois`'s `feed` endpoint: `Ok(None)` when it has none; an error (EDT005) when
/// its processing is not production's feed tables.
pub fn read(ois: &Value) -> Result<Option<FeedTables>, Diagnostic> {
    let Some(index) = feed_endpoint_index(ois) else { return Ok(None) };
    let at = format!("/endpoints/{index}");
    let endpoint = ois.pointer(&at).unwrap_or(&Value::Null);
    table::read_endpoint(endpoint, &at).map(Some)
}

/// The feed a call of `endpoint` with the requester's `name` asks of `ois`: `Ok(Some(name))` when
/// `ois` serves feeds by name on it (its tables readable: the value path is then read from the
/// vendor's answer as it came) and `name` is one of them; `Ok(None)` for a call of any other
/// endpoint (a `feed` endpoint whose tables cannot be read is taken at its word); an error naming
/// the feeds it serves when `name` is not one (its pre-processing would fail on the missing entry).
pub fn asked(ois: &Value, endpoint: &str, name: Option<&Value>) -> Result<Option<String>, Diagnostic> {
    let Some(name) = name.and_then(Value::as_str).filter(|_| endpoint == FEED_ENDPOINT) else { return Ok(None) };
    let Ok(Some(tables)) = read(ois) else { return Ok(None) };
    if tables.feeds.iter().any(|feed| feed.name == name) {
        return Ok(Some(name.to_owned()));
    }
    let index = feed_endpoint_index(ois).unwrap_or_default();
    let like: Vec<&str> = tables
        .feeds
        .iter()
        .map(|feed| feed.name.as_str())
        .filter(|other| {
            other.to_lowercase().contains(&name.to_lowercase()) || name.to_lowercase().contains(&other.to_lowercase())
        })
        .take(5)
        .collect();
    let shown: Vec<&str> =
        if like.is_empty() { tables.feeds.iter().map(|f| f.name.as_str()).take(10).collect() } else { like };
    Err(Diagnostic::new(
        Code::BadFeed,
        format!("/endpoints/{index}/preProcessingSpecificationV2/value"),
        format!(
            "the feed endpoint serves no feed \"{}\" ({} feed(s); e.g. {})",
            crate::emit::printable(name),
            tables.feeds.len(),
            shown.join(", ")
        ),
    ))
}

/// The operation of `ois` of `method` (other than `/{path}`) whose path template `path` fills: a
/// `{param}` takes one segment or more (a value may hold `/`).
pub fn operation_for(ois: &Value, path: &str, method: crate::ois::model::Method) -> Option<String> {
    let paths = ois.pointer("/apiSpecifications/paths")?.as_object()?;
    let wanted: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    paths
        .iter()
        .filter(|(template, item)| *template != FEED_OPERATION_PATH && item.get(method.as_str()).is_some())
        .map(|(template, _)| template)
        .find(|template| {
            let parts: Vec<&str> = template.trim_start_matches('/').split('/').collect();
            fills(&parts, &wanted)
        })
        .cloned()
}

/// Whether `segments` fill the template `parts` (`{x}` taking one segment or more).
fn fills(parts: &[&str], segments: &[&str]) -> bool {
    match (parts.split_first(), segments.split_first()) {
        (None, None) => true,
        (Some((part, rest)), _) if part.starts_with('{') && part.ends_with('}') => {
            (1..=segments.len()).any(|taken| fills(rest, segments.get(taken..).unwrap_or_default()))
        }
        (Some((part, rest)), Some((segment, others))) => part == segment && fills(rest, others),
        _ => false,
    }
}

/// The feeds of `after` whose vendor operation `before` had and `after` has not (an update that
/// took it away): each named with the operation it called.
pub fn callers_gone(before: &Value, after: &Value) -> Vec<(String, String)> {
    let Ok(Some(tables)) = read(after) else { return Vec::new() };
    let method = method_of(after);
    tables
        .feeds
        .into_iter()
        .filter_map(|feed| {
            let operation = operation_for(before, &feed.path, method)?;
            operation_for(after, &feed.path, method).is_none().then_some((feed.name, operation))
        })
        .collect()
}

/// Checks `name` is a feed name: not empty, no spaces at its ends, no control or invisible
/// characters, and at most [`MAX_NAME_BYTES`] bytes (it goes on chain as `string32`).
pub fn check_name(name: &str) -> Result<(), Diagnostic> {
    let shown = crate::emit::printable(name);
    let refuse = |why: String| Diagnostic::elsewhere(Code::BadFeed, format!("feed name \"{shown}\" {why}"));
    if name.trim().is_empty() || name.trim() != name {
        return Err(refuse("is empty, or has spaces at its ends".to_owned()));
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(refuse(format!(
            "is {} bytes long: a template carries it as string32, at most {MAX_NAME_BYTES} bytes",
            name.len()
        )));
    }
    if name.chars().any(|c| c.is_control() || crate::emit::is_invisible(c)) {
        return Err(refuse("has a control character or an invisible format character".to_owned()));
    }
    Ok(())
}

/// The parser that reads `path` (a `_path`: `.` between segments, `\.` for a dot in a key,
/// numbers into arrays) from the response, as API3's blueprints write one:
/// `(response) => {\n  return response.quotes.USD.price\n}`.
pub fn parser_for(path: &str) -> Result<String, Diagnostic> {
    let segments = crate::ois::reserved::escape_aware_split(path, '.');
    if path.is_empty() || segments.iter().any(String::is_empty) {
        return Err(Diagnostic::elsewhere(
            Code::BadFeed,
            format!("value path \"{}\" has an empty segment", crate::emit::printable(path)),
        ));
    }
    let mut reader = String::from("response");
    for segment in &segments {
        reader.push_str(&render::accessor(segment));
    }
    Ok(format!("(response) => {{\n  return {reader}\n}}"))
}

/// The parser that finds its element of an array answer by a field naming it, then reads `rest`
/// (a value path, or empty) from it, as API3's blueprints write one:
/// `(response) => {\n  return response.find((item) => item.requestedSymbol === "silver").data.last\n}`.
pub fn parser_finding(field: &str, value: &str, rest: &str) -> Result<String, Diagnostic> {
    let quoted = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let mut reader = format!("response.find((item) => item{} === {})", render::accessor(field), quoted(value));
    if !rest.is_empty() {
        let segments = crate::ois::reserved::escape_aware_split(rest, '.');
        if segments.iter().any(String::is_empty) {
            return Err(Diagnostic::elsewhere(
                Code::BadFeed,
                format!("value path \"{}\" has an empty segment", crate::emit::printable(rest)),
            ));
        }
        for segment in &segments {
            reader.push_str(&render::accessor(segment));
        }
    }
    Ok(format!("(response) => {{\n  return {reader}\n}}"))
}

/// The value path a parser reads, when it only returns a chain of property reads of the
/// response (`response.a['b'][0]`): what `feed list` shows instead of code.
pub fn value_path_of(parser: &str) -> Option<String> {
    let compact = without_spaces_outside_quotes(parser);
    let segments = accessor_chain(returned(&compact)?.strip_prefix("response")?)?;
    (!segments.is_empty()).then(|| joined_path(&segments))
}

/// What a parser of either shape [`parser_for`] and [`parser_finding`] write reads, for a person:
/// `1.data.last`, or `requestedSymbol = "silver", then data.last` for the element a field names.
/// `None` for code of any other shape.
pub fn reading_of(parser: &str) -> Option<String> {
    if let Some(path) = value_path_of(parser) {
        return Some(path);
    }
    let compact = without_spaces_outside_quotes(parser);
    let finding = returned(&compact)?.strip_prefix("response.find((item)=>item")?;
    let (field, rest) = finding.split_once("===")?;
    let field = accessor_chain(field)?;
    // The value is one JSON string literal; what follows its closing `)` is the path inside.
    let mut literal = serde_json::Deserializer::from_str(rest).into_iter::<String>();
    let value = literal.next()?.ok()?;
    let inside = accessor_chain(rest.get(literal.byte_offset()..)?.strip_prefix(')')?)?;
    let named = format!("{} = {}", joined_path(&field), Value::String(value));
    Some(if inside.is_empty() { named } else { format!("{named}, then {}", joined_path(&inside)) })
}

/// The expression an arrow function `(response) => …` returns, compacted.
fn returned(compact: &str) -> Option<&str> {
    let body = compact.strip_prefix("(response)=>")?;
    Some(match body.strip_prefix("{return") {
        Some(rest) => rest.strip_suffix('}')?.trim_end_matches(';'),
        None => body,
    })
}

/// The segments of a chain of property reads (`.a['b'][0]`), each unescaped; `None` when `chain`
/// is anything else.
fn accessor_chain(mut rest: &str) -> Option<Vec<String>> {
    let mut segments = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            let name = after.get(..end)?;
            if !render::is_identifier(name) {
                return None;
            }
            segments.push(name.to_owned());
            rest = after.get(end..)?;
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            let inside = after.get(..end)?;
            let segment = match inside.chars().next()? {
                quote @ ('\'' | '"') => {
                    let text = inside.strip_prefix(quote)?.strip_suffix(quote)?;
                    if text.contains(['\\', '\'', '"']) {
                        return None;
                    }
                    text.to_owned()
                }
                _ if inside.bytes().all(|b| b.is_ascii_digit()) => inside.to_owned(),
                _ => return None,
            };
            segments.push(segment);
            rest = after.get(end + 1..)?;
        } else {
            return None;
        }
    }
    Some(segments)
}

/// Segments as a value path, a `.` inside one escaped.
fn joined_path(segments: &[String]) -> String {
    segments.iter().map(|s| s.replace('.', "\\.")).collect::<Vec<_>>().join(".")
}

/// `code` without its whitespace, except inside quotes.
fn without_spaces_outside_quotes(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in code.chars() {
        match quote {
            Some(open) => {
                out.push(c);
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == open {
                    quote = None;
                }
            }
            None if c.is_whitespace() => {}
            None => {
                if matches!(c, '\'' | '"' | '`') {
                    quote = Some(c);
                }
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_path_and_its_parser_read_each_other() {
        for path in ["quotes.USD.price", "rates.AAVE-USD.rate", "data.0.price", "a\\.b.c", "price"] {
            let parser = parser_for(path).unwrap();
            assert_eq!(value_path_of(&parser).as_deref(), Some(path), "{parser}");
        }
        assert_eq!(
            parser_for("rates.AAVE-USD.rate").unwrap(),
            "(response) => {\n  return response.rates[\"AAVE-USD\"].rate\n}"
        );
        assert_eq!(value_path_of("(response) => {\n  return response['aave']['usd']\n}").as_deref(), Some("aave.usd"));
        assert_eq!(value_path_of("(response) => { return (response.a + response.b) / 2 }"), None);
        assert_eq!(value_path_of("(response) => response['a b'].c").as_deref(), Some("a b.c"));
        assert!(parser_for("a..b").is_err());
        assert!(parser_for("").is_err());
    }

    #[test]
    fn a_reading_names_the_element_a_field_finds_and_the_path_inside() {
        let finding = parser_finding("requestedSymbol", "silver", "data.last").unwrap();
        assert_eq!(reading_of(&finding).as_deref(), Some("requestedSymbol = \"silver\", then data.last"));
        let whole = parser_finding("meta.id", "a \"b\")", "").unwrap();
        assert_eq!(reading_of(&whole).as_deref(), Some("meta\\.id = \"a \\\"b\\\")\""));
        assert_eq!(reading_of(&parser_for("1.data.last").unwrap()).as_deref(), Some("1.data.last"));
        assert_eq!(reading_of("(response) => response.find((item) => item.x === 1).y"), None);
        assert_eq!(reading_of("(response) => { return (response.a + response.b) / 2 }"), None);
    }

    #[test]
    fn a_feed_path_finds_the_operation_it_fills() {
        let ois = serde_json::json!({"apiSpecifications": {"paths": {
            "/{path}": {"get": {}},
            "/simple/price": {"get": {}},
            "/tickers/{id}": {"get": {}},
            "/a/{x}/b": {"get": {}},
            "/orders": {"post": {}},
        }}});
        use crate::ois::model::Method::{Get, Post};
        assert_eq!(operation_for(&ois, "simple/price", Get).as_deref(), Some("/simple/price"));
        assert_eq!(operation_for(&ois, "tickers/aave-new", Get).as_deref(), Some("/tickers/{id}"));
        assert_eq!(operation_for(&ois, "a/x/y/b", Get).as_deref(), Some("/a/{x}/b"));
        assert_eq!(operation_for(&ois, "orders", Get), None);
        assert_eq!(operation_for(&ois, "orders", Post).as_deref(), Some("/orders"));
        assert_eq!(operation_for(&ois, "simple/price/extra", Get), None);
    }

    #[test]
    fn feed_names_take_the_form_a_template_can_carry() {
        assert!(check_name("BTC/USD").is_ok());
        assert!(check_name("sFRAX/FRAX Exchange Rate").is_ok());
        for bad in ["", " BTC/USD", "A".repeat(32).as_str(), "BTC\u{200b}/USD", "BTC\n"] {
            assert_eq!(check_name(bad).unwrap_err().code, Code::BadFeed, "{bad:?}");
        }
    }
}
