"""The core's and the shell's words in the desktop's language: started with LANG=pt_BR.UTF-8 or
LANG=zh_CN.UTF-8, a card's summary, the notification and why a refused action was not done are
in that language (the window's own labels are the window's catalogue), with a screenshot of each
card to look at (CJK text must render, not as boxes: fonts-wqy-microhei in the Makefile)."""
import os

from harness.app import App, scenario_file
from harness.desktop import notifications
from harness.env import ARTIFACTS
from harness.wait import wait_for

LANGUAGES = [
    ("pt_BR.UTF-8", "pt-BR", {
        "summary": "Criar o arquivo notas.txt (1 linha)",
        "title": "O Ask First precisa da sua aprovação",
        "refused": "Você disse não. A ação não foi feita.",
    }),
    ("zh_CN.UTF-8", "zh-CN", {
        "summary": "新建文件 notas.txt（1 行）",
        "title": "Ask First 需要你的同意",
        "refused": "你拒绝了。这个操作没有执行。",
    }),
]


def test_cards_notifications_and_refusals_follow_the_desktop_language():
    path = scenario_file([
        {"say": "...", "tool_calls": [
            {"name": "write_file", "arguments": {"path": "notas.txt", "content": "um\n"}}]},
        {"say": "ok"},
    ])
    try:
        for locale, tag, said in LANGUAGES:
            # LC_ALL and LC_MESSAGES would win over LANG: left empty, as on a desktop set by LANG.
            env = {"LANG": locale, "LC_ALL": "", "LC_MESSAGES": ""}
            with App(f"lang-{tag}", path, env) as app:
                before = len(notifications())
                app.start_task("x")
                card = app.card()
                summary = app.card_field(card, "approval-summary")
                assert summary == said["summary"], (tag, summary)
                seen = wait_for("the notification", lambda: [
                    n for n in notifications()[before:] if n.get("method") == "Notify"
                    or "summary" in n])
                assert seen[-1]["summary"] == said["title"], (tag, seen)
                assert seen[-1]["body"] == said["summary"], (tag, seen)
                app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-card.png"))
                app.press(card, "deny")
                assert app.wait_finished() == "completed"
                line = app.wd.text(app.tool_calls()[0][1])
                assert said["refused"] in line, (tag, line)
                wait_for("the card to go", lambda: not app.cards())
                app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{tag}-refused.png"))
    finally:
        os.unlink(path)


TESTS = [test_cards_notifications_and_refusals_follow_the_desktop_language]
