/work/main/target-before/release/deps/crypto_common-656f63b77df740c8.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/crypto-common-0.1.6/src/lib.rs

/work/main/target-before/release/deps/libcrypto_common-656f63b77df740c8.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/crypto-common-0.1.6/src/lib.rs

/work/main/target-before/release/deps/libcrypto_common-656f63b77df740c8.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/crypto-common-0.1.6/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/crypto-common-0.1.6/src/lib.rs:
