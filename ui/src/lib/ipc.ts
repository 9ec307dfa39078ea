// The only module that talks to the Tauri backend (and the seam unit tests mock).
// Commands and events are those of src-tauri/src/commands.rs and bridge.rs (event names in
// ./events.ts); their payload types are generated from askfirst-protocol into ./bindings.

import { invoke } from '@tauri-apps/api/core';
import { listen, type UnlistenFn } from '@tauri-apps/api/event';
import { getCurrentWindow } from '@tauri-apps/api/window';
import { benchMark } from './bench';
import { EVENT_NAMES, inFrames, inFramesFirst } from './events';
import { internalFailure } from './errors/notice';
import type { ApprovalId } from './bindings/ApprovalId';
import type { ApprovalRequest } from './bindings/ApprovalRequest';
import type { ApprovalResolvedEvent } from './bindings/ApprovalResolvedEvent';
import type { CommandError } from './bindings/CommandError';
import type { Decision } from './bindings/Decision';
import type { ErrorCode } from './bindings/ErrorCode';
import type { Grant } from './bindings/Grant';
import type { Outcome } from './bindings/Outcome';
import type { RunId } from './bindings/RunId';
import type { RunEventsPage } from './bindings/RunEventsPage';
import type { SequencedEvent } from './bindings/SequencedEvent';
import type { SessionId } from './bindings/SessionId';
import type { SessionPolicy } from './bindings/SessionPolicy';
import type { SessionSummary } from './bindings/SessionSummary';
import type { SaveMcpServerRequest } from './bindings/SaveMcpServerRequest';
import type { SaveSettingsRequest } from './bindings/SaveSettingsRequest';
import type { SettingsView } from './bindings/SettingsView';
import type { NotificationApprovals } from './bindings/NotificationApprovals';
import type { StartAtLoginRequest } from './bindings/StartAtLoginRequest';
import type { StartRunResponse } from './bindings/StartRunResponse';
import type { RuleChoice } from './bindings/RuleChoice';
import type { RulesView } from './bindings/RulesView';
import type { FolderView } from './bindings/FolderView';
import type { PickFolderResponse } from './bindings/PickFolderResponse';
import type { WelcomeView } from './bindings/WelcomeView';

export type { UnlistenFn };

/**
 * A command failed; `code` says how (see ErrorCode), `message` is for the person, `detail` the
 * technical side for "Details" (null when there is none).
 */
export class IpcError extends Error {
  readonly code: ErrorCode;
  readonly detail: string | null;
  constructor(code: ErrorCode, message: string, detail: string | null = null) {
    super(message);
    this.name = 'IpcError';
    this.code = code;
    this.detail = detail;
  }
}

function isCommandError(value: unknown): value is CommandError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as CommandError).code === 'string' &&
    typeof (value as CommandError).message === 'string'
  );
}

async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (error) {
    if (isCommandError(error)) {
      throw new IpcError(error.code, error.message, error.detail ?? null);
    }
    // Not one of Ask First's errors (Tauri's own, e.g. a refused command): worded as a failure
    // inside Ask First, with what Tauri said as the detail.
    throw new IpcError(
      'internal',
      internalFailure(),
      error instanceof Error ? error.message : String(error),
    );
  }
}

export function startRun(task: string): Promise<StartRunResponse> {
  return call('start_run', { request: { task } });
}

export function resolveApproval(approvalId: ApprovalId, decision: Decision): Promise<Outcome> {
  return call('resolve_approval', { request: { approval_id: approvalId, decision } });
}

export function listPendingApprovals(): Promise<ApprovalRequest[]> {
  return call('list_pending_approvals');
}

export function cancelRun(runId: RunId): Promise<boolean> {
  return call('cancel_run', { request: { run_id: runId } });
}

/** How long the event poller waits after a failed `wait_run_events` before it asks again, in ms. */
export const RUN_EVENTS_RETRY_MS = 1000;

/** What takes each of the backend's numbered events, in order. */
type RunEventSubscriber = (sequenced: SequencedEvent) => void;

const runEventSubscribers = new Set<RunEventSubscriber>();
/** Settles once the poller knows where the history ended when it started; null: not polling. */
let polling: Promise<void> | null = null;
/** Bumped when the poller stops: a loop of an earlier number ends at its next answer. */
let pollGeneration = 0;

/**
 * Takes the backend's numbered events with `wait_run_events`, a long poll: each call answers
 * as soon as there are events after the last it gave (or after ~20 s with none), and the next
 * call is made at once. The backend used to emit them, but an emitted event is a script that
 * WebKit evaluates in the page, and it kept ~4–6 kB of the page's memory for each; a command's
 * answer is read as JSON and freed (BENCHMARKS.md, "No growth: where the page's memory went").
 * The first call asks only where the history ends: events from then on are handed on, in
 * order; what came before is for `list_run_events` and `list_pending_approvals`.
 */
function pollRunEvents(): Promise<void> {
  const mine = ++pollGeneration;
  return new Promise((ready) => {
    let next: number | null = null;
    void (async () => {
      while (mine === pollGeneration) {
        try {
          const page = await runEventsFrom(next);
          if (mine !== pollGeneration) return;
          for (const sequenced of page.events) {
            for (const subscriber of runEventSubscribers) {
              try {
                subscriber(sequenced);
              } catch (error) {
                console.error('an event handler failed', error);
              }
            }
          }
          if (next === null) ready();
          next = page.next;
        } catch (error) {
          console.error('could not take the backend events', error);
          await new Promise((done) => setTimeout(done, RUN_EVENTS_RETRY_MS));
        }
      }
    })();
  });
}

/**
 * Hands each of the backend's numbered events to `subscriber`, in order, until the returned
 * function is called; resolves once the events are being taken (so what is listed after it
 * resolves overlaps what is handed on, and nothing falls between).
 */
async function subscribeRunEvents(subscriber: RunEventSubscriber): Promise<UnlistenFn> {
  runEventSubscribers.add(subscriber);
  polling ??= pollRunEvents();
  await polling;
  return () => {
    runEventSubscribers.delete(subscriber);
    if (runEventSubscribers.size === 0 && polling) {
      polling = null;
      pollGeneration++;
    }
  };
}

/**
 * Listens to `single` (one payload), to `run-events` (a list of SequencedEvent) and to the
 * backend's numbered events (`subscribeRunEvents`), of which `pick` takes what this listener
 * wants, handing each payload on in arrival order. The backend's events come only through the
 * poller; the emitted ones are still taken (the benchmark feeds the window with them).
 */
async function listenBoth<T>(
  single: string,
  pick: (e: SequencedEvent) => T | undefined,
  handle: (payload: T) => void,
): Promise<UnlistenFn> {
  const take = (sequenced: SequencedEvent) => {
    const payload = pick(sequenced);
    if (payload !== undefined) handle(payload);
  };
  const offs = await Promise.all([
    listen<T>(single, (e) => handle(e.payload)),
    listen<SequencedEvent[]>(EVENT_NAMES.runEvents, (e) => e.payload.forEach(take)),
    subscribeRunEvents(take),
  ]);
  return () => offs.forEach((off) => off());
}

export function onApprovalRequired(handler: (r: ApprovalRequest) => void): Promise<UnlistenFn> {
  const inOrder = inFramesFirst((r: ApprovalRequest) => handler(r));
  return listenBoth<ApprovalRequest>(
    EVENT_NAMES.approvalRequired,
    (e) => {
      if (e.event.type !== 'approval_required') return undefined;
      const { type, ...request } = e.event;
      void type;
      return request;
    },
    (r) => {
      // When the backend's event reached the page, before it waits for a frame (bench only).
      benchMark(r.approval_id, 'arrived');
      inOrder(r);
    },
  );
}

export function onApprovalResolved(
  handler: (r: ApprovalResolvedEvent) => void,
): Promise<UnlistenFn> {
  return listenBoth<ApprovalResolvedEvent>(
    EVENT_NAMES.approvalResolved,
    (e) => {
      if (e.event.type !== 'approval_resolved') return undefined;
      const { type, ...resolved } = e.event;
      void type;
      return resolved;
    },
    inFrames(handler),
  );
}

export function listGrants(): Promise<Grant[]> {
  return call('list_grants');
}

export function revokeGrant(grant: Grant): Promise<boolean> {
  return call('revoke_grant', {
    request: { tool_name: grant.tool_name, canonical_arguments: grant.canonical_arguments },
  });
}

export function getSessionPolicy(): Promise<SessionPolicy> {
  return call('get_session_policy');
}

export function setSessionPolicy(policy: SessionPolicy): Promise<SessionPolicy> {
  return call('set_session_policy', { request: { policy } });
}

export function listSessions(): Promise<SessionSummary[]> {
  return call('list_sessions');
}

export function openSession(sessionId: SessionId): Promise<void> {
  return call('open_session', { request: { session_id: sessionId } });
}

export function newSession(): Promise<SessionId> {
  return call('new_session');
}

/** "Who does the work" in the conversation in the window, and the choices. */
export function listWorkers(): Promise<import('./bindings/WorkersView').WorkersView> {
  return call('list_workers');
}

/** Chooses who does the work from the next task on; returns the choices again. */
export function chooseWorker(
  id: string,
  command: string,
): Promise<import('./bindings/WorkersView').WorkersView> {
  return call('choose_worker', { request: { id, command } });
}

export function listRunEvents(): Promise<SequencedEvent[]> {
  return call('list_run_events');
}

/**
 * The backend's numbered events from `next` on, at once when there are any (at most 256 and
 * ~1 MiB; `wait_run_events`, answered from memory or the history's spool), else after ~20 s
 * with none; `null`: where the history ends, at once. The event poller's long poll, and how the
 * window reads back an earlier run of the conversation that it let go of.
 */
export function runEventsFrom(next: number | null): Promise<RunEventsPage> {
  return call('wait_run_events', { request: { next } });
}

export function onRunEvent(handler: (e: SequencedEvent) => void): Promise<UnlistenFn> {
  return listenBoth<SequencedEvent>(EVENT_NAMES.runEvent, (e) => e, inFrames(handler));
}

/** The person picked an approval in the tray: payload its id. */
export function onFocusApproval(handler: (approvalId: ApprovalId) => void): Promise<UnlistenFn> {
  return listen<ApprovalId>(EVENT_NAMES.focusApproval, inFrames((e) => handler(e.payload)));
}

export function getSettings(): Promise<SettingsView> {
  return call('get_settings');
}

export function saveSettings(request: SaveSettingsRequest): Promise<SettingsView> {
  return call('save_settings', { request });
}

/** Saves which requests a notification may approve, at once; returns the settings in force. */
export function setNotificationApprovals(request: NotificationApprovals): Promise<SettingsView> {
  return call('set_notification_approvals', { request });
}

/** Whether Ask First starts when the person logs in (its autostart entry is there). */
export function getStartAtLogin(): Promise<boolean> {
  return call('get_start_at_login');
}

/** Writes or removes the autostart entry; resolves to whether it is there now. */
export function setStartAtLogin(enabled: boolean): Promise<boolean> {
  const request: StartAtLoginRequest = { enabled };
  return call('set_start_at_login', { request });
}

export function removeRule(rule: string): Promise<SettingsView> {
  return call('remove_rule', { request: { rule } });
}

export function saveMcpServer(request: SaveMcpServerRequest): Promise<SettingsView> {
  return call('save_mcp_server', { request });
}

export function removeMcpServer(name: string): Promise<SettingsView> {
  return call('remove_mcp_server', { request: { name } });
}

/** The rules as sentences and the "Add a rule" form's choices (re-reads the rules file). */
export function listRules(): Promise<RulesView> {
  return call('list_rules');
}

export function addRule(choice: RuleChoice): Promise<RulesView> {
  return call('add_rule', { request: { choice } });
}

/** Replaces the rule named by its one-line form `rule` with `choice`. */
export function changeRule(rule: string, choice: RuleChoice): Promise<RulesView> {
  return call('change_rule', { request: { rule, choice } });
}

/** Calls `handler` when closing the window only minimised it (no tray on this desktop). */
export function onCloseKept(handler: () => void): Promise<UnlistenFn> {
  return listen<null>(EVENT_NAMES.closeKept, () => handler());
}

/**
 * Quits Ask First from the window: destroys it (no close-to-tray), and the app ends with its
 * last window, as it does from the tray's Quit (waiting approvals end as cancelled, a running
 * task is stopped).
 */
export function quitApp(): Promise<void> {
  return getCurrentWindow().destroy();
}

/** "Test the connection": one tiny request with the provider settings on screen (not saved). */
export function testConnection(
  request: import('./bindings/TestConnectionRequest').TestConnectionRequest,
): Promise<import('./bindings/ConnectionTestResult').ConnectionTestResult> {
  return call('test_connection', { request });
}

/** Whether Ollama runs at `baseUrl` ("" for 127.0.0.1:11434), and its installed models. */
export function findLocalModels(
  baseUrl: string,
): Promise<import('./bindings/LocalModels').LocalModels> {
  return call('find_local_models', { request: { base_url: baseUrl } });
}

/** The folder of the conversation in the window (the folder line). */
export function getFolder(): Promise<FolderView> {
  return call('get_folder');
}

/** Opens the native folder picker; the backend checks and applies the chosen folder. */
export function pickFolder(): Promise<PickFolderResponse> {
  return call('pick_folder');
}

/** Makes the demo folder (sample files) the agent's folder. */
export function useDemoFolder(): Promise<FolderView> {
  return call('use_demo_folder');
}

/** Whether the welcome of the first launch is to be shown. */
export function getWelcome(): Promise<WelcomeView> {
  return call('get_welcome');
}

/** Remembers that the welcome was finished or skipped. */
export function finishWelcome(): Promise<WelcomeView> {
  return call('finish_welcome');
}

/** Settings → "Other agents on this computer": each agent and whether it asks through Ask First. */
export function listOtherAgents(): Promise<import('./bindings/OtherAgentView').OtherAgentView[]> {
  return call('list_other_agents');
}

/** Connect: the agent asks through Ask First from now on; returns the list again. */
export function connectOtherAgent(
  agent: import('./bindings/ExternalAgent').ExternalAgent,
): Promise<import('./bindings/OtherAgentView').OtherAgentView[]> {
  return call('connect_other_agent', { request: { agent } });
}

/** Disconnect: the agent asks in its own terminal again; returns the list again. */
export function disconnectOtherAgent(
  agent: import('./bindings/ExternalAgent').ExternalAgent,
): Promise<import('./bindings/OtherAgentView').OtherAgentView[]> {
  return call('disconnect_other_agent', { request: { agent } });
}

/** The other agents' requests that were waiting when Ask First last closed (shown above the cards). */
export function listGoneRequests(): Promise<import('./bindings/GoneRequestsView').GoneRequestsView> {
  return call('list_gone_requests');
}

/** Dismiss: takes one of them off the list for good; returns the list now. */
export function dismissGoneRequest(
  approvalId: ApprovalId,
): Promise<import('./bindings/GoneRequestsView').GoneRequestsView> {
  return call('dismiss_gone_request', { request: { approval_id: approvalId } });
}

/** Every change the agent made, newest first across conversations (the Activity panel). */
export function listActivity(): Promise<import('./bindings/ActivityEntry').ActivityEntry[]> {
  return call('list_activity');
}

/** Undoes one change; `confirmed` after the person saw what it would lose. */
export function undoChange(
  sessionId: SessionId,
  id: string,
  confirmed: boolean,
): Promise<import('./bindings/UndoResponse').UndoResponse> {
  return call('undo_change', { request: { session_id: sessionId, id, confirmed } });
}

/** Undoes a whole task, newest change first. */
export function undoTask(
  sessionId: SessionId,
  runId: RunId,
  confirmed: boolean,
): Promise<import('./bindings/UndoResponse').UndoResponse> {
  return call('undo_task', { request: { session_id: sessionId, run_id: runId, confirmed } });
}
