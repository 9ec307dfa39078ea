// ErrorNotice shows any error: the sentence at once, the detail only after a click on
// "Details" (bounded, hidden characters made visible); ipc.ts hands every failed command to it
// with a sentence, never a bare error string.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import ErrorNotice from './ErrorNotice.svelte';
import Composer from './Composer.svelte';
import TranscriptView from './transcript/TranscriptView.svelte';
import { boundedDetail, toNotice } from './errors/notice';

const INTERNAL_FAILURE =
  'Something went wrong inside Ask First, so this was not done. Try again; if it keeps ' +
  'happening, close Ask First and start it again.';
import type { Entry } from './transcript.svelte';

const invoke = vi.fn();
vi.mock('@tauri-apps/api/core', () => ({ invoke: (...args: unknown[]) => invoke(...args) }));
vi.mock('@tauri-apps/api/event', () => ({ listen: vi.fn(async () => () => {}) }));

let mounted: ReturnType<typeof mount>[] = [];
function show(component: never, props: Record<string, unknown>): HTMLElement {
  const target = document.createElement('div');
  document.body.appendChild(target);
  mounted.push(mount(component, { target, props }));
  flushSync();
  return target;
}
afterEach(() => {
  for (const m of mounted) unmount(m);
  mounted = [];
  document.body.replaceChildren();
  invoke.mockReset();
});
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  flushSync();
};
const byId = (root: ParentNode, id: string) => root.querySelector(`[data-testid="${id}"]`);

const chain =
  'error sending request for url (http://127.0.0.1:9/v1/chat/completions): tcp connect ' +
  'error: Connection refused (os error 111)';

describe('ErrorNotice', () => {
  it('shows the sentence, and the detail only after Details is clicked', () => {
    const target = show(ErrorNotice as never, {
      error: { message: 'Nothing answered at 127.0.0.1:9. Check the address.', detail: chain },
    });
    const notice = byId(target, 'error-notice');
    expect(notice?.getAttribute('role')).toBe('alert');
    expect(byId(target, 'error-message')?.textContent).toBe(
      'Nothing answered at 127.0.0.1:9. Check the address.',
    );
    // Before the click: not in the page at all, not merely hidden.
    expect(byId(target, 'error-detail')).toBeNull();
    expect(target.textContent).not.toContain('os error');
    const toggle = byId(target, 'error-details-toggle') as HTMLButtonElement;
    expect(toggle.textContent).toBe('Details');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    toggle.click();
    flushSync();
    expect(byId(target, 'error-detail')?.textContent).toBe(chain);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.textContent).toBe('Hide details');
    toggle.click();
    flushSync();
    expect(byId(target, 'error-detail')).toBeNull();
  });

  it('has no Details button when there is no detail', () => {
    const target = show(ErrorNotice as never, {
      error: { message: 'Please type a task for the agent first.', detail: null },
    });
    expect(byId(target, 'error-details-toggle')).toBeNull();
    expect(byId(target, 'error-notice')?.textContent).toBe('Please type a task for the agent first.');
  });

  it('shows hidden characters in the detail as codes, and says where it was cut', () => {
    const long = 'x'.repeat(5000);
    const target = show(ErrorNotice as never, {
      error: { message: 'It failed. Try again.', detail: `bad\u202Eexe.txt\n${long}` },
    });
    (byId(target, 'error-details-toggle') as HTMLButtonElement).click();
    flushSync();
    const detail = byId(target, 'error-detail')?.textContent ?? '';
    expect(detail.startsWith('bad\\u202Eexe.txt')).toBe(true);
    expect(detail).not.toContain('\u202E');
    expect(detail).toContain('(1,012 more characters not shown)');
  });
});

describe('boundedDetail', () => {
  it('keeps a short detail whole and cuts a long one at whole characters', () => {
    expect(boundedDetail('short', 10)).toEqual({ shown: 'short', leftOut: 0 });
    expect(boundedDetail('😀😀😀', 2)).toEqual({ shown: '😀😀', leftOut: 1 });
  });
});

describe('a failed command, as ipc.ts hands it on', () => {
  it('keeps the backend message and detail apart', async () => {
    const ipc = await import('./ipc');
    invoke.mockRejectedValueOnce({
      code: 'storage',
      message: 'Your settings could not be saved. Make sure the disk is not full.',
      detail: '/data/settings.json: No space left on device (os error 28)',
    });
    const error = await ipc.getSettings().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ipc.IpcError);
    expect(toNotice(error)).toEqual({
      message: 'Your settings could not be saved. Make sure the disk is not full.',
      detail: '/data/settings.json: No space left on device (os error 28)',
    });
  });

  it('words an error that is not one of Ask First’s, with the raw text as the detail', async () => {
    const ipc = await import('./ipc');
    invoke.mockRejectedValueOnce('Command start_run not allowed by ACL');
    const error = await ipc.startRun('x').catch((e: unknown) => e);
    expect(toNotice(error)).toEqual({
      message: INTERNAL_FAILURE,
      detail: 'Command start_run not allowed by ACL',
    });
    expect(toNotice(42)).toEqual({ message: INTERNAL_FAILURE, detail: '42' });
  });

  it('reaches the person as a sentence under the task box, with Details', async () => {
    invoke.mockRejectedValueOnce({
      code: 'provider_setup',
      message: 'Add your API key for api.openai.com in the settings (or OPENAI_API_KEY).',
    });
    const target = show(Composer as never, { status: 'idle', runId: null, openCount: 0 });
    const box = byId(target, 'task-input') as HTMLTextAreaElement;
    box.value = 'Tidy up';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    (box.form as HTMLFormElement).requestSubmit();
    await settle();
    expect(byId(target, 'start-error')?.textContent).toBe(
      'Add your API key for api.openai.com in the settings (or OPENAI_API_KEY).',
    );
  });
});

describe('a task that failed, in the transcript', () => {
  it('says why in a sentence, with the model service’s detail behind Details', () => {
    const entries: Entry[] = [
      {
        kind: 'finished',
        key: 'end',
        status: 'failed',
        message: 'Nothing answered at 127.0.0.1:9. Check the address in the settings.',
        detail: chain,
      },
    ];
    const target = show(TranscriptView as never, { entries });
    const line = byId(target, 'run-failed');
    expect(line?.getAttribute('role')).toBeNull();
    expect(byId(target, 'error-message')?.textContent).toBe(
      'The agent stopped: Nothing answered at 127.0.0.1:9. Check the address in the settings.',
    );
    expect(target.textContent).not.toContain('os error');
    (byId(target, 'error-details-toggle') as HTMLButtonElement).click();
    flushSync();
    expect(byId(target, 'error-detail')?.textContent).toBe(chain);
  });
});
