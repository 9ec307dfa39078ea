//! Ask First's data folder (settings, rules, session logs): created readable by its owner
//! only, and claimed by one running app at a time.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// An exclusive claim on a data folder by one running app, held as long as this value lives
/// (an advisory lock on `<data dir>/instance.lock`; the operating system drops it when the
/// process ends, even by `kill -9`).
pub struct DataDirLock {
    _lock: nix::fcntl::Flock<File>,
}

/// Claims `data_dir` for this process. `Ok(None)` means another running app holds it: its
/// waiting approvals are alive, so [`crate::audit::recover_orphans`] must not close them.
///
/// # Errors
/// The I/O error of creating or locking the lock file (a read-only or full folder).
pub fn lock_data_dir(data_dir: &Path) -> io::Result<Option<DataDirLock>> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(data_dir.join("instance.lock"))?;
    // `flock(2)`: held per open file, so it conflicts even within one process (tests).
    match nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock) {
        Ok(lock) => Ok(Some(DataDirLock { _lock: lock })),
        Err((_, nix::errno::Errno::EWOULDBLOCK)) => Ok(None),
        Err((_, errno)) => Err(io::Error::from(errno)),
    }
}

/// Writes `bytes` to `path` whole or not at all: into a temporary file beside it (owner-only,
/// a random name), synced, renamed over `path`, then the folder synced (best effort). A reader,
/// or the next start after a crash or a full disk, finds the old file or the new one, never half
/// of one. The folder must exist. The one way the core replaces its small files (settings,
/// rules, a run's restart mark).
///
/// # Errors
/// The I/O error of writing, syncing or renaming (a full disk, a read-only folder); `path` is
/// then as it was, and the temporary file is removed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut temporary = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    io::Write::write_all(&mut temporary, bytes)?;
    temporary.as_file().sync_all()?;
    temporary.persist(path).map_err(|e| e.error)?;
    let _ = File::open(dir).and_then(|d| d.sync_all());
    Ok(())
}

/// Creates `dir` and the folders leading to it, those it creates readable by the owner only
/// (0700 on Unix); existing folders are left as they are.
///
/// # Errors
/// The I/O error of creating a folder.
pub fn private_dir_all(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}
