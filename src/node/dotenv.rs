//! A secrets.env file read exactly as `dotenv.parse` 16 reads it (the node and Airnode Feed load
//! their secrets with it): its line regular expression run with JavaScript's semantics, then its
//! trimming, unquoting and `\n` expansion. Lines it does not understand are skipped, as there.
//!
//! JavaScript's `\s`, `\w`, `.`, `^` and `$` differ from the regex crate's: they are spelled out
//! below (`\s` includes U+FEFF but not U+0085; a line ends at `\n`, U+2028 or U+2029).

use std::sync::LazyLock;

use fancy_regex::Regex;

/// JavaScript's `\s` (WhiteSpace and LineTerminator), as a character-class body.
const SPACE: &str = r"\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
/// JavaScript's line terminators, as a character-class body.
const TERMINATOR: &str = r"\n\r\x{2028}\x{2029}";

/// dotenv's `LINE`, from JavaScript into the regex crate's syntax.
static LINE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    let s = format!("[{SPACE}]");
    let line_start = format!("(?<![^{TERMINATOR}])");
    let line_end = format!("(?![^{TERMINATOR}])");
    let pattern = format!(
        r#"{line_start}{s}*(?:export{s}+)?([A-Za-z0-9_.-]+)(?:{s}*={s}*?|:{s}+?)({s}*'(?:\\'|[^'])*'|{s}*"(?:\\"|[^"])*"|{s}*`(?:\\`|[^`])*`|[^#\r\n]+)?{s}*(?:#[^{TERMINATOR}]*)?{line_end}"#
    );
    Regex::new(&pattern).ok()
});

/// dotenv's `/^(['"`])([\s\S]*)\1$/mg`.
static QUOTED: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(&format!(r#"(?<![^{TERMINATOR}])(['"`])((?s:.)*)\1(?![^{TERMINATOR}])"#)).ok());

/// One `NAME=value` entry, with the 1-based line its name is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name, as written.
    pub name: String,
    /// The value, unquoted and expanded as dotenv does.
    pub value: String,
    /// The 1-based line of the name (`\r\n` and a lone `\r` each end one line).
    pub line: usize,
}

/// Why a text could not be read: only a pathological text makes the regular expression give up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooComplex {
    /// 1-based line where reading stopped.
    pub line: usize,
}

/// The entries of `text` in file order (a later one of the same name wins when they are
/// collected, as in dotenv's object).
pub fn parse(text: &str) -> Result<Vec<Entry>, TooComplex> {
    let (Some(line_regex), Some(quoted)) = (LINE.as_ref(), QUOTED.as_ref()) else {
        return Err(TooComplex { line: 1 });
    };
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    // Lines counted as the matches move forward, so a big file costs one pass.
    let mut counted = (0, 1);
    let mut line_of = |offset: usize| {
        let (from, line) = counted;
        let more = text.get(from..offset).map_or(0, |between| between.matches('\n').count());
        counted = (offset.max(from), line + more);
        counted.1
    };
    let mut entries = Vec::new();
    let mut reached = 0;
    for captures in line_regex.captures_iter(&text) {
        let captures = captures.map_err(|_| TooComplex { line: line_of(reached) })?;
        let (Some(whole), Some(name)) = (captures.get(0), captures.get(1)) else { continue };
        reached = whole.end();
        let raw = captures.get(2).map_or("", |value| value.as_str()).trim_matches(crate::js::is_whitespace);
        let unquoted = quoted.try_replacen(raw, 0, "$2").map_err(|_| TooComplex { line: line_of(name.start()) })?;
        let value = if raw.starts_with('"') {
            unquoted.replace("\\n", "\n").replace("\\r", "\r")
        } else {
            unquoted.into_owned()
        };
        // `obj["__proto__"] = "…"` sets nothing on a JavaScript object.
        if name.as_str() != "__proto__" {
            entries.push(Entry { name: name.as_str().to_owned(), value, line: line_of(name.start()) });
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<(String, String)> {
        parse(text).unwrap().into_iter().map(|e| (e.name, e.value)).collect()
    }

    fn one(text: &str) -> String {
        let all = values(text);
        assert_eq!(all.len(), 1, "{text:?} gave {all:?}");
        all.into_iter().next().unwrap().1
    }

    #[test]
    fn reads_what_dotenv_reads() {
        assert_eq!(one("K=abc # note"), "abc");
        assert_eq!(one("K=abc#def"), "abc");
        assert_eq!(one("K=\"a\\nb\""), "a\nb");
        assert_eq!(one("K='a\\nb'"), "a\\nb");
        assert_eq!(one("K=`x 'y' \"z\"`"), "x 'y' \"z\"");
        assert_eq!(one("export K=v"), "v");
        assert_eq!(one("K: v"), "v");
        assert_eq!(one("K=\"multi\nline\""), "multi\nline");
        assert_eq!(one("  K  =  spaced  "), "spaced");
        assert_eq!(one("K="), "");
        assert_eq!(one("\u{FEFF}K=bom"), "bom");
        assert_eq!(one("K='unterminated"), "'unterminated");
    }

    #[test]
    fn skips_what_dotenv_skips_and_numbers_lines() {
        let entries = parse("# comment\n\nnot a line\r\nA=1\rB=2\n__proto__=x\n").unwrap();
        let got: Vec<(&str, &str, usize)> =
            entries.iter().map(|e| (e.name.as_str(), e.value.as_str(), e.line)).collect();
        assert_eq!(got, [("A", "1", 4), ("B", "2", 5)]);
    }

    #[test]
    fn a_line_ends_where_javascript_says() {
        // U+2028 ends a comment and a line for `^`/`$`, U+0085 does not; neither ends a value.
        assert_eq!(values("A=x #c\u{2028}B=y"), [("A".to_owned(), "x".to_owned()), ("B".to_owned(), "y".to_owned())]);
        assert_eq!(one("A=x #c\u{85}B=y"), "x");
        assert_eq!(one("A=x\u{2028}B=y"), "x\u{2028}B=y");
    }
}
