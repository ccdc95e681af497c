//! The 20 real hand-written OIS files pass `ois validate` with no error in both format families.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use ois::FormatFamily;
use ois::Severity;
use ois::validate_value;

#[test]
fn real_examples_pass_in_both_families() {
    let dir = common::shared_dir().join("examples/ois");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("examples folder") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let mut ois: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        for family in [FormatFamily::V2_3, FormatFamily::V3_0] {
            ois["oisFormat"] = family.default_version().into();
            let validation = validate_value(&ois, None);
            let errors: Vec<_> = validation.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
            assert!(errors.is_empty(), "{} ({family:?}): {errors:#?}", path.display());
        }
        checked += 1;
    }
    assert_eq!(checked, 20);
}
