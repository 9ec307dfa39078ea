//! What a command does that matters ([`effects`]), in sentences for the approval card.

use super::hard::is_device;
use super::*;

/// What `line` does that matters, one plain sentence each, for the approval card: deleting
/// for good, writing files (`>`, `>>`, `tee`), downloading, sending data out, running scripts
/// whose steps Ask First cannot see, administrator rights, moving, permissions, stopping
/// programs — and, when [`plain_commands`] cannot read the line, that it uses shell features
/// whose result cannot be shown in advance. Names are shown exactly as written (the card
/// escapes control characters). At most 10 sentences, then "…and N more.".
///
/// ```
/// use askfirst_core::command_line::effects;
/// assert_eq!(
///     effects("rm -rf build && echo done > out.txt"),
///     vec![
///         "Uses shell features (such as variables, substitutions, file name patterns or \
///          redirections), so what it does exactly is only known when it runs.".to_string(),
///         "Deletes files and folders for good (they do not go to the trash): build".into(),
///         "Overwrites or creates the file out.txt".into(),
///     ]
/// );
/// ```
pub fn effects(line: &str) -> Vec<String> {
    let mut sentences = Sentences::default();
    if plain_commands(line).is_none() {
        sentences.add(
            "Uses shell features (such as variables, substitutions, file name patterns or \
             redirections), so what it does exactly is only known when it runs."
                .to_owned(),
        );
    }
    let expansion = expand(line);
    for words in &expansion.commands {
        if let Some(sentence) = command_effect(words) {
            sentences.add(sentence);
        }
        if let Some(sentence) = extra_effect(words) {
            sentences.add(sentence);
        }
    }
    for (target, appends) in &expansion.writes {
        if target.starts_with("/dev/") && !is_device(target) {
            continue;
        }
        sentences.add(if *appends {
            format!("Adds to the end of (or creates) the file {target}")
        } else {
            format!("Overwrites or creates the file {target}")
        });
    }
    sentences.finish()
}

/// Sentences in order, without repeats, bounded.
#[derive(Default)]
pub(super) struct Sentences {
    seen: HashSet<String>,
    kept: Vec<String>,
}

impl Sentences {
    fn add(&mut self, sentence: String) {
        if self.seen.contains(&sentence) {
            return;
        }
        if self.kept.len() < MAX_EFFECTS {
            self.kept.push(sentence.clone());
        }
        self.seen.insert(sentence);
    }

    fn finish(mut self) -> Vec<String> {
        let more = self.seen.len() - self.kept.len();
        if more > 0 {
            self.kept.push(format!("…and {more} more."));
        }
        self.kept
    }
}

/// `names` for a sentence: the first five, then how many more.
pub(super) fn list(names: &[&String]) -> String {
    let shown: Vec<&str> = names.iter().take(5).map(|n| n.as_str()).collect();
    let mut text = shown.join(", ");
    if names.len() > 5 {
        text.push_str(&format!(" and {} more", names.len() - 5));
    }
    text
}

/// The words of `args` that are not options.
pub(super) fn operands(args: &[String]) -> Vec<&String> {
    let mut done = false;
    args.iter()
        .filter(|a| {
            if !done && *a == "--" {
                done = true;
                return false;
            }
            done || !(a.starts_with('-') && a.len() > 1)
        })
        .collect()
}

pub(super) fn is_url(word: &str) -> bool {
    word.contains("://")
}

/// The main effect of one simple command (judged by its program's name).
pub(super) fn command_effect(words: &[String]) -> Option<String> {
    let (program, args) = words.split_first()?;
    let name = base(program);
    let targets = operands(args);
    let first = targets.first().map(|t| t.as_str()).unwrap_or("");
    let unseen = ", whose steps Ask First cannot see.";
    let sentence = match name {
        "rm" | "unlink" => {
            let recursive = rm_is_recursive(args);
            let what = if recursive {
                "files and folders"
            } else {
                "files"
            };
            if targets.is_empty() {
                format!("Deletes {what} for good (they do not go to the trash), named by its input")
            } else {
                format!(
                    "Deletes {what} for good (they do not go to the trash): {}",
                    list(&targets)
                )
            }
        }
        "rmdir" => format!("Deletes the empty folders {}", list(&targets)),
        "shred" => format!(
            "Destroys the contents of {} beyond recovery",
            list(&targets)
        ),
        "find" if args.iter().any(|a| a == "-delete") => {
            "Deletes the files it finds for good (they do not go to the trash)".to_owned()
        }
        "tee" => {
            let appends = args.iter().any(|a| a == "-a" || a == "--append");
            if targets.is_empty() {
                return None;
            }
            if appends {
                format!(
                    "Adds to the end of (or creates) the file {}",
                    list(&targets)
                )
            } else {
                format!("Overwrites or creates the file {}", list(&targets))
            }
        }
        "mv" => format!("Moves or renames files: {}", list(&targets)),
        "cp" => format!(
            "Copies files, replacing any with the same name where they go: {}",
            list(&targets)
        ),
        // The first operand is the mode or the owner.
        "chmod" => format!("Changes file permissions: {}", list(targets.get(1..)?)),
        "chown" | "chgrp" => format!("Changes who owns files: {}", list(targets.get(1..)?)),
        "kill" | "pkill" | "killall" => format!("Stops running programs ({name})"),
        "sudo" | "doas" | "run0" | "pkexec" | "su" => format!(
            "Runs with administrator rights ({name}): it could change anything on the computer."
        ),
        "curl" | "wget" => {
            let urls: Vec<&String> = args.iter().filter(|a| is_url(a)).collect();
            if urls.is_empty() {
                format!("Downloads from the internet ({name})")
            } else {
                format!("Downloads from the internet ({name}): {}", list(&urls))
            }
        }
        "scp" | "sftp" | "ftp" | "rsync" | "ssh" | "nc" | "ncat" | "netcat" | "socat"
        | "telnet" => format!("Sends data to the internet or another computer ({name})"),
        _ if is_shell(name) => match shell_run(args) {
            ShellRun::Command(_) => return None,
            ShellRun::File(file) => format!("Runs the script {file}{unseen}"),
            ShellRun::Input => format!(
                "Runs commands that {name} reads from its input (for example the output of \
                 the command before it), which Ask First cannot see in advance."
            ),
        },
        "source" | "." => format!("Runs the script {first}{unseen}"),
        "python" | "python3" | "python2" | "node" | "ruby" | "perl" | "php" | "deno"
        | "Rscript" | "lua" => {
            if args
                .iter()
                .any(|a| matches!(a.as_str(), "-c" | "-e" | "-E" | "--eval" | "-m" | "-r"))
            {
                format!("Runs {name} code given on the command line{unseen}")
            } else if let Some(script) = targets.first() {
                format!("Runs the script {script}{unseen}")
            } else {
                format!("Runs {name} code it reads from its input{unseen}")
            }
        }
        "make" | "cmake" | "ninja" | "just" | "gradle" | "mvn" => {
            format!("Runs the project's build steps ({name}){unseen}")
        }
        "npm" | "pnpm" | "yarn" | "bun" => package_manager_effect(name, args)?,
        "pip" | "pip3" | "pipx" | "uv" | "gem" | "brew" | "apt" | "apt-get" | "dnf" | "yum"
        | "pacman" | "go" | "rustup" | "conda"
            if args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "install" | "add" | "get" | "update" | "upgrade" | "sync"
                )
            }) =>
        {
            format!("Downloads from the internet and installs software ({name} {first})")
        }
        "cargo" => match first {
            "install" | "add" | "update" | "fetch" => {
                format!("Downloads from the internet ({name} {first})")
            }
            "publish" => format!("Sends data to the internet ({name} {first})"),
            "build" | "run" | "test" | "bench" | "check" => {
                format!("Builds and runs the project's code (cargo {first}){unseen}")
            }
            _ => return None,
        },
        "git" => git_effect(args)?,
        "docker" | "podman" if matches!(first, "pull" | "run" | "build") => {
            format!("Downloads from the internet and runs containers ({name} {first})")
        }
        _ if program.contains('/') && !program.starts_with('/') => {
            format!("Runs the program {program} from your workspace folder{unseen}")
        }
        _ => return None,
    };
    Some(sentence)
}

/// A second sentence for a command that both downloads and sends (`curl -d`).
pub(super) fn extra_effect(words: &[String]) -> Option<String> {
    let (program, args) = words.split_first()?;
    let name = base(program);
    let sends = match name {
        "curl" => {
            args.iter().any(|a| {
                let option = a.split('=').next().unwrap_or(a);
                let long = matches!(
                    option,
                    "--data"
                        | "--data-raw"
                        | "--data-binary"
                        | "--data-urlencode"
                        | "--form"
                        | "--upload-file"
                        | "--json"
                );
                // `-d`, `-dname=x`, `-F`, `-T file` (also attached).
                let short = !a.starts_with("--")
                    && (a.starts_with("-d") || a.starts_with("-F") || a.starts_with("-T"));
                long || short
            }) || args
                .windows(2)
                .any(|w| w[0] == "-X" && matches!(w[1].as_str(), "POST" | "PUT" | "PATCH"))
        }
        "wget" => args.iter().any(|a| {
            a.starts_with("--post-data") || a.starts_with("--post-file") || a.starts_with("--body")
        }),
        _ => false,
    };
    sends.then(|| format!("Sends data to the internet ({name} with data to upload)"))
}

pub(super) fn rm_is_recursive(args: &[String]) -> bool {
    args.iter().any(|a| {
        if let Some(long) = a.strip_prefix("--") {
            !long.is_empty() && "recursive".starts_with(long)
        } else {
            a.starts_with('-') && (a.contains('r') || a.contains('R'))
        }
    })
}

pub(super) fn package_manager_effect(name: &str, args: &[String]) -> Option<String> {
    let first = args.iter().find(|a| !a.starts_with('-'))?.as_str();
    let unseen = ", whose steps Ask First cannot see.";
    Some(match first {
        "install" | "i" | "ci" | "add" | "update" | "upgrade" => format!(
            "Downloads from the internet and installs packages ({name} {first}), which may run \
             their own install scripts{unseen}"
        ),
        "publish" => format!("Sends the project to the internet ({name} publish)"),
        "exec" | "dlx" | "x" => format!("Downloads and runs a package ({name} {first}){unseen}"),
        "run" | "run-script" => {
            let script = args
                .iter()
                .skip_while(|a| a.as_str() != first)
                .nth(1)
                .map(String::as_str)
                .unwrap_or("");
            format!("Runs the project's script {script} ({name} run){unseen}")
        }
        _ => format!("Runs the project's script {first} ({name}){unseen}"),
    })
}

pub(super) fn git_effect(args: &[String]) -> Option<String> {
    let sub = args.iter().find(|a| !a.starts_with('-'))?.as_str();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    Some(match sub {
        "clone" | "fetch" | "pull" => format!("Downloads from the internet (git {sub})"),
        "push" if has("--force") || has("-f") || has("--force-with-lease") => {
            "Sends data to the internet and replaces what is there (git push --force)".to_owned()
        }
        "push" => "Sends data to the internet (git push)".to_owned(),
        "reset" if has("--hard") => {
            "Throws away uncommitted changes for good (git reset --hard)".to_owned()
        }
        "clean" => "Deletes files Git does not track, for good (git clean)".to_owned(),
        "checkout" | "restore" if args.iter().any(|a| a == "--" || a == ".") => {
            format!("Throws away uncommitted changes to files (git {sub})")
        }
        _ => return None,
    })
}
