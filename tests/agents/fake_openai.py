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

from fake_api import FakeApi, arguments, serve

PORT_FILE, LOG, TARGET, _ = arguments()
CONTENT = "Hello from Codex"
SHELLS = ("exec_command", "shell", "local_shell", "shell_command")


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


class Handler(FakeApi):
    def do_GET(self):
        self.reply(200, json.dumps({"data": [], "models": []}).encode())

    def answer(self, body):
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


serve(Handler, PORT_FILE, LOG)
