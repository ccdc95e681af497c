//! `${…}` in an OIS. The node and Airnode Feed interpolate secrets over the whole config.json
//! when they start: an unescaped `${NAME}` anywhere is replaced by the secret NAME (loading fails
//! when there is none), and `\${` is how a literal `${` is written.

use serde_json::Value;

/// Whether `text` has a `${` the node would interpolate (one not preceded by `\`).
pub fn has_unescaped(text: &str) -> bool {
    crate::pointer::holds_template(text)
        && text.match_indices("${").any(|(at, _)| !text.get(..at).is_some_and(|before| before.ends_with('\\')))
}

/// `text` with a `\` before every `${`, so the node's interpolation gives back `text` as it is
/// (a `\${` already there becomes `\\${`, which the node reads as `\${`). `None` when `text` has
/// no `${`.
pub fn escape(text: &str) -> Option<String> {
    text.contains("${").then(|| text.replace("${", "\\${"))
}

/// Whether a `${` of `text` opens before the `}` that closes an earlier one. No escape survives
/// that: the node's un-escaping takes the inner `\${` as part of the outer template, so its `\`
/// stays in the text the node reads.
pub fn opens_inside_another(text: &str) -> bool {
    let mut open = false;
    let mut rest = text;
    while let Some(at) = rest.find(['$', '}']) {
        let after = rest.get(at..).unwrap_or_default();
        if after.starts_with("${") {
            if open {
                return true;
            }
            open = true;
            rest = after.get(2..).unwrap_or_default();
        } else {
            open &= !after.starts_with('}');
            rest = after.get(1..).unwrap_or_default();
        }
    }
    false
}

/// The pointers (below `at`) of every string and key of `value` with an unescaped `${`, in
/// document order; a key's pointer is the pointer of its value.
pub fn find_unescaped(value: &Value, at: &str, found: &mut Vec<String>) {
    crate::pointer::for_each_text(value, at, &mut |text, place| {
        if has_unescaped(text) {
            found.push(place.pointer());
        }
    });
}

/// Whether `at`, a pointer into an OIS, a list of them or a config, is an OIS's server URL: the
/// one place of an OIS where a `${NAME}` is the node's to fill (an RPC provider's key in its path,
/// `https://mainnet.infura.io/v3/${RPC_KEY}`), as Airnode and Airnode Feed fill their whole config.
pub fn is_server_url(at: &str) -> bool {
    let index = |segment: &str| !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
    let segments: Vec<&str> = at.split('/').skip(1).collect();
    let inside = match segments.as_slice() {
        ["ois", i, rest @ ..] if index(i) => rest,
        [i, rest @ ..] if index(i) => rest,
        all => all,
    };
    matches!(inside, ["apiSpecifications", "servers", i, "url"] if index(i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escapes_and_finds_templates() {
        assert!(has_unescaped("in ${Region}") && !has_unescaped("in \\${Region}") && !has_unescaped("$ {x}"));
        assert!(has_unescaped("\\${a} ${b}"));
        assert_eq!(escape("a ${x} \\${y}").as_deref(), Some("a \\${x} \\\\${y}"));
        assert_eq!(escape("no template {x} $"), None);
        assert!(opens_inside_another("a ${b ${c} d}") && opens_inside_another("${${"));
        assert!(
            !opens_inside_another("${a} ${b}") && !opens_inside_another("${a}${b}") && !opens_inside_another("$}${")
        );
        let mut found = Vec::new();
        find_unescaped(&json!({"a": ["\\${ok}", "${no}"], "k${": 1}), "", &mut found);
        assert_eq!(found, ["/a/1", "/k${"]);
    }

    #[test]
    fn a_server_url_is_found_in_an_ois_a_list_or_a_config() {
        for at in [
            "/apiSpecifications/servers/0/url",
            "/ois/2/apiSpecifications/servers/0/url",
            "/1/apiSpecifications/servers/3/url",
        ] {
            assert!(is_server_url(at), "{at}");
        }
        for at in [
            "/apiSpecifications/servers/0",
            "/ois/x/apiSpecifications/servers/0/url",
            "/endpoints/0/name",
            "/a/b/apiSpecifications/servers/0/url",
        ] {
            assert!(!is_server_url(at), "{at}");
        }
    }
}
