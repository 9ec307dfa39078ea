import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { GoneRequestView } from '../bindings/GoneRequestView';
import type { GoneRequestsView } from '../bindings/GoneRequestsView';
import type { ApprovalId } from '../bindings/ApprovalId';

// A summary made from another program's request: markup and a right-to-left override.
const hostile = 'Claude Code wants to run <img src=x onerror=alert(1)> \u202Etxt.exe';
const fromClaude: GoneRequestView = {
  approval_id: 'a1' as ApprovalId,
  agent: 'claude-code',
  agent_name: 'Claude Code',
  summary: hostile,
  asked_at: 2,
};
const unknown: GoneRequestView = {
  approval_id: 'a2' as ApprovalId,
  summary: 'Something, in the folder ~/x, wants to run `ls`',
  asked_at: 1,
};

const listGoneRequests = vi.fn<() => Promise<GoneRequestsView>>();
const dismissGoneRequest = vi.fn<(id: ApprovalId) => Promise<GoneRequestsView>>();
vi.mock('../ipc', async () =>
  (await import('../test/backend')).backend({
    listGoneRequests: () => listGoneRequests(),
    dismissGoneRequest: (id: ApprovalId) => dismissGoneRequest(id),
  }),
);

const { default: GoneRequests } = await import('./GoneRequests.svelte');

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
  vi.clearAllMocks();
});

async function settle() {
  for (let i = 0; i < 5; i++) {
    await tick();
    await Promise.resolve();
  }
  flushSync();
}

const items = () => [...document.querySelectorAll('[data-testid="gone-request"]')];

describe('Requests left waiting when Ask First closed', () => {
  it('shows each with who asked, its summary as text, and only Dismiss', async () => {
    listGoneRequests.mockResolvedValue({ requests: [fromClaude, unknown], more: 3 });
    mounted = mount(GoneRequests, { target: document.body });
    await settle();
    const [first, second] = items();
    if (!first || !second) throw new Error('two items');
    expect(first.getAttribute('data-approval-id')).toBe('a1');
    expect(first.textContent).toContain('Claude Code asked:');
    expect(first.textContent).toContain(
      'Ask First was closed before you answered; Claude Code is no longer waiting for this, and it was not allowed.',
    );
    // The markup is text, not an element; the override is shown as its code, not obeyed.
    expect(first.querySelector('img')).toBeNull();
    const summary = first.querySelector('[data-testid="gone-summary"]');
    expect(summary?.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(summary?.textContent).not.toContain('\u202E');
    expect(summary?.textContent).toContain('\\u202E');
    // Only Dismiss: no Approve, no Deny.
    expect([...first.querySelectorAll('button')].map((b) => b.getAttribute('data-testid'))).toEqual([
      'gone-dismiss',
    ]);
    expect(second.textContent).toContain('Another program asked:');
    expect(second.textContent).toContain('the program that asked is no longer waiting for this');
    expect(document.querySelector('[data-testid="gone-more"]')?.textContent).toBe(
      'and 3 more requests like these',
    );
  });

  it('Dismiss takes it off, as the backend answers', async () => {
    listGoneRequests.mockResolvedValue({ requests: [fromClaude, unknown], more: 0 });
    dismissGoneRequest.mockResolvedValue({ requests: [unknown], more: 0 });
    mounted = mount(GoneRequests, { target: document.body });
    await settle();
    const dismiss = items()[0]?.querySelector('[data-testid="gone-dismiss"]') as HTMLButtonElement;
    dismiss.click();
    await settle();
    expect(dismissGoneRequest).toHaveBeenCalledWith('a1');
    expect(items().map((i) => i.getAttribute('data-approval-id'))).toEqual(['a2']);
    dismissGoneRequest.mockResolvedValue({ requests: [], more: 0 });
    (items()[0]?.querySelector('[data-testid="gone-dismiss"]') as HTMLButtonElement).click();
    await settle();
    expect(document.querySelector('[data-testid="gone-requests"]')).toBeNull();
  });

  it('shows nothing when nothing was left waiting', async () => {
    listGoneRequests.mockResolvedValue({ requests: [], more: 0 });
    mounted = mount(GoneRequests, { target: document.body });
    await settle();
    expect(document.querySelector('[data-testid="gone-requests"]')).toBeNull();
  });
});
