//! Every command's typed report, as `--format json` / `--report json` prints it, snapshot-tested
//! on the samples (`tests/reports/<command>.json`): the report types are the interface scripts
//! read, so a change to one shows up here. Diagnostics always come whole (code, severity,
//! pointer, message, help, file, line, column), through `Diagnostic`'s own serialisation.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use serde_json::Value;

/// What the command printed on `stream`, as JSON, with temporary folders written `<tmp>`.
/// The report is checked against its schema, `schema`.
fn report(schema: &str, args: &[&str], on_stdout: bool, tmp: &std::path::Path) -> String {
    let output = common::ois().args(args).output().unwrap();
    let text = if on_stdout { &output.stdout } else { &output.stderr };
    let value = common::report_of(schema, text);
    serde_json::to_string_pretty(&value).unwrap().replace(&tmp.display().to_string(), "<tmp>") + "\n"
}

fn snapshot(name: &str, text: &str) {
    expectorate::assert_contents(format!("tests/reports/{name}.json"), text);
}

#[test]
fn every_command_s_json_report_is_its_typed_report() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path();
    let ois_file = tmp.join("coins.ois.json");
    std::fs::copy("samples/expected/coins.ois.json", &ois_file).unwrap();
    let ois_path = ois_file.to_str().unwrap();

    snapshot("validate", &report("ValidateReport", &["validate", ois_path, "--format", "json"], true, tmp));
    snapshot("endpoint-ids", &report("EndpointIdsReport", &["endpoint-ids", ois_path, "--format", "json"], true, tmp));
    let airnode = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    let template = "simplePrice:ids=string:bitcoin";
    let ids = ["ids", ois_path, "--template", template, "--airnode", airnode, "--format", "json"];
    snapshot("ids", &report("IdsReport", &ids, true, tmp));

    // A Feed config scaffolded from it, one ID then broken: verify reports the mismatch whole.
    let config = tmp.join("config.json");
    // Served as the Feed serves it: every required parameter, and a `_type` (the OIS has none).
    let feed = "simplePrice:ids=string:bitcoin,vs_currencies=string:usd,_type=string:int256,_path=string:bitcoin.usd";
    let scaffolded =
        common::ois().args(["scaffold", "feed", ois_path, "--feed", feed, "-o"]).arg(&config).output().unwrap();
    assert!(scaffolded.status.success(), "{}", String::from_utf8_lossy(&scaffolded.stderr));
    let mut value: Value = serde_json::from_slice(&std::fs::read(&config).unwrap()).unwrap();
    let first = value["endpoints"].as_object().unwrap().keys().next().unwrap().clone();
    let entry = value["endpoints"].as_object_mut().unwrap().remove(&first).unwrap();
    value["endpoints"].as_object_mut().unwrap().insert(format!("0x{}", "ab".repeat(32)), entry);
    std::fs::write(&config, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    snapshot(
        "ids-verify",
        &report("IdsVerifyReport", &["ids", "verify", config.to_str().unwrap(), "--format", "json"], true, tmp),
    );

    snapshot(
        "convert",
        &report("ConvertReport", &["convert", "samples/coins.yaml", "--report", "json", "-q"], false, tmp),
    );
    let update = ["convert", "samples/coins.yaml", "--update", ois_path, "--check", "--report", "json"];
    snapshot("update", &report("UpdateReport", &update, false, tmp));
}

#[test]
fn a_scaffold_report_names_what_it_wrote_and_the_ids_in_it() {
    use ois::jobs::scaffold::{FeedRequest, ScaffoldJob, ScaffoldKind, ScaffoldOutputs};
    let dir = tempfile::tempdir().unwrap();
    let mut request = FeedRequest::default();
    request.feeds = vec![
        "simplePrice:ids=string:bitcoin,vs_currencies=string:usd,_type=string:int256,_path=string:bitcoin.usd"
            .to_owned(),
    ];
    // No target: the Feed that reads the OIS's format (2.3.2: Airnode Feed 3.3).
    let mut outputs = ScaffoldOutputs::default();
    outputs.output = Some(dir.path().join("config.json"));
    outputs.secrets_out = Some(dir.path().join("secrets.env"));
    let job = ScaffoldJob::new(vec!["samples/expected/coins.ois.json".into()], ScaffoldKind::Feed(request), outputs);
    let report = ois::jobs::scaffold::run(&job).unwrap();
    let mut value = serde_json::to_value(&report).unwrap();
    value["counts"] = serde_json::to_value(ois::Counts::of(&report.diagnostics)).unwrap();
    common::assert_report_schema("ScaffoldReport", &value);
    let text = serde_json::to_string_pretty(&report).unwrap().replace(&dir.path().display().to_string(), "<tmp>");
    snapshot("scaffold", &(text + "\n"));
    // Written, both, and the report's template is the config's.
    let config: Value = serde_json::from_slice(&std::fs::read(dir.path().join("config.json")).unwrap()).unwrap();
    assert!(config["templates"].get(&report.templates[0].template_id).is_some());
    assert!(dir.path().join("secrets.env").exists());
}

/// The reports the snapshots above do not make, each made on the loop's vendor and checked against
/// its schema; and no report of `ois schema --reports` without a command checked against it here
/// or where named.
#[test]
fn every_json_report_matches_its_schema() {
    use common::vendor;
    let server = vendor::vendor();
    let deployment = vendor::deploy(&server, &["feed:name=string32:USD/EUR", "price:symbol=string32:BTC"]);
    let dir = deployment.dir.path();
    let (ois, config, secrets) =
        (deployment.ois.to_str().unwrap(), deployment.config.to_str().unwrap(), deployment.secrets.to_str().unwrap());
    let document = dir.join("rates.yaml");
    let out = dir.join("out");
    let exported = dir.join("blueprints");
    // Feeds by name on an OIS of their own: the vendor's `feed` endpoint has hand-written processing.
    let by_name = dir.join("by-name.ois.json");
    let converted =
        common::ois().args(["convert", document.to_str().unwrap(), "-o", by_name.to_str().unwrap()]).output().unwrap();
    assert!(converted.status.success(), "{}", String::from_utf8_lossy(&converted.stderr));
    let by_name = by_name.to_str().unwrap();
    let price = ["--endpoint", "price", "--param", "symbol=BTC", "--secrets", secrets, "--format", "json"];
    let cases: Vec<(&str, Vec<&str>, bool)> = vec![
        ("RequestReport", [&["request", ois][..], &price].concat(), true),
        ("PathsReport", [&["call", ois, "--paths"][..], &price].concat(), true),
        ("StoppedReport", vec!["request", ois, "--endpoint", "nope", "--format", "json"], true),
        ("CallReport", [&["call", ois][..], &price].concat(), true),
        ("CallConfigReport", vec!["call", config, "--secrets", secrets, "--format", "json"], true),
        ("CallAllReport", vec!["call", ois, "--all", "--secrets", secrets, "--format", "json"], true),
        ("CompareReport", vec!["call", config, "--compare", config, "--secrets", secrets, "--format", "json"], true),
        ("ConvertBatchReport", vec!["convert", "samples", "-o", out.to_str().unwrap(), "--report", "json"], false),
        ("EditReport", vec!["endpoint", "set", ois, "price", "--reserved", "_times=1e8", "--format", "json"], true),
        ("DiagnosticsReport", vec!["endpoint", "set", ois, "nope", "--rename", "x", "--format", "json"], true),
        ("EndpointListReport", vec!["endpoint", "list", ois, "--format", "json"], true),
        (
            "EditReport",
            vec![
                "feed",
                "add",
                by_name,
                "USD/EUR",
                "--openapi",
                document.to_str().unwrap(),
                "--operation",
                "getRates",
                "--value",
                "rates.EUR",
                "--format",
                "json",
            ],
            true,
        ),
        ("FeedListReport", vec!["feed", "list", by_name, "--format", "json"], true),
        ("FeedExportReport", vec!["feed", "export", by_name, exported.to_str().unwrap(), "--format", "json"], true),
    ];
    let mut checked: std::collections::BTreeSet<&str> =
        // Checked where they are made: the snapshots above, and `ois status` of a deployment.
        ["ConvertReport", "UpdateReport", "ValidateReport", "IdsReport", "IdsVerifyReport", "EndpointIdsReport", "ScaffoldReport", "StatusReport"].into();
    for (schema, args, on_stdout) in cases {
        let output = common::ois().args(&args).output().unwrap();
        let text = if on_stdout { &output.stdout } else { &output.stderr };
        let report = common::report_of(schema, text);
        assert!(!report.is_null(), "{args:?}");
        checked.insert(schema);
    }
    let document = ois::jobs::report_schemas::document();
    let named: std::collections::BTreeSet<&str> = document["$defs"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .filter(|name| name.ends_with("Report"))
        .collect();
    assert_eq!(named, checked, "a report schema no test checks, or a checked name with no schema");
}
