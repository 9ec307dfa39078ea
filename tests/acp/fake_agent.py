#!/usr/bin/env python3
"""A small ACP agent (Agent Client Protocol v1, newline-delimited JSON-RPC 2.0 over stdio) for
the core's tests of hosting another agent (`src-tauri/core/tests/all/acp.rs`).

Usage: fake_agent.py <mode> <log file>

Every line it reads is appended to <log file> as it came, so a test sees what the host sent
(and what the agent's "model" would hear). It answers `initialize` and `session/new`, and on
`session/prompt` does what <mode> says:

  write       fs/write_text_file <cwd>/hello.txt "Hi\\n", then says how that went
  read        fs/read_text_file <cwd>/notes.txt (line 2, limit 1), then says what it got
  outside     fs/write_text_file /etc/askfirst-outside.txt
  permission  session/request_permission (allow_once, allow_always, reject_once), then says
              which option it got
  wait        session/request_permission, and waits: on session/cancel it ends the turn
              `cancelled` once the request is answered
  own_tool    reports a tool call of its own (tool_call, then tool_call_update completed)
  huge        one line over the host's 40 MiB cap
  garbage     a line that is not JSON-RPC
  unknown     asks for terminal/create, which the host did not offer
  flood       sends 5,000 session/update notifications
  hang        never answers the prompt
  crash       exits with status 3, saying "boom" on stderr
  auth        answers session/new with "authentication required"
"""

import json
import os
import sys

MODE, LOG = sys.argv[1], sys.argv[2]
log = open(LOG, "a", buffering=1)
cwd = None
next_id = 100


def send(message):
    message["jsonrpc"] = "2.0"
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    log.write(line)
    return json.loads(line)


def say(session, text):
    send({"method": "session/update", "params": {"sessionId": session, "update": {
        "sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}}})


def ask(method, params):
    """Sends a request and returns the host's answer (notifications in between are logged)."""
    global next_id
    next_id += 1
    send({"id": next_id, "method": method, "params": params})
    while True:
        message = read()
        if message.get("id") == next_id and "method" not in message:
            return message


def permission(session):
    return ask("session/request_permission", {"sessionId": session, "toolCall": {
        "toolCallId": "t1", "title": "Run rm -rf build", "kind": "execute",
        "rawInput": {"command": "rm -rf build"}}, "options": [
        {"optionId": "yes", "name": "Allow", "kind": "allow_once"},
        {"optionId": "always", "name": "Always allow", "kind": "allow_always"},
        {"optionId": "no", "name": "Reject", "kind": "reject_once"}]})


def prompt(request):
    session = request["params"]["sessionId"]
    done = {"id": request["id"], "result": {"stopReason": "end_turn"}}
    if MODE == "write":
        say(session, "I will write hello.txt.")
        answer = ask("fs/write_text_file", {"sessionId": session,
                                            "path": os.path.join(cwd, "hello.txt"), "content": "Hi\n"})
        say(session, "Written." if "result" in answer else "Refused: " + answer["error"]["message"])
    elif MODE == "read":
        answer = ask("fs/read_text_file", {"sessionId": session, "path": os.path.join(cwd, "notes.txt"),
                                           "line": 2, "limit": 1})
        say(session, "Read: " + json.dumps(answer.get("result") or answer.get("error")))
    elif MODE == "outside":
        answer = ask("fs/write_text_file", {"sessionId": session, "path": "/etc/askfirst-outside.txt",
                                            "content": "x"})
        say(session, "Refused: " + answer["error"]["message"] if "error" in answer else "Written.")
    elif MODE == "permission":
        answer = permission(session)
        say(session, "Outcome: " + json.dumps(answer["result"]["outcome"]))
    elif MODE == "wait":
        global next_id
        next_id += 1
        asked = next_id
        send({"id": asked, "method": "session/request_permission", "params": {
            "sessionId": session, "toolCall": {"toolCallId": "t1", "title": "Delete everything"},
            "options": [{"optionId": "yes", "name": "Allow", "kind": "allow_once"},
                        {"optionId": "no", "name": "Reject", "kind": "reject_once"}]}})
        answered = cancelled = False
        while not (answered and cancelled):
            message = read()
            if message.get("id") == asked and "method" not in message:
                answered = True
            if message.get("method") == "session/cancel":
                cancelled = True
        done["result"]["stopReason"] = "cancelled"
    elif MODE == "own_tool":
        update = {"sessionUpdate": "tool_call", "toolCallId": "own1", "title": "Searching the web",
                  "kind": "fetch", "status": "pending", "rawInput": {"query": "weather"}}
        send({"method": "session/update", "params": {"sessionId": session, "update": update}})
        update = {"sessionUpdate": "tool_call_update", "toolCallId": "own1", "status": "completed"}
        send({"method": "session/update", "params": {"sessionId": session, "update": update}})
        say(session, "Sunny.")
    elif MODE == "huge":
        sys.stdout.write('{"jsonrpc":"2.0","method":"session/update","params":"' + "x" * (41 * 1024 * 1024))
        sys.stdout.write('"}\n')
        sys.stdout.flush()
        read()
        return
    elif MODE == "garbage":
        sys.stdout.write("hello, this is not JSON-RPC\n")
        sys.stdout.flush()
        read()
        return
    elif MODE == "unknown":
        answer = ask("terminal/create", {"sessionId": session, "command": "ls"})
        log.write("ANSWER " + json.dumps(answer) + "\n")
        read()
        return
    elif MODE == "flood":
        for i in range(5000):
            say(session, ".")
    elif MODE == "hang":
        while True:
            read()
    elif MODE == "crash":
        sys.stderr.write("boom\n")
        sys.stderr.flush()
        sys.exit(3)
    send(done)


while True:
    request = read()
    method = request.get("method")
    if method == "initialize":
        send({"id": request["id"], "result": {"protocolVersion": 1, "agentCapabilities": {},
                                              "authMethods": []}})
    elif method == "session/new":
        cwd = request["params"]["cwd"]
        if MODE == "auth":
            send({"id": request["id"], "error": {"code": -32000, "message": "Authentication required"}})
        else:
            send({"id": request["id"], "result": {"sessionId": "s1"}})
    elif method == "session/prompt":
        prompt(request)
