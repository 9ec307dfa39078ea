//! The effects of network programs, Git and package managers, for [`super::programs`].

use super::effects::Effect;

/// The hosts that `args` name: of addresses (`https://example.com/x`) and of `scp`/`git`
/// style places (`git@github.com:x/y`, `host:path`).
pub(super) fn hosts(args: &[String]) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for arg in args {
        let arg = arg.split_once('=').map_or(arg.as_str(), |(_, value)| value);
        let host = if arg.contains("://") {
            url::Url::parse(arg)
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned))
        } else {
            arg.split_once(':')
                .map(|(place, _)| place.rsplit('@').next().unwrap_or(place))
                .filter(|host| {
                    !host.is_empty()
                        && !arg.starts_with(['-', '/', '.'])
                        && (host.contains('.') || *host == "localhost")
                        && host
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || "-.".contains(c))
                })
                .map(str::to_owned)
        };
        if let Some(host) = host {
            if !found.contains(&host) {
                found.push(host);
            }
        }
    }
    found
}

/// Whether `curl` or `wget` uploads something (`curl -d`, `-F`, `-T`, `-X POST`, `wget
/// --post-data`).
pub(super) fn sends_data(name: &str, args: &[String]) -> bool {
    match name {
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
    }
}

pub(super) fn package_manager_effect(name: &str, args: &[String]) -> Option<Effect> {
    let first = args.iter().find(|a| !a.starts_with('-'))?.as_str();
    let command = format!("{name} {first}");
    Some(match first {
        "install" | "i" | "ci" | "add" | "update" | "upgrade" => {
            Effect::InstallsPackages { command }
        }
        "publish" => Effect::Sends {
            program: command,
            hosts: Vec::new(),
        },
        "exec" | "dlx" | "x" => Effect::RunsPackage { command },
        "run" | "run-script" => Effect::RunsProjectScript {
            script: args
                .iter()
                .skip_while(|a| a.as_str() != first)
                .nth(1)
                .cloned()
                .unwrap_or_default(),
            command: format!("{name} run"),
        },
        "start" | "dev" | "serve" => Effect::KeepsRunning { program: command },
        _ => Effect::RunsProjectScript {
            script: first.to_owned(),
            command: name.to_owned(),
        },
    })
}

/// `git`'s effects; returns whether the subcommand is one Ask First knows.
pub(super) fn git_effect(args: &[String], out: &mut Vec<Effect>) -> bool {
    // `git -c core.pager=… status` and `git --exec-path=…` run what the option says.
    if args
        .iter()
        .take_while(|a| a.starts_with('-'))
        .any(|a| a == "-c" || a.starts_with("--exec-path") || a.starts_with("--config-env"))
    {
        out.push(Effect::BuildsCommands {
            how: "git -c".to_owned(),
        });
        return true;
    }
    let Some(sub) = args.iter().find(|a| !a.starts_with('-')) else {
        return true;
    };
    let sub = sub.as_str();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    let command = format!("git {sub}");
    let effect = match sub {
        "clone" | "fetch" | "pull" => Effect::Downloads {
            program: command,
            hosts: hosts(args),
        },
        "push" if has("--force") || has("-f") || has("--force-with-lease") => {
            Effect::ReplacesRemote
        }
        "push" => Effect::Sends {
            program: command,
            hosts: hosts(args),
        },
        "reset" if has("--hard") => Effect::DiscardsChanges {
            command: "git reset --hard".to_owned(),
        },
        "clean" => Effect::DeletesUntracked,
        "checkout" | "restore" if args.iter().any(|a| a == "--" || a == ".") => {
            Effect::DiscardsChanges { command }
        }
        "status" | "log" | "diff" | "show" | "branch" | "tag" | "ls-files" | "rev-parse"
        | "blame" | "describe" | "shortlog" | "remote" | "add" | "init" | "grep" => return true,
        // `rm`, `mv`, `checkout`, `switch`, `stash` change the folder's files in ways not
        // worded here; `commit`, `merge`, `rebase`, … run the repository's hooks: unknown.
        _ => return false,
    };
    out.push(effect);
    true
}
