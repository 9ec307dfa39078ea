// The window's state, one controller: the approval cards, the transcript, the session's grants
// and policy, and whether the settings file can be used; and the one wiring that feeds them
// from the backend. App.svelte lays it out; the panels read it and call back into it.
//
// The wiring (`connect`) listens first, then reconciles with what is already waiting and
// catches up on the history, so nothing emitted in between is lost; the window's focus
// reconciles again (events missed while it was hidden or reloading).

import * as ipc from './ipc';
import { Approvals } from './approvals.svelte';
import { Transcript } from './transcript.svelte';
import { focusCard } from './approvals/focus';
import type { ApprovalId } from './bindings/ApprovalId';
import type { Grant } from './bindings/Grant';
import type { SequencedEvent } from './bindings/SequencedEvent';
import { onLanguageChange, setLanguage } from './i18n/i18n.svelte';

/** Where the wiring shows a card the person picked in the tray (tests give their own). */
export interface AppPage {
  /** Scrolls to and focuses the card of `approvalId` once it is drawn. */
  focusCard: (approvalId: ApprovalId) => void;
}

const page: AppPage = {
  focusCard: (id) => requestAnimationFrame(() => focusCard(id)),
};

export class AppState {
  readonly approvals = new Approvals();
  readonly transcript = new Transcript();
  /** What "Allow for this session" allowed in this session. */
  grants = $state<Grant[]>([]);
  /** The session policy is `never`: whatever needs an OK is refused without asking. */
  refuseAll = $state(false);
  /** Why the settings file cannot be used (the app runs with the defaults), or null. */
  settingsError = $state<string | null>(null);
  #page: AppPage;

  constructor(page_: AppPage = page) {
    this.#page = page_;
    // The conversation's old runs are let go of and read back from the backend's history.
    this.transcript.source = (next) => ipc.runEventsFrom(next);
  }

  /** Whether a run is going on. */
  get running(): boolean {
    return this.transcript.runId !== null;
  }

  /** Reads the grants again (after a session switch, a session-wide approval, a focus). */
  refreshGrants(): void {
    ipc
      .listGrants()
      .then((list) => (this.grants = list))
      .catch((e) => console.error('could not list grants', e));
  }

  /** Stops allowing `grant`, then reads the grants again. */
  async revoke(grant: Grant): Promise<void> {
    await ipc.revokeGrant(grant);
    this.refreshGrants();
  }

  /** Sets the session policy to `never` (`wanted`) or `ask`; shows what the backend kept. */
  async setRefuseAll(wanted: boolean): Promise<void> {
    try {
      this.refuseAll = (await ipc.setSessionPolicy(wanted ? 'never' : 'ask')) === 'never';
    } catch (e) {
      console.error('could not change the session policy', e);
      this.refuseAll = !wanted;
    }
  }

  /** Asks whether the settings file has a mistake (after Settings closes, and at start). */
  checkSettings(): void {
    ipc
      .getSettings()
      .then((v) => {
        this.settingsError = v.settings_error ?? null;
        setLanguage(v.effective_language);
      })
      .catch(() => {});
  }

  /** One numbered event from the backend's stream: the transcript, and what follows from it. */
  receive(e: SequencedEvent): void {
    this.transcript.receive(e);
    if (e.event.type === 'approval_resolved' && e.event.outcome.kind === 'approved') {
      if (e.event.outcome.scope === 'session') this.refreshGrants();
    }
    if (e.event.type === 'approval_extended') {
      this.approvals.extended(e.event.approval_id, e.event.expires_at);
    }
    // Another session's events: what ended in the one before may not have been said (the
    // backend keeps only the latest session's events), so the cards are listed again.
    if (e.event.type === 'session_opened') this.#reconcile();
    if (this.transcript.hasGap) this.#catchUp();
  }

  #catchUp(): void {
    ipc
      .listRunEvents()
      .then((events) => events.forEach((e) => this.transcript.receive(e)))
      .catch((e) => console.error('could not load the transcript', e));
  }

  #reconcile(): void {
    this.approvals
      .reconcile()
      .catch((e) => console.error('could not list pending approvals', e));
  }

  /**
   * Feeds this state from the backend until the returned function is called (use it as an
   * `$effect`): listens, then reconciles the cards, catches up on the transcript and reads the
   * grants and the session policy; reconciles and reads the grants again whenever the window
   * gets the focus.
   */
  connect(): () => void {
    let disposed = false;
    const offs: (() => void)[] = [];
    (async () => {
      // Listen first, then ask what is already waiting, so nothing emitted in between is lost.
      const offApprovals = await this.approvals.listen();
      const offFocus = await ipc.onFocusApproval((id) => {
        this.approvals.showNow(id);
        this.#reconcile();
        this.#page.focusCard(id);
      });
      const offRun = await ipc.onRunEvent((e) => this.receive(e));
      if (disposed) {
        // Disconnected while listening: nothing is to stay subscribed.
        [offApprovals, offFocus, offRun].forEach((off) => off());
        return;
      }
      // The backend says waiting cards again in a new language (`save_settings`): read them.
      const offLanguage = onLanguageChange(() => this.#reconcile());
      offs.push(offApprovals, offFocus, offRun, offLanguage);
      this.#catchUp();
      this.#reconcile();
      this.refreshGrants();
      ipc
        .getSessionPolicy()
        .then((p) => (this.refuseAll = p === 'never'))
        .catch((e) => console.error('could not read the session policy', e));
    })();
    const onFocus = () => {
      this.#reconcile();
      this.refreshGrants();
    };
    window.addEventListener('focus', onFocus);
    return () => {
      disposed = true;
      window.removeEventListener('focus', onFocus);
      offs.forEach((off) => off());
    };
  }
}
