// What a command did when Ask First tried it on a copy of the person's folder (bindings'
// TriedCommand), put the way the card says it: the changes grouped by kind, each group with a
// counted sentence, each change a sentence whose path (or link target) is a slot the card
// fills with VisibleText. The words are in locales/<tag>/window.ftl.

import { assertNever } from '../assert';
import { t, type Args } from '../i18n/i18n.svelte';
import type { ChangeKind } from '../bindings/ChangeKind';
import type { FileChange } from '../bindings/FileChange';

/** The order the groups show in: what cannot be seen again afterwards first. */
export const KIND_ORDER: readonly ChangeKind[] = [
  'deleted',
  'changed',
  'created',
  'moved',
  'mode',
  'link',
];

/** The changes of one kind, in the order the backend sent them (by path). */
export interface ChangeGroup {
  kind: ChangeKind;
  changes: FileChange[];
  /** How many of them are files (not folders). */
  files: number;
  /** How many of them are folders. */
  folders: number;
}

/** `changes` grouped by kind, in `KIND_ORDER`; kinds with no change are left out. */
export function groupChanges(changes: readonly FileChange[]): ChangeGroup[] {
  const by = new Map<ChangeKind, ChangeGroup>();
  for (const kind of KIND_ORDER) by.set(kind, { kind, changes: [], files: 0, folders: 0 });
  for (const change of changes) {
    // The bindings are checked against the protocol, so every kind has its group; one that
    // is not known still shows (and `groupHeading` says loudly that it is not).
    let group = by.get(change.change);
    if (!group) {
      group = { kind: change.change, changes: [], files: 0, folders: 0 };
      by.set(change.change, group);
    }
    group.changes.push(change);
    if (change.folder) group.folders++;
    else group.files++;
  }
  return [...by.values()].filter((g) => g.changes.length > 0);
}

/** Whether any of the "executable" bits (owner, group, others) is set in `mode`. */
export const executable = (mode: number) => (mode & 0o111) !== 0;

/** `mode`'s permission bits as `ls -l` writes them ("rwxr-xr-x"). */
export function modeLetters(mode: number): string {
  let out = '';
  for (let shift = 6; shift >= 0; shift -= 3) {
    const bits = (mode >> shift) & 7;
    out += (bits & 4 ? 'r' : '-') + (bits & 2 ? 'w' : '-') + (bits & 1 ? 'x' : '-');
  }
  return out;
}

/** Which of the three forms a group's sentence takes. */
const shape = (g: ChangeGroup) => (g.folders === 0 ? 'files' : g.files === 0 ? 'folders' : 'both');

/** The group's counted sentence: "Delete 3 files", "Create 1 folder and 2 files", … */
export function groupHeading(g: ChangeGroup): string {
  const counts: Args = { shape: shape(g), files: g.files, folders: g.folders };
  switch (g.kind) {
    case 'deleted':
      return t('tried-group-deleted', counts);
    case 'created':
      return t('tried-group-created', counts);
    case 'changed':
      return t('tried-group-changed', { count: g.changes.length });
    case 'moved':
      return t('tried-group-moved', counts);
    case 'mode':
      return t('tried-group-mode', counts);
    case 'link':
      return t('tried-group-link', { count: g.changes.length });
    default:
      return assertNever(g.kind);
  }
}

/** A piece of a sentence: text from the catalogue, or the place of a path or link target. */
export type Part = { text: string } | { slot: 'path' | 'target' };

// Stand-ins for the slots while Fluent formats the sentence: characters of the Private Use
// Area, which no catalogue holds. The path itself never goes through Fluent (it is shown by
// VisibleText, escapes and all), so nothing in it can be taken for a slot.
const SLOT = { path: '\uE000', target: '\uE001' } as const;

/** The arguments that put the slots' stand-ins in a sentence: `t(key, SLOTS)`. */
export const SLOTS = { path: SLOT.path, target: SLOT.target };

/**
 * A sentence formatted with `SLOTS`, cut where `$path` and `$target` stand, so the card shows
 * the catalogue's whole sentence with the path (shown visibly) in its place.
 */
export function slotted(sentence: string): Part[] {
  const parts: Part[] = [];
  for (const piece of sentence.split(/([\uE000\uE001])/)) {
    if (piece === SLOT.path) parts.push({ slot: 'path' });
    else if (piece === SLOT.target) parts.push({ slot: 'target' });
    else if (piece !== '') parts.push({ text: piece });
  }
  return parts;
}

/** How the card words one change: its sentence, with the path (and target) in slots. */
export function changeSentence(c: FileChange): Part[] {
  switch (c.change) {
    case 'deleted':
    case 'created':
      return c.folder ? slotted(t('tried-item-folder-whole', SLOTS)) : [{ slot: 'path' }];
    case 'changed':
      return [{ slot: 'path' }];
    case 'moved':
      return c.folder ? slotted(t('tried-item-folder', SLOTS)) : [{ slot: 'path' }];
    case 'mode':
      if (c.mode !== undefined && executable(c.mode) && !c.folder) {
        return slotted(t('tried-item-executable', SLOTS));
      }
      return slotted(c.folder ? t('tried-item-mode-folder', SLOTS) : t('tried-item-mode', SLOTS));
    case 'link':
      if (c.target === undefined) return [{ slot: 'path' }];
      return slotted(
        c.outside ? t('tried-item-link-outside', SLOTS) : t('tried-item-link', SLOTS),
      );
    default:
      return assertNever(c.change);
  }
}
