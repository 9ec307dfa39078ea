// The sentences of Settings → "Other agents on this computer", in one place for the
// translation catalogues.

export const otherAgentsWords = {
  heading: 'Other agents on this computer',
  intro:
    'Other AI agents you run in a terminal can ask you here instead, on the same cards. Connect adds Ask First to the agent’s own settings; Disconnect removes exactly that.',
  notFound: 'Not found on this computer',
  connected: 'Asks you through Ask First',
  notConnected: 'Asks in its own terminal',
  connect: 'Connect',
  disconnect: 'Disconnect',
  settingsFile: (file: string) => `Its settings: ${file}`,
  connectLabel: (name: string) => `Connect ${name}`,
  disconnectLabel: (name: string) => `Disconnect ${name}`,
};
