//! Reading the feed tables of a `feed` endpoint: each table is found by its `const` and read as
//! JSON5 (the object literal is data), and the code around it is compared with production's, so
//! an endpoint whose processing does something else is never mistaken for a feed endpoint.

use crate::pointer::Member as _;
use serde_json::{Map, Value};

use super::{Feed, FeedTables};
use crate::diagnostic::{Code, Diagnostic, Fix};

const PRE_TABLE: &str = "preProcessingObject";
const POST_TABLE: &str = "postProcessingObject";
/// Tables nest three deep (name → parameters → value); deeper is not a feed table.
const MAX_DEPTH: usize = 8;

/// Production's pre-processing around its table (`TABLE`), without whitespace, `;` and trailing
/// commas.
const PRE_SHAPE: &str = "({endpointParameters})=>{constpreProcessingObject=TABLEreturn{endpointParameters:{path:preProcessingObject[endpointParameters.name].path,...preProcessingObject[endpointParameters.name].parameters}}}";
/// Production's post-processing around its table.
const POST_SHAPE: &str = "({response,endpointParameters})=>{constpostProcessingObject=TABLEconstparser=eval(postProcessingObject[endpointParameters.name])return{response:parser(response)}}";

fn unreadable(at: &str, why: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::FeedTableUnreadable, at.to_owned(), why.into())
        .with_help("a feed endpoint's processing is two tables, name → path and parameters, name → parser, in the code API3's scripts write")
        .with_fix(Fix::WriteFeedTables)
}

/// The feeds of the feed endpoint `endpoint` (at `at`).
pub(super) fn read_endpoint(endpoint: &Value, at: &str) -> Result<FeedTables, Diagnostic> {
    let code = |key: &str| -> Result<String, Diagnostic> {
        let value = endpoint.get(key).and_then(|s| s.member("value")).and_then(Value::as_str).ok_or_else(|| {
            unreadable(&format!("{at}/{key}"), format!("the feed endpoint has no `{key}`: no table of feeds to read"))
        })?;
        // The OIS holds `\${` for a literal `${`; the tables are read as the node runs them.
        Ok(value.replace("\\${", "${"))
    };
    let pre_at = format!("{at}/preProcessingSpecificationV2/value");
    let post_at = format!("{at}/postProcessingSpecificationV2/value");
    let requests = table(&code("preProcessingSpecificationV2")?, PRE_TABLE, PRE_SHAPE, &pre_at)?;
    let parsers = table(&code("postProcessingSpecificationV2")?, POST_TABLE, POST_SHAPE, &post_at)?;

    let mut feeds = Vec::with_capacity(requests.len());
    for (name, request) in &requests {
        let path = request.member("path").and_then(Value::as_str).ok_or_else(|| {
            unreadable(&pre_at, format!("the table's entry \"{}\" has no `path` string", crate::emit::printable(name)))
        })?;
        let parameters = match request.member("parameters") {
            None => Map::new(),
            Some(Value::Object(map)) => map.clone(),
            Some(_) => {
                return Err(unreadable(
                    &pre_at,
                    format!("the table's entry \"{}\": `parameters` is not an object", crate::emit::printable(name)),
                ));
            }
        };
        let parser = match parsers.get(name) {
            None => None,
            Some(Value::String(code)) => Some(code.clone()),
            Some(_) => {
                return Err(unreadable(
                    &post_at,
                    format!("the table's entry \"{}\" is not a string of code", crate::emit::printable(name)),
                ));
            }
        };
        feeds.push(Feed { name: name.clone(), path: path.to_owned(), parameters, parser });
    }
    let parsers_without_request = parsers.keys().filter(|name| !requests.contains_key(*name)).cloned().collect();
    Ok(FeedTables { feeds, parsers_without_request })
}

/// The object literal `const NAME = {…}` of `code`, read as data; the code around it must be
/// `shape` (with `TABLE` where the literal is).
fn table(code: &str, name: &str, shape: &str, at: &str) -> Result<Map<String, Value>, Diagnostic> {
    let marker = format!("const {name}");
    let start = code
        .find(&marker)
        .and_then(|found| {
            let after = code.get(found + marker.len()..)?;
            let equals = after.find(|c: char| !c.is_whitespace())?;
            if !after.get(equals..)?.starts_with('=') {
                return None;
            }
            let value = after.get(equals + 1..)?;
            let open = value.find(|c: char| !c.is_whitespace())?;
            value.get(open..)?.starts_with('{').then(|| code.len() - value.len() + open)
        })
        .ok_or_else(|| unreadable(at, format!("no `const {name} = {{ … }}` table in the code")))?;
    let end = literal_end(code, start).ok_or_else(|| unreadable(at, format!("the `{name}` table does not close")))?;
    let literal = code.get(start..end).unwrap_or_default();
    let around = format!("{}TABLE{}", code.get(..start).unwrap_or_default(), code.get(end..).unwrap_or_default());
    if normalized(&around) != shape {
        return Err(unreadable(
            at,
            "the code around the feed table is not the code API3's scripts (and the feed edits) write: it may do more than look the name up",
        ));
    }
    match json5::from_str::<Value>(literal) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(unreadable(at, format!("the `{name}` table is not an object"))),
        Err(error) => Err(unreadable(at, format!("the `{name}` table is not plain data: {error}"))),
    }
}

/// The end (exclusive) of the object literal opening at `start`: the `}` that closes it, strings
/// and comments skipped. `None` when it does not close or nests deeper than [`MAX_DEPTH`].
fn literal_end(code: &str, start: usize) -> Option<usize> {
    let bytes = code.as_bytes();
    let mut depth = 0usize;
    let mut at = start;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'{' | b'[' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return None;
                }
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            b'"' | b'\'' | b'`' => {
                at += 1;
                loop {
                    match bytes.get(at)? {
                        b'\\' => at += 2,
                        &c if c == byte => break,
                        _ => at += 1,
                    }
                }
            }
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at += bytes.get(at..)?.iter().position(|&b| b == b'\n')?;
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                at += 2 + code.get(at + 2..)?.find("*/")? + 1;
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// `code` without whitespace, `;`, and commas before a closing bracket: prettier's layout and
/// the optional punctuation do not change what the code does.
fn normalized(code: &str) -> String {
    let compact: String = code.chars().filter(|c| !c.is_whitespace() && *c != ';').collect();
    let mut out = String::with_capacity(compact.len());
    let mut chars = compact.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ',' && matches!(chars.peek(), Some('}' | ')' | ']')) {
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn endpoint(pre: &str, post: &str) -> Value {
        json!({
            "name": "feed",
            "preProcessingSpecificationV2": {"environment": "Node", "value": pre, "timeoutMs": 5000},
            "postProcessingSpecificationV2": {"environment": "Node", "value": post, "timeoutMs": 5000},
        })
    }

    const PRE: &str = "({ endpointParameters }) => {\n  const preProcessingObject = {\n    \"BTC/USD\": { path: \"simple/price\", parameters: { ids: \"bitcoin\", vs_currencies: 'usd' } }, // a comment }\n    \"ETH/USD\": { path: \"p/{x}\" },\n  }\n  return {\n    endpointParameters: {\n      path: preProcessingObject[endpointParameters.name].path,\n      ...preProcessingObject[endpointParameters.name].parameters,\n    },\n  };\n}\n";
    const POST: &str = "({ response, endpointParameters }) => {\n  const postProcessingObject = {\n    \"BTC/USD\": \"(response) => {\\n  return response.bitcoin.usd\\n}\",\n    \"SOL/USD\": \"(response) => response.x\",\n  }\n  const parser = eval(postProcessingObject[endpointParameters.name])\n  return { response: parser(response) }\n}\n";

    #[test]
    fn reads_both_tables_as_data() {
        let tables = read_endpoint(&endpoint(PRE, POST), "/endpoints/0").unwrap();
        assert_eq!(tables.feeds.len(), 2);
        let btc = &tables.feeds[0];
        assert_eq!((btc.name.as_str(), btc.path.as_str()), ("BTC/USD", "simple/price"));
        assert_eq!(Value::Object(btc.parameters.clone()), json!({"ids": "bitcoin", "vs_currencies": "usd"}));
        assert_eq!(btc.value_path().as_deref(), Some("bitcoin.usd"));
        assert_eq!(tables.feeds[1].parser, None);
        assert_eq!(tables.parsers_without_request, ["SOL/USD"]);
    }

    #[test]
    fn other_code_around_the_table_is_not_a_feed_endpoint() {
        let changed = PRE.replace(".path,", ".path, secret: process.env.KEY,");
        let error = read_endpoint(&endpoint(&changed, POST), "/endpoints/0").unwrap_err();
        assert_eq!(error.code, Code::FeedTableUnreadable);
        assert_eq!(error.location.pointer, "/endpoints/0/preProcessingSpecificationV2/value");
        let code_in_table = PRE.replace("\"bitcoin\"", "process.env.KEY");
        let error = read_endpoint(&endpoint(&code_in_table, POST), "/endpoints/0").unwrap_err();
        assert!(error.message.contains("not plain data"), "{}", error.message);
        let open = PRE.replace("  }\n  return", "  \n  return");
        assert!(read_endpoint(&endpoint(&open, POST), "/e").is_err());
        let deep = format!(
            "({{ endpointParameters }}) => {{ const preProcessingObject = {}{} }}",
            "{a:".repeat(50),
            "}".repeat(50)
        );
        assert!(read_endpoint(&endpoint(&deep, POST), "/e").is_err());
    }
}
