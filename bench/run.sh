#!/usr/bin/env bash
# Times `ois convert` against the parse-only floor on the largest corpus documents, alternating the
# two in one run (the machines are shared and noisy: compare ratios, not seconds).
# Usage: bench/run.sh [RUNS] [FILE...]   (default: 15 runs; GitHub and Stripe)
#        bench/run.sh batch [RUNS] [DIR]   the whole shared corpus (or DIR) as one batch, both cores
#        bench/run.sh many [RUNS]          1,500 small public documents (the corpus's single-file
#                                          roots under 600 KB, repeated) as one batch: the costs a
#                                          batch pays per document
#        bench/run.sh medium [RUNS]        600 public documents of the usual size (the corpus's
#                                          single-file roots under 2 MB, 250 KB on average, repeated;
#                                          150 MB) as one batch
#        bench/run.sh minified [RUNS]      GitHub minified to one line: hundreds of diagnostics
#                                          located and rendered in one 2.8 MB line
#        bench/run.sh corpus [RUNS]        every OpenAPI document of the corpus, one-line copies of the
#                                          largest, and a synthetic 20 MB one-line document with
#                                          thousands of diagnostics (bench/stress.py): per-document
#                                          ratios, the worst ten, then the corpus as one batch
#        bench/run.sh processing [RUNS]    the embedded engine against node on a typical
#                                          pre-processing snippet (bench/processing.rs)
#        bench/run.sh call-config [RUNS TEMPLATES API_MS JOBS]
#                                          ois call CONFIG against plain GETs to the same
#                                          loopback API (bench/call_config.rs)
#        bench/run.sh mock [RUNS REQUESTS CLIENTS RECORDINGS]
#                                          ois mock's requests per second against a trivial
#                                          server answering the same body (bench/mock.rs)
#        bench/run.sh memory            peak memory of replay, mock, --check and validate against
#                                          the size of the recording or OIS they read (bench/memory.sh)
#        bench/run.sh studio [RUNS]        ois studio in headless Chromium on the largest corpus
#                                          documents and a Graph-sized synthetic one: click Open
#                                          to drawn, Apply an edit to re-validated and redrawn
#                                          (bench/studio.js; bench/phases --studio: the server's part)
#        bench/run.sh scaling [RUNS]       one operation with 10,000, 20,000, 40,000 and 80,000
#                                          parameters: how time grows when the input doubles (~2x
#                                          when linear; a rule comparing every parameter with every
#                                          other shows as ~4x)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=single
case "${1:-}" in
  batch|minified|corpus|scaling|many|medium) mode=$1; shift ;;
  processing)
    shift
    cargo build --release --quiet --example processing
    exec target/release/examples/processing "${1:-31}"
    ;;
  studio)
    shift
    cargo build --release --quiet
    folder=$(mktemp -d)
    for doc in github/api.github.com.json stripe/spec3.yaml; do
      cp "../shared/corpus/$doc" "$folder/"
    done
    cp samples/coins.yaml "$folder/"
    # Microsoft Graph beta's size (47 MB on one line, 24,359 operations), which the corpus does not
    # hold: bench/stress.py's synthetic document stands in for it.
    python3 bench/stress.py "$folder/synthetic-graph.json" graph
    root=$PWD
    # The studio's folder is the one it starts in.
    (cd "$folder" && exec "$root/target/release/ois" studio --no-open --port 0 > address 2>"${STUDIO_LOG:-/dev/null}") &
    studio=$!
    trap 'kill $studio 2>/dev/null; rm -rf "$folder"' EXIT
    sleep 0.5
    url=$(sed -n 's/^ois studio: //p' "$folder/address")
    NODE_PATH=tests/interop/node_modules node bench/studio.js "$url" "${1:-5}" coins.yaml api.github.com.json spec3.yaml
    # The Graph-sized one in a series of its own: freeing its hundreds of MB would weigh on the
    # others' times.
    NODE_PATH=tests/interop/node_modules node bench/studio.js "$url" "${1:-5}" coins.yaml synthetic-graph.json
    # The studio's own peak memory, against the largest document's size.
    echo "studio process peak RSS: $(awk '/VmHWM/ {print int($2 / 1024) " MB"}' /proc/$studio/status) (largest document: $(( $(stat -c %s "$folder/synthetic-graph.json") / 1048576 )) MB)"
    exit 0
    ;;
  mock)
    shift
    cargo build --release --quiet --example mock
    exec target/release/examples/mock "$@"
    ;;
  memory)
    shift
    exec bench/memory.sh
    ;;
  call-config)
    shift
    cargo build --release --quiet --example call_config
    exec target/release/examples/call_config "$@"
    ;;
esac
runs=${1:-15}
shift || true
corpus=../shared/corpus
files=("$@")
if [ "$mode" = minified ]; then
  minified=$(mktemp -d)/api.github.com.min.json
  python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"), separators=(",", ":"))' \
    "$corpus/github/api.github.com.json" "$minified"
  files=("$minified")
  mode=single
fi
if [ "$mode" = corpus ]; then
  stress=$(mktemp -d)
  python3 bench/stress.py "$stress/synthetic-20MB.min.json"
  for big in github/api.github.com.json stripe/spec3.json kubernetes/swagger.json; do
    [ -f "$corpus/$big" ] || continue
    python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"), separators=(",", ":"))' \
      "$corpus/$big" "$stress/$(basename "$big" .json).min.json"
  done
  # The root documents SOURCES.md lists (the rest are the files they refer to).
  mapfile -t files < <(python3 - "$corpus" <<'PY'
import os, re, sys
for line in open(os.path.join(sys.argv[1], "SOURCES.md"), encoding="utf-8"):
    match = re.match(r"\| *\d+ *\| `([^`]+)`", line)
    if match:
        print(os.path.join(sys.argv[1], match.group(1)))
PY
)
  files+=("$stress"/*.json)
fi
if [ "$mode" = scaling ]; then
  wide=$(mktemp -d)
  for count in 10000 20000 40000 80000; do
    python3 bench/stress.py "$wide/wide-$count.json" wide "$count"
    files+=("$wide/wide-$count.json")
  done
fi
if [ ${#files[@]} -eq 0 ]; then
  files=("$corpus/github/api.github.com.json" "$corpus/stripe/spec3.yaml")
fi
cargo build --release --quiet --bin ois --example floor
if [ "$mode" = many ] || [ "$mode" = medium ]; then
  many=$(mktemp -d)
  trap 'rm -rf "$many"' EXIT
  if [ "$mode" = many ]; then limit=600000 count=1500; else limit=2000000 count=600; fi
  python3 - "$corpus" "$many" "$limit" "$count" <<'PY'
import os, re, shutil, sys
corpus, out, limit, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
roots = []
for line in open(os.path.join(corpus, "SOURCES.md"), encoding="utf-8"):
    match = re.match(r"\| *\d+ *\| `([^`]+)`", line)
    if match:
        roots.append(os.path.join(corpus, match.group(1)))
def single_file(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    return not re.search(r"\$ref['\"]?\s*:\s*['\"]?(\./|\.\./|[A-Za-z0-9_-]+\.(ya?ml|json))", text)
small = [p for p in roots if os.path.getsize(p) < limit and single_file(p)]
for i in range(count):
    source = small[i % len(small)]
    shutil.copy(source, os.path.join(out, f"d{i:05d}{os.path.splitext(source)[1]}"))
PY
  mode=batch
  set -- "$many"
fi
if [ "$mode" = batch ]; then
  files=("${1:-$corpus}")
fi
python3 - "$mode" "$runs" "${files[@]}" <<'PY'
import os, shutil, statistics, subprocess, sys, tempfile, time

mode = sys.argv[1]
runs = int(sys.argv[2])
ois, floor = "target/release/ois", "target/release/examples/floor"

def measure(cmd):
    """Wall seconds and peak RSS (KiB) of one run, via GNU time's %M when available."""
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    rss = int(result.stderr.strip().splitlines()[-1])
    return elapsed, rss

if mode == "batch":
    corpus = sys.argv[3]  # the folder: the shared corpus, or another
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(corpus) for f in fs)
    # Each run into a folder of its own (a batch's usual output), removed only after the last run:
    # on ext4 a file made just after thousands were deleted costs several times as much (the
    # inode allocator skips the recently freed), which would measure the previous run's cleanup.
    # Then the same again replacing the last run's outputs (`--force`): every write frees a file.
    outs = tempfile.mkdtemp()
    rows = []
    for replace in (False, True):
        ratios, floors, oises, peaks = [], [], [], []
        if replace:
            measure([ois, "convert", corpus, "-o", os.path.join(outs, "replaced"), "--base-url", "https://api.example.com"])
        for run in range(runs):
            out = os.path.join(outs, "replaced" if replace else f"run{run}")
            f, _ = measure([floor, corpus])
            o, rss = measure([ois, "convert", corpus, "-o", out, "--force", "--base-url", "https://api.example.com"])
            floors.append(f); oises.append(o); ratios.append(o / f); peaks.append(rss)
        what = "replacing its outputs" if replace else "into a new folder"
        rows.append(f"batch over {corpus} ({size/1e6:.1f} MB, both cores), {what}: floor "
                    f"{statistics.median(floors)*1000:.0f} ms, ois {statistics.median(oises)*1000:.0f} ms, "
                    f"median ratio {statistics.median(ratios):.2f}, peak {max(peaks)/1024:.0f} MB")
    shutil.rmtree(outs)
    print("\n".join(rows))
    sys.exit(0)

rows = []
print(f"{'file':<40} {'size MB':>8} {'floor ms':>9} {'ois ms':>8} {'ratio':>6} {'peak MB':>8} {'RSS/size':>9}")
for path in sys.argv[3:]:
    size = os.path.getsize(path)
    ratios, floors, oises, peaks = [], [], [], []
    for _ in range(runs):
        f, _ = measure([floor, path])
        # Scaling locates every diagnostic (a JSON report has them all), the rest what text shows.
        report = ["--report", "json"] if mode == "scaling" else []
        o, rss = measure([ois, "convert", path, "--base-url", "https://api.example.com"] + report)
        floors.append(f); oises.append(o); ratios.append(o / f); peaks.append(rss)
    peak = max(peaks) * 1024
    name = os.path.relpath(path, '../shared/corpus') if path.startswith('../shared') else os.path.basename(path)
    row = (f"{name:<40} {size/1e6:>8.2f} {statistics.median(floors)*1000:>9.1f} "
           f"{statistics.median(oises)*1000:>8.1f} {statistics.median(ratios):>6.2f} {peak/1e6:>8.1f} {peak/size:>9.1f}")
    rows.append((statistics.median(ratios), size, row))
    print(row)
if mode == "scaling":
    print("\ngrowth per doubling of the input (floor, ois):")
    ordered = sorted(rows, key=lambda r: r[1])
    for (_, _, smaller), (_, _, larger) in zip(ordered, ordered[1:]):
        small, large = smaller.split(), larger.split()
        print(f"{small[0]} -> {large[0]}: floor x{float(large[2]) / float(small[2]):.2f}, "
              f"ois x{float(large[3]) / float(small[3]):.2f}")
if mode == "corpus":
    print("\nworst ten by ratio:")
    for _, _, row in sorted(rows, reverse=True)[:10]:
        print(row)
    big = [r for r, size, _ in rows if size > 1e6]
    print(f"\n{len(rows)} documents; above 2x: {sum(r > 2 for r, _, _ in rows)}; "
          f"over 1 MB: {len(big)}, of them above 1.5x: {sum(r > 1.5 for r in big)}")
PY
if [ "$mode" = corpus ]; then
  exec bash "$0" batch "$runs"
fi
