// Arguments that are not valid JSON: the card says where the mistake is in the person's
// language (the parser's English reason is for developers), and shows the text as sent.
import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import { parseLossless } from './json';
import JsonView from './JsonView.svelte';
import { setLanguage } from './i18n/i18n.svelte';

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
  setLanguage('en');
});

describe('invalid JSON', () => {
  it('says at which character the first mistake is', () => {
    expect(parseLossless('{"a": }')).toEqual({
      ok: false,
      error: 'Unexpected "}" at character 7',
      at: 7,
    });
  });

  it('is said in the language in force, with the text shown as sent', () => {
    const said: Record<string, string> = {};
    for (const tag of ['pt-BR', 'zh-CN', 'en'] as const) {
      setLanguage(tag);
      const target = document.createElement('div');
      document.body.append(target);
      mounted = mount(JsonView, { target, props: { text: '{"a": }' } });
      flushSync();
      said[tag] = target.querySelector('.invalid')?.textContent ?? '';
      // As sent, inside a quoted string.
      expect(target.querySelector('pre')?.textContent).toContain('{\\"a\\": }');
      unmount(mounted);
      mounted = undefined;
      document.body.replaceChildren();
    }
    expect(said).toEqual({
      'pt-BR': 'JSON inválido (um erro no caractere 7); mostrado como foi enviado:',
      'zh-CN': '不是有效的 JSON（第 7 个字符处有错误）；按原样显示：',
      en: 'Not valid JSON (a mistake at character 7); shown as sent:',
    });
  });
});
