//! Stop while a tool call runs: what happens depends on the tool (`OnStop`) — a command is
//! killed, a file write is let finish and said so, an MCP-like call is no longer waited for
//! — and each is told to the model and the person as what it is.

use super::support::{finished, finished_outputs, finished_statuses, harness, harness_with_tool};
use askfirst_core::agent::wording;
use askfirst_core::provider::Message;
use askfirst_core::tools::{CallDescription, OnStop, Tool, ToolError, Workspace};
use askfirst_protocol::{AgentEvent, CancelCause, Decision, NotRun, RunStatus, ToolCallStatus};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);

#[tokio::test]
async fn stop_while_an_approved_command_runs_stops_it() {
    let mut h = harness(
        json!({"turns": [
            {"tool_calls": [{"name": "run_command", "arguments": {"command": "sleep 30; echo done > late.txt"}}]},
            {"say": "never"}
        ]}),
        TIMEOUT,
    );
    let started = h.runtime.start_run("wait").unwrap();
    // Tried first on a copy of the folder, it starts without a card (its card would come
    // once it ended); where it cannot be, its card comes first.
    let running = h
        .events
        .next_matching(|e| match e {
            AgentEvent::ApprovalRequired(request) => Some(Some(request.approval_id)),
            AgentEvent::ToolCallStarted { .. } => Some(None),
            _ => None,
        })
        .await;
    if let Some(approval_id) = running {
        h.runtime
            .resolve_approval(approval_id, Decision::Approve)
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(h.runtime.cancel_run(started.run_id));
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Cancelled);
    assert_eq!(
        finished_statuses(&h.events.all()),
        vec![ToolCallStatus::Cancelled]
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!h.dir.path().join("late.txt").exists());
}

/// A tool that asks, tells when it has started, and then does its work only once released:
/// a write that Stop cannot interrupt halfway, or an MCP-like call Ask First cannot know the
/// end of.
struct Gated {
    on_stop: OnStop,
    started: tokio::sync::Notify,
    release: tokio::sync::Notify,
    path: std::path::PathBuf,
}

#[async_trait::async_trait]
impl Tool for Gated {
    fn name(&self) -> &str {
        "gated_write"
    }
    fn description(&self) -> &str {
        "Writes done.txt when released."
    }
    fn parameters_schema(&self) -> serde_json::Value {
        json!({"type": "object"})
    }
    fn read_only(&self) -> bool {
        false
    }
    fn describe(&self, _: &str, _: &Workspace) -> Result<CallDescription, ToolError> {
        Ok(CallDescription {
            change: None,
            summary: "Write done.txt".into(),
            risk: askfirst_protocol::Risk::Medium,
            preview: None,
            fingerprint: None,
            effects: Vec::new(),
            detail: None,
        })
    }
    fn on_stop(&self) -> OnStop {
        self.on_stop
    }
    async fn execute(&self, _: &str, _: &Workspace) -> Result<String, ToolError> {
        self.started.notify_one();
        self.release.notified().await;
        std::fs::write(&self.path, "done").map_err(|e| ToolError::Failed(e.to_string()))?;
        Ok("Wrote done.txt.".into())
    }
}

/// A run whose one call (the gated tool) was approved and is running now: the temporary
/// folder (kept alive), the tool, the harness and the run.
async fn gated_call_running(
    on_stop: OnStop,
) -> (
    tempfile::TempDir,
    Arc<Gated>,
    super::support::Harness,
    askfirst_protocol::RunId,
) {
    let dir = tempfile::tempdir().unwrap();
    let gated = Arc::new(Gated {
        on_stop,
        started: tokio::sync::Notify::new(),
        release: tokio::sync::Notify::new(),
        path: dir.path().join("done.txt"),
    });
    let mut h = harness_with_tool(
        json!({"turns": [
            {"tool_calls": [{"name": "gated_write", "arguments": {}}]},
            {"say": "never"}
        ]}),
        TIMEOUT,
        gated.clone(),
    );
    let started = h.runtime.start_run("write").unwrap();
    let request = h.events.approval_required().await;
    h.runtime
        .resolve_approval(request.approval_id, Decision::Approve)
        .unwrap();
    gated.started.notified().await;
    (dir, gated, h, started.run_id)
}

async fn stop_while_gated_tool_runs(
    on_stop: OnStop,
) -> (Vec<(ToolCallStatus, String)>, bool, Option<String>) {
    let (_dir, gated, mut h, run_id) = gated_call_running(on_stop).await;
    assert!(h.runtime.cancel_run(run_id));
    // The work goes on after the Stop, as a blocking write would.
    tokio::time::sleep(Duration::from_millis(50)).await;
    gated.release.notify_one();
    let (_, status, message) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Cancelled);
    tokio::time::sleep(Duration::from_millis(50)).await;
    (
        finished_outputs(&h.events.all()),
        gated.path.exists(),
        message,
    )
}

#[tokio::test]
async fn stop_while_a_file_is_being_written_lets_it_finish_and_says_so() {
    let (outputs, written, message) = stop_while_gated_tool_runs(OnStop::Finish).await;
    assert!(written);
    // The run's end says it too, where the person looks after pressing Stop.
    assert_eq!(
        message.as_deref(),
        Some(
            "You stopped the agent. What was already being done was finished, since stopping \
             it halfway could have left it half done: Write done.txt."
        )
    );
    assert_eq!(outputs.len(), 1);
    assert_eq!(outputs[0].0, ToolCallStatus::Succeeded, "{}", outputs[0].1);
    assert_eq!(
        outputs[0].1,
        "Wrote done.txt. (The run was stopped while this was being done; it was finished, since \
         stopping it halfway could have left it half done.)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quitting_while_a_file_is_being_written_waits_for_it_and_records_its_end() {
    let (_dir, gated, mut h, _) = gated_call_running(OnStop::Finish).await;
    h.runtime.shutdown();
    let runtime = h.runtime.clone();
    let waiting =
        tokio::task::spawn_blocking(move || runtime.wait_for_runs(Duration::from_secs(10)));
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!waiting.is_finished(), "quit did not wait for the write");
    gated.release.notify_one();
    assert!(waiting.await.unwrap());
    assert!(gated.path.exists());
    let outputs = finished_outputs(&h.events.all());
    assert_eq!(outputs.len(), 1);
    assert_eq!(outputs[0].0, ToolCallStatus::Succeeded, "{}", outputs[0].1);
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Cancelled);
}

#[tokio::test]
async fn stop_while_an_mcp_like_call_runs_does_not_claim_it_was_not_done() {
    let (_dir, gated, mut h, run_id) = gated_call_running(OnStop::Abandon).await;
    assert!(h.runtime.cancel_run(run_id));
    let (_, status, message) = h.events.run_finished().await;
    gated.release.notify_one();
    assert_eq!(
        (status, message.as_deref()),
        (RunStatus::Cancelled, Some("You stopped the agent."))
    );
    let reason = NotRun::NoLongerAwaited {
        cause: CancelCause::RunAborted,
    };
    assert_eq!(
        not_run_reasons(&h.events.all()),
        vec![(ToolCallStatus::Failed, Some(reason.clone()))]
    );
    // The person is told it in their own words, the model that it may have been done.
    assert_eq!(
        finished_outputs(&h.events.all()),
        vec![(ToolCallStatus::Failed, wording::person_text(&reason))]
    );
    let requests = h.requests.lock().unwrap().clone();
    assert!(requests.len() <= 1, "no model step after the Stop");
    let logged = h.audit.all().into_iter().find_map(|r| match r {
        askfirst_core::audit::AuditRecord::Message {
            message: Message::ToolResult { content, .. },
            ..
        } => Some(content),
        _ => None,
    });
    assert_eq!(logged, Some(wording::for_model(&reason)));
    assert!(logged.unwrap().contains("whether it was done is not known"));
}

/// The typed reason of every finished call, with its status.
fn not_run_reasons(events: &[AgentEvent]) -> Vec<(ToolCallStatus, Option<NotRun>)> {
    finished(events)
        .into_iter()
        .map(|call| (call.status, call.not_run))
        .collect()
}
