import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { ConnectionTestResult } from '../bindings/ConnectionTestResult';
import type { LocalModels } from '../bindings/LocalModels';
import type { SettingsView } from '../bindings/SettingsView';
import type { ProviderDraft } from './draft';

const view: SettingsView = {
  provider: 'openai',
  providers: [
    { kind: 'demo', label: 'The demo', default_base_url: '', default_model: '', has_service: false, needs_key: false },
    { kind: 'openai', label: 'A service with a key', default_base_url: 'https://api.example/v1', default_model: 'm-default', has_service: true, needs_key: true },
    { kind: 'ollama', label: 'On this computer', default_base_url: 'http://127.0.0.1:11434/v1', default_model: 'llama3.1', has_service: true, needs_key: false },
  ],
  base_url: '',
  model: '',
  has_api_key: true,
  key_storage: { place: 'keyring', sentence: 'Your key is kept in the desktop\'s keyring.' },
  approval_timeout_secs: 90,
  approval_timeout_range: { min: 10, max: 3600 },
  notify: 'never',
  notification_approvals: { new_files: false },
  set_by_environment: [],
  rules_path: '/data/rules.toml',
  rules: [],
  workspace: '/work',
  mcp_servers: [],
  effective_language: 'en',
};

const testConnection = vi.fn<(r: unknown) => Promise<ConnectionTestResult>>();
const findLocalModels = vi.fn<(b: string) => Promise<LocalModels>>();
const saveSettings = vi.fn<(r: unknown) => Promise<SettingsView>>();
vi.mock('../ipc', async () => (await import('../test/backend')).backend({
  testConnection: (r: unknown) => testConnection(r),
  findLocalModels: (b: string) => findLocalModels(b),
  saveSettings: (r: unknown) => saveSettings(r),
}));

const { default: ProviderChooser } = await import('./ProviderChooser.svelte');

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
  testConnection.mockReset();
  findLocalModels.mockReset();
  saveSettings.mockReset();
});

async function settle() {
  // A macrotask first: the Ollama finder starts from a timer.
  await new Promise((resolve) => setTimeout(resolve, 5));
  for (let i = 0; i < 4; i++) {
    await tick();
    await Promise.resolve();
  }
  flushSync();
}

async function show(draft: ProviderDraft, onsaved?: (v: SettingsView) => void) {
  const target = document.createElement('div');
  document.body.append(target);
  const props = $state({ view, draft, onsaved });
  mounted = mount(ProviderChooser, { target, props });
  await settle();
  return { root: target, props };
}

const draft = (over: Partial<ProviderDraft> = {}): ProviderDraft => ({
  provider: 'openai',
  base_url: 'http://127.0.0.1:9999/v1',
  model: 'gpt-x',
  api_key: '',
  clear_api_key: false,
  ...over,
});

const q = (root: HTMLElement, id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

describe('ProviderChooser', () => {
  it('tests the settings on screen and says it works, with the model that answered', async () => {
    let answer!: (r: ConnectionTestResult) => void;
    testConnection.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { root } = await show(draft({ api_key: 'sk-typed' }));
    q(root, 'test-connection')!.click();
    await settle();
    expect(testConnection).toHaveBeenCalledWith({
      provider: 'openai',
      base_url: 'http://127.0.0.1:9999/v1',
      model: 'gpt-x',
      api_key: 'sk-typed',
      clear_api_key: false,
    });
    expect(q(root, 'test-connection')?.textContent).toBe('Testing…');
    expect((q(root, 'test-connection') as HTMLButtonElement).disabled).toBe(true);
    answer({ outcome: 'works', sentence: 'It works: gpt-x at 127.0.0.1:9999 answered.', model: 'gpt-x', models: [] });
    await settle();
    const result = q(root, 'connection-result')!;
    expect(result.dataset.outcome).toBe('works');
    expect(result.className).toContain('ok');
    expect(result.textContent).toBe('It works: gpt-x at 127.0.0.1:9999 answered.');
    expect(q(root, 'connection-detail')).toBeNull();
  });

  it('shows a refused key as an error with the detail one click away, as text', async () => {
    testConnection.mockResolvedValue({
      outcome: 'key_refused',
      sentence: 'The key was refused by example.',
      detail: 'HTTP 401: <b>bad</b>',
      models: [],
    });
    const { root } = await show(draft());
    q(root, 'test-connection')!.click();
    await settle();
    expect(testConnection.mock.calls[0]?.[0]).toMatchObject({ api_key: undefined });
    const result = q(root, 'connection-result')!;
    expect(result.dataset.outcome).toBe('key_refused');
    expect(result.className).toContain('error');
    const detail = q(root, 'connection-detail')!;
    expect(detail.closest('details')?.open).toBe(false);
    expect(detail.textContent).toBe('HTTP 401: <b>bad</b>');
    expect(detail.querySelector('b')).toBeNull();
  });

  it('offers the models the service has and picks one into the model field', async () => {
    testConnection.mockResolvedValue({
      outcome: 'model_not_found',
      sentence: 'No model called "nope".',
      models: ['gpt-a', 'gpt-b'],
    });
    const { root, props } = await show(draft({ model: 'nope' }));
    q(root, 'test-connection')!.click();
    await settle();
    const models = [...root.querySelectorAll<HTMLButtonElement>('[data-testid="connection-model"]')];
    expect(models.map((b) => b.textContent)).toEqual(['gpt-a', 'gpt-b']);
    models[1]!.click();
    await settle();
    expect(props.draft.model).toBe('gpt-b');
    expect(q(root, "settings-model")).toHaveProperty('value', 'gpt-b');
    // The result was about the old settings: it goes when they change.
    expect(q(root, 'connection-result')).toBeNull();
  });

  it('finds Ollama on this computer and lists its models to choose from', async () => {
    findLocalModels.mockResolvedValue({
      running: true,
      models: ['llama3.2:latest', 'qwen2.5:7b'],
      sentence: 'Ollama is running with 2 models. Choose which one answers.',
    });
    const { root, props } = await show(draft({ provider: 'ollama', base_url: '', model: '' }));
    await vi.waitFor(() => expect(q(root, 'local-models-status')).not.toBeNull());
    expect(findLocalModels).toHaveBeenCalledWith('');
    expect(q(root, 'local-models-status')?.textContent).toBe(
      'Ollama is running with 2 models. Choose which one answers.',
    );
    const select = q(root, 'local-model') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['', 'llama3.2:latest', 'qwen2.5:7b']);
    select.value = 'qwen2.5:7b';
    select.dispatchEvent(new Event('change'));
    await settle();
    expect(props.draft.model).toBe('qwen2.5:7b');
  });

  it('says plainly when no local model runs', async () => {
    findLocalModels.mockResolvedValue({
      running: false,
      models: [],
      sentence: 'No local model is running on this computer. Install Ollama (ollama.com) and start it, or choose another way to answer.',
      detail: 'Refused: connection refused',
    });
    const { root } = await show(draft({ provider: 'ollama', base_url: '' }));
    await vi.waitFor(() => expect(q(root, 'local-models-status')).not.toBeNull());
    const status = q(root, 'local-models-status')!;
    expect(status.className).toContain('error');
    expect(status.textContent).toContain('No local model is running on this computer.');
    expect(q(root, 'local-model')).toBeNull();
  });

  it('has nothing to test for the demo', async () => {
    const { root } = await show(draft({ provider: 'demo' }));
    expect(q(root, 'test-connection')).toBeNull();
    expect(q(root, 'settings-base-url')).toBeNull();
    expect(q(root, 'provider-hint')?.textContent).toContain('No AI');
  });

  it('saves by itself only where it is given onsaved (the welcome)', async () => {
    const { root } = await show(draft());
    expect(q(root, 'provider-save')).toBeNull();
    unmount(mounted!);
    mounted = undefined;
    document.body.replaceChildren();
    const saved = { ...view, model: 'gpt-x' };
    saveSettings.mockResolvedValue(saved);
    const onsaved = vi.fn();
    const shown = await show(draft({ api_key: 'sk-new' }), onsaved);
    q(shown.root, 'provider-save')!.click();
    await settle();
    expect(saveSettings).toHaveBeenCalledWith({
      provider: 'openai',
      base_url: 'http://127.0.0.1:9999/v1',
      model: 'gpt-x',
      api_key: 'sk-new',
      clear_api_key: false,
      approval_timeout_secs: 90,
      notify: 'never',
    });
    expect(onsaved).toHaveBeenCalledWith(saved);
  });
});
