// The rules part of Settings: sentences from the backend shown as text, the "Add a rule" form
// sending typed choices (never file syntax), refusals shown as the backend's sentence, and a
// hand-written rule's Change pointing to its line in the file.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { RulesView } from '../bindings/RulesView';

const actions: RulesView['actions'] = [
  { tool: '*', label: 'Anything', scopes: ['everywhere', 'folder'] },
  { tool: 'write_file', label: 'Writing files (new or replaced)', scopes: ['everywhere', 'folder'] },
  { tool: 'run_command', label: 'Running commands', scopes: ['everywhere', 'command', 'folder'] },
  { tool: 'fetch_url', label: 'Downloading from the internet', scopes: ['everywhere', 'site'] },
];

const start: RulesView = {
  path: '/data/rules.toml',
  rules: [
    {
      line: 'deny * "Private/**"',
      sentence: 'Never touch anything in <b>Private</b>',
      choice: { effect: 'never', tool: '*', scope: { kind: 'folder', folder: 'Private' } },
      file_line: 3,
    },
    { line: 'allow write_file "Drafts/*.txt"', sentence: 'Always allow writing files matching “Drafts/*.txt”', file_line: 7 },
  ],
  actions,
  folders: ['Private', 'Photos', 'Photos/2024'],
};

const listRules = vi.fn(async () => start);
const addRule = vi.fn();
const changeRule = vi.fn();
const removeRule = vi.fn(async (_rule: string) => ({}));
vi.mock('../ipc', () => ({
  listRules: () => listRules(),
  addRule: (c: unknown) => addRule(c),
  changeRule: (r: unknown, c: unknown) => changeRule(r, c),
  removeRule: (r: string) => removeRule(r),
}));

const { default: RulesSection } = await import('./RulesSection.svelte');
const { setLanguage } = await import('../i18n/i18n.svelte');

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
  vi.clearAllMocks();
});

async function settle() {
  for (let i = 0; i < 4; i++) {
    await tick();
    await Promise.resolve();
  }
  flushSync();
}

async function show(): Promise<HTMLElement> {
  const target = document.createElement('div');
  document.body.append(target);
  mounted = mount(RulesSection, { target, props: {} });
  await settle();
  return target;
}

const q = (root: HTMLElement, id: string) => root.querySelector(`[data-testid="${id}"]`);
function choose(root: HTMLElement, id: string, value: string) {
  const select = q(root, id) as HTMLSelectElement;
  select.value = value;
  select.dispatchEvent(new Event('change'));
  flushSync();
}
function type(root: HTMLElement, id: string, value: string) {
  const input = q(root, id) as HTMLInputElement;
  input.value = value;
  input.dispatchEvent(new Event('input'));
  flushSync();
}

describe('RulesSection', () => {
  it('lists each rule as its sentence, as text, with the file line one click away', async () => {
    const root = await show();
    const sentences = [...root.querySelectorAll('[data-testid="rule-sentence"]')].map((e) => e.textContent);
    expect(sentences).toEqual([
      'Never touch anything in <b>Private</b>',
      'Always allow writing files matching “Drafts/*.txt”',
    ]);
    expect(root.querySelector('b')).toBeNull();
    // (The first fold is where the rules file is; each rule's own comes after.)
    const details = root.querySelector('[data-testid="rule-sentence"]')?.closest('li')
      ?.querySelector('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.textContent).toContain('deny * "Private/**"');
    expect(details.textContent).toContain('line 3 of rules.toml');
  });

  it('starts a new rule with nothing chosen, and saves only once what and to what are chosen', async () => {
    const root = await show();
    (q(root, 'add-rule') as HTMLButtonElement).click();
    flushSync();
    expect((q(root, 'rule-effect') as HTMLSelectElement).value).toBe('');
    expect((q(root, 'rule-what') as HTMLSelectElement).value).toBe('');
    expect((q(root, 'rule-save') as HTMLButtonElement).disabled).toBe(true);
    choose(root, 'rule-effect', 'ask');
    expect((q(root, 'rule-save') as HTMLButtonElement).disabled).toBe(true);
    choose(root, 'rule-what', '*');
    expect((q(root, 'rule-save') as HTMLButtonElement).disabled).toBe(false);
  });

  it('adds a rule from choices: never, anything, in a folder', async () => {
    addRule.mockResolvedValue({
      ...start,
      rules: [...start.rules, { line: 'deny * "Photos/**"', sentence: 'Never touch anything in Photos' }],
    });
    const root = await show();
    (q(root, 'add-rule') as HTMLButtonElement).click();
    flushSync();
    choose(root, 'rule-effect', 'never');
    choose(root, 'rule-what', '*');
    choose(root, 'rule-where', 'folder');
    const options = [...root.querySelectorAll('datalist option')].map((o) => o.getAttribute('value'));
    expect(options).toEqual(['Private', 'Photos', 'Photos/2024']);
    type(root, 'rule-folder', 'Photos');
    (q(root, 'rule-save') as HTMLButtonElement).click();
    await settle();
    expect(addRule).toHaveBeenCalledWith({ effect: 'never', tool: '*', scope: { kind: 'folder', folder: 'Photos' } });
    expect(q(root, 'rule-form')).toBeNull();
    expect(q(root, 'rules-notice')?.textContent).toBe('Rule added.');
    expect([...root.querySelectorAll('[data-testid="rule-sentence"]')].pop()?.textContent).toBe(
      'Never touch anything in Photos',
    );
  });

  it('offers only the places an action can take, and sends a site for downloads', async () => {
    addRule.mockResolvedValue(start);
    const root = await show();
    (q(root, 'add-rule') as HTMLButtonElement).click();
    flushSync();
    choose(root, 'rule-what', 'fetch_url');
    const places = [...root.querySelectorAll('[data-testid="rule-where"] option')].map((o) => o.getAttribute('value'));
    expect(places).toEqual(['everywhere', 'site']);
    choose(root, 'rule-effect', 'allow');
    choose(root, 'rule-where', 'site');
    type(root, 'rule-site', 'example.com');
    (q(root, 'rule-save') as HTMLButtonElement).click();
    await settle();
    expect(addRule).toHaveBeenCalledWith({
      effect: 'allow',
      tool: 'fetch_url',
      scope: { kind: 'site', host: 'example.com', sub_domains: false },
    });
  });

  it('shows a refusal as the sentence the backend sent, and keeps the form', async () => {
    addRule.mockRejectedValue(new Error('There is no folder “Privat” in your folder. Check its name, or choose one from the list.'));
    const root = await show();
    (q(root, 'add-rule') as HTMLButtonElement).click();
    flushSync();
    choose(root, 'rule-effect', 'never');
    choose(root, 'rule-what', '*');
    choose(root, 'rule-where', 'folder');
    type(root, 'rule-folder', 'Privat');
    (q(root, 'rule-save') as HTMLButtonElement).click();
    await settle();
    expect(q(root, 'rule-error')?.textContent).toBe('There is no folder “Privat” in your folder. Check its name, or choose one from the list.');
    expect(q(root, 'rule-form')).not.toBeNull();
  });

  it('changes a rule the form can express, starting from its choices', async () => {
    changeRule.mockResolvedValue(start);
    const root = await show();
    (root.querySelectorAll('[data-testid="change-rule"]')[0] as HTMLButtonElement).click();
    flushSync();
    expect((q(root, 'rule-folder') as HTMLInputElement).value).toBe('Private');
    choose(root, 'rule-effect', 'ask');
    (q(root, 'rule-save') as HTMLButtonElement).click();
    await settle();
    expect(changeRule).toHaveBeenCalledWith('deny * "Private/**"', {
      effect: 'ask',
      tool: '*',
      scope: { kind: 'folder', folder: 'Private' },
    });
    expect(q(root, 'rules-notice')?.textContent).toBe('Rule changed.');
  });

  it('says where in the file a hand-written rule is changed, and still removes it', async () => {
    const root = await show();
    (root.querySelectorAll('[data-testid="change-rule"]')[1] as HTMLButtonElement).click();
    flushSync();
    expect(q(root, 'rule-form')).toBeNull();
    expect(q(root, 'rule-by-hand')?.textContent?.replace(/\s+/g, ' ')).toContain(
      'changed in the file itself: rules.toml, line 7.',
    );
    (root.querySelectorAll('[data-testid="remove-rule"]')[1] as HTMLButtonElement).click();
    await settle();
    expect(removeRule).toHaveBeenCalledWith('allow write_file "Drafts/*.txt"');
    expect(listRules).toHaveBeenCalledTimes(2);
  });

  it('reads the rules again when the language changes, so their sentences are in it', async () => {
    const root = await show();
    expect(listRules).toHaveBeenCalledTimes(1);
    const inPortuguese: RulesView = {
      ...start,
      rules: start.rules.slice(0, 1).map((r) => ({ ...r, sentence: 'Nunca mexer em nada em Private' })),
    };
    listRules.mockResolvedValueOnce(inPortuguese);
    setLanguage('pt-BR');
    await settle();
    expect(listRules).toHaveBeenCalledTimes(2);
    const sentences = [...root.querySelectorAll('[data-testid="rule-sentence"]')].map((e) => e.textContent);
    expect(sentences).toEqual(['Nunca mexer em nada em Private']);
    setLanguage('en');
  });
});
