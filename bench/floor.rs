//! The benchmark floor: only read files and parse them into `serde_json::Value`, with the same
//! crates `ois` uses. `ois convert` is measured against this. Given one file, it also reads and
//! parses every file its `$ref`s name (a multi-file document is all of them), once each. Given
//! folders, it parses every `*.json`/`*.yaml`/`*.yml` below them on every core, as a batch
//! conversion would.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rayon::prelude::*;
use serde::de::{DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_json::Value;

/// The allocator `ois` itself uses, so the ratio measures our code, not a change of allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn read(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    if text.trim_start().starts_with(['{', '[']) {
        serde_json::from_str(&text).map_err(|e| e.to_string())
    } else {
        Lenient.deserialize(yaml_serde::Deserializer::from_str(&text)).map_err(|e| e.to_string())
    }
}

/// A YAML document as serde_json's `Value`, but an integer beyond 64 bits is the nearest double,
/// as `ois` (and every JSON parser) reads it, where serde_json's own `Value` refuses the whole
/// document (OpenAI's has `minimum: -9223372036854776000`): the floor must parse all of it.
struct Lenient;

impl<'de> DeserializeSeed<'de> for Lenient {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Lenient {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_i128<E>(self, v: i128) -> Result<Value, E> {
        Ok(i64::try_from(v).map_or_else(|_| (v as f64).into(), Value::from))
    }

    fn visit_u128<E>(self, v: u128) -> Result<Value, E> {
        Ok(u64::try_from(v).map_or_else(|_| (v as f64).into(), Value::from))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        Lenient.deserialize(deserializer)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (_, variant): (String, _) = data.variant()?;
        variant.newtype_variant_seed(Lenient)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Lenient)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Lenient)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

fn parse(path: &Path) -> Result<usize, String> {
    Ok(read(path)?.as_object().map_or(0, |o| o.len()))
}

/// The document at `path` and every file its `$ref`s name, transitively, each parsed once.
fn parse_with_refs(path: &Path) -> Result<usize, String> {
    let mut seen = std::collections::HashSet::new();
    let mut queue = vec![path.to_path_buf()];
    let mut keys = 0;
    while let Some(file) = queue.pop() {
        let Ok(canonical) = file.canonicalize() else { continue };
        if !seen.insert(canonical) {
            continue;
        }
        // The document itself must parse; a file it names that does not is left out, as `ois`
        // reports it and goes on.
        let value = match read(&file) {
            Ok(value) => value,
            Err(err) if file == path => return Err(err),
            Err(_) => continue,
        };
        keys += value.as_object().map_or(0, |o| o.len());
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut stack = vec![&value];
        while let Some(node) = stack.pop() {
            match node {
                Value::Object(map) => {
                    if let Some(Value::String(reference)) = map.get("$ref") {
                        let location = reference.split('#').next().unwrap_or_default();
                        if !location.is_empty() && !location.contains("://") {
                            queue.push(dir.join(location));
                        }
                    }
                    stack.extend(map.values());
                }
                Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }
    Ok(keys)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "json" | "yaml" | "yml")) {
            files.push(path);
        }
    }
}

fn main() -> ExitCode {
    let inputs: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if inputs.is_empty() {
        eprintln!("usage: floor FILE|DIR...");
        return ExitCode::from(2);
    }
    if let [single] = inputs.as_slice()
        && single.is_file()
    {
        return match parse_with_refs(single) {
            Ok(keys) => {
                println!("{keys}");
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("{}: {err}", single.display());
                ExitCode::FAILURE
            }
        };
    }
    let mut files = Vec::new();
    for input in &inputs {
        if input.is_dir() { walk(input, &mut files) } else { files.push(input.clone()) }
    }
    let parsed = files.par_iter().filter(|f| parse(f).is_ok()).count();
    println!("{parsed} of {} files parsed", files.len());
    ExitCode::SUCCESS
}
