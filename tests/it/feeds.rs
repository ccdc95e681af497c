//! Feeds by name (`ois feed`): API3's production `feed` endpoint read, rebuilt and kept by
//! commands, checked against the twelve production OIS files built on `GET /{path}`.

use crate::common;

use serde_json::Value;

/// The production OIS files whose one endpoint is `feed` on `GET /{path}`.
fn production() -> Vec<(String, Value)> {
    let dir = common::shared_dir().join("examples/ois");
    let mut found: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .expect("examples folder")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let ois: Value = serde_json::from_str(&std::fs::read_to_string(&path).ok()?).ok()?;
            ois.pointer("/apiSpecifications/paths/~1{path}")?;
            Some((path.file_name()?.to_string_lossy().into_owned(), ois))
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

#[test]
fn the_tables_read_from_production_are_written_back_as_api3_s_scripts_wrote_them() {
    let oises = production();
    assert_eq!(oises.len(), 12);
    let mut feeds = 0;
    for (file, ois) in &oises {
        let tables = ois::feeds::read(ois).unwrap_or_else(|e| panic!("{file}: {e:?}")).expect("a feed endpoint");
        assert!(tables.parsers_without_request.is_empty(), "{file}");
        assert!(tables.feeds.iter().all(|f| f.parser.is_some()), "{file}");
        feeds += tables.feeds.len();
        let endpoint = &ois["endpoints"][0];
        let pre = ois::feeds::pre_processing_code(&tables.feeds);
        let post = ois::feeds::post_processing_code(&tables.feeds);
        assert_eq!(pre, endpoint["preProcessingSpecificationV2"]["value"].as_str().unwrap(), "{file}: pre");
        assert_eq!(post, endpoint["postProcessingSpecificationV2"]["value"].as_str().unwrap(), "{file}: post");
    }
    assert!(feeds > 500, "{feeds}");
}
