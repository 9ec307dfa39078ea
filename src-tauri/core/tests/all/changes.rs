//! A command's changes on a real overlay (made with `unshare -Urm`, as `run_command` makes
//! it): read exactly, shown on the card, applied all or nothing, undone as a whole.
//!
//! Where this computer cannot make the overlay, each test says "skipped: …" and passes,
//! unless `ASKFIRST_REQUIRE_SANDBOX_TESTS=1`.

use askfirst_core::audit::AuditSink as _;
use askfirst_core::changes::{self, ApplyError, ChangeSet, EntryKind, ReadError, SpecialKind};
use askfirst_core::undo::{Activity, UndoError, UndoStore};
use askfirst_protocol::{ActivityState, ChangeKind, SessionId, UndoResponse};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A folder, the overlay's upper directory after a command ran on it, and a data folder.
struct Tried {
    _dir: tempfile::TempDir,
    real: PathBuf,
    upper: PathBuf,
    data: PathBuf,
}

impl Drop for Tried {
    /// Opens every folder again (a test may leave one without permissions), so that the
    /// temporary folder can be removed by a user who is not root.
    fn drop(&mut self) {
        let _ = Command::new("chmod")
            .args(["-R", "u+rwx"])
            .arg(self._dir.path())
            .status();
    }
}

impl Tried {
    fn store(&self) -> UndoStore {
        UndoStore::new(&self.data, 1_000_000_000)
    }

    fn read(&self) -> ChangeSet {
        changes::read(&self.real, &self.upper, 10_000).unwrap()
    }
}

fn sh(dir: &Path, script: &str) {
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("umask 022; {script}"))
        .current_dir(dir)
        .status()
        .unwrap();
    assert!(status.success(), "{script}");
}

/// Makes a folder with `setup`, runs `command` in it on an overlay; `None` (and "skipped")
/// where user namespaces are not available.
fn tried(setup: &str, command: &str) -> Option<Tried> {
    let dir = tempfile::tempdir().unwrap();
    let (real, upper, work, data) = (
        dir.path().join("real"),
        dir.path().join("upper"),
        dir.path().join("work"),
        dir.path().join("data"),
    );
    for d in [&real, &upper, &work, &data] {
        std::fs::create_dir(d).unwrap();
    }
    sh(&real, setup);
    let output = Command::new("unshare")
        .args(["-Urm", "sh", "-c"])
        .arg(
            "mount -t overlay overlay -o \"userxattr,lowerdir=$L,upperdir=$U,workdir=$W\" \"$L\" \
             && cd \"$L\" && umask 022 && sh -c \"$CMD\"",
        )
        .env("L", &real)
        .env("U", &upper)
        .env("W", &work)
        .env("CMD", command)
        .output();
    match output {
        Ok(out) if out.status.success() => {}
        other => {
            let why = format!("the overlay could not be made: {other:?}");
            if std::env::var("ASKFIRST_REQUIRE_SANDBOX_TESTS").as_deref() == Ok("1") {
                panic!("{why}");
            }
            eprintln!("skipped: {why}");
            return None;
        }
    }
    Some(Tried {
        _dir: dir,
        real,
        upper,
        data,
    })
}

/// What the folder holds: per path, the kind, permission bits and bytes or target.
fn snapshot(root: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for child in std::fs::read_dir(&dir).unwrap() {
            let path = child.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            let mode = meta.mode() & 0o7777;
            let what = if meta.file_type().is_symlink() {
                format!("link {}", std::fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                todo.push(path.clone());
                format!("folder {mode:o}")
            } else if meta.is_file() {
                format!(
                    "file {mode:o} {:?}",
                    String::from_utf8_lossy(&std::fs::read(&path).unwrap())
                )
            } else {
                "special".to_owned()
            };
            out.insert(rel, what);
        }
    }
    out
}

/// What running `setup` then `command` in a plain folder leaves (the expected result of an
/// apply, where the overlay and a plain folder agree).
fn plainly(setup: &str, command: &str) -> BTreeMap<String, String> {
    let dir = tempfile::tempdir().unwrap();
    sh(dir.path(), setup);
    sh(dir.path(), command);
    snapshot(dir.path())
}

fn kinds(set: &ChangeSet) -> Vec<(String, EntryKind)> {
    set.entries
        .iter()
        .map(|e| (e.path.display().to_string(), e.kind.clone()))
        .collect()
}

fn p(s: &str) -> String {
    s.to_owned()
}

/// Every overlay mark left on an item of the folder.
fn overlay_marks(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for child in std::fs::read_dir(&dir).unwrap() {
            let path = child.unwrap().path();
            if std::fs::symlink_metadata(&path).unwrap().is_dir() {
                todo.push(path.clone());
            }
            for name in xattr::list(&path).unwrap() {
                if name.to_string_lossy().starts_with("user.overlay.") {
                    found.push(format!("{} {}", path.display(), name.to_string_lossy()));
                }
            }
        }
    }
    found
}

const SETUP: &str = "echo one > changed.txt; echo same > touched.txt; echo run > tool.sh; \
                     echo bye > gone.txt; mkdir -p old/sub; echo x > old/sub/f; echo y > old/g";
const COMMAND: &str = "echo two >> changed.txt; touch touched.txt; echo same > touched.txt; \
                       chmod +x tool.sh; rm gone.txt; rm -rf old; echo new > new.txt";

#[test]
fn created_changed_touched_chmod_and_deleted_are_read_shown_and_applied() {
    let Some(t) = tried(SETUP, COMMAND) else {
        return;
    };
    let set = t.read();
    assert_eq!(
        kinds(&set),
        vec![
            (
                p("changed.txt"),
                EntryKind::ChangedFile {
                    size: 8,
                    mode: 0o644
                }
            ),
            (p("gone.txt"), EntryKind::Deleted { folder: false }),
            (
                p("new.txt"),
                EntryKind::CreatedFile {
                    size: 4,
                    mode: 0o644
                }
            ),
            (p("old"), EntryKind::Deleted { folder: true }),
            (p("tool.sh"), EntryKind::ModeOnly { mode: 0o755 }),
        ]
    );
    assert_eq!(set.upper_bytes(), 12);
    let card: Vec<_> = set
        .for_card(&t.real)
        .into_iter()
        .map(|c| (c.change, c.path, c.folder, c.size, c.mode, c.diff))
        .collect();
    assert_eq!(
        card,
        vec![
            (
                ChangeKind::Changed,
                p("changed.txt"),
                false,
                Some(8),
                None,
                Some(p(
                    "--- a/changed.txt\n+++ b/changed.txt\n@@ -1 +1,2 @@\n one\n+two\n"
                ))
            ),
            (ChangeKind::Deleted, p("gone.txt"), false, None, None, None),
            (
                ChangeKind::Created,
                p("new.txt"),
                false,
                Some(4),
                None,
                Some(p("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n"))
            ),
            (ChangeKind::Deleted, p("old"), true, None, None, None),
            (
                ChangeKind::Mode,
                p("tool.sh"),
                false,
                None,
                Some(0o755),
                None
            ),
        ]
    );
    let applied = changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    assert!(applied.skipped.is_empty());
    assert_eq!(snapshot(&t.real), plainly(SETUP, COMMAND));
    assert_eq!(overlay_marks(&t.real), Vec::<String>::new());
}

#[test]
fn a_renamed_file_and_folder_are_a_deletion_and_a_creation() {
    let setup = "echo a > f; mkdir d; echo b > d/x";
    let command = "mv f g; mv d e";
    let Some(t) = tried(setup, command) else {
        return;
    };
    let set = t.read();
    assert_eq!(
        kinds(&set),
        vec![
            (p("d"), EntryKind::Deleted { folder: true }),
            (p("e"), EntryKind::CreatedFolder { mode: 0o755 }),
            (
                p("e/x"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o644
                }
            ),
            (p("f"), EntryKind::Deleted { folder: false }),
            (
                p("g"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o644
                }
            ),
        ]
    );
    changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    assert_eq!(snapshot(&t.real), plainly(setup, command));
}

#[test]
fn an_emptied_and_remade_folder_loses_everything_it_held() {
    let setup = "mkdir d; echo 1 > d/a; mkdir d/s; echo 2 > d/s/b";
    let command = "rm -rf d; mkdir d; echo 3 > d/c";
    let Some(t) = tried(setup, command) else {
        return;
    };
    assert_eq!(
        xattr::get(t.upper.join("d"), "user.overlay.opaque").unwrap(),
        Some(b"y".to_vec())
    );
    let set = t.read();
    assert_eq!(
        kinds(&set),
        vec![
            (p("d/a"), EntryKind::Deleted { folder: false }),
            (
                p("d/c"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o644
                }
            ),
            (p("d/s"), EntryKind::Deleted { folder: true }),
        ]
    );
    changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    assert_eq!(snapshot(&t.real), plainly(setup, command));
    assert_eq!(overlay_marks(&t.real), Vec::<String>::new());
}

#[test]
fn a_file_replaced_by_a_folder_and_a_folder_by_a_file() {
    let setup = "echo f > was_file; mkdir was_folder; echo in > was_folder/in";
    let command = "rm was_file; mkdir was_file; echo n > was_file/n; rm -rf was_folder; \
                   echo now > was_folder";
    let Some(t) = tried(setup, command) else {
        return;
    };
    let set = t.read();
    assert_eq!(
        kinds(&set),
        vec![
            (p("was_file"), EntryKind::Deleted { folder: false }),
            (p("was_file"), EntryKind::CreatedFolder { mode: 0o755 }),
            (
                p("was_file/n"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o644
                }
            ),
            (p("was_folder"), EntryKind::Deleted { folder: true }),
            (
                p("was_folder"),
                EntryKind::CreatedFile {
                    size: 4,
                    mode: 0o644
                }
            ),
        ]
    );
    let store = t.store();
    let applied = changes::apply(&set, &t.real, &t.upper, Some(&store)).unwrap();
    assert_eq!(snapshot(&t.real), plainly(setup, command));
    // And back.
    let activity = logged(&t, &applied.undo);
    assert_eq!(undo(&activity), Ok(()));
    let before = tempfile::tempdir().unwrap();
    sh(before.path(), setup);
    assert_eq!(snapshot(&t.real), snapshot(before.path()));
}

#[test]
fn hard_links_broken_and_made_inside() {
    let setup = "echo a > a; ln a b";
    let command = "echo more >> a; ln b c; echo n > n1; ln n1 n2";
    let Some(t) = tried(setup, command) else {
        return;
    };
    let set = t.read();
    assert_eq!(
        kinds(&set),
        vec![
            (
                p("a"),
                EntryKind::ChangedFile {
                    size: 7,
                    mode: 0o644
                }
            ),
            (
                p("c"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o644
                }
            ),
            (
                p("n1"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o644
                }
            ),
            (
                p("n2"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o644
                }
            ),
        ]
    );
    changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    // As the copy saw it: the link between a and b was broken by the change to a.
    let read = |n: &str| std::fs::read_to_string(t.real.join(n)).unwrap();
    assert_eq!(
        [read("a"), read("b"), read("c"), read("n1"), read("n2")],
        ["a\nmore\n", "a\n", "a\n", "n\n", "n\n"].map(str::to_owned)
    );
    assert_eq!(overlay_marks(&t.real), Vec::<String>::new());
}

#[test]
fn links_are_made_as_links_and_one_leading_out_is_said() {
    let setup = "echo t > target.txt; ln -s target.txt moved";
    let command = "ln -s target.txt in; ln -s ../../etc/passwd out; ln -s /etc/passwd abs; \
                   rm moved; ln -s in moved";
    let Some(t) = tried(setup, command) else {
        return;
    };
    let set = t.read();
    let card: Vec<_> = set
        .for_card(&t.real)
        .into_iter()
        .map(|c| (c.change, c.path, c.target, c.outside))
        .collect();
    let link = |path: &str, target: &str, outside: bool| {
        (ChangeKind::Link, p(path), Some(p(target)), outside)
    };
    assert_eq!(
        card,
        vec![
            link("abs", "/etc/passwd", true),
            link("in", "target.txt", false),
            link("moved", "in", false),
            link("out", "../../etc/passwd", true),
        ]
    );
    changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    assert_eq!(snapshot(&t.real), plainly(setup, command));
}

#[test]
fn a_named_pipe_is_never_applied() {
    let Some(t) = tried("", "mkfifo pipe; echo x > f") else {
        return;
    };
    let set = t.read();
    assert_eq!(
        kinds(&set),
        vec![
            (
                p("f"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o644
                }
            ),
            (
                p("pipe"),
                EntryKind::Special {
                    what: SpecialKind::Fifo
                }
            ),
        ]
    );
    assert_eq!(set.for_card(&t.real).len(), 1);
    let applied = changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    assert_eq!(applied.skipped, vec![PathBuf::from("pipe")]);
    assert!(std::fs::symlink_metadata(t.real.join("pipe")).is_err());
    assert!(t.real.join("f").is_file());
}

#[test]
fn names_with_a_line_break_or_a_bidi_character_stay_exact() {
    let command = "printf x > \"$(printf 'new\\nline')\"; printf y > \"$(printf 'bidi\\342\\200\\256txt.exe')\"";
    let Some(t) = tried("", command) else {
        return;
    };
    let set = t.read();
    let paths: Vec<String> = set.for_card(&t.real).into_iter().map(|c| c.path).collect();
    assert_eq!(paths, vec![p("bidi\u{202e}txt.exe"), p("new\nline")]);
    changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    assert_eq!(snapshot(&t.real), plainly("", command));
}

#[test]
fn an_empty_folder_and_permission_bits_are_applied_as_made() {
    let command = "mkdir -m 750 empty; echo s > s.sh; chmod 751 s.sh; echo r > ro; chmod 400 ro; \
                   mkdir -m 500 locked; chmod 700 locked; echo in > locked/in; chmod 500 locked";
    let Some(t) = tried("", command) else {
        return;
    };
    let set = t.read();
    assert_eq!(
        kinds(&set),
        vec![
            (p("empty"), EntryKind::CreatedFolder { mode: 0o750 }),
            (p("locked"), EntryKind::CreatedFolder { mode: 0o500 }),
            (
                p("locked/in"),
                EntryKind::CreatedFile {
                    size: 3,
                    mode: 0o644
                }
            ),
            (
                p("ro"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o400
                }
            ),
            (
                p("s.sh"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o751
                }
            ),
        ]
    );
    changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    assert_eq!(snapshot(&t.real), plainly("", command));
}

/// The permission bits of `path` (not followed).
fn mode_of(path: &Path) -> u32 {
    std::fs::symlink_metadata(path).unwrap().mode() & 0o7777
}

/// A command may leave a folder of the copy without any permission: its changes are read (the
/// mode it gave included) and applied all the same, and the upper directory is left as it
/// was. Root ignores permissions: these tests prove something as a user who is not root
/// (`make test-unprivileged`).
#[test]
fn a_new_folder_left_unreadable_is_read_and_applied() {
    let setup = "mkdir Work";
    let command = "mkdir Work/2024; echo a > Work/2024/a.txt; echo b > Work/2024/b.txt; \
                   chmod 000 Work/2024/b.txt; chmod 000 Work/2024";
    let Some(t) = tried(setup, command) else {
        return;
    };
    let set = t.read();
    assert_eq!(
        kinds(&set),
        vec![
            (p("Work/2024"), EntryKind::CreatedFolder { mode: 0 }),
            (
                p("Work/2024/a.txt"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o644
                }
            ),
            (
                p("Work/2024/b.txt"),
                EntryKind::CreatedFile { size: 2, mode: 0 }
            ),
        ]
    );
    // Read again, the same: the upper folder was left as the command left it.
    assert_eq!(mode_of(&t.upper.join("Work/2024")), 0);
    assert_eq!(t.read(), set);
    let card: Vec<_> = set
        .for_card(&t.real)
        .into_iter()
        .map(|c| (c.path, c.folder, c.diff.is_some()))
        .collect();
    assert_eq!(
        card,
        vec![
            (p("Work/2024"), true, false),
            (p("Work/2024/a.txt"), false, true),
            (p("Work/2024/b.txt"), false, true),
        ]
    );
    assert_eq!(mode_of(&t.upper.join("Work/2024")), 0);
    let applied = changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    assert!(applied.skipped.is_empty());
    assert_eq!(mode_of(&t.real.join("Work/2024")), 0);
    assert_eq!(mode_of(&t.upper.join("Work/2024")), 0);
    // What is inside, seen with the folder opened for a moment.
    std::fs::set_permissions(
        t.real.join("Work/2024"),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    assert_eq!(mode_of(&t.real.join("Work/2024/b.txt")), 0);
    assert_eq!(mode_of(&t.real.join("Work/2024/a.txt")), 0o644);
    assert_eq!(
        std::fs::read_to_string(t.real.join("Work/2024/a.txt")).unwrap(),
        "a\n"
    );
    assert_eq!(overlay_marks(&t.real), Vec::<String>::new());
}

#[test]
fn an_existing_folder_made_unreadable_is_read_and_applied() {
    let setup = "mkdir -p Work/2024 Work/2025; echo a > Work/2024/a.txt; echo b > Work/2025/b.txt";
    let command = "echo more >> Work/2024/a.txt; echo n > Work/2024/n.txt; chmod 000 Work/2024; \
                   chmod -r Work/2025";
    let Some(t) = tried(setup, command) else {
        return;
    };
    let set = t.read();
    assert_eq!(
        kinds(&set),
        vec![
            (p("Work/2024"), EntryKind::ModeOnly { mode: 0 }),
            (
                p("Work/2024/a.txt"),
                EntryKind::ChangedFile {
                    size: 7,
                    mode: 0o644
                }
            ),
            (
                p("Work/2024/n.txt"),
                EntryKind::CreatedFile {
                    size: 2,
                    mode: 0o644
                }
            ),
            (p("Work/2025"), EntryKind::ModeOnly { mode: 0o311 }),
        ]
    );
    assert_eq!(t.read(), set);
    let card: Vec<_> = set
        .for_card(&t.real)
        .into_iter()
        .map(|c| (c.change, c.path, c.folder, c.mode, c.diff.is_some()))
        .collect();
    assert_eq!(
        card,
        vec![
            (ChangeKind::Mode, p("Work/2024"), true, Some(0), false),
            (ChangeKind::Changed, p("Work/2024/a.txt"), false, None, true),
            (ChangeKind::Created, p("Work/2024/n.txt"), false, None, true),
            (ChangeKind::Mode, p("Work/2025"), true, Some(0o311), false),
        ]
    );
    let store = t.store();
    let applied = changes::apply(&set, &t.real, &t.upper, Some(&store)).unwrap();
    assert!(applied.skipped.is_empty());
    assert_eq!(mode_of(&t.real.join("Work/2024")), 0);
    assert_eq!(mode_of(&t.real.join("Work/2025")), 0o311);
    std::fs::set_permissions(
        t.real.join("Work/2024"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    std::fs::set_permissions(
        t.real.join("Work/2025"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let mut expected = plainly(
        setup,
        "echo more >> Work/2024/a.txt; echo n > Work/2024/n.txt",
    );
    expected.insert(p("Work/2024"), p("folder 755"));
    assert_eq!(snapshot(&t.real), expected);
    assert_eq!(overlay_marks(&t.real), Vec::<String>::new());
}

#[test]
fn a_thousand_new_files_are_all_applied_and_a_cap_is_kept() {
    let command = "mkdir many; i=0; while [ $i -lt 1000 ]; do echo $i > many/f$i; i=$((i+1)); done";
    let Some(t) = tried("", command) else {
        return;
    };
    assert!(matches!(
        changes::read(&t.real, &t.upper, 500),
        Err(ReadError::TooMany { cap: 500 })
    ));
    let set = t.read();
    assert_eq!(set.entries.len(), 1001);
    changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    assert_eq!(snapshot(&t.real), plainly("", command));
    assert_eq!(overlay_marks(&t.real), Vec::<String>::new());
}

#[test]
fn a_file_changed_after_the_try_is_a_conflict_and_nothing_is_applied() {
    let setup = "echo one > a.txt; echo b > b.txt";
    let Some(t) = tried(setup, "echo two > a.txt; rm b.txt; echo n > new.txt") else {
        return;
    };
    let set = t.read();
    std::fs::write(t.real.join("a.txt"), "the person's edit\n").unwrap();
    let before = snapshot(&t.real);
    let error = changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap_err();
    assert!(
        matches!(&error, ApplyError::Conflict { path } if path == Path::new("a.txt")),
        "{error:?}"
    );
    assert_eq!(snapshot(&t.real), before);
}

#[test]
fn a_step_that_fails_midway_leaves_nothing_half_applied() {
    let setup = "echo one > a.txt; echo b > gone.txt; mkdir old; echo o > old/o; chmod 600 a.txt";
    let command = "echo two > a.txt; chmod 644 a.txt; rm gone.txt; rm -rf old; mkdir n; \
                   echo x > n/x; ln -s a.txt l; echo z > zz.txt";
    let Some(t) = tried(setup, command) else {
        return;
    };
    let set = t.read();
    let before = snapshot(&t.real);
    // The last file's copy is gone: its step fails after all the others were done.
    std::fs::remove_file(t.upper.join("zz.txt")).unwrap();
    let error = changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap_err();
    assert!(
        matches!(&error, ApplyError::Failed { path, .. } if path == Path::new("zz.txt")),
        "{error:?}"
    );
    assert_eq!(snapshot(&t.real), before);
}

/// Writes a session log in which `run_command` changed what `files` records, and returns
/// Activity over it.
fn logged(t: &Tried, files: &changes::CommandUndo) -> Activity {
    let sessions = t.data.join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let session = SessionId::new();
    let log =
        askfirst_core::audit::JsonlLog::open(&sessions.join(format!("{session}.jsonl"))).unwrap();
    let run = askfirst_protocol::RunId::new();
    let change = askfirst_core::undo::Change::Command {
        line: "the command".to_owned(),
        files: files.clone(),
    };
    for record in [
        json!({"type": "policy_decided", "run_id": run, "tool_call_id": "c1",
               "tool_name": "run_command", "arguments_sha256": "", "allowed": true,
               "policy_layer": "user_rule", "reason": "", "at": 1}),
        json!({"type": "change_saved", "change_id": "ch1", "run_id": run, "tool_call_id": "c1",
               "folder": t.real, "folder_id": askfirst_core::undo::folder_identity(&t.real),
               "change": change, "at": 2}),
        json!({"type": "change_applied", "change_id": "ch1", "at": 3}),
        json!({"type": "event", "at": 4, "event": {"type": "tool_call_finished",
               "run_id": run, "tool_call_id": "c1", "status": "succeeded", "output": ""}}),
    ] {
        log.append(&serde_json::from_value(record).unwrap())
            .unwrap();
    }
    Activity::new(sessions, t.store())
}

fn undo(activity: &Activity) -> Result<(), UndoError> {
    let entries = activity.list(&|_| String::new());
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0].state, ActivityState::Done);
    match activity.undo_change(entries[0].session_id, &entries[0].id, false)? {
        UndoResponse::Done { .. } => Ok(()),
        other => panic!("{other:?}"),
    }
}

#[test]
fn undoing_a_command_puts_the_folder_back_exactly() {
    let setup = "echo one > changed.txt; chmod 640 changed.txt; echo run > tool.sh; \
                 echo bye > gone.txt; mkdir -p old/sub; echo x > old/sub/f; chmod 700 old/sub; \
                 ln -s changed.txt link; mkdir keep; echo k > keep/k";
    let command = "echo two >> changed.txt; chmod +x tool.sh; rm gone.txt; rm -rf old; \
                   mkdir -p made/deeper; echo m > made/deeper/m; echo new > new.txt; \
                   rm link; ln -s tool.sh link; rm -rf keep; mkdir keep; echo n > keep/n";
    let Some(t) = tried(setup, command) else {
        return;
    };
    let before = snapshot(&t.real);
    let set = t.read();
    let applied = changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    assert_eq!(snapshot(&t.real), plainly(setup, command));
    let activity = logged(&t, &applied.undo);
    let entry = &activity.list(&|_| String::new())[0];
    assert!(entry.paths.contains(&p("old/sub/f")), "{:?}", entry.paths);
    assert_eq!(undo(&activity), Ok(()));
    assert_eq!(snapshot(&t.real), before);
    assert_eq!(
        activity.list(&|_| String::new())[0].state,
        ActivityState::Undone
    );
}

#[test]
fn undoing_a_command_refuses_when_a_file_changed_since() {
    let setup = "echo one > a.txt";
    let Some(t) = tried(setup, "echo two > a.txt; echo n > new.txt") else {
        return;
    };
    let set = t.read();
    let applied = changes::apply(&set, &t.real, &t.upper, Some(&t.store())).unwrap();
    std::fs::write(t.real.join("new.txt"), "the person's\n").unwrap();
    let after = snapshot(&t.real);
    let activity = logged(&t, &applied.undo);
    assert_eq!(
        undo(&activity),
        Err(UndoError::PlaceTaken(PathBuf::from("new.txt")))
    );
    assert_eq!(snapshot(&t.real), after);
}

#[test]
fn a_command_without_before_copies_cannot_be_undone() {
    let Some(t) = tried("echo one > a.txt", "echo two > a.txt") else {
        return;
    };
    let set = t.read();
    let applied = changes::apply(&set, &t.real, &t.upper, None).unwrap();
    let activity = logged(&t, &applied.undo);
    let entries = activity.list(&|_| String::new());
    assert!(
        matches!(entries[0].state, ActivityState::CannotUndo { .. }),
        "{:?}",
        entries[0].state
    );
    assert!(matches!(
        activity.undo_change(entries[0].session_id, &entries[0].id, true),
        Err(UndoError::CannotUndo(_))
    ));
    assert_eq!(
        std::fs::read_to_string(t.real.join("a.txt")).unwrap(),
        "two\n"
    );
}
