"""The inbox for other agents, against the real Claude Code CLI (tests/agents, `npm ci`): its
hook installed by `askfirst-hook install claude-code`, `claude -p` run headless against a local
stand-in for the Anthropic API (tests/agents/fake_anthropic.py: one Write, then a text). A card
appears in the real window; Approve → Claude Code writes the file; Deny with a note → no file,
and the note reaches Claude Code's next request; Ask First not running → fails closed. A deny
rule refuses its Write without a card. The same card, approve and deny with the real Gemini CLI
(tests/agents, `gemini -p` against fake_gemini.py). A card left waiting when Ask First is killed
is said at the next start, with only Dismiss."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from harness.app import App
from harness.env import APP, ARTIFACTS, ROOT
from harness.wait import wait_for
from harness.webdriver import ELEMENT


def function_responses(requests):
    """The functionResponse parts Gemini CLI sent its model, in order, as JSON texts, from the
    stand-in's log of request bodies (`requests`, one JSON object a line)."""
    if not os.path.exists(requests):
        return []
    with open(requests, encoding="utf-8") as f:
        return [json.dumps(part) for line in f
                for content in json.loads(line)["body"].get("contents") or []
                for part in content.get("parts") or [] if "functionResponse" in part]

HOOK = os.path.join(os.path.dirname(APP), "askfirst-hook")
AGENTS = os.path.join(ROOT, "tests", "agents")
CLAUDE = os.path.join(AGENTS, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
FAKE = os.path.join(AGENTS, "fake_anthropic.py")
GEMINI = os.path.join(AGENTS, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js")
FAKE_GEMINI = os.path.join(AGENTS, "fake_gemini.py")


class OtherAgent:
    """What both agents' stand-ins share: a throwaway home with a project folder, a runtime
    folder for the inbox socket, the agent's fake API server (`fake`, started with its port
    file, its request log and the file the model writes, plus `server_args`) and its hook
    installed by `askfirst-hook install <hook>`. A subclass names them and checks the
    installed settings (`check_installed`)."""

    name = hook = fake = prefix = None
    server_args = ()

    def prepare(self):
        """Writes what the agent needs in its home before the hook is installed."""

    def check_installed(self):
        """Fails when `askfirst-hook install` did not put the hook where the agent reads it."""
        raise NotImplementedError

    def __enter__(self):
        assert os.access(HOOK, os.X_OK), f"{HOOK} is missing: run `cargo build -p askfirst-hook`"
        self.tmp = tempfile.mkdtemp(prefix=f"askfirst-e2e-{self.prefix}-")
        self.home = os.path.join(self.tmp, "home")
        self.project = os.path.join(self.home, "projects", "site")
        self.runtime = os.path.join(self.tmp, "run")
        os.makedirs(self.project)
        os.makedirs(self.runtime, mode=0o700)
        self.prepare()
        self.target = os.path.join(self.project, "hello.txt")
        self.requests = os.path.join(self.tmp, "requests.jsonl")
        port_file = os.path.join(self.tmp, "port")
        self.server = subprocess.Popen([sys.executable, self.fake, port_file, self.requests, self.target]
                                       + list(self.server_args))
        self.port = wait_for(f"the fake API server of {self.name}", lambda: os.path.exists(port_file)
                             and open(port_file).read().strip())
        installed = subprocess.run([HOOK, "install", self.hook], env={**os.environ, "HOME": self.home},
                                   capture_output=True, text=True, timeout=30)
        assert installed.returncode == 0, installed.stderr
        self.check_installed()
        return self

    def app(self, name):
        """An App whose inbox socket is in this agent's runtime folder and whose home is the
        agent's (where `~` in the card's words points)."""
        return App(name, None, env={"XDG_RUNTIME_DIR": self.runtime, "HOME": self.home})

    def app_with_rules(self, name, rules):
        """As `app`, with the person's folder the agent's project and `rules` (rules.toml's
        text) in its data folder."""
        data = os.path.join(self.tmp, "data")
        os.makedirs(data)
        with open(os.path.join(data, "rules.toml"), "w", encoding="utf-8") as f:
            f.write(rules)
        return App(name, None, env={"XDG_RUNTIME_DIR": self.runtime, "HOME": self.home},
                   data=data, workspace=self.project)

    def diagnosis(self):
        """What a failure's message adds about the agent (nothing by default)."""
        return ""

    def __exit__(self, *exc):
        self.server.terminate()
        self.server.wait(10)
        shutil.rmtree(self.tmp, ignore_errors=True)


class ClaudeCode(OtherAgent):
    """A throwaway home with Claude Code's hook installed, a project folder, a runtime folder
    for the inbox socket, and the fake API server. With a `command`, the model runs that `Bash`
    command twice. The hook is in Claude Code's PreToolUse (our policy) and PermissionRequest
    (the card) events, as `askfirst-hook install` puts it."""

    name, hook, fake, prefix = "Claude Code", "claude-code", FAKE, "claude"

    def __init__(self, command=None):
        self.command = command
        self.server_args = [command] if command else []

    def __enter__(self):
        assert os.access(CLAUDE, os.X_OK), f"{CLAUDE} is missing: run `make e2e-agents`"
        return super().__enter__()

    def check_installed(self):
        settings = json.load(open(os.path.join(self.home, ".claude", "settings.json")))
        for event in ("PreToolUse", "PermissionRequest"):
            command = settings["hooks"][event][0]["hooks"][0]["command"]
            assert command.endswith("askfirst-hook claude-code"), (event, command)

    def diagnosis(self):
        said = [json.dumps(b["messages"][-1])[:400] for b in self.sent() if b.get("messages")]
        settings = open(os.path.join(self.home, ".claude", "settings.json")).read()
        return (f"it last sent {said[-1:]}; runtime folder {os.listdir(self.runtime)}; "
                f"hook settings {settings}; ")

    def start(self):
        """Starts `claude -p` in the project folder; returns the process."""
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.home,
               "XDG_RUNTIME_DIR": self.runtime, "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{self.port}",
               "ANTHROPIC_API_KEY": "sk-ant-fake", "DISABLE_AUTOUPDATER": "1",
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1"}
        return subprocess.Popen([CLAUDE, "-p", "Write hello.txt", "--output-format", "json"],
                                cwd=self.project, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def sent(self):
        """The bodies of the requests Claude Code sent, in order."""
        if not os.path.exists(self.requests):
            return []
        return [json.loads(line)["body"] for line in open(self.requests)]


def _finish(proc):
    out, err = proc.communicate(timeout=120)
    return out, err


def _card(app, agent, proc):
    """The card of `agent`'s request (a Card), once it is shown; a failure says where the
    agent got to."""
    try:
        return wait_for(f"the card of {agent.name}'s request", app.cards, timeout=60)[0]
    except AssertionError:
        raise AssertionError(f"no card; {agent.name} {'ended' if proc.poll() is not None else 'runs'}; "
                             f"{agent.diagnosis()}data {os.listdir(app.data)}; "
                             f"the app said {app.stderr()[-1500:]}")


def _request_and_approve(app, agent, tool, words, check=lambda card: None):
    """Starts `agent`, waits for the card of its request to write hello.txt in its project and
    checks what the card says (the summary naming the agent and the folder, the agent's `tool`,
    no "Allow for this session" of ours; then `check(card)`), approves it as a person would and
    waits for the agent to write the file with `words` and end. Prints how long the card took
    to show and the file to be written after the click."""
    started = time.monotonic()
    proc = agent.start()
    card = _card(app, agent, proc)
    painted = time.monotonic()
    summary = app.card_field(card, "approval-summary")
    assert summary == f"{agent.name}, in the folder ~/projects/site, wants to write the file " \
                      "~/projects/site/hello.txt (1 line)", summary
    assert app.card_field(card, "approval-tool") == tool
    assert not app.in_card(card, '[data-testid="approve-session"]'), \
        f"{agent.name}'s card offers none of our grants, nor a session permission it has not"
    check(card)
    clicked = time.monotonic()
    app.press(card, "approve")
    wait_for(f"{agent.name} to write the file", lambda: os.path.exists(agent.target), timeout=60)
    decided = time.monotonic()
    _finish(proc)
    assert open(agent.target).read() == words
    print(f"  inbox timing ({agent.name}): start → card painted {1000 * (painted - started):.0f} ms, "
          f"click → file written {1000 * (decided - clicked):.0f} ms", flush=True)


def _deny_with_note(app, agent, proc, note):
    """Waits for the card of `agent`'s request, denies it with `note` as a person would (Add a
    note, type, Deny with note), waits for the agent to end and returns what it printed; fails
    when its file was written."""
    card = _card(app, agent, proc)
    app.press(card, "add-note")
    app.on_card(card, '[data-testid="deny-note"]', lambda box: app.wd.type(box, note), "the note box")
    app.press(card, "deny-with-note")
    out, _ = _finish(proc)
    assert not os.path.exists(agent.target)
    return out


def test_claude_code_asks_on_the_card_and_approve_writes_the_file():
    with ClaudeCode() as claude, claude.app("inbox-approve") as app:
        def check(card):
            assert "Hello from Claude Code" in app.card_field(card, "approval-args")
            who = app.card_field(card, "approval-external")
            assert who == "Claude Code, in the folder ~/projects/site", who
            # Another agent's call cannot be changed here: its card has no "Change…".
            assert app.in_card(card, '[data-testid="add-note"]')
            assert not app.in_card(card, '[data-testid="approval-change-call"]')
            app.wd.screenshot(os.path.join(ARTIFACTS, "inbox-card.png"))
        _request_and_approve(app, claude, "Write", "Hello from Claude Code\n", check)
        logs = os.listdir(os.path.join(app.data, "other-agents"))
        assert len(logs) == 1 and logs[0].startswith("claude-code-"), logs
        records = [json.loads(line) for line in open(os.path.join(app.data, "other-agents", logs[0]))]
        assert [r["type"] for r in records] == ["approval_asked", "approval_decided"], records
        assert records[1]["outcome"]["kind"] == "approved", records


def test_claude_code_denied_with_a_note_writes_nothing_and_hears_the_note():
    with ClaudeCode() as claude, claude.app("inbox-deny") as app:
        out = _deny_with_note(app, claude, claude.start(), "Write a poem instead")
        results = [json.dumps(b["messages"][-1]) for b in claude.sent() if b.get("messages")]
        assert any("Write a poem instead" in r and "tool_result" in r for r in results), results[-1:]
        assert "permission_denials" in out and "hello.txt" in out, out[:500]


def test_without_ask_first_claude_code_fails_closed():
    with ClaudeCode() as claude:
        proc = claude.start()
        out, err = _finish(proc)
        assert not os.path.exists(claude.target), "nothing is allowed when Ask First is not running"
        assert "permission_denials" in out and "hello.txt" in out, (out[:500], err[-500:])


def test_claude_codes_request_waiting_when_ask_first_is_killed_is_said_at_the_next_start():
    """kill -9 with Claude Code's card waiting: Claude Code stops waiting (its hook fails
    closed, nothing is written); the next start says which agent asked what, that Ask First was
    closed before the person answered and that it was not allowed, with only Dismiss; Dismiss
    takes it away."""
    with ClaudeCode() as claude:
        data = os.path.join(claude.tmp, "data")
        env = {"XDG_RUNTIME_DIR": claude.runtime, "HOME": claude.home}
        with App("inbox-gone", None, env=env, data=data) as app:
            proc = claude.start()
            card = _card(app, claude, proc)
            summary = app.card_field(card, "approval-summary")
            os.kill(app.pid, signal.SIGKILL)
            wait_for("the app to die", lambda: not app.running(), timeout=10)
        _finish(proc)
        assert not os.path.exists(claude.target), "nothing is allowed when Ask First is killed"
        with App("inbox-gone-again", None, env=env, data=data) as app:
            item = wait_for("the request left waiting", lambda: app.first('[data-testid="gone-request"]'),
                            timeout=30)
            assert app.wd.attr(item, "data-approval-id") == card.id
            said = app.wd.text(item)
            assert "Claude Code asked:" in said, said
            # One line: a summary wider than the window ends in an ellipsis, so its text is read
            # from the page, not from what WebDriver sees drawn.
            shown = app.wd.execute("return document.querySelector("
                                   "'[data-testid=\"gone-summary\"]').textContent")
            assert shown == summary, (summary, shown)
            assert ("Ask First was closed before you answered; Claude Code is no longer waiting for "
                    "this, and it was not allowed.") in said, said
            buttons = app.wd.execute("return [...document.querySelectorAll("
                                     "'[data-testid=\"gone-request\"] button')]"
                                     ".map(b => b.getAttribute('data-testid'))")
            assert buttons == ["gone-dismiss"], buttons
            assert not app.cards(), "no card: nobody is asking any more"
            app.wd.screenshot(os.path.join(ARTIFACTS, "inbox-gone.png"))
            app.click('[data-testid="gone-dismiss"]')
            wait_for("the request to go", lambda: not app.first('[data-testid="gone-request"]'))
        # That a later start does not bring it back: the core's test (inbox_gone.rs); its log
        # holds the closing's record now.
        logs = os.listdir(os.path.join(data, "other-agents"))
        records = [json.loads(line) for line in open(os.path.join(data, "other-agents", logs[0]))]
        assert [r["type"] for r in records] == ["approval_asked", "approval_decided"], records
        assert records[1]["outcome"] == {"kind": "cancelled", "cause": "app_shutdown"}, records


def test_a_deny_rule_refuses_claude_codes_write_without_a_card_and_it_hears_why():
    """Our policy applies to another agent: a deny rule on a file of the person's folder (here
    the project Claude Code works in) refuses its Write with no card, and the rule's reason
    reaches Claude Code's next request."""
    with ClaudeCode() as claude:
        with claude.app_with_rules("inbox-rule", '[[deny]]\ntool = "write_file"\nmatch = "hello.txt"\n') as app:
            proc = claude.start()
            out, _ = _finish(proc)
            assert not os.path.exists(claude.target), "the deny rule holds"
            assert not app.wd.find_all('[data-testid="approval-card"]'), "no card for a refusal"
            results = [json.dumps(b["messages"][-1]) for b in claude.sent() if b.get("messages")]
            assert any("forbids" in r and "tool_result" in r for r in results), results[-1:]
            assert "permission_denials" in out, out[:500]
            logs = os.listdir(os.path.join(app.data, "other-agents"))
            records = [json.loads(line) for line in open(os.path.join(app.data, "other-agents", logs[0]))]
            assert [r["type"] for r in records] == ["policy_decided"], records
            assert records[0]["policy_layer"] == "user_rule" and not records[0]["allowed"], records


class Gemini(OtherAgent):
    """A throwaway home with Gemini CLI's BeforeTool hook installed (`askfirst-hook install
    gemini`, beside settings that turn its telemetry off), and the fake Gemini API server.
    Gemini CLI headless (`-p`) offers its file tools only in `auto_edit` (or `yolo`) mode,
    where it asks nobody itself: the hook is then the only one asked."""

    name, hook, fake, prefix = "Gemini CLI", "gemini", FAKE_GEMINI, "gemini"

    def __enter__(self):
        assert os.path.exists(GEMINI), f"{GEMINI} is missing: run `make e2e-agents`"
        return super().__enter__()

    def prepare(self):
        os.makedirs(os.path.join(self.home, ".gemini"))
        with open(os.path.join(self.home, ".gemini", "settings.json"), "w") as f:
            json.dump({"telemetry": {"enabled": False}, "privacy": {"usageStatisticsEnabled": False},
                       "security": {"auth": {"selectedType": "gemini-api-key"}},
                       "general": {"disableAutoUpdate": True, "disableUpdateNag": True}}, f)

    def check_installed(self):
        settings = json.load(open(os.path.join(self.home, ".gemini", "settings.json")))
        assert settings["telemetry"] == {"enabled": False}, settings
        assert settings["hooks"]["BeforeTool"][0]["hooks"][0]["command"].endswith("askfirst-hook gemini")

    def start(self):
        """Starts `gemini -p` in the project folder; returns the process."""
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.home,
               "XDG_RUNTIME_DIR": self.runtime, "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{self.port}",
               "GEMINI_API_KEY": "fake-gemini-key", "GEMINI_CLI_TRUST_WORKSPACE": "true",
               "NO_BROWSER": "1"}
        # A model named: no routing question before the turn.
        return subprocess.Popen(["node", GEMINI, "-p", "Write hello.txt", "-m", "gemini-2.5-flash",
                                 "--approval-mode", "auto_edit", "--output-format", "json"],
                                cwd=self.project, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def function_responses(self):
        """The functionResponse parts Gemini CLI sent, in order, as JSON texts."""
        return function_responses(self.requests)


def test_gemini_cli_asks_on_the_card_and_approve_writes_the_file():
    with Gemini() as gemini, gemini.app("inbox-gemini") as app:
        _request_and_approve(app, gemini, "write_file", "Hello from Gemini CLI\n")


def test_gemini_cli_denied_with_a_note_writes_nothing_and_hears_the_note():
    with Gemini() as gemini, gemini.app("inbox-gemini-deny") as app:
        _deny_with_note(app, gemini, gemini.start(), "Write a poem instead")
        said = gemini.function_responses()
        assert any("Write a poem instead" in r for r in said), said[-1:]


def test_allow_in_this_conversation_is_claude_codes_own_session_permission():
    """On Claude Code's PermissionRequest the card offers "Allow in this conversation" and says
    what it does; choosing it hands Claude Code a session rule for exactly that command, so its
    second identical call does not ask again (one card, both calls ran)."""
    with ClaudeCode(command="touch made-by-claude.txt") as claude, \
            claude.app("inbox-session") as app:
        proc = claude.start()
        card = _card(app, claude, proc)
        assert app.card_field(card, "approval-tool") == "Bash"
        # (folded under "What “Allow in this conversation” covers": read as the page holds it)
        scope = app.on_card(card, ".scope",
                            lambda e: app.wd.execute("return arguments[0].textContent", {ELEMENT: e}))
        assert "Claude Code will not ask again for exactly `touch made-by-claude.txt` until you close " \
               "that Claude Code conversation" in scope, scope
        app.wd.screenshot(os.path.join(ARTIFACTS, "inbox-session-card.png"))
        app.press(card, "approve-session")
        _finish(proc)
        assert os.path.exists(os.path.join(claude.project, "made-by-claude.txt"))
        results = [part for b in claude.sent() for m in b.get("messages", [])
                   if isinstance(m.get("content"), list) for part in m["content"]
                   if isinstance(part, dict) and part.get("type") == "tool_result"]
        ids = {r["tool_use_id"]: r for r in results}
        assert set(ids) == {"toolu_fake_bash_0", "toolu_fake_bash_1"}, ids
        assert not any(r.get("is_error") for r in ids.values()), ids
        logs = os.listdir(os.path.join(app.data, "other-agents"))
        records = [json.loads(line) for line in open(os.path.join(app.data, "other-agents", logs[0]))]
        assert [r["type"] for r in records] == ["approval_asked", "approval_decided"], records
        assert records[1]["outcome"]["scope"] == "session", records


def test_a_command_of_claude_code_that_names_no_kept_folder_still_asks_and_says_why():
    """Claude Code's own permissions allow `grep`, and the person's ask rule keeps the folder
    Contracts. `grep -r IBAN` names no folder, so before, our PreToolUse hook left it to Claude
    Code, which ran it with no card and read the contracts. Now it is asked on a card that
    names the rule and says the command could reach it; denied, nothing is read."""
    with ClaudeCode(command="grep -r IBAN") as claude:
        settings_path = os.path.join(claude.home, ".claude", "settings.json")
        settings = json.load(open(settings_path))
        settings["permissions"] = {"allow": ["Bash(grep:*)"]}
        with open(settings_path, "w") as f:
            json.dump(settings, f)
        os.makedirs(os.path.join(claude.project, "Contracts"))
        with open(os.path.join(claude.project, "Contracts", "salary.txt"), "w") as f:
            f.write("IBAN DE00 1234\n")
        with claude.app_with_rules("inbox-kept", '[[ask]]\ntool = "*"\nmatch = "Contracts/**"\n') as app:
            proc = claude.start()
            for turn in range(2):
                card = _card(app, claude, proc)
                assert app.card_field(card, "approval-tool") == "Bash"
                reason = app.card_field(card, "approval-reason")
                assert "Claude Code runs this command itself" in reason, reason
                assert "Ask before anything in Contracts" in reason, reason
                if turn == 0:
                    app.wd.screenshot(os.path.join(ARTIFACTS, "inbox-kept-card.png"))
                app.press(card, "deny")
                wait_for("the card to go", lambda: card.id not in [c.id for c in app.cards()])
            _finish(proc)
            sent = json.dumps(claude.sent())
            assert "IBAN DE00" not in sent, "the contracts were read"


TESTS = [test_claude_code_asks_on_the_card_and_approve_writes_the_file,
         test_claude_code_denied_with_a_note_writes_nothing_and_hears_the_note,
         test_without_ask_first_claude_code_fails_closed,
         test_claude_codes_request_waiting_when_ask_first_is_killed_is_said_at_the_next_start,
         test_a_deny_rule_refuses_claude_codes_write_without_a_card_and_it_hears_why,
         test_gemini_cli_asks_on_the_card_and_approve_writes_the_file,
         test_gemini_cli_denied_with_a_note_writes_nothing_and_hears_the_note,
         test_allow_in_this_conversation_is_claude_codes_own_session_permission,
         test_a_command_of_claude_code_that_names_no_kept_folder_still_asks_and_says_why]


def test_settings_connects_and_disconnects_claude_code():
    home = tempfile.mkdtemp(prefix="askfirst-e2e-home-")
    try:
        os.makedirs(os.path.join(home, ".claude"))
        settings = os.path.join(home, ".claude", "settings.json")
        with open(settings, "w") as f:
            json.dump({"model": "opus"}, f)
        with App("inbox-settings", None, env={"HOME": home}) as app:
            app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
            row = wait_for("Claude Code in Settings",
                           lambda: app.wd.find_all('[data-testid="other-agent"][data-agent="claude-code"]'))[0]
            app.wd.click(app.wd.find_in(row, '[data-testid="connect-agent"]')[0])
            wait_for("Claude Code connected", lambda: app.wd.find_all(
                '[data-testid="other-agent"][data-agent="claude-code"][data-connected="true"]'))
            connected = json.load(open(settings))
            assert connected["model"] == "opus", connected
            for event in ("PreToolUse", "PermissionRequest"):
                command = connected["hooks"][event][0]["hooks"][0]["command"]
                assert command == f"{HOOK} claude-code", (event, command)
            app.wd.screenshot(os.path.join(ARTIFACTS, "inbox-settings.png"))
            row = app.wd.find_all('[data-testid="other-agent"][data-agent="claude-code"]')[0]
            app.wd.click(app.wd.find_in(row, '[data-testid="disconnect-agent"]')[0])
            wait_for("Claude Code disconnected", lambda: app.wd.find_all(
                '[data-testid="other-agent"][data-agent="claude-code"][data-connected="false"]'))
            assert json.load(open(settings)) == {"model": "opus"}
    finally:
        shutil.rmtree(home, ignore_errors=True)


TESTS.append(test_settings_connects_and_disconnects_claude_code)
