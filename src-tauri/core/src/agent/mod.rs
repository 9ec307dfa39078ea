//! The agent loop: user message → model step → tool calls → policy → approval → tool result →
//! next step, until the model answers without tool calls, the step limit, or cancel.
//!
//! [`AgentRuntime`] is the façade the shell calls; the work is split by job:
//! - [`run`]: one run — its conversation, the step loop, every call of a turn answered once;
//! - [`call`]: one tool call — describe, ask, wait, re-check, run, and what Stop does;
//! - [`deltas`]: streamed text passed on at most every [`DELTA_INTERVAL`];
//! - [`wording`]: every sentence, for the model and for the person (change denial text there);
//! - [`supervisor`]: every run task supervised, every run ended exactly once;
//! - [`folder`]: the folder each conversation works in;
//! - `acp_run`: a run whose work another agent does, hosted over ACP ([`crate::acp`]);
//! - [`crate::sessions`]: the sessions folder, its index and replaying a past session;
//! - [`crate::tools::catalog`]: the built-in tools and the swappable MCP servers.

mod acp_run;
mod call;
pub mod deltas;
pub mod folder;
mod run;
mod supervisor;
mod try_first;
pub mod wording;

use crate::approvals::{ApprovalError, ApprovalRegistry};
use crate::audit::{AuditRecord, AuditSink, SessionLog};
use crate::mcp::McpClients;
use crate::policy::{Policy, Rules};
use crate::provider::{Message, Provider, ProviderError};
use crate::sessions::interrupted::{Interrupted, Marks, MAX_STARTS};
use crate::sessions::store::SessionStore;
use crate::sync::MutexExt;
use crate::tools::catalog::ToolCatalog;
use crate::tools::{ToolSet, Workspace};
use crate::EventSink;
use askfirst_protocol::{
    AgentEvent, ApprovalId, ApprovalRequest, CancelCause, Decision, Grant, Outcome, RunId,
    RunStatus, SessionId, SessionPolicy, StartRunResponse,
};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use supervisor::Supervisor;

pub use crate::sessions::replay::answer_unanswered;
pub use crate::sessions::SessionError;
pub use deltas::DELTA_INTERVAL;
pub use folder::{FolderChanged, SessionFolder};
pub use wording::{
    cancelled_text, denial_text, too_many_calls_text, ALLOWED_NOT_STARTED, DONT_ASK_ME_NOW,
    MAY_HAVE_RUN, UNRECORDED_CALL, UNRECORDED_RESULT, UNRECORDED_RUN, USER_DENIAL_TAIL,
};

/// The default number of model steps a run may take. Waiting for the user does not count.
pub const DEFAULT_MAX_STEPS: usize = 25;

/// How many times the model may repeat a call that was already denied in the run before the
/// run is stopped.
pub const MAX_DENIED_REPEATS: usize = 3;

/// The most tool calls of one model turn that Ask First describes, asks about and runs; the
/// calls past it are answered, in order, with [`too_many_calls_text`] and shown to the person
/// as one line. Why 64: models make a handful of parallel calls (a few dozen at the very most),
/// a person cannot weigh more cards than that at once, and 64 results of at most
/// [`crate::tools::OUTPUT_CAP_BYTES`] each (6.4 MB) stay under [`MAX_RUN_OUTPUT_BYTES`]. Without
/// it a hostile model's turn of 5,000 auto-allowed calls wrote 15.6 MB of session log in
/// seconds (see `tests/all/flood.rs`).
pub const MAX_TOOL_CALLS_PER_TURN: usize = 64;

/// The most bytes of tool results (what the model is told) one run may gather; the call that
/// reaches it is the run's last, and the run ends saying so. Why 8 MiB: the whole conversation
/// is sent again at every model step, and 8 MiB of text (about two million tokens) is more
/// than any model's context holds, so a run past it could not go on usefully anyway; it also
/// bounds what one run adds to the session log.
pub const MAX_RUN_OUTPUT_BYTES: usize = 8 * 1024 * 1024;

/// How long quitting waits for the MCP servers to stop, after the runs: each gets 3 s to exit
/// and 3 s after SIGTERM ([`McpClients::shutdown`]), all at once.
pub const MCP_CLOSE_LIMIT: Duration = Duration::from_secs(7);

/// Makes the provider for a new run.
pub type ProviderFactory = Arc<dyn Fn() -> Result<Arc<dyn Provider>, ProviderError> + Send + Sync>;

/// Errors of starting or stopping runs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The task was empty.
    #[error("Please type a task for the agent first.")]
    EmptyTask,
    /// Another run of this session is still going.
    #[error("The agent is still working on the previous task. Stop it or wait for it to finish.")]
    Busy,
    /// The provider could not be made.
    #[error("The model could not be started: {0}")]
    Provider(#[from] ProviderError),
    /// Another agent was chosen without a command to start it with.
    #[error("Type the command that starts the agent.")]
    NoCommand,
    /// The conversation's folder is no longer there (its path).
    #[error(
        "The folder this conversation works in, {0}, is no longer there. Choose a folder for \
         it with \"Change…\" above the task box."
    )]
    FolderGone(String),
}

/// Settings of an [`AgentRuntime`].
#[derive(Clone)]
pub struct RuntimeConfig {
    /// The folder tools work in at first (the first conversation's; see [`folder`]).
    pub workspace: Workspace,
    /// Model steps per run.
    pub max_steps: usize,
    /// Makes the provider for each run.
    pub provider: ProviderFactory,
    /// The built-in tools on offer.
    pub tools: ToolSet,
    /// The user's MCP servers; their tools are offered next to `tools`, listed afresh at the
    /// start of every run (a server that fails is left out of that run; its status says why).
    pub mcp: Option<Arc<McpClients>>,
    /// The session's policy (rules, grants, session policy).
    pub policy: Arc<Policy>,
    /// The rules file, re-read at the start of every run so edits apply; `None` keeps the
    /// policy's rules as they are.
    pub rules_path: Option<PathBuf>,
    /// The current session's log (the same one the registry writes to).
    pub log: Arc<SessionLog>,
    /// Where the before-copies of file changes are kept, to undo them ([`crate::undo`]);
    /// `None` keeps none (the changes are then listed as "cannot be undone").
    pub undo: Option<crate::undo::UndoStore>,
    /// The first session's id (its log is named after it).
    pub session_id: SessionId,
    /// Where session logs live (`<id>.jsonl`), to list and reopen them; `None` for none.
    pub sessions_dir: Option<PathBuf>,
    /// Where replayed events of a reopened session go: the same destination as the runtime's
    /// events, but not written to the log again.
    pub replay_events: EventSink,
    /// The bounds of a run hosting another agent ([`crate::acp::AcpLimits`]).
    pub acp_limits: crate::acp::AcpLimits,
}

/// The session in this window: its id, its conversation with the model and its folder.
struct SessionState {
    id: SessionId,
    conversation: Vec<Message>,
    folder: SessionFolder,
    /// Whether `folder` is recorded in the session's log.
    folder_logged: bool,
    /// Who does the work in this conversation: another agent hosted over ACP, or (`None`)
    /// Ask First's own.
    agent: Option<crate::acp::AcpAgent>,
}

/// Runs the agent for one session and answers the shell's commands.
pub struct AgentRuntime {
    handle: tokio::runtime::Handle,
    registry: Arc<ApprovalRegistry>,
    events: EventSink,
    config: RuntimeConfig,
    runs: Supervisor,
    session: Mutex<SessionState>,
    catalog: Arc<ToolCatalog>,
    store: Arc<SessionStore>,
    /// The folder new conversations use.
    folders: Mutex<folder::Folders>,
    /// Set by [`AgentRuntime::shutdown`]: runs stopped from then on were stopped by the app
    /// closing, not by the person, and their records say so.
    shutting_down: AtomicBool,
    /// The marks of runs cut short, beside the session logs; `None` when sessions are not
    /// kept.
    marks: Option<Marks>,
}

impl AgentRuntime {
    /// A runtime spawning its runs on `handle`, asking through `registry`, reporting to
    /// `events` (the same sink the registry reports to).
    pub fn new(
        handle: tokio::runtime::Handle,
        registry: Arc<ApprovalRegistry>,
        events: EventSink,
        config: RuntimeConfig,
    ) -> Arc<Self> {
        let first_folder = SessionFolder::Open {
            workspace: config.workspace.clone(),
            demo: false,
        };
        Arc::new(Self {
            catalog: Arc::new(ToolCatalog::new(
                config.tools.clone(),
                config.mcp.clone(),
                handle.clone(),
            )),
            store: Arc::new(SessionStore::new(config.sessions_dir.clone())),
            marks: config.sessions_dir.as_deref().map(Marks::new),
            handle,
            registry,
            events,
            session: Mutex::new(SessionState {
                id: config.session_id,
                conversation: Vec::new(),
                folder: first_folder.clone(),
                folder_logged: false,
                agent: None,
            }),
            folders: Mutex::new(folder::Folders {
                next: first_folder,
                fixed: false,
            }),
            config,
            runs: Supervisor::new(),
            shutting_down: AtomicBool::new(false),
        })
    }

    /// The approvals registry.
    pub fn approvals(&self) -> &Arc<ApprovalRegistry> {
        &self.registry
    }

    /// Speaks `language` from now on: every sentence rendered after this call
    /// ([`crate::i18n::set_language`]) and, when it is another language than before, the cards
    /// already waiting, said again ([`ApprovalRegistry::reword_pending`]; the window reads
    /// them with `list_pending_approvals`). Returns how many cards changed. Blocking (saying a
    /// card again may read its file): call it off the async workers.
    pub fn set_language(&self, language: askfirst_protocol::Language) -> usize {
        let before = crate::i18n::language();
        crate::i18n::set_language(language);
        if before == language {
            return 0;
        }
        self.registry.reword_pending()
    }

    /// The folder of the conversation in the window, open; while that folder is gone, the
    /// folder the runtime started with ([`AgentRuntime::folder`] tells which).
    pub fn workspace(&self) -> Workspace {
        match &self.session().folder {
            SessionFolder::Open { workspace, .. } => workspace.clone(),
            SessionFolder::Gone { .. } => self.config.workspace.clone(),
        }
    }

    /// Starts a run for `task` and returns at once; the run reports through events and ends
    /// with exactly one `RunFinished`, whatever happens inside it (a panic included).
    ///
    /// # Errors
    /// [`RunError::EmptyTask`], [`RunError::Busy`] while another run goes on,
    /// [`RunError::FolderGone`] when the conversation's folder is no longer there, or
    /// [`RunError::Provider`] when the model cannot be set up.
    pub fn start_run(self: &Arc<Self>, task: &str) -> Result<StartRunResponse, RunError> {
        let task = task.trim();
        if task.is_empty() {
            return Err(RunError::EmptyTask);
        }
        let workspace = match &self.session().folder {
            SessionFolder::Open { workspace, .. } => workspace.clone(),
            SessionFolder::Gone { path, .. } => {
                return Err(RunError::FolderGone(path.display().to_string()))
            }
        };
        let task = task.to_owned();
        let run_id = match self.agent() {
            // Another agent does the work ([`acp_run`]): no provider of ours.
            Some(agent) => {
                self.spawn_with(workspace, None, move |run| run.go_hosted(task, agent))?
            }
            None => self.spawn_run(workspace, move |run| run.go(task))?,
        };
        Ok(StartRunResponse {
            run_id,
            session_id: self.session_id(),
        })
    }

    /// Who does the work in the conversation in the window: another agent hosted over ACP, or
    /// (`None`) Ask First's own.
    pub fn agent(&self) -> Option<crate::acp::AcpAgent> {
        self.session().agent.clone()
    }

    /// Sets who does the work in the conversation in the window from its next task on
    /// (`None`: Ask First's own agent), and records it in the conversation's log, so a
    /// reopened conversation goes on with the same agent.
    ///
    /// # Errors
    /// [`RunError::Busy`] while a run goes on.
    pub fn set_agent(&self, agent: Option<crate::acp::AcpAgent>) -> Result<(), RunError> {
        if !self.runs.is_idle() {
            return Err(RunError::Busy);
        }
        self.record_agent(agent.as_ref());
        self.session().agent = agent;
        Ok(())
    }

    fn record_agent(&self, agent: Option<&crate::acp::AcpAgent>) {
        self.audit(AuditRecord::AgentChosen {
            agent: agent.map(|a| a.id.clone()),
            name: agent.map(|a| a.name.clone()),
            command: agent.map(|a| a.command.clone()),
            at: crate::unix_millis_now(),
        });
    }

    /// Starts a run in `workspace` that does `work` (a new task, or one resumed), supervised:
    /// it ends with exactly one `RunFinished`, a panic included.
    fn spawn_run<F>(
        self: &Arc<Self>,
        workspace: Workspace,
        work: impl FnOnce(run::Run) -> F,
    ) -> Result<RunId, RunError>
    where
        F: std::future::Future<Output = ()> + Send + 'static,
    {
        let provider = (self.config.provider)()?;
        self.spawn_with(workspace, Some(provider), work)
    }

    fn spawn_with<F>(
        self: &Arc<Self>,
        workspace: Workspace,
        provider: Option<Arc<dyn Provider>>,
        work: impl FnOnce(run::Run) -> F,
    ) -> Result<RunId, RunError>
    where
        F: std::future::Future<Output = ()> + Send + 'static,
    {
        let run_id = RunId::new();
        let token = self.runs.begin(run_id)?;
        // Re-read the rules so edits apply, only once no other run is using them.
        if let Some(path) = &self.config.rules_path {
            self.config.policy.set_rules(Rules::load(path));
        }
        let run = run::Run::new(Arc::clone(self), run_id, token, provider, workspace);
        let this = Arc::clone(self);
        self.runs.spawn(&self.handle, work(run), move |panicked| {
            if let Some(why) = &panicked {
                eprintln!("askfirst: the run {run_id} stopped unexpectedly: {why}");
            }
            this.end_run(
                run_id,
                RunStatus::Failed,
                Some(wording::run_broke()),
                panicked,
            );
        });
        Ok(run_id)
    }

    /// Leaves the mark of run `run_id` of the session in the window, so that the next start
    /// offers the run again if Ask First closes or dies before it ends
    /// ([`crate::sessions::interrupted`]). A mark that cannot be written costs only that.
    fn leave_mark(&self, run_id: RunId, starts: u32) {
        let Some(marks) = &self.marks else {
            return;
        };
        let mark = Interrupted {
            session_id: self.session_id(),
            run_id,
            at: crate::unix_millis_now(),
            starts,
        };
        if let Err(error) = marks.leave(&mark) {
            eprintln!("askfirst: this task could not be kept for a restart: {error}");
        }
    }

    /// Opens the conversation that Ask First was closed (or killed) in the middle of, most
    /// recent first, and goes on with its run: what waited for the person is asked again, as
    /// new cards ([`run::Run::resume`]). Call it at start, before any task; returns the session
    /// opened, or `None` when there was nothing to go on with (or it could not be: its log is
    /// unreadable, its folder gone, a run already going).
    pub fn resume_interrupted(self: &Arc<Self>) -> Option<SessionId> {
        let marks = self.marks.as_ref()?;
        let mark = marks.newest()?;
        if mark.starts >= MAX_STARTS {
            eprintln!(
                "askfirst: Ask First stopped {} times while going on with the task of session {}; \
                 it is not gone on with by itself again (its conversation is kept)",
                mark.starts, mark.session_id
            );
            marks.remove(mark.session_id);
            return None;
        }
        // Counted before anything else: if going on with it makes Ask First die, the next
        // start knows.
        let counted = Interrupted {
            starts: mark.starts + 1,
            ..mark.clone()
        };
        if let Err(error) = marks.leave(&counted) {
            eprintln!("askfirst: could not count the start that goes on with a task: {error}");
        }
        match self.open_session(mark.session_id) {
            Ok(true) => Some(mark.session_id),
            Ok(false) => None,
            Err(error) => {
                eprintln!(
                    "askfirst: a task Ask First was closed in the middle of is lost: {error}"
                );
                marks.remove(mark.session_id);
                None
            }
        }
    }

    /// Ends run `run_id` if it has not ended: nothing of it stays waiting, and its one
    /// `RunFinished` is emitted (with `detail`, the technical side of `message`, for the
    /// window's "Details"). A no-op for a run that already ended.
    fn end_run(
        &self,
        run_id: RunId,
        status: RunStatus,
        message: Option<String>,
        detail: Option<String>,
    ) {
        // Nothing of this run may stay waiting.
        self.registry.cancel_run(run_id);
        // A run that ended other than by Ask First closing is not offered again.
        if let Some(marks) = self
            .marks
            .as_ref()
            .filter(|_| !self.shutting_down.load(Ordering::SeqCst))
        {
            marks.remove(self.session_id());
        }
        self.runs.end(run_id, || {
            self.emit(AgentEvent::RunFinished {
                run_id,
                status,
                message,
                detail,
            });
        });
    }

    /// Stops a run: its pending approvals end `Cancelled{run_aborted}` and no further model
    /// step or tool call starts. Returns whether a running run was stopped; stopping a run that
    /// already ended is a quiet no-op.
    pub fn cancel_run(&self, run_id: RunId) -> bool {
        let stopped = self.runs.cancel(run_id);
        if stopped {
            self.registry.cancel_run(run_id);
        }
        stopped
    }

    /// Answers an approval.
    ///
    /// # Errors
    /// [`ApprovalError::NotPending`] when it is not waiting; nothing changes.
    pub fn resolve_approval(
        &self,
        id: ApprovalId,
        decision: Decision,
    ) -> Result<Outcome, ApprovalError> {
        self.registry.resolve(id, decision)
    }

    /// Answers an approval from a button of its notification (see
    /// [`crate::notification_answers::answer`]): `allowed`, the kinds the person lets a
    /// notification approve.
    ///
    /// # Errors
    /// [`ApprovalError::NotPending`] when it is not waiting; nothing changes.
    pub fn answer_from_notification(
        &self,
        id: ApprovalId,
        answer: crate::notification_answers::NotificationAnswer,
        allowed: askfirst_protocol::NotificationApprovals,
    ) -> Result<crate::notification_answers::NotificationAnswered, ApprovalError> {
        crate::notification_answers::answer(&self.registry, id, answer, allowed)
    }

    /// The approvals waiting, oldest first.
    pub fn list_pending_approvals(&self) -> Vec<ApprovalRequest> {
        self.registry.list_pending(None)
    }

    /// The MCP servers and how each is doing (empty when none are configured).
    pub fn mcp_statuses(&self) -> Vec<crate::mcp::McpServerState> {
        self.catalog.statuses()
    }

    /// Replaces the MCP servers; the next run offers their tools. A server whose settings did
    /// not change keeps running; the others are shut down in the background (quitting waits
    /// for that). A run already going keeps the tools it started with (each call of them still
    /// asks as before).
    pub fn set_mcp_servers(&self, configs: Vec<crate::mcp::McpServerConfig>) {
        self.catalog.set_mcp_servers(configs);
    }

    /// The session's policy.
    pub fn policy(&self) -> &Arc<Policy> {
        &self.config.policy
    }

    /// Sets the session policy (logged; applies from the next decision). `Never` ("Don't ask
    /// me now: refuse whatever needs my OK") also refuses the requests already waiting, as
    /// the person's own answer, so nothing is left waiting for someone who said they are away.
    pub fn set_session_policy(&self, policy: SessionPolicy) {
        self.config.policy.set_session_policy(policy);
        self.audit(AuditRecord::SessionPolicyChanged {
            policy,
            at: crate::unix_millis_now(),
        });
        if policy == SessionPolicy::Never {
            // The note says how the person said no (they may never have seen these cards).
            self.registry.deny_all_waiting(DONT_ASK_ME_NOW);
        }
    }

    /// The session grants in force.
    pub fn grants(&self) -> Vec<Grant> {
        self.config.policy.grants()
    }

    /// Revokes a session grant (logged); returns whether there was one.
    pub fn revoke_grant(&self, tool_name: &str, canonical_arguments: &str) -> bool {
        let revoked = self.config.policy.revoke(tool_name, canonical_arguments);
        if revoked {
            self.audit(AuditRecord::GrantRevoked {
                tool_name: tool_name.to_owned(),
                canonical_arguments: canonical_arguments.to_owned(),
                at: crate::unix_millis_now(),
            });
        }
        revoked
    }

    /// Records in this conversation's log that the person changed a rule from the settings
    /// screen (see [`AuditRecord::RuleChanged`]).
    pub fn record_rule_change(&self, before: Option<String>, after: Option<String>) {
        self.audit(AuditRecord::RuleChanged {
            before,
            after,
            at: crate::unix_millis_now(),
        });
    }

    fn audit(&self, record: AuditRecord) {
        if let Err(error) = self.config.log.append(&record) {
            eprintln!("askfirst: {error}");
        }
    }

    /// Stops everything for app exit: every run is cancelled and every pending approval ends
    /// `Cancelled{app_shutdown}`. Returns at once; [`AgentRuntime::close`] (or
    /// [`AgentRuntime::wait_for_runs`]) waits for the runs to end.
    pub fn shutdown(&self) {
        self.end_approvals_for_shutdown();
        self.runs.cancel_all();
    }

    /// The first half of [`AgentRuntime::shutdown`]: Ask First is closing, the task in the
    /// middle of which it closes is kept for the next start, and every waiting approval ends
    /// `Cancelled{app_shutdown}`; the runs are not cancelled yet. Public for the tests of what a
    /// run does between the two halves; the app calls [`AgentRuntime::shutdown`].
    #[doc(hidden)]
    pub fn end_approvals_for_shutdown(&self) {
        self.shutting_down.store(true, Ordering::SeqCst);
        // Closing normally: the task in the middle of which Ask First closes is gone on with at
        // the next start, however many starts went on with it before.
        if let Some(marks) = &self.marks {
            let session = self.session_id();
            if let Some(mark) = marks.of(session).filter(|m| m.starts > 0) {
                if let Err(error) = marks.leave(&Interrupted { starts: 0, ..mark }) {
                    eprintln!("askfirst: could not keep the task for the next start: {error}");
                }
            }
        }
        // End what is waiting first, as cancelled by the shutdown (the registry then refuses
        // new requests, so no run can start waiting again), then stop the runs. In the other
        // order a stopped run's own cleanup would end its approvals as if the person had
        // pressed Stop, and the history would say so.
        self.registry.shutdown();
    }

    /// After [`AgentRuntime::shutdown`]: waits until every run has ended, at most `limit`, then
    /// stops the MCP servers (at most [`MCP_CLOSE_LIMIT`]). A stopped run ends once its running
    /// call has, and a file write is let finish ([`crate::tools::OnStop::Finish`]), so quitting
    /// neither cuts a write short nor leaves its end unrecorded. Returns whether the runs all
    /// ended in time.
    pub async fn close(&self, limit: Duration) -> bool {
        let ended = self.runs.wait(limit).await;
        if tokio::time::timeout(MCP_CLOSE_LIMIT, self.catalog.close())
            .await
            .is_err()
        {
            eprintln!("askfirst: the MCP servers were still stopping when Ask First closed");
        }
        ended
    }

    /// [`AgentRuntime::close`] for a thread outside the runtime (the app's exit): blocks the
    /// calling thread until it is done, at most `limit` plus [`MCP_CLOSE_LIMIT`] (the runs go
    /// on on the runtime's threads). Must not be called on one of the runtime's own threads.
    pub fn wait_for_runs(self: &Arc<Self>, limit: Duration) -> bool {
        let (done, ended) = std::sync::mpsc::sync_channel(1);
        let this = Arc::clone(self);
        self.handle.spawn(async move {
            // The receiver may have given up; then nobody needs the answer.
            let _ = done.send(this.close(limit).await);
        });
        ended
            .recv_timeout(limit + MCP_CLOSE_LIMIT + Duration::from_secs(1))
            .unwrap_or(false)
    }

    /// Why a cancelled run was cancelled: the app closing, or the person's Stop.
    fn stop_cause(&self) -> CancelCause {
        if self.shutting_down.load(Ordering::SeqCst) {
            CancelCause::AppShutdown
        } else {
            CancelCause::RunAborted
        }
    }

    fn session(&self) -> MutexGuard<'_, SessionState> {
        self.session.lock_or_recover()
    }

    /// The session in this window.
    pub fn session_id(&self) -> SessionId {
        self.session().id
    }

    fn emit(&self, event: AgentEvent) {
        (self.events)(event);
    }

    /// Starts a new, empty session in the folder chosen last: a new log, no conversation, no
    /// grants.
    ///
    /// # Errors
    /// [`SessionError::Busy`] while a run goes on.
    pub fn new_session(&self) -> Result<SessionId, SessionError> {
        if !self.runs.is_idle() {
            return Err(SessionError::Busy);
        }
        let id = SessionId::new();
        self.switch_log(id)?;
        let folder = self.folder_for(None);
        let agent = self.session().agent.clone();
        *self.session() = SessionState {
            id,
            conversation: Vec::new(),
            folder,
            folder_logged: false,
            // A new conversation keeps the agent chosen last.
            agent: agent.clone(),
        };
        if agent.is_some() {
            self.record_agent(agent.as_ref());
        }
        self.config.policy.clear_grants();
        (self.config.replay_events)(AgentEvent::SessionOpened {
            session_id: id,
            title: None,
        });
        Ok(id)
    }

    fn switch_log(&self, id: SessionId) -> Result<(), SessionError> {
        if let Some(log) = self.store.open_log(id)? {
            self.config.log.switch(Arc::new(log));
        }
        Ok(())
    }

    /// Reopens a past session: its conversation continues with the next task, in its own
    /// folder (a folder that is gone is [`SessionFolder::Gone`]: no task starts until another
    /// is chosen), its transcript is replayed to the window (runs and calls that never ended
    /// are shown as stopped). Grants do not come back. When Ask First was closed while a card
    /// of the session waited ([`crate::sessions::interrupted`]), its run goes on: the calls
    /// that waited are asked about again. Returns whether a run went on.
    ///
    /// # Errors
    /// [`SessionError::Busy`] while a run goes on; [`SessionError::Unreadable`] when the log
    /// is missing or unreadable.
    pub fn open_session(self: &Arc<Self>, id: SessionId) -> Result<bool, SessionError> {
        if !self.runs.is_idle() {
            return Err(SessionError::Busy);
        }
        let past = crate::sessions::replay::replay(self.store.read(id)?);
        self.switch_log(id)?;
        let folder = self.folder_for(past.folder.clone());
        let folder_logged =
            past.folder.as_ref().map(|(path, _)| path.as_path()) == Some(folder.path());
        *self.session() = SessionState {
            id,
            conversation: past.conversation,
            folder,
            folder_logged,
            agent: past.agent,
        };
        self.config.policy.clear_grants();
        (self.config.replay_events)(AgentEvent::SessionOpened {
            session_id: id,
            title: past.title,
        });
        for event in past.events {
            (self.config.replay_events)(event);
        }
        let Some(marks) = &self.marks else {
            return Ok(false);
        };
        let Some(mark) = marks.of(id) else {
            return Ok(false);
        };
        // Only the run that left the mark, and only while its turn still waits in the log; a
        // run of another agent is not gone on with (its program's own state is gone).
        let hosted = self.session().agent.is_some();
        let open = past
            .open_turn
            .filter(|open| open.run_id == mark.run_id && !hosted);
        let folder = match &self.session().folder {
            SessionFolder::Open { workspace, .. } => Some(workspace.clone()),
            SessionFolder::Gone { .. } => None,
        };
        let (Some(workspace), Some(open)) = (folder, open) else {
            marks.remove(id);
            return Ok(false);
        };
        let starts = mark.starts;
        match self.spawn_run(workspace, move |run| run.resume(open, starts)) {
            Ok(_) => Ok(true),
            Err(error) => {
                eprintln!("askfirst: the interrupted task could not go on: {error}");
                Ok(false)
            }
        }
    }

    /// The sessions kept in the sessions folder that have at least one task, and the current
    /// one, newest first. Reads the sessions index, not every log
    /// ([`crate::sessions::store`]).
    pub fn list_sessions(&self) -> Vec<askfirst_protocol::SessionSummary> {
        self.store.list(self.session_id())
    }
}
