//! What a Signed API serves: one signed datum per beacon, as Airnode Feed pushed it. The Feed
//! signs `keccak256(abi.encodePacked(bytes32 templateId, uint256 timestamp, bytes encodedValue))`
//! as an EIP-191 message; whoever holds the Airnode's mnemonic is the only one who can.

use alloy_primitives::{Address, B256, I256, Signature, U256, keccak256};
use serde_json::Value;

/// One datum of a Signed API's answer (`GET /real-time/AIRNODE`: `{"count", "data": {BEACON_ID:
/// datum}}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedDatum {
    /// The Airnode it says signed it.
    pub airnode: String,
    /// The beacon it is for.
    pub beacon_id: String,
    /// The template it answers.
    pub template_id: String,
    /// Seconds since the epoch, as signed.
    pub timestamp: u64,
    /// The encoded value, `0x…`.
    pub encoded_value: String,
    /// The signature, `0x…` (65 bytes).
    pub signature: String,
}

impl SignedDatum {
    /// The datum `value` served under `beacon_id` (its key in `data`; a datum may repeat it as
    /// `beaconId`); `None` when a field is missing or of another type.
    pub fn from_json(beacon_id: &str, value: &Value) -> Option<SignedDatum> {
        let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
        Some(SignedDatum {
            airnode: text("airnode")?,
            beacon_id: text("beaconId").unwrap_or_else(|| beacon_id.to_owned()),
            template_id: text("templateId")?,
            timestamp: text("timestamp")?.parse().ok()?,
            encoded_value: text("encodedValue")?,
            signature: text("signature")?,
        })
    }

    /// Who signed it: the address its signature recovers to over what the Feed signs; `None` when
    /// the datum cannot have been signed at all (a field that is not hex, a signature that is not
    /// one).
    pub fn signer(&self) -> Option<Address> {
        let template: B256 = self.template_id.parse().ok()?;
        let value = alloy_primitives::hex::decode(&self.encoded_value).ok()?;
        let mut packed = template.to_vec();
        packed.extend_from_slice(&U256::from(self.timestamp).to_be_bytes::<32>());
        packed.extend_from_slice(&value);
        let digest = keccak256(&packed);
        let signature: Signature = self.signature.parse().ok()?;
        signature.recover_address_from_msg(digest.as_slice()).ok()
    }
}

/// An encoded value read as one signed 256-bit number (what `int256` encodes, and `uint256` below
/// 2^255), as a decimal text; `None` for any other length.
pub fn as_number(encoded: &str) -> Option<String> {
    let bytes = alloy_primitives::hex::decode(encoded).ok()?;
    let word: [u8; 32] = bytes.as_slice().try_into().ok()?;
    Some(I256::from_be_bytes(word).to_string())
}

/// How far `now` is from `then`, relative to `then` (`0.05`: 5 % more); `None` when either is
/// not a number, or `then` is 0.
pub fn deviation(then: &str, now: &str) -> Option<f64> {
    let (then, now): (f64, f64) = (then.parse().ok()?, now.parse().ok()?);
    (then != 0.0).then(|| (now - then) / then.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_reads_as_its_signed_number() {
        let word = |hex: &str| format!("0x{hex:0>64}");
        assert_eq!(as_number(&word("0e09c0")).as_deref(), Some("920000"));
        assert_eq!(as_number(&format!("0x{}", "f".repeat(64))).as_deref(), Some("-1"));
        assert_eq!(as_number("0x1234"), None);
        assert_eq!(deviation("100", "110"), Some(0.1));
        assert_eq!(deviation("0", "1"), None);
    }

    #[test]
    fn a_datum_signed_as_the_feed_signs_recovers_to_its_airnode() {
        let key = k256::ecdsa::SigningKey::from_slice(&[7u8; 32]).unwrap();
        let address = Address::from_public_key(key.verifying_key());
        let template = format!("0x{}", "11".repeat(32));
        let encoded = format!("0x{:064x}", 920_000);
        let mut packed = template.parse::<B256>().unwrap().to_vec();
        packed.extend_from_slice(&U256::from(1_700_000_000u64).to_be_bytes::<32>());
        packed.extend_from_slice(&alloy_primitives::hex::decode(&encoded).unwrap());
        let digest = alloy_primitives::eip191_hash_message(keccak256(&packed));
        let (signature, recovery) = key.sign_prehash_recoverable(digest.as_slice()).unwrap();
        let signature = Signature::from((signature, recovery));
        let datum = SignedDatum {
            airnode: address.to_checksum(None),
            beacon_id: "0x00".into(),
            template_id: template,
            timestamp: 1_700_000_000,
            encoded_value: encoded,
            signature: format!("0x{}", alloy_primitives::hex::encode(signature.as_bytes())),
        };
        assert_eq!(datum.signer(), Some(address));
    }

    #[test]
    fn a_datum_that_is_not_signed_has_no_signer() {
        let datum = SignedDatum {
            airnode: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266".into(),
            beacon_id: "0x00".into(),
            template_id: format!("0x{}", "11".repeat(32)),
            timestamp: 1,
            encoded_value: format!("0x{}", "00".repeat(32)),
            signature: "0x1234".into(),
        };
        assert_eq!(datum.signer(), None);
        assert_eq!(SignedDatum::from_json("0x00", &serde_json::json!({"airnode": 1})), None);
    }
}
