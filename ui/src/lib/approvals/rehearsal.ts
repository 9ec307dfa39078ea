// The first approval card a page ever draws costs it far more than the ones after it. Timed
// inside the page on the benchmark machine, the update that drew the first card took
// 130–210 ms: ~45 ms running the list's and the card's code for the first time and 65–140 ms
// the first style resolution and layout of the card's elements; the same update for a card
// drawn after another took ~15 ms (BENCHMARKS.md, "The first card of a burst"). That first
// card is the one a person waits for right after starting a task. So once the window has
// painted its first frame, it draws a list of one sample card and a sample transcript line, off
// screen and invisible, lays them out and takes them away again, all in one task: the page is never
// painted with them, a screen reader never sees them (hidden, inert) and no script (the tests)
// can find them, but the code, the style engine and the layout engine have been through them.

import { flushSync, mount, unmount } from 'svelte';
import Rehearsal from './Rehearsal.svelte';
import { CARD_SELECTOR } from './focus';
import { Approvals } from '../approvals.svelte';
import type { ApprovalRequest } from '../bindings/ApprovalRequest';
import type { ToolEntry } from '../transcript.svelte';

/** A request of the usual kind (a new file: a diff, the exact arguments) with every part shown. */
export function sampleRequest(): ApprovalRequest {
  return {
    approval_id: 'rehearsal',
    run_id: 'rehearsal',
    tool_call_id: 'rehearsal',
    tool_name: 'write_file',
    arguments_json: '{"path":"a.txt","content":"x\\n","n":1}',
    arguments_sha256: '',
    summary: 'a.txt',
    reason: 'a.txt',
    risk: 'medium',
    policy_layer: 'tool_default',
    preview: '--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x\n',
    effects: ['a.txt'],
    detail: { kind: 'command', line: 'a.txt', working_folder: '/' },
    grant_scope: 'a.txt',
    expires_at: Date.now() + 60_000,
    resumed: false,
  };
}

/** A tool call's line in the transcript. */
export function sampleEntry(): ToolEntry {
  return {
    kind: 'tool',
    key: 'rehearsal',
    runId: 'rehearsal',
    toolCallId: 'rehearsal',
    toolName: 'write_file',
    summary: 'a.txt',
    state: 'waiting',
    output: null,
    layer: null,
    changed: null,
  };
}

/**
 * Draws the sample card and line in `doc`, lays them out and removes them, synchronously.
 * Does nothing when a card is already drawn (its code and styles are warm then).
 */
export function rehearse(doc: Document = document): void {
  if (doc.querySelector(CARD_SELECTOR)) return;
  const host = doc.createElement('div');
  host.className = 'rehearsal';
  host.setAttribute('aria-hidden', 'true');
  host.inert = true;
  doc.body.append(host);
  // A list of its own (the window's list is not touched), the same components as the window's.
  const approvals = new Approvals();
  approvals.add(sampleRequest());
  const shown = mount(Rehearsal, { target: host, props: { approvals, entry: sampleEntry() } });
  try {
    // The list's and the card's effects (arming, the countdown's clock, the list's measuring),
    // then their style and layout.
    flushSync();
    void host.getBoundingClientRect();
  } finally {
    void unmount(shown);
    host.remove();
  }
}

/** Rehearses once the window has painted its first frame (so the start is not delayed by it). */
export function rehearseAfterFirstPaint(): void {
  requestAnimationFrame(() => setTimeout(() => rehearse(), 0));
}
