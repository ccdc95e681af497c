#!/usr/bin/env bash
# The long fuzz runs, for a scheduled job or a spare machine (CI runs only a 20-second smoke run of
# each target): every target for SECONDS (default 1800), one after another, each seeded as
# fuzz/run.sh seeds it. A crash stops the run with the target's log and the input in
# fuzz/artifacts/TARGET/; turn it into a regression test next to the code it broke.
# Usage: fuzz/nightly.sh [SECONDS] [TARGET...]
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-1800}
shift $(( $# >= 1 ? 1 : 0 ))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(convert_bytes validate_bytes convert_structured request_ois secrets processing abi_decode mock_answers recordings answer_text)
fi
cargo +nightly fuzz build --sanitizer none
mkdir -p logs
for target in "${targets[@]}"; do
  echo "== $target: ${seconds} s"
  if ! bash run.sh "$target" "$seconds" > "logs/$target.log" 2>&1; then
    tail -40 "logs/$target.log"
    echo "$target found a crash: see fuzz/artifacts/$target/" >&2
    exit 1
  fi
  grep -E "^Done" "logs/$target.log" || true
done
