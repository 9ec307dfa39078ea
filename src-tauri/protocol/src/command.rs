//! The requests and replies of the window's commands, and their one error type.

use crate::*;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Arguments of the `start_run` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct StartRunRequest {
    /// What the user asks the agent to do.
    pub task: String,
}

/// Answer of the `start_run` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct StartRunResponse {
    /// The new run.
    pub run_id: RunId,
    /// Its session.
    pub session_id: SessionId,
}

/// Arguments of the `resolve_approval` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ResolveApprovalRequest {
    /// The approval to answer.
    pub approval_id: ApprovalId,
    /// The user's answer.
    pub decision: Decision,
}

/// Arguments of the `set_session_policy` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SetSessionPolicyRequest {
    /// The new policy; it applies from the next decision.
    pub policy: SessionPolicy,
}

/// One past or current session, for the list of sessions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionSummary {
    /// The session.
    pub session_id: SessionId,
    /// Its first task, or "New session".
    pub title: String,
    /// When its log was last written: Unix time in milliseconds.
    #[ts(type = "number")]
    pub updated_at: u64,
    /// Whether it is the session in this window now.
    pub current: bool,
}

/// Arguments of the `open_session` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OpenSessionRequest {
    /// The session to reopen.
    pub session_id: SessionId,
}

/// Arguments of the `revoke_grant` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RevokeGrantRequest {
    /// The grant's tool.
    pub tool_name: String,
    /// The grant's canonical arguments.
    pub canonical_arguments: String,
}

/// Arguments of the `cancel_run` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CancelRunRequest {
    /// The run to stop.
    pub run_id: RunId,
}

/// Arguments of the `wait_run_events` command: the window's long poll for the session's
/// numbered events (what it is sent instead of each event evaluated as a script in its page).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WaitRunEventsRequest {
    /// The number of the first event wanted (the last answer's `next`); null: none, only where
    /// the history ends now (the first call, when the window starts listening).
    #[ts(type = "number | null")]
    pub next: Option<u64>,
}

/// Answer of the `wait_run_events` command: the events from the number asked for, in order
/// (at most 256, and about 1 MiB of JSON unless one event alone is larger), or none when
/// nothing came within the wait (~20 s). After a new session was opened the first is that
/// session's `session_opened`, numbered above the one asked for.
#[derive(Debug, Clone, Serialize, TS)]
pub struct RunEventsPage {
    /// The events, each as its [`SequencedEvent`] JSON.
    #[ts(as = "Vec<SequencedEvent>")]
    pub events: Vec<Box<serde_json::value::RawValue>>,
    /// The number to ask from next.
    #[ts(type = "number")]
    pub next: u64,
}

/// A machine-readable error code the UI can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The approval is not waiting (already resolved, timed out, cancelled, or never existed).
    NotPending,
    /// No such run is going.
    UnknownRun,
    /// The request was malformed or refused (e.g. an empty task, "Allow for this session" on a
    /// call that cannot be granted, a setting out of range, a rule or server that is not
    /// there).
    InvalidRequest,
    /// A run is going, so this cannot be done now (start a task, switch sessions).
    Busy,
    /// The session log cannot be written, so nothing that needs a record can happen.
    LogUnavailable,
    /// Ask First is quitting.
    ShuttingDown,
    /// A file of Ask First's (settings, rules, a session log) cannot be read or written; the
    /// message names it.
    Storage,
    /// The provider could not be set up (a missing key, a scenario file that cannot be read).
    ProviderSetup,
    /// Something failed inside the app; the message says what.
    Internal,
}

/// The error every command returns: a code for the UI, a message for the person and the
/// technical detail behind it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CommandError {
    /// What kind of error.
    pub code: ErrorCode,
    /// For the person: what happened and what to do, in plain sentences (never an error chain,
    /// a path or an OS error code; those are in `detail`).
    pub message: String,
    /// The technical detail (the error chain, a path, a status code, the OS's own words) for a
    /// "Details" view one click away; absent where the message says everything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub detail: Option<String>,
}
