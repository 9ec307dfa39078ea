// Reading the backend's change preview (`unified_diff` in src-tauri/core/src/tools/fs.rs): a
// unified diff of one file. Its `--- `/`+++ ` header lines come only before the first `@@`;
// after that every line starts with ` ` (unchanged), `+` (added), `-` (removed), `\` (the
// line before has no line break) or is another `@@` hunk header. The one line that starts
// with none of them is the backend's note where a long diff was cut,
// `[… N lines not shown: A added, R removed …]`. Lines are classified by that state, never
// by what their text looks like: a file line `++x` is `+` then `+x`, an added line.

import { t } from './i18n/i18n.svelte';

/** What one line of the diff is. */
export type DiffLineKind =
  | 'header' // `--- a/…` or `+++ b/…` before the first hunk (the file's name; not shown)
  | 'hunk' // `@@ -1,3 +1,4 @@`: a new stretch of the file
  | 'add' // a line the change adds
  | 'del' // a line the change removes
  | 'same' // an unchanged line around the change
  | 'no-newline' // `\ No newline at end of file`, about the line before
  | 'cut' // the backend's note that lines were left out here
  | 'other'; // anything else (never made by the backend): shown as it is

/** One line of the diff: its kind and, for file lines, the file's text without the mark. */
export type DiffLine = { kind: DiffLineKind; mark: string; text: string };

/** How much of the change a cut diff leaves out (from the backend's note). */
export type DiffCut = { lines: number; added: number; removed: number } | { lines: null };

const CUT_NOTE = /^\[… (.*) …\]$/;
const CUT_COUNTS = /^(\d+) lines? not shown: (\d+) added, (\d+) removed$/;

/** The lines of `diff` (a final line break ends the last line, it does not start another). */
export function parseDiff(diff: string): DiffLine[] {
  const raw = diff.split('\n');
  if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop();
  let inHunks = false;
  return raw.map((line): DiffLine => {
    if (CUT_NOTE.test(line)) {
      // What follows a cut is inside a hunk whose header may have been left out.
      inHunks = true;
      return { kind: 'cut', mark: '', text: line };
    }
    if (line.startsWith('@@')) {
      inHunks = true;
      return { kind: 'hunk', mark: '', text: line };
    }
    if (!inHunks) {
      if (line.startsWith('--- ') || line.startsWith('+++ ')) {
        return { kind: 'header', mark: '', text: line };
      }
      return { kind: 'other', mark: '', text: line };
    }
    const mark = line.slice(0, 1);
    const text = line.slice(1);
    switch (mark) {
      case '+':
        return { kind: 'add', mark, text };
      case '-':
        return { kind: 'del', mark, text };
      case ' ':
        return { kind: 'same', mark, text };
      case '\\':
        return { kind: 'no-newline', mark, text };
      default:
        return { kind: 'other', mark: '', text: line };
    }
  });
}

/** The counts in a cut note's line, or `{ lines: null }` when it does not give them. */
export function cutCounts(note: string): DiffCut {
  const inner = CUT_NOTE.exec(note)?.[1] ?? '';
  const counts = CUT_COUNTS.exec(inner);
  if (!counts) return { lines: null };
  return { lines: Number(counts[1]), added: Number(counts[2]), removed: Number(counts[3]) };
}

/** The cut note in words, for where the lines were left out. */
export function cutNoteText(note: string): string {
  const cut = cutCounts(note);
  if (cut.lines === null) return note;
  return t('diff-cut-note', {
    count: cut.lines,
    added: cut.added,
    removed: cut.removed,
  });
}

/** The sentence for the card when part of the change is not shown, or `null`. */
export function cutWarning(lines: DiffLine[]): string | null {
  const notes = lines.filter((l) => l.kind === 'cut');
  if (notes.length === 0) return null;
  const left = notes.map((l) => cutCounts(l.text));
  const known = left.every((c) => c.lines !== null);
  const total = left.reduce((sum, c) => sum + (c.lines ?? 0), 0);
  return known ? t('diff-cut-warning', { count: total }) : t('diff-cut-warning-some');
}
