//! Thousands of diagnostics are a wall, not a report: a text report shows the first few of each
//! code in full, then one line per code for the rest, with counts by what they are about.

use std::collections::BTreeMap;

use indexmap::IndexMap;

use crate::diagnostic::{Code, Diagnostic, Severity};
pub use crate::diagnostic::{PER_CODE, Show};

/// One line per code whose diagnostics were not all shown: "… and 2,856 more CNV030: <summary>:
/// delete 1,204, patch 982, put 670" (the counts by subject, where the diagnostics have one).
pub fn more_lines(diagnostics: &[Diagnostic], shown: &[bool], min: Severity) -> String {
    let mut hidden: IndexMap<Code, (usize, IndexMap<&str, usize>)> = IndexMap::new();
    for (diagnostic, _) in diagnostics.iter().zip(shown).filter(|(d, shown)| !**shown && d.severity >= min) {
        let (count, subjects) = hidden.entry(diagnostic.code).or_default();
        *count += 1;
        if let Some(subject) = &diagnostic.subject {
            *subjects.entry(subject.as_str()).or_default() += 1;
        }
    }
    let mut out = String::new();
    for (code, (count, mut subjects)) in hidden {
        out.push_str(&format!("… and {} more {code}: {}", thousands(count), code.summary()));
        if !subjects.is_empty() {
            subjects.sort_by(|a, ak, b, bk| bk.cmp(ak).then(a.cmp(b)));
            let parts: Vec<String> = subjects.iter().map(|(s, n)| format!("{s} {}", thousands(*n))).collect();
            out.push_str(&format!(": {}", parts.join(", ")));
        }
        out.push('\n');
    }
    out
}

/// "by code: CNV030 2,859, CNV053 12 (ois explain CNV030 says more)" (in code order, the most
/// serious one explained), or nothing when there are none.
pub fn by_code(diagnostics: &[Diagnostic]) -> String {
    let mut counts: BTreeMap<Code, usize> = BTreeMap::new();
    for diagnostic in diagnostics {
        *counts.entry(diagnostic.code).or_default() += 1;
    }
    if counts.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = counts.iter().map(|(code, n)| format!("{code} {}", thousands(*n))).collect();
    // The most serious code first, as `rustc` points to `--explain`.
    let first = counts.keys().max_by_key(|code| (code.severity(), std::cmp::Reverse(**code)));
    let explain = first.map(|code| format!(" (ois explain {code} says more)")).unwrap_or_default();
    format!("by code: {}{explain}\n", parts.join(", "))
}

/// `1204` as `1,204`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skipped(method: &str) -> Diagnostic {
        Diagnostic::new(Code::MethodSkipped, "", format!("{method} skipped")).about(method)
    }

    #[test]
    fn shows_a_few_of_each_code_and_counts_the_rest() {
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        for method in ["put", "delete", "put", "patch", "delete", "put", "delete"] {
            diagnostics.push(skipped(method));
        }
        diagnostics.push(Diagnostic::new(Code::TitleChanged, "", "title"));
        let show = Show::new(Severity::Note, false);
        let mask = show.mask(&diagnostics);
        assert_eq!(mask, [true, true, true, false, false, false, false, true]);
        let expected = format!("… and 4 more CNV030: {}: delete 2, patch 1, put 1\n", Code::MethodSkipped.summary());
        assert_eq!(more_lines(&diagnostics, &mask, Severity::Note), expected);
        assert_eq!(by_code(&diagnostics), "by code: CNV030 7, CNV070 1 (ois explain CNV070 says more)\n");
        assert!(Show::new(Severity::Note, true).mask(&diagnostics).iter().all(|shown| *shown));
        assert!(Show::new(Severity::Error, false).mask(&diagnostics).iter().all(|shown| !*shown));
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(
            (thousands(0), thousands(999), thousands(1204), thousands(1234567)),
            ("0".into(), "999".into(), "1,204".into(), "1,234,567".into())
        );
    }
}
