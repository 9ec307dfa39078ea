// Waiting cards of one task that are alike are answered together, exactly those listed, each
// its own decision; deletes, commands, high-risk cards and other agents' cards one by one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { ApprovalRequest } from '../bindings/ApprovalRequest';
import { alikeGroups, type Approvals, type Card } from '../approvals.svelte';
import AlikeGroup from './AlikeGroup.svelte';

function card(id: string, tool: string, extra: Partial<ApprovalRequest> = {}): Card {
  return {
    seq: Number(id.replace(/\D/g, '')) || 0,
    phase: 'waiting',
    notice: null,
    request: {
      approval_id: id,
      run_id: 'run-1',
      tool_call_id: `call-${id}`,
      tool_name: tool,
      arguments_json: '{}',
      arguments_sha256: '00',
      summary: `Move invoice-${id}.pdf into 2025-01`,
      reason: 'needs your OK',
      risk: 'medium',
      policy_layer: 'tool_default',
      expires_at: Date.now() + 120_000,
      resumed: false,
      ...extra,
    },
  };
}

let mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  for (const m of mounted) unmount(m);
  mounted = [];
  document.body.replaceChildren();
});

describe('alike cards', () => {
  it('groups the moves, writes and edits of one task, never deletes, commands or high risk', () => {
    const groups = alikeGroups([
      card('m1', 'move_path'),
      card('d1', 'delete_path'),
      card('m2', 'move_path'),
      card('c1', 'run_command'),
      card('c2', 'run_command'),
      card('d2', 'delete_path'),
      card('w1', 'write_file', { risk: 'high' }),
      card('w2', 'write_file', { risk: 'high' }),
      card('m3', 'move_path', { run_id: 'run-2' }),
      card('x1', 'move_path', {
        detail: { kind: 'external', agent: 'Claude Code', folder: '/home/ann' },
      }),
      { ...card('m4', 'move_path'), phase: 'sending' },
    ]);
    expect(groups.map((g) => g.map((c) => c.request.approval_id))).toEqual([['m1', 'm2']]);
  });

  it('answers exactly the cards listed, each its own decision', () => {
    const decide = vi.fn(async () => {});
    const approvals = { decide } as unknown as Approvals;
    const target = document.createElement('div');
    document.body.append(target);
    const props = $state({ approvals, cards: [card('m1', 'move_path'), card('m2', 'move_path')] });
    mounted.push(mount(AlikeGroup, { target, props }));
    flushSync();
    const q = (id: string) => target.querySelector(`[data-testid="${id}"]`) as HTMLElement | null;
    expect(q('alike-group')?.textContent).toContain('2 moves of this task wait for your OK.');
    q('alike-review')!.click();
    flushSync();
    expect([...target.querySelectorAll('[data-testid="alike-item"]')].map((e) => e.textContent)).toEqual([
      'Move invoice-m1.pdf into 2025-01',
      'Move invoice-m2.pdf into 2025-01',
    ]);
    // A card that arrives after the list was opened is not among what the button answers.
    props.cards = [...props.cards, card('m3', 'move_path')];
    flushSync();
    expect(q('alike-approve')?.textContent?.trim()).toBe('Approve these 2');
    q('alike-approve')!.click();
    flushSync();
    expect(decide.mock.calls).toEqual([
      ['m1', { kind: 'approve' }],
      ['m2', { kind: 'approve' }],
    ]);
  });
});
