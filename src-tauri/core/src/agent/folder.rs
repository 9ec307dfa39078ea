//! The folder each conversation works in. A conversation keeps the folder it was started in
//! (recorded in its log, [`crate::audit::AuditRecord::FolderChosen`]), a reopened one works in
//! its own folder again, and a new one uses the folder chosen last. A run holds the folder it
//! started with to its end, so the folder never changes under a running task.
//!
//! Changing the folder of a conversation that already has tasks starts a new conversation in
//! the new folder: what the model was told, the transcript and every "Allow for this session"
//! belong to one folder, so a grant given in one folder can never apply in another (the
//! grants' arguments are paths relative to the folder). Only a conversation without tasks, or
//! one whose folder is gone, takes the new folder itself (and loses its grants).

use super::{AgentRuntime, SessionError};
use crate::provider::Message;
use crate::sync::MutexExt;
use crate::tools::Workspace;
use askfirst_protocol::SessionId;
use std::path::{Path, PathBuf};

/// The folder of a conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionFolder {
    /// The folder is there; tools work in it.
    Open {
        /// The folder, opened.
        workspace: Workspace,
        /// Whether it is the demo folder (sample files inside the data folder).
        demo: bool,
    },
    /// The folder the conversation worked in is no longer there (moved, deleted, a disk
    /// unplugged): no task starts until another folder is chosen.
    Gone {
        /// Where it was.
        path: PathBuf,
        /// Whether it was the demo folder.
        demo: bool,
    },
}

impl SessionFolder {
    /// Opens `path` (the demo folder is made again, with its sample files, when it is
    /// missing); a folder that cannot be opened is [`SessionFolder::Gone`]. `own_data`: Ask
    /// First's data folder, which tools never touch ([`Workspace::with_own_data`]).
    pub fn open(path: &Path, demo: bool, own_data: Option<&Path>) -> Self {
        if demo {
            if let Err(error) = crate::scripted::ensure_demo_folder(path) {
                eprintln!(
                    "askfirst: the demo folder {} could not be made again: {error}",
                    path.display()
                );
            }
        }
        match Workspace::open(path) {
            Ok(workspace) => Self::Open {
                workspace: match own_data {
                    Some(data) => workspace.with_own_data(data),
                    None => workspace,
                },
                demo,
            },
            Err(_) => Self::Gone {
                path: path.to_owned(),
                demo,
            },
        }
    }

    /// The folder's path (canonical when it is open).
    pub fn path(&self) -> &Path {
        match self {
            Self::Open { workspace, .. } => workspace.root(),
            Self::Gone { path, .. } => path,
        }
    }

    /// Whether it is (or was) the demo folder.
    pub fn is_demo(&self) -> bool {
        match self {
            Self::Open { demo, .. } | Self::Gone { demo, .. } => *demo,
        }
    }

    /// The open folder; `None` when it is gone.
    pub fn workspace(&self) -> Option<&Workspace> {
        match self {
            Self::Open { workspace, .. } => Some(workspace),
            Self::Gone { .. } => None,
        }
    }
}

/// What changing the folder did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FolderChanged {
    /// The conversation in the window (without tasks yet, or whose folder was gone) works in
    /// the new folder.
    ThisConversation,
    /// The conversation had tasks in its own folder, so a new conversation (this id) was
    /// started in the new folder; the old one keeps its folder.
    NewConversation(SessionId),
}

impl AgentRuntime {
    /// The folder of the conversation in the window; [`SessionFolder::Gone`] as soon as it is
    /// no longer there as it was opened ([`Workspace::is_gone`]: deleted, moved, a disk
    /// unplugged), so the window says so and no task starts there.
    pub fn folder(&self) -> SessionFolder {
        let mut session = self.session();
        if let SessionFolder::Open { workspace, demo } = &session.folder {
            if workspace.is_gone() {
                session.folder = SessionFolder::Gone {
                    path: workspace.root().to_owned(),
                    demo: *demo,
                };
            }
        }
        session.folder.clone()
    }

    /// Whether the conversation in the window has tasks (choosing a folder then starts a new
    /// conversation: [`AgentRuntime::change_folder`]).
    pub fn has_tasks(&self) -> bool {
        self.session()
            .conversation
            .iter()
            .any(|m| matches!(m, Message::User { .. }))
    }

    /// Whether the folder is fixed for this launch (by `ASKFIRST_WORKSPACE`): every
    /// conversation, new or reopened, works there and [`AgentRuntime::change_folder`] refuses.
    pub fn folder_fixed(&self) -> bool {
        self.folders.lock_or_recover().fixed
    }

    /// Fixes the folder for the whole launch (see [`AgentRuntime::folder_fixed`]).
    pub fn fix_folder(&self) {
        self.folders.lock_or_recover().fixed = true;
    }

    /// Sets the folder of the conversation in the window and of the conversations started
    /// after it, without the checks of [`AgentRuntime::change_folder`]: for the app's start,
    /// when the folder chosen last time is gone.
    pub fn set_start_folder(&self, folder: SessionFolder) {
        self.folders.lock_or_recover().next = folder.clone();
        let mut session = self.session();
        session.folder = folder;
        session.folder_logged = false;
    }

    /// The folder a new or reopened conversation gets: `recorded` (from its log) unless the
    /// folder is fixed or nothing was recorded; then the folder chosen last, opened again.
    pub(super) fn folder_for(&self, recorded: Option<(PathBuf, bool)>) -> SessionFolder {
        let folders = self.folders.lock_or_recover();
        let (path, demo) = match recorded {
            Some(recorded) if !folders.fixed => recorded,
            Some(_) | None => (folders.next.path().to_owned(), folders.next.is_demo()),
        };
        drop(folders);
        SessionFolder::open(&path, demo, self.config.workspace.own_data())
    }

    /// Makes `workspace` the folder the agent works in from the next task on (and for new
    /// conversations). A conversation with tasks in a folder that is still there goes on
    /// being about that folder: a new conversation is started in the new one. Otherwise the
    /// conversation in the window takes the new folder. Either way no grant carries over.
    ///
    /// # Errors
    /// [`SessionError::FolderFixed`] when `ASKFIRST_WORKSPACE` fixes the folder;
    /// [`SessionError::Busy`] while a task runs (the folder never changes under it).
    pub fn change_folder(
        &self,
        workspace: Workspace,
        demo: bool,
    ) -> Result<FolderChanged, SessionError> {
        if self.folder_fixed() {
            return Err(SessionError::FolderFixed);
        }
        if !self.runs.is_idle() {
            return Err(SessionError::Busy);
        }
        let folder = SessionFolder::Open { workspace, demo };
        self.folders.lock_or_recover().next = folder.clone();
        let keeps_its_folder =
            self.has_tasks() && matches!(self.folder(), SessionFolder::Open { .. });
        if keeps_its_folder {
            return self.new_session().map(FolderChanged::NewConversation);
        }
        {
            let mut session = self.session();
            session.folder = folder;
            session.folder_logged = false;
        }
        self.config.policy.clear_grants();
        Ok(FolderChanged::ThisConversation)
    }
}

/// The folder new conversations use, and whether the environment fixes it.
#[derive(Debug)]
pub(super) struct Folders {
    pub(super) next: SessionFolder,
    pub(super) fixed: bool,
}
