//! Keeping what a change will change, before it takes effect (see the module above).

use super::{Before, Change, Planned, UndoStore};
use crate::tools::Workspace;
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};

/// Why the before-copy could not be kept: the change is then refused (the person's file is
/// never changed without the copy the card promised).
#[derive(Debug, thiserror::Error)]
#[error("the copy of {file} to undo the change could not be kept: {source}")]
pub struct CaptureError {
    /// The file, relative to the folder.
    pub file: String,
    /// The I/O error (a full disk, a read-only data folder).
    #[source]
    pub source: io::Error,
}

fn root(ws: &Workspace) -> io::Result<cap_std::fs::Dir> {
    cap_std::fs::Dir::open_ambient_dir(ws.root(), cap_std::ambient_authority())
}

/// `path` relative to the folder.
pub(super) fn relative(ws: &Workspace, path: &Path) -> io::Result<PathBuf> {
    path.strip_prefix(ws.root())
        .map(Path::to_path_buf)
        .map_err(|_| io::Error::new(io::ErrorKind::PermissionDenied, "outside the folder"))
}

/// The folders missing on the way to `rel` (relative), outermost first: the ones a change
/// putting something at `rel` creates.
fn missing_folders(dir: &cap_std::fs::Dir, rel: &Path) -> Vec<PathBuf> {
    let mut missing = Vec::new();
    let mut parent = rel.parent();
    while let Some(folder) = parent {
        if folder.as_os_str().is_empty() || dir.symlink_metadata(folder).is_ok() {
            break;
        }
        missing.push(folder.to_owned());
        parent = folder.parent();
    }
    missing.reverse();
    missing
}

/// An ordinary file as read for its before-copy: its bytes (`None` when over the limit),
/// permission bits and size.
type Read = (Option<Vec<u8>>, u32, u64);

/// The ordinary file at `rel`, read beneath the folder; `None` when there is none.
pub(super) fn read_file(
    dir: &cap_std::fs::Dir,
    rel: &Path,
    limit: u64,
) -> io::Result<Option<Read>> {
    // Never waits on a named pipe swapped in since the tool's look (checked below).
    let mut options = cap_std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use cap_std::fs::OpenOptionsExt as _;
        options.custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits());
    }
    let file = match dir.open_with(rel, &options) {
        Ok(file) => file.into_std(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Ok(None);
    }
    #[cfg(unix)]
    let mode = std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o7777;
    #[cfg(not(unix))]
    let mode = 0o644;
    let size = meta.len();
    if size > limit {
        return Ok(Some((None, mode, size)));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Ok(Some((None, mode, bytes.len() as u64)));
    }
    Ok(Some((Some(bytes), mode, size)))
}

/// Keeps what `planned` will change, in `store`, and says what it kept. Durable on return.
///
/// # Errors
/// [`CaptureError`] when the copy could not be written or the file not read; the caller
/// refuses the change.
pub fn capture(
    store: &UndoStore,
    ws: &Workspace,
    planned: &Planned,
) -> Result<Change, CaptureError> {
    let failed = |path: &Path| {
        let file = ws.display(path);
        move |source| CaptureError { file, source }
    };
    match planned {
        Planned::Replace(path) => {
            let fail = failed(path);
            let dir = root(ws).map_err(failed(path))?;
            let rel = relative(ws, path).map_err(failed(path))?;
            let before = match read_file(&dir, &rel, store.per_file_limit()).map_err(fail)? {
                None => Before::Absent,
                Some((None, _, size)) => Before::NotKept { size },
                Some((Some(bytes), mode, size)) => Before::Kept {
                    sha256: store.save(&bytes).map_err(failed(path))?,
                    mode,
                    size,
                },
            };
            Ok(Change::Replace {
                created_folders: missing_folders(&dir, &rel),
                path: rel,
                before,
            })
        }
        Planned::Move { from, to } => {
            let dir = root(ws).map_err(failed(from))?;
            let to_rel = relative(ws, to).map_err(failed(to))?;
            Ok(Change::Move {
                from: relative(ws, from).map_err(failed(from))?,
                created_folders: missing_folders(&dir, &to_rel),
                to: to_rel,
            })
        }
        Planned::Trash(path) => Ok(Change::Trash {
            path: relative(ws, path).map_err(failed(path))?,
        }),
    }
}

/// Hex SHA-256 of the file a [`Change::Replace`] left (read beneath the folder), to notice
/// at undo time that someone changed it since; `None` for other changes or when unreadable.
pub fn after_hash(ws: &Workspace, change: &Change) -> Option<String> {
    let Change::Replace { path, .. } = change else {
        return None;
    };
    hash_of(&root(ws).ok()?, path)
}

/// Hex SHA-256 of the ordinary file at `rel` beneath `dir` (reached without following a
/// link, never waiting on a pipe); `None` for anything else.
fn hash_of(dir: &cap_std::fs::Dir, rel: &Path) -> Option<String> {
    match super::beneath::now_at(dir, rel).ok()? {
        super::beneath::Now::File(sha256) => Some(sha256),
        super::beneath::Now::Absent | super::beneath::Now::Other => None,
    }
}

/// The card's line when `planned` cannot be undone because its file is too large to keep a
/// copy of ([`UndoStore::per_file_limit`]); `None` otherwise.
pub fn card_note(store: &UndoStore, planned: &Planned) -> Option<String> {
    let Planned::Replace(path) = planned else {
        return None;
    };
    let meta = std::fs::metadata(path).ok()?;
    (meta.is_file() && meta.len() > store.per_file_limit())
        .then(|| super::words::too_large_on_card(meta.len()))
}
