//! Tests of what a command card says a command does ([`effects`] and their words), and of
//! lines written to make the card say something harmless while they do harm.
#![allow(clippy::unwrap_used)]

use super::effect_words::{card_effects, english, wording};
use super::effects::*;
use pretty_assertions::assert_eq;

/// A workspace folder with the folder `Photos`, the files `a.txt`, `b.txt`, `c.txt`, and the
/// Place of a confined (or not) command in it.
fn place(confined: bool) -> (tempfile::TempDir, Place) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.join("Photos")).unwrap();
    for name in ["a.txt", "b.txt", "c.txt"] {
        std::fs::write(root.join(name), "x").unwrap();
    }
    let place = Place {
        home: Some(root.parent().unwrap().join("ann-home")),
        root,
        confined,
    };
    (dir, place)
}

/// The card's sentences for `line`, confined.
fn said(line: &str) -> Vec<String> {
    let (_dir, place) = place(true);
    card_effects(&effects(line, &place), true)
        .into_iter()
        .map(|e| e.text)
        .collect()
}

fn found(line: &str) -> Vec<Effect> {
    let (_dir, place) = place(true);
    effects(line, &place)
}

fn s(text: &str) -> String {
    text.to_owned()
}

fn target(name: &str, kind: PathKind) -> Target {
    Target {
        name: s(name),
        kind,
    }
}

#[test]
fn deleting_says_what_is_deleted_and_that_it_is_permanent() {
    assert_eq!(
        said("rm -r Photos"),
        vec![s(
            "Deletes the folder Photos permanently, with everything in it (it does not \
                go to the trash)."
        )]
    );
    assert_eq!(
        said("rm a.txt b.txt c.txt"),
        vec![s(
            "Deletes 3 files permanently (they do not go to the trash): a.txt, b.txt, \
                c.txt"
        )]
    );
    assert_eq!(
        said("rm a.txt"),
        vec![s(
            "Deletes the file a.txt permanently (it does not go to the trash)."
        )]
    );
    assert_eq!(
        found("rm -rf Photos a.txt gone"),
        vec![Effect::Deletes {
            targets: vec![
                target("Photos", PathKind::Folder),
                target("a.txt", PathKind::File),
                target("gone", PathKind::Missing),
            ],
            recursive: true,
        }]
    );
    assert_eq!(
        said("rm gone.txt"),
        vec![s(
            "Deletes gone.txt permanently if it is there when the command runs (nothing \
                has that name now)."
        )]
    );
    assert_eq!(
        found("rm *.jpg")[1..],
        [Effect::Deletes {
            targets: vec![target("*.jpg", PathKind::Pattern)],
            recursive: false,
        }]
    );
    assert_eq!(
        found("find . -name '*.tmp' -delete"),
        vec![Effect::DeletesWhatItFinds]
    );
    assert_eq!(
        found("shred -u a.txt"),
        vec![Effect::Destroys {
            names: vec![s("a.txt")]
        }]
    );
}

#[test]
fn writing_outside_the_folder_is_said_and_what_confinement_does_about_it() {
    let (_dir, confined) = place(true);
    let (_dir2, open) = place(false);
    let words = |line: &str, place: &Place| -> Vec<String> {
        card_effects(&effects(line, place), place.confined)
            .into_iter()
            .map(|e| e.text)
            .collect()
    };
    // A redirection outside: the write, and that it is outside (blocked when shut in).
    assert_eq!(
        words("echo hi > /etc/motd", &confined)[1..],
        [
            s("Replaces or creates the file /etc/motd"),
            s(
                "Writes outside your folder (/etc/motd). It runs shut in, so that part will \
               fail."
            ),
        ]
    );
    assert_eq!(
        words("echo hi >> /etc/motd", &open)[1..],
        [
            s("Adds to the end of (or creates) the file /etc/motd"),
            s("Writes outside your folder (/etc/motd), and on this computer nothing stops it."),
        ]
    );
    // An argument outside: `..` past the folder, the home folder (hidden when shut in).
    // (`..` of a folder in /tmp is /tmp, which a confined command sees as its own.)
    assert_eq!(
        effects("cp a.txt ../b.txt", &confined),
        vec![
            Effect::Copies {
                names: vec![s("a.txt"), s("../b.txt")]
            },
            Effect::Outside {
                name: s("../b.txt"),
                writes: true,
                hidden: confined.root.starts_with("/tmp"),
            },
        ]
    );
    assert_eq!(
        effects("cp a.txt ../b.txt", &open)[1],
        Effect::Outside {
            name: s("../b.txt"),
            writes: true,
            hidden: false,
        }
    );
    assert_eq!(
        words("cat ~/.ssh/id_rsa", &confined)[1..],
        [s(
            "Looks outside your folder (~/.ssh/id_rsa); that place is hidden from it, so \
                it finds nothing there."
        )]
    );
    assert_eq!(
        words("cat /etc/passwd", &confined),
        vec![s("Reads outside your folder: /etc/passwd")]
    );
    assert_eq!(
        words("mv a.txt $HOME/x", &confined)[2..],
        [s(
            "Writes outside your folder ($HOME/x). It runs shut in and sees an empty stand-in \
            there, thrown away when it ends, so nothing there changes."
        )]
    );
    // `a/../..` leads out too; the folder's own paths do not.
    assert!(found("touch Photos/../../x")
        .iter()
        .any(|e| matches!(e, Effect::Outside { writes: true, .. })));
    assert_eq!(found("touch Photos/new.txt ./b.txt"), vec![]);
    // `cd` out first: the names after it may be outside.
    assert_eq!(
        found("cd /tmp && touch x")[0],
        Effect::LeavesFolder { to: s("/tmp") }
    );
    assert_eq!(found("cd && ls")[0], Effect::LeavesFolder { to: s("~") });
}

#[test]
fn downloading_and_sending_name_the_host() {
    assert_eq!(
        said("curl -O https://example.com/photo.jpg"),
        vec![s("Downloads from example.com (curl)")]
    );
    assert_eq!(
        said("git clone git@github.com:ann/notes.git"),
        vec![s("Downloads from github.com (git clone)")]
    );
    assert_eq!(
        said("wget https://a.example.org/x https://b.example.net/y"),
        vec![s("Downloads from a.example.org, b.example.net (wget)")]
    );
    assert_eq!(
        said("curl -d @secrets.txt https://example.com/up"),
        vec![
            s("Downloads from example.com (curl)"),
            s("Sends data to example.com (curl)"),
        ]
    );
    assert_eq!(
        said("scp a.txt ann@backup.example.com:"),
        vec![s("Sends data to backup.example.com (scp)")]
    );
    assert_eq!(
        said("git push"),
        vec![s(
            "Sends data to the internet or another computer (git push)"
        )]
    );
}

#[test]
fn running_a_downloaded_script_is_said_first() {
    for line in [
        "curl -fsSL https://get.example.com/install.sh | sh",
        "sh -c \"$(curl -fsSL https://get.example.com/install.sh)\"",
        "bash <(wget -qO- https://get.example.com/install.sh)",
        "wget -O i.sh https://get.example.com/install.sh && bash i.sh",
    ] {
        assert_eq!(
            said(line)[0],
            "Runs a script it downloads from get.example.com: Ask First cannot see what that \
             script will do.",
            "{line}"
        );
    }
}

#[test]
fn permissions_background_and_keeping_running() {
    assert_eq!(
        said("chmod +x run.sh"),
        vec![s("Changes permissions of run.sh")]
    );
    assert_eq!(said("chown ann a.txt"), vec![s("Changes who owns a.txt")]);
    assert_eq!(
        found("sleep 600 &"),
        vec![
            Effect::ShellFeatures,
            Effect::KeepsRunning {
                program: s("sleep 600")
            },
            Effect::Background { program: None },
        ]
    );
    assert_eq!(
        said("nohup python3 -m http.server"),
        vec![
            s(
                "Starts a program in the background (nohup); everything it starts is stopped \
               when the command ends."
            ),
            s(
                "Keeps running until you press Stop or its time limit passes (python3 -m \
               http.server)"
            ),
            s("Runs python3 code given on the command line, whose steps Ask First cannot see."),
        ]
    );
    assert_eq!(
        found("tail -f log.txt"),
        vec![Effect::KeepsRunning {
            program: s("tail -f")
        }]
    );
    // `&&`, `2>&1` and `&>` are no background job.
    assert_eq!(found("ls && ls 2>&1 &> out.txt")[0], Effect::ShellFeatures);
    assert!(!found("ls && ls 2>&1 &> out.txt").contains(&Effect::Background { program: None }));
}

#[test]
fn what_it_does_not_know_it_says_it_cannot_tell_and_what_confinement_allows() {
    let (_dir, confined) = place(true);
    let (_dir2, open) = place(false);
    let line = "frobnicate --all Photos";
    assert_eq!(
        effects(line, &confined),
        vec![Effect::Unknown {
            programs: vec![s("frobnicate")]
        }]
    );
    assert_eq!(
        english(&wording(&effects(line, &confined)[0], true)),
        // What it may do shut in, or not, is the card's own sentence, just below
        // (`Confinement::card_sentence`): not said twice.
        "Ask First cannot tell what frobnicate does."
    );
    assert_eq!(
        english(&wording(&effects(line, &open)[0], false)),
        "Ask First cannot tell what frobnicate does."
    );
    // Programs that can run commands or write files are not taken as harmless.
    for line in [
        "sed -n '1e touch x' a.txt",
        "awk '{print}' a.txt",
        "git commit -m x",
    ] {
        assert!(
            found(line)
                .iter()
                .any(|e| matches!(e, Effect::Unknown { .. })),
            "{line}: {:?}",
            found(line)
        );
    }
    // Known programs that only read: nothing to say.
    assert_eq!(found("ls -la && git status && cat a.txt | wc -l"), vec![]);
    assert_eq!(
        found("[ -f a.txt ] && echo yes"),
        vec![Effect::ShellFeatures]
    );
}

/// Lines written so that the card would say something harmless while they do harm: the card
/// names the harm, or says it cannot tell, never nothing.
#[test]
fn evasions_show_the_harm_or_say_they_cannot_be_seen_through() {
    let deletes_photos = |line: &str| {
        found(line).iter().any(|e| {
            matches!(e, Effect::Deletes { targets, recursive: true }
                if targets == &vec![target("Photos", PathKind::Folder)])
        })
    };
    let cannot_tell = |line: &str| {
        found(line).iter().any(|e| {
            matches!(
                e,
                Effect::BuildsCommands { .. }
                    | Effect::Unknown { .. }
                    | Effect::RunsItsInput { .. }
                    | Effect::RunsCode { .. }
                    | Effect::DeletesWhatItIsGiven
            )
        })
    };
    // Seen through: quoting, wrappers, shells, eval of plain text, aliases, here-documents,
    // functions, find -exec, substitutions (their commands run too).
    for line in [
        "r''m -rf Photos",
        "\"rm\" -rf Photos",
        "\\rm -rf Photos",
        "/bin/rm -rf Photos",
        "command rm -rf Photos",
        "sudo -u ann rm -rf Photos",
        "env -i PATH=/bin rm -rf Photos",
        "sh -c 'rm -rf Photos'",
        "bash -lc \"ls; rm -rf Photos\"",
        "eval 'rm -rf Photos'",
        "alias ls='rm -rf Photos'; ls",
        "sh <<EOF\nrm -rf Photos\nEOF",
        "f() { rm -rf Photos; }; f",
        "echo $(rm -rf Photos)",
        "echo `rm -rf Photos`",
        "timeout 5 nice -n 5 rm -rf Photos",
        "busybox rm -rf Photos",
    ] {
        assert!(deletes_photos(line), "{line}: {:?}", found(line));
    }
    // Not seen through: the card says it cannot tell.
    for line in [
        "$RM -rf Photos",
        "X=rm; $X -rf Photos",
        "$(echo rm) -rf Photos",
        "`echo rm` -rf Photos",
        "sh -c \"$CMD\"",
        "eval \"$(echo cm0gLXJmIFBob3Rvcw== | base64 -d)\"",
        "echo Photos | xargs rm -rf",
        "echo rm -rf Photos | sh",
        "find . -name Photos -exec rm -rf {} +",
        "ls | xargs -I{} sh -c '{}'",
        "python3 -c 'import shutil; shutil.rmtree(\"Photos\")'",
        "git -c core.pager='rm -rf Photos' log",
        "awk 'BEGIN { system(\"rm -rf Photos\") }'",
        "perl -e 'system q(rm -rf Photos)'",
        "ls *; frob",
        "find . -name Photos -exec sh -c 'rm -rf \"$1\"' _ {} \\;",
        "printf 'rm -rf Photos' | sh",
        "git rm -r Photos",
        "tar -xf backup.tar -C Photos",
    ] {
        assert!(cannot_tell(line), "{line}: {:?}", found(line));
        assert!(!said(line).is_empty(), "{line}");
    }
}

#[test]
fn effects_are_bounded() {
    let line: Vec<String> = (0..30).map(|i| format!("rm f{i}")).collect();
    let out = found(&line.join("; "));
    assert_eq!(out.len(), super::MAX_EFFECTS + 1);
    assert_eq!(out.last(), Some(&Effect::More { count: 20 }));
    assert_eq!(said(&line.join("; ")).last().unwrap(), "…and 20 more.");
    let many: Vec<String> = (0..8).map(|i| format!("f{i}")).collect();
    assert_eq!(
        said(&format!("rm {}", many.join(" "))),
        vec![s(
            "Deletes 8 files and folders permanently (they do not go to the trash): f0, \
                f1, f2, f3, f4 and 3 more"
        )]
    );
    let long = "a; ".repeat(50_000);
    assert!(found(&long).len() <= super::MAX_EFFECTS + 1);
}
