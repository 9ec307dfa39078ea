//! Undoing one change, in the folder it was made in: first [`check`] (what undoing would lose,
//! and whether it can be done at all), then [`undo`]. Every step on the person's files is
//! resolved beneath that folder (cap-std), so nothing outside it is touched.

use super::beneath;
use super::beneath::Look;
use super::capture::relative;
use super::{words, Before, Change, CommandFile, Left, UndoError, UndoStore, Was};
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
        Change::Command { files, .. } => {
            check_command(store, &dir, files, simulated)?;
            Ok(None)
        }
    }
}

/// Whether a command's changes can all be undone: every copy is kept, and every path is still
/// what the command left (a file changed since makes the whole undo refuse, naming it: a
/// command's undo never asks to lose the person's later work).
fn check_command(
    store: &UndoStore,
    dir: &cap_std::fs::Dir,
    files: &[CommandFile],
    simulated: &Simulated,
) -> Result<(), UndoError> {
    for file in files {
        match &file.before {
            Was::NotKept { size } => {
                return Err(UndoError::CannotUndo(words::too_large(*size)));
            }
            Was::File { sha256, .. } if !store.has(sha256) => {
                return Err(UndoError::TooOld(sha256.clone()));
            }
            Was::File { .. }
            | Was::Absent
            | Was::SameBytes { .. }
            | Was::Folder { .. }
            | Was::Link { .. }
            | Was::Other => {}
        }
        let now = match simulated.get(&file.path) {
            Some(Some(sha256)) => Look::File(sha256.clone()),
            Some(None) => Look::Absent,
            None => match super::beneath::look_at(dir, &file.path) {
                // Inside a folder the command replaced by a file or link (checked as its own
                // path): nothing can be there.
                Err(UndoError::NotAFolder(on_the_way))
                    if file.after == Left::Absent
                        && files.iter().any(|f| {
                            f.path == on_the_way
                                && matches!(f.after, Left::File { .. } | Left::Link { .. })
                        }) =>
                {
                    Look::Absent
                }
                other => other?,
            },
        };
        let same = match (&file.after, &now) {
            (Left::Absent, Look::Absent) | (Left::Folder, Look::Folder) => true,
            (Left::File { sha256 }, Look::File(now)) => sha256 == now,
            (Left::Link { target }, Look::Link(now)) => target == now,
            (Left::Absent | Left::File { .. } | Left::Folder | Left::Link { .. }, _) => false,
        };
        if !same {
            return Err(match (&file.after, now) {
                (Left::File { .. } | Left::Folder | Left::Link { .. }, Look::Absent) => {
                    UndoError::Gone(file.path.clone())
                }
                _ => UndoError::PlaceTaken(file.path.clone()),
            });
        }
    }
    Ok(())
}

/// What undoing `recorded` leaves at the files a [`Change::Replace`] or [`Change::Command`]
/// touched (hex SHA-256, `None`: no file), for the checks of a task's older changes.
pub(super) fn left_behind(recorded: &Recorded) -> Vec<(PathBuf, Option<String>)> {
    match &recorded.change {
        Change::Replace { path, before, .. } => vec![(
            path.clone(),
            match before {
                Before::Kept { sha256, .. } => Some(sha256.clone()),
                Before::Absent | Before::NotKept { .. } => None,
            },
        )],
        Change::Move { .. } | Change::Trash { .. } => Vec::new(),
        Change::Command { files, .. } => files
            .iter()
            .filter_map(|file| {
                let left = match (&file.before, &file.after) {
                    (Was::File { sha256, .. }, _)
                    | (Was::SameBytes { .. }, Left::File { sha256 }) => Some(sha256.clone()),
                    (Was::Absent, _) => None,
                    // Not a file: the checks compare files only.
                    (Was::SameBytes { .. }, _)
                    | (
                        Was::NotKept { .. } | Was::Folder { .. } | Was::Link { .. } | Was::Other,
                        _,
                    ) => return None,
                };
                Some((file.path.clone(), left))
            })
            .collect(),
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
        Change::Command { files, .. } => {
            check_command(store, &dir, files, &Simulated::new())?;
            undo_command(store, &dir, files)
        }
    }
}

/// Sets the permission bits of `rel` beneath `dir` (reached without following a link).
fn set_mode(dir: &cap_std::fs::Dir, rel: &Path, mode: u32) -> Result<(), UndoError> {
    let holder = beneath::holder(dir, rel, false)?.ok_or_else(|| UndoError::Gone(rel.into()))?;
    let seen = holder
        .dir
        .symlink_metadata(&holder.name)
        .map_err(|e| failed(&e))?;
    if seen.file_type().is_symlink() {
        return Err(UndoError::PlaceTaken(rel.into()));
    }
    #[cfg(unix)]
    let perm =
        cap_std::fs::Permissions::from_std(std::os::unix::fs::PermissionsExt::from_mode(mode));
    #[cfg(not(unix))]
    let perm = {
        let _ = mode;
        seen.permissions()
    };
    holder
        .dir
        .set_permissions(&holder.name, perm)
        .map_err(|e| failed(&e))
}

/// Takes a command's changes back (after [`check_command`]): first removes what it left where
/// something else was (deepest first; a folder it created only when empty again), then puts
/// back folders, files (bytes and permissions), links and permissions (shallowest first),
/// and last the permissions of folders (deepest first, so a read-only folder is filled first).
fn undo_command(
    store: &UndoStore,
    dir: &cap_std::fs::Dir,
    files: &[CommandFile],
) -> Result<(), UndoError> {
    let mut sorted: Vec<&CommandFile> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    for file in sorted.iter().rev() {
        let replaced_in_place = matches!(
            (&file.before, &file.after),
            (Was::File { .. }, Left::File { .. })
                | (Was::SameBytes { .. }, _)
                | (Was::Folder { .. }, Left::Folder)
        );
        if replaced_in_place || file.after == Left::Absent {
            continue;
        }
        let Some(holder) = beneath::holder(dir, &file.path, false)? else {
            continue;
        };
        let removed = match &file.after {
            Left::Absent => Ok(()),
            Left::File { .. } | Left::Link { .. } => holder.dir.remove_file(&holder.name),
            Left::Folder => match holder.dir.remove_dir(&holder.name) {
                // A folder the command made that now holds the person's files stays.
                Err(_) if file.before == Was::Absent => Ok(()),
                other => other,
            },
        };
        removed.map_err(|e| failed(&e))?;
    }
    for file in &sorted {
        match &file.before {
            Was::Absent | Was::Other | Was::NotKept { .. } => {}
            Was::Folder { .. } => {
                if file.after != Left::Folder {
                    let holder = beneath::holder(dir, &file.path, true)?.ok_or_else(|| {
                        UndoError::Failed(format!(
                            "the folder of {} is missing",
                            file.path.display()
                        ))
                    })?;
                    holder
                        .dir
                        .create_dir(&holder.name)
                        .map_err(|e| failed(&e))?;
                }
            }
            Was::File { sha256, mode, .. } => {
                let bytes = store
                    .load(sha256)
                    .ok_or_else(|| UndoError::TooOld(sha256.clone()))?;
                put_back(dir, &file.path, &bytes, *mode)?;
            }
            Was::SameBytes { mode } => set_mode(dir, &file.path, *mode)?,
            Was::Link { target } => {
                let holder = beneath::holder(dir, &file.path, true)?.ok_or_else(|| {
                    UndoError::Failed(format!("the folder of {} is missing", file.path.display()))
                })?;
                #[cfg(unix)]
                holder
                    .dir
                    .symlink_contents(target, &holder.name)
                    .map_err(|e| failed(&e))?;
                #[cfg(not(unix))]
                let _ = (holder, target);
            }
        }
    }
    for file in sorted.iter().rev() {
        if let Was::Folder { mode } = file.before {
            set_mode(dir, &file.path, mode)?;
        }
    }
    Ok(())
}
