// The window in the person's language: it follows the backend's effective language, the
// Settings choice saves it through save_settings and switches the window at once, and a card's
// buttons, countdown and numbers are in that language.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { SettingsView } from '../bindings/SettingsView';
import type { ApprovalRequest } from '../bindings/ApprovalRequest';
import { setLanguage } from './i18n.svelte';

const view: SettingsView = {
  provider: 'demo',
  providers: [
    { kind: 'demo', label: 'Demo', default_base_url: '', default_model: '', has_service: false, needs_key: false },
  ],
  base_url: '',
  model: '',
  has_api_key: false,
  key_storage: { place: 'settings_file', sentence: 'No key is saved.' },
  approval_timeout_secs: 5,
  approval_timeout_range: { min: 10, max: 3600 },
  notify: 'never',
  notification_approvals: { new_files: false },
  set_by_environment: ['approval_timeout_secs'],
  rules_path: '/data/rules.toml',
  rules: [],
  workspace: '/work',
  mcp_servers: [],
  effective_language: 'pt-BR',
};

const saveSettings = vi.fn();
vi.mock('../ipc', async () => (await import('../test/backend')).backend({
  getSettings: () => Promise.resolve(view),
  saveSettings: (r: unknown) => saveSettings(r),
}));

const { default: SettingsPanel } = await import('../SettingsPanel.svelte');
const { default: ApprovalCard } = await import('../ApprovalCard.svelte');

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
  saveSettings.mockReset();
  setLanguage('en');
});

const q = (root: ParentNode, id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

async function settle() {
  for (let i = 0; i < 4; i++) await tick();
  flushSync();
}

describe('the window language', () => {
  it('follows the language in force and switches at once when chosen in Settings', async () => {
    const target = document.createElement('div');
    document.body.append(target);
    mounted = mount(SettingsPanel, {
      target,
      props: { onclose: () => {}, grants: [], onrevoke: () => Promise.resolve() },
    });
    await settle();
    expect(target.querySelector('h2')?.textContent).toBe('Configurações');
    expect(q(target, 'settings-save')?.textContent).toBe('Salvar');
    const select = q(target, 'settings-language') as HTMLSelectElement;
    expect(select.value).toBe('desktop');
    expect(select.selectedOptions[0]?.textContent).toBe(
      'O mesmo da área de trabalho (Português (Brasil))',
    );

    saveSettings.mockResolvedValueOnce({ ...view, language: 'zh-CN', effective_language: 'zh-CN' });
    select.value = 'zh-CN';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await settle();
    expect(saveSettings).toHaveBeenCalledWith({
      provider: 'demo',
      base_url: '',
      model: '',
      clear_api_key: false,
      // The environment's 5 s is outside what the screen saves; the file gets the nearest.
      approval_timeout_secs: 10,
      notify: 'never',
      language: 'zh-CN',
    });
    expect(target.querySelector('h2')?.textContent).toBe('设置');
    expect(q(target, 'settings-save')?.textContent).toBe('保存');
    expect(document.documentElement.lang).toBe('zh-CN');

    saveSettings.mockResolvedValueOnce({ ...view, effective_language: 'pt-BR' });
    select.value = 'desktop';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await settle();
    expect(saveSettings.mock.calls[1]?.[0]).toMatchObject({ language: undefined });
    expect(target.querySelector('h2')?.textContent).toBe('Configurações');
  });

  it('shows a card with its buttons and countdown in the language', async () => {
    setLanguage('zh-CN');
    const request: ApprovalRequest = {
      approval_id: 'a1',
      run_id: 'r1',
      tool_call_id: 'c1',
      tool_name: 'write_file',
      arguments_json: '{"path":"a.txt"}',
      arguments_sha256: '0',
      summary: 'Write a.txt',
      risk: 'high',
      reason: 'It changes a file.',
      grant_scope: 'this exact call',
      expires_at: Date.now() + 65_000,
    } as ApprovalRequest;
    const target = document.createElement('div');
    document.body.append(target);
    mounted = mount(ApprovalCard, {
      target,
      props: { card: { request, phase: 'waiting', notice: null } as never, position: 0, ondecide: () => {} },
    });
    await settle();
    expect(q(target, 'approve')?.textContent).toBe('批准这一次');
    expect(q(target, 'deny')?.textContent).toBe('拒绝');
    expect(q(target, 'approve-session')?.textContent).toBe('在本次对话中允许');
    expect(q(target, 'approval-risk')?.textContent).toBe('高风险');
    expect(target.querySelector('.countdown')?.textContent?.trim()).toMatch(
      /^等你回答 · 1:0[45] 后自动拒绝$/,
    );
    // The model's and the core's words are shown as written.
    expect(q(target, 'approval-summary')?.textContent).toBe('Write a.txt');
  });
});
