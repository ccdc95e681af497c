//! Pointers inside YAML flow collections (`{in: query, name: id}`, `[a, b]`): YAML's JSON-like
//! syntax, which may span lines, carry comments, anchors and tags, and leave scalars unquoted.

use foldhash::HashMap;

use super::{json_string, string_end};

/// The quoted scalar starting at `start` (`"…"` with escapes, or `'…'` with `''`), unquoted, and
/// the offset after its closing quote.
pub(super) fn quoted(text: &str, start: usize) -> Option<(String, usize)> {
    let bytes = text.as_bytes();
    if bytes.get(start) == Some(&b'"') {
        // YAML's escapes are a superset of JSON's; a key using the others is taken as written.
        return json_string(text, start).or_else(|| {
            let end = string_end(bytes, start)?;
            Some((text.get(start + 1..end)?.to_owned(), end + 1))
        });
    }
    let mut key = String::new();
    let mut chars = text.get(start + 1..)?.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '\'' {
            key.push(c);
        } else if chars.next_if(|&(_, c)| c == '\'').is_some() {
            key.push('\'');
        } else {
            return Some((key, start + 1 + i + 1));
        }
    }
    None
}

/// What flow lookups learned, by pointer: every entry passed (where it starts, where its value
/// starts), and where each collection's scan stopped (offset, entries before it), so many lookups
/// in one big flow collection cost one pass, as in JSON.
#[derive(Default)]
pub(super) struct FlowCache {
    known: HashMap<String, (usize, usize)>,
    resume: HashMap<String, (usize, usize)>,
}

/// Follows `tokens` from `base` (the pointer of the flow collection at `start`, which `found`
/// names); the offset of the key or item they lead to, else of the nearest one found.
pub(super) fn flow(
    text: &str,
    start: usize,
    base: &str,
    tokens: &[String],
    found: usize,
    cache: &mut FlowCache,
) -> usize {
    let bytes = text.as_bytes();
    let mut depth = tokens.len();
    let (mut found, mut pos, mut pointer) = loop {
        let prefix = crate::pointer::join(base, tokens.iter().take(depth).map(String::as_str));
        if depth == 0 {
            break (found, start, prefix);
        }
        if let Some(&(entry, value)) = cache.known.get(&prefix) {
            break (entry, value, prefix);
        }
        depth -= 1;
    };
    for token in tokens.iter().skip(depth) {
        let parent = pointer.clone();
        crate::pointer::push(&mut pointer, token);
        pos = flow_skip_properties(bytes, pos);
        let (mapping, close) = match bytes.get(pos) {
            Some(b'{') => (true, b'}'),
            Some(b'[') => (false, b']'),
            _ => return found,
        };
        let (mut at, mut seen) = cache.resume.get(&parent).copied().unwrap_or((pos + 1, 0));
        loop {
            at = flow_space(bytes, at);
            if bytes.get(at).is_none_or(|&b| b == close) {
                // Every entry is known now: a later lookup of a missing one stops here at once.
                cache.resume.insert(parent, (at, seen));
                return found;
            }
            let entry = if mapping { flow_skip_properties(bytes, at) } else { at };
            at = entry;
            let key = if mapping {
                let key = if matches!(bytes.get(at), Some(b'"' | b'\'')) {
                    quoted(text, at)
                } else {
                    let end = flow_plain(text, at, true);
                    text.get(at..end).map(|key| (key.trim_end().to_owned(), end))
                };
                let Some((key, after)) = key else { return found };
                at = flow_space(bytes, after);
                if bytes.get(at) == Some(&b':') {
                    at = flow_space(bytes, at + 1);
                }
                key
            } else {
                seen.to_string()
            };
            // The first of repeated keys is the one a fresh scan stops at.
            cache.known.entry(crate::pointer::join(&parent, [key.as_str()])).or_insert((entry, at));
            if key == *token {
                cache.resume.insert(parent, (entry, seen));
                found = entry;
                pos = at;
                break;
            }
            let Some(after) = skip_flow_value(text, at) else { return found };
            at = flow_space(bytes, after);
            if bytes.get(at) == Some(&b',') {
                at += 1;
            }
            if at <= entry {
                // A stray `]` in a mapping, or similar: an entry that is nothing. Judged from the
                // entry's own start, so a scan resumed there stops where a fresh one does.
                return found;
            }
            seen += 1;
        }
    }
    found
}

/// Skips whitespace, line breaks and comments.
fn flow_space(bytes: &[u8], mut pos: usize) -> usize {
    loop {
        match bytes.get(pos) {
            Some(b' ' | b'\t' | b'\n' | b'\r') => pos += 1,
            Some(b'#') => {
                pos = memchr::memchr(b'\n', bytes.get(pos..).unwrap_or_default()).map_or(bytes.len(), |n| pos + n)
            }
            _ => return pos,
        }
    }
}

/// Skips an anchor (`&a`) or tag (`!t`) before a value.
fn flow_skip_properties(bytes: &[u8], mut pos: usize) -> usize {
    while matches!(bytes.get(pos), Some(b'&' | b'!')) {
        while bytes.get(pos).is_some_and(|b| !b" \t\r\n{}[],".contains(b)) {
            pos += 1;
        }
        pos = flow_space(bytes, pos);
    }
    pos
}

/// The end of the plain scalar at `pos`: before `,`, a closing bracket, ` #`, or (for a key) `: `.
fn flow_plain(text: &str, pos: usize, key: bool) -> usize {
    let bytes = text.as_bytes();
    let mut end = pos;
    while let Some(&b) = bytes.get(end) {
        let next = bytes.get(end + 1).copied();
        let colon_ends = key && b == b':' && next.is_none_or(|n| b" \t\r\n,[]{}".contains(&n));
        let comment = b == b'#' && end > pos && bytes.get(end - 1).is_some_and(|p| p.is_ascii_whitespace());
        if matches!(b, b',' | b']' | b'}' | b'[' | b'{') || colon_ends || comment {
            break;
        }
        end += 1;
    }
    end
}

/// The offset after the flow value at `pos` (a nested collection, a quoted or a plain scalar).
fn skip_flow_value(text: &str, pos: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut pos = flow_skip_properties(bytes, pos);
    match bytes.get(pos) {
        Some(b'"' | b'\'') => quoted(text, pos).map(|(_, end)| end),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            loop {
                match bytes.get(pos)? {
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(pos + 1);
                        }
                    }
                    b'"' | b'\'' => {
                        pos = quoted(text, pos)?.1;
                        continue;
                    }
                    b'#' if bytes.get(pos.wrapping_sub(1)).is_some_and(u8::is_ascii_whitespace) => {
                        pos = flow_space(bytes, pos);
                        continue;
                    }
                    _ => {}
                }
                pos += 1;
            }
        }
        _ => Some(flow_plain(text, pos, false)),
    }
}
