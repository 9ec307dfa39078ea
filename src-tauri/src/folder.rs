//! The person's folder and the welcome: the commands behind the window's folder line
//! ("Working in: ~/Documents/Taxes", "Change…") and the welcome of the first launch.
//!
//! The native folder picker is `tauri-plugin-dialog`'s, opened by [`pick_folder`], a command
//! of ours: the webview has no dialog permission of its own, and the core checks the answer
//! (`askfirst_core::app::folder::check_folder`) before anything uses it.
//!
//! Automation (DESIGN.md §6): `ASKFIRST_TEST_PICK_FOLDER=<path>` answers the picker with
//! `<path>` without showing it (a GTK dialog cannot be clicked by the end-to-end tests);
//! `ASKFIRST_TEST_PICK_FOLDER=-` answers as if the person closed it without choosing.

use crate::commands::blocking;
use crate::commands::SessionSwitch;
use askfirst_core::app::{App, Coded};
use askfirst_protocol::{CommandError, FolderView, PickFolderResponse, WelcomeView};
use std::path::PathBuf;
use std::sync::Arc;
use tauri::{AppHandle, Manager, Runtime, State};

/// The variable that answers the folder picker without showing it (see the module's doc).
pub const TEST_PICK_FOLDER: &str = "ASKFIRST_TEST_PICK_FOLDER";

/// The folder of the conversation in the window. JS: `invoke('get_folder')`.
#[tauri::command]
pub async fn get_folder(app: State<'_, Arc<App>>) -> Result<FolderView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || Ok(app.folder_view())).await
}

/// What the picker answered: a folder, or `None` when it was closed without choosing.
fn ask_picker<R: Runtime>(app: &AppHandle<R>, backend: &App) -> Option<PathBuf> {
    if let Some(answer) = backend.config().env.var(TEST_PICK_FOLDER) {
        return (answer != "-").then(|| PathBuf::from(answer));
    }
    let Some(dialog) = app.try_state::<tauri_plugin_dialog::Dialog<R>>() else {
        eprintln!("askfirst: the folder picker is not available in this build");
        return None;
    };
    let mut picker = dialog
        .file()
        .set_title(askfirst_core::i18n::tr("folder-picker_title", &[]));
    if let Some(window) = app.get_webview_window(crate::window::MAIN) {
        picker = picker.set_parent(&window);
    }
    let current = backend.folder().path;
    if let Some(start) = picker_start(Some(&current), &backend.config().data_dir) {
        picker = picker.set_directory(start);
    }
    picker.blocking_pick_folder()?.into_path().ok()
}

/// Where the folder picker opens: beside the folder in use, unless that is in Ask First's own
/// data folder (the demo folder is), whose files are no business of the person's: then their
/// home folder.
fn picker_start(current: Option<&std::path::Path>, data_dir: &std::path::Path) -> Option<PathBuf> {
    let data_dir = std::fs::canonicalize(data_dir).unwrap_or_else(|_| data_dir.to_owned());
    let beside = current
        .and_then(std::path::Path::parent)
        .map(|parent| std::fs::canonicalize(parent).unwrap_or_else(|_| parent.to_owned()))
        .filter(|parent| !parent.starts_with(&data_dir) && !data_dir.starts_with(parent));
    beside.or_else(dirs::home_dir)
}

/// Opens the native folder picker and makes the chosen folder the agent's (checked by the
/// core; remembered in `settings.json`). JS: `invoke('pick_folder')`. Closing the picker
/// changes nothing (`chosen: false`).
///
/// # Errors
/// `invalid_request` with a sentence for a folder that may not be used (Ask First's own data
/// folder, the home folder itself, `/`, one that is not there) or while the folder is set by
/// `ASKFIRST_WORKSPACE`; `busy` while a task runs; `storage` when it cannot be remembered.
#[tauri::command]
pub async fn pick_folder<R: Runtime>(
    handle: AppHandle<R>,
    app: State<'_, Arc<App>>,
    switch: State<'_, SessionSwitch>,
) -> Result<PickFolderResponse, CommandError> {
    let app = Arc::clone(&app);
    // Say so before showing a picker whose answer could not be used.
    app.check_folder_may_change()
        .map_err(|error| error.to_command_error())?;
    let picked = {
        let (handle, app) = (handle.clone(), Arc::clone(&app));
        blocking(move || Ok(ask_picker(&handle, &app))).await?
    };
    // The session changes only between runs, one change at a time.
    let _switching = switch.lock().await;
    blocking(move || match picked {
        None => Ok(PickFolderResponse {
            folder: app.folder_view(),
            chosen: false,
        }),
        Some(path) => app
            .choose_folder(&path)
            .map(|folder| PickFolderResponse {
                folder,
                chosen: true,
            })
            .map_err(|e| e.to_command_error()),
    })
    .await
}

/// Makes the demo folder (sample files, made again when missing) the agent's folder.
/// JS: `invoke('use_demo_folder')`.
///
/// # Errors
/// As [`pick_folder`].
#[tauri::command]
pub async fn use_demo_folder(
    app: State<'_, Arc<App>>,
    switch: State<'_, SessionSwitch>,
) -> Result<FolderView, CommandError> {
    let app = Arc::clone(&app);
    let _switching = switch.lock().await;
    blocking(move || app.use_demo_folder().map_err(|e| e.to_command_error())).await
}

/// Whether the welcome is to be shown. JS: `invoke('get_welcome')`.
#[tauri::command]
pub async fn get_welcome(app: State<'_, Arc<App>>) -> Result<WelcomeView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || Ok(app.welcome())).await
}

/// Remembers in `settings.json` that the welcome was finished or skipped.
/// JS: `invoke('finish_welcome')`.
///
/// # Errors
/// `storage` when the settings file cannot be read or written.
#[tauri::command]
pub async fn finish_welcome(app: State<'_, Arc<App>>) -> Result<WelcomeView, CommandError> {
    let app = Arc::clone(&app);
    blocking(move || app.finish_welcome().map_err(|e| e.to_command_error())).await
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::picker_start;

    #[test]
    fn the_picker_never_opens_in_ask_first_s_own_data_folder() {
        let home = dirs::home_dir();
        let data = tempfile::tempdir().unwrap();
        let demo = data.path().join("Demo folder");
        std::fs::create_dir_all(&demo).unwrap();
        // The demo folder lies in the data folder: the picker opens in the home folder.
        assert_eq!(picker_start(Some(&demo), data.path()), home);
        // A folder of the person's: beside it.
        let elsewhere = tempfile::tempdir().unwrap();
        let folder = elsewhere.path().join("Invoices");
        std::fs::create_dir_all(&folder).unwrap();
        assert_eq!(
            picker_start(Some(&folder), data.path()),
            Some(std::fs::canonicalize(elsewhere.path()).unwrap())
        );
        // A folder whose parent holds the data folder: not there either.
        let inner = data.path().join("sub");
        assert_eq!(picker_start(Some(&inner.join("x")), &inner), home);
        assert_eq!(picker_start(None, data.path()), home);
    }
}
