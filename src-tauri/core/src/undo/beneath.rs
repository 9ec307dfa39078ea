//! Reaching the item a change touched, for Undo, without ever following a link.
//!
//! Between the agent's change and the person's Undo, anything the agent can run (an approved
//! command) may have replaced a folder on the way with a link — to another place inside the
//! person's folder that their deny rule keeps from the agent, say — or the item itself with a
//! link or a named pipe. cap-std alone keeps Undo inside the folder, but it follows links that
//! stay inside, so Undo would write, trash or take out an item elsewhere. Here each folder on
//! the way is looked at with `lstat` (which never follows a link), opened, and checked by its
//! identity (device and inode) to be the very folder `lstat` saw, one name at a time; the item
//! itself is then acted on by its name in the folder that holds it (`rename`, `unlink`,
//! `rmdir` and `lstat` never follow a last link), and read only when `lstat` says it is an
//! ordinary file, opened with `O_NONBLOCK` and checked again on the open handle.

use super::UndoError;
use cap_std::fs::{Dir, MetadataExt as _};
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

/// The folder that holds an item, opened, and the item's name in it.
pub(crate) struct Holder {
    /// The folder that holds the item.
    pub dir: Dir,
    /// The item's name in it.
    pub name: OsString,
}

impl Holder {
    /// Whether anything (a file, a folder, a link, a pipe) is at the item's place.
    pub fn exists(&self) -> bool {
        self.dir.symlink_metadata(&self.name).is_ok()
    }
}

/// What is at an item's place now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Now {
    /// Nothing.
    Absent,
    /// An ordinary file with these bytes (hex SHA-256).
    File(String),
    /// Something else: a folder, a link, a named pipe, a device, or a file that could not be
    /// read.
    Other,
}

impl Now {
    /// As a [`super::apply::Simulated`] state compares: `None` for nothing, the hash of an
    /// ordinary file, and for anything else a value no hash equals.
    pub fn as_state(&self) -> Option<String> {
        match self {
            Now::Absent => None,
            Now::File(sha256) => Some(sha256.clone()),
            Now::Other => Some("not an ordinary file".to_owned()),
        }
    }
}

fn failed(e: &io::Error) -> UndoError {
    UndoError::Failed(e.to_string())
}

/// Opens the folder that holds `rel` beneath `root`, one name at a time, never through a link.
/// `Ok(None)`: a folder on the way is missing (and `create` was not asked). With `create`,
/// missing folders on the way are made.
///
/// # Errors
/// [`UndoError::NotAFolder`] naming the first folder on the way that is a link or not a folder
/// (relative to the folder); [`UndoError::Failed`] when the disk fails or `rel` is not a plain
/// relative path.
pub(crate) fn holder(root: &Dir, rel: &Path, create: bool) -> Result<Option<Holder>, UndoError> {
    let mut names = Vec::new();
    for component in rel.components() {
        match component {
            Component::Normal(name) => names.push(name.to_owned()),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                return Err(UndoError::Failed(format!(
                    "{} is not a path inside the folder",
                    rel.display()
                )))
            }
        }
    }
    let Some(name) = names.pop() else {
        return Err(UndoError::Failed("an empty path".to_owned()));
    };
    let mut dir = root.try_clone().map_err(|e| failed(&e))?;
    let mut walked = PathBuf::new();
    for folder in names {
        walked.push(&folder);
        let seen = match dir.symlink_metadata(&folder) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound && create => {
                match dir.create_dir(&folder) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(e) => return Err(failed(&e)),
                }
                dir.symlink_metadata(&folder).map_err(|e| failed(&e))?
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(failed(&e)),
        };
        if seen.file_type().is_symlink() || !seen.is_dir() {
            return Err(UndoError::NotAFolder(walked));
        }
        let opened = match dir.open_dir(&folder) {
            Ok(opened) => opened,
            // Swapped for a link leading out of the folder since the look.
            Err(_) => return Err(UndoError::NotAFolder(walked)),
        };
        let now = opened.dir_metadata().map_err(|e| failed(&e))?;
        // Swapped for a link (or another folder) between the look and the open.
        if (now.dev(), now.ino()) != (seen.dev(), seen.ino()) {
            return Err(UndoError::NotAFolder(walked));
        }
        dir = opened;
    }
    Ok(Some(Holder { dir, name }))
}

/// What is at `rel` beneath `root` now, read without following a link or waiting on a pipe.
///
/// # Errors
/// As [`holder`].
pub(crate) fn now_at(root: &Dir, rel: &Path) -> Result<Now, UndoError> {
    let Some(holder) = holder(root, rel, false)? else {
        return Ok(Now::Absent);
    };
    Ok(read_now(&holder))
}

fn read_now(holder: &Holder) -> Now {
    let seen = match holder.dir.symlink_metadata(&holder.name) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Now::Absent,
        Err(_) => return Now::Other,
    };
    if !seen.is_file() {
        return Now::Other;
    }
    let mut options = cap_std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use cap_std::fs::OpenOptionsExt as _;
        options.custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits());
    }
    let Ok(file) = holder.dir.open_with(&holder.name, &options) else {
        return Now::Other;
    };
    let mut file = file.into_std();
    match file.metadata() {
        Ok(meta)
            if meta.is_file()
                && (
                    std::os::unix::fs::MetadataExt::dev(&meta),
                    std::os::unix::fs::MetadataExt::ino(&meta),
                ) == (seen.dev(), seen.ino()) => {}
        _ => return Now::Other,
    }
    let mut hasher = Sha256::new();
    match io::copy(&mut file, &mut hasher) {
        Ok(_) => Now::File(format!("{:x}", hasher.finalize())),
        Err(_) => Now::Other,
    }
}

/// What is at an item's place now, as a command's undo compares it with what the command
/// left ([`super::Left`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Look {
    /// Nothing.
    Absent,
    /// An ordinary file with these bytes (hex SHA-256).
    File(String),
    /// A folder (not a link to one).
    Folder,
    /// A symbolic link with this target, exactly as written in it.
    Link(PathBuf),
    /// Something else: a named pipe, a device, a socket, a file that could not be read.
    Other,
}

/// What is at `rel` beneath `root` now, read without following a link or waiting on a pipe.
///
/// # Errors
/// As [`holder`].
pub(crate) fn look_at(root: &Dir, rel: &Path) -> Result<Look, UndoError> {
    let Some(holder) = holder(root, rel, false)? else {
        return Ok(Look::Absent);
    };
    let seen = match holder.dir.symlink_metadata(&holder.name) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Look::Absent),
        Err(e) => return Err(failed(&e)),
    };
    let file_type = seen.file_type();
    Ok(if file_type.is_symlink() {
        holder
            .dir
            .read_link_contents(&holder.name)
            .map_or(Look::Other, Look::Link)
    } else if file_type.is_dir() {
        Look::Folder
    } else if file_type.is_file() {
        match read_now(&holder) {
            Now::Absent => Look::Absent,
            Now::File(sha256) => Look::File(sha256),
            Now::Other => Look::Other,
        }
    } else {
        Look::Other
    })
}
