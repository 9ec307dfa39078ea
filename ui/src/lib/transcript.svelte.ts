// The transcript of runs, built from `run-event`s: the user's task, what the agent said, each
// tool call with its outcome, and how the run ended. Events are numbered by the backend; each
// is applied exactly once and in order, whether it comes live or from the history that a
// (re)loaded window fetches with list_run_events.

import { assertNever } from './assert';
import type { AgentEvent } from './bindings/AgentEvent';
import type { PolicyLayer } from './bindings/PolicyLayer';
import type { RunId } from './bindings/RunId';
import type { RunStatus } from './bindings/RunStatus';
import type { SequencedEvent } from './bindings/SequencedEvent';
import type { SessionId } from './bindings/SessionId';
import type { ToolCallStatus } from './bindings/ToolCallStatus';

/**
 * `queued`: proposed, not started (its turn has not come, or the policy is deciding);
 * `waiting`: a card waits for the person; `approved`: approved, runs when its turn comes;
 * `running`: running now; then how it ended.
 */
export type ToolCallState = ToolCallStatus | 'queued' | 'waiting' | 'approved' | 'running';

export type Entry =
  | { kind: 'task'; key: string; text: string; provider: string }
  | { kind: 'assistant'; key: string; text: string; runId: RunId; streaming: boolean }
  | {
      kind: 'tool';
      key: string;
      runId: RunId;
      toolCallId: string;
      toolName: string;
      summary: string;
      state: ToolCallState;
      output: string | null;
      /** Which policy layer decided, once known. */
      layer: PolicyLayer | null;
    }
  | {
      kind: 'finished';
      key: string;
      status: RunStatus;
      message: string | null;
      /** The technical side of a failure, for "Details" (absent: none). */
      detail?: string | null;
    };

/** A tool call's entry. */
export type ToolEntry = Extract<Entry, { kind: 'tool' }>;

// The entries are instances of these classes rather than plain objects: `entries` is deep
// state, and a plain object pushed into it becomes a proxy with a signal for each field read,
// while only a few fields ever change. A class instance is left as it is, with a signal for
// each field that changes (`$state`) and plain fields for the rest: the soak's conversation
// of 1,000 tool calls kept 4.4 kB per call as proxies and 2.4 kB as these, in V8 (node)
// (BENCHMARKS.md, "No growth: where the page's memory went").

class TaskEntry {
  readonly kind = 'task' as const;
  constructor(
    readonly key: string,
    readonly text: string,
    readonly provider: string,
  ) {}
}

class AssistantEntry {
  readonly kind = 'assistant' as const;
  text = $state('');
  streaming = $state(false);
  constructor(
    readonly key: string,
    readonly runId: RunId,
    text: string,
    streaming: boolean,
  ) {
    this.text = text;
    this.streaming = streaming;
  }
}

class ToolCallEntry {
  readonly kind = 'tool' as const;
  state = $state<ToolCallState>('queued');
  output = $state<string | null>(null);
  layer = $state<PolicyLayer | null>(null);
  constructor(
    readonly key: string,
    readonly runId: RunId,
    readonly toolCallId: string,
    readonly toolName: string,
    readonly summary: string,
  ) {}
}

class FinishedEntry {
  readonly kind = 'finished' as const;
  constructor(
    readonly key: string,
    readonly status: RunStatus,
    readonly message: string | null,
    readonly detail: string | null,
  ) {}
}

export class Transcript {
  entries = $state<Entry[]>([]);
  /** The run in progress, if any. */
  runId = $state<RunId | null>(null);
  /** idle before the first run; then the latest run's status. */
  status = $state<RunStatus | 'idle'>('idle');
  /** The session shown, once known (a `session_opened` or a run told it). */
  sessionId = $state<SessionId | null>(null);
  /** Its title, when it was reopened. */
  title = $state<string | null>(null);
  /**
   * What fails while the session log cannot be written (a full disk, a read-only folder); null
   * while it can. Approvals that cannot be recorded are refused meanwhile.
   */
  logProblem = $state<string | null>(null);
  #n = 0;
  /** The `seq` of the next event to apply. */
  #nextSeq = 0;
  /** Events that arrived ahead of a gap, by `seq`. */
  #early = new Map<number, AgentEvent>();
  /**
   * The latest entry of each tool call not yet finished (providers may reuse ids across
   * steps), by run and call id, so that an event about one call of 1,000 need not walk the
   * transcript.
   */
  #tools = new Map<string, ToolEntry>();

  /** Takes one numbered event (live or from history); duplicates are ignored. */
  receive(sequenced: SequencedEvent): void {
    if (sequenced.seq < this.#nextSeq) return;
    if (sequenced.event.type === 'session_opened' && sequenced.seq > this.#nextSeq) {
      // The backend keeps only the latest session's events (numbered on from the earlier
      // ones); this event clears the transcript anyway, so nothing before it is waited for.
      for (const seq of this.#early.keys()) if (seq < sequenced.seq) this.#early.delete(seq);
      this.#nextSeq = sequenced.seq;
    }
    this.#early.set(sequenced.seq, sequenced.event);
    for (let next = this.#early.get(this.#nextSeq); next; next = this.#early.get(this.#nextSeq)) {
      this.#early.delete(this.#nextSeq);
      this.#nextSeq++;
      try {
        this.apply(next);
      } catch (error) {
        // One event this window cannot show must not stop the ones after it.
        console.error('could not apply a run event', error);
      }
    }
  }

  /** Whether events are held back waiting for earlier ones (then fetch the history). */
  get hasGap(): boolean {
    return this.#early.size > 0;
  }

  #tool(runId: RunId, toolCallId: string) {
    return this.#tools.get(JSON.stringify([runId, toolCallId]));
  }

  apply(event: AgentEvent): void {
    switch (event.type) {
      case 'run_started':
        this.runId = event.run_id;
        this.sessionId = event.session_id;
        this.status = 'running';
        this.entries.push(new TaskEntry(`task:${++this.#n}`, event.task, event.provider));
        return;
      case 'assistant_delta': {
        const last = this.entries[this.entries.length - 1];
        if (last?.kind === 'assistant' && last.streaming && last.runId === event.run_id) {
          last.text += event.text;
        } else {
          this.entries.push(new AssistantEntry(`say:${++this.#n}`, event.run_id, event.text, true));
        }
        return;
      }
      case 'assistant_message': {
        // The whole text replaces what streamed in.
        const last = this.entries[this.entries.length - 1];
        if (last?.kind === 'assistant' && last.streaming && last.runId === event.run_id) {
          last.text = event.text;
          last.streaming = false;
        } else {
          this.entries.push(new AssistantEntry(`say:${++this.#n}`, event.run_id, event.text, false));
        }
        return;
      }
      case 'session_opened':
        this.entries = [];
        this.#tools.clear();
        this.runId = null;
        this.status = 'idle';
        this.sessionId = event.session_id;
        this.title = event.title ?? null;
        return;
      case 'tool_call_proposed': {
        const entry = new ToolCallEntry(
          `tool:${++this.#n}`,
          event.run_id,
          event.tool_call_id,
          event.tool_name,
          event.summary,
        );
        this.entries.push(entry);
        this.#tools.set(JSON.stringify([event.run_id, event.tool_call_id]), entry);
        return;
      }
      case 'approval_required': {
        const entry = this.#tool(event.run_id, event.tool_call_id);
        if (entry) entry.state = 'waiting';
        return;
      }
      case 'approval_resolved': {
        const entry = this.#tool(event.run_id, event.tool_call_id);
        if (entry && entry.state === 'waiting') {
          entry.state = event.outcome.kind === 'approved' ? 'approved' : 'queued';
        }
        return;
      }
      case 'approval_extended':
        // Only the card's countdown changes (AppState passes it to the approvals); the
        // transcript line still waits for the person.
        return;
      case 'tool_call_started': {
        const entry = this.#tool(event.run_id, event.tool_call_id);
        if (entry) entry.state = 'running';
        return;
      }
      case 'log_status':
        // Not reset by `session_opened`: it is about the disk, not about one session.
        this.logProblem = event.problem ?? null;
        return;
      case 'tool_call_finished': {
        const entry = this.#tool(event.run_id, event.tool_call_id);
        if (entry) {
          entry.state = event.status;
          entry.output = event.output;
          entry.layer = event.policy_layer ?? null;
          // Its last event: the map keeps only calls that can still change.
          this.#tools.delete(JSON.stringify([event.run_id, event.tool_call_id]));
        }
        return;
      }
      case 'run_finished':
        for (const [id, entry] of this.#tools) if (entry.runId === event.run_id) this.#tools.delete(id);
        if (this.runId === event.run_id) this.runId = null;
        this.status = event.status;
        this.entries.push(
          new FinishedEntry(`end:${++this.#n}`, event.status, event.message ?? null, event.detail ?? null),
        );
        return;
      default:
        // A new kind of event is a type error here rather than silently ignored.
        assertNever(event);
    }
  }
}
