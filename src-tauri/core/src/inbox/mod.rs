//! The inbox: other agents on this computer (Claude Code, Codex, Gemini CLI) ask the person
//! through Ask First. Their hook (`askfirst-hook`) connects to a Unix socket in
//! `$XDG_RUNTIME_DIR/askfirst/` and sends one [`InboxRequest`]; the request becomes a card in
//! the same approvals registry as our own agent's, and the outcome goes back as one
//! [`InboxAnswer`] to that connection only.
//!
//! - [`peer`]: who may connect (the same uid, `SO_PEERCRED`; folder 0700, socket 0600).
//! - [`card`]: what the card says (who asks, the folder, what it wants, the diff).
//! - [`words`]: every sentence.
//! - [`gone`]: the requests that were waiting when Ask First last closed, for the window to
//!   say so (with only "Dismiss").
//!
//! The socket can only *ask*: a decision comes only from the window (or the timeout, or
//! "Don't ask me now"). Requests are bounded in size ([`INBOX_MAX_REQUEST_BYTES`]), in time to
//! arrive ([`READ_LIMIT`]), in number at once ([`MAX_IN_FLIGHT`] requests, [`MAX_CONNECTIONS`] connections) and in rate
//! ([`MAX_PER_WINDOW`] per [`RATE_WINDOW`]). Our grants ("Allow for this session") are never
//! used for another agent's request; "Allow in this conversation" is offered only where the
//! agent has a session permission of its own ([`askfirst_hook::agents::session_rule`]: Claude
//! Code's `PermissionRequest`), and then the agent remembers it, not Ask First. Our policy
//! applies ([`policy`]); the session policy `never` refuses. Each external conversation (agent and its session id) gets its own log
//! `<data dir>/other-agents/<run id>.jsonl` with the same `approval_asked` / `approval_decided`
//! pair as ours.

pub mod card;
pub mod connect;
pub mod gone;
pub mod peer;
pub mod policy;
pub mod words;

use crate::approvals::{ApprovalRegistry, CardWords, NewApproval, RequestSinks, Reword};
use crate::audit::{AuditRecord, AuditSink, JsonlLog, UnavailableLog};
use crate::policy::Policy;
use crate::sync::MutexExt;
use crate::EventSink;
use askfirst_protocol::{
    DenialSource, ExternalAgent, InboxAnswer, InboxRequest, InboxVerdict, Outcome, PolicyLayer,
    RunId, SessionPolicy, INBOX_MAX_REQUEST_BYTES,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// How long a connection may take to send its request line.
pub const READ_LIMIT: Duration = Duration::from_secs(5);
/// The most requests waiting at once; more are denied at once.
pub const MAX_IN_FLIGHT: usize = 32;
/// The most requests of one agent waiting at once; more are denied at once ([`words::TOO_MANY`]),
/// so that a flood sent in one agent's name (any local program can claim to be Claude Code)
/// stays a handful of cards beside the person's own.
pub const MAX_WAITING_PER_AGENT: usize = 8;
/// The most requests per [`RATE_WINDOW`]; more are denied at once.
pub const MAX_PER_WINDOW: usize = 60;
/// The window of [`MAX_PER_WINDOW`].
pub const RATE_WINDOW: Duration = Duration::from_secs(10);
/// The most connections served at once (each waiting request holds one, so this is above
/// [`MAX_IN_FLIGHT`]); a connection over it is closed at once, unread, so a process holding
/// many connections open cannot use up the app's open files (the hook then fails closed).
pub const MAX_CONNECTIONS: usize = 64;
/// The most external conversations kept open at once (the oldest is closed first).
const MAX_CONVERSATIONS: usize = 256;

struct Conversation {
    run_id: RunId,
    log: Arc<dyn AuditSink>,
    last_used: u64,
}

#[derive(Default)]
struct State {
    conversations: HashMap<(ExternalAgent, String), Conversation>,
    uses: u64,
    /// When the requests of the current rate window arrived.
    recent: Vec<Instant>,
    in_flight: usize,
    /// How many of `in_flight` each agent sent.
    in_flight_by_agent: HashMap<ExternalAgent, usize>,
}

/// The inbox: turns requests of other agents into approvals of the registry.
pub struct Inbox {
    registry: Arc<ApprovalRegistry>,
    policy: Arc<Policy>,
    events: EventSink,
    logs_dir: PathBuf,
    home: Option<PathBuf>,
    /// The person's folder now (it changes when the person picks another), for the rules
    /// about places in it ([`policy`]).
    folder: Mutex<Option<FolderSource>>,
    state: Mutex<State>,
}

/// Where the inbox reads the person's folder from (`None` while there is none).
pub type FolderSource = Arc<dyn Fn() -> Option<crate::tools::Workspace> + Send + Sync>;

/// Frees one in-flight slot (of the agent) when the request ends, however it ends.
struct Slot<'a>(&'a Inbox, ExternalAgent);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut state = self.0.state.lock_or_recover();
        state.in_flight = state.in_flight.saturating_sub(1);
        if let Some(count) = state.in_flight_by_agent.get_mut(&self.1) {
            *count = count.saturating_sub(1);
        }
    }
}

impl Inbox {
    /// An inbox asking through `registry` under `policy`; its cards' events go to `events`
    /// (the window, not the person's conversation log), its logs under
    /// `<data_dir>/other-agents/`; `home` is the person's home folder (shown as `~`).
    pub fn new(
        registry: Arc<ApprovalRegistry>,
        policy: Arc<Policy>,
        events: EventSink,
        data_dir: &Path,
        home: Option<PathBuf>,
    ) -> Arc<Self> {
        Arc::new(Self {
            registry,
            policy,
            events,
            logs_dir: data_dir.join("other-agents"),
            home,
            folder: Mutex::new(None),
            state: Mutex::new(State::default()),
        })
    }

    /// Reads the person's folder from `source` from now on: the person's rules about places
    /// in it apply to other agents' requests there ([`policy::judge`]).
    pub fn follow_folder(&self, source: FolderSource) {
        *self.folder.lock_or_recover() = Some(source);
    }

    /// The person's folder now, if it is known.
    fn person_folder(&self) -> Option<crate::tools::Workspace> {
        let source = self.folder.lock_or_recover().clone();
        source.and_then(|source| source())
    }

    /// The folder of the external conversations' logs.
    pub fn logs_dir(&self) -> &Path {
        &self.logs_dir
    }

    /// Takes a slot for one request of `agent`, or says why not (too many at once, of all
    /// agents or of this one, or too fast).
    fn admit(&self, agent: ExternalAgent) -> Option<Slot<'_>> {
        let mut state = self.state.lock_or_recover();
        let now = Instant::now();
        state
            .recent
            .retain(|at| now.saturating_duration_since(*at) < RATE_WINDOW);
        let of_agent = state.in_flight_by_agent.get(&agent).copied().unwrap_or(0);
        if state.in_flight >= MAX_IN_FLIGHT
            || of_agent >= MAX_WAITING_PER_AGENT
            || state.recent.len() >= MAX_PER_WINDOW
        {
            return None;
        }
        state.recent.push(now);
        state.in_flight += 1;
        *state.in_flight_by_agent.entry(agent).or_insert(0) += 1;
        Some(Slot(self, agent))
    }

    /// The run id and log of the agent's conversation `session_id` (made on first use).
    fn conversation(&self, agent: ExternalAgent, session_id: &str) -> (RunId, Arc<dyn AuditSink>) {
        let mut state = self.state.lock_or_recover();
        state.uses += 1;
        let uses = state.uses;
        let key = (agent, crate::text::truncate_text(session_id, 200));
        if let Some(found) = state.conversations.get_mut(&key) {
            found.last_used = uses;
            return (found.run_id, Arc::clone(&found.log));
        }
        if state.conversations.len() >= MAX_CONVERSATIONS {
            let oldest = state
                .conversations
                .iter()
                .min_by_key(|(_, c)| c.last_used)
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                state.conversations.remove(&oldest);
            }
        }
        let run_id = RunId::new();
        let path = self
            .logs_dir
            .join(format!("{}-{run_id}.jsonl", agent.slug()));
        let log: Arc<dyn AuditSink> = match JsonlLog::open(&path) {
            Ok(log) => Arc::new(log),
            Err(error) => {
                eprintln!(
                    "askfirst: the log {} cannot be written: {error}",
                    path.display()
                );
                Arc::new(UnavailableLog {
                    path,
                    error: error.to_string(),
                })
            }
        };
        state.conversations.insert(
            key,
            Conversation {
                run_id,
                log: Arc::clone(&log),
                last_used: uses,
            },
        );
        (run_id, log)
    }

    /// How a waiting card of `request` is said again in another language: described and judged
    /// again as [`Self::answer`] did; no new words when the policy would no longer ask in the
    /// same way (`layer`) or the diff is not the one shown (`preview`).
    fn rewording(
        &self,
        request: &InboxRequest,
        workspace: Option<crate::tools::Workspace>,
        layer: PolicyLayer,
        preview: Option<String>,
    ) -> Reword {
        let (policy, request, home) =
            (Arc::clone(&self.policy), request.clone(), self.home.clone());
        Reword::new(move || {
            let mut card = card::describe(&request, home.as_deref());
            let judged = policy::judge(
                &policy,
                &request,
                &card,
                workspace.as_ref(),
                home.as_deref(),
            );
            let policy::Judged::Ask {
                rule_reason,
                allow_rule_not_applied,
            } = judged
            else {
                return None;
            };
            let now = match rule_reason {
                Some(reason) => {
                    card.reason = reason;
                    PolicyLayer::UserRule
                }
                None => PolicyLayer::ToolDefault,
            };
            if now != layer || card.preview != preview {
                return None;
            }
            card.effects.extend(allow_rule_not_applied);
            let grant_scope = askfirst_hook::agents::session_rule(&request)
                .map(|rule| words::session_scope(request.agent.display_name(), &rule));
            Some(CardWords {
                summary: card.summary,
                reason: card.reason,
                effects: card.effects,
                grant_scope,
                detail: Some(card.detail),
            })
        })
    }

    /// Answers one request: our policy first ([`policy::judge`]: hard denials and deny rules
    /// refuse, a call that only reads and that no rule is about is left to the agent's own
    /// flow, "Don't ask me now" refuses; allow rules and grants never allow), then a card,
    /// waiting for its one outcome. Never [`InboxVerdict::Allow`] unless the person approved
    /// this request.
    pub async fn answer(&self, request: InboxRequest) -> InboxAnswer {
        let deny = |reason: &str| InboxAnswer {
            verdict: InboxVerdict::Deny,
            reason: Some(reason.to_owned()),
        };
        let Some(_slot) = self.admit(request.agent) else {
            return deny(words::TOO_MANY);
        };
        let mut card = card::describe(&request, self.home.as_deref());
        let workspace = self.person_folder();
        let judged = policy::judge(
            &self.policy,
            &request,
            &card,
            workspace.as_ref(),
            self.home.as_deref(),
        );
        let mut layer = PolicyLayer::ToolDefault;
        let refusal = match judged {
            policy::Judged::LeaveToAgent => {
                return InboxAnswer {
                    verdict: InboxVerdict::NoOpinion,
                    reason: None,
                }
            }
            policy::Judged::Refuse { reason, layer } => Some((reason, layer)),
            // Claude Code's PreToolUse hook runs on every call and only applies our policy:
            // what no rule asks about is left to Claude Code's own permission flow, whose
            // PermissionRequest hook asks here when Claude Code would ask the person (see
            // `askfirst_hook::install`). So the window shows what Claude Code would have asked
            // in its terminal, and "Allow in this conversation" can be its own session rule.
            policy::Judged::Ask {
                rule_reason: None, ..
            } if request.agent == ExternalAgent::ClaudeCode
                && request.hook_event == "PreToolUse" =>
            {
                return InboxAnswer {
                    verdict: InboxVerdict::NoOpinion,
                    reason: None,
                }
            }
            policy::Judged::Ask { .. } if self.policy.session_policy() == SessionPolicy::Never => {
                Some((words::DONT_ASK_NOW.to_owned(), PolicyLayer::SessionPolicy))
            }
            policy::Judged::Ask {
                rule_reason,
                allow_rule_not_applied,
            } => {
                if let Some(reason) = rule_reason {
                    card.reason = reason;
                    layer = PolicyLayer::UserRule;
                }
                card.effects.extend(allow_rule_not_applied);
                None
            }
        };
        let (run_id, log) = self.conversation(request.agent, &request.session_id);
        let tool_call_id = format!("inbox-{}", uuid::Uuid::new_v4());
        if let Some((reason, layer)) = refusal {
            let _ = log.append(&AuditRecord::PolicyDecided {
                run_id,
                tool_call_id,
                tool_name: request.tool_name.clone(),
                arguments_sha256: crate::approvals::sha256_hex(request.tool_input_json.as_bytes()),
                allowed: false,
                policy_layer: layer,
                reason: reason.clone(),
                at: crate::unix_millis_now(),
            });
            return deny(&reason);
        }
        let timeout = self.registry.timeout();
        // "Allow in this conversation" only where the agent has a session permission of its
        // own for this request; Ask First keeps no grant for another agent.
        let session_rule = askfirst_hook::agents::session_rule(&request);
        let grant_scope = session_rule
            .as_ref()
            .map(|rule| words::session_scope(request.agent.display_name(), rule));
        let reword = self.rewording(&request, workspace, layer, card.preview.clone());
        let new = NewApproval {
            change: None,
            run_id,
            tool_call_id,
            tool_name: request.tool_name,
            arguments_json: request.tool_input_json,
            summary: card.summary,
            reason: card.reason,
            risk: card.risk,
            policy_layer: layer,
            // Our grants are for our own folder: never offered to another agent; the agent's
            // own session permission is, where it has one.
            grant_scope,
            preview: card.preview,
            effects: card.effects,
            detail: Some(card.detail),
            reword: Some(reword),
            resumed: false,
            // Another agent's call cannot be changed: the hook's answer is yes or no, and that
            // agent would run its own call anyway. Its card offers no "Change…".
            editable: Vec::new(),
            agent: None,
        };
        let sinks = RequestSinks {
            events: Arc::clone(&self.events),
            audit: log,
        };
        let pending = match self.registry.request_with(new, sinks) {
            Ok(pending) => pending,
            Err(error) => {
                eprintln!("askfirst: an inbox request was not asked: {error}");
                return deny(words::NOT_ASKED);
            }
        };
        answer_for(&pending.wait().await, timeout, session_rule.is_some())
    }

    /// Serves one connection: checks the peer, reads one bounded request line, answers it, and
    /// cancels the card when the hook goes away before the answer.
    pub async fn serve(&self, stream: tokio::net::UnixStream) {
        if let Err(refusal) = peer::check(&stream) {
            eprintln!("askfirst: inbox connection refused: {refusal}");
            return;
        }
        let (read, mut write) = stream.into_split();
        let limit = u64::try_from(INBOX_MAX_REQUEST_BYTES).unwrap_or(u64::MAX);
        let mut reader = BufReader::new(read.take(limit));
        let mut line = Vec::new();
        let got = tokio::time::timeout(READ_LIMIT, reader.read_until(b'\n', &mut line)).await;
        let request = match got {
            Ok(Ok(_)) if line.ends_with(b"\n") => {
                serde_json::from_slice::<InboxRequest>(&line).map_err(|e| e.to_string())
            }
            Ok(Ok(_)) => Err("the request is too large or was cut off".to_owned()),
            Ok(Err(error)) => Err(error.to_string()),
            Err(_) => Err(format!(
                "no request within {}",
                crate::text::seconds(READ_LIMIT)
            )),
        };
        let request = match request {
            Ok(request) => request,
            Err(why) => {
                // Nothing is answered: the hook falls back to the agent's own prompt.
                eprintln!("askfirst: an inbox request was refused: {why}");
                return;
            }
        };
        drop(line);
        let mut rest = reader.into_inner().into_inner();
        let mut byte = [0u8; 1];
        let answer = tokio::select! {
            answer = self.answer(request) => answer,
            // The hook went away (or sent more than one request): the card is cancelled
            // (dropping the waiter) and nothing is answered.
            _ = rest.read(&mut byte) => return,
        };
        let Ok(mut text) = serde_json::to_vec(&answer) else {
            return;
        };
        text.push(b'\n');
        let _ = write.write_all(&text).await;
        let _ = write.shutdown().await;
    }

    /// Listens on `<runtime_dir>/askfirst/inbox.sock` (folder 0700, socket 0600) on `handle`
    /// until the returned [`Listening`] is dropped.
    ///
    /// # Errors
    /// The folder or socket cannot be made, or another Ask First answers on it already.
    pub fn listen(
        self: &Arc<Self>,
        runtime_dir: &Path,
        handle: &tokio::runtime::Handle,
    ) -> std::io::Result<Listening> {
        use std::os::unix::fs::PermissionsExt;
        let path = peer::socket_folder(runtime_dir)?;
        if std::os::unix::net::UnixStream::connect(&path).is_ok() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AddrInUse,
                format!("another Ask First answers on {}", path.display()),
            ));
        }
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        let std_listener = std::os::unix::net::UnixListener::bind(&path)?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        std_listener.set_nonblocking(true)?;
        let inbox = Arc::clone(self);
        let task = handle.spawn(async move {
            let listener = match tokio::net::UnixListener::from_std(std_listener) {
                Ok(listener) => listener,
                Err(error) => {
                    eprintln!("askfirst: the inbox cannot listen: {error}");
                    return;
                }
            };
            let open = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
            loop {
                match listener.accept().await {
                    Ok((stream, _)) => {
                        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
                            eprintln!(
                                "askfirst: an inbox connection was closed: \
                                 {MAX_CONNECTIONS} are open already"
                            );
                            drop(stream);
                            continue;
                        };
                        let inbox = Arc::clone(&inbox);
                        tokio::spawn(async move {
                            inbox.serve(stream).await;
                            drop(permit);
                        });
                    }
                    Err(error) => {
                        eprintln!("askfirst: the inbox could not accept a connection: {error}");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
            }
        });
        Ok(Listening { path, task })
    }
}

/// The inbox listening; dropping it stops listening and removes the socket.
pub struct Listening {
    path: PathBuf,
    task: tokio::task::JoinHandle<()>,
}

impl Listening {
    /// The socket's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The answer the agent gets for `outcome`; only `Approved` allows, and "Allow in this
/// conversation" is passed on only when the card offered the agent's own session permission
/// (`offered`).
fn answer_for(outcome: &Outcome, timeout: Duration, offered: bool) -> InboxAnswer {
    let deny = |reason: String| InboxAnswer {
        verdict: InboxVerdict::Deny,
        reason: Some(reason),
    };
    match outcome {
        Outcome::Approved { scope, .. } => InboxAnswer {
            verdict: match scope {
                askfirst_protocol::ApprovalScope::Session if offered => {
                    InboxVerdict::AllowForSession
                }
                _ => InboxVerdict::Allow,
            },
            reason: None,
        },
        Outcome::Denied { source, reason, .. } => match (source, reason) {
            (DenialSource::User, Some(note)) if note == crate::agent::DONT_ASK_ME_NOW => {
                deny(words::DONT_ASK_NOW.to_owned())
            }
            (DenialSource::User, Some(note)) => deny(words::denied_with_note(note)),
            (DenialSource::User, None) => deny(words::DENIED.to_owned()),
            (DenialSource::Timeout, _) => deny(words::timed_out(&crate::text::seconds(timeout))),
            (DenialSource::Policy, _) => deny(words::DONT_ASK_NOW.to_owned()),
            (DenialSource::Unavailable, Some(reason)) => deny(reason.clone()),
            (DenialSource::Unavailable, None) => deny(words::NOT_ASKED.to_owned()),
        },
        // The registry never gives this outcome to an inbox card (it has no `editable`); were
        // it ever to, the agent's call was not approved, and it is told no.
        Outcome::Cancelled { .. } | Outcome::Changed { .. } => deny(words::NOT_ASKED.to_owned()),
    }
}

#[cfg(test)]
mod tests;
