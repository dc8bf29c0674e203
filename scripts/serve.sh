#!/usr/bin/env bash
# Builds podlab and serves it on http://127.0.0.1:8080/ (PORT=... to change).
#
#   scripts/serve.sh            development build; Trunk rebuilds and reloads on every change
#   scripts/serve.sh --release  the release build (dist/), served as static files
set -euo pipefail
source "$(dirname "$0")/env.sh"

PORT="${PORT:-8080}"
scripts/setup.sh
url="http://127.0.0.1:$PORT/"
case "${1:-}" in
  --release)
    trunk build index.html --release
    echo "serve: podlab (release build) at $url"
    exec node scripts/static-server.mjs dist "$PORT" 127.0.0.1
    ;;
  "")
    echo "serve: podlab (development build) will be at $url once Trunk has built it"
    exec trunk serve index.html --address 127.0.0.1 --port "$PORT"
    ;;
  *)
    echo "usage: scripts/serve.sh [--release]" >&2
    exit 2
    ;;
esac
