//! The file helpers the file tools share: the workspace opened as a capability, so every
//! write, folder creation and move is resolved beneath it by the operating system; atomic
//! writes; blocking file work moved off the async workers; and the error for a failed step.

use super::{ToolError, Workspace};
use std::path::{Path, PathBuf};

/// The tool error for an I/O step that failed: "Could not {what} {path}: {error}" for the
/// model; for the person the step's sentence (`tool_failed-io-*`, by `what`: "read", "write",
/// "list", "move", "create the folder for") with why, in plain words where the system's error
/// is a common one.
pub(super) fn io_failed(what: &str, path: &str, e: &std::io::Error) -> ToolError {
    use crate::i18n::{tr, Arg};
    use std::io::ErrorKind;
    let step = match what {
        "read" => "tool_failed-io-read",
        "write" => "tool_failed-io-write",
        "list" => "tool_failed-io-list",
        "move" => "tool_failed-io-move",
        _ => "tool_failed-io-create_folder",
    };
    // A special file found beneath the workspace capability (see `not_ordinary`).
    let special = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<super::special::NotOrdinary>());
    let why = match (special, e.kind()) {
        (Some(special), _) => special.for_person(),
        (None, ErrorKind::PermissionDenied) => tr("tool_failed-why-permission", &[]),
        (None, ErrorKind::NotFound) => tr("tool_failed-why-not_found", &[]),
        (None, ErrorKind::StorageFull) => tr("tool_failed-why-disk_full", &[]),
        (None, ErrorKind::ReadOnlyFilesystem) => tr("tool_failed-why-read_only", &[]),
        (None, _) => e.to_string(),
    };
    ToolError::said(
        format!("Could not {what} {path}: {e}"),
        step,
        &[("path", Arg::from(path)), ("why", Arg::from(why))],
    )
}

/// The workspace folder opened as a capability: every path under it is then resolved beneath
/// it by the operating system (Linux `openat2` with `RESOLVE_BENEATH`; cap-std's own
/// component-by-component walk elsewhere), so a symlink or `..` swapped in after a call was
/// checked cannot lead a write or a move out of the workspace.
pub(super) fn open_root(ws: &Workspace) -> std::io::Result<cap_std::fs::Dir> {
    cap_std::fs::Dir::open_ambient_dir(ws.root(), cap_std::ambient_authority())
}

/// `path` (resolved by [`Workspace::resolve`]) relative to the workspace folder.
pub(super) fn inside(ws: &Workspace, path: &Path) -> std::io::Result<PathBuf> {
    path.strip_prefix(ws.root())
        .map(Path::to_path_buf)
        .map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "outside the workspace",
            )
        })
}

/// Creates the folders leading to `path` (inside the workspace), beneath the workspace folder.
pub(super) async fn create_parent_dirs(ws: &Workspace, path: &Path) -> std::io::Result<()> {
    let Some(parent) = inside(ws, path)?.parent().map(Path::to_path_buf) else {
        return Ok(());
    };
    let ws = ws.clone();
    run_blocking(move || {
        if parent.as_os_str().is_empty() {
            return Ok(());
        }
        open_root(&ws)?.create_dir_all(&parent)
    })
    .await
}

/// Runs blocking file work on tokio's blocking pool (a full disk or a slow network folder must
/// not stall an async worker), returning its result.
///
/// # Errors
/// The job's I/O error, or an `Other` error if the job panicked.
pub(super) async fn run_blocking<T: Send + 'static>(
    job: impl FnOnce() -> std::io::Result<T> + Send + 'static,
) -> std::io::Result<T> {
    tokio::task::spawn_blocking(job)
        .await
        .map_err(std::io::Error::other)?
}

/// Writes `bytes` to a temporary file beside `path` (inside the workspace), flushes it to
/// disk, then renames it over `path`, so a crash or a full disk never leaves a half-written file
/// in its place. An existing file's permissions (such as "executable") are kept. Every step is
/// resolved beneath the workspace folder (see [`open_root`]).
///
/// # Errors
/// The I/O error; a path that would lead out of the workspace gives `PermissionDenied` (or
/// the error of the refused symlink), and nothing is written.
pub(super) async fn write_atomically(
    ws: &Workspace,
    path: &Path,
    bytes: &[u8],
) -> std::io::Result<()> {
    let target = inside(ws, path)?;
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = target.with_file_name(format!(".{name}.askfirst-{}.tmp", uuid::Uuid::new_v4()));
    let ws = ws.clone();
    let bytes = bytes.to_vec();
    run_blocking(move || {
        use std::io::Write;
        let root = open_root(&ws)?;
        // Checked beneath the root, right before: a special file is never replaced or opened.
        if let Some(kind) = root
            .metadata(&target)
            .ok()
            .and_then(|meta| super::special::special_kind_beneath(meta.file_type()))
        {
            return Err(not_ordinary(kind));
        }
        let result = (|| {
            let mut options = cap_std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            let mut file = root.open_with(&tmp, &options)?;
            file.write_all(&bytes)?;
            file.sync_all()?;
            if let Ok(existing) = root.metadata(&target) {
                file.set_permissions(existing.permissions())?;
            }
            drop(file);
            root.rename(&tmp, &root, &target)
        })();
        if result.is_err() {
            let _ = root.remove_file(&tmp);
        }
        result
    })
    .await
}

/// The I/O error for a special file found at the last moment (see `super::special`).
pub(super) fn not_ordinary(kind: super::special::SpecialKind) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        super::special::NotOrdinary(kind),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// What `ws.resolve` checked can be swapped before the write happens: a folder on the way
    /// replaced by a symlink to somewhere else. The write and the folder creation are resolved
    /// beneath the workspace by the OS, so they fail rather than reach outside.
    #[tokio::test]
    async fn a_folder_swapped_for_a_symlink_after_the_check_cannot_lead_a_write_out() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        std::fs::create_dir_all(root.join("notes")).unwrap();
        let ws = Workspace::open(&root).unwrap();
        let checked = ws.resolve("notes/today.txt").unwrap();
        let checked_deeper = ws.resolve("notes/new/today.txt").unwrap();
        // The swap.
        std::fs::remove_dir(root.join("notes")).unwrap();
        std::os::unix::fs::symlink(outside.path(), ws.root().join("notes")).unwrap();

        assert!(write_atomically(&ws, &checked, b"hello").await.is_err());
        assert!(create_parent_dirs(&ws, &checked_deeper).await.is_err());
        assert_eq!(
            std::fs::read_dir(outside.path()).unwrap().count(),
            0,
            "nothing was written outside"
        );
        // A (relative) symlink that stays inside still works. (An absolute one swapped in
        // after the check is refused too: the OS cannot tell it stays inside.)
        std::fs::remove_file(ws.root().join("notes")).unwrap();
        std::fs::create_dir(ws.root().join("real")).unwrap();
        std::os::unix::fs::symlink("real", ws.root().join("notes")).unwrap();
        write_atomically(&ws, &checked, b"hello").await.unwrap();
        assert_eq!(
            std::fs::read_to_string(ws.root().join("real/today.txt")).unwrap(),
            "hello"
        );
    }
}
