// The task box's keys (Enter starts, Shift+Enter a new line, an input method's Enter is its
// own) and the "Waiting for your OK" link to the first waiting card.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';

vi.mock('./ipc', () => ({
  startRun: vi.fn(async () => ({ run_id: 'r', session_id: 's' })),
  cancelRun: vi.fn(),
  resolveApproval: vi.fn(),
}));

import * as ipc from './ipc';
import Composer from './Composer.svelte';

let mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  for (const m of mounted) unmount(m);
  mounted = [];
  document.body.replaceChildren();
  vi.mocked(ipc.startRun).mockClear();
});

function show(props: Record<string, unknown>): HTMLElement {
  const target = document.createElement('div');
  document.body.append(target);
  mounted.push(mount(Composer, { target, props: props as never }));
  flushSync();
  return target;
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  flushSync();
};

function typed(target: HTMLElement, text: string): HTMLTextAreaElement {
  const box = target.querySelector('[data-testid="task-input"]') as HTMLTextAreaElement;
  box.value = text;
  box.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
  return box;
}

function key(box: HTMLElement, init: KeyboardEventInit & { keyCode?: number }): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true, ...init });
  if (init.keyCode !== undefined) Object.defineProperty(event, 'keyCode', { value: init.keyCode });
  box.dispatchEvent(event);
  return event;
}

describe('Composer keys', () => {
  it('starts the task with Enter, as chat apps do', async () => {
    const target = show({ status: 'idle', runId: null, openCount: 0 });
    const box = typed(target, 'Tidy up my folder');
    expect(key(box, {}).defaultPrevented).toBe(true);
    await settle();
    expect(ipc.startRun).toHaveBeenCalledWith('Tidy up my folder');
    expect(box.value).toBe('');
  });

  it('leaves Shift+Enter and an input method’s Enter to the box', async () => {
    const target = show({ status: 'idle', runId: null, openCount: 0 });
    const box = typed(target, 'first line');
    expect(key(box, { shiftKey: true }).defaultPrevented).toBe(false);
    expect(key(box, { isComposing: true }).defaultPrevented).toBe(false);
    expect(key(box, { keyCode: 229 }).defaultPrevented).toBe(false);
    await settle();
    expect(ipc.startRun).not.toHaveBeenCalled();
    // Ctrl+Enter still starts it.
    key(box, { ctrlKey: true });
    await settle();
    expect(ipc.startRun).toHaveBeenCalledWith('first line');
  });

  it('says how in the box itself', () => {
    const target = show({ status: 'idle', runId: null, openCount: 0 });
    const box = target.querySelector('[data-testid="task-input"]') as HTMLTextAreaElement;
    expect(box.getAttribute('aria-label')).toBe(
      'Task for the agent (Enter starts it, Shift+Enter adds a new line)',
    );
  });
});

describe('Waiting for your OK', () => {
  it('leads to the first waiting card: scrolls to it and focuses it, answering nothing', () => {
    const card = document.createElement('article');
    card.dataset.testid = 'approval-card';
    card.dataset.approvalId = 'first';
    card.tabIndex = -1;
    const scrolled = vi.fn();
    card.scrollIntoView = scrolled;
    document.body.append(card);
    const target = show({ status: 'running', runId: 'r1', openCount: 2, firstWaiting: 'first' });
    const status = target.querySelector('[data-testid="run-status"]') as HTMLElement;
    expect(status.textContent?.trim()).toBe('Waiting for your OK');
    const link = target.querySelector('[data-testid="show-waiting"]') as HTMLButtonElement;
    link.click();
    expect(scrolled).toHaveBeenCalledWith({ block: 'center' });
    expect(document.activeElement).toBe(card);
    expect(ipc.resolveApproval).not.toHaveBeenCalled();
  });

  it('is plain text when nothing waits', () => {
    const target = show({ status: 'running', runId: 'r1', openCount: 0, firstWaiting: null });
    expect(target.querySelector('[data-testid="show-waiting"]')).toBeNull();
    expect(target.querySelector('[data-testid="run-status"]')?.textContent?.trim()).toBe(
      'Working…',
    );
  });

  it('says why and until when while the AI service is asked again, then "Working…"', () => {
    vi.useFakeTimers();
    try {
      const now = Date.now();
      const target = show({
        status: 'running',
        runId: 'r1',
        openCount: 0,
        retry: { runId: 'r1', reason: 'busy', retryAt: now + 20_000, nextTry: 2, tries: 4 },
      });
      const status = () => target.querySelector('[data-testid="run-status"]')?.textContent?.trim();
      expect(status()).toBe('The AI service is busy: trying again in 20 s (try 2 of 4)');
      vi.advanceTimersByTime(5_000);
      flushSync();
      expect(status()).toBe('The AI service is busy: trying again in 15 s (try 2 of 4)');
      vi.advanceTimersByTime(16_000);
      flushSync();
      expect(status()).toBe('Working…');
    } finally {
      vi.useRealTimers();
    }
  });
});
