#!/usr/bin/env bash
# Runs the app benchmark inside an X server and a private D-Bus session, like the e2e tests:
#   xvfb-run -a -s "-screen 0 1280x860x24" dbus-run-session -- tests/bench/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export ASKFIRST_E2E_SUITE="$here/app_bench.py"
exec "$here/../e2e/run.sh"
