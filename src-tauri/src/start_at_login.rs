//! "Start Ask First when I log in" (Settings): the desktop's autostart entry, written and
//! removed by `tauri-plugin-autostart` (on Linux an XDG autostart file,
//! `~/.config/autostart/Ask First.desktop`: its library, auto-launch 0.6, writes under
//! `$HOME/.config` whatever `XDG_CONFIG_HOME` says). The entry itself is the setting: nothing else
//! keeps it, so what Settings shows is what the desktop will do. Off until the person turns it
//! on. Started that way ([`IN_TRAY`]), Ask First opens with its window minimised, ready for
//! another agent's request, without putting a window in front of the person at every login
//! (minimised, not hidden: on a desktop without a tray it is still in the taskbar).

use askfirst_core::i18n::tr;
use askfirst_protocol::{CommandError, ErrorCode, StartAtLoginRequest};
use tauri::{AppHandle, Runtime};
use tauri_plugin_autostart::ManagerExt;

/// The argument the autostart entry starts Ask First with: the window starts minimised.
pub const IN_TRAY: &str = "--in-tray";

/// Whether this launch came from the autostart entry ([`IN_TRAY`] among `args`).
pub fn started_in_tray(mut args: impl Iterator<Item = String>) -> bool {
    args.any(|arg| arg == IN_TRAY)
}

/// The plugin, with the entry starting Ask First in the tray.
pub fn plugin<R: Runtime>() -> tauri::plugin::TauriPlugin<R> {
    tauri_plugin_autostart::init(
        tauri_plugin_autostart::MacosLauncher::LaunchAgent,
        Some(vec![IN_TRAY]),
    )
}

fn failed(error: impl std::fmt::Display) -> CommandError {
    CommandError {
        code: ErrorCode::Storage,
        message: tr("start_at_login-failed", &[]),
        detail: Some(error.to_string()),
    }
}

/// Whether Ask First starts when the person logs in (the autostart entry is there).
/// JS: `invoke('get_start_at_login')`.
///
/// # Errors
/// `storage` when the entry cannot be read.
#[tauri::command]
pub async fn get_start_at_login<R: Runtime>(app: AppHandle<R>) -> Result<bool, CommandError> {
    app.autolaunch().is_enabled().map_err(failed)
}

/// Writes or removes the autostart entry; returns whether it is there now.
/// JS: `invoke('set_start_at_login', { request: { enabled } })`.
///
/// # Errors
/// `storage` when the entry cannot be written or removed (nothing changed then).
#[tauri::command]
pub async fn set_start_at_login<R: Runtime>(
    app: AppHandle<R>,
    request: StartAtLoginRequest,
) -> Result<bool, CommandError> {
    let autolaunch = app.autolaunch();
    if request.enabled {
        autolaunch.enable().map_err(failed)?;
    } else if autolaunch.is_enabled().map_err(failed)? {
        autolaunch.disable().map_err(failed)?;
    }
    autolaunch.is_enabled().map_err(failed)
}
