//! Pointers inside YAML flow collections (`{in: query, name: id}`, `[a, b]`): YAML's JSON-like
//! syntax, which may span lines, carry comments, anchors and tags, and leave scalars unquoted.

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

/// Follows `tokens` through the flow collection at `pos` (YAML's JSON-like syntax, which may span
/// lines); the offset of the key or item they lead to, else of the nearest one found (`found`).
pub(super) fn flow(text: &str, mut pos: usize, tokens: &[String], mut found: usize) -> usize {
    let bytes = text.as_bytes();
    for token in tokens {
        pos = flow_skip_properties(bytes, pos);
        let index: Option<usize> = token.parse().ok();
        let (mapping, close) = match bytes.get(pos) {
            Some(b'{') => (true, b'}'),
            Some(b'[') if index.is_some() => (false, b']'),
            _ => return found,
        };
        pos += 1;
        let mut seen = 0;
        loop {
            let before = pos;
            pos = flow_space(bytes, pos);
            if bytes.get(pos).is_none_or(|&b| b == close) {
                return found;
            }
            if mapping {
                pos = flow_skip_properties(bytes, pos);
            }
            let entry = pos;
            if mapping {
                let key = if matches!(bytes.get(pos), Some(b'"' | b'\'')) {
                    quoted(text, pos)
                } else {
                    flow_plain(text, pos, true).and_then(|end| Some((text.get(pos..end)?.trim_end().to_owned(), end)))
                };
                let Some((key, after)) = key else { return found };
                pos = flow_space(bytes, after);
                if bytes.get(pos) == Some(&b':') {
                    pos = flow_space(bytes, pos + 1);
                }
                if key == *token {
                    found = entry;
                    break;
                }
            } else if Some(seen) == index {
                found = entry;
                break;
            }
            let Some(after) = skip_flow_value(text, pos) else { return found };
            pos = flow_space(bytes, after);
            if bytes.get(pos) == Some(&b',') {
                pos += 1;
            }
            if pos == before {
                return found; // a stray `]` in a mapping, or similar: nothing more to follow
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
            Some(b'#') => pos = bytes.iter().skip(pos).position(|&b| b == b'\n').map_or(bytes.len(), |n| pos + n),
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
fn flow_plain(text: &str, pos: usize, key: bool) -> Option<usize> {
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
    Some(end)
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
        _ => flow_plain(text, pos, false),
    }
}
