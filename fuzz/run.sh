#!/usr/bin/env bash
# Seeds the fuzz corpora from samples/ and ../shared, then fuzzes.
# Usage: fuzz/run.sh TARGET [SECONDS|-runs=N] [extra libFuzzer flags]
#   fuzz/run.sh convert_bytes 60          one minute
#   fuzz/run.sh convert_bytes -runs=10000000
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
set -euo pipefail
cd "$(dirname "$0")"
target=${1:?target: convert_bytes, validate_bytes, convert_structured, request_ois, secrets, processing, abi_decode, mock_answers, recordings or answer_text}
limit=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))

corpus=corpus/$target
mkdir -p "$corpus"
seed() { # FILE: the target's first byte picks JSON (0) or YAML (1)
  local file=$1 selector='\x00'
  case "$file" in *.yaml|*.yml) selector='\x01' ;; esac
  local out="$corpus/seed-$(echo "$file" | md5sum | cut -c1-16)"
  [ -e "$out" ] || { printf "$selector"; cat "$file"; } > "$out"
}
case "$target" in
  convert_bytes)
    for f in ../samples/*.json ../samples/*.yaml seeds/*; do if [ -f "$f" ]; then seed "$f"; fi; done
    mapfile -t small < <(find ../../shared/corpus -type f \( -name '*.json' -o -name '*.yaml' -o -name '*.yml' \) -size -64k | sort)
    for f in "${small[@]:0:300}"; do seed "$f"; done ;;
  processing)
    # Each example snippet, as each form (the first byte picks it).
    python3 - "$corpus" <<'PY'
import glob, hashlib, json, os, sys
for path in sorted(glob.glob("../../shared/examples/ois/*.json")):
    for endpoint in json.load(open(path)).get("endpoints", []):
        for key, spec in endpoint.items():
            if "rocessingSpecification" not in key:
                continue
            for item in spec if isinstance(spec, list) else [spec]:
                code = item.get("value", "").encode()[:4000]
                form = {"preProcessingSpecifications": 0, "postProcessingSpecifications": 1,
                        "preProcessingSpecificationV2": 2, "postProcessingSpecificationV2": 3}.get(key, 0)
                data = bytes([form]) + code
                open(os.path.join(sys.argv[1], "seed-" + hashlib.md5(data).hexdigest()[:16]), "wb").write(data)
PY
    # Hostile snippets: console floods, loops in a V2 value's own expression, Node.js built-ins.
    for f in seeds/processing/*; do cp -n "$f" "$corpus/seed-$(basename "$f")"; done ;;
  secrets)
    # Hostile configs: a `${NAME}` outside the credentials, escaped and nested ones.
    for f in seeds/secrets/*; do cp -n "$f" "$corpus/seed-$(basename "$f")"; done ;;
  abi_decode)
    # Real templates' encodedParameters (hex, form byte 0) from the seeds and the examples.
    python3 - "$corpus" <<'PY'
import glob, hashlib, json, os, re, sys
texts = set()
for path in sorted(glob.glob("../tests/codes/*.json") + glob.glob("../samples/**/*.json", recursive=True)):
    texts.update(re.findall(r'"encodedParameters"\s*:\s*"0x([0-9a-f]*)"', open(path, errors="replace").read()))
texts.add("3173000000000000000000000000000000000000000000000000000000000000")
for text in sorted(texts):
    data = bytes([0]) + bytes.fromhex(text)
    open(os.path.join(sys.argv[1], "seed-" + hashlib.md5(data).hexdigest()[:16]), "wb").write(data)
PY
    ;;
  mock_answers)
    # OpenAPI documents (selector byte, eight seed bytes, the text) and hostile schemas.
    for f in ../samples/*.json ../samples/*.yaml; do
      selector='\x00'; case "$f" in *.yaml) selector='\x01' ;; esac
      out="$corpus/seed-$(echo "$f" | md5sum | cut -c1-16)"
      [ -e "$out" ] || { printf "$selector"'\x00\x00\x00\x00\x00\x00\x00\x00'; cat "$f"; } > "$out"
    done
    for f in seeds/mock_answers/*; do cp -n "$f" "$corpus/seed-$(basename "$f")"; done ;;
  recordings)
    # Recordings as `--record` writes them, and hostile ones (statuses, headers with line breaks).
    for f in seeds/recordings/*; do cp -n "$f" "$corpus/seed-$(basename "$f")"; done ;;
  answer_text)
    # An answer and a `_path` into it (the first line), as the docs' examples read them.
    printf '1.data.last\n%s' "$(cat ../docs/examples/metals/answer.json)" > "$corpus/seed-metals"
    printf 'a.b\\.c.0\n{"a": {"b.c": [1e400, -0.0], "a": 1, "a": {"b.c": ["x"]}}}' > "$corpus/seed-escaped"
    printf '2\n[0, 12345678901234567890, {"": null}, "\\u00e9"]' > "$corpus/seed-array" ;;
  validate_bytes)
    for f in ../samples/expected/*.json ../tests/codes/*.config.json ../../shared/examples/ois/*.json; do [ "$(stat -c %s "$f")" -lt 65536 ] && seed "$f"; done ;;
esac

case "$limit" in
  -*) flags=("$limit") ;;
  *) flags=("-max_total_time=$limit") ;;
esac
exec cargo +nightly fuzz run --sanitizer none "$target" "$corpus" -- -max_len=${MAX_LEN:-4096} -timeout=10 -rss_limit_mb=2048 "${flags[@]}" "$@"
