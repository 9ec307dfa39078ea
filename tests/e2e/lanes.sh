#!/usr/bin/env bash
# The end-to-end suite and the survival suite in lanes that run at the same time (make e2e):
#   tests/e2e/lanes.sh
# Each lane has its own X server (xvfb-run -a), its own D-Bus session with its own notification
# server, tray host and keyring (run.sh), its own WebDriver port, its own artifacts folder
# ($ASKFIRST_E2E_ARTIFACTS/lane-K) and temporary folder ($TMPDIR), and runs every
# ASKFIRST_E2E_LANES-th test of the suite (ASKFIRST_E2E_SHARD, harness/runner.py); the last
# lane then runs the survival suite, which is shorter than a lane's share (its files stay in
# $ASKFIRST_E2E_ARTIFACTS itself). Every
# test starts its own app with its own data folder, so lanes share nothing but the machine.
# Each line a lane prints comes with its name ("[e2e 1/2] …"), as it happens. Exits non-zero
# when any lane failed.
#   ASKFIRST_E2E_LANES  how many lanes (default 2; 1 runs the suites one after the other)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
artifacts="${ASKFIRST_E2E_ARTIFACTS:-$root/.e2e-artifacts}"
lanes="${ASKFIRST_E2E_LANES:-2}"
if ! [[ $lanes =~ ^[1-9][0-9]*$ ]]; then
  echo "ASKFIRST_E2E_LANES must be a whole number from 1, not $lanes" >&2
  exit 2
fi
mkdir -p "$artifacts"
xvfb=(xvfb-run -a -s "-screen 0 1280x860x24")

lane() {
  local k=$1 status=0 tmp
  # A temporary folder of its own too: the tray keeps its icon at a fixed name in it
  # ($TMPDIR/tray-icon/tray-icon-main-1.png), which one lane's app removed under the other's.
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/askfirst-e2e-lane-$k-XXXXXX")
  export TMPDIR=$tmp
  ASKFIRST_E2E_SHARD="$k/$lanes" ASKFIRST_E2E_ARTIFACTS="$artifacts/lane-$k" \
    "${xvfb[@]}" dbus-run-session -- "$here/run.sh" || status=1
  if [[ $k == "$lanes" ]]; then
    ASKFIRST_E2E_ARTIFACTS="$artifacts" "${xvfb[@]}" "$here/survival.sh" || status=1
  fi
  rm -rf "$tmp"
  return $status
}

pids=()
for k in $(seq "$lanes"); do
  if [[ $lanes == 1 ]]; then
    lane 1 &
  else
    # sed -u: each line as it comes, not when a buffer fills.
    (lane "$k" 2>&1 | sed -u "s/^/[e2e $k\/$lanes] /"; exit "${PIPESTATUS[0]}") &
  fi
  pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null' INT TERM
status=0
for k in "${!pids[@]}"; do
  if ! wait "${pids[$k]}"; then
    echo "lanes.sh: lane $((k + 1)) of $lanes failed (its lines above say which tests)"
    status=1
  fi
done
exit $status
