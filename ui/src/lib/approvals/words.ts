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
  /**
   * With a command: the block's heading, "Claude Code, in the folder ~/projects/site, would
   * run:", above the command itself (the block's text, exactly as sent; a line break in it
   * stays visible as one).
   */
  whoAsksToRun: (agent: string, folder: string) => t('external-who-asks-to-run', { agent, folder }),
  /** The block's tooltip. */
  tooltip: (agent: string) => t('external-tooltip', { agent }),
};
