//! The Ask First desktop shell: translates between Tauri and `askfirst-core`.
//!
//! - [`commands`]: the IPC commands the window may call ([`rule_commands`]: the rules part).
//! - [`connection`]: "Test the connection" and the Ollama finder of the settings screen.
//! - [`commands`]: the IPC commands the window may call.
//! - [`folder`]: the person's folder (the native folder picker) and the welcome.
//! - [`bridge`]: forwards the core's events to the window, the tray and notifications.
//! - [`notify`], [`tray`], [`window`]: the native parts; this file connects them (closing the
//!   window hides it, and the first time a notification says so).
//!
//! The backend (settings, providers, the session log, the agent runtime) is assembled by the
//! core and held here as one managed `Arc<askfirst_core::app::App>`; the commands only parse,
//! call it and map errors.
//! - [`stall_probe`]: an opt-in measurement of the GUI thread's stalls (benchmarks only).
//!
//! [`build_app`] builds everything that works on any Tauri runtime (so tests can use the mock
//! runtime); [`run`] adds the native parts and starts the real app.

pub mod activity;
pub mod bridge;
pub mod commands;
pub mod connection;
pub mod folder;
pub mod inbox;
pub mod notify;
pub mod rule_commands;
pub mod stall_probe;
pub mod start_at_login;
pub mod tray;
pub mod window;

use askfirst_core::app::{AppConfig, Environment, StartupError};
use askfirst_protocol::SequencedEvent;
use std::sync::Arc;
use tauri::{App, Builder, Manager, RunEvent, Runtime, Window, WindowEvent};
use tokio::sync::mpsc::UnboundedReceiver;

/// Registers the commands and the backend (`backend`, the one managed `Arc<App>` of the core,
/// which holds the claim on the data folder as long as the app lives) as managed state, builds
/// the app with `context`, and starts the bridge that forwards the backend's `events`. Generic
/// over the runtime so tests can pass `tauri::test::mock_builder()`.
///
/// # Errors
/// Tauri's build error.
pub fn build_app<R: Runtime>(
    builder: Builder<R>,
    backend: Arc<askfirst_core::app::App>,
    events: UnboundedReceiver<SequencedEvent>,
    context: tauri::Context<R>,
) -> tauri::Result<App<R>> {
    // The language chosen in Settings (else the desktop's) for every sentence from here on.
    askfirst_core::i18n::set_language(backend.language());
    let prefs = window::WindowPrefs {
        size_file: backend.config().data_dir.join("window.json"),
    };
    let app = builder
        .plugin(window::language_plugin(askfirst_core::i18n::language()))
        .manage(backend)
        .manage(notify::ServiceCheck::default())
        .manage(commands::SessionSwitch::default())
        .manage(prefs)
        .invoke_handler(tauri::generate_handler![
            commands::start_run,
            commands::resolve_approval,
            commands::list_pending_approvals,
            commands::cancel_run,
            commands::list_run_events,
            commands::wait_run_events,
            commands::list_grants,
            commands::revoke_grant,
            commands::get_session_policy,
            commands::set_session_policy,
            commands::list_sessions,
            commands::open_session,
            commands::new_session,
            commands::list_workers,
            commands::choose_worker,
            commands::get_settings,
            commands::save_settings,
            commands::set_notification_approvals,
            start_at_login::get_start_at_login,
            start_at_login::set_start_at_login,
            commands::remove_rule,
            commands::save_mcp_server,
            commands::remove_mcp_server,
            rule_commands::list_rules,
            rule_commands::add_rule,
            rule_commands::change_rule,
            connection::test_connection,
            connection::find_local_models,
            folder::get_folder,
            folder::pick_folder,
            folder::use_demo_folder,
            folder::get_welcome,
            folder::finish_welcome,
            inbox::list_other_agents,
            inbox::connect_other_agent,
            inbox::disconnect_other_agent,
            inbox::list_gone_requests,
            inbox::dismiss_gone_request,
            activity::list_activity,
            activity::undo_change,
            activity::undo_task,
        ])
        .build(context)?;
    #[cfg(target_os = "linux")]
    app.manage(notify::Shown::default());
    bridge::spawn(app.handle().clone(), events);
    Ok(app)
}

/// Lets glibc's allocator keep at most [`HEAP_ARENAS`] arenas in this process, before any other
/// thread starts.
///
/// By default glibc gives threads that allocate at once arenas of their own (up to 8 per core),
/// and each keeps what it freed half-used: over 500 approvals in one instance the app process
/// grew by ~4.5 kB per approval with the default and ~2.0 kB with two arenas, in two pairs of
/// soaks, with the same round trips (BENCHMARKS.md, "The app process: where its growth is").
/// The app's threads (async workers, the GUI thread, WebKit's and GLib's) allocate little, so
/// two arenas are not a point of contention. Only this process: WebKit's own processes keep
/// their defaults. Elsewhere (another C library, another system) there is nothing to do.
fn limit_heap_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: `mallopt` sets one of the allocator's tunables and takes no pointers; it is
    // called first thing in `try_run`, before this process starts any thread of its own.
    unsafe {
        let _ = libc::mallopt(libc::M_ARENA_MAX, HEAP_ARENAS);
    }
}

/// The most heap arenas glibc keeps in the app process ([`limit_heap_arenas`]).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HEAP_ARENAS: libc::c_int = 2;

/// Runs a start-up job with the app facade on a blocking thread, under the session-switch guard
/// the commands that open sessions and start runs take (so none of them runs meanwhile).
fn behind_switch<R: Runtime>(
    handle: &tauri::AppHandle<R>,
    job: impl FnOnce(Arc<askfirst_core::app::App>) + Send + 'static,
) {
    let handle = handle.clone();
    tauri::async_runtime::spawn(async move {
        let switch = handle.state::<commands::SessionSwitch>();
        let _switching = switch.lock().await;
        let backend = Arc::clone(handle.state::<Arc<askfirst_core::app::App>>().inner());
        if let Err(error) = tauri::async_runtime::spawn_blocking(move || job(backend)).await {
            eprintln!("askfirst: a start-up job stopped unexpectedly: {error}");
        }
    });
}

/// Starts the desktop app; returns when it quits. When it cannot start, says why in a plain
/// sentence (with the technical detail after it) and exits with status 1.
pub fn run() {
    if let Err(error) = try_run() {
        eprintln!("{}", startup_failure(&error));
        std::process::exit(1);
    }
}

/// What a failed start says: the person's sentence, then the detail (a [`StartupError`]'s own,
/// or the whole chain of another error).
fn startup_failure(error: &anyhow::Error) -> String {
    use askfirst_core::app::Worded;
    use askfirst_core::i18n::{tr, Arg};
    let (message, detail) = match error.downcast_ref::<StartupError>() {
        Some(startup) => (startup.message(), startup.detail()),
        None => (
            askfirst_core::app::codes::internal_failure(),
            Some(format!("{error:#}")),
        ),
    };
    let said = tr("startup-failed", &[("message", Arg::from(message))]);
    match detail {
        Some(detail) => format!(
            "{said}\n\n{}",
            tr("startup-details", &[("detail", Arg::from(detail))])
        ),
        None => said,
    }
}

fn try_run() -> anyhow::Result<()> {
    limit_heap_arenas();
    // The desktop's language until the settings are read (then the one chosen in Settings).
    askfirst_core::i18n::set_language(askfirst_core::app::settings::desktop_language(
        &Environment::process(),
    ));
    // The name desktop services show for the app (the tray item's title falls back to it),
    // rather than the executable's name.
    #[cfg(target_os = "linux")]
    gio::glib::set_application_name("Ask First");
    let config =
        AppConfig::resolve(Environment::process(), dirs::data_dir()).map_err(StartupError::from)?;
    let context = tauri::generate_context!();
    // Only one Ask First per data folder. Checked before anything touches the folder: the
    // second launch must not close the running one's waiting approvals, nor leave an empty
    // session behind.
    let lock = askfirst_core::app::App::claim_data_dir(&config.data_dir);
    if matches!(lock, Ok(None)) {
        // The single-instance plugin brings the running window forward and ends this process;
        // it returns only when it could not reach the other one (e.g. no session bus).
        let _ = tauri::Builder::default()
            .plugin(tauri_plugin_single_instance::init(|_, _, _| {}))
            .build(context);
        return Err(StartupError::AlreadyRunning {
            data_dir: config.data_dir,
        }
        .into());
    }
    let handle = tauri::async_runtime::block_on(async { tokio::runtime::Handle::current() });
    let autostart = config.autostart_task.clone();
    let (backend, events) =
        askfirst_core::app::App::build_with(config, handle, lock).map_err(StartupError::from)?;
    let backend = Arc::new(backend);
    let for_exit = Arc::clone(&backend);
    let for_keys = Arc::clone(&backend);
    let builder = tauri::Builder::default()
        // A second launch brings the running window forward instead of starting another app
        // (the data folder lock above already kept it from touching the folder).
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            window::show_main(app);
        }))
        .plugin(tauri_plugin_notification::init())
        // The folder picker, opened by our `pick_folder` command only (no dialog permission
        // for the webview).
        .plugin(tauri_plugin_dialog::init())
        // "Start Ask First when I log in": the autostart entry, through our own commands only
        // (no autostart permission for the webview).
        .plugin(start_at_login::plugin())
        .on_window_event(on_window_event)
        .setup(move |app| {
            stall_probe::start_if_asked(app.handle());
            window::tune_webview(app.handle());
            window::restore_size(app.handle());
            tray::check_host_in_background();
            let tray = tray::AppTray::build(app.handle())?;
            app.manage(tray);
            inbox::start(app.handle());
            if start_at_login::started_in_tray(std::env::args()) {
                if let Some(main) = app.get_webview_window(window::MAIN) {
                    let _ = main.minimize();
                }
            }
            match autostart {
                // Off the GUI thread like the `start_run` command (the run's setup reads the
                // rules and settings files).
                Some(task) => behind_switch(app.handle(), move |backend| {
                    if let Err(error) = backend.start_run(&task) {
                        eprintln!("askfirst: could not start ASKFIRST_TASK: {error}");
                    }
                }),
                // A task Ask First was closed (or killed) in the middle of goes on where it
                // was: its conversation opens, and what waited is asked about again.
                None => behind_switch(app.handle(), |backend| {
                    if let Some(session) = backend.resume_interrupted() {
                        eprintln!("askfirst: went on with the task of session {session}");
                    }
                }),
            }
            Ok(())
        });
    let tauri_app = build_app(builder, backend, events, context)
        .map_err(|error| StartupError::Window(error.to_string()))?;
    window::before_webviews();
    find_key_store(for_keys);
    tauri_app.run(move |_app, event| {
        if let RunEvent::Exit = event {
            for_exit.shutdown();
            // Let a file write that was running finish and its end be recorded.
            if !for_exit.wait_for_runs(std::time::Duration::from_secs(10)) {
                eprintln!("askfirst: a task was still ending after 10 s when Ask First closed");
            }
            // The events queued for the session log are written before the process ends.
            for_exit.flush();
        }
    });
    Ok(())
}

/// Finds where API keys are kept ([`askfirst_core::app::KeyStore::find`]: a `bwrap` run and a
/// D-Bus call that may start the keyring's service) on a thread of its own while the window
/// opens, instead of before it; whatever needs the answer first waits for it. Called once GTK
/// has started (the app is built): GTK's start unsets variables of the environment, which the
/// keyring's client reads, and nothing changes the environment after it.
fn find_key_store(backend: Arc<askfirst_core::app::App>) {
    let started = std::thread::Builder::new()
        .name("askfirst-keys".into())
        .spawn(move || {
            backend.keys().find();
        });
    if let Err(error) = started {
        // Found on first need instead.
        eprintln!("askfirst: no thread to find where API keys are kept: {error}");
    }
}

/// Closing the main window hides it (or minimises it without a tray), and the first time a
/// notification says Ask First is still running. Whenever the window goes out of sight
/// (hidden, minimised), what already waits is told by a notification
/// ([`notify::remind_waiting`]): the person may close the window with a card in it.
fn on_window_event<R: Runtime>(window: &Window<R>, event: &WindowEvent) {
    if let WindowEvent::Focused(false) = event {
        // Minimising takes the focus away; the window says whether it was minimised.
        if window.label() == window::MAIN && window.is_minimized().unwrap_or(false) {
            notify::remind_waiting(window.app_handle());
        }
        return;
    }
    if let WindowEvent::CloseRequested { api, .. } = event {
        if window.label() != window::MAIN {
            return;
        }
        api.prevent_close();
        let tray_shown = tray::host_seen().unwrap_or(true);
        // Look again for next time (a panel may have started or stopped).
        tray::check_host_in_background();
        match window::on_close_requested(window, tray_shown) {
            window::Closed::Hidden { first } => {
                if first {
                    notify::still_running(window.app_handle());
                }
                notify::remind_waiting(window.app_handle());
            }
            window::Closed::Minimised => notify::remind_waiting(window.app_handle()),
            window::Closed::NotMain => {}
        }
    }
}
