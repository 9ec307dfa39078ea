// The transcript of runs, built from `run-event`s: the user's task, what the agent said, each
// tool call with its outcome, and how the run ended. Events are numbered by the backend; each
// is applied exactly once and in order, whether it comes live or from the history that a
// (re)loaded window fetches with list_run_events.
//
// The page holds the newest entries (KEEP_ENTRIES) and the runs on screen; the entries of an
// older finished run are let go (each becomes an `unloaded` stand-in with the same key, so the
// list keeps its length, keys and heights) and read back from the backend's history when they
// are scrolled to again: the page's memory then stays bounded however long the conversation
// (BENCHMARKS.md, "No growth: a page that lets old runs go").

import { assertNever } from './assert';
import type { AgentEvent } from './bindings/AgentEvent';
import type { PolicyLayer } from './bindings/PolicyLayer';
import type { RetryReason } from './bindings/RetryReason';
import type { RunEventsPage } from './bindings/RunEventsPage';
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
  | { kind: 'task'; key: string; text: string; provider: string; runId?: RunId; resumed?: boolean }
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
      /** The person changed the call on its card: what was asked and what it became. */
      changed: ChangedCall | null;
    }
  | {
      kind: 'finished';
      key: string;
      status: RunStatus;
      message: string | null;
      /** The technical side of a failure, for "Details" (absent: none). */
      detail?: string | null;
      runId?: RunId;
    }
  | {
      /** An entry of a finished run the page let go of; it is read back when in view. */
      kind: 'unloaded';
      key: string;
      runId: RunId;
      /** Reading it back failed (it is tried again when it comes into view later). */
      failed: boolean;
    };

/** A tool call's entry. */
export type ToolEntry = Extract<Entry, { kind: 'tool' }>;

/**
 * How many of the newest entries the page always holds. Older entries are held while their run
 * is on screen (or within VIEW_SLACK entries of it) and let go otherwise, a whole finished run
 * at a time. 300 entries is about 13 runs of 20 tool calls; the list draws every entry up to
 * 300 (TranscriptView `DRAW_ALL_UP_TO`), so a conversation drawn whole is never let go of.
 */
export const KEEP_ENTRIES = 300;
/** How many entries above and below the drawn ones keep their run held. */
const VIEW_SLACK = 50;
/** After reading a run back failed, how long before it is asked for again, in ms. */
const RETRY_AFTER_MS = 5000;
/**
 * How many runs are read back at once: a fling through a long conversation draws many runs on
 * its way; the ones still on screen when a read ends are read next.
 */
const MAX_READS = 3;

/**
 * Reads the backend's numbered events from `next` on: at once when there are any, at most 256
 * (`wait_run_events`); after another session was opened, that session's events instead.
 */
export type EventSource = (next: number) => Promise<RunEventsPage>;

/** One run's place in the transcript, so that its entries can be let go and read back. */
interface RunSpan {
  readonly runId: RunId;
  /** The index of its task entry. */
  readonly start: number;
  /** The index after its last entry (how it ended); null while it runs. */
  end: number | null;
  /** The numbers of its `run_started` and `run_finished` events (null: not known). */
  readonly fromSeq: number | null;
  toSeq: number | null;
  /** The entry counter before its first entry: replaying its events gives the same keys. */
  readonly firstKey: number;
  /** Whether its entries are in the page, let go of, or being read back. */
  held: 'yes' | 'no' | 'loading';
  /** When reading it back last failed (ms since the epoch; 0: it did not). */
  failedAt: number;
}

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
    readonly runId: RunId,
    /** The run goes on with a task Ask First was closed in the middle of. */
    readonly resumed: boolean = false,
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

/** A call the person changed on its card: the arguments the assistant asked for, and theirs. */
export interface ChangedCall {
  asked: string;
  changedTo: string;
  /** Whether the changed call was asked about on a card of its own. */
  askedAgain: boolean;
}

class ToolCallEntry {
  readonly kind = 'tool' as const;
  state = $state<ToolCallState>('queued');
  output = $state<string | null>(null);
  layer = $state<PolicyLayer | null>(null);
  summary = $state('');
  changed = $state<ChangedCall | null>(null);
  constructor(
    readonly key: string,
    readonly runId: RunId,
    readonly toolCallId: string,
    readonly toolName: string,
    summary: string,
  ) {
    this.summary = summary;
  }
}

class FinishedEntry {
  readonly kind = 'finished' as const;
  constructor(
    readonly key: string,
    readonly status: RunStatus,
    readonly message: string | null,
    readonly detail: string | null,
    readonly runId: RunId,
  ) {}
}

/** What stands for an entry the page let go of: its key (and so its height) and its run. */
class UnloadedEntry {
  readonly kind = 'unloaded' as const;
  constructor(
    readonly key: string,
    readonly runId: RunId,
    readonly failed: boolean,
  ) {}
}

/** The model service did not answer and the request waits to be sent again (`model_retrying`). */
export interface ModelRetry {
  runId: RunId;
  reason: RetryReason;
  /** When it is tried again, Unix milliseconds. */
  retryAt: number;
  /** Which try comes next, of `tries`. */
  nextTry: number;
  tries: number;
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
  /**
   * While the run in progress waits to ask the model service again (it was busy, failed or
   * could not be reached): why, and when it is tried again. Gone with the run's next event.
   */
  retry = $state<ModelRetry | null>(null);
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
  /**
   * Where the page reads back the entries it let go of; without one (tests, a bare
   * transcript) every entry is held.
   */
  source: EventSource | null = null;
  /** The runs in order, for letting go of the old ones and reading them back. */
  #runs: RunSpan[] = [];
  /** The entries drawn, first and last index (none: first is Infinity). */
  #view = { first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY };
  /** Bumped when a session is opened: a read of the earlier session's run is dropped. */
  #generation = 0;
  /** The number of the event being applied (null: one applied without a number). */
  #applying: number | null = null;
  /** How many runs are being read back now. */
  #reading = 0;

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
      this.#applying = this.#nextSeq++;
      try {
        this.apply(next);
      } catch (error) {
        // One event this window cannot show must not stop the ones after it.
        console.error('could not apply a run event', error);
      } finally {
        this.#applying = null;
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
    // The retry's wait is over once anything else happens in its run (or another session).
    if (this.retry && event.type !== 'model_retrying') {
      if (event.type === 'session_opened' || ('run_id' in event && event.run_id === this.retry.runId)) {
        this.retry = null;
      }
    }
    switch (event.type) {
      case 'model_retrying':
        if (event.run_id === this.runId) {
          this.retry = {
            runId: event.run_id,
            reason: event.reason,
            retryAt: event.retry_at,
            nextTry: event.next_try,
            tries: event.tries,
          };
        }
        return;
      case 'run_started':
        this.runId = event.run_id;
        this.sessionId = event.session_id;
        this.status = 'running';
        this.#runs.push({
          runId: event.run_id,
          start: this.entries.length,
          end: null,
          fromSeq: this.#applying,
          toSeq: null,
          firstKey: this.#n,
          held: 'yes',
          failedAt: 0,
        });
        this.entries.push(
          new TaskEntry(
            `task:${++this.#n}`,
            event.task,
            event.provider,
            event.run_id,
            event.resumed === true,
          ),
        );
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
        this.#runs = [];
        this.#generation++;
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
      case 'tool_call_changed': {
        // The person changed the call on its card: the line now says what the changed call
        // does, and keeps what was asked for its details.
        const entry = this.#tool(event.run_id, event.tool_call_id);
        if (entry) {
          entry.summary = event.summary;
          entry.state = 'queued';
          entry.changed = {
            asked: event.asked_arguments_json,
            changedTo: event.arguments_json,
            askedAgain: false,
          };
        }
        return;
      }
      case 'approval_required': {
        const entry = this.#tool(event.run_id, event.tool_call_id);
        if (entry) {
          entry.state = 'waiting';
          if (entry.changed) entry.changed.askedAgain = true;
        }
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
          new FinishedEntry(
            `end:${++this.#n}`,
            event.status,
            event.message ?? null,
            event.detail ?? null,
            event.run_id,
          ),
        );
        for (let i = this.#runs.length - 1; i >= 0; i--) {
          const span = this.#runs[i];
          if (span?.runId !== event.run_id || span.end !== null) continue;
          span.end = this.entries.length;
          span.toSeq = this.#applying;
          break;
        }
        this.#trim();
        return;
      default:
        // A new kind of event is a type error here rather than silently ignored.
        assertNever(event);
    }
  }

  /**
   * The list drew the entries from index `first` to `last` (none: `first` > `last`): the runs
   * among them that were let go of are read back, and the held runs far from them and from the
   * newest entries are let go.
   */
  view(first: number, last: number): void {
    this.#view = first > last ? { first: Number.POSITIVE_INFINITY, last: -1 } : { first, last };
    const now = Date.now();
    for (const span of this.#runs) {
      if (span.start > last) break;
      if (span.end === null || span.end <= first) continue;
      if (span.held !== 'no' || now - span.failedAt < RETRY_AFTER_MS) continue;
      if (this.#reading >= MAX_READS) break;
      void this.#readBack(span);
    }
    this.#trim();
  }

  /** Lets go of the finished runs older than the newest KEEP_ENTRIES and away from the view. */
  #trim(): void {
    if (!this.source) return;
    const keepFrom = this.entries.length - KEEP_ENTRIES;
    const { first, last } = this.#view;
    for (const span of this.#runs) {
      if (span.start >= keepFrom) break;
      if (span.end === null || span.end > keepFrom || span.held !== 'yes') continue;
      if (span.fromSeq === null || span.toSeq === null) continue;
      if (span.end > first - VIEW_SLACK && span.start <= last + VIEW_SLACK) continue;
      this.#letGo(span);
    }
  }

  /** Puts stand-ins in place of a finished run's entries, if they are all its own. */
  #letGo(span: RunSpan): void {
    const end = span.end ?? span.start;
    for (let i = span.start; i < end; i++) {
      const entry = this.entries[i];
      if (!entry || !('runId' in entry) || entry.runId !== span.runId) return;
    }
    for (let i = span.start; i < end; i++) {
      const entry = this.entries[i];
      if (entry) this.entries[i] = new UnloadedEntry(entry.key, span.runId, false);
    }
    span.held = 'no';
  }

  /**
   * Reads a run's events back from the backend and replays them into its entries. They take
   * the stand-ins' places only if they are the same entries (the same keys, in order): what
   * the backend gave is then that run. Otherwise (another session, an unreadable history) the
   * stand-ins say that this part could not be shown, and it is asked for again later.
   */
  async #readBack(span: RunSpan): Promise<void> {
    const source = this.source;
    const { fromSeq, toSeq, end } = span;
    if (!source || fromSeq === null || toSeq === null || end === null) return;
    span.held = 'loading';
    const generation = this.#generation;
    this.#reading++;
    try {
      await this.#readInto(span, source, generation);
    } finally {
      this.#reading--;
    }
    // The runs on screen that waited for a free read (a still view calls `view` no more).
    if (generation === this.#generation) this.view(this.#view.first, this.#view.last);
  }

  /** `#readBack`'s work: reads the run's events and puts its entries (or failed stand-ins) back. */
  async #readInto(span: RunSpan, source: EventSource, generation: number): Promise<void> {
    const { fromSeq, toSeq, end } = span;
    if (fromSeq === null || toSeq === null || end === null) return;
    let entries: Entry[] | null = null;
    try {
      const events: SequencedEvent[] = [];
      for (let next = fromSeq; next <= toSeq; ) {
        const page = await source(next);
        if (generation !== this.#generation) return;
        // Not the events asked for (the history moved on to another session): stop there.
        if (page.events[0]?.seq !== next || page.next <= next) break;
        for (const sequenced of page.events) if (sequenced.seq <= toSeq) events.push(sequenced);
        next = page.next;
      }
      entries = Transcript.#replay(events, span);
    } catch (error) {
      console.error('could not read back an earlier part of the conversation', error);
    }
    if (generation !== this.#generation || span.held !== 'loading') return;
    const fits =
      entries !== null &&
      entries.length === end - span.start &&
      entries.every((entry, i) => entry.key === this.entries[span.start + i]?.key);
    for (let i = span.start; i < end; i++) {
      const entry = this.entries[i];
      if (!entry) continue;
      this.entries[i] = fits ? (entries?.[i - span.start] ?? entry) : new UnloadedEntry(entry.key, span.runId, true);
    }
    span.held = fits ? 'yes' : 'no';
    span.failedAt = fits ? 0 : Date.now();
    if (fits) this.#trim();
  }

  /** The entries that a run's events make, keyed as when they first came (null: not that run). */
  static #replay(events: readonly SequencedEvent[], span: RunSpan): Entry[] | null {
    const first = events[0]?.event;
    const last = events[events.length - 1];
    if (first?.type !== 'run_started' || first.run_id !== span.runId) return null;
    if (last?.seq !== span.toSeq || last.event.type !== 'run_finished') return null;
    const replay = new Transcript();
    replay.#n = span.firstKey;
    for (const sequenced of events) {
      try {
        replay.apply(sequenced.event);
      } catch (error) {
        // As when it first came (`receive`): one event the page cannot show does not stop
        // the ones after it, so the run is read back as it was shown.
        console.error('could not apply a run event', error);
      }
    }
    return [...replay.entries];
  }
}
