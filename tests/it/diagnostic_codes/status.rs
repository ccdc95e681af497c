//! The cases of `ois status`'s codes: a Feed config (the metals example's feeds, its API answered
//! from the example's recordings) checked against a loopback Signed API serving what each case
//! needs — nothing, a datum signed by no one, one signed by the Airnode with another value, a
//! refusal. A datum signed by the Airnode is signed here with the key of the test mnemonic.

use std::path::Path;

use alloy_primitives::{B256, Signature, U256, eip191_hash_message, keccak256};
use serde_json::{Value, json};

use super::Shown;
use super::fixtures::text_blocks;
use crate::common;
use crate::common::server::{Server, answer};
use ois::Code;

const MNEMONIC: &str = "test test test test test test test test test test test junk";

/// The Feed config of the metals example, its secrets, and what `ois call` predicts of it.
fn deployment(dir: &Path) -> Value {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/metals");
    common::scratch::copy_dir(&examples, dir);
    let run = |args: &[&str]| {
        let output = common::ois().current_dir(dir).args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        output.stdout
    };
    run(&["scaffold", "feed", "metals.ois.json", "--all-feeds", "-o", "config.json", "-q"]);
    std::fs::write(dir.join("secrets.env"), format!("AIRNODE_WALLET_MNEMONIC={MNEMONIC}\nSIGNED_API_AUTH_TOKEN=t\n"))
        .unwrap();
    let called =
        run(&["call", "config.json", "--secrets", "secrets.env", "--replay", "recordings", "--format", "json"]);
    serde_json::from_slice(&called).unwrap()
}

/// What the Feed pushes for `template` at `timestamp` with `encoded`, signed with the key of
/// [`MNEMONIC`] (m/44'/60'/0'/0/0, as the Feed derives it).
pub(crate) fn signed(template: &str, timestamp: u64, encoded: &str) -> Value {
    signed_by(MNEMONIC, template, timestamp, encoded)
}

/// What a Feed on `phrase` pushes for `template` at `timestamp` with `encoded`.
fn signed_by(phrase: &str, template: &str, timestamp: u64, encoded: &str) -> Value {
    let mnemonic = coins_bip39::Mnemonic::<coins_bip39::English>::new_from_phrase(phrase).unwrap();
    let derived = mnemonic.derive_key("m/44'/60'/0'/0/0", None).unwrap();
    let key: &k256::ecdsa::SigningKey = derived.as_ref();
    let mut packed = template.parse::<B256>().unwrap().to_vec();
    packed.extend_from_slice(&U256::from(timestamp).to_be_bytes::<32>());
    packed.extend_from_slice(&alloy_primitives::hex::decode(encoded).unwrap());
    let digest = eip191_hash_message(keccak256(&packed));
    let (signature, recovery) = key.sign_prehash_recoverable(digest.as_slice()).unwrap();
    let signature = Signature::from((signature, recovery));
    json!({
        "airnode": ois::node::airnode_address(phrase).unwrap().to_checksum(None),
        "templateId": template,
        "timestamp": timestamp.to_string(),
        "encodedValue": encoded,
        "signature": format!("0x{}", alloy_primitives::hex::encode(signature.as_bytes())),
    })
}

/// `ois status` of the deployment against a Signed API answering `status` with `body`.
fn status(dir: &Path, status: &'static str, body: Value) -> Vec<Shown> {
    let text = body.to_string();
    let server = Server::start(move |_, stream| answer(stream, status, "application/json", "", text.as_bytes()));
    let output = common::ois()
        .current_dir(dir)
        .args(["status", "config.json", "--secrets", "secrets.env", "--replay", "recordings"])
        .args(["--signed-api-url", &server.base])
        .output()
        .unwrap();
    let printed = [output.stdout.as_slice(), b"\n\n", output.stderr.as_slice()].concat();
    let shown = text_blocks(&String::from_utf8_lossy(&printed));
    shown.into_iter().map(|(code, text)| (code, text.replace(&server.base, "http://127.0.0.1:PORT"))).collect()
}

/// A case for each of `ois status`'s codes.
pub fn cases() -> Vec<(Code, Vec<Shown>)> {
    let dir = tempfile::tempdir().unwrap();
    let called = deployment(dir.path());
    let beacons = called["beacons"].as_array().unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let data = |datum: &dyn Fn(&Value) -> Value| -> Value {
        let data: serde_json::Map<String, Value> =
            beacons.iter().map(|b| (b["beaconId"].as_str().unwrap().to_owned(), datum(b))).collect();
        json!({"count": data.len(), "data": data})
    };
    let text = |b: &Value, key: &str| b[key].as_str().unwrap().to_owned();
    let unsigned = data(&|b| {
        let mut datum = signed(&text(b, "templateId"), now, &text(b, "encodedValue"));
        datum["signature"] = json!(format!("0x{}", "11".repeat(65)));
        datum
    });
    let moved = data(&|b| signed(&text(b, "templateId"), now, &format!("0x{:064x}", 7)));
    vec![
        (Code::BeaconNotLive, status(dir.path(), "200 OK", json!({"count": 0, "data": {}}))),
        (Code::BeaconMisSigned, status(dir.path(), "200 OK", unsigned)),
        (Code::BeaconMoved, status(dir.path(), "200 OK", moved)),
        (Code::SignedApiUnusable, status(dir.path(), "401 Unauthorized", json!({"message": "Invalid auth token"}))),
    ]
}

/// A Feed run with another mnemonic than the config's pushes under another Airnode: `ois status`
/// finds each beacon's template there and names that Airnode.
#[test]
fn a_feed_on_another_mnemonic_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let called = deployment(dir.path());
    let other_phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow";
    let other = ois::node::airnode_address(other_phrase).unwrap().to_checksum(None);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let data: serde_json::Map<String, Value> = called["beacons"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(index, b)| {
            let datum =
                signed_by(other_phrase, b["templateId"].as_str().unwrap(), now, b["encodedValue"].as_str().unwrap());
            (format!("0x{index:064x}"), datum)
        })
        .collect();
    let theirs = json!({"count": data.len(), "data": data}).to_string();
    let listed = json!({"count": 2, "data": ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", other]}).to_string();
    let other_path = format!("/real-time/{other}");
    let server = Server::start(move |request, stream| {
        let body = match request.path() {
            "/airnodes" => listed.clone(),
            path if path == other_path => theirs.clone(),
            _ => r#"{"count": 0, "data": {}}"#.to_owned(),
        };
        answer(stream, "200 OK", "application/json", "", body.as_bytes());
    });
    let output = common::ois()
        .current_dir(dir.path())
        .args(["status", "config.json", "--secrets", "secrets.env", "--replay", "recordings", "--format", "json"])
        .args(["--signed-api-url", &server.base])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report = common::report_of("StatusReport", &output.stdout);
    for beacon in report["beacons"].as_array().unwrap() {
        assert_eq!(beacon["verdict"], "other signer", "{report}");
        assert_eq!(beacon["signer"], other.as_str(), "{report}");
    }
    let said = report["diagnostics"][0]["message"].as_str().unwrap();
    assert!(said.contains(&format!("pushed by Airnode {other}")) && said.contains("another mnemonic"), "{said}");
}
