//! Raw bytes → an API's answer read where it lies in its text, as a big answer is read: the
//! value (or the message) each `_path` finds there is what the answer's value gives. The first
//! line is the `_path`; the rest is the answer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (path, answer) = text.split_once('\n').unwrap_or(("", &text));
    let path = (!path.is_empty()).then_some(path);
    if let Some(disagreement) = ois::request::text_and_value_disagree(answer, path) {
        panic!("{path:?} in {answer:?}: {disagreement}");
    }
});
