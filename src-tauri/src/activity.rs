//! The Activity panel's commands: every change the agent made, and the person's Undo of one
//! change or of a whole task. Undo is the person's own action in the window, so it needs no
//! card; the core writes it to the conversation's log (`undo_*` records) and does one undo
//! at a time (`App::undo_change`, `App::undo_task`).

use crate::commands::blocking;
use askfirst_core::app::{App, Coded};
use askfirst_protocol::{
    ActivityEntry, CommandError, UndoChangeRequest, UndoResponse, UndoTaskRequest,
};
use std::sync::Arc;
use tauri::State;

/// Every change in every conversation, newest first. JS: `invoke('list_activity')`.
#[tauri::command]
pub async fn list_activity(app: State<'_, Arc<App>>) -> Result<Vec<ActivityEntry>, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || Ok(app.list_activity())).await
}

/// Undoes one change. JS: `invoke('undo_change', { request: { session_id, id, confirmed } })`.
///
/// # Errors
/// A worded error (`invalid_request` for one that cannot be undone or was already, `storage`
/// when the disk refused, `log_unavailable` when the undo could not be recorded).
#[tauri::command]
pub async fn undo_change(
    request: UndoChangeRequest,
    app: State<'_, Arc<App>>,
) -> Result<UndoResponse, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || app.undo_change(&request).map_err(|e| e.to_command_error())).await
}

/// Undoes a whole task, newest change first. JS:
/// `invoke('undo_task', { request: { session_id, run_id, confirmed } })`.
///
/// # Errors
/// As [`undo_change`]; a task stopped part-way says how far it got.
#[tauri::command]
pub async fn undo_task(
    request: UndoTaskRequest,
    app: State<'_, Arc<App>>,
) -> Result<UndoResponse, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || app.undo_task(&request).map_err(|e| e.to_command_error())).await
}
