//! A config from someone else must never route the node's own secrets (hardening round five): the
//! mnemonic or a push token named where the node sends it elsewhere — a signed API's token or URL,
//! a template's value, another config's credential — is refused by `validate`, `call`, `scaffold
//! signed-api` and `call --compare` alike, and nothing is sent or written.

use std::path::Path;

use serde_json::{Value, json};

use crate::common;
use common::vendor::{Deployment, MNEMONIC, deploy, vendor};

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn write(path: &Path, config: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(config).unwrap()).unwrap();
}

fn ois(args: &[&str]) -> (bool, String, String) {
    let output = common::ois().args(args).output().unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.success(), text(&output.stdout), text(&output.stderr))
}

fn path(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The deployment's config with `at` set to `value`, its template IDs derived again (so that only
/// the secret's place is wrong).
fn with(deployment: &Deployment, at: &str, value: &str) {
    let mut config = read(&deployment.config);
    *config.pointer_mut(at).unwrap() = json!(value);
    write(&deployment.config, &config);
    let secrets = path(&deployment.secrets);
    let (ok, _, stderr) = ois(&["ids", path(&deployment.config), "--secrets", secrets, "--set", "--format", "json"]);
    assert!(ok || at.starts_with("/templates"), "{stderr}");
}

#[test]
fn the_mnemonic_where_the_feed_sends_it_is_refused_by_every_command() {
    let server = vendor();
    let deployment = deploy(&server, &["price:symbol=string32:BTC", "price:symbol=string32:ETH"]);
    let template = read(&deployment.config)["templates"].as_object().unwrap().keys().next().unwrap().clone();
    let places = [
        ("/signedApis/0/authToken".to_owned(), "${AIRNODE_WALLET_MNEMONIC}"),
        ("/signedApis/0/url".to_owned(), "http://127.0.0.1:9/${AIRNODE_WALLET_MNEMONIC}"),
        (format!("/templates/{template}/parameters/0/value"), "${AIRNODE_WALLET_MNEMONIC}"),
    ];
    let pristine = std::fs::read(&deployment.config).unwrap();
    for (at, value) in places {
        std::fs::write(&deployment.config, &pristine).unwrap();
        let at = at.as_str();
        with(&deployment, at, value);
        let config = path(&deployment.config);
        let (ok, stdout, stderr) = ois(&["validate", config, "--format", "json"]);
        assert!(!ok, "{at}: {stdout}");
        assert!(stdout.contains("\"OIS091\"") && stdout.contains(at), "{at}: {stdout}{stderr}");

        server.take();
        let secrets = path(&deployment.secrets);
        let (ok, _, stderr) = ois(&["call", config, "--secrets", secrets]);
        assert!(!ok && stderr.contains("OIS091"), "{at}: {stderr}");
        assert!(server.take().is_empty(), "{at}: a request was sent");
        assert!(!stderr.contains(MNEMONIC), "{at}: {stderr}");

        let out = deployment.dir.path().join("signed-api.json");
        let env = deployment.dir.path().join("signed-api.env");
        let args =
            ["scaffold", "signed-api", config, "--secrets", secrets, "-o", path(&out), "--secrets-out", path(&env)];
        let (ok, _, stderr) = ois(&args);
        assert!(!ok && stderr.contains("OIS091"), "{at}: {stderr}");
        assert!(!out.exists() && !env.exists(), "{at}: a Signed API config was written");
    }
}

#[test]
fn a_compared_config_never_sends_this_one_s_node_secrets_under_its_own_names() {
    let server = vendor();
    let deployment = deploy(&server, &["price:symbol=string32:BTC"]);
    // This config keeps the mnemonic and the push token under names of its own.
    let mut config = read(&deployment.config);
    config["nodeSettings"]["airnodeWalletMnemonic"] = json!("${SEED_WORDS}");
    config["signedApis"][0]["authToken"] = json!("${PUSH_TOKEN}");
    write(&deployment.config, &config);
    let secrets = std::fs::read_to_string(&deployment.secrets).unwrap();
    std::fs::write(&deployment.secrets, format!("{secrets}\nSEED_WORDS={MNEMONIC}\nPUSH_TOKEN=push-9921\n")).unwrap();
    // The other names them as its API's credential.
    for stolen in ["SEED_WORDS", "PUSH_TOKEN"] {
        let other = deployment.dir.path().join("other.json");
        let mut theirs = read(&deployment.config);
        theirs["nodeSettings"]["airnodeWalletMnemonic"] = json!("${AIRNODE_WALLET_MNEMONIC}");
        theirs["signedApis"][0]["authToken"] = json!("${SIGNED_API_LOCAL_AUTH_TOKEN}");
        theirs["apiCredentials"][0]["securitySchemeValue"] = json!(format!("${{{stolen}}}"));
        write(&other, &theirs);
        server.take();
        let args =
            ["call", path(&deployment.config), "--compare", path(&other), "--secrets", path(&deployment.secrets)];
        let (ok, stdout, stderr) = ois(&args);
        assert!(!ok && stderr.contains("OIS081"), "{stolen}: {stdout}{stderr}");
        let leaked = server.take().into_iter().filter(|r| r.header("x-api-key") != Some(common::vendor::KEY)).count();
        assert_eq!(leaked, 0, "{stolen}: sent under another key");
    }
    // A staging copy naming the same variables for its own node is compared as before.
    let staging = deployment.dir.path().join("staging.json");
    write(&staging, &read(&deployment.config));
    let args = ["call", path(&deployment.config), "--compare", path(&staging), "--secrets", path(&deployment.secrets)];
    let (ok, stdout, stderr) = ois(&args);
    assert!(ok, "{stdout}{stderr}");
}

/// `scaffold feed` writes no config from an OIS `validate` calls invalid: it says why, exit 1.
#[test]
fn a_feed_config_is_never_scaffolded_from_an_invalid_ois() {
    let dir = tempfile::tempdir().unwrap();
    let ois_file = dir.path().join("coins.ois.json");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/coins.yaml");
    assert!(ois(&["convert", path(&sample), "-o", path(&ois_file)]).0);
    let mut broken = read(&ois_file);
    // The config's template calls the first endpoint; the second is broken beyond its rules: a
    // pre-processing snippet that is no JavaScript.
    let endpoint = broken["endpoints"][0]["name"].as_str().unwrap().to_owned();
    broken["endpoints"][1]["preProcessingSpecificationV2"] =
        json!({"environment": "Node", "value": "async ({ endpointParameters ) => {", "timeoutMs": 1000});
    write(&ois_file, &broken);
    let (valid, stdout, _) = ois(&["validate", path(&ois_file), "--format", "json"]);
    assert!(!valid, "{stdout}");
    let config = dir.path().join("config.json");
    let feed = format!(
        "{endpoint}:ids=string32:bitcoin,vs_currencies=string32:usd,_type=string32:int256,_path=string32:bitcoin.usd"
    );
    let (ok, _, stderr) = ois(&["scaffold", "feed", path(&ois_file), "--feed", &feed, "-o", path(&config)]);
    assert!(!ok && stderr.contains("nothing was written"), "{stderr}");
    assert!(!config.exists());
    // An unescaped `${` in a text is what the scaffold mends itself: written escaped, with a note.
    broken["endpoints"][1].as_object_mut().unwrap().remove("preProcessingSpecificationV2");
    broken["endpoints"][0]["description"] = json!("costs ${PRICE}");
    write(&ois_file, &broken);
    let (ok, _, stderr) = ois(&["scaffold", "feed", path(&ois_file), "--feed", &feed, "-o", path(&config)]);
    assert!(ok, "{stderr}");
    assert!(std::fs::read_to_string(&config).unwrap().contains("costs \\\\${PRICE}"));
}
