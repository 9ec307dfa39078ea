// The backend connection (`../ipc`) as the component tests mock it: one place that lists every
// call the tested panels make, answering as an empty backend would (no sessions, no rules, no
// other agents, nothing waiting). A test passes only what it checks:
//
//   vi.mock('./ipc', async () => (await import('./test/backend')).backend({
//     getSettings: () => Promise.resolve(view),
//   }));
//
// A new ipc call a panel makes then needs one line here, not one in every test file.
import { vi } from 'vitest';
import type { SettingsView } from '../bindings/SettingsView';

/** A settings view of the demo provider in English; `overrides` replace its fields. */
export function settingsView(overrides: Partial<SettingsView> = {}): SettingsView {
  return {
    provider: 'demo',
    providers: [
      { kind: 'demo', label: 'Demo', default_base_url: '', default_model: '', has_service: false, needs_key: false },
    ],
    base_url: '',
    model: '',
    has_api_key: false,
    key_storage: { place: 'keyring', sentence: 'A key you save here is kept in the desktop\'s keyring.' },
    approval_timeout_secs: 120,
    approval_timeout_range: { min: 10, max: 3600 },
    notify: 'unfocused',
    notification_approvals: { new_files: false },
    set_by_environment: [],
    rules_path: '/data/rules.toml',
    rules: [],
    workspace: '/work',
    mcp_servers: [],
    effective_language: 'en',
    ...overrides,
  };
}

/** An error of the backend, as `../ipc` throws it. */
export class IpcError extends Error {}

/** A listener that is never called; it returns its "stop listening". */
const off = async () => () => {};

/** The mocked `../ipc` module: every call a `vi.fn()`, `overrides` taking their place. */
export function backend(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    IpcError,
    // Settings
    getSettings: vi.fn(async () => settingsView()),
    saveSettings: vi.fn(),
    setNotificationApprovals: vi.fn(),
    getStartAtLogin: vi.fn(async () => false),
    setStartAtLogin: vi.fn(),
    listRules: vi.fn(async () => ({ path: '/data/rules.toml', rules: [], actions: [], folders: [] })),
    removeRule: vi.fn(),
    saveMcpServer: vi.fn(),
    removeMcpServer: vi.fn(),
    listOtherAgents: vi.fn(async () => []),
    listWorkers: vi.fn(async () => ({
      chosen: { id: 'askfirst', name: '', command: '' },
      choices: [{ id: 'askfirst', name: '', command: '' }],
    })),
    chooseWorker: vi.fn(async () => ({
      chosen: { id: 'askfirst', name: '', command: '' },
      choices: [{ id: 'askfirst', name: '', command: '' }],
    })),
    listGoneRequests: vi.fn(async () => ({ requests: [], more: 0 })),
    dismissGoneRequest: vi.fn(async () => ({ requests: [], more: 0 })),
    testConnection: vi.fn(),
    findLocalModels: vi.fn(),
    // Conversations and runs
    listSessions: vi.fn(async () => []),
    openSession: vi.fn(),
    newSession: vi.fn(),
    startRun: vi.fn(),
    cancelRun: vi.fn(),
    listRunEvents: vi.fn(async () => []),
    onRunEvent: vi.fn(off),
    // Approvals and grants
    listPendingApprovals: vi.fn(async () => []),
    onApprovalRequired: vi.fn(off),
    onApprovalResolved: vi.fn(off),
    onFocusApproval: vi.fn(off),
    listGrants: vi.fn(async () => []),
    getSessionPolicy: vi.fn(async () => 'ask'),
    // The window
    onCloseKept: vi.fn(off),
    quitApp: vi.fn(),
    getFolder: vi.fn(async () => ({
      path: '/home/ann/Documents/Taxes',
      display: '~/Documents/Taxes',
      is_demo: false,
      set_by_environment: false,
      missing: false,
      change_starts_new_conversation: false,
    })),
    getWelcome: vi.fn(async () => ({ show: false })),
    ...overrides,
  };
}
