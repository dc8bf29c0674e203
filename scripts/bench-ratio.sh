#!/usr/bin/env bash
# Times the benchmark workloads (crates/bench) natively against wasm32 under Node.js and
# prints the ratios. Native: the bench profile (opt-level 3, as `cargo bench`). Wasm32 twice:
# with that same profile (the same code generation as native, so the ratio is the cost of
# running as wasm) and with the release profile the lab ships (opt-level "z", tuned for
# download size). Usage: scripts/bench-ratio.sh [rounds, default 3]
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
out="$target/bench-ratio"
mkdir -p "$out"
cargo build --locked --profile bench -p podlab-bench --bin podlab-bench-native
# Both wasm32 builds write podlab_bench.wasm to the same directory (cargo's bench profile
# uses release/), so each is copied out after its build.
cargo build --locked --profile bench --target wasm32-unknown-unknown -p podlab-bench --lib
cp "$target/wasm32-unknown-unknown/release/podlab_bench.wasm" "$out/opt3.wasm"
cargo build --locked --release --target wasm32-unknown-unknown -p podlab-bench --lib
cp "$target/wasm32-unknown-unknown/release/podlab_bench.wasm" "$out/optz.wasm"
node scripts/bench-ratio.mjs --rounds "${1:-3}" "$target/release/podlab-bench-native" \
  "opt-level 3 (as native)=$out/opt3.wasm" "opt-level z (as the lab ships)=$out/optz.wasm"
