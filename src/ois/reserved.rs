//! The reserved parameters as the node reads them (`@api3/airnode-adapter` 0.15): the `_type`
//! grammar, and the escape-aware split of `_type`, `_path` and `_times` into their parts. The
//! validator's traps and the response preview both use these, so they cannot disagree.

/// The types the node can encode, before any `[]`.
pub(crate) const BASE_TYPES: [&str; 9] =
    ["int256", "uint256", "bool", "bytes32", "address", "bytes", "string", "string32", "timestamp"];

/// A `_type` the node accepts: a base type and how many array dimensions follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SolidityType<'a> {
    pub base: &'a str,
    pub dimensions: usize,
}

impl SolidityType<'_> {
    /// `int256` or `uint256` (and arrays of them): the types `_times` can multiply.
    pub fn is_numeric(&self) -> bool {
        self.base == "int256" || self.base == "uint256"
    }
}

/// Parses one `_type` such as `int256`, `string32` or `uint256[2][]`; `None` for what the node
/// rejects (an unknown base, a size of 0, anything after or around the brackets).
pub(crate) fn parse_type(kind: &str) -> Option<SolidityType<'_>> {
    let (base, mut rest) = kind.split_at(kind.find('[').unwrap_or(kind.len()));
    if !BASE_TYPES.contains(&base) {
        return None;
    }
    let mut dimensions = 0;
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[')?;
        let close = inner.find(']')?;
        let size = inner.get(..close)?;
        let size_ok = size.is_empty() || (size.bytes().all(|b| b.is_ascii_digit()) && size.parse::<u64>().ok()? > 0);
        if !size_ok {
            return None;
        }
        dimensions += 1;
        rest = inner.get(close + 1..)?;
    }
    Some(SolidityType { base, dimensions })
}

/// The adapter's `escapeAwareSplit`: split on `delimiter` except after `\`, then unescape
/// `\delimiter`.
pub(crate) fn escape_aware_split(value: &str, delimiter: char) -> Vec<String> {
    let chars: Vec<char> = value.chars().collect();
    let mut tokens: Vec<String> = Vec::new();
    let mut pos = 0;
    // JavaScript's global match of `(\\.|[^\\d])*`: greedy matches, empty ones skipping a character.
    while pos <= chars.len() {
        let mut end = pos;
        loop {
            match chars.get(end) {
                Some('\\') if end + 1 < chars.len() => end += 2,
                Some(&c) if c != '\\' && c != delimiter => end += 1,
                _ => break,
            }
        }
        tokens.push(chars.get(pos..end).map(|s| s.iter().collect()).unwrap_or_default());
        pos = if end == pos { pos + 1 } else { end };
    }
    let keep: Vec<bool> = (0..tokens.len())
        .map(|i| {
            !(tokens.get(i).is_some_and(String::is_empty) && i > 0 && tokens.get(i - 1).is_some_and(|p| !p.is_empty()))
        })
        .collect();
    let escaped = format!("\\{delimiter}");
    tokens.into_iter().zip(keep).filter(|(_, k)| *k).map(|(t, _)| t.replace(&escaped, &delimiter.to_string())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types() {
        let parsed = |kind| parse_type(kind).map(|t| (t.base, t.dimensions));
        assert_eq!(parsed("int256"), Some(("int256", 0)));
        assert_eq!(parsed("uint256[2][]"), Some(("uint256", 2)));
        assert_eq!(parsed("int8"), None);
        assert_eq!(parsed("int256[0]"), None);
        assert_eq!(parsed("int256[x]"), None);
        assert_eq!(parsed("int256[]x"), None);
        assert_eq!(parsed(" int256"), None);
        assert_eq!(parsed("int256[99999999999999999999]"), None);
    }

    #[test]
    fn escape_aware_split_like_the_adapter() {
        assert_eq!(escape_aware_split("a,b", ','), ["a", "b"]);
        assert_eq!(escape_aware_split("price,str,", ','), ["price", "str", ""]);
        assert_eq!(escape_aware_split("100,,", ','), ["100", "", ""]);
        assert_eq!(escape_aware_split("comma\\,key,price", ','), ["comma,key", "price"]);
        assert_eq!(escape_aware_split(",a", ','), ["", "a"]);
        // `a\\,b` is an escaped backslash, then a delimiter: two parts, as the adapter splits it.
        assert_eq!(escape_aware_split("a\\\\,b", ','), ["a\\\\", "b"]);
    }
}
