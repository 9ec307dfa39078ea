"""The window in the person's language: started with LANG=zh_CN.UTF-8 or LANG=pt_BR.UTF-8 it
shows its buttons, headings and the Settings choice in that language; the choice in Settings
switches the window at once and is saved; at the minimum window size no button overflows."""
import json
import os

from harness.app import App
from harness.env import ARTIFACTS, ROOT
from harness.wait import wait_for
from harness.webdriver import ELEMENT

# The window's minimum size (tauri.conf.json), where long labels must still fit.
with open(os.path.join(ROOT, "tauri.conf.json"), encoding="utf-8") as _f:
    _WINDOW = json.load(_f)["app"]["windows"][0]
MIN_SIZE = (_WINDOW["minWidth"], _WINDOW["minHeight"])

# The first waiting card brought into view by its summary: which of its Approve and Deny buttons
# are then outside the scroll area's visible part (empty when both show).
BUTTONS_HIDDEN = """
const card = document.querySelector('[data-testid="approval-card"]');
if (!card) return [];
card.querySelector('[data-testid="approval-summary"]').scrollIntoView({block: 'start'});
const view = document.querySelector('main').getBoundingClientRect();
return ['approve', 'deny'].filter((id) => {
  const b = card.querySelector(`[data-testid="${id}"]`);
  if (!b) return false;
  const r = b.getBoundingClientRect();
  return !(r.top >= view.top && r.bottom <= view.bottom);
});
"""

# Buttons and controls whose box overflows the window or whose text overflows its box, by test
# id or text (empty when the layout holds).
OVERFLOWS = """
const width = document.documentElement.clientWidth;
const out = [];
for (const el of document.querySelectorAll('button, select, label, h1, h2, h3')) {
  const r = el.getBoundingClientRect();
  if (r.width === 0) continue;
  const name = el.dataset.testid || el.textContent.trim().slice(0, 40);
  if (r.left < -1 || r.right > width + 1) out.push(`${name}: outside the window (${Math.round(r.left)}..${Math.round(r.right)} of ${width})`);
  else if (el.tagName === 'BUTTON' && el.scrollWidth > el.clientWidth + 1) out.push(`${name}: text wider than the button`);
}
// The short buttons (the top bar's, a card's answers) keep their label on one line.
for (const el of document.querySelectorAll('.top button, .buttons button')) {
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  if (tops.size > 1) out.push(`${el.dataset.testid}: label broken over ${tops.size} lines`);
}
return out;
"""


def text_of(app, testid):
    return app.wd.text(wait_for(testid, lambda: app.wd.find_all(f'[data-testid="{testid}"]'))[0])


def heading(app, css):
    return app.wd.text(wait_for(css, lambda: app.wd.find_all(css))[0])


def wait_language(app, tag):
    wait_for(f"the window in {tag}",
             lambda: app.wd.execute("return document.documentElement.lang") == tag)


def open_settings(app):
    app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
    return wait_for("the language choice", lambda: app.wd.find_all('[data-testid="settings-language"]'))[0]


def chosen_label(app, select):
    return app.wd.execute("return arguments[0].selectedOptions[0].textContent", {ELEMENT: select})


def choose(app, select, value):
    app.wd.execute("const s = arguments[0]; s.value = arguments[1];"
                   " s.dispatchEvent(new Event('change', { bubbles: true }));", {ELEMENT: select}, value)


def check_min_size(app, label):
    """Shrinks the window to its minimum size, screenshots it and checks nothing overflows."""
    try:
        app.wd.s("POST", "/window/rect", {"width": MIN_SIZE[0], "height": MIN_SIZE[1]})
    except RuntimeError as e:
        print(f"  (could not resize the window: {e})", flush=True)
    wait_for("the window at its minimum width", lambda: app.wd.execute(
        "return document.documentElement.clientWidth") <= MIN_SIZE[0])
    app.wd.screenshot(os.path.join(ARTIFACTS, f"language-{label}-min.png"))
    overflows = app.wd.execute(OVERFLOWS)
    assert overflows == [], f"{label} at {MIN_SIZE}: {overflows}"
    # A waiting card's Approve and Deny are in view with its summary (issue 41.6: they were
    # below the fold while the countdown ran).
    hidden = app.wd.execute(BUTTONS_HIDDEN)
    assert hidden == [], f"{label} at {MIN_SIZE}: not in view with the card's summary: {hidden}"


def test_the_window_speaks_simplified_chinese_from_the_desktop():
    with App("lang-zh", "write-hello.json", {"LANG": "zh_CN.UTF-8"}) as app:
        # Named to the page before it loaded, so its first frame was in Chinese already (not in
        # English until the settings were read).
        assert app.wd.execute("return window.__ASKFIRST_LANGUAGE__") == "zh-CN"
        wait_language(app, "zh-CN")
        assert text_of(app, "start-run") == "开始"
        assert text_of(app, "settings") == "设置"
        app.start_task("写一个问候")
        card = app.card()
        assert app.card_field(card, "approve") == "批准这一次"
        assert app.card_field(card, "deny") == "拒绝"
        assert app.card_field(card, "approve-session") == "在本次对话中允许"
        assert heading(app, ".approvals h2").startswith("等待你的同意")
        assert text_of(app, "run-status") == "等待你的同意"
        app.wd.screenshot(os.path.join(ARTIFACTS, "language-zh-CN-card.png"))
        check_min_size(app, "zh-CN-card")
        app.press(card, "deny")
        assert app.wait_finished() == "completed"
        assert not os.path.exists(os.path.join(app.workspace, "hello.txt"))
        select = open_settings(app)
        assert heading(app, "#settings-panel h2") == "设置"
        assert chosen_label(app, select) == "与桌面相同（简体中文）"
        app.wd.screenshot(os.path.join(ARTIFACTS, "language-zh-CN-settings.png"))


def test_the_window_speaks_portuguese_and_switches_at_once_in_settings():
    app = App("lang-pt", "write-hello.json", {"LANG": "pt_BR.UTF-8"})
    os.makedirs(app.data)
    with open(os.path.join(app.data, "rules.toml"), "w", encoding="utf-8") as f:
        f.write('[[deny]]\ntool = "*"\nmatch = "Private/**"\n')
    with app:
        wait_language(app, "pt-BR")
        assert text_of(app, "start-run") == "Começar"
        app.start_task("Escreva uma saudação")
        card = app.card()
        assert app.card_field(card, "approve") == "Aprovar uma vez"
        assert app.card_field(card, "deny") == "Recusar"
        assert app.card_field(card, "approve-session") == "Permitir nesta conversa"
        assert heading(app, ".approvals h2").startswith("Esperando a sua permissão")
        summary = app.card_field(card, "approval-summary")
        assert summary == "Criar o arquivo hello.txt (2 linhas)", summary
        app.wd.screenshot(os.path.join(ARTIFACTS, "language-pt-BR-card.png"))
        check_min_size(app, "pt-BR-card")
        select = open_settings(app)
        assert heading(app, "#settings-panel h2") == "Configurações"
        assert chosen_label(app, select) == "O mesmo da área de trabalho (Português (Brasil))"
        rule = lambda: app.wd.text(wait_for("the rule", lambda: app.wd.find_all('[data-testid="rule-sentence"]'))[0])
        assert rule() == "Nunca mexer em nada em Private", rule()
        app.wd.screenshot(os.path.join(ARTIFACTS, "language-pt-BR-settings.png"))
        check_min_size(app, "pt-BR-settings")
        # English, at once: the card waiting now says it in English, no restart.
        choose(app, select, "en")
        wait_language(app, "en")
        wait_for("the card in English", lambda: app.card_field(app.card(), "approve") == "Approve once")
        # Its summary and reason too: the backend says the waiting card again in English.
        wait_for("the card's summary in English",
                 lambda: app.card_field(app.card(), "approval-summary") == "Create the file hello.txt (2 lines)")
        reason = app.card_field(app.card(), "approval-reason")
        assert reason == "This changes files in your workspace folder, so it needs your OK.", reason
        app.wd.screenshot(os.path.join(ARTIFACTS, "language-pt-BR-card-then-en.png"))
        assert heading(app, "#settings-panel h2") == "Settings"
        # The rules, worded by the backend, are read again in the new language.
        wait_for("the rule in English", lambda: rule() == "Never touch anything in Private")
        with open(os.path.join(app.data, "settings.json"), encoding="utf-8") as f:
            assert json.load(f).get("language") == "en"
        # Back to the desktop's language.
        choose(app, select, "desktop")
        wait_language(app, "pt-BR")
        with open(os.path.join(app.data, "settings.json"), encoding="utf-8") as f:
            assert "language" not in json.load(f)
        app.press(app.card(), "deny")
        assert app.wait_finished() == "completed"


def test_the_welcome_speaks_portuguese_at_the_minimum_size():
    with App("lang-welcome", None, {"LANG": "pt_BR.UTF-8"}, fixed_workspace=False) as app:
        wait_language(app, "pt-BR")
        wait_for("the welcome", lambda: app.wd.find_all('[data-testid="welcome"]'))
        assert heading(app, "#welcome-title") == "Em qual pasta o assistente pode trabalhar?"
        assert text_of(app, "welcome-folder") == "Trabalhando na pasta de demonstração (arquivos de exemplo)"
        assert text_of(app, "welcome-skip") == "Pular por agora"
        # Issue 41.9: the demo folder on disk has a Portuguese name too.
        assert os.path.isdir(os.path.join(app.data, "Pasta de demonstração"))
        assert not os.path.exists(os.path.join(app.data, "Demo folder"))
        check_min_size(app, "pt-BR-welcome")
        app.wd.click(wait_for("next", lambda: app.wd.find_all('[data-testid="welcome-next"]'))[0])
        assert heading(app, "#welcome-title") == "Quem responde?"
        app.wd.screenshot(os.path.join(ARTIFACTS, "language-pt-BR-welcome-provider.png"))



def test_a_waiting_card_keeps_its_buttons_in_view_at_the_minimum_size_in_english():
    """Issue 41.6, in English as in Portuguese and Chinese: at 560 × 480 a waiting card's
    Approve and Deny are in view with its summary, also with Settings open beside it."""
    with App("min-en", "write-hello.json") as app:
        app.start_task("Write a greeting")
        card = app.card()
        check_min_size(app, "en-card")
        app.wd.click(app.wd.find_all('[data-testid="settings"]')[0])
        check_min_size(app, "en-settings")
        app.press(card, "deny")
        assert app.wait_finished() == "completed"

TESTS = [
    test_a_waiting_card_keeps_its_buttons_in_view_at_the_minimum_size_in_english,
    test_the_window_speaks_simplified_chinese_from_the_desktop,
    test_the_window_speaks_portuguese_and_switches_at_once_in_settings,
    test_the_welcome_speaks_portuguese_at_the_minimum_size,
]
