//! What a command is shut in without ([`super::Policy::hidden_from_command`]): the places on
//! disk that the person's deny and ask rules are about, found when the command starts, so that
//! the sandbox can hide them whatever the command's words name (`find -delete`, `grep -r`).
//! Identity, not spelling: a folder named in the other Unicode form, a name that is not UTF-8
//! and a link that leads out of the workspace are found as what they are on disk.

use super::rules::{Rule, CONTENTS_CAP, CONTENTS_DEPTH};
use super::ArgumentKind;
use std::collections::HashSet;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

/// How many places a command can be shut in without: each is a mount of its own in the
/// sandbox.
pub const HIDDEN_CAP: usize = 1_000;

/// How many entries the look for what glob rules keep reads when a command starts (the
/// workspace and the folders its links lead to outside it; again for the other names of kept
/// files) before it gives up and the command is not run: four times what a decision looks
/// through ([`CONTENTS_CAP`]), since this look holds no lock and keeps no list of what it saw,
/// so that commands can still run in a folder of a few years of photos.
pub const LOOK_CAP: usize = 200_000;

/// Why a command cannot be shut in without what the rules keep.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HiddenError {
    /// More places match the rules than can be hidden.
    #[error("more than {cap} places in the workspace are kept by the rules")]
    TooMany {
        /// [`HIDDEN_CAP`].
        cap: usize,
    },
    /// The workspace (with the folders its links lead to) has more entries than `cap` or more
    /// levels than [`CONTENTS_DEPTH`] for a glob rule to look through, or one folder on the way
    /// to a rule's place has more entries than `cap`.
    #[error("the workspace is too big to look through for the rules (more than {cap} entries)")]
    TooBig {
        /// The bound that was passed: [`LOOK_CAP`] for the whole look, [`CONTENTS_CAP`] for one
        /// folder.
        cap: usize,
    },
    /// A folder on the way to what the rules keep cannot be read (its permissions were taken
    /// away), so what is inside it cannot be found, nor hidden.
    #[error("{path} cannot be read to find what the rules keep")]
    Unreadable {
        /// The folder, as the person knows it (absolute).
        path: PathBuf,
    },
}

impl HiddenError {
    /// Why the command was not run, in a sentence for the person in the language in force
    /// (`tool_failed-command-*`); the only place these are worded.
    pub fn for_person(&self) -> String {
        use crate::i18n::{tr, Arg};
        match self {
            Self::TooMany { cap } => tr(
                "tool_failed-command-too_many_kept",
                &[("cap", Arg::from(*cap))],
            ),
            Self::TooBig { cap } => tr(
                "tool_failed-command-folder_too_big",
                &[
                    ("entries", Arg::from(*cap)),
                    ("depth", Arg::from(CONTENTS_DEPTH)),
                ],
            ),
            Self::Unreadable { path } => tr(
                "tool_failed-command-unreadable",
                &[("name", Arg::from(path.display().to_string()))],
            ),
        }
    }
}

/// `Err(Unreadable)` for an error reading `path` other than its being gone (which a command
/// running at the same time may have caused: nothing there to hide).
fn unless_gone(error: &std::io::Error, path: &Path) -> Result<(), HiddenError> {
    if error.kind() == std::io::ErrorKind::NotFound {
        Ok(())
    } else {
        Err(HiddenError::Unreadable {
            path: path.to_path_buf(),
        })
    }
}

/// How a command shut in is kept from a place a rule is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The place is hidden: an empty folder, or `/dev/null` for a file.
    Hidden,
    /// The place is shown as it is, read-only: it can be read, not changed, moved or deleted.
    ReadOnly,
}

/// How a command is kept from what `rule` is about, if the rule is about paths a command may
/// touch. A command can do what any file tool does, so a rule about a file tool holds for
/// commands too:
/// - every rule for all tools (`*`), a rule for `run_command` whose pattern names a path
///   (`Private/**`, `**/*.pdf`: it has a `/`; `docker*` is about commands named so, not about
///   `docker-compose.yml`), and a rule about reading or listing (`read_file`,
///   `list_directory`): [`Keep::Hidden`];
/// - a rule about writing, changing, moving or deleting files (`write_file`, `edit_file`,
///   `move_path`, `delete_path`): [`Keep::ReadOnly`], so that "Never delete files in Photos"
///   still lets a command read the photos.
///
/// A file tool's rule about every place (`deny delete_path`, "Never delete files and
/// folders") keeps the whole workspace ([`KeptPlaces::workspace`]); a rule for all tools or
/// for commands about every place is about every call, and keeps nothing here.
pub(super) fn keeps(rule: &Rule) -> Option<Keep> {
    let file_tool = super::rules::file_tool_keep(&rule.tool);
    if rule.about_everything() {
        return file_tool;
    }
    let pattern = rule.pattern.as_deref()?;
    match rule.tool.as_str() {
        "*" => Some(Keep::Hidden),
        "run_command" => pattern.contains('/').then_some(Keep::Hidden),
        _ => file_tool,
    }
}

/// The places a command shut in is kept from ([`super::Policy::hidden_from_command`]),
/// canonical paths, outermost first in each list: those hidden, and those shown read-only (none
/// of which lies inside a hidden one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeptPlaces {
    /// Hidden: an empty folder, or `/dev/null` for a file.
    pub hidden: Vec<PathBuf>,
    /// Shown read-only.
    pub read_only: Vec<PathBuf>,
    /// How the whole workspace is kept, by a file tool's rule about every place ("Never delete
    /// files and folders": read-only; "Never read files": hidden).
    pub workspace: Option<Keep>,
}

impl KeptPlaces {
    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.hidden.is_empty() && self.read_only.is_empty() && self.workspace.is_none()
    }

    /// Every place kept, hidden first.
    pub fn all(&self) -> impl Iterator<Item = &PathBuf> {
        self.hidden.iter().chain(&self.read_only)
    }
}

/// The places `rules` keep from a command working in `workspace` (canonical), each rule with
/// how it keeps ([`keeps`]): [`hidden_places`] for each kind; a place shown read-only inside
/// one hidden is hidden with it.
///
/// # Errors
/// As [`hidden_places`], and [`HiddenError::TooMany`] past [`HIDDEN_CAP`] places in all.
pub(super) fn kept_places(
    rules: &[(Keep, &Rule)],
    workspace: &Path,
) -> Result<KeptPlaces, HiddenError> {
    let of = |keep: Keep| -> Vec<&Rule> {
        rules
            .iter()
            .filter(|(k, rule)| *k == keep && !rule.about_everything())
            .map(|(_, rule)| *rule)
            .collect()
    };
    // A rule about every place keeps the workspace itself: hidden wins over read-only.
    let whole = rules
        .iter()
        .filter(|(_, rule)| rule.about_everything())
        .map(|(keep, _)| *keep)
        .max_by_key(|keep| *keep == Keep::Hidden);
    let (hiding, read_only) = (of(Keep::Hidden), of(Keep::ReadOnly));
    let hidden = if hiding.is_empty() {
        Vec::new()
    } else {
        hidden_places(&hiding, workspace)?
    };
    let mut shown = if read_only.is_empty() {
        Vec::new()
    } else {
        // However many there are: past HIDDEN_CAP the folders holding them are shown instead.
        places_within(&read_only, workspace, LOOK_CAP, LOOK_CAP)?
    };
    shown.retain(|place| !hidden.iter().any(|outer| place.starts_with(outer)));
    if hidden.len() + shown.len() > HIDDEN_CAP {
        // Too many to show read-only one by one (a photo library under "Never delete files
        // matching *.jpg"): the folders that hold the files are shown read-only instead (a
        // folder kept stays itself), which is stricter (nothing new can be made there either)
        // and takes a mount per folder.
        shown = outermost(shown.iter().filter_map(|place| {
            if place.is_dir() {
                Some(place.as_path())
            } else {
                place.parent()
            }
        }));
        if shown.iter().any(|folder| workspace.starts_with(folder)) {
            return Err(HiddenError::TooMany { cap: HIDDEN_CAP });
        }
        shown.retain(|place| !hidden.iter().any(|outer| place.starts_with(outer)));
    }
    if hidden.len() + shown.len() > HIDDEN_CAP {
        return Err(HiddenError::TooMany { cap: HIDDEN_CAP });
    }
    Ok(KeptPlaces {
        hidden,
        read_only: shown,
        workspace: whole,
    })
}

/// The places that `rules` are about for a command working in `workspace` (canonical),
/// outermost first and none inside another:
/// - for a rule on a plain folder or file (`Taxes/**`), that place, its parts matched as the
///   disk spells them and in either Unicode form, and where a link leads (also outside the
///   workspace);
/// - for a glob rule (`**/*.pdf`), what matches in the workspace and in the folders its links
///   lead to outside it (a link that matches: what it leads to, when that is outside; inside,
///   it is found where it is), looked through once, up to [`LOOK_CAP`] entries and
///   [`CONTENTS_DEPTH`] levels. Names are matched as text (a name that is not UTF-8 with `�`
///   for its odd bytes) and hidden by their real path.
///
/// A file kept that has other names (hard links) elsewhere in the workspace is kept by those
/// names too. Never the workspace itself nor a folder that holds it, nor the system's own folders (a link
/// to `/usr`: hiding them would leave commands without a shell; anyone may read them).
///
/// # Errors
/// [`HiddenError`] past [`HIDDEN_CAP`] places or the bounds of the look.
pub(super) fn hidden_places(
    rules: &[&Rule],
    workspace: &Path,
) -> Result<Vec<PathBuf>, HiddenError> {
    hidden_places_within(rules, workspace, LOOK_CAP)
}

/// [`hidden_places`], each look through folders reading at most `cap` entries.
fn hidden_places_within(
    rules: &[&Rule],
    workspace: &Path,
    cap: usize,
) -> Result<Vec<PathBuf>, HiddenError> {
    let kept = places_within(rules, workspace, cap, HIDDEN_CAP)?;
    if kept.len() > HIDDEN_CAP {
        return Err(HiddenError::TooMany { cap: HIDDEN_CAP });
    }
    Ok(kept)
}

/// The places of [`hidden_places`], each look through folders reading at most `cap` entries
/// and giving up past `most` places a glob rule matches.
fn places_within(
    rules: &[&Rule],
    workspace: &Path,
    cap: usize,
    most: usize,
) -> Result<Vec<PathBuf>, HiddenError> {
    let mut places: Vec<PathBuf> = Vec::new();
    for literal in rules.iter().filter_map(|rule| rule.literal_folder.as_ref()) {
        for named in places_named(workspace, literal)? {
            match std::fs::canonicalize(&named) {
                Ok(real) => places.push(real),
                // A link that leads nowhere: nothing there to hide.
                Err(error) => unless_gone(&error, &named)?,
            }
        }
    }
    let globs: Vec<&Rule> = rules
        .iter()
        .copied()
        .filter(|rule| rule.is_glob())
        .collect();
    if !globs.is_empty() {
        places.extend(glob_matches(&globs, workspace, &mut Look::new(cap, most))?);
    }
    places.retain(|place| !workspace.starts_with(place) && !is_system(place));
    let others = second_names(&places, workspace, &mut Look::new(cap, most))?;
    places.extend(others);
    // Outermost first; a place inside one already hidden is hidden with it.
    Ok(outermost(places.iter().map(PathBuf::as_path)))
}

/// `places` outermost first, each once, without those inside another.
fn outermost<'a>(places: impl Iterator<Item = &'a Path>) -> Vec<PathBuf> {
    let mut places: Vec<&Path> = places.collect();
    places.sort_by_key(|place| place.components().count());
    let mut kept: Vec<PathBuf> = Vec::new();
    for place in places {
        if !kept.iter().any(|outer| place.starts_with(outer)) {
            kept.push(place.to_path_buf());
        }
    }
    kept
}

/// Whether `place` is in one of the system's own folders, which the sandbox shows read-only to
/// every command and a command needs to run at all.
fn is_system(place: &Path) -> bool {
    [
        "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/proc", "/sys",
        "/dev",
    ]
    .iter()
    .any(|system| place.starts_with(system))
}

/// Every entry under `root` that `relative` (plain parts, no `.` or `..`) names: each part as
/// given, and each entry of the folder whose name is the same in Unicode's composed form (a
/// folder copied from a Mac is `Résumés` with its accents apart, where the rule was typed with
/// them joined; ext4 keeps the two apart, so both are found).
///
/// # Errors
/// [`HiddenError::Unreadable`] for a folder on the way that cannot be read, and
/// [`HiddenError::TooBig`] for one with more than [`CONTENTS_CAP`] entries: what the rule is
/// about could be in it unseen.
fn places_named(root: &Path, relative: &Path) -> Result<Vec<PathBuf>, HiddenError> {
    use unicode_normalization::UnicodeNormalization;
    let mut found = vec![root.to_path_buf()];
    for component in relative.components() {
        let Component::Normal(name) = component else {
            return Ok(Vec::new());
        };
        let composed: Option<String> = name.to_str().map(|n| n.nfc().collect());
        let mut next = Vec::new();
        for folder in &found {
            let exact = folder.join(name);
            match std::fs::symlink_metadata(&exact) {
                Ok(_) => next.push(exact),
                Err(error) => unless_gone(&error, folder)?,
            }
            let Some(composed) = &composed else {
                continue;
            };
            let entries = match std::fs::read_dir(folder) {
                Ok(entries) => entries,
                Err(error) => {
                    unless_gone(&error, folder)?;
                    continue;
                }
            };
            for (n, entry) in entries.enumerate() {
                if n >= CONTENTS_CAP {
                    return Err(HiddenError::TooBig { cap: CONTENTS_CAP });
                }
                let entry = entry.map_err(|_| HiddenError::Unreadable {
                    path: folder.clone(),
                })?;
                let entry_name = entry.file_name();
                let same = entry_name.as_os_str() != name
                    && entry_name
                        .to_str()
                        .is_some_and(|n| !n.is_ascii() && n.nfc().eq(composed.chars()));
                if same {
                    next.push(entry.path());
                }
            }
        }
        if next.is_empty() {
            return Ok(next);
        }
        found = next;
    }
    Ok(found)
}

/// The other names (hard links), elsewhere in `workspace`, of the files in or under `places`
/// that have more than one: the same file by another name is what the rules keep too. Looks
/// through the kept places, and then the workspace only if such a file is there.
///
/// # Errors
/// As [`hidden_places`]: past the `look`'s bound, or a folder that cannot be read.
#[cfg(unix)]
fn second_names(
    places: &[PathBuf],
    workspace: &Path,
    look: &mut Look,
) -> Result<Vec<PathBuf>, HiddenError> {
    use std::os::unix::fs::MetadataExt;
    let mut listed = |folder: &Path| -> Result<Vec<PathBuf>, HiddenError> {
        Ok(look
            .entries_of(folder)?
            .iter()
            .map(std::fs::DirEntry::path)
            .collect())
    };
    let mut wanted: HashSet<(u64, u64)> = HashSet::new();
    let mut stack: Vec<PathBuf> = places
        .iter()
        .filter(|place| place.starts_with(workspace))
        .cloned()
        .collect();
    while let Some(path) = stack.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            stack.extend(listed(&path)?);
        } else if meta.is_file() && meta.nlink() > 1 {
            wanted.insert((meta.dev(), meta.ino()));
        }
    }
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let kept: HashSet<&Path> = places.iter().map(PathBuf::as_path).collect();
    let mut others = Vec::new();
    let mut stack = vec![workspace.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for path in listed(&folder)? {
            if kept.contains(path.as_path()) {
                continue;
            }
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() && wanted.contains(&(meta.dev(), meta.ino())) {
                others.push(path);
            }
        }
    }
    Ok(others)
}

#[cfg(not(unix))]
fn second_names(
    _places: &[PathBuf],
    _workspace: &Path,
    _look: &mut Look,
) -> Result<Vec<PathBuf>, HiddenError> {
    Ok(Vec::new())
}

/// One look through folders: how many entries it has read, and how many it may.
struct Look {
    seen: usize,
    cap: usize,
    /// How many places a glob rule may match before the look gives up
    /// ([`HiddenError::TooMany`]).
    most: usize,
}

impl Look {
    fn new(cap: usize, most: usize) -> Self {
        Self { seen: 0, cap, most }
    }

    /// The entries of `folder` (none if it is gone), counted.
    ///
    /// # Errors
    /// [`HiddenError::Unreadable`] when it cannot be read, [`HiddenError::TooBig`] once the
    /// look has read more than its `cap`.
    fn entries_of(&mut self, folder: &Path) -> Result<Vec<std::fs::DirEntry>, HiddenError> {
        let entries = match std::fs::read_dir(folder) {
            Ok(entries) => entries,
            Err(error) => return unless_gone(&error, folder).map(|()| Vec::new()),
        };
        let mut found = Vec::new();
        for entry in entries {
            found.push(entry.map_err(|_| HiddenError::Unreadable {
                path: folder.to_path_buf(),
            })?);
            self.seen += 1;
            if self.seen > self.cap {
                return Err(HiddenError::TooBig { cap: self.cap });
            }
        }
        Ok(found)
    }
}

/// Folders a link may lead to that are not looked through for glob rules: the system's own
/// ([`is_system`]), and those the sandbox shows every command empty anyway.
fn not_looked_through(target: &Path) -> bool {
    is_system(target)
        || crate::tools::sandbox::SHOWN_EMPTY
            .iter()
            .any(|hidden| target.starts_with(hidden))
}

/// What the glob rules `globs` match in `workspace` and in the folders its links lead to
/// outside it (see [`hidden_places`]), each by its real path; a folder that matches is listed
/// and not looked into.
fn glob_matches(
    globs: &[&Rule],
    workspace: &Path,
    look: &mut Look,
) -> Result<Vec<PathBuf>, HiddenError> {
    let mut places = Vec::new();
    // Folders outside the workspace already looked through (links may lead to one twice).
    let mut outside: HashSet<PathBuf> = HashSet::new();
    let mut stack: Vec<(PathBuf, String, usize)> =
        vec![(workspace.to_path_buf(), String::new(), 0)];
    while let Some((folder, text, level)) = stack.pop() {
        for entry in look.entries_of(&folder)? {
            let name = entry.file_name();
            let entry_text = text_of(&text, &name);
            let is_link = entry.file_type().is_ok_and(|t| t.is_symlink());
            // Where a link leads, when that is outside the workspace (inside, what it leads to
            // is looked at where it is).
            let leads_out = if is_link {
                std::fs::canonicalize(entry.path())
                    .ok()
                    .filter(|target| !target.starts_with(workspace))
            } else {
                None
            };
            if globs
                .iter()
                .any(|rule| rule.matches_text_any(ArgumentKind::Path, &entry_text))
            {
                match (is_link, leads_out) {
                    (false, _) => places.push(entry.path()),
                    (true, Some(target)) => places.push(target),
                    (true, None) => {}
                }
                if places.len() > look.most {
                    return Err(HiddenError::TooMany { cap: look.most });
                }
                continue;
            }
            let into = match leads_out {
                Some(target)
                    if target.is_dir()
                        && !workspace.starts_with(&target)
                        && !not_looked_through(&target)
                        && outside.insert(target.clone()) =>
                {
                    Some(target)
                }
                Some(_) => None,
                None if !is_link && entry.file_type().is_ok_and(|t| t.is_dir()) => {
                    Some(entry.path())
                }
                None => None,
            };
            if let Some(into) = into {
                if level + 1 >= CONTENTS_DEPTH {
                    return Err(HiddenError::TooBig { cap: look.cap });
                }
                stack.push((into, entry_text, level + 1));
            }
        }
    }
    Ok(places)
}

/// The path as rules read it of the entry `name` in the folder read as `folder` (`""` for the
/// workspace).
fn text_of(folder: &str, name: &OsStr) -> String {
    let name = name.to_string_lossy();
    if folder.is_empty() {
        name.into_owned()
    } else {
        format!("{folder}/{name}")
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// 3 folders of 40 files and one PDF: 124 entries.
    fn workspace() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        for folder in 0..3 {
            let folder = root.join(folder.to_string());
            std::fs::create_dir(&folder).unwrap();
            for n in 0..40 {
                std::fs::write(folder.join(format!("{n}.txt")), "").unwrap();
            }
        }
        std::fs::write(root.join("2").join("letter.pdf"), "").unwrap();
        (dir, root)
    }

    #[test]
    fn a_glob_rule_keeps_what_it_matches_within_the_bound_and_stops_the_command_past_it() {
        let (_dir, root) = workspace();
        let rule = Rule::new("*", Some("**/*.pdf")).unwrap();
        assert_eq!(
            hidden_places_within(&[&rule], &root, 124),
            Ok(vec![root.join("2").join("letter.pdf")])
        );
        assert_eq!(
            hidden_places_within(&[&rule], &root, 123),
            Err(HiddenError::TooBig { cap: 123 })
        );
    }

    #[test]
    fn the_look_for_other_names_of_a_kept_file_has_the_same_bound() {
        let (_dir, root) = workspace();
        std::fs::create_dir(root.join("Taxes")).unwrap();
        std::fs::write(root.join("Taxes").join("2024.txt"), "").unwrap();
        std::fs::hard_link(root.join("Taxes/2024.txt"), root.join("0/copy.txt")).unwrap();
        let rule = Rule::new("*", Some("Taxes/**")).unwrap();
        // The kept folder is read for files with other names (1 entry), then the workspace
        // but for it (126): 127 entries.
        let mut found = hidden_places_within(&[&rule], &root, 127).unwrap();
        found.sort();
        assert_eq!(found, vec![root.join("0/copy.txt"), root.join("Taxes")]);
        assert_eq!(
            hidden_places_within(&[&rule], &root, 126),
            Err(HiddenError::TooBig { cap: 126 })
        );
    }
}
