//! Feeds served by name (a `feed` endpoint's tables, as `ois feed` and API3's scripts write
//! them): each name a template can carry, each with a parser, each parser a function. An endpoint
//! whose tables cannot be read is someone's own processing and is left to the snippet checks.

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::ois::feeds;
use crate::processing::{self, Environment, Snippet};

/// What the node would fail on for one of the OIS's feeds; pointers relative to the OIS. The
/// parsers are evaluated (to see each is a function) on what is left of `budget`, the one the
/// OIS's snippets spend too.
pub(super) fn check(ois: &Value, budget: &mut std::time::Duration) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let (Some(index), Ok(Some(tables))) = (feeds::feed_endpoint_index(ois), feeds::read(ois)) else { return found };
    let pre = format!("/endpoints/{index}/preProcessingSpecificationV2/value");
    let post = format!("/endpoints/{index}/postProcessingSpecificationV2/value");
    for feed in &tables.feeds {
        let shown = crate::emit::printable(&feed.name);
        if let Err(error) = feeds::check_name(&feed.name) {
            found.push(Diagnostic::new(Code::FeedNameUnusable, pre.as_str(), error.message));
        }
        let Some(parser) = &feed.parser else {
            found.push(
                Diagnostic::new(
                    Code::FeedWithoutParser,
                    post.as_str(),
                    format!("feed \"{shown}\" has no parser: the post-processing fails for it (`eval(undefined)` is not a function)"),
                )
                .with_fix(Fix::GiveFeedValue(shown.to_string())),
            );
            continue;
        };
        let snippet =
            Snippet { environment: Environment::Node, code: parser.clone(), timeout_ms: None, pointer: post.clone() };
        if let Err(failure) = processing::check_snippet_within(&snippet, true, budget) {
            found.push(
                Diagnostic::new(
                    Code::FeedParserBroken,
                    post.as_str(),
                    format!("feed \"{shown}\": its parser is not a function expression: {}", failure.message),
                )
                .with_help("a parser is `(response) => …`, run on the vendor's answer"),
            );
        }
    }
    found.extend(read_one_value(&tables.feeds, &post));
    found
}

/// Feeds of one call (the same vendor path and parameters: a batch) whose parsers are the same:
/// each would publish the one value they read, whatever its own asset's is.
fn read_one_value(list: &[feeds::Feed], post: &str) -> Vec<Diagnostic> {
    let mut first_of: std::collections::HashMap<(String, String, String), &feeds::Feed> =
        std::collections::HashMap::new();
    let mut found = Vec::new();
    for feed in list {
        let Some(reads) = feed.same_value_key() else { continue };
        let call = (feed.path.clone(), Value::Object(feed.parameters.clone()).to_string(), reads);
        let Some(first) = first_of.get(&call) else {
            first_of.insert(call, feed);
            continue;
        };
        let read = feed.value_path().unwrap_or_else(|| "the same parser".to_owned());
        found.push(
            Diagnostic::new(
                Code::FeedsReadOneValue,
                post,
                format!(
                    "feeds \"{}\" and \"{}\" are answered by one call ({}) and read the same value of it ({}): both would publish it",
                    crate::emit::printable(&first.name),
                    crate::emit::printable(&feed.name),
                    crate::emit::printable(&feed.path),
                    crate::emit::printable(&read)
                ),
            )
            .with_help("give each feed the value of its own element: through its own key, at its position in the answer's array, or by a field naming it (two names of one asset may share it)"),
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ois(parsers: &str) -> Value {
        let mut feeds = vec![
            crate::ois::feeds::Feed::new("BTC/USD", "simple/price"),
            crate::ois::feeds::Feed::new("ETH/USD", "simple/price"),
        ];
        feeds[0].parser = Some("(response) => response.bitcoin.usd".to_owned());
        let pre = crate::ois::feeds::pre_processing_code(&feeds);
        let post = format!(
            "({{ response, endpointParameters }}) => {{\n  const postProcessingObject = {parsers}\n  const parser = eval(postProcessingObject[endpointParameters.name])\n  return {{ response: parser(response) }}\n}}\n"
        );
        serde_json::json!({"endpoints": [{
            "name": "feed",
            "preProcessingSpecificationV2": {"environment": "Node", "value": pre, "timeoutMs": 5000},
            "postProcessingSpecificationV2": {"environment": "Node", "value": post, "timeoutMs": 5000},
        }]})
    }

    #[test]
    fn every_name_has_a_parser_that_is_a_function() {
        let codes = |parsers: &str| {
            check(&ois(parsers), &mut { crate::processing::CHECK_BUDGET })
                .into_iter()
                .map(|d| d.code)
                .collect::<Vec<_>>()
        };
        assert_eq!(codes(r#"{ "BTC/USD": "(r) => r.a", "ETH/USD": "(r) => r.b" }"#), []);
        assert_eq!(codes(r#"{ "BTC/USD": "(r) => r.a" }"#), [Code::FeedWithoutParser]);
        assert_eq!(codes(r#"{ "BTC/USD": "(r) => r.a", "ETH/USD": "(r) => {" }"#), [Code::FeedParserBroken]);
        assert_eq!(codes(r#"{ "BTC/USD": "(r) => r.a", "ETH/USD": "42" }"#), [Code::FeedParserBroken]);
        assert_eq!(codes(r#"{ "BTC/USD": "(r) => r.a", "ETH/USD": "(r) =>  r.a" }"#), [Code::FeedsReadOneValue]);
    }
}
