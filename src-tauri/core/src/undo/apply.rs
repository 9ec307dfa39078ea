//! Undoing one change, in the folder it was made in: first [`check`] (what undoing would lose,
//! and whether it can be done at all), then [`undo`]. Every step on the person's files is
//! resolved beneath that folder (cap-std), so nothing outside it is touched.

use super::beneath;
use super::capture::relative;
use super::{words, Before, Change, UndoError, UndoStore};
use crate::tools::Workspace;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A change as its log recorded it, with what is needed to undo it.
#[derive(Debug, Clone)]
pub(super) struct Recorded {
    /// The folder it was made in (canonical), and its identity then.
    pub folder: PathBuf,
    pub folder_id: Option<(u64, u64)>,
    pub change: Change,
    /// When it was recorded, Unix milliseconds.
    pub at: u64,
    /// Hex SHA-256 of the file it left ([`Change::Replace`]).
    pub after: Option<String>,
}

/// The state of a file a check sees instead of the disk's: what undoing the newer changes of
/// the same task will have left there (`None`: no file).
pub(super) type Simulated = HashMap<PathBuf, Option<String>>;

fn failed(e: &io::Error) -> UndoError {
    UndoError::Failed(e.to_string())
}

/// The folder, opened, if it is still the one the change was made in.
fn open_folder(recorded: &Recorded) -> Result<(Workspace, cap_std::fs::Dir), UndoError> {
    let gone = || UndoError::FolderGone(recorded.folder.clone());
    let ws = Workspace::open(&recorded.folder).map_err(|_| gone())?;
    if recorded.folder_id.is_some() && super::folder_identity(ws.root()) != recorded.folder_id {
        return Err(gone());
    }
    let dir = cap_std::fs::Dir::open_ambient_dir(ws.root(), cap_std::ambient_authority())
        .map_err(|_| gone())?;
    Ok((ws, dir))
}

/// Whether anything is at `rel` beneath `dir` (never through a link on the way).
fn exists(dir: &cap_std::fs::Dir, rel: &Path) -> Result<bool, UndoError> {
    Ok(beneath::holder(dir, rel, false)?.is_some_and(|h| h.exists()))
}

/// Whether the change can be undone now, and what undoing would lose (a sentence) when the
/// file changed since. `simulated` stands in for files a task's newer changes will restore.
///
/// # Errors
/// The [`UndoError`] that keeps it from being undone.
pub(super) fn check(
    store: &UndoStore,
    recorded: &Recorded,
    simulated: &Simulated,
) -> Result<Option<String>, UndoError> {
    let (_, dir) = open_folder(recorded)?;
    match &recorded.change {
        Change::Replace { path, before, .. } => {
            let now = match simulated.get(path) {
                Some(state) => state.clone(),
                None => beneath::now_at(&dir, path)?.as_state(),
            };
            let shown = path.display().to_string();
            match before {
                Before::NotKept { size } => Err(UndoError::CannotUndo(words::too_large(*size))),
                Before::Kept { sha256, .. } => {
                    if !store.has(sha256) {
                        return Err(UndoError::TooOld(sha256.clone()));
                    }
                    Ok((now.is_some() && now != recorded.after)
                        .then(|| words::changed_since(&shown)))
                }
                Before::Absent => match now {
                    None => Err(UndoError::Gone(path.clone())),
                    Some(_) => {
                        Ok((now != recorded.after).then(|| words::changed_since_created(&shown)))
                    }
                },
            }
        }
        Change::Move { from, to, .. } => {
            if !exists(&dir, to)? {
                return Err(UndoError::Gone(to.clone()));
            }
            if exists(&dir, from)? {
                return Err(UndoError::PlaceTaken(from.clone()));
            }
            Ok(None)
        }
        Change::Trash { path } => {
            if exists(&dir, path)? {
                return Err(UndoError::PlaceTaken(path.clone()));
            }
            Ok(None)
        }
    }
}

/// What undoing `recorded` leaves at the file a [`Change::Replace`] touched, for the checks
/// of a task's older changes.
pub(super) fn left_behind(recorded: &Recorded) -> Option<(PathBuf, Option<String>)> {
    match &recorded.change {
        Change::Replace { path, before, .. } => Some((
            path.clone(),
            match before {
                Before::Kept { sha256, .. } => Some(sha256.clone()),
                Before::Absent | Before::NotKept { .. } => None,
            },
        )),
        Change::Move { .. } | Change::Trash { .. } => None,
    }
}

/// Removes the folders a change created, innermost first, where they are empty again.
fn remove_created(dir: &cap_std::fs::Dir, folders: &[PathBuf]) {
    for folder in folders.iter().rev() {
        // Not empty, gone, or reached only through a link: left as it is.
        if let Ok(Some(holder)) = beneath::holder(dir, folder, false) {
            let _ = holder.dir.remove_dir(&holder.name);
        }
    }
}

/// Writes `bytes` with permission bits `mode` to `rel` beneath `dir`: a temporary file beside
/// it, synced, then renamed over it (over a link or pipe there, never through it), in the
/// folder that holds it, reached without following a link.
fn put_back(dir: &cap_std::fs::Dir, rel: &Path, bytes: &[u8], mode: u32) -> Result<(), UndoError> {
    let holder = beneath::holder(dir, rel, true)?
        .ok_or_else(|| UndoError::Failed(format!("the folder of {} is missing", rel.display())))?;
    let (dir, name) = (&holder.dir, Path::new(&holder.name));
    let tmp = PathBuf::from(format!(
        ".{}.askfirst-undo-{}.tmp",
        name.to_string_lossy(),
        uuid::Uuid::new_v4()
    ));
    let result = (|| {
        let mut options = cap_std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        let mut file = dir.open_with(&tmp, &options)?.into_std();
        file.write_all(bytes)?;
        #[cfg(unix)]
        file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(mode))?;
        #[cfg(not(unix))]
        let _ = mode;
        file.sync_all()?;
        drop(file);
        dir.rename(&tmp, dir, name)
    })();
    if result.is_err() {
        let _ = dir.remove_file(&tmp);
    }
    result.map_err(|e| failed(&e))
}

/// The trash item that `rel` (inside `ws`) became when it was trashed at `at` (Unix ms).
fn in_trash(ws: &Workspace, rel: &Path, at: u64) -> Result<trash::TrashItem, UndoError> {
    let original = ws.root().join(rel);
    let after = i64::try_from(at / 1000).unwrap_or(i64::MAX) - 2;
    let items = trash::os_limited::list().map_err(|e| UndoError::Failed(e.to_string()))?;
    items
        .into_iter()
        .filter(|item| item.original_path() == original && item.time_deleted >= after)
        .min_by_key(|item| item.time_deleted)
        .ok_or_else(|| UndoError::GoneFromTrash(rel.to_owned()))
}

/// Undoes `recorded` (after [`check`]).
///
/// # Errors
/// The [`UndoError`] of the step that failed; what was done before it stays done.
pub(super) fn undo(store: &UndoStore, recorded: &Recorded) -> Result<(), UndoError> {
    let (ws, dir) = open_folder(recorded)?;
    match &recorded.change {
        Change::Replace {
            path,
            before,
            created_folders,
        } => match before {
            Before::NotKept { size } => Err(UndoError::CannotUndo(words::too_large(*size))),
            Before::Kept { sha256, mode, .. } => {
                let bytes = store
                    .load(sha256)
                    .ok_or_else(|| UndoError::TooOld(sha256.clone()))?;
                put_back(&dir, path, &bytes, *mode)
            }
            Before::Absent => {
                if !exists(&dir, path)? {
                    return Err(UndoError::Gone(path.clone()));
                }
                // The item itself (a link there goes to the trash as a link, never what it
                // points at), by a path whose folders were just checked not to be links; the
                // trash resolves only those folders.
                let target = ws.root().join(path);
                relative(&ws, &target).map_err(|e| failed(&e))?;
                trash::delete(&target).map_err(|e| UndoError::Failed(e.to_string()))?;
                remove_created(&dir, created_folders);
                Ok(())
            }
        },
        Change::Move {
            from,
            to,
            created_folders,
        } => {
            if exists(&dir, from)? {
                return Err(UndoError::PlaceTaken(from.clone()));
            }
            let there = beneath::holder(&dir, to, false)?
                .filter(beneath::Holder::exists)
                .ok_or_else(|| UndoError::Gone(to.clone()))?;
            let back =
                beneath::holder(&dir, from, true)?.ok_or_else(|| UndoError::Gone(to.clone()))?;
            there
                .dir
                .rename(&there.name, &back.dir, &back.name)
                .map_err(|e| failed(&e))?;
            remove_created(&dir, created_folders);
            Ok(())
        }
        Change::Trash { path } => {
            if exists(&dir, path)? {
                return Err(UndoError::PlaceTaken(path.clone()));
            }
            let item = in_trash(&ws, path, recorded.at)?;
            // The folders on the way made where missing, and checked not to be links: the
            // trash puts the item back by its path.
            beneath::holder(&dir, path, true)?;
            trash::os_limited::restore_all([item]).map_err(|e| match e {
                trash::Error::RestoreCollision { .. } => UndoError::PlaceTaken(path.clone()),
                other => UndoError::Failed(other.to_string()),
            })
        }
    }
}
