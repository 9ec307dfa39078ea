//! The agent loop: user message → model step → tool calls → policy → approval → tool result →
//! next step, until the model answers without tool calls, the step limit, or cancel.
//!
//! [`AgentRuntime`] owns the runs of one session. Each run is a tokio task with a
//! [`CancellationToken`]; everything it does is reported as [`AgentEvent`]s, in order.

use crate::approvals::{ApprovalError, ApprovalRegistry, NewApproval};
use crate::audit::{AuditRecord, AuditSink, SessionLog};
use crate::canonical::canonical_json;
use crate::mcp::McpClients;
use crate::policy::{CallFacts, Policy, PolicyDecision, Rules};
use crate::provider::{Message, ModelTurn, Provider, ProviderError, ToolCall};
use crate::tools::{OnStop, ToolSet, Workspace};
use crate::EventSink;
use askfirst_protocol::{
    AgentEvent, ApprovalId, ApprovalRequest, ApprovalScope, ApprovalSource, CancelCause, Decision,
    DenialSource, Grant, Outcome, PolicyLayer, RunId, RunStatus, SessionId, SessionPolicy,
    StartRunResponse, ToolCallStatus,
};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio_util::sync::CancellationToken;

/// The default number of model steps a run may take. Waiting for the user does not count.
pub const DEFAULT_MAX_STEPS: usize = 25;

/// Makes the provider for a new run.
pub type ProviderFactory = Arc<dyn Fn() -> Result<Arc<dyn Provider>, ProviderError> + Send + Sync>;

/// Errors of starting or stopping runs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
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
}

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

/// What the model is told for each call past [`MAX_TOOL_CALLS_PER_TURN`] in one turn.
pub fn too_many_calls_text() -> String {
    format!(
        "Not performed: too many actions at once (limit {MAX_TOOL_CALLS_PER_TURN} per reply). \
         Ask for fewer at a time."
    )
}

/// What the model is told, and the person sees, when the run's tool output reached
/// [`MAX_RUN_OUTPUT_BYTES`].
fn output_limit_text() -> String {
    format!(
        "The actions of this task have produced {} MB of output, the most Ask First passes on \
         in one task (limit {} MB), so the task ends here; this action was not performed.",
        MAX_RUN_OUTPUT_BYTES / (1024 * 1024),
        MAX_RUN_OUTPUT_BYTES / (1024 * 1024)
    )
}

/// What the model is told when a call was denied by the user.
pub const USER_DENIAL_TAIL: &str = "The action was not performed. Do not retry the same call; \
     take a different approach or explain what you need in the final answer.";

/// Settings of an [`AgentRuntime`].
#[derive(Clone)]
pub struct RuntimeConfig {
    /// The folder tools work in.
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
    /// The first session's id (its log is named after it).
    pub session_id: SessionId,
    /// Where session logs live (`<id>.jsonl`), to list and reopen them; `None` for none.
    pub sessions_dir: Option<PathBuf>,
    /// Where replayed events of a reopened session go: the same destination as the runtime's
    /// events, but not written to the log again.
    pub replay_events: EventSink,
}

/// The session in this window: its id and its conversation with the model.
struct SessionState {
    id: SessionId,
    conversation: Vec<Message>,
}

/// Errors of opening sessions.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// A run is going; sessions change only between runs.
    #[error("The agent is still working. Stop it or wait for it to finish first.")]
    Busy,
    /// No such session, or its log cannot be read.
    #[error("The session could not be opened: {0}")]
    Unreadable(String),
}

/// How often streamed text is passed on to the window at most: every 50 ms.
pub const DELTA_INTERVAL: std::time::Duration = std::time::Duration::from_millis(50);

/// Runs the agent for one session and answers the shell's commands.
pub struct AgentRuntime {
    handle: tokio::runtime::Handle,
    registry: Arc<ApprovalRegistry>,
    events: EventSink,
    config: RuntimeConfig,
    runs: Mutex<HashMap<RunId, CancellationToken>>,
    session: Mutex<SessionState>,
    /// The MCP servers in force (starts as `config.mcp`; replaced by
    /// [`AgentRuntime::set_mcp_servers`]).
    mcp: Mutex<Option<Arc<McpClients>>>,
    /// Set by [`AgentRuntime::shutdown`]: runs stopped from then on were stopped by the app
    /// closing, not by the person, and their records say so.
    shutting_down: std::sync::atomic::AtomicBool,
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
        Arc::new(Self {
            handle,
            registry,
            events,
            session: Mutex::new(SessionState {
                id: config.session_id,
                conversation: Vec::new(),
            }),
            mcp: Mutex::new(config.mcp.clone()),
            config,
            runs: Mutex::new(HashMap::new()),
            shutting_down: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The approvals registry.
    pub fn approvals(&self) -> &Arc<ApprovalRegistry> {
        &self.registry
    }

    /// The workspace folder.
    pub fn workspace(&self) -> &Workspace {
        &self.config.workspace
    }

    fn runs(&self) -> MutexGuard<'_, HashMap<RunId, CancellationToken>> {
        self.runs
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Starts a run for `task` and returns at once; the run reports through events.
    ///
    /// # Errors
    /// [`RunError::EmptyTask`], [`RunError::Busy`] while another run goes on, or
    /// [`RunError::Provider`] when the model cannot be set up.
    pub fn start_run(self: &Arc<Self>, task: &str) -> Result<StartRunResponse, RunError> {
        let task = task.trim();
        if task.is_empty() {
            return Err(RunError::EmptyTask);
        }
        let provider = (self.config.provider)()?;
        let run_id = RunId::new();
        let token = CancellationToken::new();
        {
            let mut runs = self.runs();
            if !runs.is_empty() {
                return Err(RunError::Busy);
            }
            runs.insert(run_id, token.clone());
        }
        // Re-read the rules so edits apply, only once no other run is using them.
        if let Some(path) = &self.config.rules_path {
            self.config.policy.set_rules(Rules::load(path));
        }
        let this = Arc::clone(self);
        let task = task.to_owned();
        self.handle.spawn(async move {
            let _guard = RunGuard {
                runtime: Arc::clone(&this),
                run_id,
            };
            this.run(run_id, task, provider, token).await;
        });
        Ok(StartRunResponse {
            run_id,
            session_id: self.session_id(),
        })
    }

    /// Stops a run: its pending approvals end `Cancelled{run_aborted}` and no further model
    /// step or tool call starts. Returns whether a running run was stopped; stopping a run that
    /// already ended is a quiet no-op.
    pub fn cancel_run(&self, run_id: RunId) -> bool {
        let token = self.runs().get(&run_id).cloned();
        match token {
            Some(token) => {
                token.cancel();
                self.registry.cancel_run(run_id);
                true
            }
            None => false,
        }
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

    /// The approvals waiting, oldest first.
    pub fn list_pending_approvals(&self) -> Vec<ApprovalRequest> {
        self.registry.list_pending(None)
    }

    /// The MCP servers and how each is doing (empty when none are configured).
    pub fn mcp_statuses(&self) -> Vec<crate::mcp::McpServerState> {
        self.current_mcp().map(|m| m.statuses()).unwrap_or_default()
    }

    fn current_mcp(&self) -> Option<Arc<McpClients>> {
        self.mcp.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Replaces the MCP servers; the next run offers their tools. A server whose settings did
    /// not change keeps running; the others are shut down in the background. A run already
    /// going keeps the tools it started with (each call of them still asks as before).
    pub fn set_mcp_servers(&self, configs: Vec<crate::mcp::McpServerConfig>) {
        let mut slot = self.mcp.lock().unwrap_or_else(|p| p.into_inner());
        let (fresh, gone) = match slot.as_ref() {
            Some(old) => {
                let (fresh, gone) = old.reconfigured(configs);
                (fresh, Some(gone))
            }
            None => (McpClients::new(configs), None),
        };
        *slot = (!fresh.is_empty()).then(|| Arc::new(fresh));
        drop(slot);
        if let Some(gone) = gone.filter(|g| !g.is_empty()) {
            self.handle.spawn(async move { gone.shutdown().await });
        }
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

    fn audit(&self, record: AuditRecord) {
        if let Err(error) = self.config.log.append(&record) {
            eprintln!("askfirst: {error}");
        }
    }

    /// Stops everything for app exit: every run is cancelled and every pending approval ends
    /// `Cancelled{app_shutdown}`.
    pub fn shutdown(&self) {
        self.shutting_down
            .store(true, std::sync::atomic::Ordering::SeqCst);
        // End what is waiting first, as cancelled by the shutdown (the registry then refuses
        // new requests, so no run can start waiting again), then stop the runs. In the other
        // order a stopped run's own cleanup would end its approvals as if the person had
        // pressed Stop, and the history would say so.
        self.registry.shutdown();
        for token in self.runs().values() {
            token.cancel();
        }
    }

    /// After [`AgentRuntime::shutdown`]: waits until every run has ended, at most `limit`,
    /// blocking the calling thread (the app's exit; the runs go on on the runtime's threads).
    /// A stopped run ends once its running call has, and a file write is let finish
    /// ([`crate::tools::OnStop::Finish`]), so quitting neither cuts a write short nor leaves
    /// its end unrecorded. Returns whether they all ended in time.
    pub fn wait_for_runs(&self, limit: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + limit;
        while !self.runs().is_empty() {
            if std::time::Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        true
    }

    /// Why a cancelled run was cancelled: the app closing, or the person's Stop.
    fn stop_cause(&self) -> CancelCause {
        if self.shutting_down.load(std::sync::atomic::Ordering::SeqCst) {
            CancelCause::AppShutdown
        } else {
            CancelCause::RunAborted
        }
    }

    fn session(&self) -> MutexGuard<'_, SessionState> {
        self.session
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The session in this window.
    pub fn session_id(&self) -> SessionId {
        self.session().id
    }

    /// Appends to the conversation and records it in the session log.
    fn push_message(&self, messages: &mut Vec<Message>, message: Message) {
        self.audit(AuditRecord::Message {
            message: message.clone(),
            at: crate::unix_millis_now(),
        });
        messages.push(message);
    }

    fn system_prompt(&self) -> String {
        format!(
            "You are the assistant inside Ask First, a desktop app. You help a person who is not \
             a programmer with files in their workspace folder ({}). Use the tools to look \
             before you change anything. Every change waits for the person's OK; if they deny \
             an action, do not try it again unchanged: take another approach or explain what \
             you need. Paths are relative to the workspace folder. Answer in plain words.",
            self.config.workspace.root().display()
        )
    }

    /// One model step, passing streamed text on as `AssistantDelta`s at most every
    /// [`DELTA_INTERVAL`], so a fast model does not flood the window.
    async fn step_streaming(
        &self,
        run_id: RunId,
        provider: &dyn Provider,
        messages: &[Message],
        specs: &[crate::tools::ToolSpec],
    ) -> Result<ModelTurn, crate::provider::ProviderError> {
        let pending = Mutex::new((String::new(), std::time::Instant::now()));
        let flush = |buffer: &mut String| {
            if !buffer.is_empty() {
                self.emit(AgentEvent::AssistantDelta {
                    run_id,
                    text: std::mem::take(buffer),
                });
            }
        };
        let on_delta = |piece: &str| {
            let mut guard = pending.lock().unwrap_or_else(|p| p.into_inner());
            let (buffer, last) = &mut *guard;
            buffer.push_str(piece);
            if last.elapsed() >= DELTA_INTERVAL {
                flush(buffer);
                *last = std::time::Instant::now();
            }
        };
        let result = provider.step(messages, specs, &on_delta).await;
        let mut guard = pending.lock().unwrap_or_else(|p| p.into_inner());
        flush(&mut guard.0);
        result
    }

    /// Starts a new, empty session: a new log, no conversation, no grants.
    ///
    /// # Errors
    /// [`SessionError::Busy`] while a run goes on.
    pub fn new_session(&self) -> Result<SessionId, SessionError> {
        if !self.runs().is_empty() {
            return Err(SessionError::Busy);
        }
        let id = SessionId::new();
        self.switch_log(id)?;
        *self.session() = SessionState {
            id,
            conversation: Vec::new(),
        };
        self.config.policy.clear_grants();
        (self.config.replay_events)(AgentEvent::SessionOpened {
            session_id: id,
            title: None,
        });
        Ok(id)
    }

    fn switch_log(&self, id: SessionId) -> Result<(), SessionError> {
        if let Some(dir) = &self.config.sessions_dir {
            let log = crate::audit::JsonlLog::open(&dir.join(format!("{id}.jsonl")))
                .map_err(|e| SessionError::Unreadable(e.to_string()))?;
            self.config.log.switch(Arc::new(log));
        }
        Ok(())
    }

    /// Reopens a past session: its conversation continues with the next task, its transcript
    /// is replayed to the window (runs and calls that never ended are shown as stopped). Grants
    /// do not come back.
    ///
    /// # Errors
    /// [`SessionError::Busy`] while a run goes on; [`SessionError::Unreadable`] when the log
    /// is missing or unreadable.
    pub fn open_session(&self, id: SessionId) -> Result<(), SessionError> {
        if !self.runs().is_empty() {
            return Err(SessionError::Busy);
        }
        let dir = self
            .config
            .sessions_dir
            .as_ref()
            .ok_or_else(|| SessionError::Unreadable("sessions are not kept".into()))?;
        let contents = crate::audit::read_log(&dir.join(format!("{id}.jsonl")))
            .map_err(|e| SessionError::Unreadable(e.to_string()))?;
        let mut conversation = Vec::new();
        let mut events = Vec::new();
        let mut facts = LogFacts {
            // A damaged line is a part of the log that is missing too.
            incomplete: !contents.warnings.is_empty(),
            ..LogFacts::default()
        };
        let mut asked = HashMap::new();
        let mut approved = HashMap::new();
        for record in contents.records {
            match serde_json::from_value::<AuditRecord>(record) {
                Ok(AuditRecord::Message { message, .. }) => conversation.push(message),
                Ok(AuditRecord::Event { event, .. }) => events.push(event),
                Ok(AuditRecord::Unrecorded { .. }) => facts.incomplete = true,
                Ok(AuditRecord::ApprovalAsked {
                    approval_id,
                    run_id,
                    tool_call_id,
                    ..
                }) => {
                    asked.insert(approval_id, (run_id, tool_call_id));
                }
                Ok(AuditRecord::ApprovalDecided {
                    approval_id,
                    outcome,
                    ..
                }) => {
                    approved.insert(approval_id, outcome.is_approved());
                }
                Ok(AuditRecord::PolicyDecided {
                    run_id,
                    tool_call_id,
                    allowed,
                    ..
                }) => {
                    facts.may_run.insert((run_id, tool_call_id), allowed);
                }
                Ok(_) | Err(_) => {}
            }
        }
        for (approval_id, call) in asked {
            if let Some(approved) = approved.get(&approval_id) {
                facts.may_run.insert(call, *approved);
            }
        }
        let conversation = answer_unanswered(conversation);
        let title = session_title(&conversation);
        self.switch_log(id)?;
        *self.session() = SessionState { id, conversation };
        self.config.policy.clear_grants();
        (self.config.replay_events)(AgentEvent::SessionOpened {
            session_id: id,
            title,
        });
        for event in replayable(events, &facts) {
            (self.config.replay_events)(event);
        }
        Ok(())
    }

    /// The sessions kept in the sessions folder that have at least one task, and the current
    /// one, newest first.
    pub fn list_sessions(&self) -> Vec<askfirst_protocol::SessionSummary> {
        let current = self.session_id();
        let mut out = Vec::new();
        let Some(dir) = &self.config.sessions_dir else {
            return out;
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return out;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Some(id) = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<SessionId>().ok())
            else {
                continue;
            };
            let updated_at = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
                .unwrap_or(0);
            let title = crate::audit::read_log(&path).ok().and_then(|c| {
                c.records
                    .into_iter()
                    .find_map(|r| match serde_json::from_value(r) {
                        Ok(AuditRecord::Message {
                            message: Message::User { text },
                            ..
                        }) => Some(text),
                        _ => None,
                    })
            });
            if title.is_none() && id != current {
                continue;
            }
            out.push(askfirst_protocol::SessionSummary {
                session_id: id,
                title: title
                    .map(|t| shorten(&t, 80))
                    .unwrap_or_else(|| "New session".into()),
                updated_at,
                current: id == current,
            });
        }
        out.sort_by_key(|s| std::cmp::Reverse(s.updated_at));
        out
    }

    fn emit(&self, event: AgentEvent) {
        (self.events)(event);
    }

    async fn run(
        &self,
        run_id: RunId,
        task: String,
        provider: Arc<dyn Provider>,
        token: CancellationToken,
    ) {
        self.emit(AgentEvent::RunStarted {
            run_id,
            session_id: self.session_id(),
            task: task.clone(),
            provider: provider.display_name(),
        });
        let mut messages = std::mem::take(&mut self.session().conversation);
        if messages.is_empty() {
            self.push_message(
                &mut messages,
                Message::System {
                    text: self.system_prompt(),
                },
            );
        }
        self.push_message(&mut messages, Message::User { text: task });
        let (status, message) = self
            .run_loop(run_id, &mut messages, provider.as_ref(), &token)
            .await;
        // The next task continues this conversation.
        self.session().conversation = messages;
        self.emit(AgentEvent::RunFinished {
            run_id,
            status,
            message,
        });
    }

    async fn run_loop(
        &self,
        run_id: RunId,
        messages: &mut Vec<Message>,
        provider: &dyn Provider,
        token: &CancellationToken,
    ) -> (RunStatus, Option<String>) {
        let stopped = || {
            let why = match self.stop_cause() {
                CancelCause::AppShutdown => "Ask First was closed while the agent was working.",
                CancelCause::RunAborted => "You stopped the agent.",
            };
            (RunStatus::Cancelled, Some(why.to_owned()))
        };
        let tools = tokio::select! {
            biased;
            () = token.cancelled() => return stopped(),
            tools = self.run_tools() => tools,
        };
        let specs = tools.specs();
        let mut denied: HashMap<(String, String), DeniedCall> = HashMap::new();
        // Bytes of tool results so far in this run (see `MAX_RUN_OUTPUT_BYTES`).
        let mut run_output = 0usize;
        for _step in 0..self.config.max_steps {
            let turn: ModelTurn = tokio::select! {
                biased;
                () = token.cancelled() => return stopped(),
                turn = self.step_streaming(run_id, provider, messages, &specs) => match turn {
                    Ok(turn) => turn,
                    Err(e) => return (RunStatus::Failed, Some(e.to_string())),
                },
            };
            if let Some(text) = turn.text.as_deref().filter(|t| !t.trim().is_empty()) {
                self.emit(AgentEvent::AssistantMessage {
                    run_id,
                    text: text.to_owned(),
                });
            }
            let mut calls = turn.tool_calls.clone();
            self.push_message(messages, Message::Assistant { turn });
            if calls.is_empty() {
                return (RunStatus::Completed, None);
            }
            // The calls past the cap are neither described, nor asked about, nor run; the
            // person sees them as one line, and each gets its short result after the others.
            let too_many = calls.split_off(calls.len().min(MAX_TOOL_CALLS_PER_TURN));
            self.show_too_many(run_id, calls.len() + too_many.len(), &too_many);
            // Every call of the turn is proposed (and, where the policy asks, shown as a card)
            // before any runs, so the person sees them all and can answer in any order; they
            // then run in the model's order.
            let mut prepared: Vec<Option<Prepared>> = calls
                .iter()
                .map(|call| Some(self.prepare_call(run_id, call, &tools, &mut denied)))
                .collect();
            for (index, call) in calls.iter().enumerate() {
                let Some(this) = prepared[index].take() else {
                    continue;
                };
                let mut result = self.complete_call(call, this, token, &mut denied).await;
                // Every tool keeps to the cap itself; this holds it for any tool (an MCP
                // server's, a new one) and for error messages that quote what they were given.
                result.content = capped_output(result.content);
                let is_error = result.status != ToolCallStatus::Succeeded;
                self.emit(AgentEvent::ToolCallFinished {
                    run_id,
                    tool_call_id: call.id.clone(),
                    status: result.status,
                    policy_layer: result.layer,
                    output: for_person(result.status, &result.content),
                });
                run_output = run_output.saturating_add(result.content.len());
                let over_limit = run_output >= MAX_RUN_OUTPUT_BYTES;
                let content = if over_limit {
                    // Said to the model where it looks: in the last result it gets.
                    format!(
                        "{}\n[Ask First: the actions of this task have now produced the most \
                         output it passes on in one task (limit {} MB), so the task ends here.]",
                        result.content,
                        MAX_RUN_OUTPUT_BYTES / (1024 * 1024)
                    )
                } else {
                    result.content
                };
                self.push_message(
                    messages,
                    Message::ToolResult {
                        tool_call_id: call.id.clone(),
                        content,
                        is_error,
                    },
                );
                let end = if token.is_cancelled() {
                    let (status, message) = stopped();
                    // Stop came while this call ran and it was let finish: said at the end,
                    // where the person looks after pressing Stop (the call's line says "Done").
                    let message = match (&result.finished_after_stop, message) {
                        (Some(done), Some(why)) => Some(format!(
                            "{why} What was already being done was finished, since stopping it \
                             halfway could have left it half done: {done}."
                        )),
                        (_, message) => message,
                    };
                    Some(((status, message), cancelled_text(self.stop_cause())))
                } else if over_limit {
                    let why = format!(
                        "The agent was stopped: its actions in this task produced more than {} \
                         MB of output, the most Ask First allows in one task. Send a new \
                         message to go on.",
                        MAX_RUN_OUTPUT_BYTES / (1024 * 1024)
                    );
                    Some(((RunStatus::Failed, Some(why)), output_limit_text()))
                } else {
                    result.stop_run.map(|why| {
                        let text = "The run was stopped before this action; it was not performed.";
                        ((RunStatus::Failed, Some(why)), text.to_owned())
                    })
                };
                if let Some((finish, content)) = end {
                    // The turn's remaining approvals end now (their drop guards cancel them).
                    prepared.clear();
                    // Every call of the turn still gets exactly one result, in order.
                    for rest in &calls[index + 1..] {
                        self.emit(AgentEvent::ToolCallFinished {
                            run_id,
                            tool_call_id: rest.id.clone(),
                            status: ToolCallStatus::Cancelled,
                            policy_layer: None,
                            output: for_person(ToolCallStatus::Cancelled, &content),
                        });
                        self.push_message(
                            messages,
                            Message::ToolResult {
                                tool_call_id: rest.id.clone(),
                                content: content.clone(),
                                is_error: true,
                            },
                        );
                    }
                    self.answer_too_many(messages, &too_many);
                    return finish;
                }
            }
            self.answer_too_many(messages, &too_many);
        }
        (
            RunStatus::Failed,
            Some(format!(
                "The agent stopped after {} steps without finishing.",
                self.config.max_steps
            )),
        )
    }

    /// Shows the calls of a turn past [`MAX_TOOL_CALLS_PER_TURN`] as one line: the first of
    /// them, as the model sent it, standing for all (`asked` is how many the turn had).
    fn show_too_many(&self, run_id: RunId, asked: usize, too_many: &[ToolCall]) {
        let Some(first) = too_many.first() else {
            return;
        };
        let summary = format!(
            "The agent asked for {asked} actions at once; the {} after the first \
             {MAX_TOOL_CALLS_PER_TURN} were not done",
            too_many.len()
        );
        self.emit(AgentEvent::ToolCallProposed {
            run_id,
            tool_call_id: first.id.clone(),
            tool_name: first.name.clone(),
            arguments_json: first.arguments_json.clone(),
            summary: summary.clone(),
        });
        self.emit(AgentEvent::ToolCallFinished {
            run_id,
            tool_call_id: first.id.clone(),
            status: ToolCallStatus::Denied,
            policy_layer: None,
            output: format!(
                "Not done: the agent asked for {asked} actions at once, and Ask First does at \
                 most {MAX_TOOL_CALLS_PER_TURN} at a time, so the other {} were not looked at, \
                 asked about or performed. It was told to ask for fewer.",
                too_many.len()
            ),
        });
    }

    /// Gives each call past [`MAX_TOOL_CALLS_PER_TURN`] its one short result, in order.
    fn answer_too_many(&self, messages: &mut Vec<Message>, too_many: &[ToolCall]) {
        let content = too_many_calls_text();
        for call in too_many {
            self.push_message(
                messages,
                Message::ToolResult {
                    tool_call_id: call.id.clone(),
                    content: content.clone(),
                    is_error: true,
                },
            );
        }
    }

    /// The tools of one run: the built-in ones and those of the MCP servers that run or start
    /// now.
    async fn run_tools(&self) -> ToolSet {
        let mut tools = self.config.tools.clone();
        if let Some(mcp) = self.current_mcp() {
            for tool in mcp.tools().await {
                // MCP tools are named `server__tool`; none may stand in for a built-in one.
                if tools.get(tool.name()).is_none() {
                    tools.add(tool);
                }
            }
        }
        tools
    }

    /// First half of one tool call: describe it, ask the policy, and when it asks, register
    /// the approval (so every card of a turn shows at once). Nothing runs here.
    fn prepare_call(
        &self,
        run_id: RunId,
        call: &ToolCall,
        tools: &ToolSet,
        denied: &mut HashMap<(String, String), DeniedCall>,
    ) -> Prepared {
        let ws = &self.config.workspace;
        let tool = tools.get(&call.name);
        let description = tool.as_ref().map(|t| t.describe(&call.arguments_json, ws));
        let summary = match &description {
            Some(Ok(d)) => d.summary.clone(),
            _ => format!("Use the tool \"{}\"", call.name),
        };
        self.emit(AgentEvent::ToolCallProposed {
            run_id,
            tool_call_id: call.id.clone(),
            tool_name: call.name.clone(),
            arguments_json: call.arguments_json.clone(),
            summary: summary.clone(),
        });
        let (tool, description) = match (tool, description) {
            (Some(tool), Some(Ok(description))) => (tool, description),
            (Some(_), Some(Err(e))) => return Prepared::Done(CallResult::failed(e.to_string())),
            (None, _) | (Some(_), None) => {
                // A tool of an MCP server that is not working: say why, not just "no such tool".
                let server_down = call.name.split_once("__").and_then(|(prefix, _)| {
                    self.mcp_statuses()
                        .into_iter()
                        .find_map(|server| match server.status {
                            crate::mcp::McpServerStatus::Failed { message }
                                if server.name == prefix =>
                            {
                                Some(message)
                            }
                            _ => None,
                        })
                });
                return Prepared::Done(CallResult::failed(match server_down {
                    Some(why) => format!("The tool \"{}\" cannot be used now. {why}", call.name),
                    None => format!(
                        "There is no tool named \"{}\". The tools are: {}.",
                        call.name,
                        tools.names().join(", ")
                    ),
                }));
            }
        };
        let canonical = canonical_json(&call.arguments_json);
        // A call without a canonical form is remembered by its exact text.
        let key = (
            call.name.clone(),
            canonical
                .clone()
                .unwrap_or_else(|| call.arguments_json.clone()),
        );
        if let Some(previous) = denied.get_mut(&key) {
            previous.repeats += 1;
            let stop_run = (previous.repeats >= MAX_DENIED_REPEATS).then(|| {
                format!(
                    "The agent kept asking to do something that was already refused (\"{}\"), so \
                     it was stopped. Send a new message to tell it what to do instead.",
                    summary
                )
            });
            return Prepared::Done(CallResult {
                status: ToolCallStatus::Denied,
                content: previous.content.clone(),
                layer: Some(previous.layer),
                stop_run,
                finished_after_stop: None,
            });
        }
        let main_arguments = tool.main_arguments(&call.arguments_json, ws);
        let verdict = self.config.policy.decide(&CallFacts {
            tool_name: &call.name,
            read_only: tool.read_only(),
            risk: description.risk,
            main_arguments: &main_arguments,
            canonical_arguments: canonical.as_deref(),
            mcp_server: tool.mcp_server(),
            fingerprint: description.fingerprint.as_deref(),
        });
        let layer = verdict.layer;
        let decided_without_asking = |allowed: bool, reason: &str| AuditRecord::PolicyDecided {
            run_id,
            tool_call_id: call.id.clone(),
            tool_name: call.name.clone(),
            arguments_sha256: crate::approvals::sha256_hex(call.arguments_json.as_bytes()),
            allowed,
            policy_layer: layer,
            reason: reason.to_owned(),
            at: crate::unix_millis_now(),
        };
        let pending = match verdict.decision {
            PolicyDecision::Allow => {
                self.audit(decided_without_asking(true, &verdict.note));
                None
            }
            PolicyDecision::Deny { reason } => {
                self.audit(decided_without_asking(false, &reason));
                let content = if layer == PolicyLayer::HardDenial {
                    format!(
                        "Ask First never allows this: {reason} It was not performed. Do not \
                         retry it; take a different approach."
                    )
                } else {
                    denial_text(DenialSource::Policy, Some(&reason))
                };
                return Prepared::Done(remember_denial(denied, key, content, layer));
            }
            PolicyDecision::Ask { reason } => {
                // A grant only helps where grants are consulted: not past an "ask" rule or a
                // broken rules file, which sit above grants.
                let grantable = canonical.is_some() && layer == PolicyLayer::ToolDefault;
                let grant_scope = grantable.then(|| {
                    "Until you close Ask First, this exact action (same tool, same details) \
                     will run again without asking, as long as what it works on is as shown \
                     here or as this action leaves it. Anything different still asks."
                        .to_owned()
                });
                match self.registry.request(NewApproval {
                    run_id,
                    tool_call_id: call.id.clone(),
                    tool_name: call.name.clone(),
                    arguments_json: call.arguments_json.clone(),
                    summary: summary.clone(),
                    reason,
                    risk: description.risk,
                    policy_layer: layer,
                    grant_scope,
                    preview: description.preview.clone(),
                    effects: description.effects.clone(),
                    detail: description.detail.clone(),
                }) {
                    Ok(pending) => Some(pending),
                    Err(ApprovalError::ShuttingDown) => {
                        return Prepared::Done(CallResult {
                            status: ToolCallStatus::Cancelled,
                            content: cancelled_text(CancelCause::AppShutdown),
                            layer: Some(layer),
                            stop_run: None,
                            finished_after_stop: None,
                        })
                    }
                    Err(error) => {
                        let why = error.to_string();
                        let content = denial_text(DenialSource::Unavailable, Some(&why));
                        return Prepared::Done(remember_denial(denied, key, content, layer));
                    }
                }
            }
        };
        Prepared::Ready(Box::new(ReadyCall {
            run_id,
            tool,
            pending,
            layer,
            canonical,
            summary,
            key,
            fingerprint: description.fingerprint,
        }))
    }

    /// Second half of one tool call: wait for its approval (if it asked), then run it.
    async fn complete_call(
        &self,
        call: &ToolCall,
        prepared: Prepared,
        token: &CancellationToken,
        denied: &mut HashMap<(String, String), DeniedCall>,
    ) -> CallResult {
        let ready = match prepared {
            Prepared::Done(result) => return result,
            Prepared::Ready(ready) => *ready,
        };
        let ReadyCall {
            run_id,
            tool,
            pending,
            layer,
            canonical,
            summary,
            key,
            fingerprint,
        } = ready;
        let ws = &self.config.workspace;
        let mut approved = false;
        if let Some(pending) = pending {
            // Stop reaches a waiting approval through the registry (`cancel_run` settles it as
            // Cancelled{run_aborted}), so the outcome the waiter gets is always the one that
            // was recorded and announced.
            match pending.wait().await {
                Outcome::Approved { scope, source } => {
                    approved = true;
                    if let (ApprovalScope::Session, ApprovalSource::User, Some(canonical)) =
                        (scope, source, &canonical)
                    {
                        self.config.policy.grant(
                            &call.name,
                            canonical,
                            fingerprint.as_deref(),
                            &summary,
                        );
                        self.audit(AuditRecord::GrantCreated {
                            tool_name: call.name.clone(),
                            canonical_arguments: canonical.clone(),
                            at: crate::unix_millis_now(),
                        });
                        // "This exact action will run again without asking" also holds for
                        // the identical calls already waiting (parallel calls of one turn):
                        // their cards are answered by the grant, not left asking.
                        self.registry.approve_covered(|request| {
                            request.grant_scope.is_some()
                                && request.tool_name == call.name
                                && canonical_json(&request.arguments_json).as_ref()
                                    == Some(canonical)
                        });
                    }
                }
                Outcome::Denied { source, reason } => {
                    let content = denial_text(source, reason.as_deref());
                    return remember_denial(denied, key, content, layer);
                }
                Outcome::Cancelled { cause } => {
                    return CallResult {
                        status: ToolCallStatus::Cancelled,
                        content: cancelled_text(cause),
                        layer: Some(layer),
                        stop_run: None,
                        finished_after_stop: None,
                    }
                }
            }
        }
        // A call the person approved runs even if Stop came after the approval (the tool runs
        // if and only if the outcome is Approved); a call allowed without asking does not
        // start once the run is stopped.
        if token.is_cancelled() && !approved {
            return CallResult {
                status: ToolCallStatus::Cancelled,
                content: cancelled_text(self.stop_cause()),
                layer: Some(layer),
                stop_run: None,
                finished_after_stop: None,
            };
        }
        // What was shown (and approved) must still be what would happen: a file edited by the
        // person, or by an earlier call, while the card waited is not overwritten, and a folder
        // that filled up meanwhile is not moved to the trash.
        if let Some(expected) = &fingerprint {
            if tool.fingerprint(&call.arguments_json, ws).as_deref() != Some(expected.as_str()) {
                return CallResult {
                    layer: Some(layer),
                    ..CallResult::failed(format!(
                        "Not done: the file or folder changed after this was shown for approval \
                         (\"{summary}\"), so it would no longer do what was shown. Nothing was \
                         changed; ask again with it as it is now."
                    ))
                };
            }
        }
        self.emit(AgentEvent::ToolCallStarted {
            run_id,
            tool_call_id: call.id.clone(),
        });
        // Stop while a tool runs: what happens, and what is said, depends on the tool
        // (`OnStop`): a command's whole process group is killed; a file write is let finish
        // and reported as it ended; an MCP server's answer is no longer waited for.
        // A command is shut in without what the person's deny rules name (read now: the rules
        // in force for this run).
        let for_commands;
        let ws = if call.name == "run_command" {
            for_commands = ws
                .clone()
                .hiding_from_commands(self.config.policy.denied_for_commands(ws.root()));
            &for_commands
        } else {
            ws
        };
        let execution = tool.execute(&call.arguments_json, ws);
        tokio::pin!(execution);
        let mut stopped_while_running = false;
        let executed = tokio::select! {
            biased;
            result = &mut execution => result,
            () = token.cancelled() => {
                let who = match self.stop_cause() {
                    CancelCause::RunAborted => "The user stopped the run",
                    CancelCause::AppShutdown => "The app was closed",
                };
                let stopped = |status, content| CallResult {
                    status,
                    content,
                    layer: Some(layer),
                    stop_run: None,
                    finished_after_stop: None,
                };
                match tool.on_stop() {
                    OnStop::Finish => {
                        stopped_while_running = true;
                        execution.await
                    }
                    OnStop::Interrupt => {
                        return stopped(
                            ToolCallStatus::Cancelled,
                            format!(
                                "{who} while this action was running; it was stopped before \
                                 it finished."
                            ),
                        )
                    }
                    // Not "not done": it may have been.
                    OnStop::Abandon => {
                        return stopped(
                            ToolCallStatus::Failed,
                            format!(
                                "{who} while this action was running. Ask First stopped \
                                 waiting for it, so whether it was done is not known."
                            ),
                        )
                    }
                }
            }
        };
        // Let finish after a Stop: said, so nobody wonders why it ran after the Stop.
        let after_stop = |text: String| {
            if stopped_while_running {
                format!(
                    "{text} (The run was stopped while this was being done; it was finished, \
                     since stopping it halfway could have left it half done.)"
                )
            } else {
                text
            }
        };
        let finished_after_stop = stopped_while_running.then(|| summary.clone());
        // A grant covers the state its card showed, and, for a call whose repeat changes
        // nothing (a write), the state this very action left: the same write again still runs
        // without asking, but a file changed by anything else asks again, and so does an edit
        // whose text would match again (found by an attacker: 1 → 10 → 100 → 1000).
        if let (Ok(_), Some(canonical), true) =
            (&executed, &canonical, tool.repeat_changes_nothing())
        {
            self.config.policy.grant_state_now(
                &call.name,
                canonical,
                tool.fingerprint(&call.arguments_json, ws).as_deref(),
            );
        }
        match executed {
            Ok(output) => CallResult {
                status: ToolCallStatus::Succeeded,
                content: after_stop(output),
                layer: Some(layer),
                stop_run: None,
                finished_after_stop,
            },
            Err(e) => CallResult {
                layer: Some(layer),
                finished_after_stop,
                ..CallResult::failed(after_stop(e.to_string()))
            },
        }
    }
}

/// A tool call after its first half: either already answered, or ready to wait and run.
enum Prepared {
    Done(CallResult),
    Ready(Box<ReadyCall>),
}

struct ReadyCall {
    run_id: RunId,
    tool: Arc<dyn crate::tools::Tool>,
    /// The registered approval, when the policy asked.
    pending: Option<crate::approvals::PendingApproval>,
    layer: PolicyLayer,
    canonical: Option<String>,
    summary: String,
    key: (String, String),
    /// The target as described (see [`crate::tools::CallDescription::fingerprint`]).
    fingerprint: Option<String>,
}

/// Records a denial so an identical call in this run gets the same answer without a card.
fn remember_denial(
    denied: &mut HashMap<(String, String), DeniedCall>,
    key: (String, String),
    content: String,
    layer: PolicyLayer,
) -> CallResult {
    denied.insert(
        key,
        DeniedCall {
            content: content.clone(),
            layer,
            repeats: 0,
        },
    );
    CallResult {
        status: ToolCallStatus::Denied,
        content,
        layer: Some(layer),
        stop_run: None,
        finished_after_stop: None,
    }
}

/// A call denied earlier in the run, and how often the model has repeated it since.
struct DeniedCall {
    content: String,
    layer: PolicyLayer,
    repeats: usize,
}

struct CallResult {
    status: ToolCallStatus,
    content: String,
    layer: Option<PolicyLayer>,
    /// Set when the run must stop after this call, with the reason shown to the person.
    stop_run: Option<String>,
    /// The call's summary, when Stop came while it ran and it was let finish
    /// ([`crate::tools::OnStop::Finish`]): the run's end says so to the person.
    finished_after_stop: Option<String>,
}

impl CallResult {
    fn failed(content: String) -> Self {
        Self {
            status: ToolCallStatus::Failed,
            content,
            layer: None,
            stop_run: None,
            finished_after_stop: None,
        }
    }
}

/// Removes a run from the active runs when its task ends, however it ends.
struct RunGuard {
    runtime: Arc<AgentRuntime>,
    run_id: RunId,
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        self.runtime.runs().remove(&self.run_id);
        // Nothing of this run may stay waiting.
        self.runtime.registry.cancel_run(self.run_id);
    }
}

/// The note of the denials given all at once by "Don't ask me now" to the requests already
/// waiting: the words of the switch the person turned on.
pub const DONT_ASK_ME_NOW: &str = "Don't ask me now: refuse whatever needs my OK";

/// What the model is told when a call did not run because it was denied.
pub fn denial_text(source: DenialSource, reason: Option<&str>) -> String {
    match source {
        DenialSource::User => match reason {
            Some(note) => format!(
                "The user denied this action and said: \"{note}\". Follow the user's \
                 instruction. {USER_DENIAL_TAIL}"
            ),
            None => format!("The user denied this action. {USER_DENIAL_TAIL}"),
        },
        DenialSource::Timeout => "The user did not answer the request for approval in time, so \
             the action was not performed. Do not retry it now; say in the final answer what \
             you wanted to do."
            .to_owned(),
        DenialSource::Policy => format!(
            "This action is not allowed by the user's settings{}. It was not performed. Do not \
             retry it; take a different approach.",
            reason.map(|r| format!(" ({r})")).unwrap_or_default()
        ),
        DenialSource::Unavailable => format!(
            "This action could not be approved{}, so it was not performed. Say in the final \
             answer what you wanted to do.",
            reason.map(|r| format!(" ({r})")).unwrap_or_default()
        ),
    }
}

/// The window's version of what the model is told about a call: the same facts, spoken to the
/// person ("You said no") and without the instructions meant for the model ("Do not retry…").
/// Only calls that did not run (`Denied`, `Cancelled`) carry texts made here; a tool's own
/// output or error (`Succeeded`, `Failed`) passes unchanged, whatever it says.
pub fn for_person(status: ToolCallStatus, model_text: &str) -> String {
    if matches!(status, ToolCallStatus::Succeeded | ToolCallStatus::Failed) {
        return model_text.to_owned();
    }
    const MODEL_ONLY: &[&str] = &[
        " Follow the user's instruction.",
        " Do not retry the same call; take a different approach or explain what you need in \
         the final answer.",
        " Do not retry it now; say in the final answer what you wanted to do.",
        " Do not retry it; take a different approach.",
        " Say in the final answer what you wanted to do.",
    ];
    const REWORDED: &[(&str, &str)] = &[
        (
            "The user denied this action and said:",
            "You said no, with the note:",
        ),
        ("The user denied this action.", "You said no."),
        (
            "The user did not answer the request for approval in time, so the action was not \
             performed.",
            "You did not answer in time, so it was not performed.",
        ),
        (
            "not allowed by the user's settings",
            "not allowed by your settings",
        ),
        ("The user stopped the run", "You stopped the run"),
    ];
    let mut text = model_text.to_owned();
    for sentence in MODEL_ONLY {
        text = text.replace(sentence, "");
    }
    for (model, person) in REWORDED {
        text = text.replace(model, person);
    }
    text
}

/// What the model is told when a call did not run because the run or the app stopped.
pub fn cancelled_text(cause: CancelCause) -> String {
    match cause {
        CancelCause::RunAborted => "The user stopped the run; this action was not performed.",
        CancelCause::AppShutdown => "The app was closed; this action was not performed.",
    }
    .to_owned()
}

/// `text` cut to [`crate::tools::OUTPUT_CAP_BYTES`] (first and last halves kept, the cut
/// stated), as the tools cut their own output.
fn capped_output(text: String) -> String {
    if text.len() <= crate::tools::OUTPUT_CAP_BYTES {
        return text;
    }
    let mut capped = crate::tools::HeadTail::new(crate::tools::OUTPUT_CAP_BYTES);
    capped.push(text.as_bytes());
    capped.into_text()
}

fn shorten(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut cut: String = one_line.chars().take(max).collect();
    cut.push('…');
    cut
}

/// What the model is told about a call of a reopened session whose result is not in the log.
pub const UNRECORDED_RESULT: &str = "Ask First has no record of how this action ended (it was \
     closed, or could not save its history, before that was written down), so it may not have \
     been performed. Check before relying on it.";

/// Gives every tool call of a reopened conversation exactly one result, in the calls' order,
/// where the log has none (the app was killed while a card waited, or the result could not be
/// written): providers refuse a conversation that leaves a tool call unanswered, and DESIGN.md
/// §3 promises every call a result in the next request.
pub fn answer_unanswered(conversation: Vec<Message>) -> Vec<Message> {
    let mut out = Vec::with_capacity(conversation.len());
    // The calls of the latest model turn still without a result, in order.
    let mut open: Vec<String> = Vec::new();
    let unrecorded = |out: &mut Vec<Message>, ids: &mut dyn Iterator<Item = String>| {
        out.extend(ids.map(|tool_call_id| Message::ToolResult {
            tool_call_id,
            content: UNRECORDED_RESULT.to_owned(),
            is_error: true,
        }));
    };
    for message in conversation {
        match &message {
            Message::ToolResult { tool_call_id, .. } => {
                if let Some(i) = open.iter().position(|id| id == tool_call_id) {
                    unrecorded(&mut out, &mut open.drain(..i));
                    open.remove(0);
                }
            }
            Message::Assistant { turn } => {
                unrecorded(&mut out, &mut open.drain(..));
                open = turn.tool_calls.iter().map(|c| c.id.clone()).collect();
            }
            Message::System { .. } | Message::User { .. } => {
                unrecorded(&mut out, &mut open.drain(..));
            }
        }
        out.push(message);
    }
    unrecorded(&mut out, &mut open.drain(..));
    out
}

fn session_title(conversation: &[Message]) -> Option<String> {
    conversation.iter().find_map(|m| match m {
        Message::User { text } => Some(shorten(text, 80)),
        _ => None,
    })
}

/// What a reopened session shows for a call whose end is missing from a log with a gap.
pub const UNRECORDED_CALL: &str = "How this ended was not saved (Ask First could not write its \
     history then), so it is not known whether it was done.";

/// What a reopened session shows for a call that was allowed to run but whose end is missing.
pub const MAY_HAVE_RUN: &str = "Ask First stopped while this was running, so it may have been \
     done, in part or in full. Check before relying on it.";

/// What a reopened session shows for a call that was allowed to run but had not started when
/// Ask First stopped (its log is whole and shows no start).
pub const ALLOWED_NOT_STARTED: &str = "It was allowed, but Ask First was closed before it \
     started, so it was not performed.";

/// What a reopened session shows for a run whose end is missing from a log with a gap.
pub const UNRECORDED_RUN: &str = "Part of this task could not be saved (the disk was full or \
     could not be written), so how it ended is not known.";

/// What a session's log says beyond its events, for replaying calls and runs that never ended.
#[derive(Default)]
struct LogFacts {
    /// Part of the log is missing: it could not be written for a while, or a line is damaged.
    incomplete: bool,
    /// For each call that was allowed or refused (by the policy or an approval's recorded
    /// outcome), whether it was allowed to run.
    may_run: HashMap<(RunId, String), bool>,
}

/// The events of a reopened session that rebuild its transcript: approval events are left out
/// (nothing is waiting any more: the log's recovery closed them), and runs and calls that never
/// ended are ended, saying only what the log shows: a call refused or never answered was not
/// performed; one allowed to run may have been; of one with no decision in an incomplete log
/// nothing is known.
fn replayable(events: Vec<AgentEvent>, facts: &LogFacts) -> Vec<AgentEvent> {
    let incomplete = facts.incomplete;
    // The calls that started running (`tool_call_started` is recorded before a tool starts).
    let started: std::collections::HashSet<(RunId, String)> = events
        .iter()
        .filter_map(|event| match event {
            AgentEvent::ToolCallStarted {
                run_id,
                tool_call_id,
            } => Some((*run_id, tool_call_id.clone())),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    let mut open_runs: Vec<RunId> = Vec::new();
    let mut open_calls: Vec<(RunId, String)> = Vec::new();
    let ended = |run: RunId, id: &String| match facts.may_run.get(&(run, id.clone())) {
        // Allowed, but the log shows it never started (a whole log would say if it had).
        Some(true) if !incomplete && !started.contains(&(run, id.clone())) => {
            (ToolCallStatus::Cancelled, ALLOWED_NOT_STARTED.to_owned())
        }
        Some(true) => (ToolCallStatus::Failed, MAY_HAVE_RUN.to_owned()),
        Some(false) if incomplete => (
            ToolCallStatus::Cancelled,
            "This action was not performed.".to_owned(),
        ),
        None if incomplete => (ToolCallStatus::Failed, UNRECORDED_CALL.to_owned()),
        Some(false) | None => (
            ToolCallStatus::Cancelled,
            cancelled_text(CancelCause::AppShutdown),
        ),
    };
    let close_calls =
        |out: &mut Vec<AgentEvent>, open_calls: &mut Vec<(RunId, String)>, run: RunId| {
            open_calls.retain(|(r, id)| {
                if *r == run {
                    let (status, output) = ended(run, id);
                    out.push(AgentEvent::ToolCallFinished {
                        run_id: run,
                        tool_call_id: id.clone(),
                        status,
                        policy_layer: None,
                        output: for_person(status, &output),
                    });
                    false
                } else {
                    true
                }
            });
        };
    let finish_run =
        |out: &mut Vec<AgentEvent>, open_calls: &mut Vec<(RunId, String)>, run: RunId| {
            close_calls(out, open_calls, run);
            out.push(AgentEvent::RunFinished {
                run_id: run,
                status: RunStatus::Cancelled,
                message: Some(if incomplete {
                    UNRECORDED_RUN.to_owned()
                } else {
                    "Ask First was closed while the agent was working.".to_owned()
                }),
            });
        };
    for event in events {
        match &event {
            AgentEvent::ApprovalRequired(_)
            | AgentEvent::ApprovalResolved(_)
            | AgentEvent::ApprovalExtended { .. }
            | AgentEvent::AssistantDelta { .. }
            | AgentEvent::LogStatus { .. }
            | AgentEvent::SessionOpened { .. } => continue,
            AgentEvent::RunStarted { run_id, .. } => {
                // Runs of a session follow one another: one that never ended ended before
                // this one started, and is shown ending there.
                for run in open_runs.drain(..) {
                    finish_run(&mut out, &mut open_calls, run);
                }
                open_runs.push(*run_id);
            }
            AgentEvent::ToolCallProposed {
                run_id,
                tool_call_id,
                ..
            } => open_calls.push((*run_id, tool_call_id.clone())),
            AgentEvent::ToolCallFinished {
                run_id,
                tool_call_id,
                ..
            } => {
                if let Some(i) = open_calls
                    .iter()
                    .position(|(r, id)| r == run_id && id == tool_call_id)
                {
                    open_calls.remove(i);
                }
            }
            AgentEvent::RunFinished { run_id, .. } => open_runs.retain(|r| r != run_id),
            AgentEvent::AssistantMessage { .. } | AgentEvent::ToolCallStarted { .. } => {}
        }
        out.push(event);
    }
    for run in open_runs {
        finish_run(&mut out, &mut open_calls, run);
    }
    out
}

#[cfg(test)]
mod person_text_tests {
    use super::*;

    #[test]
    fn the_window_gets_the_facts_without_the_instructions_for_the_model() {
        let texts = [
            denial_text(DenialSource::User, None),
            denial_text(DenialSource::User, Some("Not that file, please")),
            denial_text(DenialSource::Timeout, None),
            denial_text(DenialSource::Policy, Some("a rule says no")),
            denial_text(DenialSource::Unavailable, Some("the log is full")),
            cancelled_text(CancelCause::RunAborted),
            cancelled_text(CancelCause::AppShutdown),
        ];
        // Denied and Cancelled are reworded alike.
        let did_not_run = |text: &str| for_person(ToolCallStatus::Denied, text);
        for text in &texts {
            let shown = did_not_run(text);
            for model_only in ["Do not retry", "final answer", "The user", "the user's"] {
                assert!(!shown.contains(model_only), "{shown:?} (from {text:?})");
            }
            assert!(shown.contains("not performed"), "{shown:?} (from {text:?})");
        }
        assert_eq!(
            did_not_run(&texts[1]),
            "You said no, with the note: \"Not that file, please\". The action was not performed."
        );
        assert_eq!(
            did_not_run(&texts[0]),
            "You said no. The action was not performed."
        );
        // A tool's own output is left as it is.
        assert_eq!(
            for_person(ToolCallStatus::Succeeded, "Wrote 9 bytes to notes.txt."),
            "Wrote 9 bytes to notes.txt."
        );
        // Even when it quotes the words the app uses with the model.
        let quoted =
            "notes.txt: The user denied this action. Do not retry it; take a different approach.";
        assert_eq!(for_person(ToolCallStatus::Succeeded, quoted), quoted);
    }
}
