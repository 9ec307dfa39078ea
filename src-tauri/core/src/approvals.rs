//! The approvals registry: every pending approval, keyed by [`ApprovalId`], and the single
//! place where an approval's [`Outcome`] is decided.
//!
//! A request is registered synchronously (before `ApprovalRequired` leaves), then waited on.
//! Four things can end it: the user's decision ([`ApprovalRegistry::resolve`]), the timeout,
//! the run's cancellation ([`ApprovalRegistry::cancel_run`] or dropping the waiter), and app
//! shutdown ([`ApprovalRegistry::shutdown`]). Each of them goes through `settle`, which removes
//! the entry under the lock: whoever removes it decides the outcome, so exactly one wins and
//! every later answer gets [`ApprovalError::NotPending`] and changes nothing.
//!
//! Each request writes an `approval_asked` audit record before it is announced, and each outcome
//! an `approval_decided` record before it takes effect. If an approval cannot be recorded, it
//! does not take effect: it becomes `Denied{unavailable}` (fail closed).

use crate::audit::{AnsweredOn, AuditRecord, AuditSink};
use crate::sync::MutexExt;
use crate::{unix_millis_now, EventSink};
use askfirst_protocol::{
    AgentEvent, ApprovalId, ApprovalRequest, ApprovalResolvedEvent, ApprovalScope, ApprovalSource,
    CallChange, CallDetail, CancelCause, Decision, DenialSource, Outcome, PolicyLayer, Risk, RunId,
    Wording,
};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::oneshot;

/// The default time a request waits for the user before it is denied: 120 s.
pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(120);

/// Errors of the approvals registry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApprovalError {
    /// The id is unknown or its approval already ended.
    #[error("No pending approval {0}. It may have already been resolved or timed out.")]
    NotPending(ApprovalId),
    /// "Allow for this session" was asked for a call that cannot be granted (its request has
    /// no `grant_scope`). Nothing changed; the approval still waits.
    #[error("This action cannot be allowed for the whole session; approve it once or deny it.")]
    NotGrantable(ApprovalId),
    /// The registry is in fail-closed mode (nobody can answer), so the call was not run.
    #[error("\"{summary}\" needs someone's OK, and nobody is there to give it here.")]
    ApprovalRequired {
        /// The tool.
        tool_name: String,
        /// What the call would have done.
        summary: String,
    },
    /// The `approval_asked` record could not be written, so the user was not asked and the
    /// call did not run.
    #[error("{0}")]
    Log(String),
    /// The app is quitting: the request was recorded as `Cancelled{app_shutdown}` at once.
    #[error("Ask First is closing, so nobody was asked and the action was not performed.")]
    ShuttingDown,
    /// A "Change…" answer ([`Decision::Change`]) that cannot be taken; nothing changed and the
    /// approval still waits.
    #[error("The call of approval {id} cannot be changed this way: {problem}")]
    CannotChange {
        /// The approval.
        id: ApprovalId,
        /// What is wrong with the change.
        problem: ChangeProblem,
    },
}

/// Why a [`Decision::Change`] was not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChangeProblem {
    /// The card offers no "Change…" (its `editable` is empty).
    #[error("its card offers no change")]
    NotOffered,
    /// The answer names an argument the card does not let the person change.
    #[error("the argument {0:?} cannot be changed on this card")]
    Field(String),
    /// The changed call's arguments would be larger than a model's may be
    /// ([`MAX_CHANGED_ARGUMENTS_BYTES`]).
    #[error("the changed call would be {bytes} bytes, over the {cap} a call may have")]
    TooBig {
        /// The changed arguments' size in bytes.
        bytes: usize,
        /// [`MAX_CHANGED_ARGUMENTS_BYTES`].
        cap: usize,
    },
    /// The answer changes nothing: the call is the same as the one on the card.
    #[error("it changes nothing")]
    Same,
}

/// The most bytes a changed call's arguments may have: the bound a model's call has
/// ([`crate::provider::MAX_REPLY_BYTES`], the most one reply, and so one call, may be).
pub const MAX_CHANGED_ARGUMENTS_BYTES: usize = crate::provider::MAX_REPLY_BYTES;

/// The arguments of `arguments_json` (a JSON object) with each of `fields` set to its new
/// text, every other member kept as it was; `None` when `arguments_json` is not an object.
fn changed_arguments(
    arguments_json: &str,
    fields: &std::collections::BTreeMap<String, String>,
) -> Option<String> {
    let mut object: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(arguments_json).ok()?;
    for (name, text) in fields {
        object.insert(name.clone(), serde_json::Value::String(text.clone()));
    }
    serde_json::to_string(&object).ok()
}

impl ApprovalError {
    /// Why a call was not asked about, as a sentence key for the person (its `Display` is the
    /// English the model is told): for the errors of [`ApprovalRegistry::request`] that
    /// refuse a call (`ApprovalRequired`, `Log`); `None` for the others, which answer a click.
    pub fn wording(&self) -> Option<Wording> {
        match self {
            Self::ApprovalRequired { summary, .. } => Some(crate::policy::refusal(
                "refusal.nobody_to_answer",
                [("summary", summary.clone())],
            )),
            Self::Log(_) => Some(crate::policy::refusal("refusal.question_not_saved", [])),
            Self::NotPending(_)
            | Self::NotGrantable(_)
            | Self::ShuttingDown
            | Self::CannotChange { .. } => None,
        }
    }
}

/// Whether someone can answer approvals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerMode {
    /// A person is there: requests wait for an answer (or the timeout).
    Interactive,
    /// Nobody can answer (a headless run): requests fail at once with
    /// [`ApprovalError::ApprovalRequired`] instead of waiting.
    FailClosed,
}

/// How a registry is set up.
pub struct RegistryConfig {
    /// How long a request waits before it is denied (default [`DEFAULT_APPROVAL_TIMEOUT`]).
    pub timeout: Duration,
    /// Whether requests wait for a person.
    pub mode: AnswerMode,
    /// Where `ApprovalRequired` and `ApprovalResolved` go.
    pub events: EventSink,
    /// Where `approval_asked` and `approval_decided` records go.
    pub audit: Arc<dyn AuditSink>,
}

/// What the agent loop knows when it asks; the registry adds the id, digest and expiry.
#[derive(Debug, Clone)]
pub struct NewApproval {
    /// The run making the call.
    pub run_id: RunId,
    /// The provider's tool-call id.
    pub tool_call_id: String,
    /// The tool's name.
    pub tool_name: String,
    /// The raw arguments, exactly as they will be executed.
    pub arguments_json: String,
    /// Plain-language summary of the call.
    pub summary: String,
    /// Why the user is asked.
    pub reason: String,
    /// How risky the call is.
    pub risk: Risk,
    /// The policy layer that decided to ask.
    pub policy_layer: PolicyLayer,
    /// What "Allow for this session" would allow; `None` when it is not offered.
    pub grant_scope: Option<String>,
    /// A unified diff of what the call will change, for the card.
    pub preview: Option<String>,
    /// What the call will do that matters, one plain sentence each, for the card
    /// ([`crate::tools::CallDescription::effects`]); empty when the summary says it all.
    pub effects: Vec<String>,
    /// What else the card shows, typed ([`crate::tools::CallDescription::detail`]).
    pub detail: Option<CallDetail>,
    /// What the call changes, where its tool knows it exactly
    /// ([`crate::tools::CallDescription::change`]); `None` for every other call.
    pub change: Option<CallChange>,
    /// Says the card again in the current language, for [`ApprovalRegistry::reword_pending`]
    /// when the person changes the language while it waits; `None`: its words stay as they are.
    pub reword: Option<Reword>,
    /// Whether this card asks again about a call that waited when Ask First last closed
    /// ([`ApprovalRequest::resumed`]).
    pub resumed: bool,
    /// The arguments the person may change on the card ([`ApprovalRequest::editable`]); empty:
    /// no "Change…".
    pub editable: Vec<String>,
    /// Who asks, when another agent hosted over ACP does ([`ApprovalRequest::agent`]).
    pub agent: Option<String>,
}

/// The words of a waiting card, made again in the current language by a [`Reword`]: everything
/// on the card that is Ask First's sentences. The arguments, preview, risk and expiry are facts
/// and never change while it waits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardWords {
    /// [`ApprovalRequest::summary`].
    pub summary: String,
    /// [`ApprovalRequest::reason`].
    pub reason: String,
    /// [`ApprovalRequest::effects`].
    pub effects: Vec<String>,
    /// [`ApprovalRequest::grant_scope`]; kept `None` when the card was asked without one.
    pub grant_scope: Option<String>,
    /// [`ApprovalRequest::detail`].
    pub detail: Option<CallDetail>,
}

/// Makes a waiting card's [`CardWords`] again from the call's arguments, in the current
/// language; `None` when they cannot be made from the same facts (the call's target changed
/// since the card was made: the card then keeps its words). It may read files: the registry
/// calls it on the thread of [`ApprovalRegistry::reword_pending`], never holding its lock.
#[derive(Clone)]
pub struct Reword(Arc<dyn Fn() -> Option<CardWords> + Send + Sync>);

impl Reword {
    /// A rewording that calls `make`.
    pub fn new(make: impl Fn() -> Option<CardWords> + Send + Sync + 'static) -> Self {
        Self(Arc::new(make))
    }

    /// The card's words now, or `None` (see [`Reword`]).
    pub fn words(&self) -> Option<CardWords> {
        (self.0)()
    }
}

impl std::fmt::Debug for Reword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Reword")
    }
}

struct Pending {
    request: ApprovalRequest,
    /// Insertion order, so `list_pending` returns requests in the order they were made.
    seq: u64,
    /// Whether "Allow for this session" may answer it.
    grantable: bool,
    /// When it is denied for want of an answer (`expires_at`, on the monotonic clock).
    deadline: tokio::time::Instant,
    /// The timeout it was asked with (a later change of the setting is for new requests).
    timeout: Duration,
    tx: oneshot::Sender<Outcome>,
    /// Where its records and events go (the registry's own, or those a [`RequestSinks`] gave).
    sinks: RequestSinks,
    /// How to say it again in another language.
    reword: Option<Reword>,
}

/// Where one request's `approval_asked` / `approval_decided` records and its events go, when
/// they are not the registry's own: another agent's request (the inbox) is recorded in that
/// agent's conversation log, not in the person's current conversation.
#[derive(Clone)]
pub struct RequestSinks {
    /// Where its `ApprovalRequired`, `ApprovalExtended` and `ApprovalResolved` go.
    pub events: EventSink,
    /// Where its records go.
    pub audit: Arc<dyn AuditSink>,
}

#[derive(Default)]
struct State {
    pending: HashMap<ApprovalId, Pending>,
    /// The same requests by (run, provider tool-call id).
    by_call: HashMap<(RunId, String), ApprovalId>,
    next_seq: u64,
    /// Set by `shutdown`: no request is registered after it.
    closed: bool,
}

/// The registry of pending approvals. Cheap to share (`Arc`); all methods are synchronous and
/// never hold the lock across an `.await` or while emitting an event.
pub struct ApprovalRegistry {
    state: Mutex<State>,
    /// Milliseconds a new request waits; changeable while the app runs.
    timeout_ms: std::sync::atomic::AtomicU64,
    mode: AnswerMode,
    events: EventSink,
    audit: Arc<dyn AuditSink>,
}

impl ApprovalRegistry {
    /// A registry set up by `config`.
    pub fn new(config: RegistryConfig) -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(State::default()),
            timeout_ms: std::sync::atomic::AtomicU64::new(
                u64::try_from(config.timeout.as_millis()).unwrap_or(u64::MAX),
            ),
            mode: config.mode,
            events: config.events,
            audit: config.audit,
        })
    }

    /// How long a request waits before it is denied.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.load(std::sync::atomic::Ordering::SeqCst))
    }

    /// Changes how long requests made from now on wait; waiting ones keep their `expires_at`.
    pub fn set_timeout(&self, timeout: Duration) {
        let ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        self.timeout_ms
            .store(ms, std::sync::atomic::Ordering::SeqCst);
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock cannot leave the map half-updated (every critical
        // section is a single insert or remove), so a poisoned lock is safe to keep using.
        self.state.lock_or_recover()
    }

    /// Records the request in the audit log, registers it, and only then emits
    /// `ApprovalRequired`. The returned waiter must be awaited with [`PendingApproval::wait`];
    /// dropping it cancels the request (`Cancelled{run_aborted}`), so nothing is left dangling.
    ///
    /// # Errors
    /// [`ApprovalError::ApprovalRequired`] in fail-closed mode; [`ApprovalError::Log`] when the
    /// request could not be recorded. In both cases nobody is asked and nothing runs.
    pub fn request(self: &Arc<Self>, new: NewApproval) -> Result<PendingApproval, ApprovalError> {
        let sinks = RequestSinks {
            events: Arc::clone(&self.events),
            audit: Arc::clone(&self.audit),
        };
        self.request_with(new, sinks)
    }

    /// [`ApprovalRegistry::request`], with the request's records and events going to `sinks`
    /// instead of the registry's own. Everything else (one outcome, the timeout, shutdown,
    /// "Don't ask me now") is the same.
    ///
    /// # Errors
    /// As [`ApprovalRegistry::request`].
    pub fn request_with(
        self: &Arc<Self>,
        new: NewApproval,
        sinks: RequestSinks,
    ) -> Result<PendingApproval, ApprovalError> {
        if self.mode == AnswerMode::FailClosed {
            return Err(ApprovalError::ApprovalRequired {
                tool_name: new.tool_name,
                summary: new.summary,
            });
        }
        let approval_id = ApprovalId::new();
        let timeout_ms = self.timeout_ms.load(std::sync::atomic::Ordering::SeqCst);
        let now = unix_millis_now();
        let expires_at = now.saturating_add(timeout_ms);
        let grantable = new.grant_scope.is_some();
        let request = ApprovalRequest {
            approval_id,
            run_id: new.run_id,
            tool_call_id: new.tool_call_id,
            tool_name: new.tool_name,
            arguments_sha256: sha256_hex(new.arguments_json.as_bytes()),
            arguments_json: new.arguments_json,
            summary: new.summary,
            reason: new.reason,
            risk: new.risk,
            policy_layer: new.policy_layer,
            grant_scope: new.grant_scope,
            preview: new.preview,
            effects: new.effects,
            detail: new.detail,
            change: new.change,
            expires_at,
            resumed: new.resumed,
            editable: new.editable,
            agent: new.agent,
        };
        // `expires_at` is the clock: the waiter's deadline is derived from it.
        let deadline =
            tokio::time::Instant::now() + Duration::from_millis(expires_at.saturating_sub(now));
        sinks
            .audit
            .append(&AuditRecord::ApprovalAsked {
                approval_id,
                run_id: request.run_id,
                tool_call_id: request.tool_call_id.clone(),
                tool_name: request.tool_name.clone(),
                arguments_json: request.arguments_json.clone(),
                arguments_sha256: request.arguments_sha256.clone(),
                summary: request.summary.clone(),
                risk: request.risk,
                reason: request.reason.clone(),
                policy_layer: request.policy_layer,
                // Everything the card said the call does: also the command's own effects.
                effects: request
                    .effects
                    .iter()
                    .cloned()
                    .chain(detail_effects(request.detail.as_ref()))
                    .collect(),
                at: now,
                expires_at,
            })
            .map_err(|e| ApprovalError::Log(e.to_string()))?;
        let (tx, rx) = oneshot::channel();
        {
            let mut state = self.lock();
            if state.closed {
                drop(state);
                // Close the record just written, so history never shows it waiting.
                let _ = sinks.audit.append(&AuditRecord::ApprovalDecided {
                    answered_on: None,
                    approval_id,
                    run_id: request.run_id,
                    outcome: Outcome::Cancelled {
                        cause: CancelCause::AppShutdown,
                    },
                    at: unix_millis_now(),
                });
                return Err(ApprovalError::ShuttingDown);
            }
            let seq = state.next_seq;
            state.next_seq += 1;
            state
                .by_call
                .insert((request.run_id, request.tool_call_id.clone()), approval_id);
            state.pending.insert(
                approval_id,
                Pending {
                    request: request.clone(),
                    seq,
                    grantable,
                    deadline,
                    timeout: Duration::from_millis(timeout_ms),
                    tx,
                    sinks: sinks.clone(),
                    reword: new.reword,
                },
            );
        }
        (sinks.events)(AgentEvent::ApprovalRequired(request.clone()));
        Ok(PendingApproval {
            registry: Arc::clone(self),
            request,
            rx,
            deadline,
        })
    }

    /// The pending approval of a run's tool call, if it is waiting.
    pub fn find(&self, run_id: RunId, tool_call_id: &str) -> Option<ApprovalId> {
        self.lock()
            .by_call
            .get(&(run_id, tool_call_id.to_owned()))
            .copied()
    }

    /// Applies the user's decision.
    ///
    /// # Errors
    /// [`ApprovalError::NotPending`] if the id is unknown or already resolved; nothing changes.
    /// [`ApprovalError::NotGrantable`] for "Allow for this session" on a call that cannot be
    /// granted; the approval keeps waiting.
    pub fn resolve(&self, id: ApprovalId, decision: Decision) -> Result<Outcome, ApprovalError> {
        self.resolve_on(id, decision, None)
    }

    /// [`Self::resolve`], with the session log saying where the person answered when it was
    /// not on the card in the window (`answered_on`: a notification's button).
    ///
    /// # Errors
    /// As [`Self::resolve`].
    pub fn resolve_on(
        &self,
        id: ApprovalId,
        decision: Decision,
        answered_on: Option<AnsweredOn>,
    ) -> Result<Outcome, ApprovalError> {
        // Past its deadline the answer is no, even when the waiter's timer has not fired yet
        // (a busy machine runs it late): the card already says "Time is up · not run", so a
        // click then must not approve. The timeout is decided here instead, as the timer would.
        if self.expired(id) {
            let _ = self.settle(
                id,
                Outcome::Denied {
                    source: DenialSource::Timeout,
                    reason: None,
                    wording: None,
                },
            );
            return Err(ApprovalError::NotPending(id));
        }
        let outcome = match decision {
            Decision::Approve => Outcome::Approved {
                scope: ApprovalScope::Once,
                source: ApprovalSource::User,
            },
            Decision::ApproveForSession => {
                match self.lock().pending.get(&id) {
                    None => return Err(ApprovalError::NotPending(id)),
                    Some(p) if !p.grantable => return Err(ApprovalError::NotGrantable(id)),
                    Some(_) => {}
                }
                Outcome::Approved {
                    scope: ApprovalScope::Session,
                    source: ApprovalSource::User,
                }
            }
            Decision::Deny { note } => Outcome::Denied {
                source: DenialSource::User,
                reason: note.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty()),
                wording: None,
            },
            Decision::Change { fields } => self.changed(id, &fields)?,
        };
        let run_id = self.lock().pending.get(&id).map(|p| p.request.run_id);
        let settled = self.settle_on(id, outcome, answered_on)?;
        if let Some(run_id) = run_id {
            self.extend_waiting(run_id);
        }
        Ok(settled)
    }

    /// The outcome of "Change…" with `fields` on the waiting approval `id`: the changed call's
    /// arguments, checked against what its card lets the person change and the size a model's
    /// call may have. Only builds the outcome; [`Self::settle`] decides it.
    fn changed(
        &self,
        id: ApprovalId,
        fields: &std::collections::BTreeMap<String, String>,
    ) -> Result<Outcome, ApprovalError> {
        let cannot = |problem| ApprovalError::CannotChange { id, problem };
        let (asked, editable) = match self.lock().pending.get(&id) {
            None => return Err(ApprovalError::NotPending(id)),
            Some(p) => (p.request.arguments_json.clone(), p.request.editable.clone()),
        };
        if editable.is_empty() {
            return Err(cannot(ChangeProblem::NotOffered));
        }
        if let Some(name) = fields.keys().find(|name| !editable.contains(name)) {
            return Err(cannot(ChangeProblem::Field(name.clone())));
        }
        // Counted before anything is built from them: a change the size of memory is refused
        // without a copy of it.
        let given: usize = fields.iter().map(|(n, t)| n.len() + t.len()).sum();
        let too_big = |bytes| {
            cannot(ChangeProblem::TooBig {
                bytes,
                cap: MAX_CHANGED_ARGUMENTS_BYTES,
            })
        };
        if given > MAX_CHANGED_ARGUMENTS_BYTES {
            return Err(too_big(given));
        }
        let arguments_json =
            changed_arguments(&asked, fields).ok_or(cannot(ChangeProblem::NotOffered))?;
        if arguments_json.len() > MAX_CHANGED_ARGUMENTS_BYTES {
            return Err(too_big(arguments_json.len()));
        }
        let same = match (
            crate::canonical::canonical_json(&asked),
            crate::canonical::canonical_json(&arguments_json),
        ) {
            (Some(asked), Some(changed)) => asked == changed,
            _ => asked == arguments_json,
        };
        if same {
            return Err(cannot(ChangeProblem::Same));
        }
        Ok(Outcome::Changed {
            arguments_sha256: sha256_hex(arguments_json.as_bytes()),
            arguments_json,
        })
    }

    /// The person just answered a card of `run_id`: they are there, answering one by one. The
    /// run's other requests with less than half their timeout left get their whole timeout
    /// again from now (recorded, and announced as `ApprovalExtended`), so a long list of cards
    /// read with care is not refused for the time it takes. Each keeps the timeout it was
    /// asked with. A request whose deadline has passed is left to time out. Half, so a quick
    /// series of answers extends each card at most once per half timeout.
    fn extend_waiting(&self, run_id: RunId) {
        let now = tokio::time::Instant::now();
        let extended: Vec<(u64, ApprovalId, u64, RequestSinks)> = {
            let mut state = self.lock();
            let mut extended = Vec::new();
            for pending in state.pending.values_mut() {
                let timeout = pending.timeout;
                let left = pending.deadline.saturating_duration_since(now);
                if pending.request.run_id != run_id || left.is_zero() || left >= timeout / 2 {
                    continue;
                }
                // `expires_at` moves by as much as the deadline, so the two stay one clock.
                let moved = now + timeout - pending.deadline;
                pending.deadline = now + timeout;
                pending.request.expires_at = pending
                    .request
                    .expires_at
                    .saturating_add(u64::try_from(moved.as_millis()).unwrap_or(u64::MAX));
                extended.push((
                    pending.seq,
                    pending.request.approval_id,
                    pending.request.expires_at,
                    pending.sinks.clone(),
                ));
            }
            extended.sort_unstable_by_key(|(seq, ..)| *seq);
            extended
        };
        for (_, approval_id, expires_at, sinks) in extended {
            // Best effort: a log that cannot be written refuses answers anyway.
            let _ = sinks.audit.append(&AuditRecord::ApprovalExtended {
                approval_id,
                expires_at,
                at: unix_millis_now(),
            });
            (sinks.events)(AgentEvent::ApprovalExtended {
                approval_id,
                run_id,
                expires_at,
            });
        }
    }

    /// When `id` is denied for want of an answer, if it is still waiting.
    fn deadline(&self, id: ApprovalId) -> Option<tokio::time::Instant> {
        self.lock().pending.get(&id).map(|p| p.deadline)
    }

    /// Approves every waiting request that `covered` selects as covered by a grant the person
    /// has just given ("Allow for this session" on an identical call): each ends as
    /// `Approved{session, grant}`, recorded and announced like any answer. Requests already
    /// past their deadline are left to time out. Returns how many were approved.
    pub fn approve_covered(&self, covered: impl Fn(&ApprovalRequest) -> bool) -> usize {
        let now = tokio::time::Instant::now();
        let requests = {
            let state = self.lock();
            let mut waiting: Vec<&Pending> = state
                .pending
                .values()
                .filter(|p| now < p.deadline && covered(&p.request))
                .collect();
            waiting.sort_by_key(|p| p.seq);
            waiting.into_iter().map(|p| p.request.clone()).collect()
        };
        self.settle_each(requests, |_| Outcome::Approved {
            scope: ApprovalScope::Session,
            source: ApprovalSource::Grant,
        })
    }

    /// Denies every waiting request as the person's answer with `note` ("Don't ask me now":
    /// they said they are away, so nothing is extended); returns how many.
    pub fn deny_all_waiting(&self, note: &str) -> usize {
        self.settle_each(self.list_pending(None), |id| {
            // One past its deadline (its timer not yet fired) timed out, as in `resolve`.
            let expired = self.expired(id);
            Outcome::Denied {
                source: if expired {
                    DenialSource::Timeout
                } else {
                    DenialSource::User
                },
                reason: (!expired).then(|| note.to_owned()),
                wording: None,
            }
        })
    }

    /// Says every waiting card again in the current language (after the person changed it):
    /// each request's summary, reason, effects, grant scope and detail are replaced by what its
    /// [`Reword`] makes now; its id, arguments, preview, risk and expiry stay. A card without
    /// one, or whose call's target changed, keeps its words. Returns how many changed; the
    /// window reads them with [`Self::list_pending`]. Blocking (a rewording may read files),
    /// and never holds the lock while rewording.
    pub fn reword_pending(&self) -> usize {
        let jobs: Vec<(ApprovalId, Reword)> = {
            let state = self.lock();
            let mut waiting: Vec<&Pending> = state.pending.values().collect();
            waiting.sort_by_key(|p| p.seq);
            waiting
                .into_iter()
                .filter_map(|p| Some((p.request.approval_id, p.reword.clone()?)))
                .collect()
        };
        let mut changed = 0;
        for (id, reword) in jobs {
            let Some(words) = reword.words() else {
                continue;
            };
            let mut state = self.lock();
            // It may have been answered meanwhile: then there is nothing to say again.
            let Some(pending) = state.pending.get_mut(&id) else {
                continue;
            };
            let request = &mut pending.request;
            // "Allow for this session" is offered only where it was offered when asked.
            let grant_scope = request.grant_scope.as_ref().and(words.grant_scope);
            let before = (
                &request.summary,
                &request.reason,
                &request.effects,
                &request.grant_scope,
                &request.detail,
            );
            if before
                != (
                    &words.summary,
                    &words.reason,
                    &words.effects,
                    &grant_scope,
                    &words.detail,
                )
            {
                request.summary = words.summary;
                request.reason = words.reason;
                request.effects = words.effects;
                request.grant_scope = grant_scope;
                request.detail = words.detail;
                changed += 1;
            }
        }
        changed
    }

    /// The request `id`, while it waits.
    pub fn pending(&self, id: ApprovalId) -> Option<ApprovalRequest> {
        self.lock().pending.get(&id).map(|p| p.request.clone())
    }

    /// The requests still waiting, oldest first; only those of `run` when given.
    pub fn list_pending(&self, run: Option<RunId>) -> Vec<ApprovalRequest> {
        let state = self.lock();
        let mut waiting: Vec<&Pending> = state
            .pending
            .values()
            .filter(|p| run.is_none_or(|r| p.request.run_id == r))
            .collect();
        waiting.sort_by_key(|p| p.seq);
        waiting.into_iter().map(|p| p.request.clone()).collect()
    }

    /// Ends every request of `run_id` as `Cancelled{run_aborted}`; returns how many there were.
    pub fn cancel_run(&self, run_id: RunId) -> usize {
        self.settle_all(Some(run_id), CancelCause::RunAborted)
    }

    /// Ends every request as `Cancelled{app_shutdown}` and refuses new ones; returns how many
    /// there were.
    pub fn shutdown(&self) -> usize {
        self.lock().closed = true;
        self.settle_all(None, CancelCause::AppShutdown)
    }

    fn settle_all(&self, run: Option<RunId>, cause: CancelCause) -> usize {
        self.settle_each(self.list_pending(run), |_| Outcome::Cancelled { cause })
    }

    /// Settles each of `requests` (still pending) with `outcome(id)`; returns how many were
    /// still pending. One that ended meanwhile is simply skipped.
    fn settle_each(
        &self,
        requests: Vec<ApprovalRequest>,
        outcome: impl Fn(ApprovalId) -> Outcome,
    ) -> usize {
        requests
            .into_iter()
            .filter(|r| self.settle(r.approval_id, outcome(r.approval_id)).is_ok())
            .count()
    }

    /// Whether `id` is pending past its deadline (its timer may not have fired yet).
    fn expired(&self, id: ApprovalId) -> bool {
        self.deadline(id)
            .is_some_and(|d| tokio::time::Instant::now() >= d)
    }

    /// The single point where an outcome is decided: removes the entry, records the outcome,
    /// delivers it to the waiter, then emits `ApprovalResolved`. An approval that cannot be
    /// recorded becomes `Denied{unavailable}`.
    fn settle(&self, id: ApprovalId, outcome: Outcome) -> Result<Outcome, ApprovalError> {
        self.settle_on(id, outcome, None)
    }

    /// [`Self::settle`], recording where the person answered (`answered_on`).
    fn settle_on(
        &self,
        id: ApprovalId,
        outcome: Outcome,
        answered_on: Option<AnsweredOn>,
    ) -> Result<Outcome, ApprovalError> {
        let pending = {
            let mut state = self.lock();
            let pending = state
                .pending
                .remove(&id)
                .ok_or(ApprovalError::NotPending(id))?;
            let key = (pending.request.run_id, pending.request.tool_call_id.clone());
            if state.by_call.get(&key) == Some(&id) {
                state.by_call.remove(&key);
            }
            // Give back memory after a burst (maps keep their capacity otherwise).
            let len = state.pending.len();
            if state.pending.capacity() > 1024 && len * 4 < state.pending.capacity() {
                state.pending.shrink_to(len * 2);
                state.by_call.shrink_to(len * 2);
            }
            pending
        };
        let record = |outcome: &Outcome| {
            pending.sinks.audit.append(&AuditRecord::ApprovalDecided {
                answered_on,
                approval_id: id,
                run_id: pending.request.run_id,
                outcome: outcome.clone(),
                at: unix_millis_now(),
            })
        };
        let outcome = match record(&outcome) {
            Ok(()) => outcome,
            Err(error) if outcome.is_approved() => {
                // The disk's own words go to the terminal and to the window's "cannot save"
                // banner (behind its Details); the reason is a sentence for the person and
                // the model.
                eprintln!("askfirst: {error}");
                let refused = Outcome::Denied {
                    source: DenialSource::Unavailable,
                    reason: Some(
                        "Ask First could not save your answer in its history (the disk may be \
                         full), so to be safe nothing was run"
                            .to_owned(),
                    ),
                    wording: Some(crate::policy::refusal("refusal.answer_not_saved", [])),
                };
                // Best effort: the log is failing already.
                let _ = record(&refused);
                refused
            }
            // Not approved: nothing runs either way; the failure is for the log's reader.
            Err(error) => {
                eprintln!("askfirst: {error}");
                outcome
            }
        };
        // The waiter may be gone (its run was dropped); the outcome stands all the same.
        let _ = pending.tx.send(outcome.clone());
        (pending.sinks.events)(AgentEvent::ApprovalResolved(ApprovalResolvedEvent {
            approval_id: id,
            run_id: pending.request.run_id,
            tool_call_id: pending.request.tool_call_id,
            outcome: outcome.clone(),
        }));
        Ok(outcome)
    }
}

/// One registered request, waiting for its outcome. Dropping it before it resolves cancels the
/// request as `Cancelled{run_aborted}`.
pub struct PendingApproval {
    registry: Arc<ApprovalRegistry>,
    request: ApprovalRequest,
    rx: oneshot::Receiver<Outcome>,
    deadline: tokio::time::Instant,
}

impl PendingApproval {
    /// The request as it was shown to the user.
    pub fn request(&self) -> &ApprovalRequest {
        &self.request
    }

    /// Waits for the outcome: the user's decision, or `Denied{timeout}` at the deadline, or
    /// `Cancelled` when the run or the app stops first. Never returns `Approved` unless the
    /// user approved.
    pub async fn wait(mut self) -> Outcome {
        // The deadline may move later while waiting (see `ApprovalExtended`).
        let mut deadline = self.deadline;
        let waited = loop {
            match tokio::time::timeout_at(deadline, &mut self.rx).await {
                Err(elapsed) => match self.registry.deadline(self.request.approval_id) {
                    Some(later) if later > deadline => deadline = later,
                    _ => break Err(elapsed),
                },
                answered => break answered,
            }
        };
        match waited {
            Ok(Ok(outcome)) => outcome,
            // The sender is only dropped after a send in `settle`, so this is unreachable in
            // practice; if it ever happens, fail closed.
            Ok(Err(_)) => Outcome::Denied {
                source: DenialSource::Unavailable,
                reason: None,
                wording: None,
            },
            Err(_elapsed) => {
                let id = self.request.approval_id;
                let timed_out = Outcome::Denied {
                    source: DenialSource::Timeout,
                    reason: None,
                    wording: None,
                };
                match self.registry.settle(id, timed_out) {
                    Ok(outcome) => outcome,
                    // Someone else settled it at the same instant. They removed the entry and
                    // send right after recording the outcome, so wait for what they send.
                    Err(_) => match (&mut self.rx).await {
                        Ok(outcome) => outcome,
                        Err(_) => Outcome::Denied {
                            source: DenialSource::Unavailable,
                            reason: None,
                            wording: None,
                        },
                    },
                }
            }
        }
    }
}

impl Drop for PendingApproval {
    fn drop(&mut self) {
        // Already settled in the normal case: then this is a quiet no-op.
        let _ = self.registry.settle(
            self.request.approval_id,
            Outcome::Cancelled {
                cause: CancelCause::RunAborted,
            },
        );
    }
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The English sentences of what a detail says a call does (a command's effects), for the
/// session log beside the request's own effects.
fn detail_effects(detail: Option<&CallDetail>) -> Vec<String> {
    match detail {
        Some(CallDetail::Command { effects, .. }) => {
            effects.iter().map(|effect| effect.text.clone()).collect()
        }
        Some(CallDetail::External { .. }) | None => Vec::new(),
    }
}
