//! Every sentence a command card says about what a command does: each [`Effect`] worded once,
//! as a [`Wording`] (a key plus values, as `agent::wording` does for calls that did not run)
//! and in English ([`english`]). Change these words here and nowhere else.

use super::effects::{Effect, PathKind, Target};
use askfirst_protocol::{CommandEffect, Wording};
use std::collections::BTreeMap;

/// The English sentences, by key; `{name}` is replaced by the value `name`. One row per
/// sentence: a translation is this table in another language.
const ENGLISH: &[(&str, &str)] = &[
    (
        "command.runs_downloaded",
        "Runs a script it downloads from {hosts}: Ask First cannot see what that script will do.",
    ),
    (
        "command.runs_downloaded_anywhere",
        "Runs a script it downloads from the internet: Ask First cannot see what that script \
         will do.",
    ),
    (
        "command.shell_features",
        "Uses shell features (variables, substitutions, file name patterns or redirections), \
         so Ask First cannot tell everything it does before it runs.",
    ),
    (
        "command.builds_commands",
        "Makes up the commands it runs while it runs ({how}), so Ask First cannot tell what \
         they will do.",
    ),
    (
        "command.unknown.confined",
        "Ask First cannot tell what {programs} does. It runs shut in: it can change only \
         files in your folder and cannot see the rest of your home folder, but it can use the \
         internet.",
    ),
    (
        "command.unknown.unconfined",
        "Ask First cannot tell what {programs} does, and on this computer it is not shut in: \
         it could change any of your files and use the internet.",
    ),
    (
        "command.leaves_folder",
        "First goes to another folder ({to}), so the names after that may be outside your \
         folder.",
    ),
    (
        "command.deletes_folder",
        "Deletes the folder {name} permanently, with everything in it (it does not go to the \
         trash).",
    ),
    (
        "command.deletes_file",
        "Deletes the file {name} permanently (it does not go to the trash).",
    ),
    (
        "command.deletes_missing",
        "Deletes {name} permanently if it is there when the command runs (nothing has that \
         name now).",
    ),
    (
        "command.deletes_pattern",
        "Deletes permanently whatever {name} names when the command runs; Ask First cannot \
         tell which files those are.",
    ),
    (
        "command.deletes_files",
        "Deletes {count} files permanently (they do not go to the trash): {names}",
    ),
    (
        "command.deletes_folders",
        "Deletes {count} folders permanently, with everything in them (they do not go to the \
         trash): {names}",
    ),
    (
        "command.deletes_mixed",
        "Deletes {count} files and folders permanently (they do not go to the trash): {names}",
    ),
    (
        "command.deletes_given",
        "Deletes permanently the files it is given by the command before it; Ask First \
         cannot tell which.",
    ),
    (
        "command.deletes_found",
        "Deletes permanently every file it finds (they do not go to the trash).",
    ),
    (
        "command.deletes_empty_folders",
        "Deletes the empty folders {names}",
    ),
    (
        "command.destroys",
        "Destroys the contents of {names} beyond recovery",
    ),
    ("command.writes", "Replaces or creates the file {name}"),
    (
        "command.appends",
        "Adds to the end of (or creates) the file {name}",
    ),
    ("command.writes_files", "Changes the files {names}"),
    (
        "command.writes_outside.blocked",
        "Writes outside your folder ({name}). It runs shut in, so that part will fail.",
    ),
    (
        "command.writes_outside.thrown_away",
        "Writes outside your folder ({name}). It runs shut in and sees an empty stand-in \
         there, thrown away when it ends, so nothing there changes.",
    ),
    (
        "command.writes_outside.unconfined",
        "Writes outside your folder ({name}), and on this computer nothing stops it.",
    ),
    ("command.reads_outside", "Reads outside your folder: {name}"),
    (
        "command.reads_outside.hidden",
        "Looks outside your folder ({name}); that place is hidden from it, so it finds \
         nothing there.",
    ),
    ("command.moves", "Moves or renames files: {names}"),
    (
        "command.copies",
        "Copies files, replacing any with the same name where they go: {names}",
    ),
    ("command.permissions", "Changes permissions of {names}"),
    ("command.owner", "Changes who owns {names}"),
    (
        "command.stops_programs",
        "Stops running programs ({program})",
    ),
    (
        "command.administrator",
        "Runs with administrator rights ({program}): it could change anything on the computer.",
    ),
    ("command.downloads", "Downloads from {hosts} ({program})"),
    (
        "command.downloads_anywhere",
        "Downloads from the internet ({program})",
    ),
    ("command.sends", "Sends data to {hosts} ({program})"),
    (
        "command.sends_anywhere",
        "Sends data to the internet or another computer ({program})",
    ),
    (
        "command.replaces_remote",
        "Sends data to the internet and replaces what is there (git push --force)",
    ),
    (
        "command.discards_changes",
        "Throws away uncommitted changes for good ({command})",
    ),
    (
        "command.deletes_untracked",
        "Deletes files Git does not track, for good (git clean)",
    ),
    (
        "command.background.confined",
        "Runs part of itself in the background; everything it starts is stopped when the \
         command ends.",
    ),
    (
        "command.background.unconfined",
        "Runs part of itself in the background, which may keep running after the command \
         ends.",
    ),
    (
        "command.background_program.confined",
        "Starts a program in the background ({program}); everything it starts is stopped \
         when the command ends.",
    ),
    (
        "command.background_program.unconfined",
        "Starts a program in the background ({program}) that may keep running after the \
         command ends.",
    ),
    (
        "command.keeps_running",
        "Keeps running until you press Stop or its time limit passes ({program})",
    ),
    (
        "command.runs_script",
        "Runs the script {script}, whose steps Ask First cannot see.",
    ),
    (
        "command.runs_input",
        "Runs commands that {program} reads from its input (for example the output of the \
         command before it), which Ask First cannot see in advance.",
    ),
    (
        "command.runs_code",
        "Runs {language} code given on the command line, whose steps Ask First cannot see.",
    ),
    (
        "command.runs_build",
        "Runs the project's build steps ({command}), whose steps Ask First cannot see.",
    ),
    (
        "command.runs_program",
        "Runs the program {path} from your folder, whose steps Ask First cannot see.",
    ),
    (
        "command.installs_packages",
        "Downloads from the internet and installs packages ({command}), which may run their \
         own install scripts, whose steps Ask First cannot see.",
    ),
    (
        "command.runs_package",
        "Downloads and runs a package ({command}), whose steps Ask First cannot see.",
    ),
    (
        "command.runs_project_script",
        "Runs the project's script {script} ({command}), whose steps Ask First cannot see.",
    ),
    (
        "command.installs_software",
        "Downloads from the internet and installs software ({command})",
    ),
    (
        "command.containers",
        "Downloads from the internet and runs containers ({command})",
    ),
    ("command.more", "…and {count} more."),
];

/// `names` for a sentence: the first five, then how many more.
fn list(names: &[String]) -> String {
    let mut text = names
        .iter()
        .take(5)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > 5 {
        text.push_str(&format!(" and {} more", names.len() - 5));
    }
    text
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

/// The English text of `wording`: its sentence with each `{name}` replaced by its value, in
/// one pass (a value holding `{…}` is inserted as it is); an unknown key is returned as is, so
/// a gap shows instead of vanishing.
pub fn english(wording: &Wording) -> String {
    crate::agent::wording::english_in(ENGLISH, wording)
}

/// `effects` for the card: each worded, with its English text.
pub fn card_effects(effects: &[Effect], confined: bool) -> Vec<CommandEffect> {
    effects
        .iter()
        .map(|effect| {
            let wording = wording(effect, confined);
            CommandEffect {
                text: english(&wording),
                wording,
            }
        })
        .collect()
}

/// Every key of the English table, for tests that check each is used and worded.
pub fn keys() -> impl Iterator<Item = &'static str> {
    ENGLISH.iter().map(|(key, _)| *key)
}
