/work/main/target-before/release/deps/subtle-6cd844581db8fe90.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/subtle-2.6.1/src/lib.rs

/work/main/target-before/release/deps/libsubtle-6cd844581db8fe90.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/subtle-2.6.1/src/lib.rs

/work/main/target-before/release/deps/libsubtle-6cd844581db8fe90.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/subtle-2.6.1/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/subtle-2.6.1/src/lib.rs:
