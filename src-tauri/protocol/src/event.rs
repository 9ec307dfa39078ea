//! What the core reports ([`AgentEvent`], numbered as [`SequencedEvent`]), and why a tool call
//! did not run ([`NotRun`]) with the person's sentence as a key and values ([`Wording`]).

use crate::*;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How a run ended, or that it is still going.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// The agent is working (or waiting for the user).
    Running,
    /// The model gave its final answer.
    Completed,
    /// The run stopped on an error (the message says which).
    Failed,
    /// The user stopped the run, or the app quit.
    Cancelled,
}

/// Why a request to the model service waits before it is sent again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RetryReason {
    /// The service said it gets too many requests (HTTP 429).
    Busy,
    /// The service failed on its side (HTTP 5xx).
    ServiceTrouble,
    /// The service could not be reached (a connection error another try may cure).
    Unreachable,
}

/// How one tool call ended, for the transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolCallStatus {
    /// The tool ran and succeeded.
    Succeeded,
    /// The tool ran and reported an error (or the call was malformed).
    Failed,
    /// The tool did not run: denied by the user, the policy or a timeout.
    Denied,
    /// The tool did not run: the run was stopped or the app quit.
    Cancelled,
}

/// Everything the core reports about runs, in order, as one tagged enum. Sent to the webview
/// inside a [`SequencedEvent`] as the `run-event` event (the approval variants also go out as
/// `approval-required` and `approval-resolved`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AgentEvent {
    /// A run began with the user's task.
    RunStarted {
        /// The run.
        run_id: RunId,
        /// Its session.
        session_id: SessionId,
        /// What the user asked.
        task: String,
        /// Who answers: the provider's plain name, e.g. "Demo agent (offline, scripted)".
        provider: String,
        /// Whether this run goes on with a task that Ask First was closed in the middle of
        /// (`task` is that task, not a new message from the person).
        #[serde(default)]
        resumed: bool,
    },
    /// A piece of the model's text as it streams in (coalesced, a few per second). The
    /// `AssistantMessage` that follows holds the whole text.
    AssistantDelta {
        /// The run.
        run_id: RunId,
        /// The new text.
        text: String,
    },
    /// A session was opened (a new one, or a past one reopened). What follows in the history
    /// belongs to it; a window shows only the latest session's events.
    SessionOpened {
        /// The session.
        session_id: SessionId,
        /// Its title (its first task), if it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        title: Option<String>,
    },
    /// The model said something to the user.
    AssistantMessage {
        /// The run.
        run_id: RunId,
        /// The text, as plain text (never HTML).
        text: String,
    },
    /// The model asked to call a tool; its outcome follows in `ToolCallFinished`.
    ToolCallProposed {
        /// The run.
        run_id: RunId,
        /// The provider's id for the call.
        tool_call_id: String,
        /// The tool's name.
        tool_name: String,
        /// The arguments as the model sent them.
        arguments_json: String,
        /// What the call will do, in plain words.
        summary: String,
    },
    /// The person changed a call on its card ("Change…"): the call with this id is now the
    /// changed one, described anew; its policy decision, card (or refusal) and outcome follow
    /// as for any proposed call. The call the model asked for stays in `asked_arguments_json`,
    /// so the transcript (and a reopened one) shows both.
    ToolCallChanged {
        /// The run.
        run_id: RunId,
        /// The provider's id for the call (the model's, unchanged).
        tool_call_id: String,
        /// The tool's name.
        tool_name: String,
        /// The arguments the model sent.
        asked_arguments_json: String,
        /// The arguments the person changed them to: what is judged, and what runs if allowed.
        arguments_json: String,
        /// What the changed call will do, in plain words.
        summary: String,
    },
    /// The user's OK is needed; the same payload goes out as `approval-required`.
    ApprovalRequired(ApprovalRequest),
    /// An approval ended; the same payload goes out as `approval-resolved`.
    ApprovalResolved(ApprovalResolvedEvent),
    /// A waiting approval got more time: the person answered another card of the same run
    /// while this one had less than half its timeout left, so it waits a whole timeout again
    /// from now (someone who is answering cards one by one is not refused for being slow).
    ApprovalExtended {
        /// The approval.
        approval_id: ApprovalId,
        /// Its run.
        run_id: RunId,
        /// Its new expiry, Unix milliseconds (the card's countdown follows it).
        #[ts(type = "number")]
        expires_at: u64,
    },
    /// The model service did not answer this time and the request waits to be tried again:
    /// the window says why and when ("The service is busy: trying again in 20 s").
    ModelRetrying {
        /// The run.
        run_id: RunId,
        /// Why.
        reason: RetryReason,
        /// When it is tried again, Unix milliseconds.
        #[ts(type = "number")]
        retry_at: u64,
        /// Which try comes next (2 for the first retry).
        next_try: u32,
        /// How many tries there are in all.
        tries: u32,
    },
    /// A tool call starts running now (it was allowed or approved, and its turn came).
    ToolCallStarted {
        /// The run.
        run_id: RunId,
        /// The provider's id for the call.
        tool_call_id: String,
    },
    /// A tool call ended (ran, failed, or was not run).
    ToolCallFinished {
        /// The run.
        run_id: RunId,
        /// The provider's id for the call.
        tool_call_id: String,
        /// How it ended.
        status: ToolCallStatus,
        /// Which policy layer decided (absent for calls that never reached the policy:
        /// unknown tool, invalid arguments).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        policy_layer: Option<PolicyLayer>,
        /// The tool's output, or why it did not run, as the person is told it (the model is
        /// told the same facts with instructions for it: see the session's `message` records),
        /// plain text.
        output: String,
        /// Why it did not run (or, for a stop, how far it got), as a fact: absent when the
        /// tool ran and `output` is its own, and in logs written before this field existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        not_run: Option<NotRun>,
        /// `output` as a key and values, for a window that words it in another language;
        /// absent exactly when `not_run` is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        wording: Option<Wording>,
    },
    /// Whether the session log can be written. `problem` (what fails, in plain words) when it
    /// cannot — a full disk, a read-only data folder: approvals that cannot be recorded are then
    /// refused, so the window says why; absent when it can be written again. Never written to
    /// the log itself, nor replayed with a reopened session.
    LogStatus {
        /// What fails; absent when writing works.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        problem: Option<String>,
    },
    /// The run ended.
    RunFinished {
        /// The run.
        run_id: RunId,
        /// How it ended (never `running`).
        status: RunStatus,
        /// For `failed` and `cancelled`: what happened, in plain words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        message: Option<String>,
        /// For `failed`: the technical detail behind `message` (a model service's status and
        /// its own words, the networking library's complaint), for a "Details" view one click
        /// away; absent where the message says everything, and in logs written before it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        detail: Option<String>,
    },
}

/// One [`AgentEvent`] with its place in the session's event history: `seq` counts from 0, with
/// no gaps, in the order the core emitted them. This is the payload of `run-event`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SequencedEvent {
    /// Position in the session's history (0-based, no gaps).
    #[ts(type = "number")]
    pub seq: u64,
    /// The event.
    pub event: AgentEvent,
}

/// Why one tool call did not run, or was not seen through: the facts, without the words. The
/// core words each variant twice (`askfirst_core::agent::wording`): for the model, with what it
/// should do next, and for the person, as a [`Wording`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NotRun {
    /// The person clicked Deny, with the note they typed, if any ("Don't ask me now" denies
    /// the waiting requests as the person's own answer, with that switch's words as the note).
    DeniedByPerson {
        /// What they wrote with the denial.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        note: Option<String>,
    },
    /// Nobody answered the card before it expired.
    TimedOut,
    /// A rule, or the session policy "never", refused it without asking.
    DeniedByRule {
        /// What the policy said (which rule), in English: what the model is told.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
        /// The same reason as a sentence key, for the person in their language (absent in
        /// logs written before it was kept, and for refusals the policy did not word).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        wording: Option<Wording>,
    },
    /// A built-in hard denial refused it; nothing can allow it.
    HardDenial {
        /// What it would have done that is never allowed, in English: what the model is told.
        reason: String,
        /// The same reason as a sentence key, for the person in their language (absent in
        /// logs written before it was kept).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        wording: Option<Wording>,
    },
    /// It could not be asked about: the request could not be recorded, or nobody can answer.
    Unavailable {
        /// Why, in English: what the model is told.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
        /// The same reason as a sentence key, for the person in their language (absent in
        /// logs written before it was kept).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        wording: Option<Wording>,
    },
    /// The run was stopped, or the app closed, before it started.
    Cancelled {
        /// Stop, or the app closing.
        cause: CancelCause,
    },
    /// The run was stopped, or the app closed, while it ran, and it was interrupted.
    Interrupted {
        /// Stop, or the app closing.
        cause: CancelCause,
    },
    /// The run was stopped, or the app closed, while it ran, and Ask First stopped waiting for
    /// it (an MCP server's call): whether it was done is not known.
    NoLongerAwaited {
        /// Stop, or the app closing.
        cause: CancelCause,
    },
    /// What it works on changed after the card was shown, so it would no longer do what was
    /// shown.
    ChangedAfterShown {
        /// The card's summary.
        summary: String,
    },
    /// The same call (same tool, same canonical arguments) was refused earlier in this run;
    /// it gets the same answer without asking again.
    Repeated {
        /// Why the first one did not run.
        earlier: Box<NotRun>,
    },
    /// The run ended before this call (the model kept asking for what was refused).
    RunEndedBefore,
    /// The run's tool output reached its limit, so the run ended before this call.
    OutputLimit {
        /// The limit, in MiB.
        limit_mb: u32,
    },
    /// The turn asked for more calls than Ask First handles at once; the ones past the limit
    /// were not looked at.
    TooManyCalls {
        /// How many calls the turn had.
        asked: u32,
        /// The most handled per turn.
        limit: u32,
        /// How many were left out.
        left_out: u32,
    },
    /// A reopened session: it was allowed, but Ask First closed before it started.
    ClosedBeforeStart,
    /// A reopened session: it was allowed and may have run, but how it ended was never saved.
    MayHaveRun,
    /// A reopened session: it was refused, but the log has a gap where its end would be.
    RefusedEndNotSaved,
    /// A reopened session: nothing of how it ended was saved (the log has a gap).
    EndNotSaved,
}

/// A sentence for the person as a key and its values, so a window can word it in any
/// language; the core also renders the English text (`askfirst_core::agent::wording`).
/// Keys are dotted (`not_run.denied_by_person_with_note`); values are plain text, inserted
/// where the sentence names them (`{note}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Wording {
    /// Which sentence.
    pub key: String,
    /// Its values by name.
    pub args: std::collections::BTreeMap<String, String>,
}
