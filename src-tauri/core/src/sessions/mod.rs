//! Sessions kept on disk: the folder of logs and its index ([`store`]), and rebuilding a past
//! session's conversation and transcript from its log ([`replay`]).
//!
//! A session's log is `<sessions>/<id>.jsonl` ([`crate::audit`]); the list of sessions reads
//! `<sessions>/index.json` (titles), not every log. A run cut short while a card waited leaves
//! a mark beside its log ([`interrupted`]) so that the next start offers it again.

pub mod interrupted;
pub mod replay;
pub mod store;

/// Errors of opening sessions.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// A run is going; sessions change only between runs.
    #[error("The agent is still working. Stop it or wait for it to finish first.")]
    Busy,
    /// `ASKFIRST_WORKSPACE` fixes the folder for this launch.
    #[error(
        "The folder is set by ASKFIRST_WORKSPACE when Ask First starts, so it cannot be \
         changed here. Start Ask First without it to choose a folder."
    )]
    FolderFixed,
    /// No such session, or its log cannot be read.
    #[error("The session could not be opened: {0}")]
    Unreadable(String),
    /// The session's log cannot be opened for writing (a read-only or full data folder).
    #[error("The session's log could not be opened for writing: {0}")]
    NotWritable(String),
}

/// A session's title from its first task: the task on one line, cut to `max` characters with
/// `…` ([`crate::text::display_label`], the one cleaner of text shown on one line).
pub fn shorten(text: &str, max: usize) -> String {
    crate::text::display_label(text, max)
}

/// The most characters of a session's title (its first task, on one line).
pub const TITLE_CHARS: usize = 80;
