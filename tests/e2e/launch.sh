#!/bin/sh
# WebKitWebDriver starts this instead of the app: it loads the environment the current test
# wrote to $ASKFIRST_E2E_ENV (WebDriver capabilities cannot carry one), then becomes the app.
# It writes its pid (the app's, after the exec) to $ASKFIRST_E2E_PID_FILE and heads a process
# group of its own, so the harness ends exactly this app and what it started, by id
# (harness/processes.py), never by name.
set -a
. "${ASKFIRST_E2E_ENV:?}"
set +a
if [ -n "${ASKFIRST_E2E_PID_FILE:-}" ]; then
  echo "$$" > "$ASKFIRST_E2E_PID_FILE"
fi
unset ASKFIRST_E2E_PID_FILE
# setsid(1) forks when the caller already heads a group; then it is its own group already.
if [ "$(ps -o pgid= -p "$$" | tr -d ' ')" = "$$" ]; then
  exec "${ASKFIRST_E2E_APP:?}" "$@"
fi
exec setsid "${ASKFIRST_E2E_APP:?}" "$@"
