//! Raw bytes → a template's `encodedParameters` decoded as airnode-abi decodes it: never a panic,
//! and never more decoded than the input holds (overlapping offsets are refused before decoding;
//! what decodes has already re-encoded to the same text inside `decode_parameters`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ois::node::abi_decode::decode_parameters;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the form: the bytes as hex (the usual case), or as text (a hand-edited
    // config).
    let Some((form, rest)) = data.split_first() else { return };
    let text = if form % 2 == 0 {
        let hex: String = rest.iter().map(|b| format!("{b:02x}")).collect();
        format!("0x{hex}")
    } else {
        String::from_utf8_lossy(rest).into_owned()
    };
    let Ok(parameters) = decode_parameters(&text) else { return };
    let decoded: usize = parameters.iter().map(|(name, value)| name.len() + value.to_string().len()).sum();
    assert!(decoded <= 4 * text.len() + 64, "{decoded} bytes decoded from {} bytes of text", text.len());
});
