import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SequencedEvent } from './bindings/SequencedEvent';
import type { ApprovalRequest } from './bindings/ApprovalRequest';

// The page's side of the backend's events: `listen` is Tauri's, replaced by a registry the
// test delivers to, the way Tauri calls each listener of an event with its payload.
const listeners = new Map<string, ((e: { payload: unknown }) => void)[]>();
vi.mock('@tauri-apps/api/event', () => ({
  listen: async (name: string, handler: (e: { payload: unknown }) => void) => {
    listeners.set(name, [...(listeners.get(name) ?? []), handler]);
    return () => listeners.set(name, (listeners.get(name) ?? []).filter((h) => h !== handler));
  },
}));
// `wait_run_events`, the backend's long poll, served from `history`: answers at once when
// there are events from the number asked for, else when `publish` adds some.
const history: SequencedEvent[] = [];
const asked: (number | null)[] = [];
let wake: (() => void)[] = [];
function publish(...events: SequencedEvent[]): void {
  history.push(...events);
  const waiting = wake;
  wake = [];
  waiting.forEach((w) => w());
}
vi.mock('@tauri-apps/api/core', () => ({
  invoke: vi.fn(async (cmd: string, args: { request: { next: number | null } }) => {
    if (cmd !== 'wait_run_events') return undefined;
    const next = args.request.next;
    asked.push(next);
    if (next === null) return { events: [], next: history.length };
    while (history.length <= next) await new Promise<void>((w) => wake.push(w));
    return { events: history.slice(next, next + 2), next: Math.min(history.length, next + 2) };
  }),
}));
vi.mock('@tauri-apps/api/window', () => ({ getCurrentWindow: vi.fn() }));

function deliver(name: string, payload: unknown): void {
  for (const handler of listeners.get(name) ?? []) handler({ payload });
}

const request = (id: string): ApprovalRequest =>
  ({
    approval_id: id,
    run_id: 'r1',
    tool_call_id: `c-${id}`,
    tool_name: 'write_file',
    arguments_json: '{}',
    arguments_sha256: '',
    summary: `Create ${id}`,
    reason: 'needs your OK',
    risk: 'medium',
    policy_layer: 'tool_default',
    expires_at: 0,
  }) as unknown as ApprovalRequest;

const frame = () => new Promise((done) => setTimeout(done, 100));

afterEach(() => listeners.clear());

describe('the backend events, taken by long polling', () => {
  it('hands every event after the start to the transcript, the cards and their ends, in order', async () => {
    const ipc = await import('./ipc');
    history.length = 0;
    asked.length = 0;
    // Before the window listens: for list_run_events, not handed on.
    publish({ seq: 0, event: { type: 'log_status' } } as SequencedEvent);
    const runs: number[] = [];
    const cards: string[] = [];
    const ended: string[] = [];
    const offs = await Promise.all([
      ipc.onApprovalRequired((r) => cards.push(r.approval_id)),
      ipc.onApprovalResolved((e) => ended.push(e.approval_id)),
      ipc.onRunEvent((e) => runs.push(e.seq)),
    ]);
    const burst = [
      { seq: 1, event: { type: 'approval_required', ...request('a') } },
      { seq: 2, event: { type: 'approval_required', ...request('b') } },
      {
        seq: 3,
        event: {
          type: 'approval_resolved',
          approval_id: 'a',
          run_id: 'r1',
          tool_call_id: 'c-a',
          outcome: { kind: 'approved', scope: 'once', source: 'user' },
        },
      },
    ] as unknown as SequencedEvent[];
    publish(...burst);
    await frame();
    expect(runs).toEqual([1, 2, 3]);
    expect(cards).toEqual(['a', 'b']);
    expect(ended).toEqual(['a']);
    // One poller for the three listeners: where the history ended, then from each answer's
    // `next` on (two events an answer here).
    expect(asked.slice(0, 3)).toEqual([null, 1, 3]);
    publish({ seq: 4, event: { type: 'log_status' } } as SequencedEvent);
    await frame();
    expect(runs).toEqual([1, 2, 3, 4]);
    offs.forEach((off) => off());
    // Stopped: what comes after is not handed on.
    publish({ seq: 5, event: { type: 'log_status' } } as SequencedEvent);
    await frame();
    expect(runs).toEqual([1, 2, 3, 4]);
  });
});

describe('the backend events', () => {
  it('a run-events batch reaches the transcript whole and the cards and their ends, in order', async () => {
    const ipc = await import('./ipc');
    const runs: number[] = [];
    const cards: string[] = [];
    const ended: string[] = [];
    const offs = await Promise.all([
      ipc.onApprovalRequired((r) => cards.push(r.approval_id)),
      ipc.onApprovalResolved((e) => ended.push(e.approval_id)),
      ipc.onRunEvent((e) => runs.push(e.seq)),
    ]);
    const batch: SequencedEvent[] = [
      { seq: 0, event: { type: 'tool_call_proposed', run_id: 'r1', tool_call_id: 'c-a', tool_name: 'write_file', summary: 'x' } },
      { seq: 1, event: { type: 'approval_required', ...request('a') } },
      { seq: 2, event: { type: 'approval_required', ...request('b') } },
      {
        seq: 3,
        event: {
          type: 'approval_resolved',
          approval_id: 'a',
          run_id: 'r1',
          tool_call_id: 'c-a',
          outcome: { kind: 'approved', scope: 'once', source: 'user' },
        },
      },
    ] as unknown as SequencedEvent[];
    deliver('run-events', batch);
    await frame();
    expect(runs).toEqual([0, 1, 2, 3]);
    expect(cards).toEqual(['a', 'b']);
    expect(ended).toEqual(['a']);
    // The single events are still taken.
    deliver('approval-required', request('c'));
    deliver('run-event', { seq: 4, event: { type: 'log_status' } });
    await frame();
    expect(cards).toEqual(['a', 'b', 'c']);
    expect(runs).toEqual([0, 1, 2, 3, 4]);
    offs.forEach((off) => off());
    expect([...listeners.values()].flat()).toEqual([]);
  });

  it('hands a card on as the request, without the event tag', async () => {
    const ipc = await import('./ipc');
    const got: ApprovalRequest[] = [];
    await ipc.onApprovalRequired((r) => got.push(r));
    deliver('run-events', [{ seq: 0, event: { type: 'approval_required', ...request('a') } }]);
    await frame();
    expect(got).toEqual([request('a')]);
  });
});
