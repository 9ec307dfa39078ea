// The pending approval cards: one list, fed by the approval events and reconciled with
// list_pending_approvals on load and focus. A card leaves only when `approval-resolved` arrives
// for its id (or a reconcile proves it already ended) — never on the click itself.

import * as ipc from './ipc';
import { benchMark } from './bench';
import type { ApprovalRequest } from './bindings/ApprovalRequest';
import type { ApprovalResolvedEvent } from './bindings/ApprovalResolvedEvent';
import type { Decision } from './bindings/Decision';
import type { Outcome } from './bindings/Outcome';

export type CardPhase = 'waiting' | 'sending' | 'ended';

export interface Card {
  request: ApprovalRequest;
  phase: CardPhase;
  /** Shown on the card: an error, or the true final state after a NotPending answer. */
  notice: string | null;
  /** Order of arrival, for reconciling. */
  seq: number;
}

/** How long a card that had already ended stays to say so, in milliseconds. */
export const ENDED_NOTICE_MS = 4000;

/** Whether the person's own answer (or a grant they gave) ended the approval. */
function answeredByUser(outcome: Outcome): boolean {
  return outcome.kind !== 'cancelled' && outcome.source !== 'timeout' && outcome.source !== 'policy'
    && outcome.source !== 'unavailable';
}

/** What a card says when the request had ended before the person's answer arrived. */
export function endedNotice(outcome: Outcome): string {
  const unchanged = 'Your click changed nothing and the action did not run.';
  if (outcome.kind === 'cancelled') {
    return outcome.cause === 'app_shutdown'
      ? `Too late: Ask First was quitting, so this request was cancelled. ${unchanged}`
      : `Too late: the run was stopped, so this request was cancelled. ${unchanged}`;
  }
  if (outcome.kind === 'denied') {
    switch (outcome.source) {
      case 'timeout':
        return `Too late: this request had already timed out and was refused. ${unchanged}`;
      case 'unavailable':
        return `This request was refused because your answer could not be recorded. ${unchanged}`;
      case 'policy':
        return `This request was refused by your settings. ${unchanged}`;
      default:
        return `This request had already been refused. ${unchanged}`;
    }
  }
  return 'This request had already been allowed, so the action ran.';
}

export class Approvals {
  cards = $state<Card[]>([]);
  #resolved = new Set<string>();
  /** The ids in `cards`, so adding one of many waiting cards need not walk them all. */
  #shown = new Set<string>();
  #seq = 0;

  /** Adds a card unless it is already shown or already known to have ended. */
  add(request: ApprovalRequest): void {
    const id = request.approval_id;
    benchMark(id, 'received');
    if (this.#resolved.has(id) || this.#shown.has(id)) return;
    this.#shown.add(id);
    this.cards.push({ request, phase: 'waiting', notice: null, seq: ++this.#seq });
  }

  /** Keeps the cards for which `keep` holds. */
  #keep(keep: (card: Card) => boolean): void {
    this.cards = this.cards.filter(keep);
    this.#shown = new Set(this.cards.map((c) => c.request.approval_id));
  }

  /**
   * The approval ended (by anyone): its card goes. When it ended some other way while the
   * person's answer was on its way (a late click after the timeout, a Stop), the card first
   * says briefly how it really ended, so the click is never taken for a success.
   */
  resolved(event: ApprovalResolvedEvent): void {
    const id = event.approval_id;
    this.#resolved.add(id);
    if (!this.#shown.has(id)) return;
    const card = this.cards.find((c) => c.request.approval_id === id);
    const lateAnswer = card && (card.phase === 'ended' || card.phase === 'sending');
    if (card && lateAnswer && !answeredByUser(event.outcome)) {
      const waitingForAnswer = card.phase === 'sending';
      card.phase = 'ended';
      card.notice = endedNotice(event.outcome);
      if (waitingForAnswer) this.#removeLater(id);
      return;
    }
    this.#keep((c) => c.request.approval_id !== id);
  }

  #removeLater(id: string): void {
    setTimeout(() => this.#keep((c) => c.request.approval_id !== id), ENDED_NOTICE_MS);
  }

  /**
   * Brings the cards in line with the backend: adds what is waiting, and drops waiting cards
   * that were already shown before the list was asked for and are no longer in it (their
   * `approval-resolved` was missed, e.g. during a reload).
   */
  async reconcile(): Promise<void> {
    const before = this.#seq;
    const pending = await ipc.listPendingApprovals();
    const waiting = new Set(pending.map((r) => r.approval_id));
    this.#keep((c) => c.seq > before || c.phase === 'ended' || waiting.has(c.request.approval_id));
    for (const request of pending) this.add(request);
  }

  /** Sends the user's decision; the card shows "sending…" until the backend answers. */
  async decide(approvalId: string, decision: Decision): Promise<void> {
    const card = this.cards.find((c) => c.request.approval_id === approvalId);
    if (!card || card.phase !== 'waiting') return;
    benchMark(approvalId, 'clicked');
    card.phase = 'sending';
    card.notice = null;
    try {
      await ipc.resolveApproval(approvalId, decision);
      // The card leaves when approval-resolved arrives.
    } catch (error) {
      const current = this.cards.find((c) => c.request.approval_id === approvalId);
      if (!current) return;
      if (error instanceof ipc.IpcError && error.code === 'not_pending') {
        // approval-resolved may have come first and said exactly how it ended.
        if (current.phase === 'ended') return;
        current.phase = 'ended';
        current.notice =
          'This request had already ended (it timed out or the run was stopped). Your click changed nothing and the action did not run.';
        this.#resolved.add(approvalId);
        this.#removeLater(approvalId);
      } else {
        current.phase = 'waiting';
        current.notice = `Your answer could not be sent: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
  }

  /** Subscribes to the approval events; returns the function that unsubscribes. */
  async listen(): Promise<() => void> {
    const offs = await Promise.all([
      ipc.onApprovalRequired((r) => this.add(r)),
      ipc.onApprovalResolved((e) => this.resolved(e)),
    ]);
    return () => offs.forEach((off) => off());
  }
}
