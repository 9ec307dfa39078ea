import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { OtherAgentView } from '../bindings/OtherAgentView';

const claude = (connected: boolean): OtherAgentView => ({
  agent: 'claude-code',
  name: 'Claude Code',
  found: true,
  connected,
  settings_file: '~/.claude/settings.json',
});
const codex: OtherAgentView = {
  agent: 'codex',
  name: 'Codex',
  found: false,
  connected: false,
  settings_file: '~/.codex/hooks.json',
};

const connectOtherAgent = vi.fn();
const disconnectOtherAgent = vi.fn();
vi.mock('../ipc', () => ({
  listOtherAgents: () => Promise.resolve([claude(false), codex]),
  connectOtherAgent: (a: unknown) => connectOtherAgent(a),
  disconnectOtherAgent: (a: unknown) => disconnectOtherAgent(a),
}));

const { default: OtherAgents } = await import('./OtherAgents.svelte');

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
});

async function settle() {
  for (let i = 0; i < 5; i++) {
    await tick();
    await Promise.resolve();
  }
  flushSync();
}

describe('Other agents on this computer', () => {
  it('lists the agents, connects one found, and offers nothing for one not found', async () => {
    mounted = mount(OtherAgents, { target: document.body });
    await settle();
    const rows = [...document.querySelectorAll('[data-testid="other-agent"]')];
    expect(rows.map((r) => r.getAttribute('data-agent'))).toEqual(['claude-code', 'codex']);
    const [first, second] = rows;
    if (!first || !second) throw new Error('two rows');
    expect(first.textContent).toContain('Not connected: it asks you in its own window, not here');
    expect(second.textContent).toContain('Not found on this computer');
    expect(second.querySelector('button')).toBeNull();
    connectOtherAgent.mockResolvedValue([claude(true), codex]);
    (first.querySelector('[data-testid="connect-agent"]') as HTMLButtonElement).click();
    await settle();
    expect(connectOtherAgent).toHaveBeenCalledWith('claude-code');
    const row = document.querySelector('[data-agent="claude-code"]');
    expect(row?.getAttribute('data-connected')).toBe('true');
    expect(row?.textContent).toContain('Asks you through Ask First');
    expect(row?.querySelector('[data-testid="disconnect-agent"]')).not.toBeNull();
  });

  it('tells that Codex runs the hook only once it is trusted there, when Codex is connected', async () => {
    mounted = mount(OtherAgents, { target: document.body });
    await settle();
    expect(document.querySelector('[data-testid="codex-trust"]')).toBeNull();
    // The list after a change says Codex is connected (say, from the command line meanwhile).
    connectOtherAgent.mockResolvedValue([claude(true), { ...codex, found: true, connected: true }]);
    (document.querySelector('[data-testid="connect-agent"]') as HTMLButtonElement).click();
    await settle();
    const row = document.querySelector('[data-agent="codex"]');
    expect(row?.getAttribute('data-connected')).toBe('true');
    expect(row?.querySelector('[data-testid="codex-trust"]')?.textContent).toBe(
      "Codex runs Ask First's hook only after you trust it: open Codex, type /hooks and trust it there.",
    );
    expect(document.querySelector('[data-agent="claude-code"] [data-testid="codex-trust"]')).toBeNull();
  });
});
