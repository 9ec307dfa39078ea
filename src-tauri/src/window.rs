//! The main window: bringing it back from the tray or a notification.

use tauri::{AppHandle, Manager, Runtime};

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
