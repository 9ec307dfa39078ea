import { beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import type { ApprovalRequest } from './bindings/ApprovalRequest';

vi.mock('./ipc', () => {
  class IpcError extends Error {
    constructor(
      readonly code: string,
      message: string,
    ) {
      super(message);
    }
  }
  return {
    IpcError,
    resolveApproval: vi.fn(),
    listPendingApprovals: vi.fn(),
    onApprovalRequired: vi.fn(),
    onApprovalResolved: vi.fn(),
  };
});

import * as ipc from './ipc';
import {
  Approvals,
  CARDS_PER_FRAME,
  ENDED_NOTICE_MS,
  ENDED_REMEMBERED,
  endedNotice,
} from './approvals.svelte';

function request(id: string): ApprovalRequest {
  return {
    approval_id: id,
    run_id: 'run-1',
    tool_call_id: 'call_1',
    tool_name: 'write_file',
    arguments_json: '{"path":"hello.txt","content":"hi"}',
    arguments_sha256: '00',
    summary: 'Create the file hello.txt (1 line)',
    reason: 'needs your OK',
    risk: 'medium',
    policy_layer: 'tool_default',
    grant_scope: 'this exact call',
    expires_at: Date.now() + 120_000,
    resumed: false,
  };
}

/** The backend answers every click: the approval is not pending any more. */
const answerNotPending = () =>
  vi.mocked(ipc.resolveApproval).mockRejectedValue(
    new ipc.IpcError('not_pending', 'No pending approval A.'),
  );

/** Lets the tasks queued so far run (cards of ended approvals leave in the next task). */
const nextTask = () => new Promise((done) => setTimeout(done, 0));

/** Waits until the cards of a burst have joined the list (a few frames or fallback timers). */
const frames = () => new Promise((done) => setTimeout(done, 200));

const resolvedEvent = (id: string) => ({
  approval_id: id,
  run_id: 'run-1',
  tool_call_id: 'call_1',
  outcome: { kind: 'approved' as const, scope: 'once' as const, source: 'user' as const },
});

describe('approval cards', () => {
  beforeEach(() => vi.resetAllMocks());

  it("puts the person's own cards before another agent's, whenever they arrive", async () => {
    const a = new Approvals();
    const external = (id: string): ApprovalRequest => ({
      ...request(id),
      detail: { kind: 'external', agent: 'Claude Code', folder: '/home/ann/site' },
    });
    vi.mocked(ipc.listPendingApprovals).mockResolvedValue([
      external('X1'),
      external('X2'),
      request('A'),
      external('X3'),
      request('B'),
    ]);
    await a.reconcile();
    await frames();
    expect(a.cards.map((c) => c.request.approval_id)).toEqual(['A', 'B', 'X1', 'X2', 'X3']);
    // The newest is the last to arrive, wherever it stands.
    expect(a.newestWaiting?.request.approval_id).toBe('B');
    a.add(external('X4'));
    expect(a.newestWaiting?.request.approval_id).toBe('X4');
  });

  it('shows each approval once, however often it is announced or listed', async () => {
    const a = new Approvals();
    a.add(request('A'));
    a.add(request('A'));
    vi.mocked(ipc.listPendingApprovals).mockResolvedValue([request('A'), request('B')]);
    await a.reconcile();
    await a.reconcile();
    await frames();
    expect(a.cards.map((c) => c.request.approval_id)).toEqual(['A', 'B']);
  });

  it('takes the new words of a card listed again in another language, and only its words', async () => {
    const a = new Approvals();
    a.add(request('A'));
    a.add(request('B'));
    const inChinese: ApprovalRequest = {
      ...request('A'),
      summary: '创建文件 hello.txt（1 行）',
      reason: '这会更改你的工作区文件夹中的文件，所以需要你的同意。',
      effects: ['新的一句'],
      grant_scope: '这一次完全相同的操作',
    };
    // A listing of B with other arguments than its card's is not taken.
    const otherCall: ApprovalRequest = {
      ...request('B'),
      summary: '别的',
      arguments_sha256: '11',
      arguments_json: '{"path":"other.txt","content":"x"}',
    };
    vi.mocked(ipc.listPendingApprovals).mockResolvedValue([inChinese, otherCall]);
    await a.reconcile();
    await frames();
    const card = (id: string) => {
      const found = a.cards.find((c) => c.request.approval_id === id);
      if (!found) throw new Error(`no card ${id}`);
      return found;
    };
    const [cardA, cardB] = [card('A'), card('B')];
    expect(cardA.request.summary).toBe(inChinese.summary);
    expect(cardA.request.reason).toBe(inChinese.reason);
    expect(cardA.request.effects).toEqual(['新的一句']);
    expect(cardA.request.grant_scope).toBe(inChinese.grant_scope);
    expect(cardA.request.arguments_json).toBe(request('A').arguments_json);
    expect(cardA.phase).toBe('waiting');
    expect(cardB.request.summary).toBe(request('B').summary);
    expect(cardB.request.arguments_json).toBe(request('B').arguments_json);
  });

  it('remembers only the latest ended approvals, and still keeps a late one from coming back', () => {
    const a = new Approvals();
    for (let i = 0; i < ENDED_REMEMBERED + 50; i++) a.resolved(resolvedEvent(`E${i}`));
    expect(a.endedRemembered).toBe(ENDED_REMEMBERED);
    // A late announcement of one that ended recently is not shown again.
    a.add(request(`E${ENDED_REMEMBERED + 49}`));
    a.add(request(`E${50}`));
    expect(a.cards.length).toBe(0);
    // The oldest were forgotten (the backend would never list them again).
    a.add(request('E0'));
    expect(a.cards.map((c) => c.request.approval_id)).toEqual(['E0']);
  });

  it('names the newest waiting request while the rest of a burst is still queued', () => {
    vi.useFakeTimers();
    const a = new Approvals();
    const ids = Array.from({ length: 2 * CARDS_PER_FRAME + 5 }, (_, i) => `R${i}`);
    for (const id of ids) a.add(request(id));
    // One card is shown, every other one queued: the announcement names the last one asked.
    expect([a.cards.length, a.newestWaitingRequest?.approval_id]).toEqual([1, ids.at(-1)]);
    // The newest ended while queued: the one before it is the newest now.
    a.resolved({ ...resolvedEvent(ids.at(-1)!), outcome: { kind: 'cancelled', cause: 'run_aborted' } });
    expect(a.newestWaitingRequest?.approval_id).toBe(ids.at(-2));
    vi.advanceTimersByTime(17);
    expect(a.newestWaitingRequest?.approval_id).toBe(ids.at(-2));
    // Every card shown: the newest card's request.
    vi.advanceTimersByTime(200);
    expect([a.queuedCount, a.newestWaitingRequest?.approval_id]).toEqual([0, ids.at(-2)]);
    expect(a.newestWaitingRequest).toBe(a.newestWaiting?.request);
    vi.useRealTimers();
  });

  it('shows the first card of a burst at once and the rest a group per frame after it, in order', async () => {
    vi.useFakeTimers();
    const a = new Approvals();
    const ids = Array.from({ length: 2 * CARDS_PER_FRAME + 5 }, (_, i) => `R${i}`);
    for (const id of ids) a.add(request(id));
    expect([a.cards.length, a.openCount]).toEqual([1, ids.length]);
    // The frame that paints the first card has it alone; the first group comes after it.
    vi.advanceTimersByTime(16);
    expect(a.cards.length).toBe(1);
    vi.advanceTimersByTime(1);
    expect(a.cards.length).toBe(1 + CARDS_PER_FRAME);
    // Ended before its card was shown: it never appears, and is no longer counted.
    const gone = ids[CARDS_PER_FRAME + 10]!;
    a.resolved({ ...resolvedEvent(gone), outcome: { kind: 'cancelled', cause: 'run_aborted' } });
    expect(a.openCount).toBe(ids.length - 1);
    // The tray asks for a card still queued: it and every card before it are shown now.
    const wanted = ids[CARDS_PER_FRAME + 15]!;
    a.showNow(wanted);
    expect(a.cards.at(-1)?.request.approval_id).toBe(wanted);
    vi.advanceTimersByTime(200);
    expect(a.cards.map((c) => c.request.approval_id)).toEqual(ids.filter((id) => id !== gone));
    expect(a.openCount).toBe(ids.length - 1);
    // Once the burst is over, the next card is shown at once again.
    a.add(request('later'));
    expect(a.cards.at(-1)?.request.approval_id).toBe('later');
    vi.useRealTimers();
  });

  it('follows a later expiry, from the event or a list, and never an earlier one', async () => {
    const a = new Approvals();
    const asked = request('A');
    a.add(asked);
    const first = asked.expires_at;
    a.extended('A', first + 60_000);
    expect(a.cards[0]?.request.expires_at).toBe(first + 60_000);
    a.extended('A', first);
    expect(a.cards[0]?.request.expires_at).toBe(first + 60_000);
    vi.mocked(ipc.listPendingApprovals).mockResolvedValue([{ ...asked, expires_at: first + 90_000 }]);
    await a.reconcile();
    expect(a.cards.map((c) => c.request.expires_at)).toEqual([first + 90_000]);
  });

  it('drops queued cards that a list taken after them no longer has', async () => {
    const a = new Approvals();
    for (const id of ['A', 'B', 'C']) a.add(request(id));
    vi.mocked(ipc.listPendingApprovals).mockResolvedValue([request('A'), request('C')]);
    await a.reconcile();
    await frames();
    expect(a.cards.map((c) => c.request.approval_id)).toEqual(['A', 'C']);
  });

  it('keeps the card after the click, marked sending, until approval-resolved arrives', async () => {
    const a = new Approvals();
    a.add(request('A'));
    vi.mocked(ipc.resolveApproval).mockResolvedValue(resolvedEvent('A').outcome);
    const sent = a.decide('A', { kind: 'approve' });
    expect(a.cards[0]?.phase).toBe('sending');
    await sent;
    expect(a.cards).toHaveLength(1);
    // A second click while sending does nothing.
    await a.decide('A', { kind: 'approve' });
    expect(ipc.resolveApproval).toHaveBeenCalledTimes(1);
    a.resolved(resolvedEvent('A'));
    await nextTask();
    expect(a.cards).toHaveLength(0);
  });

  it('does not bring back a card whose resolution arrived before a stale list', async () => {
    const a = new Approvals();
    a.add(request('A'));
    a.resolved(resolvedEvent('A'));
    vi.mocked(ipc.listPendingApprovals).mockResolvedValue([request('A')]);
    await a.reconcile();
    a.add(request('A'));
    expect(a.cards).toHaveLength(0);
  });

  it('drops cards that ended while their event was missed', async () => {
    const a = new Approvals();
    a.add(request('A'));
    vi.mocked(ipc.listPendingApprovals).mockResolvedValue([]);
    await a.reconcile();
    expect(a.cards).toHaveLength(0);
  });

  it('tells the truth when the approval had already ended', async () => {
    vi.useFakeTimers();
    const a = new Approvals();
    a.add(request('A'));
    answerNotPending();
    await a.decide('A', { kind: 'approve' });
    expect(a.cards[0]?.phase).toBe('ended');
    expect(a.cards[0]?.notice).toMatch(/already ended/);
    expect(a.cards[0]?.notice).toMatch(/did not run/);
    vi.runAllTimers();
    expect(a.cards).toHaveLength(0);
    vi.useRealTimers();
  });

  it('lets the user try again when sending failed for another reason', async () => {
    const a = new Approvals();
    a.add(request('A'));
    vi.mocked(ipc.resolveApproval).mockRejectedValue(new ipc.IpcError('internal', 'boom'));
    await a.decide('A', { kind: 'deny' });
    expect(a.cards[0]?.phase).toBe('waiting');
    expect(a.cards[0]?.notice).toMatch(/could not be sent: boom/);
  });

  it('a click that arrives after the timeout shows how the request really ended', async () => {
    vi.useFakeTimers();
    const a = new Approvals();
    a.add(request('A'));
    // The click is on its way when the timeout's approval-resolved arrives.
    let answer: (e: unknown) => void = () => {};
    vi.mocked(ipc.resolveApproval).mockReturnValue(
      new Promise((_, reject) => (answer = reject)),
    );
    const sent = a.decide('A', { kind: 'approve' });
    a.resolved({
      ...resolvedEvent('A'),
      outcome: { kind: 'denied', source: 'timeout' },
    });
    expect(a.cards[0]?.phase).toBe('ended');
    expect(a.cards[0]?.notice).toMatch(/Too late: this request had already timed out/);
    expect(a.cards[0]?.notice).toMatch(/did not run/);
    answer(new ipc.IpcError('not_pending', 'No pending approval A.'));
    await sent;
    // The NotPending answer does not replace the exact reason.
    expect(a.cards[0]?.notice).toMatch(/^Too late: this request had already timed out/);
    vi.advanceTimersByTime(ENDED_NOTICE_MS);
    expect(a.cards).toHaveLength(0);
    vi.useRealTimers();
  });

  it('refines the notice when the event comes after a NotPending answer', async () => {
    vi.useFakeTimers();
    const a = new Approvals();
    a.add(request('A'));
    answerNotPending();
    await a.decide('A', { kind: 'approve' });
    a.resolved({ ...resolvedEvent('A'), outcome: { kind: 'cancelled', cause: 'run_aborted' } });
    expect(a.cards[0]?.notice).toMatch(/the run was stopped/);
    vi.advanceTimersByTime(ENDED_NOTICE_MS);
    expect(a.cards).toHaveLength(0);
    vi.useRealTimers();
  });

  it('counts open cards and finds the newest waiting one through every change', async () => {
    vi.useFakeTimers();
    const a = new Approvals();
    for (const id of ['A', 'B', 'C']) a.add(request(id));
    vi.advanceTimersByTime(50);
    expect([a.openCount, a.newestWaiting?.request.approval_id]).toEqual([3, 'C']);
    // Sending an answer keeps the card open but no longer waiting.
    vi.mocked(ipc.resolveApproval).mockReturnValue(new Promise(() => {}));
    void a.decide('C', { kind: 'approve' });
    expect([a.openCount, a.newestWaiting?.request.approval_id]).toEqual([3, 'B']);
    // C timed out while the answer was on its way: it says so, and is not open any more.
    a.resolved({ ...resolvedEvent('C'), outcome: { kind: 'denied', source: 'timeout' } });
    expect([a.cards.length, a.openCount]).toEqual([3, 2]);
    a.resolved(resolvedEvent('A'));
    vi.advanceTimersByTime(0);
    expect([a.cards.length, a.openCount, a.newestWaiting?.request.approval_id]).toEqual([2, 1, 'B']);
    vi.advanceTimersByTime(ENDED_NOTICE_MS);
    expect([a.cards.length, a.openCount]).toEqual([1, 1]);
    a.resolved(resolvedEvent('B'));
    vi.advanceTimersByTime(0);
    expect([a.cards.length, a.openCount, a.newestWaiting]).toEqual([0, 0, undefined]);
    // A card found by id after others left is the one the window shows.
    a.add(request('D'));
    vi.mocked(ipc.resolveApproval).mockResolvedValue({ kind: 'approved', scope: 'once', source: 'user' });
    await a.decide('D', { kind: 'deny' });
    expect(a.cards[0]?.phase).toBe('sending');
    vi.useRealTimers();
  });

  it('a card nobody clicked goes at once whatever ended it', async () => {
    const a = new Approvals();
    a.add(request('A'));
    a.resolved({ ...resolvedEvent('A'), outcome: { kind: 'denied', source: 'timeout' } });
    await nextTask();
    expect(a.cards).toHaveLength(0);
  });

  it('removes the cards of a burst of endings in one update, and no click answers them meanwhile', async () => {
    const a = new Approvals();
    for (const id of ['A', 'B', 'C', 'D']) a.add(request(id));
    await frames();
    let updates = 0;
    const cleanup = $effect.root(() => {
      $effect(() => {
        void a.cards;
        updates++;
      });
    });
    flushSync();
    updates = 0;
    // Each event comes in a task of its own, and the window updates after each.
    for (const id of ['A', 'C', 'D']) {
      a.resolved({ ...resolvedEvent(id), outcome: { kind: 'cancelled', cause: 'run_aborted' } });
      flushSync();
    }
    // Between the event and the removal, a click on a leaving card sends nothing.
    await a.decide('C', { kind: 'approve' });
    expect(ipc.resolveApproval).not.toHaveBeenCalled();
    await nextTask();
    flushSync();
    expect(a.cards.map((c) => c.request.approval_id)).toEqual(['B']);
    expect(updates).toBe(1);
    cleanup();
  });

  it('says the truth for every way a request can end', () => {
    expect(endedNotice({ kind: 'cancelled', cause: 'app_shutdown' })).toMatch(/quitting/);
    expect(endedNotice({ kind: 'denied', source: 'unavailable' })).toMatch(/could not be recorded/);
    expect(endedNotice({ kind: 'denied', source: 'policy' })).toMatch(/your settings/);
    expect(endedNotice({ kind: 'approved', scope: 'session', source: 'grant' })).toMatch(/ran/);
  });
});
