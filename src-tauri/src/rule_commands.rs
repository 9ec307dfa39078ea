//! The IPC commands of the rules part of Settings: list the rules as sentences, add one and
//! change one from the form's choices. Like [`crate::commands`], each only parses, calls the
//! core (`App::rules_view`, `add_rule`, `change_rule`) and maps errors to a typed
//! `CommandError`; the file work (an fsync) runs on the blocking pool. These are the window's
//! commands only: no tool of the agent reaches them.

use crate::commands::blocking;
use askfirst_core::app::{App, Coded};
use askfirst_protocol::{AddRuleRequest, ChangeRuleRequest, CommandError, RulesView};
use std::sync::Arc;
use tauri::State;

/// The rules as sentences and the form's choices; reads the rules file again, so a change
/// made by hand shows and applies. JS: `invoke('list_rules')`.
#[tauri::command]
pub async fn list_rules(app: State<'_, Arc<App>>) -> Result<RulesView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || Ok(app.rules_view())).await
}

/// Adds the rule the form describes; it applies from the agent's next action. JS:
/// `invoke('add_rule', { request: { choice } })`.
///
/// # Errors
/// `invalid_request` with a sentence saying what to change (an unknown action, a folder that
/// is not inside the person's folder, the same rule already there); `storage` when the rules
/// file has a mistake or cannot be written (nothing changes then).
#[tauri::command]
pub async fn add_rule(
    app: State<'_, Arc<App>>,
    request: AddRuleRequest,
) -> Result<RulesView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || app.add_rule(&request).map_err(|e| e.to_command_error())).await
}

/// Replaces one rule (named by its one-line form) with the one the form describes. JS:
/// `invoke('change_rule', { request: { rule, choice } })`.
///
/// # Errors
/// As [`add_rule`], and `invalid_request` when the rule is no longer in the file.
#[tauri::command]
pub async fn change_rule(
    app: State<'_, Arc<App>>,
    request: ChangeRuleRequest,
) -> Result<RulesView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || app.change_rule(&request).map_err(|e| e.to_command_error())).await
}
