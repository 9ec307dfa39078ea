//! The person's folder as a setting: which folders may be chosen ([`check_folder`]), choosing
//! one (or the demo folder) for the agent and remembering it in `settings.json`, the folder
//! line of the window ([`SettingsScreen::folder_view`]), and the welcome of the first launch.
//!
//! A folder is refused when the promise "the agent works only in your folder" would mean
//! nothing or would put Ask First itself at risk: the whole computer (`/`), the home folder
//! itself (all of a person's files), Ask First's own data folder (its settings, keys and
//! history), a folder inside it other than the demo folder, a folder that holds it, or a
//! folder on a disk that finds names in any letter case without one identity for them.
//! Folders are compared by what they are on disk (device and inode), not by how their path is
//! spelled.

use super::screen::SettingsScreen;
use crate::agent::{AgentRuntime, FolderChanged, SessionError, SessionFolder};
use crate::i18n::{tr, Arg};
use crate::identity::{is_within, FileId};
use crate::tools::Workspace;
use askfirst_protocol::{ErrorCode, FolderView, WelcomeView};
use std::path::{Path, PathBuf};

/// Why a folder was not taken; nothing changed then.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// The folder does not exist.
    #[error("The folder {0} does not exist. Choose a folder that is there.")]
    Missing(String),
    /// The path is a file, not a folder.
    #[error("That is a file, not a folder: {0}. Choose a folder.")]
    NotAFolder(String),
    /// The folder could not be opened.
    #[error("The folder {path} could not be opened ({reason}). Choose another folder.")]
    Unopenable {
        /// The folder.
        path: String,
        /// What the system said.
        reason: String,
    },
    /// `/`: every file of the computer.
    #[error(
        "That is the whole computer. Choose one folder with the files the agent should work \
         on, such as Documents."
    )]
    WholeComputer,
    /// The home folder itself: every file of the person.
    #[error(
        "That is your whole home folder, with all your files. Choose one folder inside it, \
         such as Documents, for the agent to work in."
    )]
    HomeFolder,
    /// Ask First's data folder, a folder inside it (not the demo) or a folder that holds it.
    #[error(
        "That folder holds Ask First's own files (its settings, keys and history), which the \
         agent must never change. Choose another folder."
    )]
    OwnData,
    /// A folder on a disk that finds names in any letter case without telling Ask First which
    /// spellings are one file ([`crate::identity::spellings_lack_identity`]): rules could not
    /// be kept there.
    #[error(
        "That folder is on a disk that does not tell capital letters from small ones in a way \
         Ask First can check, so your rules could not be kept there. Copy the files to a \
         folder on this computer's own disk, or choose another folder."
    )]
    CaseWithoutIdentity,
    /// The desktop session's runtime folder (`$XDG_RUNTIME_DIR`: the sockets of the keyring,
    /// the session bus, Ask First's inbox), or a folder that holds it.
    #[error(
        "That folder holds your desktop session's private files (where the keyring and other \
         programs listen), which the agent must never reach. Choose another folder."
    )]
    SessionFiles,
    /// The runtime refused the change (a task is running, or the folder is fixed).
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The folder is in force but could not be remembered for the next launch.
    #[error("The folder is used now, but Ask First could not remember it for next time: {0}")]
    NotSaved(String),
}

impl FolderError {
    /// The code the window receives.
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::Missing(_)
            | Self::NotAFolder(_)
            | Self::Unopenable { .. }
            | Self::WholeComputer
            | Self::HomeFolder
            | Self::OwnData
            | Self::CaseWithoutIdentity
            | Self::SessionFiles => ErrorCode::InvalidRequest,
            Self::Session(error) => crate::app::Coded::code(error),
            Self::NotSaved(_) => ErrorCode::Storage,
        }
    }
}

impl crate::app::Worded for FolderError {
    fn message(&self) -> String {
        match self {
            Self::Session(error) => crate::app::Worded::message(error),
            // What the system said goes in the detail.
            Self::Unopenable { path, .. } => tr("folder-unopenable", &[("path", Arg::from(path))]),
            Self::NotSaved(_) => tr("folder-not_saved", &[]),
            // Each of these is a sentence of its own that says what to do.
            Self::Missing(path) => tr("folder-missing", &[("path", Arg::from(path))]),
            Self::NotAFolder(path) => tr("folder-not_a_folder", &[("path", Arg::from(path))]),
            Self::WholeComputer => tr("folder-whole_computer", &[]),
            Self::HomeFolder => tr("folder-home_folder", &[]),
            Self::OwnData => tr("folder-own_data", &[]),
            Self::CaseWithoutIdentity => tr("folder-case_without_identity", &[]),
            Self::SessionFiles => tr("folder-session_files", &[]),
        }
    }

    fn detail(&self) -> Option<String> {
        match self {
            Self::Session(error) => crate::app::Worded::detail(error),
            Self::Unopenable { reason, .. } => Some(reason.clone()),
            Self::NotSaved(why) => Some(why.clone()),
            Self::Missing(_)
            | Self::NotAFolder(_)
            | Self::WholeComputer
            | Self::HomeFolder
            | Self::OwnData
            | Self::CaseWithoutIdentity
            | Self::SessionFiles => None,
        }
    }
}

impl crate::app::Coded for FolderError {
    fn code(&self) -> ErrorCode {
        FolderError::code(self)
    }
}

/// Checks that `path` may be the agent's folder and returns it canonical. `data_dir`: Ask
/// First's data folder; `home`: the person's home folder, if known.
///
/// # Errors
/// [`FolderError`] saying in a sentence why not (see the module's list).
pub fn check_folder(
    path: &Path,
    data_dir: &Path,
    home: Option<&Path>,
) -> Result<PathBuf, FolderError> {
    let shown = path.display().to_string();
    let real = match std::fs::canonicalize(path) {
        Ok(real) => real,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(FolderError::Missing(shown))
        }
        Err(e) => {
            return Err(FolderError::Unopenable {
                path: shown,
                reason: e.to_string(),
            })
        }
    };
    if !real.is_dir() {
        return Err(FolderError::NotAFolder(shown));
    }
    let id = FileId::of(&real);
    if real.parent().is_none() {
        return Err(FolderError::WholeComputer);
    }
    if let (Some(home), Some(id)) = (home.and_then(FileId::of), id) {
        if home == id {
            return Err(FolderError::HomeFolder);
        }
    }
    let demo = FileId::of(&super::settings::demo_folder(data_dir));
    if let Some(data) = FileId::of(data_dir) {
        let is_demo = id.is_some() && id == demo;
        // Inside the data folder (or the data folder itself), except the demo folder.
        if !is_demo && is_within(&real, data) {
            return Err(FolderError::OwnData);
        }
        // Around the data folder: the agent could change it from there.
        if let Some(id) = id {
            if is_within(data_dir, id) {
                return Err(FolderError::OwnData);
            }
        }
    }
    // The desktop's runtime folder inside the chosen one: commands have it hidden, but the
    // agent's file tools could move it out from under its hiding place.
    let runtime = crate::tools::session_bus::SessionBus::of_process()
        .runtime_dir
        .as_deref();
    if let (Some(runtime), Some(id)) = (runtime, id) {
        if is_within(runtime, id) {
            return Err(FolderError::SessionFiles);
        }
    }
    // The folder, and any disk mounted inside it.
    if std::iter::once(real.clone())
        .chain(crate::identity::mounts_inside(&real))
        .any(|folder| crate::identity::spellings_lack_identity(&folder))
    {
        return Err(FolderError::CaseWithoutIdentity);
    }
    Ok(real)
}

/// `path` with the home folder written `~` (`~/Documents/Taxes`), as a person reads it.
pub fn display_path(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|home| path.strip_prefix(home).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~".to_owned(),
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

impl SettingsScreen {
    fn home(&self) -> Option<PathBuf> {
        self.config().env.var("HOME").map(PathBuf::from)
    }

    /// The folder line: the folder of the conversation in the window.
    pub fn folder_view(&self, runtime: &AgentRuntime) -> FolderView {
        let folder = runtime.folder();
        let home = self.home();
        let has_tasks = runtime.has_tasks();
        FolderView {
            path: folder.path().display().to_string(),
            display: display_path(folder.path(), home.as_deref()),
            is_demo: folder.is_demo(),
            set_by_environment: runtime.folder_fixed(),
            missing: matches!(folder, SessionFolder::Gone { .. }),
            change_starts_new_conversation: has_tasks
                && matches!(folder, SessionFolder::Open { .. }),
        }
    }

    /// Makes `path` the agent's folder (see [`AgentRuntime::change_folder`]) and remembers it
    /// in `settings.json` for the next launch. Returns the folder line now.
    ///
    /// # Errors
    /// A [`FolderError`] from [`check_folder`] or the runtime (nothing changes then);
    /// [`FolderError::NotSaved`] when the folder applies but could not be saved.
    pub fn choose_folder(
        &self,
        runtime: &AgentRuntime,
        path: &Path,
    ) -> Result<FolderView, FolderError> {
        let data_dir = &self.config().data_dir;
        let real = check_folder(path, data_dir, self.home().as_deref())?;
        let demo = FileId::of(&real)
            .is_some_and(|id| FileId::of(&super::settings::demo_folder(data_dir)) == Some(id));
        let workspace = Workspace::open(&real)
            .map_err(|e| FolderError::Unopenable {
                path: real.display().to_string(),
                reason: e.to_string(),
            })?
            .with_own_data(data_dir);
        self.apply(runtime, workspace, demo)
    }

    /// Makes the demo folder (made again with its sample files when missing) the agent's
    /// folder, as [`SettingsScreen::choose_folder`].
    ///
    /// # Errors
    /// As [`SettingsScreen::choose_folder`].
    pub fn use_demo_folder(&self, runtime: &AgentRuntime) -> Result<FolderView, FolderError> {
        let data_dir = &self.config().data_dir;
        let demo = super::settings::demo_folder(data_dir);
        match SessionFolder::open(&demo, true, Some(data_dir)) {
            SessionFolder::Open { workspace, .. } => self.apply(runtime, workspace, true),
            SessionFolder::Gone { .. } => Err(FolderError::Unopenable {
                path: demo.display().to_string(),
                reason: "it could not be made".to_owned(),
            }),
        }
    }

    fn apply(
        &self,
        runtime: &AgentRuntime,
        workspace: Workspace,
        demo: bool,
    ) -> Result<FolderView, FolderError> {
        let saved = (!demo).then(|| workspace.root().to_owned());
        match runtime.change_folder(workspace, demo)? {
            FolderChanged::ThisConversation | FolderChanged::NewConversation(_) => {}
        }
        self.edit_file(|file| file.workspace = saved)
            .map_err(|e| FolderError::NotSaved(e.to_string()))?;
        Ok(self.folder_view(runtime))
    }

    /// Whether the welcome is to be shown: not yet finished or skipped, and the folder not
    /// set by `ASKFIRST_WORKSPACE`. A settings file with a mistake shows no welcome (the
    /// settings screen reports the mistake).
    pub fn welcome(&self) -> WelcomeView {
        let done = crate::config::SettingsFile::load(&self.config().settings_path())
            .map(|f| f.welcome_done)
            .unwrap_or(true);
        WelcomeView {
            show: !done && !self.config().workspace_fixed(),
        }
    }

    /// Remembers in `settings.json` that the welcome was finished or skipped.
    ///
    /// # Errors
    /// [`super::SettingsError`] when the file cannot be read or written.
    pub fn finish_welcome(&self) -> Result<WelcomeView, super::SettingsError> {
        self.edit_file(|file| file.welcome_done = true)?;
        Ok(self.welcome())
    }
}
