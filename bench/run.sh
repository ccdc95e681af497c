#!/usr/bin/env bash
# Times `ois convert` against the parse-only floor on the largest corpus documents, alternating the
# two in one run (the machines are shared and noisy: compare ratios, not seconds).
# Usage: bench/run.sh [RUNS] [FILE...]   (default: 15 runs; GitHub and Stripe)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
shift || true
corpus=../shared/corpus
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=("$corpus/github/api.github.com.json" "$corpus/stripe/spec3.yaml")
fi
cargo build --release --quiet --bin ois --example floor
python3 - "$runs" "${files[@]}" <<'PY'
import os, statistics, subprocess, sys, time

runs = int(sys.argv[1])
ois, floor = "target/release/ois", "target/release/examples/floor"

def measure(cmd):
    """Wall seconds and peak RSS (KiB) of one run, via GNU time's %M when available."""
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    rss = int(result.stderr.strip().splitlines()[-1])
    return elapsed, rss

print(f"{'file':<40} {'size MB':>8} {'floor ms':>9} {'ois ms':>8} {'ratio':>6} {'peak MB':>8} {'RSS/size':>9}")
for path in sys.argv[2:]:
    size = os.path.getsize(path)
    ratios, floors, oises, peaks = [], [], [], []
    for _ in range(runs):
        f, _ = measure([floor, path])
        o, rss = measure([ois, "convert", path, "--base-url", "https://api.example.com"])
        floors.append(f); oises.append(o); ratios.append(o / f); peaks.append(rss)
    peak = max(peaks) * 1024
    print(f"{os.path.relpath(path, '../shared/corpus'):<40} {size/1e6:>8.2f} {statistics.median(floors)*1000:>9.1f} "
          f"{statistics.median(oises)*1000:>8.1f} {statistics.median(ratios):>6.2f} {peak/1e6:>8.1f} {peak/size:>9.1f}")
PY
