"""What the local stand-ins for the model services share (fake_anthropic.py, fake_gemini.py,
fake_openai.py): the command line, a request handler that appends every request body to the
request log before it answers, and the server on a free port of 127.0.0.1.

Each is run as `fake_<service>.py <port file> <request log> <path to write> [more…]`: the port
is written to <port file> (whole, by a rename) once the server listens, and each request is
appended to <request log> as one JSON line `{"path": …, "body": …}` (the body as JSON, `{}`
when it is not JSON), so a test can see what the agent sent next."""
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The most of a request body that is read, in bytes.
BODY_LIMIT = 64 * 1024 * 1024


def arguments():
    """(port file, request log, path to write, the rest of the command line)."""
    return sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]


class FakeApi(BaseHTTPRequestHandler):
    """A handler whose POST reads and logs the body, then calls `answer(body)`; a subclass
    answers with `reply`. `request_log` is set by `serve`."""

    request_log = None
    _lock = threading.Lock()

    def log_message(self, *args):
        pass

    def reply(self, status, payload, kind="application/json"):
        """Answers `status` with `payload` (bytes) of content type `kind`."""
        self.send_response(status)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(min(length, BODY_LIMIT))
        try:
            body = json.loads(raw)
        except ValueError:
            body = {}
        with self._lock, open(self.request_log, "a", encoding="utf-8") as log:
            log.write(json.dumps({"path": self.path, "body": body}) + "\n")
        self.answer(body)

    def answer(self, body):
        """Answers a POST whose body (parsed) is `body`."""
        raise NotImplementedError


def serve(handler, port_file, request_log):
    """Serves `handler` (a FakeApi) on a free port of 127.0.0.1, logging to `request_log`,
    and writes the port to `port_file`; never returns."""
    handler.request_log = request_log
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    with open(port_file + ".tmp", "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()
