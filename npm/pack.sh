#!/usr/bin/env bash
# npm/pack.sh OUTDIR: the npm tarballs of this version for this machine, versioned from Cargo.toml:
# ois-cli (the `ois` launcher, the JS API and its types) and this platform's binary package.
# The release binary is built unless OIS_BINARY names one already built (what CI and the tests do);
# OIS_NPM_PLATFORM=@ois-cli/linux-x64-musl packs it as another platform's (a binary built with
# --target, in the release workflow).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:?usage: npm/pack.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -1)

binary=${OIS_BINARY:-}
if [ -z "$binary" ]; then
  (cd "$root" && cargo build --release --locked --quiet)
  binary="$root/target/release/ois"
fi
[ -x "$binary" ] || { echo "npm/pack.sh: $binary is not an executable" >&2; exit 1; }
built=$("$binary" --version | sed 's/^ois //')
[ "$built" = "$version" ] || { echo "npm/pack.sh: $binary is ois $built, Cargo.toml says $version" >&2; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The platform package: the one named, or this machine's as the launcher will look for it.
platform=$(node -e '
  const [binary, platforms, named] = process.argv.slice(1);
  const p = named ? require(platforms).find((entry) => entry.package === named) : require(binary).platformPackage();
  if (!p) process.exit(1);
  console.log(JSON.stringify(p));
' "$here/ois-cli/lib/binary.cjs" "$here/ois-cli/lib/platforms.json" "${OIS_NPM_PLATFORM:-}") \
  || { echo "npm/pack.sh: no platform package ${OIS_NPM_PLATFORM:-for this machine} in lib/platforms.json" >&2; exit 1; }

# The main package: its version, and every platform package at the same version.
cp -R "$here/ois-cli" "$stage/ois-cli"
cp "$root/LICENSE" "$stage/ois-cli/LICENSE"
node -e '
  const fs = require("fs");
  const [file, version, platforms] = process.argv.slice(1);
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  pkg.version = version;
  pkg.optionalDependencies = Object.fromEntries(JSON.parse(fs.readFileSync(platforms, "utf8")).map((p) => [p.package, version]));
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
' "$stage/ois-cli/package.json" "$version" "$here/ois-cli/lib/platforms.json"
(cd "$stage/ois-cli" && npm pack --pack-destination "$out" --silent >/dev/null)

# This platform's package: the binary, its os, cpu and libc.
mkdir -p "$stage/platform/bin"
cp "$here/platform/package.json" "$here/platform/README.md" "$stage/platform/"
cp "$root/LICENSE" "$stage/platform/LICENSE"
exe=ois
case "$platform" in *'"os":"win32"'*) exe=ois.exe ;; esac
cp "$binary" "$stage/platform/bin/$exe"
chmod 755 "$stage/platform/bin/$exe"
node -e '
  const fs = require("fs");
  const [file, version, entry] = process.argv.slice(1);
  const p = JSON.parse(entry);
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  Object.assign(pkg, { name: p.package, version, os: [p.os], cpu: [p.cpu] });
  if (p.libc) pkg.libc = [p.libc];
  pkg.description = `The ois binary for ${p.os} ${p.cpu}${p.libc ? ` (${p.libc})` : ""}, installed by ois-cli; not meant to be used alone.`;
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
' "$stage/platform/package.json" "$version" "$platform"
(cd "$stage/platform" && npm pack --pack-destination "$out" --silent >/dev/null)

ls "$out"/*.tgz
