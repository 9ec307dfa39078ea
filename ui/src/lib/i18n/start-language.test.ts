// The window's first frame is in the language the backend named before the page loaded
// (window.__ASKFIRST_LANGUAGE__, set by its script), not in English until the settings are read.
import { afterEach, describe, expect, it, vi } from 'vitest';

const global = globalThis as { __ASKFIRST_LANGUAGE__?: unknown };

afterEach(() => {
  delete global.__ASKFIRST_LANGUAGE__;
  vi.resetModules();
});

async function fresh() {
  vi.resetModules();
  return import('./i18n.svelte');
}

describe('the language at start', () => {
  it('is the one the backend named, from the first sentence on', async () => {
    global.__ASKFIRST_LANGUAGE__ = 'pt-BR';
    const i18n = await fresh();
    expect(i18n.locale.language).toBe('pt-BR');
    expect(i18n.t('composer-start')).toBe('Começar');
    expect(document.documentElement.lang).toBe('pt-BR');
  });

  it('is English when none was named, or one the window does not have', async () => {
    for (const named of [undefined, 'fr', 42, '<b>']) {
      if (named === undefined) delete global.__ASKFIRST_LANGUAGE__;
      else global.__ASKFIRST_LANGUAGE__ = named;
      const i18n = await fresh();
      expect(i18n.locale.language).toBe('en');
      expect(i18n.t('composer-start')).toBe('Start');
    }
  });
});

describe('the catalogues a start reads', () => {
  afterEach(() => {
    vi.doUnmock('@fluent/bundle');
  });

  it('are the language in force only; English once a key is missing, another once chosen', async () => {
    const parsed: string[] = [];
    vi.doMock('@fluent/bundle', async (original) => {
      const fluent = await original<typeof import('@fluent/bundle')>();
      class CountedResource extends fluent.FluentResource {
        constructor(source: string) {
          super(source);
          parsed.push(source.includes('Começar') ? 'pt-BR' : source.includes('开始') ? 'zh-CN' : 'en');
        }
      }
      return { ...fluent, FluentResource: CountedResource };
    });
    global.__ASKFIRST_LANGUAGE__ = 'pt-BR';
    const i18n = await fresh();
    expect(i18n.t('composer-start')).toBe('Começar');
    expect(parsed).toEqual(['pt-BR']);
    // A key no catalogue has: looked up in pt-BR, then English (read now), and shown as is.
    expect(i18n.t('no-such-key')).toBe('no-such-key');
    expect(parsed).toEqual(['pt-BR', 'en']);
    i18n.setLanguage('zh-CN');
    expect(i18n.t('composer-start')).toBe('开始');
    expect(parsed).toEqual(['pt-BR', 'en', 'zh-CN']);
  });
});
