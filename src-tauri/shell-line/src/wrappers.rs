//! Seeing through what runs another command: shells (`sh -c`), wrappers (`sudo`, `env`,
//! `nohup`, `timeout 5`, `busybox`, …), `env -S` and `find -exec`.

pub(super) fn base(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

pub(super) fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

pub(super) fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "mksh" | "ash" | "fish" | "csh" | "tcsh"
    )
}

/// How a shell is asked to run something.
pub(super) enum ShellRun<'a> {
    /// `-c SCRIPT` (also `-xc`, `-lc`, `--norc -c`, `-c -- SCRIPT`).
    Command(&'a str),
    /// A script file.
    File(&'a str),
    /// Commands read from its input.
    Input,
}

pub(super) fn shell_run(args: &[String]) -> ShellRun<'_> {
    let mut command = false;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if arg == "--" || arg == "-" {
            i += 1;
            break;
        }
        if arg.starts_with("--") {
            if matches!(arg.as_str(), "--rcfile" | "--init-file") {
                i += 1;
            }
            i += 1;
        } else if (arg.starts_with('-') || arg.starts_with('+')) && arg.len() > 1 {
            let flags = &arg[1..];
            command |= flags.contains('c');
            if flags.contains('o') || flags.contains('O') {
                i += 1;
            }
            i += 1;
        } else {
            break;
        }
    }
    match args.get(i) {
        Some(operand) if command => ShellRun::Command(operand),
        Some(operand) => ShellRun::File(operand),
        None => ShellRun::Input,
    }
}

/// The words after a wrapper's own options (and assignments, and positional words such as
/// `timeout`'s duration): the command it runs. `None` when `name` is no wrapper.
pub(super) fn after_wrapper<'a>(name: &str, args: &'a [String]) -> Option<&'a [String]> {
    // (options that take a separate value, positional words before the command)
    let (valued, positional): (&[&str], usize) = match name {
        "sudo" => (
            &[
                "-u",
                "-g",
                "-C",
                "-D",
                "-p",
                "-r",
                "-t",
                "-U",
                "-T",
                "-R",
                "--user",
                "--group",
                "--close-from",
                "--chdir",
                "--prompt",
                "--role",
                "--type",
                "--other-user",
                "--command-timeout",
                "--chroot",
                "--host",
            ],
            0,
        ),
        "doas" => (&["-u", "-C"], 0),
        "run0" => (
            &[
                "-u",
                "-g",
                "-D",
                "--user",
                "--group",
                "--chdir",
                "--machine",
                "--unit",
                "--description",
                "--property",
                "--nice",
                "--slice",
                "--setenv",
            ],
            0,
        ),
        "pkexec" => (&["-u", "--user"], 0),
        "env" => (&["-u", "-C", "--unset", "--chdir"], 0),
        "nohup" | "setsid" | "command" | "builtin" | "busybox" | "unbuffer" | "unshare" => (&[], 0),
        "exec" => (&["-a"], 0),
        "time" => (&["-f", "-o", "--format", "--output"], 0),
        "nice" => (&["-n", "--adjustment"], 0),
        "ionice" => (&["-c", "-n", "-p", "--class", "--classdata"], 0),
        "chrt" => (&[], 1),
        "taskset" => (&[], 1),
        "timeout" => (&["-s", "-k", "--signal", "--kill-after"], 1),
        "stdbuf" => (&["-i", "-o", "-e", "--input", "--output", "--error"], 0),
        "caffeinate" => (&["-w", "-t"], 0),
        "chroot" => (&["--userspec", "--groups"], 1),
        "strace" => (
            &[
                "-o", "-e", "-s", "-u", "-p", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X",
            ],
            0,
        ),
        "xargs" => (
            &[
                "-a",
                "-d",
                "-E",
                "-I",
                "-L",
                "-n",
                "-P",
                "-s",
                "--arg-file",
                "--delimiter",
                "--max-args",
                "--max-procs",
                "--max-chars",
                "--process-slot-var",
            ],
            0,
        ),
        _ => return None,
    };
    let assignments = matches!(name, "sudo" | "doas" | "run0" | "env");
    let rest = skip_options(args, valued, assignments);
    Some(rest.get(positional..).unwrap_or(&[]))
}

/// `args` after leading options (`-x`, `--long`, `--long=value`, and the value after each
/// option named in `valued`), `--`, and `NAME=value` when `assignments`.
pub(super) fn skip_options<'a>(
    args: &'a [String],
    valued: &[&str],
    assignments: bool,
) -> &'a [String] {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if arg == "--" {
            i += 1;
            break;
        }
        if arg.starts_with('-') && arg.len() > 1 {
            i += if valued.contains(&arg.as_str()) { 2 } else { 1 };
        } else if assignments && is_assignment(arg) {
            i += 1;
        } else {
            break;
        }
    }
    args.get(i..).unwrap_or(&[])
}

/// For `env -S 'cmd args' more…` (`--split-string`): the command line it runs.
pub(super) fn env_split_string(name: &str, args: &[String]) -> Option<String> {
    if name != "env" {
        return None;
    }
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let string = if arg == "-S" || arg == "--split-string" {
            Some(args.get(i + 1).cloned().unwrap_or_default())
        } else {
            arg.strip_prefix("--split-string=")
                .or_else(|| arg.strip_prefix("-S"))
                .map(str::to_owned)
        };
        if let Some(string) = string {
            let skip = if arg == "-S" || arg == "--split-string" {
                2
            } else {
                1
            };
            let rest = args.get(i + skip..).unwrap_or(&[]);
            return Some(format!("{string} {}", rest.join(" ")));
        }
        if !arg.starts_with('-') {
            return None;
        }
        i += 1;
    }
    None
}

/// The commands of `find`'s `-exec`, `-execdir`, `-ok` and `-okdir` (up to `;` or `{} +`).
pub(super) fn find_exec_groups(args: &[String]) -> Vec<&[String]> {
    let mut groups = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if matches!(args[i].as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            let start = i + 1;
            let mut end = start;
            while end < args.len()
                && args[end] != ";"
                && !(args[end] == "+" && end > start && args[end - 1] == "{}")
            {
                end += 1;
            }
            groups.push(&args[start..end]);
            i = end + 1;
        } else {
            i += 1;
        }
    }
    groups
}
