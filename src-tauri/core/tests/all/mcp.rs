//! MCP servers against real ones from npm (`tests/mcp`, installed with `npm ci` there):
//! `@modelcontextprotocol/server-everything` and `@modelcontextprotocol/server-filesystem`.
//! Unix only: some servers are started through `sh` and ended with a signal.

#![cfg(unix)]

use super::support::{harness_in, Harness};
use askfirst_core::approvals::AnswerMode;
use askfirst_core::config::SettingsFile;
use askfirst_core::mcp::{
    McpClients, McpHints, McpServerConfig, McpServerState, McpServerStatus, McpTimeouts,
    McpToolInfo,
};
use askfirst_core::policy::{CallFacts, Policy, PolicyDecision, Rules};
use askfirst_core::tools::{Tool, ToolError, Workspace};
use askfirst_protocol::{AgentEvent, Decision, PolicyLayer, Risk, RunStatus, ToolCallStatus};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

const APPROVAL_TIMEOUT: Duration = Duration::from_secs(120);

/// The folder of the npm test servers.
fn servers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/mcp")
}

/// The npm programs the tests start.
const SERVER_PROGRAMS: [&str; 2] = ["mcp-server-everything", "mcp-server-filesystem"];

/// Set (to anything but `0`) where a missing npm test server must fail the tests instead of
/// skipping them: `make test` sets it, after installing them.
const REQUIRE_MCP_TESTS: &str = "ASKFIRST_REQUIRE_MCP_TESTS";

/// Why the npm test servers cannot run here, or `None` when they can: `node` must be on `PATH`
/// (the programs are Node scripts) and `tests/mcp/node_modules` installed.
fn npm_servers_missing() -> Option<String> {
    let node_found = std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            std::fs::metadata(dir.join("node")).is_ok_and(|m| {
                use std::os::unix::fs::PermissionsExt;
                m.is_file() && m.permissions().mode() & 0o111 != 0
            })
        })
    });
    if !node_found {
        return Some("Node.js (`node`) is not on PATH".to_owned());
    }
    let bin = servers_dir().join("node_modules/.bin");
    SERVER_PROGRAMS
        .iter()
        .map(|program| bin.join(program))
        .find(|program| !program.exists())
        .map(|program| {
            format!(
                "{} is missing (run `npm ci --prefix tests/mcp` from the repository root)",
                program.display()
            )
        })
}

/// Whether the test `test`, which starts the npm test servers, can run. When they cannot, it
/// says so on stderr (past the test harness's capture, so a plain `cargo test` shows it) and
/// the test is skipped, unless [`REQUIRE_MCP_TESTS`] is set: then the test fails.
pub fn npm_servers_ready(test: &str) -> bool {
    let Some(why) = npm_servers_missing() else {
        return true;
    };
    let required = std::env::var_os(REQUIRE_MCP_TESTS).is_some_and(|v| v != "0");
    assert!(
        !required,
        "{test} needs the MCP test servers, and {REQUIRE_MCP_TESTS} is set: {why}."
    );
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: {why}; the test needs the MCP test servers from npm (`make test` \
         installs them; set {REQUIRE_MCP_TESTS}=1 to fail instead of skipping)."
    );
    false
}

/// The program `bin` of the test servers (after [`npm_servers_ready`]).
pub fn server_program(bin: &str) -> String {
    let dir = servers_dir();
    let program = dir.join("node_modules/.bin").join(bin);
    assert!(
        program.exists(),
        "The MCP test servers are not installed ({} is missing). Run `npm ci` in {} first \
         (from the repository root: `npm ci --prefix tests/mcp`).",
        program.display(),
        dir.display()
    );
    program.to_string_lossy().into_owned()
}

fn everything(name: &str, trusted: bool) -> McpServerConfig {
    McpServerConfig {
        name: name.to_owned(),
        command: server_program("mcp-server-everything"),
        args: vec!["stdio".to_owned()],
        env: BTreeMap::new(),
        trusted,
    }
}

pub fn filesystem(name: &str, dir: &Path, trusted: bool) -> McpServerConfig {
    McpServerConfig {
        name: name.to_owned(),
        command: server_program("mcp-server-filesystem"),
        args: vec![dir.to_string_lossy().into_owned()],
        env: BTreeMap::new(),
        trusted,
    }
}

/// A server started through a shell that first writes its process id to `pid_file`.
fn everything_with_pid_file(name: &str, pid_file: &Path) -> McpServerConfig {
    McpServerConfig {
        name: name.to_owned(),
        command: "sh".to_owned(),
        args: vec![
            "-c".to_owned(),
            "echo $$ > \"$1\"; exec \"$2\" stdio".to_owned(),
            "sh".to_owned(),
            pid_file.to_string_lossy().into_owned(),
            server_program("mcp-server-everything"),
        ],
        env: BTreeMap::new(),
        trusted: true,
    }
}

fn tool(tools: &[Arc<dyn Tool>], name: &str) -> Arc<dyn Tool> {
    let found = tools.iter().find(|t| t.name() == name).cloned();
    found.unwrap_or_else(|| {
        let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
        panic!("no tool {name}; the tools are {names:?}")
    })
}

fn listed(clients: &McpClients, server: &str, name: &str) -> McpToolInfo {
    let state = clients
        .statuses()
        .into_iter()
        .find(|s| s.name == server)
        .unwrap();
    match state.status {
        McpServerStatus::Running { tools } => tools.into_iter().find(|t| t.name == name).unwrap(),
        other => panic!("{server} is not running: {other:?}"),
    }
}

fn server_status(clients: &McpClients, server: &str) -> McpServerStatus {
    clients
        .statuses()
        .into_iter()
        .find(|s| s.name == server)
        .unwrap()
        .status
}

fn workspace(dir: &Path) -> Workspace {
    Workspace::open(dir).unwrap()
}

fn read_pid(pid_file: &Path) -> i32 {
    std::fs::read_to_string(pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

fn kill(pid: i32) {
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
}

#[tokio::test]
async fn tools_are_listed_with_their_annotations_and_safe_names() {
    if !npm_servers_ready("tools_are_listed_with_their_annotations_and_safe_names") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clients = McpClients::new(vec![
        everything("everything", false),
        filesystem("my files", dir.path(), true),
    ]);
    assert_eq!(
        clients.statuses(),
        vec![
            McpServerState {
                name: "everything".into(),
                trusted: false,
                status: McpServerStatus::NotStarted,
            },
            McpServerState {
                name: "my files".into(),
                trusted: true,
                status: McpServerStatus::NotStarted,
            },
        ]
    );

    let tools = clients.tools().await;
    for t in &tools {
        assert!(
            !t.name().is_empty()
                && t.name().len() <= 64
                && t.name()
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
            "{}",
            t.name()
        );
        assert_eq!(t.parameters_schema()["type"], "object", "{}", t.name());
    }
    assert_eq!(
        listed(&clients, "my files", "my_files__write_file"),
        McpToolInfo {
            name: "my_files__write_file".into(),
            server_tool: "write_file".into(),
            hints: McpHints {
                title: Some("Write File".into()),
                read_only: Some(false),
                destructive: Some(true),
                idempotent: Some(true),
                open_world: Some(false),
            },
            read_only: false,
            risk: Risk::High,
        }
    );
    assert_eq!(
        listed(&clients, "my files", "my_files__read_text_file"),
        McpToolInfo {
            name: "my_files__read_text_file".into(),
            server_tool: "read_text_file".into(),
            hints: McpHints {
                title: Some("Read Text File".into()),
                read_only: Some(true),
                destructive: None,
                idempotent: None,
                open_world: Some(false),
            },
            read_only: true,
            risk: Risk::Low,
        }
    );
    // Read-only by its hints, but the server is not trusted: it asks, though it is not
    // destructive and stays in its own world.
    assert_eq!(
        listed(&clients, "everything", "everything__get-sum"),
        McpToolInfo {
            name: "everything__get-sum".into(),
            server_tool: "get-sum".into(),
            hints: McpHints {
                title: Some("Get Sum Tool".into()),
                read_only: Some(true),
                destructive: Some(false),
                idempotent: Some(true),
                open_world: Some(false),
            },
            read_only: false,
            risk: Risk::Medium,
        }
    );

    let ws = workspace(dir.path());
    let sum = tool(&tools, "everything__get-sum");
    assert_eq!(sum.description(), "Returns the sum of two numbers");
    assert!(!sum.read_only());
    let described = sum.describe(r#"{"a": 1, "b": 2}"#, &ws).unwrap();
    assert_eq!(
        (
            described.summary.as_str(),
            described.risk,
            described.preview
        ),
        (
            "Use \"get-sum\" from the MCP server \"everything\" (the server calls it \"Get Sum \
             Tool\")",
            Risk::Medium,
            None
        )
    );
    assert_eq!(
        sum.execute(r#"{"a": 1, "b": 2}"#, &ws).await,
        Ok("The sum of 1 and 2 is 3.".to_owned())
    );
    clients.shutdown().await;
}

#[tokio::test]
async fn arguments_that_could_mean_something_else_than_shown_are_refused() {
    if !npm_servers_ready("arguments_that_could_mean_something_else_than_shown_are_refused") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clients = McpClients::new(vec![everything("everything", false)]);
    let tools = clients.tools().await;
    let ws = workspace(dir.path());
    let sum = tool(&tools, "everything__get-sum");
    let invalid = |detail: &str| {
        Err(ToolError::InvalidArguments {
            tool: "everything__get-sum".into(),
            detail: detail.into(),
        })
    };
    assert_eq!(
        sum.describe("[1, 2]", &ws).map(|d| d.summary),
        invalid("they must be a JSON object, like {\"path\": \"notes.txt\"}")
    );
    assert_eq!(
        sum.describe(r#"{"a": 1, "a": 2, "b": 3}"#, &ws)
            .map(|d| d.summary),
        invalid("a key appears twice in the same object; give each key once")
    );
    assert_eq!(
        sum.execute(r#"{"a": 123456789012345678901234567890, "b": 1}"#, &ws)
            .await,
        invalid(
            "the number 123456789012345678901234567890 is too large to pass on exactly; write \
             it as a string if the tool accepts one"
        )
    );
    clients.shutdown().await;
}

#[tokio::test]
async fn a_failing_tool_gives_a_tool_error() {
    if !npm_servers_ready("a_failing_tool_gives_a_tool_error") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clients = McpClients::new(vec![everything("everything", true)]);
    let tools = clients.tools().await;
    let ws = workspace(dir.path());
    assert_eq!(
        tool(&tools, "everything__get-sum")
            .execute(r#"{"a": "one", "b": 2}"#, &ws)
            .await,
        Err(ToolError::Failed(
            "The tool \"get-sum\" of the MCP server \"everything\" reported an error: MCP error \
             -32602: Input validation error: Invalid arguments for tool get-sum: Invalid input: \
             expected number, received string at a"
                .into()
        ))
    );
    // The server is still there for the next call.
    assert_eq!(
        tool(&tools, "everything__echo")
            .execute(r#"{"message": "still here"}"#, &ws)
            .await,
        Ok("Echo: still here".to_owned())
    );
    clients.shutdown().await;
}

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
    events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ToolCallFinished {
                tool_call_id,
                status,
                output,
                ..
            } => Some((tool_call_id.clone(), *status, output.clone())),
            _ => None,
        })
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
async fn a_call_that_takes_too_long_stops_the_server_and_the_next_call_restarts_it() {
    if !npm_servers_ready(
        "a_call_that_takes_too_long_stops_the_server_and_the_next_call_restarts_it",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("server.pid");
    let clients = McpClients::with_timeouts(
        vec![everything_with_pid_file("everything", &pid_file)],
        McpTimeouts {
            start: Duration::from_secs(20),
            call: Duration::from_secs(1),
            retry_failed_start: Duration::ZERO,
        },
    );
    let tools = clients.tools().await;
    let ws = workspace(dir.path());
    let first_pid = read_pid(&pid_file);
    let slow = tool(&tools, "everything__trigger-long-running-operation")
        .execute(r#"{"duration": 30, "steps": 1}"#, &ws)
        .await;
    let message = "The MCP server \"everything\" did not answer within 1 second, so it was \
                   stopped; whether \"trigger-long-running-operation\" did anything is unknown. \
                   It will be started again the next time one of its tools is needed.";
    assert_eq!(
        slow,
        Err(ToolError::McpServer {
            server: "everything".into(),
            message: message.into(),
        })
    );
    assert_eq!(
        server_status(&clients, "everything"),
        McpServerStatus::Failed {
            message: message.into()
        }
    );
    assert_eq!(
        tool(&tools, "everything__echo")
            .execute(r#"{"message": "again"}"#, &ws)
            .await,
        Ok("Echo: again".to_owned())
    );
    assert_ne!(read_pid(&pid_file), first_pid);
    clients.shutdown().await;
}

#[tokio::test]
async fn a_server_that_cannot_start_is_left_out_with_its_reason() {
    let clients = McpClients::with_timeouts(
        vec![
            McpServerConfig {
                name: "quits".into(),
                command: "sh".into(),
                args: vec!["-c".into(), "echo 'missing API token' >&2; exit 3".into()],
                env: BTreeMap::new(),
                trusted: false,
            },
            McpServerConfig {
                name: "absent".into(),
                command: "/nonexistent/askfirst-mcp-server".into(),
                args: vec![],
                env: BTreeMap::new(),
                trusted: false,
            },
            McpServerConfig {
                name: "silent".into(),
                command: "sleep".into(),
                args: vec!["30".into()],
                env: BTreeMap::new(),
                trusted: false,
            },
            McpServerConfig {
                name: "quits".into(),
                command: "true".into(),
                args: vec![],
                env: BTreeMap::new(),
                trusted: false,
            },
        ],
        McpTimeouts {
            start: Duration::from_secs(1),
            call: Duration::from_secs(1),
            retry_failed_start: Duration::from_secs(3),
        },
    );
    assert!(clients.tools().await.is_empty());
    let tail = " Check its command in the settings; it will be tried again the next time it is \
                needed, after 3 seconds.";
    let failed = |name: &str, message: String| McpServerState {
        name: name.into(),
        trusted: false,
        status: McpServerStatus::Failed { message },
    };
    assert_eq!(
        clients.statuses(),
        vec![
            failed(
                "quits",
                format!(
                    "The MCP server \"quits\" could not be started: it stopped before it was \
                     ready. It said: \"missing API token\".{tail}"
                )
            ),
            failed(
                "absent",
                format!(
                    "The MCP server \"absent\" could not be started: the program \
                     \"/nonexistent/askfirst-mcp-server\" was not found.{tail}"
                )
            ),
            failed(
                "silent",
                format!(
                    "The MCP server \"silent\" could not be started: it did not finish \
                     starting within 1 second.{tail}"
                )
            ),
            failed(
                "quits",
                "Another MCP server in the settings has the same name as \"quits\" (or one \
                 that differs only in punctuation); give each its own name."
                    .into()
            ),
        ]
    );

    // Within the wait, a hanging server does not hold up the next task: no new start.
    let started = std::time::Instant::now();
    assert!(clients.tools().await.is_empty());
    assert!(
        started.elapsed() < Duration::from_millis(900),
        "the silent server was not waited for again"
    );
    let McpServerStatus::Failed { message } = server_status(&clients, "silent") else {
        panic!("still failed");
    };
    assert!(message.contains("within 1 second"), "{message}");
    // After it, the server is tried again.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let started = std::time::Instant::now();
    assert!(clients.tools().await.is_empty());
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "tried again, and waited for"
    );
}

#[test]
fn settings_list_mcp_servers_and_never_show_their_secrets() {
    let text = r#"{"mcp_servers": [{"name": "github", "command": "github-mcp",
        "env": {"GITHUB_TOKEN": "ghp_secret"}, "trusted": true}]}"#;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, text).unwrap();
    let file = SettingsFile::load(&path).unwrap();
    assert_eq!(
        file.mcp_servers,
        vec![McpServerConfig {
            name: "github".into(),
            command: "github-mcp".into(),
            args: vec![],
            env: BTreeMap::from([("GITHUB_TOKEN".to_owned(), "ghp_secret".to_owned())]),
            trusted: true,
        }]
    );
    let shown = format!("{file:?}");
    assert!(
        shown.contains("GITHUB_TOKEN") && !shown.contains("ghp_secret"),
        "{shown}"
    );
    assert_eq!(
        SettingsFile::load(&dir.path().join("none.json"))
            .unwrap()
            .mcp_servers,
        vec![]
    );
}

#[tokio::test]
async fn a_server_that_stops_between_runs_shows_it_and_starts_again_when_needed() {
    if !npm_servers_ready("a_server_that_stops_between_runs_shows_it_and_starts_again_when_needed")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("server.pid");
    let clients = McpClients::new(vec![everything_with_pid_file("everything", &pid_file)]);
    assert!(!clients.tools().await.is_empty());
    let first_pid = read_pid(&pid_file);
    kill(first_pid);
    let stopped = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let McpServerStatus::Failed { message } = server_status(&clients, "everything") {
                return message;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the status never said the server stopped");
    // What the server last wrote to stderr comes along: after a crash, usually why.
    assert_eq!(
        stopped,
        "The MCP server \"everything\" stopped. It said: \"Starting default (STDIO) \
         server...\". It will be started again the next time one of its tools is needed."
    );
    let tools = clients.tools().await;
    assert_eq!(
        tool(&tools, "everything__echo")
            .execute(r#"{"message": "hi"}"#, &workspace(dir.path()))
            .await,
        Ok("Echo: hi".to_owned())
    );
    assert_ne!(read_pid(&pid_file), first_pid);
    clients.shutdown().await;
}

#[tokio::test]
async fn reconfiguring_keeps_unchanged_servers_running_and_stops_the_others() {
    if !npm_servers_ready("reconfiguring_keeps_unchanged_servers_running_and_stops_the_others") {
        return;
    }
    let pid_dir = tempfile::tempdir().unwrap();
    let kept_pid = pid_dir.path().join("kept.pid");
    let changed_pid = pid_dir.path().join("changed.pid");
    let clients = McpClients::new(vec![
        everything_with_pid_file("kept", &kept_pid),
        everything_with_pid_file("changed", &changed_pid),
    ]);
    let old_tools = clients.tools().await;
    assert_eq!(old_tools.len() % 2, 0);
    let (kept_before, changed_before) = (read_pid(&kept_pid), read_pid(&changed_pid));

    let mut changed = everything_with_pid_file("changed", &changed_pid);
    changed.trusted = false;
    let (fresh, gone) = clients.reconfigured(vec![
        changed,
        everything_with_pid_file("kept", &kept_pid),
        everything("new", false),
    ]);
    // Settings order is the new one; the unchanged server is still running, as it was.
    let names: Vec<String> = fresh.statuses().into_iter().map(|s| s.name).collect();
    assert_eq!(names, ["changed", "kept", "new"]);
    assert!(matches!(
        server_status(&fresh, "kept"),
        McpServerStatus::Running { .. }
    ));
    assert_eq!(
        server_status(&fresh, "changed"),
        McpServerStatus::NotStarted
    );
    assert_eq!(server_status(&fresh, "new"), McpServerStatus::NotStarted);
    let gone_names: Vec<String> = gone.statuses().into_iter().map(|s| s.name).collect();
    assert_eq!(gone_names, ["changed"]);

    gone.shutdown().await;
    // A call of the changed server approved on an old card does not start it again.
    let dir = tempfile::tempdir().unwrap();
    let refused = tool(&old_tools, "changed__echo")
        .execute(r#"{"message": "hi"}"#, &workspace(dir.path()))
        .await;
    assert!(
        matches!(&refused, Err(ToolError::McpServer { message, .. }) if message.contains("removed or changed")),
        "{refused:?}"
    );
    let alive = |pid: i32| nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None).is_ok();
    assert!(
        !alive(changed_before),
        "the changed server's old process was stopped"
    );
    assert!(alive(kept_before), "the unchanged server kept its process");
    // The next listing starts the changed and the new server; the kept one is not restarted.
    assert!(!fresh.tools().await.is_empty());
    assert_eq!(read_pid(&kept_pid), kept_before);
    assert_ne!(read_pid(&changed_pid), changed_before);
    fresh.shutdown().await;
}

#[tokio::test]
async fn mcp_servers_get_a_small_environment_and_their_own_variables_only() {
    if !npm_servers_ready("mcp_servers_get_a_small_environment_and_their_own_variables_only") {
        return;
    }
    std::env::set_var("ANTHROPIC_API_KEY", "sk-ant-must-not-leak");
    std::env::set_var("ASKFIRST_DATA_DIR_FOR_TEST", "must-not-leak");
    let mut config = everything("everything", true);
    config
        .env
        .insert("SERVER_TOKEN".into(), "given-to-this-server".into());
    let clients = McpClients::new(vec![config]);
    let tools = clients.tools().await;
    let dir = tempfile::tempdir().unwrap();
    let output = tool(&tools, "everything__get-env")
        .execute("{}", &workspace(dir.path()))
        .await
        .unwrap();
    assert!(!output.contains("must-not-leak"), "{output}");
    assert!(output.contains("given-to-this-server"), "{output}");
    assert!(output.contains("PATH"), "{output}");
    clients.shutdown().await;
}

#[tokio::test]
async fn a_servers_own_secrets_are_hidden_in_what_it_said() {
    let mut env = BTreeMap::new();
    env.insert("API_TOKEN".to_owned(), "ghp_SUPERSECRET123".to_owned());
    let clients = McpClients::new(vec![McpServerConfig {
        name: "leaky".into(),
        command: "sh".into(),
        args: vec![
            "-c".into(),
            "echo \"login failed for token $API_TOKEN\" >&2; exit 1".into(),
        ],
        env,
        trusted: false,
    }]);
    assert!(clients.tools().await.is_empty());
    let McpServerStatus::Failed { message } = server_status(&clients, "leaky") else {
        panic!("failed");
    };
    assert!(!message.contains("SUPERSECRET"), "{message}");
    assert!(message.contains("login failed for token •••"), "{message}");
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
        let t = tool(&tools, name);
        let raw = args.to_string();
        let described = t.describe(&raw, &ws).unwrap();
        let v = policy.decide(&CallFacts {
            fingerprint: None,
            tool_name: name,
            read_only: t.read_only(),
            risk: described.risk,
            main_arguments: &t.main_arguments(&raw, &ws),
            canonical_arguments: None,
            mcp_server: t.mcp_server(),
        });
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
