//! MCP servers supervised: a server that cannot start, stops, hangs or is reconfigured, its
//! environment and what it said (see `mcp` for the test servers).

#![cfg(unix)]

use super::mcp::*;
use askfirst_core::config::SettingsFile;
use askfirst_core::mcp::{
    McpClients, McpServerConfig, McpServerState, McpServerStatus, McpTimeouts,
};
use askfirst_core::tools::ToolError;
use pretty_assertions::assert_eq;
use std::collections::BTreeMap;
use std::time::Duration;

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
            person: message.into(),
        })
    );
    assert_eq!(
        server_status(&clients, "everything"),
        McpServerStatus::Failed {
            message: message.into(),
            for_model: message.into(),
            detail: None,
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
        status: McpServerStatus::Failed {
            for_model: message.clone(),
            message,
            detail: None,
        },
    };
    // The system's own words are kept apart, for "Details": for a program not found, the OS's
    // error; for a timeout or a name clash, none (the sentence says all).
    let statuses = clients.statuses();
    let details: Vec<Option<String>> = statuses
        .iter()
        .map(|s| match &s.status {
            McpServerStatus::Failed { detail, .. } => detail.clone(),
            other => panic!("not failed: {other:?}"),
        })
        .collect();
    assert!(details[0].is_some(), "{details:?}");
    assert!(
        details[1]
            .as_deref()
            .is_some_and(|d| d.contains("os error 2")),
        "{details:?}"
    );
    assert_eq!((&details[2], &details[3]), (&None, &None));
    let without_details: Vec<McpServerState> = statuses
        .into_iter()
        .map(|mut s| {
            if let McpServerStatus::Failed { detail, .. } = &mut s.status {
                *detail = None;
            }
            s
        })
        .collect();
    assert_eq!(
        without_details,
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
    let McpServerStatus::Failed { message, .. } = server_status(&clients, "silent") else {
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
            if let McpServerStatus::Failed { message, .. } = server_status(&clients, "everything") {
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
    let McpServerStatus::Failed { message, .. } = server_status(&clients, "leaky") else {
        panic!("failed");
    };
    assert!(!message.contains("SUPERSECRET"), "{message}");
    assert!(message.contains("login failed for token •••"), "{message}");
}

/// A server's name is shown on one line, the characters that could hide or reorder it (here a
/// right-to-left override, a zero-width space and an isolate) as their codes and a line break
/// as a space, the same way the tray and notifications clean a card's summary.
#[test]
fn a_servers_name_is_shown_with_bidi_overrides_as_codes_on_one_line() {
    let config = |name: &str, command: &str| McpServerConfig {
        name: name.into(),
        command: command.into(),
        args: vec![],
        env: BTreeMap::new(),
        trusted: false,
    };
    let clients = McpClients::new(vec![
        config("evil\u{202E}txt.exe\nsecond line", ""),
        config("ok", "true"),
        config("o\u{200B}k\u{2066}", ""),
    ]);
    let messages: Vec<McpServerStatus> = clients.statuses().into_iter().map(|s| s.status).collect();
    assert_eq!(
        messages,
        vec![
            McpServerStatus::Failed {
                message: "The MCP server \"evil\\u202Etxt.exe second line\" has no command in the \
                          settings, so it cannot be started. Give it one in Settings (Edit)."
                    .into(),
                for_model: "The MCP server \"evil\\u202Etxt.exe second line\" has no command in \
                            the settings, so it cannot be started. Give it one in Settings \
                            (Edit)."
                    .into(),
                detail: None,
            },
            McpServerStatus::NotStarted,
            McpServerStatus::Failed {
                message: "The MCP server \"o\\u200Bk\\u2066\" has no command in the settings, so \
                          it cannot be started. Give it one in Settings (Edit)."
                    .into(),
                for_model: "The MCP server \"o\\u200Bk\\u2066\" has no command in the settings, \
                            so it cannot be started. Give it one in Settings (Edit)."
                    .into(),
                detail: None,
            },
        ]
    );
}
