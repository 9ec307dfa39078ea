// The window's own Quit, and the note when closing only minimised the window (no tray).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';

const closeKeptHandlers: (() => void)[] = [];
vi.mock('./ipc', () => ({
  quitApp: vi.fn(async () => {}),
  onCloseKept: vi.fn(async (handler: () => void) => {
    closeKeptHandlers.push(handler);
    return () => {};
  }),
}));

import * as ipc from './ipc';
import QuitControl from './QuitControl.svelte';

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
  vi.mocked(ipc.quitApp).mockClear();
  closeKeptHandlers.length = 0;
});

function show(busy: boolean): HTMLElement {
  const target = document.createElement('div');
  document.body.append(target);
  mounted = mount(QuitControl, { target, props: { busy } });
  flushSync();
  return target;
}

const byId = (target: HTMLElement, id: string) =>
  target.querySelector<HTMLElement>(`[data-testid="${id}"]`);

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  flushSync();
};

describe('Quit', () => {
  it('quits at once when nothing is going on', async () => {
    const target = show(false);
    byId(target, 'quit')?.click();
    await settle();
    expect(ipc.quitApp).toHaveBeenCalledOnce();
  });

  it('asks first while a task runs or a request waits, and can be called off', async () => {
    const target = show(true);
    byId(target, 'quit')?.click();
    flushSync();
    expect(ipc.quitApp).not.toHaveBeenCalled();
    expect(byId(target, 'quit-note')?.textContent).toContain('goes on where it stopped the next time you start Ask First');
    byId(target, 'quit-cancel')?.click();
    flushSync();
    expect(byId(target, 'quit-note')).toBeNull();
    byId(target, 'quit')?.click();
    flushSync();
    byId(target, 'quit-now')?.click();
    await settle();
    expect(ipc.quitApp).toHaveBeenCalledOnce();
  });

  it('says why the window stayed when closing only minimised it, and where Quit is', async () => {
    const target = show(false);
    await settle();
    expect(byId(target, 'close-kept')).toBeNull();
    for (const handler of closeKeptHandlers) handler();
    flushSync();
    expect(byId(target, 'close-kept')?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'This desktop has no tray icons, so closing the window does not close Ask First: it was ' +
        'minimised and keeps running, so it can still ask you before anything risky. To close ' +
        'it for good, press Quit.',
    );
    byId(target, 'close-kept-ok')?.click();
    flushSync();
    expect(byId(target, 'close-kept')).toBeNull();
    // Its own Quit quits.
    for (const handler of closeKeptHandlers) handler();
    flushSync();
    byId(target, 'close-kept-quit')?.click();
    await settle();
    expect(ipc.quitApp).toHaveBeenCalledOnce();
  });
});
