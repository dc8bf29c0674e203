#!/usr/bin/env bash
# What a visitor downloads: the release build's wasm, js, css and html, raw and compressed
# (gzip -9 and brotli -q 11, as a static host would serve them).
#
#   scripts/size-report.sh           builds the release into dist/, then reports
#   scripts/size-report.sh --no-build  reports on the dist/ that is there
set -euo pipefail
source "$(dirname "$0")/env.sh"

if [[ "${1:-}" != "--no-build" ]]; then
  scripts/build.sh >&2
fi
[[ -f dist/index.html ]] || { echo "size-report: dist/ has no build" >&2; exit 1; }
command -v brotli >/dev/null || { echo "size-report: brotli is missing (scripts/setup.sh installs it)" >&2; exit 1; }

kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }
row() { printf '%-6s %-44s %12s %12s %12s\n' "$@"; }

row kind file raw gzip-9 brotli
total_raw=0 total_gz=0 total_br=0
for kind in wasm js css html; do
  while IFS= read -r -d '' file; do
    raw=$(wc -c <"$file")
    gz=$(gzip -9 -c "$file" | wc -c)
    br=$(brotli -q 11 -c "$file" | wc -c)
    total_raw=$((total_raw + raw)) total_gz=$((total_gz + gz)) total_br=$((total_br + br))
    row "$kind" "${file#dist/}" "$(kb "$raw")" "$(kb "$gz")" "$(kb "$br")"
  done < <(find dist -type f -name "*.$kind" -print0 | sort -z)
done
row total "" "$(kb "$total_raw")" "$(kb "$total_gz")" "$(kb "$total_br")"

# What the code is made of: cargo's wasm (before wasm-bindgen and wasm-opt strip the names),
# its function bodies summed by crate, then the engine by module.
cargo_wasm="${CARGO_TARGET_DIR:-$ROOT/target}/wasm32-unknown-unknown/release/podlab-web.wasm"
if [[ -f "$cargo_wasm" ]]; then
  echo
  echo "code by crate (cargo's wasm, before wasm-opt):"
  node scripts/wasm-sizes.mjs "$cargo_wasm" 12
  echo
  echo "podlab_engine by module:"
  node scripts/wasm-sizes.mjs "$cargo_wasm" 12 podlab_engine | tail -n +2
fi
