//! The session's append-only audit log: one JSON object per line (JSONL) in
//! `<data dir>/sessions/<session id>.jsonl`.
//!
//! Every approval writes an `approval_asked` record before the user sees the card and an
//! `approval_decided` record before its outcome takes effect (every write is flushed to the
//! operating system, so it survives the app being killed; decisions, `approval_decided` and
//! `policy_decided`, are also synced to the disk, so they survive a power cut). Calls the policy allowed or denied
//! without asking are recorded too. Reading skips a torn last line (a crash mid-write) with a
//! warning and never loses earlier records; on start, [`recover_orphans`] closes every asked
//! approval that has no decision with `Cancelled{app_shutdown}`, so history never shows a stale
//! "waiting" — only in the app that holds the data folder ([`lock_data_dir`]), so a second
//! launch never closes the approvals the running app is still waiting on.

use crate::sync::MutexExt;
use askfirst_protocol::{
    ApprovalId, CancelCause, Outcome, PolicyLayer, Risk, RunId, SessionPolicy,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub use crate::session_log::{logging_sink, LogWatcher, SessionLog};

/// The data folder's lock and private folders, moved to [`crate::data_dir`]; kept here so
/// `audit::lock_data_dir` and `audit::private_dir_all` keep working.
pub use crate::data_dir::{lock_data_dir, private_dir_all, DataDirLock};

/// Where the person answered an approval, when not on its card in the window (the session
/// log's `answered_on`; JSON: `"notification"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnsweredOn {
    /// A button of the desktop notification that told the request (Deny, or Approve for a
    /// kind the person opted into).
    Notification,
}

/// One line of the audit log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AuditRecord {
    /// The user was asked (written before the card is shown).
    ApprovalAsked {
        /// The approval.
        approval_id: ApprovalId,
        /// Its run.
        run_id: RunId,
        /// The provider's tool-call id.
        tool_call_id: String,
        /// The tool.
        tool_name: String,
        /// The raw arguments, exactly as shown and as they would run.
        arguments_json: String,
        /// Hex SHA-256 of `arguments_json`.
        arguments_sha256: String,
        /// The plain summary shown.
        summary: String,
        /// The risk shown.
        risk: Risk,
        /// Why the user was asked.
        reason: String,
        /// The policy layer that decided to ask.
        policy_layer: PolicyLayer,
        /// What the card said the call would do that matters, one sentence each. Left out
        /// when empty; logs written before it was recorded read as empty.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        effects: Vec<String>,
        /// Unix milliseconds.
        at: u64,
        /// When it would time out, Unix milliseconds.
        expires_at: u64,
    },
    /// A waiting approval got more time (see `AgentEvent::ApprovalExtended`).
    ApprovalExtended {
        /// The approval.
        approval_id: ApprovalId,
        /// Its new expiry, Unix milliseconds.
        expires_at: u64,
        /// Unix milliseconds.
        at: u64,
    },
    /// An approval ended (written before its outcome takes effect).
    ApprovalDecided {
        /// The approval.
        approval_id: ApprovalId,
        /// Its run.
        run_id: RunId,
        /// How it ended.
        outcome: Outcome,
        /// Where the person answered, when not on the card in the window (absent there, and
        /// for an end nobody chose: a timeout, Stop, quitting).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answered_on: Option<AnsweredOn>,
        /// Unix milliseconds.
        at: u64,
    },
    /// The policy decided without asking (allowed or denied).
    PolicyDecided {
        /// The run.
        run_id: RunId,
        /// The provider's tool-call id.
        tool_call_id: String,
        /// The tool.
        tool_name: String,
        /// Hex SHA-256 of the raw arguments.
        arguments_sha256: String,
        /// Whether the call was allowed to run.
        allowed: bool,
        /// The layer that decided.
        policy_layer: PolicyLayer,
        /// Why, in plain words.
        reason: String,
        /// Unix milliseconds.
        at: u64,
    },
    /// The user gave a session grant.
    GrantCreated {
        /// The tool.
        tool_name: String,
        /// The canonical arguments it covers.
        canonical_arguments: String,
        /// Unix milliseconds.
        at: u64,
    },
    /// The user removed a session grant.
    GrantRevoked {
        /// The tool.
        tool_name: String,
        /// The canonical arguments it covered.
        canonical_arguments: String,
        /// Unix milliseconds.
        at: u64,
    },
    /// The person changed the rules file from the settings screen (a change by hand in the
    /// file is not seen, so not recorded). `before` and `after` are the rule's one-line form
    /// (`deny * "Private/**"`): only `after` when added, only `before` when removed.
    RuleChanged {
        /// The rule as it was.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<String>,
        /// The rule as it is now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after: Option<String>,
        /// Unix milliseconds.
        at: u64,
    },
    /// The session policy changed; it applies from the next ask.
    SessionPolicyChanged {
        /// The new policy.
        policy: SessionPolicy,
        /// Unix milliseconds.
        at: u64,
    },
    /// One entry of the conversation with the model (a task, a model turn, a tool result):
    /// what a reopened session continues from.
    Message {
        /// The entry.
        message: crate::provider::Message,
        /// Unix milliseconds.
        at: u64,
    },
    /// Records from `since` until `at` could not be written (a full disk, a read-only folder):
    /// this part of the session's history is missing, and a reopened session says so instead
    /// of presenting what is left as the whole story.
    Unrecorded {
        /// When writing started failing, Unix milliseconds.
        since: u64,
        /// What failed, in plain words.
        problem: String,
        /// When writing worked again, Unix milliseconds.
        at: u64,
    },
    /// One event as the window saw it (streamed text pieces excepted): what a reopened
    /// session's transcript is rebuilt from.
    Event {
        /// The event.
        event: askfirst_protocol::AgentEvent,
        /// Unix milliseconds.
        at: u64,
    },
    /// The folder the session works in from here on (written at its first task and after the
    /// folder changed): a reopened session works there again.
    FolderChosen {
        /// The folder, canonical.
        folder: PathBuf,
        /// Whether it is the demo folder.
        demo: bool,
        /// Unix milliseconds.
        at: u64,
    },
    /// Who does the work in the session from here on: another agent hosted over ACP
    /// ([`crate::acp`]), or, all three absent, Ask First's own agent. A reopened session goes on
    /// with the same agent.
    AgentChosen {
        /// The agent's id (`gemini`, `claude`, …, `custom`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent: Option<String>,
        /// Its name as people know it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The program and arguments it is started with.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<Vec<String>>,
        /// Unix milliseconds.
        at: u64,
    },
    /// What a file tool's call is about to change, kept to undo it ([`crate::undo`]):
    /// written (and synced) after its before-copy and before the change takes effect; a
    /// change whose record cannot be written is not made.
    ChangeSaved {
        /// The change's id (a UUID), what Activity and `undo_change` name it by.
        change_id: String,
        /// The run.
        run_id: RunId,
        /// The provider's tool-call id.
        tool_call_id: String,
        /// The folder it is made in, canonical.
        folder: PathBuf,
        /// That folder's identity (device, inode), checked again at undo time.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        folder_id: Option<(u64, u64)>,
        /// What it changes and what was there before.
        change: crate::undo::Change,
        /// Unix milliseconds.
        at: u64,
    },
    /// The change of a `change_saved` record took effect.
    ChangeApplied {
        /// The change.
        change_id: String,
        /// Hex SHA-256 of the file it left (for a file written or edited), to notice a later
        /// change by someone else.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after_sha256: Option<String>,
        /// Unix milliseconds.
        at: u64,
    },
    /// The person asked to undo a change (written, and synced, before the undo happens).
    UndoRequested {
        /// The change.
        change_id: String,
        /// Unix milliseconds.
        at: u64,
    },
    /// The change was undone.
    UndoDone {
        /// The change.
        change_id: String,
        /// Unix milliseconds.
        at: u64,
    },
    /// Undoing the change failed; it stays as it was.
    UndoFailed {
        /// The change.
        change_id: String,
        /// What went wrong (technical).
        problem: String,
        /// Unix milliseconds.
        at: u64,
    },
}

/// Why a record could not be written.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// The file could not be written (disk full, read-only folder, …).
    #[error("The session log {path} could not be written: {source}")]
    Write {
        /// The log file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
}

/// Where audit records go.
pub trait AuditSink: Send + Sync {
    /// Appends one record and flushes it.
    ///
    /// # Errors
    /// [`AuditError::Write`] when it could not be written; the caller fails closed.
    fn append(&self, record: &AuditRecord) -> Result<(), AuditError>;
}

/// An audit sink that keeps nothing (for tests and tools that need no history).
pub struct NoAudit;

impl AuditSink for NoAudit {
    fn append(&self, _record: &AuditRecord) -> Result<(), AuditError> {
        Ok(())
    }
}

/// A log that could not be opened: every append fails with the same error, so approvals fail
/// closed (nothing is approved that cannot be recorded) while the app keeps working.
pub struct UnavailableLog {
    /// The log file that could not be opened.
    pub path: PathBuf,
    /// Why, as text.
    pub error: String,
}

impl AuditSink for UnavailableLog {
    fn append(&self, _record: &AuditRecord) -> Result<(), AuditError> {
        Err(AuditError::Write {
            path: self.path.clone(),
            source: io::Error::other(self.error.clone()),
        })
    }
}

/// An append-only JSONL file.
pub struct JsonlLog {
    path: PathBuf,
    /// The file, and whether a failed write may have left a torn line at its end.
    file: Mutex<(File, bool)>,
}

impl JsonlLog {
    /// Opens (creating if needed) the log at `path` for appending. If the file ends in a torn
    /// line, a newline is added first so that new records start on a line of their own.
    ///
    /// # Errors
    /// The I/O error of creating the folder or opening the file.
    pub fn open(path: &Path) -> io::Result<Self> {
        if let Some(parent) = path.parent() {
            private_dir_all(parent)?;
        }
        let created = !path.exists();
        let mut options = OpenOptions::new();
        options.create(true).read(true).append(true);
        // What the person asked, what the agent did and what tools said: for their eyes only.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(path)?;
        let len = file.metadata()?.len();
        if len > 0 {
            let mut last = [0u8; 1];
            file.seek(SeekFrom::Start(len - 1))?;
            file.read_exact(&mut last)?;
            if last[0] != b'\n' {
                file.write_all(b"\n")?;
            }
        }
        if created {
            // The new file's name is on the disk too, not only its contents (best effort).
            if let Some(parent) = path.parent() {
                let _ = File::open(parent).and_then(|dir| dir.sync_all());
            }
        }
        Ok(Self {
            path: path.to_owned(),
            file: Mutex::new((file, false)),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl AuditSink for JsonlLog {
    fn append(&self, record: &AuditRecord) -> Result<(), AuditError> {
        let mut line = serde_json::to_vec(record).map_err(|e| AuditError::Write {
            path: self.path.clone(),
            source: io::Error::other(e),
        })?;
        line.push(b'\n');
        let mut guard = self.file.lock_or_recover();
        let (file, torn) = &mut *guard;
        if *torn {
            // Start on a line of our own after a write that failed part-way.
            line.insert(0, b'\n');
        }
        // One write call per record; `File` is unbuffered, so flush is a no-op kept for clarity.
        // A decision is also forced to the disk before its outcome takes effect, so not even a
        // power cut can leave an action done without its record; and a card before it is
        // shown, so that what the run said up to it (every record before) survives a power cut
        // and the run can go on after it ([`crate::sessions::interrupted`]).
        let durable = matches!(
            record,
            AuditRecord::ApprovalDecided { .. }
                | AuditRecord::ApprovalAsked { .. }
                | AuditRecord::PolicyDecided { .. }
                | AuditRecord::ChangeSaved { .. }
                | AuditRecord::UndoRequested { .. }
        );
        let result = file
            .write_all(&line)
            .and_then(|()| file.flush())
            .and_then(|()| if durable { file.sync_data() } else { Ok(()) });
        *torn = result.is_err();
        result.map_err(|source| AuditError::Write {
            path: self.path.clone(),
            source,
        })
    }
}

/// What reading a log found.
#[derive(Debug, Default)]
pub struct LogContents {
    /// The records, in order.
    pub records: Vec<serde_json::Value>,
    /// Lines that could not be read (a torn last line after a crash), with their numbers.
    pub warnings: Vec<String>,
}

/// Reads every record of a JSONL log, skipping (with a warning) lines that are not JSON.
///
/// # Errors
/// The I/O error of reading the file.
pub fn read_log(path: &Path) -> io::Result<LogContents> {
    let mut contents = LogContents::default();
    let reader = BufReader::new(File::open(path)?);
    for (index, line) in reader.split(b'\n').enumerate() {
        let line = line?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<serde_json::Value>(&line) {
            Ok(value) => contents.records.push(value),
            Err(e) => contents.warnings.push(format!(
                "{}: line {} skipped, it is incomplete or damaged ({e})",
                path.display(),
                index + 1
            )),
        }
    }
    Ok(contents)
}

/// Closes every approval that was asked but never decided in the logs under `sessions_dir`
/// (the app died while it waited) with an `approval_decided` record of
/// `Cancelled{app_shutdown}`. Returns how many it closed and the warnings from reading.
///
/// # Errors
/// The I/O error of listing, reading or appending.
pub fn recover_orphans(sessions_dir: &Path) -> io::Result<(usize, Vec<String>)> {
    recover_orphans_listed(sessions_dir).map(|(closed, warnings)| (closed.len(), warnings))
}

/// One approval [`recover_orphans_listed`] closed: it was waiting when the app last closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClosedOrphan {
    /// The log it was asked in.
    pub log: PathBuf,
    /// The approval.
    pub approval_id: ApprovalId,
    /// Its run.
    pub run_id: RunId,
    /// The card's summary, as the `approval_asked` record holds it (text of whoever asked:
    /// unbounded and unchecked here).
    pub summary: String,
    /// When it was asked, Unix milliseconds.
    pub asked_at: u64,
}

/// As [`recover_orphans`], returning what it closed, in the order of the logs' records (the
/// logs in no set order).
///
/// # Errors
/// The I/O error of listing, reading or appending.
pub fn recover_orphans_listed(sessions_dir: &Path) -> io::Result<(Vec<ClosedOrphan>, Vec<String>)> {
    let mut closed = Vec::new();
    let mut warnings = Vec::new();
    let entries = match std::fs::read_dir(sessions_dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((closed, warnings)),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let path = entry?.path();
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let contents = read_log(&path)?;
        warnings.extend(contents.warnings);
        let mut asked: Vec<(ApprovalId, RunId, String, u64)> = Vec::new();
        let mut decided = BTreeSet::new();
        for record in contents.records {
            match serde_json::from_value::<AuditRecord>(record) {
                Ok(AuditRecord::ApprovalAsked {
                    approval_id,
                    run_id,
                    summary,
                    at,
                    ..
                }) => asked.push((approval_id, run_id, summary, at)),
                Ok(AuditRecord::ApprovalDecided { approval_id, .. }) => {
                    decided.insert(approval_id);
                }
                // Other records, and records of kinds this version does not know, are kept as
                // they are.
                Ok(_) | Err(_) => {}
            }
        }
        let orphans: Vec<_> = asked
            .into_iter()
            .filter(|(id, ..)| !decided.contains(id))
            .collect();
        if orphans.is_empty() {
            continue;
        }
        let log = JsonlLog::open(&path)?;
        for (approval_id, run_id, summary, asked_at) in orphans {
            log.append(&AuditRecord::ApprovalDecided {
                answered_on: None,
                approval_id,
                run_id,
                outcome: Outcome::Cancelled {
                    cause: CancelCause::AppShutdown,
                },
                at: crate::unix_millis_now(),
            })
            .map_err(|AuditError::Write { source, .. }| source)?;
            closed.push(ClosedOrphan {
                log: path.clone(),
                approval_id,
                run_id,
                summary,
                asked_at,
            });
        }
    }
    Ok((closed, warnings))
}
