// A conversation of 10,000 entries draws only what is in view (TranscriptView.svelte over
// ../virtual/VirtualList.svelte), and the entries further down when scrolled there.
import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import TranscriptView from './TranscriptView.svelte';
import type { Entry } from '../transcript.svelte';

let app: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (app) unmount(app);
  document.body.replaceChildren();
});

/** A scrolling `main` 600 px tall holding the transcript of `count` assistant messages. */
function mountTranscript(count: number, scroll: { top: number } = { top: 0 }): HTMLElement {
  const main = document.createElement('main');
  main.style.overflowY = 'auto';
  Object.defineProperty(main, 'scrollTop', {
    get: () => scroll.top,
    set: (v: number) => (scroll.top = v),
  });
  Object.defineProperty(main, 'clientHeight', { get: () => 600 });
  main.getBoundingClientRect = () =>
    ({ top: 0, bottom: 600, height: 600, left: 0, right: 0, width: 0 }) as DOMRect;
  document.body.append(main);
  const entries: Entry[] = Array.from({ length: count }, (_, i) => ({
    kind: 'assistant',
    key: `say:${i}`,
    text: `Message ${i}`,
    runId: 'r',
    streaming: false,
  }));
  app = mount(TranscriptView, { target: main, props: { entries } });
  flushSync();
  return main;
}

describe('a conversation of 10,000 entries', () => {
  it('draws the entries in view, then those further down when scrolled there', async () => {
    const scroll = { top: 0 };
    const main = mountTranscript(10_000, scroll);
    const list = main.querySelector<HTMLElement>('.virtual') as HTMLElement;
    list.getBoundingClientRect = () =>
      ({ top: -scroll.top, bottom: 0, height: 0, left: 0, right: 0, width: 0 }) as DOMRect;
    const texts = () =>
      [...main.querySelectorAll('[data-testid="assistant-message"] p')].map((p) => p.textContent);
    expect(texts()[0]).toBe('Message 0');
    expect(texts().length).toBeLessThan(100);
    // 61 px an entry (48 and the gap) until measured: entry 8,000 starts at 488,000 px.
    main.scrollTop = 8000 * 61;
    main.dispatchEvent(new Event('scroll'));
    await new Promise((done) => setTimeout(done, 50));
    flushSync();
    expect(texts()).toContain('Message 8000');
    expect(texts()).not.toContain('Message 0');
    expect(texts().length).toBeLessThan(100);
  });
});

describe('a short conversation', () => {
  it('is drawn whole, even the entries out of view (up to 300 entries)', () => {
    const main = mountTranscript(300);
    const texts = [...main.querySelectorAll('[data-testid="assistant-message"] p')].map(
      (p) => p.textContent,
    );
    expect(texts.length).toBe(300);
    expect(texts[299]).toBe('Message 299');
  });
});

describe('entries the page let go of', () => {
  it('stand in at their last height, say they are loading, and report what is drawn', () => {
    const main = document.createElement('main');
    document.body.append(main);
    const entries: Entry[] = [
      { kind: 'unloaded', key: 'say:1', runId: 'r', failed: false },
      { kind: 'unloaded', key: 'say:2', runId: 'r', failed: true },
      { kind: 'assistant', key: 'say:3', text: 'Here', runId: 'r2', streaming: false },
    ];
    const views: [number, number][] = [];
    app = mount(TranscriptView, {
      target: main,
      props: { entries, onview: (first: number, last: number) => views.push([first, last]) },
    });
    flushSync();
    const rows = [...main.querySelectorAll<HTMLElement>('.row')];
    expect(rows).toHaveLength(3);
    // Not measured (its own height would move the list): the height known for its key.
    expect(rows[0]?.classList.contains('stand-in')).toBe(true);
    expect(rows[0]?.style.height).toBe('61px');
    expect(rows[2]?.classList.contains('stand-in')).toBe(false);
    expect(rows[2]?.style.height).toBe('');
    const said = [...main.querySelectorAll('[data-testid="unloaded-entry"]')].map((p) => p.textContent?.trim());
    expect(said).toEqual([
      'Loading this part of the conversation…',
      'This part of the conversation cannot be shown right now. Scroll away and back to try again.',
    ]);
    expect(views.at(-1)).toEqual([0, 2]);
  });
});
