//! `ois endpoint`: each command on an OIS, a list, a config.json and an Airnode Feed config; the
//! file's style kept; a result that breaks a rule refused with nothing written; values checked as
//! the node reads them; hostile names refused.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn ois(args: &[&str]) -> std::process::Output {
    common::ois().args(args).output().unwrap()
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    if path.extension().is_some_and(|e| e == "yaml") {
        yaml_serde::from_str(&text).unwrap()
    } else {
        serde_json::from_str(&text).unwrap()
    }
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The base OIS with a second operation, `GET /rates` (query `base`, `symbols`).
fn two_operations() -> Value {
    let mut ois = common::base_ois();
    ois["oisFormat"] = json!("2.3.2");
    ois["apiSpecifications"]["paths"]["/rates"] =
        json!({"get": {"parameters": [{"in": "query", "name": "base"}, {"in": "query", "name": "symbols"}]}});
    ois
}

#[test]
fn set_add_rm_and_keep_change_only_what_they_say_and_keep_the_style() {
    let dir = tempfile::tempdir().unwrap();
    // Four spaces, no final newline: both kept.
    let text = serde_json::to_string_pretty(&two_operations()).unwrap().replace("  ", "    ");
    let file = write(dir.path(), "api.ois.json", &text);
    let path = file.to_str().unwrap();

    let added = ois(&["endpoint", "add", path, "rates", "--operation", "GET /rates", "--fixed", "base=USD"]);
    assert!(added.status.success(), "{}", stderr(&added));
    let set = ois(&[
        "endpoint",
        "set",
        path,
        "rates",
        "--rename",
        "usdRates",
        "--reserved",
        "_type=int256",
        "--reserved",
        "_times=1e18",
        "--reserved",
        "_path=rates.EUR",
        "--param",
        "symbols:required",
    ]);
    assert!(set.status.success(), "{}", stderr(&set));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("\n            \"name\": \"usdRates\"") && !written.ends_with('\n'), "{written}");
    let edited = read(&file);
    let endpoint = &edited["endpoints"][1];
    assert_eq!(
        endpoint["fixedOperationParameters"],
        json!([{"operationParameter": {"in": "query", "name": "base"}, "value": "USD"}])
    );
    assert_eq!(
        endpoint["parameters"],
        json!([{"name": "symbols", "operationParameter": {"in": "query", "name": "symbols"}, "required": true}])
    );
    assert_eq!(
        endpoint["reservedParameters"],
        json!([{"name": "_type", "fixed": "int256"}, {"name": "_path", "fixed": "rates.EUR"}, {"name": "_times", "fixed": "1000000000000000000"}])
    );
    // The first endpoint is untouched.
    assert_eq!(edited["endpoints"][0], two_operations()["endpoints"][0]);
    assert!(ois(&["validate", path]).status.success());

    // keep by operation: `item` and GET /items/{id} go.
    let kept = ois(&["endpoint", "keep", path, "GET /rates"]);
    assert!(kept.status.success(), "{}", stderr(&kept));
    let edited = read(&file);
    assert_eq!(edited["endpoints"].as_array().unwrap().len(), 1);
    assert!(edited["apiSpecifications"]["paths"].get("/items/{id}").is_none());
    // rm of the last endpoint leaves none.
    let removed = ois(&["endpoint", "rm", path, "usdRates"]);
    assert!(removed.status.success(), "{}", stderr(&removed));
    assert_eq!(read(&file)["endpoints"], json!([]));
}

#[test]
fn a_yaml_ois_stays_yaml_and_a_dry_run_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = ois::emit::to_yaml(&two_operations());
    let file = write(dir.path(), "api.ois.yaml", &yaml);
    let path = file.to_str().unwrap();
    let dry = ois(&["endpoint", "set", path, "item", "--reserved", "_path=price", "--dry-run"]);
    assert!(dry.status.success(), "{}", stderr(&dry));
    let shown = String::from_utf8_lossy(&dry.stdout);
    assert!(shown.contains("+") && shown.contains("price") && shown.contains("not written (--dry-run)"), "{shown}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), yaml);
    let done = ois(&["endpoint", "set", path, "item", "--reserved", "_path=price"]);
    assert!(done.status.success());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.trim_start().starts_with('{'), "still YAML: {text}");
    assert_eq!(read(&file)["endpoints"][0]["reservedParameters"][1], json!({"name": "_path", "fixed": "price"}));
}

#[test]
fn values_the_node_cannot_read_and_hostile_names_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let text = serde_json::to_string_pretty(&two_operations()).unwrap() + "\n";
    let file = write(dir.path(), "api.ois.json", &text);
    let path = file.to_str().unwrap();
    let long = "x".repeat(65);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--reserved", "_type=int257"], "not a type the encoder knows"),
        (vec!["--reserved", "_times=lots"], "not a number"),
        (vec!["--reserved", "_price=1"], "not a reserved parameter"),
        (vec!["--rename", "../evil"], "path separator"),
        (vec!["--rename", "a\u{7}b"], "control character"),
        (vec!["--rename", &long], "longer than 64"),
        (vec!["--rename", " item"], "spaces at its ends"),
        (vec!["--param", "id:drop"], "OIS018"),
        (vec!["--param", "nope:drop"], "no parameter \"nope\""),
        (vec!["--fixed", "nope=1"], "neither a parameter"),
    ];
    for (settings, expected) in cases {
        let mut args = vec!["endpoint", "set", path, "item"];
        args.extend(&settings);
        let output = ois(&args);
        assert_eq!(output.status.code(), Some(1), "{settings:?}");
        assert!(stderr(&output).contains(expected), "{settings:?}: {}", stderr(&output));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "{settings:?} wrote");
    }
    let added = ois(&["endpoint", "add", path, "item", "--operation", "GET /rates"]);
    assert!(stderr(&added).contains("is taken"), "{}", stderr(&added));
    let added = ois(&["endpoint", "add", path, "x", "--operation", "GET /nowhere"]);
    assert!(stderr(&added).contains("no operation GET /nowhere"), "{}", stderr(&added));
    let kept = ois(&["endpoint", "keep", path, "nomatch*"]);
    assert!(stderr(&kept).contains("nothing would be left"), "{}", stderr(&kept));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
}

#[test]
fn a_list_and_a_config_json_take_the_ois_by_title() {
    let dir = tempfile::tempdir().unwrap();
    let mut second = two_operations();
    second["title"] = json!("Second");
    let list =
        write(dir.path(), "list.json", &serde_json::to_string_pretty(&json!([two_operations(), second])).unwrap());
    let path = list.to_str().unwrap();
    let unclear = ois(&["endpoint", "set", path, "item", "--reserved", "_path=a"]);
    assert!(stderr(&unclear).contains("REQ008"), "{}", stderr(&unclear));
    let done = ois(&["endpoint", "set", path, "item", "--ois", "Second", "--reserved", "_path=a"]);
    assert!(done.status.success(), "{}", stderr(&done));
    let edited = read(&list);
    assert_eq!(edited[0], two_operations());
    assert_eq!(edited[1]["endpoints"][0]["reservedParameters"][1], json!({"name": "_path", "fixed": "a"}));

    let listed = ois(&["endpoint", "list", path, "--ois", "Second", "--format", "json"]);
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listed[0]["name"], "item");
    assert_eq!(listed[0]["reserved"][1], json!(["_path", "a"]));
    assert_eq!(listed[0]["endpointId"].as_str().map(str::len), Some(66));
}

#[test]
fn a_feed_config_follows_a_rename_and_keeps_every_id_derived() {
    let server = common::vendor::vendor();
    let deployment = common::vendor::deploy(&server, &["price:symbol=string32:BTC", "feed:name=string32:USD/EUR"]);
    let config = deployment.config.display().to_string();
    let before = read(&deployment.config);
    let renamed = ois(&["endpoint", "set", &config, "price", "--rename", "spot"]);
    assert!(renamed.status.success(), "{}", stderr(&renamed));
    let after = read(&deployment.config);
    assert!(after["endpoints"].as_object().unwrap().values().any(|e| e["endpointName"] == "spot"));
    assert_ne!(before["templates"], after["templates"]);
    // Every ID is derived again, the Feed can serve it, and it still calls as before.
    let verified = ois(&["ids", "verify", &config]);
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
    assert!(ois(&["validate", &config]).status.success());
    let secrets = deployment.secrets.display().to_string();
    let called = ois(&["call", &config, "--secrets", &secrets, "--format", "json"]);
    assert!(called.status.success(), "{}", stderr(&called));
    // An endpoint its templates use cannot go.
    let removed = ois(&["endpoint", "rm", &config, "spot"]);
    assert!(stderr(&removed).contains("used by 1 template"), "{}", stderr(&removed));
}

#[test]
fn the_value_picker_lists_each_leaf_with_the_path_the_node_reads_and_applies_with_one_command() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "api.ois.json", &serde_json::to_string_pretty(&two_operations()).unwrap());
    let sample = write(dir.path(), "sample.json", r#"{"data": {"a.b": 61234.5, "list": [7, "BTC"]}, "ok": true}"#);
    let (path, sample) = (file.to_str().unwrap(), sample.to_str().unwrap());
    let picked = ois(&[
        "request",
        path,
        "--endpoint",
        "item",
        "--param",
        "id=1",
        "--response",
        sample,
        "--paths",
        "--format",
        "json",
    ]);
    assert!(picked.status.success(), "{}", stderr(&picked));
    let report: Value = serde_json::from_slice(&picked.stdout).unwrap();
    let rows: Vec<(Value, Value, Value)> = report["leaves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["path"].clone(), l["suggestedType"].clone(), l["suggestedTimes"].clone()))
        .collect();
    assert_eq!(
        rows,
        [
            (json!("data.a\\.b"), json!("int256"), json!("1000000000000000000")),
            (json!("data.list.0"), json!("uint256"), Value::Null),
            (json!("data.list.1"), json!("string32"), Value::Null),
            (json!("ok"), json!("bool"), Value::Null),
        ]
    );
    // The text ends with the command that applies the first number; run it, and the node's
    // preview encodes that value.
    let text = ois(&["request", path, "--endpoint", "item", "--param", "id=1", "--response", sample, "--paths"]);
    let shown = String::from_utf8_lossy(&text.stdout).into_owned();
    // A shell reads it back as printed (the `\.` of the path quoted).
    let apply = shown.lines().last().unwrap().strip_prefix("Apply the likeliest: ois ").unwrap().to_owned();
    assert!(apply.contains("'_path=data.a\\.b'"), "{apply}");
    let bin = assert_cmd::cargo::cargo_bin("ois");
    let run = std::process::Command::new("sh").arg("-c").arg(format!("'{}' {apply}", bin.display())).output().unwrap();
    assert!(run.status.success(), "{apply}: {}", String::from_utf8_lossy(&run.stderr));
    let preview =
        ois(&["request", path, "--endpoint", "item", "--param", "id=1", "--response", sample, "--format", "json"]);
    assert!(
        String::from_utf8_lossy(&preview.stdout).contains("61234500000000000000000"),
        "{}",
        String::from_utf8_lossy(&preview.stdout)
    );
}

#[test]
fn the_value_picker_on_a_real_call_sees_the_post_processed_answer() {
    let server = common::vendor::vendor();
    let deployment = common::vendor::deploy(&server, &["price:symbol=string32:BTC"]);
    let (file, secrets) = (deployment.ois.display().to_string(), deployment.secrets.display().to_string());
    let args = [
        "call",
        &file,
        "--endpoint",
        "feed",
        "--param",
        "name=USD/GBP",
        "--secrets",
        &secrets,
        "--paths",
        "--format",
        "json",
    ];
    let picked = ois(&args);
    assert!(picked.status.success(), "{}", stderr(&picked));
    let report: Value = serde_json::from_slice(&picked.stdout).unwrap();
    // Post-processing picked the rate: the whole answer is the value, no `_path` needed.
    assert_eq!(
        report["leaves"],
        json!([{"path": "", "value": 0.79, "suggestedType": "int256", "suggestedTimes": "1000000000000000000"}])
    );
    let price = ois(&["call", &file, "--endpoint", "price", "--param", "symbol=ETH", "--secrets", &secrets, "--paths"]);
    let shown = String::from_utf8_lossy(&price.stdout);
    assert!(shown.contains("symbol") && shown.contains("price") && shown.contains("--reserved _path=price"), "{shown}");
}

#[test]
fn a_config_json_follows_a_rename_in_its_triggers_and_rrp_templates() {
    let server = common::vendor::vendor();
    let deployment = common::vendor::deploy_for(&server, Some("airnode@0.15"), &["price:symbol=string32:BTC"], &[]);
    let dir = deployment.dir.path();
    let (ois_file, config) = (deployment.ois.display().to_string(), dir.join("airnode.json"));
    let config_path = config.to_str().unwrap();
    assert!(ois(&["scaffold", "airnode", &ois_file, "-o", config_path]).status.success());
    let ids = ois(&[
        "ids",
        &ois_file,
        "--template",
        "price:symbol=string32:ETH",
        "--airnode",
        "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        "--format",
        "json",
    ]);
    let ids: Value = serde_json::from_slice(&ids.stdout).unwrap();
    let template = &ids["templates"][0];
    let mut written = read(&config);
    written["nodeSettings"]["airnodeWalletMnemonic"] = json!(common::vendor::MNEMONIC);
    written["templates"] = json!([{"templateId": template["rrpTemplateId"], "endpointId": template["endpointId"], "encodedParameters": template["encodedParameters"]}]);
    std::fs::write(&config, serde_json::to_string_pretty(&written).unwrap()).unwrap();

    let renamed = ois(&["endpoint", "set", config_path, "price", "--rename", "spot"]);
    assert!(renamed.status.success(), "{}", stderr(&renamed));
    let after = read(&config);
    let trigger = after["triggers"]["rrp"].as_array().unwrap().iter().find(|t| t["endpointName"] == "spot").unwrap();
    assert_eq!(after["templates"][0]["endpointId"], trigger["endpointId"]);
    assert_ne!(after["templates"][0]["templateId"], template["rrpTemplateId"]);
    let verified = ois(&["ids", "verify", config_path]);
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
}

#[test]
fn an_edit_keeps_the_files_own_text_elsewhere() {
    // A golden file: the sample OIS after one `set`, byte for byte.
    let dir = tempfile::tempdir().unwrap();
    let sample =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/expected/coins.ois.json")).unwrap();
    let file = write(dir.path(), "coins.ois.json", &sample);
    let path = file.to_str().unwrap();
    let set = ois(&[
        "endpoint",
        "set",
        path,
        "simplePrice",
        "--rename",
        "price",
        "--reserved",
        "_type=int256",
        "--reserved",
        "_path=bitcoin.usd",
        "--reserved",
        "_times=1e18",
        "--fixed",
        "vs_currencies=usd",
    ]);
    assert!(set.status.success(), "{}", stderr(&set));
    expectorate::assert_contents("tests/edits/coins-set-price.ois.json", &std::fs::read_to_string(&file).unwrap());
}

#[test]
fn hostile_file_arguments_fail_cleanly_and_write_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let text = serde_json::to_string_pretty(&two_operations()).unwrap();
    // A name with control characters and spaces, a path through `..`, a very long name, a folder,
    // a missing file, and a link (not followed: the edit would replace what it points to).
    let odd = write(dir.path(), "a\u{1}b c.json", &text);
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let through = sub.join("..").join("a\u{1}b c.json");
    let long = dir.path().join(format!("{}.json", "x".repeat(300)));
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&odd, &link).unwrap();
    let edit = |path: &Path, value: &str| {
        ois(&["endpoint", "set", path.to_str().unwrap(), "item", "--reserved", &format!("_path={value}")])
    };

    assert!(edit(&odd, "o").status.success(), "an odd name is still a file the user named");
    assert!(edit(&through, "p").status.success(), "`..` is the user's path");
    for path in [long.as_path(), sub.as_path(), dir.path().join("missing.json").as_path(), link.as_path()] {
        let output = edit(path, "q");
        assert_eq!(output.status.code(), Some(1), "{}", path.display());
        assert!(stderr(&output).starts_with("error["), "{}: {}", path.display(), stderr(&output));
    }
    // Nothing but the file named was written: no temporary file left, the link's target kept.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a\u{1}b c.json", "link.json", "sub"]);
    assert!(std::fs::read_to_string(&odd).unwrap().contains("\"fixed\": \"p\""));
}

/// An FX vendor's answer: the amount asked, a timestamp and a count come before the rate, which
/// is a numeric string. The picker offers the rate, as an int256 that keeps its decimals.
#[test]
fn the_value_picker_suggests_the_rate_not_the_first_number() {
    let dir = tempfile::tempdir().unwrap();
    let sample = dir.path().join("fx.json");
    std::fs::write(
        &sample,
        r#"{"amount": 1, "base": "USD", "time_last_updated": 1732700000, "count": 2, "rates": {"EUR": "0.9512", "JPY": "151"}}"#,
    )
    .unwrap();
    let ois_file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/codes/REQ010.request.ois.json");
    let args = ["request", ois_file, "--endpoint", "item", "--param", "id=1", "--response", sample.to_str().unwrap()];
    let text = ois(&[&args[..], &["--paths"]].concat());
    let shown = String::from_utf8_lossy(&text.stdout).into_owned();
    let apply = shown.lines().last().unwrap();
    assert!(
        apply.contains("--reserved _path=rates.EUR --reserved _type=int256 --reserved _times=1000000000000000000"),
        "{shown}"
    );
    let json = ois(&[&args[..], &["--paths", "--format", "json"]].concat());
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    let suggested = report["suggested"].as_u64().unwrap() as usize;
    assert_eq!(report["leaves"][suggested]["path"], "rates.EUR", "{report}");
}

/// A YAML OIS written by hand (indented sequences, flow mappings, quotes, comments) keeps its
/// style through a rename and a changed value: only the changed lines change.
#[test]
fn a_hand_written_yaml_ois_keeps_its_style() {
    let yaml = "# Weather, refined by hand\noisFormat: \"3.0.0\"\ntitle: 'Weather'\nversion: 1.0.0\napiSpecifications:\n  servers:\n    - url: \"https://api.weather.example/v1\"\n  paths:\n    /current.json:\n      get:\n        parameters:\n          - {in: query, name: q}\n  components:\n    securitySchemes: {}\n  security: {}\nendpoints:\n  - name: current          # the conditions now\n    operation:\n      method: get\n      path: /current.json\n    fixedOperationParameters: []\n    reservedParameters:\n      - name: _type\n        fixed: int256\n    parameters:\n      - name: q\n        operationParameter: {in: query, name: q}\n        required: true\n";
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "weather.ois.yaml", yaml);
    let path = file.to_str().unwrap();
    let renamed = ois(&["endpoint", "set", path, "current", "--rename", "weather", "--reserved", "_type=uint256"]);
    assert!(renamed.status.success(), "{}", stderr(&renamed));
    let expected = yaml
        .replace("  - name: current          # the conditions now", "  - name: weather          # the conditions now")
        .replace("        fixed: int256", "        fixed: uint256");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);
    // A change of shape (a reserved parameter added) is written whole, and reads back right.
    let added = ois(&["endpoint", "set", path, "weather", "--reserved", "_path=current.temp_c"]);
    assert!(added.status.success(), "{}", stderr(&added));
    assert_eq!(
        read(&file)["endpoints"][0]["reservedParameters"][1],
        json!({"name": "_path", "fixed": "current.temp_c"})
    );
}

/// `--unreserve` takes a reserved parameter away (a `_path` picked before, to pick another); one
/// the endpoint does not have is refused, and nothing is written.
#[test]
fn a_reserved_parameter_is_taken_away() {
    let dir = tempfile::tempdir().unwrap();
    let text = serde_json::to_string_pretty(&two_operations()).unwrap() + "\n";
    let file = write(dir.path(), "api.ois.json", &text);
    let path = file.to_str().unwrap();
    let set = ois(&["endpoint", "set", path, "item", "--reserved", "_path=price", "--reserved", "_times=100"]);
    assert!(set.status.success(), "{}", stderr(&set));
    let taken = ois(&["endpoint", "set", path, "item", "--unreserve", "_path"]);
    assert!(taken.status.success(), "{}", stderr(&taken));
    let names: Vec<Value> = read(&file)["endpoints"][0]["reservedParameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].clone())
        .collect();
    assert!(!names.contains(&json!("_path")) && names.contains(&json!("_times")), "{names:?}");
    let before = std::fs::read_to_string(&file).unwrap();
    let refused = ois(&["endpoint", "set", path, "item", "--unreserve", "_path"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(stderr(&refused).contains("no reserved parameter \"_path\""), "{}", stderr(&refused));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
}

/// Dropping a parameter and fixing it in the same edit (the studio's form sends both) fixes it.
#[test]
fn a_parameter_dropped_and_fixed_at_once_is_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let document = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/codes/CNV075.in/openapi.json");
    let file = dir.path().join("weather.ois.json");
    let path = file.to_str().unwrap();
    assert!(ois(&["convert", document, "-o", path]).status.success());
    let edited = ois(&["endpoint", "set", path, "current", "--fixed", "q=London", "--param", "q:drop"]);
    assert!(edited.status.success(), "{}", stderr(&edited));
    let endpoint = &read(&file)["endpoints"][0];
    assert!(endpoint["fixedOperationParameters"].to_string().contains("London"), "{endpoint}");
    assert!(!endpoint["parameters"].to_string().contains("\"q\""), "{endpoint}");
}

/// A POST sends its `query` parameters as the JSON body: one fixed to a JSON array or object is
/// sent as that JSON, not as its text (a vendor answers 400 to `"assets": "[{…}]"`), and the edit
/// says so; on a GET, and for a scalar, the value stays the text written.
#[test]
fn a_body_property_fixed_to_json_is_sent_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let mut base = common::base_ois();
    base["oisFormat"] = json!("2.3.2");
    base["apiSpecifications"]["paths"]["/quote"] = json!({"post": {"parameters": [
        {"in": "query", "name": "assets"}, {"in": "query", "name": "options"}, {"in": "query", "name": "limit"}
    ]}});
    let file = write(dir.path(), "api.ois.json", &serde_json::to_string_pretty(&base).unwrap());
    let path = file.to_str().unwrap();
    let added = ois(&[
        "endpoint",
        "add",
        path,
        "quote",
        "--operation",
        "POST /quote",
        "--fixed",
        r#"assets=[{"symbol": "XAU", "venue": "lbma"}]"#,
        "--fixed",
        r#"options={"depth": {"levels": 2}}"#,
        "--fixed",
        "limit=10",
        "--reserved",
        "_type=int256",
        "--reserved",
        "_path=price",
    ]);
    assert!(added.status.success(), "{}", stderr(&added));
    assert!(
        stderr(&added).contains(r#""assets" is fixed to the JSON [{"symbol":"XAU","venue":"lbma"}] in the POST body"#),
        "{}",
        stderr(&added)
    );
    let written = read(&file);
    let fixed = &written["endpoints"].as_array().unwrap().last().unwrap()["fixedOperationParameters"];
    assert_eq!(fixed[0]["value"], json!([{"symbol": "XAU", "venue": "lbma"}]));
    assert_eq!(fixed[1]["value"], json!({"depth": {"levels": 2}}));
    assert_eq!(fixed[2]["value"], json!("10"));
    let request = ois(&["request", path, "--endpoint", "quote", "--format", "json"]);
    let shown: Value = serde_json::from_slice(&request.stdout).unwrap();
    assert_eq!(shown["body"]["assets"][0]["symbol"], "XAU", "{shown}");
    assert_eq!(shown["body"]["options"]["depth"]["levels"], 2, "{shown}");
}

/// A `_path` of several values is set as the node reads it (one `_type` and `_times` entry per
/// value), and a listed path for a key holding `,` (`meta.x\,y`, as the picker writes it there)
/// extracts that key.
#[test]
fn several_values_are_set_and_a_key_with_a_comma_is_extracted() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "api.ois.json", &serde_json::to_string_pretty(&two_operations()).unwrap());
    let path = file.to_str().unwrap();
    let added = ois(&[
        "endpoint",
        "add",
        path,
        "pair",
        "--operation",
        "GET /rates",
        "--reserved",
        r"_path=meta.x\,y,meta.z",
        "--reserved",
        "_type=int256,uint256",
        "--reserved",
        "_times=1e2,",
    ]);
    assert!(added.status.success(), "{}", stderr(&added));
    let response = write(dir.path(), "answer.json", r#"{"meta": {"x,y": 1.5, "z": 6}}"#);
    let shown =
        ois(&["request", path, "--endpoint", "pair", "--response", response.to_str().unwrap(), "--format", "json"]);
    let report: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(report["response"]["values"], json!(["150", "6"]), "{report}");
    let refused = ois(&["endpoint", "set", path, "pair", "--reserved", "_type=int256,uint257"]);
    assert!(stderr(&refused).contains("_type \"uint257\" is not a type"), "{}", stderr(&refused));
}

/// Keeping a few endpoints of many says in one note what went, not one note per path.
#[test]
fn keeping_a_few_of_many_endpoints_is_said_in_one_note() {
    let dir = tempfile::tempdir().unwrap();
    let mut base = two_operations();
    for n in 0..6 {
        let path = format!("/extra{n}");
        base["apiSpecifications"]["paths"][&path] = json!({"get": {"parameters": []}});
        base["endpoints"].as_array_mut().unwrap().push(json!({
            "name": format!("extra{n}"), "operation": {"method": "get", "path": path},
            "fixedOperationParameters": [], "reservedParameters": [{"name": "_type", "fixed": "int256"}], "parameters": []
        }));
    }
    let file = write(dir.path(), "api.ois.json", &serde_json::to_string_pretty(&base).unwrap());
    let kept = ois(&["endpoint", "keep", file.to_str().unwrap(), "extra0"]);
    assert!(kept.status.success(), "{}", stderr(&kept));
    let said = stderr(&kept);
    assert_eq!(said.matches("note[EDT003]").count(), 1, "{said}");
    assert!(
        said.contains("7 operation(s) of 7 paths went with their endpoints (/items/{id}, /rates, /extra1, and 4 more)"),
        "{said}"
    );
}

/// `--unfix NAME` gives a fixed operation parameter back to the requester; `--param NAME:add`
/// maps an operation parameter no endpoint parameter maps, or makes one for processing only.
#[test]
fn a_fixed_parameter_is_given_back_and_a_parameter_added() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "api.ois.json", &serde_json::to_string_pretty(&two_operations()).unwrap());
    let path = file.to_str().unwrap();
    let added = ois(&["endpoint", "add", path, "rates", "--operation", "GET /rates", "--fixed", "base=USD"]);
    assert!(added.status.success(), "{}", stderr(&added));
    let given_back = ois(&["endpoint", "set", path, "rates", "--unfix", "base"]);
    assert!(given_back.status.success(), "{}", stderr(&given_back));
    let rates = read(&file)["endpoints"][1].clone();
    assert_eq!(rates["fixedOperationParameters"], json!([]));
    let base = rates["parameters"].as_array().unwrap().iter().find(|p| p["name"] == "base").cloned().unwrap();
    assert_eq!(base["operationParameter"], json!({"in": "query", "name": "base"}));
    let refused = ois(&["endpoint", "set", path, "rates", "--unfix", "base"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(stderr(&refused).contains("fixes no operation parameter \"base\""), "{}", stderr(&refused));
    // For a script, the refusal is the JSON report every command prints.
    let refused = ois(&["endpoint", "set", path, "rates", "--unfix", "base", "--format", "json"]);
    assert_eq!(refused.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&refused.stdout).unwrap();
    assert_eq!(report["diagnostics"][0]["code"], "EDT001", "{report}");

    // The base endpoint does not map the operation's `q` (it fixes it): added, it maps it.
    let dropped = ois(&["endpoint", "set", path, "item", "--unfix", "q"]);
    assert!(dropped.status.success(), "{}", stderr(&dropped));
    let again = ois(&["endpoint", "set", path, "item", "--param", "q:add"]);
    assert!(!again.status.success(), "adding a parameter the endpoint has is refused");
    let new = ois(&["endpoint", "set", path, "item", "--param", "units:add"]);
    assert!(new.status.success(), "{}", stderr(&new));
    assert!(stderr(&new).contains("\"units\" is new: it maps no operation parameter"), "{}", stderr(&new));

    // An operation parameter no endpoint parameter maps (a hand-written OIS): added, it is mapped.
    let mut edited = read(&file);
    edited["endpoints"][1]["parameters"].as_array_mut().unwrap().retain(|p| p["name"] != "symbols");
    std::fs::write(&file, serde_json::to_string_pretty(&edited).unwrap()).unwrap();
    let mapped = ois(&["endpoint", "set", path, "rates", "--param", "symbols:add"]);
    assert!(mapped.status.success(), "{}", stderr(&mapped));
    assert!(
        stderr(&mapped).contains("the requester gives the operation's query parameter \"symbols\""),
        "{}",
        stderr(&mapped)
    );
    let symbols =
        read(&file)["endpoints"][1]["parameters"].as_array().unwrap().iter().find(|p| p["name"] == "symbols").cloned();
    assert_eq!(symbols.unwrap()["operationParameter"], json!({"in": "query", "name": "symbols"}));
}
