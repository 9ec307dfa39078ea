//! The sessions folder: where each session's log is, the list of past sessions, and the index
//! that lets the list be made without reading every log.
//!
//! The index (`index.json` beside the logs) keeps each session's title (its first task). A
//! title never changes once the session has one, so an entry with a title is never stale; an
//! entry without one is re-read when its log has grown since. The index is written when a
//! session's first task is recorded and whenever listing had to read a log, and rebuilt from
//! the logs when it is missing or unreadable. Why: listing used to read and parse every log in
//! full, O(all history), on each opening of the Sessions list (see `benches/sessions.rs`).

use super::{shorten, SessionError, TITLE_CHARS};
use crate::audit::{AuditRecord, JsonlLog, LogContents};
use crate::provider::Message;
use crate::sync::MutexExt;
use askfirst_protocol::{SessionId, SessionSummary};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The index file's name inside the sessions folder.
pub const INDEX_FILE: &str = "index.json";

/// The title of a session without a task yet.
pub const UNTITLED: &str = "New session";

/// What the index knows of one session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    /// The first task, shortened; `None` while the log has none.
    title: Option<String>,
    /// The log's length in bytes when it was last read for its title (only meaningful while
    /// `title` is `None`).
    checked_len: u64,
}

/// The index file: entries by session id.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Index {
    sessions: BTreeMap<SessionId, Entry>,
}

/// The sessions folder, or none (sessions not kept: tests, a headless run).
pub struct SessionStore {
    dir: Option<PathBuf>,
    /// Held while the index is read, changed and written, so two writers do not lose entries.
    index: Mutex<()>,
}

impl SessionStore {
    /// The store over `dir` (`None`: nothing is kept and nothing is listed).
    pub fn new(dir: Option<PathBuf>) -> Self {
        Self {
            dir,
            index: Mutex::new(()),
        }
    }

    fn log_path(dir: &Path, id: SessionId) -> PathBuf {
        dir.join(format!("{id}.jsonl"))
    }

    /// Opens (creating) the log of session `id`; `None` when sessions are not kept.
    ///
    /// # Errors
    /// [`SessionError::NotWritable`] when the log cannot be opened.
    pub fn open_log(&self, id: SessionId) -> Result<Option<JsonlLog>, SessionError> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        JsonlLog::open(&Self::log_path(dir, id))
            .map(Some)
            .map_err(|e| SessionError::NotWritable(e.to_string()))
    }

    /// Reads the whole log of session `id`.
    ///
    /// # Errors
    /// [`SessionError::Unreadable`] when sessions are not kept, or the log is missing or
    /// unreadable.
    pub fn read(&self, id: SessionId) -> Result<LogContents, SessionError> {
        let dir = self
            .dir
            .as_ref()
            .ok_or_else(|| SessionError::Unreadable("sessions are not kept".into()))?;
        crate::audit::read_log(&Self::log_path(dir, id))
            .map_err(|e| SessionError::Unreadable(e.to_string()))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ()> {
        self.index.lock_or_recover()
    }

    fn load(dir: &Path) -> Index {
        std::fs::read(dir.join(INDEX_FILE))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    /// Writes the index whole, through a temporary file renamed over it, so a crash leaves
    /// the old index or the new one, never half of one. A failure only costs speed (the next
    /// listing reads the logs again), so it is reported, not returned.
    fn save(dir: &Path, index: &Index) {
        let write = || -> std::io::Result<()> {
            let bytes = serde_json::to_vec(index).map_err(std::io::Error::other)?;
            let temporary = dir.join(format!("{INDEX_FILE}.tmp"));
            std::fs::write(&temporary, bytes)?;
            std::fs::rename(&temporary, dir.join(INDEX_FILE))
        };
        if let Err(error) = write() {
            eprintln!("askfirst: could not write the sessions index: {error}");
        }
    }

    /// Records that session `id`'s first task is `task` (its title from now on). Does nothing
    /// when the session already has a title or sessions are not kept.
    pub fn record_first_task(&self, id: SessionId, task: &str) {
        let Some(dir) = &self.dir else {
            return;
        };
        let _held = self.lock();
        let mut index = Self::load(dir);
        let entry = index.sessions.entry(id).or_default();
        if entry.title.is_some() {
            return;
        }
        entry.title = Some(shorten(task, TITLE_CHARS));
        Self::save(dir, &index);
    }

    /// The sessions kept in the folder that have at least one task, and `current`, newest
    /// first (by the time their log was last written).
    pub fn list(&self, current: SessionId) -> Vec<SessionSummary> {
        let mut out = Vec::new();
        let Some(dir) = &self.dir else {
            return out;
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return out;
        };
        let _held = self.lock();
        let mut index = Self::load(dir);
        let mut changed = false;
        let mut present = std::collections::BTreeSet::new();
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            let Some(id) = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<SessionId>().ok())
            else {
                continue;
            };
            present.insert(id);
            let metadata = entry.metadata().ok();
            let len = metadata.as_ref().map_or(0, std::fs::Metadata::len);
            let updated_at = metadata
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
                .unwrap_or(0);
            let known = index.sessions.get(&id);
            let title = match known {
                Some(Entry {
                    title: Some(title), ..
                }) => Some(title.clone()),
                Some(Entry {
                    title: None,
                    checked_len,
                }) if *checked_len == len => None,
                Some(_) | None => {
                    let title = first_task(&path).map(|t| shorten(&t, TITLE_CHARS));
                    index.sessions.insert(
                        id,
                        Entry {
                            title: title.clone(),
                            checked_len: len,
                        },
                    );
                    changed = true;
                    title
                }
            };
            if title.is_none() && id != current {
                continue;
            }
            out.push(SessionSummary {
                session_id: id,
                title: title.unwrap_or_else(|| UNTITLED.into()),
                updated_at,
                current: id == current,
            });
        }
        let before = index.sessions.len();
        index.sessions.retain(|id, _| present.contains(id));
        if changed || index.sessions.len() != before {
            Self::save(dir, &index);
        }
        out.sort_by_key(|s| std::cmp::Reverse(s.updated_at));
        out
    }
}

/// The first task of the log at `path`: its first user message. Reads records until it finds
/// one (usually the second line), not the whole log.
fn first_task(path: &Path) -> Option<String> {
    use std::io::BufRead;
    let reader = std::io::BufReader::new(std::fs::File::open(path).ok()?);
    reader.split(b'\n').map_while(Result::ok).find_map(|line| {
        match serde_json::from_slice::<AuditRecord>(&line) {
            Ok(AuditRecord::Message {
                message: Message::User { text },
                ..
            }) => Some(text),
            _ => None,
        }
    })
}
