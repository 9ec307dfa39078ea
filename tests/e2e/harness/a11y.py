"""The accessibility audit: axe-core (Deque's engine, pinned in tests/e2e/package-lock.json)
run in the page at WCAG 2.2 level AA, and the project's own probe of the focus ring (axe does
not check that a focused control shows a ring that stands out).

axe's rules for the tags below cover, among others, text contrast (SC 1.4.3), names of
controls, links and images (SC 4.1.2, 1.1.1), labels of fields (SC 1.3.1, 3.3.2), valid ARIA
(SC 4.1.2), unique ids and landmark structure, and target size (SC 2.5.8)."""
import json
import os

from .env import HERE
from .webdriver import ELEMENT

AXE = os.path.join(HERE, "node_modules", "axe-core", "axe.min.js")
# WCAG 2.0, 2.1 and 2.2 at levels A and AA: axe's tags for them (axe-core's doc/API.md), and
# axe's best practices (every part of the page in a landmark, one main heading, …).
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

_RUN = """
const [tags, context] = arguments;
return axe.run(context || document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
  .then((r) => ({
    violations: r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => ({target: n.target.join(' '), html: n.html.slice(0, 160)}))})),
    passes: r.passes.map((p) => p.id),
    incomplete: r.incomplete.map((i) => ({id: i.id, nodes: i.nodes.map((n) => ({target: n.target.join(' '),
      why: [...n.any, ...n.all, ...n.none].map((c) => c.message).filter(Boolean).join('; ')}))})),
  }));
"""


def _axe_source():
    assert os.path.exists(AXE), f"{AXE} is missing: run npm ci in tests/e2e (make e2e does)"
    with open(AXE, encoding="utf-8") as f:
        return f.read()


def axe(app, context=None):
    """Runs axe-core on the page (or only inside element `context`) with the WCAG 2.2 AA rules;
    returns {"violations": [{id, impact, help, nodes: [{target, html}]}], "passes": [rule ids],
    "incomplete": [{id, nodes: [{target, why}]}]} (with resultTypes
    ['violations'], axe gives one node of the other kinds). axe is injected into the page first if it is not there
    (a reload drops it)."""
    if not app.wd.execute("return typeof window.axe === 'object'"):
        app.wd.execute(_axe_source() + "\n;return typeof window.axe;")
    target = {ELEMENT: context} if context else None
    return app.wd.execute(_RUN, WCAG_22_AA, target)


def audit(app, where):
    """Fails (AssertionError) if axe finds any WCAG 2.2 AA violation on the page, listing each
    rule's id, impact and the CSS selectors of the elements at fault. Returns the ids of the
    rules that passed. Rules axe could not decide (e.g. contrast over an image) are printed."""
    found = axe(app)
    assert found["passes"], f"{where}: axe checked nothing"
    if found["violations"]:
        lines = [f"{where}: {len(found['violations'])} WCAG 2.2 AA violations (axe-core):"]
        for v in found["violations"]:
            lines.append(f"  {v['id']} ({v['impact']}): {v['help']}")
            lines += [f"    {n['target']}    {n['html']}" for n in v["nodes"]]
        raise AssertionError("\n".join(lines))
    if found["incomplete"]:
        print(f"  axe on {where}: not decided: {json.dumps(found['incomplete'])}", flush=True)
    return found["passes"]


FOCUS_PROBE = """
const el = document.activeElement;
if (!el || el === document.body) return null;
const s = getComputedStyle(el);
const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
  .reduce((acc, v, i) => acc + v * [0.2126, 0.7152, 0.0722][i], 0);
let bg = [255, 255, 255];
for (let n = el.parentElement; n; n = n.parentElement) {
  const c = parse(getComputedStyle(n).backgroundColor);
  if (c.length >= 3 && (c.length < 4 || c[3] === 1)) { bg = c; break; }
}
const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
const oc = parse(s.outlineColor);
const [a, b] = [lum(oc), lum(bg)].sort((x, y) => y - x);
return {
  testid: el.getAttribute('data-testid') || '',
  tag: el.tagName.toLowerCase(),
  text: (el.getAttribute('aria-label') || el.textContent || el.value || '').trim().slice(0, 40),
  card: el.closest('[data-approval-id]')?.getAttribute('data-approval-id') || '',
  ring, ringContrast: Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100,
  outline: s.outlineStyle + ' ' + s.outlineWidth + ' ' + s.outlineColor,
};
"""
"""The focused element's test id, tag, text, card, and whether it shows a ring of at least
2 px (`ring`) and its contrast with the background behind it (`ringContrast`, WCAG 2.1's
relative luminance; SC 1.4.11 asks 3:1); null when nothing has the focus."""


def focus_stop(app):
    """FOCUS_PROBE's answer for the element that has the focus now."""
    return app.wd.execute(FOCUS_PROBE)
