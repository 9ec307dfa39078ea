//! What a `run_command` line *parses to*, and what follows from that (DESIGN.md §7.3: rules
//! and hard denials judge what a command is, never a text glob over what the model wrote).
//!
//! Two readings of one line, for the two directions a mistake can go:
//!
//! - [`plain_commands`] is **strict**, for allow rules: it answers only for a line of plain
//!   words joined by `&&`, `||`, `;` and `|`, whose meaning no shell can change, and `None` for
//!   anything else (variables, substitutions, redirections, globs, `~`, comments, background
//!   jobs, newlines, assignments, …). A line it cannot read is never allowed by a rule.
//! - [`all_simple_commands`] is **lenient**, for deny and ask rules and the hard denials: it
//!   cuts at everything that might separate commands (also inside `$(…)`, backquotes and
//!   double quotes), looks inside `sh -c`/`bash -lc`/`eval` strings, `find -exec`, `xargs`,
//!   `env -S` and wrappers such as `sudo`, `env`, `nohup`, `timeout 5`, `busybox`, and would
//!   rather split too much than too little.
//!
//! On top of them: [`CommandPattern`] (a rule's `match`, one glob per word), [`hard_denial`]
//! (what never runs; a second line of defence behind the kernel confinement of commands) and
//! [`effects`] (what a command does that matters, as [`Effect`]s for the approval card, worded
//! in [`effect_words`]).
//!
//! Everything here reads the line once per nesting level (at most [`MAX_NESTING`] levels), so
//! the work is linear in the line's length.

use std::collections::HashSet;

/// How many `sh -c` / `eval` / wrapper levels are looked into; deeper nesting is refused by
/// [`hard_denial`] rather than left unchecked.
pub const MAX_NESTING: usize = 8;

/// The longest line [`plain_commands`] reads (64 KiB); a longer one is not plain.
const MAX_PLAIN_BYTES: usize = 64 * 1024;

/// At most this many effects come out of [`effects`], then [`Effect::More`].
const MAX_EFFECTS: usize = 10;

mod developer;
mod effect;
#[cfg(test)]
mod effect_tests;
pub mod effect_words;
#[cfg(test)]
mod effect_words_tests;
mod effects;
mod hard;
mod pattern;
mod programs;
mod split;
#[cfg(test)]
mod tests;
mod wrappers;

pub use effects::{effects, Effect, PathKind, Place, Target};
pub use hard::hard_denial;
pub use pattern::CommandPattern;
use split::split;
use wrappers::*;

// ------------------------------------------------------------------------- strict reading

/// The simple commands of `line`, each as its words with quotes removed, when the line is made
/// only of plain words joined by `&&`, `||`, `;` and `|`; `None` when a shell could make the
/// line mean something that cannot be read from its text.
///
/// Plain words are made of unquoted ASCII letters, digits and `-_./:,+=@%`, single-quoted
/// strings and double-quoted strings without `$`, backquotes, backslashes or `!`; pieces next
/// to each other make one word (`r''m` is `rm`). Spaces and tabs separate words.
///
/// `None` for: `$` outside single quotes, backquotes, backslashes, redirections (`>`, `<`,
/// `2>&1`, `&>`), a single `&`, parentheses, braces, globs (`*`, `?`, `[`), `~`, `#`, `!`,
/// `^`, newlines and other control characters (also inside quotes), non-ASCII characters
/// outside quotes, a leading `NAME=value` (or any first word with `=`), a reserved word (`if`,
/// `for`, `{`, …) as a program, an empty program, an empty command (`a ;; b`, a trailing `&&`)
/// and lines over 64 KiB. The same check as Codex's word-only `bash -lc` test
/// (`codex-rs/core/src/bash.rs`), hand-written and linear.
///
/// ```
/// use askfirst_core::command_line::plain_commands;
/// let words = |c: &[&str]| c.iter().map(|w| w.to_string()).collect::<Vec<_>>();
/// assert_eq!(
///     plain_commands("git status && 'git' \"log\" -1 | head"),
///     Some(vec![words(&["git", "status"]), words(&["git", "log", "-1"]), words(&["head"])])
/// );
/// assert_eq!(plain_commands("git status; echo PWNED > pwned.txt"), None);
/// assert_eq!(plain_commands("git status $(rm -rf x)"), None);
/// ```
pub fn plain_commands(line: &str) -> Option<Vec<Vec<String>>> {
    if line.len() > MAX_PLAIN_BYTES {
        return None;
    }
    let mut commands = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c if c.is_control() => return None,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '$' | '`' | '\\' | '!' => return None,
                        c if c.is_control() => return None,
                        c => word.push(c),
                    }
                }
            }
            '&' | '|' | ';' => {
                words.extend(word.take());
                match c {
                    '&' => {
                        chars.next_if_eq(&'&')?;
                    }
                    '|' => {
                        chars.next_if_eq(&'|');
                    }
                    _ => {}
                }
                // `|&`, `;;`, `&&&`, `;&`: not a plain operator.
                if matches!(chars.peek(), Some('&' | '|' | ';')) {
                    return None;
                }
                commands.push(plain_command(std::mem::take(&mut words))?);
            }
            c if c.is_ascii_alphanumeric() || "-_./:,+=@%".contains(c) => {
                word.get_or_insert_with(String::new).push(c);
            }
            _ => return None,
        }
    }
    words.extend(word.take());
    commands.push(plain_command(words)?);
    Some(commands)
}

/// One command of a plain line, or `None` when it is empty or starts with something a shell
/// reads as more than a program name.
fn plain_command(words: Vec<String>) -> Option<Vec<String>> {
    const RESERVED: &[&str] = &[
        "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
        "in", "select", "function", "time", "coproc", "{", "}", "!", "[[", "]]",
    ];
    let program = words.first()?;
    if program.is_empty() || program.contains('=') || RESERVED.contains(&program.as_str()) {
        return None;
    }
    Some(words)
}

// ------------------------------------------------------------------------ lenient reading

/// Every simple command `line` might run, each as its words with quotes removed, for deny and
/// ask rules and the hard denials (any of them matching means the line matches).
///
/// For each simple command come, in order: its words as written; with the program's folder
/// removed (`/bin/rm x` → `rm x`); after leading `NAME=value` assignments and each wrapper
/// (`sudo -u root`, `env -i`, `nohup`, `timeout 5`, `nice -n 5`, `setsid`, `exec`, `command`,
/// `xargs -I {}`, `busybox`, `stdbuf`, `chroot DIR`, …); and the commands inside `sh -c`,
/// `bash -xc`, `bash -lc`, `bash --norc -c`, `sh -c -- 'x'` (any shell), `eval`, `alias`'s
/// values, `su -c`,
/// `watch`, `env -S`, and `find … -exec`/`-execdir`/`-ok`/`-okdir … ;`. Redirection targets
/// (`> out.txt`) are not words of a command. Nesting deeper than [`MAX_NESTING`] is not looked
/// into.
///
/// Lenient on purpose: `;`, `&`, `|`, newlines, parentheses, braces, `$(`, backquotes (also
/// inside double quotes) and commas inside braces all cut, so a quoted `;` inside `$(…)` may
/// cut too.
///
/// ```
/// use askfirst_core::command_line::all_simple_commands;
/// let all = all_simple_commands("sudo sh -c -- 'rm -rf x' > log");
/// assert!(all.contains(&vec!["rm".to_string(), "-rf".into(), "x".into()]));
/// ```
pub fn all_simple_commands(line: &str) -> Vec<Vec<String>> {
    expand(line).commands
}

/// Every file a redirection of `line` reads or writes (`< in.txt`, `> out.txt`, `>> log`,
/// `&> all`, `>&file`), found by the same lenient reading as [`all_simple_commands`] (also
/// inside `sh -c`, `eval`, …), in the order met: the files a line reaches that are not words
/// of any command.
///
/// ```
/// use askfirst_core::command_line::redirection_targets;
/// assert_eq!(redirection_targets("sh -c 'cat < a' > b"), vec!["b", "a"]);
/// ```
pub fn redirection_targets(line: &str) -> Vec<String> {
    let found = expand(line);
    found
        .writes
        .into_iter()
        .map(|(target, _)| target)
        .chain(found.reads)
        .collect()
}

/// The words of a line that may name files, by the lenient reading ([`names_in`]).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Names {
    /// Every candidate simple command's words ([`all_simple_commands`]).
    pub commands: Vec<Vec<String>>,
    /// Every file a redirection reads or writes ([`redirection_targets`]).
    pub targets: Vec<String>,
    /// The words and targets in which a pattern character (`*`, `?`, `[`) was quoted or
    /// escaped (`'invoice[1].pdf'`, `x\*.pdf`), so that the shell takes it as a plain letter
    /// and does not expand the word. A pattern character of any other word is the shell's:
    /// the word becomes the names it matches, or stays as it is where it matches none.
    pub quoted_patterns: Vec<String>,
    /// The words in which some pattern characters were quoted and others not (`'*'*.pdf`:
    /// the shell matches names starting with `*`).
    pub mixed_patterns: Vec<String>,
    /// The words in which every `$` and backquote was quoted or escaped (`'$a.pdf'`), so that
    /// they are letters of the word, not a variable.
    pub quoted_dollars: Vec<String>,
    /// The words that are lines run by a shell or another program (`sh -c 'ls *.pdf'`'s
    /// `ls *.pdf`), read as commands of their own (among `commands`), once for each time one
    /// is run.
    pub scripts: Vec<String>,
    /// For each of `commands`: whether its words after a wrapper, an assignment or a shell
    /// keyword (`sudo rm x`, `X=1 rm x`, `then rm x`) are also among `commands` as a command
    /// of their own (`rm x`), where its program is first.
    pub wrapped: Vec<bool>,
}

/// What the lenient reading of `line` finds that may name files, read once: see [`Names`].
///
/// ```
/// use askfirst_core::command_line::names_in;
/// let names = names_in("touch 'a[1].pdf' *.txt > log");
/// assert_eq!(names.targets, vec!["log"]);
/// assert_eq!(names.quoted_patterns, vec!["a[1].pdf"]);
/// ```
pub fn names_in(line: &str) -> Names {
    let found = expand(line);
    Names {
        commands: found.commands,
        targets: found
            .writes
            .into_iter()
            .map(|(target, _)| target)
            .chain(found.reads)
            .collect(),
        quoted_patterns: found.quoted_patterns,
        mixed_patterns: found.mixed_patterns,
        quoted_dollars: found.quoted_dollars,
        scripts: found.scripts,
        wrapped: found.wrapped,
    }
}

/// What the lenient reading found: every candidate simple command, every file written by a
/// redirection (`(target, appends)`) and read by one, the words whose pattern characters were
/// quoted, and whether nesting went too deep to look into.
#[derive(Default)]
struct Expansion {
    commands: Vec<Vec<String>>,
    writes: Vec<(String, bool)>,
    reads: Vec<String>,
    quoted_patterns: Vec<String>,
    mixed_patterns: Vec<String>,
    quoted_dollars: Vec<String>,
    scripts: Vec<String>,
    wrapped: Vec<bool>,
    too_deep: bool,
}

fn expand(line: &str) -> Expansion {
    let mut out = Expansion::default();
    expand_line(line, 0, &mut out);
    out
}

fn expand_line(line: &str, depth: usize, out: &mut Expansion) {
    if depth > MAX_NESTING {
        out.too_deep = true;
        return;
    }
    let split = split(line);
    out.writes.extend(split.writes);
    out.reads.extend(split.reads);
    out.quoted_patterns.extend(split.quoted_patterns);
    out.mixed_patterns.extend(split.mixed_patterns);
    out.quoted_dollars.extend(split.quoted_dollars);
    for words in split.commands {
        expand_words(words, depth, out);
    }
    // `bash <<< 'reboot'` runs it; read every here-string as commands (lenient: also for
    // programs that only read it as text).
    for text in split.here_strings {
        expand_line(&text, depth + 1, out);
    }
}

/// Whether `word`, first in a simple command, is a shell keyword that runs the command after
/// it (`if rm x; then …`, `then rm x`, `do rm x`, `else rm x`, `! rm x`, `coproc rm x`): the
/// lenient reading cuts at `;` and newlines, not at these, so each such command starts with
/// one.
fn runs_what_follows(word: &str) -> bool {
    matches!(
        word,
        "if" | "then" | "else" | "elif" | "while" | "until" | "do" | "!" | "coproc"
    )
}

fn expand_words(words: Vec<String>, depth: usize, out: &mut Expansion) {
    if depth > MAX_NESTING {
        out.too_deep = true;
        return;
    }
    let Some((program, args)) = words.split_first() else {
        return;
    };
    let name = base(program);
    let mut inner: Option<Vec<String>> = None;
    let mut inner_lines: Vec<String> = Vec::new();
    let mut inner_groups: Vec<Vec<String>> = Vec::new();
    if is_assignment(program) || runs_what_follows(program) {
        inner = Some(args.to_vec());
    } else if let Some(line) = env_split_string(name, args) {
        inner_lines.push(line);
    } else if let Some(rest) = after_wrapper(name, args) {
        inner = Some(rest.to_vec());
    } else if is_shell(name) {
        if let ShellRun::Command(script) = shell_run(args) {
            inner_lines.push(script.to_owned());
        }
    } else {
        match name {
            "eval" => inner_lines.push(args.join(" ")),
            // `alias ls='rm -rf x'`: what the name will stand for.
            "alias" => inner_lines.extend(
                args.iter()
                    .filter_map(|a| a.split_once('=').map(|(_, value)| value.to_owned())),
            ),
            "su" | "runuser" | "script" => {
                // `-c line`, `--command line`, `--command=line`, and `-c` last in a group of
                // one-letter options (`script -qc line`).
                let takes_line = |a: &String| {
                    a == "--command"
                        || (a.starts_with('-')
                            && !a.starts_with("--")
                            && a.ends_with('c')
                            && a[1..].bytes().all(|b| b.is_ascii_alphabetic()))
                };
                for (i, arg) in args.iter().enumerate() {
                    if let Some(line) = arg.strip_prefix("--command=") {
                        inner_lines.push(line.to_owned());
                    } else if takes_line(arg) {
                        inner_lines.extend(args.get(i + 1).cloned());
                    }
                }
            }
            "watch" => {
                let rest = skip_options(args, &["-n", "--interval", "-d", "-q"], false);
                inner_lines.push(rest.join(" "));
            }
            "find" => {
                inner_groups.extend(find_exec_groups(args).into_iter().map(<[String]>::to_vec));
            }
            _ => {}
        }
    }
    // Its words after the wrapper or keyword are read again as a command of their own.
    let wrapped = inner.is_some();
    if program.contains('/') && !name.is_empty() {
        let mut bare = words.clone();
        bare[0] = name.to_owned();
        out.commands.push(words);
        out.commands.push(bare);
        out.wrapped.extend([wrapped, wrapped]);
    } else {
        out.commands.push(words);
        out.wrapped.push(wrapped);
    }
    for inner in inner.into_iter().chain(inner_groups) {
        expand_words(inner, depth + 1, out);
    }
    for line in inner_lines {
        expand_line(&line, depth + 1, out);
        out.scripts.push(line);
    }
}
