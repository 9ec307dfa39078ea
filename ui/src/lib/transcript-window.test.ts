// The page holds the newest entries and the runs on screen; older finished runs are let go of
// (stand-ins with the same keys) and read back from the backend's history when they come into
// view (transcript.svelte.ts `view`, KEEP_ENTRIES).
import { describe, expect, it, vi } from 'vitest';
import { KEEP_ENTRIES, Transcript, type Entry } from './transcript.svelte';
import type { AgentEvent } from './bindings/AgentEvent';
import type { RunEventsPage } from './bindings/RunEventsPage';
import type { SequencedEvent } from './bindings/SequencedEvent';

/** The events of one run: its task, a message and `calls` tool calls approved and done. */
function runEvents(run: string, calls: number): AgentEvent[] {
  const out: AgentEvent[] = [
    { type: 'run_started', run_id: run, session_id: 's', task: `Task ${run}`, provider: 'test', resumed: false },
    { type: 'assistant_message', run_id: run, text: `Working on ${run}.` },
  ];
  for (let k = 0; k < calls; k++) {
    const call = `call_${k}`;
    out.push(
      {
        type: 'tool_call_proposed',
        run_id: run,
        tool_call_id: call,
        tool_name: 'write_file',
        arguments_json: '{}',
        summary: `Create ${run}-${k}.txt`,
      },
      { type: 'tool_call_started', run_id: run, tool_call_id: call },
      {
        type: 'tool_call_finished',
        run_id: run,
        tool_call_id: call,
        status: 'succeeded',
        output: `Wrote ${run}-${k}.txt`,
      },
    );
  }
  out.push({ type: 'run_finished', run_id: run, status: 'completed' });
  return out;
}

/** The backend's history: every event numbered, served 256 at a time from `next` on. */
class History {
  events: SequencedEvent[] = [];
  asked = 0;
  add(event: AgentEvent): SequencedEvent {
    const sequenced = { seq: this.events.length, event };
    this.events.push(sequenced);
    return sequenced;
  }
  source = async (next: number): Promise<RunEventsPage> => {
    this.asked++;
    const events = this.events.slice(next, next + 256);
    return { events, next: next + events.length };
  };
}

/** What an entry shows, whatever class it is. */
function shape(entry: Entry | undefined): unknown {
  return entry && JSON.parse(JSON.stringify({ ...entry, kind: entry.kind }));
}

/** A transcript fed `runs` runs of `calls` tool calls each (23 entries a run for 20 calls). */
function fed(runs: number, calls = 20) {
  const history = new History();
  const t = new Transcript();
  t.source = history.source;
  const reference = new Transcript();
  for (let r = 0; r < runs; r++) {
    for (const event of runEvents(`r${r}`, calls)) {
      const sequenced = history.add(event);
      t.receive(sequenced);
      reference.receive(sequenced);
    }
  }
  return { t, history, reference };
}

const settle = () => new Promise((done) => setTimeout(done, 0));

describe('a long conversation in the page', () => {
  it('lets go of the old finished runs, keeping the list length, keys and the newest entries', () => {
    const { t, reference } = fed(50);
    expect(t.entries).toHaveLength(50 * 23);
    expect(t.entries.map((e) => e.key)).toEqual(reference.entries.map((e) => e.key));
    const held = t.entries.filter((e) => e.kind !== 'unloaded');
    expect(held.length).toBeGreaterThanOrEqual(KEEP_ENTRIES);
    expect(held.length).toBeLessThan(KEEP_ENTRIES + 23);
    // The newest KEEP_ENTRIES are whole and the same as a transcript that keeps everything.
    const n = t.entries.length;
    for (let i = n - KEEP_ENTRIES; i < n; i++) expect(shape(t.entries[i])).toEqual(shape(reference.entries[i]));
    expect(t.entries[0]).toMatchObject({ kind: 'unloaded', runId: 'r0', failed: false });
  });

  it('holds everything without a source to read back from', () => {
    const history = new History();
    const t = new Transcript();
    for (let r = 0; r < 30; r++) for (const e of runEvents(`r${r}`, 20)) t.receive(history.add(e));
    expect(t.entries.some((e) => e.kind === 'unloaded')).toBe(false);
  });

  it('reads a run back when it comes into view, the same entries as they first came', async () => {
    const { t, history, reference } = fed(50);
    expect(t.entries[30]?.kind).toBe('unloaded');
    // The list drew entries 30 to 40 (run r1).
    t.view(30, 40);
    expect(history.asked).toBe(1);
    // Drawn again before the answer came: not asked twice.
    t.view(30, 41);
    await settle();
    for (let i = 23; i < 46; i++) expect(shape(t.entries[i])).toEqual(shape(reference.entries[i]));
    expect(history.asked).toBe(1);
    // Scrolled to the end again: r1 is let go of again, the page stays bounded.
    t.view(t.entries.length - 10, t.entries.length - 1);
    const held = t.entries.filter((e) => e.kind !== 'unloaded').length;
    expect(held).toBeLessThan(KEEP_ENTRIES + 23);
    expect(t.entries[30]?.kind).toBe('unloaded');
  });

  it('reads back a run of more events than one answer carries (256)', async () => {
    const { t, history, reference } = fed(8, 100);
    expect(t.entries[0]?.kind).toBe('unloaded');
    t.view(0, 5);
    await settle();
    await settle();
    for (let i = 0; i < 103; i++) expect(shape(t.entries[i])).toEqual(shape(reference.entries[i]));
    expect(history.asked).toBe(2);
  });

  it('reads at most three runs at once, and the rest of those on screen after them', async () => {
    const { t, history, reference } = fed(50);
    let inFlight = 0;
    let most = 0;
    t.source = async (next) => {
      most = Math.max(most, ++inFlight);
      await settle();
      inFlight--;
      return history.source(next);
    };
    // A tall view: runs r0 to r9 are drawn at once.
    t.view(0, 10 * 23 - 1);
    for (let k = 0; k < 20; k++) await settle();
    expect(most).toBe(3);
    for (let i = 0; i < 10 * 23; i++) expect(shape(t.entries[i])).toEqual(shape(reference.entries[i]));
  });

  it('reads back a run holding an event the page cannot show, as it was shown', async () => {
    const history = new History();
    const t = new Transcript();
    t.source = history.source;
    const reference = new Transcript();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (let r = 0; r < 20; r++) {
      const events = runEvents(`r${r}`, 20);
      events.splice(3, 0, { type: 'something_new', run_id: `r${r}` } as unknown as AgentEvent);
      for (const event of events) {
        const sequenced = history.add(event);
        t.receive(sequenced);
        reference.receive(sequenced);
      }
    }
    expect(t.entries[0]?.kind).toBe('unloaded');
    t.view(0, 5);
    await settle();
    for (let i = 0; i < 23; i++) expect(shape(t.entries[i])).toEqual(shape(reference.entries[i]));
    errors.mockRestore();
  });

  it('keeps the runs near the view held while newer runs come', async () => {
    const { t, history } = fed(20);
    t.view(0, 10);
    await settle();
    expect(t.entries[0]?.kind).toBe('task');
    // Ten more runs finish while the person reads the first one.
    for (let r = 20; r < 30; r++) for (const e of runEvents(`r${r}`, 20)) t.receive(history.add(e));
    expect(t.entries[0]?.kind).toBe('task');
    expect(t.entries[22]?.kind).toBe('finished');
  });

  it('never lets go of the run in progress, however long', () => {
    const history = new History();
    const t = new Transcript();
    t.source = history.source;
    const events = runEvents('long', 400);
    // All but its end: the run is still going.
    for (const e of events.slice(0, -1)) t.receive(history.add(e));
    t.view(t.entries.length - 5, t.entries.length - 1);
    expect(t.entries.some((e) => e.kind === 'unloaded')).toBe(false);
    expect(t.runId).toBe('long');
  });

  it('says so, and loses nothing, when the history cannot give the run back', async () => {
    const { t, history } = fed(30);
    const failing = vi.spyOn(console, 'error').mockImplementation(() => {});
    t.source = async () => {
      throw new Error('the spool could not be read');
    };
    t.view(0, 5);
    await settle();
    expect(t.entries[0]).toMatchObject({ kind: 'unloaded', failed: true });
    expect(t.entries).toHaveLength(30 * 23);
    // Asked again later (not at every frame), from a history that works again.
    t.source = history.source;
    t.view(0, 5);
    await settle();
    expect(t.entries[0]?.kind).toBe('unloaded');
    vi.useFakeTimers({ now: Date.now() + 6000 });
    t.view(0, 5);
    vi.useRealTimers();
    await settle();
    expect(t.entries[0]?.kind).toBe('task');
    failing.mockRestore();
  });

  it('does not take events of another session for the run asked for', async () => {
    const { t, history } = fed(30);
    // The backend moved on to another session: its history starts at that session_opened,
    // numbered after everything the page saw.
    const end = history.events.length;
    t.source = async () => ({
      events: [{ seq: end, event: { type: 'session_opened', session_id: 's2' } }],
      next: end + 1,
    });
    t.view(0, 5);
    await settle();
    expect(t.entries[0]).toMatchObject({ kind: 'unloaded', failed: true });
  });

  it('drops a read-back that ends after another session was opened', async () => {
    const { t, history } = fed(30);
    let answer: (page: RunEventsPage) => void = () => {};
    t.source = () => new Promise((done) => (answer = done));
    t.view(0, 5);
    t.receive(history.add({ type: 'session_opened', session_id: 's2' }));
    answer({ events: history.events.slice(0, 256), next: 256 });
    await settle();
    expect(t.entries).toHaveLength(0);
  });
});
