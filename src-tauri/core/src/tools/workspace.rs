//! The workspace folder: the only place tools may touch. Paths from the model are relative to
//! it; anything absolute, climbing out with `..`, or resolving outside it through a symlink is
//! refused. Tools check when they describe a call and again right before they run it.

use super::ToolError;
use crate::policy::kept::KeptPlaces;
use std::io;
use std::path::{Component, Path, PathBuf};

/// A folder the agent works in, held by its canonical path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    root: PathBuf,
    /// What `root` was when it was opened (device and inode).
    root_id: Option<crate::identity::FileId>,
    own_data: Option<PathBuf>,
    hidden_from_commands: KeptPlaces,
}

impl Workspace {
    /// Opens `root`, which must exist and be a folder.
    ///
    /// # Errors
    /// The I/O error of resolving `root`, or `InvalidInput` when it is not a folder.
    pub fn open(root: &Path) -> io::Result<Self> {
        let root = std::fs::canonicalize(root)?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a folder", root.display()),
            ));
        }
        Ok(Self {
            root_id: crate::identity::FileId::of(&root),
            root,
            own_data: None,
            hidden_from_commands: KeptPlaces::default(),
        })
    }

    /// Whether the folder is no longer there as it was opened: deleted, moved or renamed away
    /// (its path leads nowhere, or to another folder), or a disk unplugged.
    pub fn is_gone(&self) -> bool {
        crate::identity::FileId::of(&self.root) != self.root_id
    }

    /// The same workspace, knowing where Ask First's own data folder is (settings, rules,
    /// session logs), which no tool may read or change, wherever it lies (inside the
    /// workspace, around it, or elsewhere). A path that cannot be resolved is kept as given.
    pub fn with_own_data(mut self, data_dir: &Path) -> Self {
        self.own_data =
            Some(std::fs::canonicalize(data_dir).unwrap_or_else(|_| data_dir.to_owned()));
        self
    }

    /// The same workspace, with folders or files inside it (canonical paths) that a command
    /// shut in must not see, or must see read-only: what the person's rules keep
    /// ([`crate::policy::Policy::hidden_from_command`]).
    pub fn hiding_from_commands(mut self, places: KeptPlaces) -> Self {
        self.hidden_from_commands = places;
        self
    }

    /// What [`Self::hiding_from_commands`] gave.
    pub fn hidden_from_commands(&self) -> &KeptPlaces {
        &self.hidden_from_commands
    }

    /// Ask First's own data folder (canonical), when it was given with [`Self::with_own_data`].
    pub fn own_data(&self) -> Option<&Path> {
        self.own_data.as_deref()
    }

    /// The canonical path of the folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Resolves a path given by the model to a path inside the workspace.
    ///
    /// `"."` and `""` mean the workspace itself. The deepest existing ancestor is resolved
    /// through symlinks and must stay inside the workspace; the rest is appended as given (it
    /// contains no `..`).
    ///
    /// # Errors
    /// [`ToolError::OutsideWorkspace`] for absolute paths, `..`, or symlinks leading out;
    /// [`ToolError::Said`] when resolving fails for another reason.
    pub fn resolve(&self, relative: &str) -> Result<PathBuf, ToolError> {
        let outside = || ToolError::OutsideWorkspace {
            path: relative.to_owned(),
        };
        let given = Path::new(relative);
        let mut joined = self.root.clone();
        for component in given.components() {
            match component {
                Component::Normal(part) => joined.push(part),
                Component::CurDir => {}
                Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                    return Err(outside())
                }
            }
        }
        // Find the deepest part that exists and resolve it through symlinks.
        let mut existing = joined.as_path();
        let mut rest = Vec::new();
        loop {
            match std::fs::symlink_metadata(existing) {
                Ok(_) => break,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    if let Some(name) = existing.file_name() {
                        rest.push(name.to_owned());
                    }
                    existing = existing.parent().ok_or_else(outside)?;
                }
                Err(e) => return Err(super::files::io_failed("read", relative, &e)),
            }
        }
        let mut resolved = match std::fs::canonicalize(existing) {
            Ok(path) => path,
            // A dangling symlink: refuse rather than guess where it would lead.
            Err(_) => return Err(outside()),
        };
        if !resolved.starts_with(&self.root) {
            return Err(outside());
        }
        for name in rest.into_iter().rev() {
            resolved.push(name);
        }
        Ok(resolved)
    }

    /// `path` relative to the workspace, for messages (`.` for the root itself).
    pub fn display(&self, path: &Path) -> String {
        match path.strip_prefix(&self.root) {
            Ok(p) if p.as_os_str().is_empty() => ".".to_owned(),
            Ok(p) => p.display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }
}
