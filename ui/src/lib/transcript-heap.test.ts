// A measurement for `make bench`, not a test: what the window's transcript keeps in the
// JavaScript heap per approval of the soak's shape (50 runs of 20 `run_command` calls, one
// approved call per model step), holding every entry and letting old runs go (`source` set:
// transcript.svelte.ts `view`, KEEP_ENTRIES). Run in V8 (node), Svelte's production build
// (NODE_ENV=production), the heap read after two `gc()`s (node --expose-gc):
//   cd ui && ASKFIRST_HEAP_BENCH=1 NODE_ENV=production NODE_OPTIONS=--expose-gc \
//     npx vitest run src/lib/transcript-heap.test.ts
// Prints one JSON line per case; BENCHMARKS.md, "No growth: what is ours of the page's growth".
// The page itself runs JavaScriptCore, whose objects are of about the same size; what this
// leaves out is WebKit's (the DOM, the JIT, the heap's blocks), which the soak measures.
import { describe, it } from 'vitest';
import { Transcript } from './transcript.svelte';
import type { AgentEvent } from './bindings/AgentEvent';

const RUNS = 500;
const PER_RUN = 20;
const SAMPLE_EVERY = 100; // runs (2,000 approvals)

/** One of the soak's runs: its task, PER_RUN approved commands, "done", its end. */
function soakRun(run: string): AgentEvent[] {
  const out: AgentEvent[] = [
    {
      type: 'run_started',
      run_id: run,
      session_id: 's',
      task: `Write many files (${run})`,
      provider: 'Scripted scenario (/tmp/askfirst-e2e/bench-soak.json)',
      resumed: false,
    },
  ];
  for (let k = 0; k < PER_RUN; k++) {
    const call = `call_${run}_${k}`;
    const command = `date +%s%N > ${run}-f${k}.txt`;
    out.push(
      {
        type: 'tool_call_proposed',
        run_id: run,
        tool_call_id: call,
        tool_name: 'run_command',
        arguments_json: JSON.stringify({ command }),
        summary: `Run a command: ${command}`,
      },
      { type: 'tool_call_started', run_id: run, tool_call_id: call },
      {
        type: 'tool_call_finished',
        run_id: run,
        tool_call_id: call,
        status: 'succeeded',
        output: 'The command finished successfully (exit code 0).\nIt printed nothing.',
      },
    );
  }
  out.push({ type: 'assistant_message', run_id: run, text: 'done' });
  out.push({ type: 'run_finished', run_id: run, status: 'completed' });
  return out;
}

const gc = (globalThis as { gc?: () => void }).gc;
/** The heap in use after garbage collection, in bytes. */
function heap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}
/** Lets Svelte end its batch of changes, as the page does between two answers of the core. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe.skipIf(!process.env.ASKFIRST_HEAP_BENCH)('transcript heap per approval', () => {
  for (const letGo of [false, true]) {
    it(letGo ? 'letting old runs go' : 'holding every entry', async () => {
      if (!gc) throw new Error('run with NODE_OPTIONS=--expose-gc');
      const transcript = new Transcript();
      // Old runs are never scrolled back to here, so nothing is read back.
      if (letGo) transcript.source = async (next) => ({ events: [], next });
      let seq = 0;
      const samples: { approvals: number; heap_bytes: number }[] = [];
      for (let r = 0; r <= RUNS; r++) {
        if (r % SAMPLE_EVERY === 0) {
          await settle();
          samples.push({ approvals: r * PER_RUN, heap_bytes: heap() });
        }
        if (r === RUNS) break;
        for (const event of soakRun(`r${r}`)) transcript.receive({ seq: seq++, event });
        // The list draws the newest entries, as the soak's window does.
        const n = transcript.entries.length;
        transcript.view(n - 20, n - 1);
        await settle();
      }
      // A straight line through the samples after the first (the heap's warm-up).
      const fit = samples.slice(1);
      const mx = fit.reduce((s, p) => s + p.approvals, 0) / fit.length;
      const my = fit.reduce((s, p) => s + p.heap_bytes, 0) / fit.length;
      const slope =
        fit.reduce((s, p) => s + (p.approvals - mx) * (p.heap_bytes - my), 0) /
        fit.reduce((s, p) => s + (p.approvals - mx) ** 2, 0);
      const kinds: Record<string, number> = {};
      for (const entry of transcript.entries) kinds[entry.kind] = (kinds[entry.kind] ?? 0) + 1;
      console.log(
        JSON.stringify({
          case: letGo ? 'letting old runs go' : 'holding every entry',
          bytes_per_approval: Math.round(slope),
          entries: kinds,
          samples,
        }),
      );
    });
  }
});
