"""The core's and the shell's words in the desktop's language: started with LANG=pt_BR.UTF-8 or
LANG=zh_CN.UTF-8, a card's summary, the notification and why a refused action was not done (by
the person, or by a rule without a card) are
in that language (the window's own labels are the window's catalogue), with a screenshot of each
card to look at (CJK text must render, not as boxes: fonts-wqy-microhei in the Makefile). The
person's rules are whole sentences of that language: the card's reason quotes an "ask" rule,
Settings lists the rules, and the "Add a rule" form refuses a folder that is not there in it.
An MCP tool's card (and its notification), a command's card (whether it runs shut in), who
answers in the conversation, an MCP server's state in Settings and the times in Activity are in
that language too (each was English in every language before)."""
import json
import os

from harness.app import App, scenario_file
from harness.desktop import notifications
from harness.env import ARTIFACTS, HERE
from harness.wait import wait_for
from harness.webdriver import ELEMENT
from test_language import check_min_size

LANGUAGES = [
    ("pt_BR.UTF-8", "pt-BR", {
        "summary": "Criar o arquivo notas.txt (1 linha)",
        "title": "O Ask First precisa da sua aprovação",
        "folder": "Pasta: workspace",
        "refused": "Você disse não. A ação não foi feita.",
        "forbidden": "Suas configurações não permitem esta ação (Sua regra “Nunca mexer em nada em "
                     "Private” proíbe isto). Ela não foi feita.",
        "reason": "Sua regra “Perguntar antes de escrever notas.txt” diz para perguntar a você antes.",
        "rules": ["Nunca mexer em nada em Private", "Perguntar antes de escrever notas.txt",
                  "Sempre permitir executar o comando “git status” (com qualquer coisa depois)"],
        "no_folder": "Não há nenhuma pasta “Nope” na sua pasta. Confira o nome, ou escolha uma da lista.",
    }),
    ("zh_CN.UTF-8", "zh-CN", {
        "summary": "新建文件 notas.txt（1 行）",
        "title": "Ask First 需要你的同意",
        "folder": "文件夹：workspace",
        "refused": "你拒绝了。这个操作没有执行。",
        "forbidden": "你的设置不允许这个操作（你的规则“禁止操作 Private 中的任何内容”禁止这样做）。它没有执行。",
        "reason": "你的规则“写入 notas.txt 前先问我”要求先问你。",
        "rules": ["禁止操作 Private 中的任何内容", "写入 notas.txt 前先问我",
                  "始终允许运行命令“git status”（后面跟任何内容都算）"],
        "no_folder": "你的文件夹中没有名为“Nope”的文件夹。请检查名称，或从列表中选择一个。",
    }),
]


RULES = ('[[deny]]\ntool = "*"\nmatch = "Private/**"\n\n'
         '[[ask]]\ntool = "write_file"\nmatch = "notas.txt"\n\n'
         '[[allow]]\ntool = "run_command"\nmatch = "git status *"\n')


def choose(app, testid, value):
    """Sets a <select> the way a person's choice does (its change event)."""
    app.wd.execute(
        "const s = document.querySelector(`[data-testid='${arguments[0]}']`);"
        "s.value = arguments[1]; s.dispatchEvent(new Event('change', {bubbles: true}));",
        testid, value)


def settings_rules_are_said_in(app, tag, said):
    """Settings lists the rules in the language; the form's refusal is in it too."""
    app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
    listed = wait_for("the rules", lambda: app.wd.find_all('[data-testid="rule-sentence"]'))
    assert [app.wd.text(r) for r in listed] == said["rules"], (tag, [app.wd.text(r) for r in listed])
    app.wd.execute("document.querySelector('[data-testid=rule-sentence]').scrollIntoView()")
    app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-rules.png"))
    app.wd.click(wait_for("Add a rule", lambda: app.wd.find_all('[data-testid="add-rule"]'))[0])
    wait_for("the form", lambda: app.wd.find_all('[data-testid="rule-form"]'))
    choose(app, "rule-effect", "never")
    choose(app, "rule-what", "*")
    choose(app, "rule-where", "folder")
    folder = wait_for("the folder field", lambda: app.wd.find_all('[data-testid="rule-folder"]'))[0]
    app.wd.type(folder, "Nope")
    wait_for("the name typed", lambda: app.wd.execute(
        "return document.querySelector('[data-testid=rule-folder]').value") == "Nope")
    app.wd.click(app.wd.find_all('[data-testid="rule-save"]')[0])
    error = wait_for("the refusal", lambda: app.wd.find_all('[data-testid="rule-error"]'))[0]
    assert app.wd.text(error) == said["no_folder"], (tag, app.wd.text(error))
    app.wd.execute("document.querySelector('[data-testid=rule-form]').scrollIntoView()")
    app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-rule-form.png"))


def test_cards_notifications_and_refusals_follow_the_desktop_language():
    path = scenario_file([
        {"say": "...", "tool_calls": [
            {"name": "write_file", "arguments": {"path": "notas.txt", "content": "um\n"}},
            {"name": "write_file", "arguments": {"path": "Private/segredo.txt", "content": "x\n"}}]},
        {"say": "ok"},
    ])
    try:
        for locale, tag, said in LANGUAGES:
            # LC_ALL and LC_MESSAGES would win over LANG: left empty, as on a desktop set by LANG.
            env = {"LANG": locale, "LC_ALL": "", "LC_MESSAGES": ""}
            app = App(f"lang-{tag}", path, env)
            os.makedirs(app.data)
            with open(os.path.join(app.data, "rules.toml"), "w", encoding="utf-8") as f:
                f.write(RULES)
            with app:
                before = len(notifications())
                app.start_task("x")
                card = app.card()
                summary = app.card_field(card, "approval-summary")
                assert summary == said["summary"], (tag, summary)
                reason = app.card_field(card, "approval-reason")
                assert reason == said["reason"], (tag, reason)
                seen = wait_for("the notification", lambda: [
                    n for n in notifications()[before:] if n.get("method") == "Notify"
                    or "summary" in n])
                assert seen[-1]["summary"] == said["title"], (tag, seen)
                # The summary, then the folder's name in the language.
                assert seen[-1]["body"] == said["summary"] + "\n" + said["folder"], (tag, seen)
                app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-card.png"))
                app.press(card, "deny")
                assert app.wait_finished() == "completed"
                line = app.wd.text(app.tool_calls()[0][1])
                assert said["refused"] in line, (tag, line)
                # Refused by a rule without a card: the rule's reason in the language too (the
                # model is told it in English).
                line = app.wd.text(app.tool_calls()[1][1])
                assert said["forbidden"] in line, (tag, line)
                wait_for("the card to go", lambda: not app.cards())
                app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-refused.png"))
                settings_rules_are_said_in(app, tag, said)
    finally:
        os.unlink(path)


# What an MCP tool's card, a command's card, the conversation, Settings' MCP servers and
# Activity say, in each language (these were English whatever the language: issue 15's walk).
MORE = [
    ("pt_BR.UTF-8", "pt-BR", {
        "mcp_summary": 'Usar "greet" do servidor MCP "plain"',
        "folder": "Pasta: workspace",
        "shut_in": ["Ele roda isolado: só pode alterar arquivos da sua pasta de trabalho",
                    "Neste computador ele não roda isolado: pode ler e alterar qualquer arquivo seu"],
        "tried_apply": "Aprovar coloca exatamente as mudanças listadas abaixo na sua pasta (o comando não roda "
                       "de novo); você pode desfazê-las em Atividade. Recusar as descarta.",
        "answered_by": "Respondido por: Roteiro fixo (",
        "running": "Rodando, 1 ferramenta.",
    }),
    ("zh_CN.UTF-8", "zh-CN", {
        "mcp_summary": "使用 MCP 服务器“plain”的“greet”",
        "folder": "文件夹：workspace",
        "shut_in": ["它在隔离中运行：只能改动你的工作文件夹里的文件",
                    "在这台电脑上它没有被隔离：它可以读取和改动你的任何文件"],
        "tried_apply": "批准会把下面列出的更改原样放进你的文件夹（命令不会再运行一次），之后可以在“活动”中撤销。拒绝则丢弃这些更改。",
        "answered_by": "回答者：固定脚本（",
        "running": "正在运行，有 1 个工具。",
    }),
]


def card_with(app, testid, text):
    """The waiting card whose `testid` part reads `text`."""
    return wait_for(f"the card {text!r}", lambda: [
        c for c in app.cards()
        if any(app.wd.text(e) == text for e in app.wd.find_in(c, f'[data-testid="{testid}"]'))])[0]


def test_mcp_and_command_cards_servers_and_activity_follow_the_desktop_language():
    path = scenario_file([
        {"say": "...", "tool_calls": [
            {"name": "plain__greet", "arguments": {"who": "you"}},
            # Its words say it uses the internet: a card before it runs; it makes hi.txt: after
            # it was tried on a copy of the folder, a second card with what it did.
            {"name": "run_command", "arguments": {"command": "curl -s http://127.0.0.1:9/ > hi.txt"}}]},
        {"say": "ok"},
    ])
    try:
        for locale, tag, said in MORE:
            app = App(f"lang-more-{tag}", path, {"LANG": locale, "LC_ALL": "", "LC_MESSAGES": ""})
            os.makedirs(app.data)
            with open(os.path.join(app.data, "settings.json"), "w", encoding="utf-8") as f:
                json.dump({"mcp_servers": [{"name": "plain", "command": "node",
                                            "args": [os.path.join(HERE, "plain_mcp.mjs")]}]}, f)
            with app:
                before = len(notifications())
                app.start_task("x")
                mcp = card_with(app, "approval-summary", said["mcp_summary"])
                seen = wait_for("the MCP card's notification", lambda: [
                    n for n in notifications()[before:]
                    if n.get("body") == said["mcp_summary"] + "\n" + said["folder"]])
                assert seen, (tag, notifications()[before:])
                app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-mcp-card.png"))
                app.press(mcp, "approve")
                command = wait_for("the command's card", lambda: [
                    c for c in app.cards() if app.wd.find_in(c, '[data-testid="approval-command"]')])[0]
                effects = [app.wd.text(e) for e in app.wd.find_in(command, '[data-testid="approval-effects"] li')]
                assert any(e.startswith(tuple(said["shut_in"])) for e in effects), (tag, effects)
                app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-command-card.png"))
                # The longer sentences hold at the minimum window size (no button overflows).
                check_min_size(app, f"{tag}-command-card")
                app.press(command, "approve")
                tried = wait_for("the card of what the command did", lambda: [
                    c for c in app.cards() if app.wd.find_in(c, '[data-testid="approval-tried"]')])[0]
                effects = [app.wd.text(e) for e in app.wd.find_in(tried, '[data-testid="approval-effects"] li')]
                assert said["tried_apply"] in effects, (tag, effects)
                changes = app.wd.execute(
                    "return [...document.querySelectorAll('[data-testid=\"approval-change\"]')]"
                    ".map(c => [c.getAttribute('data-change'), c.getAttribute('data-path')]);")
                assert changes == [["created", "hi.txt"]], (tag, changes)
                app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-command-tried-card.png"))
                check_min_size(app, f"{tag}-command-tried-card")
                app.press(tried, "approve")
                assert app.wait_finished() == "completed"
                provider = app.wd.text(app.wd.find_all(".provider")[0])
                assert provider.startswith(said["answered_by"]), (tag, provider)
                # Settings: the running server's state.
                app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
                status = wait_for("the server's state", lambda: app.wd.find_all(
                    '[data-testid="mcp-server"][data-name="plain"] [data-testid="mcp-status"]'))[0]
                assert app.wd.text(status) == said["running"], (tag, app.wd.text(status))
                app.wd.execute("arguments[0].scrollIntoView()", {ELEMENT: status})
                app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-mcp-status.png"))
                check_min_size(app, f"{tag}-mcp-status")
                # Activity: when each change was made, written the language's way.
                app.wd.click(app.wd.find_all('[data-testid="activity-open"]')[0])
                times = wait_for("Activity's times", lambda: app.wd.find_all('[data-testid="activity"] time'))
                shown, wanted = app.wd.execute(
                    "const t = arguments[0]; return [t.textContent, new Intl.DateTimeFormat(arguments[1],"
                    " {dateStyle: 'medium', timeStyle: 'medium'}).format(new Date(t.dateTime))];",
                    {ELEMENT: times[0]}, tag)
                assert shown == wanted, (tag, shown, wanted)
                app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-activity.png"))
    finally:
        os.unlink(path)


# Why a call failed, in each language (these were English whatever the language): a named pipe
# the agent tried to read, a tool that does not exist, and a tool of an MCP server that could
# not be started.
FAILURES = [
    ("pt_BR.UTF-8", "pt-BR", [
        "pipe não é um arquivo comum (é um pipe nomeado), então o Ask First não o abre.",
        'O assistente pediu uma ferramenta chamada "make_coffee", que o Ask First não tem, então '
        "nada foi feito.",
        '"broken__x" não pode ser usado agora. Não foi possível iniciar o servidor MCP "broken": '
        'o programa "/nonexistent/askfirst-mcp" não foi encontrado.',
    ]),
    ("zh_CN.UTF-8", "zh-CN", [
        "pipe 不是普通文件（它是命名管道），所以 Ask First 不会打开它。",
        "助手请求了一个名为“make_coffee”的工具，但 Ask First 没有这个工具，所以什么都没有做。",
        "“broken__x”现在无法使用。MCP 服务器“broken”无法启动：找不到程序“/nonexistent/askfirst-mcp”。",
    ]),
]


def test_why_a_call_failed_follows_the_desktop_language():
    path = scenario_file([
        {"say": "...", "tool_calls": [
            {"name": "read_file", "arguments": {"path": "pipe"}},
            {"name": "make_coffee", "arguments": {}},
            {"name": "broken__x", "arguments": {}}]},
        {"say": "ok"},
    ])
    try:
        for locale, tag, said in FAILURES:
            app = App(f"lang-failed-{tag}", path, {"LANG": locale, "LC_ALL": "", "LC_MESSAGES": ""})
            os.makedirs(app.data)
            os.mkfifo(os.path.join(app.workspace, "pipe"))
            with open(os.path.join(app.data, "settings.json"), "w", encoding="utf-8") as f:
                json.dump({"mcp_servers": [{"name": "broken", "command": "/nonexistent/askfirst-mcp"}]}, f)
            with app:
                app.start_task("x")
                assert app.wait_finished() == "completed"
                lines = [app.wd.text(line) for _, line in app.tool_calls()]
                assert len(lines) == 3, (tag, lines)
                for line, sentence in zip(lines, said):
                    assert sentence in line, (tag, sentence, line)
                app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-failed.png"))
    finally:
        os.unlink(path)


TESTS = [test_cards_notifications_and_refusals_follow_the_desktop_language,
         test_mcp_and_command_cards_servers_and_activity_follow_the_desktop_language,
         test_why_a_call_failed_follows_the_desktop_language]
