"""Where things are, as run.sh (and survival.sh) set them in the environment.

  ASKFIRST_E2E_APP             the app binary under test (default: the debug build,
                               $CARGO_TARGET_DIR/debug/askfirst or target/debug/askfirst)
  WEBDRIVER_URL                the WebKitWebDriver server run.sh started
  ASKFIRST_E2E_ARTIFACTS       where screenshots, logs and figures go (default: .e2e-artifacts)
  ASKFIRST_E2E_WEBDRIVER_LOG   WebKitWebDriver's output, and so the app's stderr
  ASKFIRST_E2E_NOTIFY_LOG      what the fake notification server received (JSON Lines)
  ASKFIRST_E2E_ENV             the file each test writes the app's environment to (launch.sh
                               reads it)
"""
import os

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""tests/e2e: the scenarios, launch.sh and the helper programs are here."""
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
DRIVER = os.environ.get("WEBDRIVER_URL", "http://127.0.0.1:4445")
# The debug build cargo made (in $CARGO_TARGET_DIR if that is set, as cargo does).
APP = os.environ.get("ASKFIRST_E2E_APP") or os.path.join(
    os.path.abspath(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")), "debug", "askfirst")
ARTIFACTS = os.environ.get("ASKFIRST_E2E_ARTIFACTS", os.path.join(ROOT, ".e2e-artifacts"))
WEBDRIVER_LOG = os.environ.get("ASKFIRST_E2E_WEBDRIVER_LOG", os.path.join(ARTIFACTS, "webdriver.log"))
NOTIFY_LOG = os.environ.get("ASKFIRST_E2E_NOTIFY_LOG", os.path.join(ARTIFACTS, "notifications.jsonl"))
LAUNCH = os.path.join(HERE, "launch.sh")
SCENARIOS = os.path.join(HERE, "scenarios")
# The system's Python, which has the D-Bus and Xlib bindings (python3-dbus, python3-xlib).
PYTHON = "/usr/bin/python3"
