//! Tests of the card's sentences about commands: every one is said by some effect and filled.
#![allow(clippy::unwrap_used)]

use super::effect_words::{english, keys, wording};
use super::effects::*;
use pretty_assertions::assert_eq;
use std::collections::BTreeSet;

fn s(text: &str) -> String {
    text.to_owned()
}

fn target(name: &str, kind: PathKind) -> Target {
    Target {
        name: s(name),
        kind,
    }
}

/// Every sentence of the table is one some effect says, and none leaves a `{name}` unfilled.
#[test]
fn every_sentence_is_used_and_filled() {
    let t = |kind| vec![target("x", kind), target("y", PathKind::File)];
    let names = vec![s("x")];
    let hosts = vec![s("example.com")];
    let program = s("p");
    let all = vec![
        Effect::RunsDownloaded {
            hosts: hosts.clone(),
        },
        Effect::RunsDownloaded { hosts: vec![] },
        Effect::ShellFeatures,
        Effect::BuildsCommands { how: s("eval") },
        Effect::Unknown {
            programs: names.clone(),
        },
        Effect::LeavesFolder { to: s("/") },
        Effect::Deletes {
            targets: vec![target("x", PathKind::Folder)],
            recursive: true,
        },
        Effect::Deletes {
            targets: vec![target("x", PathKind::File)],
            recursive: false,
        },
        Effect::Deletes {
            targets: vec![target("x", PathKind::Missing)],
            recursive: false,
        },
        Effect::Deletes {
            targets: vec![target("x", PathKind::Pattern)],
            recursive: false,
        },
        Effect::Deletes {
            targets: t(PathKind::File),
            recursive: false,
        },
        Effect::Deletes {
            targets: t(PathKind::Folder),
            recursive: true,
        },
        Effect::Deletes {
            targets: vec![target("x", PathKind::Folder), target("y", PathKind::Folder)],
            recursive: true,
        },
        Effect::DeletesWhatItIsGiven,
        Effect::DeletesWhatItFinds,
        Effect::DeletesEmptyFolders {
            names: names.clone(),
        },
        Effect::Destroys {
            names: names.clone(),
        },
        Effect::Writes {
            name: s("x"),
            appends: false,
        },
        Effect::Writes {
            name: s("x"),
            appends: true,
        },
        Effect::WritesFiles {
            names: names.clone(),
        },
        Effect::Outside {
            name: s("/x"),
            writes: true,
            hidden: false,
        },
        Effect::Outside {
            name: s("/x"),
            writes: true,
            hidden: true,
        },
        Effect::Outside {
            name: s("/x"),
            writes: false,
            hidden: false,
        },
        Effect::Outside {
            name: s("/x"),
            writes: false,
            hidden: true,
        },
        Effect::Moves {
            names: names.clone(),
        },
        Effect::Copies {
            names: names.clone(),
        },
        Effect::Permissions {
            names: names.clone(),
        },
        Effect::Owner {
            names: names.clone(),
        },
        Effect::StopsPrograms {
            program: program.clone(),
        },
        Effect::Administrator {
            program: program.clone(),
        },
        Effect::Downloads {
            program: program.clone(),
            hosts: hosts.clone(),
        },
        Effect::Downloads {
            program: program.clone(),
            hosts: vec![],
        },
        Effect::Sends {
            program: program.clone(),
            hosts: hosts.clone(),
        },
        Effect::Sends {
            program: program.clone(),
            hosts: vec![],
        },
        Effect::ReplacesRemote,
        Effect::DiscardsChanges {
            command: s("git reset --hard"),
        },
        Effect::DeletesUntracked,
        Effect::Background { program: None },
        Effect::Background {
            program: Some(program.clone()),
        },
        Effect::KeepsRunning {
            program: program.clone(),
        },
        Effect::RunsScript { script: s("x.sh") },
        Effect::RunsItsInput { program: s("sh") },
        Effect::RunsCode {
            language: s("python3"),
        },
        Effect::RunsBuild { command: s("make") },
        Effect::RunsProgram { path: s("./x") },
        Effect::InstallsPackages {
            command: s("npm install"),
        },
        Effect::RunsPackage {
            command: s("npx x"),
        },
        Effect::RunsProjectScript {
            script: s("build"),
            command: s("npm run"),
        },
        Effect::InstallsSoftware {
            command: s("pip install"),
        },
        Effect::Containers {
            command: s("docker run"),
        },
        Effect::More { count: 3 },
    ];
    let mut used = BTreeSet::new();
    for effect in &all {
        for confined in [true, false] {
            let wording = wording(effect, confined);
            let text = english(&wording);
            assert!(
                !text.contains('{') && text != wording.key,
                "{effect:?}: {text}"
            );
            used.insert(wording.key);
        }
    }
    let table: BTreeSet<String> = keys().collect();
    assert_eq!(used, table);
}
