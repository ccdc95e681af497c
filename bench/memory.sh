#!/usr/bin/env bash
# Peak memory (maximum resident set, from /usr/bin/time) of the commands that read what someone
# else wrote — a recording served, replayed or checked against, an OIS validated — against the
# size of what they read. Two inputs of ~10 MB each: the densest JSON there is (`[{},{},…]`, 3
# bytes a value, which ois refuses before building it: INP015) and the densest it reads (a price
# every 8 bytes). Run by `bench/run.sh memory`.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
ois=$PWD/target/release/ois
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
python3 - <<'EOF'
import json, os
ois = {"oisFormat": "2.3.2", "title": "Items", "version": "1.0.0",
       "apiSpecifications": {"servers": [{"url": "http://127.0.0.1:1"}], "paths": {"/items": {"get": {"parameters": []}}},
                             "components": {"securitySchemes": {}}, "security": {}},
       "endpoints": [{"name": "items", "operation": {"method": "get", "path": "/items"}, "fixedOperationParameters": [],
                      "parameters": [], "reservedParameters": [{"name": "_type", "fixed": "int256"}, {"name": "_path", "fixed": "5"}]}]}
json.dump(ois, open("ois.json", "w"))
bodies = {"dense": "[" + ",".join(["{}"] * 3_300_000) + "]", "prices": "[" + ",".join(["6123.45"] * 1_200_000) + "]"}
for name, body in bodies.items():
    os.makedirs(name)
    with open(f"{name}/get-items.json", "w") as out:
        out.write('{"oisRecording":1,"request":{"method":"GET","url":"http://127.0.0.1:1/items"},'
                  '"response":{"status":200,"headers":[["content-type","application/json"]],"body":' + body + '},"latencyMs":1}')
    with open(f"{name}.ois.json", "w") as out:
        out.write(json.dumps(ois)[:-1] + ',"x-answers":' + body + '}')
    # The same array in an endpoint, and with a secret's name in it: a check of every text reads
    # that, so the document is read whole.
    endpoint = json.dumps(ois["endpoints"][0])[:-1]
    with open(f"{name}.endpoint.ois.json", "w") as out:
        out.write(json.dumps(ois).replace(endpoint, endpoint + ',"x-answers":' + body, 1))
    with open(f"{name}.secret.ois.json", "w") as out:
        out.write(json.dumps(ois)[:-1] + ',"x-answers":' + body[:-1] + ',"${API_KEY}"]}')
EOF
peak() { # LABEL INPUT COMMAND...: the command's peak RSS against the input's size
  local label=$1 input=$2
  shift 2
  local kb
  # Most of these refuse or fail on purpose (INP015, a missing value): the peak is what counts.
  /usr/bin/time -o peak.kb -f '%M' "$@" >/dev/null 2>&1 || true
  kb=$(tail -1 peak.kb)
  local bytes
  bytes=$(stat -c %s "$input")
  awk -v l="$label" -v kb="$kb" -v b="$bytes" 'BEGIN { printf "%-44s %7.1f MB  %6.1f MB read  %5.1fx\n", l, kb / 1024, b / 1048576, kb * 1024 / b }'
}
port=8790
for name in dense prices; do
  recording=$name/get-items.json
  peak "call --replay ($name)" "$recording" "$ois" call ois.json --endpoint items --replay "$name"
  peak "call --replay --format json ($name)" "$recording" "$ois" call ois.json --endpoint items --replay "$name" --format json
  peak "validate an OIS holding it ($name)" "$name.ois.json" "$ois" validate "$name.ois.json"
  peak "validate, the array in an endpoint ($name)" "$name.endpoint.ois.json" "$ois" validate "$name.endpoint.ois.json"
  peak "validate, a \${NAME} in the array ($name)" "$name.secret.ois.json" "$ois" validate "$name.secret.ois.json"
  # The mock serves the recording to three calls in turn; its peak is read from /proc.
  "$ois" mock "$name" --port $port >/dev/null 2>&1 &
  mock=$!
  pids+=("$mock")
  sleep 0.5
  for _ in 1 2 3; do curl -s "http://127.0.0.1:$port/items" >/dev/null; done
  kb=$(awk '/VmHWM/ {print $2}' "/proc/$mock/status")
  awk -v l="mock serving it ($name)" -v kb="$kb" -v b="$(stat -c %s "$recording")" 'BEGIN { printf "%-44s %7.1f MB  %6.1f MB read  %5.1fx\n", l, kb / 1024, b / 1048576, kb * 1024 / b }'
  peak "call --check against it ($name, answered by the mock)" "$recording" \
    "$ois" call ois.json --endpoint items --server "http://127.0.0.1:$port" --check "$name" --max-response-bytes 20000000
  peak "call --record, answered by the mock ($name)" "$recording" \
    "$ois" call ois.json --endpoint items --server "http://127.0.0.1:$port" --record "recorded-$name" --max-response-bytes 20000000
  kill "$mock"
  port=$((port + 1))
done
