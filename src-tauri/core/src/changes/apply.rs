//! Applying a command's changes to the real folder: conflict check, before-copies, then every
//! step beneath the folder (never through a link), all or nothing.

use super::read::{ChangeSet, Entry, EntryKind, LowerState};
use super::{is_overlay_xattr, open_plain, permission_bits, with_access, Opened};
use crate::undo::beneath::{self, Holder};
use crate::undo::{CommandFile, Left, UndoStore, Was};
use cap_std::fs::Dir;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::{self, Read as _, Write as _};
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

/// How many items of deleted folders get before-copies, per command; past it the command is
/// applied but cannot be undone (the folder is recorded as [`Was::NotKept`]).
const DELETED_ITEMS_CAP: usize = 100_000;

/// What is needed to take a whole command back ([`crate::undo::Change::Command`]'s `files`):
/// every path it changed (relative, sorted, a folder before what is in it), with what was
/// there before (bytes kept in the [`UndoStore`]) and what the command left.
pub type CommandUndo = Vec<CommandFile>;

/// What [`apply`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// How to take it back.
    pub undo: CommandUndo,
    /// The special files (named pipes, sockets, devices) the command made, never applied:
    /// paths relative to the folder.
    pub skipped: Vec<PathBuf>,
}

/// Why the changes were not applied. In every case the folder is as it was (a failed step's
/// earlier steps were taken back; see [`ApplyError::Failed`]).
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// The item at `path` (relative) is not what it was when the changes were read: the
    /// person (or another program) changed it meanwhile. Nothing was changed.
    #[error("{path} changed since the command was tried")]
    Conflict {
        /// The path, relative to the folder.
        path: PathBuf,
    },
    /// A before-copy of `path` could not be kept (a full disk). Nothing was changed.
    #[error("the copy of {path} to undo the command could not be kept: {source}")]
    Keep {
        /// The path, relative to the folder.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The record of the change could not be written ([`apply_recorded`]). Nothing was
    /// changed.
    #[error("the change could not be recorded: {0}")]
    Record(#[source] io::Error),
    /// A step failed at `path`; what was done before it was put back (best effort: a step
    /// that cannot be taken back leaves its hidden `.askfirst-old-…` copy beside the item).
    #[error("applying the change to {path} failed: {source}")]
    Failed {
        /// The path, relative to the folder.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
}

fn failed(path: &Path) -> impl FnOnce(io::Error) -> ApplyError + '_ {
    move |source| ApplyError::Failed {
        path: path.to_owned(),
        source,
    }
}

fn undo_error(e: &crate::undo::UndoError) -> io::Error {
    io::Error::other(e.to_string())
}

/// The folder holding `rel` beneath `root` (no link on the way), opened.
fn holder_of(root: &Dir, rel: &Path) -> io::Result<Holder> {
    beneath::holder(root, rel, false)
        .map_err(|e| undo_error(&e))?
        .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "a folder on the way is missing"))
}

/// The state of what is at `rel` now; `None` when nothing is (or a folder on the way is not a
/// folder any more).
fn state_now(root: &Dir, rel: &Path) -> Result<Option<LowerState>, ()> {
    let holder = match beneath::holder(root, rel, false) {
        Ok(Some(holder)) => holder,
        Ok(None) | Err(crate::undo::UndoError::NotAFolder(_)) => return Ok(None),
        Err(_) => return Err(()),
    };
    let meta = match holder.dir.symlink_metadata(&holder.name) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(_) => return Err(()),
    };
    use cap_std::fs::MetadataExt as _;
    let ns = |s: i64, n: i64| s.saturating_mul(1_000_000_000).saturating_add(n);
    Ok(Some(LowerState {
        dev: meta.dev(),
        ino: meta.ino(),
        size: meta.size(),
        mtime_ns: ns(meta.mtime(), meta.mtime_nsec()),
        ctime_ns: ns(meta.ctime(), meta.ctime_nsec()),
        mode: meta.mode(),
    }))
}

/// Hex SHA-256 of the ordinary file at `path` (not through a link, not waiting on a pipe; see
/// [`open_plain`] for `upper`).
fn hash_file(path: &Path, upper: bool) -> io::Result<String> {
    let mut file = open_plain(path, upper)?;
    let mut hasher = Sha256::new();
    io::copy(&mut file, &mut hasher)?;
    Ok(format!("{:x}", hasher.finalize()))
}

/// Keeps before-copies within the store's limits.
struct Keeper<'a> {
    store: Option<&'a UndoStore>,
    kept_bytes: u64,
}

impl Keeper<'_> {
    /// What the real item at `real` (relative `rel`) was, with its bytes kept when it is a
    /// file within the limits.
    fn was(&mut self, real: &Path, rel: &Path) -> Result<Was, ApplyError> {
        let keep = |source| ApplyError::Keep {
            path: rel.to_owned(),
            source,
        };
        let meta = std::fs::symlink_metadata(real).map_err(keep)?;
        let file_type = meta.file_type();
        if file_type.is_symlink() {
            return Ok(Was::Link {
                target: std::fs::read_link(real).map_err(keep)?,
            });
        }
        if file_type.is_dir() {
            return Ok(Was::Folder {
                mode: permission_bits(meta.mode()),
            });
        }
        if !file_type.is_file() {
            return Ok(Was::Other);
        }
        let size = meta.size();
        let Some(store) = self.store else {
            return Ok(Was::NotKept { size });
        };
        if size > store.per_file_limit() || self.kept_bytes.saturating_add(size) > store.cap_bytes()
        {
            return Ok(Was::NotKept { size });
        }
        let file = open_plain(real, false).map_err(keep)?;
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        file.take(store.per_file_limit().saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(keep)?;
        let size = bytes.len() as u64;
        if size > store.per_file_limit() {
            return Ok(Was::NotKept { size });
        }
        self.kept_bytes += size;
        Ok(Was::File {
            sha256: store.save(&bytes).map_err(keep)?,
            mode: permission_bits(meta.mode()),
            size,
        })
    }

    /// Records of everything inside the real folder `rel` (deleted with it), added to
    /// `files`; when there are more than [`DELETED_ITEMS_CAP`], the folder is recorded as
    /// not kept instead.
    fn folder_inside(
        &mut self,
        root: &Path,
        rel: &Path,
        files: &mut BTreeMap<PathBuf, CommandFile>,
    ) -> Result<(), ApplyError> {
        let keep = |path: &Path| {
            let path = path.to_owned();
            move |source| ApplyError::Keep { path, source }
        };
        let mut inside = Vec::new();
        let mut seen_bytes = 0u64;
        let mut todo = vec![rel.to_owned()];
        while let Some(folder) = todo.pop() {
            for child in std::fs::read_dir(root.join(&folder)).map_err(keep(&folder))? {
                let child = child.map_err(keep(&folder))?;
                let path = folder.join(child.file_name());
                let meta = child.metadata().map_err(keep(&path))?;
                seen_bytes = seen_bytes.saturating_add(meta.len());
                if inside.len() >= DELETED_ITEMS_CAP {
                    files.insert(
                        rel.to_owned(),
                        CommandFile {
                            path: rel.to_owned(),
                            before: Was::NotKept { size: seen_bytes },
                            after: Left::Absent,
                        },
                    );
                    return Ok(());
                }
                if meta.is_dir() {
                    todo.push(path.clone());
                }
                inside.push(path);
            }
        }
        for path in inside {
            let before = self.was(&root.join(&path), &path)?;
            files.insert(
                path.clone(),
                CommandFile {
                    path,
                    before,
                    after: Left::Absent,
                },
            );
        }
        Ok(())
    }
}

/// A step done, to take back if a later one fails.
enum Done {
    /// The real item at `rel` was renamed to `aside` (a sibling): taken back by renaming it
    /// back (over whatever is at `rel` then).
    Aside { rel: PathBuf, aside: PathBuf },
    /// The item at `rel` was made by the apply: taken back by removing it.
    Made { rel: PathBuf, folder: bool },
    /// The permission bits of `rel` were changed from `mode`.
    Mode { rel: PathBuf, mode: u32 },
}

/// The steps done so far, taken back on drop unless committed.
struct Journal<'a> {
    root: &'a Dir,
    done: Vec<Done>,
    committed: bool,
}

impl Journal<'_> {
    /// A name beside `rel` to put the real item aside under.
    fn aside_of(rel: &Path) -> PathBuf {
        let name = format!(".askfirst-old-{}", uuid::Uuid::new_v4().simple());
        rel.parent()
            .map_or_else(|| PathBuf::from(&name), |p| p.join(&name))
    }

    /// Renames the real item at `rel` aside.
    fn put_aside(&mut self, rel: &Path) -> io::Result<()> {
        let holder = holder_of(self.root, rel)?;
        let aside = Self::aside_of(rel);
        let aside_name = aside.file_name().unwrap_or_default().to_owned();
        holder.dir.rename(&holder.name, &holder.dir, &aside_name)?;
        self.done.push(Done::Aside {
            rel: rel.to_owned(),
            aside,
        });
        Ok(())
    }

    /// Keeps the real file at `rel` as a hard link aside (the file stays in place, to be
    /// replaced atomically).
    fn link_aside(&mut self, rel: &Path) -> io::Result<()> {
        let holder = holder_of(self.root, rel)?;
        let aside = Self::aside_of(rel);
        let aside_name = aside.file_name().unwrap_or_default().to_owned();
        holder
            .dir
            .hard_link(&holder.name, &holder.dir, &aside_name)?;
        self.done.push(Done::Aside {
            rel: rel.to_owned(),
            aside,
        });
        Ok(())
    }

    fn set_mode(&mut self, rel: &Path, mode: u32) -> io::Result<()> {
        let holder = holder_of(self.root, rel)?;
        let meta = holder.dir.symlink_metadata(&holder.name)?;
        if meta.file_type().is_symlink() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "a link"));
        }
        let old = permission_bits(cap_std::fs::PermissionsExt::mode(&meta.permissions()));
        holder.dir.set_permissions(
            &holder.name,
            cap_std::fs::Permissions::from_std(std::fs::Permissions::from_mode(mode)),
        )?;
        self.done.push(Done::Mode {
            rel: rel.to_owned(),
            mode: old,
        });
        Ok(())
    }

    /// Takes every step back, newest first (best effort).
    fn roll_back(&mut self) {
        while let Some(step) = self.done.pop() {
            let _ = (|| -> io::Result<()> {
                match step {
                    Done::Aside { rel, aside } => {
                        let holder = holder_of(self.root, &rel)?;
                        let aside_name = aside.file_name().unwrap_or_default();
                        holder.dir.rename(aside_name, &holder.dir, &holder.name)
                    }
                    Done::Made { rel, folder } => {
                        let holder = holder_of(self.root, &rel)?;
                        if folder {
                            holder.dir.remove_dir(&holder.name)
                        } else {
                            holder.dir.remove_file(&holder.name)
                        }
                    }
                    Done::Mode { rel, mode } => {
                        let holder = holder_of(self.root, &rel)?;
                        holder.dir.set_permissions(
                            &holder.name,
                            cap_std::fs::Permissions::from_std(std::fs::Permissions::from_mode(
                                mode,
                            )),
                        )
                    }
                }
            })();
        }
    }

    /// Keeps every step, and removes what was put aside (best effort: a copy that cannot be
    /// removed stays, hidden).
    fn commit(mut self) {
        self.committed = true;
        for step in std::mem::take(&mut self.done) {
            if let Done::Aside { aside, .. } = step {
                if self.remove(&aside).is_err() {
                    // The command may have taken the permissions of the folder that holds it
                    // away (`chmod 000`), and the apply just gave it that mode: it is opened
                    // for a moment to remove the copy, then given its mode back.
                    let _ = self.with_folder_opened(aside.parent(), || self.remove(&aside));
                }
            }
        }
    }

    /// Removes what was put aside at `aside`.
    fn remove(&self, aside: &Path) -> io::Result<()> {
        let holder = holder_of(self.root, aside)?;
        let is_dir = holder
            .dir
            .symlink_metadata(&holder.name)
            .is_ok_and(|m| m.is_dir());
        if is_dir {
            holder.dir.remove_dir_all(&holder.name)
        } else {
            holder.dir.remove_file(&holder.name)
        }
    }

    /// Runs `f` with the folder `rel` (beneath the folder, not the folder itself) given the
    /// owner's read, write and search permission, then gives it its mode back.
    fn with_folder_opened(
        &self,
        rel: Option<&Path>,
        f: impl FnOnce() -> io::Result<()>,
    ) -> io::Result<()> {
        let Some(rel) = rel.filter(|r| !r.as_os_str().is_empty()) else {
            return f();
        };
        let holder = holder_of(self.root, rel)?;
        let meta = holder.dir.symlink_metadata(&holder.name)?;
        use cap_std::fs::MetadataExt as _;
        if !meta.is_dir() || meta.uid() != nix::unistd::geteuid().as_raw() {
            return f();
        }
        let mode = permission_bits(meta.mode());
        let set = |mode: u32| {
            holder.dir.set_permissions(
                &holder.name,
                cap_std::fs::Permissions::from_std(std::fs::Permissions::from_mode(mode)),
            )
        };
        set(mode | 0o700)?;
        let out = f();
        let back = set(mode);
        out.and(back)
    }
}

impl Drop for Journal<'_> {
    fn drop(&mut self) {
        if !self.committed {
            self.roll_back();
        }
    }
}

/// Takes overlayfs's own marks (`user.overlay.*`) off the upper item at `path` (given the
/// owner's read and write permission for that while when the command took them away).
fn strip_overlay_marks(path: &Path) -> io::Result<()> {
    let strip = || -> io::Result<()> {
        for name in xattr::list(path)? {
            if is_overlay_xattr(&name) {
                xattr::remove(path, &name)?;
            }
        }
        Ok(())
    };
    match strip() {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => with_access(path, 0o600, strip),
        other => other,
    }
}

/// Puts the upper file `up` at `rel` beneath `root`, replacing what is there: renamed when on
/// the same file system (it keeps its permission bits and extended attributes other than the
/// overlay's), else copied to a temporary file beside it, given `mode`, synced and renamed
/// into place (without extended attributes).
fn place_file(root: &Dir, up: &Path, rel: &Path, mode: u32) -> io::Result<()> {
    strip_overlay_marks(up)?;
    let holder = holder_of(root, rel)?;
    let (up_folder, up_name) = match (up.parent(), up.file_name()) {
        (Some(folder), Some(name)) => (folder, name),
        _ => return Err(io::Error::new(io::ErrorKind::InvalidInput, "no file name")),
    };
    let up_dir = Dir::open_ambient_dir(up_folder, cap_std::ambient_authority())?;
    match up_dir.rename(up_name, &holder.dir, &holder.name) {
        Err(e) if e.raw_os_error() == Some(nix::errno::Errno::EXDEV as i32) => {}
        // Renamed: it is given exactly the mode the change set holds (which may withhold
        // bits the command set on the copy).
        Ok(()) => {
            return holder.dir.set_permissions(
                &holder.name,
                cap_std::fs::Permissions::from_std(std::fs::Permissions::from_mode(mode)),
            )
        }
        Err(e) => return Err(e),
    }
    let tmp = format!(".askfirst-new-{}", uuid::Uuid::new_v4().simple());
    let copied = (|| {
        let mut from = open_plain(up, true)?;
        let mut options = cap_std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        let mut to = holder.dir.open_with(&tmp, &options)?.into_std();
        io::copy(&mut from, &mut to)?;
        to.set_permissions(std::fs::Permissions::from_mode(mode))?;
        to.flush()?;
        to.sync_all()?;
        drop(to);
        holder.dir.rename(&tmp, &holder.dir, &holder.name)
    })();
    if copied.is_err() {
        let _ = holder.dir.remove_file(&tmp);
    }
    copied
}

/// [`apply_recorded`] without a record to write first.
///
/// # Errors
/// As [`apply_recorded`] (never [`ApplyError::Record`]).
pub fn apply(
    set: &ChangeSet,
    real_root: &Path,
    upper: &Path,
    store: Option<&UndoStore>,
) -> Result<Applied, ApplyError> {
    apply_recorded(set, real_root, upper, store, &mut |_| Ok(()))
}

/// Applies exactly `set` (read from `upper` by [`super::read`]) to the folder `real_root`, all
/// or nothing:
///
/// 1. every entry's real item must still be as it was read ([`LowerState`]: device, inode,
///    size, times, mode; or still absent), else [`ApplyError::Conflict`] and nothing changes;
/// 2. before-copies go to `store`: every file changed or deleted, and everything inside a
///    deleted folder (files over [`UndoStore::per_file_limit`], past the store's cap or past
///    100,000 items, or every file when `store` is `None`, are recorded as not kept: the
///    command then cannot be undone);
/// 3. `record` gets the [`CommandUndo`] (to log it durably before anything changes); an
///    error there stops it with [`ApplyError::Record`];
/// 4. deletions (deepest first; a folder with everything in it), created folders (shallowest
///    first), files (renamed from `upper`, which they leave; copied and synced when on another
///    file system), links (made as links, never followed), permission changes, and last the
///    permissions of folders (deepest first). Every step reaches its item beneath the folder
///    without following a link. Items replaced or deleted are first renamed (or, for files,
///    hard-linked) aside under a hidden name beside them and removed only when all steps are
///    done; when a step fails, the steps done are taken back from those, newest first.
///
/// Applied files and folders never carry `user.overlay.*` attributes; a file renamed from the
/// upper directory keeps its other extended attributes, a copied one and a created folder
/// have none. Special files are never applied ([`Applied::skipped`]). When a file inside a
/// deleted folder changed after the read, the folder's own state may not show it: its latest
/// bytes are what the before-copy keeps.
///
/// # Errors
/// [`ApplyError`]; the folder is then as it was.
pub fn apply_recorded(
    set: &ChangeSet,
    real_root: &Path,
    upper: &Path,
    store: Option<&UndoStore>,
    record: &mut dyn FnMut(&CommandUndo) -> io::Result<()>,
) -> Result<Applied, ApplyError> {
    let root_failed = |source| ApplyError::Failed {
        path: PathBuf::new(),
        source,
    };
    let root =
        Dir::open_ambient_dir(real_root, cap_std::ambient_authority()).map_err(root_failed)?;

    // 1. Conflicts: the first entry of a path holds what was there.
    let mut previous: Option<&Path> = None;
    for entry in &set.entries {
        if previous == Some(entry.path.as_path()) {
            continue;
        }
        previous = Some(&entry.path);
        if let EntryKind::Special { .. } = entry.kind {
            continue;
        }
        let now = state_now(&root, &entry.path).map_err(|()| ApplyError::Conflict {
            path: entry.path.clone(),
        })?;
        if now != entry.lower {
            return Err(ApplyError::Conflict {
                path: entry.path.clone(),
            });
        }
    }

    // 2. Before-copies and what the command leaves. The upper folders files are moved out of
    // are made searchable and writable for the while (a command on the copy may have taken
    // that away; the folders created in the real folder get the command's modes).
    let mut opened = Opened::default();
    let mut keeper = Keeper {
        store,
        kept_bytes: 0,
    };
    let mut files: BTreeMap<PathBuf, CommandFile> = BTreeMap::new();
    let mut skipped = Vec::new();
    for entry in &set.entries {
        let real = real_root.join(&entry.path);
        let up = upper.join(&entry.path);
        if let EntryKind::CreatedFile { .. } | EntryKind::ChangedFile { .. } = entry.kind {
            opened
                .reach(upper, entry.path.parent().unwrap_or(Path::new("")), 0o700)
                .map_err(failed(&entry.path))?;
        }
        let hash_up = || {
            hash_file(&up, true).map_err(|source| ApplyError::Failed {
                path: entry.path.clone(),
                source,
            })
        };
        let (before, after) = match &entry.kind {
            EntryKind::Special { .. } => {
                skipped.push(entry.path.clone());
                continue;
            }
            EntryKind::Deleted { folder } => {
                if *folder {
                    keeper.folder_inside(real_root, &entry.path, &mut files)?;
                }
                (keeper.was(&real, &entry.path)?, Left::Absent)
            }
            EntryKind::ChangedFile { .. } => (
                keeper.was(&real, &entry.path)?,
                Left::File { sha256: hash_up()? },
            ),
            EntryKind::ModeOnly { .. } => {
                if entry.lower.is_some_and(|l| l.is_folder()) {
                    (keeper.was(&real, &entry.path)?, Left::Folder)
                } else {
                    let mode = entry.lower.map_or(0, |l| permission_bits(l.mode));
                    (
                        Was::SameBytes { mode },
                        Left::File {
                            sha256: hash_file(&real, false).map_err(failed(&entry.path))?,
                        },
                    )
                }
            }
            EntryKind::ChangedLink { target } => (
                keeper.was(&real, &entry.path)?,
                Left::Link {
                    target: target.clone(),
                },
            ),
            EntryKind::CreatedFile { .. } => (Was::Absent, Left::File { sha256: hash_up()? }),
            EntryKind::CreatedFolder { .. } => (Was::Absent, Left::Folder),
            EntryKind::CreatedLink { target } => (
                Was::Absent,
                Left::Link {
                    target: target.clone(),
                },
            ),
        };
        match files.get_mut(&entry.path) {
            // A deletion then a creation at one path: what was there, what is there now.
            Some(file) if before == Was::Absent => file.after = after,
            Some(_) | None => {
                files.insert(
                    entry.path.clone(),
                    CommandFile {
                        path: entry.path.clone(),
                        before,
                        after,
                    },
                );
            }
        }
    }
    let undo: CommandUndo = files.into_values().collect();

    // 3. The record.
    record(&undo).map_err(ApplyError::Record)?;

    // 4. The steps.
    let mut journal = Journal {
        root: &root,
        done: Vec::new(),
        committed: false,
    };
    run_steps(&mut journal, &set.entries, upper)?;
    journal.commit();
    Ok(Applied { undo, skipped })
}

/// Every step of step 4 of [`apply_recorded`], journalled.
fn run_steps(journal: &mut Journal<'_>, entries: &[Entry], upper: &Path) -> Result<(), ApplyError> {
    let root = journal.root;
    for entry in entries.iter().rev() {
        if let EntryKind::Deleted { .. } = entry.kind {
            journal
                .put_aside(&entry.path)
                .map_err(failed(&entry.path))?;
        }
    }
    for entry in entries {
        if let EntryKind::CreatedFolder { .. } = entry.kind {
            let made = holder_of(root, &entry.path).and_then(|h| h.dir.create_dir(&h.name));
            made.map_err(failed(&entry.path))?;
            journal.done.push(Done::Made {
                rel: entry.path.clone(),
                folder: true,
            });
        }
    }
    for entry in entries {
        let path = &entry.path;
        match &entry.kind {
            EntryKind::CreatedFile { mode, .. } => {
                place_file(root, &upper.join(path), path, *mode).map_err(failed(path))?;
                journal.done.push(Done::Made {
                    rel: path.clone(),
                    folder: false,
                });
            }
            EntryKind::ChangedFile { mode, .. } => {
                journal.link_aside(path).map_err(failed(path))?;
                place_file(root, &upper.join(path), path, *mode).map_err(failed(path))?;
            }
            EntryKind::CreatedLink { target } | EntryKind::ChangedLink { target } => {
                if let EntryKind::ChangedLink { .. } = entry.kind {
                    journal.put_aside(path).map_err(failed(path))?;
                }
                let made =
                    holder_of(root, path).and_then(|h| h.dir.symlink_contents(target, &h.name));
                made.map_err(failed(path))?;
                journal.done.push(Done::Made {
                    rel: path.clone(),
                    folder: false,
                });
            }
            EntryKind::ModeOnly { mode } if !entry.lower.is_some_and(|l| l.is_folder()) => {
                journal.set_mode(path, *mode).map_err(failed(path))?;
            }
            EntryKind::ModeOnly { .. }
            | EntryKind::CreatedFolder { .. }
            | EntryKind::Deleted { .. }
            | EntryKind::Special { .. } => {}
        }
    }
    for entry in entries.iter().rev() {
        match entry.kind {
            EntryKind::CreatedFolder { mode } | EntryKind::ModeOnly { mode }
                if entry.lower.is_none_or(|l| l.is_folder()) =>
            {
                journal
                    .set_mode(&entry.path, mode)
                    .map_err(failed(&entry.path))?;
            }
            EntryKind::CreatedFolder { .. }
            | EntryKind::ModeOnly { .. }
            | EntryKind::CreatedFile { .. }
            | EntryKind::CreatedLink { .. }
            | EntryKind::ChangedFile { .. }
            | EntryKind::ChangedLink { .. }
            | EntryKind::Deleted { .. }
            | EntryKind::Special { .. } => {}
        }
    }
    Ok(())
}
