// The catalogues stay complete and the window stays translated: every key in every language,
// no key the code does not use, every parameter a sentence needs given in every language, and
// no person-facing English left in a Svelte template outside the catalogue.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FluentResource, FluentBundle } from '@fluent/bundle';
import {
  CATALOGUES,
  LANGUAGES,
  locale,
  setLanguage,
  t,
  formatDateTime,
  formatList,
  formatNumber,
} from './i18n.svelte';

const SRC = join(__dirname, '..', '..');

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'bindings') files(path, out);
    } else if (/\.(svelte|ts)$/.test(name) && !/\.test\.ts$/.test(name)) out.push(path);
  }
  return out;
}

/** The message ids of one catalogue and the variables each uses. */
function messages(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  let current: string | null = null;
  for (const line of text.split('\n')) {
    const id = /^([a-z][a-z0-9-]*)\s*=/.exec(line);
    if (id) {
      current = id[1]!;
      out.set(current, new Set());
    } else if (!/^\s/.test(line)) current = null;
    if (current) for (const m of line.matchAll(/\{\s*\$([a-zA-Z_]+)/g)) out.get(current)!.add(m[1]!);
  }
  return out;
}

/** The keys the source asks for: `t('key'` (and `t("key"`), across every line break. */
function usedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const path of files(SRC)) {
    for (const m of readFileSync(path, 'utf8').matchAll(/\bt\(\s*['"]([a-z][a-z0-9-]*)['"]/g)) {
      keys.add(m[1]!);
    }
  }
  return keys;
}

describe('the window catalogues', () => {
  const english = messages(CATALOGUES.en);

  it('parse without errors in every language', () => {
    for (const tag of LANGUAGES) {
      const bundle = new FluentBundle(tag);
      expect(bundle.addResource(new FluentResource(CATALOGUES[tag])), tag).toEqual([]);
    }
  });

  it('have every key in every language, with the same parameters', () => {
    for (const tag of LANGUAGES) {
      const other = messages(CATALOGUES[tag]);
      expect([...other.keys()].sort(), `keys of ${tag}`).toEqual([...english.keys()].sort());
      for (const [key, vars] of english) {
        expect([...(other.get(key) ?? [])].sort(), `parameters of ${key} in ${tag}`).toEqual(
          [...vars].sort(),
        );
      }
    }
  });

  it('hold no key the code does not use, and the code none they lack', () => {
    const used = usedKeys();
    expect([...english.keys()].filter((k) => !used.has(k)), 'unused keys').toEqual([]);
    expect([...used].filter((k) => !english.has(k)), 'keys missing from en').toEqual([]);
  });

  it('switch the window at once and format numbers in the language', () => {
    setLanguage('pt-BR');
    expect(locale.language).toBe('pt-BR');
    expect(t('card-approve')).toBe('Aprovar uma vez');
    expect(formatNumber(2000)).toBe('2.000');
    setLanguage('zh-CN');
    expect(t('card-approve')).toBe('批准这一次');
    setLanguage('en');
    expect(t('card-approve')).toBe('Approve once');
    expect(formatNumber(2000)).toBe('2,000');
  });

  it('write dates and lists the way each language does', () => {
    const day = Date.UTC(2026, 0, 2, 15, 4);
    const short = { dateStyle: 'short', timeZone: 'UTC' } as const;
    const said: Record<string, [string, string]> = {};
    for (const tag of LANGUAGES) {
      setLanguage(tag);
      said[tag] = [formatDateTime(day, short), formatList(['a', 'b', 'c'])];
    }
    setLanguage('en');
    expect(said).toEqual({
      en: ['1/2/26', 'a, b, and c'],
      'zh-CN': ['2026/1/2', 'a、b和c'],
      'pt-BR': ['02/01/2026', 'a, b e c'],
    });
  });

  it('choose plurals by the language rules', () => {
    const note = (count: number) => t('diff-cut-note', { count, added: count, removed: 0 });
    setLanguage('en');
    expect(note(1)).toBe('… 1 line not shown here (1 added, 0 removed) …');
    expect(note(2000)).toBe('… 2,000 lines not shown here (2,000 added, 0 removed) …');
    setLanguage('pt-BR');
    expect(note(1)).toBe('… 1 linha não mostrada aqui (acrescentadas: 1; removidas: 0) …');
    expect(note(2000)).toBe('… 2.000 linhas não mostradas aqui (acrescentadas: 2.000; removidas: 0) …');
    setLanguage('zh-CN');
    expect(note(1)).toBe('… 这里没有显示 1 行（添加 1 行，删除 0 行）…');
    setLanguage('en');
  });
});

// Words that are the same in every language (names, symbols) may stand in a template.
const ALLOWED = new Set(['Ask First', 'MCP', 'JSON', 'API', 'URL', 'Ollama', 'OpenAI', 'Anthropic', '·', '…', '×', '✕', '—', '–', '→', '↑', '↓', '+', '-', '/', ':', '(', ')', ',', '.']);

/** Strips `{…}` expressions (nested braces and strings inside them) from template text. */
function stripExpressions(text: string): string {
  let out = '';
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (depth > 0) {
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = null;
      } else if (c === "'" || c === '"' || c === '`') quote = c;
      else if (c === '{') depth++;
      else if (c === '}') depth--;
      continue;
    }
    if (c === '{') {
      depth = 1;
      out += ' ';
    } else out += c;
  }
  return out;
}

/** Person-facing literals left in a Svelte file's template. */
function literals(source: string): string[] {
  let template = source
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  template = stripExpressions(template);
  const found: string[] = [];
  for (const m of template.matchAll(/\b(aria-label|title|placeholder|alt|aria-description)="([^"]*)"/g)) {
    if (/[A-Za-z]/.test(m[2]!)) found.push(`${m[1]}="${m[2]}"`);
  }
  const text = template.replace(/<[^>]*>/g, '\n');
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line && /[A-Za-z]/.test(line) && !ALLOWED.has(line)) found.push(line);
  }
  return found;
}

describe('the Svelte templates', () => {
  it('hold no person-facing text outside the catalogue', () => {
    const offenders: Record<string, string[]> = {};
    for (const path of files(SRC).filter((p) => p.endsWith('.svelte'))) {
      const found = literals(readFileSync(path, 'utf8'));
      if (found.length) offenders[relative(SRC, path)] = found;
    }
    expect(offenders).toEqual({});
  });

  it('are checked by a test that finds a literal', () => {
    expect(literals('<button title="Close it">Save</button>{t("x")}')).toEqual([
      'title="Close it"',
      'Save',
    ]);
    expect(literals('<p>{t("a", { n: "{x}" })} MCP</p><p>Hello</p>')).toEqual(['Hello']);
  });
});
