//! What a command changed when it was tried on a copy-on-write copy of the person's folder,
//! and applying exactly that to the folder.
//!
//! `run_command` first runs a command in a user namespace on an overlayfs view of the folder
//! (`mount -t overlay -o userxattr,lowerdir=<folder>,upperdir=<upper>,workdir=<work>`). When
//! it has ended, the upper directory holds exactly what it changed (kernel documentation
//! `Documentation/filesystems/overlayfs.rst`, with `userxattr` the marks are `user.overlay.*`):
//! new and changed files and folders, whiteouts for what it deleted (a character device 0:0,
//! or a zero-size file marked `user.overlay.whiteout`), and folders marked
//! `user.overlay.opaque` = `y` where it deleted a folder and made one of the same name.
//!
//! - [`read`] turns the upper directory into a [`ChangeSet`] (cost grows with what changed,
//!   not with the folder), and [`ChangeSet::for_card`] into what the card shows.
//! - [`apply`] checks that the folder is still as it was read, keeps before-copies in the
//!   [`crate::undo::UndoStore`], applies the set all or nothing, and returns the
//!   [`CommandUndo`] record that [`crate::undo::Change::Command`] undoes.
//!
//! Linux only (overlayfs and user namespaces).

#![cfg(target_os = "linux")]

mod apply;
mod read;
pub mod words;

pub use apply::{apply, apply_recorded, Applied, ApplyError, CommandUndo};
pub use read::{read, ChangeSet, Entry, EntryKind, LowerState, ReadError, SpecialKind};

use std::ffi::OsStr;
use std::path::Path;

/// The prefix of the marks overlayfs (mounted with `userxattr`) puts on what it copies up.
const OVERLAY_XATTR_PREFIX: &str = "user.overlay.";

/// Whether the extended attribute `name` is one of overlayfs's own marks.
fn is_overlay_xattr(name: &OsStr) -> bool {
    name.as_encoded_bytes()
        .starts_with(OVERLAY_XATTR_PREFIX.as_bytes())
}

/// The value of overlayfs's mark `user.overlay.<mark>` on `path` itself (a link is not
/// followed); `None` when absent or unreadable.
fn overlay_mark(path: &Path, mark: &str) -> Option<Vec<u8>> {
    xattr::get(path, format!("{OVERLAY_XATTR_PREFIX}{mark}"))
        .ok()
        .flatten()
}

/// Permission bits of a mode (`st_mode & 0o7777`).
fn permission_bits(mode: u32) -> u32 {
    mode & 0o7777
}
