#!/usr/bin/env bash
# Runs every test level of podlab, in order, and stops at the first one that fails.
# The last line is always `summary: N passed, M failed` (levels counted); CI reads it.
#
#   setup          scripts/setup.sh (installs what is missing, fast when nothing is)
#   fmt            cargo fmt --all --check
#   clippy         cargo clippy, native, every package and target
#   clippy-wasm    cargo clippy for wasm32: the web app (all targets), the engine library and
#                  the benchmark module (crates/bench)
#   unit           native unit and snapshot tests (expect-test) of the whole workspace
#   browser        wasm-bindgen-test tests in headless Chromium (tests/web.rs)
#   release        trunk build index.html --release  -> dist/
#   e2e            node --test tests/e2e/ (playwright-core + Debian Chromium) against dist/
#
# Run one level alone: scripts/test.sh LEVEL... (e.g. `scripts/test.sh unit browser`);
# setup always runs first.
set -uo pipefail
source "$(dirname "$0")/env.sh"

ALL_LEVELS=(fmt clippy clippy-wasm unit browser release e2e)
LEVELS=("$@")
((${#LEVELS[@]})) || LEVELS=("${ALL_LEVELS[@]}")
for level in "${LEVELS[@]}"; do
  [[ " ${ALL_LEVELS[*]} " == *" $level "* ]] || {
    echo "unknown level '$level'; levels: ${ALL_LEVELS[*]}" >&2
    echo "summary: 0 passed, 1 failed"
    exit 2
  }
done

level_setup() { scripts/setup.sh; }

level_fmt() { cargo fmt --all --check; }

level_clippy() { cargo clippy --workspace --all-targets --locked -- -D warnings; }

level_clippy-wasm() {
  # The engine's tests and benches are native-only tools; what ships to the browser is its
  # library, linted here for wasm32 together with every target of the web app and the
  # wasm32 module scripts/bench-ratio.sh times.
  cargo clippy --target wasm32-unknown-unknown --locked -p podlab --all-targets -- -D warnings \
    && cargo clippy --target wasm32-unknown-unknown --locked -p podlab-engine -p podlab-bench -p podlab-alloc --lib -- -D warnings
}

level_unit() { cargo test --workspace --locked; }

level_browser() {
  local log
  log="$(mktemp)"
  # The runner (.cargo/config.toml) drives Debian's Chromium, headless, through ChromeDriver.
  cargo test --target wasm32-unknown-unknown --locked -p podlab 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  # A browser run that executed no test is a failure, not a pass.
  local ran
  ran="$(grep -Eo 'test result: ok\. [0-9]+ passed' "$log" | awk '{ n += $4 } END { print n + 0 }')"
  rm -f "$log"
  ((rc == 0)) || return "$rc"
  if ((ran == 0)); then
    echo "browser: no wasm-bindgen-test test ran" >&2
    return 1
  fi
  echo "browser: $ran tests passed in headless Chromium"
}

level_release() { trunk build index.html --release; }

level_e2e() {
  [[ -f dist/index.html ]] || {
    echo "e2e: dist/ has no release build (the release level makes it)" >&2
    return 1
  }
  local tap
  tap="$(mktemp)"
  node --test --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$tap" tests/e2e/
  local rc=$?
  # Nothing may be skipped silently: no skipped, todo or cancelled test, and at least one ran.
  local count
  count() { sed -n "s/^# $1 \([0-9]*\)$/\1/p" "$tap" | tail -n 1; }
  local tests pass skipped todo cancelled
  tests="$(count tests)" pass="$(count pass)" skipped="$(count skipped)"
  todo="$(count todo)" cancelled="$(count cancelled)"
  rm -f "$tap"
  ((rc == 0)) || return "$rc"
  if [[ -z "$tests" || "$tests" == 0 || "$skipped" != 0 || "$todo" != 0 || "$cancelled" != 0 ]]; then
    echo "e2e: tests=${tests:-?} pass=${pass:-?} skipped=${skipped:-?} todo=${todo:-?} cancelled=${cancelled:-?}: every test must run" >&2
    return 1
  fi
  echo "e2e: $pass tests passed; screenshots in tests/e2e/screenshots/"
}

passed=0
failed=0
started=$SECONDS
finish() {
  echo "test.sh: finished in $((SECONDS - started)) s"
  echo "summary: $passed passed, $failed failed"
  exit $((failed > 0))
}

run_level() {
  local name=$1 t0=$SECONDS
  echo
  echo "==> $name"
  if "level_$name"; then
    passed=$((passed + 1))
    echo "==> $name: ok ($((SECONDS - t0)) s)"
  else
    failed=$((failed + 1))
    echo "==> $name: FAILED ($((SECONDS - t0)) s); later levels not run"
    finish
  fi
}

run_level setup
for level in "${LEVELS[@]}"; do
  run_level "$level"
done
finish
