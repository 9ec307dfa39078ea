#!/usr/bin/python3
"""A fast-talking stand-in for an OpenAI-compatible Chat Completions server, for the app bench.

Every POST /v1/chat/completions (`stream: true`) answers with plain text only (no tool call, so
the run ends after one step): RATE small deltas per second for SECONDS seconds, each delta the
word `w<n> ` (n counting from 0), then a last delta `[END]` and `finish_reason: "stop"`.
Deltas go out in 5 ms batches, paced against the clock, so the rate holds even when a write
is late.

GET /progress answers `{"streams": k, "sent": n, "last_sent_ms": t, "done": bool}` for the
stream in progress (or the last one): how many deltas were written and flushed so far, and the
Unix time in milliseconds of the last write. Usage: stream_openai.py RATE SECONDS; prints its
port on stdout, then serves until killed.
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RATE = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
BATCH_S = 0.005

progress = {"streams": 0, "sent": 0, "last_sent_ms": 0, "done": False}
lock = threading.Lock()


def event(delta, finish=None):
    chunk = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "model": "bench-model",
             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return f"data: {json.dumps(chunk)}\n\n".encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        with lock:
            body = json.dumps(progress).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        with lock:
            progress.update(streams=progress["streams"] + 1, sent=0, done=False)
        total = int(RATE * SECONDS)
        start = time.monotonic()
        self.wfile.write(event({"role": "assistant", "content": ""}))
        sent = 0
        while sent < total:
            due = min(total, int((time.monotonic() - start) * RATE) + 1)
            if due > sent:
                self.wfile.write(b"".join(event({"content": f"w{n} "}) for n in range(sent, due)))
                self.wfile.flush()
                sent = due
                with lock:
                    progress.update(sent=sent, last_sent_ms=int(time.time() * 1000))
            time.sleep(BATCH_S)
        self.wfile.write(event({"content": "[END]"}) + event({}, "stop") + b"data: [DONE]\n\n")
        self.wfile.flush()
        with lock:
            progress.update(last_sent_ms=int(time.time() * 1000), done=True)
        self.close_connection = True


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
