//! The main window: bringing it back from the tray or a notification.

use std::sync::atomic::{AtomicBool, Ordering};
use tauri::{AppHandle, Manager, Runtime, Window, WindowEvent};

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
/// and notifications. The first time, a notification says so. "Quit" in the tray quits.
pub fn on_window_event<R: Runtime>(window: &Window<R>, event: &WindowEvent) {
    if let WindowEvent::CloseRequested { api, .. } = event {
        if window.label() == MAIN {
            api.prevent_close();
            let _ = window.hide();
            if !HIDDEN_BEFORE.swap(true, Ordering::SeqCst) {
                crate::notify::still_running(window.app_handle());
            }
        }
    }
}
