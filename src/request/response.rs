//! Response preview: `_path` extraction, `_times` multiplication, `_type` casting and ABI encoding
//! as `extractAndEncodeResponse` of `@api3/airnode-adapter` 0.15 does them (ground truth §3.2).
//! ABI encoding and checksums come from alloy.

use std::borrow::Cow;

use alloy_dyn_abi::{DynSolType, DynSolValue};
use alloy_primitives::{Address, B256, I256, U256};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic};
use crate::js;
use crate::ois::reserved::{escape_aware_split, parse_type};

/// The node refuses encoded values larger than this (single values only).
pub const MAX_ENCODED_SIZE: usize = 16_384;

/// What the node would put on chain.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Preview {
    /// The extracted (and cast, multiplied) values, one per `_type`.
    pub values: Vec<Value>,
    /// The ABI encoding, `0x…`.
    pub encoded: String,
}

/// The response's problems are about the response, not the OIS.
fn fail(code: Code, message: impl Into<String>) -> Diagnostic {
    Diagnostic::elsewhere(code, message)
}

/// Extracts and encodes `data` with the resolved reserved parameters (`_type`, `_path`, `_times`).
/// `now` is the unix time `timestamp` encodes.
pub fn extract_and_encode(data: &Value, reserved: &Map<String, Value>, now: u64) -> Result<Preview, Diagnostic> {
    // The adapter sees the response as `JSON.parse` made it (integers rounded to doubles).
    let data = &*js::as_parsed_borrowed(data);
    encode_read(&|path| extract_value(data, path).map(Cow::Borrowed), reserved, now)
}

/// [`extract_and_encode`] of an API's JSON body, each `_path` read from its text where it lies
/// unless its value is built.
pub fn extract_and_encode_body(
    body: &super::JsonBody,
    reserved: &Map<String, Value>,
    now: u64,
) -> Result<Preview, Diagnostic> {
    encode_read(&|path| body.value_at(path), reserved, now)
}

/// What reads the value at a `_path` (the whole answer for none).
type Read<'r, 'v> = &'r dyn Fn(Option<&str>) -> Result<Cow<'v, Value>, Diagnostic>;

fn encode_read(read: Read<'_, '_>, reserved: &Map<String, Value>, now: u64) -> Result<Preview, Diagnostic> {
    let get = |name: &str| reserved.get(name).map(js::string).filter(|s| !s.is_empty());
    let Some(types) = get("_type") else {
        return Err(fail(Code::InvalidType, "no _type: the node cannot encode a response without it").with_help(
            "add a `_type` reserved parameter (fixed or default), or give `_type` as a requester parameter",
        ));
    };
    let (path, times) = (get("_path"), get("_times"));
    let split_types = escape_aware_split(&types, ',');
    let split = |value: &Option<String>, name: &str| -> Result<Option<Vec<String>>, Diagnostic> {
        let Some(value) = value else { return Ok(None) };
        let parts = escape_aware_split(value, ',');
        if parts.len() != split_types.len() {
            return Err(fail(
                Code::ReservedMismatch,
                format!(
                    "Unexpected number of parsed reserved parameters. Number of \"_types\" parameters = {}, but \"{name}\" has only {}",
                    split_types.len(),
                    parts.len()
                ),
            ));
        }
        Ok(Some(parts))
    };
    let (paths, timeses) = (split(&path, "_path")?, split(&times, "_times")?);
    if split_types.len() > 1 {
        let mut values = Vec::new();
        let mut sol_values = Vec::new();
        for (index, kind) in split_types.iter().enumerate() {
            let part = |list: &Option<Vec<String>>| {
                list.as_ref().and_then(|l| l.get(index)).filter(|s| !s.is_empty()).cloned()
            };
            let (value, sol) = extract_single(read, kind, part(&paths).as_deref(), part(&timeses).as_deref(), now)?;
            values.push(value);
            sol_values.push(sol);
        }
        let encoded = DynSolValue::Tuple(sol_values).abi_encode_params();
        return Ok(Preview { values, encoded: format!("0x{}", alloy_primitives::hex::encode(encoded)) });
    }
    // A single value uses `_path` and `_times` as given (a `\,` stays escaped).
    let (value, sol) = extract_single(read, &types, path.as_deref(), times.as_deref(), now)?;
    let encoded = DynSolValue::Tuple(vec![sol]).abi_encode_params();
    if encoded.len() > MAX_ENCODED_SIZE {
        return Err(fail(
            Code::EncodedTooLarge,
            format!("Encoded value exceeds the maximum allowed size ({MAX_ENCODED_SIZE} bytes)"),
        ));
    }
    Ok(Preview { values: vec![value], encoded: format!("0x{}", alloy_primitives::hex::encode(encoded)) })
}

/// `extractSingleResponse` then the value's ABI form.
fn extract_single(
    read: Read<'_, '_>,
    kind: &str,
    path: Option<&str>,
    times: Option<&str>,
    now: u64,
) -> Result<(Value, DynSolValue), Diagnostic> {
    let Some(parsed) = parse_type(kind) else {
        return Err(fail(Code::InvalidType, format!("Invalid type: {kind}")));
    };
    let base = parsed.base;
    let numeric = parsed.is_numeric();
    if !numeric && times.is_some() {
        return Err(fail(
            Code::ReservedMismatch,
            format!("Parameter \"_times\" can only be used with numeric types, but \"_type\" was \"{base}\""),
        ));
    }
    if base == "timestamp"
        && let Some(path) = path
    {
        return Err(fail(
            Code::ReservedMismatch,
            format!(
                "Parameter \"_path\" must be empty string or undefined when \"_type\" is \"timestamp\", but it was \"{path}\""
            ),
        ));
    }
    let extracted = &*read(path)?;
    let cast_error = || fail(Code::CastFailed, format!("Unable to cast value to {kind}"));
    let solidity = kind.replacen("string32", "bytes32", 1).replacen("timestamp", "uint256", 1);
    let sol_type =
        DynSolType::parse(&solidity).map_err(|_| fail(Code::InvalidType, format!("Invalid type: {kind}")))?;
    if parsed.dimensions > 0 {
        let cast =
            apply_to_array(extracted, parsed.dimensions, &|element| cast_number(element).ok_or_else(cast_error))?;
        let multiplied = if numeric { map_array(&cast, &|n| multiply(n, times)) } else { cast };
        let sol = to_sol(&multiplied, &sol_type)
            .ok_or_else(|| fail(Code::EncodingFailed, format!("invalid {kind} value")))?;
        return Ok((multiplied, sol));
    }
    let value = match base {
        "int256" | "uint256" => Value::String(multiply(&cast_number(extracted).ok_or_else(cast_error)?, times)),
        "bool" => Value::Bool(cast_bool(extracted)),
        "string" => Value::String(not_composite(extracted).map(js::string).ok_or_else(cast_error)?),
        "address" => {
            let text = not_composite(extracted).map(js::string).ok_or_else(cast_error)?;
            if !is_address(&text) {
                return Err(cast_error());
            }
            Value::String(text)
        }
        "bytes" | "bytes32" => Value::String(hexlify(&js::string(extracted)).ok_or_else(cast_error)?),
        "string32" => {
            let text: String =
                not_composite(extracted).map(js::string).ok_or_else(cast_error)?.chars().take(31).collect();
            let mut bytes = [0u8; 32];
            for (slot, byte) in bytes.iter_mut().zip(text.bytes()) {
                *slot = byte;
            }
            if text.len() > 31 {
                return Err(cast_error());
            }
            Value::String(format!("0x{}", alloy_primitives::hex::encode(bytes)))
        }
        _ => Value::String(now.to_string()),
    };
    let sol = to_sol(&value, &sol_type)
        .ok_or_else(|| fail(Code::EncodingFailed, format!("invalid {kind} value: {value}")))?;
    Ok((value, sol))
}

/// `getRawValue`: `.`-separated segments (`\.` escapes a dot) walked as JavaScript property access.
/// When a segment is missing, the message says which, and what was there instead.
pub(crate) fn extract_value<'v>(data: &'v Value, path: Option<&str>) -> Result<&'v Value, Diagnostic> {
    let Some(path) = path.filter(|p| !p.is_empty()) else { return Ok(data) };
    let mut current = data;
    let mut walked: Vec<String> = Vec::new();
    for segment in escape_aware_split(path, '.') {
        let next = match current {
            Value::Object(map) => map.get(&segment),
            Value::Array(items) => {
                segment.parse::<usize>().ok().filter(|_| canonical_index(&segment)).and_then(|i| items.get(i))
            }
            _ => None,
        };
        let Some(next) = next else {
            let shape = match current {
                Value::Object(map) => Shape::object(map.keys().cloned()),
                Value::Array(items) => Shape::Array(items.len()),
                other => Shape::Other(crate::openapi::kind_of(other)),
            };
            return Err(value_not_found(path, &walked, &segment, shape));
        };
        walked.push(segment);
        current = next;
    }
    Ok(current)
}

/// What was where a path's next step was sought.
pub(crate) enum Shape {
    /// An object: its first keys as JavaScript enumerates them, and how many more it has.
    Object { keys: Vec<String>, more: usize },
    /// An array of this many items.
    Array(usize),
    /// Neither: its kind.
    Other(&'static str),
}

impl Shape {
    /// An object of `keys` (each once, in the order the object got them).
    pub(crate) fn object(keys: impl Iterator<Item = String>) -> Shape {
        const SHOWN: usize = 12;
        let mut keys: Vec<String> = keys.collect();
        keys.sort_by_key(|key| js::key_rank(key));
        let more = keys.len().saturating_sub(SHOWN);
        keys.truncate(SHOWN);
        Shape::Object { keys, more }
    }
}

/// `path` not found: no `segment` after `walked`, where `shape` was.
pub(crate) fn value_not_found(path: &str, walked: &[String], segment: &str, shape: Shape) -> Diagnostic {
    let place = if walked.is_empty() { "the response".to_owned() } else { format!("'{}'", walked.join(".")) };
    let found = match shape {
        Shape::Object { keys, .. } if keys.is_empty() => format!("{place} is an empty object"),
        Shape::Object { keys, more } => {
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            format!("{place} has the keys {}{more}", keys.join(", "))
        }
        Shape::Array(items) => format!("{place} is an array of {items} item(s)"),
        Shape::Other(kind) => format!("{place} is {kind}, not an object"),
    };
    fail(Code::ValueNotFound, format!("Unable to find value at path: '{path}': no '{segment}' ({found})"))
}

pub(crate) fn canonical_index(segment: &str) -> bool {
    segment == "0" || (!segment.starts_with('0') && segment.bytes().all(|b| b.is_ascii_digit()))
}

fn not_composite(value: &Value) -> Option<&Value> {
    (!value.is_array() && !value.is_object()).then_some(value)
}

fn apply_to_array(
    value: &Value,
    dimensions: usize,
    cast: &dyn Fn(&Value) -> Result<String, Diagnostic>,
) -> Result<Value, Diagnostic> {
    if dimensions == 0 {
        return cast(value).map(Value::String);
    }
    let items = value
        .as_array()
        .ok_or_else(|| fail(Code::CastFailed, format!("Expected {} to be an array", js::string(value))))?;
    items.iter().map(|item| apply_to_array(item, dimensions - 1, cast)).collect::<Result<Vec<_>, _>>().map(Value::Array)
}

fn map_array(value: &Value, f: &dyn Fn(&str) -> String) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(|item| map_array(item, f)).collect()),
        Value::String(s) => Value::String(f(s)),
        other => other.clone(),
    }
}

/// `castNumber`: booleans and "true"/"false" are 1/0; everything else as `new BigNumber(value)`,
/// which must be finite. The result is a plain decimal string.
fn cast_number(value: &Value) -> Option<String> {
    match value {
        Value::Bool(b) => Some(if *b { "1" } else { "0" }.to_owned()),
        Value::String(s) if s == "true" => Some("1".to_owned()),
        Value::String(s) if s == "false" => Some("0".to_owned()),
        Value::Number(n) => decimal::parse(&js::number(n)),
        Value::String(s) => decimal::parse(s),
        _ => None,
    }
}

/// `multiplyValue`: times `_times` (if any), then cut at the decimal point (toward zero).
fn multiply(value: &str, times: Option<&str>) -> String {
    let product = match times.and_then(decimal::parse) {
        Some(times) => decimal::multiply(value, &times),
        None => value.to_owned(),
    };
    let integer = product.split('.').next().unwrap_or("0");
    if integer == "-0" { "0".to_owned() } else { integer.to_owned() }
}

fn cast_bool(value: &Value) -> bool {
    !matches!(value, Value::Null | Value::Bool(false))
        && !matches!(value.as_str(), Some("0" | "false"))
        && value.as_f64() != Some(0.0)
}

/// ethers' `hexlify` of a string: it must already be `0x` hex of even length.
fn hexlify(text: &str) -> Option<String> {
    let digits = text.strip_prefix("0x")?;
    (digits.len() % 2 == 0 && digits.bytes().all(|b| b.is_ascii_hexdigit())).then(|| text.to_ascii_lowercase())
}

/// ethers' `isAddress`: 20 bytes of hex; mixed case must be a valid checksum.
fn is_address(text: &str) -> bool {
    let Some(digits) = text.strip_prefix("0x") else { return false };
    if digits.len() != 40 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return false;
    }
    let mixed = digits.bytes().any(|b| b.is_ascii_lowercase()) && digits.bytes().any(|b| b.is_ascii_uppercase());
    !mixed || Address::parse_checksummed(text, None).is_ok()
}

/// The ABI value of a cast value for `kind`.
fn to_sol(value: &Value, kind: &DynSolType) -> Option<DynSolValue> {
    Some(match kind {
        DynSolType::Int(bits) => DynSolValue::Int(I256::from_dec_str(&number_text(value)?).ok()?, *bits),
        DynSolType::Uint(bits) => DynSolValue::Uint(U256::from_str_radix(&number_text(value)?, 10).ok()?, *bits),
        // ethers encodes any truthy value as true.
        DynSolType::Bool => DynSolValue::Bool(match value {
            Value::Bool(b) => *b,
            Value::String(s) => !s.is_empty(),
            other => cast_bool(other),
        }),
        DynSolType::String => DynSolValue::String(js::string(value)),
        DynSolType::Address => DynSolValue::Address(value.as_str()?.parse().ok()?),
        DynSolType::Bytes => DynSolValue::Bytes(alloy_primitives::hex::decode(value.as_str()?).ok()?),
        DynSolType::FixedBytes(32) => {
            let bytes = alloy_primitives::hex::decode(value.as_str()?).ok()?;
            DynSolValue::FixedBytes(B256::try_from(bytes.as_slice()).ok()?, 32)
        }
        DynSolType::Array(inner) => {
            DynSolValue::Array(value.as_array()?.iter().map(|v| to_sol(v, inner)).collect::<Option<_>>()?)
        }
        DynSolType::FixedArray(inner, size) => {
            let items = value.as_array()?;
            if items.len() != *size {
                return None;
            }
            DynSolValue::FixedArray(items.iter().map(|v| to_sol(v, inner)).collect::<Option<_>>()?)
        }
        _ => return None,
    })
}

fn number_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Exact decimal arithmetic on strings, enough for `new BigNumber(x).times(y).toString(10)`.
mod decimal {
    /// A finite number in plain decimal notation (`-12.5`), or `None` (bignumber.js: NaN).
    /// Accepts what bignumber.js accepts: decimals, exponents, and `0x`/`0b`/`0o` integers.
    pub fn parse(text: &str) -> Option<String> {
        let (negative, body) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let lower = body.to_ascii_lowercase();
        let radix = [("0x", 16), ("0b", 2), ("0o", 8)].iter().find(|(prefix, _)| lower.starts_with(prefix));
        let (digits, exponent) = if let Some((prefix, radix)) = radix {
            let rest = lower.strip_prefix(prefix)?;
            if rest.is_empty() || !rest.chars().all(|c| c.is_digit(*radix)) {
                return None;
            }
            (to_decimal(rest, *radix)?, 0i64)
        } else {
            let (mantissa, exponent) = match lower.split_once('e') {
                Some((m, e)) => (m, e.parse::<i64>().ok()?),
                None => (lower.as_str(), 0),
            };
            let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
            if (whole.is_empty() && fraction.is_empty())
                || !whole.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit())
            {
                return None;
            }
            (format!("{whole}{fraction}"), exponent.checked_sub(i64::try_from(fraction.len()).ok()?)?)
        };
        // Anything beyond 10^1000 cannot be encoded in 256 bits anyway, and anything below
        // 10^-1000 truncates to 0 even after any `_times` this accepts; bounding both keeps the
        // arithmetic linear on hostile input.
        let significant = digits.trim_start_matches('0');
        let magnitude = exponent.saturating_add(i64::try_from(significant.len()).unwrap_or(i64::MAX));
        if magnitude > MAX_DIGITS {
            return None;
        }
        if magnitude < -MAX_DIGITS {
            return Some("0".to_owned());
        }
        let rendered = render(negative, &digits, exponent);
        (!rendered.is_empty()).then_some(rendered)
    }

    /// Decimal digits beyond which numbers are not represented exactly (see `parse`).
    const MAX_DIGITS: i64 = 1000;

    fn to_decimal(digits: &str, radix: u32) -> Option<String> {
        let mut result = vec![0u8];
        for c in digits.chars() {
            let digit = c.to_digit(radix)?;
            let mut carry = digit;
            for slot in result.iter_mut() {
                let value = u32::from(*slot) * radix + carry;
                *slot = u8::try_from(value % 10).ok()?;
                carry = value / 10;
            }
            while carry > 0 {
                result.push(u8::try_from(carry % 10).ok()?);
                carry /= 10;
            }
        }
        Some(result.iter().rev().map(|d| char::from(b'0' + d)).collect())
    }

    /// digits × 10^exponent in plain notation, without redundant zeros.
    fn render(negative: bool, digits: &str, exponent: i64) -> String {
        let digits = digits.trim_start_matches('0');
        if digits.is_empty() || !(-100_000..=100_000).contains(&exponent) {
            return if digits.is_empty() { "0".to_owned() } else { String::new() };
        }
        let mut text = if exponent >= 0 {
            format!("{digits}{}", "0".repeat(usize::try_from(exponent).unwrap_or(0)))
        } else {
            let shift = usize::try_from(-exponent).unwrap_or(0);
            let padded = format!("{}{digits}", "0".repeat(shift.saturating_sub(digits.len()) + 1));
            let split = padded.len() - shift;
            let (whole, fraction) = padded.split_at(split);
            let fraction = fraction.trim_end_matches('0');
            let whole = whole.trim_start_matches('0');
            let whole = if whole.is_empty() { "0" } else { whole };
            if fraction.is_empty() { whole.to_owned() } else { format!("{whole}.{fraction}") }
        };
        if negative && text != "0" {
            text.insert(0, '-');
        }
        text
    }

    /// The exact product of two plain decimals.
    pub fn multiply(a: &str, b: &str) -> String {
        let split = |s: &str| -> (bool, String, i64) {
            let (negative, body) = s.strip_prefix('-').map_or((false, s), |rest| (true, rest));
            let (whole, fraction) = body.split_once('.').unwrap_or((body, ""));
            (negative, format!("{whole}{fraction}"), -i64::try_from(fraction.len()).unwrap_or(0))
        };
        let (na, da, ea) = split(a);
        let (nb, db, eb) = split(b);
        let x: Vec<u32> = da.bytes().rev().map(|d| u32::from(d.wrapping_sub(b'0'))).collect();
        let y: Vec<u32> = db.bytes().rev().map(|d| u32::from(d.wrapping_sub(b'0'))).collect();
        let mut product = vec![0u32; x.len() + y.len() + 1];
        for (i, dx) in x.iter().enumerate() {
            for (j, dy) in y.iter().enumerate() {
                if let Some(slot) = product.get_mut(i + j) {
                    *slot += dx * dy;
                }
            }
        }
        let mut carry = 0;
        for slot in product.iter_mut() {
            let value = *slot + carry;
            *slot = value % 10;
            carry = value / 10;
        }
        let digits: String = product.iter().rev().map(|d| char::from(b'0' + u8::try_from(*d).unwrap_or(0))).collect();
        render(na != nb, &digits, ea + eb)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn parses_like_bignumber() {
            assert_eq!(parse("123.456789").as_deref(), Some("123.456789"));
            assert_eq!(parse("1e18").as_deref(), Some("1000000000000000000"));
            assert_eq!(parse("-7.90").as_deref(), Some("-7.9"));
            assert_eq!(parse("0x1f").as_deref(), Some("31"));
            assert_eq!(parse(".5").as_deref(), Some("0.5"));
            assert_eq!(parse("1.5e-3").as_deref(), Some("0.0015"));
            assert_eq!(parse("abc"), None);
            assert_eq!(parse(""), None);
            assert_eq!(parse("1e5000"), None);
            assert_eq!(parse("1e-5000").as_deref(), Some("0"));
        }

        #[test]
        fn multiplies_exactly() {
            assert_eq!(multiply("123.456789", "1000000"), "123456789");
            assert_eq!(multiply("-7.9", "1"), "-7.9");
            assert_eq!(multiply("0.1", "0.2"), "0.02");
            assert_eq!(
                multiply("99999999999999999999", "1000000000000000000"),
                "99999999999999999999000000000000000000"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_missing_path_says_which_segment_and_what_was_there() {
        let data = json!({"data": {"quote": {"EUR": 1.1, "GBP": 0.9}}, "list": [1]});
        let message = |path: &str| extract_value(&data, Some(path)).unwrap_err().message;
        assert_eq!(
            message("data.quote.USD"),
            "Unable to find value at path: 'data.quote.USD': no 'USD' ('data.quote' has the keys EUR, GBP)"
        );
        assert!(message("list.3").ends_with("('list' is an array of 1 item(s))"));
        assert!(
            message("data.quote.EUR.x").ends_with("('data.quote.EUR' is a number, not an object)"),
            "{}",
            message("data.quote.EUR.x")
        );
    }

    fn run(data: Value, reserved: Value) -> Result<Preview, Code> {
        extract_and_encode(&data, reserved.as_object().unwrap(), 1_700_000_000).map_err(|d| d.code)
    }

    #[test]
    fn ground_truth_examples() {
        let data = json!({"price": "123.456789", "neg": -7.9, "str": "hello", "long": "a".repeat(40),
            "dotted.key": 5, "comma,key": 6, "strs": ["a", "b"], "bools": [1, 0]});
        let values = |r: Value| run(data.clone(), r).unwrap().values;
        assert_eq!(values(json!({"_type": "int256", "_path": "price", "_times": "1000000"})), [json!("123456789")]);
        assert_eq!(values(json!({"_type": "int256", "_path": "neg", "_times": "1"})), [json!("-7")]);
        assert_eq!(run(data.clone(), json!({"_type": "uint256", "_path": "neg"})), Err(Code::EncodingFailed));
        assert_eq!(values(json!({"_type": "bool", "_path": "str"})), [json!(true)]);
        assert_eq!(run(data.clone(), json!({"_type": "bytes32", "_path": "str"})), Err(Code::CastFailed));
        assert_eq!(run(data.clone(), json!({"_type": "timestamp", "_path": "price"})), Err(Code::ReservedMismatch));
        assert_eq!(values(json!({"_type": "int256", "_path": "dotted\\.key"})), [json!("5")]);
        assert_eq!(run(data.clone(), json!({"_type": "int256", "_path": "comma\\,key"})), Err(Code::ValueNotFound));
        assert_eq!(values(json!({"_type": "int256,int256", "_path": "comma\\,key,price"})), [json!("6"), json!("123")]);
        assert_eq!(
            values(json!({"_type": "int256,string,timestamp", "_path": "price,str,", "_times": "100,,"})),
            [json!("12345"), json!("hello"), json!("1700000000")]
        );
        assert_eq!(run(data.clone(), json!({"_type": "string[]", "_path": "strs"})), Err(Code::CastFailed));
        assert_eq!(run(data.clone(), json!({"_type": "int8", "_path": "price"})), Err(Code::InvalidType));
        let string32 = run(data, json!({"_type": "string32", "_path": "long"})).unwrap();
        assert_eq!(string32.encoded, format!("0x{}00", "61".repeat(31)));
    }

    #[test]
    fn encodes_like_ethers() {
        let preview = run(json!(42), json!({"_type": "int256"})).unwrap();
        assert_eq!(preview.encoded, format!("0x{:064x}", 42));
        let negative = run(json!(-1), json!({"_type": "int256"})).unwrap();
        assert_eq!(negative.encoded, format!("0x{}", "f".repeat(64)));
    }
}
