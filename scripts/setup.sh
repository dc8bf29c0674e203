#!/usr/bin/env bash
# Installs what podlab needs to build, serve and test it, and nothing it already has.
# Safe to run any number of times: every step checks first, so a second run takes seconds.
#
#   Rust target wasm32-unknown-unknown, rustfmt, clippy      (rustup)
#   trunk 0.21.14                                            (cargo install)
#   wasm-bindgen-cli at the version Cargo.lock pins          (cargo install)
#   chromium, chromium-driver, brotli                        (apt-get, needs root)
#   a C compiler (gcc, libc6-dev) when `cc` is missing: the native binaries' allocator,
#   mimalloc, is C built by the cc crate (Rust itself links through `cc`)
#   playwright-core, axe-core, binaryen (wasm-opt)           (npm ci, from package-lock.json)
#   every crate in Cargo.lock                                (cargo fetch --locked)
#
# Nothing is downloaded from anywhere but crates.io, npm and Debian; no browser download runs.
set -euo pipefail
source "$(dirname "$0")/env.sh"

say() { printf 'setup: %s\n' "$*"; }
fail() {
  printf 'setup: ERROR: %s\n' "$*" >&2
  exit 1
}

command -v cargo >/dev/null && command -v rustup >/dev/null \
  || fail "cargo and rustup are needed (https://rustup.rs); none found on PATH"

# --- Rust target and components ------------------------------------------------------------
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the Rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    say "adding the Rust component $component"
    rustup component add "$component"
  fi
done

# --- Versions that must agree ---------------------------------------------------------------
WASM_BINDGEN_VERSION="$(wasm_bindgen_lock_version)"
[[ -n "$WASM_BINDGEN_VERSION" ]] || fail "no wasm-bindgen package found in Cargo.lock"
trunk_wants="$(trunk_toml_value wasm_bindgen)"
[[ "$trunk_wants" == "$WASM_BINDGEN_VERSION" ]] \
  || fail "Trunk.toml [tools] wasm_bindgen = \"$trunk_wants\" but Cargo.lock has wasm-bindgen $WASM_BINDGEN_VERSION: make them equal"

# --- trunk -----------------------------------------------------------------------------------
have_trunk="$(trunk --version 2>/dev/null || true)"
if [[ "$have_trunk" != "trunk $TRUNK_VERSION" ]]; then
  say "installing trunk $TRUNK_VERSION (found: ${have_trunk:-none}); takes about 6 minutes"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# --- wasm-bindgen-cli (wasm-bindgen and wasm-bindgen-test-runner) ------------------------------
have_bindgen="$(wasm-bindgen --version 2>/dev/null || true)"
have_runner="$(wasm-bindgen-test-runner --version 2>/dev/null || true)"
if [[ "$have_bindgen" != "wasm-bindgen $WASM_BINDGEN_VERSION" \
  || "$have_runner" != *" $WASM_BINDGEN_VERSION"* ]]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (found: ${have_bindgen:-none}); takes about 2 minutes"
  # Without --locked on purpose: the crate's own lock file pins a webpki-roots release that
  # the registry no longer serves, while a fresh resolution installs fine.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# --- Debian packages: Chromium + ChromeDriver for browser tests, brotli for the size report,
# a C compiler for mimalloc ----
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
command -v brotli >/dev/null || missing+=(brotli)
command -v cc >/dev/null || missing+=(gcc libc6-dev)
if ((${#missing[@]})); then
  if [[ "$(id -u)" == 0 ]]; then
    say "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    say "installing Debian packages with sudo: ${missing[*]}"
    sudo -n env DEBIAN_FRONTEND=noninteractive apt-get update -q
    sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    say "NOTE: not root, so not installing the Debian packages ${missing[*]}."
    say "      Install them with: sudo apt-get install ${missing[*]}"
    say "      Until then the browser test levels and the size report fail."
  fi
fi

# --- npm dev tools ---------------------------------------------------------------------------
command -v node >/dev/null && command -v npm >/dev/null || fail "Node.js (>= 20) and npm are needed"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
((node_major >= 20)) || fail "Node.js >= 20 is needed (found $(node --version))"
lock_sum="$(sha256sum package-lock.json | cut -d' ' -f1)"
stamp="node_modules/.podlab-lock.sha256"
if [[ "$(cat "$stamp" 2>/dev/null || true)" != "$lock_sum" || ! -x node_modules/.bin/wasm-opt ]]; then
  say "installing the npm dev tools from package-lock.json"
  # --ignore-scripts: no package gets to run an install step (and so no browser download).
  npm ci --no-audit --no-fund --ignore-scripts
  echo "$lock_sum" >"$stamp"
fi
wasm_opt_wants="$(trunk_toml_value wasm_opt)"
[[ "$(wasm-opt --version)" == *"($wasm_opt_wants)"* ]] \
  || fail "Trunk.toml wants wasm-opt $wasm_opt_wants but node_modules/.bin/wasm-opt is $(wasm-opt --version)"

# --- crates ----------------------------------------------------------------------------------
# Trunk builds with --offline, so every crate must already be here.
cargo fetch --locked --quiet

say "ready (trunk $TRUNK_VERSION, wasm-bindgen $WASM_BINDGEN_VERSION, $(wasm-opt --version | cut -d' ' -f1,3), node $(node --version))"
