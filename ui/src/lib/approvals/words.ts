// The sentences the card says about a request from another agent on this computer (the
// inbox). The words themselves are in locales/<tag>/window.ftl.
import { t } from '../i18n/i18n.svelte';

export const externalWords = {
  /** The heading of the block that says who asks. */
  get whoAsksTitle(): string {
    return t('external-who-asks-title');
  },
  /** The block's text: "Claude Code, in the folder ~/projects/site". */
  whoAsks: (agent: string, folder: string) => t('external-who-asks', { agent, folder }),
  /** With the command it would run, on its own line below the sentence. */
  whoAsksToRun: (agent: string, folder: string, command: string) =>
    `${t('external-who-asks-to-run', { agent, folder })}\n${command}`,
  /** The block's tooltip. */
  tooltip: (agent: string) => t('external-tooltip', { agent }),
};
