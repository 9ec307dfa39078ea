// The pending approval cards: one list, fed by the approval events and reconciled with
// list_pending_approvals on load and focus. A card leaves only when `approval-resolved` arrives
// for its id (or a reconcile proves it already ended) — never on the click itself.

import { untrack } from 'svelte';
import * as ipc from './ipc';
import { assertNever } from './assert';
import { benchMark } from './bench';
import { afterNextPaint, NO_FRAME_MS } from './events';
import { clock } from './clock.svelte';
import { t } from './i18n/i18n.svelte';
import type { ApprovalId } from './bindings/ApprovalId';
import type { ApprovalRequest } from './bindings/ApprovalRequest';
import type { ApprovalResolvedEvent } from './bindings/ApprovalResolvedEvent';
import type { ApprovalSource } from './bindings/ApprovalSource';
import type { DenialSource } from './bindings/DenialSource';
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

/**
 * The most cards a burst adds to the list at once (one such group per frame), so that the
 * window paints the first ones early and answers the person between groups while the rest
 * come in. Not smaller: with many cards on the page each frame that changes the list costs
 * about 200 ms whatever it adds (BENCHMARKS.md, "1,000 approvals at once").
 */
export const CARDS_PER_FRAME = 100;

/**
 * How many ended approvals the list remembers, to keep a late announcement of one from
 * bringing its card back: more than the open approvals one listing can hold (the core asks at
 * most 64 per model turn; a burst test asks 1,000), few enough to stay small (~200 kB).
 */
export const ENDED_REMEMBERED = 4096;

/** Whether the person's own answer (or a grant they gave) ended the approval. */
function answeredByUser(outcome: Outcome): boolean {
  switch (outcome.kind) {
    case 'cancelled':
      return false;
    case 'approved':
      return approvedByUser(outcome.source);
    case 'denied':
      return deniedByUser(outcome.source);
    case 'changed':
      return true;
    default:
      return assertNever(outcome);
  }
}

function approvedByUser(source: ApprovalSource): boolean {
  switch (source) {
    case 'user':
    case 'grant':
      return true;
    default:
      return assertNever(source);
  }
}

function deniedByUser(source: DenialSource): boolean {
  switch (source) {
    case 'user':
      return true;
    case 'timeout':
    case 'policy':
    case 'unavailable':
      return false;
    default:
      return assertNever(source);
  }
}

/** What a card says when the request had ended before the person's answer arrived. */
export function endedNotice(outcome: Outcome): string {
  if (outcome.kind === 'cancelled') {
    return outcome.cause === 'app_shutdown'
      ? t('ended-quitting')
      : t('ended-run-stopped');
  }
  if (outcome.kind === 'denied') {
    const source = outcome.source;
    switch (source) {
      case 'timeout':
        return t('ended-timed-out');
      case 'unavailable':
        return t('ended-unavailable');
      case 'policy':
        return t('ended-policy');
      case 'user':
        return t('ended-refused');
      default:
        return assertNever(source);
    }
  }
  if (outcome.kind === 'changed') return t('ended-changed');
  return t('ended-allowed');
}

/** The tools whose waiting cards may be answered together when alike (see `alikeGroups`). */
const ANSWERED_TOGETHER = new Set(['write_file', 'edit_file', 'move_path']);

/**
 * The waiting cards that can be answered together: those of one run and one tool among
 * writes, edits and moves, none high risk, none of another agent, in groups of two or more (in
 * the list's order). Deletes, commands and other programs' tools are answered one by one.
 */
export function alikeGroups(cards: Card[]): Card[][] {
  const groups = new Map<string, Card[]>();
  for (const card of cards) {
    const r = card.request;
    if (card.phase !== 'waiting' || !ANSWERED_TOGETHER.has(r.tool_name) || r.risk === 'high') continue;
    if (isExternal(r)) continue;
    const key = `${r.run_id}\u0000${r.tool_name}`;
    const group = groups.get(key);
    if (group) group.push(card);
    else groups.set(key, [card]);
  }
  return [...groups.values()].filter((group) => group.length >= 2);
}

/** Whether `request` comes from another agent (through the inbox), not the person's own conversation. */
export function isExternal(request: ApprovalRequest): boolean {
  return request.detail?.kind === 'external';
}

export class Approvals {
  cards = $state<Card[]>([]);
  /**
   * How many of `cards` say how their request ended (they leave after ENDED_NOTICE_MS).
   * Counted when a card ends or leaves, so that answering one card of many does not make the
   * window walk them all (BENCHMARKS.md, "1,000 approvals at once").
   */
  endedCount = $state(0);
  /**
   * Approvals known to have ended, newest last, so that a late `approval-required` or listing of
   * one does not bring its card back. Only the last ENDED_REMEMBERED are kept: such a late
   * arrival follows its ending by at most one listing, and the set must not grow with every
   * approval a long session answers (BENCHMARKS.md, "No growth").
   */
  #resolved = new Set<ApprovalId>();
  /** The cards by approval id, so finding one of many waiting cards need not walk them all. */
  #byId = new Map<ApprovalId, Card>();
  #seq = 0;
  /**
   * Cards whose approval ended, to be removed together in the next task: a burst of
   * `approval-resolved` events (a Stop, or many answers at once) then costs the window one
   * update of the list instead of one per card (BENCHMARKS.md, "1,000 approvals at once").
   */
  #leaving = new Set<ApprovalId>();
  /**
   * Requests of a burst not yet in `cards`, in order of arrival: the first request of a burst
   * gets its card at once, the ones after it join `cards` CARDS_PER_FRAME at a time, one group
   * per frame, the first group once the frame with the first card has been painted.
   */
  #queue = new Map<ApprovalId, { request: ApprovalRequest; seq: number }>();
  /** How many requests wait in the queue, for the counts the window shows. */
  queuedCount = $state(0);
  /** The newest request in the queue (the last one in it), for what a screen reader is told. */
  #newestQueued = $state.raw<ApprovalRequest | undefined>(undefined);
  /** Whether a frame will add queued cards (until then, new requests queue up behind). */
  #frameDue = false;

  /** Approvals still open: waiting for the person (shown or about to be) or sending their answer. */
  get openCount(): number {
    return this.cards.length - this.endedCount + this.queuedCount;
  }

  /** The first card (top of the list) still waiting for an answer: where "Waiting for your OK" leads. */
  get firstWaiting(): Card | undefined {
    return this.cards.find((card) => card.phase === 'waiting');
  }

  /**
   * The request of the newest approval still waiting, whether its card is in the list or still
   * queued behind a burst: what the screen reader's announcement names, beside `openCount`
   * (which counts the queued ones too).
   */
  get newestWaitingRequest(): ApprovalRequest | undefined {
    return this.#newestQueued ?? this.newestWaiting?.request;
  }

  /**
   * The newest card still waiting for an answer: the last to arrive (the person's own cards
   * stand before other agents', so it is not always at the end of the list).
   */
  get newestWaiting(): Card | undefined {
    let newest: Card | undefined;
    for (const card of this.cards) {
      if (card.phase === 'waiting' && (!newest || card.seq > newest.seq)) newest = card;
    }
    return newest;
  }

  /**
   * Adds a card unless it is already shown or queued or already known to have ended. The card
   * is shown at once unless a burst is arriving; then it joins the list in a coming frame.
   */
  add(request: ApprovalRequest): void {
    const id = request.approval_id;
    benchMark(id, 'received');
    if (this.#byId.has(id) || this.#queue.has(id)) {
      // Listed again (a reconcile): it may have been given more time, or been said again in
      // another language, meanwhile.
      this.extended(id, request.expires_at);
      this.#reworded(request);
      return;
    }
    if (this.#resolved.has(id)) return;
    const seq = ++this.#seq;
    if (this.#frameDue) {
      this.#queue.set(id, { request, seq });
      this.#queueChanged(request);
      return;
    }
    this.#show(request, seq);
    this.#nextFrame();
  }

  /**
   * The approval got more time (`approval_extended`: the person answered another card of its
   * run while this one was running late): its countdown follows the later `expires_at`.
   */
  extended(approvalId: ApprovalId, expiresAt: number): void {
    const request = this.#byId.get(approvalId)?.request ?? this.#queue.get(approvalId)?.request;
    if (request && expiresAt > request.expires_at) {
      request.expires_at = expiresAt;
      // The shared clock ticks once a second: read the time now, so the countdown does not
      // show more than the whole timeout for a moment.
      clock.now = Date.now();
    }
  }

  /**
   * A card listed again after the person changed the language: the backend said it again
   * (`reword_pending`), so its words follow. Only the words: a listing with other arguments
   * than the card's is not taken (the call itself never changes while it waits).
   */
  #reworded(listed: ApprovalRequest): void {
    const id = listed.approval_id;
    const shown = this.#byId.get(id)?.request ?? this.#queue.get(id)?.request;
    if (!shown || shown.arguments_sha256 !== listed.arguments_sha256) return;
    if (shown.summary !== listed.summary) shown.summary = listed.summary;
    if (shown.reason !== listed.reason) shown.reason = listed.reason;
    if (JSON.stringify(shown.effects) !== JSON.stringify(listed.effects)) {
      shown.effects = listed.effects;
    }
    if (shown.grant_scope !== listed.grant_scope) shown.grant_scope = listed.grant_scope;
    if (JSON.stringify(shown.detail) !== JSON.stringify(listed.detail)) {
      shown.detail = listed.detail;
    }
  }

  /**
   * Shows a card: at the end of the list, except that a card of the person's own conversation
   * goes before every card of another agent (through the inbox), so a flood of another
   * agent's requests never pushes the person's own card out of view.
   */
  #show(request: ApprovalRequest, seq: number): void {
    const card: Card = { request, phase: 'waiting', notice: null, seq };
    const at = isExternal(request)
      ? -1
      : untrack(() => this.cards.findIndex((c) => isExternal(c.request)));
    const index = at < 0 ? untrack(() => this.cards.length) : at;
    if (at < 0) this.cards.push(card);
    else this.cards.splice(at, 0, card);
    // The state proxy of what was added, the object the window reads and changes.
    const shown = untrack(() => this.cards[index]);
    if (shown) this.#byId.set(request.approval_id, shown);
  }

  /**
   * The next group of queued cards joins the list once the frame that shows the last one has
   * been painted (not in that frame: the first card of a burst is painted alone, BENCHMARKS.md,
   * "The first card of a burst"); NO_FRAME_MS at most when the window draws no frames.
   */
  #nextFrame(): void {
    this.#frameDue = true;
    afterNextPaint(() => {
      this.#frameDue = false;
      if (this.#queue.size === 0) return;
      this.#showQueued(CARDS_PER_FRAME);
      this.#nextFrame();
    }, NO_FRAME_MS);
  }

  /** Moves up to `count` queued requests, oldest first, into the list. */
  #showQueued(count: number): void {
    for (const [id, { request, seq }] of this.#queue) {
      if (count-- <= 0) break;
      this.#queue.delete(id);
      this.#show(request, seq);
    }
    this.#queueChanged();
  }

  /**
   * After the queue changed: its count and its newest request follow. `added` is a request just
   * put at its end; otherwise requests left it, and its last one is looked for again only when
   * the one known left too (the walk is rare: a queued card that ended, or a reconcile).
   */
  #queueChanged(added?: ApprovalRequest): void {
    this.queuedCount = this.#queue.size;
    let newest = added ?? this.#newestQueued;
    if (newest && !this.#queue.has(newest.approval_id)) {
      newest = undefined;
      for (const { request } of this.#queue.values()) newest = request;
    }
    if (newest !== this.#newestQueued) this.#newestQueued = newest;
  }

  /**
   * Makes sure the card of `approvalId` is in the list now (the tray asked to show it), with
   * every card that arrived before it.
   */
  showNow(approvalId: ApprovalId): void {
    if (!this.#queue.has(approvalId)) return;
    let count = 0;
    for (const id of this.#queue.keys()) {
      count++;
      if (id === approvalId) break;
    }
    this.#showQueued(count);
  }

  #leaveSoon(id: ApprovalId): void {
    this.#leaving.add(id);
    if (this.#leaving.size === 1) setTimeout(() => this.#keep(() => true), 0);
  }

  /** Keeps the cards for which `keep` holds (and none that are leaving). */
  #keep(keep: (card: Card) => boolean): void {
    const leaving = this.#leaving;
    this.#leaving = new Set();
    untrack(() => {
      this.cards = this.cards.filter((c) => keep(c) && !leaving.has(c.request.approval_id));
      this.#byId = new Map(this.cards.map((c) => [c.request.approval_id, c]));
      this.#countEnded();
    });
  }

  #countEnded(): void {
    this.endedCount = untrack(() => this.cards.filter((c) => c.phase === 'ended').length);
  }

  /**
   * The approval ended (by anyone): its card goes (in the next task, with the others of a
   * burst). When it ended some other way while the person's answer was on its way (a late
   * click after the timeout, a Stop), the card first says briefly how it really ended, so the
   * click is never taken for a success.
   */
  resolved(event: ApprovalResolvedEvent): void {
    const id = event.approval_id;
    this.#ended(id);
    if (this.#queue.delete(id)) {
      this.#queueChanged();
      return;
    }
    const card = this.#byId.get(id);
    if (!card) return;
    const lateAnswer = card.phase === 'ended' || card.phase === 'sending';
    if (lateAnswer && !answeredByUser(event.outcome)) {
      const waitingForAnswer = card.phase === 'sending';
      card.phase = 'ended';
      card.notice = endedNotice(event.outcome);
      this.#countEnded();
      if (waitingForAnswer) this.#removeLater(id);
      return;
    }
    this.#leaveSoon(id);
  }

  /** Remembers that `id` ended, forgetting the oldest beyond ENDED_REMEMBERED. */
  #ended(id: ApprovalId): void {
    this.#resolved.delete(id);
    this.#resolved.add(id);
    if (this.#resolved.size > ENDED_REMEMBERED) {
      const oldest = this.#resolved.values().next().value;
      if (oldest !== undefined) this.#resolved.delete(oldest);
    }
  }

  /** How many ended approvals are remembered (for tests). */
  get endedRemembered(): number {
    return this.#resolved.size;
  }

  #removeLater(id: ApprovalId): void {
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
    for (const [id, { seq }] of this.#queue) {
      if (seq <= before && !waiting.has(id)) this.#queue.delete(id);
    }
    this.#queueChanged();
    for (const request of pending) this.add(request);
  }

  /** Sends the user's decision; the card shows "sending…" until the backend answers. */
  async decide(approvalId: ApprovalId, decision: Decision): Promise<void> {
    const card = this.#byId.get(approvalId);
    if (!card || card.phase !== 'waiting' || this.#leaving.has(approvalId)) return;
    benchMark(approvalId, 'clicked');
    card.phase = 'sending';
    card.notice = null;
    try {
      await ipc.resolveApproval(approvalId, decision);
      // The card leaves when approval-resolved arrives.
    } catch (error) {
      const current = this.#byId.get(approvalId);
      if (!current) return;
      if (error instanceof ipc.IpcError && error.code === 'not_pending') {
        // approval-resolved may have come first and said exactly how it ended.
        if (current.phase === 'ended') return;
        current.phase = 'ended';
        this.#countEnded();
        current.notice = t('ended-not-pending');
        this.#ended(approvalId);
        this.#removeLater(approvalId);
      } else {
        current.phase = 'waiting';
        current.notice = t('answer-not-sent', {
          reason: error instanceof Error ? error.message : String(error),
        });
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
