//! How many values a text would become, counted before any is built: a `Value` costs 80 bytes
//! and more however short its text (`{}` is two bytes), so three bytes of hostile JSON could
//! cost a hundred times their size in memory. A text is parsed only when the values it would make
//! fit a budget that grows with its size ([`values_allowed`]); real documents and answers use a
//! fifth of it or less.

use super::Format;

/// Bytes of text per value beyond the allowance every text has: real OpenAPI documents hold one
/// value per 20 to 40 bytes, answers of prices and time series one per 8 to 12.
pub const BYTES_PER_VALUE: usize = 8;

/// Bytes of the input limit ([`super::max_input_bytes`]) per value every text may hold whatever
/// its size (65,536 values at the default limit).
pub const LIMIT_BYTES_PER_FREE_VALUE: u64 = 4096;

/// The values a text of `text_bytes` may become under the input limit `limit`.
pub fn values_allowed(text_bytes: usize, limit: u64) -> usize {
    let free = usize::try_from(limit / LIMIT_BYTES_PER_FREE_VALUE).unwrap_or(usize::MAX);
    free.saturating_add(text_bytes / BYTES_PER_VALUE)
}

/// How many values `text` becomes when parsed as `format` (for YAML, at most this many).
pub fn values_in(text: &str, format: Format) -> usize {
    match format {
        Format::Json => json_values(text.as_bytes()),
        Format::Yaml => yaml_values_at_most(text.as_bytes()),
    }
}

/// The values of a JSON text: the root, one per comma outside strings, and one per container
/// that is not empty (its first element or member). Exact for valid JSON; never less for text
/// that is not (whose parse fails anyway).
fn json_values(bytes: &[u8]) -> usize {
    let mut values = 1usize;
    let mut opened = false;
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        at += 1;
        if byte.is_ascii_whitespace() {
            continue;
        }
        if std::mem::take(&mut opened) && !matches!(byte, b']' | b'}') {
            values += 1;
        }
        match byte {
            b'"' => at = string_end(bytes, at),
            b'[' | b'{' => opened = true,
            b',' => values += 1,
            _ => {}
        }
    }
    values
}

/// Where a JSON string whose content starts at `from` ends (just after its closing quote).
pub(crate) fn string_end(bytes: &[u8], mut from: usize) -> usize {
    loop {
        match bytes.get(from..).and_then(|rest| memchr::memchr2(b'"', b'\\', rest)) {
            None => return bytes.len(),
            Some(offset) => {
                let found = from + offset;
                if bytes.get(found) == Some(&b'\\') {
                    from = found + 2;
                } else {
                    return found + 1;
                }
            }
        }
    }
}

/// No fewer than the values of a YAML text: every line, comma, `- ` and flow container may begin
/// one, and each `: ` may (a key and its value).
fn yaml_values_at_most(bytes: &[u8]) -> usize {
    let mut values = 1usize;
    let mut previous = b'\n';
    for &byte in bytes {
        let starts = match byte {
            b'\n' | b',' | b'[' | b'{' => 1,
            b' ' if matches!(previous, b'-' | b':') => 1,
            _ => 0,
        };
        values += starts;
        previous = byte;
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn counted(value: &serde_json::Value) -> usize {
        1 + match value {
            serde_json::Value::Array(items) => items.iter().map(counted).sum(),
            serde_json::Value::Object(members) => members.values().map(counted).sum(),
            _ => 0,
        }
    }

    fn json() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i32>().prop_map(serde_json::Value::from),
            "[\\[\\]{},:\"\\\\ a-z]{0,8}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
                prop::collection::vec(("[a-z,:\\[{\"]{0,4}", inner), 0..6)
                    .prop_map(|members| serde_json::Value::Object(members.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn a_json_text_is_counted_exactly_however_it_is_spaced(value in json(), pretty in any::<bool>()) {
            let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) };
            let text = text.map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(json_values(text.as_bytes()), counted(&value));
        }

        #[test]
        fn a_yaml_text_is_never_counted_short(value in json()) {
            let text = yaml_serde::to_string(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(yaml_values_at_most(text.as_bytes()) >= counted(&value), "{}", text);
            let flow = serde_json::to_string(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(yaml_values_at_most(flow.as_bytes()) >= json_values(flow.as_bytes()));
        }
    }

    #[test]
    fn the_budget_grows_with_the_text_and_the_limit() {
        assert_eq!(values_allowed(0, 256 * 1024 * 1024), 1 << 16);
        assert_eq!(values_allowed(400, 40960), 10 + 50);
        assert!(values_allowed(usize::MAX, u64::MAX) >= usize::MAX / BYTES_PER_VALUE);
    }
}
