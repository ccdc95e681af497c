//! Feeds read from contracts through a chain's JSON-RPC API, as API3's RPC providers serve them
//! (Infura, dRPC, Ankr, Alchemy): a catalog entry in the shape `@api3/api-integrations` publishes
//! (`rpcFeedsCatalog`: a contract, the call data, how to read what it returns, the feed's decimals)
//! made a feed by name whose body is one `eth_call` and whose parser decodes its answer.
//!
//! What is read from the published package: the fields of an entry, and what each return type
//! means (its `generateDescriptionTextForLSD`: `type-0` is the one value returned, `type-1` the
//! first of several, `type-2` the second divided by the third, `type-3` the first call's value less
//! the third value of a second call; each "divided by 10^`decimals`"). What is inferred: a value
//! is an integer with `decimals` decimals, so `type-0` and `type-1` are divided by 10^`decimals`;
//! the ratio of `type-2` is of two amounts in one unit, and is the rate itself (divided again it
//! would be 10^-18 of one).

use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::Feed;
use crate::diagnostic::{Code, Diagnostic};

/// What a JSON-RPC feed's vendor path is: never sent (the server URL ends at `#`, after which the
/// HTTP client sends nothing), it names the call in `feed list`.
pub const RPC_PATH: &str = "eth_call";

/// One entry of an RPC feeds catalog.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RpcFeed {
    /// The feed's name (`rETH/ETH Exchange Rate`).
    pub name: String,
    /// The decimals of what the contract returns: the value is divided by 10^decimals.
    pub decimals: u32,
    /// The chain (`ethereum`, `bsc`).
    pub chain_alias: String,
    /// How to read what the call returns: `type-0` … `type-3`.
    pub return_type: String,
    /// The contract called.
    pub contract_address: String,
    /// The call data of each call, hex (`0x…`): the selector and its arguments.
    pub call_data: Vec<String>,
}

/// The feed an entry is: its body an `eth_call` of the contract with its call data, its parser
/// the value the return type says, as a decimal text (exact: `1.051234567890123456`).
pub fn feed_of(entry: &RpcFeed) -> Result<Feed, Diagnostic> {
    let refuse = |why: String| {
        Diagnostic::elsewhere(Code::BadFeed, format!("RPC feed \"{}\": {why}", crate::emit::printable(&entry.name)))
    };
    super::check_name(&entry.name)?;
    let hex = |text: &str, bytes: Option<usize>| {
        text.strip_prefix("0x").is_some_and(|digits| {
            digits.len() % 2 == 0
                && digits.bytes().all(|b| b.is_ascii_hexdigit())
                && bytes.is_none_or(|n| digits.len() == 2 * n)
        })
    };
    if !hex(&entry.contract_address, Some(20)) {
        return Err(refuse(format!("contract address \"{}\" is not 20 bytes of hex", entry.contract_address)));
    }
    let data = match entry.call_data.as_slice() {
        [one] if hex(one, None) && one.len() >= 10 => one,
        [_] => return Err(refuse("its call data is not a selector and its arguments in hex".to_owned())),
        _ => {
            return Err(refuse(format!(
                "it needs {} contract calls in one answer; the node sends one JSON object a request, so one `eth_call`",
                entry.call_data.len()
            )));
        }
    };
    if entry.decimals > 77 {
        return Err(refuse(format!("{} decimals is more than a uint256 holds", entry.decimals)));
    }
    let parser = parser(&entry.return_type, entry.decimals).ok_or_else(|| {
        refuse(format!(
            "return type \"{}\" is not one read from a single call (type-0, type-1, type-2)",
            crate::emit::printable(&entry.return_type)
        ))
    })?;
    let mut feed = Feed::new(entry.name.clone(), RPC_PATH);
    feed.parameters = body(&entry.contract_address, data);
    feed.parser = Some(parser);
    Ok(feed)
}

/// A JSON-RPC 2.0 `eth_call` of `to` with `data`, at the latest block.
pub fn body(to: &str, data: &str) -> Map<String, Value> {
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "eth_call",
        "params": [{"to": to, "data": data}, "latest"],
    });
    match body {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The parser of a return type: the 32-byte words of `result` read as unsigned integers, the value
/// written out exactly (an integer of `decimals` decimals divided by 10^`decimals`; a ratio to 36
/// decimals). `None` for a type one call cannot answer.
fn parser(return_type: &str, decimals: u32) -> Option<String> {
    // The value as an integer, how many decimals it has, and how many words the answer needs.
    let (value, scale, words) = match return_type {
        "type-0" | "type-1" => ("word(0)".to_owned(), decimals, 1),
        "type-2" => (
            "(() => {\n    if (word(2) === 0n) throw new Error(\"eth_call answered a zero divisor\")\n    return (word(1) * 10n ** 36n) / word(2)\n  })()"
                .to_owned(),
            36,
            3,
        ),
        _ => return None,
    };
    let length = 2 + 64 * words;
    Some(format!(
        "(response) => {{\n  const result = response.result\n  if (typeof result !== \"string\" || !/^0x[0-9a-fA-F]*$/.test(result) || result.length < {length}) {{\n    throw new Error(\"eth_call answered no value: \" + JSON.stringify(response.error ?? response))\n  }}\n  const word = (index) => BigInt(\"0x\" + result.slice(2 + 64 * index, 66 + 64 * index))\n  const value = {value}\n  const digits = value.toString().padStart({width}, \"0\")\n  return {returned}\n}}",
        width = scale + 1,
        returned = if scale == 0 {
            "digits".to_owned()
        } else {
            format!("digits.slice(0, -{scale}) + \".\" + digits.slice(-{scale})")
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(return_type: &str, decimals: u32, call_data: &[&str]) -> RpcFeed {
        RpcFeed {
            name: "rETH/ETH Exchange Rate".to_owned(),
            decimals,
            chain_alias: "ethereum".to_owned(),
            return_type: return_type.to_owned(),
            contract_address: "0xae78736cd615f374d3085123a210448e74fc6393".to_owned(),
            call_data: call_data.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn an_entry_is_an_eth_call_of_its_contract_and_a_parser_of_its_return_type() {
        let feed = feed_of(&entry("type-0", 18, &["0xe6aa216c"])).unwrap();
        assert_eq!(feed.path, RPC_PATH);
        assert_eq!(
            Value::Object(feed.parameters),
            json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call",
                "params": [{"to": "0xae78736cd615f374d3085123a210448e74fc6393", "data": "0xe6aa216c"}, "latest"]})
        );
        let parser = feed.parser.unwrap();
        assert!(parser.contains("padStart(19, \"0\")") && parser.contains("digits.slice(-18)"), "{parser}");
        assert!(feed_of(&entry("type-2", 18, &["0x3ba0b9a9"])).unwrap().parser.unwrap().contains("10n ** 36n"));
        assert!(feed_of(&entry("type-0", 0, &["0x3ba0b9a9"])).unwrap().parser.unwrap().contains("return digits\n"));
    }

    #[test]
    fn an_entry_one_call_cannot_answer_is_refused() {
        for (bad, says) in [
            (entry("type-3", 18, &["0xa404898f", "0xd795f23f"]), "2 contract calls"),
            (entry("type-9", 18, &["0x3ba0b9a9"]), "return type"),
            (entry("type-0", 18, &["e6aa216c"]), "call data"),
            (RpcFeed { contract_address: "0x12".to_owned(), ..entry("type-0", 18, &["0x3ba0b9a9"]) }, "20 bytes"),
            (entry("type-0", 99, &["0x3ba0b9a9"]), "decimals"),
        ] {
            let refused = feed_of(&bad).unwrap_err();
            assert!(refused.message.contains(says), "{says}: {}", refused.message);
        }
    }
}
