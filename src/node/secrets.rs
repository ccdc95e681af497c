//! How the node names secrets: the rule a `${NAME}` of its config must follow, the name the
//! scaffolds give a scheme's credential, and the wallet mnemonic's.

use heck::ToShoutySnakeCase;

/// The secrets.env name of the node's wallet mnemonic.
pub const MNEMONIC_SECRET: &str = "AIRNODE_WALLET_MNEMONIC";

/// Whether `name` matches `^[A-Z][A-Z0-9_]*$`, the node's rule for secret names.
pub fn is_secret_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The secrets.env name for a scheme of an OIS: SHOUTY_SNAKE_CASE of title and scheme, made to fit
/// `^[A-Z][A-Z0-9_]*$` (the node's rule for secret names).
pub fn secret_name(title: &str, scheme: &str) -> String {
    let raw = format!("{title} {scheme}").to_shouty_snake_case();
    let mut name = String::new();
    for c in raw.chars() {
        let c = if c.is_ascii_uppercase() || c.is_ascii_digit() { c } else { '_' };
        if !(c == '_' && (name.is_empty() || name.ends_with('_'))) {
            name.push(c);
        }
    }
    let name = name.trim_end_matches('_').to_owned();
    match name.chars().next() {
        Some(c) if c.is_ascii_uppercase() => name,
        _ => format!("API_{name}").trim_end_matches('_').to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names_fit_the_node_rule() {
        assert_eq!(secret_name("CoinGecko Pro", "apiKeyHeader"), "COIN_GECKO_PRO_API_KEY_HEADER");
        assert_eq!(secret_name("1inch", "key"), "API_1INCH_KEY");
        assert_eq!(secret_name("Café API", "x-key"), "CAF_API_X_KEY");
        for name in ["A", "API_1INCH_KEY"] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in ["", "1A", "a", "A-B", "_A", "É"] {
            assert!(!is_secret_name(name), "{name}");
        }
    }
}
