//! Raw bytes → a recording file as `--replay`, `--check` and `ois mock` read it, then matched
//! against a request made from the rest of the input: reading, matching, naming and replaying a
//! recording from someone else never panics, and the reply is the recorded status and body (or
//! refused as denser than its size allows).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ois::call::recording::Recording;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // The first line is what is asked (`METHOD URL`); the rest is the recording's file.
    let (asked, file) = text.split_once('\n').unwrap_or(("GET https://api.example.com/", &text));
    let Ok(recording) = serde_json::from_str::<Recording>(file) else { return };
    let (method, url) = asked.split_once(' ').unwrap_or(("GET", asked));
    let headers = [("x-api-key".to_owned(), "k".to_owned())];
    let body = serde_json::json!({"id": 1});
    for exactly in [true, false] {
        let _ = recording.answers(method, url, &headers, Some(&body), exactly);
        let _ = recording.answers(method, url, &[], None, exactly);
    }
    let _ = recording.is_near(method, url);
    let _ = recording.credential_missing(url, &headers);
    let _ = recording.credential_query_names();
    let name = recording.file_name();
    assert!(!name.contains('/') && name.ends_with(".json"), "{name:?}");
    // A reply is the recorded status, or the answer refused as denser than its size allows.
    match recording.reply() {
        Ok(reply) => assert_eq!(reply.status, recording.response.status),
        Err(refused) => assert_eq!(refused.code, ois::Code::TooManyValues, "{}", refused.message),
    }
    let _ = recording.response.text();
});
