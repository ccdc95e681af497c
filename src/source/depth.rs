//! A linear pre-scan of YAML nesting, so that hostile depth is refused before libyaml (whose flow
//! scanner is quadratic in depth) sees it. Block nesting needs indentation, so only flow
//! collections and `- - -` chains on one line can get deep cheaply.

/// The offset where a JSON text's nesting first exceeds `limit`, if it does (strings skipped).
pub(super) fn json_exceeds(text: &str, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => at = super::density::string_end(bytes, at + 1),
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(at);
                }
                at += 1;
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                at += 1;
            }
            _ => at += 1,
        }
    }
    None
}

/// The offset where nesting first exceeds `limit`, if it does.
pub(super) fn yaml_exceeds(text: &str, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut flow = 0usize;
    let mut pos = 0;
    while pos < bytes.len() {
        let line_end = memchr_newline(bytes, pos);
        if flow == 0 {
            // Block context: skip indentation and `- ` chains, then find where the value starts.
            let mut i = pos;
            let mut chain = 0;
            loop {
                while matches!(bytes.get(i), Some(b' ' | b'\t')) {
                    i += 1;
                }
                if bytes.get(i) == Some(&b'-') && matches!(bytes.get(i + 1), Some(b' ' | b'\t')) {
                    chain += 1;
                    if chain > limit {
                        return Some(i);
                    }
                    i += 2;
                } else {
                    break;
                }
            }
            let value_start = match bytes.get(i) {
                Some(b'[' | b'{') => Some(i),
                Some(b'"' | b'\'' | b'#') | None => None,
                _ => find_value_after_key(bytes, i, line_end),
            };
            match value_start {
                Some(start) => pos = start,
                None => {
                    pos = line_end + 1;
                    continue;
                }
            }
        }
        // Flow context: count brackets, skipping quoted scalars and comments.
        while pos < bytes.len() {
            match bytes.get(pos) {
                Some(b'[' | b'{') => {
                    flow += 1;
                    if flow > limit {
                        return Some(pos);
                    }
                }
                Some(b']' | b'}') => {
                    flow = flow.saturating_sub(1);
                    if flow == 0 {
                        pos += 1;
                        break;
                    }
                }
                Some(&quote @ (b'"' | b'\'')) => pos = skip_quoted(bytes, pos, quote),
                Some(b'#') if pos > 0 && matches!(bytes.get(pos - 1), Some(b' ' | b'\t' | b'\n')) => {
                    pos = memchr_newline(bytes, pos);
                }
                _ => {}
            }
            pos += 1;
        }
        if flow == 0 {
            pos = memchr_newline(bytes, pos) + 1;
        }
    }
    None
}

fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    bytes.get(from..).and_then(|rest| memchr::memchr(b'\n', rest)).map_or(bytes.len(), |i| from + i)
}

/// Where a flow collection starts after `key: ` on this line, if one does.
fn find_value_after_key(bytes: &[u8], from: usize, line_end: usize) -> Option<usize> {
    let line = bytes.get(from..line_end)?;
    let colon = memchr::memchr_iter(b':', line).find(|&at| matches!(line.get(at + 1), Some(b' ' | b'\t')))?;
    let mut i = from + colon + 2;
    while matches!(bytes.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    matches!(bytes.get(i), Some(b'[' | b'{')).then_some(i)
}

/// The offset of the closing quote of the scalar opened at `start` (or the end of the text).
fn skip_quoted(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut i = start + 1;
    while let Some(&b) = bytes.get(i) {
        if quote == b'"' && b == b'\\' {
            i += 2;
            continue;
        }
        if b == quote {
            if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') {
                i += 2;
                continue;
            }
            return i;
        }
        i += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::yaml_exceeds;

    #[test]
    fn finds_deep_flow_and_dash_chains() {
        assert_eq!(yaml_exceeds(&format!("a: {}", "[".repeat(10)), 5), Some(8));
        assert_eq!(yaml_exceeds(&"- ".repeat(10), 5), Some(10));
        assert_eq!(yaml_exceeds(&"{".repeat(10), 5), Some(5));
    }

    #[test]
    fn ignores_brackets_in_scalars_and_comments() {
        let text = "a: see [docs] and [[more\nb: '[[[[[[['\nc: [1, \"]]]]\", [2]] # [[[[[[[[\n- x: [[[]]]\n";
        assert_eq!(yaml_exceeds(text, 3), None);
    }
}
