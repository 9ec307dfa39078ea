// The card of a command Ask First tried on a copy of the folder: what it did, grouped and
// counted, before the command line; paths shown visibly; long lists quick to open.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import ApprovalCard from '../ApprovalCard.svelte';
import type { ApprovalRequest } from '../bindings/ApprovalRequest';
import type { Card } from '../approvals.svelte';
import type { FileChange } from '../bindings/FileChange';
import type { TriedCommand } from '../bindings/TriedCommand';
import { formatBytes, setLanguage } from '../i18n/i18n.svelte';
import { groupChanges, groupHeading, modeLetters } from './changes';

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
  setLanguage('en');
  vi.useRealTimers();
});

function tried(extra: Partial<TriedCommand>): TriedCommand {
  return { changes: [], more: 0, output: '', ended: 'It finished without an error.', ...extra };
}

function show(t: TriedCommand): HTMLElement {
  const request: ApprovalRequest = {
    approval_id: 'a1',
    run_id: 'run-1',
    tool_call_id: 'call_1',
    tool_name: 'run_command',
    arguments_json: '{"command":"sh tidy.sh"}',
    arguments_sha256: '00',
    summary: 'Run the command sh tidy.sh',
    reason: 'needs your OK',
    risk: 'high',
    policy_layer: 'tool_default',
    expires_at: Date.now() + 120_000,
    resumed: false,
    detail: { kind: 'command', line: 'sh tidy.sh', working_folder: '/home/ann/Work', tried: t },
  };
  const target = document.createElement('div');
  document.body.append(target);
  const card: Card = { request, phase: 'waiting', notice: null, seq: 0 };
  mounted = mount(ApprovalCard, { target, props: { card, position: 0, ondecide: () => {} } });
  flushSync();
  return target;
}

const all = (target: HTMLElement, id: string) => [
  ...target.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`),
];
const one = (target: HTMLElement, id: string) =>
  target.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, ' ').trim();

const file = (change: FileChange['change'], path: string, more: Partial<FileChange> = {}) =>
  ({ change, path, folder: false, ...more }) as FileChange;

describe('the card of a command tried on a copy', () => {
  it('shows every kind of change as an element with its kind and path, in words', () => {
    const target = show(
      tried({
        changes: [
          file('changed', 'notes.txt', { size: 12_400 }),
          file('created', 'Reports', { folder: true }),
          file('created', 'Reports/q1.pdf', { size: 512 }),
          file('deleted', 'Photos', { folder: true }),
          file('link', 'latest', { target: 'Reports/q1.pdf' }),
          file('link', 'secrets', { target: '/home/ann/.ssh', outside: true }),
          file('mode', 'run.sh', { mode: 0o755 }),
          file('mode', 'private.txt', { mode: 0o600 }),
          file('moved', 'Archive/old.txt'),
        ],
      }),
    );
    const items = all(target, 'approval-change');
    expect(items.map((li) => [li.dataset.change, li.dataset.path, text(li)])).toEqual([
      ['deleted', 'Photos', 'the folder Photos, with everything in it'],
      ['changed', 'notes.txt', 'notes.txt12.4 kB'],
      ['created', 'Reports', 'the folder Reports, with everything in it'],
      ['created', 'Reports/q1.pdf', 'Reports/q1.pdf512 bytes'],
      ['moved', 'Archive/old.txt', 'Archive/old.txt'],
      ['mode', 'run.sh', 'Make run.sh executable (it can then run as a program)'],
      ['mode', 'private.txt', 'private.txt (who may read, change or run it)rw-------'],
      ['link', 'latest', 'latest, which leads to Reports/q1.pdf'],
      ['link', 'secrets', 'secrets, which leads to /home/ann/.ssh, outside your folder'],
    ]);
    // The heading first, then the groups; the command line still below them, now "The command".
    const tried_ = one(target, 'approval-tried')!;
    expect(text(tried_.querySelector('.heading'))).toBe(
      'What the command did on the copy (Approve does the same in your folder):',
    );
    const command = one(target, 'approval-command')!;
    expect(text(command)).toBe('sh tidy.sh');
    expect(text(command.closest('.change')?.querySelector('.change-title'))).toBe('The command');
    expect(tried_.compareDocumentPosition(command) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Approve and Deny are where they were.
    expect(one(target, 'approve')).not.toBeNull();
    expect(one(target, 'deny')).not.toBeNull();
  });

  it('groups the changes by kind, each with a counted sentence', () => {
    const target = show(
      tried({
        changes: [
          file('created', 'a.txt'),
          file('deleted', 'b.tmp'),
          file('deleted', 'c.tmp'),
          file('deleted', 'cache', { folder: true }),
          file('deleted', 'd.tmp'),
          file('changed', 'e.txt'),
          file('changed', 'f.txt'),
          file('mode', 'run.sh', { mode: 0o755 }),
          file('link', 'g', { target: 'a.txt' }),
        ],
      }),
    );
    const groups = all(target, 'approval-change-group');
    expect(
      groups.map((g) => [g.dataset.change, text(g.querySelector('h4')), g.querySelectorAll('li').length]),
    ).toEqual([
      ['deleted', 'Delete 1 folder and 3 files', 4],
      ['changed', 'Change 2 files', 2],
      ['created', 'Create 1 file', 1],
      ['mode', 'Change permissions of 1 file', 1],
      ['link', 'Create or change a link', 1],
    ]);
  });

  it('counts in the language of the window, with its plurals', () => {
    const groups = groupChanges([
      file('deleted', 'a'),
      file('deleted', 'b'),
      file('deleted', 'P', { folder: true }),
      file('created', 'x'),
    ]);
    setLanguage('pt-BR');
    expect(groups.map(groupHeading)).toEqual(['Apagar 1 pasta e 2 arquivos', 'Criar 1 arquivo']);
    expect(formatBytes(12_500)).toBe('12,5 kB');
    setLanguage('zh-CN');
    expect(groups.map(groupHeading)).toEqual(['删除 1 个文件夹和 2 个文件', '创建 1 个文件']);
    setLanguage('en');
    expect([0, 1, 999, 1000, 999_960, 2_500_000, 3e12].map(formatBytes)).toEqual([
      '0 bytes',
      '1 byte',
      '999 bytes',
      '1 kB',
      '1 MB',
      '2.5 MB',
      '3 TB',
    ]);
    expect([0o755, 0o644, 0o4711 & 0o777].map(modeLetters)).toEqual([
      'rwxr-xr-x',
      'rw-r--r--',
      'rwx--x--x',
    ]);
  });

  it('shows a line break and a right-to-left override in a name visibly, as text', () => {
    const path = 'bills\n<b>x</b>\u202Efdp.exe';
    const target = show(
      tried({ changes: [file('deleted', path), file('link', 'l', { target: 'a\u202Eb' })] }),
    );
    const [item, link] = all(target, 'approval-change');
    expect(item!.dataset.path).toBe(path);
    expect(item!.textContent?.trim()).toBe('bills\\n<b>x</b>\\u202Efdp.exe');
    expect(item!.querySelectorAll('.escape')).toHaveLength(2);
    expect(target.querySelector('b')).toBeNull();
    expect(text(one(link!, 'approval-change-target'))).toBe('a\\u202Eb');
    expect(target.textContent).not.toContain('\u202E');
  });

  it('opens a card of 2,000 changes with the first few, and all of them on "Show all"', async () => {
    const changes = Array.from({ length: 2000 }, (_, i) =>
      file('deleted', `cache/${String(i).padStart(4, '0')}.tmp`),
    );
    const target = show(tried({ changes, more: 0 }));
    expect(text(target.querySelector('[data-testid="approval-change-group"] h4'))).toBe(
      'Delete 2,000 files',
    );
    expect(all(target, 'approval-change')).toHaveLength(20);
    const button = one(target, 'approval-changes-show-all')!;
    expect(text(button)).toBe('Show all 2,000');
    button.click();
    flushSync();
    // Drawn a chunk at a time, each after the window had its turn.
    expect(all(target, 'approval-change').length).toBeLessThan(2000);
    await vi.waitFor(() => expect(all(target, 'approval-change')).toHaveLength(2000), {
      timeout: 25_000,
    });
    const items = all(target, 'approval-change');
    expect(items.at(-1)?.dataset.path).toBe('cache/1999.tmp');
    expect(one(target, 'approval-changes-show-all')).toBeNull();
  });

  it('says how many more changes are not listed, and that Approve makes them too', () => {
    const target = show(tried({ changes: [file('deleted', 'a.tmp')], more: 1234 }));
    expect(text(one(target, 'approval-changes-more'))).toBe(
      'And 1,234 more changes not listed here (approving makes them too).',
    );
    expect(one(show(tried({ changes: [file('deleted', 'a.tmp')] })), 'approval-changes-more')).toBeNull();
  });

  it('shows what it printed and how it ended, folding a long output', () => {
    let target = show(
      tried({
        changes: [file('deleted', 'a.tmp')],
        output: 'removed a.tmp\n\u001b[31mdone\u001b[0m\n',
        ended: 'It finished without an error.',
      }),
    );
    expect(target.querySelector('.output summary')?.textContent).toBe('What it printed (2 lines)');
    expect(one(target, 'approval-tried-output')?.textContent).toBe(
      'removed a.tmp\n\\u001B[31mdone\\u001B[0m\n',
    );
    expect(text(one(target, 'approval-tried-ended'))).toBe('It finished without an error.');

    unmount(mounted!);
    mounted = undefined;
    const long = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    target = show(tried({ changes: [file('deleted', 'a.tmp')], output: long, ended: 'It failed with exit code 2.' }));
    const details = target.querySelector<HTMLDetailsElement>('.output')!;
    expect(details.open).toBe(false);
    expect(one(target, 'approval-tried-output')).toBeNull();
    details.open = true;
    details.dispatchEvent(new Event('toggle'));
    flushSync();
    expect(one(target, 'approval-tried-output')?.textContent).toBe(long);
    expect(text(one(target, 'approval-tried-ended'))).toBe('It failed with exit code 2.');
  });

  it('says so when it printed nothing, and when it changed nothing', () => {
    const target = show(tried({}));
    expect(text(one(target, 'approval-tried-nothing'))).toBe(
      'On the copy of your folder, it changed nothing.',
    );
    expect(all(target, 'approval-change-group')).toEqual([]);
    expect(text(one(target, 'approval-tried-output-none'))).toBe('It printed nothing.');
  });

  it("keeps a file's diff folded until it is opened", () => {
    const diff = '--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-old\n+new\n';
    const target = show(tried({ changes: [file('changed', 'notes.txt', { size: 4, diff })] }));
    const details = target.querySelector<HTMLDetailsElement>('[data-testid="approval-change"] details')!;
    expect(details.open).toBe(false);
    expect(one(target, 'approval-diff')).toBeNull();
    details.open = true;
    details.dispatchEvent(new Event('toggle'));
    flushSync();
    expect(
      [...one(target, 'approval-diff')!.querySelectorAll('[data-kind]')].map((l) => l.textContent),
    ).toEqual(['-old', '+new']);
  });
});
