//! MCP tools in the agent's runs: asking, trusted read-only hints, a server killed mid-run,
//! and path rules over MCP arguments (see `mcp` for the test servers).

#![cfg(unix)]

use super::mcp::*;
use super::support::{self, harness_in, Harness};
use askfirst_core::approvals::AnswerMode;
use askfirst_core::mcp::{McpClients, McpServerConfig, McpServerStatus};
use askfirst_core::policy::{CallFacts, Policy, PolicyDecision, Rules, Verdict};
use askfirst_core::tools::Workspace;
use askfirst_protocol::{AgentEvent, Decision, PolicyLayer, Risk, RunStatus, ToolCallStatus};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// A run over a workspace that the MCP servers made by `servers` also work in.
fn mcp_harness(
    servers: impl FnOnce(&Path) -> Vec<McpServerConfig>,
    scenario: impl FnOnce(&Path) -> serde_json::Value,
) -> (Harness, Arc<McpClients>, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    // The filesystem server works with the real path (no symlinks on the way).
    let root = dir.path().canonicalize().unwrap();
    let clients = Arc::new(McpClients::new(servers(&root)));
    let h = harness_in(
        dir,
        scenario(&root),
        APPROVAL_TIMEOUT,
        Rules::default(),
        AnswerMode::Interactive,
        Some(Arc::clone(&clients)),
    );
    (h, clients, root)
}

fn finished(events: &[AgentEvent]) -> Vec<(String, ToolCallStatus, String)> {
    support::finished(events)
        .into_iter()
        .map(|call| (call.tool_call_id, call.status, call.output))
        .collect()
}

fn approvals_asked(events: &[AgentEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ApprovalRequired(r) => Some(r.tool_call_id.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_destructive_tool_asks_and_runs_once_approved() {
    if !npm_servers_ready("a_destructive_tool_asks_and_runs_once_approved") {
        return;
    }
    let (mut h, clients, root) = mcp_harness(
        |root| vec![filesystem("files", root, true)],
        |root| {
            json!({"turns": [
                {"say": "Writing.", "tool_calls": [{"id": "w", "name": "files__write_file",
                    "arguments": {"path": root.join("note.txt"), "content": "Hi\n"}}]},
                {"say": "Done."}
            ]})
        },
    );
    h.runtime.start_run("Write a note").unwrap();
    let request = h.events.approval_required().await;
    assert_eq!(
        (
            request.tool_name.as_str(),
            request.summary.as_str(),
            request.risk,
            request.policy_layer,
        ),
        (
            "files__write_file",
            "Use \"write_file\" from the MCP server \"files\" (the server calls it \"Write \
             File\")",
            Risk::High,
            PolicyLayer::ToolDefault,
        )
    );
    assert!(
        !root.join("note.txt").exists(),
        "nothing runs before the OK"
    );
    h.runtime
        .resolve_approval(request.approval_id, Decision::Approve)
        .unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert_eq!(
        std::fs::read_to_string(root.join("note.txt")).unwrap(),
        "Hi\n"
    );
    let results = finished(&h.events.all());
    assert_eq!(results.len(), 1);
    assert_eq!(
        (results[0].0.as_str(), results[0].1),
        ("w", ToolCallStatus::Succeeded)
    );
    clients.shutdown().await;
}

#[tokio::test]
async fn a_read_only_tool_runs_without_asking_only_for_a_trusted_server() {
    if !npm_servers_ready("a_read_only_tool_runs_without_asking_only_for_a_trusted_server") {
        return;
    }
    let (mut h, clients, root) = mcp_harness(
        |root| {
            vec![
                filesystem("trusted", root, true),
                filesystem("untrusted", root, false),
            ]
        },
        |root| {
            let path = root.join("plan.txt");
            json!({"turns": [
                {"say": "Reading.", "tool_calls": [
                    {"id": "t", "name": "trusted__read_text_file", "arguments": {"path": path}},
                    {"id": "u", "name": "untrusted__read_text_file", "arguments": {"path": path}}
                ]},
                {"say": "Done."}
            ]})
        },
    );
    std::fs::write(root.join("plan.txt"), "step one\n").unwrap();
    h.runtime.start_run("Read the plan").unwrap();
    let request = h.events.approval_required().await;
    assert_eq!(
        (
            request.tool_call_id.as_str(),
            request.tool_name.as_str(),
            request.risk,
            request.reason.as_str(),
        ),
        (
            "u",
            "untrusted__read_text_file",
            Risk::High,
            "This uses the MCP server \"untrusted\", which could change things or reach the \
             internet, so it needs your OK.",
        )
    );
    h.runtime
        .resolve_approval(request.approval_id, Decision::Approve)
        .unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    let events = h.events.all();
    assert_eq!(approvals_asked(&events), vec!["u".to_owned()]);
    assert_eq!(
        finished(&events),
        vec![
            ("t".into(), ToolCallStatus::Succeeded, "step one\n".into()),
            ("u".into(), ToolCallStatus::Succeeded, "step one\n".into()),
        ]
    );

    // The same verdicts straight from the policy, with the tools' own facts.
    let policy = Policy::new(Rules::default(), None);
    let tools = clients.tools().await;
    let ws = workspace(&root);
    let args = json!({"path": root.join("plan.txt")}).to_string();
    let decide = |name: &str| {
        let t = tool(&tools, name);
        let described = t.describe(&args, &ws).unwrap();
        policy
            .decide(&CallFacts {
                fingerprint: None,
                tool_name: name,
                read_only: t.read_only(),
                risk: described.risk,
                main_arguments: &t.main_arguments(&args, &ws),
                canonical_arguments: None,
                mcp_server: t.mcp_server(),
            })
            .decision
    };
    assert_eq!(decide("trusted__read_text_file"), PolicyDecision::Allow);
    assert!(matches!(
        decide("untrusted__read_text_file"),
        PolicyDecision::Ask { .. }
    ));
    assert!(matches!(
        decide("trusted__write_file"),
        PolicyDecision::Ask { .. }
    ));
    clients.shutdown().await;
}

#[tokio::test]
async fn killing_a_server_mid_run_fails_that_call_and_the_next_call_restarts_it() {
    if !npm_servers_ready("killing_a_server_mid_run_fails_that_call_and_the_next_call_restarts_it")
    {
        return;
    }
    let pid_dir = tempfile::tempdir().unwrap();
    let pid_file = pid_dir.path().join("server.pid");
    let pid_path = pid_file.clone();
    let (mut h, clients, _root) = mcp_harness(
        move |_| vec![everything_with_pid_file("everything", &pid_path)],
        |_| {
            json!({"turns": [
                {"say": "A long job.", "tool_calls": [{"id": "slow",
                    "name": "everything__trigger-long-running-operation",
                    "arguments": {"duration": 60, "steps": 2}}]},
                {"say": "Again.", "tool_calls": [{"id": "echo", "name": "everything__echo",
                    "arguments": {"message": "back"}}]},
                {"say": "Done."}
            ]})
        },
    );
    h.runtime.start_run("Do the long job").unwrap();
    h.events
        .next_matching(|e| match e {
            AgentEvent::ToolCallProposed { tool_call_id, .. } if tool_call_id == "slow" => Some(()),
            _ => None,
        })
        .await;
    let first_pid = read_pid(&pid_file);
    // Give the call a moment to reach the server, then end the server.
    tokio::time::sleep(Duration::from_secs(1)).await;
    kill(first_pid);

    let (_, status, message) = h.events.run_finished().await;
    assert_eq!((status, message), (RunStatus::Completed, None));
    let stopped = "The MCP server \"everything\" stopped while \
                   \"trigger-long-running-operation\" was running, so whether it did anything \
                   is unknown. It will be started again the next time one of its tools is needed.";
    assert_eq!(
        finished(&h.events.all()),
        vec![
            ("slow".into(), ToolCallStatus::Failed, stopped.into()),
            (
                "echo".into(),
                ToolCallStatus::Succeeded,
                "Echo: back".into()
            ),
        ]
    );
    assert_ne!(
        read_pid(&pid_file),
        first_pid,
        "a new server process answered"
    );
    assert!(matches!(
        server_status(&clients, "everything"),
        McpServerStatus::Running { .. }
    ));
    clients.shutdown().await;
}

#[tokio::test]
async fn a_call_to_a_server_that_is_not_working_says_why() {
    let (mut h, _clients, _root) = mcp_harness(
        |_| {
            vec![McpServerConfig {
                name: "bad".into(),
                command: "/nonexistent/askfirst-mcp-server".into(),
                args: vec![],
                env: BTreeMap::new(),
                trusted: false,
            }]
        },
        |_| {
            json!({"turns": [
                {"say": "Using it.", "tool_calls": [{"id": "x", "name": "bad__x", "arguments": {}}]},
                {"say": "Done."}
            ]})
        },
    );
    h.runtime.start_run("Use the server").unwrap();
    h.events.run_finished().await;
    let results = finished(&h.events.all());
    assert_eq!(results.len(), 1);
    let (_, status, output) = &results[0];
    assert_eq!(*status, ToolCallStatus::Failed);
    assert!(
        output.starts_with(
            "The tool \"bad__x\" cannot be used now. The MCP server \"bad\" could not be started"
        ),
        "{output}"
    );
}

/// What `policy` decides on the MCP tool `name` of `tools` called with `args` in `ws`.
fn policy_on(
    policy: &Policy,
    tools: &[Arc<dyn askfirst_core::tools::Tool>],
    ws: &Workspace,
    name: &str,
    args: &serde_json::Value,
) -> Verdict {
    let t = tool(tools, name);
    let raw = args.to_string();
    let described = t.describe(&raw, ws).unwrap();
    policy.decide(&CallFacts {
        fingerprint: None,
        tool_name: name,
        read_only: t.read_only(),
        risk: described.risk,
        main_arguments: &t.main_arguments(&raw, ws),
        canonical_arguments: None,
        mcp_server: t.mcp_server(),
    })
}

#[tokio::test]
async fn path_rules_and_own_files_hold_for_mcp_tools_whatever_the_argument_is_called() {
    if !npm_servers_ready(
        "path_rules_and_own_files_hold_for_mcp_tools_whatever_the_argument_is_called",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let ws_dir = root.join("ws");
    let data = root.join("data");
    std::fs::create_dir_all(ws_dir.join("Private")).unwrap();
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(ws_dir.join("Private/diary.txt"), "dear diary").unwrap();
    std::fs::write(ws_dir.join("plan.txt"), "step one").unwrap();
    std::fs::write(data.join("settings.json"), "{\"api_key\": \"sk-x\"}").unwrap();
    // A trusted server that may read the whole temporary folder, the data folder included.
    let clients = McpClients::new(vec![filesystem("files", &root, true)]);
    let tools = clients.tools().await;
    let ws = Workspace::open(&ws_dir).unwrap().with_own_data(&data);
    let policy = Policy::new(
        Rules::parse(
            "[[deny]]\ntool = \"*\"\nmatch = \"Private/**\"\n",
            Path::new("rules.toml"),
        ),
        Some((data.as_path(), ws_dir.as_path())),
    );
    let decide = |name: &str, args: serde_json::Value| {
        let v = policy_on(&policy, &tools, &ws, name, &args);
        (v.decision, v.layer)
    };
    let diary = ws_dir.join("Private/diary.txt");
    let refused_by_rule = [
        json!({"path": diary}),
        json!({"path": format!("file://{}", diary.display())}),
        json!({"path": ws_dir.join("Private/../Private/diary.txt")}),
        json!({"path": ws_dir.join("Private")}),
    ];
    for args in refused_by_rule {
        let v = decide("files__read_text_file", args.clone());
        assert!(
            matches!(v, (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)),
            "{args}: {v:?}"
        );
    }
    let v = decide(
        "files__read_multiple_files",
        json!({"paths": [ws_dir.join("plan.txt"), diary]}),
    );
    assert!(
        matches!(v, (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)),
        "{v:?}"
    );
    for args in [
        json!({"path": data.join("settings.json")}),
        json!({"path": format!("file://{}", data.join("settings.json").display())}),
        json!({"path": data}),
    ] {
        let v = decide("files__read_text_file", args.clone());
        assert!(
            matches!(v, (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)),
            "{args}: {v:?}"
        );
    }
    // Found by a second attacker: spellings the server reads as the same file.
    let padded = format!(
        "{}/{}Private/diary.txt",
        ws_dir.display(),
        "./".repeat(2100)
    );
    let padded_key = format!("{}/{}data/settings.json", root.display(), "./".repeat(2100));
    for (args, layer) in [
        (json!({"path": padded}), PolicyLayer::UserRule),
        (json!({"path": padded_key}), PolicyLayer::HardDenial),
        // Relative to the server's own folder (`root`), not to the workspace.
        (
            json!({"path": "ws/Private/diary.txt"}),
            PolicyLayer::UserRule,
        ),
        (
            json!({"path": "data/settings.json"}),
            PolicyLayer::HardDenial,
        ),
    ] {
        let v = decide("files__read_text_file", args.clone());
        assert!(
            matches!(&v, (PolicyDecision::Deny { .. }, l) if *l == layer),
            "{v:?}"
        );
    }
    // More texts than are checked: refused, whichever of them names what.
    let mut many = vec![json!(data.join("settings.json"))];
    many.extend(std::iter::repeat_n(json!(ws_dir.join("plan.txt")), 1999));
    let v = decide("files__read_multiple_files", json!({ "paths": many }));
    assert!(
        matches!(v, (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)),
        "{v:?}"
    );
    // What no rule is about still runs as before.
    assert_eq!(
        decide(
            "files__read_text_file",
            json!({"path": ws_dir.join("plan.txt")})
        )
        .0,
        PolicyDecision::Allow
    );
    clients.shutdown().await;
}

#[tokio::test]
async fn an_mcp_tool_given_a_folder_that_holds_a_forbidden_one_is_refused() {
    // An MCP server runs outside our sandbox: moving `Box` moves `Box/Keep` along.
    if !npm_servers_ready("an_mcp_tool_given_a_folder_that_holds_a_forbidden_one_is_refused") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let ws_dir = root.join("ws");
    let data = root.join("data");
    std::fs::create_dir_all(ws_dir.join("Box/Keep")).unwrap();
    std::fs::create_dir_all(ws_dir.join("Other")).unwrap();
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(ws_dir.join("Box/Keep/pin.txt"), "4711").unwrap();
    let clients = McpClients::new(vec![filesystem("files", &ws_dir, false)]);
    let tools = clients.tools().await;
    let ws = Workspace::open(&ws_dir).unwrap().with_own_data(&data);
    let policy = Policy::new(
        Rules::parse(
            "[[deny]]\ntool = \"*\"\nmatch = \"Box/Keep/**\"\n",
            Path::new("rules.toml"),
        ),
        Some((data.as_path(), ws_dir.as_path())),
    );
    let decide =
        |name: &str, args: serde_json::Value| policy_on(&policy, &tools, &ws, name, &args).layer;
    let moved = decide(
        "files__move_file",
        json!({"source": ws_dir.join("Box"), "destination": ws_dir.join("Old")}),
    );
    assert_eq!(moved, PolicyLayer::UserRule);
    let moved_other = decide(
        "files__move_file",
        json!({"source": ws_dir.join("Other"), "destination": ws_dir.join("Old")}),
    );
    assert_ne!(moved_other, PolicyLayer::UserRule);
}
