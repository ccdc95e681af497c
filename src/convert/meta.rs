//! The root fields: `title` made to fit `^[\s\w-]{1,64}$`, `version` made x.y.z.

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Fix};
use crate::ois::FormatFamily;
use crate::ois::rules::{MAX_TITLE, is_semver, is_title};

/// `--title` (which must already fit) or `info.title` made to fit.
pub(super) fn title(
    root: &Value,
    given: Option<&str>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<String, Diagnostic> {
    if let Some(given) = given {
        if is_title(given) {
            return Ok(given.to_owned());
        }
        return Err(Diagnostic::elsewhere(
            Code::BadTitle,
            format!("the title \"{given}\" must be 1-64 ASCII letters, digits, `_`, `-` or spaces"),
        ));
    }
    let original = root.pointer("/info/title").and_then(Value::as_str).unwrap_or_default();
    let title = sanitize_title(original);
    if title != original {
        diagnostics.push(
            Diagnostic::new(
                Code::TitleChanged,
                "/info/title",
                format!("title \"{original}\" became \"{title}\" to fit the OIS title rule"),
            )
            .with_help("Airnode Feed derives endpoint IDs from the title")
            .with_fix(Fix::ChooseTitle),
        );
    }
    Ok(title)
}

/// Keeps ASCII letters, digits, `_`, `-` and single spaces; punctuation between two letters or
/// digits becomes `_` (`api.github.com` → `api_github_com`), anything else is dropped.
pub(crate) fn sanitize_title(original: &str) -> String {
    let chars: Vec<char> = original.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let keep = c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if keep {
            out.push(c);
        } else if c.is_whitespace() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            let before = i.checked_sub(1).and_then(|j| chars.get(j)).is_some_and(char::is_ascii_alphanumeric);
            let after = chars.get(i + 1).is_some_and(char::is_ascii_alphanumeric);
            if before && after {
                out.push('_');
            }
        }
    }
    let mut title: String = out.trim().chars().take(MAX_TITLE).collect();
    title.truncate(title.trim_end().len());
    if title.is_empty() { "API".to_owned() } else { title }
}

/// `--ois-version` (which must already be x.y.z) or `info.version` made x.y.z.
pub(super) fn version(
    root: &Value,
    given: Option<&str>,
    family: FormatFamily,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<String, Diagnostic> {
    if let Some(given) = given {
        if !is_semver(given, family) || given.split('.').any(str::is_empty) {
            return Err(Diagnostic::elsewhere(
                Code::BadVersion,
                format!("the OIS version \"{given}\" must be x.y.z with numeric parts"),
            ));
        }
        return Ok(given.to_owned());
    }
    let original = match root.pointer("/info/version") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    let version = normalize_version(&original);
    if version != original {
        diagnostics.push(
            Diagnostic::new(
                Code::VersionChanged,
                "/info/version",
                format!("version \"{original}\" became \"{version}\" (OIS needs x.y.z)"),
            )
            .with_fix(Fix::ChooseVersion),
        );
    }
    Ok(version)
}

/// `1.2.3` as is; `v2` → `2.0.0`; `1.4` → `1.4.0`; `1.0.0-beta` → `1.0.0`;
/// `2024-01-15` → `2024.1.15`; anything else → `1.0.0`.
pub(crate) fn normalize_version(original: &str) -> String {
    let text = original.trim();
    let date: Vec<&str> = text.split('-').collect();
    if let [year, month, day] = date.as_slice()
        && year.len() == 4
        && month.len() == 2
        && day.len() == 2
        && date.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
    {
        let number = |p: &str| p.trim_start_matches('0').parse::<u32>().unwrap_or(0);
        return format!("{}.{}.{}", number(year), number(month), number(day));
    }
    let text = text.strip_prefix(['v', 'V']).unwrap_or(text);
    let end = text.find(['-', '+', ' ']).unwrap_or(text.len());
    let (core, rest) = text.split_at(end);
    let parts: Vec<&str> = core.split('.').collect();
    let numeric = !core.is_empty()
        && parts.len() <= 3
        && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    if !numeric || (rest.starts_with(' ')) {
        return "1.0.0".to_owned();
    }
    let mut parts: Vec<String> = parts.iter().map(|p| (*p).to_owned()).collect();
    while parts.len() < 3 {
        parts.push("0".to_owned());
    }
    parts.join(".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn titles() {
        assert_eq!(sanitize_title("GitHub v3 REST API"), "GitHub v3 REST API");
        assert_eq!(sanitize_title("api.github.com"), "api_github_com");
        assert_eq!(sanitize_title("Coinpaprika API (v1.5)"), "Coinpaprika API v1_5");
        assert_eq!(sanitize_title("  Multi\n  line\ttitle "), "Multi line title");
        assert_eq!(sanitize_title("ローン"), "API");
        assert_eq!(sanitize_title(&"a".repeat(70)).len(), 64);
    }

    #[test]
    fn versions() {
        assert_eq!(normalize_version("1.2.3"), "1.2.3");
        assert_eq!(normalize_version("v2"), "2.0.0");
        assert_eq!(normalize_version("1.4"), "1.4.0");
        assert_eq!(normalize_version("2024-01-15"), "2024.1.15");
        assert_eq!(normalize_version("1.0.0-beta.1"), "1.0.0");
        assert_eq!(normalize_version("latest"), "1.0.0");
        assert_eq!(normalize_version("1.2.3.4"), "1.0.0");
        assert_eq!(normalize_version(""), "1.0.0");
    }

    proptest! {
        #[test]
        fn any_title_becomes_valid(title in "\\PC{0,100}") {
            prop_assert!(is_title(&sanitize_title(&title)));
        }

        #[test]
        fn any_version_becomes_x_y_z(version in "\\PC{0,20}") {
            let normalized = normalize_version(&version);
            let parts: Vec<&str> = normalized.split('.').collect();
            prop_assert_eq!(parts.len(), 3);
            prop_assert!(parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())));
        }
    }
}
