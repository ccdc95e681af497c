//! The real Airnode Feed and Signed API as processes a test starts: each stopped when the test
//! ends however it ends, its log kept beside its config.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A node process, stopped when the test ends however it ends.
pub struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `node SCRIPT` in `dir` (where it reads `config/`), its output in `dir/node.log`.
pub fn start_node(script: &Path, dir: &Path, env: &[(&str, &str)]) -> Running {
    let log = std::fs::File::create(dir.join("node.log")).unwrap();
    let mut command = Command::new("node");
    command.arg(script).current_dir(dir).stdin(Stdio::null()).stdout(log.try_clone().unwrap()).stderr(log);
    command.env("LOG_FORMAT", "json").env("LOG_LEVEL", "info").env("LOG_COLORIZE", "false");
    for (name, value) in env {
        command.env(name, value);
    }
    Running(command.spawn().expect("node runs"))
}

/// The entry points of Airnode Feed and Signed API `version`, when they are installed (else the
/// test that needs them is skipped; in CI, `node_main` fails it).
pub fn feed_and_signed_api(version: &str) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    Some((super::node_main(version, "airnode-feed")?, super::node_main(version, "signed-api")?))
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `GET url` with a bearer token, as JSON; `None` while the server is not up or answers otherwise.
pub fn get_json(url: &str, token: &str) -> Option<Value> {
    let mut answer = ureq::get(url).header("Authorization", &format!("Bearer {token}")).call().ok()?;
    serde_json::from_str(&answer.body_mut().read_to_string().ok()?).ok()
}

pub fn log_of(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("node.log")).unwrap_or_default()
}

/// The Signed API's config for the Feed config `config`, by `ois scaffold signed-api` (the
/// Airnode from the mnemonic in `secrets`), in `dir/config/`, its secrets template filled with the
/// Feed's push token and `read_token`.
pub fn signed_api_config(dir: &Path, config: &Path, secrets: &Path, read_token: &str) {
    std::fs::create_dir_all(dir.join("config")).unwrap();
    let (api_config, api_secrets) = (dir.join("config/signed-api.json"), dir.join("config/secrets.env"));
    let made = super::ois()
        .args(["scaffold", "signed-api"])
        .arg(config)
        .arg("--secrets")
        .arg(secrets)
        .args(["--force", "-o"])
        .arg(&api_config)
        .arg("--secrets-out")
        .arg(&api_secrets)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let token = std::fs::read_to_string(secrets)
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix("SIGNED_API_LOCAL_AUTH_TOKEN=").map(str::to_owned))
        .expect("the signed API's token in the secrets");
    super::vendor::fill(
        &api_secrets,
        &[("SIGNED_API_LOCAL_AUTH_TOKEN", &token), ("REAL_TIME_TOKEN", read_token), ("OEV_TOKEN", "oev-t0ken")],
    );
}

/// The data the Signed API at `signed_api` serves for `airnode`, once it holds `expected` beacons
/// (60 s at most; the Feed's log, in `feed_dir`, in the failure).
pub fn pushed(
    signed_api: &str,
    airnode: &str,
    read_token: &str,
    expected: usize,
    feed_dir: &Path,
) -> serde_json::Map<String, Value> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let answer = get_json(&format!("{signed_api}/real-time/{airnode}"), read_token);
        let data = answer.as_ref().and_then(|a| a["data"].as_object().cloned()).unwrap_or_default();
        if data.len() >= expected {
            return data;
        }
        assert!(
            Instant::now() < deadline,
            "{} of {expected} beacons pushed in 60 s\nfeed log:\n{}",
            data.len(),
            log_of(feed_dir)
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Who signed a datum, as the Feed (and Airnode's signed-data gateway) signs it: `keccak256(abi.encodePacked(bytes32 templateId, uint256 timestamp, bytes
/// encodedValue))`, as an EIP-191 message.
pub fn signer(datum: &Value) -> alloy_primitives::Address {
    use alloy_primitives::{B256, Signature, U256, keccak256};
    let text = |key: &str| datum[key].as_str().unwrap();
    let template: B256 = text("templateId").parse().unwrap();
    let timestamp: U256 = text("timestamp").parse().unwrap();
    let value = alloy_primitives::hex::decode(text("encodedValue")).unwrap();
    let mut packed = template.to_vec();
    packed.extend_from_slice(&timestamp.to_be_bytes::<32>());
    packed.extend_from_slice(&value);
    let digest = keccak256(&packed);
    let signature: Signature = text("signature").parse().unwrap();
    signature.recover_address_from_msg(digest.as_slice()).unwrap()
}
