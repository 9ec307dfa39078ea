//! The one way a word of a command (or a tool's argument) becomes a path: the home folder
//! spelled `~`, `$HOME` or `${HOME}` ([`home_rest`]), `/proc/self/cwd` and `/proc/self/root`
//! ([`through_proc`]), `..` taken away by the letters ([`lexical`]) or as the kernel would
//! after links ([`resolved_as_far_as_it_exists`]), a path glued to an option
//! ([`glued_value`], [`with_glued_values`]) or written inside code ([`embedded_paths`]), and
//! where an expansion starts ([`before_expansion`]). Used by the card's effects
//! ([`crate::Place`]), our commands' and MCP tools' mentioned paths and the inbox's judgement
//! of another agent's command (in the core), so that a hole closed here is closed for all.
//!
//! What a path *is* on disk (its device and inode) is the core's `identity` module; this one
//! says where a spelling leads.

use std::path::{Component, Path, PathBuf};

/// What follows the home folder at the start of `word` — `~`, `$HOME` or `${HOME}`, followed
/// by nothing or by `/` — with its leading `/`s taken away (as the kernel reads `~//x`): `""`
/// for the home folder itself. `None` for any other word (`~other/x`, `$HOMEx`, `x/~`).
///
/// ```
/// use askfirst_shell_line::path::home_rest;
/// assert_eq!(home_rest("~/Documents/a.txt"), Some("Documents/a.txt"));
/// assert_eq!(home_rest("${HOME}"), Some(""));
/// assert_eq!(home_rest("$HOMEx/a"), None);
/// ```
pub fn home_rest(word: &str) -> Option<&str> {
    ["~", "$HOME", "${HOME}"].iter().find_map(|spelled| {
        word.strip_prefix(spelled)
            .filter(|rest| rest.is_empty() || rest.starts_with('/'))
            .map(|rest| rest.trim_start_matches('/'))
    })
}

/// `path` with `.` and `..` taken away by the letters, not following links (`/a/b/../c` is
/// `/a/c`; `..` above `/` stays at `/`).
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The link of `/proc/<process>/…` a path goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcLink<'a> {
    /// `/proc/<process>/cwd/<rest>`: the process's working folder.
    Cwd(&'a str),
    /// `/proc/<process>/root/<rest>`: the process's `/`.
    Root(&'a str),
}

/// A path through `/proc/<process>/cwd` or `/proc/<process>/root` ([`through_proc`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThroughProc<'a> {
    /// Whether the process is the reader itself (`self`, `thread-self`), not a number.
    pub own: bool,
    /// The link and the rest of the path after it (without its leading `/`s).
    pub link: ProcLink<'a>,
}

impl ThroughProc<'_> {
    /// Where the path leads for a process working in `cwd`.
    pub fn lead_from(&self, cwd: &Path) -> PathBuf {
        match self.link {
            ProcLink::Cwd(rest) => cwd.join(rest),
            ProcLink::Root(rest) => Path::new("/").join(rest),
        }
    }
}

/// `spelled` read as a path through `/proc/<process>/cwd` or `/proc/<process>/root` (also
/// `self` and `thread-self`), else `None`.
///
/// ```
/// use askfirst_shell_line::path::{through_proc, ProcLink};
/// let through = through_proc("/proc/self/cwd/notes.txt").unwrap();
/// assert_eq!((through.own, through.link), (true, ProcLink::Cwd("notes.txt")));
/// assert_eq!(through_proc("/proc/self/status"), None);
/// ```
pub fn through_proc(spelled: &str) -> Option<ThroughProc<'_>> {
    let rest = spelled.strip_prefix("/proc/")?;
    let (process, rest) = rest.split_once('/')?;
    let (link, rest) = rest.split_once('/').unwrap_or((rest, ""));
    let rest = rest.trim_start_matches('/');
    let link = match link {
        "cwd" => ProcLink::Cwd(rest),
        "root" => ProcLink::Root(rest),
        _ => return None,
    };
    Some(ThroughProc {
        own: process == "self" || process == "thread-self",
        link,
    })
}

/// `given` made absolute against `cwd` (`~/`, `$HOME/` against `home` when there is one), with
/// `/proc/self/cwd/…` read as `cwd` and `/proc/self/root/…` as `/` before `..` is taken away
/// by the letters (`/proc/self/cwd/../x` is not `/proc/self/x`); links are not followed
/// ([`resolved_as_far_as_it_exists`] does that where the path is judged). A `/proc/<number>/…`
/// path is another process's and stays as written.
pub fn absolute(given: &str, cwd: &Path, home: Option<&Path>) -> PathBuf {
    let expanded = match (home_rest(given), home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => match through_proc(given).filter(|through| through.own) {
            Some(through) => through.lead_from(cwd),
            None => PathBuf::from(given),
        },
    };
    let joined = if expanded.is_absolute() {
        expanded
    } else {
        cwd.join(expanded)
    };
    lexical(&joined)
}

/// `path` with `..` and links resolved as far as it exists, like the operating system would,
/// and the rest (which does not exist) appended with its `..` taken away by the letters. A
/// link that leads nowhere yet is followed (as the kernel would, at most 40 in a row): a write
/// through `innocent.json → Private/new.txt` makes `Private/new.txt`, so that is the path
/// judged. `None` for a path that is not absolute.
pub fn resolved_as_far_as_it_exists(path: &Path) -> Option<PathBuf> {
    resolved_following(path, 40)
}

/// [`resolved_as_far_as_it_exists`], following at most `links` links that lead nowhere.
fn resolved_following(path: &Path, links: u32) -> Option<PathBuf> {
    let mut existing = path;
    let mut rest = Vec::new();
    let mut resolved = loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            break real;
        }
        if links > 0 {
            if let Ok(target) = std::fs::read_link(existing) {
                let target = existing
                    .parent()
                    .map_or(target.clone(), |at| at.join(&target));
                let followed = rest.iter().rev().fold(target, |acc, name| acc.join(name));
                return resolved_following(&followed, links - 1);
            }
        }
        // Not `file_name()`: it has none for `a/..`, and a missing `a` must not hide the text.
        match existing.components().next_back() {
            Some(Component::Normal(name)) => rest.push(name.to_owned()),
            Some(Component::ParentDir) => rest.push("..".into()),
            Some(Component::CurDir) => {}
            Some(Component::RootDir | Component::Prefix(_)) | None => return None,
        }
        existing = existing.parent()?;
    };
    for name in rest.into_iter().rev() {
        if name == ".." {
            resolved.pop();
        } else if name != "." {
            resolved.push(name);
        }
    }
    Some(resolved)
}

/// `path` resolved as far as it exists ([`resolved_as_far_as_it_exists`]), or `path` itself
/// when it is not absolute.
pub fn resolved_on_disk(path: &Path) -> PathBuf {
    resolved_as_far_as_it_exists(path).unwrap_or_else(|| path.to_owned())
}

/// `text`, and the values glued to it that a program may read as a path: what follows the
/// first `=` (`--output=Work/a.txt`, `of=Work/a.txt`) and what follows a one-letter option
/// (`-oWork/a.txt`). Each is judged as a path of its own; one that names nothing is passed
/// over as any other word is.
pub fn with_glued_values(text: &str) -> impl Iterator<Item = &str> {
    let after_equals = text.split_once('=').map(|(_, value)| value);
    let after_option = text
        .strip_prefix('-')
        .filter(|rest| !rest.starts_with('-'))
        .and_then(|rest| rest.char_indices().nth(1))
        .map(|(at, _)| &text[1 + at..]);
    std::iter::once(text)
        .chain(after_equals)
        .chain(after_option)
        .filter(|part| !part.is_empty())
}

/// The path in a word that glues one to something else: the value of `--opt=VALUE`,
/// `key=VALUE` and of a short option written together with it (`-C/x`, `-o/x`), and a file
/// given to curl as `@file` (also after `=`: `f=@file`); the word itself otherwise.
pub fn glued_value(word: &str) -> &str {
    let value = if let Some(rest) = word.strip_prefix('-') {
        match rest.split_once('=') {
            Some((_, value)) => value,
            None => rest
                .find(['/', '~'])
                .filter(|at| *at > 0 && rest[..*at].chars().all(|c| c.is_ascii_alphanumeric()))
                .map_or(word, |at| &rest[at..]),
        }
    } else if !word.starts_with(['/', '~', '$']) {
        word.split_once('=').map_or(word, |(_, value)| value)
    } else {
        word
    };
    value.strip_prefix('@').unwrap_or(value)
}

/// `word` with a leading `${HOME…}` (any modifier: `${HOME:-x}`, `${HOME%/}`) read as `$HOME`,
/// and a leading `$PWD` or `${PWD…}` as the folder `cwd` the command runs in.
pub fn with_variable_spelled_out(word: &str, cwd: &Path) -> String {
    let braced = |name: &str| {
        word.strip_prefix(&format!("${{{name}"))
            .and_then(|rest| rest.split_once('}'))
            .map(|(_, rest)| rest)
    };
    let plain = |name: &str| {
        word.strip_prefix(&format!("${name}"))
            .filter(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    if let Some(rest) = braced("HOME") {
        format!("$HOME{rest}")
    } else if let Some(rest) = braced("PWD").or_else(|| plain("PWD")) {
        format!("{}{rest}", cwd.display())
    } else {
        word.to_owned()
    }
}

/// Absolute and home paths written inside a word of code or text (`open("/x/y")`,
/// `path='~/x'`): each `/` or `~/` at the word's start or after a quote, bracket, `=`, `:` or
/// `,`, up to the next such character or a space.
pub fn embedded_paths(word: &str) -> impl Iterator<Item = &str> {
    const AROUND: &[char] = &[
        '"', '\'', '(', ')', '[', ']', '=', ':', ',', ' ', ';', '<', '>',
    ];
    word.match_indices(AROUND)
        .map(|(at, found)| at + found.len())
        .chain(std::iter::once(0))
        .filter_map(move |start| {
            let rest = &word[start..];
            (rest.starts_with('/') || rest.starts_with("~/")).then(|| {
                let end = rest.find(AROUND).unwrap_or(rest.len());
                &rest[..end]
            })
        })
        .filter(|found| found.len() > 1)
}

/// `word` up to the first of its parts that the shell expands when it runs (a pattern
/// `*?[`, a brace `{`, a variable or substitution `$` or `` ` ``), so that it names the folder
/// the expansion happens in, with everything in it; the word itself when no part expands.
/// `$HOME` and `${HOME}` at its start are not cut ([`absolute`] reads them); `~name/…` (the
/// home folder of another user) is cut to `/`.
pub fn before_expansion(word: &str) -> &str {
    const EXPANDS: &[char] = &['*', '?', '[', '{', '$', '`'];
    if word.starts_with('~') && !word.starts_with("~/") && word != "~" {
        return "/";
    }
    let kept_start = ["$HOME", "${HOME}"]
        .iter()
        .find(|home| {
            word.strip_prefix(**home)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
        .map_or(0, |home| home.len());
    let mut end = 0;
    for (at, part) in word.split('/').scan(0, |start, part| {
        let at = *start;
        *start += part.len() + 1;
        Some((at, part))
    }) {
        if at + part.len() > kept_start && part.contains(EXPANDS) {
            return if end == 0 && word.starts_with('/') {
                "/"
            } else {
                &word[..end]
            };
        }
        end = at + part.len();
    }
    word
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_home_folder_is_read_however_it_is_spelled() {
        let home = Path::new("/home/ann");
        let cwd = Path::new("/work");
        for spelled in ["~/a", "$HOME/a", "${HOME}/a", "~//a", "$HOME/x/../a"] {
            assert_eq!(
                absolute(spelled, cwd, Some(home)),
                home.join("a"),
                "{spelled}"
            );
        }
        // Without a home folder, `~` is a name in the working folder.
        assert_eq!(absolute("~/a", cwd, None), cwd.join("~/a"));
        assert_eq!(home_rest("~ann/a"), None);
    }

    #[test]
    fn proc_self_leads_to_the_working_folder_before_dots_are_taken_away() {
        let cwd = Path::new("/work/ws");
        assert_eq!(
            absolute("/proc/self/cwd/../x", cwd, None),
            Path::new("/work/x")
        );
        assert_eq!(
            absolute("/proc/thread-self/root/etc", cwd, None),
            Path::new("/etc")
        );
        assert_eq!(absolute("/proc/self/cwd//x", cwd, None), cwd.join("x"));
        // Another process's folder is resolved on disk through its link, not here.
        assert_eq!(
            absolute("/proc/1/cwd/x", cwd, None),
            Path::new("/proc/1/cwd/x")
        );
        let other = through_proc("/proc/1/root/etc/passwd").unwrap();
        assert!(!other.own);
        assert_eq!(other.lead_from(cwd), Path::new("/etc/passwd"));
    }

    #[test]
    fn a_link_that_leads_nowhere_yet_is_followed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("Private")).unwrap();
        std::os::unix::fs::symlink(root.join("Private/new.txt"), root.join("innocent.json"))
            .unwrap();
        assert_eq!(
            resolved_as_far_as_it_exists(&root.join("innocent.json")),
            Some(root.join("Private/new.txt"))
        );
        assert_eq!(
            resolved_as_far_as_it_exists(&root.join("gone/../Private/x")),
            Some(root.join("Private/x"))
        );
        assert_eq!(resolved_as_far_as_it_exists(Path::new("relative")), None);
    }

    #[test]
    fn glued_and_embedded_paths_are_found() {
        assert_eq!(glued_value("--output=/x/y"), "/x/y");
        assert_eq!(glued_value("-C/etc"), "/etc");
        assert_eq!(glued_value("data=@~/secret"), "~/secret");
        assert_eq!(
            with_glued_values("-oWork/a.txt").collect::<Vec<_>>(),
            vec!["-oWork/a.txt", "Work/a.txt"]
        );
        assert_eq!(
            embedded_paths("open('/etc/passwd')").collect::<Vec<_>>(),
            vec!["/etc/passwd"]
        );
        assert_eq!(before_expansion("/home/*/x"), "/home");
        assert_eq!(before_expansion("$HOME/a*"), "$HOME");
        assert_eq!(before_expansion("~bob/x"), "/");
        assert_eq!(
            with_variable_spelled_out("${HOME:-x}/a", Path::new("/w")),
            "$HOME/a"
        );
        assert_eq!(with_variable_spelled_out("$PWD/a", Path::new("/w")), "/w/a");
    }
}
