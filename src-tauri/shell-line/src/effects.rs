//! What a command line does that matters ([`effects`]), as typed facts for the approval card,
//! read from how the line parses (the lenient reading of [`super::all_simple_commands`]), not
//! from a list of words; each is worded once in the core's `command_line::effect_words`.
//!
//! Where the reading cannot see through the line (a variable or substitution as a program,
//! `eval` of a variable, `sh -c "$X"`, an alias, a program it does not know), the facts say
//! that Ask First cannot tell, never something reassuring.

pub use super::effect::{Effect, PathKind, Target};
use super::programs::{is_pattern, operands, program_effects};
use super::*;
use crate::path::{home_rest, lexical};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Where a command runs, for judging the paths it names: the workspace folder, the person's
/// home folder, and whether commands run confined (see `tools::sandbox`).
#[derive(Debug, Clone)]
pub struct Place {
    /// The workspace folder (absolute, as the tool's workspace has it).
    pub root: PathBuf,
    /// The home folder, for `~` and `$HOME`.
    pub home: Option<PathBuf>,
    /// Whether commands run shut in by the kernel.
    pub confined: bool,
}

impl Place {
    /// `name` (as a command gives it, relative to the folder) as a [`Target`].
    pub fn target(&self, name: &str) -> Target {
        let kind = if is_pattern(name) {
            PathKind::Pattern
        } else if self.outside(name).is_some() {
            PathKind::Missing
        } else {
            match std::fs::symlink_metadata(self.root.join(name)) {
                Ok(meta) if meta.is_dir() => PathKind::Folder,
                Ok(_) => PathKind::File,
                Err(_) => PathKind::Missing,
            }
        };
        Target {
            name: name.to_owned(),
            kind,
        }
    }

    /// Where `word` leads when it names a place outside the workspace folder (an absolute
    /// path, `~/…`, `$HOME/…`, or `..` past the folder), judged by the letters (`a/../..`
    /// counts), else `None`. Values of `--opt=VALUE` and `of=VALUE` are judged by the value.
    pub fn outside(&self, word: &str) -> Option<PathBuf> {
        let word = match word.split_once('=') {
            Some((_, value)) if !word.starts_with('/') => value,
            _ => word,
        };
        if word.contains("://") {
            return None;
        }
        let path = if let Some(rest) = home_rest(word) {
            self.home
                .clone()
                .unwrap_or_else(|| PathBuf::from("/home"))
                .join(rest)
        } else if word.starts_with('/') {
            PathBuf::from(word)
        } else if word.split('/').any(|part| part == "..") {
            self.root.join(word)
        } else {
            return None;
        };
        let normal = lexical(&path);
        (!normal.starts_with(&self.root)).then_some(normal)
    }

    fn is_hidden(&self, path: &Path) -> bool {
        self.confined
            && (crate::SHOWN_EMPTY.iter().any(|h| path.starts_with(h))
                || self
                    .home
                    .as_deref()
                    .is_some_and(|home| path.starts_with(home)))
    }
}

/// Devices and descriptors a redirection may write without writing a file.
fn harmless_device(name: &str) -> bool {
    matches!(
        name,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "/dev/zero" | "/dev/full"
    ) || name.starts_with("/dev/fd/")
}

/// Programs whose operands they write (or delete, move, change); for `cp`, `ln`, `install`,
/// `rsync`, `scp` only the last operand.
fn writes_operands(program: &str) -> Option<bool> {
    match program {
        "rm" | "unlink" | "rmdir" | "shred" | "mv" | "tee" | "chmod" | "chown" | "chgrp"
        | "touch" | "mkdir" | "truncate" => Some(true),
        "cp" | "ln" | "install" | "rsync" | "scp" => Some(false),
        _ => None,
    }
}

/// What `line` does that matters, for the approval card, in the order found and without
/// repeats; at most 10, then [`Effect::More`]. `place` says where it runs (paths are looked
/// up there, read-only). Bounded and linear in the line's length like the reading itself.
///
/// ```
/// use askfirst_shell_line::{effects, Effect, PathKind, Place, Target};
/// let place = Place { root: "/nowhere/ws".into(), home: None, confined: true };
/// assert_eq!(
///     effects("rm -rf Photos", &place),
///     vec![Effect::Deletes {
///         targets: vec![Target { name: "Photos".into(), kind: PathKind::Missing }],
///         recursive: true,
///     }]
/// );
/// ```
pub fn effects(line: &str, place: &Place) -> Vec<Effect> {
    let mut found: Vec<Effect> = Vec::new();
    if plain_commands(line).is_none() {
        found.push(Effect::ShellFeatures);
    }
    let expansion = expand(line);
    let mut unknown: Vec<String> = Vec::new();
    for words in &expansion.commands {
        if !program_effects(words, place, &mut found) {
            if let Some(program) = words.first() {
                let name = base(program).to_owned();
                if !name.starts_with('-') && !unknown.contains(&name) {
                    unknown.push(name);
                }
            }
        }
        leaves_folder(words, place, &mut found);
        outside_operands(words, place, &mut found);
    }
    for (target, appends) in &expansion.writes {
        if harmless_device(target) {
            continue;
        }
        found.push(Effect::Writes {
            name: target.clone(),
            appends: *appends,
        });
        if let Some(path) = place.outside(target) {
            found.push(Effect::Outside {
                name: target.clone(),
                writes: true,
                hidden: place.is_hidden(&path),
            });
        }
    }
    if substitution_as_program(line) {
        found.push(Effect::BuildsCommands {
            how: "$(…)".to_owned(),
        });
    }
    if has_lone_ampersand(line) {
        found.push(Effect::Background { program: None });
    }
    if !unknown.is_empty() {
        found.push(Effect::Unknown { programs: unknown });
    }
    // Downloading, and running something whose steps it cannot see: it may run what it got.
    let downloads: Vec<String> = found
        .iter()
        .filter_map(|e| match e {
            Effect::Downloads { hosts, .. } => Some(hosts.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    let any_download = found.iter().any(|e| matches!(e, Effect::Downloads { .. }));
    let runs_unseen = found.iter().any(|e| {
        matches!(
            e,
            Effect::RunsItsInput { .. } | Effect::BuildsCommands { .. } | Effect::RunsScript { .. }
        )
    });
    if any_download && runs_unseen {
        let mut hosts = downloads;
        hosts.dedup();
        found.insert(0, Effect::RunsDownloaded { hosts });
    }
    bounded(found)
}

/// `found` without repeats, at most [`MAX_EFFECTS`] then [`Effect::More`].
fn bounded(found: Vec<Effect>) -> Vec<Effect> {
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    let mut more = 0;
    for effect in found {
        if !seen.insert(effect.clone()) {
            continue;
        }
        if kept.len() < MAX_EFFECTS {
            kept.push(effect);
        } else {
            more += 1;
        }
    }
    if more > 0 {
        kept.push(Effect::More { count: more });
    }
    kept
}

/// `cd`/`pushd` (and `env -C`) to a place outside the folder, or `cd` alone / `cd -`.
fn leaves_folder(words: &[String], place: &Place, found: &mut Vec<Effect>) {
    let Some((program, args)) = words.split_first() else {
        return;
    };
    let to = match base(program) {
        "cd" | "pushd" => operands(args).first().map(|t| t.as_str()).unwrap_or("~"),
        "env" => match args.iter().position(|a| a == "-C" || a == "--chdir") {
            Some(i) => args.get(i + 1).map(String::as_str).unwrap_or("~"),
            None => return,
        },
        _ => return,
    };
    if to == "~" || to == "-" || is_pattern(to) || place.outside(to).is_some() {
        found.push(Effect::LeavesFolder { to: to.to_owned() });
    }
}

/// Every operand of one command that leads outside the folder.
fn outside_operands(words: &[String], place: &Place, found: &mut Vec<Effect>) {
    let Some((program, args)) = words.split_first() else {
        return;
    };
    let name = base(program);
    let writes_all = writes_operands(name);
    let operands = operands(args);
    let last = operands.len().saturating_sub(1);
    for word in args {
        let Some(path) = place.outside(word) else {
            continue;
        };
        let operand = operands.iter().position(|o| std::ptr::eq(*o, word));
        let writes = match (writes_all, operand) {
            (Some(true), Some(_)) => true,
            (Some(false), Some(at)) => at == last,
            _ => name == "dd" && word.starts_with("of="),
        };
        found.push(Effect::Outside {
            name: word
                .split_once('=')
                .map_or(word.as_str(), |(_, v)| v)
                .to_owned(),
            writes,
            hidden: place.is_hidden(&path),
        });
    }
}

/// Whether `line` has a single `&` (a background job) outside quotes, not part of `&&`,
/// `>&`, `&>`, `<&` or `|&`.
fn has_lone_ampersand(line: &str) -> bool {
    let chars: Vec<char> = line.chars().collect();
    let (mut single, mut double) = (false, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if !single => i += 1,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '&' if !single && !double => {
                let before = i.checked_sub(1).map(|j| chars[j]);
                let after = chars.get(i + 1).copied();
                if after == Some('&') {
                    i += 1;
                } else if !matches!(before, Some('>' | '<' | '|')) && after != Some('>') {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether a command of `line` starts with a command substitution (`$(echo rm) -rf x`,
/// `` `x` ``), so that its program is only known when it runs (a variable as the program is
/// seen in its word). Read outside quotes,
/// after the start of the line or `;`, `&`, `|`, `(`, `{` or a new line.
fn substitution_as_program(line: &str) -> bool {
    let mut at_start = true;
    let (mut single, mut double) = (false, false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if single {
            single = c != '\'';
            continue;
        }
        if double {
            double = c != '"';
            continue;
        }
        match c {
            '`' if at_start => return true,
            '$' if at_start && chars.peek() == Some(&'(') => return true,
            ';' | '&' | '|' | '(' | '{' | '\n' => at_start = true,
            c if c.is_whitespace() => {}
            '\'' => {
                single = true;
                at_start = false;
            }
            '"' => {
                double = true;
                at_start = false;
            }
            _ => at_start = false,
        }
    }
    false
}
