import { describe, expect, it } from 'vitest';
import { layout, linesToText, parseLossless, visibleRows, visibleText } from './json';

function pretty(text: string): string {
  const parsed = parseLossless(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return linesToText(layout(parsed.node));
}

describe('lossless JSON display', () => {
  it('keeps big integers, decimals and key order exactly', () => {
    expect(pretty('{"b":12345678901234567890,"a":1.10,"c":-0.5e+10}')).toBe(
      '{\n  "b": 12345678901234567890,\n  "a": 1.10,\n  "c": -0.5e+10\n}',
    );
  });

  it('keeps duplicate keys, which JSON.parse would hide', () => {
    expect(pretty('{"path":"a.txt","path":"b.txt"}')).toBe(
      '{\n  "path": "a.txt",\n  "path": "b.txt"\n}',
    );
  });

  it('pretty-prints nested arrays and empty containers', () => {
    expect(pretty('[1,[true,null],{},[]]')).toBe(
      '[\n  1,\n  [\n    true,\n    null\n  ],\n  {},\n  []\n]',
    );
  });

  it('shows control, bidi and zero-width characters as visible escapes', () => {
    const tokens = visibleText('a\u202Eb\u200Bc\nd\u2028e\u0007', true);
    expect(tokens.filter((t) => t.kind === 'escape').map((t) => t.text)).toEqual([
      '\\u202E',
      '\\u200B',
      '\\u2028',
      '\\u0007',
    ]);
    expect(tokens.filter((t) => t.kind === 'newline').map((t) => t.text)).toEqual(['\\n']);
    expect(tokens.map((t) => t.text).join('')).toBe('a\\u202Eb\\u200Bc\\nd\\u2028e\\u0007');
  });

  it('decodes escapes in the source before showing them, so hidden characters cannot hide', () => {
    expect(pretty('{"p":"evil\\u202Etxt.exe"}')).toBe('{\n  "p": "evil\\u202Etxt.exe"\n}');
  });

  it('keeps emoji (surrogate pairs) as they are and escapes quotes', () => {
    expect(visibleText('say "hi" 👋', true).map((t) => t.text).join('')).toBe('say \\"hi\\" 👋');
  });

  it('reports invalid JSON instead of guessing', () => {
    const parsed = parseLossless('{"path": "a.txt", "content": ');
    expect(parsed.ok).toBe(false);
    expect(parseLossless('{"a":1} x').ok).toBe(false);
  });

  it('refuses to build a tree deeper than the limit rather than overflow', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    expect(parseLossless(deep).ok).toBe(false);
  });
});

describe('folding', () => {
  it('folds a long string, saying how much is hidden, and shows it all on request', () => {
    const long = 'a'.repeat(5_000_000);
    const parsed = parseLossless(JSON.stringify({ content: long }));
    if (!parsed.ok) throw new Error(parsed.error);
    const folded = linesToText(layout(parsed.node, { maxString: 2000 }));
    expect(folded).toContain('… 4,999,200 more characters hidden …');
    expect(folded.length).toBeLessThan(2000);
    const whole = linesToText(layout(parsed.node));
    expect(whole).toContain(long);
  });

  it('never splits an emoji at the fold', () => {
    const text = '😀'.repeat(2000);
    const parsed = parseLossless(JSON.stringify([text]));
    if (!parsed.ok) throw new Error(parsed.error);
    const out = linesToText(layout(parsed.node, { maxString: 100 }));
    expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('folds an object or array on request and says how many lines it hides', () => {
    const parsed = parseLossless('{"a":{"b":1,"c":[1,2]},"d":[]}');
    if (!parsed.ok) throw new Error(parsed.error);
    const lines = layout(parsed.node);
    // {, "a": {, "b": 1, "c": [, 1, 2, ], }, "d": [], }
    expect(lines.map((l) => l.end)).toEqual([9, 7, undefined, 6, undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(visibleRows(lines, new Set()).length).toBe(lines.length);
    const rows = visibleRows(lines, new Set([1]));
    expect(rows.map((r) => r.index)).toEqual([0, 1, 8, 9]);
    const folded = rows[1]!;
    expect(folded.kind).toBe('folded');
    if (folded.kind === 'folded') {
      expect(folded.hidden).toBe(5);
      expect(folded.close.tokens.map((t) => t.text).join('')).toBe('},');
    }
    // Folding the outermost hides everything but says so.
    const all = visibleRows(lines, new Set([0, 1]));
    expect(all).toHaveLength(1);
    expect(all[0]!.kind === 'folded' && all[0]!.hidden).toBe(8);
  });
});
