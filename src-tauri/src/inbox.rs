//! Starts the inbox for other agents (`App::listen_for_other_agents`) when the app starts: its
//! socket in `$XDG_RUNTIME_DIR/askfirst/`, held as managed state until the app quits (the
//! socket is removed then). Without `$XDG_RUNTIME_DIR` there is no inbox, and the hooks of
//! other agents fall back to their own prompts.

use askfirst_core::app::{App, Coded, Listening};
use std::sync::Arc;
use tauri::{AppHandle, Manager, Runtime};

/// The inbox's socket while the app runs.
pub struct InboxSocket(#[allow(dead_code)] Listening);

/// Starts listening, if there is a runtime folder; says on standard error why not otherwise.
pub fn start<R: Runtime>(app: &AppHandle<R>) {
    let Some(backend) = app.try_state::<Arc<App>>() else {
        return;
    };
    let Some(runtime_dir) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) else {
        eprintln!("askfirst: no XDG_RUNTIME_DIR, so other agents cannot ask through Ask First");
        return;
    };
    let handle = tauri::async_runtime::block_on(async { tokio::runtime::Handle::current() });
    match backend.listen_for_other_agents(std::path::Path::new(&runtime_dir), &handle) {
        Ok(listening) => {
            app.manage(InboxSocket(listening));
        }
        Err(error) => eprintln!("askfirst: the inbox for other agents is not open: {error}"),
    }
}

/// The person's home folder (`$HOME`).
fn home() -> Option<std::path::PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(std::path::PathBuf::from)
}

/// Settings → "Other agents on this computer": each agent, whether it is on this computer and
/// whether it asks through Ask First. JS: `invoke('list_other_agents')`.
#[tauri::command(async)]
pub fn list_other_agents() -> Vec<askfirst_protocol::OtherAgentView> {
    App::list_other_agents(home().as_deref())
}

/// Connect: adds Ask First's hook to the agent's user settings (the hook beside this program).
/// JS: `invoke('connect_other_agent', { request: { agent: 'claude-code' } })`.
///
/// # Errors
/// The connect error's command error (`App::connect_other_agent`).
#[tauri::command(async)]
pub fn connect_other_agent(
    request: askfirst_protocol::OtherAgentRequest,
) -> Result<Vec<askfirst_protocol::OtherAgentView>, askfirst_protocol::CommandError> {
    let exe = std::env::current_exe()
        .map_err(|error| askfirst_core::app::internal_error(error.to_string()))?;
    App::connect_other_agent(request.agent, home().as_deref(), &exe)
        .map_err(|error| error.to_command_error())?;
    Ok(list_other_agents())
}

/// Disconnect: removes exactly Ask First's hook entry from the agent's user settings.
/// JS: `invoke('disconnect_other_agent', { request: { agent: 'claude-code' } })`.
///
/// # Errors
/// The connect error's command error (`App::disconnect_other_agent`).
#[tauri::command(async)]
pub fn disconnect_other_agent(
    request: askfirst_protocol::OtherAgentRequest,
) -> Result<Vec<askfirst_protocol::OtherAgentView>, askfirst_protocol::CommandError> {
    App::disconnect_other_agent(request.agent, home().as_deref())
        .map_err(|error| error.to_command_error())?;
    Ok(list_other_agents())
}

/// The other agents' requests that were waiting when Ask First last closed (they stopped
/// waiting then; nothing was allowed): the first 20, newest first, and how many more.
/// JS: `invoke('list_gone_requests')`.
#[tauri::command(async)]
pub fn list_gone_requests(app: tauri::State<'_, Arc<App>>) -> askfirst_protocol::GoneRequestsView {
    app.list_gone_requests()
}

/// Dismiss: takes one of them off the list for good (nothing else changes: its log says
/// already how it ended). Returns the list now.
/// JS: `invoke('dismiss_gone_request', { request: { approval_id } })`.
#[tauri::command(async)]
pub fn dismiss_gone_request(
    app: tauri::State<'_, Arc<App>>,
    request: askfirst_protocol::DismissGoneRequest,
) -> askfirst_protocol::GoneRequestsView {
    app.dismiss_gone_request(request.approval_id)
}
