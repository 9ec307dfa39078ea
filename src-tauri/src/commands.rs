//! The IPC commands the window may call. Each only parses, calls the core and maps errors to
//! a typed [`CommandError`] (`{code, message}`).

use crate::notify::{NotifySetting, NotifyWhen};
use crate::settings::{set_by_environment, Settings};
use askfirst_core::agent::{AgentRuntime, RunError, SessionError};
use askfirst_core::approvals::ApprovalError;
use askfirst_core::config::SettingsFile;
use askfirst_core::history::EventHistory;
use askfirst_protocol::{
    ApprovalRequest, CancelRunRequest, CommandError, ErrorCode, Grant, McpServerView,
    OpenSessionRequest, Outcome, RemoveMcpServerRequest, RemoveRuleRequest, ResolveApprovalRequest,
    RevokeGrantRequest, SaveMcpServerRequest, SaveSettingsRequest, SequencedEvent, SessionId,
    SessionPolicy, SessionSummary, SetSessionPolicyRequest, SettingsView, StartRunRequest,
    StartRunResponse,
};
use std::sync::Arc;
use tauri::State;

fn run_error(error: RunError) -> CommandError {
    let code = match &error {
        RunError::EmptyTask | RunError::Busy => ErrorCode::InvalidRequest,
        RunError::Provider(_) => ErrorCode::Internal,
        _ => ErrorCode::Internal,
    };
    CommandError {
        code,
        message: error.to_string(),
    }
}

fn approval_error(error: ApprovalError) -> CommandError {
    let code = match &error {
        ApprovalError::NotPending(_) => ErrorCode::NotPending,
        ApprovalError::NotGrantable(_) => ErrorCode::InvalidRequest,
        _ => ErrorCode::Internal,
    };
    CommandError {
        code,
        message: error.to_string(),
    }
}

/// Starts a run for the user's task. JS: `invoke('start_run', { request: { task } })`.
///
/// # Errors
/// `invalid_request` for an empty task or while a run goes on; `internal` when the model
/// cannot be set up.
#[tauri::command]
pub fn start_run(
    runtime: State<'_, Arc<AgentRuntime>>,
    request: StartRunRequest,
) -> Result<StartRunResponse, CommandError> {
    runtime.start_run(&request.task).map_err(run_error)
}

/// Answers a pending approval. JS: `invoke('resolve_approval', { request })`.
///
/// # Errors
/// `not_pending` when the approval already ended or never existed; nothing changes then.
#[tauri::command]
pub fn resolve_approval(
    runtime: State<'_, Arc<AgentRuntime>>,
    request: ResolveApprovalRequest,
) -> Result<Outcome, CommandError> {
    runtime
        .resolve_approval(request.approval_id, request.decision)
        .map_err(approval_error)
}

/// The approvals waiting, oldest first, so the window can recover after a load or reload.
#[tauri::command]
pub fn list_pending_approvals(runtime: State<'_, Arc<AgentRuntime>>) -> Vec<ApprovalRequest> {
    runtime.list_pending_approvals()
}

/// Stops a run; stopping one that already ended is a quiet no-op. Returns whether a running
/// run was stopped. JS: `invoke('cancel_run', { request: { run_id } })`.
#[tauri::command]
pub fn cancel_run(runtime: State<'_, Arc<AgentRuntime>>, request: CancelRunRequest) -> bool {
    runtime.cancel_run(request.run_id)
}

/// Every event of this session so far, numbered, so a window that (re)loads can rebuild its
/// transcript; live `run-event`s with a `seq` below the length of this list are already in it.
#[tauri::command]
pub fn list_run_events(history: State<'_, Arc<EventHistory>>) -> Vec<SequencedEvent> {
    history.snapshot()
}

/// The session grants in force ("Allow for this session"), oldest first.
#[tauri::command]
pub fn list_grants(runtime: State<'_, Arc<AgentRuntime>>) -> Vec<Grant> {
    let mut grants = runtime.grants();
    grants.sort_by_key(|g| g.granted_at);
    grants
}

/// Removes a session grant; the same call asks again from then on. Returns whether there was
/// one. JS: `invoke('revoke_grant', { request: { tool_name, canonical_arguments } })`.
#[tauri::command]
pub fn revoke_grant(runtime: State<'_, Arc<AgentRuntime>>, request: RevokeGrantRequest) -> bool {
    runtime.revoke_grant(&request.tool_name, &request.canonical_arguments)
}

/// The session policy: `ask` (the default) or `never` (refuse, without asking, everything that
/// would need an OK).
#[tauri::command]
pub fn get_session_policy(runtime: State<'_, Arc<AgentRuntime>>) -> SessionPolicy {
    runtime.policy().session_policy()
}

/// Changes the session policy (recorded in the session log); it applies from the next
/// decision. Returns the policy now in force.
#[tauri::command]
pub fn set_session_policy(
    runtime: State<'_, Arc<AgentRuntime>>,
    request: SetSessionPolicyRequest,
) -> SessionPolicy {
    runtime.set_session_policy(request.policy);
    runtime.policy().session_policy()
}

fn session_error(error: SessionError) -> CommandError {
    let code = match &error {
        SessionError::Busy => ErrorCode::InvalidRequest,
        _ => ErrorCode::Internal,
    };
    CommandError {
        code,
        message: error.to_string(),
    }
}

/// The kept sessions with at least one task, and the current one, newest first.
#[tauri::command]
pub fn list_sessions(runtime: State<'_, Arc<AgentRuntime>>) -> Vec<SessionSummary> {
    runtime.list_sessions()
}

/// Reopens a past session; its transcript arrives as `run-event`s after a `session_opened`.
///
/// # Errors
/// `invalid_request` while a run goes on; `internal` when the session cannot be read.
#[tauri::command]
pub fn open_session(
    runtime: State<'_, Arc<AgentRuntime>>,
    request: OpenSessionRequest,
) -> Result<(), CommandError> {
    runtime
        .open_session(request.session_id)
        .map_err(session_error)
}

/// Starts a new, empty session.
///
/// # Errors
/// `invalid_request` while a run goes on; `internal` when its log cannot be created.
#[tauri::command]
pub fn new_session(runtime: State<'_, Arc<AgentRuntime>>) -> Result<SessionId, CommandError> {
    runtime.new_session().map_err(session_error)
}

fn env_value(names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|n| std::env::var(n).ok().filter(|v| !v.trim().is_empty()))
}

fn settings_view(
    runtime: &AgentRuntime,
    settings: &Settings,
    notify: &NotifySetting,
) -> SettingsView {
    let loaded = SettingsFile::load(&settings.settings_path());
    let settings_error = loaded.as_ref().err().cloned();
    let file = loaded.unwrap_or_default();
    SettingsView {
        provider: env_value(&["ASKFIRST_PROVIDER"])
            .or(file.provider)
            .unwrap_or_else(|| "demo".into()),
        base_url: env_value(&["OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"])
            .or(file.base_url)
            .unwrap_or_default(),
        model: env_value(&["ASKFIRST_MODEL", "OPENAI_MODEL", "ANTHROPIC_MODEL"])
            .or(file.model)
            .unwrap_or_default(),
        has_api_key: env_value(&["OPENAI_API_KEY", "ANTHROPIC_API_KEY"]).is_some()
            || file.api_key.is_some(),
        approval_timeout_secs: runtime.approvals().timeout().as_secs(),
        notify: notify.get().as_str().to_owned(),
        set_by_environment: set_by_environment(),
        rules_path: settings.data_dir.join("rules.toml").display().to_string(),
        rules: runtime.policy().rules_summary(),
        rules_error: runtime.policy().rules_error().map(|e| e.to_string()),
        workspace: runtime.workspace().root().display().to_string(),
        mcp_servers: mcp_views(runtime, &file.mcp_servers),
        settings_error,
    }
}

/// The MCP servers for the settings screen: the saved settings with the live status of the
/// server of the same name.
fn mcp_views(
    runtime: &AgentRuntime,
    saved: &[askfirst_core::mcp::McpServerConfig],
) -> Vec<McpServerView> {
    use askfirst_core::mcp::McpServerStatus;
    let live = runtime.mcp_statuses();
    saved
        .iter()
        .map(|config| {
            let status = live
                .iter()
                .find(|s| s.name == config.name)
                .map(|s| s.status.clone());
            let (state, status) = match status {
                None => ("not_started", "Starts with the next task.".to_owned()),
                Some(McpServerStatus::NotStarted) => {
                    ("not_started", "Starts when a task needs it.".to_owned())
                }
                Some(McpServerStatus::Starting) => ("starting", "Starting…".to_owned()),
                Some(McpServerStatus::Running { tools }) => (
                    "running",
                    format!(
                        "Running, {} tool{}.",
                        tools.len(),
                        if tools.len() == 1 { "" } else { "s" }
                    ),
                ),
                Some(McpServerStatus::Failed { message }) => ("failed", message),
            };
            McpServerView {
                name: config.name.clone(),
                command_line: shell_words::join(
                    std::iter::once(&config.command).chain(config.args.iter()),
                ),
                env_names: config.env.keys().cloned().collect(),
                trusted: config.trusted,
                state: state.to_owned(),
                status,
            }
        })
        .collect()
}

/// Reads `settings.json` for a change; a file that cannot be read is an `internal` error (so
/// it is never overwritten).
fn load_settings_file(path: &std::path::Path) -> Result<SettingsFile, CommandError> {
    SettingsFile::load(path).map_err(|message| CommandError {
        code: ErrorCode::Internal,
        message,
    })
}

/// Writes `settings.json` (atomically, owner-only); a failure is an `internal` error.
fn save_settings_file(file: &SettingsFile, path: &std::path::Path) -> Result<(), CommandError> {
    file.save(path).map_err(|e| CommandError {
        code: ErrorCode::Internal,
        message: format!("The settings could not be saved to {}: {e}", path.display()),
    })
}

/// Loads the settings file, lets `change` edit its MCP servers, saves it and applies the
/// servers to the next task. Returns the settings now in force.
fn edit_mcp_servers(
    runtime: &AgentRuntime,
    settings: &Settings,
    notify: &NotifySetting,
    change: impl FnOnce(&mut Vec<askfirst_core::mcp::McpServerConfig>) -> Result<(), String>,
) -> Result<SettingsView, CommandError> {
    let path = settings.settings_path();
    let mut file = load_settings_file(&path)?;
    change(&mut file.mcp_servers).map_err(|message| CommandError {
        code: ErrorCode::InvalidRequest,
        message,
    })?;
    save_settings_file(&file, &path)?;
    runtime.set_mcp_servers(file.mcp_servers);
    Ok(settings_view(runtime, settings, notify))
}

/// Adds an MCP server or replaces the one named `previous_name`, saves `settings.json` and
/// applies it to the next task (a server whose settings did not change keeps running).
///
/// # Errors
/// `invalid_request` for a bad name, command line or variable (see [`askfirst_core::mcp::validated_server`]);
/// `internal` when the settings file cannot be read or written (nothing changes then).
#[tauri::command]
pub fn save_mcp_server(
    runtime: State<'_, Arc<AgentRuntime>>,
    settings: State<'_, Arc<Settings>>,
    notify: State<'_, NotifySetting>,
    request: SaveMcpServerRequest,
) -> Result<SettingsView, CommandError> {
    edit_mcp_servers(&runtime, &settings, &notify, |servers| {
        let previous = request.previous_name.clone();
        let config =
            askfirst_core::mcp::validated_server(request, servers).map_err(|e| e.to_string())?;
        match previous.and_then(|p| servers.iter().position(|s| s.name == p)) {
            Some(at) => servers[at] = config,
            None => servers.push(config),
        }
        Ok(())
    })
}

/// Removes an MCP server from `settings.json`; it is stopped and its tools are no longer
/// offered from the next task on.
///
/// # Errors
/// `invalid_request` when no server has that name; `internal` when the settings file cannot
/// be read or written.
#[tauri::command]
pub fn remove_mcp_server(
    runtime: State<'_, Arc<AgentRuntime>>,
    settings: State<'_, Arc<Settings>>,
    notify: State<'_, NotifySetting>,
    request: RemoveMcpServerRequest,
) -> Result<SettingsView, CommandError> {
    edit_mcp_servers(&runtime, &settings, &notify, |servers| {
        let before = servers.len();
        servers.retain(|s| s.name != request.name);
        if servers.len() == before {
            return Err(format!(
                "There is no MCP server named \"{}\".",
                request.name
            ));
        }
        Ok(())
    })
}

/// Removes one rule from the rules file (its comments and other rules stay) and applies the
/// rules at once. Returns the settings now in force.
///
/// # Errors
/// `invalid_request` when no such rule is in the file; `internal` when the file cannot be
/// read or written.
#[tauri::command]
pub fn remove_rule(
    runtime: State<'_, Arc<AgentRuntime>>,
    settings: State<'_, Arc<Settings>>,
    notify: State<'_, NotifySetting>,
    request: RemoveRuleRequest,
) -> Result<SettingsView, CommandError> {
    let path = settings.data_dir.join("rules.toml");
    match askfirst_core::policy::remove_rule(&path, &request.rule) {
        Ok(true) => {}
        Ok(false) => {
            return Err(CommandError {
                code: ErrorCode::InvalidRequest,
                message: format!("The rule {} is not in the rules file.", request.rule),
            })
        }
        Err(error) => {
            return Err(CommandError {
                code: ErrorCode::Internal,
                message: error.to_string(),
            })
        }
    }
    runtime
        .policy()
        .set_rules(askfirst_core::policy::Rules::load(&path));
    Ok(settings_view(&runtime, &settings, &notify))
}

/// The settings for the settings screen (never the API key itself).
#[tauri::command]
pub fn get_settings(
    runtime: State<'_, Arc<AgentRuntime>>,
    settings: State<'_, Arc<Settings>>,
    notify: State<'_, NotifySetting>,
) -> SettingsView {
    settings_view(&runtime, &settings, &notify)
}

/// Saves the settings to `settings.json` (owner-only permissions); they apply to the next task.
/// Returns the settings now in force.
///
/// # Errors
/// `invalid_request` for an unknown provider or a timeout outside 10–3600 s; `internal` when
/// the file cannot be written (nothing is changed then).
#[tauri::command]
pub fn save_settings(
    runtime: State<'_, Arc<AgentRuntime>>,
    settings: State<'_, Arc<Settings>>,
    notify: State<'_, NotifySetting>,
    request: SaveSettingsRequest,
) -> Result<SettingsView, CommandError> {
    let notify_when = NotifyWhen::parse(&request.notify).ok_or_else(|| CommandError {
        code: ErrorCode::InvalidRequest,
        message: "Notifications must be always, unfocused or never.".into(),
    })?;
    let invalid = |message: String| CommandError {
        code: ErrorCode::InvalidRequest,
        message,
    };
    // A provider fixed by the environment is shown, not saved: the file keeps its own.
    let provider_fixed = env_value(&["ASKFIRST_PROVIDER"]).is_some();
    if !provider_fixed
        && !["demo", "openai", "ollama", "anthropic"].contains(&request.provider.as_str())
    {
        return Err(invalid(format!(
            "Unknown provider \"{}\".",
            request.provider
        )));
    }
    if !(10..=3600).contains(&request.approval_timeout_secs) {
        return Err(invalid(
            "The waiting time must be between 10 and 3600 seconds.".into(),
        ));
    }
    let path = settings.settings_path();
    let mut file = load_settings_file(&path)?;
    let nonempty = |s: String| Some(s.trim().to_owned()).filter(|s| !s.is_empty());
    if !provider_fixed {
        file.provider = Some(request.provider);
    }
    file.base_url = nonempty(request.base_url);
    file.model = nonempty(request.model);
    if request.clear_api_key {
        file.api_key = None;
    }
    if let Some(key) = request.api_key.and_then(nonempty) {
        file.api_key = Some(key);
    }
    file.approval_timeout_secs = Some(request.approval_timeout_secs);
    file.notify = Some(notify_when.as_str().to_owned());
    save_settings_file(&file, &path)?;
    if env_value(&["ASKFIRST_APPROVAL_TIMEOUT_SECS"]).is_none() {
        runtime
            .approvals()
            .set_timeout(std::time::Duration::from_secs(
                request.approval_timeout_secs,
            ));
    }
    if env_value(&["ASKFIRST_NOTIFY"]).is_none() {
        notify.set(notify_when);
    }
    Ok(settings_view(&runtime, &settings, &notify))
}
