// The usual TypeScript/Node design of a pending-approval registry, for comparison with
// askfirst-core's: a Map of pending Promises keyed by `${runId}:${toolCallId}`, each resolved
// by an IPC-style call. Measures the same round trip as benches/approvals.rs (register ->
// resolve -> awaiting code woken) with 1, 1,000 and 100,000 others pending, and the heap held
// per pending approval. Run: node --expose-gc tests/bench/node_registry.mjs
import { createHash, randomUUID } from 'node:crypto';

class Registry {
  constructor(timeoutMs) {
    this.pending = new Map();
    this.timeoutMs = timeoutMs;
  }
  request(req) {
    const key = `${req.runId}:${req.toolCallId}`;
    const approvalId = randomUUID();
    const sha = createHash('sha256').update(req.argumentsJson).digest('hex');
    let resolve;
    const promise = new Promise((r) => (resolve = r));
    const timer = setTimeout(() => this.settle(key, { kind: 'denied', source: 'timeout' }), this.timeoutMs);
    this.pending.set(key, { request: { ...req, approvalId, sha, expiresAt: Date.now() + this.timeoutMs }, resolve, timer });
    return { key, promise };
  }
  settle(key, outcome) {
    const entry = this.pending.get(key);
    if (!entry) throw new Error(`No pending approval ${key}`);
    this.pending.delete(key);
    clearTimeout(entry.timer);
    entry.resolve(outcome);
    return outcome;
  }
}

function newRequest(runId, i) {
  return {
    runId,
    toolCallId: `call_${i}`,
    toolName: 'write_file',
    argumentsJson: `{"path":"notes/file-${i}.txt","content":"Hello ${i}\\n"}`,
    summary: `Create the file notes/file-${i}.txt (1 line)`,
    reason: 'This changes files in your workspace folder, so it needs your OK.',
    risk: 'medium',
  };
}

async function roundTrip(pendingCount, iterations) {
  const reg = new Registry(3_600_000);
  const run = randomUUID();
  const held = [];
  for (let i = 0; i < pendingCount; i++) held.push(reg.request(newRequest(run, i)));
  // warm-up
  for (let i = 0; i < 10_000; i++) {
    const { key, promise } = reg.request(newRequest(run, pendingCount + i));
    reg.settle(key, { kind: 'approved' });
    await promise;
  }
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const { key, promise } = reg.request(newRequest(run, pendingCount + 10_000 + i));
    reg.settle(key, { kind: 'approved' });
    await promise;
  }
  const ns = Number(process.hrtime.bigint() - start) / iterations;
  for (const h of held) reg.settle(h.key, { kind: 'cancelled' });
  return ns;
}

async function memoryPerPending(n) {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const reg = new Registry(3_600_000);
  const run = randomUUID();
  const held = [];
  for (let i = 0; i < n; i++) held.push(reg.request(newRequest(run, i)));
  globalThis.gc?.();
  const after = process.memoryUsage().heapUsed;
  for (const h of held) reg.settle(h.key, { kind: 'cancelled' });
  return (after - before) / n;
}

const out = { node: process.version, round_trip_ns: {} };
for (const pending of [1, 1000, 100000]) {
  out.round_trip_ns[pending] = Math.round(await roundTrip(pending, 200_000));
}
out.heap_bytes_per_pending = Math.round(await memoryPerPending(100_000));
console.log(JSON.stringify(out, null, 2));
