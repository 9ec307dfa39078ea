//! The IPC commands the window may call. Each only parses, calls the core and maps errors to
//! a typed [`CommandError`] (`{code, message, detail}`, all three from [`Coded`]).
//!
//! The backend is one managed `Arc<App>` (`askfirst_core::app::App`); nothing here names its
//! parts.
//!
//! Every command is async, so none runs on the GUI thread; those that touch the disk (an
//! fsync for a decision, reading session logs, the settings and rules files, a run's setup)
//! run in `spawn_blocking`, off the async workers too. Sessions change only between runs:
//! [`SessionSwitch`] makes "no run is going, so switch" and "start a run" one step each, which
//! they were before only because every command ran, one at a time, on the GUI thread.

use askfirst_core::app::{internal_error, App, Coded};
use askfirst_protocol::{
    ApprovalRequest, CancelRunRequest, ChooseWorkerRequest, CommandError, Grant,
    OpenSessionRequest, Outcome, RemoveMcpServerRequest, RemoveRuleRequest, ResolveApprovalRequest,
    RevokeGrantRequest, RunEventsPage, SaveMcpServerRequest, SaveSettingsRequest, SessionId,
    SessionPolicy, SessionSummary, SetSessionPolicyRequest, SettingsView, StartRunRequest,
    StartRunResponse, WaitRunEventsRequest, WorkersView,
};
use std::sync::Arc;
use tauri::{AppHandle, Runtime, State};

/// Held while a run starts and while the session changes, so a session switch never happens
/// between `start_run`'s check that no run is going and its run being registered (nor two
/// switches interleave). The agent runtime checks "no run is going" and acts in two steps.
#[derive(Debug, Default)]
pub struct SessionSwitch(tokio::sync::Mutex<()>);

impl SessionSwitch {
    /// Waits for the guard (held while a run starts or the session changes).
    pub async fn lock(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.0.lock().await
    }
}

/// Runs `work` on the blocking pool and returns its result; a panic in it is an `internal`
/// error. Every command module's blocking work goes through here.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, CommandError> + Send + 'static,
) -> Result<T, CommandError> {
    tauri::async_runtime::spawn_blocking(work)
        .await
        .unwrap_or_else(|error| Err(internal_error(error.to_string())))
}

fn coded(error: impl Coded) -> CommandError {
    error.to_command_error()
}

/// Starts a run for the user's task. JS: `invoke('start_run', { request: { task } })`.
///
/// # Errors
/// `invalid_request` for an empty task; `busy` while a run goes on; `provider_setup` when the
/// model cannot be set up.
#[tauri::command]
pub async fn start_run(
    app: State<'_, Arc<App>>,
    switch: State<'_, SessionSwitch>,
    request: StartRunRequest,
) -> Result<StartRunResponse, CommandError> {
    let _switching = switch.lock().await;
    let app = Arc::clone(&app);
    blocking(move || app.start_run(&request.task).map_err(coded)).await
}

/// Answers a pending approval. JS: `invoke('resolve_approval', { request })`. The decision is
/// written and synced to the session log before it takes effect (off the GUI thread).
///
/// # Errors
/// `not_pending` when the approval already ended or never existed (nothing changes then);
/// `log_unavailable` when the decision cannot be recorded; `shutting_down` while quitting.
#[tauri::command]
pub async fn resolve_approval(
    app: State<'_, Arc<App>>,
    request: ResolveApprovalRequest,
) -> Result<Outcome, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || {
        app.resolve_approval(request.approval_id, request.decision)
            .map_err(coded)
    })
    .await
}

/// The approvals waiting, oldest first, so the window can recover after a load or reload.
#[tauri::command(async)]
pub fn list_pending_approvals(app: State<'_, Arc<App>>) -> Vec<ApprovalRequest> {
    app.list_pending_approvals()
}

/// Stops a run; stopping one that already ended is a quiet no-op. Returns whether a running
/// run was stopped. JS: `invoke('cancel_run', { request: { run_id } })`.
#[tauri::command(async)]
pub fn cancel_run(app: State<'_, Arc<App>>, request: CancelRunRequest) -> bool {
    app.cancel_run(request.run_id)
}

/// Every event of this session so far, numbered, so a window that (re)loads can rebuild its
/// transcript; live events with a `seq` below the length of this list are already in it.
/// Each is its `SequencedEvent` JSON.
///
/// # Errors
/// `storage` when events have to be read back from the history's spool and cannot.
#[tauri::command(async)]
pub fn list_run_events(
    app: State<'_, Arc<App>>,
) -> Result<Vec<Box<serde_json::value::RawValue>>, CommandError> {
    app.list_events().map_err(coded)
}

/// How long one `wait_run_events` call waits for a new event before it answers with none.
pub const RUN_EVENTS_WAIT: std::time::Duration = std::time::Duration::from_secs(20);

/// The window's long poll for the session's events: answers as soon as there is an event
/// numbered `next` or later (or after [`RUN_EVENTS_WAIT`] with none), with those events in
/// order (at most 256 and about 1 MiB: `EventHistory::wait_from`) and the number to ask from
/// next. JS: `invoke('wait_run_events', { request: { next } })`. The answer comes as the
/// command's reply, which the page reads as JSON; an event emitted to the page would be a
/// script evaluated in it, and WebKit kept ~4–6 kB of the page's memory for each
/// (BENCHMARKS.md, "No growth: where the page's memory went").
///
/// # Errors
/// `storage` when events have to be read back from the history's spool and cannot.
#[tauri::command]
pub async fn wait_run_events(
    app: State<'_, Arc<App>>,
    request: WaitRunEventsRequest,
) -> Result<RunEventsPage, CommandError> {
    let app = Arc::clone(&app);
    app.wait_events(request.next, RUN_EVENTS_WAIT)
        .await
        .map_err(coded)
}

/// The session grants in force ("Allow for this session"), oldest first.
#[tauri::command(async)]
pub fn list_grants(app: State<'_, Arc<App>>) -> Vec<Grant> {
    app.list_grants()
}

/// Removes a session grant; the same call asks again from then on. Returns whether there was
/// one. JS: `invoke('revoke_grant', { request: { tool_name, canonical_arguments } })`.
#[tauri::command(async)]
pub fn revoke_grant(app: State<'_, Arc<App>>, request: RevokeGrantRequest) -> bool {
    app.revoke_grant(&request.tool_name, &request.canonical_arguments)
}

/// The session policy: `ask` (the default) or `never` (refuse, without asking, everything that
/// would need an OK).
#[tauri::command(async)]
pub fn get_session_policy(app: State<'_, Arc<App>>) -> SessionPolicy {
    app.session_policy()
}

/// Changes the session policy (recorded in the session log); it applies from the next
/// decision. Returns the policy now in force.
#[tauri::command]
pub async fn set_session_policy(
    app: State<'_, Arc<App>>,
    request: SetSessionPolicyRequest,
) -> Result<SessionPolicy, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || Ok(app.set_session_policy(request.policy))).await
}

/// The kept sessions with at least one task, and the current one, newest first (reads the
/// session logs, off the GUI thread).
#[tauri::command]
pub async fn list_sessions(app: State<'_, Arc<App>>) -> Result<Vec<SessionSummary>, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || Ok(app.list_sessions())).await
}

/// Reopens a past session; its transcript arrives as `run-event`s after a `session_opened`.
///
/// # Errors
/// `busy` while a run goes on; `storage` when the session cannot be read.
#[tauri::command]
pub async fn open_session(
    app: State<'_, Arc<App>>,
    switch: State<'_, SessionSwitch>,
    request: OpenSessionRequest,
) -> Result<(), CommandError> {
    let _switching = switch.lock().await;
    let app = Arc::clone(&app);
    // The log is flushed first: what the last run emitted reaches the window before the other
    // session's replay (`App::open_session`).
    blocking(move || app.open_session(request.session_id).map_err(coded)).await
}

/// Starts a new, empty session.
///
/// # Errors
/// `busy` while a run goes on; `storage` when its log cannot be created.
#[tauri::command]
pub async fn new_session(
    app: State<'_, Arc<App>>,
    switch: State<'_, SessionSwitch>,
) -> Result<SessionId, CommandError> {
    let _switching = switch.lock().await;
    let app = Arc::clone(&app);
    blocking(move || app.new_session().map_err(coded)).await
}

/// "Who does the work" in the conversation in the window, and the choices: Ask First's own
/// agent and the ACP agents found on this computer. JS: `invoke('list_workers')`.
#[tauri::command]
pub async fn list_workers(app: State<'_, Arc<App>>) -> Result<WorkersView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || Ok(app.workers())).await
}

/// Chooses who does the work in the conversation in the window from its next task on.
/// JS: `invoke('choose_worker', { request: { id: 'gemini', command: 'gemini --acp' } })`.
///
/// # Errors
/// `invalid_request` for another agent without a command; `busy` while a task runs.
#[tauri::command]
pub async fn choose_worker(
    app: State<'_, Arc<App>>,
    request: ChooseWorkerRequest,
) -> Result<WorkersView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || app.choose_worker(&request).map_err(coded)).await
}

/// Adds an MCP server or replaces the one named `previous_name`, saves `settings.json` and
/// applies it to the next task (a server whose settings did not change keeps running).
///
/// # Errors
/// `invalid_request` for a bad name, command line or variable (see `App::save_mcp_server`);
/// `storage` when the settings file cannot be read or written (nothing changes then).
#[tauri::command]
pub async fn save_mcp_server(
    app: State<'_, Arc<App>>,
    request: SaveMcpServerRequest,
) -> Result<SettingsView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || app.save_mcp_server(request).map_err(coded)).await
}

/// Removes an MCP server from `settings.json`; it is stopped and its tools are no longer
/// offered from the next task on.
///
/// # Errors
/// `invalid_request` when no server has that name; `storage` when the settings file cannot
/// be read or written.
#[tauri::command]
pub async fn remove_mcp_server(
    app: State<'_, Arc<App>>,
    request: RemoveMcpServerRequest,
) -> Result<SettingsView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || app.remove_mcp_server(&request.name).map_err(coded)).await
}

/// Removes one rule from the rules file (its comments and other rules stay) and applies the
/// rules at once. Returns the settings now in force.
///
/// # Errors
/// `invalid_request` when no such rule is in the file; `storage` when the file cannot be
/// read or written.
#[tauri::command]
pub async fn remove_rule(
    app: State<'_, Arc<App>>,
    request: RemoveRuleRequest,
) -> Result<SettingsView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || app.remove_rule(&request.rule).map_err(coded)).await
}

/// The settings for the settings screen (never the API key itself).
#[tauri::command]
pub async fn get_settings(app: State<'_, Arc<App>>) -> Result<SettingsView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || Ok(app.settings_view())).await
}

/// Saves which requests a notification may approve ("Let me approve from notifications"), at
/// once. JS: `invoke('set_notification_approvals', { request: { new_files } })`. Returns the
/// settings now in force.
///
/// # Errors
/// `storage` when the settings file cannot be read or written (nothing is changed then).
#[tauri::command]
pub async fn set_notification_approvals(
    app: State<'_, Arc<App>>,
    request: askfirst_protocol::NotificationApprovals,
) -> Result<SettingsView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || app.set_notification_approvals(request).map_err(coded)).await
}

/// Saves the settings to `settings.json` (owner-only permissions); they apply to the next task.
/// Returns the settings now in force.
///
/// # Errors
/// `invalid_request` for a provider that cannot be saved or a timeout outside
/// `SettingsView::approval_timeout_range`; `storage` when the file cannot be read or written
/// (nothing is changed then).
#[tauri::command]
pub async fn save_settings<R: Runtime>(
    handle: AppHandle<R>,
    app: State<'_, Arc<App>>,
    request: SaveSettingsRequest,
) -> Result<SettingsView, CommandError> {
    let app = Arc::clone(&app);
    // A new language applies at once: to every sentence rendered from now on, to the cards
    // already waiting (the window lists them again when its language changes), and to the
    // tray's menu and title. The saved view already says which one is in force.
    let view = blocking(move || app.save_settings(request).map_err(coded)).await?;
    crate::tray::relabel(&handle);
    Ok(view)
}
