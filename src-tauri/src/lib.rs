//! The Ask First desktop shell: translates between Tauri and `askfirst-core`.
//!
//! - [`commands`]: the IPC commands the window may call.
//! - [`bridge`]: forwards the core's events to the window, the tray and notifications.
//! - [`notify`], [`tray`], [`window`]: the native parts.
//! - [`settings`]: where the data, the workspace and the provider come from.
//!
//! [`app`] builds everything that works on any Tauri runtime (so tests can use the mock
//! runtime); [`run`] adds the native parts and starts the real app.

pub mod bridge;
pub mod commands;
pub mod notify;
pub mod settings;
pub mod tray;
pub mod window;

use askfirst_core::agent::AgentRuntime;
use askfirst_protocol::AgentEvent;
use std::sync::Arc;
use tauri::{Builder, Manager, RunEvent, Runtime};
use tokio::sync::mpsc::UnboundedReceiver;

/// Registers the commands, the runtime as managed state, and the bridge that forwards
/// `events` (the receiving end of the runtime's event sink) to the window.
pub fn app<R: Runtime>(
    builder: Builder<R>,
    runtime: Arc<AgentRuntime>,
    events: UnboundedReceiver<AgentEvent>,
) -> Builder<R> {
    builder
        .manage(runtime)
        .invoke_handler(tauri::generate_handler![
            commands::start_run,
            commands::resolve_approval,
            commands::list_pending_approvals,
            commands::cancel_run,
        ])
        .setup(move |app| {
            bridge::spawn(app.handle().clone(), events);
            Ok(())
        })
}

/// Starts the desktop app; returns when it quits.
pub fn run() {
    if let Err(error) = try_run() {
        eprintln!("Ask First could not start: {error:#}");
        std::process::exit(1);
    }
}

fn try_run() -> anyhow::Result<()> {
    let settings = settings::Settings::from_env()?;
    let handle = tauri::async_runtime::block_on(async { tokio::runtime::Handle::current() });
    let (runtime, events) = settings.build_runtime(handle)?;
    let autostart = settings.autostart_task.clone();
    let for_exit = Arc::clone(&runtime);
    let tauri_app = app(tauri::Builder::default(), runtime, events)
        .plugin(tauri_plugin_notification::init())
        .setup(move |app| {
            let tray = tray::AppTray::build(app.handle())?;
            app.manage(tray);
            if let Some(task) = autostart {
                let runtime = Arc::clone(app.state::<Arc<AgentRuntime>>().inner());
                if let Err(error) = runtime.start_run(&task) {
                    eprintln!("askfirst: could not start ASKFIRST_TASK: {error}");
                }
            }
            Ok(())
        })
        .build(tauri::generate_context!())?;
    tauri_app.run(move |_app, event| {
        if let RunEvent::Exit = event {
            for_exit.shutdown();
        }
    });
    Ok(())
}
