//! [`App`]: the one handle a front end holds on the backend. It owns the parts
//! [`Backend::build_with`] makes (the agent runtime, the event history, the settings screen,
//! the session log, the inbox, Activity and Undo, the requests gone at this start, the claim
//! on the data folder) and offers exactly the operations the desktop shell needs, each a thin
//! call into the part that owns it. The shell's commands only parse, call [`App`] and map
//! errors; nothing outside the core names the parts.
//!
//! Calls that touch the disk (an fsync, reading session logs or the settings file, a run's
//! setup) block: a front end calls them off its GUI thread and its async workers.

use super::probe::ConnectionTest;
use super::screen::{SettingsError, SettingsScreen};
use super::{AppConfig, Backend, BuildError, FolderError, KeyStore};
use crate::agent::{AgentRuntime, RunError, SessionError};
use crate::approvals::ApprovalError;
use crate::audit::{DataDirLock, SessionLog};
use crate::history::{EventHistory, HistoryError};
use crate::inbox::connect::ConnectError;
use crate::inbox::gone::GoneRequests;
use crate::inbox::{Inbox, Listening};
use crate::notification_answers::{NotificationAnswer, NotificationAnswered};
use crate::policy::editor::RuleEditError;
use crate::providers::HttpSettings;
use crate::undo::{Activity, UndoError};
use askfirst_protocol::{
    ActivityEntry, AddRuleRequest, ApprovalId, ApprovalRequest, ChangeRuleRequest, Decision,
    ExternalAgent, FolderView, GoneRequestsView, Grant, Language, NotificationApprovals,
    NotifyWhen, OtherAgentView, Outcome, ProviderKind, RulesView, RunEventsPage, RunId,
    SaveMcpServerRequest, SaveSettingsRequest, SequencedEvent, SessionId, SessionPolicy,
    SessionSummary, SettingsView, StartRunResponse, TestConnectionRequest, UndoChangeRequest,
    UndoResponse, UndoTaskRequest, WelcomeView,
};
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;

/// The backend as the desktop shell holds it: one value, shared (`Arc<App>`) by its commands,
/// its tray and its notifications.
pub struct App {
    runtime: Arc<AgentRuntime>,
    history: Arc<EventHistory>,
    settings: Arc<SettingsScreen>,
    log: Arc<SessionLog>,
    inbox: Arc<Inbox>,
    activity: Arc<Activity>,
    gone: Arc<GoneRequests>,
    /// Held as long as the app lives: no other launch closes this one's waiting approvals.
    _instance_lock: Option<DataDirLock>,
}

/// The folder of the conversation in the window, as a notification names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderName {
    /// The folder (where it was, when it is gone).
    pub path: PathBuf,
    /// Whether it is the demo folder.
    pub demo: bool,
}

impl App {
    /// Creates the data folder (owner-only) and tries to claim it
    /// ([`crate::audit::lock_data_dir`]): `Ok(None)` when another app holds it. Done before
    /// anything else touches the folder, so a second launch can step aside; the result goes to
    /// [`App::build_with`].
    ///
    /// # Errors
    /// The I/O error of taking the lock (one creating the folder is left to the lock's).
    pub fn claim_data_dir(data_dir: &Path) -> std::io::Result<Option<DataDirLock>> {
        let _ = crate::audit::private_dir_all(data_dir);
        crate::audit::lock_data_dir(data_dir)
    }

    /// Creates and claims the data folder and builds the backend ([`Backend::build`]), as one
    /// handle with the receiving end of its events.
    ///
    /// # Errors
    /// As [`Backend::build`].
    pub fn build(
        config: AppConfig,
        handle: tokio::runtime::Handle,
    ) -> Result<(Self, UnboundedReceiver<SequencedEvent>), BuildError> {
        Backend::build(config, handle).map(Self::from_backend)
    }

    /// Builds the backend ([`Backend::build_with`]) and returns it as one handle, with the
    /// receiving end of its events (numbered, as they happen) for the front end to follow.
    ///
    /// # Errors
    /// As [`Backend::build_with`].
    pub fn build_with(
        config: AppConfig,
        handle: tokio::runtime::Handle,
        lock: std::io::Result<Option<DataDirLock>>,
    ) -> Result<(Self, UnboundedReceiver<SequencedEvent>), BuildError> {
        Backend::build_with(config, handle, lock).map(Self::from_backend)
    }

    /// Takes a built [`Backend`] apart into the handle and the receiving end of its events.
    pub fn from_backend(backend: Backend) -> (Self, UnboundedReceiver<SequencedEvent>) {
        let Backend {
            runtime,
            history,
            events,
            settings,
            log,
            instance_lock,
            inbox,
            activity,
            gone,
        } = backend;
        let app = Self {
            runtime,
            history,
            settings,
            log,
            inbox,
            activity,
            gone,
            _instance_lock: instance_lock,
        };
        (app, events)
    }

    // --- Runs and approvals ---

    /// Starts a run for `task` ([`AgentRuntime::start_run`]).
    ///
    /// # Errors
    /// [`RunError`]: an empty task, a run already going, a model that cannot be set up.
    pub fn start_run(&self, task: &str) -> Result<StartRunResponse, RunError> {
        self.runtime.start_run(task)
    }

    /// Stops a run; returns whether a running one was stopped ([`AgentRuntime::cancel_run`]).
    pub fn cancel_run(&self, run_id: RunId) -> bool {
        self.runtime.cancel_run(run_id)
    }

    /// Goes on with the task Ask First was closed in the middle of, if any: opens its session
    /// and asks again what waited ([`AgentRuntime::resume_interrupted`]). Returns its session.
    pub fn resume_interrupted(&self) -> Option<SessionId> {
        self.runtime.resume_interrupted()
    }

    /// Answers a pending approval, recorded in the session log before it takes effect
    /// ([`AgentRuntime::resolve_approval`]).
    ///
    /// # Errors
    /// [`ApprovalError`]: not pending, the log cannot record it, shutting down.
    pub fn resolve_approval(
        &self,
        id: ApprovalId,
        decision: Decision,
    ) -> Result<Outcome, ApprovalError> {
        self.runtime.resolve_approval(id, decision)
    }

    /// The approvals waiting, oldest first.
    pub fn list_pending_approvals(&self) -> Vec<ApprovalRequest> {
        self.runtime.list_pending_approvals()
    }

    /// Whether a notification may offer Approve for the waiting approval `id`, as the setting
    /// "Let me approve from notifications" says ([`crate::notification_answers::may_approve`]);
    /// `false` when it no longer waits.
    pub fn may_approve_from_notification(&self, id: ApprovalId) -> bool {
        self.runtime.approvals().pending(id).is_some_and(|request| {
            crate::notification_answers::may_approve(
                &request,
                self.settings.notification_approvals(),
            )
        })
    }

    /// Answers the approval `id` from a notification's button, within what the setting allows
    /// ([`AgentRuntime::answer_from_notification`]).
    ///
    /// # Errors
    /// As [`App::resolve_approval`].
    pub fn answer_from_notification(
        &self,
        id: ApprovalId,
        answer: NotificationAnswer,
    ) -> Result<NotificationAnswered, ApprovalError> {
        self.runtime
            .answer_from_notification(id, answer, self.settings.notification_approvals())
    }

    // --- The session's events ---

    /// Every event of this session so far, each its `SequencedEvent` JSON.
    ///
    /// # Errors
    /// [`HistoryError`] when events have to be read back from the spool and cannot.
    pub fn list_events(&self) -> Result<Vec<Box<RawValue>>, HistoryError> {
        self.history.snapshot()
    }

    /// The long poll of the session's events from `next`, waiting at most `wait` for one
    /// ([`EventHistory::wait_from`]).
    ///
    /// # Errors
    /// As [`App::list_events`].
    pub async fn wait_events(
        &self,
        next: Option<u64>,
        wait: Duration,
    ) -> Result<RunEventsPage, HistoryError> {
        self.history.wait_from(next, wait).await
    }

    // --- Grants and the session policy ---

    /// The session grants in force, oldest first.
    pub fn list_grants(&self) -> Vec<Grant> {
        let mut grants = self.runtime.grants();
        grants.sort_by_key(|g| g.granted_at);
        grants
    }

    /// Removes a session grant; returns whether there was one.
    pub fn revoke_grant(&self, tool_name: &str, canonical_arguments: &str) -> bool {
        self.runtime.revoke_grant(tool_name, canonical_arguments)
    }

    /// The session policy in force.
    pub fn session_policy(&self) -> SessionPolicy {
        self.runtime.policy().session_policy()
    }

    /// Changes the session policy (recorded in the session log); returns the one in force.
    pub fn set_session_policy(&self, policy: SessionPolicy) -> SessionPolicy {
        self.runtime.set_session_policy(policy);
        self.runtime.policy().session_policy()
    }

    // --- Sessions ---

    /// The kept sessions with at least one task, and the current one, newest first.
    pub fn list_sessions(&self) -> Vec<SessionSummary> {
        self.runtime.list_sessions()
    }

    /// Reopens a past session, after the log's queued events are written (what the last run
    /// emitted reaches the window before the other session's replay). A run Ask First was
    /// closed in the middle of goes on by itself.
    ///
    /// # Errors
    /// [`SessionError`]: a run going, a session that cannot be read.
    pub fn open_session(&self, id: SessionId) -> Result<(), SessionError> {
        self.log.flush();
        self.runtime.open_session(id).map(|_resumed| ())
    }

    /// Starts a new, empty session, after the log's queued events are written.
    ///
    /// # Errors
    /// [`SessionError`]: a run going, a log that cannot be created.
    pub fn new_session(&self) -> Result<SessionId, SessionError> {
        self.log.flush();
        self.runtime.new_session()
    }

    // --- Settings ---

    /// The language in force for the settings (chosen in Settings, else the desktop's).
    pub fn language(&self) -> Language {
        self.settings.language()
    }

    /// When notifications are shown.
    pub fn notify_when(&self) -> NotifyWhen {
        self.settings.notify_when()
    }

    /// The settings Ask First started with.
    pub fn config(&self) -> &AppConfig {
        self.settings.config()
    }

    /// Where API keys are kept.
    pub fn keys(&self) -> &KeyStore {
        self.settings.keys()
    }

    /// The settings screen's view (never an API key).
    pub fn settings_view(&self) -> SettingsView {
        self.settings.view(&self.runtime)
    }

    /// Saves the settings; they apply to the next task, and a new language at once (to the
    /// sentences from now on and to the cards waiting). Returns the settings in force.
    ///
    /// # Errors
    /// [`SettingsError`]: a value that cannot be saved, a file that cannot be read or written.
    pub fn save_settings(
        &self,
        request: SaveSettingsRequest,
    ) -> Result<SettingsView, SettingsError> {
        let view = self.settings.save(&self.runtime, request)?;
        self.runtime.set_language(view.effective_language);
        Ok(view)
    }

    /// Saves which requests a notification may approve.
    ///
    /// # Errors
    /// [`SettingsError`] when the settings file cannot be read or written.
    pub fn set_notification_approvals(
        &self,
        allowed: NotificationApprovals,
    ) -> Result<SettingsView, SettingsError> {
        self.settings
            .set_notification_approvals(&self.runtime, allowed)
    }

    /// Adds an MCP server, or replaces the one named `request.previous_name`, checked by
    /// [`crate::mcp::validated_server`]; it applies to the next task.
    ///
    /// # Errors
    /// [`SettingsError`]: a bad server, a file that cannot be read or written.
    pub fn save_mcp_server(
        &self,
        request: SaveMcpServerRequest,
    ) -> Result<SettingsView, SettingsError> {
        self.settings.edit_mcp_servers(&self.runtime, |servers| {
            let previous = request.previous_name.clone();
            let config =
                crate::mcp::validated_server(request, servers).map_err(|e| e.sentence())?;
            match previous.and_then(|p| servers.iter().position(|s| s.name == p)) {
                Some(at) => servers[at] = config,
                None => servers.push(config),
            }
            Ok(())
        })
    }

    /// Removes the MCP server `name`; it stops and its tools are gone from the next task.
    ///
    /// # Errors
    /// [`SettingsError`]: no such server, a file that cannot be read or written.
    pub fn remove_mcp_server(&self, name: &str) -> Result<SettingsView, SettingsError> {
        self.settings.remove_mcp_server(&self.runtime, name)
    }

    /// Tests the connection with the provider settings on screen: what to reach, read off the
    /// settings file (blocking), or the outcome already known
    /// ([`super::probe::probe_target`]); then [`super::probe::test_connection`].
    ///
    /// # Errors
    /// The [`ConnectionTest`] outcome when there is nothing to reach.
    pub fn connection_target(
        &self,
        request: &TestConnectionRequest,
    ) -> Result<(ProviderKind, HttpSettings), ConnectionTest> {
        super::probe::probe_target(self.settings.config(), self.settings.keys(), request)
    }

    // --- Rules ---

    /// The rules as sentences and the form's choices (the rules file read again).
    pub fn rules_view(&self) -> RulesView {
        self.settings.rules_view(&self.runtime)
    }

    /// Adds the rule the form describes.
    ///
    /// # Errors
    /// [`RuleEditError`]: a choice to change, a rules file that is broken or unwritable.
    pub fn add_rule(&self, request: &AddRuleRequest) -> Result<RulesView, RuleEditError> {
        self.settings.add_rule(&self.runtime, &request.choice)
    }

    /// Replaces one rule with the one the form describes.
    ///
    /// # Errors
    /// As [`App::add_rule`], and a rule no longer in the file.
    pub fn change_rule(&self, request: &ChangeRuleRequest) -> Result<RulesView, RuleEditError> {
        self.settings
            .change_rule(&self.runtime, &request.rule, &request.choice)
    }

    /// Removes one rule from the rules file and applies the rules at once.
    ///
    /// # Errors
    /// [`SettingsError`]: no such rule, a file that cannot be read or written.
    pub fn remove_rule(&self, rule: &str) -> Result<SettingsView, SettingsError> {
        self.settings.remove_rule(&self.runtime, rule)
    }

    // --- The person's folder and the welcome ---

    /// The folder line of the window.
    pub fn folder_view(&self) -> FolderView {
        self.settings.folder_view(&self.runtime)
    }

    /// The folder of the conversation in the window.
    pub fn folder(&self) -> FolderName {
        let folder = self.runtime.folder();
        FolderName {
            path: folder.path().to_owned(),
            demo: folder.is_demo(),
        }
    }

    /// `Err` while `ASKFIRST_WORKSPACE` fixes the folder (checked before a picker is shown).
    ///
    /// # Errors
    /// [`FolderError::Session`] with [`SessionError::FolderFixed`].
    pub fn check_folder_may_change(&self) -> Result<(), FolderError> {
        if self.runtime.folder_fixed() {
            return Err(FolderError::Session(SessionError::FolderFixed));
        }
        Ok(())
    }

    /// Makes `path` the agent's folder (checked; remembered in `settings.json`).
    ///
    /// # Errors
    /// [`FolderError`]: a folder that may not be used, a task running, a file unwritable.
    pub fn choose_folder(&self, path: &Path) -> Result<FolderView, FolderError> {
        self.settings.choose_folder(&self.runtime, path)
    }

    /// Makes the demo folder the agent's folder.
    ///
    /// # Errors
    /// As [`App::choose_folder`].
    pub fn use_demo_folder(&self) -> Result<FolderView, FolderError> {
        self.settings.use_demo_folder(&self.runtime)
    }

    /// Whether the welcome is to be shown.
    pub fn welcome(&self) -> WelcomeView {
        self.settings.welcome()
    }

    /// Remembers that the welcome was finished or skipped.
    ///
    /// # Errors
    /// [`SettingsError`] when the settings file cannot be read or written.
    pub fn finish_welcome(&self) -> Result<WelcomeView, SettingsError> {
        self.settings.finish_welcome()
    }

    // --- Activity and Undo ---

    /// Every change in every conversation, newest first, each with its conversation's title.
    pub fn list_activity(&self) -> Vec<ActivityEntry> {
        let titles: HashMap<_, _> = self
            .runtime
            .list_sessions()
            .into_iter()
            .map(|s| (s.session_id, s.title))
            .collect();
        self.activity
            .list(&|id| titles.get(&id).cloned().unwrap_or_default())
    }

    /// Undoes one change.
    ///
    /// # Errors
    /// [`UndoError`]: one that cannot be undone, a disk that refused, a log that cannot record.
    pub fn undo_change(&self, request: &UndoChangeRequest) -> Result<UndoResponse, UndoError> {
        self.activity
            .undo_change(request.session_id, &request.id, request.confirmed)
    }

    /// Undoes a whole task, newest change first.
    ///
    /// # Errors
    /// As [`App::undo_change`].
    pub fn undo_task(&self, request: &UndoTaskRequest) -> Result<UndoResponse, UndoError> {
        self.activity
            .undo_task(request.session_id, request.run_id, request.confirmed)
    }

    // --- Other agents (the inbox) ---

    /// Opens the inbox's socket in `runtime_dir/askfirst/`, serving on `handle`; the socket
    /// stays while the returned [`Listening`] is held.
    ///
    /// # Errors
    /// The I/O error of making or binding the socket.
    pub fn listen_for_other_agents(
        &self,
        runtime_dir: &Path,
        handle: &tokio::runtime::Handle,
    ) -> std::io::Result<Listening> {
        self.inbox.listen(runtime_dir, handle)
    }

    /// "Who does the work" in the conversation in the window, and the choices: Ask First's own
    /// agent and the ACP agents whose program is on `PATH` ([`crate::acp::agents::workers`]).
    pub fn workers(&self) -> askfirst_protocol::WorkersView {
        let path = std::env::var_os("PATH").unwrap_or_default();
        crate::acp::agents::workers(self.runtime.agent().as_ref(), &path)
    }

    /// Chooses who does the work in the conversation in the window from its next task on
    /// (recorded in its log: a reopened conversation keeps it; new conversations start with
    /// it too). Returns the choices again.
    ///
    /// # Errors
    /// [`RunError::NoCommand`] for another agent without a command; [`RunError::Busy`] while a
    /// task runs.
    pub fn choose_worker(
        &self,
        request: &askfirst_protocol::ChooseWorkerRequest,
    ) -> Result<askfirst_protocol::WorkersView, RunError> {
        let agent = crate::acp::agents::chosen(&request.id, &request.command)
            .map_err(|_| RunError::NoCommand)?;
        self.runtime.set_agent(agent)?;
        Ok(self.workers())
    }

    /// Each other agent, whether it is on this computer and asks through Ask First (`home`:
    /// the person's home folder).
    pub fn list_other_agents(home: Option<&Path>) -> Vec<OtherAgentView> {
        crate::inbox::connect::list(home)
    }

    /// Adds Ask First's hook (the one beside `exe`, this program) to the agent's settings.
    ///
    /// # Errors
    /// [`ConnectError`] when the agent's settings cannot be read or written.
    pub fn connect_other_agent(
        agent: ExternalAgent,
        home: Option<&Path>,
        exe: &Path,
    ) -> Result<(), ConnectError> {
        let hook = crate::inbox::connect::hook_beside(exe);
        crate::inbox::connect::connect(agent, home, &hook)
    }

    /// Removes exactly Ask First's hook entry from the agent's settings.
    ///
    /// # Errors
    /// [`ConnectError`] when the agent's settings cannot be read or written.
    pub fn disconnect_other_agent(
        agent: ExternalAgent,
        home: Option<&Path>,
    ) -> Result<(), ConnectError> {
        crate::inbox::connect::disconnect(agent, home)
    }

    /// The other agents' requests that were waiting when Ask First last closed.
    pub fn list_gone_requests(&self) -> GoneRequestsView {
        self.gone.list()
    }

    /// Takes one of them off the list for good; returns the list now.
    pub fn dismiss_gone_request(&self, approval_id: ApprovalId) -> GoneRequestsView {
        self.gone.dismiss(approval_id)
    }

    // --- Quitting ---

    /// Closes what Ask First is quitting on: waiting approvals, runs told to stop
    /// ([`AgentRuntime::shutdown`]).
    pub fn shutdown(&self) {
        self.runtime.shutdown();
    }

    /// Waits up to `limit` for runs to end; `false` when one was still going.
    pub fn wait_for_runs(&self, limit: Duration) -> bool {
        self.runtime.wait_for_runs(limit)
    }

    /// Writes the events queued for the session log.
    pub fn flush(&self) {
        self.log.flush();
    }
}
