// Lossless display of JSON text from a model or a tool.
//
// The arguments the user approves arrive as raw text. JSON.parse would round big integers
// (12345678901234567890 → 12345678901234567000) and drop duplicate keys, so this module
// tokenises the text itself: numbers keep their exact digits, strings are decoded and then shown
// with every invisible or confusing character as a visible escape. The output is a list of
// lines of tokens that components render as text nodes (never HTML).

import { t } from './i18n/i18n.svelte';

export type TokenKind =
  | 'punct'
  | 'key'
  | 'string'
  | 'number'
  | 'literal'
  | 'escape'
  | 'newline'
  | 'fold';

/** One piece of a displayed line. `escape` marks a character shown as an escape sequence. */
export interface Token {
  kind: TokenKind;
  text: string;
}

export interface Line {
  depth: number;
  tokens: Token[];
  /** For the line that opens a non-empty object or array: the index of its closing line. */
  end?: number;
}

/** One row of the view: a line, or the marker standing for a folded object or array. */
export type Row =
  | { kind: 'line'; index: number; line: Line }
  | { kind: 'folded'; index: number; line: Line; hidden: number; close: Line };

/**
 * The rows to show when the objects and arrays opened at the line indices in `folded` are
 * folded: each folded one becomes its opening line, a count of the lines hidden, and its
 * closing line's text, so nothing disappears without saying so.
 */
export function visibleRows(lines: Line[], folded: ReadonlySet<number>): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const end = line.end;
    if (end !== undefined && folded.has(i)) {
      rows.push({ kind: 'folded', index: i, line, hidden: end - i - 1, close: lines[end]! });
      i = end;
    } else {
      rows.push({ kind: 'line', index: i, line });
    }
  }
  return rows;
}

export type JsonNode =
  | { kind: 'object'; entries: { key: string; value: JsonNode }[] }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; raw: string }
  | { kind: 'literal'; raw: 'true' | 'false' | 'null' };

/** A failure says what is wrong in English (`error`, for developers and tests) and where
 * (`at`, the 1-based character), which is what the card tells a person in their language. */
export type ParseResult = { ok: true; node: JsonNode } | { ok: false; error: string; at: number };

/** A parse failure at a character (1-based). */
class JsonSyntaxError extends SyntaxError {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(`${message} at character ${at}`);
  }
}

/** Deeper nesting than this is shown as raw text rather than a tree. */
export const MAX_DEPTH = 256;

class Parser {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    throw new JsonSyntaxError(message, this.pos + 1);
  }

  ws(): void {
    while (this.pos < this.text.length) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.pos++;
      else break;
    }
  }

  value(depth: number): JsonNode {
    if (depth > MAX_DEPTH) this.fail('Nested too deeply to show as a tree');
    this.ws();
    const c = this.text[this.pos];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return { kind: 'string', value: this.string() };
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const raw of ['true', 'false', 'null'] as const) {
      if (this.text.startsWith(raw, this.pos)) {
        this.pos += raw.length;
        return { kind: 'literal', raw };
      }
    }
    return this.fail(c === undefined ? 'Unexpected end' : `Unexpected ${JSON.stringify(c)}`);
  }

  object(depth: number): JsonNode {
    this.pos++;
    const entries: { key: string; value: JsonNode }[] = [];
    this.ws();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return { kind: 'object', entries };
    }
    for (;;) {
      this.ws();
      if (this.text[this.pos] !== '"') this.fail('Expected a key');
      const key = this.string();
      this.ws();
      if (this.text[this.pos] !== ':') this.fail('Expected ":"');
      this.pos++;
      entries.push({ key, value: this.value(depth + 1) });
      this.ws();
      const c = this.text[this.pos++];
      if (c === '}') return { kind: 'object', entries };
      if (c !== ',') this.fail('Expected "," or "}"');
    }
  }

  array(depth: number): JsonNode {
    this.pos++;
    const items: JsonNode[] = [];
    this.ws();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return { kind: 'array', items };
    }
    for (;;) {
      items.push(this.value(depth + 1));
      this.ws();
      const c = this.text[this.pos++];
      if (c === ']') return { kind: 'array', items };
      if (c !== ',') this.fail('Expected "," or "]"');
    }
  }

  number(): JsonNode {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 4096));
    if (!match) this.fail('Invalid number');
    this.pos += match[0].length;
    return { kind: 'number', raw: match[0] };
  }

  string(): string {
    // Opening quote.
    this.pos++;
    let out = '';
    let start = this.pos;
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (Number.isNaN(c)) this.fail('Unterminated string');
      if (c === 0x22) {
        out += this.text.slice(start, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail('Unescaped control character in string');
      if (c === 0x5c) {
        out += this.text.slice(start, this.pos);
        const e = this.text[this.pos + 1];
        const simple: Record<string, string> = {
          '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
        };
        if (e !== undefined && e in simple) {
          out += simple[e];
          this.pos += 2;
        } else if (e === 'u') {
          const hex = this.text.slice(this.pos + 2, this.pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Invalid \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 6;
        } else {
          this.fail('Invalid escape');
        }
        start = this.pos;
        continue;
      }
      this.pos++;
    }
  }
}

/** Parses JSON text without losing number digits, key order or duplicate keys. */
export function parseLossless(text: string): ParseResult {
  const parser = new Parser(text);
  try {
    const node = parser.value(0);
    parser.ws();
    if (parser.pos !== text.length) parser.fail('Unexpected text after the value');
    return { ok: true, node };
  } catch (error) {
    return {
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      at: error instanceof JsonSyntaxError ? error.at : parser.pos + 1,
    };
  }
}

/** Whether a character must be shown as an escape: controls, bidi, zero-width, separators. */
export function isInvisible(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0xad ||
    code === 0x061c ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2064) ||
    (code >= 0x2066 && code <= 0x206f) ||
    code === 0xfeff ||
    (code >= 0xfff9 && code <= 0xfffb) ||
    (code >= 0xd800 && code <= 0xdfff) // lone surrogate halves (pairs are handled by the caller)
  );
}

const NAMED: Record<number, string> = { 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x08: '\\b', 0x0c: '\\f' };

function hex4(code: number): string {
  return '\\u' + code.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Splits text into plain runs and escape tokens, so that every invisible or direction-changing
 * character is seen. `quoteJson` also escapes `"` and `\` as in a JSON string literal.
 */
export function visibleText(
  text: string,
  quoteJson: boolean,
  kind: TokenKind = 'string',
  keepLineBreaks = false,
): Token[] {
  const tokens: Token[] = [];
  let run = '';
  const flush = () => {
    if (run) tokens.push({ kind, text: run });
    run = '';
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A valid surrogate pair is an ordinary character (emoji etc.).
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        run += text[i]! + text[i + 1]!;
        i++;
        continue;
      }
    }
    if (keepLineBreaks && (code === 0x0a || code === 0x09)) {
      run += text[i];
    } else if (isInvisible(code)) {
      flush();
      // Line breaks and tabs are ordinary in text: shown calmly. Everything else stands out.
      const calm = code === 0x0a || code === 0x09;
      tokens.push({ kind: calm ? 'newline' : 'escape', text: NAMED[code] ?? hex4(code) });
    } else if (quoteJson && (code === 0x22 || code === 0x5c)) {
      run += '\\' + text[i];
    } else {
      run += text[i];
    }
  }
  flush();
  return tokens;
}

/** How much of a long string is shown before "show all": head and tail, in UTF-16 units. */
export const FOLD_HEAD = 600;
export const FOLD_TAIL = 200;

/**
 * A string's tokens; with `maxString`, a longer string shows its head and tail around a `fold`
 * token that says how much is hidden (never silently cut).
 */
export function foldedText(text: string, kind: TokenKind, maxString?: number): Token[] {
  if (maxString === undefined || text.length <= maxString) return visibleText(text, true, kind);
  let head = text.slice(0, FOLD_HEAD);
  let tail = text.slice(text.length - FOLD_TAIL);
  // Do not split a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  if (/^[\uDC00-\uDFFF]/.test(tail)) tail = tail.slice(1);
  const hidden = text.length - head.length - tail.length;
  return [
    ...visibleText(head, true, kind),
    { kind: 'fold', text: ` ${t('json-more-chars', { count: hidden })} ` },
    ...visibleText(tail, true, kind),
  ];
}

function quoted(text: string, kind: TokenKind, maxString?: number): Token[] {
  return [{ kind, text: '"' }, ...foldedText(text, kind, maxString), { kind, text: '"' }];
}

export interface LayoutOptions {
  /** Strings longer than this (UTF-16 units) are folded; absent means show everything. */
  maxString?: number;
}

/** Lays a parsed value out as indented lines of tokens. */
export function layout(node: JsonNode, options: LayoutOptions = {}): Line[] {
  const max = options.maxString;
  const lines: Line[] = [];
  const emit = (n: JsonNode, depth: number, prefix: Token[], suffix: string) => {
    const tail: Token[] = suffix ? [{ kind: 'punct', text: suffix }] : [];
    switch (n.kind) {
      case 'object':
      case 'array': {
        const [open, close] = n.kind === 'object' ? ['{', '}'] : ['[', ']'];
        const count = n.kind === 'object' ? n.entries.length : n.items.length;
        if (count === 0) {
          lines.push({ depth, tokens: [...prefix, { kind: 'punct', text: open + close }, ...tail] });
          return;
        }
        const openedAt = lines.length;
        lines.push({ depth, tokens: [...prefix, { kind: 'punct', text: open }] });
        if (n.kind === 'object') {
          n.entries.forEach((entry, i) => {
            const keyTokens: Token[] = [
              ...quoted(entry.key, 'key', max),
              { kind: 'punct', text: ': ' },
            ];
            emit(entry.value, depth + 1, keyTokens, i < count - 1 ? ',' : '');
          });
        } else {
          n.items.forEach((item, i) => emit(item, depth + 1, [], i < count - 1 ? ',' : ''));
        }
        lines.push({ depth, tokens: [{ kind: 'punct', text: close }, ...tail] });
        lines[openedAt]!.end = lines.length - 1;
        return;
      }
      case 'string':
        lines.push({ depth, tokens: [...prefix, ...quoted(n.value, 'string', max), ...tail] });
        return;
      case 'number':
        lines.push({ depth, tokens: [...prefix, { kind: 'number', text: n.raw }, ...tail] });
        return;
      case 'literal':
        lines.push({ depth, tokens: [...prefix, { kind: 'literal', text: n.raw }, ...tail] });
        return;
    }
  };
  emit(node, 0, [], '');
  return lines;
}

/** The displayed text of lines (two spaces per depth), as a user would copy it. */
export function linesToText(lines: Line[]): string {
  return lines.map((l) => '  '.repeat(l.depth) + l.tokens.map((t) => t.text).join('')).join('\n');
}
