//! The commands Ask First never runs, however they are dressed up: a command line is cut into
//! the simple commands a POSIX shell would run (at `;`, `&`, `|`, newlines, parentheses,
//! braces, command substitution `$(…)` and backquotes, also inside double quotes; `sh -c`,
//! `bash -c` and `eval` strings are cut in turn), quotes are removed, and each simple command
//! is judged by its program after leading variable assignments and wrappers (`sudo`, `env`,
//! `nohup`, `timeout 5`, `xargs`, …).
//!
//! It errs on the side of refusing: anything that looks like a separator splits, so a quoted
//! `;` inside `$(…)` may split too. It is a backstop, not the gate: every command asks first
//! unless a rule allows it.
//!
//! Refused: stopping the computer (`shutdown`, `poweroff`, `reboot`, `halt`, `systemctl
//! poweroff|reboot|halt|kexec`, `init 0|6`), making or wiping file systems (`mkfs*`,
//! `mke2fs`, `mkswap`, `wipefs`), `dd` writing to a device (`of=/dev/…`), a recursive `rm` of
//! `/`, `/*`, a top system folder, anything in the home folder (`~…`, `$HOME…`) or with
//! `--no-preserve-root`, and the fork bomb `:(){ :|:& };:`.

/// Why `line` must never run, or `None` when it may be asked about as usual.
pub fn dangerous_command(line: &str) -> Option<&'static str> {
    dangerous_at_depth(line, 0)
}

/// How many `sh -c` / `eval` levels are looked into; deeper nesting is refused outright.
const MAX_NESTING: usize = 8;

fn dangerous_at_depth(line: &str, depth: usize) -> Option<&'static str> {
    if depth > MAX_NESTING {
        return Some("This command nests shells too deeply to be checked.");
    }
    let squeezed: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    if squeezed.contains("(){") && squeezed.contains('|') && squeezed.contains('&') {
        return Some("This command is a fork bomb: it would make the computer unusable.");
    }
    simple_commands(line)
        .iter()
        .find_map(|words| judge(words, depth))
}

/// The simple commands of `line`, each as its words with quotes removed.
fn simple_commands(line: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    let mut single = false;
    let mut double = false;
    // Open parentheses and substitutions: whether a double quote was open outside each (to
    // go back into it when it closes) and the character that closes it.
    let mut open: Vec<(bool, char)> = Vec::new();
    let end_word = |word: &mut String, in_word: &mut bool, words: &mut Vec<String>| {
        if *in_word {
            words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        if single {
            if c == '\'' {
                single = false;
            } else {
                word.push(c);
            }
            continue;
        }
        let closes_backquote = c == '`' && open.last().is_some_and(|(_, close)| *close == '`');
        let opens = (c == '`' && !closes_backquote) || (c == '$' && chars.peek() == Some(&'('));
        if opens {
            // Command substitution runs a command, even inside double quotes: what is inside
            // is a command of its own, read unquoted.
            if c == '$' {
                chars.next();
            }
            open.push((double, if c == '`' { '`' } else { ')' }));
            double = false;
            end_word(&mut word, &mut in_word, &mut words);
            commands.push(std::mem::take(&mut words));
            continue;
        }
        if closes_backquote || (c == ')' && !double) {
            if let Some((was_double, _)) = open.pop() {
                double = was_double;
            }
            end_word(&mut word, &mut in_word, &mut words);
            commands.push(std::mem::take(&mut words));
            if double {
                in_word = true;
            }
            continue;
        }
        if double {
            match c {
                '"' => double = false,
                '\\' => {
                    if let Some(next) = chars.next() {
                        word.push(next);
                    }
                }
                _ => word.push(c),
            }
            continue;
        }
        match c {
            '\'' => {
                single = true;
                in_word = true;
            }
            '"' => {
                double = true;
                in_word = true;
            }
            '\\' => {
                if let Some(next) = chars.next() {
                    if next != '\n' {
                        word.push(next);
                        in_word = true;
                    }
                }
            }
            '(' => {
                open.push((false, ')'));
                end_word(&mut word, &mut in_word, &mut words);
                commands.push(std::mem::take(&mut words));
            }
            ';' | '&' | '|' | '\n' | '{' | '}' => {
                end_word(&mut word, &mut in_word, &mut words);
                commands.push(std::mem::take(&mut words));
            }
            c if c.is_whitespace() => end_word(&mut word, &mut in_word, &mut words),
            _ => {
                word.push(c);
                in_word = true;
            }
        }
    }
    end_word(&mut word, &mut in_word, &mut words);
    commands.push(words);
    commands.retain(|words| !words.is_empty());
    commands
}

/// The program's name without its folder (`/sbin/reboot` → `reboot`).
fn base(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Skips variable assignments and wrappers that run the rest of the words as a command.
fn strip_wrappers(words: &[String]) -> &[String] {
    let mut rest = words;
    loop {
        let Some((first, tail)) = rest.split_first() else {
            return rest;
        };
        if is_assignment(first) {
            rest = tail;
            continue;
        }
        match base(first) {
            "sudo" | "doas" | "env" | "nohup" | "exec" | "command" | "builtin" | "time"
            | "nice" | "ionice" | "xargs" | "busybox" | "setsid" | "stdbuf" | "chrt"
            | "taskset" | "unbuffer" | "caffeinate" | "run0" | "pkexec" => {
                // Their own options (and option values that are plain numbers) come first.
                let mut skip = 0;
                while let Some(word) = tail.get(skip) {
                    let numeric = word.chars().all(|c| c.is_ascii_digit() || c == '.');
                    if word.starts_with('-') || is_assignment(word) || numeric {
                        skip += 1;
                    } else {
                        break;
                    }
                }
                rest = &tail[skip..];
            }
            "timeout" => {
                // timeout [options] DURATION COMMAND…
                let options = tail.iter().take_while(|w| w.starts_with('-')).count();
                rest = tail.get(options + 1..).unwrap_or(&[]);
            }
            _ => return rest,
        }
    }
}

fn judge(words: &[String], depth: usize) -> Option<&'static str> {
    const STOPS: &str = "This command would shut down or restart the computer.";
    const WIPES: &str = "This command could wipe a disk or the whole system.";
    let words = strip_wrappers(words);
    let (program, args) = words.split_first()?;
    let name = base(program);
    match name {
        "shutdown" | "poweroff" | "reboot" | "halt" => Some(STOPS),
        "systemctl" | "loginctl"
            if args
                .iter()
                .any(|a| matches!(a.as_str(), "poweroff" | "reboot" | "halt" | "kexec")) =>
        {
            Some(STOPS)
        }
        "init" | "telinit" if args.iter().any(|a| a == "0" || a == "6") => Some(STOPS),
        "mke2fs" | "mkswap" | "wipefs" => Some(WIPES),
        _ if name.starts_with("mkfs") => Some(WIPES),
        "dd" if args.iter().any(|a| a.starts_with("of=/dev/")) => Some(WIPES),
        "rm" if recursive_rm_of_everything(args) => Some(WIPES),
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "mksh" | "ash" | "fish" => {
            let script = args
                .iter()
                .position(|a| {
                    a == "-c" || (a.starts_with('-') && a.contains('c') && !a.starts_with("--"))
                })
                .and_then(|i| args.get(i + 1))?;
            dangerous_at_depth(script, depth + 1)
        }
        "eval" => dangerous_at_depth(&args.join(" "), depth + 1),
        _ => None,
    }
}

/// `rm` with a recursive flag of `/`, `/*`, the home folder, or with `--no-preserve-root`.
fn recursive_rm_of_everything(args: &[String]) -> bool {
    let mut recursive = false;
    let mut options_done = false;
    let mut targets = Vec::new();
    for arg in args {
        if !options_done && arg == "--" {
            options_done = true;
        } else if !options_done && arg.starts_with("--") {
            if arg == "--no-preserve-root" {
                return true;
            }
            recursive |= arg == "--recursive";
        } else if !options_done && arg.starts_with('-') && arg.len() > 1 {
            recursive |= arg.contains('r') || arg.contains('R');
        } else {
            targets.push(arg.as_str());
        }
    }
    recursive
        && targets.iter().any(|t| {
            let t = t.trim_end_matches('/');
            let home = t.starts_with('~') || t.starts_with("$HOME") || t.starts_with("${HOME}");
            let top = matches!(
                t,
                "" | "/home" | "/root" | "/usr" | "/etc" | "/bin" | "/boot" | "/var" | "/lib"
            );
            let all_of_root = t.starts_with('/') && t.chars().all(|c| "/.*".contains(c));
            home || top || all_of_root
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_stops_or_wipes_the_computer_however_it_is_written() {
        let refused = [
            "shutdown now",
            "ls; shutdown now",
            "ls && sudo shutdown -h now",
            "ls || reboot",
            "echo hi | poweroff",
            "(reboot)",
            "{ halt; }",
            "`reboot`",
            "echo $(halt)",
            "echo \"$(poweroff)\"",
            "echo \"`reboot`\"",
            "echo \"$(ls)\" ; reboot",
            "echo \"a $( (ls) ; poweroff ) b\"",
            "FOO=1 reboot",
            "sudo -n reboot",
            "env X=1 /sbin/shutdown -r now",
            "nohup reboot &",
            "timeout 5 reboot",
            "nice -n 10 reboot",
            "'shut''down' now",
            "re\\boot",
            "systemctl poweroff",
            "sudo systemctl reboot",
            "loginctl poweroff",
            "init 0",
            "mkfs.ext4 /dev/sda1",
            "mkfs -t ext4 /dev/sda1",
            "wipefs -a /dev/sda",
            "dd if=/dev/zero of=/dev/sda bs=1M",
            "rm -rf /",
            "rm -rf /*",
            "rm -fr ~",
            "rm -r -f $HOME",
            "rm -rf \"$HOME\"",
            "rm --recursive --force /",
            "rm -rf --no-preserve-root /",
            "cd /tmp; rm -rf /",
            "rm -rf //",
            "rm -rf ~/Documents",
            "rm -rf /usr",
            "sh -c 'shutdown now'",
            "bash -lc \"reboot\"",
            "sh -c \"sh -c 'poweroff'\"",
            "eval 'reboot'",
            "xargs reboot",
            ":(){ :|:& };:",
            "bomb(){ bomb|bomb& };bomb",
            "ls\nreboot",
        ];
        for line in refused {
            assert!(dangerous_command(line).is_some(), "should refuse: {line:?}");
        }
    }

    #[test]
    fn leaves_ordinary_commands_to_the_person() {
        let allowed = [
            "ls -la",
            "echo shutdown",
            "echo 'rm -rf /'",
            "grep reboot notes.txt",
            "rm -rf build",
            "rm -rf ./node_modules",
            "rm -f /tmp/x.txt",
            "dd if=a.img of=b.img",
            "cat /dev/null",
            "systemctl status nginx",
            "git commit -m 'reboot the plan'",
            "python3 -c 'print(1)'",
            "npm run build && npm test",
            "find . -name '*.txt' | xargs wc -l",
            "sh -c 'ls -la'",
        ];
        for line in allowed {
            assert_eq!(dangerous_command(line), None, "should allow: {line:?}");
        }
    }

    #[test]
    fn too_deep_nesting_is_refused_rather_than_unchecked() {
        let mut line = "ls".to_owned();
        for _ in 0..12 {
            line = format!("eval {}", shell_quote(&line));
        }
        assert!(dangerous_command(&line).is_some());
    }

    fn shell_quote(text: &str) -> String {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}
