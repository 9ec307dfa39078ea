//! Every sentence a command card says about what a command does: each [`Effect`] worded once,
//! as a [`Wording`] (a key plus values, as `agent::wording` does for calls that did not run)
//! and in the person's language (the sentences are in `locales/*/app.ftl`, keys `command-…`).
//! Change which sentence an effect gets here, and its words in the catalogues.

use super::effects::{Effect, PathKind, Target};
use askfirst_protocol::{CommandEffect, Wording};
use std::collections::BTreeMap;

/// `names` for a sentence, as a list of the person's language: the first five, then how many
/// more.
fn list(names: &[String]) -> String {
    if names.len() <= 5 {
        return crate::i18n::join_list(names);
    }
    crate::i18n::tr(
        "list-and_more",
        &[
            (
                "names",
                crate::i18n::Arg::from(crate::i18n::join_separated(&names[..5])),
            ),
            ("count", crate::i18n::Arg::from(names.len() - 5)),
        ],
    )
}

fn deletes(targets: &[Target], recursive: bool) -> (&'static str, Vec<(&'static str, String)>) {
    let folder = |t: &Target| t.kind == PathKind::Folder && recursive;
    if let [one] = targets {
        let key = match one.kind {
            PathKind::Pattern => "command.deletes_pattern",
            PathKind::Missing => "command.deletes_missing",
            PathKind::Folder if recursive => "command.deletes_folder",
            PathKind::Folder | PathKind::File => "command.deletes_file",
        };
        return (key, vec![("name", one.name.clone())]);
    }
    let names: Vec<String> = targets.iter().map(|t| t.name.clone()).collect();
    let key = if targets.iter().all(folder) {
        "command.deletes_folders"
    } else if targets.iter().all(|t| t.kind == PathKind::File) {
        "command.deletes_files"
    } else {
        "command.deletes_mixed"
    };
    (
        key,
        vec![
            ("count", targets.len().to_string()),
            ("names", list(&names)),
        ],
    )
}

/// The sentence for `effect` as a key and values; `confined` is whether commands run shut in
/// on this computer (some sentences differ).
pub fn wording(effect: &Effect, confined: bool) -> Wording {
    let by = |yes: &'static str, no: &'static str| if confined { yes } else { no };
    let hosts = |hosts: &[String], named: &'static str, anywhere: &'static str| {
        if hosts.is_empty() {
            (anywhere, vec![])
        } else {
            (named, vec![("hosts", list(hosts))])
        }
    };
    let (key, args): (&str, Vec<(&str, String)>) = match effect {
        Effect::RunsDownloaded { hosts: h } => hosts(
            h,
            "command.runs_downloaded",
            "command.runs_downloaded_anywhere",
        ),
        Effect::ShellFeatures => ("command.shell_features", vec![]),
        Effect::BuildsCommands { how } => ("command.builds_commands", vec![("how", how.clone())]),
        Effect::Unknown { programs } => (
            by("command.unknown.confined", "command.unknown.unconfined"),
            vec![("programs", list(programs))],
        ),
        Effect::LeavesFolder { to } => ("command.leaves_folder", vec![("to", to.clone())]),
        Effect::Deletes { targets, recursive } => deletes(targets, *recursive),
        Effect::DeletesWhatItIsGiven => ("command.deletes_given", vec![]),
        Effect::DeletesWhatItFinds => ("command.deletes_found", vec![]),
        Effect::DeletesEmptyFolders { names } => (
            "command.deletes_empty_folders",
            vec![("names", list(names))],
        ),
        Effect::Destroys { names } => ("command.destroys", vec![("names", list(names))]),
        Effect::Writes { name, appends } => (
            if *appends {
                "command.appends"
            } else {
                "command.writes"
            },
            vec![("name", name.clone())],
        ),
        Effect::WritesFiles { names } => ("command.writes_files", vec![("names", list(names))]),
        Effect::Outside {
            name,
            writes,
            hidden,
        } => (
            match (writes, confined, hidden) {
                (true, false, _) => "command.writes_outside.unconfined",
                (true, true, true) => "command.writes_outside.thrown_away",
                (true, true, false) => "command.writes_outside.blocked",
                (false, true, true) => "command.reads_outside.hidden",
                (false, _, _) => "command.reads_outside",
            },
            vec![("name", name.clone())],
        ),
        Effect::Moves { names } => ("command.moves", vec![("names", list(names))]),
        Effect::Copies { names } => ("command.copies", vec![("names", list(names))]),
        Effect::Permissions { names } => ("command.permissions", vec![("names", list(names))]),
        Effect::Owner { names } => ("command.owner", vec![("names", list(names))]),
        Effect::StopsPrograms { program } => {
            ("command.stops_programs", vec![("program", program.clone())])
        }
        Effect::Administrator { program } => {
            ("command.administrator", vec![("program", program.clone())])
        }
        Effect::Downloads { program, hosts: h } => {
            let (key, mut args) = hosts(h, "command.downloads", "command.downloads_anywhere");
            args.push(("program", program.clone()));
            (key, args)
        }
        Effect::Sends { program, hosts: h } => {
            let (key, mut args) = hosts(h, "command.sends", "command.sends_anywhere");
            args.push(("program", program.clone()));
            (key, args)
        }
        Effect::ReplacesRemote => ("command.replaces_remote", vec![]),
        Effect::DiscardsChanges { command } => (
            "command.discards_changes",
            vec![("command", command.clone())],
        ),
        Effect::DeletesUntracked => ("command.deletes_untracked", vec![]),
        Effect::Background { program: None } => (
            by(
                "command.background.confined",
                "command.background.unconfined",
            ),
            vec![],
        ),
        Effect::Background {
            program: Some(program),
        } => (
            by(
                "command.background_program.confined",
                "command.background_program.unconfined",
            ),
            vec![("program", program.clone())],
        ),
        Effect::KeepsRunning { program } => {
            ("command.keeps_running", vec![("program", program.clone())])
        }
        Effect::RunsScript { script } => ("command.runs_script", vec![("script", script.clone())]),
        Effect::RunsItsInput { program } => {
            ("command.runs_input", vec![("program", program.clone())])
        }
        Effect::RunsCode { language } => {
            ("command.runs_code", vec![("language", language.clone())])
        }
        Effect::RunsBuild { command } => ("command.runs_build", vec![("command", command.clone())]),
        Effect::RunsProgram { path } => ("command.runs_program", vec![("path", path.clone())]),
        Effect::InstallsPackages { command } => (
            "command.installs_packages",
            vec![("command", command.clone())],
        ),
        Effect::RunsPackage { command } => {
            ("command.runs_package", vec![("command", command.clone())])
        }
        Effect::RunsProjectScript { script, command } => (
            "command.runs_project_script",
            vec![("script", script.clone()), ("command", command.clone())],
        ),
        Effect::InstallsSoftware { command } => (
            "command.installs_software",
            vec![("command", command.clone())],
        ),
        Effect::Containers { command } => {
            ("command.containers", vec![("command", command.clone())])
        }
        Effect::More { count } => ("command.more", vec![("count", count.to_string())]),
    };
    Wording {
        key: key.to_owned(),
        args: args
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect::<BTreeMap<_, _>>(),
    }
}

/// The English text of `wording` (its key's sentence in `locales/en/app.ftl`); an unknown
/// key is returned as is, so a gap shows instead of vanishing.
pub fn english(wording: &Wording) -> String {
    crate::agent::wording::english(wording)
}

/// `effects` for the card: each worded, with its text in the current language.
pub fn card_effects(effects: &[Effect], confined: bool) -> Vec<CommandEffect> {
    effects
        .iter()
        .map(|effect| {
            let wording = wording(effect, confined);
            CommandEffect {
                text: crate::agent::wording::text(&wording),
                wording,
            }
        })
        .collect()
}

/// Every key of the command sentences (the catalogue's `command-…` keys, in `Wording`'s
/// dotted form), for tests that check each is used and worded.
pub fn keys() -> impl Iterator<Item = String> {
    crate::i18n::keys(crate::i18n::Language::En)
        .into_iter()
        .filter(|key| key.starts_with("command-"))
        .map(|key| key.replace('-', "."))
}
