// How the card shows a call's typed detail (bindings' CallDetail), one rendering per kind,
// whichever tool made it. A new kind of detail is a type error here until it has one.

import { assertNever } from '../assert';
import { t } from '../i18n/i18n.svelte';
import type { CallDetail } from '../bindings/CallDetail';
import { externalWords } from './words';

/** What the card's "change" block shows for one detail. */
export interface DetailView {
  /** The block's heading, in plain words. */
  title: string;
  /** The exact text, shown as code (never folded, never parsed again). */
  text: string;
  /** More about it, as the block's tooltip. */
  tooltip: string;
  /** The block's test id (the automation contract). */
  testId: string;
  /**
   * What it will do that matters, one plain sentence each (the core's English), for the
   * top of the card's list of effects; empty when it says nothing more.
   */
  effects: string[];
}

/** The card's rendering of `detail`. */
export function detailView(detail: CallDetail): DetailView {
  switch (detail.kind) {
    case 'command':
      // Tried on a copy first, the card shows what it did above; Approve applies exactly that.
      return {
        title: detail.tried ? t('detail-command-tried-title') : t('detail-command-title'),
        text: detail.line,
        tooltip: detail.tried
          ? t('detail-command-tried-in', { folder: detail.working_folder })
          : t('detail-command-runs-in', { folder: detail.working_folder }),
        testId: 'approval-command',
        effects: (detail.effects ?? []).map((effect) => effect.text),
      };
    case 'external':
      return {
        title:
          detail.command === undefined
            ? externalWords.whoAsksTitle
            : externalWords.whoAsksToRun(detail.agent, detail.folder),
        text: detail.command ?? externalWords.whoAsks(detail.agent, detail.folder),
        tooltip: externalWords.tooltip(detail.agent),
        testId: 'approval-external',
        effects: [],
      };
    default:
      return assertNever(detail);
  }
}
