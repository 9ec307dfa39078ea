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
/// followed); `None` when absent or unreadable. An item of this user's without read
/// permission (a command on the copy may take it away) is given it while the mark is read.
fn overlay_mark(path: &Path, mark: &str) -> Option<Vec<u8>> {
    let name = format!("{OVERLAY_XATTR_PREFIX}{mark}");
    match xattr::get(path, &name) {
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            with_access(path, 0o400, || xattr::get(path, &name))
                .ok()
                .flatten()
        }
        other => other.ok().flatten(),
    }
}

/// Opens the ordinary file at `path` to read, refusing a link or anything not a file, and
/// never waiting on a pipe. A file of the upper directory (`upper`: true) without read
/// permission is given it while it is opened.
fn open_plain(path: &Path, upper: bool) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let open = || {
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags((nix::fcntl::OFlag::O_NOFOLLOW | nix::fcntl::OFlag::O_NONBLOCK).bits())
            .open(path)
    };
    let file = match open() {
        Err(e) if upper && e.kind() == std::io::ErrorKind::PermissionDenied => {
            with_access(path, 0o400, open)?
        }
        other => other?,
    };
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not an ordinary file",
        ));
    }
    Ok(file)
}

/// Permission bits of a mode (`st_mode & 0o7777`).
fn permission_bits(mode: u32) -> u32 {
    mode & 0o7777
}

/// Whether the item described by `meta` belongs to the user Ask First runs as.
fn is_own(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    meta.uid() == nix::unistd::geteuid().as_raw()
}

/// The owner's permission bits `need` (e.g. `0o500`) added to what `meta` has, or `None`
/// when it has them already, or is a link, or is not this user's (nothing to give).
fn lacking(meta: &std::fs::Metadata, need: u32) -> Option<u32> {
    use std::os::unix::fs::MetadataExt as _;
    let mode = permission_bits(meta.mode());
    (mode & need != need && !meta.file_type().is_symlink() && is_own(meta)).then_some(mode | need)
}

fn chmod(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

/// Runs `f` on the upper item at `path` with the owner's permission bits `need` given to it
/// for that while when it lacks them (a command on the copy may leave a file without read
/// permission): its mode is put back right after. The item must be this user's (the upper
/// directory's items are); a link or another user's item is left as it is.
fn with_access<T>(
    path: &Path,
    need: u32,
    f: impl FnOnce() -> std::io::Result<T>,
) -> std::io::Result<T> {
    let meta = std::fs::symlink_metadata(path)?;
    let Some(open) = lacking(&meta, need) else {
        return f();
    };
    chmod(path, open)?;
    let out = f();
    let back = chmod(
        path,
        permission_bits(std::os::unix::fs::MetadataExt::mode(&meta)),
    );
    let out = out?;
    back?;
    Ok(out)
}

/// Folders of the upper directory given the owner's permission bits for a while, because a
/// command on the copy took them away (`chmod 000 Work/2024`, `chmod -r`) and they must be
/// listed, read or moved from all the same (the upper directory is Ask First's own). Each
/// gets its mode back when this is dropped (in the opposite order), so the upper directory is
/// left as the command left it and the modes read from it stay the command's.
#[derive(Default)]
struct Opened {
    /// Each folder given bits, with the mode it had.
    given: Vec<(std::path::PathBuf, u32)>,
}

impl Opened {
    /// Gives the upper folder `path` (described by `meta`) the owner's bits `need` when it
    /// lacks them.
    fn give(&mut self, path: &Path, meta: &std::fs::Metadata, need: u32) -> std::io::Result<()> {
        if let Some(open) = lacking(meta, need) {
            chmod(path, open)?;
            self.given.push((
                path.to_owned(),
                permission_bits(std::os::unix::fs::MetadataExt::mode(meta)),
            ));
        }
        Ok(())
    }

    /// Makes every upper folder from `upper` down to `upper/rel` (inclusive) searchable, and
    /// the last one also `need` (e.g. `0o700` to move items out of it). A folder given bits
    /// before keeps them.
    fn reach(&mut self, upper: &Path, rel: &Path, need: u32) -> std::io::Result<()> {
        let mut path = upper.to_path_buf();
        let parts: Vec<_> = rel.components().collect();
        for i in 0..=parts.len() {
            if i > 0 {
                path.push(parts[i - 1]);
            }
            let meta = std::fs::symlink_metadata(&path)?;
            if !meta.is_dir() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::NotADirectory,
                    "not a folder",
                ));
            }
            self.give(
                &path,
                &meta,
                if i == parts.len() {
                    need | 0o100
                } else {
                    0o100
                },
            )?;
        }
        Ok(())
    }
}

impl Drop for Opened {
    fn drop(&mut self) {
        while let Some((path, mode)) = self.given.pop() {
            let _ = chmod(&path, mode);
        }
    }
}
