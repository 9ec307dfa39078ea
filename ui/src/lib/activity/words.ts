// Every sentence of the Activity panel, in one place (the translations take them from here).
import type { AllowedBy } from '../bindings/AllowedBy';

export const words = {
  title: 'Activity',
  intro:
    'Everything the agent changed, newest first, in every conversation. You can undo a change, or a whole task.',
  search: 'Search by file name or words',
  empty: 'Nothing has been changed yet.',
  noMatch: (query: string) => `Nothing matches “${query}”.`,
  close: 'Close',
  undo: 'Undo',
  undoTask: 'Undo this task',
  undoing: 'Undoing…',
  confirmTitle: 'Undoing will lose something',
  confirmYes: 'Undo anyway',
  confirmNo: 'Keep it as it is',
  inConversation: (title: string) => (title ? `In “${title}”` : 'In a conversation without a title'),
  allowedBy: (who: AllowedBy): string =>
    ({
      person: 'You approved it',
      rule: 'A rule of yours allowed it',
      grant: 'Allowed in that conversation',
      default: 'Allowed without asking',
    })[who],
  stateDone: 'Done',
  stateUndone: 'Undone',
  stateTooOld: 'Too old to undo: its copy was cleared to save space',
  stateCannot: 'Cannot be undone',
  cardSaid: 'The card said:',
} as const;
