#!/usr/bin/env bash
# Runs the survival suite (survival.py) inside an X server, in three bus environments:
#   xvfb-run -a -s "-screen 0 1280x860x24" tests/e2e/survival.sh
#   1. a private session bus with a notification server and a tray host (kill -9 and restart,
#      a full and a read-only data folder, hostile input);
#   2. a private session bus with neither (no notification service, no tray host), started
#      from bare-bus.conf, which has no service folders: nothing installed on this machine is
#      started on it by D-Bus activation;
#   3. no session bus at all.
# Needs root (or CAP_SYS_ADMIN) for the tmpfs and read-only mounts; without it those tests
# say they were skipped. Exits non-zero if any part failed.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
artifacts="${ASKFIRST_E2E_ARTIFACTS:-$root/.e2e-artifacts}"
mkdir -p "$artifacts"
export ASKFIRST_E2E_SUITE="$here/survival.py"
status=0
for part in main bare-bus no-bus; do
  echo "== survival: $part"
  export ASKFIRST_SURVIVAL_PART="$part"
  export ASKFIRST_E2E_NOTIFY_LOG="$artifacts/survival-$part-notifications.jsonl"
  export ASKFIRST_E2E_WEBDRIVER_LOG="$artifacts/survival-$part-webdriver.log"
  case "$part" in
    main) dbus-run-session -- "$here/run.sh" || status=1 ;;
    bare-bus) ASKFIRST_E2E_BUS=bare dbus-run-session --config-file="$here/bare-bus.conf" -- "$here/run.sh" || status=1 ;;
    no-bus) ASKFIRST_E2E_BUS=none "$here/run.sh" || status=1 ;;
  esac
done
exit $status
