//! MCP servers against real ones from npm (`tests/mcp`, installed with `npm ci` there):
//! `@modelcontextprotocol/server-everything` and `@modelcontextprotocol/server-filesystem`.
//! Unix only: some servers are started through `sh` and ended with a signal. Here: the test
//! servers and helpers, and the tools as listed and called; `mcp_supervision`: starting,
//! stopping and restarting servers; `mcp_runs`: MCP tools in the agent's runs.

#![cfg(unix)]

use askfirst_core::mcp::{
    McpClients, McpHints, McpServerConfig, McpServerState, McpServerStatus, McpToolInfo,
};
use askfirst_core::tools::{Tool, ToolError, Workspace};
use askfirst_protocol::Risk;
use pretty_assertions::assert_eq;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

pub const APPROVAL_TIMEOUT: Duration = Duration::from_secs(120);

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

pub fn everything(name: &str, trusted: bool) -> McpServerConfig {
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
pub fn everything_with_pid_file(name: &str, pid_file: &Path) -> McpServerConfig {
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

pub fn tool(tools: &[Arc<dyn Tool>], name: &str) -> Arc<dyn Tool> {
    let found = tools.iter().find(|t| t.name() == name).cloned();
    found.unwrap_or_else(|| {
        let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
        panic!("no tool {name}; the tools are {names:?}")
    })
}

pub fn listed(clients: &McpClients, server: &str, name: &str) -> McpToolInfo {
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

pub fn server_status(clients: &McpClients, server: &str) -> McpServerStatus {
    clients
        .statuses()
        .into_iter()
        .find(|s| s.name == server)
        .unwrap()
        .status
}

pub fn workspace(dir: &Path) -> Workspace {
    Workspace::open(dir).unwrap()
}

pub fn read_pid(pid_file: &Path) -> i32 {
    std::fs::read_to_string(pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

pub fn kill(pid: i32) {
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
    let said = "MCP error -32602: Input validation error: Invalid arguments for tool get-sum: \
                Invalid input: expected number, received string at a";
    assert_eq!(
        tool(&tools, "everything__get-sum")
            .execute(r#"{"a": "one", "b": 2}"#, &ws)
            .await,
        Err(ToolError::Said {
            model: format!(
                "The tool \"get-sum\" of the MCP server \"everything\" reported an error: {said}"
            ),
            person: format!(
                "The tool \"get-sum\" of the MCP server \"everything\" reported an error: {said}"
            ),
        })
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
