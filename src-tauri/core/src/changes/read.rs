//! Reading an overlay's upper directory into the list of changes a command made.

use super::{open_plain, overlay_mark, permission_bits, Opened};
use askfirst_protocol::{ChangeKind, FileChange};
use std::fs::Metadata;
use std::io::{self, Read as _};
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
use std::path::{Component, Path, PathBuf};

/// The largest file, in bytes, a card shows a diff of (old and new each).
const DIFF_SOURCE_MAX_BYTES: u64 = 256 * 1024;

/// How many bytes of diffs one card gets in all; past it, files have no diff.
const DIFF_BUDGET_BYTES: usize = 4 * 1024 * 1024;

/// What a real file or folder was when the changes were read: checked again right before
/// [`super::apply`], which refuses when it differs (the person changed it meanwhile).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LowerState {
    /// Its device (`st_dev`).
    pub dev: u64,
    /// Its inode (`st_ino`).
    pub ino: u64,
    /// Its size, in bytes (`st_size`).
    pub size: u64,
    /// Its modification time, in nanoseconds since 1970.
    pub mtime_ns: i64,
    /// Its status change time, in nanoseconds since 1970.
    pub ctime_ns: i64,
    /// Its whole `st_mode` (type and permission bits).
    pub mode: u32,
}

impl LowerState {
    /// The state of `meta` (from `symlink_metadata`).
    pub fn of(meta: &Metadata) -> Self {
        Self {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime_ns: meta
                .mtime()
                .saturating_mul(1_000_000_000)
                .saturating_add(meta.mtime_nsec()),
            ctime_ns: meta
                .ctime()
                .saturating_mul(1_000_000_000)
                .saturating_add(meta.ctime_nsec()),
            mode: meta.mode(),
        }
    }

    /// Whether it was a folder (not a link to one).
    pub fn is_folder(&self) -> bool {
        self.mode & 0o170_000 == 0o040_000
    }
}

/// What kind of special file a command made (never applied).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecialKind {
    /// A named pipe (FIFO).
    Fifo,
    /// A Unix socket.
    Socket,
    /// A character or block device (other than an overlay whiteout).
    Device,
}

/// What happened at one path. A path whose item changed type (a file replaced by a folder, a
/// link by a file, …) has two entries: [`EntryKind::Deleted`] first, then the `Created…` one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryKind {
    /// A new file: its size in bytes and permission bits.
    CreatedFile {
        /// Its size, in bytes.
        size: u64,
        /// Its permission bits.
        mode: u32,
    },
    /// A new folder (what is in it has entries of its own).
    CreatedFolder {
        /// Its permission bits.
        mode: u32,
    },
    /// A new symbolic link.
    CreatedLink {
        /// Where it leads, exactly as written in it.
        target: PathBuf,
    },
    /// A file whose bytes changed: its new size and permission bits.
    ChangedFile {
        /// Its new size, in bytes.
        size: u64,
        /// Its new permission bits.
        mode: u32,
    },
    /// A file or folder whose permission bits alone changed.
    ModeOnly {
        /// The new permission bits.
        mode: u32,
    },
    /// A symbolic link that leads elsewhere now.
    ChangedLink {
        /// Where it leads now, exactly as written in it.
        target: PathBuf,
    },
    /// Deleted: a file, link or special file, or a folder with everything in it (one entry).
    Deleted {
        /// Whether it was a folder.
        folder: bool,
    },
    /// A named pipe, socket or device the command made: never applied (what was at its
    /// place, if anything, stays).
    Special {
        /// What it is.
        what: SpecialKind,
    },
}

/// One change at one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The path relative to the folder.
    pub path: PathBuf,
    /// What happened there.
    pub kind: EntryKind,
    /// What the real item at the path was when read; `None` when there was none.
    pub lower: Option<LowerState>,
}

/// Every change a command made, sorted by path (a folder before what is in it; at one path a
/// deletion before a creation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeSet {
    /// The changes.
    pub entries: Vec<Entry>,
    /// The upper directory they were read from (for the card's diffs).
    upper: PathBuf,
}

/// Why the changes could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The command changed more than `cap` entries.
    #[error("the command changed more than {cap} files and folders")]
    TooMany {
        /// The cap given to [`read`].
        cap: usize,
    },
    /// A file of the upper directory or of the folder could not be read.
    #[error("{path} could not be read: {source}")]
    Io {
        /// The path (absolute).
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> ReadError + '_ {
    move |source| ReadError::Io {
        path: path.to_owned(),
        source,
    }
}

/// The lower item at `path`: `None` when there is none (or a file is where a folder on the
/// way would be).
fn lower_meta(path: &Path) -> Result<Option<Metadata>, ReadError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => Ok(Some(meta)),
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            Ok(None)
        }
        Err(e) => Err(io_error(path)(e)),
    }
}

/// Whether the upper item is a whiteout: a character device 0:0, or a zero-size file marked
/// `user.overlay.whiteout`.
fn is_whiteout(path: &Path, meta: &Metadata) -> bool {
    let file_type = meta.file_type();
    (file_type.is_char_device() && meta.rdev() == 0)
        || (file_type.is_file() && meta.size() == 0 && overlay_mark(path, "whiteout").is_some())
}

/// Whether the ordinary files `up` (of the upper directory) and `b` (of the same size) hold
/// the same bytes. Neither is opened through a link or waited on as a pipe.
fn same_bytes(up: &Path, b: &Path) -> io::Result<bool> {
    let (mut a, mut b) = (open_plain(up, true)?, open_plain(b, false)?);
    let (mut buf_a, mut buf_b) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    loop {
        let n = read_full(&mut a, &mut buf_a)?;
        let m = read_full(&mut b, &mut buf_b)?;
        if n != m || buf_a[..n] != buf_b[..m] {
            return Ok(false);
        }
        if n < buf_a.len() {
            return Ok(true);
        }
    }
}

/// Reads until `buf` is full or the file ends; how many bytes were read.
fn read_full(file: &mut std::fs::File, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

struct Walk<'a> {
    root: &'a Path,
    upper: &'a Path,
    cap: usize,
    entries: Vec<Entry>,
    /// Upper folders the command left unreadable, readable while the walk lasts.
    opened: Opened,
}

impl Walk<'_> {
    fn push(
        &mut self,
        path: &Path,
        kind: EntryKind,
        lower: Option<&Metadata>,
    ) -> Result<(), ReadError> {
        if self.entries.len() >= self.cap {
            return Err(ReadError::TooMany { cap: self.cap });
        }
        self.entries.push(Entry {
            path: path.to_owned(),
            kind,
            lower: lower.map(LowerState::of),
        });
        Ok(())
    }

    /// One item of the upper directory at `rel`. `look_lower`: whether the real folder may
    /// hold an item at `rel` (every folder on the way is a real folder there, and none of
    /// them was replaced wholesale). Returns the folder to walk next, with the same flag for
    /// what is in it.
    fn item(&mut self, rel: &Path, look_lower: bool) -> Result<Option<(PathBuf, bool)>, ReadError> {
        let up = self.upper.join(rel);
        let real = self.root.join(rel);
        let meta = std::fs::symlink_metadata(&up).map_err(io_error(&up))?;
        if meta.is_dir() {
            // Its marks are read and what it holds listed; `mode` below is still the
            // command's.
            self.opened.give(&up, &meta, 0o500).map_err(io_error(&up))?;
        }
        let lower = if look_lower { lower_meta(&real)? } else { None };
        let lower = lower.as_ref();
        if is_whiteout(&up, &meta) {
            if let Some(l) = lower {
                self.push(rel, EntryKind::Deleted { folder: l.is_dir() }, Some(l))?;
            }
            return Ok(None);
        }
        let file_type = meta.file_type();
        let mode = granted_mode(
            permission_bits(meta.mode()),
            lower.map(|l| permission_bits(l.mode())),
        );
        // A folder moved by the overlay (`redirect_dir`) or a file copied up without its
        // bytes (`metacopy`) would hide content in the real folder: not read, rather than
        // read wrong (both are off for unprivileged mounts).
        if (file_type.is_dir() || file_type.is_file())
            && (overlay_mark(&up, "redirect").is_some() || overlay_mark(&up, "metacopy").is_some())
        {
            return Err(io_error(&up)(io::Error::new(
                io::ErrorKind::Unsupported,
                "the overlay moved or copied it in a way Ask First does not read",
            )));
        }
        if file_type.is_dir() {
            let opaque = overlay_mark(&up, "opaque").is_some_and(|v| v == b"y");
            return match lower {
                Some(l) if l.is_dir() => {
                    if permission_bits(l.mode()) != mode {
                        self.push(rel, EntryKind::ModeOnly { mode }, Some(l))?;
                    }
                    if opaque {
                        // Everything the folder held is gone; what the upper folder holds is
                        // new (compared with nothing).
                        self.all_deleted_in(rel)?;
                    }
                    Ok(Some((rel.to_owned(), !opaque)))
                }
                Some(l) => {
                    self.push(rel, EntryKind::Deleted { folder: false }, Some(l))?;
                    self.push(rel, EntryKind::CreatedFolder { mode }, None)?;
                    Ok(Some((rel.to_owned(), false)))
                }
                None => {
                    self.push(rel, EntryKind::CreatedFolder { mode }, None)?;
                    Ok(Some((rel.to_owned(), false)))
                }
            };
        }
        if file_type.is_file() {
            let size = meta.size();
            match lower {
                Some(l) if l.is_file() => {
                    let same =
                        l.size() == size && same_bytes(&up, &real).map_err(io_error(&real))?;
                    if !same {
                        self.push(rel, EntryKind::ChangedFile { size, mode }, Some(l))?;
                    } else if permission_bits(l.mode()) != mode {
                        self.push(rel, EntryKind::ModeOnly { mode }, Some(l))?;
                    }
                }
                Some(l) => {
                    self.push(rel, EntryKind::Deleted { folder: l.is_dir() }, Some(l))?;
                    self.push(rel, EntryKind::CreatedFile { size, mode }, None)?;
                }
                None => self.push(rel, EntryKind::CreatedFile { size, mode }, None)?,
            }
            return Ok(None);
        }
        if file_type.is_symlink() {
            let target = std::fs::read_link(&up).map_err(io_error(&up))?;
            match lower {
                Some(l) if l.file_type().is_symlink() => {
                    if std::fs::read_link(&real).map_err(io_error(&real))? != target {
                        self.push(rel, EntryKind::ChangedLink { target }, Some(l))?;
                    }
                }
                Some(l) => {
                    self.push(rel, EntryKind::Deleted { folder: l.is_dir() }, Some(l))?;
                    self.push(rel, EntryKind::CreatedLink { target }, None)?;
                }
                None => self.push(rel, EntryKind::CreatedLink { target }, None)?,
            }
            return Ok(None);
        }
        let what = if file_type.is_fifo() {
            SpecialKind::Fifo
        } else if file_type.is_socket() {
            SpecialKind::Socket
        } else {
            SpecialKind::Device
        };
        self.push(rel, EntryKind::Special { what }, lower)?;
        Ok(None)
    }

    /// A deletion entry for everything the real folder `rel` holds (an opaque folder).
    fn all_deleted_in(&mut self, rel: &Path) -> Result<(), ReadError> {
        let real = self.root.join(rel);
        for child in std::fs::read_dir(&real).map_err(io_error(&real))? {
            let child = child.map_err(io_error(&real))?;
            let meta = child.metadata().map_err(io_error(&child.path()))?;
            let path = rel.join(child.file_name());
            self.push(
                &path,
                EntryKind::Deleted {
                    folder: meta.is_dir(),
                },
                Some(&meta),
            )?;
        }
        Ok(())
    }
}

/// Reads what a command changed: walks the overlay's `upper` directory (never the real
/// folder, except the items of a folder the command emptied and made again, and the items it
/// changed, to compare) and compares each item with the real one beneath `real_root` (which
/// the command did not touch), without following any link.
///
/// A file only touched, or whose bytes were written back unchanged, has no entry; a folder
/// that merely holds changes has none either (unless its permissions changed). Every item
/// inside a new folder has an entry of its own; a deleted folder is one entry.
/// The permissions of the folder itself (`chmod` of `.`) are not read.
///
/// # Errors
/// [`ReadError::TooMany`] past `cap` entries (the walk stops there);
/// [`ReadError::Io`] when an item cannot be read, or is marked by an overlay mounted with
/// `redirect_dir` or `metacopy` (never the case for the unprivileged mounts this reads).
pub fn read(real_root: &Path, upper: &Path, cap: usize) -> Result<ChangeSet, ReadError> {
    let mut walk = Walk {
        root: real_root,
        upper,
        cap,
        entries: Vec::new(),
        opened: Opened::default(),
    };
    walk.opened
        .reach(upper, Path::new(""), 0o500)
        .map_err(io_error(upper))?;
    let mut folders = vec![(PathBuf::new(), true)];
    while let Some((rel, look_lower)) = folders.pop() {
        let here = upper.join(&rel);
        let mut names = Vec::new();
        for child in std::fs::read_dir(&here).map_err(io_error(&here))? {
            names.push(child.map_err(io_error(&here))?.file_name());
        }
        for name in names {
            if let Some(next) = walk.item(&rel.join(name), look_lower)? {
                folders.push(next);
            }
        }
    }
    let mut entries = std::mem::take(&mut walk.entries);
    entries.sort_by(|a, b| {
        let created = |e: &Entry| !matches!(e.kind, EntryKind::Deleted { .. });
        a.path.cmp(&b.path).then(created(a).cmp(&created(b)))
    });
    Ok(ChangeSet {
        entries,
        upper: upper.to_owned(),
    })
}

impl ChangeSet {
    /// Whether the command changed nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The bytes of the files created or changed, together (what applying writes).
    pub fn upper_bytes(&self) -> u64 {
        self.entries
            .iter()
            .map(|e| match e.kind {
                EntryKind::CreatedFile { size, .. } | EntryKind::ChangedFile { size, .. } => size,
                EntryKind::CreatedFolder { .. }
                | EntryKind::CreatedLink { .. }
                | EntryKind::ModeOnly { .. }
                | EntryKind::ChangedLink { .. }
                | EntryKind::Deleted { .. }
                | EntryKind::Special { .. } => 0,
            })
            .sum()
    }

    /// The upper directory the changes were read from.
    pub fn upper(&self) -> &Path {
        &self.upper
    }

    /// What the card lists, in the order of the entries: one [`FileChange`] per entry (a
    /// deleted folder is one, `folder: true`; a created folder is one and each item in it one
    /// more). Special files are left out (they are never applied; [`super::Applied::skipped`]
    /// names them). Links have `target` and `outside` (the target, read lexically against the
    /// link's folder inside `root`, leaves `root`). Text files created or changed (valid UTF-8
    /// without NUL, at most 256 KiB before and after) have a unified `diff` (the format of
    /// the edit tools' previews), up to 4 MiB of diffs per card. `root` is the real folder.
    pub fn for_card(&self, root: &Path) -> Vec<FileChange> {
        let mut budget = DIFF_BUDGET_BYTES;
        let mut opened = Opened::default();
        let mut out = Vec::with_capacity(self.entries.len());
        for entry in &self.entries {
            let mut change = FileChange {
                change: ChangeKind::Created,
                path: shown(&entry.path),
                folder: false,
                size: None,
                target: None,
                outside: false,
                mode: None,
                diff: None,
            };
            match &entry.kind {
                EntryKind::CreatedFile { size, mode } => {
                    change.size = Some(*size);
                    // Said on the card when it can run as a program.
                    change.mode = (mode & 0o111 != 0).then_some(*mode);
                    change.diff = self.diff(root, entry, false, &mut budget, &mut opened);
                }
                EntryKind::CreatedFolder { .. } => change.folder = true,
                EntryKind::CreatedLink { target } | EntryKind::ChangedLink { target } => {
                    change.change = ChangeKind::Link;
                    change.target = Some(target.to_string_lossy().into_owned());
                    change.outside = leads_outside(root, &entry.path, target);
                }
                EntryKind::ChangedFile { size, mode } => {
                    change.change = ChangeKind::Changed;
                    change.size = Some(*size);
                    change.mode = entry
                        .lower
                        .filter(|l| permission_bits(l.mode) != *mode)
                        .map(|_| *mode);
                    change.diff = self.diff(root, entry, true, &mut budget, &mut opened);
                }
                EntryKind::ModeOnly { mode } => {
                    change.change = ChangeKind::Mode;
                    change.folder = entry.lower.is_some_and(|l| l.is_folder());
                    change.mode = Some(*mode);
                }
                EntryKind::Deleted { folder } => {
                    change.change = ChangeKind::Deleted;
                    change.folder = *folder;
                }
                EntryKind::Special { .. } => continue,
            }
            out.push(change);
        }
        out
    }

    /// The diff of a text file created or changed, within `budget` (lessened by its size).
    fn diff(
        &self,
        root: &Path,
        entry: &Entry,
        changed: bool,
        budget: &mut usize,
        opened: &mut Opened,
    ) -> Option<String> {
        if *budget == 0 {
            return None;
        }
        opened
            .reach(&self.upper, entry.path.parent()?, 0o100)
            .ok()?;
        let new = read_text(&self.upper.join(&entry.path), true)?;
        let old = if changed {
            Some(read_text(&root.join(&entry.path), false)?)
        } else {
            None
        };
        let diff = crate::tools::preview::unified_diff(old.as_deref(), &new, &shown(&entry.path));
        if diff.is_empty() || diff.len() > *budget {
            return None;
        }
        *budget -= diff.len();
        Some(diff)
    }
}

/// The text of the ordinary file at `path` when it is UTF-8 without NUL and at most
/// [`DIFF_SOURCE_MAX_BYTES`] (never opened through a link, never waited on as a pipe; see
/// [`open_plain`] for `upper`).
fn read_text(path: &Path, upper: bool) -> Option<String> {
    let file = open_plain(path, upper).ok()?;
    let mut bytes = Vec::new();
    file.take(DIFF_SOURCE_MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() as u64 > DIFF_SOURCE_MAX_BYTES {
        return None;
    }
    String::from_utf8(bytes).ok().filter(|t| !t.contains('\0'))
}

/// `rel` as the card shows it: parts joined by `/` (lossily UTF-8).
fn shown(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether the link at `link` (relative to `root`) with `target` leads out of `root`, read
/// lexically: an absolute target not beneath `root`, or a relative one whose `..` climb above
/// the folder. (A link through another link is not followed.)
pub(crate) fn leads_outside(root: &Path, link: &Path, target: &Path) -> bool {
    if target.is_absolute() {
        return !askfirst_shell_line::path::lexical(target)
            .starts_with(askfirst_shell_line::path::lexical(root));
    }
    let mut depth: Vec<&std::ffi::OsStr> = link
        .parent()
        .map(|p| p.components().map(Component::as_os_str).collect())
        .unwrap_or_default();
    for component in target.components() {
        match component {
            Component::Normal(name) => depth.push(name),
            Component::CurDir => {}
            Component::ParentDir => {
                if depth.pop().is_none() {
                    return true;
                }
            }
            Component::RootDir | Component::Prefix(_) => return true,
        }
    }
    false
}

/// The permission bits a change may give: the command's `mode`, without set-user-id,
/// set-group-id, sticky or write-for-everyone bits the item did not already have (`before`,
/// `None` for a new item): a command cannot make a program that runs with the person's rights
/// for anyone, or a file anyone may change, by a `chmod` the card would only show as
/// "permissions" (found by a hostile review: `chmod 4777 run.sh` was applied as it was).
fn granted_mode(mode: u32, before: Option<u32>) -> u32 {
    const WITHHELD: u32 = 0o7002;
    let kept = before.unwrap_or(0) & WITHHELD;
    (mode & !WITHHELD) | (mode & kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_leading_out_of_the_folder_are_told_lexically() {
        let root = Path::new("/home/ann/work");
        let cases = [
            ("a", "b", false),
            ("d/a", "../b", false),
            ("a", "../b", true),
            ("d/e/a", "../../../x", true),
            ("d/a", "../../work/b", true),
            ("a", "/etc/passwd", true),
            ("a", "/home/ann/work/x", false),
            ("a", "/home/ann/work/../other", true),
            ("a", "./././b", false),
        ];
        for (link, target, outside) in cases {
            assert_eq!(
                leads_outside(root, Path::new(link), Path::new(target)),
                outside,
                "{link} -> {target}"
            );
        }
    }
}
