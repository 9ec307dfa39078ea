#!/usr/bin/env bash
# Runs the GUI-thread stall benchmark inside an X server and a private D-Bus session:
#   xvfb-run -a -s "-screen 0 1280x860x24" dbus-run-session -- tests/bench/gui_stall.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export ASKFIRST_E2E_SUITE="$here/gui_stall.py"
exec "$here/../e2e/run.sh"
