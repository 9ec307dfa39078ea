import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { SettingsView } from './bindings/SettingsView';
import { settingsView } from './test/backend';

const view: SettingsView = settingsView({
  provider: 'anthropic',
  providers: [
    { kind: 'demo', label: 'Demo from the backend', default_base_url: '', default_model: '', has_service: false, needs_key: false },
    { kind: 'anthropic', label: 'Claude from the backend', default_base_url: 'https://example.test/a', default_model: 'model-from-backend', has_service: true, needs_key: true },
  ],
  approval_timeout_range: { min: 30, max: 600 },
});

const saveSettings = vi.fn();
vi.mock('./ipc', async () => (await import('./test/backend')).backend({
  getSettings: () => Promise.resolve(view),
  saveSettings: (r: unknown) => saveSettings(r),
}));

const { default: SettingsPanel } = await import('./SettingsPanel.svelte');

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
  saveSettings.mockReset();
});

async function show(): Promise<HTMLElement> {
  const target = document.createElement('div');
  document.body.append(target);
  mounted = mount(SettingsPanel, {
    target,
    props: { onclose: () => {}, grants: [], onrevoke: () => Promise.resolve() },
  });
  await tick();
  await tick();
  flushSync();
  return target;
}

describe('SettingsPanel', () => {
  it('says where the key is kept, with the technical reason one click away', async () => {
    const kept = view.key_storage;
    view.key_storage = {
      place: 'settings_file',
      sentence: 'No keyring is available on this computer, so your key is kept in the settings file.',
      detail: 'no D-Bus session bus',
    };
    try {
      const root = await show();
      const line = root.querySelector<HTMLElement>('[data-testid="settings-key-storage"]');
      expect(line?.textContent?.trim()).toBe(view.key_storage.sentence);
      expect(line?.dataset.place).toBe('settings_file');
      const details = line?.nextElementSibling;
      expect(details?.tagName).toBe('DETAILS');
      expect(details?.querySelector('code')?.textContent).toBe('no D-Bus session bus');
    } finally {
      view.key_storage = kept;
    }
  });

  it('lists the providers, their defaults and the waiting-time range the backend sends', async () => {
    const root = await show();
    const options = [...root.querySelectorAll('[data-testid="settings-provider"] option')];
    expect(options.map((o) => [o.getAttribute('value'), o.textContent])).toEqual([
      ['demo', 'Demo from the backend'],
      ['anthropic', 'Claude from the backend'],
    ]);
    const url = root.querySelector<HTMLInputElement>('[data-testid="settings-base-url"]');
    const model = root.querySelector<HTMLInputElement>('[data-testid="settings-model"]');
    expect(url?.placeholder).toBe('https://example.test/a');
    expect(model?.placeholder).toBe('model-from-backend');
    const timeout = root.querySelector<HTMLInputElement>('[data-testid="settings-timeout"]');
    expect([timeout?.min, timeout?.max]).toEqual(['30', '600']);
  });

  it('refuses a waiting time outside the backend range without saving', async () => {
    const root = await show();
    const timeout = root.querySelector<HTMLInputElement>('[data-testid="settings-timeout"]')!;
    timeout.value = '20';
    timeout.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    root.querySelector<HTMLButtonElement>('[data-testid="settings-save"]')!.click();
    flushSync();
    expect(saveSettings).not.toHaveBeenCalled();
    expect(root.querySelector('[role="alert"]')?.textContent).toBe(
      'Enter a whole number of seconds from 30 to 600 for the waiting time.',
    );
  });
});
