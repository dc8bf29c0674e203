#!/usr/bin/env bash
# Builds the release web app into dist/: static files that any web server can host.
set -euo pipefail
source "$(dirname "$0")/env.sh"
scripts/setup.sh
trunk build index.html --release
echo "build: dist/ is ready ($(du -sh dist | cut -f1)); host its files on any static web server"
