//! Build script: generates the Tauri context and the permissions for the app's own commands,
//! so the window's capability can list exactly which commands it may call.

/// Every command the webview may invoke. Keep in sync with `commands.rs` and `tauri.conf.json`.
const COMMANDS: &[&str] = &[
    "start_run",
    "resolve_approval",
    "list_pending_approvals",
    "cancel_run",
    "list_run_events",
    "wait_run_events",
    "list_grants",
    "revoke_grant",
    "get_session_policy",
    "set_session_policy",
    "list_sessions",
    "open_session",
    "new_session",
    "list_workers",
    "choose_worker",
    "get_settings",
    "save_settings",
    "set_notification_approvals",
    "get_start_at_login",
    "set_start_at_login",
    "remove_rule",
    "save_mcp_server",
    "remove_mcp_server",
    "list_rules",
    "add_rule",
    "change_rule",
    "test_connection",
    "find_local_models",
    "get_folder",
    "pick_folder",
    "use_demo_folder",
    "get_welcome",
    "finish_welcome",
    "list_other_agents",
    "connect_other_agent",
    "disconnect_other_agent",
    "list_gone_requests",
    "dismiss_gone_request",
    "list_activity",
    "undo_change",
    "undo_task",
];

fn main() {
    let attributes = tauri_build::Attributes::new()
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(error) = tauri_build::try_build(attributes) {
        panic!("tauri-build failed: {error:#}");
    }
    // The window's and the tray's icon are built in (tauri's generate_context!), which cargo
    // does not know reads them: a changed icon must rebuild the app.
    println!("cargo:rerun-if-changed=icons");
}
