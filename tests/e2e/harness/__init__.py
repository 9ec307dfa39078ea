"""The end-to-end harness: what every test file under tests/e2e shares.

  env         where things are (the app, the WebDriver server, the artefacts), from run.sh's
              environment
  webdriver   a small W3C WebDriver client over urllib (WebKitWebDriver speaks it)
  wait        wait_for: poll until something is true, or fail saying what was awaited
  processes   the app's process, recorded by launch.sh and ended by its id and group only
  desktop     the desktop around the window: X11 windows, notifications, the tray menu
  app         App: one app instance with fresh folders, driven through WebDriver
  sessions    reading the session logs (JSON Lines) the app writes
  a11y        the accessibility audit (axe-core, WCAG 2.2 AA) and the focus-ring probe
  runner      runs tests with retries and prints the "N passed, N failed" line
  survival    what the survival tests share: the part, figures, screenshots, replays

Test files (test_*.py) import from here; e2e.py and survival.py are the suites run.sh runs.
"""
