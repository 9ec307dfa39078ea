// The window's panels, mounted on their own, and the layout's toggles.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { SettingsView } from './bindings/SettingsView';

let pending: unknown[] = [];
const resolvedHandlers: ((e: unknown) => void)[] = [];
vi.mock('./ipc', async () => {
  const { backend, settingsView } = await import('./test/backend');
  return backend({
    onApprovalResolved: vi.fn(async (handler: (e: unknown) => void) => {
      resolvedHandlers.push(handler);
      return () => {};
    }),
    listPendingApprovals: vi.fn(async () => pending),
    getSettings: vi.fn(async (): Promise<SettingsView> =>
      settingsView({ rules_path: '/rules.toml', workspace: '/ws' })),
    listRules: vi.fn(async () => ({ path: '/rules.toml', rules: [], actions: [], folders: [] })),
  });
});

import * as ipc from './ipc';
import App from '../App.svelte';
import Composer from './Composer.svelte';
import SessionsPanel from './sessions/SessionsPanel.svelte';
import TranscriptView from './transcript/TranscriptView.svelte';
import type { Entry } from './transcript.svelte';

let mounted: ReturnType<typeof mount>[] = [];
function show<P extends Record<string, unknown>>(component: never, props: P): HTMLElement {
  const target = document.createElement('div');
  document.body.append(target);
  mounted.push(mount(component, { target, props }));
  flushSync();
  return target;
}
beforeEach(() => {
  vi.mocked(ipc.listSessions).mockResolvedValue([
    { session_id: 's1', title: 'Tidy the folder', updated_at: 0, current: true },
    { session_id: 's2', title: 'Write a summary', updated_at: 0, current: false },
  ]);
});
afterEach(() => {
  mounted.forEach((m) => unmount(m));
  mounted = [];
  document.body.replaceChildren();
  vi.clearAllMocks();
});
const settle = async () => {
  await new Promise((done) => setTimeout(done, 0));
  flushSync();
};
const all = (target: ParentNode, id: string) => [
  ...target.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`),
];

describe('SessionsPanel', () => {
  it('lists the sessions, opens one and says when it is switched', async () => {
    const onswitched = vi.fn();
    const target = show(SessionsPanel as never, { id: 'p', running: false, onswitched });
    await settle();
    expect(all(target, 'session-item').map((li) => li.textContent?.includes('Open now'))).toEqual([
      true,
      false,
    ]);
    all(target, 'open-session')[0]?.click();
    await settle();
    expect(ipc.openSession).toHaveBeenCalledWith('s2');
    expect(onswitched).toHaveBeenCalledOnce();
  });

  it('says why a session could not be opened, and stays open', async () => {
    vi.mocked(ipc.newSession).mockRejectedValueOnce(new Error('The session log cannot be written.'));
    const onswitched = vi.fn();
    const target = show(SessionsPanel as never, { id: 'p', running: false, onswitched });
    await settle();
    all(target, 'new-session')[0]?.click();
    await settle();
    expect(target.querySelector('[role="alert"]')?.textContent).toBe(
      'The session log cannot be written.',
    );
    expect(onswitched).not.toHaveBeenCalled();
  });

  it('opens and starts nothing while the agent runs', async () => {
    const target = show(SessionsPanel as never, { id: 'p', running: true, onswitched: () => {} });
    await settle();
    expect(all(target, 'new-session')[0]?.hasAttribute('disabled')).toBe(true);
    expect(all(target, 'open-session')[0]?.hasAttribute('disabled')).toBe(true);
  });
});

describe('TranscriptView', () => {
  it('says where each tool call stands, and what decided one that ran', () => {
    const tool = (state: string, layer: string | null = null): Entry =>
      ({
        kind: 'tool',
        key: `${state}${layer}`,
        runId: 'r',
        toolCallId: 'c',
        toolName: 'anything',
        summary: 'Do it',
        state,
        output: state === 'failed' ? 'It broke.' : null,
        layer,
      }) as Entry;
    const entries = [
      tool('queued'),
      tool('waiting'),
      tool('approved'),
      tool('running'),
      tool('succeeded', 'session_grant'),
      tool('succeeded', 'user_rule'),
      tool('failed'),
      tool('denied'),
      tool('cancelled'),
    ];
    const target = show(TranscriptView as never, { entries });
    expect(all(target, 'tool-call').map((e) => e.querySelector('.tool-state')?.textContent)).toEqual(
      [
        'Waiting its turn',
        'Waiting for your OK',
        'Approved, runs in its turn',
        'Running…',
        'Done (allowed in this conversation)',
        'Done (allowed by your rules)',
        'Failed',
        'Not done: denied',
        'Not done: stopped',
      ],
    );
    expect(all(target, 'tool-call')[6]?.querySelector('.tool-output')?.textContent).toBe('It broke.');
  });

  it('shows hidden characters in why a run ended as their codes', () => {
    const entries: Entry[] = [
      { kind: 'finished', key: 'end', status: 'failed', message: 'Bad\u202Etxt.exe reply' },
    ];
    const target = show(TranscriptView as never, { entries });
    expect(target.querySelector('.finished')?.textContent?.trim()).toBe(
      'The agent stopped: Bad\\u202Etxt.exe reply',
    );
  });
});

describe('Composer', () => {
  it('starts the task with Ctrl+Enter, clears it and keeps the keyboard in the box', async () => {
    vi.mocked(ipc.startRun).mockResolvedValueOnce({ run_id: 'r', session_id: 's' } as never);
    const target = show(Composer as never, { status: 'idle', runId: null, openCount: 0 });
    const box = all(target, 'task-input')[0] as HTMLTextAreaElement;
    box.value = 'Tidy up';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    expect(all(target, 'start-run')[0]?.hasAttribute('disabled')).toBe(false);
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true }));
    await settle();
    expect(ipc.startRun).toHaveBeenCalledWith('Tidy up');
    expect(box.value).toBe('');
    expect(document.activeElement).toBe(box);
  });

  it('says the run waits for an answer, and stops the run in progress', async () => {
    const target = show(Composer as never, { status: 'running', runId: 'r7', openCount: 2 });
    expect(all(target, 'run-status')[0]?.textContent?.trim()).toBe('Waiting for your OK');
    expect(all(target, 'start-run')[0]?.hasAttribute('disabled')).toBe(true);
    all(target, 'cancel-run')[0]?.click();
    expect(ipc.cancelRun).toHaveBeenCalledWith('r7');
  });
});

describe('App', () => {
  it('shows the folder the agent works in, and the welcome only when the backend says so', async () => {
    let target = show(App as never, {});
    await settle();
    expect(all(target, 'folder-path')[0]?.textContent).toBe('Working in: ~/Documents/Taxes');
    expect(all(target, 'welcome')).toEqual([]);
    vi.mocked(ipc.getWelcome).mockResolvedValueOnce({ show: true });
    target = show(App as never, {});
    await settle();
    expect(all(document.body, 'welcome')).toHaveLength(1);
  });

  it('says whether the Sessions and Settings panels are open, and which element they are', async () => {
    const target = show(App as never, {});
    await settle();
    for (const id of ['sessions', 'settings']) {
      const toggle = all(target, id)[0] as HTMLButtonElement;
      const panelId = toggle.getAttribute('aria-controls') ?? '';
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
      expect(document.getElementById(panelId)).toBeNull();
      toggle.click();
      await settle();
      expect(toggle.getAttribute('aria-expanded')).toBe('true');
      expect(document.getElementById(panelId)?.getAttribute('data-testid')).toBe(`${id}-panel`);
      toggle.click();
      await settle();
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
    }
  });

  it('gives the keyboard to the task box when the last card leaves with the focus', async () => {
    pending = [
      {
        approval_id: 'a1',
        run_id: 'r',
        tool_call_id: 'c1',
        tool_name: 'write_file',
        arguments_json: '{}',
        arguments_sha256: '00',
        summary: 'Write a.txt',
        reason: 'asks',
        risk: 'medium',
        policy_layer: 'tool_default',
        expires_at: Date.now() + 60_000,
      },
    ];
    const target = show(App as never, {});
    await settle();
    await settle();
    const deny = all(target, 'deny')[0] as HTMLButtonElement;
    deny.focus();
    expect(document.activeElement).toBe(deny);
    for (const handler of resolvedHandlers) {
      handler({
        approval_id: 'a1',
        run_id: 'r',
        tool_call_id: 'c1',
        outcome: { kind: 'denied', source: 'timeout' },
      });
    }
    await settle();
    await settle();
    expect(all(target, 'approval-card')).toEqual([]);
    expect(document.activeElement).toBe(all(target, 'task-input')[0]);
    pending = [];
  });
});
