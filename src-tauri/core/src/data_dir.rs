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
