//! Template parameters in Airnode ABI, and the IDs derived from them, as `@api3/airnode-abi` 0.15
//! encodes and `@api3/commons` derives them (ethers v5 underneath): surprises included, each
//! reported.
//!
//! - parameters: `abi.encode(bytes32 header, bytes32 name1, T1 value1, …)`, the header the
//!   bytes32 string of `"1"` and one letter per type (`B` bytes, `b` bytes32, `S` string, `s`
//!   string32, `a` address, `i` int256, `u` uint256, `f` bool), names and string32 values bytes32
//!   strings;
//! - Airnode Feed template ID: `keccak256(abi.encodePacked(bytes32 endpointId, bytes parameters))`;
//! - beacon ID: `keccak256(abi.encodePacked(address airnode, bytes32 templateId))`;
//! - OEV template ID: `keccak256(templateId)`;
//! - beacon set ID: `keccak256(abi.encode(bytes32[] beaconIds))`, in the order given;
//! - endpoint ID: `keccak256(abi.encode(string oisTitle, string endpointName))`;
//! - Airnode (RRP) template ID: `keccak256(abi.encodePacked(address airnode, bytes32 endpointId,
//!   bytes parameters))`;
//! - the Airnode address: the first BIP-44 account of the wallet mnemonic.

use crate::pointer::Member as _;
use alloy_dyn_abi::DynSolValue;
use alloy_primitives::{Address, B256, I256, U256, keccak256};
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Fix};

/// The types a template parameter can have, with their header letters.
pub const PARAMETER_TYPES: &[(&str, char)] = &[
    ("bytes", 'B'),
    ("bytes32", 'b'),
    ("string", 'S'),
    ("string32", 's'),
    ("address", 'a'),
    ("int256", 'i'),
    ("uint256", 'u'),
    ("bool", 'f'),
];

/// One template parameter: `{type, name, value}`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct TemplateParameter {
    /// One of [`PARAMETER_TYPES`].
    #[serde(rename = "type")]
    pub kind: String,
    /// The parameter's name (at most 31 bytes).
    pub name: String,
    /// Its value as the config holds it (a string, usually).
    pub value: Value,
}

/// Parameters encoded, and what about them surprises people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// The Airnode ABI encoding.
    pub bytes: Vec<u8>,
    /// Values the encoder reads otherwise than they read (`"false"` as a bool is true).
    pub surprises: Vec<Diagnostic>,
}

fn refuse(message: String) -> Diagnostic {
    Diagnostic::elsewhere(Code::BadTemplateParameter, message)
}

/// ethers' `formatBytes32String`: the UTF-8 bytes, at most 31, zero-padded.
fn bytes32_string(text: &str, what: &str) -> Result<B256, Diagnostic> {
    let bytes = text.as_bytes();
    if bytes.len() > 31 {
        return Err(refuse(format!("{what} \"{text}\" is {} bytes; a bytes32 string holds at most 31", bytes.len())));
    }
    let mut word = [0u8; 32];
    word.get_mut(..bytes.len()).into_iter().for_each(|slot| slot.copy_from_slice(bytes));
    Ok(B256::from(word))
}

/// ethers' `arrayify` of a string: `0x` and an even number of hex digits.
fn hex_bytes(text: &str, what: &str) -> Result<Vec<u8>, Diagnostic> {
    // ethers' isHexString: a lowercase `0x` only.
    let digits = text.strip_prefix("0x").ok_or_else(|| refuse(format!("{what}: \"{text}\" is not 0x-prefixed hex")))?;
    if digits.len() % 2 == 1 {
        return Err(refuse(format!("{what}: \"{text}\" has an odd number of hex digits")));
    }
    alloy_primitives::hex::decode(digits).map_err(|_| refuse(format!("{what}: \"{text}\" is not hex")))
}

/// ethers' `BigNumber.from`: a decimal or `0x` hex integer, optionally negative, or a safe
/// integer number.
fn big_integer(value: &Value, what: &str) -> Result<(bool, U256), Diagnostic> {
    let text = match value {
        Value::String(text) => text.clone(),
        Value::Number(number) if number.as_i64().is_some() || number.as_u64().is_some() => number.to_string(),
        other => return Err(refuse(format!("{what}: {other} is not an integer"))),
    };
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    let parsed = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(hex) if !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit()) => {
            U256::from_str_radix(hex, 16).ok()
        }
        Some(_) => None,
        None if !body.is_empty() && body.chars().all(|c| c.is_ascii_digit()) => U256::from_str_radix(body, 10).ok(),
        None => None,
    };
    let magnitude = parsed.ok_or_else(|| refuse(format!("{what}: \"{text}\" is not an integer the encoder reads")))?;
    Ok((negative && !magnitude.is_zero(), magnitude))
}

fn value_of(parameter: &TemplateParameter, surprises: &mut Vec<Diagnostic>) -> Result<DynSolValue, Diagnostic> {
    let what = format!("parameter \"{}\" ({})", parameter.name, parameter.kind);
    let text = || match &parameter.value {
        Value::String(text) => Ok(text.clone()),
        other => Err(refuse(format!("{what}: {other} is not a string"))),
    };
    Ok(match parameter.kind.as_str() {
        "bytes" => DynSolValue::Bytes(hex_bytes(&text()?, &what)?),
        "bytes32" => {
            let bytes = hex_bytes(&text()?, &what)?;
            let word: [u8; 32] =
                bytes.try_into().map_err(|b: Vec<u8>| refuse(format!("{what}: {} bytes, not 32", b.len())))?;
            DynSolValue::FixedBytes(B256::from(word), 32)
        }
        "string" => DynSolValue::String(text()?),
        "string32" => DynSolValue::FixedBytes(bytes32_string(&text()?, &what)?, 32),
        "address" => {
            let text = text()?;
            let address: Address = text.parse().map_err(|_| refuse(format!("{what}: \"{text}\" is not an address")))?;
            // ethers refuses a mixed-case address whose case is not its checksum.
            let digits = text.trim_start_matches("0x");
            let mixed =
                digits.chars().any(|c| c.is_ascii_lowercase()) && digits.chars().any(|c| c.is_ascii_uppercase());
            if mixed && address.to_checksum(None) != text {
                return Err(refuse(format!("{what}: \"{text}\" has a bad checksum")));
            }
            DynSolValue::Address(address)
        }
        "int256" => {
            let (negative, magnitude) = big_integer(&parameter.value, &what)?;
            let out_of_range = || refuse(format!("{what}: out of the int256 range"));
            // -2^255 is in range although its magnitude is not a positive int256.
            let signed = if negative && magnitude == I256::MIN.unsigned_abs() {
                I256::MIN
            } else {
                let positive = I256::try_from(magnitude).map_err(|_| out_of_range())?;
                if negative { positive.checked_neg().ok_or_else(out_of_range)? } else { positive }
            };
            DynSolValue::Int(signed, 256)
        }
        "uint256" => {
            let (negative, magnitude) = big_integer(&parameter.value, &what)?;
            if negative {
                return Err(refuse(format!("{what}: a negative value for uint256")));
            }
            DynSolValue::Uint(magnitude, 256)
        }
        "bool" => {
            let truthy = crate::js::is_truthy(&parameter.value);
            if let Value::String(text) = &parameter.value
                && truthy
                && ["false", "0", "no", "off"].contains(&text.to_ascii_lowercase().as_str())
            {
                surprises.push(
                    Diagnostic::elsewhere(
                        Code::TemplateValueSurprise,
                        format!(
                            "{what}: \"{text}\" is encoded as true: the encoder reads any non-empty string as true"
                        ),
                    )
                    .with_help("give an empty string for false, or \"true\""),
                );
            }
            DynSolValue::Bool(truthy)
        }
        other => {
            let known: Vec<&str> = PARAMETER_TYPES.iter().map(|(t, _)| *t).collect();
            return Err(refuse(format!(
                "parameter \"{}\": unknown type \"{other}\" (one of {})",
                parameter.name,
                known.join(", ")
            )));
        }
    })
}

/// Encodes `parameters` as Airnode ABI, or says why the encoder refuses them.
pub fn encode_parameters(parameters: &[TemplateParameter]) -> Result<Encoded, Diagnostic> {
    let mut header = String::from("1");
    for parameter in parameters {
        if let Some((_, letter)) = PARAMETER_TYPES.iter().find(|(t, _)| *t == parameter.kind) {
            header.push(*letter);
        }
    }
    let mut values =
        vec![DynSolValue::FixedBytes(bytes32_string(&header, "the header (one letter per parameter)")?, 32)];
    let mut surprises = Vec::new();
    for parameter in parameters {
        values.push(DynSolValue::FixedBytes(bytes32_string(&parameter.name, "the name")?, 32));
        values.push(value_of(parameter, &mut surprises)?);
    }
    Ok(Encoded { bytes: DynSolValue::Tuple(values).abi_encode_params(), surprises })
}

/// The parameters of a template as a config holds them: `[{type, name, value}]`.
pub fn parameters_from_json(list: &Value) -> Result<Vec<TemplateParameter>, Diagnostic> {
    let items = list
        .as_array()
        .ok_or_else(|| refuse("template parameters must be an array of {type, name, value}".to_owned()))?;
    items
        .iter()
        .map(|item| {
            let field = |key: &str| item.get(key).and_then(Value::as_str).map(str::to_owned);
            match (field("type"), field("name"), item.member("value")) {
                (Some(kind), Some(name), Some(value)) => Ok(TemplateParameter { kind, name, value: value.clone() }),
                _ => Err(refuse(format!("{item} is not {{type, name, value}}"))),
            }
        })
        .collect()
}

/// A template written on one line, `ENDPOINT:NAME=TYPE:VALUE,NAME=TYPE:VALUE` (a value may hold
/// `:`; `\,` is a comma in a value, `\\` a backslash): the endpoint's name and the parameters.
pub fn parse_template(text: &str) -> Result<(String, Vec<TemplateParameter>), Diagnostic> {
    let bad = |message: String| Diagnostic::elsewhere(Code::BadArgument, message);
    let (endpoint, rest) = text.split_once(':').ok_or_else(|| {
        bad(format!("{text}: expected ENDPOINT:NAME=TYPE:VALUE,... (e.g. feed:name=string32:BTC/USD)"))
    })?;
    let mut parameters = Vec::new();
    let parts = split_unescaped(rest);
    for (index, part) in parts.iter().enumerate().filter(|(_, p)| !p.is_empty()) {
        let (name, typed) = part.split_once('=').ok_or_else(|| {
            let told = bad(format!("{text}: \"{part}\" is not NAME=TYPE:VALUE"));
            // After a parameter, a part with no `=` is most likely the rest of a value with a comma.
            if index > 0 { told.with_fix(Fix::EscapeComma) } else { told }
        })?;
        let (kind, value) =
            typed.split_once(':').ok_or_else(|| bad(format!("{text}: \"{typed}\" is not TYPE:VALUE")))?;
        parameters.push(TemplateParameter {
            kind: kind.to_owned(),
            name: name.to_owned(),
            value: Value::String(value.to_owned()),
        });
    }
    Ok((endpoint.to_owned(), parameters))
}

/// `text` split at each comma not escaped as `\,`; `\,` and `\\` unescaped.
fn split_unescaped(text: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        let current = parts.last_mut();
        match (c, current) {
            ('\\', Some(part)) => match chars.next() {
                Some(next @ (',' | '\\')) => part.push(next),
                Some(next) => {
                    part.push('\\');
                    part.push(next);
                }
                None => part.push('\\'),
            },
            (',', _) => parts.push(String::new()),
            (c, Some(part)) => part.push(c),
            (_, None) => {}
        }
    }
    parts
}

/// An Airnode Feed template ID.
pub fn feed_template_id(endpoint_id: B256, encoded_parameters: &[u8]) -> B256 {
    let mut packed = Vec::with_capacity(32 + encoded_parameters.len());
    packed.extend_from_slice(endpoint_id.as_slice());
    packed.extend_from_slice(encoded_parameters);
    keccak256(packed)
}

/// A beacon ID.
pub fn beacon_id(airnode: Address, template_id: B256) -> B256 {
    let mut packed = Vec::with_capacity(52);
    packed.extend_from_slice(airnode.as_slice());
    packed.extend_from_slice(template_id.as_slice());
    keccak256(packed)
}

/// The OEV template ID of a template.
pub fn oev_template_id(template_id: B256) -> B256 {
    keccak256(template_id.as_slice())
}

/// A beacon set ID, of the beacons in the order given (the order changes it).
pub fn beacon_set_id(beacon_ids: &[B256]) -> B256 {
    let list = DynSolValue::Array(beacon_ids.iter().map(|id| DynSolValue::FixedBytes(*id, 32)).collect());
    keccak256(DynSolValue::Tuple(vec![list]).abi_encode_params())
}

/// `keccak256(abi.encode(string title, string endpointName))`, as `0x…`.
pub fn endpoint_id(title: &str, endpoint: &str) -> String {
    let encoded =
        DynSolValue::Tuple(vec![DynSolValue::String(title.to_owned()), DynSolValue::String(endpoint.to_owned())])
            .abi_encode_params();
    format!("{}", alloy_primitives::keccak256(encoded))
}

/// The Airnode address of a wallet mnemonic, as ethers' `Wallet.fromMnemonic` derives it (BIP-39,
/// no password, BIP-44 path m/44'/60'/0'/0/0); `None` when ethers would refuse the phrase. Its
/// words are separated by spaces only, in any case.
pub fn airnode_address(mnemonic: &str) -> Option<alloy_primitives::Address> {
    address_at(mnemonic, "m/44'/60'/0'/0/0")
}

/// The address of the key `mnemonic` derives at BIP-32 `path`, as ethers' `Wallet.fromMnemonic`
/// (BIP-39, no password); `None` when ethers would refuse the phrase.
fn address_at(mnemonic: &str, path: &str) -> Option<alloy_primitives::Address> {
    use coins_bip39::{English, Mnemonic};
    let lower = mnemonic.to_lowercase();
    let words: Vec<&str> = lower.split(' ').filter(|word| !word.is_empty()).collect();
    // ethers splits on runs of spaces: a leading or trailing space, or a tab, makes a word no
    // wordlist has.
    if lower.starts_with(' ') || lower.ends_with(' ') || words.iter().any(|w| w.chars().any(char::is_whitespace)) {
        return None;
    }
    let mnemonic = Mnemonic::<English>::new_from_phrase(&words.join(" ")).ok()?;
    let key = mnemonic.derive_key(path, None).ok()?;
    let signing: &k256::ecdsa::SigningKey = key.as_ref();
    // The address: the last 20 bytes of keccak256 of the uncompressed public key (without its
    // 0x04 prefix).
    let point = signing.verifying_key().to_encoded_point(false);
    let hash = alloy_primitives::keccak256(point.as_bytes().get(1..)?);
    Some(alloy_primitives::Address::from_slice(hash.get(12..)?))
}

/// The wallet an Airnode fulfils `sponsor`'s requests from (RRP, protocol 1), as airnode-node's
/// `deriveSponsorWalletFromMnemonic`: the sponsor's 160 bits in six 31-bit parts, lowest first,
/// under `m/44'/60'/0'/1/`. The sponsor funds it; the Airnode pays the fulfilments from it.
pub fn sponsor_wallet(mnemonic: &str, sponsor: alloy_primitives::Address) -> Option<alloy_primitives::Address> {
    address_at(mnemonic, &format!("m/44'/60'/0'/{}", sponsor_wallet_path(sponsor)))
}

/// `1/…`: the RRP protocol's index, then the sponsor's address in six 31-bit parts, lowest first.
fn sponsor_wallet_path(sponsor: alloy_primitives::Address) -> String {
    let value = alloy_primitives::U256::from_be_slice(sponsor.as_slice());
    let mask = alloy_primitives::U256::from((1u64 << 31) - 1);
    let parts: Vec<String> = (0..6usize).map(|i: usize| ((value >> (31 * i)) & mask).to_string()).collect();
    format!("1/{}", parts.join("/"))
}

/// The call data of `AirnodeRrpV0.createTemplate(airnode, endpointId, parameters)`: what makes an
/// RRP template on chain (the node refuses a request naming a template that does not exist there),
/// `0x…`.
pub fn create_template_calldata(
    airnode: alloy_primitives::Address,
    endpoint_id: alloy_primitives::B256,
    encoded_parameters: &[u8],
) -> String {
    let selector = alloy_primitives::keccak256("createTemplate(address,bytes32,bytes)");
    let arguments = DynSolValue::Tuple(vec![
        DynSolValue::Address(airnode),
        DynSolValue::FixedBytes(endpoint_id, 32),
        DynSolValue::Bytes(encoded_parameters.to_vec()),
    ])
    .abi_encode_params();
    let mut data = selector.get(..4).unwrap_or_default().to_vec();
    data.extend(arguments);
    format!("0x{}", alloy_primitives::hex::encode(data))
}

/// An Airnode (RRP, config.json) template ID: `keccak256(abi.encodePacked(address airnode, bytes32
/// endpointId, bytes encodedParameters))`, as `0x…` in lowercase.
pub fn rrp_template_id(
    airnode: alloy_primitives::Address,
    endpoint_id: alloy_primitives::B256,
    encoded_parameters: &[u8],
) -> String {
    let mut packed = Vec::with_capacity(20 + 32 + encoded_parameters.len());
    packed.extend_from_slice(airnode.as_slice());
    packed.extend_from_slice(endpoint_id.as_slice());
    packed.extend_from_slice(encoded_parameters);
    format!("{}", alloy_primitives::keccak256(packed))
}

/// Every endpoint of an OIS with its ID.
pub fn endpoint_ids(ois: &Value) -> Vec<(String, String)> {
    let title = ois.member("title").and_then(Value::as_str).unwrap_or_default();
    ois.member("endpoints")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| e.member("name").and_then(Value::as_str))
        .map(|name| (name.to_owned(), endpoint_id(title, name)))
        .collect()
}

/// `0x1234…abcd`: an ID short enough for a message or a table.
pub fn short(id: &str) -> String {
    match (id.get(..6), id.len().checked_sub(4).and_then(|start| id.get(start..))) {
        (Some(head), Some(tail)) if id.len() > 12 => format!("{head}…{tail}"),
        _ => id.to_owned(),
    }
}

/// The hash Airnode Feed's heartbeat logs for its config (`configHash`): `@api3/commons`
/// `createSha256Hash(serializePlainObject(rawConfig))` over the config as written, its secrets not
/// filled in — the keys of every object sorted (by UTF-16 code units, as `Array.prototype.sort`
/// does, array-index keys still first as in any JavaScript object) except in objects inside
/// arrays, which `sortObjectKeysRecursively` leaves as `JSON.parse` ordered them; then
/// `JSON.stringify`.
pub fn config_hash(raw: &Value) -> String {
    use sha2::Digest;
    let sorted = sorted_keys(crate::js::as_parsed(raw));
    let digest = sha2::Sha256::digest(crate::js::stringify(&sorted).as_bytes());
    format!("0x{}", alloy_primitives::hex::encode(digest))
}

/// `sortObjectKeysRecursively`: an array is returned as it is, its items untouched; the sorted keys
/// are put into a JavaScript object, which enumerates its array-index keys first all the same.
fn sorted_keys(value: Value) -> Value {
    let Value::Object(map) = value else { return value };
    let mut entries: Vec<(String, Value)> = map.into_iter().collect();
    entries.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
    let mut sorted: serde_json::Map<String, Value> =
        entries.into_iter().map(|(key, item)| (key, sorted_keys(item))).collect();
    crate::js::order_keys(&mut sorted);
    Value::Object(sorted)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_template_value_may_hold_an_escaped_comma() {
        let (endpoint, parameters) =
            parse_template(r"rates:pairs=string:USD/EUR\,USD/GBP,path=string:a\\b,n=uint256:8").unwrap();
        assert_eq!(endpoint, "rates");
        let values: Vec<&Value> = parameters.iter().map(|p| &p.value).collect();
        assert_eq!(values, [&Value::from("USD/EUR,USD/GBP"), &Value::from(r"a\b"), &Value::from("8")]);
    }

    use serde_json::json;

    use super::*;

    #[test]
    fn a_sponsor_wallet_path_is_the_sponsor_in_31_bit_parts() {
        // airnode-node's own test vector.
        let sponsor: alloy_primitives::Address = "0x8A45eac0267dD0803Fd957723EdE10693A076698".parse().unwrap();
        assert_eq!(sponsor_wallet_path(sponsor), "1/973563544/2109481170/2137349576/871269377/610184194/17");
    }

    fn parameter(kind: &str, name: &str, value: Value) -> TemplateParameter {
        TemplateParameter { kind: kind.to_owned(), name: name.to_owned(), value }
    }

    #[test]
    fn encodes_as_airnode_abi() {
        // @api3/airnode-abi's own example: [{type: bytes32, name: 'from', value: 'ETH'}] via string32.
        let encoded = encode_parameters(&[parameter("string32", "from", json!("ETH"))]).unwrap();
        let hex = alloy_primitives::hex::encode(&encoded.bytes);
        assert_eq!(
            hex,
            "3173000000000000000000000000000000000000000000000000000000000000\
             66726f6d00000000000000000000000000000000000000000000000000000000\
             4554480000000000000000000000000000000000000000000000000000000000"
        );
    }

    #[test]
    fn refuses_what_the_encoder_refuses_and_reports_surprises() {
        let refused = |p: TemplateParameter| encode_parameters(&[p]).is_err();
        assert!(refused(parameter("uint256", "n", json!("-1"))));
        assert!(refused(parameter("int256", "n", json!("1.5"))));
        assert!(refused(parameter("bytes32", "b", json!("0x1234"))));
        assert!(refused(parameter("bytes", "b", json!("0x123"))));
        assert!(refused(parameter("string32", "s", json!("x".repeat(32)))));
        assert!(refused(parameter("string", "x".repeat(32).as_str(), json!("v"))));
        assert!(refused(parameter("address", "a", json!("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267"))));
        assert!(refused(parameter("float", "f", json!("1"))));
        assert!(!refused(parameter("address", "a", json!("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"))));
        assert!(!refused(parameter("int256", "n", json!("-0x1f"))));
        let surprising = encode_parameters(&[parameter("bool", "flag", json!("false"))]).unwrap();
        assert_eq!(surprising.surprises.len(), 1);
        assert_eq!(surprising.bytes.get(95), Some(&1));
        let thirty: Vec<TemplateParameter> =
            (0..31).map(|i| parameter("string", &format!("p{i}"), json!("v"))).collect();
        assert!(encode_parameters(&thirty).is_err(), "31 parameters do not fit the header");
    }

    #[test]
    fn a_template_line_is_parsed() {
        let (endpoint, parameters) = parse_template("price:coinId=string:bitcoin,time=string:12:30").unwrap();
        assert_eq!(endpoint, "price");
        assert_eq!(
            parameters,
            [parameter("string", "coinId", json!("bitcoin")), parameter("string", "time", json!("12:30"))]
        );
        assert!(parse_template("price").is_err() && parse_template("price:coinId").is_err());
    }

    #[test]
    fn beacon_set_order_matters() {
        let (a, b) = (B256::repeat_byte(1), B256::repeat_byte(2));
        assert_ne!(beacon_set_id(&[a, b]), beacon_set_id(&[b, a]));
    }
}
