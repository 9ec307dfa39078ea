// "Try again" after a run that failed (the AI service did not answer): the last entry offers
// it, and it starts the same task again; an earlier failure, or a run that ended well, does not.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';

vi.mock('../ipc', () => ({ startRun: vi.fn(async () => ({ run_id: 'r2', session_id: 's' })) }));

import * as ipc from '../ipc';
import TranscriptView from './TranscriptView.svelte';
import type { Entry } from '../transcript.svelte';

let app: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (app) unmount(app);
  app = undefined;
  document.body.replaceChildren();
});

const task = (runId: string, text: string) =>
  ({ kind: 'task', key: `task:${runId}`, text, provider: 'test', runId }) as Entry;
const ended = (runId: string, status: 'failed' | 'completed') =>
  ({ kind: 'finished', key: `end:${runId}`, status, message: 'The service failed.', detail: null, runId }) as Entry;

function show(entries: Entry[]): HTMLElement {
  const target = document.createElement('main');
  document.body.append(target);
  app = mount(TranscriptView, { target, props: { entries } });
  flushSync();
  return target;
}

describe('Try again', () => {
  it('starts the failed run’s task again from the last entry', async () => {
    const target = show([task('r1', 'Sort my invoices'), ended('r1', 'failed')]);
    const buttons = target.querySelectorAll('[data-testid="try-again"]');
    expect(buttons.length).toBe(1);
    expect(buttons[0]?.textContent?.trim()).toBe('Try again');
    (buttons[0] as HTMLButtonElement).click();
    await Promise.resolve();
    expect(ipc.startRun).toHaveBeenCalledWith('Sort my invoices');
  });

  it('is not offered for an earlier failure or a run that ended well', () => {
    const target = show([
      task('r1', 'Sort my invoices'),
      ended('r1', 'failed'),
      task('r2', 'Sort them again'),
      ended('r2', 'completed'),
    ]);
    expect(target.querySelector('[data-testid="try-again"]')).toBeNull();
  });
});
