import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EVENT_NAMES } from './events';

const backend = join(import.meta.dirname, '../../../src-tauri');

function rustSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return rustSources(path);
    return name.endsWith('.rs') ? [path] : [];
  });
}

/** The values of the consts in askfirst-protocol's `pub mod event_names { … }`. */
function protocolEventNames(): string[] {
  const lib = readFileSync(join(backend, 'protocol/src/lib.rs'), 'utf8');
  const module = /pub mod event_names \{([\s\S]*?)\n\}/.exec(lib)?.[1];
  if (module === undefined) throw new Error('protocol/src/lib.rs has no event_names module');
  return [...module.matchAll(/pub const \w+: &str = "([^"]+)";/g)].map((m) => m[1] ?? '');
}

describe('event names', () => {
  it('are every name of the protocol, and only names the backend emits', () => {
    const ours: string[] = Object.values(EVENT_NAMES);
    const protocol = protocolEventNames();
    expect(protocol.length).toBeGreaterThan(0);
    for (const name of protocol) expect(ours).toContain(name);
    // A name not (yet) in the protocol, such as the tray's, is a string const of the shell.
    const rust = [join(backend, 'protocol/src'), join(backend, 'src')]
      .flatMap(rustSources)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    for (const name of ours) expect(rust).toMatch(new RegExp(`const \\w+: &str = "${name}";`));
  });

  it('are spelled out nowhere in ipc.ts but in events.ts', () => {
    const ipc = readFileSync(join(import.meta.dirname, 'ipc.ts'), 'utf8');
    for (const name of Object.values(EVENT_NAMES)) expect(ipc).not.toContain(`'${name}'`);
    expect(ipc).toContain('EVENT_NAMES.');
  });
});

describe('inFrames', () => {
  it('handles a burst of events of every kind together, once per frame, in arrival order', async () => {
    const { inFrames } = await import('./events');
    const seen: string[] = [];
    const a = inFrames((x: number) => seen.push(`a${x}`));
    const b = inFrames((x: number) => seen.push(`b${x}`));
    a(1);
    b(2);
    a(3);
    // Nothing yet: they wait for the frame.
    expect(seen).toEqual([]);
    await new Promise((done) => setTimeout(done, 100));
    expect(seen).toEqual(['a1', 'b2', 'a3']);
    b(4);
    await new Promise((done) => setTimeout(done, 100));
    expect(seen).toEqual(['a1', 'b2', 'a3', 'b4']);
  });

  it('spreads a long burst over frames, each handling events for at most the budget, in order', async () => {
    const { inFrames, FRAME_BUDGET_MS } = await import('./events');
    // Each handler takes 1 ms of the page's time.
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const frames: (() => void)[] = [];
    const raf = vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation((cb) => {
      frames.push(() => cb(0));
      return frames.length;
    });
    const seen: number[] = [];
    const handle = inFrames((x: number) => {
      clock += 1;
      seen.push(x);
    }, 60_000);
    for (let i = 0; i < 50; i++) handle(i);
    expect(seen).toEqual([]);
    frames.shift()?.();
    expect(seen.length).toBe(FRAME_BUDGET_MS);
    // The rest come in the next frames, in arrival order, however many frames that takes.
    while (frames.length) frames.shift()?.();
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i));
    now.mockRestore();
    raf.mockRestore();
  });

  it('handles the first card of a burst at once, alone in its frame, then the next cards, then the rest', async () => {
    const { inFrames, inFramesFirst } = await import('./events');
    const frames: (() => void)[] = [];
    const raf = vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation((cb) => {
      frames.push(() => cb(0));
      return frames.length;
    });
    const nextFrame = () => {
      const now = frames.splice(0);
      now.forEach((f) => f());
    };
    // A task queued from a frame's callback runs after that frame's paint.
    const afterPaint = () => new Promise((done) => setTimeout(done, 0));
    const seen: string[] = [];
    const line = inFrames((x: number) => seen.push(`line${x}`), 60_000);
    const card = inFramesFirst((x: number) => seen.push(`card${x}`), 60_000);
    line(1);
    card(2);
    // The card at once, in the task its event came in; nothing else until it is painted.
    expect(seen).toEqual(['card2']);
    line(3);
    card(4);
    nextFrame();
    expect(seen).toEqual(['card2']);
    await afterPaint();
    // The cards that came meanwhile, alone in the next frame.
    expect(seen).toEqual(['card2', 'card4']);
    card(5);
    nextFrame();
    expect(seen).toEqual(['card2', 'card4']);
    await afterPaint();
    // More cards came meanwhile: they come first, and the lines wait no longer.
    expect(seen).toEqual(['card2', 'card4', 'card5', 'line1', 'line3']);
    // Without cards, lines are handled in their frame.
    line(6);
    nextFrame();
    expect(seen).toEqual(['card2', 'card4', 'card5', 'line1', 'line3', 'line6']);
    // Once every frame is painted, a new card is handled at once again.
    nextFrame();
    await afterPaint();
    card(7);
    expect(seen.at(-1)).toBe('card7');
    nextFrame();
    await afterPaint();
    raf.mockRestore();
  });

  it('goes on with the others when one handler throws', async () => {
    const { inFrames } = await import('./events');
    const seen: number[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const bad = inFrames(() => {
      throw new Error('no');
    });
    const good = inFrames((x: number) => seen.push(x));
    bad(0);
    good(1);
    await new Promise((done) => setTimeout(done, 100));
    expect(seen).toEqual([1]);
    expect(error).toHaveBeenCalledOnce();
    error.mockRestore();
  });
});
