use proptest::prelude::*;
use serde_json::json;

use super::*;

use super::super::json_whole;
use crate::source::locate::{JsonCache, json as locate};

fn whole(text: &str) -> Option<Value> {
    json_whole(text).ok()
}

fn split(text: &str) -> Option<Value> {
    json(text, None).map(|parsed| parsed.value)
}

#[test]
fn landmarks_never_hold_more_pointer_bytes_than_the_text_has() {
    // 16,000 parameters under one 100,000-character path: a landmark per parameter, each with
    // the path in its pointer, once took 2 GB.
    let path = format!("/{}", "a".repeat(100_000));
    let parameters: Vec<String> = (0..16_000).map(|i| format!(r#"{{"name": "p{i}", "in": "query"}}"#)).collect();
    let text = format!(
        r#"{{"openapi": "3.0.3", "paths": {{"{path}": {{"get": {{"parameters": [{}]}}}}}}}}"#,
        parameters.join(", ")
    );
    let parsed = json(&text, None).expect("splits");
    let bytes: usize = parsed.landmarks.iter().map(|l| l.pointer.len()).sum();
    assert!(bytes <= text.len(), "{bytes} bytes of landmark pointers for {} of text", text.len());
    assert_eq!(parsed.value, json_whole(&text).unwrap());
}

#[test]
fn a_document_in_pieces_is_the_document_parsed_whole() {
    let text = r#"{"openapi": "3.0.0", "n": -1.5e3, "big": 18446744073709551615, "t": true, "z": null,
        "paths": {"/a": {"get": {"x": [1, {"y": "\u00e9\"\\"}]}}, "/b": {}},
        "tags": [{"name": "a"}, "b", 3, []], "empty": {}, "none": []}"#;
    let parsed = split(text).unwrap();
    assert_eq!(Some(&parsed), whole(text).as_ref());
    let keys: Vec<&String> = parsed.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["openapi", "n", "big", "t", "z", "paths", "tags", "empty", "none"]);
}

#[test]
fn anything_the_whole_parse_refuses_or_that_is_not_an_object_is_left_to_it() {
    for text in [
        r#"{"a": {"b": 1, "b": 2}}"#,
        r#"{"a": 1, "a": 2}"#,
        r#"{"a": {"b": 1e400}}"#,
        r#"{"a": {"b": [1,]}}"#,
        r#"{"a": 1} {"b": 2}"#,
        r#"{"a": {"b": "\ud800"}}"#,
        r#"[{"a": 1}]"#,
        r#""text""#,
    ] {
        assert_eq!(split(text), None, "{text}");
    }
}

#[test]
fn a_piece_nested_near_serde_json_limit_is_left_to_the_whole_parse() {
    let nested = |levels: usize| format!("{{\"a\": {{\"b\": {}{}}}}}", "[".repeat(levels), "]".repeat(levels));
    assert!(split(&nested(PIECE_DEPTH)).is_some());
    assert_eq!(split(&nested(PIECE_DEPTH + 1)), None);
    // The whole parse decides, as it would have without pieces.
    assert!(whole(&nested(PIECE_DEPTH + 1)).is_some());
    assert!(whole(&nested(200)).is_none());
    assert!(matches!(whole(&nested(2)), Some(value) if value == json!({"a": {"b": [[]]}})));
}

/// The pieces the outline of `text` hands out, in order.
fn pieces_of(text: &str) -> Vec<&str> {
    struct Collected<'t>(RefCell<Vec<&'t str>>);
    impl<'t> Pieces<'t> for Collected<'t> {
        fn push(&self, piece: &'t str, _: Part) {
            self.0.borrow_mut().push(piece);
        }
    }
    let collected = Collected(RefCell::default());
    outline_root(text, Outliner::root(&collected, None)).unwrap();
    collected.0.into_inner()
}

#[test]
fn a_big_member_is_outlined_in_turn_and_comes_back_whole() {
    let schema = |n: usize| json!({"type": "object", "description": "x".repeat(2000), "n": n, "items": [n, {"a": n}]});
    let schemas: Map<String, Value> = (0..200).map(|n| (format!("S{n}"), schema(n))).collect();
    let big_array: Vec<Value> = (0..100).map(schema).collect();
    let root = json!({"openapi": "3.0.0", "components": {"schemas": schemas, "list": big_array, "small": {"a": 1}}});
    let text = serde_json::to_string(&root).unwrap();
    let pieces = pieces_of(&text);
    // Each schema and each element on its own; `small` was not worth outlining again.
    assert_eq!(pieces.len(), 200 + 100 + 1);
    assert!(pieces.iter().all(|piece| piece.len() < BIG_PIECE));
    assert_eq!(pieces.last(), Some(&r#"{"a":1}"#));
    assert_eq!(split(&text), Some(root.clone()));
    // Not past `SPLITS` levels: a big piece that deep is parsed as it is.
    let mut deep = root;
    for level in 0..SPLITS + 2 {
        deep = json!({ format!("l{level}"): deep });
    }
    let text = serde_json::to_string(&deep).unwrap();
    assert_eq!(pieces_of(&text).len(), 1);
    assert_eq!(split(&text), Some(deep));
}

#[test]
fn a_big_array_of_small_values_is_one_piece() {
    let prices: Vec<Value> = (0..40_000).map(|n| json!(n as f64 + 0.5)).collect();
    let root = json!({"openapi": "3.0.0", "x-prices": prices, "components": {"schemas": {"a": {"type": "string"}}}});
    let text = serde_json::to_string(&root).unwrap();
    assert!(text.len() > BIG_PIECE);
    assert_eq!(pieces_of(&text).len(), 2);
    assert_eq!(split(&text), Some(root));
}

#[test]
fn a_problem_in_a_member_outlined_in_turn_is_left_to_the_whole_parse() {
    let filler = "x".repeat(BIG_PIECE);
    for inner in [r#"{"a": 1, "a": 2}"#, r#"{"a": 1e400}"#, r#"{"a": [1,]}"#, r#"{"a" 1}"#] {
        let text = format!(r#"{{"components": {{"schemas": {{"filler": "{filler}", "bad": {inner}}}}}}}"#);
        assert_eq!(split(&text), None, "{inner}");
        assert!(whole(&text).is_none(), "{inner}");
    }
}

#[test]
fn a_big_document_is_parsed_in_pieces_and_its_errors_are_the_whole_parse_s() {
    use super::super::{SPLIT_MIN_BYTES, json as entry};
    let paths: Map<String, Value> =
        (0..2000).map(|n| (format!("/p{n}"), json!({"get": {"description": "d".repeat(600), "n": n}}))).collect();
    let root = json!({"openapi": "3.0.0", "paths": paths});
    let text = serde_json::to_string_pretty(&root).unwrap();
    assert!(text.len() > SPLIT_MIN_BYTES);
    assert!(split(&text).is_some());
    assert_eq!(entry(&text).unwrap().value, root);
    let duplicated = text.replacen("\"n\": 1999", "\"n\": 1999, \"n\": 0", 1);
    let broken = text.replacen("\"n\": 1500", "\"n\": 1500,", 1);
    for text in [duplicated, broken] {
        assert_eq!(split(&text), None);
        let (pieces, whole) = (entry(&text).unwrap_err(), json_whole(&text).unwrap_err());
        assert_eq!(
            (pieces.to_string(), pieces.line(), pieces.column()),
            (whole.to_string(), whole.line(), whole.column())
        );
        assert!(pieces.line() > 1000, "{pieces}");
    }
}

#[test]
fn a_ref_to_another_document_is_noted_wherever_the_split_read_it() {
    let filler = "f".repeat(BIG_PIECE);
    let document = |inside_a_piece: &str, outlined: &str| {
        format!(
            r#"{{"paths": {{"filler": "{filler}", "/a": {{"get": {{"$ref": "{inside_a_piece}"}}}}, "$ref": "{outlined}"}}}}"#
        )
    };
    for (inside_a_piece, outlined, expected) in
        [("other.yaml#/A", "#/b", true), ("#/a", "other.yaml", true), ("#/a", "#/b", false)]
    {
        let text = document(inside_a_piece, outlined);
        state::take_references();
        let Parsed { value, landmarks, .. } = json(&text, None).unwrap();
        assert!(!landmarks.is_empty(), "the document was split");
        assert_eq!(state::take_references().other_documents, expected, "{inside_a_piece} {outlined}");
        // As the whole parse notes it.
        assert_eq!(whole(&text), Some(value));
        assert_eq!(state::take_references().other_documents, expected);
    }
    // One of the root's own members.
    let text = format!(r#"{{"$ref": "root.yaml", "paths": {{"filler": "{filler}"}}}}"#);
    assert!(json(&text, None).is_some());
    assert!(state::take_references().other_documents);
}

/// Reads path items by members, their responses for nothing, and `defs` by reference.
fn interest(path: &[&str]) -> Reading {
    match path {
        [] | ["paths"] | ["paths", _] => Reading::Members,
        ["paths", _, "responses"] => Reading::Nothing,
        ["defs"] => Reading::Referenced,
        _ => Reading::Whole,
    }
}

/// `text` parsed in pieces for [`interest`].
fn read(text: &str) -> Option<Parsed<'_>> {
    state::with_interest(Some(interest), || json(text, Some(interest)))
}

#[test]
fn a_big_document_read_for_an_interest_is_the_whole_parse_less_what_is_unread() {
    let item = |n: usize, size: usize| json!({"get": {"n": n}, "responses": {"200": "r".repeat(size)}, "x": n});
    let mut paths: Map<String, Value> = (0..20).map(|n| (format!("/p{n}"), item(n, 600))).collect();
    // Outlined in turn, its responses a piece of their own.
    paths.insert("/big".to_owned(), item(0, BIG_PIECE));
    let root = json!({"openapi": "3.0.0", "paths": paths});
    let text = serde_json::to_string_pretty(&root).unwrap();
    let Parsed { value, landmarks, unparsed } = read(&text).unwrap();
    assert!(unparsed.is_empty());
    let mut expected = root;
    for item in expected["paths"].as_object_mut().unwrap().values_mut() {
        item.as_object_mut().unwrap().shift_remove("responses");
    }
    assert_eq!(value, expected);
    assert!(!state::take_unread_reached());
    assert_eq!(misled(&text, &value, landmarks), []);
    // What is wrong in what is left out is still wrong; a `$ref` into it is noted.
    let duplicated = text.replacen(r#""200": "r"#, r#""201": 1, "201": "r"#, 1);
    assert!(read(&duplicated).is_none());
    let big_duplicated = text.replacen(r#""/big": {"#, r#""/big": {"responses": 1,"#, 1);
    assert!(read(&big_duplicated).is_none());
    let referring = text.replacen(r#""n": 7"#, r##""$ref": "#/paths/~1p9/responses""##, 1);
    assert!(read(&referring).is_some());
    assert!(state::take_unread_reached());
    // Read by the outline itself: a member of the path item outlined in turn.
    let outlined = text.replacen(r#""/big": {"#, r##""/big": {"$ref": "#/paths/~1p9/responses","##, 1);
    assert!(read(&outlined).is_some());
    assert!(state::take_unread_reached());
}

#[test]
fn members_read_by_reference_come_back_unparsed_and_checked() {
    let root = json!({
        "paths": {"/a": {"get": {"$ref": "#/defs/A"}, "responses": {"200": 1}}},
        "defs": {"A": {"x": [1, {"$ref": "#/defs/B"}]}, "B": "b", "C~/": {"c": null}}
    });
    let text = serde_json::to_string_pretty(&root).unwrap();
    let Parsed { value, unparsed, .. } = read(&text).unwrap();
    assert!(!state::take_unread_reached());
    assert_eq!(value, json!({"paths": {"/a": {"get": {"$ref": "#/defs/A"}}}, "defs": {}}));
    let pointers: Vec<&str> = unparsed.iter().map(|(pointer, _)| pointer.as_str()).collect();
    assert_eq!(pointers, ["/defs/A", "/defs/B", "/defs/C~0~1"]);
    for (pointer, member) in &unparsed {
        assert_eq!(parse_unparsed(member).as_ref(), root.pointer(pointer), "{pointer}");
    }
    // Checked as the whole parse checks it, its `$ref`s with it.
    let duplicated = text.replacen(r#""c": null"#, r#""c": null, "c": 1"#, 1);
    assert!(read(&duplicated).is_none());
    let into_responses = text.replacen(r##""#/defs/B""##, r##""#/paths/~1a/responses""##, 1);
    assert!(read(&into_responses).is_some());
    assert!(state::take_unread_reached());
}

#[test]
fn an_indented_document_is_outlined_by_its_lines_and_an_odd_one_still_parses_right() {
    let schema = |n: usize| json!({"type": "object", "description": "x".repeat(2000), "n": n, "items": [n, {"a": n}], "empty": {}, "none": []});
    let schemas: Map<String, Value> = (0..200).map(|n| (format!("S{n}"), schema(n))).collect();
    let root = json!({"openapi": "3.0.0", "components": {"schemas": schemas}, "tags": [{"name": "a"}, []], "n": 1});
    let pretty = serde_json::to_string_pretty(&root).unwrap();
    let four = pretty.lines().map(|line| {
        let indent = line.len() - line.trim_start().len();
        format!("{}{}", " ".repeat(indent * 2), line.trim_start())
    });
    let four: String = four.collect::<Vec<_>>().join("\r\n");
    let tabs = pretty.replace("  ", "\t");
    // A member closed on its own line, and one closed at the end of another line.
    let inline =
        pretty.replacen("\n      \"S1\": {", "\n      \"S1\": {\"inline\": {\n\"a\": 1}},\n      \"S1b\": {", 1);
    let inline_root = root_with(&root, |schemas| {
        schemas.insert("S1".to_owned(), json!({"inline": {"a": 1}}));
    });
    for (name, text) in [("pretty", &pretty), ("four", &four), ("tabs", &tabs)] {
        assert!(pieces_of(text).len() > 200, "{name}");
        assert!(split(text).is_some_and(|value| value == root), "{name}");
    }
    // Inconsistently written: the pieces found are checked, and the result is the whole parse's.
    let whole_inline = whole(&inline).unwrap();
    assert_eq!(whole_inline.pointer("/components/schemas/S1"), inline_root.pointer("/components/schemas/S1"));
    assert!(split(&inline).is_none_or(|value| value == whole_inline));
    let shifted = pretty.replacen("\n      }", "\n    }", 3);
    assert_eq!(whole(&shifted).as_ref(), Some(&root));
    assert!(split(&shifted).is_none_or(|value| value == root));
}

fn root_with(root: &Value, change: impl FnOnce(&mut Map<String, Value>)) -> Value {
    let mut root = root.clone();
    if let Some(Value::Object(schemas)) = root.pointer_mut("/components/schemas") {
        change(schemas);
    }
    root
}

/// Every pointer in `value`, and one below each that leads nowhere.
fn pointers(value: &Value, pointer: String, all: &mut Vec<String>) {
    all.push(format!("{pointer}/missing"));
    let children: Vec<(String, &Value)> = match value {
        Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Value::Array(items) => items.iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
        _ => Vec::new(),
    };
    all.push(pointer.clone());
    for (key, child) in children {
        let mut below = pointer.clone();
        crate::pointer::push(&mut below, &key);
        pointers(child, below, all);
    }
}

/// The pointers of `value`, and one missing below each, that `landmarks` lead elsewhere than
/// walking `text` from its start does: (pointer, with landmarks, walked).
fn misled(text: &str, value: &Value, landmarks: Vec<Landmark>) -> Vec<(String, Option<usize>, Option<usize>)> {
    let mut all = Vec::new();
    pointers(value, String::new(), &mut all);
    let mut seeded = JsonCache::default();
    seeded.landmarks = landmarks;
    all.into_iter()
        .filter_map(|pointer| {
            let tokens = crate::pointer::tokens(&pointer).unwrap();
            let found = locate(text, &tokens, &mut seeded);
            let walked = locate(text, &tokens, &mut JsonCache::default());
            (found != walked).then_some((pointer, found, walked))
        })
        .collect()
}

#[test]
fn landmarks_lead_where_walking_from_the_start_leads() {
    let filler = "f".repeat(BIG_PIECE);
    let text = format!(
        r#"{{ "openapi" : "3.0.0", "paths": {{ "/a/b": {{"get": {{"x": 1}}}},
          "q\"uote": [1, 2], "x\\y": {{"z": [true]}}, "\u00e9t\u00e9": 0, "~t": {{}}, "ét": "s" }},
          "tags" : [ {{"name": "a"}} , "b",[[]]],
          "components": {{"schemas": {{"big": "{filler}", "S": {{"type": "object"}}, "T": [ {{"u": null}} ]}}}} }}"#
    );
    let Parsed { value, landmarks, .. } = json(&text, None).unwrap();
    assert!(landmarks.len() >= 8, "{landmarks:?}");
    // Keys written with escapes are left to the walk.
    assert!(landmarks.iter().all(|l| !l.pointer.contains("uote") && !l.pointer.contains("y")));
    // Outlined members are found from their first piece: `paths` itself, not only its paths.
    for outlined in ["/paths", "/tags", "/components", "/components/schemas"] {
        assert!(landmarks.iter().any(|l| l.pointer == outlined), "{outlined}: {landmarks:?}");
    }
    assert_eq!(misled(&text, &value, landmarks), []);
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e300f64..1e300).prop_map(Value::from),
        ".{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-c]{0,2}|\\$ref", inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn pieces_and_whole_agree_on_any_object(members in prop::collection::vec(("[a-d]{0,2}|\\$ref", arbitrary_json()), 0..8), pretty in any::<bool>()) {
        let root = Value::Object(members.into_iter().collect());
        let text = if pretty { serde_json::to_string_pretty(&root) } else { serde_json::to_string(&root) }.unwrap();
        state::take_references();
        let split_value = split(&text);
        let split_references = state::take_references();
        prop_assert_eq!(split_value, whole(&text));
        // Both note the same `$ref`s to other documents.
        prop_assert_eq!(split_references, state::take_references());
        // And its landmarks lead where walking does.
        let Parsed { value, landmarks, .. } = json(&text, None).unwrap();
        prop_assert_eq!(misled(&text, &value, landmarks), []);
    }

    #[test]
    fn pieces_and_whole_agree_however_the_lines_are_indented(
        members in prop::collection::vec(("[a-d]{0,2}", arbitrary_json()), 0..6),
        shifts in prop::collection::vec(0usize..4, 0..64),
    ) {
        let root = Value::Object(members.into_iter().collect());
        let text = serde_json::to_string_pretty(&root).unwrap();
        // Some lines indented more or less than a formatter would.
        let text: String = text
            .lines()
            .enumerate()
            .map(|(at, line)| match shifts.get(at) {
                Some(0) | None => line.to_owned(),
                Some(1) => format!(" {line}"),
                Some(2) => line.trim_start().to_owned(),
                Some(_) => format!("  {line}"),
            })
            .collect::<Vec<_>>()
            .join("\n");
        prop_assert_eq!(whole(&text), Some(root.clone()));
        prop_assert!(split(&text).is_none_or(|value| value == root));
    }

    #[test]
    fn pieces_and_whole_agree_on_any_text(text in r#"\{("[ab]":( ?[\[\]{}0-9",:ab]){0,12}){0,3}\}"#) {
        match whole(&text) {
            Some(value) => prop_assert!(split(&text).is_none_or(|pieces| pieces == value)),
            None => prop_assert_eq!(split(&text), None),
        }
    }
}
