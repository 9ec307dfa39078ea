import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { FolderView } from '../bindings/FolderView';
import type { SettingsView } from '../bindings/SettingsView';

const demo: FolderView = {
  path: '/data/askfirst/Demo folder',
  display: '~/.local/share/askfirst/Demo folder',
  is_demo: true,
  set_by_environment: false,
  missing: false,
  change_starts_new_conversation: false,
};
const taxes: FolderView = { ...demo, path: '/home/ann/Documents/Taxes', display: '~/Documents/Taxes', is_demo: false };
const settings: SettingsView = {
  provider: 'demo',
  key_storage: { place: 'settings_file', sentence: 'No key is saved.' },
  providers: [
    { kind: 'demo', label: 'Demo', default_base_url: '', default_model: '', has_service: false, needs_key: false },
    { kind: 'ollama', label: 'Ollama', default_base_url: 'http://127.0.0.1:11434/v1', default_model: 'llama3.2', has_service: true, needs_key: false },
    { kind: 'openai', label: 'OpenAI', default_base_url: 'https://api.openai.com/v1', default_model: 'gpt-4o-mini', has_service: true, needs_key: true },
  ],
  base_url: '',
  model: '',
  has_api_key: false,
  approval_timeout_secs: 120,
  approval_timeout_range: { min: 10, max: 3600 },
  notify: 'unfocused',
  notification_approvals: { new_files: false },
  set_by_environment: [],
  rules_path: '/data/rules.toml',
  rules: [],
  workspace: '/work',
  mcp_servers: [],
  effective_language: 'en',
};

const ipc = {
  getFolder: vi.fn(),
  pickFolder: vi.fn(),
  useDemoFolder: vi.fn(),
  finishWelcome: vi.fn(),
  getSettings: vi.fn(),
  saveSettings: vi.fn(),
  // The chooser looks for a model on this computer when Ollama is chosen.
  findLocalModels: vi.fn(() => Promise.resolve({ running: false, models: [], sentence: 'No local model is running on this computer.' })),
  testConnection: vi.fn(),
  // Who does the work: only Ask First's own agent here, so the welcome shows no choice.
  listWorkers: vi.fn(),
  chooseWorker: vi.fn(),
};
vi.mock('../ipc', () => ipc);
const ownAgent = { id: 'askfirst', name: '', command: '' };
beforeEach(() => {
  ipc.listWorkers.mockResolvedValue({ chosen: ownAgent, choices: [ownAgent] });
});

const { default: Welcome } = await import('./Welcome.svelte');
const { default: FolderLine } = await import('../folder/FolderLine.svelte');
const { FolderState, folderSentence } = await import('../folder/folder.svelte');

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
  Object.values(ipc).forEach((f) => f.mockReset());
});

async function settle() {
  for (let i = 0; i < 4; i++) await tick();
  flushSync();
}

function target(): HTMLElement {
  const t = document.createElement('div');
  document.body.append(t);
  return t;
}

const q = (root: ParentNode, id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

describe('the folder line', () => {
  it('says which folder, or that it is the demo, or that it is gone', () => {
    expect(folderSentence(taxes)).toBe('Working in: ~/Documents/Taxes');
    expect(folderSentence(demo)).toBe('Working in the demo folder (sample files)');
    expect(folderSentence({ ...taxes, missing: true })).toBe(
      "This conversation's folder, ~/Documents/Taxes, is no longer there.",
    );
  });

  it('changes the folder through the picker and shows a refusal as a sentence', async () => {
    const onchanged = vi.fn();
    const folder = new FolderState(onchanged);
    folder.view = demo;
    const root = target();
    mounted = mount(FolderLine, { target: root, props: { folder, running: false } });
    await settle();
    expect(q(root, 'folder-path')?.textContent).toBe('Working in the demo folder (sample files)');
    ipc.pickFolder.mockResolvedValueOnce({ folder: taxes, chosen: true });
    q(root, 'folder-change')?.click();
    await settle();
    expect(q(root, 'folder-path')?.textContent).toBe('Working in: ~/Documents/Taxes');
    expect(q(root, 'folder-line')?.dataset.demo).toBe('false');
    // The grants are read again (none carries over to another folder).
    expect(onchanged).toHaveBeenCalledTimes(1);
    const { IpcError } = await vi.importActual<typeof import('../ipc')>('../ipc');
    ipc.pickFolder.mockRejectedValueOnce(new IpcError('invalid_request', 'That folder holds Ask First\'s own files.'));
    q(root, 'folder-change')?.click();
    await settle();
    expect(q(root, 'folder-error')?.textContent).toBe("That folder holds Ask First's own files.");
    expect(q(root, 'folder-path')?.textContent).toBe('Working in: ~/Documents/Taxes');
    expect(onchanged).toHaveBeenCalledTimes(1);
  });

  it('cannot be changed while a task runs, nor when the environment sets it', async () => {
    const folder = new FolderState();
    folder.view = taxes;
    const root = target();
    mounted = mount(FolderLine, { target: root, props: { folder, running: true } });
    await settle();
    expect((q(root, 'folder-change') as HTMLButtonElement).disabled).toBe(true);
    folder.view = { ...taxes, set_by_environment: true };
    await settle();
    expect(q(root, 'folder-change')).toBeNull();
    expect(root.textContent).toContain('(set by ASKFIRST_WORKSPACE)');
  });
});

describe('the welcome', () => {
  it('asks for the folder, then who answers, saves the choice and is remembered', async () => {
    ipc.getFolder.mockResolvedValue(demo);
    ipc.getSettings.mockResolvedValue(settings);
    ipc.useDemoFolder.mockResolvedValue(demo);
    ipc.saveSettings.mockResolvedValue(settings);
    ipc.finishWelcome.mockResolvedValue({ show: false });
    ipc.pickFolder.mockResolvedValue({ folder: taxes, chosen: true });
    const folder = new FolderState();
    const onclose = vi.fn();
    const root = target();
    mounted = mount(Welcome, { target: root, props: { folder, onclose } });
    await settle();
    expect(q(root, 'welcome-folder')?.textContent).toBe('Working in the demo folder (sample files)');
    q(root, 'welcome-pick')?.click();
    await settle();
    expect(q(root, 'welcome-folder')?.textContent).toBe('Working in: ~/Documents/Taxes');
    q(root, 'welcome-next')?.click();
    await settle();
    // No other agent program on this computer: no "Who does the work" in the way.
    expect(q(root, 'workers')).toBeNull();
    const select = q(root, 'settings-provider') as HTMLSelectElement;
    select.value = 'ollama';
    select.dispatchEvent(new Event('change'));
    await settle();
    (q(root, 'settings-model') as HTMLInputElement).value = 'qwen2.5';
    q(root, 'settings-model')?.dispatchEvent(new Event('input'));
    await settle();
    q(root, 'provider-save')?.click();
    await settle();
    expect(ipc.saveSettings).toHaveBeenCalledWith(
      expect.objectContaining({ provider: 'ollama', model: 'qwen2.5', api_key: undefined }),
    );
    expect(ipc.finishWelcome).toHaveBeenCalledTimes(1);
    expect(onclose).toHaveBeenCalledTimes(1);
  });

  it('offers "Test the connection" for a service, as Settings does', async () => {
    ipc.getFolder.mockResolvedValue(demo);
    ipc.getSettings.mockResolvedValue(settings);
    const root = target();
    mounted = mount(Welcome, { target: root, props: { folder: new FolderState(), onclose: () => {} } });
    await settle();
    q(root, 'welcome-next')?.click();
    await settle();
    expect(q(root, 'test-connection')).toBeNull();
    const select = q(root, 'settings-provider') as HTMLSelectElement;
    select.value = 'openai';
    select.dispatchEvent(new Event('change'));
    await settle();
    expect(q(root, 'test-connection')).not.toBeNull();
    expect(ipc.saveSettings).not.toHaveBeenCalled();
  });

  it('can be skipped, and skipping is remembered', async () => {
    ipc.getFolder.mockResolvedValue(demo);
    ipc.finishWelcome.mockResolvedValue({ show: false });
    const onclose = vi.fn();
    const root = target();
    mounted = mount(Welcome, { target: root, props: { folder: new FolderState(), onclose } });
    await settle();
    q(root, 'welcome-skip')?.click();
    await settle();
    expect(ipc.finishWelcome).toHaveBeenCalledTimes(1);
    expect(onclose).toHaveBeenCalledTimes(1);
  });
});
