//! JavaScript's text primitives the node's code leans on.

/// JavaScript's `encodeURIComponent`.
pub fn encode_uri_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// JavaScript's `\s`: what the real validator's regexes treat as whitespace.
pub fn is_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// What `parseInt` read: the sign and the digits (in its radix), before they become a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedInt {
    /// A `-` came before the digits (so `-0` is negative here, though `-0 >= 0` in JavaScript).
    pub negative: bool,
    /// The digits read, up to the first character that is not one.
    pub digits: String,
}

/// JavaScript's `parseInt(text, radix)` up to the number it makes: leading whitespace skipped, a
/// sign, `0x` read as hex when the radix is not given (or is 16), digits up to the first other
/// character. `None` where JavaScript gives `NaN`. Radixes other than 10 and 16 are not needed.
pub fn parse_int(text: &str, radix: Option<u32>) -> Option<ParsedInt> {
    let trimmed = text.trim_start_matches(is_whitespace);
    let (negative, rest) = match trimmed.as_bytes().first() {
        Some(b'-') => (true, trimmed.get(1..).unwrap_or_default()),
        Some(b'+') => (false, trimmed.get(1..).unwrap_or_default()),
        _ => (false, trimmed),
    };
    let prefixed = rest.starts_with("0x") || rest.starts_with("0X");
    let (radix, body) = match radix {
        None | Some(16) if prefixed => (16, rest.get(2..).unwrap_or_default()),
        None => (10, rest),
        Some(radix) => (radix, rest),
    };
    let digits: String = body.chars().take_while(|c| c.is_digit(radix)).collect();
    (!digits.is_empty()).then_some(ParsedInt { negative, digits })
}
