//! The main window: bringing it back from the tray or a notification, what closing it does,
//! and its remembered size. Depends only on tauri: the caller says whether a tray is shown and
//! acts on what happened ([`Closed`]). Quitting from the window itself is the window's Quit
//! button (it destroys the window, and the app ends with its last window).

use askfirst_protocol::event_names::CLOSE_KEPT;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use tauri::{AppHandle, Emitter, LogicalSize, Manager, Runtime, Window};

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

/// The window's preferences as managed state: where its size is remembered.
#[derive(Debug, Clone)]
pub struct WindowPrefs {
    /// `<data dir>/window.json`.
    pub size_file: PathBuf,
}

/// What closing the main window did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closed {
    /// It was hidden (it lives on in the tray); `first` in this launch (the caller explains it
    /// once).
    Hidden {
        /// Whether it is the first time in this launch.
        first: bool,
    },
    /// It was minimised, because no tray is there to bring it back from.
    Minimised,
    /// Not the main window: nothing was done.
    NotMain,
}

/// Whether the window was already hidden once in this launch (the first time is explained).
static HIDDEN_BEFORE: AtomicBool = AtomicBool::new(false);

/// Closing the main window hides it instead: runs go on and approvals still arrive in the tray
/// and notifications. With no tray to bring it back from (`tray_shown` false: no tray host on
/// the bus, or no bus), it is minimised instead, so it can still be found in the taskbar, and
/// the window is told ([`CLOSE_KEPT`]) so that it says why and points to its Quit button. The
/// caller has already prevented the close. "Quit" in the tray or the window quits.
pub fn on_close_requested<R: Runtime>(window: &Window<R>, tray_shown: bool) -> Closed {
    if window.label() != MAIN {
        return Closed::NotMain;
    }
    save_size(window.app_handle());
    if !tray_shown {
        let _ = window.minimize();
        let _ = window.emit(CLOSE_KEPT, ());
        return Closed::Minimised;
    }
    let _ = window.hide();
    Closed::Hidden {
        first: !HIDDEN_BEFORE.swap(true, Ordering::SeqCst),
    }
}

fn size_file<R: Runtime>(app: &AppHandle<R>) -> Option<PathBuf> {
    app.try_state::<WindowPrefs>().map(|p| p.size_file.clone())
}

/// Remembers the main window's size (logical pixels) in [`WindowPrefs::size_file`].
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
