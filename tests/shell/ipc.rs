//! `resolve_approval` and friends through the real IPC path of a mock window.

use askfirst_core::app::catalog::ProviderChoice;
use askfirst_core::app::{App, AppConfig, Environment};
use askfirst_protocol::{
    AgentEvent, ApprovalRequest, ApprovalResolvedEvent, ApprovalScope, ApprovalSource,
    CommandError, ErrorCode, Outcome, SequencedEvent, StartRunResponse,
};
use pretty_assertions::assert_eq;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{get_ipc_response, mock_builder, MockRuntime, INVOKE_KEY};
use tauri::webview::InvokeRequest;
use tauri::WebviewWindow;

struct Fixture {
    _dir: tempfile::TempDir,
    workspace: std::path::PathBuf,
    _app: tauri::App<MockRuntime>,
    window: WebviewWindow<MockRuntime>,
}

fn fixture() -> Fixture {
    fixture_with(json!([
        {"say": "Writing.", "tool_calls": [
            {"name": "write_file", "arguments": {"path": "hello.txt", "content": "hi\n"}}
        ]},
        {"say": "Done."}
    ]))
}

/// A mock window on a backend whose scripted model plays `turns`.
fn fixture_with(turns: Value) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().join("workspace");
    std::fs::create_dir_all(&workspace).unwrap();
    let scenario = dir.path().join("scenario.json");
    std::fs::write(&scenario, json!({ "turns": turns }).to_string()).unwrap();
    let config = AppConfig {
        data_dir: dir.path().join("data"),
        workspace: workspace.clone(),
        workspace_is_demo: false,
        provider: ProviderChoice::Scripted(scenario),
        provider_fixed: true,
        approval_timeout: Duration::from_secs(120),
        autostart_task: None,
        notify_when: askfirst_protocol::NotifyWhen::Unfocused,
        undo_cap_bytes: askfirst_core::undo::DEFAULT_UNDO_CAP_BYTES,
        env: Environment::fixed(Default::default()),
    };
    let handle = tauri::async_runtime::block_on(async { tokio::runtime::Handle::current() });
    let (backend, events) = App::build(config, handle).unwrap();
    // The real config and capabilities, so the ACL is the one the app ships with.
    let app = askfirst_lib::build_app(
        mock_builder(),
        std::sync::Arc::new(backend),
        events,
        tauri::generate_context!(),
    )
    .unwrap();
    let window = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .unwrap();
    Fixture {
        _dir: dir,
        workspace,
        _app: app,
        window,
    }
}

fn invoke(window: &WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Result<Value, Value> {
    get_ipc_response(
        window,
        InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        },
    )
    .map(|body| body.deserialize::<Value>().unwrap())
}

/// The `approval_resolved` events the window takes with `wait_run_events` (its long poll),
/// asked from the first: answered at once once there is any event.
fn resolved_events(window: &WebviewWindow<MockRuntime>) -> Vec<ApprovalResolvedEvent> {
    let page = invoke(window, "wait_run_events", json!({"request": {"next": 0}})).unwrap();
    let events: Vec<SequencedEvent> = serde_json::from_value(page["events"].clone()).unwrap();
    events
        .into_iter()
        .filter_map(|e| match e.event {
            AgentEvent::ApprovalResolved(resolved) => Some(resolved),
            _ => None,
        })
        .collect()
}

fn wait_until<T>(what: &str, mut poll: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(found) = poll() {
            return found;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn resolve_approval_through_ipc_emits_approval_resolved() {
    let f = fixture();
    let started: StartRunResponse = serde_json::from_value(
        invoke(
            &f.window,
            "start_run",
            json!({"request": {"task": "write hello"}}),
        )
        .unwrap(),
    )
    .unwrap();

    let request: ApprovalRequest = wait_until("the approval", || {
        let listed = invoke(&f.window, "list_pending_approvals", json!({})).unwrap();
        serde_json::from_value::<Vec<ApprovalRequest>>(listed)
            .unwrap()
            .into_iter()
            .next()
    });
    assert_eq!(request.run_id, started.run_id);
    assert_eq!(request.summary, "Create the file hello.txt (1 line)");

    let answer =
        json!({"request": {"approval_id": request.approval_id, "decision": {"kind": "approve"}}});
    let outcome: Outcome =
        serde_json::from_value(invoke(&f.window, "resolve_approval", answer.clone()).unwrap())
            .unwrap();
    let approved = Outcome::Approved {
        scope: ApprovalScope::Once,
        source: ApprovalSource::User,
    };
    assert_eq!(outcome, approved);

    // Where the history ends, at once: where a window that starts listening takes up.
    let start = invoke(
        &f.window,
        "wait_run_events",
        json!({"request": {"next": null}}),
    )
    .unwrap();
    assert_eq!(start["events"], json!([]));
    assert!(start["next"].as_u64().unwrap() > 0, "{start}");
    let event = wait_until("approval-resolved", || {
        resolved_events(&f.window).first().cloned()
    });
    assert_eq!(
        event,
        ApprovalResolvedEvent {
            approval_id: request.approval_id,
            run_id: request.run_id,
            tool_call_id: request.tool_call_id.clone(),
            outcome: approved,
        }
    );
    wait_until("hello.txt", || {
        std::fs::read_to_string(f.workspace.join("hello.txt")).ok()
    });
    assert_eq!(
        std::fs::read_to_string(f.workspace.join("hello.txt")).unwrap(),
        "hi\n"
    );

    // A second answer is a typed error and changes nothing.
    let error: CommandError =
        serde_json::from_value(invoke(&f.window, "resolve_approval", answer).unwrap_err()).unwrap();
    assert_eq!(error.code, ErrorCode::NotPending);
    assert_eq!(resolved_events(&f.window).len(), 1);

    // The history has the whole run, numbered without gaps.
    let history: Vec<SequencedEvent> = wait_until("the run to finish", || {
        let events: Vec<SequencedEvent> =
            serde_json::from_value(invoke(&f.window, "list_run_events", json!({})).unwrap())
                .unwrap();
        events
            .iter()
            .any(|e| matches!(e.event, askfirst_protocol::AgentEvent::RunFinished { .. }))
            .then_some(events)
    });
    let seqs: Vec<u64> = history.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (0..history.len() as u64).collect::<Vec<_>>());

    // Activity lists the change, through the app's real capabilities.
    let entries: Vec<askfirst_protocol::ActivityEntry> = wait_until("the activity", || {
        let listed: Vec<askfirst_protocol::ActivityEntry> =
            serde_json::from_value(invoke(&f.window, "list_activity", json!({})).unwrap()).unwrap();
        (!listed.is_empty()).then_some(listed)
    });
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].summary, "Create the file hello.txt (1 line)");
    assert_eq!(entries[0].state, askfirst_protocol::ActivityState::Done);
    let unknown = json!({"request": {
        "session_id": entries[0].session_id, "id": "no-such-change", "confirmed": false}});
    let error: CommandError =
        serde_json::from_value(invoke(&f.window, "undo_change", unknown).unwrap_err()).unwrap();
    assert_eq!(error.code, ErrorCode::InvalidRequest);
    let task = json!({"request": {
        "session_id": entries[0].session_id, "run_id": uuid::Uuid::new_v4(), "confirmed": false}});
    let error: CommandError =
        serde_json::from_value(invoke(&f.window, "undo_task", task).unwrap_err()).unwrap();
    assert_eq!(error.code, ErrorCode::InvalidRequest);
}

#[test]
fn bad_requests_get_typed_errors() {
    let f = fixture();
    let error: CommandError = serde_json::from_value(
        invoke(&f.window, "start_run", json!({"request": {"task": "  "}})).unwrap_err(),
    )
    .unwrap();
    assert_eq!(error.code, ErrorCode::InvalidRequest);
    let unknown = uuid::Uuid::new_v4();
    let error: CommandError = serde_json::from_value(
        invoke(
            &f.window,
            "resolve_approval",
            json!({"request": {"approval_id": unknown, "decision": {"kind": "approve"}}}),
        )
        .unwrap_err(),
    )
    .unwrap();
    assert_eq!(error.code, ErrorCode::NotPending);
    assert_eq!(
        invoke(&f.window, "list_grants", json!({})).unwrap(),
        json!([])
    );
    let revoke = json!({"request": {"tool_name": "write_file", "canonical_arguments": "{}"}});
    assert_eq!(
        invoke(&f.window, "revoke_grant", revoke).unwrap(),
        json!(false)
    );
    // Stopping a run that does not exist is a quiet no-op.
    assert_eq!(
        invoke(
            &f.window,
            "cancel_run",
            json!({"request": {"run_id": unknown}})
        )
        .unwrap(),
        json!(false)
    );
}

#[test]
fn mcp_servers_are_added_edited_and_removed_through_ipc() {
    let f = fixture();
    let settings_file = f._dir.path().join("data").join("settings.json");
    let save = |request: Value| invoke(&f.window, "save_mcp_server", json!({ "request": request }));
    let view = save(json!({
        "name": "files",
        "command_line": "npx -y @modelcontextprotocol/server-filesystem '/home/me/My files'",
        "env": [{"name": "TOKEN", "value": "s3cret-token"}],
        "trusted": false
    }))
    .unwrap();
    let servers = view["mcp_servers"].as_array().unwrap();
    assert_eq!(servers.len(), 1);
    assert_eq!(servers[0]["name"], "files");
    assert_eq!(
        servers[0]["command_line"],
        "npx -y @modelcontextprotocol/server-filesystem '/home/me/My files'"
    );
    assert_eq!(servers[0]["env_names"], json!(["TOKEN"]));
    assert_eq!(servers[0]["state"], "not_started");
    // The value reaches the file but never the window.
    assert!(!view.to_string().contains("s3cret-token"));
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings_file).unwrap()).unwrap();
    assert_eq!(
        saved["mcp_servers"][0],
        json!({"name": "files", "command": "npx",
               "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/My files"],
               "env": {"TOKEN": "s3cret-token"}, "trusted": false})
    );

    // Edit: rename, trust, keep the saved value, add another.
    let view = save(json!({
        "previous_name": "files",
        "name": "docs",
        "command_line": "npx -y @modelcontextprotocol/server-filesystem /tmp",
        "env": [{"name": "TOKEN"}, {"name": "OTHER", "value": "2"}],
        "trusted": true
    }))
    .unwrap();
    assert_eq!(view["mcp_servers"][0]["name"], "docs");
    assert_eq!(view["mcp_servers"][0]["trusted"], true);
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings_file).unwrap()).unwrap();
    assert_eq!(
        saved["mcp_servers"][0]["env"],
        json!({"OTHER": "2", "TOKEN": "s3cret-token"})
    );
    assert_eq!(saved["mcp_servers"].as_array().unwrap().len(), 1);

    // Bad requests are refused with a sentence and change nothing.
    let before = std::fs::read_to_string(&settings_file).unwrap();
    for bad in [
        json!({"name": "", "command_line": "x", "env": [], "trusted": false}),
        json!({"name": "a b", "command_line": "x", "env": [], "trusted": false}),
        json!({"name": "DOCS", "command_line": "x", "env": [], "trusted": false}),
        json!({"name": "ok", "command_line": "  ", "env": [], "trusted": false}),
        json!({"name": "ok", "command_line": "npx 'unclosed", "env": [], "trusted": false}),
        json!({"name": "ok", "command_line": "x", "env": [{"name": "1X", "value": "v"}], "trusted": false}),
        json!({"name": "ok", "command_line": "x", "env": [{"name": "NEW"}], "trusted": false}),
        json!({"previous_name": "gone", "name": "ok", "command_line": "x", "env": [], "trusted": false}),
    ] {
        let error: CommandError = serde_json::from_value(save(bad.clone()).unwrap_err()).unwrap();
        assert_eq!(error.code, ErrorCode::InvalidRequest, "{bad}");
        assert!(!error.message.is_empty());
    }
    assert_eq!(std::fs::read_to_string(&settings_file).unwrap(), before);

    let error: CommandError = serde_json::from_value(
        invoke(
            &f.window,
            "remove_mcp_server",
            json!({"request": {"name": "nope"}}),
        )
        .unwrap_err(),
    )
    .unwrap();
    assert_eq!(error.code, ErrorCode::InvalidRequest);
    let view = invoke(
        &f.window,
        "remove_mcp_server",
        json!({"request": {"name": "docs"}}),
    )
    .unwrap();
    assert_eq!(view["mcp_servers"], json!([]));
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings_file).unwrap()).unwrap();
    assert!(saved.get("mcp_servers").is_none());
}

#[test]
fn a_run_going_makes_starting_and_switching_sessions_busy() {
    let f = fixture();
    invoke(
        &f.window,
        "start_run",
        json!({"request": {"task": "write hello"}}),
    )
    .unwrap();
    let request: ApprovalRequest = wait_until("the approval", || {
        let listed = invoke(&f.window, "list_pending_approvals", json!({})).unwrap();
        serde_json::from_value::<Vec<ApprovalRequest>>(listed)
            .unwrap()
            .into_iter()
            .next()
    });
    let code = |result: Result<Value, Value>| {
        serde_json::from_value::<CommandError>(result.unwrap_err())
            .unwrap()
            .code
    };
    assert_eq!(
        code(invoke(&f.window, "new_session", json!({}))),
        ErrorCode::Busy
    );
    assert_eq!(
        code(invoke(
            &f.window,
            "start_run",
            json!({"request": {"task": "again"}})
        )),
        ErrorCode::Busy
    );
    let session = json!({"request": {"session_id": uuid::Uuid::new_v4()}});
    assert_eq!(
        code(invoke(&f.window, "open_session", session)),
        ErrorCode::Busy
    );
    // The run goes on undisturbed: the card is still there to answer.
    let answer =
        json!({"request": {"approval_id": request.approval_id, "decision": {"kind": "approve"}}});
    invoke(&f.window, "resolve_approval", answer).unwrap();
}

/// Every event of the session from the first, page by page, as the window's long poll takes them,
/// up to the end of the run.
fn events_to_the_end_of_the_run(window: &WebviewWindow<MockRuntime>) -> Vec<SequencedEvent> {
    let mut events: Vec<SequencedEvent> = Vec::new();
    let mut next = 0;
    wait_until("the run to finish", || {
        let page = invoke(
            window,
            "wait_run_events",
            json!({"request": {"next": next}}),
        )
        .unwrap();
        next = page["next"].as_u64().unwrap();
        events
            .extend(serde_json::from_value::<Vec<SequencedEvent>>(page["events"].clone()).unwrap());
        events
            .iter()
            .any(|e| matches!(e.event, AgentEvent::RunFinished { .. }))
            .then_some(())
    });
    events
}

#[test]
fn a_session_longer_than_the_history_holds_in_memory_comes_back_whole_on_a_reload() {
    // 20 reads of a 30 kB file: ~600 kB of events, over the ~256 KiB the core holds in memory,
    // so a reloading window gets most of them back from the spool.
    let reads: Vec<Value> = (0..20)
        .map(|_| json!({"tool_calls": [{"name": "read_file", "arguments": {"path": "big.txt"}}]}))
        .chain([json!({"say": "Read."})])
        .collect();
    let f = fixture_with(Value::Array(reads));
    let line = "a line of the big file, read twenty times over\n";
    std::fs::write(
        f.workspace.join("big.txt"),
        line.repeat(30_000 / line.len()),
    )
    .unwrap();
    invoke(
        &f.window,
        "start_run",
        json!({"request": {"task": "read it"}}),
    )
    .unwrap();
    let live = events_to_the_end_of_the_run(&f.window);
    let finished = live
        .iter()
        .filter(|e| matches!(e.event, AgentEvent::ToolCallFinished { .. }))
        .count();
    assert_eq!(finished, 20);
    let bytes: usize = live
        .iter()
        .map(|e| serde_json::to_string(e).unwrap().len())
        .sum();
    assert!(
        bytes > 2 * askfirst_core::history::HELD_BYTES,
        "{bytes} bytes of events"
    );
    // What a reloading window reads is the same list, and so is a long poll from the start.
    let listed: Vec<SequencedEvent> =
        serde_json::from_value(invoke(&f.window, "list_run_events", json!({})).unwrap()).unwrap();
    assert_eq!(listed, live);
    assert_eq!(events_to_the_end_of_the_run(&f.window), live);
}

#[test]
fn rules_are_listed_added_and_changed_through_ipc_with_plain_refusals() {
    let f = fixture();
    std::fs::create_dir_all(f.workspace.join("Private")).unwrap();
    let listed = invoke(&f.window, "list_rules", json!({})).unwrap();
    assert_eq!(listed["rules"], json!([]));
    assert!(listed["actions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["tool"] == "write_file" && a["label"] == "Writing files (new or replaced)"));
    assert_eq!(listed["folders"], json!(["Private"]));
    let choice = |folder: &str| json!({"effect": "never", "tool": "*", "scope": {"kind": "folder", "folder": folder}});
    let refused: CommandError = serde_json::from_value(
        invoke(
            &f.window,
            "add_rule",
            json!({"request": {"choice": choice("../elsewhere")}}),
        )
        .unwrap_err(),
    )
    .unwrap();
    assert_eq!(refused.code, ErrorCode::InvalidRequest);
    assert_eq!(
        refused.message,
        "Write the folder as it is inside your folder, like Private or Photos/2024 (without “..”)."
    );
    let added = invoke(
        &f.window,
        "add_rule",
        json!({"request": {"choice": choice("Private")}}),
    )
    .unwrap();
    assert_eq!(
        added["rules"][0]["sentence"],
        "Never touch anything in Private"
    );
    assert_eq!(added["rules"][0]["choice"], choice("Private"));
    let changed = invoke(
        &f.window,
        "change_rule",
        json!({"request": {"rule": "deny * \"Private/**\"", "choice": {
            "effect": "ask", "tool": "write_file", "scope": {"kind": "everywhere"}}}}),
    )
    .unwrap();
    assert_eq!(
        changed["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["sentence"].clone())
            .collect::<Vec<_>>(),
        vec![json!("Ask before writing files")]
    );
}

#[test]
fn test_connection_and_the_ollama_finder_answer_through_ipc() {
    let f = fixture();
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let request = |provider: &str| {
        json!({"request": {"provider": provider, "base_url": format!("http://127.0.0.1:{port}/v1"),
                           "model": "", "clear_api_key": false}})
    };
    let result = invoke(&f.window, "test_connection", request("openai")).unwrap();
    assert_eq!(result["outcome"], json!("nothing_answers"), "{result}");
    assert_eq!(
        result["sentence"],
        json!(format!(
            "Nothing answers at 127.0.0.1:{port}. Check the address, and that the service is \
             running."
        ))
    );
    let demo = invoke(&f.window, "test_connection", request("demo")).unwrap();
    assert_eq!(demo["outcome"], json!("no_service_needed"));
    let local = invoke(
        &f.window,
        "find_local_models",
        json!({"request": {"base_url": format!("http://127.0.0.1:{port}/v1")}}),
    )
    .unwrap();
    assert_eq!(
        (&local["running"], &local["models"]),
        (&json!(false), &json!([]))
    );
}
