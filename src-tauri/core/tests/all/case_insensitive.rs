//! Identity, not spelling (DESIGN.md §7.3) on a real case-insensitive file system: the FUSE
//! file system `tests/fs/case_insensitive_fs.py` (like a USB stick, exFAT or an SMB share, a
//! name finds its entry whatever its case and Unicode normalisation). The workspace and the
//! data folder are made on it, and every other spelling of a denied folder or of Ask First's
//! own files must reach the verdict of the real one.
//!
//! Needs /dev/fuse and Debian's python3-fusepy (`make test` installs it) and root (to mount and
//! unmount): without them the tests fail on CI (`CI` set) and are skipped elsewhere.

use super::identity::{builtin, verdict, Place};
use askfirst_core::identity::FileId;
use askfirst_core::mcp::McpClients;
use askfirst_core::policy::PolicyDecision;
use askfirst_core::tools::Workspace;
use askfirst_protocol::PolicyLayer;
use pretty_assertions::assert_eq;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Debian's Python, which has python3-fusepy (not a pyenv one earlier on PATH).
const PYTHON: &str = "/usr/bin/python3";
/// How long the file system may take to appear.
const MOUNT_TIMEOUT: Duration = Duration::from_secs(10);

/// A case-insensitive file system over a temporary folder, unmounted when dropped.
pub struct CaseInsensitiveMount {
    child: Child,
    /// The mount point (canonical): make files here.
    pub root: PathBuf,
    _dir: tempfile::TempDir,
}

impl CaseInsensitiveMount {
    /// Mounts a new one for the test `test`; `None` (after printing "SKIPPED …") when this
    /// machine cannot, except on CI and under `ASKFIRST_REQUIRE_SANDBOX_TESTS` (`make test`),
    /// where that fails the test.
    pub fn start(test: &str) -> Option<CaseInsensitiveMount> {
        Self::start_numbered(test, true)
    }

    /// [`Self::start`]; with `stable_inodes` false, every spelling of an entry gets its own
    /// inode number (as some FUSE mounts do), so identity cannot tell two spellings are one.
    pub fn start_numbered(test: &str, stable_inodes: bool) -> Option<CaseInsensitiveMount> {
        if let Err(missing) = prerequisites() {
            assert!(
                std::env::var_os("CI").is_none()
                    && std::env::var_os("ASKFIRST_REQUIRE_SANDBOX_TESTS").is_none(),
                "{test}: {missing} (under `make test` and on CI the case-insensitive file \
                 system tests must run; `make test` installs python3-fusepy)"
            );
            eprintln!("SKIPPED {test}: {missing}");
            return None;
        }
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fs/case_insensitive_fs.py");
        let dir = tempfile::tempdir().unwrap();
        let backing = dir.path().join("backing");
        let root = dir.path().canonicalize().unwrap().join("mnt");
        std::fs::create_dir(&backing).unwrap();
        std::fs::create_dir(&root).unwrap();
        let log = dir.path().join("fs.log");
        let child = Command::new(PYTHON)
            .arg(&script)
            .arg(&backing)
            .arg(&root)
            .args((!stable_inodes).then_some("--unstable-inodes"))
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&log).unwrap())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap_or_else(|e| panic!("{test}: cannot start {}: {e}", script.display()));
        let mut mount = CaseInsensitiveMount {
            child,
            root,
            _dir: dir,
        };
        let deadline = Instant::now() + MOUNT_TIMEOUT;
        while !is_mount_point(&mount.root) {
            let said = || std::fs::read_to_string(&log).unwrap_or_default();
            if let Ok(Some(status)) = mount.child.try_wait() {
                panic!(
                    "{test}: the file system ended ({status}) before it was mounted: {}",
                    said()
                );
            }
            assert!(
                Instant::now() < deadline,
                "{test}: the file system was not mounted at {} within {MOUNT_TIMEOUT:?}: {}",
                mount.root.display(),
                said()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        mount.check_it_is_case_insensitive(stable_inodes);
        Some(mount)
    }

    /// A workspace and data folder on the mount (see [`Place::under`]).
    pub fn place(&self, data_inside: bool) -> Place {
        Place::under(&self.root, data_inside)
    }

    /// That the file system does what these tests rely on, so no test passes for nothing.
    fn check_it_is_case_insensitive(&self, stable_inodes: bool) {
        let probe = self.root.join("Probe-É");
        std::fs::create_dir(&probe).unwrap();
        std::fs::write(probe.join("x"), "x").unwrap();
        let other = self.root.join("pROBE-E\u{301}/X");
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "x");
        assert_eq!(
            FileId::of(&other) == FileId::of(&probe.join("x")),
            stable_inodes
        );
        let names: Vec<_> = std::fs::read_dir(&self.root)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["Probe-É"]);
        std::fs::remove_dir_all(&probe).unwrap();
    }
}

impl Drop for CaseInsensitiveMount {
    fn drop(&mut self) {
        // Unmounting ends the file system's process; then the temporary folder can go.
        let unmounted = [
            ("umount", vec![]),
            ("fusermount3", vec!["-u"]),
            ("fusermount", vec!["-u"]),
            ("umount", vec!["-l"]),
        ]
        .into_iter()
        .any(|(program, args)| {
            Command::new(program)
                .args(args)
                .arg(&self.root)
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        });
        let deadline = Instant::now() + Duration::from_secs(5);
        while unmounted && Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !unmounted {
            eprintln!("could not unmount {}", self.root.display());
        }
    }
}

/// What this machine lacks to mount the file system, if anything.
fn prerequisites() -> Result<(), String> {
    if !Path::new("/dev/fuse").exists() {
        return Err("/dev/fuse is missing (no FUSE in this kernel or container)".to_owned());
    }
    let fusepy = Command::new(PYTHON)
        .args(["-c", "import fusepy"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !fusepy {
        return Err(format!(
            "{PYTHON} cannot import fusepy (apt-get install python3-fusepy)"
        ));
    }
    let root =
        std::fs::metadata("/proc/self").is_ok_and(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0);
    if !root {
        return Err("mounting the test file system needs root".to_owned());
    }
    Ok(())
}

/// Whether `path` is a mount point of this process's mount namespace.
fn is_mount_point(path: &Path) -> bool {
    let Ok(table) = std::fs::read_to_string("/proc/self/mountinfo") else {
        return false;
    };
    let wanted = path.to_string_lossy();
    table
        .lines()
        .filter_map(|line| line.split(' ').nth(4))
        .any(|point| unescape_mountinfo(point) == wanted)
}

/// A mountinfo field with its `\ooo` escapes (space, tab, newline, backslash) decoded.
fn unescape_mountinfo(field: &str) -> String {
    let mut out = String::new();
    let mut rest = field;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        match u8::from_str_radix(rest.get(i + 1..i + 4).unwrap_or(""), 8) {
            Ok(byte) => {
                out.push(char::from(byte));
                rest = &rest[i + 4..];
            }
            Err(_) => {
                out.push('\\');
                rest = &rest[i + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

type Verdict = (PolicyDecision, PolicyLayer);

fn denied_by_rule(v: &Verdict) -> bool {
    matches!(v, (PolicyDecision::Deny { .. }, PolicyLayer::UserRule))
}

fn hard_denied(v: &Verdict) -> bool {
    matches!(v, (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial))
}

/// The verdicts on every file tool naming `path`: read, write, list, delete, and a move from
/// it and into it (`to` a folder that exists, or under it).
fn every_file_tool(
    place: &Place,
    ws: &Workspace,
    rules: &str,
    path: &str,
) -> Vec<(String, Verdict)> {
    let policy = place.policy(rules);
    std::fs::write(place.ws.join("loose.txt"), "loose").unwrap();
    let mut calls = vec![
        ("read_file", json!({ "path": path })),
        ("write_file", json!({ "path": path, "content": "changed" })),
        (
            "edit_file",
            json!({ "path": path, "old_text": "a", "new_text": "b" }),
        ),
        ("list_directory", json!({ "path": path })),
        ("delete_path", json!({ "path": path })),
        ("move_path", json!({ "from": path, "to": "moved-away" })),
    ];
    // Into it, unless it is a file (a path through a file is refused too, but as one that
    // cannot be resolved, not by the rule).
    if !place.ws.join(path).is_file() {
        calls.push((
            "move_path",
            json!({ "from": "loose.txt", "to": format!("{path}/") }),
        ));
        calls.push((
            "move_path",
            json!({ "from": "loose.txt", "to": format!("{path}/loose.txt") }),
        ));
    }
    calls
        .into_iter()
        .map(|(tool, arguments)| {
            let v = verdict(&policy, ws, &*builtin(tool), &arguments);
            (format!("{tool} {arguments}"), v)
        })
        .collect()
}

const DENY_TAXES: &str = "[[deny]]\ntool = \"*\"\nmatch = \"Taxes/**\"\n";

#[test]
fn case_insensitive_a_denied_folder_is_denied_in_every_case() {
    let Some(mount) =
        CaseInsensitiveMount::start("case_insensitive_a_denied_folder_is_denied_in_every_case")
    else {
        return;
    };
    let place = mount.place(false);
    std::fs::create_dir_all(place.ws.join("Taxes/2025")).unwrap();
    std::fs::write(place.ws.join("Taxes/x"), "a secret").unwrap();
    std::fs::write(place.ws.join("notes.txt"), "a").unwrap();
    let ws = place.workspace();
    for path in [
        "Taxes/x",
        "TAXES/x",
        "taxes/x",
        "TaXeS/X",
        "TaXeS",
        "TAXES",
        "taxes/2025",
        "TAXES/new.txt",
        "./tAxEs/x",
    ] {
        for (call, v) in every_file_tool(&place, &ws, DENY_TAXES, path) {
            assert!(denied_by_rule(&v), "{call}: {v:?}");
        }
    }
    // The rule is not about everything: other paths are judged as usual.
    let policy = place.policy(DENY_TAXES);
    assert_eq!(
        verdict(
            &policy,
            &ws,
            &*builtin("read_file"),
            &json!({"path": "NOTES.TXT"})
        ),
        (PolicyDecision::Allow, PolicyLayer::ToolDefault)
    );
}

#[test]
fn case_insensitive_a_rule_spelled_in_another_case_is_about_the_folder_it_names() {
    let Some(mount) = CaseInsensitiveMount::start(
        "case_insensitive_a_rule_spelled_in_another_case_is_about_the_folder_it_names",
    ) else {
        return;
    };
    let place = mount.place(false);
    std::fs::create_dir_all(place.ws.join("Taxes")).unwrap();
    std::fs::write(place.ws.join("Taxes/x"), "a secret").unwrap();
    let ws = place.workspace();
    // The person wrote `taxes`; on this disk that is the folder `Taxes`, whatever the model
    // writes (compared by identity, as the rule names a plain folder).
    let rules = "[[deny]]\ntool = \"*\"\nmatch = \"taxes/**\"\n";
    for path in ["Taxes/x", "TAXES/x", "Taxes"] {
        for (call, v) in every_file_tool(&place, &ws, rules, path) {
            assert!(denied_by_rule(&v), "{call}: {v:?}");
        }
    }
}

#[test]
fn case_insensitive_own_files_are_unreachable_in_every_case() {
    let Some(mount) =
        CaseInsensitiveMount::start("case_insensitive_own_files_are_unreachable_in_every_case")
    else {
        return;
    };
    // The data folder inside the workspace, as `data/`.
    let place = mount.place(true);
    let ws = place.workspace();
    for path in [
        "DATA/rules.toml",
        "Data/settings.json",
        "data/SETTINGS.JSON",
        "dAtA/Sessions",
        "DATA",
        "Data/new.txt",
    ] {
        for (call, v) in every_file_tool(&place, &ws, "", path) {
            assert!(hard_denied(&v), "{call}: {v:?}");
        }
    }
    // No rule opens them either.
    let allow_all = "[[allow]]\ntool = \"*\"\n";
    for (call, v) in every_file_tool(&place, &ws, allow_all, "DATA/rules.toml") {
        assert!(hard_denied(&v), "{call}: {v:?}");
    }
}

#[test]
fn case_insensitive_own_files_outside_the_workspace_are_unreachable_through_a_link() {
    let Some(mount) = CaseInsensitiveMount::start(
        "case_insensitive_own_files_outside_the_workspace_are_unreachable_through_a_link",
    ) else {
        return;
    };
    // The data folder beside the workspace, and a link in the workspace that leads to it in
    // another case: the workspace refuses to leave itself, so it is refused either way.
    let place = mount.place(false);
    std::os::unix::fs::symlink("../DATA", place.ws.join("shortcut")).unwrap();
    let ws = place.workspace();
    let policy = place.policy("[[allow]]\ntool = \"*\"\n");
    for path in ["shortcut/settings.json", "SHORTCUT/rules.toml"] {
        let v = verdict(
            &policy,
            &ws,
            &*builtin("read_file"),
            &json!({ "path": path }),
        );
        assert!(matches!(v.0, PolicyDecision::Deny { .. }), "{path}: {v:?}");
    }
}

#[test]
fn case_insensitive_an_allow_rule_needs_the_spelling_the_model_used() {
    let Some(mount) = CaseInsensitiveMount::start(
        "case_insensitive_an_allow_rule_needs_the_spelling_the_model_used",
    ) else {
        return;
    };
    let place = mount.place(false);
    std::fs::create_dir_all(place.ws.join("Drafts")).unwrap();
    std::fs::write(place.ws.join("Drafts/x.txt"), "old").unwrap();
    let ws = place.workspace();
    let policy = place.policy("[[allow]]\ntool = \"write_file\"\nmatch = \"Drafts/*.txt\"\n");
    let write = builtin("write_file");
    let write_to = |path: &str| {
        verdict(
            &policy,
            &ws,
            &*write,
            &json!({ "path": path, "content": "new" }),
        )
    };
    // Both spellings match the rule: the real one and the model's (`*.txt` takes `X.txt`).
    for path in ["Drafts/x.txt", "Drafts/X.txt", "Drafts/new.txt"] {
        assert_eq!(
            write_to(path),
            (PolicyDecision::Allow, PolicyLayer::UserRule),
            "{path}"
        );
    }
    // `DRAFTS/x.txt` is the file `Drafts/x.txt` on this disk, and its real spelling matches
    // the rule — but the spelling the model used does not, and an allow rule (which skips the
    // card) applies only when the rule plainly names what the model asked for. Asking is the
    // safe side: it costs the person one click, while allowing would let a rule about
    // `Drafts` apply to text that does not say `Drafts` (on a case-sensitive disk the same
    // call would make a new folder `DRAFTS`, which the rule is not about). So it asks, as any
    // call without a rule does.
    for path in ["DRAFTS/x.txt", "drafts/X.TXT", "DRAFTS/new.txt"] {
        let v = write_to(path);
        assert!(
            matches!(v, (PolicyDecision::Ask { .. }, PolicyLayer::ToolDefault)),
            "{path}: {v:?}"
        );
    }
}

#[test]
fn case_insensitive_a_decomposed_spelling_is_the_folder_it_names() {
    let Some(mount) = CaseInsensitiveMount::start(
        "case_insensitive_a_decomposed_spelling_is_the_folder_it_names",
    ) else {
        return;
    };
    let place = mount.place(false);
    // `Café` as one character é (NFC) on disk; the model writes e + U+0301 (NFD), as macOS
    // does, or another case of it.
    std::fs::create_dir_all(place.ws.join("Caf\u{e9}")).unwrap();
    std::fs::write(place.ws.join("Caf\u{e9}/x"), "menu").unwrap();
    let ws = place.workspace();
    for rules in [
        "[[deny]]\ntool = \"*\"\nmatch = \"Caf\u{e9}/**\"\n",
        // The rule itself in NFD: the folder it names is the same one.
        "[[deny]]\ntool = \"*\"\nmatch = \"Cafe\u{301}/**\"\n",
    ] {
        for path in [
            "Caf\u{e9}/x",
            "Cafe\u{301}/x",
            "CAFE\u{301}/X",
            "cafe\u{301}",
            "CAF\u{c9}/new.txt",
        ] {
            for (call, v) in every_file_tool(&place, &ws, rules, path) {
                assert!(denied_by_rule(&v), "{rules:?} {call}: {v:?}");
            }
        }
    }
}

#[test]
fn case_insensitive_a_move_into_a_denied_folder_by_another_case_is_refused() {
    let Some(mount) = CaseInsensitiveMount::start(
        "case_insensitive_a_move_into_a_denied_folder_by_another_case_is_refused",
    ) else {
        return;
    };
    let place = mount.place(false);
    std::fs::create_dir_all(place.ws.join("Taxes")).unwrap();
    std::fs::write(place.ws.join("notes.txt"), "a").unwrap();
    let ws = place.workspace();
    let policy = place.policy(DENY_TAXES);
    let mv = builtin("move_path");
    for to in ["TAXES/", "taxes", "TaXeS/notes.txt", "TAXES/sub/notes.txt"] {
        let v = verdict(
            &policy,
            &ws,
            &*mv,
            &json!({ "from": "notes.txt", "to": to }),
        );
        assert!(denied_by_rule(&v), "{to}: {v:?}");
    }
    // Moving it elsewhere still asks, as every move does.
    let v = verdict(
        &policy,
        &ws,
        &*mv,
        &json!({ "from": "notes.txt", "to": "Other/" }),
    );
    assert!(
        matches!(v, (PolicyDecision::Ask { .. }, PolicyLayer::ToolDefault)),
        "{v:?}"
    );
}

#[tokio::test]
async fn case_insensitive_an_mcp_tool_naming_another_case_is_judged_as_the_real_path() {
    if !super::mcp::npm_servers_ready(
        "case_insensitive_an_mcp_tool_naming_another_case_is_judged_as_the_real_path",
    ) {
        return;
    }
    let Some(mount) = CaseInsensitiveMount::start(
        "case_insensitive_an_mcp_tool_naming_another_case_is_judged_as_the_real_path",
    ) else {
        return;
    };
    let place = mount.place(true);
    std::fs::create_dir_all(place.ws.join("Taxes")).unwrap();
    std::fs::write(place.ws.join("Taxes/x"), "a secret").unwrap();
    std::fs::write(place.ws.join("plan.txt"), "step one").unwrap();
    std::fs::create_dir_all(mount.root.join("outside/deep")).unwrap();
    std::os::unix::fs::symlink(mount.root.join("outside/deep"), place.ws.join("elsewhere"))
        .unwrap();
    // A trusted server that may read the whole mount, the data folder included.
    let clients = McpClients::new(vec![super::mcp::filesystem("files", &mount.root, true)]);
    let tools = clients.tools().await;
    let read = tools
        .iter()
        .find(|t| t.name() == "files__read_text_file")
        .cloned()
        .expect("the filesystem server's read_text_file");
    let ws = place.workspace();
    let policy = place.policy(DENY_TAXES);
    let judge = |arguments: serde_json::Value| verdict(&policy, &ws, &*read, &arguments);
    let taxes = place.ws.join("TAXES/x");
    for arguments in [
        json!({ "path": taxes }),
        json!({ "path": "taxes/X" }),
        json!({ "path": format!("file://{}", place.ws.join("tAxEs/x").display()) }),
        // A folder that does not exist, then `..`: the kernel would fail, a server that
        // takes `..` away by the letters (Node's path.resolve) reads `Taxes`.
        json!({ "path": place.ws.join("Cafe/../TAXES") }),
        json!({ "path": "Nowhere/../taxes/x" }),
        // A link that leads out of the workspace, then `..`: the kernel goes to the link's
        // parent outside, the letters to `Taxes` inside.
        json!({ "path": place.ws.join("elsewhere/../TAXES/x") }),
    ] {
        let v = judge(arguments.clone());
        assert!(denied_by_rule(&v), "{arguments}: {v:?}");
    }
    for arguments in [
        json!({ "path": place.ws.join("DATA/settings.json") }),
        json!({ "path": "Data/rules.toml" }),
        json!({ "path": format!("file://{}", place.ws.join("dAtA").display()) }),
    ] {
        let v = judge(arguments.clone());
        assert!(hard_denied(&v), "{arguments}: {v:?}");
    }
    assert_eq!(
        judge(json!({ "path": place.ws.join("PLAN.TXT") })).0,
        PolicyDecision::Allow
    );
    clients.shutdown().await;
}

/// Found by a red team (round three): on a case-insensitive mount that numbers each spelling
/// apart (some FUSE file systems), `read_file tAxes/return.txt` passed a `Taxes/**` deny rule,
/// since identity by device and inode does not hold there. Such a folder is refused with a
/// sentence — chosen in the window, or set by `ASKFIRST_WORKSPACE` — and one where identity
/// holds is taken; a case-sensitive folder too (nothing written there to tell).
#[test]
fn case_insensitive_a_folder_whose_spellings_have_no_one_identity_is_refused() {
    use askfirst_core::app::folder::{check_folder, FolderError};
    let data = tempfile::tempdir().unwrap();
    let Some(apart) = CaseInsensitiveMount::start_numbered("unstable-inodes", false) else {
        return;
    };
    // An empty folder (the probe is made and removed again) and one with files.
    for with_files in [false, true] {
        if with_files {
            std::fs::create_dir(apart.root.join("Taxes")).unwrap();
            std::fs::write(apart.root.join("Taxes/return.txt"), "secret").unwrap();
        }
        assert!(
            matches!(
                check_folder(&apart.root, data.path(), None),
                Err(FolderError::CaseWithoutIdentity)
            ),
            "with files: {with_files}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&apart.root).unwrap().count(),
        1,
        "the probe is gone"
    );
    let Some(one) = CaseInsensitiveMount::start("stable-inodes") else {
        return;
    };
    std::fs::write(one.root.join("Notes.txt"), "x").unwrap();
    assert!(check_folder(&one.root, data.path(), None).is_ok());
    let plain = tempfile::tempdir().unwrap();
    std::fs::write(plain.path().join("Notes.txt"), "x").unwrap();
    std::fs::write(plain.path().join("NOTES.txt"), "y").unwrap();
    assert!(check_folder(plain.path(), data.path(), None).is_ok());
    let empty = tempfile::tempdir().unwrap();
    assert!(check_folder(empty.path(), data.path(), None).is_ok());
    assert_eq!(std::fs::read_dir(empty.path()).unwrap().count(), 0);
}

/// Red team, round four: `spellings_lack_identity` probes the chosen folder's own entries only.
/// A case-sensitive folder that holds a case-insensitive mount without identity (a USB stick
/// or a network share mounted in it, as `/media/<person>` holds the person's drives) is taken:
/// its entries (`mnt`, …) have no other spelling there, so nothing tells. Inside the mount,
/// `mnt/tAxes/return.txt` then passes a deny rule on `mnt/Taxes/**`, as in the round-three
/// finding this check was made for.
#[test]
fn case_insensitive4_a_folder_holding_a_mount_without_identity_is_taken() {
    use askfirst_core::app::folder::{check_folder, FolderError};
    use askfirst_core::policy::{Policy, Rules};
    let data = tempfile::tempdir().unwrap();
    let Some(apart) = CaseInsensitiveMount::start_numbered("unstable-inodes-inside", false) else {
        return;
    };
    std::fs::create_dir(apart.root.join("Taxes")).unwrap();
    std::fs::write(apart.root.join("Taxes/return.txt"), "secret").unwrap();
    // The folder the mount lies in (its other entries: the backing folder, a log).
    let outer = apart.root.parent().unwrap().to_path_buf();
    let taken = check_folder(&outer, data.path(), None);
    let policy = Policy::new(
        Rules::parse(
            "[[deny]]\ntool = \"*\"\nmatch = \"mnt/Taxes/**\"\n",
            Path::new("rules.toml"),
        ),
        Some((data.path(), outer.as_path())),
    );
    let ws = Workspace::open(&outer).unwrap().with_own_data(data.path());
    let read = verdict(
        &policy,
        &ws,
        &*builtin("read_file"),
        &json!({ "path": "mnt/tAxes/return.txt" }),
    );
    assert!(
        matches!(taken, Err(FolderError::CaseWithoutIdentity)) || denied_by_rule(&read),
        "the folder was taken ({taken:?}) and read_file mnt/tAxes/return.txt is {read:?}"
    );
}
