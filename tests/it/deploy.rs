//! `ois scaffold deploy`: the folder a Feed config and its Signed API run from, as the nodes and
//! their images read it; one push token in both secrets files; what the user filled in kept when
//! written again; refused, with nothing written, when the Feed would start without a secret.

use std::path::Path;

use serde_json::Value;

use crate::common;
use crate::common::vendor::{MNEMONIC, deploy_with, vendor};

fn deploy(args: &[&str]) -> std::process::Output {
    common::ois().args(["scaffold", "deploy"]).args(args).output().unwrap()
}

/// The value of `name` in the secrets file at `path`.
fn secret(path: &Path, name: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().find_map(|line| line.strip_prefix(&format!("{name}="))).unwrap_or_default().to_owned()
}

#[test]
fn a_deployment_folder_holds_each_node_s_config_where_it_reads_it() {
    let server = vendor();
    let deployment =
        deploy_with(&server, &["price:symbol=string32:BTC"], &["--signed-api", "local=http://127.0.0.1:8090"]);
    let folder = deployment.dir.path().join("deployment");
    let (config, secrets) = (deployment.config.to_str().unwrap(), deployment.secrets.to_str().unwrap());
    let made = deploy(&[config, "--secrets", secrets, "-o", folder.to_str().unwrap()]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let said = String::from_utf8_lossy(&made.stderr);
    assert!(said.contains("Airnode Feed 4.6.0 and Signed API 4.6.0, 9 files"), "{said}");

    // The Feed's config as it was; the Signed API's for the Feed's Airnode.
    let copied: Value =
        serde_json::from_slice(&std::fs::read(folder.join("airnode-feed/config/airnode-feed.json")).unwrap()).unwrap();
    let original: Value = serde_json::from_slice(&std::fs::read(&deployment.config).unwrap()).unwrap();
    assert_eq!(copied, original);
    let signed_api: Value =
        serde_json::from_slice(&std::fs::read(folder.join("signed-api/config/signed-api.json")).unwrap()).unwrap();
    assert_eq!(signed_api["allowedAirnodes"][0]["address"], "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    assert_eq!(signed_api["version"], "4.6.0");

    // The push token the user chose, carried into both; the read tokens made; the key and mnemonic carried.
    let (feed_secrets, api_secrets) =
        (folder.join("airnode-feed/config/secrets.env"), folder.join("signed-api/config/secrets.env"));
    let token = secret(&feed_secrets, "SIGNED_API_LOCAL_AUTH_TOKEN");
    assert_eq!(token, "t0ken-5150");
    assert_eq!(secret(&api_secrets, "SIGNED_API_LOCAL_AUTH_TOKEN"), token);
    assert_eq!(secret(&api_secrets, "SIGNED_API_REAL_TIME_TOKEN").len(), 64);
    assert_eq!(secret(&feed_secrets, "AIRNODE_WALLET_MNEMONIC"), MNEMONIC);
    let read_token = secret(&api_secrets, "SIGNED_API_REAL_TIME_TOKEN");
    assert!(!said.contains(&read_token), "a token made is never shown");
    assert!(said.contains("made (written to the secrets files, never shown): SIGNED_API_REAL_TIME_TOKEN"), "{said}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for file in [&feed_secrets, &api_secrets] {
            assert_eq!(std::fs::metadata(file).unwrap().permissions().mode() & 0o777, 0o600, "{}", file.display());
        }
    }

    // Compose: the exact images, each config/ mounted where the image reads it, the port wired.
    let compose: Value =
        yaml_serde::from_str(&std::fs::read_to_string(folder.join("docker-compose.yml")).unwrap()).unwrap();
    let services = &compose["services"];
    assert_eq!(services["airnode-feed"]["image"], "api3/airnode-feed:4.6.0");
    assert_eq!(services["signed-api"]["image"], "api3/signed-api:4.6.0");
    assert_eq!(services["airnode-feed"]["volumes"][0], "./airnode-feed/config:/app/config:ro");
    assert_eq!(services["signed-api"]["volumes"][0], "./signed-api/config:/app/config:ro");
    assert_eq!(services["signed-api"]["environment"]["SERVER_PORT"], "8090");
    assert_eq!(services["airnode-feed"]["network_mode"], "service:signed-api");
    let package: Value =
        serde_json::from_slice(&std::fs::read(folder.join("signed-api/package.json")).unwrap()).unwrap();
    assert_eq!(package["dependencies"]["@api3/signed-api"], "4.6.0");
    assert!(std::fs::read_to_string(folder.join(".gitignore")).unwrap().contains("*/config/secrets.env"));
    // Nothing in the folder names where it was written: it can be moved as it is.
    let base = deployment.dir.path().display().to_string();
    for entry in walk(&folder) {
        let text = std::fs::read_to_string(&entry).unwrap();
        assert!(!text.contains(&base), "{} names {base}", entry.display());
    }

    // Written again: the same files, the tokens and what the user changed in the folder kept.
    std::fs::write(
        &api_secrets,
        std::fs::read_to_string(&api_secrets)
            .unwrap()
            .replace(&secret(&api_secrets, "SIGNED_API_REAL_TIME_TOKEN"), "chosen-read-token"),
    )
    .unwrap();
    let again = deploy(&[config, "--secrets", secrets, "-o", folder.to_str().unwrap()]);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert_eq!(secret(&feed_secrets, "SIGNED_API_LOCAL_AUTH_TOKEN"), token);
    assert_eq!(secret(&api_secrets, "SIGNED_API_REAL_TIME_TOKEN"), "chosen-read-token");

    // A link placed in the folder is never written through, even forced: nothing outside changes.
    #[cfg(unix)]
    {
        let outside = deployment.dir.path().join("outside.txt");
        std::fs::write(&outside, "untouched").unwrap();
        let compose = folder.join("docker-compose.yml");
        std::fs::remove_file(&compose).unwrap();
        std::os::unix::fs::symlink(&outside, &compose).unwrap();
        let forced = deploy(&[config, "--secrets", secrets, "-o", folder.to_str().unwrap(), "--force"]);
        assert_eq!(forced.status.code(), Some(1), "{}", String::from_utf8_lossy(&forced.stderr));
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "untouched");
    }
}

#[test]
fn a_folder_whose_feed_lacks_a_secret_is_not_written() {
    let server = vendor();
    let deployment = deploy_with(&server, &["price:symbol=string32:BTC"], &[]);
    let emptied = deployment.dir.path().join("half.env");
    std::fs::write(&emptied, format!("AIRNODE_WALLET_MNEMONIC={MNEMONIC}\nRATES_KEY_KEY=\n")).unwrap();
    let folder = deployment.dir.path().join("deployment");
    let refused = deploy(&[
        deployment.config.to_str().unwrap(),
        "--secrets",
        emptied.to_str().unwrap(),
        "-o",
        folder.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("error[OUT005]") && said.contains("without RATES_"), "{said}");
    assert!(!folder.exists(), "nothing written");
}

fn walk(folder: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() { files.extend(walk(&path)) } else { files.push(path) }
    }
    files
}

/// `ois status` against a Signed API that answers garbage, or too slowly: one clear error each,
/// within the time asked, and never the read token.
#[test]
fn a_signed_api_that_answers_garbage_or_late_is_said_in_time() {
    let server = vendor();
    let deployment =
        deploy_with(&server, &["price:symbol=string32:BTC"], &["--signed-api", "local=http://127.0.0.1:9"]);
    let folder = deployment.dir.path().join("deployment");
    let (config, secrets) = (deployment.config.to_str().unwrap(), deployment.secrets.to_str().unwrap());
    assert!(deploy(&[config, "--secrets", secrets, "-o", folder.to_str().unwrap()]).status.success());
    let read_token = secret(&folder.join("signed-api/config/secrets.env"), "SIGNED_API_REAL_TIME_TOKEN");
    let status = |url: &str| {
        let started = std::time::Instant::now();
        let output = common::ois()
            .current_dir(&folder)
            .args(["status", "airnode-feed/config/airnode-feed.json", "--secrets", "airnode-feed/config/secrets.env"])
            .args(["--signed-api-secrets", "signed-api/config/secrets.env", "--signed-api-url", url, "--timeout", "1"])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{said}");
        assert!(started.elapsed() < std::time::Duration::from_secs(8), "bounded: {said}");
        assert!(!said.contains(&read_token), "{said}");
        said
    };
    let garbage = common::server::Server::start(|_, stream| {
        common::server::answer(stream, "200 OK", "application/json", "", b"<html>not a signed api</html>")
    });
    assert!(status(&garbage.base).contains("error[CAL017]"));
    let slow = common::server::Server::start(|_, stream| {
        std::thread::sleep(std::time::Duration::from_secs(3));
        common::server::answer(stream, "200 OK", "application/json", "", b"{}")
    });
    let said = status(&slow.base);
    assert!(said.contains("error[CAL004]") || said.contains("timed out") || said.contains("time"), "{said}");
}
