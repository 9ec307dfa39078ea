//! The hard denials ([`hard_denial`]): what never runs, judged on every simple command.

use super::programs::operands;
use super::*;

// Each reason is a sentence key of `locales/*/app.ftl` (`refusal-command-…`): the policy words it
// for the person in their language and for the model in English.
/// Stops or restarts the computer (`shutdown`, `reboot`, `systemctl poweroff`).
pub const STOPS: &str = "refusal.command.stops";
/// Makes or wipes a file system (`mkfs`, `wipefs`), or `rm --no-preserve-root`.
pub const WIPES: &str = "refusal.command.wipes";
/// Writes onto a device (`dd of=/dev/sda`, `> /dev/sda`).
pub const DEVICE: &str = "refusal.command.device";
/// Deletes a whole folder outside the workspace (`rm -rf /x`, `rm -rf ~`, after `cd ..`).
pub const DELETES_OUTSIDE: &str = "refusal.command.deletes_outside";
/// Deletes a whole folder named by a variable (`rm -rf $X`).
pub const DELETES_UNKNOWN: &str = "refusal.command.deletes_unknown";
/// Changes the owner or permissions of everything, a system folder or the home folder.
pub const EVERYTHING_PERMISSIONS: &str = "refusal.command.everything_permissions";
/// Stops every program (`kill -9 -1`, `killall5`, `pkill -u`).
pub const KILLS_ALL: &str = "refusal.command.kills_all";
/// Nests commands deeper than [`crate::MAX_NESTING`] levels.
pub const TOO_DEEP: &str = "refusal.command.too_deep";
/// A fork bomb (`:(){ :|:& };:`).
pub const FORK_BOMB: &str = "refusal.command.fork_bomb";

/// Why `line` must never run (a sentence key: render it with `askfirst_core::i18n`), or `None` when it may be asked about (or allowed) as usual.
///
/// A second line of defence (commands also run confined by the kernel), judged on every one
/// of [`all_simple_commands`] and on the files its redirections write. Refused:
///
/// - stopping the computer: `shutdown`, `poweroff`, `reboot`, `halt`, `systemctl`/`loginctl
///   poweroff|reboot|halt|kexec`, `init 0|6`;
/// - making or wiping file systems: `mkfs*`, `mke2fs`, `mkswap`, `wipefs`, `blkdiscard`;
///   `dd of=/dev/…`, `shred`/`tee`/`cp`/`truncate /dev/…` or `> /dev/…` onto a device (`/dev/null`,
///   `/dev/stdout`, `/dev/tty`, … are fine);
/// - a recursive `rm` (`-r`, `-R`, `-fr`, `--recursive`, `--rec`, …) of any absolute path,
///   `~…`, anything with `$` (a variable) or `..`, or with `--no-preserve-root`; `find` from
///   such a place with `-delete` or `-exec rm`; any of these after `cd` out of the workspace
///   (`cd /; rm -rf usr`, `cd ..`, `cd` alone, `env -C /`); `rm -rf build`,
///   `rm -rf ./node_modules` and `rm -r sub/dir` are fine;
/// - `chmod -R`, `chown -R`, `chgrp -R` of `/`, `/*`, a top system folder or the home folder;
/// - stopping every process: `kill` with pid `-1` (`kill -9 -1`, `kill -- -1`), `killall5`,
///   `pkill`/`killall` of a whole user (`-u` without a name) or with a pattern that has no
///   letter or digit (`pkill .`);
/// - the fork bomb `:(){ :|:& };:`, and nesting deeper than [`MAX_NESTING`].
///
/// The messages are plain sentences for the person.
pub fn hard_denial(line: &str) -> Option<&'static str> {
    let squeezed: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    if squeezed.contains("(){") && squeezed.contains('|') && squeezed.contains('&') {
        return Some(FORK_BOMB);
    }
    let expansion = expand(line);
    if expansion.too_deep {
        return Some(TOO_DEEP);
    }
    if expansion.writes.iter().any(|(target, _)| is_device(target)) {
        return Some(DEVICE);
    }
    let left = expansion
        .commands
        .iter()
        .any(|words| leaves_workspace(words));
    expansion
        .commands
        .iter()
        .find_map(|words| judge(words, left))
}

/// Whether a command changes the working folder to somewhere outside the workspace for the
/// commands after it (`cd /`, `cd ..`, `cd` alone, `cd $X`, `pushd ~`), or runs its command
/// elsewhere (`env -C /`, `sudo -D /`).
pub(super) fn leaves_workspace(words: &[String]) -> bool {
    let Some((program, args)) = words.split_first() else {
        return false;
    };
    let elsewhere = |t: &String| leads_out(t) || t.contains('$') || t == "-";
    match base(program) {
        "cd" | "pushd" | "chdir" => {
            let targets = operands(args);
            targets.is_empty() || targets.into_iter().any(elsewhere)
        }
        "env" | "sudo" | "run0" => args.iter().any(|a| {
            matches!(a.as_str(), "-C" | "-D" | "--chdir")
                || a.starts_with("--chdir=")
                || (a.starts_with("-C") && a.len() > 2)
        }),
        _ => false,
    }
}

/// Judges one simple command; `left`: an earlier command may have left the workspace folder,
/// so even relative paths may lead out.
pub(super) fn judge(words: &[String], left: bool) -> Option<&'static str> {
    let (program, args) = words.split_first()?;
    let name = base(program);
    let any_arg = |f: &dyn Fn(&str) -> bool| args.iter().any(|a| f(a));
    match name {
        "shutdown" | "poweroff" | "reboot" | "halt" => Some(STOPS),
        "systemctl" | "loginctl"
            if any_arg(&|a| matches!(a, "poweroff" | "reboot" | "halt" | "kexec")) =>
        {
            Some(STOPS)
        }
        "init" | "telinit" if any_arg(&|a| a == "0" || a == "6") => Some(STOPS),
        "mke2fs" | "mkswap" | "wipefs" | "blkdiscard" => Some(WIPES),
        _ if name.starts_with("mkfs") => Some(WIPES),
        "dd" if any_arg(&|a| a.strip_prefix("of=").is_some_and(is_device)) => Some(DEVICE),
        "shred" | "tee" | "cp" | "install" | "truncate" if any_arg(&is_device) => Some(DEVICE),
        "rm" => rm_verdict(args, left),
        "find" => find_verdict(args, left),
        "chmod" | "chown" | "chgrp" => {
            let recursive = args.iter().any(|a| {
                a == "--recursive"
                    || (a.starts_with('-') && !a.starts_with("--") && a.contains('R'))
            });
            (recursive && any_arg(&is_everything_or_home)).then_some(EVERYTHING_PERMISSIONS)
        }
        "kill" => any_arg(&|a| a == "-1").then_some(KILLS_ALL),
        "killall5" => Some(KILLS_ALL),
        "pkill" | "killall" => mass_kill_verdict(name, args),
        _ => None,
    }
}

/// Whether writing to `target` writes onto a device (not `/dev/null`, a terminal or a stream).
pub(super) fn is_device(target: &str) -> bool {
    let Some(device) = target.strip_prefix("/dev/") else {
        return false;
    };
    let harmless = matches!(
        device,
        "null" | "zero" | "full" | "random" | "urandom" | "stdout" | "stderr" | "stdin" | "tty"
    ) || device.starts_with("fd/")
        || device.starts_with("pts/");
    !harmless
}

/// Whether an `rm` target leads out of the working folder (the workspace) or is unknown.
pub(super) fn leads_out(target: &str) -> bool {
    target.starts_with('/') || target.starts_with('~') || target.contains("..")
}

pub(super) fn rm_verdict(args: &[String], left: bool) -> Option<&'static str> {
    let mut recursive = false;
    let mut options_done = false;
    let mut targets = Vec::new();
    for arg in args {
        if !options_done && arg == "--" {
            options_done = true;
        } else if let Some(long) = arg.strip_prefix("--").filter(|_| !options_done) {
            // GNU getopt takes any unambiguous prefix: `--rec`, `--no-pres`.
            let name = long.split('=').next().unwrap_or(long);
            if !name.is_empty() && "no-preserve-root".starts_with(name) && name.starts_with('n') {
                return Some(WIPES);
            }
            recursive |= !name.is_empty() && "recursive".starts_with(name);
        } else if !options_done && arg.starts_with('-') && arg.len() > 1 {
            recursive |= arg.contains('r') || arg.contains('R');
        } else {
            targets.push(arg.as_str());
        }
    }
    if !recursive {
        return None;
    }
    if targets.iter().any(|t| leads_out(t)) || (left && !targets.is_empty()) {
        Some(DELETES_OUTSIDE)
    } else if targets.iter().any(|t| t.contains('$')) {
        Some(DELETES_UNKNOWN)
    } else {
        None
    }
}

pub(super) fn find_verdict(args: &[String], left: bool) -> Option<&'static str> {
    let starts: Vec<&String> = args
        .iter()
        .skip_while(|a| matches!(a.as_str(), "-H" | "-L" | "-P"))
        .take_while(|a| !a.starts_with('-') && *a != "(" && *a != "!")
        .collect();
    let deletes = args.iter().any(|a| a == "-delete")
        || find_exec_groups(args).iter().any(|group| {
            group
                .first()
                .is_some_and(|p| matches!(base(p), "rm" | "shred" | "unlink" | "rmdir"))
        });
    if !deletes {
        return None;
    }
    if left || starts.iter().any(|t| leads_out(t)) {
        Some(DELETES_OUTSIDE)
    } else if starts.iter().any(|t| t.contains('$')) {
        Some(DELETES_UNKNOWN)
    } else {
        None
    }
}

/// `/`, `/*`, `//`, a top system folder, or the home folder (`~`, `$HOME`, `/home/NAME`).
pub(super) fn is_everything_or_home(target: &str) -> bool {
    let t = target.trim_end_matches('/');
    let t = t.strip_suffix("/*").unwrap_or(t);
    if t.starts_with('~') || t.starts_with("$HOME") || t.starts_with("${HOME}") {
        return true;
    }
    if target.starts_with('/') && t.chars().all(|c| "/.*".contains(c)) {
        return true;
    }
    let top = [
        "/home", "/root", "/Users", "/usr", "/etc", "/bin", "/sbin", "/boot", "/var", "/lib",
        "/lib64", "/opt", "/dev", "/proc", "/sys",
    ];
    if top.contains(&t) {
        return true;
    }
    // One level below /home or /Users: somebody's whole home folder.
    ["/home/", "/Users/"]
        .iter()
        .any(|home| t.strip_prefix(home).is_some_and(|user| !user.contains('/')))
}

pub(super) fn mass_kill_verdict(name: &str, args: &[String]) -> Option<&'static str> {
    let valued: &[&str] = &[
        "-u",
        "-U",
        "-g",
        "-G",
        "-P",
        "-s",
        "-t",
        "-F",
        "-c",
        "-o",
        "-y",
        "-n",
        "--signal",
        "--euid",
        "--uid",
        "--user",
        "--group",
        "--pgroup",
        "--parent",
        "--session",
        "--terminal",
        "--pidfile",
        "--ns",
        "--nslist",
        "--older-than",
        "--younger-than",
    ];
    let whole_user = [
        "-u", "-U", "-g", "-G", "--uid", "--euid", "--user", "--group",
    ];
    let mut operands = Vec::new();
    let mut by_user = false;
    let mut regex = name == "pkill";
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if arg.starts_with('-') && arg.len() > 1 {
            let option = arg.split('=').next().unwrap_or(arg);
            by_user |=
                whole_user.contains(&option) || (option.starts_with("-u") && option.len() > 2);
            regex |= name == "killall" && (arg == "-r" || arg == "--regexp");
            i += if valued.contains(&arg.as_str()) { 2 } else { 1 };
        } else {
            operands.push(arg);
            i += 1;
        }
    }
    let matches_everything = regex
        && operands
            .iter()
            .any(|p| !p.chars().any(|c| c.is_alphanumeric()));
    ((by_user && operands.is_empty()) || matches_everything).then_some(KILLS_ALL)
}
