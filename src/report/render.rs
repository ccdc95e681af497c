//! Text rendering in the style of rustc and cargo, by annotate-snippets: the message, where it is,
//! the source line with the spot marked, the JSON pointer and the help. Colour only on a terminal.

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};

use crate::diagnostic::{Diagnostic, Severity};
use crate::source::Source;

/// How text diagnostics are rendered.
#[derive(Clone, Copy, Debug, Default)]
pub struct RenderStyle {
    /// ANSI colours (only when writing to a terminal).
    pub color: bool,
}

/// Renders one diagnostic; `source` is the text it points into, when there is one:
///
/// ```text
/// warning[CNV030]: PUT /pets is skipped: OIS supports only get and post
///   --> petstore.yaml:12:5
///    |
/// 12 |     put:
///    |     ^^^
///    = note: at /paths/~1pets/put
///    = help: ... (ois explain CODE)
/// ```
pub fn render(diagnostic: &Diagnostic, style: RenderStyle, source: Option<&Source>) -> String {
    let level = match diagnostic.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    };
    // Messages and lines quote documents and APIs: nothing in them may act on a terminal.
    let message = crate::emit::printable(&diagnostic.message);
    let mut group = Group::with_title(level.primary_title(message.as_ref()).id(diagnostic.code.as_str()));
    let location = &diagnostic.location;
    let source = source.filter(|s| location.file.as_deref() == Some(s.name.as_str()));
    let mut header_fix = None;
    match (&location.file, location.line, location.column) {
        (Some(file), Some(line), Some(column)) => match source.and_then(|s| Some((s.line_text(line)?, s))) {
            Some((text, source)) => {
                let start = source.column_byte(line, column).unwrap_or(text.len());
                let span = token_span(text, start);
                let (part, span) = if text.len() > LONG_LINE { window(text, span) } else { (text, span) };
                // A credential's line shows its key, never the value after it; a token in a list
                // shows only what comes before it.
                let (part, span): (std::borrow::Cow<'_, str>, _) = match Secret::at(&location.pointer) {
                    Some(Secret::AfterKey) => {
                        (format!("{} ***", part.get(..span.end).unwrap_or_default()).into(), span)
                    }
                    Some(Secret::Element) => {
                        let before = part.get(..span.start).unwrap_or_default();
                        (format!("{before}***").into(), span.start..span.start + 3)
                    }
                    None => (crate::emit::printable_in_place(part), span),
                };
                if part.len() < text.len() {
                    // annotate-snippets names the column within the part it is given.
                    let shown = part.get(..span.start).map_or(0, |s| s.chars().count()) + 1;
                    header_fix = Some((format!("{file}:{line}:{shown}"), format!("{file}:{line}:{column}")));
                }
                let snippet = Snippet::source(part)
                    .line_start(line)
                    .path(file.as_str())
                    .annotation(AnnotationKind::Primary.span(span));
                group = group.element(snippet);
            }
            None => group = group.element(Origin::path(file.as_str()).line(line).char_column(column)),
        },
        (Some(file), _, _) => group = group.element(Origin::path(file.as_str())),
        _ => {}
    }
    if !location.pointer.is_empty() {
        group = group.element(Level::NOTE.message(format!("at {}", crate::emit::printable(&location.pointer))));
    }
    // Every help ends with the code's page, so the code can be looked up where it is read.
    let explain = format!("ois explain {}", diagnostic.code);
    let help = match diagnostic.full_help() {
        Some(help) => format!("{} ({explain})", crate::emit::printable(&help)),
        None => explain,
    };
    group = group.element(Level::HELP.message(help));
    let renderer = if style.color { Renderer::styled() } else { Renderer::plain() };
    let mut text = renderer.render(&[group]);
    if let Some((shown, real)) = header_fix {
        text = text.replacen(&shown, &real, 1);
    }
    text.push('\n');
    text
}

/// A value that is a secret (a credential, the wallet mnemonic, a signed API's token in a Feed or
/// a Signed API config, written out or not), so its source line may not be shown whole.
enum Secret {
    /// The value of a key (`"authToken": …`): the line shows the key.
    AfterKey,
    /// An item of a list (`"authTokens": [ … ]`): the line shows what comes before it.
    Element,
}

impl Secret {
    fn at(pointer: &str) -> Option<Secret> {
        let parent = pointer.rsplit_once('/').map_or("", |(parent, _)| parent);
        if ["/securitySchemeValue", "/airnodeWalletMnemonic", "/authToken"].iter().any(|end| pointer.ends_with(end)) {
            Some(Secret::AfterKey)
        } else if parent.ends_with("/authTokens") {
            Some(Secret::Element)
        } else {
            None
        }
    }
}

/// Lines longer than this (minified documents are one line of megabytes) are shown as a window
/// around the spot: annotate-snippets measures the whole line, which would cost milliseconds for
/// each of hundreds of diagnostics.
const LONG_LINE: usize = 1024;

/// Bytes of context kept either side of the spot in a long line.
const CONTEXT: usize = 240;

/// The part of `line` around `span`, with `span` moved into it.
fn window(line: &str, span: std::ops::Range<usize>) -> (&str, std::ops::Range<usize>) {
    let start = line.floor_char_boundary(span.start.saturating_sub(CONTEXT));
    let end = line.ceil_char_boundary(span.end.saturating_add(CONTEXT).min(line.len()));
    let part = line.get(start..end).unwrap_or_default();
    (part, span.start - start..span.end.min(end) - start)
}

/// The byte range of the token starting at byte `start` of `line`: a quoted string with its
/// quotes, or a word up to the next delimiter (at least one character).
fn token_span(line: &str, start: usize) -> std::ops::Range<usize> {
    let rest = line.get(start..).unwrap_or_default();
    let length = match rest.chars().next() {
        Some(quote @ ('"' | '\'')) => {
            let mut escaped = false;
            let close = rest.char_indices().skip(1).find(|&(_, c)| {
                let found = c == quote && !escaped;
                escaped = c == '\\' && !escaped;
                found
            });
            close.map_or(rest.len(), |(i, c)| i + c.len_utf8())
        }
        Some(_) => rest.find([':', ',', '}', ']', ' ', '\t']).filter(|&n| n > 0).unwrap_or(rest.len()),
        None => 0,
    };
    // A token runs to the next delimiter, which a hostile line may never have: the underline is
    // capped, so the rendered snippet (and its memory) stays small whatever the line.
    let length = length.max(usize::from(!rest.is_empty()));
    start..line.ceil_char_boundary(start + length.min(MAX_TOKEN))
}

/// The longest token underlined.
const MAX_TOKEN: usize = 120;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Code;

    #[test]
    fn renders_the_source_line_pointer_and_help() {
        let source = Source::from_text("api.yaml", None, "paths:\n  /pets:\n    put:\n      x: 1\n".to_owned());
        let mut diagnostic =
            Diagnostic::new(Code::MethodSkipped, "/paths/~1pets/put", "PUT /pets is skipped").with_help("use get");
        source.locate_diagnostic(&mut diagnostic);
        let text = render(&diagnostic, RenderStyle::default(), Some(&source));
        let expected = "note[CNV030]: PUT /pets is skipped\n --> api.yaml:3:5\n  |\n3 |     put:\n  |     ^^^\n  |\n  = note: at /paths/~1pets/put\n  = help: use get (ois explain CNV030)\n";
        assert_eq!(text, expected, "\n{text}");
    }

    #[test]
    fn a_secret_line_never_shows_its_value() {
        let tokens = [
            (
                "config.json",
                "{\"signedApis\": [\n  {\"authToken\": \"literal-push-token-77\"}]}",
                "/signedApis/0/authToken",
            ),
            (
                "signed-api.json",
                "{\"allowedAirnodes\": [\n  {\"authTokens\": [\"literal-push-token-77\"]}]}",
                "/allowedAirnodes/0/authTokens/0",
            ),
        ];
        for (name, json, pointer) in tokens {
            let source = Source::from_bytes(name, None, json.as_bytes().to_vec()).unwrap();
            let mut diagnostic = Diagnostic::new(Code::WrongType, pointer, "x");
            source.locate_diagnostic(&mut diagnostic);
            let shown = render(&diagnostic, RenderStyle::default(), Some(&source));
            assert!(!shown.contains("literal-push-token-77") && shown.contains("***"), "{shown}");
        }
        let credential = "/apiCredentials/0/securitySchemeValue";
        let mnemonic = "/nodeSettings/airnodeWalletMnemonic";
        let texts = [
            ("config.yaml", "apiCredentials:\n  - securitySchemeValue: hunter2-secret\n", credential),
            ("config.json", "{\"apiCredentials\": [\n  {\"securitySchemeValue\": \"hunter2-secret\"}]}", credential),
            ("config.json", "{\"nodeSettings\": {\n  \"airnodeWalletMnemonic\": \"hunter2 words\"}}", mnemonic),
        ];
        for (name, text, pointer) in texts {
            let source = Source::from_text(name, None, text.to_owned());
            let key = pointer.rsplit('/').next().unwrap_or_default();
            for code in [Code::LiteralSecret, Code::WrongType, Code::BadMnemonic] {
                let mut diagnostic = Diagnostic::new(code, pointer, "about the secret");
                source.locate_diagnostic(&mut diagnostic);
                let rendered = render(&diagnostic, RenderStyle::default(), Some(&source));
                assert!(rendered.contains(key) && !rendered.contains("hunter2"), "{rendered}");
            }
        }
    }

    #[test]
    fn renders_without_source_text() {
        let diagnostic = Diagnostic::new(Code::JsonSyntax, "", "invalid JSON").at(2, 7).in_file("a.json");
        let text = render(&diagnostic, RenderStyle::default(), None);
        assert!(text.starts_with("error[INP004]: invalid JSON\n"), "{text}");
        assert!(text.contains("a.json:2:7"), "{text}");
    }

    #[test]
    fn long_lines_are_shown_around_the_spot() {
        let line = format!("{{{}\"put\": {{}}, {}}}", "\"a\": 1, ".repeat(5000), "\"é\": 2, ".repeat(5000));
        let source = Source::from_text("min.json", None, line.clone());
        let mut diagnostic = Diagnostic::new(Code::MethodSkipped, "/put", "PUT is skipped");
        source.locate_diagnostic(&mut diagnostic);
        let column = line.find("\"put\"").unwrap() + 1;
        assert_eq!(diagnostic.location.column, Some(column));
        let text = render(&diagnostic, RenderStyle::default(), Some(&source));
        assert!(text.contains(&format!("--> min.json:1:{column}\n")), "{text}");
        assert!(text.contains("\"put\": {}"), "{text}");
        assert!(
            text.lines().any(|l| l.trim_start_matches(|c| c != '^').starts_with("^^^^^ ") || l.ends_with("^^^^^")),
            "{text}"
        );
        assert!(text.len() < 2_000, "the whole line was printed: {} bytes", text.len());
        assert!(!text.contains(":::"), "{text}");
        let styled = render(&diagnostic, RenderStyle { color: true }, Some(&source));
        assert!(styled.contains(&format!("min.json:1:{column}")), "{styled}");
    }

    #[test]
    fn token_spans() {
        assert_eq!(token_span(r#"  "a\"b": 1"#, 2), 2..8);
        assert_eq!(token_span("  put:", 2), 2..5);
        assert_eq!(token_span("x", 1), 1..1);
        // A line with no delimiter (100 MB of NUL bytes once took 2 GB to render): capped.
        assert_eq!(token_span(&"\0".repeat(10_000), 5), 5..5 + MAX_TOKEN);
        assert_eq!(token_span(&"é".repeat(200), 0).end % 2, 0, "on a character boundary");
    }

    #[test]
    fn a_huge_line_without_delimiters_renders_a_small_snippet() {
        let text = format!("{{\"x\": {}", "\0".repeat(2_000_000));
        let source = Source::from_bytes("huge.json", None, text.into_bytes()).unwrap();
        let diagnostic = source.parse().unwrap_err();
        let rendered = render(&diagnostic, RenderStyle::default(), Some(&source));
        assert!(rendered.len() < 4096, "{} bytes rendered", rendered.len());
    }
}
