// Every sentence of the Activity panel, in one place. The words themselves are in
// locales/<tag>/window.ftl (keys activity-…); each is read when shown, so a change of language
// applies at once.
import type { AllowedBy } from '../bindings/AllowedBy';
import { t } from '../i18n/i18n.svelte';

export const words = {
  get title(): string {
    return t('activity-title');
  },
  /** The header button that opens the panel. */
  get open(): string {
    return t('activity-open');
  },
  get intro(): string {
    return t('activity-intro');
  },
  get search(): string {
    return t('activity-search');
  },
  get empty(): string {
    return t('activity-empty');
  },
  noMatch: (query: string) => t('activity-no-match', { query }),
  get close(): string {
    return t('activity-close');
  },
  get undo(): string {
    return t('activity-undo');
  },
  get undoTask(): string {
    return t('activity-undo-task');
  },
  get confirmTitle(): string {
    return t('activity-confirm-title');
  },
  get confirmYes(): string {
    return t('activity-confirm-yes');
  },
  get confirmNo(): string {
    return t('activity-confirm-no');
  },
  inConversation: (title: string) =>
    title ? t('activity-in-conversation', { title }) : t('activity-in-untitled'),
  allowedBy: (who: AllowedBy): string => {
    switch (who) {
      case 'person':
        return t('activity-by-person');
      case 'rule':
        return t('activity-by-rule');
      case 'grant':
        return t('activity-by-grant');
      case 'default':
        return t('activity-by-default');
    }
  },
  get stateDone(): string {
    return t('activity-state-done');
  },
  get stateUndone(): string {
    return t('activity-state-undone');
  },
  get stateTooOld(): string {
    return t('activity-state-too-old');
  },
  get stateCannot(): string {
    return t('activity-state-cannot');
  },
  get cardSaid(): string {
    return t('activity-card-said');
  },
};
