#!/usr/bin/env bash
# Runs the end-to-end tests inside an X server and a private D-Bus session:
#   xvfb-run -a -s "-screen 0 1280x860x24" dbus-run-session -- tests/e2e/run.sh
# Starts a fake notification server, a StatusNotifierWatcher (the tray host protocol) and
# WebKitWebDriver, then runs e2e.py against the built app (ASKFIRST_E2E_APP).
# ASKFIRST_E2E_BUS chooses what is on the session bus (survival.sh uses the last two):
#   full (default)  the fake notification server, a StatusNotifierWatcher and, where
#                   gnome-keyring is installed, an unlocked keyring (the Secret Service)
#   bare            a session bus with neither (no notification service, no tray host)
#   none            no session bus at all: DBUS_SESSION_BUS_ADDRESS points at no socket
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
artifacts="${ASKFIRST_E2E_ARTIFACTS:-$root/.e2e-artifacts}"
mkdir -p "$artifacts"
export ASKFIRST_E2E_NOTIFY_LOG="${ASKFIRST_E2E_NOTIFY_LOG:-$artifacts/notifications.jsonl}"
# Each test writes the app's environment here before it starts a session (launch.sh reads it).
export ASKFIRST_E2E_ENV="$artifacts/app.env"
: > "$ASKFIRST_E2E_NOTIFY_LOG"
# The closed ones too: an id closed in an earlier run would look closed in this one.
: > "$ASKFIRST_E2E_NOTIFY_LOG.closed"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

bus="${ASKFIRST_E2E_BUS:-full}"
case "$bus" in
  full)
    /usr/bin/python3 "$here/fake_notifyd.py" "$ASKFIRST_E2E_NOTIFY_LOG" & pids+=($!)
    gdbus wait --session --timeout 10 org.freedesktop.Notifications
    status-notifier-watcher >"$artifacts/watcher.log" 2>&1 & pids+=($!)
    gdbus wait --session --timeout 10 org.kde.StatusNotifierWatcher
    # A desktop keyring (GNOME Keyring's Secret Service), unlocked with an empty password, its
    # keyrings and sockets in folders of this run only (never the tester's own keyring).
    if command -v gnome-keyring-daemon >/dev/null; then
      keyring_home="$artifacts/keyring"
      rm -rf "$keyring_home" && mkdir -p "$keyring_home/data" "$keyring_home/run"
      chmod 700 "$keyring_home/run"
      printf '\n' | XDG_DATA_HOME="$keyring_home/data" XDG_RUNTIME_DIR="$keyring_home/run" \
        gnome-keyring-daemon --foreground --unlock --components=secrets \
        >"$artifacts/keyring.log" 2>&1 & pids+=($!)
      gdbus wait --session --timeout 10 org.freedesktop.secrets
    fi
    ;;
  bare) ;;
  none)
    # Not unset: with DISPLAY set, an unset address lets GLib autolaunch a bus (dbus-x11).
    export DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent/askfirst-e2e-no-bus"
    ;;
  *) echo "ASKFIRST_E2E_BUS must be full, bare or none, not $bus" >&2; exit 2 ;;
esac

# Without this, POST /session hangs: it turns on WebKit's automation in the app.
export TAURI_WEBVIEW_AUTOMATION=true
# A free port unless one is given, so a second suite on the machine cannot collide with this one.
port="${ASKFIRST_E2E_PORT:-$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
# The app's stderr ends up here too (WebKitWebDriver starts it).
export ASKFIRST_E2E_WEBDRIVER_LOG="${ASKFIRST_E2E_WEBDRIVER_LOG:-$artifacts/webdriver.log}"
WebKitWebDriver --port="$port" --host=127.0.0.1 >"$ASKFIRST_E2E_WEBDRIVER_LOG" 2>&1 & pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/status" >/dev/null && break; sleep 0.1; done
export WEBDRIVER_URL="http://127.0.0.1:$port"
/usr/bin/python3 "${ASKFIRST_E2E_SUITE:-$here/e2e.py}"
