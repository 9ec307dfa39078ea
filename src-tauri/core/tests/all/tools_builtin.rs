//! The built-in tools read_file, edit_file and delete_path, the change previews of write_file
//! and edit_file, and the confinement of every path tool (escape attempts, and a symlink swapped
//! between describing a call and running it). run_command: `tools_command.rs`; fetch_url:
//! `tools_fetch.rs` (both use the helpers here).

use askfirst_core::policy::{CallFacts, MainArgument, Policy, PolicyDecision, Rules};
use askfirst_core::tools::{Tool, ToolError, ToolSet, Workspace, OUTPUT_CAP_BYTES};
use askfirst_protocol::{PolicyLayer, Risk};
use pretty_assertions::assert_eq;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(super) fn tool(name: &str) -> Arc<dyn Tool> {
    ToolSet::builtin().get(name).unwrap()
}

pub(super) fn ws() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    (dir, ws)
}

/// What the model is told of a tool's failure (its `Display`), whichever way it is kept.
pub(super) fn told(text: &str) -> String {
    text.to_owned()
}

/// Every file, folder and symlink under `dir`, with contents and link targets, sorted.
pub(super) fn snapshot(dir: &Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let name = path.strip_prefix(dir).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let what = if meta.file_type().is_symlink() {
                format!("-> {}", std::fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                pending.push(path.clone());
                "folder".to_owned()
            } else {
                String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned()
            };
            found.push((name, what));
        }
    }
    found.sort();
    found
}

/// Waits (up to 20 s) for a file a command writes.
pub(super) async fn file_appears(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[test]
fn the_builtin_set_has_every_tool_and_declares_what_only_reads() {
    let tools = ToolSet::builtin();
    assert_eq!(
        tools.names(),
        vec![
            "delete_path",
            "edit_file",
            "fetch_url",
            "list_directory",
            "move_path",
            "read_file",
            "run_command",
            "write_file"
        ]
    );
    let read_only: Vec<_> = tools
        .names()
        .into_iter()
        .filter(|n| tools.get(n).unwrap().read_only())
        .collect();
    assert_eq!(read_only, vec!["list_directory", "read_file"]);
    for spec in tools.specs() {
        assert_eq!(spec.parameters["type"], "object", "{}", spec.name);
        assert_eq!(
            spec.parameters["additionalProperties"], false,
            "{}",
            spec.name
        );
    }
}

// ---------------------------------------------------------------- read_file

#[tokio::test]
async fn read_file_reads_text_reports_binary_and_states_the_cut() {
    let (dir, ws) = ws();
    let read = tool("read_file");
    std::fs::create_dir(dir.path().join("notes")).unwrap();
    std::fs::write(dir.path().join("notes/todo.txt"), "buy milk\ncall mum\n").unwrap();
    let raw = r#"{"path": "notes/todo.txt"}"#;
    let described = read.describe(raw, &ws).unwrap();
    assert_eq!(
        (
            described.summary.as_str(),
            described.risk,
            described.preview
        ),
        ("Read the file notes/todo.txt", Risk::Low, None)
    );
    assert_eq!(
        read.execute(raw, &ws).await.unwrap(),
        "buy milk\ncall mum\n"
    );

    // 330 000 bytes: the first and last 51 200 are kept, and the cut is stated.
    let big: String = (0..30_000).map(|i| format!("line {i:05}\n")).collect();
    assert_eq!(big.len(), 330_000);
    std::fs::write(dir.path().join("big.txt"), &big).unwrap();
    let half = OUTPUT_CAP_BYTES / 2;
    let expected = format!(
        "{}\n[… {} bytes cut …]\n{}",
        &big[..half],
        330_000 - OUTPUT_CAP_BYTES,
        &big[big.len() - half..]
    );
    assert_eq!(
        read.execute(r#"{"path": "big.txt"}"#, &ws).await.unwrap(),
        expected
    );

    std::fs::write(dir.path().join("photo.bin"), [0x89, b'P', 0, 0, 7]).unwrap();
    assert_eq!(
        read.execute(r#"{"path": "photo.bin"}"#, &ws).await.unwrap(),
        "photo.bin is a binary file (5 bytes), not text, so it is not shown."
    );
    std::fs::write(dir.path().join("empty.txt"), "").unwrap();
    assert_eq!(
        read.execute(r#"{"path": "empty.txt"}"#, &ws).await.unwrap(),
        "The file empty.txt is empty."
    );
    std::fs::write(dir.path().join("latin1.txt"), b"caf\xe9\n").unwrap();
    assert_eq!(
        read.execute(r#"{"path": "latin1.txt"}"#, &ws)
            .await
            .unwrap(),
        "[Some bytes of latin1.txt are not UTF-8 text; they are shown as \u{FFFD}.]\ncaf\u{FFFD}\n"
    );
    assert_eq!(
        read.describe(r#"{"path": "notes"}"#, &ws)
            .unwrap_err()
            .to_string(),
        told("notes is a folder, not a file; use list_directory to see what is in it.")
    );
    assert_eq!(
        read.execute(r#"{"path": "nope.txt"}"#, &ws)
            .await
            .unwrap_err()
            .to_string(),
        told("The file nope.txt does not exist.")
    );
}

// ---------------------------------------------------------------- edit_file and previews

#[tokio::test]
async fn edit_file_replaces_the_one_passage_and_previews_the_diff() {
    let (dir, ws) = ws();
    let edit = tool("edit_file");
    std::fs::create_dir(dir.path().join("notes")).unwrap();
    let todo = dir.path().join("notes/todo.txt");
    std::fs::write(&todo, "buy milk\ncall mum\nwater plants\npay rent\nsleep\n").unwrap();
    let raw = serde_json::json!({
        "path": "notes/todo.txt",
        "old_text": "call mum\nwater plants\npay rent",
        "new_text": "call dad\nwater the plants\npay the rent"
    })
    .to_string();
    let described = edit.describe(&raw, &ws).unwrap();
    assert_eq!(described.summary, "Replace 3 lines in notes/todo.txt");
    assert_eq!(described.risk, Risk::Medium);
    assert_eq!(
        described.preview.as_deref(),
        Some(
            "--- a/notes/todo.txt\n+++ b/notes/todo.txt\n@@ -1,5 +1,5 @@\n buy milk\n\
             -call mum\n-water plants\n-pay rent\n+call dad\n+water the plants\n+pay the rent\n\
             \u{20}sleep\n"
        )
    );
    assert_eq!(
        edit.execute(&raw, &ws).await.unwrap(),
        "Replaced 3 lines in notes/todo.txt."
    );
    assert_eq!(
        std::fs::read_to_string(&todo).unwrap(),
        "buy milk\ncall dad\nwater the plants\npay the rent\nsleep\n"
    );

    // Lines added or removed are said so.
    let add = r#"{"path": "notes/todo.txt", "old_text": "sleep\n", "new_text": "sleep\nwake up\nrepeat\n"}"#;
    assert_eq!(
        edit.describe(add, &ws).unwrap().summary,
        "Add 2 lines to notes/todo.txt"
    );
    let remove = r#"{"path": "notes/todo.txt", "old_text": "buy milk\n", "new_text": ""}"#;
    assert_eq!(
        edit.describe(remove, &ws).unwrap().summary,
        "Remove 1 line from notes/todo.txt"
    );

    // Not exactly once: refused, saying how often, and the file is unchanged.
    std::fs::write(dir.path().join("twice.txt"), "aaa\n").unwrap();
    let twice = r#"{"path": "twice.txt", "old_text": "aa", "new_text": "b"}"#;
    let expected = told(
        "The text to replace occurs 2 times in twice.txt; it must occur exactly once. Include \
         more of the surrounding lines so that it matches only one place.",
    );
    assert_eq!(edit.describe(twice, &ws).unwrap_err().to_string(), expected);
    assert_eq!(
        edit.execute(twice, &ws).await.unwrap_err().to_string(),
        expected
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("twice.txt")).unwrap(),
        "aaa\n"
    );
    let absent = r#"{"path": "twice.txt", "old_text": "zzz", "new_text": "b"}"#;
    assert_eq!(
        edit.execute(absent, &ws).await.unwrap_err().to_string(),
        told(
            "The text to replace does not occur in twice.txt. Read the file and copy the text \
             exactly, including spaces and line breaks."
        )
    );
    let same = r#"{"path": "twice.txt", "old_text": "aaa", "new_text": "aaa"}"#;
    assert!(matches!(
        edit.describe(same, &ws),
        Err(ToolError::InvalidArguments { .. })
    ));
    assert_eq!(
        edit.describe(
            r#"{"path": "new.txt", "old_text": "a", "new_text": "b"}"#,
            &ws
        )
        .unwrap_err()
        .to_string(),
        told("The file new.txt does not exist; use write_file to create it.")
    );

    // An edited script stays executable.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let script = dir.path().join("run.sh");
        std::fs::write(&script, "echo hi\n").unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let raw = r#"{"path": "run.sh", "old_text": "hi", "new_text": "hello"}"#;
        edit.execute(raw, &ws).await.unwrap();
        assert_eq!(std::fs::read_to_string(&script).unwrap(), "echo hello\n");
        let mode = std::fs::metadata(&script).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755);
    }
}

#[test]
fn write_file_previews_a_new_file_and_a_replacement() {
    let (dir, ws) = ws();
    let write = tool("write_file");
    let create = r#"{"path": "notes/today.txt", "content": "one\ntwo\n"}"#;
    assert_eq!(
        write.describe(create, &ws).unwrap().preview.as_deref(),
        Some("--- /dev/null\n+++ b/notes/today.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n")
    );
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
    let replace = r#"{"path": "a.txt", "content": "one\n2\n"}"#;
    assert_eq!(
        write.describe(replace, &ws).unwrap().preview.as_deref(),
        Some("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n")
    );
    // Other tools have no preview.
    assert_eq!(
        tool("list_directory")
            .describe(r#"{"path": "."}"#, &ws)
            .unwrap()
            .preview,
        None
    );
}

// ---------------------------------------------------------------- delete_path

#[test]
fn delete_path_says_what_goes_to_the_trash_and_refuses_the_workspace_itself() {
    let (dir, ws) = ws();
    let delete = tool("delete_path");
    std::fs::create_dir_all(dir.path().join("notes/Old stuff")).unwrap();
    std::fs::write(dir.path().join("notes/old.txt"), "old").unwrap();
    std::fs::write(dir.path().join("notes/Old stuff/a.txt"), "a").unwrap();
    std::fs::write(dir.path().join("notes/Old stuff/b.txt"), "b").unwrap();
    let described = delete
        .describe(r#"{"path": "notes/old.txt"}"#, &ws)
        .unwrap();
    assert_eq!(
        (described.summary.as_str(), described.risk),
        (
            "Move notes/old.txt to the trash (you can restore it)",
            Risk::High
        )
    );
    assert_eq!(
        delete
            .describe(r#"{"path": "notes/Old stuff/"}"#, &ws)
            .unwrap()
            .summary,
        "Move the folder notes/Old stuff to the trash, with 2 items inside (you can restore it)"
    );
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.path().join("notes"), dir.path().join("shortcut")).unwrap();
        assert_eq!(
            delete
                .describe(r#"{"path": "shortcut"}"#, &ws)
                .unwrap()
                .summary,
            "Move the shortcut shortcut to the trash; notes itself stays (you can restore it)"
        );
        // Rules see both the link and where it leads.
        let texts: Vec<_> = delete
            .main_arguments(r#"{"path": "shortcut"}"#, &ws)
            .into_iter()
            .map(|a| a.text)
            .collect();
        assert_eq!(texts, vec!["shortcut", "notes"]);
    }
    let itself = told("The workspace folder itself cannot be moved to the trash.");
    for root in [".", "", "./", "notes/.."] {
        let raw = serde_json::json!({ "path": root }).to_string();
        let refused = delete.describe(&raw, &ws).unwrap_err();
        assert!(
            refused.to_string() == itself || matches!(refused, ToolError::OutsideWorkspace { .. }),
            "{root:?}: {refused:?}"
        );
    }
    assert_eq!(
        delete
            .describe(r#"{"path": "gone.txt"}"#, &ws)
            .unwrap_err()
            .to_string(),
        told("gone.txt does not exist.")
    );
}

#[test]
fn delete_path_notices_when_what_the_card_described_changed() {
    let (dir, ws) = ws();
    let delete = tool("delete_path");
    std::fs::create_dir_all(dir.path().join("folder")).unwrap();
    std::fs::write(dir.path().join("a.txt"), "a").unwrap();
    std::fs::create_dir_all(dir.path().join("elsewhere")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("folder"), dir.path().join("link")).unwrap();
    let raw = |path: &str| serde_json::json!({ "path": path }).to_string();
    let shown = |path: &str| delete.describe(&raw(path), &ws).unwrap().fingerprint;
    let now = |path: &str| delete.fingerprint(&raw(path), &ws);
    let mut paths = vec!["folder", "a.txt"];
    if cfg!(unix) {
        paths.push("link");
    }
    let before: Vec<_> = paths.iter().map(|p| shown(p)).collect();
    // Unchanged: the same (so an approved call runs).
    for (path, seen) in paths.iter().zip(&before) {
        assert!(seen.is_some(), "{path}");
        assert_eq!(&now(path), seen, "{path}");
    }
    // The empty folder got a file, the file new content, the shortcut another target.
    std::fs::write(dir.path().join("folder/new.txt"), "n").unwrap();
    std::fs::write(dir.path().join("a.txt"), "b").unwrap();
    #[cfg(unix)]
    {
        std::fs::remove_file(dir.path().join("link")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), dir.path().join("link")).unwrap();
    }
    for (path, seen) in paths.iter().zip(&before) {
        assert_ne!(&now(path), seen, "{path}");
    }
    std::fs::remove_file(dir.path().join("a.txt")).unwrap();
    assert_ne!(now("a.txt"), before[1]);
    // Inside a folder, a change that keeps the number of items is noticed too: a file
    // rewritten, or one file swapped for another.
    std::fs::create_dir_all(dir.path().join("work")).unwrap();
    std::fs::write(dir.path().join("work/thesis.txt"), "draft").unwrap();
    let seen = shown("work");
    assert_eq!(now("work"), seen);
    std::fs::write(dir.path().join("work/thesis.txt"), "MY NEW IMPORTANT WORK").unwrap();
    assert_ne!(now("work"), seen);
    let seen = shown("work");
    std::fs::remove_file(dir.path().join("work/thesis.txt")).unwrap();
    std::fs::write(dir.path().join("work/report.txt"), "draft").unwrap();
    assert_ne!(now("work"), seen);
}

/// Trash moves touch the user's real trash unless `XDG_DATA_HOME` points elsewhere, and the
/// environment is shared by all tests in this process; so the real moves run in a child
/// process of this test binary with its own `XDG_DATA_HOME`.
#[test]
fn delete_path_moves_to_the_trash_and_never_deletes_without_one() {
    for mode in ["works", "unavailable"] {
        let data = tempfile::tempdir().unwrap();
        let data_home = match mode {
            "works" => data.path().join("data"),
            _ => {
                // A file where the trash's folder would have to be: no trash can be made.
                let file = data.path().join("not-a-folder");
                std::fs::write(&file, "").unwrap();
                file
            }
        };
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "all::tools_builtin::trash_in_a_child_process",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("ASKFIRST_TEST_TRASH", mode)
            .env("XDG_DATA_HOME", &data_home)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("1 passed"),
            "{mode}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[tokio::test]
#[ignore = "run by delete_path_moves_to_the_trash_and_never_deletes_without_one, in a process of its own"]
async fn trash_in_a_child_process() {
    let Ok(mode) = std::env::var("ASKFIRST_TEST_TRASH") else {
        return;
    };
    let trash = PathBuf::from(std::env::var_os("XDG_DATA_HOME").unwrap()).join("Trash");
    let (dir, ws) = ws();
    let delete = tool("delete_path");
    std::fs::create_dir_all(dir.path().join("notes/Old stuff")).unwrap();
    std::fs::create_dir(dir.path().join("inside")).unwrap();
    std::fs::write(dir.path().join("notes/old.txt"), "old").unwrap();
    std::fs::write(dir.path().join("notes/Old stuff/a.txt"), "a").unwrap();
    std::fs::write(dir.path().join("inside/keep.txt"), "keep").unwrap();
    std::os::unix::fs::symlink(dir.path().join("inside"), dir.path().join("link-in")).unwrap();

    if mode == "unavailable" {
        let refused = delete
            .execute(r#"{"path": "notes/old.txt"}"#, &ws)
            .await
            .unwrap_err();
        assert!(matches!(refused, ToolError::Said { .. }), "{refused:?}");
        let message = refused.to_string();
        assert!(
            message.starts_with("Could not move notes/old.txt to the trash (")
                && message.ends_with(
                    "), so it was left where it is. Ask First never deletes anything \
                     permanently."
                ),
            "{message}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("notes/old.txt")).unwrap(),
            "old"
        );
        return;
    }

    assert_eq!(
        delete
            .execute(r#"{"path": "notes/old.txt"}"#, &ws)
            .await
            .unwrap(),
        "Moved notes/old.txt to the trash; it can be restored from there."
    );
    assert!(!dir.path().join("notes/old.txt").exists());
    assert_eq!(
        std::fs::read_to_string(trash.join("files/old.txt")).unwrap(),
        "old"
    );
    let info = std::fs::read_to_string(trash.join("info/old.txt.trashinfo")).unwrap();
    assert!(
        info.contains(&format!(
            "Path={}",
            ws.root().join("notes/old.txt").display()
        )),
        "{info}"
    );

    delete
        .execute(r#"{"path": "notes/Old stuff"}"#, &ws)
        .await
        .unwrap();
    assert!(!dir.path().join("notes/Old stuff").exists());
    assert_eq!(
        std::fs::read_to_string(trash.join("files/Old stuff/a.txt")).unwrap(),
        "a"
    );

    // A symlink inside goes to the trash as a link; what it points to stays.
    delete.execute(r#"{"path": "link-in"}"#, &ws).await.unwrap();
    assert!(std::fs::symlink_metadata(dir.path().join("link-in")).is_err());
    assert!(std::fs::symlink_metadata(trash.join("files/link-in"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("inside/keep.txt")).unwrap(),
        "keep"
    );
}

// ---------------------------------------------------------------- confinement

/// Arguments for each path tool with one path replaced by `path`.
pub(super) fn calls_with(path: &str) -> Vec<(&'static str, String)> {
    let json = |v: serde_json::Value| v.to_string();
    vec![
        ("list_directory", json(serde_json::json!({ "path": path }))),
        ("read_file", json(serde_json::json!({ "path": path }))),
        (
            "write_file",
            json(serde_json::json!({ "path": path, "content": "changed" })),
        ),
        (
            "edit_file",
            json(serde_json::json!({ "path": path, "old_text": "secret", "new_text": "changed" })),
        ),
        (
            "move_path",
            json(serde_json::json!({ "from": path, "to": "moved-here" })),
        ),
        (
            "move_path",
            json(serde_json::json!({ "from": "inside/a.txt", "to": path })),
        ),
        ("delete_path", json(serde_json::json!({ "path": path }))),
    ]
}

pub(super) fn hard_denied(policy: &Policy, name: &str, arguments: &[MainArgument]) -> bool {
    let verdict = policy.decide(&CallFacts {
        fingerprint: None,
        tool_name: name,
        read_only: tool(name).read_only(),
        risk: Risk::High,
        main_arguments: arguments,
        canonical_arguments: None,
        mcp_server: None,
    });
    matches!(verdict.decision, PolicyDecision::Deny { .. })
        && verdict.layer == PolicyLayer::HardDenial
}

#[cfg(unix)]
#[tokio::test]
async fn no_path_tool_reaches_outside_the_workspace() {
    let base = tempfile::tempdir().unwrap();
    let root = base.path().join("ws");
    let outside = base.path().join("outside");
    std::fs::create_dir_all(root.join("inside")).unwrap();
    std::fs::create_dir_all(outside.join("dir")).unwrap();
    std::fs::write(outside.join("secret.txt"), "secret").unwrap();
    std::fs::write(outside.join("dir/secret.txt"), "secret").unwrap();
    std::fs::write(root.join("inside/a.txt"), "secret inside").unwrap();
    std::os::unix::fs::symlink(&outside, root.join("link-out")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.txt"), root.join("file-out")).unwrap();
    let ws = Workspace::open(&root).unwrap();
    let policy = Policy::new(Rules::default(), None);
    let outside_before = snapshot(&outside);
    let inside_before = snapshot(&root);

    let absolute = outside.join("secret.txt").display().to_string();
    let escapes = [
        "../outside/secret.txt",
        "inside/../../outside/secret.txt",
        "../outside",
        absolute.as_str(),
        "/",
        "link-out",
        "link-out/secret.txt",
        "link-out/dir",
        "link-out/new.txt",
        "file-out",
    ];
    for escape in escapes {
        for (name, raw) in calls_with(escape) {
            let t = tool(name);
            let described = t.describe(&raw, &ws);
            assert!(
                matches!(described, Err(ToolError::OutsideWorkspace { .. })),
                "{name} {raw}: described as {described:?}"
            );
            assert!(
                hard_denied(&policy, name, &t.main_arguments(&raw, &ws)),
                "{name} {raw}: not refused by the hard rule"
            );
            let ran = t.execute(&raw, &ws).await;
            assert!(
                matches!(ran, Err(ToolError::OutsideWorkspace { .. })),
                "{name} {raw}: ran with {ran:?}"
            );
        }
    }
    assert_eq!(snapshot(&outside), outside_before);
    assert_eq!(snapshot(&root), inside_before);

    // A symlink that stays inside works, and acts inside.
    std::os::unix::fs::symlink(root.join("inside"), root.join("link-in")).unwrap();
    assert_eq!(
        tool("read_file")
            .execute(r#"{"path": "link-in/a.txt"}"#, &ws)
            .await
            .unwrap(),
        "secret inside"
    );
    assert_eq!(
        tool("list_directory")
            .execute(r#"{"path": "link-in"}"#, &ws)
            .await
            .unwrap(),
        "a.txt (13 bytes)"
    );
    tool("edit_file")
        .execute(
            r#"{"path": "link-in/a.txt", "old_text": "secret", "new_text": "open"}"#,
            &ws,
        )
        .await
        .unwrap();
    tool("write_file")
        .execute(r#"{"path": "link-in/b.txt", "content": "b"}"#, &ws)
        .await
        .unwrap();
    tool("move_path")
        .execute(r#"{"from": "link-in/b.txt", "to": "c.txt"}"#, &ws)
        .await
        .unwrap();
    assert_eq!(
        tool("delete_path")
            .describe(r#"{"path": "link-in/a.txt"}"#, &ws)
            .unwrap()
            .summary,
        "Move inside/a.txt to the trash (you can restore it)"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("inside/a.txt")).unwrap(),
        "open inside"
    );
    assert_eq!(std::fs::read_to_string(root.join("c.txt")).unwrap(), "b");
    assert!(std::fs::symlink_metadata(root.join("link-in"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(snapshot(&outside), outside_before);
}

#[cfg(unix)]
#[tokio::test]
async fn a_symlink_swapped_after_describing_is_refused_when_run() {
    let base = tempfile::tempdir().unwrap();
    let root = base.path().join("ws");
    let outside = base.path().join("outside");
    std::fs::create_dir_all(root.join("notes")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("a.txt"), "secret").unwrap();
    let ws = Workspace::open(&root).unwrap();
    let outside_before = snapshot(&outside);

    let calls = [
        ("list_directory", r#"{"path": "notes"}"#),
        ("read_file", r#"{"path": "notes/a.txt"}"#),
        (
            "write_file",
            r#"{"path": "notes/a.txt", "content": "changed"}"#,
        ),
        (
            "edit_file",
            r#"{"path": "notes/a.txt", "old_text": "secret", "new_text": "changed"}"#,
        ),
        ("move_path", r#"{"from": "notes/a.txt", "to": "moved.txt"}"#),
        ("move_path", r#"{"from": "b.txt", "to": "notes/c.txt"}"#),
        ("delete_path", r#"{"path": "notes/a.txt"}"#),
    ];
    for (name, raw) in calls {
        // As described: a real folder with a real file.
        std::fs::write(root.join("notes/a.txt"), "secret").unwrap();
        std::fs::write(root.join("b.txt"), "b").unwrap();
        let t = tool(name);
        t.describe(raw, &ws)
            .unwrap_or_else(|e| panic!("{name} {raw}: {e}"));
        // Swapped before it runs: `notes` now leads outside.
        std::fs::rename(root.join("notes"), root.join("notes-real")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("notes")).unwrap();
        let ran = t.execute(raw, &ws).await;
        assert!(
            matches!(ran, Err(ToolError::OutsideWorkspace { .. })),
            "{name} {raw}: ran with {ran:?}"
        );
        assert_eq!(snapshot(&outside), outside_before, "{name} {raw}");
        std::fs::remove_file(root.join("notes")).unwrap();
        std::fs::rename(root.join("notes-real"), root.join("notes")).unwrap();
    }
}
