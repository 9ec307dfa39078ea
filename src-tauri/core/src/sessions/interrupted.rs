//! Runs that Ask First stopped in the middle of — quit, a crash or `kill -9` while a card
//! waited — kept so that the next start can offer them again (issue "Nothing is lost when Ask
//! First stops").
//!
//! What a run needs to go on is already in its session's log, in order: the messages so far
//! (the model's turn with the waiting calls among them), the folder, the policy's decisions
//! and the approvals asked ([`crate::audit`]). What the log cannot say cheaply is *which*
//! sessions were cut short, so before a run shows its first card it leaves a small mark beside
//! the log, `<sessions>/<id>.interrupted.json` ([`Interrupted`]), written whole (a temporary
//! file, synced, renamed over, the folder synced). The mark goes when the run ends any other
//! way than by Ask First closing: the person's Stop, the model's answer, a failure.
//!
//! At the next start the newest mark's session is opened and its run resumed
//! ([`crate::agent::AgentRuntime::resume_interrupted`]): the waiting calls are described,
//! judged and asked about again, as new cards — an answer given before the restart is never
//! acted on. A mark whose log no longer shows a turn waiting (the log could not be written, or
//! it is gone) is dropped.

use askfirst_protocol::{RunId, SessionId};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The ending of a mark's file name: `<session id>.interrupted.json`.
pub const MARK_SUFFIX: &str = ".interrupted.json";

/// The mark of a run cut short: which run, and when its first card was shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interrupted {
    /// The session the run belongs to (the log beside the mark).
    pub session_id: SessionId,
    /// The run that was going; only its waiting calls are offered again.
    pub run_id: RunId,
    /// Unix time in milliseconds when the mark was made; the newest mark is resumed first.
    pub at: u64,
    /// How many starts have gone on with this task since Ask First last closed normally
    /// (marks of older versions: 0). A start that goes on with it counts one; Ask First
    /// closing normally sets it back to 0. At [`MAX_STARTS`] the task is not gone on with by
    /// itself again: a task that makes Ask First die each time it goes on must not keep it
    /// from starting.
    #[serde(default)]
    pub starts: u32,
}

/// How many starts in a row may go on with a task without Ask First closing normally in
/// between ([`Interrupted::starts`]).
pub const MAX_STARTS: u32 = 2;

/// The marks in the sessions folder `dir`.
#[derive(Debug, Clone)]
pub struct Marks {
    dir: PathBuf,
}

impl Marks {
    /// The marks kept in `dir` (the sessions folder).
    pub fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_owned(),
        }
    }

    fn path(&self, session: SessionId) -> PathBuf {
        self.dir.join(format!("{session}{MARK_SUFFIX}"))
    }

    /// Leaves the mark of `mark`'s run, replacing the session's previous one, whole or not at
    /// all (synced before it is renamed into place, and the folder synced after).
    ///
    /// # Errors
    /// The I/O error of writing it; the run then goes on, but cannot be resumed after a crash.
    pub fn leave(&self, mark: &Interrupted) -> std::io::Result<()> {
        let bytes = serde_json::to_vec(mark).map_err(std::io::Error::other)?;
        let target = self.path(mark.session_id);
        crate::data_dir::write_atomically(&target, &bytes)?;
        Ok(())
    }

    /// The mark of `session`, if it has one that can be read.
    pub fn of(&self, session: SessionId) -> Option<Interrupted> {
        let bytes = std::fs::read(self.path(session)).ok()?;
        serde_json::from_slice::<Interrupted>(&bytes)
            .ok()
            .filter(|mark| mark.session_id == session)
    }

    /// Removes the mark of `session` (nothing to do when there is none).
    pub fn remove(&self, session: SessionId) {
        match std::fs::remove_file(self.path(session)) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => eprintln!("askfirst: could not remove a finished run's mark: {error}"),
        }
    }

    /// The newest readable mark in the folder (by [`Interrupted::at`]). Reads the folder's
    /// names and each mark (a few dozen bytes), never a log. A mark that cannot be read is
    /// removed, with a line on stderr.
    pub fn newest(&self) -> Option<Interrupted> {
        let entries = std::fs::read_dir(&self.dir).ok()?;
        let mut newest: Option<Interrupted> = None;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(id) = name
                .to_str()
                .and_then(|n| n.strip_suffix(MARK_SUFFIX))
                .and_then(|id| id.parse::<SessionId>().ok())
            else {
                continue;
            };
            match self.of(id) {
                Some(mark) if newest.as_ref().is_none_or(|n| mark.at > n.at) => {
                    newest = Some(mark);
                }
                Some(_) => {}
                None => {
                    eprintln!("askfirst: an unreadable mark of an interrupted run is dropped");
                    self.remove(id);
                }
            }
        }
        newest
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_newest_mark_is_found_and_a_removed_or_damaged_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let marks = Marks::new(dir.path());
        assert_eq!(marks.newest(), None);
        let (older, newer) = (SessionId::new(), SessionId::new());
        for (session, at) in [(older, 10), (newer, 20)] {
            marks
                .leave(&Interrupted {
                    session_id: session,
                    run_id: RunId::new(),
                    at,
                    starts: 0,
                })
                .unwrap();
        }
        assert_eq!(marks.newest().map(|m| m.session_id), Some(newer));
        marks.remove(newer);
        assert_eq!(marks.newest().map(|m| m.session_id), Some(older));
        // A mark cut short by a crash of an older version, or edited by hand.
        std::fs::write(dir.path().join(format!("{newer}{MARK_SUFFIX}")), b"{\"sess").unwrap();
        assert_eq!(marks.newest().map(|m| m.session_id), Some(older));
        assert!(!dir.path().join(format!("{newer}{MARK_SUFFIX}")).exists());
        // A mark that names another session than its file is not that session's.
        let stray = Interrupted {
            session_id: older,
            run_id: RunId::new(),
            at: 30,
            starts: 0,
        };
        std::fs::write(
            dir.path().join(format!("{newer}{MARK_SUFFIX}")),
            serde_json::to_vec(&stray).unwrap(),
        )
        .unwrap();
        assert_eq!(marks.of(newer), None);
    }
}
