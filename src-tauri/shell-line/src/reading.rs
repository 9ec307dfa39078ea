//! The lenient reading of a command line ([`all_simple_commands`], [`redirection_targets`],
//! [`names_in`], [`every_reading`]), for deny and ask rules, the hard denials, the card's
//! effects and the paths a line mentions: everything that might separate commands cuts, and
//! whatever runs another command (`sh -c`, `eval`, `sudo`, `find -exec`, …) is looked into.

use crate::split::split;
use crate::wrappers::*;
use crate::MAX_NESTING;

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
/// use askfirst_shell_line::all_simple_commands;
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
/// use askfirst_shell_line::redirection_targets;
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
/// use askfirst_shell_line::names_in;
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
pub(crate) struct Expansion {
    pub(crate) commands: Vec<Vec<String>>,
    pub(crate) writes: Vec<(String, bool)>,
    pub(crate) reads: Vec<String>,
    pub(crate) quoted_patterns: Vec<String>,
    pub(crate) mixed_patterns: Vec<String>,
    pub(crate) quoted_dollars: Vec<String>,
    pub(crate) scripts: Vec<String>,
    pub(crate) wrapped: Vec<bool>,
    pub(crate) too_deep: bool,
}

pub(crate) fn expand(line: &str) -> Expansion {
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

/// Every reading of a line run by a shell that is not ours (another agent's command), kept
/// together ([`every_reading`]): a word or target any of them finds counts.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Readings {
    /// The simple commands' words: by the lenient reading of the whole line; by the lenient
    /// reading of each of its lines alone, so that a quote in a comment or in a
    /// here-document's text (which the shell does not read as quotes) hides no later line;
    /// and each line as `sh` cuts words ([`crate::words::words`]), so that a brace expansion
    /// (`~/Doc{uments,}/x`), which the lenient reading cuts, stays one word.
    pub commands: Vec<Vec<String>>,
    /// The targets of its redirections, by the first two readings.
    pub redirected: Vec<String>,
}

/// `line` read every way of [`Readings`].
///
/// ```
/// use askfirst_shell_line::every_reading;
/// let read = every_reading("ls ~/Doc{uments,}/x > out");
/// assert!(read.commands.contains(&vec!["ls".to_string(), "~/Doc{uments,}/x".into(), ">".into(), "out".into()]));
/// assert_eq!(read.redirected, vec!["out"]);
/// ```
pub fn every_reading(line: &str) -> Readings {
    let mut commands = all_simple_commands(line);
    let mut redirected = redirection_targets(line);
    if line.contains('\n') {
        for one in line.lines() {
            commands.extend(all_simple_commands(one));
            redirected.extend(redirection_targets(one));
        }
    }
    for one in line.lines() {
        if let Ok(words) = crate::words::words(one) {
            commands.push(words);
        }
    }
    Readings {
        commands,
        redirected,
    }
}

/// Whether one of `commands` (a line's simple commands) changes to the home folder with `cd`
/// or `pushd` alone.
pub fn goes_home(commands: &[Vec<String>]) -> bool {
    commands
        .iter()
        .any(|words| matches!(words.as_slice(), [only] if only == "cd" || only == "pushd"))
}
