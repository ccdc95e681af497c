//! What validating reads of a document: every field some OIS or node config allows, and of a
//! field none of them allows only that it is there. `OIS003` names such a field and no other
//! check reads its value, so its parse keeps it as `null` ([`Reading::KeyOnly`]): 9 MB of numbers
//! under a key no object allows cost nothing but their check, not a million values. The texts in it
//! that a check of every text looks for (a `${`, a secret's value) are kept in their places, so the
//! diagnostics are those of the whole parse.

use serde_json::Value;

use super::shape::Shape;
use crate::diagnostic::Diagnostic;
use crate::ois::rules::tables;
use crate::source::{Reading, Source};

/// The document in `source` as validating reads it: a field no OIS or node config allows kept
/// for its key (and the texts in it a check of every text reads), everything else built.
pub fn parse(source: &Source) -> Result<Value, Diagnostic> {
    source.parse_for_unreferenced(reading)
}

/// How much validating reads of the value at `path`: the most any kind of document it reads
/// (an OIS, a list of them, an Airnode config.json, an Airnode Feed config, a Signed API config)
/// reads there.
pub(crate) fn reading(path: &[&str]) -> Reading {
    let [first, rest @ ..] = path else { return Reading::Members };
    let mut readings = vec![in_ois(path)];
    if is_index(first) {
        readings.push(in_ois(rest));
    }
    if *first == "ois" {
        readings.push(match rest {
            [] => Reading::Members,
            [_, inside @ ..] => in_ois(inside),
        });
    } else {
        readings.extend(
            [&super::node_config::CONFIG, &super::feed_config::CONFIG, &super::signed_api::CONFIG]
                .into_iter()
                .map(|config| in_shape(config, path)),
        );
    }
    // An OpenAPI document passed by mistake is told by these keys alone.
    if matches!(path, ["openapi" | "swagger"]) {
        readings.push(Reading::Whole);
    }
    readings.into_iter().max_by_key(|reading| rank(*reading)).unwrap_or(Reading::Whole)
}

/// How much of a value a reading builds: the most of several readings is the one to use.
fn rank(reading: Reading) -> u8 {
    match reading {
        Reading::KeyOnly => 0,
        Reading::Nothing => 1,
        Reading::Members => 2,
        Reading::Referenced => 3,
        Reading::Whole => 4,
    }
}

fn is_index(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}

/// What the OIS rules read at `path` below an OIS object ([`tables`]): below a field its
/// objects do not allow, only that field's key.
fn in_ois(path: &[&str]) -> Reading {
    let allows = |fields: &tables::Fields, key: &str| fields.allowed.contains(&key);
    match path {
        [key, ..] if !allows(&tables::ROOT, key) => Reading::KeyOnly,
        ["apiSpecifications", key, ..] if !allows(&tables::API, key) => Reading::KeyOnly,
        ["endpoints", _, key, ..] if !allows(&tables::ENDPOINT, key) => Reading::KeyOnly,
        [] | ["endpoints" | "apiSpecifications"] | ["endpoints", _] => Reading::Members,
        _ => Reading::Whole,
    }
}

/// What a node's config schema (`shape`) reads at `path` below it: a field its objects do not
/// allow only for its key.
fn in_shape(shape: &Shape, path: &[&str]) -> Reading {
    let Some((first, rest)) = path.split_first() else {
        return match shape {
            Shape::Object(_) | Shape::Tagged(..) | Shape::Record(_) | Shape::Array(_) => Reading::Members,
            Shape::Nullable(inner) | Shape::LiteralOr(_, inner) | Shape::NonEmpty(inner) => in_shape(inner, path),
            _ => Reading::Whole,
        };
    };
    match shape {
        Shape::Object(fields) => field(fields, first).map_or(Reading::KeyOnly, |inner| in_shape(inner, rest)),
        Shape::Tagged(_, variants) => variants
            .iter()
            .filter_map(|(_, fields)| field(fields, first))
            .map(|inner| in_shape(inner, rest))
            .max_by_key(|reading| rank(*reading))
            .unwrap_or(Reading::KeyOnly),
        Shape::Record(inner) | Shape::Array(inner) => in_shape(inner, rest),
        Shape::Nullable(inner) | Shape::LiteralOr(_, inner) | Shape::NonEmpty(inner) => in_shape(inner, path),
        _ => Reading::Whole,
    }
}

fn field<'s>(fields: &'s [super::shape::Field], key: &str) -> Option<&'s Shape> {
    fields.iter().find(|field| field.name == key).map(|field| field.shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_no_document_allows_is_read_for_its_key_only() {
        assert_eq!(reading(&[]), Reading::Members);
        assert_eq!(reading(&["x-answers"]), Reading::KeyOnly);
        assert_eq!(reading(&["endpoints", "0", "x"]), Reading::KeyOnly);
        assert_eq!(reading(&["apiSpecifications", "x"]), Reading::KeyOnly);
        assert_eq!(reading(&["ois", "3", "x"]), Reading::KeyOnly);
        assert_eq!(reading(&["2", "endpoints", "0", "x"]), Reading::KeyOnly);
        assert_eq!(reading(&["nodeSettings", "x"]), Reading::KeyOnly);
        assert_eq!(reading(&["triggers", "x"]), Reading::KeyOnly);
    }

    #[test]
    fn a_field_any_document_allows_is_read() {
        for path in [
            &["oisFormat"][..],
            &["endpoints", "0", "reservedParameters"],
            &["apiSpecifications", "paths"],
            &["ois", "0", "title"],
            &["1", "title"],
            &["nodeSettings", "airnodeWalletMnemonic"],
            // An Airnode's nodeSettings.heartbeat, a Tagged shape: any variant's field is read.
            &["nodeSettings", "heartbeat", "enabled"],
            &["templates", "0x1", "parameters"],
            &["templates", "0", "endpointId"],
            &["endpoints", "0x1", "oisTitle"],
            &["endpoints", "0", "urlPath"],
            &["allowedAirnodes"],
            &["chains", "0", "providers", "p", "url"],
            &["apiCredentials", "0", "anything"],
            &["openapi"],
        ] {
            assert_ne!(reading(path), Reading::KeyOnly, "{path:?}");
        }
    }

    fn parsed(text: &str) -> Value {
        parse(&Source::from_text("t.json", None, text.to_owned())).unwrap_or_default()
    }

    #[test]
    fn a_field_no_document_allows_is_kept_as_null_unless_a_text_in_it_matters() {
        let ois =
            |extra: &str| format!(r#"{{"oisFormat":"2.3.2","endpoints":[{{"name":"a","x":{extra}}}],"x":{extra}}}"#);
        let value = parsed(&ois("[1,2,{\"a\":[true]}]"));
        assert_eq!(value.pointer("/endpoints/0/x"), Some(&Value::Null));
        assert_eq!(value.pointer("/x"), Some(&Value::Null));
        assert_eq!(value.pointer("/endpoints/0/name"), Some(&Value::from("a")));
        // The texts a check of every text looks for are kept where they are, and only they.
        let value = parsed(&ois("[1,\"${A}\",\"short\",{\"long enough\":1,\"k\":[\"eight ch\",2]}]"));
        let kept = serde_json::json!({"1": "${A}", "3": {"long enough": null, "k": {"0": "eight ch"}}});
        assert_eq!(value.pointer("/x"), Some(&kept));
        assert_eq!(value.pointer("/x/3/k/0"), Some(&Value::from("eight ch")));
    }
}
