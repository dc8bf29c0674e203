#!/usr/bin/env bash
# How fast the page loads: first contentful paint, the first run shown, a repeat visit and
# the bytes transferred, in Chromium with CDP network and CPU throttling for three profiles
# (desktop; the 75th-percentile phone: 9 Mbps, 100 ms, CPU 4x; slow 4G: 1.6 Mbps, 150 ms,
# CPU 4x), the release build served with brotli. Median of 5 runs; prints a markdown table.
# A report, never a test: nothing is asserted. See docs/size.md ("Load").
#
#   scripts/load-report.sh                 builds the release into dist/, then measures
#   scripts/load-report.sh --no-build      measures the dist/ that is there
#   scripts/load-report.sh --no-build --runs 3 --profile slow-4g   (options of load-report.mjs)
set -euo pipefail
source "$(dirname "$0")/env.sh"

if [[ "${1:-}" == "--no-build" ]]; then
  shift
else
  scripts/build.sh >&2
fi
[[ -f dist/index.html ]] || { echo "load-report: dist/ has no build" >&2; exit 1; }
[[ -x "$PODLAB_CHROMIUM" ]] || { echo "load-report: no Chromium at $PODLAB_CHROMIUM (scripts/setup.sh installs it)" >&2; exit 1; }
exec node scripts/load-report.mjs "$@"
