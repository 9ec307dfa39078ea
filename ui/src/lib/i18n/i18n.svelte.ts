// The window's words in the person's language. Every sentence the window shows itself lives in
// one Fluent catalogue per language at the repository's top, `locales/<tag>/window.ftl`, that a
// translator edits without reading code (https://projectfluent.org/fluent/guide/). Code asks
// for a sentence by its key, `t('card-approve')`, with named parameters, never by gluing
// fragments; plurals are Fluent selectors (`Intl.PluralRules` of the language). Numbers, dates,
// times and lists go through `Intl` in the language in force (`formatNumber`, `formatDateTime`,
// `formatList`; a number given to a sentence is formatted by Fluent with `Intl.NumberFormat`).
//
// The language in force is `locale.language`, a rune: a template that calls `t` shows the new
// language as soon as it changes (the backend's `SettingsView.effective_language`, read at
// start and after each save), no restart.
//
// What the model or a tool wrote is never passed through here: it is shown as written.
import { FluentBundle, FluentResource, type FluentVariable } from '@fluent/bundle';
import type { Language } from '../bindings/Language';
import en from '../../../../locales/en/window.ftl?raw';
import zhCN from '../../../../locales/zh-CN/window.ftl?raw';
import ptBR from '../../../../locales/pt-BR/window.ftl?raw';

/** The catalogue text of each language, by its BCP 47 tag. */
export const CATALOGUES: Record<Language, string> = { en, 'zh-CN': zhCN, 'pt-BR': ptBR };

/** Every language, English first (what is used for a key a catalogue lacks). */
export const LANGUAGES: Language[] = ['en', 'zh-CN', 'pt-BR'];

function bundle(tag: Language): FluentBundle {
  // No bidi isolation marks around parameters: the three languages are left to right, and
  // text from the model is shown by VisibleText, which makes such marks visible.
  const b = new FluentBundle(tag, { useIsolating: false });
  const errors = b.addResource(new FluentResource(CATALOGUES[tag]));
  for (const e of errors) console.error(`locales/${tag}/window.ftl:`, e);
  return b;
}

const bundles = new Map<Language, FluentBundle>();

/**
 * The bundle of `tag`, its catalogue parsed the first time it is needed: a start parses only
 * the language in force (and English once a key is missing from it), not all three.
 */
function bundleOf(tag: Language): FluentBundle {
  let b = bundles.get(tag);
  if (!b) {
    b = bundle(tag);
    bundles.set(tag, b);
  }
  return b;
}

/**
 * The language the backend named before the page loaded (`window.__ASKFIRST_LANGUAGE__`, set
 * by its script: `language_plugin` in src-tauri/src/window.rs), so the first frame is already
 * in it; English when it named none or one the window does not have.
 */
export function startLanguage(): Language {
  const named = (globalThis as { __ASKFIRST_LANGUAGE__?: unknown }).__ASKFIRST_LANGUAGE__;
  return LANGUAGES.find((tag) => tag === named) ?? 'en';
}

class Locale {
  /** The language the window is shown in. */
  language = $state<Language>(startLanguage());
}

/** The language in force (set it with `setLanguage`). */
export const locale = new Locale();
if (typeof document !== 'undefined') document.documentElement.lang = locale.language;

const changeListeners = new Set<() => void>();

/** Shows the window in `language` from now on (every `t` in a template follows at once). */
export function setLanguage(language: Language): void {
  const before = locale.language;
  if (LANGUAGES.includes(language)) locale.language = language;
  document.documentElement.lang = locale.language;
  if (locale.language !== before) for (const listener of changeListeners) listener();
}

/**
 * Calls `listener` after each change of the language in force (for what the backend words,
 * such as the cards already waiting, to be read again); returns the function that stops it.
 */
export function onLanguageChange(listener: () => void): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** Named parameters of a sentence: text or numbers (numbers select plurals). */
export type Args = Record<string, FluentVariable>;

/**
 * The sentence `key` in the language in force, with `args` filled in. A key the language
 * lacks falls back to English (and is logged; a test keeps every catalogue complete); an
 * unknown key returns the key itself, so a mistake shows rather than hides.
 */
export function t(key: string, args?: Args): string {
  for (const tag of [locale.language, 'en'] as Language[]) {
    const b = bundleOf(tag);
    const message = b.getMessage(key);
    if (message?.value) {
      const errors: Error[] = [];
      const text = b.formatPattern(message.value, args ?? null, errors);
      for (const e of errors) console.error(`window.ftl ${tag} ${key}:`, e);
      return text;
    }
    console.error(`window.ftl: no "${key}" in ${tag}`);
  }
  return key;
}

/** `n` as the language in force writes numbers ("2,000", "2.000", "2,000"). */
export function formatNumber(n: number): string {
  return new Intl.NumberFormat(locale.language).format(n);
}

/** A moment (milliseconds since the epoch, or an ISO 8601 text) as a date and time in the language in force. */
export function formatDateTime(
  ms: number | string,
  options?: Intl.DateTimeFormatOptions,
): string {
  return new Intl.DateTimeFormat(
    locale.language,
    options ?? { dateStyle: 'medium', timeStyle: 'short' },
  ).format(new Date(ms));
}

/** `items` as one list in the language in force ("a, b, and c"; "a、b和c"; "a, b e c"). */
export function formatList(items: string[]): string {
  return new Intl.ListFormat(locale.language, { type: 'conjunction' }).format(items);
}

const BYTE_UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/**
 * A size in bytes as the language in force writes it, in the largest unit of 1,000 that keeps
 * it at 1 or more, with at most one decimal ("512 bytes", "12.5 kB", "3 MB"; "12,5 kB").
 * Units of 1,000, as the file managers of macOS and GNOME count.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) {
    return new Intl.NumberFormat(locale.language, {
      style: 'unit',
      unit: 'byte',
      unitDisplay: 'long',
    }).format(bytes);
  }
  let value = bytes / 1000;
  let unit = 0;
  // 999.96 kB would round to "1,000 kB": it is 1 MB.
  while (value >= 999.95 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(locale.language, {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
}
