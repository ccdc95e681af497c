//! RFC 6901 JSON pointers: building them while walking a document, splitting them, following them.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde_json::Value;

/// A member of a JSON object found by its key. serde_json's map with `preserve_order` hashes every
/// key looked up (SipHash, seeded): the checks that read a few members of each of a big OIS's
/// 17,000 endpoints spent a fifth of a studio edit hashing. An OIS object holds a handful of
/// members: its keys are compared in turn, and only a big object's looked up by hash.
pub(crate) trait Member {
    /// The member `key`, if this is an object holding it.
    fn member(&self, key: &str) -> Option<&Value>;
}

/// Members compared in turn up to this many; a bigger object's key is hashed.
const COMPARED_MEMBERS: usize = 16;

impl Member for serde_json::Map<String, Value> {
    fn member(&self, key: &str) -> Option<&Value> {
        if self.len() <= COMPARED_MEMBERS {
            self.iter().find(|(name, _)| name.as_str() == key).map(|(_, value)| value)
        } else {
            self.get(key)
        }
    }
}

impl Member for Value {
    fn member(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|object| object.member(key))
    }
}

/// Appends one reference token to `pointer`, escaping `~` and `/`.
pub fn push(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// `base` extended by `tokens`, as a new pointer.
pub fn join<'t>(base: &str, tokens: impl IntoIterator<Item = &'t str>) -> String {
    let mut pointer = base.to_owned();
    for token in tokens {
        push(&mut pointer, token);
    }
    pointer
}

/// The unescaped reference tokens of `pointer` ("" has none). `None` when it does not start with `/`
/// or uses an escape other than `~0`/`~1`.
pub fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/').map(unescape).collect()
}

/// Whether `pointer` is an RFC 6901 pointer: empty, or starting with `/` with every `~` escaping
/// `0` or `1` (what [`tokens`] accepts, without allocating).
pub fn is_valid(pointer: &str) -> bool {
    if pointer.is_empty() {
        return true;
    }
    let bytes = pointer.as_bytes();
    bytes.first() == Some(&b'/')
        && memchr::memchr_iter(b'~', bytes).all(|at| matches!(bytes.get(at + 1), Some(b'0' | b'1')))
}

/// The value `pointer` names in `root`, as `Value::pointer` finds it (array indices are plain
/// decimals: `01` and `+1` name nothing), without allocating for tokens that have no escape: a big
/// document resolves tens of thousands of `$ref`s.
pub fn lookup<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    let mut current = root;
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = unescaped(token)?;
        current = match current {
            Value::Object(map) => map.get(token.as_ref())?,
            Value::Array(items) => items.get(index(&token)?)?,
            _ => return None,
        };
    }
    Some(current)
}

/// Calls `visit` with every string and every object key of `value` (depth first, in document
/// order) and its place: `at` extended to it (a key's place is its value's). The place's pointer is
/// written only when asked for ([`Place::pointer`]): most texts are visited for a look at them
/// alone, and an OIS holds millions.
pub fn for_each_text<'v>(value: &'v Value, at: &str, visit: &mut impl FnMut(&str, &Place<'_, 'v>)) {
    let mut place = Place { base: at, path: Vec::new() };
    visit_texts(value, &mut place, visit);
}

fn visit_texts<'v>(value: &'v Value, place: &mut Place<'_, 'v>, visit: &mut impl FnMut(&str, &Place<'_, 'v>)) {
    match value {
        Value::String(text) => visit(text, place),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                place.path.push(Step::Index(index));
                visit_texts(item, place, visit);
                place.path.pop();
            }
        }
        Value::Object(entries) => {
            for (key, item) in entries {
                place.path.push(Step::Key(key));
                visit(key, place);
                visit_texts(item, place, visit);
                place.path.pop();
            }
        }
        _ => {}
    }
}

/// Where [`for_each_text`] is: a pointer and the steps below it.
pub struct Place<'b, 'v> {
    base: &'b str,
    path: Vec<Step<'v>>,
}

enum Step<'v> {
    Key(&'v str),
    Index(usize),
}

impl Place<'_, '_> {
    /// The place as a JSON pointer.
    pub fn pointer(&self) -> String {
        let mut pointer = self.base.to_owned();
        for step in &self.path {
            match step {
                Step::Key(key) => push(&mut pointer, key),
                Step::Index(index) => {
                    pointer.push('/');
                    pointer.push_str(&index.to_string());
                }
            }
        }
        pointer
    }
}

/// Calls `visit` with every string and every object key of `value` holding a `${` (the texts the
/// node's secrets interpolation reads) and its pointer: `at` extended to it (a key's pointer is
/// its value's); `visit` may change the text (a changed key keeps its place). Stops at the first
/// error (which leaves `value` partly walked: only for a value about to be dropped). Other texts
/// are only looked at: an OIS holds millions.
pub fn try_for_each_template_mut<E>(
    value: &mut Value,
    at: &mut String,
    visit: &mut impl FnMut(&mut String, &str) -> Result<(), E>,
) -> Result<(), E> {
    match value {
        Value::String(text) if holds_template(text) => visit(text, at),
        Value::Array(items) => {
            for (index, item) in items.iter_mut().enumerate() {
                let length = at.len();
                let _ = write!(at, "/{index}");
                try_for_each_template_mut(item, at, visit)?;
                at.truncate(length);
            }
            Ok(())
        }
        Value::Object(entries) => {
            // Only a map where a key changed is built again (every entry moved, in order, to a new
            // map): rebuilding them all made a whole document's worth of maps for the few keys
            // that ever change.
            let mut renamed: Vec<(usize, String)> = Vec::new();
            for (index, (key, item)) in entries.iter_mut().enumerate() {
                let length = at.len();
                push(at, key);
                if holds_template(key) {
                    let mut visited = key.clone();
                    visit(&mut visited, at)?;
                    if visited != *key {
                        renamed.push((index, visited));
                    }
                }
                try_for_each_template_mut(item, at, visit)?;
                at.truncate(length);
            }
            if !renamed.is_empty() {
                let mut renamed = renamed.into_iter().peekable();
                for (index, (key, item)) in std::mem::take(entries).into_iter().enumerate() {
                    let key = match renamed.next_if(|(at, _)| *at == index) {
                        Some((_, visited)) => visited,
                        None => key,
                    };
                    entries.insert(key, item);
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Whether `text` holds a `${`, found by its `$`s (a substring search set up for every text of a
/// document cost more than the look).
pub fn holds_template(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'$', bytes).any(|at| bytes.get(at + 1) == Some(&b'{'))
}

fn index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() > 1) {
        return None;
    }
    token.parse().ok()
}

/// One reference token as written in a pointer, unescaped: borrowed when it has no escape.
pub(crate) fn unescaped(token: &str) -> Option<Cow<'_, str>> {
    if token.contains('~') { unescape(token).map(Cow::Owned) } else { Some(Cow::Borrowed(token)) }
}

fn unescape(token: &str) -> Option<String> {
    if !token.contains('~') {
        return Some(token.to_owned());
    }
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_is_found_by_comparing_or_hashing_as_get_finds_it() {
        for size in [0, 3, COMPARED_MEMBERS, COMPARED_MEMBERS + 1, 40] {
            let object: serde_json::Map<String, Value> = (0..size).map(|i| (format!("k{i}"), Value::from(i))).collect();
            let value = Value::Object(object.clone());
            for key in ["k0", "k2", "k16", "k39", "missing", ""] {
                assert_eq!(value.member(key), object.get(key), "{size} {key}");
            }
        }
        assert_eq!(Value::from(1).member("k0"), None);
    }
    use proptest::prelude::*;

    #[test]
    fn a_changed_key_keeps_its_place_and_every_template_is_visited_once() {
        let mut value = serde_json::json!({"a": "x$", "b${K}": {"c${K}": "y${K}", "d": ["${K}", "$ {K}"]}, "e": "z", "f": "{${K}}"});
        let mut visited = Vec::new();
        let Ok(()) = try_for_each_template_mut(&mut value, &mut String::new(), &mut |text, at| {
            visited.push(at.to_owned());
            *text = text.replace("${K}", "k");
            Ok::<(), std::convert::Infallible>(())
        });
        assert_eq!(value.to_string(), r#"{"a":"x$","bk":{"ck":"yk","d":["k","$ {K}"]},"e":"z","f":"{k}"}"#);
        let expected = ["/b${K}", "/b${K}/c${K}", "/b${K}/c${K}", "/b${K}/d/0", "/f"];
        assert_eq!(visited, expected);
        assert!(holds_template("a$${") && !holds_template("$") && !holds_template("{$}"));
    }

    #[test]
    fn walks_every_text_in_document_order() {
        let value = serde_json::json!({"a/b": ["x", 1, {"k": "y"}], "z": "w"});
        let mut seen = Vec::new();
        for_each_text(&value, "", &mut |text, at| seen.push(format!("{}={text}", at.pointer())));
        assert_eq!(seen, ["/a~1b=a/b", "/a~1b/0=x", "/a~1b/2/k=k", "/a~1b/2/k=y", "/z=z", "/z=w"]);
        let mut stopped = serde_json::json!(["a", "${b}", "${c}"]);
        let first = try_for_each_template_mut(&mut stopped, &mut String::new(), &mut |_, at| Err(at.to_owned()));
        assert_eq!(first, Err("/1".to_owned()));
    }

    #[test]
    fn escapes_and_unescapes() {
        assert_eq!(join("", ["paths", "/pets/{id}", "a~b"]), "/paths/~1pets~1{id}/a~0b");
        assert_eq!(tokens("/a~1b/c~0d/"), Some(vec!["a/b".into(), "c~d".into(), "".into()]));
        assert_eq!(tokens(""), Some(vec![]));
        assert_eq!(tokens("a"), None);
        assert_eq!(tokens("/a~2"), None);
    }

    proptest! {
        #[test]
        fn is_valid_agrees_with_tokens(pointer in "[/~01a]{0,12}") {
            prop_assert_eq!(is_valid(&pointer), tokens(&pointer).is_some());
        }

        #[test]
        fn lookup_finds_what_serde_json_finds(pointer in "(/(a|~0b|c~1d|0|01|1|\\+1|-|10|x|))*") {
            let document = serde_json::json!({
                "a": [{"~b": 1, "c/d": [true, {"0": "zero"}]}, [null, {"x": 2}]],
                "~b": {"c/d": "e", "": {"a": 3}},
                "0": ["first"],
                "": {"": 4},
            });
            prop_assert_eq!(lookup(&document, &pointer), document.pointer(&pointer));
        }

        #[test]
        fn round_trips_any_tokens(parts in proptest::collection::vec(".*", 0..5)) {
            let pointer = join("", parts.iter().map(String::as_str));
            prop_assert_eq!(tokens(&pointer), Some(parts));
        }
    }
}
