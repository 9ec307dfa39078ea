#!/usr/bin/python3
"""A local stand-in for an OpenAI-compatible Chat Completions server, for end-to-end tests.

Serves POST /v1/chat/completions with `stream: true` as Server-Sent Events in the documented
chunk format (without `stream`, one JSON reply, as "Test the connection" asks; GET /v1/models
lists `e2e-model`). The reply depends on how far the conversation is: no tool result yet -> a
sentence streamed in pieces plus a `write_file` tool call; otherwise -> a final answer that
quotes the tool result. Prints its port on stdout, then serves until killed.

`--context-turns N`: a model whose context window holds N tasks; a conversation with more
of the person's messages is refused as OpenAI refuses one over the window (HTTP 400,
`context_length_exceeded`).
"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def chunk(delta, finish=None):
    return {"id": "chatcmpl-e2e", "object": "chat.completion.chunk", "model": "e2e-model",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        if self.headers.get("Authorization") != "Bearer sk-e2e":
            self.send_response(401)
            self.end_headers()
            self.wfile.write(b'{"error": {"message": "bad key"}}')
            return
        if not body.get("stream"):
            return self.whole_reply(body)
        asked = [m for m in body["messages"] if m["role"] == "user"]
        if CONTEXT_TURNS is not None and len(asked) > CONTEXT_TURNS:
            self.send_json(400, {"error": {
                "message": "This model's maximum context length is 8192 tokens. However, your "
                           "messages resulted in 9001 tokens. Please reduce the length of the messages.",
                "type": "invalid_request_error", "param": "messages",
                "code": "context_length_exceeded"}})
            return
        results = [m for m in body["messages"] if m["role"] == "tool"]
        if not results:
            args = json.dumps({"path": "notes.txt", "content": "Buy milk\n"})
            chunks = [chunk({"role": "assistant", "content": "I will write "}),
                      chunk({"content": "your note into notes.txt."}),
                      chunk({"tool_calls": [{"index": 0, "id": "call_e2e", "type": "function",
                                             "function": {"name": "write_file", "arguments": args[:10]}}]}),
                      chunk({"tool_calls": [{"index": 0, "function": {"arguments": args[10:]}}]}),
                      chunk({}, "tool_calls")]
        else:
            said = results[-1]["content"]
            chunks = [chunk({"role": "assistant", "content": "Done. The tool said: "}),
                      chunk({"content": said}), chunk({}, "stop")]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for c in chunks:
            self.wfile.write(f"data: {json.dumps(c)}\n\n".encode())
            self.wfile.flush()
            time.sleep(0.05)
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


    def whole_reply(self, body):
        """A reply without streaming (what "Test the connection" asks): the model `e2e-model`
        answers; any other model is unknown (404, as OpenAI says it)."""
        if body.get("model") != "e2e-model":
            self.send_json(404, {"error": {"message": f"The model `{body.get('model')}` does not exist",
                                           "code": "model_not_found"}})
            return
        self.send_json(200, {"id": "chatcmpl-e2e", "object": "chat.completion", "model": "e2e-model",
                             "choices": [{"index": 0, "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": "OK"}}]})

    def do_GET(self):
        """GET /v1/models: the models this server has."""
        if self.headers.get("Authorization") != "Bearer sk-e2e":
            self.send_json(401, {"error": {"message": "bad key"}})
        elif self.path == "/v1/models":
            self.send_json(200, {"object": "list", "data": [{"id": "e2e-model", "object": "model"}]})
        else:
            self.send_json(404, {"error": {"message": "no such page"}})

    def send_json(self, status, value):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


CONTEXT_TURNS = None


def main():
    global CONTEXT_TURNS
    if "--context-turns" in sys.argv:
        CONTEXT_TURNS = int(sys.argv[sys.argv.index("--context-turns") + 1])
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
