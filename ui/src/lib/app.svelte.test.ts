import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from './bindings/AgentEvent';
import type { Grant } from './bindings/Grant';
import type { SequencedEvent } from './bindings/SequencedEvent';

vi.mock('./ipc', () => {
  class IpcError extends Error {}
  return {
    IpcError,
    resolveApproval: vi.fn(),
    listPendingApprovals: vi.fn(),
    onApprovalRequired: vi.fn(),
    onApprovalResolved: vi.fn(),
    onFocusApproval: vi.fn(),
    onRunEvent: vi.fn(),
    listRunEvents: vi.fn(),
    listGrants: vi.fn(),
    revokeGrant: vi.fn(),
    getSessionPolicy: vi.fn(),
    setSessionPolicy: vi.fn(),
    getSettings: vi.fn(),
  };
});

import * as ipc from './ipc';
import { AppState } from './app.svelte';
import { setLanguage } from './i18n/i18n.svelte';

/** What the backend was asked, in order. */
let calls: string[];
let runHandler: ((e: SequencedEvent) => void) | undefined;
let focusHandler: ((id: string) => void) | undefined;
let unlistened: string[];

const grant: Grant = {
  tool_name: 'write_file',
  canonical_arguments: '{}',
  summary: 'Write a.txt',
  granted_at: 0,
};
const request = {
  approval_id: 'a1',
  run_id: 'r',
  tool_call_id: 'c1',
  tool_name: 'write_file',
  arguments_json: '{}',
  arguments_sha256: '00',
  summary: 'Write a.txt',
  reason: 'asks',
  risk: 'medium' as const,
  policy_layer: 'tool_default' as const,
  expires_at: Date.now() + 60_000,
  resumed: false,
};

function listener(name: string) {
  return async () => {
    calls.push(`listen ${name}`);
    return () => unlistened.push(name);
  };
}

beforeEach(() => {
  calls = [];
  unlistened = [];
  vi.mocked(ipc.onApprovalRequired).mockImplementation(listener('approval-required'));
  vi.mocked(ipc.onApprovalResolved).mockImplementation(listener('approval-resolved'));
  vi.mocked(ipc.onFocusApproval).mockImplementation(async (handler) => {
    focusHandler = handler;
    return listener('focus-approval')();
  });
  vi.mocked(ipc.onRunEvent).mockImplementation(async (handler) => {
    runHandler = handler;
    return listener('run-event')();
  });
  vi.mocked(ipc.listPendingApprovals).mockImplementation(async () => {
    calls.push('list pending');
    return [request];
  });
  vi.mocked(ipc.listRunEvents).mockImplementation(async () => {
    calls.push('list run events');
    return [];
  });
  vi.mocked(ipc.listGrants).mockImplementation(async () => {
    calls.push('list grants');
    return [grant];
  });
  vi.mocked(ipc.getSessionPolicy).mockImplementation(async () => {
    calls.push('get policy');
    return 'never';
  });
});
afterEach(() => vi.clearAllMocks());

const settle = () => new Promise((done) => setTimeout(done, 0));
const event = (seq: number, e: AgentEvent): SequencedEvent => ({ seq, event: e });

describe('AppState.connect', () => {
  it('listens first, then reconciles, catches up and reads grants and policy', async () => {
    const app = new AppState({ focusCard: () => {} });
    const disconnect = app.connect();
    await settle();
    expect(calls.slice(0, 4).sort()).toEqual(
      ['listen approval-required', 'listen approval-resolved', 'listen focus-approval', 'listen run-event'].sort(),
    );
    expect(calls.slice(4).sort()).toEqual(
      ['get policy', 'list grants', 'list pending', 'list run events'].sort(),
    );
    expect(app.refuseAll).toBe(true);
    expect(app.grants).toEqual([grant]);
    expect(app.approvals.cards.map((c) => c.request.approval_id)).toEqual(['a1']);
    disconnect();
    expect(unlistened.sort()).toEqual(
      ['approval-required', 'approval-resolved', 'focus-approval', 'run-event'].sort(),
    );
  });

  it('unsubscribes everything when disconnected before its listeners are in place', async () => {
    const app = new AppState({ focusCard: () => {} });
    app.connect()();
    await settle();
    expect(unlistened.sort()).toEqual(
      ['approval-required', 'approval-resolved', 'focus-approval', 'run-event'].sort(),
    );
    expect(calls).not.toContain('list pending');
  });

  it('feeds the transcript, the countdowns and the grants from the run events', async () => {
    const app = new AppState({ focusCard: () => {} });
    const disconnect = app.connect();
    await settle();
    calls = [];
    runHandler?.(event(0, { type: 'run_started', run_id: 'r', session_id: 's', task: 'Go', provider: 'p', resumed: false }));
    expect(app.running).toBe(true);
    expect(app.transcript.entries.map((e) => e.kind)).toEqual(['task']);

    const later = request.expires_at + 90_000;
    runHandler?.(event(1, { type: 'approval_extended', approval_id: 'a1', run_id: 'r', expires_at: later }));
    expect(app.approvals.cards[0]?.request.expires_at).toBe(later);

    runHandler?.(
      event(2, {
        type: 'approval_resolved',
        approval_id: 'a1',
        run_id: 'r',
        tool_call_id: 'c1',
        outcome: { kind: 'approved', scope: 'session', source: 'user' },
      }),
    );
    await settle();
    expect(calls).toEqual(['list grants']);

    // A gap in the numbers: the history is fetched again.
    runHandler?.(event(5, { type: 'run_finished', run_id: 'r', status: 'completed' }));
    await settle();
    expect(calls).toContain('list run events');
    disconnect();
  });

  it('lists the cards again when another session opens (the one before may not have ended aloud)', async () => {
    const app = new AppState({ focusCard: () => {} });
    const disconnect = app.connect();
    await settle();
    calls = [];
    // The backend keeps only the latest session's events: what ended in the one before, after
    // the last events this window took, is not said again.
    runHandler?.(event(7, { type: 'session_opened', session_id: 's2' }));
    await settle();
    expect(calls).toContain('list pending');
    disconnect();
  });

  it('shows the card the tray picked and reconciles when the window gets the focus', async () => {
    const focused: string[] = [];
    const app = new AppState({ focusCard: (id) => focused.push(id) });
    const disconnect = app.connect();
    await settle();
    calls = [];
    focusHandler?.('a1');
    expect(focused).toEqual(['a1']);
    await settle();
    expect(calls).toEqual(['list pending']);
    calls = [];
    window.dispatchEvent(new Event('focus'));
    await settle();
    expect(calls.sort()).toEqual(['list grants', 'list pending']);
    disconnect();
    calls = [];
    window.dispatchEvent(new Event('focus'));
    await settle();
    expect(calls).toEqual([]);
  });
});

describe('AppState and the language', () => {
  it('lists the waiting cards again when the language changes, so they are in the new one', async () => {
    const app = new AppState({ focusCard: () => {} });
    const disconnect = app.connect();
    await settle();
    expect(app.approvals.cards[0]?.request.summary).toBe('Write a.txt');
    calls = [];
    // The backend has said the waiting card again in Portuguese (save_settings).
    vi.mocked(ipc.listPendingApprovals).mockImplementation(async () => {
      calls.push('list pending');
      return [{ ...request, summary: 'Escrever a.txt' }];
    });
    setLanguage('pt-BR');
    await settle();
    expect(calls).toEqual(['list pending']);
    expect(app.approvals.cards[0]?.request.summary).toBe('Escrever a.txt');
    // The same language again asks nothing.
    calls = [];
    setLanguage('pt-BR');
    await settle();
    expect(calls).toEqual([]);
    disconnect();
    setLanguage('en');
    await settle();
    expect(calls).toEqual([]);
  });
});

describe('AppState', () => {
  it('keeps the box as it was when the session policy cannot be changed', async () => {
    const app = new AppState({ focusCard: () => {} });
    vi.mocked(ipc.setSessionPolicy).mockResolvedValueOnce('never');
    await app.setRefuseAll(true);
    expect(app.refuseAll).toBe(true);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.mocked(ipc.setSessionPolicy).mockRejectedValueOnce(new Error('busy'));
    await app.setRefuseAll(false);
    expect(app.refuseAll).toBe(true);
    expect(ipc.setSessionPolicy).toHaveBeenLastCalledWith('ask');
  });

  it('says when the settings file has a mistake, and stops saying it once it is fixed', async () => {
    const app = new AppState({ focusCard: () => {} });
    vi.mocked(ipc.getSettings).mockResolvedValueOnce({ settings_error: 'line 3: bad' } as never);
    app.checkSettings();
    await settle();
    expect(app.settingsError).toBe('line 3: bad');
    vi.mocked(ipc.getSettings).mockResolvedValueOnce({} as never);
    app.checkSettings();
    await settle();
    expect(app.settingsError).toBeNull();
  });
});
