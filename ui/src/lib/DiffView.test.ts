import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import DiffView from './DiffView.svelte';

// Each case is a diff as the backend's `unified_diff` writes it, and what a person sees: every
// line of the diff box with its kind (added, removed, unchanged, a note) and its text.

let mounted: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (mounted) unmount(mounted);
  mounted = undefined;
  document.body.replaceChildren();
});

function show(diff: string) {
  const target = document.createElement('div');
  document.body.append(target);
  mounted = mount(DiffView, { target, props: { diff } });
  flushSync();
  const box = target.querySelector('[data-testid="approval-diff"]');
  if (!box) throw new Error('no diff box');
  const kinds = ['add', 'del', 'same', 'hunk', 'note', 'cut', 'other'];
  const lines = [...box.querySelectorAll('.line')].map((el) => [
    kinds.find((k) => el.classList.contains(k)) ?? '?',
    (el.textContent ?? '').trim(),
  ]);
  const warning = target.querySelector('[data-testid="approval-diff-cut"]')?.textContent ?? null;
  return { lines, warning };
}

const header = '--- /dev/null\n+++ b/run.py\n';

describe('DiffView', () => {
  it('shows every added line, whatever it starts with, as added', () => {
    // write_file with content "print('hi')\n++__import__('os')…" and lines that look like
    // diff syntax: each is one added line, marked once.
    const diff =
      header +
      '@@ -0,0 +1,10 @@\n' +
      "+print('hi')\n" +
      "++__import__('os').system('rm -rf ~')\n" +
      '++\n' +
      '+-\n' +
      '+++\n' +
      '+--\n' +
      '++++ b/other.txt\n' +
      '+--- a/other.txt\n' +
      '+@@ -1 +1 @@\n' +
      '+\\ No newline at end of file\n';
    expect(show(diff)).toEqual({
      lines: [
        ['add', "+print('hi')"],
        ['add', "++__import__('os').system('rm -rf ~')"],
        ['add', '++'],
        ['add', '+-'],
        ['add', '+++'],
        ['add', '+--'],
        ['add', '++++ b/other.txt'],
        ['add', '+--- a/other.txt'],
        ['add', '+@@ -1 +1 @@'],
        ['add', '+\\ No newline at end of file'],
      ],
      warning: null,
    });
  });

  it('shows every removed line, whatever it starts with, as removed', () => {
    const diff =
      '--- a/schema.sql\n+++ b/schema.sql\n' +
      '@@ -1,6 +1,2 @@\n' +
      ' create table t (id int);\n' +
      '--- drop the old table\n' +
      '---- a/schema.sql\n' +
      '-+++ b/schema.sql\n' +
      '--\n' +
      '-\n' +
      ' select 1;\n';
    expect(show(diff).lines).toEqual([
      ['same', 'create table t (id int);'],
      ['del', '--- drop the old table'],
      ['del', '---- a/schema.sql'],
      ['del', '-+++ b/schema.sql'],
      ['del', '--'],
      ['del', '-'],
      ['same', 'select 1;'],
    ]);
  });

  it('says in words that the last line has no line break, only for the marker line', () => {
    const diff =
      '--- a/a.txt\n+++ b/a.txt\n' +
      '@@ -1 +1,2 @@\n' +
      '-old\n' +
      '\\ No newline at end of file\n' +
      '+\\ No newline at end of file\n' +
      '+new\n' +
      '\\ No newline at end of file\n' +
      '@@ -10,2 +11 @@\n' +
      '-@@ -10 +11 @@\n' +
      '--- \\ No newline at end of file\n';
    expect(show(diff).lines).toEqual([
      ['del', '-old'],
      ['note', '(the line above has no line break after it)'],
      ['add', '+\\ No newline at end of file'],
      ['add', '+new'],
      ['note', '(the line above has no line break after it)'],
      ['hunk', '⋯'],
      ['del', '-@@ -10 +11 @@'],
      ['del', '--- \\ No newline at end of file'],
    ]);
  });

  it('shows where a long diff was cut as a note, and says above it that part is not shown', () => {
    // A file line with the note's words is an added line: only an unprefixed line is the note.
    const diff =
      header +
      '@@ -0,0 +1,5000 @@\n' +
      '+[… 4,998 lines not shown: 4998 added, 0 removed …]\n' +
      '+line 2\n' +
      '[… 4997 lines not shown: 4997 added, 0 removed …]\n' +
      '++++ after the cut\n' +
      '---- also after the cut\n';
    expect(show(diff)).toEqual({
      lines: [
        ['add', '+[… 4,998 lines not shown: 4998 added, 0 removed …]'],
        ['add', '+line 2'],
        ['cut', '… 4,997 lines not shown here (4,997 added, 0 removed) …'],
        ['add', '++++ after the cut'],
        ['del', '---- also after the cut'],
      ],
      warning:
        'This change is too long to show in full: 4,997 lines of it are not shown below. ' +
        'Open "Exact details" to see everything the agent sent.',
    });
  });

  it('shows a line that fits no part of a diff as it is, never drops it', () => {
    const diff = header + 'stray before the hunk\n@@ -0,0 +1 @@\n+a\nstray inside\n';
    expect(show(diff).lines).toEqual([
      ['other', 'stray before the hunk'],
      ['hunk', '⋯'],
      ['add', '+a'],
      ['other', 'stray inside'],
    ]);
  });
});
