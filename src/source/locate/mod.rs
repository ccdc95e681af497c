//! Finding the text position of a JSON pointer, only when a diagnostic needs it (the fast path
//! never pays for positions). JSON is scanned exactly; YAML is followed by indentation through block
//! style, and scanned like JSON inside flow collections (`{in: query, name: id}`, `[a, b]`).

mod flow;

use foldhash::HashMap;

use flow::{FlowCache, flow, quoted};

/// Positions found so far, so that many diagnostics in one big document cost one pass, not one
/// pass each. Keys are pointers; values are (offset to report, offset where the value starts).
#[derive(Default)]
pub(super) struct JsonCache {
    known: HashMap<String, (usize, usize)>,
    /// object pointer → where its member scan stopped, so later lookups resume there (at its
    /// closing brace once every member was passed: a member it lacks costs no second scan).
    resume: HashMap<String, usize>,
    /// array pointer → the furthest element reached (index, offset), for the same reason: a
    /// diagnostic on each of N elements must not cost N scans from the start.
    elements: HashMap<String, (usize, usize)>,
    /// array pointer → its length, once every element was passed.
    lengths: HashMap<String, usize>,
    /// array pointer → where its elements 0, [`MARK_EVERY`], 2 × [`MARK_EVERY`], … start, as far as
    /// passed: an element asked for after a later one is found from the mark before it. (A
    /// pointer kept for each element passed cost 150 MB for the one diagnostic on the last of a
    /// million prices.)
    marks: HashMap<String, Vec<usize>>,
    /// Values stepped over so far, for tests to count the work lookups do.
    #[cfg(test)]
    skipped: usize,
    /// Where a split parse found its pieces, not yet in `known` (that costs time nobody may need).
    pub(super) landmarks: Vec<super::parse::Landmark>,
}

impl JsonCache {
    /// Counts a value a lookup stepped over, in tests.
    fn stepped_over(&mut self) {
        #[cfg(test)]
        {
            self.skipped += 1;
        }
    }
}

/// Elements between two marks of an array's ([`JsonCache::marks`]): a lookup steps over fewer.
const MARK_EVERY: usize = 64;

/// Byte offset of the member key (objects) or element (arrays) that `tokens` leads to, or of the
/// nearest ancestor that exists.
pub(super) fn json(text: &str, tokens: &[String], cache: &mut JsonCache) -> Option<usize> {
    for landmark in std::mem::take(&mut cache.landmarks) {
        cache.known.entry(landmark.pointer).or_insert((landmark.report, landmark.value));
    }
    let bytes = text.as_bytes();
    // Start from the deepest prefix already known.
    let mut depth = tokens.len();
    let (mut found, mut pos, mut pointer) = loop {
        let prefix = crate::pointer::join("", tokens.iter().take(depth).map(String::as_str));
        if let Some(&(report, value)) = cache.known.get(&prefix) {
            break (report, value, prefix);
        }
        if depth == 0 {
            let start = skip_ws(bytes, 0);
            break (start, start, prefix);
        }
        depth -= 1;
    };
    for token in tokens.iter().skip(depth) {
        let parent = pointer.clone();
        crate::pointer::push(&mut pointer, token);
        match bytes.get(pos)? {
            b'{' => {
                pos = match cache.resume.get(&parent) {
                    Some(&resume) => resume,
                    None => skip_ws(bytes, pos + 1),
                };
                loop {
                    if bytes.get(pos)? != &b'"' {
                        cache.resume.insert(parent, pos);
                        return Some(found);
                    }
                    let key_start = pos;
                    let (key, after) = json_string(text, pos)?;
                    pos = skip_ws(bytes, after);
                    pos = skip_ws(bytes, pos + usize::from(bytes.get(pos) == Some(&b':')));
                    // Every member passed is remembered: its siblings are likely asked for next.
                    cache.known.entry(crate::pointer::join(&parent, [key.as_str()])).or_insert((key_start, pos));
                    if key == *token {
                        found = key_start;
                        cache.resume.insert(parent.clone(), key_start);
                        break;
                    }
                    pos = skip_ws(bytes, skip_json_value(bytes, pos)?);
                    cache.stepped_over();
                    if bytes.get(pos) == Some(&b',') {
                        pos = skip_ws(bytes, pos + 1);
                    }
                }
            }
            b'[' => {
                let index: usize = token.parse().ok()?;
                if cache.lengths.get(&parent).is_some_and(|&length| index >= length) {
                    return Some(found);
                }
                let mut marks = cache.marks.remove(&parent).unwrap_or_default();
                if marks.is_empty() {
                    marks.push(skip_ws(bytes, pos + 1));
                }
                // From the mark before the element, or the furthest one reached when nearer.
                let mark = (index / MARK_EVERY).min(marks.len() - 1);
                let (mut at, mut resumed) = (mark * MARK_EVERY, marks.get(mark).copied()?);
                if let Some(&(furthest, element)) = cache.elements.get(&parent)
                    && (at..=index).contains(&furthest)
                {
                    (at, resumed) = (furthest, element);
                }
                pos = resumed;
                while at < index {
                    pos = skip_ws(bytes, skip_json_value(bytes, pos)?);
                    cache.stepped_over();
                    if bytes.get(pos) != Some(&b',') {
                        cache.lengths.insert(parent.clone(), at + 1);
                        cache.marks.insert(parent, marks);
                        return Some(found);
                    }
                    pos = skip_ws(bytes, pos + 1);
                    at += 1;
                    if at % MARK_EVERY == 0 && at / MARK_EVERY == marks.len() {
                        marks.push(pos);
                    }
                }
                cache.marks.insert(parent.clone(), marks);
                cache.elements.insert(parent, (at, pos));
                found = pos;
                cache.known.insert(pointer.clone(), (pos, pos));
            }
            _ => return Some(found),
        }
    }
    Some(found)
}

fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while matches!(bytes.get(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        pos += 1;
    }
    pos
}

/// Decodes the JSON string starting at `start` (its opening quote); returns it and the offset after it.
fn json_string(text: &str, start: usize) -> Option<(String, usize)> {
    let end = string_end(text.as_bytes(), start)?;
    let raw = text.get(start..=end)?;
    let decoded = match raw.get(1..raw.len() - 1) {
        Some(inner) if !inner.contains('\\') => inner.to_owned(),
        _ => serde_json::from_str::<String>(raw).ok()?,
    };
    Some((decoded, end + 1))
}

/// The offset of the closing quote of the string opened at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut pos = start + 1;
    loop {
        pos += memchr::memchr2(b'"', b'\\', bytes.get(pos..)?)?;
        match bytes.get(pos)? {
            b'"' => return Some(pos),
            _ => pos += 2,
        }
    }
}

/// Offset just after the JSON value starting at `pos`; iterative, so depth costs no stack.
///
/// Only the value's own kind of bracket is counted: in valid JSON the other kind nests inside it
/// in balanced pairs, so the matching close is the first one that brings the count to zero. With
/// three bytes to look for (quote, open, close), the scan runs at `memchr` speed, not a byte at a
/// time through indentation and numbers.
fn skip_json_value(bytes: &[u8], mut pos: usize) -> Option<usize> {
    let (open, close) = match bytes.get(pos)? {
        b'"' => return Some(string_end(bytes, pos)? + 1),
        b'{' => (b'{', b'}'),
        b'[' => (b'[', b']'),
        _ => {
            // A scalar ends at the next delimiter.
            while !matches!(bytes.get(pos), None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')) {
                pos += 1;
            }
            return Some(pos);
        }
    };
    let mut depth = 0usize;
    loop {
        pos += memchr::memchr3(b'"', open, close, bytes.get(pos..)?)?;
        match bytes.get(pos)? {
            b'"' => pos = string_end(bytes, pos)? + 1,
            &byte => {
                pos += 1;
                if byte == open {
                    depth += 1;
                } else {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(pos);
                    }
                }
            }
        }
    }
}

/// A YAML line reduced to what the block structure needs.
struct Line<'t> {
    offset: usize,
    indent: usize,
    content: &'t str,
}

/// The meaningful lines of a YAML text as (offset of content, indentation, length of content),
/// computed once per source.
pub(super) struct YamlLines(Vec<(usize, usize, usize)>);

impl YamlLines {
    pub(super) fn new(text: &str) -> YamlLines {
        let mut lines = Vec::new();
        let mut offset = 0;
        for raw in text.split_inclusive('\n') {
            let trimmed = raw.trim_end_matches(['\n', '\r']);
            let content = trimmed.trim_start_matches(' ');
            let indent = trimmed.len() - content.len();
            if !(content.is_empty()
                || content.starts_with('#')
                || content.starts_with("---")
                || content.starts_with('%'))
            {
                lines.push((offset + indent, indent, content.len()));
            }
            offset += raw.len();
        }
        YamlLines(lines)
    }
}

/// The lines of one text, materialised one at a time.
struct Lines<'t> {
    text: &'t str,
    index: &'t YamlLines,
}

impl<'t> Lines<'t> {
    fn get(&self, i: usize) -> Option<Line<'t>> {
        let &(offset, indent, len) = self.index.0.get(i)?;
        Some(Line { offset, indent, content: self.text.get(offset..offset + len)? })
    }

    fn len(&self) -> usize {
        self.index.0.len()
    }

    fn first(&self) -> Option<Line<'t>> {
        self.get(0)
    }
}

/// Where a lookup stands after following some tokens: the block `start..end` holds the entries,
/// which sit deeper than `parent` (or at `parent` itself for a sequence under a key, which YAML
/// allows). A sequence item's content begins on its own `- ` line, shifted right by `shift`.
#[derive(Clone, Copy)]
struct State {
    start: usize,
    end: usize,
    parent: Option<usize>,
    shift: Option<(usize, usize)>,
    found: usize,
    /// Where the value starts when it is on the same line (`key: {…}`, `- [a, b]`).
    inline: Option<usize>,
}

/// Per-source memory of YAML lookups: states by pointer, the line of every key seen while
/// scanning, and where each block's key scan stopped.
#[derive(Default)]
pub(super) struct YamlCache {
    states: HashMap<String, State>,
    key_lines: HashMap<String, usize>,
    resume: HashMap<String, usize>,
    /// sequence pointer → the furthest item found (its index, its line).
    items: HashMap<String, (usize, usize)>,
    flow: FlowCache,
    /// Lines read by key scans so far, for tests to count the work lookups do.
    #[cfg(test)]
    lines_read: usize,
}

/// Byte offset of the key (mappings) or item (sequences) that `tokens` leads to in block-style
/// YAML, or of the nearest ancestor found.
pub(super) fn yaml(text: &str, tokens: &[String], index: &YamlLines, cache: &mut YamlCache) -> Option<usize> {
    let lines = Lines { text, index };
    let mut depth = tokens.len();
    let (mut state, mut pointer) = loop {
        let prefix = crate::pointer::join("", tokens.iter().take(depth).map(String::as_str));
        if let Some(state) = cache.states.get(&prefix) {
            break (*state, prefix);
        }
        if depth == 0 {
            let found = lines.first().map_or(0, |l| l.offset);
            let state = State { start: 0, end: lines.len(), parent: None, shift: None, found, inline: Some(found) };
            break (state, prefix);
        }
        depth -= 1;
    };
    let flow_value = |state: &State| state.inline.filter(|&v| matches!(text.as_bytes().get(v), Some(b'{' | b'[')));
    for (at, token) in tokens.iter().enumerate().skip(depth) {
        if let Some(value) = flow_value(&state) {
            let rest = tokens.get(at..).unwrap_or_default();
            return Some(flow(text, value, &pointer, rest, state.found, &mut cache.flow));
        }
        let parent_pointer = pointer.clone();
        crate::pointer::push(&mut pointer, token);
        match step(&lines, state, token, &parent_pointer, cache) {
            Some(next) => {
                state = next;
                cache.states.insert(pointer.clone(), state);
            }
            None => return Some(state.found),
        }
        if state.start >= state.end && flow_value(&state).is_none() {
            return Some(state.found);
        }
    }
    Some(state.found)
}

/// Follows one token from `state`; `None` when it leads nowhere that can be found.
fn step(lines: &Lines<'_>, state: State, token: &str, parent_pointer: &str, cache: &mut YamlCache) -> Option<State> {
    let view = |i: usize| -> Option<(usize, usize, &str)> {
        let line = lines.get(i)?;
        match state.shift {
            Some((at, shift)) if at == i => {
                Some((line.indent + shift, line.offset + shift, line.content.get(shift..)?))
            }
            _ => Some((line.indent, line.offset, line.content)),
        }
    };
    let (child_indent, _, first_content) = view(state.start)?;
    let is_item = |content: &str| content.starts_with("- ") || content == "-";
    if state.parent.is_some_and(|p| child_indent < p || (child_indent == p && !is_item(first_content))) {
        return None;
    }
    if is_item(first_content) {
        let index: usize = token.parse().ok()?;
        // Resume from the furthest item of this sequence reached so far (at or before `index`).
        let (mut seen, from) = match cache.items.get(parent_pointer) {
            Some(&(seen, line)) if seen <= index => (seen, line),
            _ => (0, state.start),
        };
        let mut item = None;
        for i in from..state.end {
            let (indent, offset, content) = view(i)?;
            if indent == child_indent && is_item(content) {
                if seen == index {
                    item = Some((i, offset, content));
                    break;
                }
                seen += 1;
            } else if indent < child_indent {
                break;
            }
        }
        let (i, offset, content) = item?;
        if cache.items.get(parent_pointer).is_none_or(|&(furthest, _)| furthest < index) {
            cache.items.insert(parent_pointer.to_owned(), (index, i));
        }
        let rest = content.get(1..)?;
        let end = block_end(lines, i, child_indent, state.end);
        if rest.trim().is_empty() {
            let state =
                State { start: i + 1, end, parent: Some(child_indent), shift: None, found: offset, inline: None };
            return Some(state);
        }
        let shift = 1 + rest.len() - rest.trim_start_matches(' ').len();
        let base_shift = state.shift.filter(|&(at, _)| at == i).map_or(0, |(_, s)| s);
        // The item's content, after `- `, is what the pointer names.
        let found = offset + shift;
        let shift = Some((i, base_shift + shift));
        Some(State { start: i, end, parent: Some(child_indent), shift, found, inline: Some(found) })
    } else {
        let child_pointer = crate::pointer::join(parent_pointer, [token]);
        let hit = match cache.key_lines.get(&child_pointer) {
            Some(&i) => Some(i),
            None => {
                let from = cache.resume.get(parent_pointer).copied().unwrap_or(state.start).max(state.start);
                let mut hit = None;
                for i in from..state.end {
                    #[cfg(test)]
                    {
                        cache.lines_read += 1;
                    }
                    let (indent, _, content) = view(i)?;
                    if indent < child_indent {
                        break;
                    }
                    if indent == child_indent
                        && let Some((key, _)) = yaml_key(content)
                    {
                        cache.resume.insert(parent_pointer.to_owned(), i + 1);
                        let is_hit = key == token;
                        cache.key_lines.entry(crate::pointer::join(parent_pointer, [key.as_str()])).or_insert(i);
                        if is_hit {
                            hit = Some(i);
                            break;
                        }
                    }
                }
                // Every key of the block was passed: one it lacks is not looked for again.
                if hit.is_none() {
                    cache.resume.insert(parent_pointer.to_owned(), state.end);
                }
                hit
            }
        };
        let i = hit?;
        let (_, offset, content) = view(i)?;
        let end = block_end(lines, i, child_indent, state.end);
        let inline = yaml_key(content).and_then(|(_, after)| {
            let value = content.get(after..)?;
            let skipped = value.len() - value.trim_start_matches([' ', '\t']).len();
            Some(offset + after + skipped)
        });
        Some(State { start: i + 1, end, parent: Some(child_indent), shift: None, found: offset, inline })
    }
}

/// The end of the block that line `i` (at `indent`) opens: the next line at the same or lower
/// indentation, except sequence items at the same indentation, which belong to a key above them.
fn block_end(lines: &Lines<'_>, i: usize, indent: usize, end: usize) -> usize {
    let key_line = lines.get(i).is_some_and(|l| !l.content.starts_with('-'));
    (i + 1..end)
        .find(|&j| {
            lines
                .get(j)
                .is_some_and(|l| l.indent < indent || (l.indent == indent && !(key_line && l.content.starts_with('-'))))
        })
        .unwrap_or(end)
}

/// The key of a `key: value` line, unquoted, and where the text after its `:` begins.
fn yaml_key(content: &str) -> Option<(String, usize)> {
    if content.starts_with(['"', '\'']) {
        let (key, after) = quoted(content, 0)?;
        return content.get(after..)?.starts_with(':').then_some((key, after + 1));
    }
    let end = content.find(": ").or_else(|| content.strip_suffix(':').map(str::len))?;
    Some((content.get(..end)?.trim_end().to_owned(), end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn tokens(pointer: &str) -> Vec<String> {
        crate::pointer::tokens(pointer).unwrap()
    }

    fn position(text: &str, offset: usize) -> (usize, usize) {
        super::super::line_column(text, offset)
    }

    #[test]
    fn json_pointer_positions() {
        let text = "{\n  \"a\": {\"x\": [1, {\"y/z\": 2}]},\n  \"b\": \"s\"\n}";
        let mut cache = JsonCache::default();
        let mut at = |p: &str| position(text, json(text, &tokens(p), &mut cache).unwrap());
        assert_eq!(at(""), (1, 1));
        assert_eq!(at("/b"), (3, 3));
        assert_eq!(at("/a/x/1/y~1z"), (2, 19));
        assert_eq!(at("/a/x/0"), (2, 15));
        assert_eq!(at("/a/x/1/y~1z"), (2, 19));
        assert_eq!(at("/b"), (3, 3));
        // Missing members fall back to the nearest ancestor.
        assert_eq!(at("/a/nope"), (2, 3));
    }

    #[test]
    fn what_a_document_lacks_is_looked_for_once() {
        // A diagnostic may point where nothing is (a Swagger 2.0 document's view has sections its
        // text does not); its parent was scanned again for each one, the whole text at the root.
        let value = serde_json::json!({"a": [1, [2], {"b": 3}], "c": {"d": 1, "e": [4, 5]}, "f": "g"});
        let absent = ["/nope", "/a/9", "/a/3", "/c/nope", "/c/e/2", "/a/2/nope", "/f/x"];
        let text = serde_json::to_string_pretty(&value).unwrap();
        let mut cache = JsonCache::default();
        let mut work = Vec::new();
        for _ in 0..3 {
            for pointer in absent {
                let found = json(&text, &tokens(pointer), &mut cache);
                assert_eq!(found, json(&text, &tokens(pointer), &mut JsonCache::default()), "{pointer}");
            }
            work.push(cache.skipped);
        }
        assert!(work.iter().all(|&skipped| skipped == work[0] && skipped > 0), "{work:?}");

        let text = "a:\n  - 1\n  - b: 3\nc:\n  d: 1\n  e:\n    - 4\n    - 5\nf: g\n";
        let index = YamlLines::new(text);
        let mut cache = YamlCache::default();
        let mut work = Vec::new();
        for _ in 0..3 {
            for pointer in absent {
                let found = yaml(text, &tokens(pointer), &index, &mut cache);
                assert_eq!(found, yaml(text, &tokens(pointer), &index, &mut YamlCache::default()), "{pointer}");
            }
            work.push(cache.lines_read);
        }
        assert!(work.iter().all(|&read| read == work[0] && read > 0), "{work:?}");
    }

    #[test]
    fn yaml_pointer_positions() {
        let text = "openapi: 3.0.0\npaths:\n  /pets:\n    get:\n      parameters:\n      - name: a\n        in: query\n      - name: b\n        in: query\n    'post':\n      summary: x\ntags:\n  - name: t\n";
        let index = YamlLines::new(text);
        let mut cache = YamlCache::default();
        let mut at = |p: &str| position(text, yaml(text, &tokens(p), &index, &mut cache).unwrap());
        assert_eq!(at("/paths"), (2, 1));
        assert_eq!(at("/paths/~1pets/get"), (4, 5));
        assert_eq!(at("/paths/~1pets/get/parameters/1"), (8, 9));
        assert_eq!(at("/paths/~1pets/get/parameters/1/in"), (9, 9));
        assert_eq!(at("/paths/~1pets/get/parameters/0/name"), (6, 9));
        assert_eq!(at("/paths/~1pets/post/summary"), (11, 7));
        assert_eq!(at("/tags/0/name"), (13, 5));
        assert_eq!(at("/paths/~1pets/delete"), (3, 3));
        // Answers do not depend on what was asked before.
        assert_eq!(at("/paths/~1pets/get/parameters/1"), (8, 9));
        assert_eq!(at("/paths"), (2, 1));
        assert_eq!(at("/tags/0/name"), (13, 5));
    }

    #[test]
    fn yaml_flow_collection_positions() {
        let text = "paths:\n  /a:\n    get:\n      parameters:\n      - {name: id, in: path}\n      - {\"name\": 'q''s', in: [query,\n          header], x: {y: 1}}\n      tags: [a, 'b, c', d] # note\n{z: 1}\n";
        let index = YamlLines::new(text);
        let mut cache = YamlCache::default();
        let mut at = |p: &str| position(text, yaml(text, &tokens(p), &index, &mut cache).unwrap());
        assert_eq!(at("/paths/~1a/get/parameters/0/in"), (5, 20));
        assert_eq!(at("/paths/~1a/get/parameters/0"), (5, 9));
        assert_eq!(at("/paths/~1a/get/parameters/1/in/1"), (7, 11));
        assert_eq!(at("/paths/~1a/get/parameters/1/x/y"), (7, 24));
        assert_eq!(at("/paths/~1a/get/tags/2"), (8, 25));
        assert_eq!(at("/paths/~1a/get/tags/1"), (8, 17));
        // Missing members fall back to the nearest ancestor.
        assert_eq!(at("/paths/~1a/get/parameters/1/nope"), (6, 9));
        assert_eq!(at("/paths/~1a/get/tags/9"), (8, 7));
    }

    proptest::proptest! {
        /// JSON too: any text, any pointers, answers inside the text that caching never changes.
        #[test]
        fn json_lookups_always_end(
            text in "[a-b{}\\[\\],:\" 0-1\n]{0,60}",
            pointers in proptest::collection::vec("(/[a-b0-1]{0,2}){0,4}", 1..6),
        ) {
            let mut shared = JsonCache::default();
            for pointer in &pointers {
                let found = json(&text, &tokens(pointer), &mut shared);
                proptest::prop_assert!(found.is_none_or(|offset| offset <= text.len()));
                let fresh = json(&text, &tokens(pointer), &mut JsonCache::default());
                proptest::prop_assert_eq!(found, fresh, "{}", pointer);
            }
        }

        /// Every member and element of any JSON value, compact or pretty, is found exactly:
        /// the offset holds the member's key or the element itself (strings holding brackets
        /// and quotes included, which the scan must step over).
        #[test]
        fn json_lookups_find_every_member_and_element(value in crate::testing::json_value(), pretty in proptest::bool::ANY) {
            let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) };
            let text = text.unwrap_or_default();
            let mut cache = JsonCache::default();
            for (pointer, key, element) in members(&value, String::new()) {
                let offset = json(&text, &tokens(&pointer), &mut cache);
                let rest = offset.and_then(|offset| text.get(offset..)).unwrap_or_default();
                match key {
                    Some(key) => {
                        let quoted = serde_json::to_string(&key).unwrap_or_default();
                        proptest::prop_assert!(rest.starts_with(&quoted), "{} in {}", pointer, text);
                    }
                    None => {
                        let found = serde_json::Deserializer::from_str(rest).into_iter::<Value>().next();
                        let found = found.and_then(Result::ok);
                        proptest::prop_assert_eq!(found.as_ref(), Some(element), "{} in {}", pointer, text);
                    }
                }
            }
        }

        /// Any text and any pointer: an answer inside the text, never a hang or a panic.
        #[test]
        fn yaml_lookups_always_end(
            text in "[a-c{}\\[\\],:'\" #&!\n-]{0,80}",
            pointers in proptest::collection::vec("(/[a-c0-2]{0,2}){0,4}", 1..6),
        ) {
            let index = YamlLines::new(&text);
            let mut shared = YamlCache::default();
            for pointer in &pointers {
                let found = yaml(&text, &tokens(pointer), &index, &mut shared);
                proptest::prop_assert!(found.is_none_or(|offset| offset <= text.len()));
                // What earlier lookups cached never changes an answer.
                let fresh = yaml(&text, &tokens(pointer), &index, &mut YamlCache::default());
                proptest::prop_assert_eq!(found, fresh, "{}", pointer);
            }
        }
    }

    /// Every member below `value`: its pointer, its key (objects) and the value itself.
    fn members(value: &Value, pointer: String) -> Vec<(String, Option<String>, &Value)> {
        let children: Vec<(String, Option<String>, &Value)> = match value {
            Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), Some(k.clone()), v)).collect(),
            Value::Array(items) => items.iter().enumerate().map(|(i, v)| (i.to_string(), None, v)).collect(),
            _ => Vec::new(),
        };
        let mut all = Vec::new();
        for (token, key, child) in children {
            let mut below = pointer.clone();
            crate::pointer::push(&mut below, &token);
            all.push((below.clone(), key, child));
            all.extend(members(child, below));
        }
        all
    }

    #[test]
    fn every_element_of_a_long_array_is_found_in_one_pass() {
        // A diagnostic on each of thousands of parameters: each lookup resumes where the last
        // stopped (the scaling benchmark shows the cost; this shows the answers are right).
        let items: Vec<String> = (0..3000).map(|i| format!("{{\"name\": \"p{i}\"}}")).collect();
        let json_text = format!("{{\"list\": [{}]}}", items.join(",\n "));
        let yaml_text = format!("list:\n{}", (0..3000).map(|i| format!("  - name: p{i}\n")).collect::<String>());
        let yaml_index = YamlLines::new(&yaml_text);
        let (mut json_cache, mut yaml_cache) = (JsonCache::default(), YamlCache::default());
        for i in (0..3000).chain([2999, 5, 1500]) {
            let pointer = tokens(&format!("/list/{i}/name"));
            let found = json(&json_text, &pointer, &mut json_cache).unwrap();
            assert_eq!(json_text.get(found..found + 6), Some("\"name\""), "element {i}");
            if i % 500 == 0 {
                assert_eq!(found, json(&json_text, &pointer, &mut JsonCache::default()).unwrap());
            }
            let found = yaml(&yaml_text, &pointer, &yaml_index, &mut yaml_cache).unwrap();
            assert_eq!(
                yaml_text.get(found..).and_then(|rest| rest.split('\n').next()),
                Some(format!("name: p{i}").as_str())
            );
        }
    }

    #[test]
    fn elements_asked_for_backwards_are_found_from_the_mark_before_each() {
        let json_text = format!("[{}]", (0..1000).map(|i| i.to_string()).collect::<Vec<_>>().join(","));
        let mut cache = JsonCache::default();
        for i in (0..1000).rev() {
            let found = json(&json_text, &tokens(&format!("/{i}")), &mut cache).unwrap();
            assert_eq!(
                json_text.get(found..).and_then(|rest| rest.split([',', ']']).next()),
                Some(i.to_string().as_str())
            );
        }
        // The first lookup passes 999 elements; each later one at most the 63 after its mark.
        assert!(cache.skipped <= 999 + 1000 * (MARK_EVERY - 1), "{}", cache.skipped);
        assert!(cache.known.len() < 1100, "a pointer kept per element passed: {}", cache.known.len());
    }

    #[test]
    fn a_cached_flow_scan_stops_where_a_fresh_one_does() {
        // An entry that is nothing (`}` in a sequence) ends the scan, resumed or not.
        let text = "[\n}";
        let index = YamlLines::new(text);
        let mut shared = YamlCache::default();
        for pointer in ["/0", "/1"] {
            let found = yaml(text, &tokens(pointer), &index, &mut shared);
            assert_eq!(found, yaml(text, &tokens(pointer), &index, &mut YamlCache::default()), "{pointer}");
        }
    }

    #[test]
    fn yaml_flow_document() {
        let text = "# a comment\n{openapi: 3.1.0, &i info: !t {title: T}, paths: {/x: {get: {}}}}\n";
        let index = YamlLines::new(text);
        let mut cache = YamlCache::default();
        let mut at = |p: &str| position(text, yaml(text, &tokens(p), &index, &mut cache).unwrap());
        assert_eq!(at("/paths/~1x/get"), (2, 55));
        assert_eq!(at("/info/title"), (2, 31));
    }
}
