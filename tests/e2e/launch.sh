#!/bin/sh
# WebKitWebDriver starts this instead of the app: it loads the environment the current test
# wrote to $ASKFIRST_E2E_ENV (WebDriver capabilities cannot carry one), then becomes the app.
set -a
. "${ASKFIRST_E2E_ENV:?}"
set +a
exec "${ASKFIRST_E2E_APP:?}" "$@"
