// The sentences of Settings → "Other agents on this computer". The words themselves are in
// locales/<tag>/window.ftl; each is read when shown, so a change of language applies at once.
import { t } from '../i18n/i18n.svelte';

export const otherAgentsWords = {
  get heading(): string {
    return t('other-agents-heading');
  },
  get intro(): string {
    return t('other-agents-intro');
  },
  get notFound(): string {
    return t('other-agents-not-found');
  },
  get connected(): string {
    return t('other-agents-connected');
  },
  get notConnected(): string {
    return t('other-agents-not-connected');
  },
  get connect(): string {
    return t('other-agents-connect');
  },
  get disconnect(): string {
    return t('other-agents-disconnect');
  },
  /** Codex runs a hook from hooks.json only once the person trusts it in Codex (`/hooks`). */
  get codexTrust(): string {
    return t('other-agents-codex-trust');
  },
  settingsFile: (file: string) => t('other-agents-settings-file', { file }),
  connectLabel: (name: string) => t('other-agents-connect-label', { name }),
  disconnectLabel: (name: string) => t('other-agents-disconnect-label', { name }),
};
