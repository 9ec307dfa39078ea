//! The Activity panel: every change the agent made, newest first across all conversations,
//! and the person's Undo of one change or of a whole task (`list_activity`, `undo_change`,
//! `undo_task`).

use crate::{RunId, SessionId};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Who let a change happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AllowedBy {
    /// The person clicked Approve on its card.
    Person,
    /// One of the person's rules allowed it without asking.
    Rule,
    /// "Allow in this conversation" covered it.
    Grant,
    /// Ask First allowed it without asking (the tool's default).
    Default,
}

/// Where a change stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActivityState {
    /// Done, and it can be undone.
    Done,
    /// The person undid it.
    Undone,
    /// Its before-copy was cleared to keep the copies under their size limit.
    TooOld,
    /// It cannot be undone; `why` says why in a sentence (a command, a file too large to
    /// keep a copy of).
    CannotUndo {
        /// One plain sentence.
        why: String,
    },
}

/// One entry of the Activity panel: one tool call that ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ActivityEntry {
    /// What `undo_change` takes: the change's id (a UUID) for a change with a before-record,
    /// else `call:<run id>:<tool call id>`.
    pub id: String,
    /// The conversation it happened in.
    pub session_id: SessionId,
    /// That conversation's title (its first task).
    pub conversation: String,
    /// The task (run) it belongs to.
    pub run_id: RunId,
    /// When it was done: Unix time in milliseconds.
    #[ts(type = "number")]
    pub at: u64,
    /// The tool.
    pub tool_name: String,
    /// The card's summary (as written; the window shows it as text).
    pub summary: String,
    /// What the card said the call would do, one sentence each.
    pub effects: Vec<String>,
    /// The files it touched, relative to its folder (for searching by file name).
    pub paths: Vec<String>,
    /// The folder it was done in.
    pub folder: String,
    /// Who allowed it.
    pub allowed_by: AllowedBy,
    /// Where it stands.
    pub state: ActivityState,
}

/// Arguments of `undo_change`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct UndoChangeRequest {
    /// The entry's conversation.
    pub session_id: SessionId,
    /// [`ActivityEntry::id`].
    pub id: String,
    /// The person saw what undoing would lose (`UndoResponse::Confirm`) and said go on.
    pub confirmed: bool,
}

/// Arguments of `undo_task`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct UndoTaskRequest {
    /// The task's conversation.
    pub session_id: SessionId,
    /// The task.
    pub run_id: RunId,
    /// As in [`UndoChangeRequest::confirmed`].
    pub confirmed: bool,
}

/// What an undo did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UndoResponse {
    /// Undone; `message` says what (for a task: how many, and where it stopped).
    Done {
        /// One or two plain sentences.
        message: String,
    },
    /// Nothing was done yet: the file changed since, and undoing would lose that. Ask the
    /// person, then call again with `confirmed: true`.
    Confirm {
        /// What would be lost, in plain sentences.
        what_lost: String,
    },
}
