# Sourced by the other scripts: the repository root, PATH and the environment every build
# and test of podlab runs with. Not meant to be run on its own.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# cargo-installed tools (trunk, wasm-bindgen) and the npm dev tools (wasm-opt from binaryen).
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# Trunk must never download a tool nor ping a registry for its own version.
export TRUNK_OFFLINE=true
export TRUNK_SKIP_VERSION_CHECK=true

# Browser tests use Debian's Chromium and ChromeDriver; nothing downloads a browser.
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export PODLAB_CHROMIUM="${PODLAB_CHROMIUM:-/usr/bin/chromium}"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

# The one Trunk version podlab builds with (0.22 needs a newer rustc than this project's).
TRUNK_VERSION="0.21.14"

# The wasm-bindgen version pinned in Cargo.lock: the CLI and the test runner must equal it.
wasm_bindgen_lock_version() {
  awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/^version = "|"$/, ""); print; exit }' "$ROOT/Cargo.lock"
}

# The value of `key = "..."` in Trunk.toml.
trunk_toml_value() {
  sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"\\([^\"]*\\)\".*/\\1/p" "$ROOT/Trunk.toml" | head -n 1
}
