"""The few W3C WebDriver calls the tests need (https://www.w3.org/TR/webdriver2/), over urllib.

WebKitWebDriver (run.sh starts it) speaks this protocol and starts the app itself: a session's
capabilities name the "browser" binary (launch.sh, which becomes the app)."""
import base64
import json
import urllib.error
import urllib.request

# The key under which WebDriver returns and takes a web element (W3C WebDriver §12.1).
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
# WebDriver's error codes (W3C WebDriver §6.6) for an element reference whose element has left the
# page: "stale element reference"; some WebKit versions answer "no such element" for it instead
# (https://bugs.webkit.org/show_bug.cgi?id=323692).
# How long WebDriver's screenshot may take (seconds).
SCREENSHOT_TIMEOUT_S = 15
STALE_ERRORS = ("stale element reference", "no such element")


class StaleElement(RuntimeError):
    """WebDriver's answer to a command on an element that is no longer in the page: the page
    redrew it (a virtualised list, the cards and the conversation, replaces elements as they
    scroll, are measured and change). Look the element up again (harness.wait.fresh)."""


# Key codes for key actions (W3C WebDriver §17.4.2, the "normalised key value" table).
TAB, ENTER, SPACE, CONTROL = "\uE004", "\uE007", " ", "\uE009"


def _error_code(answer):
    """The `error` of a WebDriver error answer ({"value": {"error": …}}), or None."""
    try:
        value = json.loads(answer).get("value")
    except ValueError:
        return None
    return value.get("error") if isinstance(value, dict) else None


class WebDriver:
    """One WebDriver session at a time on the server at `base` (e.g. http://127.0.0.1:4445)."""

    def __init__(self, base):
        self.base = base
        self.session = None
        # Saves a PNG of what the screen shows of the window at the path given, and returns
        # whether it could (see screenshot).
        self.window_image = None

    def _call(self, method, path, body=None, timeout=60):
        """Sends one command; returns the answer's `value`. An HTTP error becomes a
        RuntimeError that quotes the server's answer."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return json.loads(resp.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            answer = e.read().decode(errors="replace")
            message = f"{method} {path}: {e.code} {answer}"
            # On an element, or from a script whose result holds one the page removed while
            # WebKit was handing it over ("Stale element found when trying to create the node
            # handle").
            if _error_code(answer) in STALE_ERRORS:
                raise StaleElement(message)
            raise RuntimeError(message)

    def start(self, binary):
        """Starts a session, and so the program `binary` (WebKitGTK's browserOptions)."""
        caps = {"capabilities": {"alwaysMatch": {
            "webkitgtk:browserOptions": {"binary": binary, "args": []}}}}
        value = self._call("POST", "/session", caps, timeout=40)
        self.session = value["sessionId"]

    def stop(self):
        """Ends the session, if any (quietly: the app may already be gone)."""
        if self.session:
            try:
                self._call("DELETE", f"/session/{self.session}", timeout=30)
            except Exception:  # the app may already be gone
                pass
            self.session = None

    def s(self, method, path, body=None):
        """A command on the current session (`path` after /session/<id>)."""
        return self._call(method, f"/session/{self.session}{path}", body)

    def execute(self, script, *args):
        """Runs `script` as a function body in the page; a returned promise is awaited."""
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find_all(self, css):
        return [e[ELEMENT] for e in self.s("POST", "/elements", {"using": "css selector", "value": css})]

    def find_in(self, element, css):
        found = self.s("POST", f"/element/{element}/elements", {"using": "css selector", "value": css})
        return [e[ELEMENT] for e in found]

    def text(self, element):
        return self.s("GET", f"/element/{element}/text")

    def attr(self, element, name):
        return self.s("GET", f"/element/{element}/attribute/{name}")

    def click(self, element):
        """Clicks the element. WebKit's driver does not scroll an element into view inside a
        scrolled panel (Settings) and answers "element not interactable"; then it is scrolled
        into view as a person would ("nearest": no scroll when it is already on screen) and
        clicked once more. An element at the panel's lower edge, under the folder bar and the
        task box, answers "element click intercepted": it is scrolled to the panel's middle,
        as a person would before clicking it, and clicked once more."""
        try:
            self.s("POST", f"/element/{element}/click", {})
        except RuntimeError as e:
            if "element not interactable" in str(e):
                block = "nearest"
            elif "element click intercepted" in str(e):
                block = "center"
            else:
                raise
            self.execute(f"arguments[0].scrollIntoView({{block: '{block}'}});", {ELEMENT: element})
            self.s("POST", f"/element/{element}/click", {})

    def type(self, element, text):
        self.s("POST", f"/element/{element}/value", {"text": text})

    def click_twice(self, element, gap_ms):
        """Two clicks at the same spot, gap_ms apart, the pointer not moving (a double click)."""
        origin = {ELEMENT: element}
        steps = [{"type": "pointerMove", "duration": 0, "origin": origin, "x": 0, "y": 0},
                 {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0},
                 {"type": "pause", "duration": gap_ms},
                 {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]
        self.s("POST", "/actions", {"actions": [{"type": "pointer", "id": "mouse",
                                                 "parameters": {"pointerType": "mouse"}, "actions": steps}]})

    def key(self, *keys):
        """Presses and releases each key in turn (W3C WebDriver key actions)."""
        actions = []
        for k in keys:
            actions += [{"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]
        self.s("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})

    def chord(self, *keys):
        """Presses the keys together (e.g. Control and Enter), then lets them go."""
        actions = [{"type": "keyDown", "value": k} for k in keys]
        actions += [{"type": "keyUp", "value": k} for k in reversed(keys)]
        self.s("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})

    def screenshot(self, path):
        """Saves a PNG of the window at `path`: what the screen shows of it (`window_image`,
        which App sets, the pixels a person sees) when it is shown, else WebDriver's screenshot
        of the page. WebKitWebDriver's screenshot of some pages never returns when the page is
        drawn without compositing (the app's default where there is no GPU,
        src-tauri/src/window.rs) while the window keeps painting them and the page keeps
        answering; it fails after SCREENSHOT_TIMEOUT_S seconds."""
        if self.window_image is not None and self.window_image(path):
            return
        answer = self._call("GET", f"/session/{self.session}/screenshot", timeout=SCREENSHOT_TIMEOUT_S)
        with open(path, "wb") as f:
            f.write(base64.b64decode(answer))
