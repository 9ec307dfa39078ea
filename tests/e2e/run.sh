#!/usr/bin/env bash
# Runs the end-to-end tests inside an X server and a private D-Bus session:
#   xvfb-run -a -s "-screen 0 1280x860x24" dbus-run-session -- tests/e2e/run.sh
# Starts a fake notification server, a StatusNotifierWatcher (the tray host protocol) and
# WebKitWebDriver, then runs e2e.py against the built app (ASKFIRST_E2E_APP).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
artifacts="${ASKFIRST_E2E_ARTIFACTS:-$root/.e2e-artifacts}"
mkdir -p "$artifacts"
export ASKFIRST_E2E_NOTIFY_LOG="$artifacts/notifications.jsonl"
# Each test writes the app's environment here before it starts a session (launch.sh reads it).
export ASKFIRST_E2E_ENV="$artifacts/app.env"
: > "$ASKFIRST_E2E_NOTIFY_LOG"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

/usr/bin/python3 "$here/fake_notifyd.py" "$ASKFIRST_E2E_NOTIFY_LOG" & pids+=($!)
gdbus wait --session --timeout 10 org.freedesktop.Notifications
status-notifier-watcher >"$artifacts/watcher.log" 2>&1 & pids+=($!)
gdbus wait --session --timeout 10 org.kde.StatusNotifierWatcher

# Without this, POST /session hangs: it turns on WebKit's automation in the app.
export TAURI_WEBVIEW_AUTOMATION=true
# A free port unless one is given, so a second suite on the machine cannot collide with this one.
port="${ASKFIRST_E2E_PORT:-$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
WebKitWebDriver --port="$port" --host=127.0.0.1 >"$artifacts/webdriver.log" 2>&1 & pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/status" >/dev/null && break; sleep 0.1; done
export WEBDRIVER_URL="http://127.0.0.1:$port"
/usr/bin/python3 "${ASKFIRST_E2E_SUITE:-$here/e2e.py}"
