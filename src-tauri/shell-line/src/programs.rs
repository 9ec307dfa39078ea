//! What one simple command does that matters, judged by its program and its words
//! ([`program_effects`]), as [`Effect`]s; the line-wide view is in [`super::effects`].

use super::developer::{git_effect, hosts, package_manager_effect, sends_data};
use super::effects::{Effect, Place};
use super::*;

/// Programs that only read or print, or change nothing beyond what the line's redirections
/// (judged on their own) write: a command of one of them adds no effect of its own. Anything
/// not here and not recognised below is a program Ask First "cannot tell" about. Kept short on
/// purpose: `sed`, `awk`, `perl` and the like can run commands or write files, so they are not
/// here.
const ONLY_READS: &[&str] = &[
    "ls",
    "cat",
    "echo",
    "printf",
    "pwd",
    "head",
    "tail",
    "wc",
    "sort",
    "uniq",
    "cut",
    "tr",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "diff",
    "cmp",
    "file",
    "stat",
    "du",
    "df",
    "date",
    "whoami",
    "id",
    "uname",
    "which",
    "type",
    "true",
    "false",
    "test",
    "[",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "tree",
    "column",
    "nl",
    "seq",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "wc",
    "less",
    "more",
    "cd",
    "pushd",
    "popd",
    "mkdir",
    "touch",
    "sleep",
    "jq",
    "hostname",
    "uptime",
    "free",
    "ps",
    "whereis",
    "locale",
    "expr",
    "xxd",
    "od",
    "hexdump",
    "base64",
    "yes",
    "time",
    "exit",
    "return",
    "set",
    "shift",
    "read",
    "export",
    "unset",
    ":",
];

/// Words a shell reads as syntax rather than a program (the lenient reading cuts at them).
const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "in", "select", "function", "!", "[[", "]]", "coproc",
];

/// Whether `word` holds something only the shell knows when it runs: a variable, a
/// substitution, a file name pattern, `~user`, or find's and xargs' `{}`.
pub(super) fn is_pattern(word: &str) -> bool {
    word.contains(['$', '`', '*', '?', '[', '{', '~'])
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

pub(super) fn rm_is_recursive(args: &[String]) -> bool {
    args.iter().any(|a| {
        if let Some(long) = a.strip_prefix("--") {
            !long.is_empty() && "recursive".starts_with(long)
        } else {
            a.starts_with('-') && (a.contains('r') || a.contains('R'))
        }
    })
}

fn names(targets: &[&String]) -> Vec<String> {
    targets.iter().map(|t| (*t).clone()).collect()
}

/// What one simple command (`words`, quotes removed) does that matters, in order, into
/// `out`. Returns whether its program is one Ask First knows (even when it adds nothing), so
/// that the others can be said to be unknown.
pub(super) fn program_effects(words: &[String], place: &Place, out: &mut Vec<Effect>) -> bool {
    let Some((program, args)) = words.split_first() else {
        return true;
    };
    let name = base(program);
    let targets = operands(args);
    let first = targets.first().map(|t| t.as_str()).unwrap_or("");
    let command = |sub: &str| format!("{name} {sub}");
    // An empty word is what is left of `"$(…)"` after its command was cut out (a shell
    // feature, said on its own).
    if program.is_empty() {
        return true;
    }
    if program.contains(['$', '`', '*', '?', '{', '[']) && !matches!(program.as_str(), "[" | "[[") {
        out.push(Effect::BuildsCommands {
            how: program.clone(),
        });
        return true;
    }
    let effect = match name {
        "rm" | "unlink" => {
            let named: Vec<&&String> = targets.iter().filter(|t| t.as_str() != "{}").collect();
            if named.is_empty() {
                Effect::DeletesWhatItIsGiven
            } else {
                Effect::Deletes {
                    targets: named.iter().map(|t| place.target(t.as_str())).collect(),
                    recursive: rm_is_recursive(args),
                }
            }
        }
        "rmdir" => Effect::DeletesEmptyFolders {
            names: names(&targets),
        },
        "shred" => Effect::Destroys {
            names: names(&targets),
        },
        "find" => {
            if args.iter().any(|a| a == "-delete") {
                out.push(Effect::DeletesWhatItFinds);
            }
            if args.iter().any(|a| a.starts_with("-fprint") || a == "-fls") {
                out.push(Effect::WritesFiles {
                    names: vec![program.clone()],
                });
            }
            return true;
        }
        "tee" => {
            let appends = args.iter().any(|a| a == "-a" || a == "--append");
            for target in &targets {
                out.push(Effect::Writes {
                    name: (*target).clone(),
                    appends,
                });
            }
            return true;
        }
        "dd" => {
            for target in args.iter().filter_map(|a| a.strip_prefix("of=")) {
                out.push(Effect::Writes {
                    name: target.to_owned(),
                    appends: false,
                });
            }
            return true;
        }
        "truncate" => Effect::WritesFiles {
            names: names(&targets),
        },
        "mv" => Effect::Moves {
            names: names(&targets),
        },
        "cp" => Effect::Copies {
            names: names(&targets),
        },
        // The first operand is the mode or the owner.
        "chmod" => Effect::Permissions {
            names: names(targets.get(1..).unwrap_or(&[])),
        },
        "chown" | "chgrp" => Effect::Owner {
            names: names(targets.get(1..).unwrap_or(&[])),
        },
        "kill" | "pkill" | "killall" => Effect::StopsPrograms {
            program: name.to_owned(),
        },
        "sudo" | "doas" | "run0" | "pkexec" | "su" => Effect::Administrator {
            program: name.to_owned(),
        },
        "curl" | "wget" => {
            out.push(Effect::Downloads {
                program: name.to_owned(),
                hosts: hosts(args),
            });
            if sends_data(name, args) {
                out.push(Effect::Sends {
                    program: name.to_owned(),
                    hosts: hosts(args),
                });
            }
            return true;
        }
        "scp" | "sftp" | "ftp" | "rsync" | "ssh" | "nc" | "ncat" | "netcat" | "socat"
        | "telnet" => Effect::Sends {
            program: name.to_owned(),
            hosts: hosts(args),
        },
        _ if is_shell(name) => match shell_run(args) {
            // `sh -c "$X"`, `sh -c "$(…)"` (cut out, an empty word is left), `xargs sh -c '{}'`.
            ShellRun::Command(script)
                if script.contains(['$', '`']) || script == "{}" || script.is_empty() =>
            {
                Effect::BuildsCommands {
                    how: format!("{name} -c"),
                }
            }
            ShellRun::Command(_) => return true,
            ShellRun::File(file) => Effect::RunsScript {
                script: file.to_owned(),
            },
            ShellRun::Input => Effect::RunsItsInput {
                program: name.to_owned(),
            },
        },
        "eval" if args.iter().any(|a| a.contains(['$', '`']) || a.is_empty()) => {
            Effect::BuildsCommands {
                how: "eval".to_owned(),
            }
        }
        "eval" => return true,
        "alias" => Effect::BuildsCommands {
            how: "alias".to_owned(),
        },
        "source" | "." => Effect::RunsScript {
            script: first.to_owned(),
        },
        "python" | "python3" | "python2" | "node" | "ruby" | "perl" | "php" | "deno"
        | "Rscript" | "lua" => {
            if args
                .windows(2)
                .any(|w| w[0] == "-m" && w[1] == "http.server")
            {
                out.push(Effect::KeepsRunning {
                    program: command("-m http.server"),
                });
            }
            if args
                .iter()
                .any(|a| matches!(a.as_str(), "-c" | "-e" | "-E" | "--eval" | "-m" | "-r"))
            {
                Effect::RunsCode {
                    language: name.to_owned(),
                }
            } else if let Some(script) = targets.first() {
                Effect::RunsScript {
                    script: (*script).clone(),
                }
            } else {
                Effect::RunsItsInput {
                    program: name.to_owned(),
                }
            }
        }
        "make" | "cmake" | "ninja" | "just" | "gradle" | "mvn" => Effect::RunsBuild {
            command: name.to_owned(),
        },
        "npm" | "pnpm" | "yarn" | "bun" => match package_manager_effect(name, args) {
            Some(effect) => effect,
            None => return true,
        },
        "pip" | "pip3" | "pipx" | "uv" | "gem" | "brew" | "apt" | "apt-get" | "dnf" | "yum"
        | "pacman" | "go" | "rustup" | "conda"
            if args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "install" | "add" | "get" | "update" | "upgrade" | "sync"
                )
            }) =>
        {
            Effect::InstallsSoftware {
                command: command(first),
            }
        }
        "cargo" => match first {
            "install" | "add" | "update" | "fetch" => Effect::Downloads {
                program: command(first),
                hosts: Vec::new(),
            },
            "publish" => Effect::Sends {
                program: command(first),
                hosts: Vec::new(),
            },
            "build" | "run" | "test" | "bench" | "check" => Effect::RunsBuild {
                command: command(first),
            },
            _ => return false,
        },
        "git" => return git_effect(args, out),
        "docker" | "podman" if matches!(first, "pull" | "run" | "build") => Effect::Containers {
            command: command(first),
        },
        "tail"
            if args
                .iter()
                .any(|a| a == "-f" || a == "-F" || a.starts_with("--follow")) =>
        {
            Effect::KeepsRunning {
                program: "tail -f".to_owned(),
            }
        }
        "watch" => Effect::KeepsRunning {
            program: "watch".to_owned(),
        },
        "sleep" if long_sleep(&targets) => Effect::KeepsRunning {
            program: format!("sleep {first}"),
        },
        "while" | "until" if matches!(first, "true" | ":") => Effect::KeepsRunning {
            program: format!("{name} {first}"),
        },
        "nohup" | "setsid" | "disown" | "daemonize" | "screen" | "tmux" => {
            out.push(Effect::Background {
                program: Some(name.to_owned()),
            });
            return true;
        }
        _ if program.contains('/') && !program.starts_with('/') => Effect::RunsProgram {
            path: program.clone(),
        },
        _ => {
            return ONLY_READS.contains(&name)
                || RESERVED.contains(&name)
                || is_assignment(program)
                || after_wrapper(name, args).is_some()
                || matches!(name, "env" | "su" | "runuser" | "script" | "xargs")
        }
    };
    out.push(effect);
    true
}

/// Whether `sleep`'s operands add up to a minute or more (or `infinity`).
fn long_sleep(targets: &[&String]) -> bool {
    targets.iter().any(|t| {
        let t = t.as_str();
        t == "infinity" || t.ends_with(['m', 'h', 'd']) || t.parse::<f64>().is_ok_and(|s| s >= 60.0)
    })
}
