#!/usr/bin/env python3
"""A local stand-in for the Gemini API (`generativelanguage.googleapis.com`), for driving the
real Gemini CLI offline (it reads its address from `GOOGLE_GEMINI_BASE_URL`).

Usage: fake_gemini.py <port file> <request log> <path to write>

It listens on 127.0.0.1 (a free port, written to <port file>) and answers
`POST /v1beta/models/<model>:streamGenerateContent?alt=sse` in the streaming format
(server-sent events, each `data:` a GenerateContentResponse): a request that offers the
`write_file` tool and holds no functionResponse yet gets one `write_file` functionCall for
<path to write>; every other request gets a short text. `:generateContent` (Gemini CLI's own
side questions, such as who speaks next) gets a text, `:countTokens` a count. Each request body
is appended to <request log> as one JSON line, so a test can see what Gemini CLI sent next.
"""

import json

from fake_api import FakeApi, arguments, serve

PORT_FILE, LOG, TARGET, _ = arguments()
CONTENT = "Hello from Gemini CLI\n"


def offers(body, name):
    for tool in body.get("tools") or []:
        for declaration in tool.get("functionDeclarations") or []:
            if declaration.get("name") == name:
                return True
    return False


def has_function_response(body):
    return any("functionResponse" in part for content in body.get("contents") or []
               for part in content.get("parts") or [])


def response(parts, finish="STOP"):
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": finish,
                            "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": "gemini-fake"}


class Handler(FakeApi):
    def do_GET(self):
        self.reply(404, b"{}")

    def answer(self, body):
        if ":countTokens" in self.path:
            self.reply(200, json.dumps({"totalTokens": 10}).encode())
            return
        if ":streamGenerateContent" in self.path:
            if offers(body, "write_file") and not has_function_response(body):
                parts = [{"functionCall": {"name": "write_file",
                                           "args": {"file_path": TARGET, "content": CONTENT}}}]
            else:
                parts = [{"text": "Done."}]
            payload = f"data: {json.dumps(response(parts))}\r\n\r\n".encode()
            self.reply(200, payload, "text/event-stream")
            return
        if ":generateContent" in self.path:
            # Side questions ask for JSON (who speaks next, …): the model answers the user.
            text = json.dumps({"reasoning": "done", "next_speaker": "user"})
            self.reply(200, json.dumps(response([{"text": text}])).encode())
            return
        self.reply(404, b"{}")


serve(Handler, PORT_FILE, LOG)
