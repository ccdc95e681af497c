//! Writing the feed tables in the text API3's scripts write: prettier's layout at 80 columns (an
//! object on one line when it fits, else one property a line with trailing commas; a long string
//! after a key of five or more characters moves to the next line), so an OIS rebuilt here differs
//! from production's only where the feeds do.

use serde_json::{Map, Value};

use super::Feed;

const WIDTH: usize = 80;
const INDENT: usize = 2;
/// prettier keeps a value beside a key shorter than this (`tabWidth` + 3), however long.
const SHORT_KEY: usize = INDENT + 3;

/// The pre-processing of a feed endpoint: name → vendor path and parameters.
pub fn pre_processing_code(feeds: &[Feed]) -> String {
    let entries: Vec<(String, Value)> = feeds
        .iter()
        .map(|feed| {
            let mut request = Map::new();
            request.insert("path".to_owned(), Value::String(feed.path.clone()));
            request.insert("parameters".to_owned(), Value::Object(feed.parameters.clone()));
            (feed.name.clone(), Value::Object(request))
        })
        .collect();
    format!(
        "({{ endpointParameters }}) => {{\n  const preProcessingObject = {}\n  return {{\n    endpointParameters: {{\n      path: preProcessingObject[endpointParameters.name].path,\n      ...preProcessingObject[endpointParameters.name].parameters,\n    }},\n  }}\n}}\n",
        table(&entries)
    )
}

/// The post-processing of a feed endpoint: name → parser, run on the response.
pub fn post_processing_code(feeds: &[Feed]) -> String {
    let entries: Vec<(String, Value)> =
        feeds.iter().filter_map(|feed| Some((feed.name.clone(), Value::String(feed.parser.clone()?)))).collect();
    format!(
        "({{ response, endpointParameters }}) => {{\n  const postProcessingObject = {}\n  const parser = eval(postProcessingObject[endpointParameters.name])\n  return {{ response: parser(response) }}\n}}\n",
        table(&entries)
    )
}

/// The table itself, always broken one entry a line (as production's are), at indent 2.
fn table(entries: &[(String, Value)]) -> String {
    if entries.is_empty() {
        return "{}".to_owned();
    }
    let quote_all = entries.iter().any(|(key, _)| !is_identifier(key));
    let mut out = String::from("{\n");
    for (key, value) in entries {
        property(&mut out, &key_text(key, quote_all), value, INDENT * 2);
    }
    out.push_str(&" ".repeat(INDENT));
    out.push('}');
    out
}

/// One `key: value,` line (or lines) at `indent`.
fn property(out: &mut String, key: &str, value: &Value, indent: usize) {
    let pad = " ".repeat(indent);
    let one_line = format!("{key}: {},", flat(value));
    if indent + width(&one_line) <= WIDTH {
        out.push_str(&format!("{pad}{one_line}\n"));
        return;
    }
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push_str(&format!("{pad}{key}: {{\n"));
            let quote_all = map.keys().any(|k| !is_identifier(k));
            for (inner, value) in map {
                property(out, &key_text(inner, quote_all), value, indent + INDENT);
            }
            out.push_str(&format!("{pad}}},\n"));
        }
        _ if width(key) < SHORT_KEY => out.push_str(&format!("{pad}{one_line}\n")),
        _ => out.push_str(&format!("{pad}{key}:\n{pad}{}{},\n", " ".repeat(INDENT), flat(value))),
    }
}

/// `value` on one line, as prettier prints an object literal that fits.
fn flat(value: &Value) -> String {
    match value {
        Value::Object(map) if map.is_empty() => "{}".to_owned(),
        Value::Object(map) => {
            let quote_all = map.keys().any(|k| !is_identifier(k));
            let inner: Vec<String> =
                map.iter().map(|(k, v)| format!("{}: {}", key_text(k, quote_all), flat(v))).collect();
            format!("{{ {} }}", inner.join(", "))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(flat).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

/// A key as prettier leaves it (`quoteProps: "as-needed"`): unquoted when it is an identifier,
/// unless another key of the object needs quotes.
fn key_text(key: &str, quote_all: bool) -> String {
    if !quote_all && is_identifier(key) { key.to_owned() } else { Value::String(key.to_owned()).to_string() }
}

/// A property read `.name` or `["key"]` / `[0]`, as a parser reads one segment of a value path.
pub(super) fn accessor(segment: &str) -> String {
    if is_identifier(segment) {
        format!(".{segment}")
    } else if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
        format!("[{segment}]")
    } else {
        format!("[{}]", Value::String(segment.to_owned()))
    }
}

/// An ASCII JavaScript identifier (a reserved word is still a property name after `.`).
pub(super) fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn width(text: &str) -> usize {
    text.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn feed(name: &str, path: &str, parameters: Value, parser: &str) -> Feed {
        let Value::Object(parameters) = parameters else { unreachable!() };
        Feed { name: name.to_owned(), path: path.to_owned(), parameters, parser: Some(parser.to_owned()) }
    }

    #[test]
    fn lays_tables_out_as_prettier_does() {
        let feeds = [
            feed("AAPL/USD", "stock/bidask", json!({"symbol": "AAPL"}), "(response) => response.a"),
            feed(
                "AUD/USD",
                "live",
                json!({"currency": "AUDUSD,BRLUSD,CADUSD,CHFUSD,CNYUSD,EURUSD,GBPUSD,INRUSD,JPYUSD"}),
                "x",
            ),
            feed(
                "BTC/USD",
                "simple/price",
                json!({"ids": "aave,cardano,algorand,ankr,apecoin,api3,arbitrum,cosmos", "vs": "usd"}),
                "y",
            ),
        ];
        let pre = pre_processing_code(&feeds);
        assert!(
            pre.contains("    \"AAPL/USD\": { path: \"stock/bidask\", parameters: { symbol: \"AAPL\" } },\n"),
            "{pre}"
        );
        assert!(
            pre.contains(
                "    \"AUD/USD\": {\n      path: \"live\",\n      parameters: {\n        currency:\n          \"AUDUSD,"
            ),
            "{pre}"
        );
        assert!(pre.contains("        ids: \"aave,cardano,algorand,ankr,apecoin,api3,arbitrum,cosmos\",\n        vs: \"usd\",\n      },\n    },\n"), "{pre}");
        let post = post_processing_code(&feeds);
        assert!(post.contains("    \"AAPL/USD\": \"(response) => response.a\",\n"), "{post}");
    }

    #[test]
    fn keys_are_quoted_only_as_needed() {
        assert_eq!(flat(&json!({"ids": "a", "vs_currencies": "b"})), "{ ids: \"a\", vs_currencies: \"b\" }");
        assert_eq!(flat(&json!({"ids": "a", "x-y": "b"})), "{ \"ids\": \"a\", \"x-y\": \"b\" }");
        assert_eq!(accessor("0"), "[0]");
        assert_eq!(accessor("AAVE-USD"), "[\"AAVE-USD\"]");
    }
}
