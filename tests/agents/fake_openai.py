#!/usr/bin/env python3
"""A local stand-in for the OpenAI Responses API, for driving the real Codex CLI offline (a
model provider whose `base_url` points here, `wire_api = "responses"`).

Usage: fake_openai.py <port file> <request log> <path to write>

It listens on 127.0.0.1 (a free port, written to <port file>) and answers `POST …/responses`
in the Responses streaming format (server-sent events: `response.created`,
`response.output_item.done`, `response.completed`): a request that offers a shell tool and
holds no tool output yet gets one call of it that writes <path to write>; every other request
gets a short text. Each request body is appended to <request log> as one JSON line.
"""

import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT_FILE, LOG, TARGET = sys.argv[1], sys.argv[2], sys.argv[3]
CONTENT = "Hello from Codex"
SHELLS = ("exec_command", "shell", "local_shell", "shell_command")
lock = threading.Lock()


def shell_tool(body):
    for tool in body.get("tools") or []:
        name = tool.get("name") or tool.get("type")
        if name in SHELLS:
            return name
    return None


def has_output(body):
    return any(isinstance(item, dict) and item.get("type", "").endswith("_output")
               for item in body.get("input") or [])


def sse(kind, data):
    data = {"type": kind, **data}
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode()


def stream(item):
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
    return b"".join([
        sse("response.created", {"response": {"id": "resp_fake"}}),
        sse("response.output_item.done", {"output_index": 0, "item": item}),
        sse("response.completed", {"response": {"id": "resp_fake", "usage": usage}}),
    ])


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, payload, kind="application/json"):
        self.send_response(status)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        self.reply(200, json.dumps({"data": [], "models": []}).encode())

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(min(length, 64 * 1024 * 1024))
        try:
            body = json.loads(raw)
        except ValueError:
            body = {}
        with lock, open(LOG, "a", encoding="utf-8") as log:
            log.write(json.dumps({"path": self.path, "body": body}) + "\n")
        if not self.path.endswith("/responses"):
            self.reply(404, b"{}")
            return
        tool = shell_tool(body)
        if tool and not has_output(body):
            line = f"printf '%s\\n' '{CONTENT}' > '{TARGET}'"
            args = {"cmd": line} if tool == "exec_command" else {"command": ["bash", "-lc", line]}
            item = {"type": "function_call", "id": "fc_fake", "call_id": "call_fake", "name": tool,
                    "arguments": json.dumps(args)}
        else:
            item = {"type": "message", "role": "assistant", "id": "msg_fake",
                    "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}
        self.reply(200, stream(item), "text/event-stream")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORT_FILE + ".tmp", "w", encoding="utf-8") as f:
    f.write(str(server.server_address[1]))
os.replace(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
