// The Activity panel against a mocked backend: entries in every state, search, Undo with the
// confirmation when the file changed since, "Undo this task", and model text shown as text.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { ActivityEntry } from '../bindings/ActivityEntry';
import type { UndoResponse } from '../bindings/UndoResponse';

const RUN_A = '11111111-1111-4111-8111-111111111111';
const RUN_B = '22222222-2222-4222-8222-222222222222';
const SESSION = '33333333-3333-4333-8333-333333333333';

function entry(over: Partial<ActivityEntry>): ActivityEntry {
  return {
    id: 'c1',
    session_id: SESSION,
    conversation: 'Tidy my taxes',
    run_id: RUN_A,
    at: 1_700_000_000_000,
    tool_name: 'write_file',
    summary: 'Replace everything in notes.txt with new text (1 line)',
    effects: [],
    paths: ['notes.txt'],
    folder: '/home/ann/Taxes',
    allowed_by: 'person',
    state: { kind: 'done' },
    ...over,
  };
}

let entries: ActivityEntry[] = [];
const undoChange = vi.fn<(s: string, id: string, confirmed: boolean) => Promise<UndoResponse>>();
const undoTask = vi.fn<(s: string, run: string, confirmed: boolean) => Promise<UndoResponse>>();
vi.mock('../ipc', () => ({
  listActivity: () => Promise.resolve(entries),
  undoChange: (s: string, id: string, c: boolean) => undoChange(s, id, c),
  undoTask: (s: string, r: string, c: boolean) => undoTask(s, r, c),
}));

const { default: ActivityPanel } = await import('./ActivityPanel.svelte');
const { setLanguage } = await import('../i18n/i18n.svelte');

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
  undoChange.mockReset();
  undoTask.mockReset();
});

async function show(list: ActivityEntry[]): Promise<HTMLElement> {
  entries = list;
  const target = document.createElement('div');
  document.body.append(target);
  mounted = mount(ActivityPanel, { target, props: { id: 'activity-panel', onclose: () => {} } });
  await settle();
  return target;
}

async function settle() {
  for (let i = 0; i < 5; i++) {
    await tick();
    await Promise.resolve();
  }
  flushSync();
}

const all = (root: HTMLElement, id: string) =>
  Array.from(root.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`));

/** The `n`th element with test id `id`; fails the test when there is none. */
function nth(root: HTMLElement, id: string, n = 0): HTMLElement {
  const found = all(root, id)[n];
  if (!found) throw new Error(`no ${id} #${n}`);
  return found;
}

describe('ActivityPanel', () => {
  it('shows each state, who allowed it, and Undo only where it can undo', async () => {
    const root = await show([
      entry({ id: 'a', summary: 'Create the file plan.txt (2 lines)', paths: ['plan.txt'] }),
      entry({ id: 'b', state: { kind: 'undone' }, allowed_by: 'rule' }),
      entry({ id: 'c', state: { kind: 'too_old' }, allowed_by: 'grant', run_id: RUN_B }),
      entry({
        id: 'd',
        tool_name: 'run_command',
        summary: 'Run rm -rf build',
        effects: ['Deletes files for good (not to the trash).'],
        paths: [],
        state: { kind: 'cannot_undo', why: 'Commands cannot be undone: Ask First cannot see everything a command changed.' },
        allowed_by: 'default',
        run_id: RUN_B,
      }),
    ]);
    expect(all(root, 'activity-entry').map((e) => e.dataset.state)).toEqual([
      'done',
      'undone',
      'too_old',
      'cannot_undo',
    ]);
    expect(all(root, 'activity-state').map((e) => e.textContent)).toEqual([
      'Done',
      'Undone',
      'Too old to undo: its copy was cleared to save space',
      'Cannot be undone',
    ]);
    expect(all(root, 'activity-allowed-by').map((e) => e.textContent)).toEqual([
      'You approved it',
      'A rule of yours allowed it',
      'Allowed in that conversation',
      'Allowed without asking',
    ]);
    expect(all(root, 'undo')).toHaveLength(1);
    // Task A has a change left to undo besides an undone one; task B has none left.
    expect(all(root, 'undo-task').map((b) => b.closest('li')?.getAttribute('data-state'))).toEqual([
      'done',
    ]);
    const command = nth(root, 'activity-entry', 3);
    expect(command.textContent).toContain('Commands cannot be undone');
    expect(command.textContent).toContain('Deletes files for good (not to the trash).');
  });

  it('searches by file name and by text', async () => {
    const root = await show([
      entry({ id: 'a', summary: 'Create the file plan.txt (2 lines)', paths: ['plan.txt'] }),
      entry({ id: 'b', summary: 'Move a.txt to Old/a.txt', paths: ['a.txt', 'Old/a.txt'] }),
    ]);
    const search = nth(root, 'activity-search') as HTMLInputElement;
    search.value = 'old/A';
    search.dispatchEvent(new Event('input'));
    flushSync();
    expect(all(root, 'activity-entry')).toHaveLength(1);
    expect(nth(root, 'activity-entry').textContent).toContain('Move a.txt');
    search.value = 'nothing like it';
    search.dispatchEvent(new Event('input'));
    flushSync();
    expect(all(root, 'activity-entry')).toHaveLength(0);
    expect(root.textContent).toContain('Nothing matches “nothing like it”.');
  });

  it('asks before undoing a file changed since, and undoes only after the OK', async () => {
    const root = await show([entry({ id: 'a' })]);
    undoChange.mockResolvedValueOnce({ kind: 'confirm', what_lost: 'notes.txt was changed after the agent\u2019s change.' });
    nth(root, 'undo').click();
    await settle();
    expect(undoChange).toHaveBeenCalledWith(SESSION, 'a', false);
    const confirm = nth(root, 'undo-confirm');
    expect(confirm.textContent).toContain('notes.txt was changed after');
    entries = [entry({ id: 'a', state: { kind: 'undone' } })];
    undoChange.mockResolvedValueOnce({ kind: 'done', message: 'Undone: the change.' });
    nth(root, 'undo-confirm-yes').click();
    await settle();
    expect(undoChange).toHaveBeenLastCalledWith(SESSION, 'a', true);
    expect(all(root, 'undo-confirm')).toHaveLength(0);
    expect(nth(root, 'undo-result').textContent).toBe('Undone: the change.');
    expect(nth(root, 'activity-entry').dataset.state).toBe('undone');
  });

  it('keeps the file as it is when the person says so', async () => {
    const root = await show([entry({ id: 'a' })]);
    undoChange.mockResolvedValueOnce({ kind: 'confirm', what_lost: 'Lost.' });
    nth(root, 'undo').click();
    await settle();
    nth(root, 'undo-confirm-no').click();
    flushSync();
    expect(all(root, 'undo-confirm')).toHaveLength(0);
    expect(undoChange).toHaveBeenCalledTimes(1);
  });

  it('offers "Undo this task" on a task whose newest change cannot be undone (it stops there and says so)', async () => {
    const root = await show([
      entry({ id: 'cmd', tool_name: 'run_command', state: { kind: 'cannot_undo', why: 'Commands cannot be undone.' } }),
      entry({ id: 'w' }),
    ]);
    const buttons = all(root, 'undo-task');
    expect(buttons).toHaveLength(1);
    expect(nth(root, 'undo-task').closest('li')?.getAttribute('data-state')).toBe('cannot_undo');
    expect(all(root, 'undo')).toHaveLength(1);
  });

  it('offers "Undo this task" once per task with more than one change, and says when it fails', async () => {
    const root = await show([
      entry({ id: 'a3' }),
      entry({ id: 'a2' }),
      entry({ id: 'b1', run_id: RUN_B }),
    ]);
    const buttons = all(root, 'undo-task');
    expect(buttons).toHaveLength(1);
    expect(nth(root, 'undo-task').closest('[data-testid="activity-entry"]')).toBe(nth(root, 'activity-entry'));
    undoTask.mockRejectedValueOnce(new Error('Undid 1 of the task\u2019s 2 changes.'));
    nth(root, 'undo-task').click();
    await settle();
    expect(undoTask).toHaveBeenCalledWith(SESSION, RUN_A, false);
    expect(nth(root, 'undo-error').textContent).toContain('Undid 1 of the task');
  });

  it('takes a failed undo\u2019s message away when a later undo works (issue 41.9)', async () => {
    const root = await show([entry({ id: 'a3' }), entry({ id: 'a2' })]);
    undoTask.mockRejectedValueOnce(new Error('0 of the task\u2019s 2 changes were undone.'));
    nth(root, 'undo-task').click();
    await settle();
    expect(all(root, 'undo-error')).toHaveLength(1);
    undoChange.mockResolvedValueOnce({ kind: 'done', message: 'Undone: notes.txt' } as UndoResponse);
    nth(root, 'undo', 1).click();
    await settle();
    expect(nth(root, 'undo-result').textContent).toBe('Undone: notes.txt');
    expect(all(root, 'undo-error')).toHaveLength(0);
  });

  it('shows what a model wrote as text, with hidden characters visible', async () => {
    const root = await show([entry({ summary: 'Create <img src=x onerror=alert(1)> \u202Etxt.exe' })]);
    expect(root.querySelector('img')).toBeNull();
    const text = nth(root, 'activity-entry').textContent ?? '';
    expect(text).toContain('<img src=x onerror=alert(1)>');
    expect(text).not.toContain('\u202E');
  });

  it('shows a file name in the undo question and its answer with hidden characters visible', async () => {
    // The file name is the model's: a bidi override in it must not reorder the question.
    const root = await show([entry({ id: 'a' })]);
    undoChange.mockResolvedValueOnce({
      kind: 'confirm',
      what_lost: 'invoice\u202Etxt.exe was changed after the agent\u2019s change.',
    });
    nth(root, 'undo').click();
    await settle();
    const question = nth(root, 'undo-confirm').textContent ?? '';
    expect(question).not.toContain('\u202E');
    expect(question).toContain('\\u202E');
    undoChange.mockResolvedValueOnce({ kind: 'done', message: 'Undone: Create invoice\u202Etxt.exe\u200B.' });
    nth(root, 'undo-confirm-yes').click();
    await settle();
    const said = nth(root, 'undo-result').textContent ?? '';
    expect(said).not.toMatch(/[\u202E\u200B]/);
    expect(said).toContain('\\u202E');
  });

  it('writes when each change was made as the language in force writes dates and times', async () => {
    const at = Date.UTC(2023, 10, 14, 12, 0, 5);
    const written = (tag: string) =>
      new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'medium' }).format(at);
    try {
      for (const tag of ['pt-BR', 'zh-CN', 'en'] as const) {
        setLanguage(tag);
        const root = await show([entry({ at })]);
        expect(root.querySelector('time')?.textContent).toBe(written(tag));
        if (mounted) unmount(mounted);
        mounted = undefined;
        document.body.replaceChildren();
      }
      // Not the machine's own way: the Portuguese month, the Chinese year mark.
      expect(written('pt-BR')).toContain('nov.');
      expect(written('zh-CN')).toContain('2023年');
    } finally {
      setLanguage('en');
    }
  });
});
