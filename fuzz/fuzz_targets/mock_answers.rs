//! Raw bytes → an OpenAPI document (the first byte picks JSON or YAML, the next eight the seed) →
//! the answers `ois mock` makes of it: no panic, no stack overflow, and every answer within the
//! synthesizer's budget, whatever the schemas (recursive, self-referencing, huge lengths).
#![no_main]

use libfuzzer_sys::fuzz_target;

/// The synthesizer's bounds (20,000 values, 1 MiB of text), with room for the JSON around them.
const LARGEST_ANSWER: usize = (1 << 20) + 20_000 * 64;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let (seed, text) = rest.split_at(rest.len().min(8));
    let seed = seed.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
    let name = if selector % 2 == 0 { "api.json" } else { "api.yaml" };
    let Ok(source) = ois::Source::from_bytes(name, None, text.to_vec()) else { return };
    let Ok(root) = source.parse() else { return };
    let Ok(routes) = ois::call::synthesized::routes(&root, seed) else { return };
    for route in routes {
        // An example the document wrote is served as written; only what is made is bounded.
        if !route.from_example {
            let size = route.body.to_string().len();
            assert!(size <= LARGEST_ANSWER, "{} {}: {size} bytes", route.method, route.path);
        }
    }
});
