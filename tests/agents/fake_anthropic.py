#!/usr/bin/env python3
"""A local stand-in for the Anthropic Messages API, for driving the real Claude Code CLI offline.

Usage: fake_anthropic.py <port file> <request log> <path to write> [<command>]

It listens on 127.0.0.1 (a free port, written to <port file>) and answers `POST /v1/messages`
in the Messages streaming format (server-sent events): a request that offers the `Write` tool
and holds no tool result yet gets one `Write` tool_use for <path to write>; every other request
gets a short text. Each request body is appended to <request log> as one JSON line, so a test
can see what Claude Code sent next (the tool result, with the person's note on a denial).

With a <command>, the model asks for the `Bash` tool with that command instead, twice in a row
(the second after the first's result), then says a text: for "Allow in this conversation".
"""

import json

from fake_api import FakeApi, arguments, serve

PORT_FILE, LOG, TARGET, REST = arguments()
COMMAND = REST[0] if REST else None
CONTENT = "Hello from Claude Code\n"


def tool_results(body):
    return sum(1 for message in body.get("messages", [])
               if isinstance(message.get("content"), list)
               for part in message["content"]
               if isinstance(part, dict) and part.get("type") == "tool_result")


def offers_write(body):
    wanted = "Bash" if COMMAND else "Write"
    return any(isinstance(t, dict) and t.get("name") == wanted for t in body.get("tools") or [])


def sse(event, data):
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def message_start(model):
    return sse("message_start", {"type": "message_start", "message": {
        "id": "msg_fake", "type": "message", "role": "assistant", "model": model,
        "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1}}})


def tool_use_stream(model, turn=0):
    if COMMAND:
        name, call_id = "Bash", f"toolu_fake_bash_{turn}"
        arguments = json.dumps({"command": COMMAND, "description": "Touch the file"})
    else:
        name, call_id = "Write", "toolu_fake_write"
        arguments = json.dumps({"file_path": TARGET, "content": CONTENT})
    return b"".join([
        message_start(model),
        sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {
            "type": "tool_use", "id": call_id, "name": name, "input": {}}}),
        sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
            "type": "input_json_delta", "partial_json": arguments}}),
        sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        sse("message_delta", {"type": "message_delta", "delta": {
            "stop_reason": "tool_use", "stop_sequence": None}, "usage": {"output_tokens": 20}}),
        sse("message_stop", {"type": "message_stop"}),
    ])


def text_stream(model, text):
    return b"".join([
        message_start(model),
        sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {
            "type": "text", "text": ""}}),
        sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
            "type": "text_delta", "text": text}}),
        sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        sse("message_delta", {"type": "message_delta", "delta": {
            "stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": 5}}),
        sse("message_stop", {"type": "message_stop"}),
    ])


class Handler(FakeApi):
    def do_HEAD(self):
        self.send_response(200)
        self.end_headers()

    def do_GET(self):
        self.send_response(404)
        self.end_headers()

    def answer(self, body):
        if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
            self.reply(200, json.dumps({"input_tokens": 10}).encode())
            return
        model = body.get("model", "claude-fake")
        turn = tool_results(body)
        main_loop = offers_write(body) and turn < (2 if COMMAND else 1)
        if body.get("stream"):
            payload = tool_use_stream(model, turn) if main_loop else text_stream(model, "Done.")
            self.reply(200, payload, "text/event-stream")
            return
        self.reply(200, json.dumps({
            "id": "msg_fake", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 2}}).encode())


serve(Handler, PORT_FILE, LOG)
