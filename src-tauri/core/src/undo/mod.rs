//! Undo: every approved change to the person's files can be taken back, and Activity lists
//! everything the agent did, across conversations, from the session logs.
//!
//! - Before a file tool's change takes effect, [`capture`] keeps what it will change: the
//!   file's bytes and permissions in the [`UndoStore`] (content-addressed, synced to the
//!   disk), or that there was no file, the folders the change will create, where a moved item
//!   was, what went to the trash. The agent loop writes that as a
//!   [`crate::audit::AuditRecord::ChangeSaved`] record (synced) before the tool runs, and
//!   [`crate::audit::AuditRecord::ChangeApplied`] (with a hash of the result) after.
//! - [`Activity`] reads the logs into entries ([`askfirst_protocol::ActivityEntry`]) and undoes
//!   one change or a whole task, newest first, in the folder the change was made in (checked
//!   by identity), writing `undo_requested` / `undo_done` / `undo_failed` records. One undo at
//!   a time, and a change undone once is never undone again.
//!
//! The sentences are in [`words`]; the errors are [`UndoError`] (worded in `app/codes.rs`).

mod activity;
mod apply;
pub(crate) mod beneath;
mod capture;
mod store;
pub mod words;

pub use activity::Activity;
pub use capture::{after_hash, capture, card_note, CaptureError};
pub use store::{UndoStore, DEFAULT_UNDO_CAP_BYTES};

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What a file tool's call will change, as the tool resolved it (absolute paths inside the
/// workspace): the input of [`capture`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Planned {
    /// `write_file` / `edit_file`: the file at this path is created or replaced.
    Replace(PathBuf),
    /// `move_path`: the item at `from` moves to `to` (which is free).
    Move {
        /// Where it is.
        from: PathBuf,
        /// Where it goes.
        to: PathBuf,
    },
    /// `delete_path`: the entry goes to the trash.
    Trash(PathBuf),
}

/// What a file had before a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Before {
    /// There was no file: the change created it.
    Absent,
    /// Its bytes are kept as the blob `sha256`.
    Kept {
        /// Hex SHA-256 of the bytes, the blob's name in the [`UndoStore`].
        sha256: String,
        /// Its permission bits (`st_mode & 0o7777`).
        mode: u32,
        /// Its size, in bytes.
        size: u64,
    },
    /// It was too large to keep a copy of (over [`UndoStore::per_file_limit`]), or no copy
    /// could be written (the card then said the change cannot be undone).
    NotKept {
        /// Its size, in bytes.
        size: u64,
    },
}

/// What one change did, recorded before it took effect. Paths are relative to the folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// A file created or replaced.
    Replace {
        /// The file.
        path: PathBuf,
        /// What it was before.
        before: Before,
        /// The folders the change created to put it in, outermost first.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        created_folders: Vec<PathBuf>,
    },
    /// An item moved.
    Move {
        /// Where it was.
        from: PathBuf,
        /// Where it went.
        to: PathBuf,
        /// The folders the change created to put it in, outermost first.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        created_folders: Vec<PathBuf>,
    },
    /// An item moved to the trash.
    Trash {
        /// Where it was.
        path: PathBuf,
    },
    /// A command (`run_command`) tried on a copy of the folder, whose changes were then
    /// applied to it ([`crate::changes::apply`]): undone as a whole.
    Command {
        /// The command line, as it ran.
        line: String,
        /// Every path it changed, sorted by path (a folder before what is in it), with what
        /// was there before and what the command left.
        files: Vec<CommandFile>,
    },
}

/// One path a command changed ([`Change::Command`]), relative to the folder.
///
/// JSON: `{"path":"notes.txt","before":{"kind":"file","sha256":"…","mode":420,"size":5},
/// "after":{"kind":"file","sha256":"…"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandFile {
    /// The path, relative to the folder.
    pub path: PathBuf,
    /// What was there before the command's changes were applied.
    pub before: Was,
    /// What the command left there.
    pub after: Left,
}

/// What was at a path before a command's changes were applied ([`CommandFile::before`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Was {
    /// Nothing: the command created what is there.
    Absent,
    /// An ordinary file, its bytes kept as the blob `sha256`.
    File {
        /// Hex SHA-256 of the bytes, the blob's name in the [`UndoStore`].
        sha256: String,
        /// Its permission bits (`st_mode & 0o7777`).
        mode: u32,
        /// Its size, in bytes.
        size: u64,
    },
    /// An ordinary file with the same bytes as the command left (only its permissions
    /// changed): no copy is needed.
    SameBytes {
        /// Its permission bits before.
        mode: u32,
    },
    /// A file (or a folder too large to walk) no copy was kept of: the command cannot be
    /// undone.
    NotKept {
        /// Its size, in bytes (for a folder: of what was seen of it).
        size: u64,
    },
    /// A folder, with these permission bits.
    Folder {
        /// Its permission bits.
        mode: u32,
    },
    /// A symbolic link leading there (exactly as written in it).
    Link {
        /// The link's target.
        target: PathBuf,
    },
    /// A named pipe, socket or device, which undo does not make again.
    Other,
}

/// What a command left at a path ([`CommandFile::after`]), to notice at undo time that it was
/// changed since.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Left {
    /// Nothing: the command deleted it.
    Absent,
    /// An ordinary file with these bytes.
    File {
        /// Hex SHA-256 of its bytes.
        sha256: String,
    },
    /// A folder.
    Folder,
    /// A symbolic link leading there.
    Link {
        /// The link's target, exactly as written in it.
        target: PathBuf,
    },
}

impl Change {
    /// The paths it touched, for searching.
    pub fn paths(&self) -> Vec<&PathBuf> {
        match self {
            Change::Replace { path, .. } | Change::Trash { path } => vec![path],
            Change::Move { from, to, .. } => vec![from, to],
            Change::Command { files, .. } => files.iter().map(|f| &f.path).collect(),
        }
    }
}

/// Why an undo was not done (worded for people in `app/codes.rs`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UndoError {
    /// No such change in that conversation's log.
    #[error("no change {0} in the conversation's log")]
    NotFound(String),
    /// It was undone already (a second click, another window).
    #[error("the change was already undone")]
    AlreadyUndone,
    /// It cannot be undone: a command, an MCP call, a file too large to copy (the sentence).
    #[error("cannot be undone: {0}")]
    CannotUndo(String),
    /// Its before-copy was cleared over the size cap.
    #[error("the before-copy {0} was cleared")]
    TooOld(String),
    /// The folder it was made in is gone (or another folder is at its place).
    #[error("the folder {0} is gone or is another folder now")]
    FolderGone(PathBuf),
    /// The place to put something back is taken.
    #[error("{0} is taken")]
    PlaceTaken(PathBuf),
    /// What the change made is not there any more.
    #[error("{0} is gone")]
    Gone(PathBuf),
    /// A folder on the way to the item (relative to the folder) is not a folder any more: a
    /// link (to another place) or a file is at its place. Undo never goes through a link.
    #[error("{0} is not a folder any more (a link or a file is at its place)")]
    NotAFolder(PathBuf),
    /// What went to the trash is no longer there.
    #[error("{0} is no longer in the trash")]
    GoneFromTrash(PathBuf),
    /// The undo's record could not be written, so it was not done.
    #[error("the undo could not be recorded: {0}")]
    Log(String),
    /// Undoing failed on the disk.
    #[error("undoing failed: {0}")]
    Failed(String),
    /// A whole task's undo stopped at a change it could not undo.
    #[error("stopped after {undone} of {total} at {summary:?}: {why}")]
    TaskStopped {
        /// How many changes were undone (newest first).
        undone: usize,
        /// How many the task had that were not undone before.
        total: usize,
        /// The card summary of the change it stopped at.
        summary: String,
        /// Why that one could not be undone.
        why: Box<UndoError>,
    },
}

/// The identity of a folder (device, inode), to check at undo time that the folder is the
/// one the change was made in.
pub fn folder_identity(path: &std::path::Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::metadata(path).ok().map(|_| (0, 0))
    }
}
