//! Typed call details: the tool that has something more to show than its summary (a command
//! line) says so in a `CallDetail`, and that value reaches the approval request unchanged, so
//! the card never has to recognise a tool by its name.

use askfirst_core::tools::{CallDetail, ToolSet, Workspace};
use askfirst_protocol::Decision;
use pretty_assertions::assert_eq;
use serde_json::json;
use std::time::Duration;

use super::support::harness;

fn ws() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    (dir, ws)
}

fn folder(ws: &Workspace) -> String {
    ws.root().to_string_lossy().into_owned()
}

#[test]
fn a_command_card_gets_the_line_exactly_as_the_shell_will_and_where_it_runs() {
    let (_dir, ws) = ws();
    let run = ToolSet::builtin().get("run_command").unwrap();
    // Spaces, quotes, a second line and a `$(…)`: none of it is trimmed, re-quoted or parsed
    // away, since this is what `sh -c` gets.
    let line = "  echo 'a  b' \"$(date)\"\nrm -r build  ";
    let raw = serde_json::to_string(&json!({ "command": line, "timeout_secs": 5 })).unwrap();
    let described = run.describe(&raw, &ws).unwrap();
    let Some(CallDetail::Command {
        line: shown,
        working_folder,
        effects,
        ..
    }) = described.detail
    else {
        panic!("no command detail");
    };
    assert_eq!((shown.as_str(), working_folder), (line, folder(&ws)));
    // What it does, read from the line as it stands (`$(…)`, `rm -r build`).
    let texts: Vec<&str> = effects.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(
        texts,
        vec![
            "Uses shell features (variables, substitutions, file name patterns or \
             redirections), so Ask First cannot tell everything it does before it runs.",
            "Deletes build permanently if it is there when the command runs (nothing has that \
             name now).",
        ]
    );
}

/// The card of `rm -r Photos` says, beside the line, that it deletes the folder Photos
/// permanently (as a key and values, and in English), the request's own effects say whether it
/// runs shut in, and the session log's `approval_asked` record keeps both.
#[tokio::test]
async fn a_command_card_says_what_the_command_does_and_the_log_keeps_it() {
    use askfirst_core::audit::AuditRecord;
    let mut h = harness(
        json!({"turns": [
            {"tool_calls": [{"name": "run_command", "arguments": {"command": "rm -r Photos"}}]},
            {"say": "done"}
        ]}),
        Duration::from_secs(60),
    );
    std::fs::create_dir(h.dir.path().join("Photos")).unwrap();
    h.runtime.start_run("tidy").unwrap();
    let request = h.events.approval_required().await;
    let sentence = "Deletes the folder Photos permanently, with everything in it (it does not go \
                    to the trash).";
    let Some(CallDetail::Command { effects, tried, .. }) = &request.detail else {
        panic!("no command detail");
    };
    let recorded: Vec<Vec<String>> = h
        .audit
        .all()
        .iter()
        .filter_map(|r| match r {
            AuditRecord::ApprovalAsked { effects, .. } => Some(effects.clone()),
            _ => None,
        })
        .collect();
    if let Some(tried) = tried {
        // Tried on a copy first: the card shows what it did (the folder deleted), not what
        // its words say, and what Approve does with it.
        assert!(effects.is_empty(), "{effects:?}");
        let deleted: Vec<_> = tried
            .changes
            .iter()
            .map(|c| (c.change, c.path.as_str(), c.folder))
            .collect();
        assert_eq!(
            deleted,
            vec![(askfirst_protocol::ChangeKind::Deleted, "Photos", true)]
        );
        assert!(
            request.effects[0].contains("exactly the changes listed below"),
            "{:?}",
            request.effects
        );
        assert_eq!(recorded, vec![request.effects.clone()]);
    } else {
        assert_eq!(
            serde_json::to_value(effects).unwrap(),
            json!([{
                "wording": {"key": "command.deletes_folder", "args": {"name": "Photos"}},
                "text": sentence,
            }])
        );
        assert_eq!(request.effects.len(), 1, "{:?}", request.effects);
        assert!(
            request.effects[0].contains("shut in"),
            "{:?}",
            request.effects
        );
        assert_eq!(
            recorded,
            vec![vec![request.effects[0].clone(), sentence.to_owned()]]
        );
    }
    h.runtime
        .resolve_approval(request.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
    assert!(h.dir.path().join("Photos").exists());
}

#[test]
fn tools_without_a_command_line_have_no_detail() {
    let (dir, ws) = ws();
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
    let calls = [
        ("list_directory", r#"{"path": "."}"#),
        ("read_file", r#"{"path": "a.txt"}"#),
        ("write_file", r#"{"path": "b.txt", "content": "x"}"#),
        (
            "edit_file",
            r#"{"path": "a.txt", "old_text": "one", "new_text": "1"}"#,
        ),
        ("move_path", r#"{"from": "a.txt", "to": "c.txt"}"#),
        ("delete_path", r#"{"path": "a.txt"}"#),
        ("fetch_url", r#"{"url": "https://example.com/"}"#),
    ];
    let tools = ToolSet::builtin();
    let mut described: Vec<_> = tools
        .names()
        .into_iter()
        .filter(|name| *name != "run_command")
        .collect();
    described.sort();
    let mut listed: Vec<_> = calls.iter().map(|(name, _)| *name).collect();
    listed.sort();
    assert_eq!(
        described, listed,
        "every other built-in tool is checked here"
    );
    for (name, raw) in calls {
        let description = tools.get(name).unwrap().describe(raw, &ws).unwrap();
        assert_eq!(description.detail, None, "{name}");
    }
}

#[tokio::test]
async fn the_detail_reaches_the_approval_request_and_its_json() {
    let mut h = harness(
        json!({"turns": [
            {"tool_calls": [{"name": "run_command", "arguments": {"command": "touch made.txt"}}]},
            {"tool_calls": [{"name": "write_file", "arguments": {"path": "a.txt", "content": "x"}}]},
            {"say": "done"}
        ]}),
        Duration::from_secs(60),
    );
    h.runtime.start_run("look").unwrap();
    let command = h.events.approval_required().await;
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    let working_folder = root.to_string_lossy().into_owned();
    let Some(CallDetail::Command {
        line,
        working_folder: shown_folder,
        effects,
        tried,
    }) = command.detail.clone()
    else {
        panic!("no command detail: {:?}", command.detail);
    };
    assert_eq!(
        (line.as_str(), shown_folder.as_str(), effects.len()),
        ("touch made.txt", working_folder.as_str(), 0)
    );
    // Where commands are tried on a copy first, the card holds what it made there.
    if let Some(tried) = tried {
        assert_eq!(tried.changes.len(), 1, "{tried:?}");
        assert_eq!(
            serde_json::to_value(&command).unwrap()["detail"],
            json!({"kind": "command", "line": "touch made.txt", "working_folder": working_folder,
                   "tried": {"changes": [{"change": "created", "path": "made.txt", "folder": false, "size": 0}],
                             "more": 0, "output": "", "ended": "It finished without an error."}})
        );
    } else {
        assert_eq!(
            serde_json::to_value(&command).unwrap()["detail"],
            json!({"kind": "command", "line": "touch made.txt", "working_folder": working_folder})
        );
    }
    h.runtime
        .resolve_approval(command.approval_id, Decision::Deny { note: None })
        .unwrap();

    let write = h.events.approval_required().await;
    assert_eq!(write.detail, None);
    assert_eq!(serde_json::to_value(&write).unwrap().get("detail"), None);
    h.runtime
        .resolve_approval(write.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
}
