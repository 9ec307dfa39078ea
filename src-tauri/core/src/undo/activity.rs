//! Activity: the changes the agent made, read from every session log (so it survives
//! restarts), and the person's Undo of one change or a whole task.

use super::apply::{self, Recorded, Simulated};
use super::{words, Before, Change, CommandFile, UndoError, UndoStore, Was};
use crate::audit::{AuditRecord, AuditSink, JsonlLog};
use crate::sync::MutexExt;
use askfirst_protocol::{
    ActivityEntry, ActivityState, AgentEvent, AllowedBy, ApprovalSource, Outcome, PolicyLayer,
    RunId, SessionId, ToolCallStatus, UndoResponse,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The file tools, whose changes are kept to undo.
const FILE_TOOLS: &[&str] = &["write_file", "edit_file", "move_path", "delete_path"];

/// Tools that change nothing on the computer (read-only, or only read the web), left out.
const NOT_CHANGES: &[&str] = &["list_directory", "read_file", "fetch_url"];

/// How many changed files the question before undoing a task names; the rest are counted.
const LOST_NAMED: usize = 5;

/// One tool call of a log, as far as Activity cares.
#[derive(Debug, Clone, Default)]
struct Call {
    tool_name: String,
    summary: String,
    effects: Vec<String>,
    at: u64,
    allowed_by: Option<AllowedBy>,
    finished: Option<ToolCallStatus>,
    change_id: Option<String>,
}

/// One change of a log, with what became of it.
#[derive(Debug, Clone)]
struct Saved {
    recorded: Recorded,
    key: (RunId, String),
    applied: bool,
    undone: bool,
}

/// What one session log says.
#[derive(Default)]
struct SessionLogView {
    /// In the order they were proposed.
    calls: Vec<((RunId, String), Call)>,
    saved: HashMap<String, Saved>,
}

impl SessionLogView {
    fn read(path: &Path) -> Self {
        let mut view = Self::default();
        let Ok(contents) = crate::audit::read_log(path) else {
            return view;
        };
        let mut index: HashMap<(RunId, String), usize> = HashMap::new();
        let mut approvals = HashMap::new();
        let mut call = |view: &mut Self, key: (RunId, String)| -> usize {
            *index.entry(key.clone()).or_insert_with(|| {
                view.calls.push((key, Call::default()));
                view.calls.len() - 1
            })
        };
        for value in contents.records {
            // Records of kinds this version does not know are left out.
            let Ok(record) = serde_json::from_value::<AuditRecord>(value) else {
                continue;
            };
            match record {
                AuditRecord::Event {
                    event:
                        AgentEvent::ToolCallProposed {
                            run_id,
                            tool_call_id,
                            tool_name,
                            summary,
                            ..
                        },
                    at,
                } => {
                    let i = call(&mut view, (run_id, tool_call_id));
                    let c = &mut view.calls[i].1;
                    c.tool_name = tool_name;
                    c.summary = summary;
                    c.at = at;
                }
                AuditRecord::Event {
                    event:
                        AgentEvent::ToolCallFinished {
                            run_id,
                            tool_call_id,
                            status,
                            ..
                        },
                    ..
                } => {
                    let i = call(&mut view, (run_id, tool_call_id));
                    view.calls[i].1.finished = Some(status);
                }
                AuditRecord::ApprovalAsked {
                    approval_id,
                    run_id,
                    tool_call_id,
                    tool_name,
                    summary,
                    effects,
                    ..
                } => {
                    let i = call(&mut view, (run_id, tool_call_id));
                    let c = &mut view.calls[i].1;
                    c.tool_name = tool_name;
                    c.summary = summary;
                    c.effects = effects;
                    approvals.insert(approval_id, i);
                }
                AuditRecord::ApprovalDecided {
                    approval_id,
                    outcome: Outcome::Approved { source, .. },
                    ..
                } => {
                    if let Some(&i) = approvals.get(&approval_id) {
                        view.calls[i].1.allowed_by = Some(match source {
                            ApprovalSource::User => AllowedBy::Person,
                            ApprovalSource::Grant => AllowedBy::Grant,
                        });
                    }
                }
                AuditRecord::PolicyDecided {
                    run_id,
                    tool_call_id,
                    tool_name,
                    allowed: true,
                    policy_layer,
                    ..
                } => {
                    let i = call(&mut view, (run_id, tool_call_id));
                    let c = &mut view.calls[i].1;
                    c.tool_name = tool_name;
                    c.allowed_by = Some(match policy_layer {
                        PolicyLayer::UserRule => AllowedBy::Rule,
                        PolicyLayer::SessionGrant => AllowedBy::Grant,
                        PolicyLayer::HardDenial
                        | PolicyLayer::SessionPolicy
                        | PolicyLayer::ToolDefault => AllowedBy::Default,
                    });
                }
                AuditRecord::ChangeSaved {
                    change_id,
                    run_id,
                    tool_call_id,
                    folder,
                    folder_id,
                    change,
                    at,
                } => {
                    let key = (run_id, tool_call_id);
                    let i = call(&mut view, key.clone());
                    view.calls[i].1.change_id = Some(change_id.clone());
                    view.saved.insert(
                        change_id,
                        Saved {
                            recorded: Recorded {
                                folder,
                                folder_id,
                                change,
                                at,
                                after: None,
                            },
                            key,
                            applied: false,
                            undone: false,
                        },
                    );
                }
                AuditRecord::ChangeApplied {
                    change_id,
                    after_sha256,
                    ..
                } => {
                    if let Some(saved) = view.saved.get_mut(&change_id) {
                        saved.applied = true;
                        saved.recorded.after = after_sha256;
                    }
                }
                AuditRecord::UndoDone { change_id, .. } => {
                    if let Some(saved) = view.saved.get_mut(&change_id) {
                        saved.undone = true;
                    }
                }
                _ => {}
            }
        }
        view
    }

    /// Whether a call belongs in Activity: allowed, and it ran (a file tool: it succeeded).
    fn listed(call: &Call) -> bool {
        if call.allowed_by.is_none() || NOT_CHANGES.contains(&call.tool_name.as_str()) {
            return false;
        }
        match call.finished {
            Some(ToolCallStatus::Succeeded) => true,
            Some(ToolCallStatus::Failed) => !FILE_TOOLS.contains(&call.tool_name.as_str()),
            Some(ToolCallStatus::Denied | ToolCallStatus::Cancelled) | None => false,
        }
    }

    fn state(&self, store: &UndoStore, call: &Call) -> ActivityState {
        let saved = call.change_id.as_ref().and_then(|id| self.saved.get(id));
        match saved {
            Some(saved) if saved.undone => ActivityState::Undone,
            Some(saved) => match &saved.recorded.change {
                Change::Replace {
                    before: Before::Kept { sha256, .. },
                    ..
                } if !store.has(sha256) => ActivityState::TooOld,
                Change::Replace {
                    before: Before::NotKept { size },
                    ..
                } => ActivityState::CannotUndo {
                    why: words::too_large(*size),
                },
                Change::Command { files, .. } => command_state(store, files),
                Change::Replace { .. } | Change::Move { .. } | Change::Trash { .. } => {
                    ActivityState::Done
                }
            },
            None => ActivityState::CannotUndo {
                why: cannot_undo(&call.tool_name),
            },
        }
    }
}

/// The state of a command's change that was not undone: cannot be undone when a file had no
/// copy kept, too old when a copy was cleared, else done (and undoable).
fn command_state(store: &UndoStore, files: &[CommandFile]) -> ActivityState {
    for file in files {
        match &file.before {
            Was::NotKept { size } => {
                return ActivityState::CannotUndo {
                    why: words::too_large(*size),
                }
            }
            Was::File { sha256, .. } if !store.has(sha256) => return ActivityState::TooOld,
            Was::File { .. }
            | Was::Absent
            | Was::SameBytes { .. }
            | Was::Folder { .. }
            | Was::Link { .. }
            | Was::Other => {}
        }
    }
    ActivityState::Done
}

/// Why a call without a before-record cannot be undone.
fn cannot_undo(tool_name: &str) -> String {
    if FILE_TOOLS.contains(&tool_name) {
        words::no_copy()
    } else if tool_name == "run_command" {
        words::command()
    } else {
        words::other_program()
    }
}

/// Activity and Undo over the session logs of one data folder. One undo at a time.
pub struct Activity {
    sessions_dir: PathBuf,
    store: UndoStore,
    busy: Mutex<()>,
}

impl Activity {
    /// Activity over the logs in `sessions_dir`, undoing with the copies in `store`.
    pub fn new(sessions_dir: PathBuf, store: UndoStore) -> Self {
        Self {
            sessions_dir,
            store,
            busy: Mutex::new(()),
        }
    }

    fn log_path(&self, session: SessionId) -> PathBuf {
        self.sessions_dir.join(format!("{session}.jsonl"))
    }

    /// Every change in every conversation, newest first. `title` gives a conversation's
    /// title.
    pub fn list(&self, title: &dyn Fn(SessionId) -> String) -> Vec<ActivityEntry> {
        let mut entries = Vec::new();
        let Ok(dir) = std::fs::read_dir(&self.sessions_dir) else {
            return entries;
        };
        for file in dir.flatten() {
            let path = file.path();
            let Some(session) = path
                .file_stem()
                .and_then(|s| s.to_str())
                .filter(|_| path.extension().is_some_and(|e| e == "jsonl"))
                .and_then(|s| s.parse::<SessionId>().ok())
            else {
                continue;
            };
            let view = SessionLogView::read(&path);
            if view.calls.iter().all(|(_, c)| !SessionLogView::listed(c)) {
                continue;
            }
            let conversation = title(session);
            for ((run_id, tool_call_id), call) in &view.calls {
                if !SessionLogView::listed(call) {
                    continue;
                }
                let saved = call.change_id.as_ref().and_then(|id| view.saved.get(id));
                entries.push(ActivityEntry {
                    id: call
                        .change_id
                        .clone()
                        .unwrap_or_else(|| format!("call:{run_id}:{tool_call_id}")),
                    session_id: session,
                    conversation: conversation.clone(),
                    run_id: *run_id,
                    at: saved.map_or(call.at, |s| s.recorded.at),
                    tool_name: call.tool_name.clone(),
                    summary: call.summary.clone(),
                    effects: call.effects.clone(),
                    paths: saved
                        .map(|s| {
                            s.recorded
                                .change
                                .paths()
                                .into_iter()
                                .map(|p| p.display().to_string())
                                .collect()
                        })
                        .unwrap_or_default(),
                    folder: saved
                        .map(|s| s.recorded.folder.display().to_string())
                        .unwrap_or_default(),
                    allowed_by: call.allowed_by.unwrap_or(AllowedBy::Default),
                    state: view.state(&self.store, call),
                });
            }
        }
        entries.sort_by_key(|e| std::cmp::Reverse(e.at));
        entries
    }

    /// Undoes one change of conversation `session`. Unless `confirmed`, a file changed since
    /// is not touched: the answer says what would be lost.
    ///
    /// # Errors
    /// [`UndoError`]: already undone (a second click), cannot be undone, the folder gone, …
    pub fn undo_change(
        &self,
        session: SessionId,
        id: &str,
        confirmed: bool,
    ) -> Result<UndoResponse, UndoError> {
        let _one_at_a_time = self.busy.lock_or_recover();
        let path = self.log_path(session);
        let view = SessionLogView::read(&path);
        let Some(saved) = view.saved.get(id) else {
            let call = view
                .calls
                .iter()
                .find(|((run, call), _)| format!("call:{run}:{call}") == id);
            return Err(match call {
                Some((_, call)) => UndoError::CannotUndo(cannot_undo(&call.tool_name)),
                None => UndoError::NotFound(id.to_owned()),
            });
        };
        if saved.undone {
            return Err(UndoError::AlreadyUndone);
        }
        let summary = view.summary_of(&saved.key);
        if let Some(what_lost) = apply::check(&self.store, &saved.recorded, &Simulated::new())? {
            if !confirmed {
                return Ok(UndoResponse::Confirm { what_lost });
            }
        }
        self.undo_recorded(&path, id, saved)?;
        Ok(UndoResponse::Done {
            message: words::undone(&summary),
        })
    }

    /// Undoes every change of task `run` in conversation `session`, newest first, stopping
    /// at the first that cannot be undone. Unless `confirmed`, nothing is done when one of
    /// the files changed since: the answer says what would be lost.
    ///
    /// # Errors
    /// [`UndoError::TaskStopped`] (what was undone and where it stopped), or
    /// [`UndoError::AlreadyUndone`] when nothing is left to undo.
    pub fn undo_task(
        &self,
        session: SessionId,
        run: RunId,
        confirmed: bool,
    ) -> Result<UndoResponse, UndoError> {
        let _one_at_a_time = self.busy.lock_or_recover();
        let path = self.log_path(session);
        let view = SessionLogView::read(&path);
        let todo: Vec<&Call> = view
            .calls
            .iter()
            .rev()
            .filter(|((r, _), c)| *r == run && SessionLogView::listed(c))
            .map(|(_, c)| c)
            .filter(|c| {
                c.change_id
                    .as_ref()
                    .and_then(|id| view.saved.get(id))
                    .is_none_or(|s| !s.undone)
            })
            .collect();
        if todo.is_empty() {
            return Err(UndoError::AlreadyUndone);
        }
        if !confirmed {
            let mut simulated = Simulated::new();
            let mut lost = Vec::new();
            for call in &todo {
                let Some(saved) = call.change_id.as_ref().and_then(|id| view.saved.get(id)) else {
                    break;
                };
                match apply::check(&self.store, &saved.recorded, &simulated) {
                    Ok(Some(what)) => lost.push(what),
                    Ok(None) => {}
                    Err(_) => break,
                }
                simulated.extend(apply::left_behind(&saved.recorded));
            }
            // A task of thousands of changes gives a question a person can read: the first
            // few files by name, then how many more.
            if lost.len() > LOST_NAMED {
                let more = lost.len() - LOST_NAMED;
                lost.truncate(LOST_NAMED);
                lost.push(words::changed_since_more(more));
            }
            if !lost.is_empty() {
                return Ok(UndoResponse::Confirm {
                    what_lost: lost.join(" "),
                });
            }
        }
        let total = todo.len();
        for (undone, call) in todo.into_iter().enumerate() {
            let stopped = |why: UndoError| UndoError::TaskStopped {
                undone,
                total,
                summary: call.summary.clone(),
                why: Box::new(why),
            };
            let Some((id, saved)) = call
                .change_id
                .as_ref()
                .and_then(|id| Some((id, view.saved.get(id)?)))
            else {
                return Err(stopped(UndoError::CannotUndo(cannot_undo(&call.tool_name))));
            };
            apply::check(&self.store, &saved.recorded, &Simulated::new()).map_err(stopped)?;
            self.undo_recorded(&path, id, saved).map_err(stopped)?;
        }
        Ok(UndoResponse::Done {
            message: words::task_undone(total),
        })
    }

    /// Records the request, undoes, records how it ended.
    fn undo_recorded(&self, log: &Path, id: &str, saved: &Saved) -> Result<(), UndoError> {
        let log = JsonlLog::open(log).map_err(|e| UndoError::Log(e.to_string()))?;
        log.append(&AuditRecord::UndoRequested {
            change_id: id.to_owned(),
            at: crate::unix_millis_now(),
        })
        .map_err(|e| UndoError::Log(e.to_string()))?;
        match apply::undo(&self.store, &saved.recorded) {
            Ok(()) => log
                .append(&AuditRecord::UndoDone {
                    change_id: id.to_owned(),
                    at: crate::unix_millis_now(),
                })
                // Done on the disk; the next listing would not know. Said, not hidden.
                .map_err(|e| UndoError::Log(e.to_string())),
            Err(error) => {
                let _ = log.append(&AuditRecord::UndoFailed {
                    change_id: id.to_owned(),
                    problem: error.to_string(),
                    at: crate::unix_millis_now(),
                });
                Err(error)
            }
        }
    }
}

impl SessionLogView {
    fn summary_of(&self, key: &(RunId, String)) -> String {
        self.calls
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, c)| c.summary.clone())
            .unwrap_or_default()
    }
}
