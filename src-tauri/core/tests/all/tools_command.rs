//! The built-in tool run_command: where it runs, how it ends (timeout, Stop), its output's
//! cap, and that it never gets the API keys.

use askfirst_core::policy::Contents;
use askfirst_core::policy::{ArgumentKind, MainArgument, Policy, Rules};
use askfirst_core::tools::{ToolError, Workspace, OUTPUT_CAP_BYTES};
use askfirst_protocol::Risk;
use pretty_assertions::assert_eq;

use super::support::{all_gone, processes_with, unique_sleep};
use super::tools_builtin::{file_appears, hard_denied, told, tool, ws};

// ---------------------------------------------------------------- run_command

#[cfg(unix)]
#[tokio::test]
async fn run_command_runs_in_the_workspace_and_reports_how_it_ended() {
    let (_dir, ws) = ws();
    let run = tool("run_command");
    let raw = r#"{"command": "git status"}"#;
    let described = run.describe(raw, &ws).unwrap();
    assert_eq!(
        (described.summary.as_str(), described.risk),
        (
            "Run the command `git status` in your workspace folder",
            Risk::High
        )
    );
    assert_eq!(
        run.main_arguments(raw, &ws),
        vec![
            MainArgument {
                alias: None,
                kind: ArgumentKind::Command,
                text: "git status".into(),
                resolved: None,
                contents: Contents::No,
            },
            // It works in the workspace, and may act on all of it.
            MainArgument {
                alias: None,
                kind: ArgumentKind::MentionedPath,
                text: ".".into(),
                resolved: Some(ws.root().to_path_buf()),
                contents: Contents::Working,
            }
        ]
    );
    assert_eq!(
        run.describe(r#"{"command": "make", "timeout_secs": 120}"#, &ws)
            .unwrap()
            .summary,
        "Run the command `make` in your workspace folder (stop it if it runs longer than 120 \
         seconds)"
    );

    let out = run
        .execute(
            r#"{"command": "pwd; echo out; echo err >&2; echo out again"}"#,
            &ws,
        )
        .await
        .unwrap();
    assert_eq!(
        out,
        format!(
            "The command finished successfully (exit code 0).\nOutput:\n{}\nout\nerr\nout again\n",
            ws.root().display()
        )
    );
    assert_eq!(
        run.execute(r#"{"command": "exit 3"}"#, &ws)
            .await
            .unwrap_err()
            .to_string(),
        told("The command failed with exit code 3.\nIt printed nothing.")
    );
    for bad in [
        r#"{"command": "  "}"#,
        r#"{"command": "ls", "timeout_secs": 0}"#,
        r#"{"command": "ls", "timeout_secs": 601}"#,
        r#"{"command": "ls", "cwd": "/"}"#,
    ] {
        assert!(
            matches!(
                run.describe(bad, &ws),
                Err(ToolError::InvalidArguments { .. })
            ),
            "{bad}"
        );
        assert!(
            matches!(
                run.execute(bad, &ws).await,
                Err(ToolError::InvalidArguments { .. })
            ),
            "{bad}"
        );
    }
    // Commands that destroy data are refused by the hard rule, whatever else is allowed.
    let policy = Policy::new(Rules::default(), None);
    assert!(hard_denied(
        &policy,
        "run_command",
        &run.main_arguments(r#"{"command": "rm -rf /"}"#, &ws)
    ));
}

#[cfg(unix)]
#[tokio::test]
async fn run_command_output_is_capped_with_the_cut_stated() {
    let (_dir, ws) = ws();
    let raw = r#"{"command": "head -c 300000 /dev/zero | tr '\\0' x"}"#;
    let out = tool("run_command").execute(raw, &ws).await.unwrap();
    let half = "x".repeat(OUTPUT_CAP_BYTES / 2);
    assert_eq!(
        out,
        format!(
            "The command finished successfully (exit code 0).\nOutput:\n{half}\n[… {} bytes cut \
             …]\n{half}",
            300_000 - OUTPUT_CAP_BYTES
        )
    );
}

// The command's processes are found from outside by a unique `sleep` duration: inside its PID
// namespace they have process ids of their own.

#[cfg(unix)]
#[tokio::test]
async fn run_command_timeout_kills_the_child_and_the_grandchild() {
    let (_dir, ws) = ws();
    let sleep = unique_sleep();
    let raw = serde_json::json!({
        "command": format!("sh -c 'sleep {sleep}' & sleep {sleep}; wait"),
        "timeout_secs": 1
    })
    .to_string();
    let err = tool("run_command").execute(&raw, &ws).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        told(
            "The command was stopped after 1 second because it was still running; everything \
             it started was stopped too.\nIt printed nothing."
        )
    );
    assert!(all_gone(&sleep).await, "some of its processes still run");
}

#[cfg(unix)]
#[tokio::test]
async fn run_command_cancelled_kills_the_child_and_the_grandchild() {
    let (dir, ws) = ws();
    let sleep = unique_sleep();
    let raw = serde_json::json!({
        "command": format!("sh -c 'sleep {sleep}' & sleep {sleep} & echo > started; wait"),
        "timeout_secs": 600
    })
    .to_string();
    let running = {
        let ws = ws.clone();
        tokio::spawn(async move { tool("run_command").execute(&raw, &ws).await })
    };
    file_appears(&dir.path().join("started")).await;
    assert!(
        processes_with(&sleep) >= 3,
        "the shell, the child and the grandchild run"
    );
    // Stop: the call's future is dropped.
    running.abort();
    assert!(running.await.unwrap_err().is_cancelled());
    assert!(all_gone(&sleep).await, "some of its processes still run");
}

#[cfg(unix)]
#[tokio::test]
async fn run_command_stops_what_it_left_running_in_the_background() {
    let (_dir, ws) = ws();
    let sleep = unique_sleep();
    let raw = serde_json::json!({"command": format!("sleep {sleep} & echo started")}).to_string();
    let out = tool("run_command").execute(&raw, &ws).await.unwrap();
    assert_eq!(
        out,
        "The command finished successfully (exit code 0). It left programs running in the \
         background; they were stopped.\nOutput:\nstarted\n"
    );
    assert!(all_gone(&sleep).await, "the background process still runs");
}

#[tokio::test]
async fn commands_never_get_the_api_keys() {
    // Set for this process only; no other test reads these names.
    std::env::set_var("OPENAI_API_KEY", "sk-must-not-leak");
    std::env::set_var("ASKFIRST_TEST_SETTING", "must-not-leak");
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    let output = tool("run_command")
        .execute(r#"{"command": "env"}"#, &ws)
        .await
        .unwrap();
    assert!(!output.contains("must-not-leak"), "{output}");
    assert!(
        output.contains("PATH="),
        "the rest of the environment is kept: {output}"
    );
}
