//! String rules exactly as the real validator applies them (its regexes use JavaScript's `\s`, and
//! its number checks use `parseInt`).

use crate::js::is_whitespace as is_js_whitespace;
use crate::ois::model::FormatFamily;

/// `@api3/ois`'s semver: three numeric parts. Before 3.0 an empty part slipped through.
pub(crate) fn is_semver(text: &str, family: FormatFamily) -> bool {
    let mut count = 0;
    let parts_ok = text.split('.').all(|part| {
        count += 1;
        (part.is_empty() && family == FormatFamily::V2_3)
            || (!part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
    });
    parts_ok && count == 3
}

/// [`is_semver`] as an ECMAScript pattern, for the JSON Schema.
pub(crate) fn semver_pattern(family: FormatFamily) -> &'static str {
    match family {
        FormatFamily::V2_3 => r"^[0-9]*\.[0-9]*\.[0-9]*$",
        FormatFamily::V3_0 => r"^[0-9]+\.[0-9]+\.[0-9]+$",
    }
}

/// An `oisFormat` of the family, as an ECMAScript pattern (see [`FormatFamily::of`]).
pub(crate) fn ois_format_pattern(family: FormatFamily) -> &'static str {
    match family {
        FormatFamily::V2_3 => r"^2\.3\.[0-9]*$",
        FormatFamily::V3_0 => r"^3\.0\.[0-9]+$",
    }
}

/// [`is_title`]: the real validator's own regex (ECMAScript `\s`, and `{1,64}` counts UTF-16
/// units, which for these characters are characters).
pub(crate) const TITLE_PATTERN: &str = r"^[\s\w-]{1,64}$";

/// [`is_path_key`] as an ECMAScript pattern.
pub(crate) const PATH_KEY_PATTERN: &str = r"^/\S*$";

/// [`is_http_token`] as an ECMAScript pattern.
pub(crate) const HTTP_TOKEN_PATTERN: &str = r"^[0-9A-Za-z!#$%&'*+\-.^_`|~]+$";

/// An endpoint parameter name: not empty, no (ECMAScript) whitespace.
pub(crate) const PARAMETER_NAME_PATTERN: &str = r"^\S+$";

/// The longest title, in UTF-16 units.
pub(crate) const MAX_TITLE: usize = 64;

/// `^[\s\w-]{1,64}$` with JavaScript's `\s`, counted in UTF-16 units as JavaScript does.
pub(crate) fn is_title(title: &str) -> bool {
    let length = title.encode_utf16().count();
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || is_js_whitespace(c);
    (1..=MAX_TITLE).contains(&length) && title.chars().all(allowed)
}

/// `@api3/ois` path keys: `/` followed by anything but whitespace.
pub(crate) fn is_path_key(path: &str) -> bool {
    path.starts_with('/') && !path.chars().any(is_js_whitespace)
}

/// The `{name}` placeholders of a path, as `@api3/ois` and the node's path parser read them: each
/// match of `/\{([^}]+)\}/g`, its leading `{`s and trailing `}` trimmed (lodash `trimStart` and
/// `trimEnd`), so `/x/{{id}}` has the placeholder `id`.
pub fn placeholders(path: &str) -> Vec<&str> {
    placeholder_matches(path).into_iter().map(|(_, name)| name).collect()
}

/// Each placeholder as matched (`{{id}`) and its name (`id`).
pub fn placeholder_matches(path: &str) -> Vec<(&str, &str)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = path.get(from..).and_then(|rest| rest.find('{')).map(|at| from + at) {
        let inner_start = open + 1;
        match path.get(inner_start..).and_then(|rest| rest.find('}')) {
            // `{}`: no match starts here; the search goes on after the `{`.
            Some(0) => from = inner_start,
            Some(length) => {
                let end = inner_start + length + 1;
                let (Some(matched), Some(inner)) = (path.get(open..end), path.get(inner_start..end - 1)) else { break };
                found.push((matched, inner.trim_start_matches('{')));
                from = end;
            }
            None => break,
        }
    }
    found
}

/// Whether `name` is an HTTP token (RFC 9110 `tchar`s), which Node's HTTP client requires of a
/// header name (`ERR_INVALID_HTTP_TOKEN` otherwise).
pub fn is_http_token(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// `Number.isInteger(parseInt(text)) && value >= 0` as the real validator computes it: leading
/// whitespace and trailing garbage are ignored; 2.3 gives no radix, so it also reads `0x` hex.
pub(super) fn js_parse_int_is_non_negative(text: &str, family: FormatFamily) -> bool {
    let radix = if family == FormatFamily::V2_3 { None } else { Some(10) };
    crate::js::parse_int(text, radix).is_some_and(|parsed| !parsed.negative || parsed.digits.chars().all(|c| c == '0'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use FormatFamily::*;

    #[test]
    fn placeholders_follow_the_real_regex() {
        assert_eq!(placeholders("/a/{id}/b/{x y}/{}/{z"), vec!["id", "x y"]);
        assert!(placeholders("/plain").is_empty());
        // `removeBraces`: every leading `{` goes, so `{{id}}` names `id` (its last `}` is left over).
        assert_eq!(placeholder_matches("/x/{{id}}"), vec![("{{id}", "id")]);
        assert_eq!(placeholders("/{a{b}/{{}/{}}/{c}"), vec!["a{b", "", "c"]);
    }

    #[test]
    fn http_tokens() {
        assert!(is_http_token("X-Api-Key") && is_http_token("a!#$%&'*+-.^_`|~9"));
        for bad in ["", "X Key", "X\r\nInjected: 1", "Käse", "a:b", "(x)"] {
            assert!(!is_http_token(bad), "{bad:?}");
        }
    }

    #[test]
    fn semver_and_its_2_3_bug() {
        assert!(is_semver("01.2.3", V3_0));
        assert!(!is_semver("1.0.", V3_0));
        assert!(is_semver("1.0.", V2_3));
        assert!(!is_semver("1.0", V2_3));
        assert!(!is_semver("1.0.0-beta", V3_0));
        assert!(!is_semver("v1.0.0", V3_0));
    }

    #[test]
    fn titles() {
        assert!(is_title("CoinGecko basic request"));
        assert!(is_title("tab\tand\u{a0}nbsp"));
        assert!(!is_title("Probe.API"));
        assert!(!is_title(""));
        assert!(!is_title(&"a".repeat(65)));
        assert!(!is_title("ローン"));
    }

    #[test]
    fn parse_int_leniency() {
        assert!(js_parse_int_is_non_negative("12abc", V3_0));
        assert!(js_parse_int_is_non_negative(" 7", V3_0));
        assert!(js_parse_int_is_non_negative("-0", V3_0));
        assert!(!js_parse_int_is_non_negative("-1", V3_0));
        assert!(!js_parse_int_is_non_negative("abc", V3_0));
        assert!(js_parse_int_is_non_negative("0x1f", V2_3));
        assert!(js_parse_int_is_non_negative("0x1f", V3_0)); // parseInt("0x1f", 10) is 0
    }
}
