#!/usr/bin/env bash
# A copy of the release build whose wasm keeps its function names, for profiling
# (scripts/profile-paste.mjs --dist DIR). The release wasm has none: wasm-opt drops the name
# section. This takes the wasm-bindgen output Trunk left in the target directory (cargo's
# release wasm, names kept) and runs the same wasm-opt as index.html's data-wasm-opt(-params)
# with -g (keep names), into a copy of dist/ under the same file name, with the new SRI hash.
# It first checks that the same wasm-opt without -g gives dist/'s wasm byte for byte, so the
# profiled code is the code of dist/ (the target directory may be shared with other builds).
#
#   scripts/profile-build.sh [OUT]    (OUT defaults to target/profile-dist; needs a fresh
#                                      `trunk build index.html --release`)
set -euo pipefail
source "$(dirname "$0")/env.sh"

target="${CARGO_TARGET_DIR:-$ROOT/target}"
out="${1:-$target/profile-dist}"
bindgen="$target/wasm-bindgen/release/podlab-web_bg.wasm"
[[ -f "$bindgen" ]] || { echo "profile-build: no $bindgen (run trunk build index.html --release)" >&2; exit 1; }
dist_wasm="$(ls dist/podlab-web-*_bg.wasm)"
params="$(sed -n 's/.*data-wasm-opt-params="\([^"]*\)".*/\1/p' index.html)"
level="$(sed -n 's/.*data-wasm-opt="\([^"]*\)".*/\1/p' index.html)"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
wasm-opt --output="$tmp/check.wasm" "-O$level" "$bindgen" $params
if ! cmp -s "$tmp/check.wasm" "$dist_wasm"; then
  echo "profile-build: $bindgen is not the wasm of dist/ (another build since?): rebuild and run again" >&2
  exit 1
fi
# shellcheck disable=SC2086
wasm-opt --output="$tmp/named.wasm" "-O$level" "$bindgen" $params -g

rm -rf "$out"
cp -r dist "$out"
name="$(basename "$dist_wasm")"
cp "$tmp/named.wasm" "$out/$name"
old="sha384-$(openssl dgst -sha384 -binary "$dist_wasm" | base64 -w0)"
new="sha384-$(openssl dgst -sha384 -binary "$out/$name" | base64 -w0)"
sed -i "s|$old|$new|g" "$out/index.html"
echo "profile-build: $out ($name with names: $(wc -c <"$out/$name") bytes, release $(wc -c <"$dist_wasm") bytes)"
