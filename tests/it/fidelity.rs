//! Production OIS reproduced by `ois` commands only: for each hand-written example whose vendor
//! document is in the corpus, a script of `ois convert` (filters, title, security, target) and
//! `ois endpoint set` (and `ois processing extract` for the example's own snippet) makes the
//! endpoint again — name, operation, parameters, fixed and reserved values, processing — and what
//! cannot be made is the table in docs/refine.md, asserted here.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;

use std::path::Path;

use serde_json::Value;

fn run(dir: &Path, args: &[&str]) {
    let output = common::ois().current_dir(dir).args(args).output().unwrap();
    assert!(output.status.success(), "ois {}: {}", args.join(" "), String::from_utf8_lossy(&output.stderr));
}

/// An endpoint's parameters as (name, mapped operation parameter), in order.
fn parameters(endpoint: &Value) -> Vec<(String, Value)> {
    endpoint["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_owned(), p["operationParameter"].clone()))
        .collect()
}

/// The fixed operation parameters, sorted (their order does not change a request).
fn fixed(endpoint: &Value) -> Vec<String> {
    let mut list: Vec<String> =
        endpoint["fixedOperationParameters"].as_array().unwrap().iter().map(Value::to_string).collect();
    list.sort();
    list
}

/// What of `ours` differs from the production `theirs`, field by field.
fn differences(ours: &Value, theirs: &Value) -> Vec<&'static str> {
    let mut found = Vec::new();
    let checks: [(&str, bool); 7] = [
        ("name", ours["name"] == theirs["name"]),
        ("operation", ours["operation"] == theirs["operation"]),
        ("parameters", parameters(ours) == parameters(theirs)),
        ("fixed values", fixed(ours) == fixed(theirs)),
        ("reserved values", ours["reservedParameters"] == theirs["reservedParameters"]),
        ("pre-processing", ours.get("preProcessingSpecificationV2") == theirs.get("preProcessingSpecificationV2")),
        ("post-processing", ours.get("postProcessingSpecificationV2") == theirs.get("postProcessingSpecificationV2")),
    ];
    for (what, same) in checks {
        if !same {
            found.push(what);
        }
    }
    found
}

#[test]
fn the_coingecko_examples_are_made_again_by_commands() {
    let shared = common::shared_dir();
    let document = shared.join("corpus/coingecko/demo-api.json");
    let document = document.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    // Each script: the `ois endpoint set` arguments after the file (no argument has a space).
    let cases: [(&str, &str, &str, &str); 2] = [
        (
            "coingecko-public.json",
            "CoinGecko basic request",
            "GET /coins/{id}",
            "coinsId --rename coinMarketData --param id:optional --param id:rename=coinId \
             --fixed localization=false --fixed tickers=false --fixed market_data=true \
             --fixed community_data=false --fixed developer_data=false --fixed sparkline=false \
             --param include_categories_details:drop --param dex_pair_format:drop \
             --reserved _type=int256 --reserved _path=market_data.current_price.usd --reserved _times=1000000",
        ),
        (
            "coingecko-history-preprocessing.json",
            "CoinGecko history data request",
            "GET /coins/{id}/history",
            "coinsIdHistory --rename coinHistoryData --param id:optional --param id:rename=coinId \
             --param date:optional --param date:rename=unixTimestamp --fixed localization=false \
             --reserved _type=int256 --reserved _path=market_data.current_price.usd --reserved _times=1000000 \
             --pre snippets/pre.v2.js",
        ),
    ];
    for (example, title, operation, script) in cases {
        let set: Vec<&str> = script.split_whitespace().collect();
        let production: Value =
            serde_json::from_str(&std::fs::read_to_string(shared.join("examples/ois").join(example)).unwrap()).unwrap();
        let theirs = &production["endpoints"][0];
        let file = format!("{example}.made.json");
        let example_path = shared.join("examples/ois").join(example);
        let example_path = example_path.to_str().unwrap();
        let name = theirs["name"].as_str().unwrap();
        if set.contains(&"--pre") {
            run(dir.path(), &["processing", "extract", example_path, "--endpoint", name, "-o", "snippets", "--force"]);
        }
        run(
            dir.path(),
            &[
                "convert",
                document,
                "--include",
                operation,
                "--title",
                title,
                "--security",
                "none",
                "--target",
                "airnode@next",
                "-o",
                &file,
                "--force",
            ],
        );
        let mut args = vec!["endpoint", "set", &file];
        args.extend(&set);
        run(dir.path(), &args);
        let made: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join(&file)).unwrap()).unwrap();
        let ours = made["endpoints"].as_array().unwrap().iter().find(|e| e["name"] == name).unwrap();
        assert_eq!(differences(ours, theirs), Vec::<&str>::new(), "{example}: {ours:#}\nproduction: {theirs:#}");
        // The same endpoint ID the node derives.
        assert_eq!(made["title"], production["title"]);
        // And the operation as production declares it (the newer API's extra parameters dropped).
        let path = operation.split_once(' ').unwrap().1;
        let declared = |ois: &Value| {
            let mut names: Vec<String> = ois["apiSpecifications"]["paths"][path]["get"]["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| format!("{} {}", p["in"].as_str().unwrap(), p["name"].as_str().unwrap()))
                .collect();
            names.sort();
            names
        };
        assert_eq!(declared(&made), declared(&production), "{example}");
        // The refinements are ordinary ones: the OIS is in sync with its document, and an update
        // keeps every one of them.
        run(dir.path(), &["convert", document, "--update", &file, "--check"]);
    }
}

/// The production `feed` endpoints of four examples — one endpoint on `GET /{path}` serving every
/// data feed by name — made by commands: `ois convert` of the vendor's document (with production's
/// server, a tier the document does not name), then `ois feed import` of the production feeds,
/// each checked against the vendor's document where it declares the operation. Every name asks
/// the vendor what production asks, and the tables are production's byte for byte.
#[test]
fn the_multiplexing_feed_endpoints_are_made_by_commands() {
    let shared = common::shared_dir();
    let dir = tempfile::tempdir().unwrap();
    for (example, document, checked) in [
        ("coingecko-pro.json", "coingecko/demo-api.json", true),
        // The corpus's Coinpaprika document predates `/tickers/{coin_id}` (it has `/ticker/…`).
        ("coinpaprika.json", "coinpaprika/openapi.yml", false),
        ("finnhub.json", "finnhub/openapi.yaml", true),
        ("twelvedata.json", "twelvedata/openapi.yaml", true),
    ] {
        let from = shared.join("examples/ois").join(example);
        let production: Value = serde_json::from_str(&std::fs::read_to_string(&from).unwrap()).unwrap();
        let server = production["apiSpecifications"]["servers"][0]["url"].as_str().unwrap();
        let document = shared.join("corpus").join(document);
        let ois_file = format!("{example}.ois.json");
        run(dir.path(), &["convert", document.to_str().unwrap(), "-o", &ois_file, "--server", server]);
        let mut import = vec!["feed", "import", &ois_file, from.to_str().unwrap()];
        let against = ["--openapi", document.to_str().unwrap()];
        if checked {
            import.extend(against);
        } else {
            let output = common::ois().current_dir(dir.path()).args(&import).args(against).output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(stderr.contains("no GET operation of the document has the path /tickers/"), "{example}: {stderr}");
        }
        run(dir.path(), &import);
        let ours: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join(&ois_file)).unwrap()).unwrap();
        let feed = ours["endpoints"].as_array().unwrap().iter().find(|e| e["name"] == "feed").unwrap();
        // Production's endpoints list every parameter of the operations; ours, those the feeds use.
        let differ = differences(feed, &production["endpoints"][0]);
        assert!(differ.is_empty() || differ == ["parameters"], "{example}: {differ:?}");
        let theirs = parameters(&production["endpoints"][0]);
        assert!(parameters(feed).iter().all(|p| theirs.contains(p)), "{example}");
        let tables = ois::feeds::read(&ours).unwrap().unwrap();
        for name in tables.feeds.iter().map(|f| f.name.as_str()) {
            assert_eq!(url_of(&ours, name), url_of(&production, name), "{example}: {name}");
        }
    }
}

/// The URL the Feed calls for feed `name` (no credentials given).
fn url_of(ois: &Value, name: &str) -> String {
    let mut options = ois::request::RequestOptions::new("feed");
    options.parameters.insert("name".to_owned(), Value::String(name.to_owned()));
    options.mode = ois::request::Mode::Feed;
    let prepared = ois::request::prepare(ois, &options, &ois::processing::Engine::Embedded).unwrap();
    prepared.request.unwrap().url
}
