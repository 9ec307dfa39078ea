//! The main window: bringing it back from the tray or a notification.

use std::sync::atomic::{AtomicBool, Ordering};
use tauri::{AppHandle, LogicalSize, Manager, Runtime, Window, WindowEvent};

/// The main window's label (tauri.conf.json).
pub const MAIN: &str = "main";

/// Shows, un-minimises and focuses the main window.
pub fn show_main<R: Runtime>(app: &AppHandle<R>) {
    if let Some(window) = app.get_webview_window(MAIN) {
        let _ = window.show();
        let _ = window.unminimize();
        let _ = window.set_focus();
    }
}

/// Whether the window was already hidden once in this launch (the first time is explained).
static HIDDEN_BEFORE: AtomicBool = AtomicBool::new(false);

/// Closing the main window hides it instead: runs go on and approvals still arrive in the tray
/// and notifications. The first time, a notification says so. "Quit" in the tray quits. With
/// no tray to bring it back from (no tray host on the bus, or no bus), it is minimised instead,
/// so it can still be found in the taskbar.
pub fn on_window_event<R: Runtime>(window: &Window<R>, event: &WindowEvent) {
    if let WindowEvent::CloseRequested { api, .. } = event {
        if window.label() == MAIN {
            save_size(window.app_handle());
            api.prevent_close();
            let tray_shown = crate::tray::host_seen().unwrap_or(true);
            // Look again for next time (a panel may have started or stopped).
            crate::tray::check_host_in_background();
            if !tray_shown {
                let _ = window.minimize();
                return;
            }
            let _ = window.hide();
            if !HIDDEN_BEFORE.swap(true, Ordering::SeqCst) {
                crate::notify::still_running(window.app_handle());
            }
        }
    }
}

fn size_file<R: Runtime>(app: &AppHandle<R>) -> Option<std::path::PathBuf> {
    app.try_state::<std::sync::Arc<crate::settings::Settings>>()
        .map(|s| s.data_dir.join("window.json"))
}

/// Remembers the main window's size (logical pixels) in `<data dir>/window.json`.
pub fn save_size<R: Runtime>(app: &AppHandle<R>) {
    let (Some(path), Some(window)) = (size_file(app), app.get_webview_window(MAIN)) else {
        return;
    };
    let (Ok(size), Ok(scale)) = (window.inner_size(), window.scale_factor()) else {
        return;
    };
    let logical = size.to_logical::<f64>(scale);
    let text = serde_json::json!({"width": logical.width, "height": logical.height}).to_string();
    if let Err(error) = std::fs::write(&path, text) {
        eprintln!("askfirst: could not remember the window size: {error}");
    }
}

/// Gives the main window the size it had last time, if it was remembered and is sensible.
pub fn restore_size<R: Runtime>(app: &AppHandle<R>) {
    let (Some(path), Some(window)) = (size_file(app), app.get_webview_window(MAIN)) else {
        return;
    };
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
        return;
    };
    let (Some(width), Some(height)) = (value["width"].as_f64(), value["height"].as_f64()) else {
        return;
    };
    if (560.0..=10_000.0).contains(&width) && (480.0..=10_000.0).contains(&height) {
        let _ = window.set_size(LogicalSize::new(width, height));
    }
}
