import { describe, expect, it, vi } from 'vitest';
import { Transcript } from './transcript.svelte';
import type { AgentEvent } from './bindings/AgentEvent';

const events: AgentEvent[] = [
  { type: 'run_started', run_id: 'r', session_id: 's', task: 'Say hello', provider: 'test', resumed: false },
  { type: 'assistant_message', run_id: 'r', text: 'I will write hello.txt.' },
  {
    type: 'tool_call_proposed',
    run_id: 'r',
    tool_call_id: 'call_1',
    tool_name: 'write_file',
    arguments_json: '{}',
    summary: 'Create the file hello.txt (1 line)',
  },
  {
    type: 'tool_call_finished',
    run_id: 'r',
    tool_call_id: 'call_1',
    status: 'denied',
    output: 'The user denied this action.',
  },
  { type: 'run_finished', run_id: 'r', status: 'completed' },
];

describe('transcript', () => {
  it('applies each numbered event once, in order, live or from history', () => {
    const t = new Transcript();
    // A live event arrives before the history is loaded…
    t.receive({ seq: 3, event: events[3]! });
    expect(t.entries).toHaveLength(0);
    expect(t.hasGap).toBe(true);
    // …then the history, which also contains it.
    events.forEach((event, seq) => t.receive({ seq, event }));
    t.receive({ seq: 4, event: events[4]! });
    expect(t.hasGap).toBe(false);
    expect(t.entries.map((e) => e.kind)).toEqual(['task', 'assistant', 'tool', 'finished']);
    const tool = t.entries[2];
    expect(tool?.kind === 'tool' && tool.state).toBe('denied');
    expect(t.status).toBe('completed');
    expect(t.runId).toBeNull();
  });
});

describe('streaming and sessions', () => {
  it('grows one bubble from deltas and settles it with the whole message', () => {
    const t = new Transcript();
    const seq = (() => {
      let n = 0;
      return (event: AgentEvent) => t.receive({ seq: n++, event });
    })();
    seq(events[0]!);
    seq({ type: 'assistant_delta', run_id: 'r', text: 'Hel' });
    seq({ type: 'assistant_delta', run_id: 'r', text: 'lo' });
    expect(t.entries[1]).toMatchObject({ kind: 'assistant', text: 'Hello', streaming: true });
    seq({ type: 'assistant_message', run_id: 'r', text: 'Hello!' });
    expect(t.entries).toHaveLength(2);
    expect(t.entries[1]).toMatchObject({ text: 'Hello!', streaming: false });
    seq({ type: 'session_opened', session_id: 's2', title: 'Old task' });
    expect(t.entries).toHaveLength(0);
    expect(t.title).toBe('Old task');
    expect(t.status).toBe('idle');
  });
});

describe('a task Ask First was closed in the middle of', () => {
  it('goes on as a run marked resumed, not as a new message from the person', () => {
    const t = new Transcript();
    t.receive({ seq: 0, event: events[0]! });
    t.receive({ seq: 1, event: { type: 'run_finished', run_id: 'r', status: 'cancelled' } });
    t.receive({
      seq: 2,
      event: { type: 'run_started', run_id: 'r2', session_id: 's', task: 'Say hello', provider: 'test', resumed: true },
    });
    const tasks = t.entries.filter((e) => e.kind === 'task');
    expect(tasks.map((e) => e.kind === 'task' && e.resumed)).toEqual([false, true]);
    expect(t.status).toBe('running');
  });
});

describe('the session log status', () => {
  it('shows what fails until the log can be written again, across sessions', () => {
    const t = new Transcript();
    expect(t.logProblem).toBeNull();
    t.receive({ seq: 0, event: { type: 'log_status', problem: 'No space left on device (os error 28)' } });
    expect(t.logProblem).toBe('No space left on device (os error 28)');
    t.receive({ seq: 1, event: { type: 'session_opened', session_id: 's2' } });
    expect(t.logProblem).toBe('No space left on device (os error 28)');
    expect(t.entries).toHaveLength(0);
    t.receive({ seq: 2, event: { type: 'log_status' } });
    expect(t.logProblem).toBeNull();
  });

  it('says truthfully where a call is: in line, waiting for you, approved, running, done', () => {
    const t = new Transcript();
    const seen: string[] = [];
    const state = () => {
      const tool = t.entries.find((e) => e.kind === 'tool');
      return tool?.kind === 'tool' ? tool.state : 'none';
    };
    const steps: AgentEvent[] = [
      events[0]!,
      events[2]!,
      {
        type: 'approval_required',
        approval_id: 'a',
        run_id: 'r',
        tool_call_id: 'call_1',
        tool_name: 'write_file',
        arguments_json: '{}',
        arguments_sha256: '00',
        summary: 'Create the file hello.txt (1 line)',
        reason: 'needs your OK',
        risk: 'medium',
        policy_layer: 'tool_default',
        expires_at: 0,
        resumed: false,
      },
      {
        type: 'approval_resolved',
        approval_id: 'a',
        run_id: 'r',
        tool_call_id: 'call_1',
        outcome: { kind: 'approved', scope: 'once', source: 'user' },
      },
      { type: 'tool_call_started', run_id: 'r', tool_call_id: 'call_1' },
      { ...events[3]!, status: 'succeeded', output: 'Wrote 3 bytes.' } as AgentEvent,
    ];
    steps.forEach((event, seq) => {
      t.receive({ seq, event });
      seen.push(state());
    });
    expect(seen).toEqual(['none', 'queued', 'waiting', 'approved', 'running', 'succeeded']);
  });
});

describe('a window that loads after sessions were opened', () => {
  it('starts from the latest session, whose numbers go on from the earlier ones', () => {
    const t = new Transcript();
    // The backend kept only the latest session: its history starts at 40, not 0.
    t.receive({ seq: 40, event: { type: 'session_opened', session_id: 's3' } });
    [events[0]!, events[1]!].forEach((event, i) => t.receive({ seq: 41 + i, event }));
    expect(t.hasGap).toBe(false);
    expect(t.sessionId).toBe('s');
    expect(t.entries.map((e) => e.kind)).toEqual(['task', 'assistant']);
    // Only a session_opened may skip ahead: a gap before anything else is still waited for.
    t.receive({ seq: 50, event: events[4]! });
    expect(t.hasGap).toBe(true);
  });
});

describe('tool calls', () => {
  it('updates the latest call with an id a provider reused, and forgets calls of a closed session', () => {
    const t = new Transcript();
    const proposed = (run: string): AgentEvent => ({ ...events[2]!, run_id: run }) as AgentEvent;
    const finished = (run: string, output: string): AgentEvent =>
      ({ ...events[3]!, run_id: run, status: 'succeeded', output }) as AgentEvent;
    t.apply(proposed('r'));
    t.apply(finished('r', 'first'));
    t.apply(proposed('r')); // the same id in a later step
    t.apply({ type: 'tool_call_started', run_id: 'r', tool_call_id: 'call_1' });
    const states = () => t.entries.map((e) => (e.kind === 'tool' ? [e.state, e.output] : null));
    expect(states()).toEqual([['succeeded', 'first'], ['running', null]]);
    t.apply({ type: 'session_opened', session_id: 's2' } as AgentEvent);
    t.apply(finished('r', 'late'));
    expect(t.entries).toHaveLength(0);
  });

  it('refuses an event it does not know instead of dropping it silently', () => {
    const t = new Transcript();
    expect(() => t.apply({ type: 'something_new', run_id: 'r' } as unknown as AgentEvent)).toThrow(
      /something_new/,
    );
  });

  it('applies the events after one it cannot show', () => {
    const t = new Transcript();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    t.receive({ seq: 0, event: { type: 'something_new' } as unknown as AgentEvent });
    t.receive({ seq: 1, event: events[0]! });
    expect(t.entries.map((e) => e.kind)).toEqual(['task']);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });

  it("keeps a retry's wait until the run's next event, and none of another run", () => {
    const t = new Transcript();
    t.apply(events[0]!);
    const retrying: AgentEvent = {
      type: 'model_retrying',
      run_id: 'r',
      reason: 'unreachable',
      retry_at: 1_000,
      next_try: 2,
      tries: 4,
    };
    t.apply({ ...retrying, run_id: 'other' });
    expect(t.retry).toBeNull();
    t.apply(retrying);
    expect(t.retry).toEqual({ runId: 'r', reason: 'unreachable', retryAt: 1_000, nextTry: 2, tries: 4 });
    t.apply({ type: 'assistant_delta', run_id: 'r', text: 'Hel' });
    expect(t.retry).toBeNull();
    expect(t.entries.map((e) => e.kind)).toEqual(['task', 'assistant']);
  });
});

describe('a call the person changed', () => {
  it('keeps the call asked and the call changed to on its one line, and says when no card followed', () => {
    const t = new Transcript();
    let n = 0;
    const seq = (event: AgentEvent) => t.receive({ seq: n++, event });
    seq(events[0]!);
    seq(events[2]!);
    seq({
      type: 'tool_call_changed',
      run_id: 'r',
      tool_call_id: 'call_1',
      tool_name: 'write_file',
      asked_arguments_json: '{"path":"a.txt","content":"x"}',
      arguments_json: '{"content":"x","path":"Drafts/a.txt"}',
      summary: 'Create the file Drafts/a.txt (1 line)',
    });
    seq({ type: 'tool_call_started', run_id: 'r', tool_call_id: 'call_1' });
    seq({
      type: 'tool_call_finished',
      run_id: 'r',
      tool_call_id: 'call_1',
      status: 'succeeded',
      policy_layer: 'user_rule',
      output: 'ok',
    });
    const tools = t.entries.filter((e) => e.kind === 'tool');
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({
      summary: 'Create the file Drafts/a.txt (1 line)',
      state: 'succeeded',
      changed: {
        asked: '{"path":"a.txt","content":"x"}',
        changedTo: '{"content":"x","path":"Drafts/a.txt"}',
        askedAgain: false,
      },
    });
  });
});
