//! The Activity panel's commands: every change the agent made, and the person's Undo of one
//! change or of a whole task. Undo is the person's own action in the window, so it needs no
//! card; the core writes it to the conversation's log (`undo_*` records) and does one undo
//! at a time (`askfirst_core::undo::Activity`).

use crate::commands::blocking;
use askfirst_core::agent::AgentRuntime;
use askfirst_core::app::Coded;
use askfirst_core::undo::Activity;
use askfirst_protocol::{
    ActivityEntry, CommandError, UndoChangeRequest, UndoResponse, UndoTaskRequest,
};
use std::collections::HashMap;
use std::sync::Arc;
use tauri::State;

/// Every change in every conversation, newest first. JS: `invoke('list_activity')`.
#[tauri::command]
pub async fn list_activity(
    runtime: State<'_, Arc<AgentRuntime>>,
    activity: State<'_, Arc<Activity>>,
) -> Result<Vec<ActivityEntry>, CommandError> {
    let (runtime, activity) = (Arc::clone(&runtime), Arc::clone(&activity));
    blocking(move || {
        let titles: HashMap<_, _> = runtime
            .list_sessions()
            .into_iter()
            .map(|s| (s.session_id, s.title))
            .collect();
        Ok(activity.list(&|id| titles.get(&id).cloned().unwrap_or_default()))
    })
    .await
}

/// Undoes one change. JS: `invoke('undo_change', { request: { session_id, id, confirmed } })`.
///
/// # Errors
/// A worded error (`invalid_request` for one that cannot be undone or was already, `storage`
/// when the disk refused, `log_unavailable` when the undo could not be recorded).
#[tauri::command]
pub async fn undo_change(
    request: UndoChangeRequest,
    activity: State<'_, Arc<Activity>>,
) -> Result<UndoResponse, CommandError> {
    let activity = Arc::clone(&activity);
    blocking(move || {
        activity
            .undo_change(request.session_id, &request.id, request.confirmed)
            .map_err(|e| e.to_command_error())
    })
    .await
}

/// Undoes a whole task, newest change first. JS:
/// `invoke('undo_task', { request: { session_id, run_id, confirmed } })`.
///
/// # Errors
/// As [`undo_change`]; a task stopped part-way says how far it got.
#[tauri::command]
pub async fn undo_task(
    request: UndoTaskRequest,
    activity: State<'_, Arc<Activity>>,
) -> Result<UndoResponse, CommandError> {
    let activity = Arc::clone(&activity);
    blocking(move || {
        activity
            .undo_task(request.session_id, request.run_id, request.confirmed)
            .map_err(|e| e.to_command_error())
    })
    .await
}
