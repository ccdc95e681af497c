//! One diagnostic type for every stage: a stable [`Code`], a message, and a [`Location`] saying
//! which document it is about and where in it.
//!
//! Every code is stable: scripts and docs refer to it, so a code is never reused for a different
//! problem. Severity is a property of the code, so the same problem is always reported the same way.

mod codes;
mod fix;
mod show;

use std::fmt;

use serde::Serialize;
use serde::ser::SerializeStruct;

pub use codes::{Code, Stage};
pub use fix::Fix;
pub use show::{PER_CODE, Show};

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Information: a decision the tool made that the user may want to know about.
    Note,
    /// Something was dropped or changed; the output is still valid.
    Warning,
    /// The input (or this part of it) could not be used.
    Error,
}

impl Severity {
    /// `note`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Which document a diagnostic is about.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Document {
    /// The document the operation read: the input file, standard input, or the value passed in.
    #[default]
    Input,
    /// The `n`th file (0-based, in the order first referenced) that the input's `$ref`s pulled in.
    Referenced(usize),
    /// The OIS this tool generated (the self-check's findings); it has no text to point into.
    Output,
    /// No document: an option or argument, the environment, or a file being written.
    Elsewhere,
}

/// Where a diagnostic points: a document, an RFC 6901 pointer into it, and, once the text has been
/// searched, the file's display name with a 1-based line and column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// The document the pointer is into.
    pub document: Document,
    /// RFC 6901 pointer into the document (`""` is the root).
    pub pointer: String,
    /// Display name of the file, when known.
    pub file: Option<String>,
    /// 1-based line of the pointer in `file`.
    pub line: Option<usize>,
    /// 1-based column (in characters) of the pointer in `file`.
    pub column: Option<usize>,
}

impl Location {
    /// A pointer into the input document.
    pub fn input(pointer: impl Into<String>) -> Self {
        Location { pointer: pointer.into(), ..Location::default() }
    }

    /// A pointer into `document`.
    pub fn new(document: Document, pointer: impl Into<String>) -> Self {
        Location { document, pointer: pointer.into(), ..Location::default() }
    }

    /// The same document, the pointer extended by `tokens` (escaped as RFC 6901 asks).
    pub fn join<'t>(&self, tokens: impl IntoIterator<Item = &'t str>) -> Location {
        Location::new(self.document.clone(), crate::pointer::join(&self.pointer, tokens))
    }

    /// Whether a line and column can be looked up for it in the input's text.
    pub fn is_in_text(&self) -> bool {
        matches!(self.document, Document::Input | Document::Referenced(_))
    }
}

impl From<&str> for Location {
    fn from(pointer: &str) -> Self {
        Location::input(pointer)
    }
}

impl From<String> for Location {
    fn from(pointer: String) -> Self {
        Location::input(pointer)
    }
}

impl From<&String> for Location {
    fn from(pointer: &String) -> Self {
        Location::input(pointer.as_str())
    }
}

impl From<&Location> for Location {
    fn from(location: &Location) -> Self {
        location.clone()
    }
}

/// A problem or decision, anchored at a [`Location`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// The code's severity.
    pub severity: Severity,
    /// What happened, in a sentence a person can act on.
    pub message: String,
    /// What to do about it, when there is something to say.
    pub help: Option<String>,
    /// A setting of the caller's that would fix or change it; front ends name it their own way
    /// (see [`Diagnostic::settle_fix`]).
    pub fix: Option<Fix>,
    /// Where it is.
    pub location: Location,
    /// What it is about, where that varies within one code (the method of a skipped operation,
    /// the `in` of a skipped parameter): grouped reports count by it. Not part of the JSON form.
    pub subject: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at `location`: a [`Location`], or a pointer (`&str`, `String`) into the input
    /// document.
    pub fn new(code: Code, location: impl Into<Location>, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            help: None,
            fix: None,
            location: location.into(),
            subject: None,
        }
    }

    /// A diagnostic about no document (an option, the environment, an output file).
    pub fn elsewhere(code: Code, message: impl Into<String>) -> Self {
        Diagnostic::new(code, "", message).in_document(Document::Elsewhere)
    }

    /// Adds help text.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Says what it is about, for grouped counts.
    pub fn about(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    /// Names the setting that would fix it.
    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    /// Moves it to another document.
    pub fn in_document(mut self, document: Document) -> Self {
        self.location.document = document;
        self
    }

    /// Sets an explicit position (used where the parser itself reported it).
    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.location.line = Some(line);
        self.location.column = Some(column);
        self
    }

    /// Names the file it is about.
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.location.file = Some(file.into());
        self
    }

    /// Moves a diagnostic about a part of a document (one OIS of a config.json, say) to the whole
    /// document, `prefix` being the part's pointer.
    pub fn within(mut self, prefix: &str) -> Self {
        if self.location.document == Document::Input {
            self.location.pointer.insert_str(0, prefix);
        }
        self
    }

    /// The pointer into its document.
    pub fn pointer(&self) -> &str {
        &self.location.pointer
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Turns the [`Fix`] into help text, naming the setting with `name` (a CLI names its flags;
    /// the library's own wording is [`Fix::describe`]). Help already given comes first.
    pub fn settle_fix(&mut self, name: impl Fn(&Fix) -> String) {
        if let Some(fix) = self.fix.take() {
            self.help = Some(help_with(self.help.as_deref(), name(&fix)));
        }
    }

    /// The help text with the fix in the library's words.
    pub fn full_help(&self) -> Option<String> {
        match &self.fix {
            Some(fix) => Some(help_with(self.help.as_deref(), fix.describe())),
            None => self.help.clone(),
        }
    }
}

/// Help given, then what the fix says.
fn help_with(help: Option<&str>, fix: String) -> String {
    match help {
        Some(help) => format!("{help}; {fix}"),
        None => fix,
    }
}

/// `error[CNV001]: message (file:line:column, at /pointer)`, then the help on its own line.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.severity.as_str(), self.code, self.message)?;
        let location = &self.location;
        let mut place = Vec::new();
        match (&location.file, location.line, location.column) {
            (Some(file), Some(line), Some(column)) => place.push(format!("{file}:{line}:{column}")),
            (Some(file), _, _) => place.push(file.clone()),
            _ => {}
        }
        if !location.pointer.is_empty() {
            place.push(format!("at {}", location.pointer));
        }
        if !place.is_empty() {
            write!(f, " ({})", place.join(", "))?;
        }
        if let Some(help) = self.full_help() {
            write!(f, "\nhelp: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// The JSON form every report prints, one shape whatever the command: `code`, `severity`,
/// `pointer`, `message`, `help`, `file`, `line`, `column`, each always there (`null` when it has
/// none), so that a script reads every command's diagnostics alike.
impl Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let help = self.full_help();
        let location = &self.location;
        let mut out = serializer.serialize_struct("Diagnostic", 8)?;
        out.serialize_field("code", &self.code)?;
        out.serialize_field("severity", &self.severity)?;
        out.serialize_field("pointer", &location.pointer)?;
        out.serialize_field("message", &self.message)?;
        out.serialize_field("help", &help)?;
        out.serialize_field("file", &location.file)?;
        out.serialize_field("line", &location.line)?;
        out.serialize_field("column", &location.column)?;
        out.end()
    }
}

/// The shape [`Diagnostic`]'s `Serialize` writes.
impl schemars::JsonSchema for Diagnostic {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Diagnostic".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let code = generator.subschema_for::<Code>();
        let severity = generator.subschema_for::<Severity>();
        let text_or_null = schemars::json_schema!({"type": ["string", "null"]});
        let number_or_null = schemars::json_schema!({"type": ["integer", "null"], "minimum": 1});
        schemars::json_schema!({
            "description": "One problem or decision, the same shape in every report.",
            "type": "object",
            "properties": {
                "code": code,
                "severity": severity,
                "pointer": {"description": "RFC 6901 pointer into the document it is about (`\"\"`: the root).", "type": "string"},
                "message": {"type": "string"},
                "help": text_or_null,
                "file": text_or_null,
                "line": number_or_null,
                "column": number_or_null,
            },
            "required": ["code", "severity", "pointer", "message", "help", "file", "line", "column"],
            "additionalProperties": false,
        })
    }
}

/// Counts by severity, for summaries and exit codes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Counts {
    /// Diagnostics of severity error.
    pub errors: usize,
    /// Diagnostics of severity warning.
    pub warnings: usize,
    /// Diagnostics of severity note.
    pub notes: usize,
}

impl Counts {
    /// Counts `diagnostics` by severity.
    pub fn of(diagnostics: &[Diagnostic]) -> Self {
        let mut counts = Counts::default();
        for diagnostic in diagnostics {
            match diagnostic.severity {
                Severity::Error => counts.errors += 1,
                Severity::Warning => counts.warnings += 1,
                Severity::Note => counts.notes += 1,
            }
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = HashSet::new();
        for code in Code::ALL {
            let text = code.as_str();
            assert!(seen.insert(text), "duplicate code {text}");
            assert_eq!(text.len(), 6, "{text}");
            assert!(text[3..].chars().all(|c| c.is_ascii_digit()), "{text}");
            assert!(!code.summary().is_empty());
        }
    }

    #[test]
    fn displays_as_one_line_with_its_place_and_help() {
        let diagnostic = Diagnostic::new(Code::MethodSkipped, "/paths/~1a/put", "PUT /a is skipped")
            .in_file("api.yaml")
            .at(3, 5)
            .with_help("OIS has get and post")
            .with_fix(Fix::ChooseTitle);
        assert_eq!(
            diagnostic.to_string(),
            "note[CNV030]: PUT /a is skipped (api.yaml:3:5, at /paths/~1a/put)\n\
             help: OIS has get and post; set ConvertOptions::title to choose it yourself"
        );
        let error: &dyn std::error::Error = &diagnostic;
        assert!(error.to_string().starts_with("note[CNV030]"));
    }

    #[test]
    fn serializes_in_the_report_shape_with_the_fix_settled() {
        let mut diagnostic =
            Diagnostic::new(Code::VersionChanged, "/info/version", "changed").with_fix(Fix::ChooseVersion);
        diagnostic.settle_fix(|_| "pass --ois-version".to_owned());
        let json = serde_json::to_string(&diagnostic).unwrap();
        assert_eq!(
            json,
            r#"{"code":"CNV071","severity":"note","pointer":"/info/version","message":"changed","help":"pass --ois-version","file":null,"line":null,"column":null}"#
        );
        // One shape: a diagnostic with no help and no file has the keys all the same.
        let bare = serde_json::to_value(Diagnostic::elsewhere(Code::BadArgument, "x")).unwrap();
        let keys: Vec<&str> = bare.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["code", "severity", "pointer", "message", "help", "file", "line", "column"]);
    }

    #[test]
    fn within_moves_only_input_pointers() {
        let moved = Diagnostic::new(Code::UnknownEndpoint, "/endpoints/1", "x").within("/ois/0");
        assert_eq!(moved.pointer(), "/ois/0/endpoints/1");
        let output = Diagnostic::new(Code::WrongType, "/title", "x").in_document(Document::Output).within("/ois/0");
        assert_eq!(output.pointer(), "/title");
    }
}
