//! Airnode ABI decoded as `@api3/airnode-abi` 0.15's `decode` decodes a template's
//! `encodedParameters` in airnode-node (ethers v5 underneath): the header's version and letters,
//! then `abi.decode(bytes32 header, bytes32 name1, T1 value1, …)`, which must re-encode to exactly
//! the text given (lowercase hex, nothing trailing); names and string32 values bytes32 strings (a
//! zero byte ends the word, UTF-8). Values come out as the node hands them to the request: integers
//! as decimal text, addresses checksummed, bytes as lowercase hex, bools as booleans.

use alloy_dyn_abi::{DynSolType, DynSolValue};
use serde_json::Value;

use super::ids::PARAMETER_TYPES;
use crate::diagnostic::{Code, Diagnostic};

fn refuse(message: String) -> Diagnostic {
    Diagnostic::elsewhere(Code::UndecodableParameters, message)
}

/// ethers' `parseBytes32String`: the word must end in a zero byte; the bytes before its trailing
/// zeros (zeros within kept) as UTF-8.
fn bytes32_string(word: &[u8], what: &str) -> Result<String, Diagnostic> {
    if word.len() != 32 || word.last() != Some(&0) {
        return Err(refuse(format!("{what} is not a bytes32 string (it does not end in a zero byte)")));
    }
    let end = word.iter().rposition(|b| *b != 0).map_or(0, |last| last + 1);
    let text = word.get(..end).unwrap_or_default();
    String::from_utf8(text.to_vec()).map_err(|_| refuse(format!("{what} is not UTF-8")))
}

/// The parameters `encoded` (`0x…`) holds, in order, as the node reads them; a later parameter
/// of a name already read replaces its value in its first place.
pub fn decode_parameters(encoded: &str) -> Result<Vec<(String, Value)>, Diagnostic> {
    if encoded == "0x" {
        return Ok(Vec::new());
    }
    let digits = encoded
        .strip_prefix("0x")
        .filter(|d| d.len() % 2 == 0)
        .ok_or_else(|| refuse("encodedParameters is not 0x-prefixed hex of whole bytes".to_owned()))?;
    let bytes = alloy_primitives::hex::decode(digits)
        .map_err(|_| refuse("encodedParameters is not 0x-prefixed hex".to_owned()))?;
    let header = bytes32_string(bytes.get(..32).unwrap_or(&bytes), "the header")?;
    let mut letters = header.chars();
    match letters.next() {
        Some('1') => {}
        version => {
            let version = version.map(String::from).unwrap_or_default();
            return Err(refuse(format!("unknown Airnode ABI version \"{version}\" (the header must start with 1)")));
        }
    }
    let mut kinds = Vec::new();
    let mut types = vec![DynSolType::FixedBytes(32)];
    for letter in letters {
        let (kind, _) = PARAMETER_TYPES
            .iter()
            .find(|(_, l)| *l == letter)
            .ok_or_else(|| refuse(format!("the header names an unknown type letter '{letter}'")))?;
        let solidity = match *kind {
            "bytes" => DynSolType::Bytes,
            "bytes32" | "string32" => DynSolType::FixedBytes(32),
            "string" => DynSolType::String,
            "address" => DynSolType::Address,
            "int256" => DynSolType::Int(256),
            "uint256" => DynSolType::Uint(256),
            _ => DynSolType::Bool,
        };
        kinds.push(*kind);
        types.extend([DynSolType::FixedBytes(32), solidity]);
    }
    // What decoding allocates is bounded by the input: overlapping or out-of-order offsets (30
    // parameters all pointing at one 16 MB value) would otherwise each be copied in full.
    canonical_layout(&bytes, &types)?;
    let tuple = DynSolType::Tuple(types);
    let decoded = tuple
        .abi_decode_params(&bytes)
        .map_err(|error| refuse(format!("the parameters do not decode as their header says: {error}")))?;
    // airnode-abi re-encodes and compares the text: anything non-canonical (trailing bytes, dirty
    // padding, uppercase hex) is refused.
    let canonical = format!("0x{}", alloy_primitives::hex::encode(decoded.abi_encode_params()));
    if canonical != encoded {
        return Err(refuse("the parameters do not re-encode to the same text (\"Re-encoding mismatch\")".to_owned()));
    }
    let DynSolValue::Tuple(values) = decoded else { return Err(refuse("not a tuple".to_owned())) };
    let mut parameters: Vec<(String, Value)> = Vec::new();
    for (index, (pair, kind)) in values.get(1..).unwrap_or_default().chunks(2).zip(kinds).enumerate() {
        let [DynSolValue::FixedBytes(name, _), value] = pair else {
            return Err(refuse(format!("parameter {} has no name", index + 1)));
        };
        let name = bytes32_string(name.as_slice(), &format!("the name of parameter {}", index + 1))?;
        let value = match (kind, value) {
            ("string32", DynSolValue::FixedBytes(word, _)) => {
                Value::String(bytes32_string(word.as_slice(), &format!("parameter \"{name}\""))?)
            }
            (_, DynSolValue::FixedBytes(word, _)) => Value::String(word.to_string()),
            (_, DynSolValue::Bytes(bytes)) => Value::String(format!("0x{}", alloy_primitives::hex::encode(bytes))),
            (_, DynSolValue::String(text)) => Value::String(text.clone()),
            (_, DynSolValue::Address(address)) => Value::String(address.to_checksum(None)),
            (_, DynSolValue::Int(int, _)) => Value::String(int.to_string()),
            (_, DynSolValue::Uint(uint, _)) => Value::String(uint.to_string()),
            (_, DynSolValue::Bool(bool)) => Value::Bool(*bool),
            _ => return Err(refuse(format!("parameter \"{name}\" is not a {kind}"))),
        };
        match parameters.iter_mut().find(|(known, _)| *known == name) {
            Some((_, slot)) => *slot = value,
            None => parameters.push((name, value)),
        }
    }
    Ok(parameters)
}

/// The 32-byte word at `at` as a length or offset, when it is one this input can hold.
fn word_as_offset(bytes: &[u8], at: usize) -> Option<usize> {
    let word = bytes.get(at..at.checked_add(32)?)?;
    let (high, low) = word.split_at(24);
    if high.iter().any(|b| *b != 0) {
        return None;
    }
    let value = low.iter().fold(0u64, |value, byte| (value << 8) | u64::from(*byte));
    usize::try_from(value).ok().filter(|value| *value <= bytes.len())
}

/// Refuses an encoding whose dynamic values are not laid out as the encoder lays them out: each
/// where the one before ends, in order, none shared, nothing after the last. airnode-abi refuses
/// these anyway (they do not re-encode to the same text); refusing them before decoding keeps
/// what decoding allocates within the input's size.
fn canonical_layout(bytes: &[u8], types: &[DynSolType]) -> Result<(), Diagnostic> {
    let not_canonical =
        || refuse("the parameters do not re-encode to the same text (\"Re-encoding mismatch\")".to_owned());
    let head = types.len().checked_mul(32).ok_or_else(not_canonical)?;
    let mut end = head;
    for (index, kind) in types.iter().enumerate() {
        if !matches!(kind, DynSolType::Bytes | DynSolType::String) {
            continue;
        }
        let offset = word_as_offset(bytes, index * 32).ok_or_else(not_canonical)?;
        if offset != end {
            return Err(not_canonical());
        }
        let length = word_as_offset(bytes, offset).ok_or_else(not_canonical)?;
        end = length
            .div_ceil(32)
            .checked_mul(32)
            .and_then(|padded| offset.checked_add(32)?.checked_add(padded))
            .ok_or_else(not_canonical)?;
        if end > bytes.len() {
            return Err(not_canonical());
        }
    }
    if end != bytes.len() && types.iter().any(|kind| matches!(kind, DynSolType::Bytes | DynSolType::String)) {
        return Err(not_canonical());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::ids::{TemplateParameter, encode_parameters};
    use serde_json::json;

    fn encoded(parameters: &[(&str, &str, Value)]) -> String {
        let list: Vec<TemplateParameter> = parameters
            .iter()
            .map(|(kind, name, value)| TemplateParameter {
                kind: (*kind).to_owned(),
                name: (*name).to_owned(),
                value: value.clone(),
            })
            .collect();
        format!("0x{}", alloy_primitives::hex::encode(encode_parameters(&list).map(|e| e.bytes).unwrap_or_default()))
    }

    #[test]
    fn what_is_encoded_decodes_as_the_node_reads_it() {
        let text = encoded(&[
            ("string32", "coinId", json!("bitcoin")),
            ("uint256", "decimals", json!("0x10")),
            ("bool", "live", json!("")),
            ("address", "to", json!("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")),
            ("bytes", "data", json!("0xABcd")),
        ]);
        let decoded = decode_parameters(&text).map_err(|d| d.message).unwrap_or_default();
        assert_eq!(
            Value::Object(decoded.into_iter().collect()),
            json!({"coinId": "bitcoin", "decimals": "16", "live": false,
                "to": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "data": "0xabcd"})
        );
        assert_eq!(decode_parameters("0x").ok(), Some(Vec::new()));
    }

    #[test]
    fn anything_airnode_abi_refuses_is_refused() {
        let good = encoded(&[("string32", "z", json!("b"))]);
        let cases = [
            good.to_uppercase().replacen("0X", "0x", 1),
            format!("{good}00"),
            good.replacen("0x31", "0x32", 1),
            good.get(..good.len() - 64).unwrap_or_default().to_owned(),
            "0x1".to_owned(),
            "zz".to_owned(),
        ];
        for case in cases {
            assert!(decode_parameters(&case).is_err(), "{case}");
        }
    }

    #[test]
    fn dynamic_values_must_be_laid_out_as_encoded() {
        let good = encoded(&[
            ("bytes", "a", json!("0x0102")),
            ("string", "b", json!("x".repeat(70))),
            ("uint256", "c", json!("7")),
            ("string", "d", json!("")),
        ]);
        assert!(decode_parameters(&good).is_ok(), "{good}");
        // Every dynamic parameter's offset pointing at the first one's value: refused before
        // decoding, however many there are.
        let value = "ab".repeat(4096);
        let many: Vec<(&str, String, Value)> =
            (0..30).map(|i| ("bytes", format!("p{i}"), json!(format!("0x{value}")))).collect();
        let many: Vec<(&str, &str, Value)> = many.iter().map(|(k, n, v)| (*k, n.as_str(), v.clone())).collect();
        let text = encoded(&many);
        let mut bytes = alloy_primitives::hex::decode(text.trim_start_matches("0x")).unwrap_or_default();
        let first = bytes.get(64..96).map(<[u8]>::to_vec).unwrap_or_default();
        for parameter in 1..30 {
            let at = (2 + parameter * 2) * 32;
            if let Some(word) = bytes.get_mut(at..at + 32) {
                word.copy_from_slice(&first);
            }
        }
        let shared = format!("0x{}", alloy_primitives::hex::encode(&bytes));
        let refused = decode_parameters(&shared).err().map(|d| d.message).unwrap_or_default();
        assert!(refused.contains("Re-encoding mismatch"), "{refused}");
        // An offset or a length beyond the input.
        let mut beyond = alloy_primitives::hex::decode(good.trim_start_matches("0x")).unwrap_or_default();
        if let Some(word) = beyond.get_mut(64..96) {
            word.fill(0xff);
        }
        assert!(decode_parameters(&format!("0x{}", alloy_primitives::hex::encode(&beyond))).is_err());
    }
}
