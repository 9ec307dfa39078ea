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
