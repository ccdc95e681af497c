//! The command line as scripts use it: exit codes, stdin, output files, reports.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::path::Path;

use predicates::prelude::*;

use common::ois;

#[test]
fn usage_errors_exit_2() {
    ois().arg("convert").assert().code(2);
    ois().args(["convert", "samples/coins.yaml", "--server-var", "novalue"]).assert().code(2);
    ois().args(["convert", "samples/coins.yaml", "--report", "xml"]).assert().code(2);
    ois().arg("frobnicate").assert().code(2);
}

#[test]
fn version_prints_the_tool_version() {
    ois().arg("--version").assert().success().stdout(predicate::str::contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn reads_stdin_and_names_it() {
    let text = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/coins.yaml")).expect("sample");
    ois()
        .args(["convert", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(predicate::str::contains("\"oisFormat\": \"3.0.0\""))
        .stderr(predicate::str::contains("<stdin>:3:3"));
}

#[test]
fn unconvertible_input_exits_1_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("broken.json");
    std::fs::write(&input, "{\"openapi\": \"3.0.0\", \"paths\": ").expect("write");
    let output = dir.path().join("out.json");
    ois()
        .arg("convert")
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error[INP004]"))
        .stderr(predicate::str::contains("broken.json:1:"));
    assert!(!output.exists());
    assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 1, "no temporary files left behind");
}

#[test]
fn output_file_is_not_overwritten_without_force() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = dir.path().join("out.json");
    std::fs::write(&output, "keep me").expect("write");
    ois()
        .args(["convert", "samples/coins.yaml", "-o"])
        .arg(&output)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error[OUT001]"));
    assert_eq!(std::fs::read_to_string(&output).expect("read"), "keep me");
    ois().args(["convert", "samples/coins.yaml", "--force", "-o"]).arg(&output).assert().success().stdout("");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&output).expect("read")).expect("JSON");
    assert_eq!(written["title"], "Coin Prices API demo");
}

#[test]
fn yaml_extension_writes_yaml() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = dir.path().join("out.yml");
    ois().args(["convert", "samples/regions.json", "-o"]).arg(&output).assert().success();
    let text = std::fs::read_to_string(&output).expect("read");
    // Quoted: YAML 1.1's float pattern (digits and dots) would take 3.0.0 for a number.
    assert!(text.starts_with("oisFormat: '3.0.0'\n"), "{text}");
}

#[test]
fn strict_is_the_same_for_one_document_and_a_batch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    // samples/orders.json has warnings; coins.yaml too: under --strict neither is written.
    ois()
        .args(["convert", "samples/orders.json", "samples/coins.yaml", "--strict", "-o"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error[OUT003]: strict:"));
    let written: Vec<_> =
        std::fs::read_dir(&out).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(written.is_empty(), "a strict batch wrote {written:?}");
}

#[test]
fn a_refused_output_leaves_no_secrets_template_behind() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (output, secrets) = (dir.path().join("existing.json"), dir.path().join("s.env"));
    std::fs::write(&output, "keep").expect("write");
    ois()
        .args(["convert", "samples/coins.yaml", "-o"])
        .arg(&output)
        .arg("--secrets-out")
        .arg(&secrets)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error[OUT001]"));
    assert!(!secrets.exists(), "the secrets template was written though the OIS was not");
    assert_eq!(std::fs::read_to_string(&output).expect("read"), "keep");
}

#[test]
fn strict_fails_on_warnings_and_writes_nothing() {
    ois()
        .args(["convert", "samples/orders.json", "--strict"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("error[OUT003]: strict: 9 warning(s), so nothing was written"));
    // A document without warnings passes --strict (notes are fine).
    let clean = r#"{"openapi": "3.0.0", "info": {"title": "Clean", "version": "1.0.0"},
        "servers": [{"url": "https://api.example.com"}, {"url": "https://b.example.com"}],
        "paths": {"/a": {"get": {"operationId": "a"}}}}"#;
    ois().args(["convert", "-", "--strict"]).write_stdin(clean).assert().success();
}

#[test]
fn quiet_shows_only_errors() {
    ois().args(["convert", "samples/orders.json", "-q"]).assert().success().stderr("");
}

#[test]
fn json_report_has_codes_positions_and_counts() {
    let output = ois().args(["convert", "samples/auth.yaml", "--report", "json"]).output().expect("runs");
    assert!(output.status.success());
    let report: serde_json::Value = serde_json::from_slice(&output.stderr).expect("JSON report");
    assert_eq!(report["status"], "ok");
    assert_eq!(report["summary"]["operations_kept"], 7);
    assert_eq!(report["counts"]["warnings"], 6);
    let first = &report["diagnostics"][0];
    assert_eq!(first["code"], "CNV051");
    assert_eq!(first["severity"], "warning");
    assert_eq!(first["pointer"], "/paths/~1admin/post/requestBody/content");
    assert_eq!((first["line"].as_u64(), first["column"].as_u64()), (Some(47), Some(9)));
}

#[test]
fn relative_server_without_base_url_names_the_flag() {
    ois()
        .args(["convert", "samples/weather-3.1.yaml"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error[CNV002]"))
        .stderr(predicate::str::contains("--base-url"));
}

#[test]
fn closed_stdout_ends_quietly() {
    // `ois convert big.json | head -c 10`: the reader goes away; no panic message.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ois"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["convert", common::shared_dir().join("corpus/github/api.github.com.json").to_str().unwrap(), "-q"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn validate_exit_codes_and_kinds() {
    let examples = common::shared_dir().join("examples/ois");
    ois()
        .arg("validate")
        .arg(examples.join("coinlayer.json"))
        .assert()
        .success()
        .stdout(predicate::str::contains(": valid"));
    // A 1.0.0 OIS is of no supported family.
    ois()
        .arg("validate")
        .arg(examples.join("amberdata.json"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("error[OIS004]"))
        .stdout(predicate::str::contains("amberdata.json:2:3"));
    ois().arg("validate").assert().code(2);
    ois().args(["validate", "--ois-format", "9.9", "x.json"]).assert().code(2);
}

#[test]
fn validate_checks_a_config_from_stdin_as_json() {
    let config = r#"{"ois": [{"oisFormat": "3.0.0", "title": "A", "version": "1.0.0",
        "apiSpecifications": {"servers": [{"url": "https://a.example"}], "paths": {"/x": {"get": {"parameters": []}}},
          "components": {"securitySchemes": {"k": {"type": "apiKey", "in": "query", "name": "k"}}}, "security": {"k": []}},
        "endpoints": [{"name": "x", "operation": {"method": "get", "path": "/x"}, "fixedOperationParameters": [],
          "reservedParameters": [{"name": "_type"}], "parameters": []}]}],
      "apiCredentials": [{"oisTitle": "a", "securitySchemeName": "k", "securitySchemeValue": "${K}"}]}"#;
    let output = ois().args(["validate", "-", "--format", "json"]).write_stdin(config).output().expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let reports: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let report = &reports[0];
    assert_eq!(
        (report["file"].as_str(), report["kind"].as_str(), report["valid"].as_bool()),
        (Some("-"), Some("config"), Some(false))
    );
    let codes: Vec<&str> =
        report["diagnostics"].as_array().expect("list").iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["OIS061", "OIS063"]);
    assert_eq!(report["diagnostics"][0]["pointer"], "/apiCredentials/0/oisTitle");
    assert_eq!(report["diagnostics"][0]["line"], 6);
}

#[test]
fn validate_forced_family() {
    let examples = common::shared_dir().join("examples/ois");
    // coinlayer is 3.0.0: checked as 2.3 its oisFormat is wrong.
    ois()
        .args(["validate", "--ois-format", "2.3"])
        .arg(examples.join("coinlayer.json"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("error[OIS004]"));
}

#[test]
fn request_reads_secrets_and_interpolates_the_config_as_the_node() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.json");
    let converted = ois().args(["convert", "samples/coins.yaml", "--config", "-q"]).output().unwrap();
    let mut document: serde_json::Value = serde_json::from_slice(&converted.stdout).unwrap();
    // `\${` is the node's literal `${`; an unescaped one anywhere must name a secret.
    document["ois"][0]["endpoints"][0]["parameters"][0]["default"] = serde_json::json!("\\${literal}");
    std::fs::write(&config, document.to_string()).unwrap();
    let secrets = dir.path().join("secrets.env");
    std::fs::write(&secrets, "# dotenv syntax\nexport COIN_PRICES_API_DEMO_API_KEY_HEADER='sk live' # note\n").unwrap();
    let run = |config: &Path| {
        ois()
            .args(["request", "--endpoint", "simplePrice", "--param", "vs_currencies=usd", "--show-secrets"])
            .args(["--format", "json", "--secrets"])
            .arg(&secrets)
            .arg(config)
            .output()
            .unwrap()
    };
    let output = run(&config);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let request: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(request["headers"]["x-cg-demo-api-key"], "sk live");
    assert!(request["url"].as_str().unwrap().contains("ids=$%7Bliteral%7D"), "{}", request["url"]);

    document["ois"][0]["apiSpecifications"]["paths"]["/simple/price"]["get"]["summary"] = "in ${Region}".into();
    std::fs::write(&config, document.to_string()).unwrap();
    let output = run(&config);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Outside apiCredentials a `${` is never filled (it could send a secret anywhere): refused.
    assert!(stderr.contains("OIS060") && stderr.contains("/get/summary"), "{stderr}");

    std::fs::write(&secrets, "API_KEY=x\nlowercase=y\n").unwrap();
    let stderr = String::from_utf8_lossy(&run(&config).stderr).into_owned();
    assert!(stderr.contains("REQ013") && stderr.contains("line 2: lowercase"), "{stderr}");
}

#[test]
fn request_masks_secrets_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.json");
    let converted = ois().args(["convert", "samples/coins.yaml", "--config", "-q"]).output().unwrap();
    std::fs::write(&config, &converted.stdout).unwrap();
    let secrets = dir.path().join("secrets.env");
    std::fs::write(&secrets, "COIN_PRICES_API_DEMO_API_KEY_HEADER=sk-live-123\n").unwrap();
    let run = |extra: &[&str]| {
        ois()
            .args([
                "request",
                "--endpoint",
                "simplePrice",
                "--param",
                "ids=bitcoin",
                "--param",
                "vs_currencies=usd",
                "--secrets",
            ])
            .arg(&secrets)
            .arg(&config)
            .args(extra)
            .output()
            .unwrap()
    };
    let masked = run(&["--format", "json"]);
    assert!(masked.status.success(), "{}", String::from_utf8_lossy(&masked.stderr));
    let request: serde_json::Value = serde_json::from_slice(&masked.stdout).unwrap();
    assert_eq!(request["headers"]["x-cg-demo-api-key"], "****");
    // The document's defaults are not copied, so the node sends only what the requester gave.
    assert_eq!(request["url"], "https://api.coins.example/api/v3/simple/price?ids=bitcoin&vs_currencies=usd");
    assert!(!String::from_utf8_lossy(&masked.stdout).contains("sk-live-123"));
    let shown: serde_json::Value =
        serde_json::from_slice(&run(&["--format", "json", "--show-secrets"]).stdout).unwrap();
    assert_eq!(shown["headers"]["x-cg-demo-api-key"], "sk-live-123");
    let curl = run(&["--format", "curl"]);
    assert!(String::from_utf8_lossy(&curl.stdout).starts_with("curl \\\n  'https://api.coins.example/"));
    // With --defaults the optional parameters' defaults are written, and the node sends them
    // first, as in `{...defaults, ...parameters}`; the required `vs_currencies` never gets one.
    let with_defaults = ois().args(["convert", "samples/coins.yaml", "--config", "-q", "--defaults"]).output().unwrap();
    std::fs::write(&config, &with_defaults.stdout).unwrap();
    let request: serde_json::Value = serde_json::from_slice(&run(&["--format", "json"]).stdout).unwrap();
    assert_eq!(
        request["url"],
        "https://api.coins.example/api/v3/simple/price?precision=2&include_market_cap=false&ids=bitcoin&vs_currencies=usd"
    );
}

#[test]
fn request_errors_exit_1() {
    let example = common::shared_dir().join("examples/ois/coingecko-public.json");
    ois()
        .args(["request", "--endpoint", "nope"])
        .arg(&example)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error[REQ001]: Endpoint: 'nope' not found in the OIS."));
    ois()
        .args(["request", "--endpoint", "coinMarketData"])
        .arg(&example)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error[REQ002]"));
    ois()
        .args(["request", "--endpoint", "coinMarketData", "--param-json", "coinId=notjson"])
        .arg(&example)
        .assert()
        .code(1);
}

/// A config.json's OIS is at /ois/N: what `ois request` says about it points there, at the line
/// it is on (it used to say `/endpoints/1` at line 1).
#[test]
fn request_locates_its_errors_in_a_config() {
    let example = common::shared_dir().join("examples/ois/coingecko-public.json");
    let ois_value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(example).unwrap()).unwrap();
    let config = serde_json::json!({"ois": [ois_value], "apiCredentials": []});
    let text = serde_json::to_string_pretty(&config).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.json");
    std::fs::write(&path, &text).unwrap();
    let endpoints = ois_value["endpoints"].as_array().unwrap();
    let index = endpoints.iter().position(|e| e["name"] == "coinMarketData").expect("the example has coinMarketData");
    // The line of that endpoint's `{` in the pretty text: the index-th object of the endpoints list.
    let endpoints_line = text.lines().position(|l| l.trim_start().starts_with("\"endpoints\"")).unwrap();
    let line = text
        .lines()
        .enumerate()
        .skip(endpoints_line + 1)
        .filter(|(_, l)| l.trim() == "{" && l.len() - l.trim_start().len() == 8)
        .nth(index)
        .map(|(n, _)| n + 1)
        .unwrap();
    let output = ois().args(["request", "--endpoint", "coinMarketData"]).arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("error[REQ002]"), "{stderr}");
    assert!(stderr.contains(&format!("= note: at /ois/0/endpoints/{index}\n")), "{stderr}");
    assert!(stderr.contains(&format!("config.json:{line}:9")), "line {line}: {stderr}");
    let unknown = ois().args(["request", "--endpoint", "nope"]).arg(&path).output().unwrap();
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(stderr.contains("= note: at /ois/0/endpoints\n"), "{stderr}");
    assert!(!stderr.contains("config.json:1:1"), "{stderr}");
}

#[test]
fn request_with_a_response_preview() {
    let dir = tempfile::tempdir().unwrap();
    let response = dir.path().join("response.json");
    std::fs::write(&response, r#"{"market_data": {"current_price": {"usd": 43210.123456789}}}"#).unwrap();
    let example = common::shared_dir().join("examples/ois/coingecko-public.json");
    let output = ois()
        .args([
            "request",
            "--endpoint",
            "coinMarketData",
            "--param",
            "coinId=bitcoin",
            "--format",
            "json",
            "--response",
        ])
        .arg(&response)
        .arg(&example)
        .output()
        .unwrap();
    assert!(output.status.success());
    let request: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(request["response"]["values"][0], "43210123456");
    assert_eq!(request["response"]["encoded"], format!("0x{:064x}", 43_210_123_456u64));
}

#[test]
fn config_scaffold_validates_and_endpoint_ids_list() {
    let dir = tempfile::tempdir().unwrap();
    let converted = dir.path().join("auth.json");
    ois().args(["convert", "samples/auth.yaml", "-q", "-o"]).arg(&converted).assert().success();
    let config = dir.path().join("config.json");
    let secrets = dir.path().join("secrets.env");
    ois().arg("config").arg(&converted).arg("-o").arg(&config).arg("--secrets-out").arg(&secrets).assert().success();
    ois().arg("validate").arg(&config).assert().success();
    assert!(std::fs::read_to_string(&secrets).unwrap().contains("MARKET_DATA_BASIC=\n"));
    let example = common::shared_dir().join("examples/ois/coingecko-public.json");
    ois()
        .arg("endpoint-ids")
        .arg(&example)
        .assert()
        .success()
        .stdout("0xfb87102cdabadf905321521ba0b3cbf74ad09c5d400ac2eccdbef8d6143e78c4  CoinGecko basic request / coinMarketData\n");
}

#[test]
fn batch_converts_a_folder_in_parallel_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("nested")).unwrap();
    for sample in ["coins.yaml", "orders.json"] {
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(sample), input.join(sample)).unwrap();
    }
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/auth.yaml"), input.join("nested/auth.yaml"))
        .unwrap();
    std::fs::write(input.join("nested/fragment.yaml"), "Pet:\n  type: object\n").unwrap();
    std::fs::write(input.join("broken.json"), "{\"openapi\": ").unwrap();
    let out = dir.path().join("out");
    let output = ois().arg("convert").arg(&input).arg("-o").arg(&out).args(["--report", "json"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1), "one broken file fails the batch");
    let results: serde_json::Value = serde_json::from_slice(&output.stderr).unwrap();
    let statuses: Vec<(&str, &str)> = results
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["file"].as_str().unwrap().rsplit('/').next().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        statuses,
        [
            ("broken.json", "failed"),
            ("coins.yaml", "converted"),
            ("auth.yaml", "converted"),
            ("fragment.yaml", "skipped"),
            ("orders.json", "converted")
        ]
    );
    assert!(out.join("coins.ois.json").exists() && out.join("nested/auth.ois.json").exists());
    std::fs::remove_file(input.join("broken.json")).unwrap();
    // Existing outputs are not overwritten without --force.
    ois().arg("convert").arg(&input).arg("-o").arg(&out).assert().code(1).stderr(predicate::str::contains("OUT001"));
    ois().arg("convert").arg(&input).arg("-o").arg(&out).arg("--force").assert().success().stderr(
        predicate::str::contains(
            "3 converted, 0 with nothing to convert, 0 failed; 1 files that are not OpenAPI documents skipped",
        ),
    );
}

#[test]
fn filters_pick_operations() {
    let run = |args: &[&str]| {
        let output = ois().args(["convert", "samples/coins.yaml", "-q"]).args(args).output().unwrap();
        let ois: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        ois["endpoints"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(run(&["--include", "GET /coins/*"]), ["coinsId", "coinsMarkets"]);
    // Names are settled over the whole document, so a filter never renames an endpoint.
    assert_eq!(run(&["--include", "GET /coins/**"]), ["coinsId", "getCoinsIdHistory", "coinsMarkets", "simplePrice2"]);
    assert_eq!(
        run(&["--include", "id:coinsMarkets", "--include", "id:simplePrice"]),
        ["simplePrice", "coinsMarkets", "simplePrice2"]
    );
    assert_eq!(run(&["--exclude", "/coins/**"]), ["simplePrice"]);
    ois()
        .args(["convert", "samples/coins.yaml", "--include", "GET /a/["])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("CNV034"));
}

/// A document with `puts` put and `deletes` delete operations besides one get.
fn many_skipped(puts: usize, deletes: usize) -> String {
    let mut paths = serde_json::Map::new();
    paths.insert("/ok".into(), serde_json::json!({"get": {"operationId": "ok"}}));
    for i in 0..puts.max(deletes) {
        let mut item = serde_json::Map::new();
        if i < puts {
            item.insert("put".into(), serde_json::json!({}));
        }
        if i < deletes {
            item.insert("delete".into(), serde_json::json!({}));
        }
        paths.insert(format!("/r{i}"), serde_json::Value::Object(item));
    }
    serde_json::to_string_pretty(&serde_json::json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1.0.0"},
        "servers": [{"url": "https://api.example.com"}], "paths": paths}))
    .unwrap()
}

#[test]
fn text_reports_show_a_few_of_each_code_and_count_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("api.json");
    std::fs::write(&path, many_skipped(5, 2)).unwrap();
    let output = ois().arg("convert").arg(&path).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("note[CNV030]").count(), 3, "{stderr}");
    assert!(
        stderr.contains(
            "… and 4 more CNV030: an operation with a method other than get/post is skipped: put 3, delete 1\n"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("by code: CNV030 7 (ois explain CNV030 says more)\n"), "{stderr}");
    let verbose = ois().arg("convert").arg(&path).arg("--verbose").output().unwrap();
    let stderr = String::from_utf8_lossy(&verbose.stderr);
    assert_eq!(stderr.matches("note[CNV030]").count(), 7, "{stderr}");
    assert!(!stderr.contains("more CNV030"), "{stderr}");
    let json = ois().arg("convert").arg(&path).args(["--report", "json"]).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&json.stderr).unwrap();
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.iter().filter(|d| d["code"] == "CNV030").count(), 7);
    assert!(diagnostics.iter().all(|d| d["line"].is_number()), "every one located for JSON");
}

#[test]
fn validate_reports_group_too() {
    let dir = tempfile::tempdir().unwrap();
    let mut ois_value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("samples/expected/coins.ois.json").unwrap()).unwrap();
    for endpoint in ois_value["endpoints"].as_array_mut().unwrap() {
        endpoint["x-extra"] = serde_json::json!(1);
    }
    let path = dir.path().join("ois.json");
    std::fs::write(&path, serde_json::to_string_pretty(&ois_value).unwrap()).unwrap();
    let output = ois().arg("validate").arg(&path).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.matches("error[OIS003]").count(), 3, "{stdout}");
    assert!(stdout.contains("… and 2 more OIS003"), "{stdout}");
    assert!(stdout.contains("by code: OIS003 5"), "{stdout}");
    let verbose = ois().arg("validate").arg(&path).arg("-v").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&verbose.stdout).matches("error[OIS003]").count(), 5);
}

#[test]
fn filters_that_match_nothing_are_reported() {
    let output = ois()
        .args(["convert", "samples/coins.yaml", "--include", "GET /coins/{id}", "--include", "GET /nope"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("warning[CNV037]: the include filter \"GET /nope\" matched no operation"), "{stderr}");
    let ois_value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(ois_value["endpoints"].as_array().unwrap().len(), 1);
    // Alone, it leaves nothing, and the error says why.
    let alone = ois().args(["convert", "samples/coins.yaml", "--include", "GET /nope"]).output().unwrap();
    assert_eq!(alone.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&alone.stderr);
    assert!(stderr.contains("error[CNV032]: the include/exclude filters left none"), "{stderr}");
    assert!(stderr.contains("these matched nothing: include filter \"GET /nope\""), "{stderr}");
}

#[test]
fn scheme_descriptions_reach_the_report_and_the_secrets_template() {
    let dir = tempfile::tempdir().unwrap();
    let document = serde_json::json!({"openapi": "3.0.3", "info": {"title": "Quotes", "version": "1.0.0"},
        "servers": [{"url": "https://api.quotes.example"}],
        "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "Authorization",
            "description": "Enter the token with the `apikey ` prefix,\ne.g. \"apikey abc\".\n\nMore text."}}},
        "security": [{"key": []}], "paths": {"/q": {"get": {"operationId": "q"}}}});
    let path = dir.path().join("api.json");
    std::fs::write(&path, document.to_string()).unwrap();
    let secrets = dir.path().join("secrets.env");
    let output = ois().arg("convert").arg(&path).arg("--secrets-out").arg(&secrets).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "= help: the document says: key: Enter the token with the `apikey ` prefix, e.g. \"apikey abc\". (ois explain CNV023)\n"
        ),
        "{stderr}"
    );
    let template = std::fs::read_to_string(&secrets).unwrap();
    assert!(
        template.contains("# Quotes / key: the API key, sent as header \"Authorization\"\n# The API documentation says: Enter the token with the `apikey ` prefix, e.g. \"apikey abc\".\nQUOTES_KEY=\n"),
        "{template}"
    );
    // Written atomically like the OIS: an existing template is not replaced without --force.
    let again = ois().arg("convert").arg(&path).arg("--secrets-out").arg(&secrets).output().unwrap();
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("error[OUT001]"));
    assert!(again.stdout.is_empty(), "nothing is written when the template cannot be");
}

/// `security: [{headerAuth: []}, {queryAuth: []}]` keeps the first unless asked otherwise.
#[test]
fn security_alternatives_can_be_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let document = serde_json::json!({"openapi": "3.0.3", "info": {"title": "Alt", "version": "1.0.0"},
        "servers": [{"url": "https://api.alt.example"}],
        "components": {"securitySchemes": {
            "headerAuth": {"type": "apiKey", "in": "header", "name": "X-Key"},
            "queryAuth": {"type": "apiKey", "in": "query", "name": "key"}}},
        "security": [{"headerAuth": []}, {"queryAuth": []}],
        "paths": {"/a": {"get": {"operationId": "a"}}, "/b": {"get": {"operationId": "b", "security": [{"headerAuth": []}]}}}});
    let path = dir.path().join("api.json");
    std::fs::write(&path, document.to_string()).unwrap();
    let schemes = |extra: &[&str]| {
        let output = ois().arg("convert").arg(&path).args(extra).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let ois_value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
        let names: Vec<String> = ois_value["apiSpecifications"]["security"]
            .as_object()
            .map(|s| s.keys().cloned().collect())
            .unwrap_or_default();
        (output.status.code(), names, stderr)
    };
    assert_eq!(schemes(&[]).1, ["headerAuth"]);
    let (code, names, stderr) = schemes(&["--security", "queryAuth"]);
    assert_eq!((code, names), (Some(0), vec!["queryAuth".to_owned()]));
    assert!(stderr.contains("security for the whole API: queryAuth, as asked (satisfies 1 of the 2"), "{stderr}");
    assert!(stderr.contains("warning[CNV022]: GET /b accepts none of the chosen schemes"), "{stderr}");
    // Alternatives in order of preference: the first that serves the most.
    let (_, names, _) = schemes(&["--security", "queryAuth", "--security", "headerAuth"]);
    assert_eq!(names, ["headerAuth"]);
    let (code, names, stderr) = schemes(&["--security", "none"]);
    assert_eq!((code, names.len()), (Some(0), 0));
    assert!(stderr.contains("no security for the whole API, as asked"), "{stderr}");
    let (code, _, stderr) = schemes(&["--security", "nope"]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("error[CNV025]: security scheme \"nope\" was asked for"), "{stderr}");
    assert!(stderr.contains("the document's schemes are: headerAuth, queryAuth"), "{stderr}");
}

/// A batch writes exactly what converting each file on its own writes (the batch text report shows
/// fewer positions, never other output).
#[test]
fn batch_output_equals_single_file_output() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap();
    let samples = ["coins.yaml", "orders.json", "auth.yaml", "regions.json"];
    for sample in samples {
        std::fs::copy(Path::new("samples").join(sample), inputs.join(sample)).unwrap();
    }
    let out = dir.path().join("out");
    let batch =
        ois().args(["convert", "--base-url", "https://base.example", "-o"]).arg(&out).arg(&inputs).output().unwrap();
    assert!(batch.status.success(), "{}", String::from_utf8_lossy(&batch.stderr));
    for sample in samples {
        let single =
            ois().args(["convert", "--base-url", "https://base.example"]).arg(inputs.join(sample)).output().unwrap();
        let stem = sample.rsplit_once('.').unwrap().0;
        let written = std::fs::read(out.join(format!("{stem}.ois.json"))).unwrap();
        assert_eq!(written, single.stdout, "{sample}");
    }
}

#[test]
fn a_failed_write_to_stdout_is_an_error_and_a_closed_pipe_is_not() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        return;
    }
    let ois_file = "samples/expected/coins.ois.json";
    let commands: [&[&str]; 5] = [
        &["convert", "samples/coins.yaml"],
        &["validate", ois_file],
        &["endpoint-ids", ois_file],
        &["config", ois_file],
        &["request", ois_file, "--endpoint", "simplePrice", "--param", "ids=x", "--param", "vs_currencies=usd"],
    ];
    for args in commands {
        let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("ois"))
            .args(args)
            .stdout(std::fs::File::create(full).expect("/dev/full opens"))
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("OUT002") && stderr.contains("standard output"), "{args:?}: {stderr}");
        // A reader that stops early is not a failure.
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ois"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("runs");
        drop(child.stdout.take());
        let status = child.wait().expect("ends");
        assert_eq!(status.code(), Some(0), "{args:?} with a closed pipe");
    }
}

/// Runs `ois` with a deadline: a hang is a failure, not a stuck test run.
#[cfg(unix)]
fn ois_within(args: &[&std::ffi::OsStr], seconds: u64) -> std::process::Output {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ois"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while child.try_wait().expect("waits").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("ois {args:?} did not finish within {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

#[cfg(unix)]
#[test]
fn a_batch_survives_fifos_link_loops_and_unreadable_folders() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = tempfile::tempdir().expect("temp dir");
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(specs.join("a")).expect("folders");
    std::fs::create_dir_all(specs.join("b")).expect("folders");
    std::fs::copy("samples/orders.json", specs.join("a/orders.json")).expect("copy");
    // A FIFO named like a document, and a document whose $ref names one: neither may block.
    let fifo = specs.join("b/pipe.json");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let referring = r##"{"openapi": "3.0.3", "info": {"title": "R", "version": "1.0.0"},
        "servers": [{"url": "https://r.example"}],
        "paths": {"/r": {"get": {"parameters": [{"$ref": "pipe.json#/P"}, {"name": "q", "in": "query"}]}}}}"##;
    std::fs::write(specs.join("b/refers.json"), referring).expect("write");
    // Two folders linking to each other, and one linking to its own parent.
    symlink(specs.join("b"), specs.join("a/to-b")).expect("link");
    symlink(specs.join("a"), specs.join("b/to-a")).expect("link");
    symlink(&specs, specs.join("a/up")).expect("link");
    // A folder that cannot be read (meaningless as root, who reads everything).
    let locked = specs.join("locked");
    std::fs::create_dir(&locked).expect("folder");
    std::fs::copy("samples/orders.json", locked.join("hidden.json")).expect("copy");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let root_user = std::fs::read_dir(&locked).is_ok();
    // A link to nothing cannot be read by anyone, root included.
    symlink(dir.path().join("nowhere"), specs.join("dangling")).expect("link");

    let out = dir.path().join("out");
    let os = std::ffi::OsStr::new;
    let args = [os("convert"), specs.as_os_str(), os("-o"), out.as_os_str(), os("--report"), os("json")];
    let output = ois_within(&args, 60);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod back");
    let report: serde_json::Value = serde_json::from_slice(&output.stderr).expect("a JSON report");
    let files: Vec<&str> =
        report.as_array().expect("results").iter().map(|r| r["file"].as_str().expect("file")).collect();
    // Each document once, whatever the links; the FIFO never read.
    let converted = |name: &str| files.iter().filter(|f| f.ends_with(name)).count();
    assert_eq!(converted("orders.json"), 1, "{files:?}");
    assert_eq!(converted("refers.json"), 1, "{files:?}");
    assert_eq!(converted("pipe.json"), 0, "{files:?}");
    let refers =
        report.as_array().unwrap().iter().find(|r| r["file"].as_str().unwrap().ends_with("refers.json")).unwrap();
    assert_eq!(refers["status"], "converted");
    assert!(refers["diagnostics"].as_array().unwrap().iter().any(|d| d["code"] == "INP012"), "{refers}");
    let dangling = report.as_array().unwrap().iter().find(|r| r["file"].as_str().unwrap().ends_with("dangling"));
    assert_eq!(dangling.expect("the unreadable link is reported under its own name")["status"], "failed");
    assert_eq!(output.status.code(), Some(1), "a folder that could not be read fails the batch at the end");
    if !root_user {
        let locked_result = report.as_array().unwrap().iter().find(|r| r["file"].as_str().unwrap().ends_with("locked"));
        let locked_result = locked_result.expect("the unreadable folder is reported under its own name");
        assert_eq!(locked_result["status"], "failed");
        assert_eq!(output.status.code(), Some(1));
    }
}

#[cfg(unix)]
#[test]
fn a_secrets_fifo_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("secrets.env");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let os = std::ffi::OsStr::new;
    let args = [
        os("request"),
        os("samples/expected/coins.ois.json"),
        os("--endpoint"),
        os("simplePrice"),
        os("--param"),
        os("ids=x"),
        os("--param"),
        os("vs_currencies=usd"),
        os("--secrets"),
        fifo.as_os_str(),
    ];
    let output = ois_within(&args, 30);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("INP012"));
}

#[cfg(unix)]
#[test]
fn an_interrupted_batch_leaves_no_temporary_files() {
    for delay_ms in [30, 80, 150, 250] {
        let out = tempfile::tempdir().expect("temp dir");
        let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ois"))
            .args([
                "convert",
                common::shared_dir().join("corpus").to_str().unwrap(),
                "--base-url",
                "https://api.example.com",
                "-q",
                "-o",
            ])
            .arg(out.path())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("runs");
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status();
        let status = child.wait_with_output().expect("ends").status;
        let mut leftovers = Vec::new();
        for entry in walkdir::WalkDir::new(out.path()).into_iter().flatten() {
            if entry.file_name().to_string_lossy().starts_with(".ois-") {
                leftovers.push(entry.path().display().to_string());
            }
        }
        assert!(leftovers.is_empty(), "after {delay_ms} ms: {leftovers:?}");
        // Finished before the signal, or stopped by it: by our handler once a file was being
        // written (130), by the signal itself before (the handler is installed at the first write).
        use std::os::unix::process::ExitStatusExt;
        let by_signal = status.signal() == Some(2);
        assert!(by_signal || matches!(status.code(), Some(0 | 1 | 130)), "after {delay_ms} ms: {status:?}");
    }
}

#[test]
fn requester_parameters_keep_their_command_line_order_and_last_value() {
    // As the node's parameter object: --param and --param-json interleaved as given, and a later
    // value of a name replacing the earlier one where it first stood.
    let output = ois()
        .args(["request", "samples/expected/coins.ois.json", "--endpoint", "simplePrice", "--format", "json"])
        .args(["--param-json", "vs_currencies=\"eur\"", "--param", "ids=x", "--param", "vs_currencies=usd"])
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let request: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(request["url"], "https://api.coins.example/api/v3/simple/price?vs_currencies=usd&ids=x");
}

#[cfg(unix)]
#[test]
fn output_files_are_written_only_as_regular_files_with_the_usual_modes() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt, symlink};
    let dir = tempfile::tempdir().expect("temp dir");
    let mode = |path: &Path| std::fs::metadata(path).expect("metadata").permissions().mode() & 0o777;
    // What any new file gets here (0666 less the umask).
    let probe = dir.path().join("probe");
    std::fs::File::create(&probe).expect("probe");
    let usual = mode(&probe);

    let new = dir.path().join("new.json");
    ois().args(["convert", "samples/orders.json", "-o"]).arg(&new).assert().success();
    assert_eq!(mode(&new), usual, "a new file gets the usual mode, not a temporary file's 0600");

    let kept = dir.path().join("kept.json");
    std::fs::write(&kept, "old").expect("write");
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    ois().args(["convert", "samples/orders.json", "--force", "-o"]).arg(&kept).assert().success();
    assert_eq!(mode(&kept), 0o640, "a replaced file keeps its mode");

    // A symlink is written through: the link stays, its target changes.
    let target = dir.path().join("target.json");
    std::fs::write(&target, "old").expect("write");
    let link = dir.path().join("link.json");
    symlink(&target, &link).expect("link");
    ois().args(["convert", "samples/orders.json", "--force", "-o"]).arg(&link).assert().success();
    assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
    assert!(std::fs::read_to_string(&target).expect("target").contains("oisFormat"));

    // A FIFO (like a device) is refused, not replaced by a file.
    let fifo = dir.path().join("pipe.json");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    ois()
        .args(["convert", "samples/orders.json", "--force", "-o"])
        .arg(&fifo)
        .assert()
        .failure()
        .stderr(predicate::str::contains("not a regular file"));
    assert!(std::fs::symlink_metadata(&fifo).expect("fifo").file_type().is_fifo());

    // `-` is standard output.
    let output = ois().args(["convert", "samples/orders.json", "-o", "-"]).output().expect("runs");
    assert!(String::from_utf8_lossy(&output.stdout).contains("oisFormat"));
}

#[test]
fn config_checks_every_target_before_writing_any() {
    let dir = tempfile::tempdir().expect("temp dir");
    let secrets = dir.path().join("secrets.env");
    std::fs::write(&secrets, "KEEP=me\n").expect("write");
    let config = dir.path().join("config.json");
    ois()
        .args(["config", "samples/expected/coins.ois.json", "-o"])
        .arg(&config)
        .arg("--secrets-out")
        .arg(&secrets)
        .assert()
        .failure()
        .stderr(predicate::str::contains("OUT001"));
    assert!(!config.exists(), "config.json was written although secrets.env could not be");
    assert_eq!(std::fs::read_to_string(&secrets).expect("read"), "KEEP=me\n");
}

#[test]
fn a_bad_ois_format_is_a_usage_error_listing_the_accepted_ones() {
    ois()
        .args(["convert", "samples/orders.json", "--ois-format", "2.3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("3.0.0").and(predicate::str::contains("2.3.2")));
}

#[test]
fn validating_an_openapi_document_says_to_convert_it() {
    ois()
        .args(["validate", "samples/orders.json"])
        .assert()
        .failure()
        .stdout(predicate::str::contains("OIS007").and(predicate::str::contains("ois convert")))
        .stdout(predicate::str::contains("OIS003").not());
}

#[test]
fn targets_name_the_node_not_the_format() {
    ois()
        .args(["convert", "samples/coins.yaml", "--target", "airnode@0.15", "-q"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"oisFormat\": \"2.3.2\""));
    ois()
        .args(["convert", "samples/coins.yaml", "--target", "airnode-feed@4", "-q"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"oisFormat\": \"3.0.0\""));
    ois().args(["convert", "samples/coins.yaml", "--target", "airnode@0.15", "--ois-format", "3.0.0"]).assert().code(2);
    let nodary = common::shared_dir().join("examples/ois/nodary.json");
    ois().arg("validate").arg(&nodary).args(["--target", "airnode-feed@3"]).assert().success();
    ois()
        .arg("validate")
        .arg(&nodary)
        .args(["--target", "airnode-feed@4"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("as it is, it is valid for airnode@0.15, airnode-feed@3"));
}

#[test]
fn every_command_that_chooses_an_ois_says_the_same_where() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("config.json");
    let ois_of = |title: &str| {
        serde_json::json!({"oisFormat": "3.0.0", "title": title, "version": "1.0.0",
            "apiSpecifications": {"servers": [{"url": "https://a.example"}], "paths": {"/a": {"get": {"parameters": []}}},
                "components": {"securitySchemes": {}}, "security": {}},
            "endpoints": [{"name": "a", "operation": {"method": "get", "path": "/a"}, "fixedOperationParameters": [],
                "reservedParameters": [], "parameters": []}]})
    };
    let text =
        serde_json::to_string_pretty(&serde_json::json!({"ois": [ois_of("A"), ois_of("B")], "apiCredentials": []}))
            .expect("json");
    std::fs::write(&config, text).expect("write");
    let expected = "error[REQ008]: the file holds 2 OIS objects and none was chosen";
    let at = format!("--> {}:2:3", config.display());
    let commands: [Vec<std::ffi::OsString>; 3] = [
        vec!["request".into(), config.clone().into(), "--endpoint".into(), "a".into()],
        vec![
            "processing".into(),
            "extract".into(),
            config.clone().into(),
            "--endpoint".into(),
            "a".into(),
            "-o".into(),
            dir.path().join("js").into(),
        ],
        vec!["convert".into(), "samples/coins.yaml".into(), "--update".into(), config.clone().into()],
    ];
    for args in commands {
        ois()
            .args(&args)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(expected).and(predicate::str::contains(at.as_str())));
    }
}

#[test]
fn a_record_s_own_options_pass_the_check_when_they_change_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = dir.path().join("api.ois.json");
    let converted = ois()
        .args(["convert", "samples/coins.yaml", "--server", "https://pro.coins.example/api/v3", "-q", "-o"])
        .arg(&output)
        .output()
        .expect("runs");
    assert!(converted.status.success(), "{}", String::from_utf8_lossy(&converted.stderr));
    // The record gives the server again; the calls do not change: in sync, nothing to warn of.
    let check =
        ois().args(["convert", "samples/coins.yaml", "--update"]).arg(&output).arg("--check").output().expect("runs");
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(check.status.success() && !stderr.contains("CNV089"), "{stderr}");
}

#[test]
fn a_foreign_record_is_ignored_with_a_warning_and_adds_no_endpoint() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = dir.path().join("api.ois.json");
    assert!(
        ois().args(["convert", "samples/coins.yaml", "-q", "-o"]).arg(&output).output().expect("runs").status.success()
    );
    let record = dir.path().join("api.ois.convert.json");
    let mut value: serde_json::Value = serde_json::from_slice(&std::fs::read(&record).expect("record")).expect("JSON");
    value["records"][0]["generated"] = serde_json::json!("oops");
    std::fs::write(&record, value.to_string()).expect("write");
    let update = ois()
        .args(["convert", "samples/coins.yaml", "--update"])
        .arg(&output)
        .args(["--check", "--report", "json"])
        .output()
        .expect("runs");
    let report: serde_json::Value = serde_json::from_slice(&update.stderr).expect("a JSON report");
    let codes: Vec<&str> =
        report["diagnostics"].as_array().unwrap().iter().filter_map(|d| d["code"].as_str()).collect();
    assert!(codes.contains(&"CNV087") && codes.contains(&"CNV080"), "{codes:?}");
    assert!(report["endpoints"].as_array().unwrap().iter().all(|e| e["fate"] == "kept"), "{report}");
    assert!(update.status.success(), "in sync: nothing added");
}

/// An interrupt between the two renames of a conversion (the OIS first, its record second) leaves
/// the new OIS beside the old record: the next update reads that as the API and the OIS having
/// changed alike, and finds them in sync, with no endpoint added twice.
#[test]
fn an_ois_renamed_before_its_record_is_recognised_by_the_next_update() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (old, new) = (dir.path().join("old.yaml"), dir.path().join("new.yaml"));
    let text = std::fs::read_to_string("samples/coins.yaml").expect("sample");
    std::fs::write(&old, &text).expect("write");
    let extra = "  /ping:\n    get:\n      operationId: ping\n      responses: {'200': {description: ok}}\n";
    std::fs::write(&new, text.replacen("paths:\n", &format!("paths:\n{extra}"), 1)).expect("write");
    let output = dir.path().join("api.ois.json");
    assert!(ois().arg("convert").arg(&old).args(["-q", "-o"]).arg(&output).output().expect("runs").status.success());
    // The new document's OIS, renamed into place; the record was not (the run was interrupted).
    let converted = ois().arg("convert").arg(&new).args(["-q", "--no-record"]).output().expect("runs");
    std::fs::write(&output, &converted.stdout).expect("write");
    let check = ois()
        .arg("convert")
        .arg(&new)
        .arg("--update")
        .arg(&output)
        .args(["--check", "--report", "json"])
        .output()
        .expect("runs");
    let report: serde_json::Value = serde_json::from_slice(&check.stderr).expect("a JSON report");
    assert!(check.status.success(), "{report}");
    assert_eq!(report["changed"], false);
    assert!(report["endpoints"].as_array().unwrap().iter().all(|e| e["fate"] == "kept"), "{report}");
}

/// A beacon set is of two beacons at least (the contract refuses fewer): one is refused, two
/// give the set's ID.
#[test]
fn a_beacon_set_needs_two_beacons() {
    let airnode = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    let base = ["ids", "samples/expected/coins.ois.json", "--airnode", airnode, "--set"];
    ois()
        .args(base)
        .args(["--template", "simplePrice:ids=string32:bitcoin"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("at least two beacons (1 given)"));
    ois()
        .args(base)
        .args(["--template", "simplePrice:ids=string32:bitcoin", "--template", "simplePrice:ids=string32:ethereum"])
        .assert()
        .success()
        .stdout(predicate::str::contains("beacon set"));
}

#[test]
fn explain_prints_a_codes_page_and_refuses_an_unknown_code() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/codes/OIS076.md")).unwrap();
    let output = ois().args(["explain", "ois076"]).output().unwrap();
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), page);
    let unknown = ois().args(["explain", "OIS999"]).output().unwrap();
    assert_eq!(unknown.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("codes of that stage: OIS001"));
    let all = ois().arg("explain").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&all.stdout).lines().count(), ois::Code::ALL.len());
}

/// Every file argument of `ois ids` and `ois scaffold feed` refuses a FIFO or a device (INP012)
/// instead of waiting on it or reading it to the input limit.
#[cfg(unix)]
#[test]
fn ids_and_scaffold_file_arguments_refuse_fifos_and_devices() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("feeds.json");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let zero = dir.path().join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("link");
    let os = std::ffi::OsStr::new;
    for file in [&fifo, &zero] {
        for (command, flag) in [(&["ids"][..], "--templates"), (&["scaffold", "feed"][..], "--feeds")] {
            let mut args: Vec<&std::ffi::OsStr> = command.iter().map(|c| std::ffi::OsStr::new(*c)).collect();
            args.extend([os("samples/expected/coins.ois.json"), os(flag), file.as_os_str()]);
            let output = ois_within(&args, 30);
            let said = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(1), "{args:?}: {said}");
            assert!(said.contains("INP012"), "{args:?}: {said}");
        }
    }
}

/// What a document says reaches the terminal as text, never as an escape it acts on, nor as an
/// invisible or reordering character: `ois ids` (text and JSON) and `ois endpoint list`; and no
/// name chosen on the command line may hold one.
#[test]
fn names_from_documents_are_shown_not_obeyed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut ois_value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("samples/expected/coins.ois.json").unwrap()).unwrap();
    let hostile = "price\u{1b}]52;c;Y3VybCBldmlsCg==\u{7}\u{9b}31m\u{202e}gnp.exe\u{200b}";
    ois_value["endpoints"][0]["name"] = serde_json::json!(hostile);
    let file = dir.path().join("hostile.ois.json");
    std::fs::write(&file, ois_value.to_string()).unwrap();
    let template = format!("{hostile}:ids=string32:a\u{1b}[2Jb");
    for format in ["text", "json"] {
        let output = common::ois()
            .args(["ids", file.to_str().unwrap(), "--template", &template, "--format", format])
            .output()
            .unwrap();
        let all = [output.stdout.clone(), output.stderr.clone()].concat();
        let text = String::from_utf8_lossy(&all);
        for raw in ['\u{1b}', '\u{7}', '\u{9b}', '\u{202e}', '\u{200b}'] {
            assert!(!text.contains(raw), "{format}: {raw:?} reached the terminal: {text:?}");
        }
        assert!(output.status.success(), "{format}: {text}");
    }
    let listed = common::ois().args(["endpoint", "list", file.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8_lossy(&[listed.stdout, listed.stderr].concat()).into_owned();
    assert!(!text.contains('\u{202e}') && !text.contains('\u{200b}') && !text.contains('\u{1b}'), "{text:?}");
    // A name chosen on the command line: refused.
    let plain = dir.path().join("plain.ois.json");
    std::fs::copy("samples/expected/coins.ois.json", &plain).unwrap();
    for new in ["pri\u{200b}ce", "price\u{202e}", "\u{2066}x"] {
        let output = common::ois()
            .args(["endpoint", "set", plain.to_str().unwrap(), "simplePrice", "--rename", new])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{new:?}: {said}");
        assert!(said.contains("EDT001") && said.contains("invisible"), "{new:?}: {said}");
    }
}

/// `ois ids verify` tells IDs not derived from what they name apart from other findings: a config
/// whose every ID is derived but whose template its endpoint cannot serve says both, and fails.
#[test]
fn ids_verify_counts_mismatches_and_other_errors_apart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("tests/codes/OIS085.config.json").unwrap()).unwrap();
    config["triggers"]["signedApiUpdates"][0]["fetchInterval"] = serde_json::json!(5);
    // The endpoint's reserved `_type` gone: the template still derives, but cannot be served.
    config["ois"][0]["endpoints"][0]["reservedParameters"] = serde_json::json!([]);
    let file = dir.path().join("config.json");
    std::fs::write(&file, config.to_string()).unwrap();
    let output = ois().args(["ids", "verify"]).arg(&file).output().unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("every ID is derived from what it names") && said.contains("1 other error(s)"), "{said}");
    let json = ois().args(["ids", "verify", "--format", "json"]).arg(&file).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!((report["mismatches"].as_u64(), report["otherErrors"].as_u64()), (Some(0), Some(1)), "{report}");
}

/// A fetch interval that would hammer the API is a warning (exit 0), and under `--strict` an
/// error (exit 1), as CI wants it.
#[test]
fn validate_strict_refuses_a_config_that_would_hammer_the_api() {
    let fixture = "tests/codes/OIS085.config.json";
    let output = ois().args(["validate", fixture]).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stdout));
    let output = ois().args(["validate", "--strict", fixture]).output().unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("OIS085") && said.contains("OUT003"), "{said}");
}

/// `-q` leaves only errors on standard error, whatever the command; `--color` decides colour
/// whatever the terminal; `--report json` of a scaffold is the whole report, for scripts.
#[test]
fn quiet_color_and_report_behave_alike_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let ois_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codes/REQ010.request.ois.json");
    let ois_file = ois_file.to_str().unwrap();
    let config = dir.path().join("config.json");
    let scaffold = ["scaffold", "feed", ois_file, "--feed", "item:id=string32:1", "--force", "-o"];
    let scaffold = [&scaffold[..], &[config.to_str().unwrap()]].concat();
    let stderr = |args: &[&str]| {
        let output = ois().env("NO_COLOR", "1").args(args).output().unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let (code, told) = stderr(&scaffold);
    assert_eq!(code, Some(0), "{told}");
    assert!(told.contains("template IDs:"), "{told}");
    for quiet in [&[&scaffold[..], &["-q"]].concat(), &[&["--quiet"][..], &scaffold].concat()] {
        let (code, told) = stderr(quiet);
        assert_eq!((code, told.as_str()), (Some(0), ""), "{quiet:?}");
    }
    let (code, told) = stderr(&[&scaffold[..], &["--report", "json"]].concat());
    assert_eq!(code, Some(0), "{told}");
    let report: serde_json::Value = serde_json::from_str(&told).unwrap();
    assert!(report["templates"][0]["templateId"].is_string() && report["counts"].is_object(), "{report}");
    // Request and call: their warnings (REQ016, no secrets) go, the request stays.
    let request = ["request", ois_file, "--endpoint", "item", "--param", "id=1"];
    let (code, told) = stderr(&request);
    assert!(code == Some(0) && told.contains("REQ016"), "{told}");
    let output = ois().args([&request[..], &["-q"]].concat()).output().unwrap();
    assert!(output.stderr.is_empty() && !output.stdout.is_empty());
    // Errors stay, coloured when asked even off a terminal (NO_COLOR set), plain when not.
    let missing = ["request", ois_file, "--endpoint", "nope", "-q"];
    let (code, told) = stderr(&[&missing[..], &["--color", "always"]].concat());
    assert!(code == Some(1) && told.contains("REQ001") && told.contains('\u{1b}'), "{told}");
    let (_, told) = stderr(&[&missing[..], &["--color", "never"]].concat());
    assert!(told.contains("REQ001") && !told.contains('\u{1b}'), "{told}");
}

/// An Airnode config.json's RRP template IDs derive from the Airnode address: with its mnemonic a
/// `${SECRET}`, `ids verify` says it did not check them (never "every ID is derived"), and with the
/// secrets file it derives them: a wrong one fails, the right one passes; `validate` alike.
#[test]
fn rrp_template_ids_are_checked_with_the_mnemonic_and_said_unchecked_without() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = std::fs::read_to_string("tests/codes/OIS096.in/config.json").unwrap();
    std::fs::write(dir.path().join("wrong.json"), &wrong).unwrap();
    let derived = "0x3f1de0ec652a8400e25d0e149105bebf18a1b145e3de7d72315c657a3817dfaa";
    let wrong_id = "0xa2ea7a30ea7aa2f3cd2f71f0c62f80a25dcfe0f488c6d3d73d155aa2cbf17b54";
    std::fs::write(dir.path().join("right.json"), wrong.replace(wrong_id, derived)).unwrap();
    std::fs::write(
        dir.path().join("secrets.env"),
        "AIRNODE_WALLET_MNEMONIC=test test test test test test test test test test test junk\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let output = common::ois().current_dir(dir.path()).args(args).output().unwrap();
        let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        (output.status.code(), printed)
    };
    let (code, printed) = run(&["ids", "verify", "wrong.json"]);
    assert_eq!(code, Some(0), "{printed}");
    assert!(printed.contains("OIS096") && printed.contains("1 ID(s) not checked"), "{printed}");
    assert!(!printed.contains("every ID is derived from what it names\n"), "{printed}");
    let (code, printed) = run(&["ids", "verify", "wrong.json", "--secrets", "secrets.env"]);
    assert_eq!(code, Some(1), "{printed}");
    assert!(printed.contains("OIS070") && printed.contains(derived) && !printed.contains("OIS096"), "{printed}");
    assert!(!printed.contains("test test"), "the mnemonic is never shown: {printed}");
    let (code, printed) = run(&["ids", "verify", "right.json", "--secrets", "secrets.env"]);
    assert_eq!(code, Some(0), "{printed}");
    assert!(printed.contains("every ID is derived from what it names"), "{printed}");
    let (code, printed) = run(&["validate", "wrong.json", "--secrets", "secrets.env"]);
    assert_eq!(code, Some(1), "{printed}");
    assert!(printed.contains("OIS070") && !printed.contains("test test"), "{printed}");
    let (code, printed) = run(&["validate", "right.json", "--secrets", "secrets.env"]);
    assert_eq!(code, Some(0), "{printed}");
    let (code, printed) = run(&["validate", "wrong.json"]);
    assert_eq!(code, Some(0), "a warning: {printed}");
    assert!(printed.contains("OIS096"), "{printed}");
}

/// `scaffold airnode` of a config.json with RRP templates, written over it, keeps them as they
/// were (their IDs still derive from what they name) and says so.
#[test]
fn scaffolding_an_airnode_config_again_keeps_its_templates() {
    let dir = tempfile::tempdir().unwrap();
    let config = std::fs::read_to_string("tests/codes/OIS096.in/config.json").unwrap();
    let wrong_id = "0xa2ea7a30ea7aa2f3cd2f71f0c62f80a25dcfe0f488c6d3d73d155aa2cbf17b54";
    let derived = "0x3f1de0ec652a8400e25d0e149105bebf18a1b145e3de7d72315c657a3817dfaa";
    std::fs::write(dir.path().join("config.json"), config.replace(wrong_id, derived)).unwrap();
    let before: serde_json::Value = serde_json::from_str(&config.replace(wrong_id, derived)).unwrap();
    let output = common::ois()
        .current_dir(dir.path())
        .args(["scaffold", "airnode", "config.json", "-o", "config.json", "--force"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && said.contains("OUT007"), "{said}");
    let after: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("config.json")).unwrap()).unwrap();
    assert_eq!(after["templates"], before["templates"]);
    // The OIS brought up to date in the config: its templates stay as they are.
    let updated = common::ois()
        .current_dir(dir.path())
        .args(["convert"])
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/coins.yaml"))
        .args(["--update", "config.json", "--ois", "Coin Prices API demo", "--target", "airnode@0.15"])
        .output()
        .unwrap();
    assert!(updated.status.success(), "{}", String::from_utf8_lossy(&updated.stderr));
    let after: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("config.json")).unwrap()).unwrap();
    assert_eq!(after["templates"], before["templates"]);
    std::fs::write(
        dir.path().join("secrets.env"),
        "AIRNODE_WALLET_MNEMONIC=test test test test test test test test test test test junk\n",
    )
    .unwrap();
    let verified = common::ois()
        .current_dir(dir.path())
        .args(["ids", "verify", "config.json", "--secrets", "secrets.env"])
        .output()
        .unwrap();
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
}

/// `scaffold airnode --server URL`: every OIS calls the server given, and every ID is production's.
#[test]
fn a_staging_airnode_config_calls_the_server_given_with_production_s_ids() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy("tests/codes/OIS096.in/config.json", dir.path().join("config.json")).unwrap();
    let run = |args: &[&str]| {
        let output = common::ois().current_dir(dir.path()).args(args).output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    run(&["scaffold", "airnode", "config.json", "-o", "production.json"]);
    let said = run(&["scaffold", "airnode", "config.json", "--server", "http://127.0.0.1:9", "-o", "staging.json"]);
    assert!(said.contains("REQ017"), "{said}");
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(dir.path().join(name)).unwrap()).unwrap()
    };
    let (production, staging) = (read("production.json"), read("staging.json"));
    assert_eq!(staging["ois"][0]["apiSpecifications"]["servers"][0]["url"], "http://127.0.0.1:9");
    assert_eq!(staging["triggers"], production["triggers"]);
    assert_eq!(staging["templates"], production["templates"]);
}
