#!/usr/bin/python3
"""End-to-end tests of the real Ask First window, driven over W3C WebDriver (WebKitWebDriver).

Run by run.sh inside `xvfb-run … dbus-run-session`, with a fake notification server and a
StatusNotifierWatcher on the private session bus. Each test starts the app with its own data
and workspace folders, drives the window as a person would (type a task, click Start, read the
card, click Approve or Deny), and checks the files, the notification and the tray menu.

The tests live in the test_*.py files beside this one, by area; the harness they share (the
WebDriver client, the desktop probes, the App fixture, the runner) in harness/. This file is
the suite run.sh runs: every test, in a fixed order. ASKFIRST_E2E_ONLY picks some by name,
ASKFIRST_E2E_RETRIES sets the retries (harness/runner.py).

Prints one line per test and a closing "N passed, N failed" line; exits non-zero on failure.

Importing it runs nothing, and gives the harness's names as before the split (tests/bench's
scripts use e2e.App, e2e.WebDriver, e2e.wait_for, e2e.APP, e2e.ARTIFACTS, …).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# The harness, under the names e2e.py has always offered.
from harness.a11y import FOCUS_PROBE, audit, axe, focus_stop  # noqa: E402,F401
from harness.app import App, armed, log_since, log_size, scenario_file  # noqa: E402,F401
from harness.desktop import (click_notification, close_window, closed_notifications,  # noqa: E402,F401
                             hide_by_closing, notifications, tray, window_viewable, x_windows)
from harness.env import (APP, ARTIFACTS, DRIVER, HERE, NOTIFY_LOG, PYTHON, ROOT,  # noqa: E402,F401
                         WEBDRIVER_LOG)
from harness.processes import alive  # noqa: E402,F401
from harness.runner import RETRIES, run_suite, run_test, summarize  # noqa: E402,F401
from harness.wait import wait_for  # noqa: E402,F401
from harness.webdriver import CONTROL, ELEMENT, ENTER, SPACE, TAB, WebDriver  # noqa: E402,F401

import test_a11y  # noqa: E402
import test_acp  # noqa: E402
import test_activity  # noqa: E402
import test_approvals  # noqa: E402
import test_cards  # noqa: E402
import test_change_call  # noqa: E402
import test_connection  # noqa: E402
import test_frictions  # noqa: E402
import test_errors  # noqa: E402
import test_folder  # noqa: E402
import test_harness  # noqa: E402
import test_language  # noqa: E402
import test_inbox  # noqa: E402
import test_languages  # noqa: E402
import test_many  # noqa: E402
import test_notify_answers  # noqa: E402
import test_promise  # noqa: E402
import test_rules  # noqa: E402
import test_settings_sessions  # noqa: E402
import test_tray_notify  # noqa: E402
import test_try_first  # noqa: E402

TESTS = (test_approvals.TESTS + test_cards.TESTS + test_change_call.TESTS + test_tray_notify.TESTS
         # Answers from a notification's buttons, and starting at login.
         + test_notify_answers.TESTS
         + test_settings_sessions.TESTS + test_rules.TESTS + test_a11y.TESTS
         # Who answers: Test the connection.
         + test_connection.TESTS
         # The promise's attacks in the real window.
         + test_promise.TESTS
         # Errors a person can meet, each a sentence with its detail one click away.
         + test_errors.TESTS
         # The person's folder and the welcome.
         + test_folder.TESTS
         # The harness ends only what it started.
         + test_harness.TESTS
         # The window in the person's language.
         + test_language.TESTS
         # Other agents ask through the inbox (the real Claude Code CLI).
         + test_inbox.TESTS
         # Another agent hosted over ACP (the real Gemini CLI).
         + test_acp.TESTS
         # The core's and the shell's words in the desktop's language.
         + test_languages.TESTS
         # Activity and Undo.
         + test_activity.TESTS
         # A thousand cards in the virtualised list.
         + test_many.TESTS
         # Commands tried first on a copy of the folder: the card of what they did, Undo.
         + test_try_first.TESTS
         # Plain words on command cards, Enter, the waiting link, Quit (last: it ends its app).
         + test_frictions.TESTS)

# What `import e2e` gives (tests/bench's scripts use these).
__all__ = ["FOCUS_PROBE", "audit", "axe", "focus_stop", "App", "armed", "log_since", "log_size",
           "scenario_file", "click_notification", "close_window", "closed_notifications",
           "hide_by_closing", "notifications", "tray", "window_viewable", "x_windows", "APP",
           "ARTIFACTS", "DRIVER", "HERE", "NOTIFY_LOG", "PYTHON", "ROOT", "WEBDRIVER_LOG", "alive",
           "RETRIES", "run_suite", "run_test", "summarize", "wait_for", "CONTROL", "ELEMENT", "ENTER",
           "SPACE", "TAB", "WebDriver", "TESTS", "main"]


def main():
    return run_suite("e2e", TESTS)


if __name__ == "__main__":
    sys.exit(main())
