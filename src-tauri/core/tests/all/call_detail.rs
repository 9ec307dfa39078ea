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
    assert_eq!(
        described.detail,
        Some(CallDetail::Command {
            line: line.to_owned(),
            working_folder: folder(&ws),
        })
    );
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
            {"tool_calls": [{"name": "run_command", "arguments": {"command": "ls -la"}}]},
            {"tool_calls": [{"name": "write_file", "arguments": {"path": "a.txt", "content": "x"}}]},
            {"say": "done"}
        ]}),
        Duration::from_secs(60),
    );
    h.runtime.start_run("look").unwrap();
    let command = h.events.approval_required().await;
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    let working_folder = root.to_string_lossy().into_owned();
    assert_eq!(
        command.detail,
        Some(CallDetail::Command {
            line: "ls -la".into(),
            working_folder: working_folder.clone(),
        })
    );
    assert_eq!(
        serde_json::to_value(&command).unwrap()["detail"],
        json!({"kind": "command", "line": "ls -la", "working_folder": working_folder})
    );
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
