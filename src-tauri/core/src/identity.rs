//! What a path *is* on disk, rather than how it is spelled: the device and inode number of the
//! file or folder it leads to, and the names its folders really have. Rules, hard denials and
//! grants compare these (DESIGN.md §7.3), so that on a case-insensitive file system (a USB
//! stick, exFAT, an SMB share) `TAXES/x` is seen to be inside `Taxes`, and a bind mount or a
//! second name (hard link) of Ask First's own files is seen to be them.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// The identity of a file or folder: its device and inode number (`st_dev`, `st_ino`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileId {
    device: u64,
    inode: u64,
}

impl FileId {
    /// The identity of what `path` leads to (symlinks followed); `None` when it does not exist
    /// or cannot be read.
    pub fn of(path: &Path) -> Option<FileId> {
        std::fs::metadata(path)
            .ok()
            .map(|m| Self::from_metadata(&m))
    }

    /// The identity of `path` itself (a symlink is not followed).
    pub fn of_link(path: &Path) -> Option<FileId> {
        std::fs::symlink_metadata(path)
            .ok()
            .map(|m| Self::from_metadata(&m))
    }

    #[cfg(unix)]
    fn from_metadata(metadata: &std::fs::Metadata) -> FileId {
        use std::os::unix::fs::MetadataExt;
        FileId {
            device: metadata.dev(),
            inode: metadata.ino(),
        }
    }

    #[cfg(not(unix))]
    fn from_metadata(_metadata: &std::fs::Metadata) -> FileId {
        // No identity to compare elsewhere: every path is its own (spelling only).
        FileId {
            device: 0,
            inode: 0,
        }
    }
}

/// The most entries of one folder read to find a name's real spelling; past that, the name is
/// kept as given (rules then still match its given spelling).
const MAX_ENTRIES_SCANNED: usize = 100_000;

/// The first existing folder or file on the way up from `path` (itself included) whose
/// identity is in `wanted`, or `None`. Walks `path`'s ancestors; parts that do not exist yet
/// are skipped.
pub fn first_ancestor_among(path: &Path, wanted: &[FileId]) -> Option<FileId> {
    path.ancestors()
        .filter_map(FileId::of)
        .find(|id| wanted.contains(id))
}

/// Whether `path` (or one of its folders) is the file or folder `ancestor`.
pub fn is_within(path: &Path, ancestor: FileId) -> bool {
    first_ancestor_among(path, &[ancestor]).is_some()
}

/// `relative` (a path inside `root`, no `..`) with every existing part spelled as the folder
/// really names it. On a case-insensitive or normalising file system `TAXES/x.txt` becomes
/// `Taxes/x.txt` when the folder is called `Taxes`; parts that do not exist are kept as given.
/// Separators are `/`; a name with a backslash keeps it (it is part of the name on Unix).
pub fn real_spelling(root: &Path, relative: &Path) -> String {
    let mut folder = root.to_path_buf();
    let mut parts: Vec<OsString> = Vec::new();
    let mut exists = true;
    for component in relative.components() {
        let Component::Normal(name) = component else {
            continue;
        };
        let mut real = name.to_owned();
        if exists {
            match real_name(&folder, name) {
                Some(found) => real = found,
                None => exists = false,
            }
        }
        folder.push(&real);
        parts.push(real);
    }
    if parts.is_empty() {
        return ".".to_owned();
    }
    parts
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The name under which `folder` holds what `name` leads to: `name` itself when the folder has
/// an entry spelled exactly so, otherwise the entry with the same identity; `None` when
/// nothing by that name exists.
fn real_name(folder: &Path, name: &std::ffi::OsStr) -> Option<OsString> {
    let wanted = FileId::of_link(&folder.join(name))?;
    let entries = std::fs::read_dir(folder).ok()?;
    let mut same = None;
    for entry in entries.take(MAX_ENTRIES_SCANNED).flatten() {
        let entry_name = entry.file_name();
        if entry_name == name {
            return Some(entry_name);
        }
        if same.is_none() && FileId::of_link(&entry.path()) == Some(wanted) {
            same = Some(entry_name);
        }
    }
    Some(same.unwrap_or_else(|| name.to_owned()))
}

/// Whether `path` is a file that has more than one name (hard links).
pub fn has_other_names(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.nlink() > 1)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// The files and folders inside `folder` (itself included, down to `depth` levels, at most
/// `cap` of them) whose identity is `wanted`, except inside the folder `skip` — used to see
/// whether a file with several names (hard links) is one of Ask First's own files.
pub fn contains_identity(
    folder: &Path,
    wanted: FileId,
    skip: Option<FileId>,
    depth: usize,
    cap: usize,
) -> bool {
    let mut seen = 0;
    let mut stack: Vec<(PathBuf, usize)> = vec![(folder.to_path_buf(), 0)];
    while let Some((path, level)) = stack.pop() {
        let Some(id) = FileId::of_link(&path) else {
            continue;
        };
        if Some(id) == skip {
            continue;
        }
        if id == wanted {
            return true;
        }
        seen += 1;
        if seen >= cap {
            // Too many to look through: treat as one of them (refusing is the safe side).
            return true;
        }
        if level < depth && std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            if let Ok(entries) = std::fs::read_dir(&path) {
                for entry in entries.flatten() {
                    stack.push((entry.path(), level + 1));
                }
            }
        }
    }
    false
}

/// The most file systems mounted inside a folder that [`mounts_inside`] lists.
const MAX_MOUNTS_INSIDE: usize = 64;

/// The mount points strictly inside `root` (a USB stick or a share mounted in the folder, as
/// `/media/<person>` holds the person's drives), from `/proc/self/mountinfo` (its fifth field,
/// with `\NNN` octal escapes read; proc(5)); at most [`MAX_MOUNTS_INSIDE`]. Empty where the
/// list cannot be read.
pub fn mounts_inside(root: &Path) -> Vec<PathBuf> {
    let Ok(info) = std::fs::read_to_string("/proc/self/mountinfo") else {
        return Vec::new();
    };
    info.lines()
        .filter_map(|line| line.split(' ').nth(4))
        .map(|field| PathBuf::from(unescape_octal(field)))
        .filter(|point| point.starts_with(root) && point != root)
        .take(MAX_MOUNTS_INSIDE)
        .collect()
}

/// A mountinfo field with its `\NNN` escapes (space, tab, newline, backslash) read.
fn unescape_octal(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|d| bytes[i] == b'\\' && d.iter().all(|b| (b'0'..=b'7').contains(b)))
            .map(|d| d.iter().fold(0u32, |n, b| n * 8 + u32::from(b - b'0')));
        match octal.and_then(|n| u8::try_from(n).ok()) {
            Some(byte) => {
                out.push(byte);
                i += 4;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The most entries of a folder looked at by [`spellings_lack_identity`] for a name to spell
/// in another letter case.
const MAX_ENTRIES_PROBED: usize = 64;

/// Whether the file system of `folder` finds a name in another letter case (`TAXES` finds
/// `Taxes`, as on a USB stick, exFAT, NTFS or a network share) *without* giving both
/// spellings one identity (device and inode): some FUSE mounts number each spelling apart.
/// Rules, hard denials and the sandbox's hidden places compare identities, so such a folder
/// cannot be kept safely, and the agent must not work there.
///
/// Probes an entry of `folder` whose name changes with its letter case (one spelling looked
/// up the other way, never written); where there is none, a new empty folder of a unique name
/// is made and removed again. `false` where nothing can be told (an empty folder that cannot
/// be written: then nothing can be written there either).
pub fn spellings_lack_identity(folder: &Path) -> bool {
    let flipped = |name: &str| -> Option<String> {
        let other: String = name
            .chars()
            .map(|c| {
                if c.is_lowercase() {
                    c.to_uppercase().next().unwrap_or(c)
                } else {
                    c.to_lowercase().next().unwrap_or(c)
                }
            })
            .collect();
        (other != name).then_some(other)
    };
    let Ok(entries) = std::fs::read_dir(folder) else {
        return false;
    };
    let names: Vec<String> = entries
        .take(MAX_ENTRIES_PROBED)
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    // Whether the other spelling of `name` finds the same entry under another identity.
    let apart = |name: &str| -> Option<bool> {
        let other = flipped(name)?;
        if names.contains(&other) {
            return None; // two entries of their own: tells nothing
        }
        let found = FileId::of_link(&folder.join(&other))?; // not found: case-sensitive
        Some(FileId::of_link(&folder.join(name)) != Some(found))
    };
    if names.iter().any(|n| flipped(n).is_some()) {
        // The first that tells; none does where every other spelling is an entry of its own
        // or is not found (a case-sensitive folder).
        return names.iter().find_map(|n| apart(n)).unwrap_or(false);
    }
    let probe = folder.join(format!(
        ".askfirst-case-probe-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos())
    ));
    if std::fs::create_dir(&probe).is_err() {
        return false;
    }
    let name = probe
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned();
    let lacks = apart(&name).unwrap_or(false);
    let _ = std::fs::remove_dir(&probe);
    lacks
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn spelling_follows_the_folder_and_keeps_what_does_not_exist() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("Taxes")).unwrap();
        std::fs::write(dir.path().join("Taxes/a.txt"), "x").unwrap();
        assert_eq!(
            real_spelling(dir.path(), Path::new("Taxes/a.txt")),
            "Taxes/a.txt"
        );
        assert_eq!(
            real_spelling(dir.path(), Path::new("Taxes/new/b.txt")),
            "Taxes/new/b.txt"
        );
        assert_eq!(real_spelling(dir.path(), Path::new("")), ".");
        assert_eq!(
            real_spelling(dir.path(), Path::new("Folder\\x.txt")),
            "Folder\\x.txt"
        );
    }

    #[test]
    fn a_hard_link_is_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("own")).unwrap();
        std::fs::write(dir.path().join("own/settings.json"), "{}").unwrap();
        std::fs::hard_link(
            dir.path().join("own/settings.json"),
            dir.path().join("copy.json"),
        )
        .unwrap();
        let id = FileId::of(&dir.path().join("copy.json")).unwrap();
        assert!(contains_identity(
            &dir.path().join("own"),
            id,
            None,
            2,
            1000
        ));
        std::fs::write(dir.path().join("other.json"), "{}").unwrap();
        let other = FileId::of(&dir.path().join("other.json")).unwrap();
        assert!(!contains_identity(
            &dir.path().join("own"),
            other,
            None,
            2,
            1000
        ));
    }
}
