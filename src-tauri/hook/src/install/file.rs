//! Reading and replacing an agent's settings file without harming what surrounds it: a link
//! (into a dotfiles folder, say) stays a link and its target is replaced; the replacement is
//! atomic (a temporary file in the same folder, renamed over the old one); the temporary file
//! is made with `O_EXCL` under a name no one can guess in advance, so a link planted at a
//! predictable name is never written through; and the file keeps its permissions.

use std::ffi::{OsStr, OsString};
use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// How many links [`resolve_links`] follows before it gives up (Linux's own limit).
const MAX_LINKS: usize = 40;

/// How many temporary names [`replace`] tries before it gives up.
const TEMPORARY_TRIES: usize = 64;

/// The mode of a settings file Ask First creates: settings may hold keys.
pub(super) const NEW_FILE_MODE: u32 = 0o600;

/// The file that `path` names once links are followed: `path` itself when it is not a link
/// (or not there), else its target, followed again while that is a link. A relative target
/// is taken from the link's folder. Only the last part of the path is followed here; the
/// folders on the way are resolved by the system as usual.
///
/// # Errors
/// The link cannot be read, or there are more than 40 links in a row (a loop).
pub(super) fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_owned();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(folder) => folder.join(target),
                    None => target,
                };
            }
            Ok(_) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(path),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row"
    )))
}

/// The text of the file at `path` (following links), `None` when there is none.
///
/// # Errors
/// The file cannot be read or is not UTF-8.
pub(super) fn read_text(path: &Path) -> io::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The text of `path` when it is a plain file, not a link or anything else; `None` when
/// there is no plain file there. For Ask First's own files (the backup), which it only ever
/// writes as plain files: anything else there was not put there by Ask First.
///
/// # Errors
/// The file cannot be read or is not UTF-8.
pub(super) fn read_plain(path: &Path) -> io::Result<Option<String>> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_file() => read_text(path),
        Ok(_) => Ok(None),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The permission bits of the file at `path` (following links), `None` when there is none.
pub(super) fn mode_of(path: &Path) -> Option<u32> {
    std::fs::metadata(path)
        .ok()
        .map(|meta| meta.permissions().mode() & 0o7777)
}

/// Replaces whatever is at `path` with a plain file holding `bytes`, with permission bits
/// `mode`, atomically: the bytes go to a new temporary file in `path`'s folder, which is then
/// renamed over `path`. A link at `path` is itself replaced, never written through: callers
/// that mean to write a link's target pass the target ([`resolve_links`]).
///
/// # Errors
/// The temporary file cannot be made or written, or the rename fails; `path` is then as it
/// was and the temporary file is gone.
pub(super) fn replace(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let (folder, name) = folder_and_name(path)?;
    let (mut file, temporary) = create_temporary(folder, temporary_names(name))?;
    file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&temporary.path, path)?;
    temporary.keep();
    // The rename is only durable once the folder is; a failure here loses nothing now.
    if let Ok(folder) = File::open(folder) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// A temporary file that is removed again unless [`Temporary::keep`] says it was renamed.
pub(super) struct Temporary {
    path: PathBuf,
    kept: bool,
}

impl Temporary {
    fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Creates a new file (mode 0600) in `folder` under the first of `names` that is free, with
/// `O_CREAT | O_EXCL`: a name already taken, by a file or by a link, is skipped, never opened.
///
/// # Errors
/// Every name is taken, or the file cannot be created.
pub(super) fn create_temporary(
    folder: &Path,
    names: impl IntoIterator<Item = OsString>,
) -> io::Result<(File, Temporary)> {
    for name in names {
        let path = folder.join(name);
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(NEW_FILE_MODE)
            .open(&path)
        {
            Ok(file) => return Ok((file, Temporary { path, kept: false })),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name for a temporary file",
    ))
}

/// Names for a temporary file beside `name`: `.<name>.askfirst-tmp-<16 hex digits>`, the
/// digits hashed with a random key from the process id, a counter and the time, so no one can
/// plant a file or link at the name in advance.
fn temporary_names(name: &OsStr) -> impl Iterator<Item = OsString> + '_ {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let random = std::collections::hash_map::RandomState::new();
    (0..TEMPORARY_TRIES).map(move |_| {
        let mut hasher = random.build_hasher();
        hasher.write_u32(std::process::id());
        hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos());
        hasher.write_u128(nanos);
        let mut temporary = OsString::from(".");
        temporary.push(name);
        temporary.push(format!(".askfirst-tmp-{:016x}", hasher.finish()));
        temporary
    })
}

fn folder_and_name(path: &Path) -> io::Result<(&Path, &OsStr)> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} does not name a file", path.display()),
        )
    })?;
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    Ok((folder, name))
}
