#!/usr/bin/env bash
# Airnode Feed and Signed API 4.6.0 (OIS 3.0.x) from their released source, for the tests that run
# the real node: the registry we reach has only their 3.x packages, so ../shared/nodes holds
# api3dao/signed-api at tag v4.6.0 (MIT). Each package's dependencies come from the npm registry
# (the Signed API's `workspace:*` dependency on the Feed read as the folder beside it), then
# `tsc` builds it as the package's own build script does. Nothing is committed: the build lives
# in tests/interop/nodes/ (ignored). Idempotent: a built package is left as it is.
# Usage: tests/interop/build-node-4.sh [TARBALL]
set -euo pipefail
cd "$(dirname "$0")"
tarball=${1:-../../../shared/nodes/signed-api-4.6.0.tar.gz}
root=nodes/signed-api-4.6.0
if [ -f "$root/packages/airnode-feed/dist/src/index.js" ] && [ -f "$root/packages/signed-api/dist/src/index.js" ]; then
  echo "Airnode Feed and Signed API 4.6.0: already built in tests/interop/$root"
  exit 0
fi
if [ ! -f "$tarball" ]; then
  echo "the 4.6.0 source is missing: $tarball" >&2
  exit 1
fi
rm -rf "$root"
mkdir -p nodes
tar -xzf "$tarball" -C nodes
# The types and compiler the packages' build needs (the monorepo's root devDependencies).
build_tools=(typescript@5.9.3 @types/node@24 @types/lodash@4 @types/express@5)
for package in airnode-feed signed-api; do
  (
    cd "$root/packages/$package"
    sed -i 's#"@api3/airnode-feed": "workspace:\*"#"@api3/airnode-feed": "file:../airnode-feed"#' package.json
    npm install --no-audit --no-fund --loglevel=error
    npm install --no-save --no-audit --no-fund --loglevel=error "${build_tools[@]}"
    npx tsc --project tsconfig.build.json
  )
done
echo "Airnode Feed and Signed API 4.6.0: built in tests/interop/$root"
