//! Supervised runs: whatever a provider does — panic, hang, pause mid-stream — the run ends
//! with exactly one `RunFinished`, Stop works, and the window is ready for the next task.

use super::support::{harness_with_provider, Harness};
use askfirst_core::agent::wording::RUN_BROKE;
use askfirst_core::provider::{DeltaSink, Message, ModelTurn, Provider, ProviderError};
use askfirst_core::tools::ToolSpec;
use askfirst_protocol::{AgentEvent, RunId, RunStatus};
use pretty_assertions::assert_eq;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What the provider does at its first step; every later step answers "Fine." at once.
#[derive(Clone, Copy)]
enum FirstStep {
    /// Panics (as `Duration::from_secs_f64(inf)` did in a provider).
    Panic,
    /// Never answers.
    Hang,
    /// Sends a piece of text, then is silent for 10 s before answering.
    PauseAfterText,
}

struct Misbehaving {
    first: FirstStep,
    steps: AtomicUsize,
    /// Set when the paused step answered at last.
    answered: AtomicBool,
    /// Notified when the first step has begun.
    entered: tokio::sync::Notify,
}

#[async_trait::async_trait]
impl Provider for Misbehaving {
    fn display_name(&self) -> String {
        "misbehaving".into()
    }
    async fn step(
        &self,
        _messages: &[Message],
        _tools: &[ToolSpec],
        deltas: &DeltaSink<'_>,
    ) -> Result<ModelTurn, ProviderError> {
        let answer = |text: &str| ModelTurn {
            text: Some(text.into()),
            tool_calls: Vec::new(),
        };
        if self.steps.fetch_add(1, Ordering::SeqCst) > 0 {
            return Ok(answer("Fine."));
        }
        self.entered.notify_one();
        match self.first {
            FirstStep::Panic => panic!("a provider bug"),
            FirstStep::Hang => std::future::pending().await,
            FirstStep::PauseAfterText => {
                deltas("Thinking");
                tokio::time::sleep(Duration::from_secs(10)).await;
                self.answered.store(true, Ordering::SeqCst);
                Ok(answer("Thinking… done."))
            }
        }
    }
}

fn with_first_step(first: FirstStep) -> (Harness, Arc<Misbehaving>) {
    let provider = Arc::new(Misbehaving {
        first,
        steps: AtomicUsize::new(0),
        answered: AtomicBool::new(false),
        entered: tokio::sync::Notify::new(),
    });
    (harness_with_provider(provider.clone()), provider)
}

/// The ends of every run, in order.
fn ends(h: &Harness) -> Vec<(RunId, RunStatus, Option<String>)> {
    h.events
        .all()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::RunFinished {
                run_id,
                status,
                message,
                ..
            } => Some((run_id, status, message)),
            _ => None,
        })
        .collect()
}

/// The next task after a broken one runs and completes.
async fn next_task_works(h: &mut Harness, first: RunId) {
    let second = h.runtime.start_run("again").unwrap();
    let (run_id, status, _) = h.events.run_finished().await;
    assert_eq!((run_id, status), (second.run_id, RunStatus::Completed));
    assert_eq!(ends(h).len(), 2);
    assert_eq!(ends(h)[0].0, first);
}

#[tokio::test]
async fn a_provider_that_panics_ends_its_run_once_and_the_next_task_works() {
    let (mut h, _) = with_first_step(FirstStep::Panic);
    let first = h.runtime.start_run("do it").unwrap();
    let (run_id, status, message) = h.events.run_finished().await;
    assert_eq!(
        (run_id, status, message.as_deref()),
        (first.run_id, RunStatus::Failed, Some(RUN_BROKE))
    );
    // Nothing else ends it later (the supervisor and the run never both do).
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(ends(&h).len(), 1);
    next_task_works(&mut h, first.run_id).await;
    // The conversation went on: the second task was added to the first.
    let users = h
        .audit
        .all()
        .into_iter()
        .filter(|r| {
            matches!(
                r,
                askfirst_core::audit::AuditRecord::Message {
                    message: Message::User { .. },
                    ..
                }
            )
        })
        .count();
    assert_eq!(users, 2);
}

#[tokio::test]
async fn a_provider_that_never_answers_is_stopped_by_stop_and_the_next_task_works() {
    let (mut h, provider) = with_first_step(FirstStep::Hang);
    let first = h.runtime.start_run("do it").unwrap();
    // Stop while the model is asked (not before): the step that never answers.
    provider.entered.notified().await;
    assert!(h.runtime.cancel_run(first.run_id));
    let (run_id, status, message) = h.events.run_finished().await;
    assert_eq!(
        (run_id, status, message.as_deref()),
        (
            first.run_id,
            RunStatus::Cancelled,
            Some("You stopped the agent.")
        )
    );
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(ends(&h).len(), 1);
    next_task_works(&mut h, first.run_id).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quitting_during_a_hanging_step_ends_the_run_and_waits_without_polling() {
    let (mut h, provider) = with_first_step(FirstStep::Hang);
    let first = h.runtime.start_run("do it").unwrap();
    provider.entered.notified().await;
    h.runtime.shutdown();
    assert!(h.runtime.close(Duration::from_secs(10)).await);
    let (run_id, status, message) = h.events.run_finished().await;
    assert_eq!(
        (run_id, status, message.as_deref()),
        (
            first.run_id,
            RunStatus::Cancelled,
            Some("Ask First was closed while the agent was working.")
        )
    );
    assert_eq!(ends(&h).len(), 1);
}

#[tokio::test(start_paused = true)]
async fn text_is_passed_on_while_the_model_pauses() {
    let (mut h, provider) = with_first_step(FirstStep::PauseAfterText);
    h.runtime.start_run("think").unwrap();
    let text = h
        .events
        .next_matching(|e| match e {
            AgentEvent::AssistantDelta { text, .. } => Some(text.clone()),
            _ => None,
        })
        .await;
    assert_eq!(text, "Thinking");
    assert!(
        !provider.answered.load(Ordering::SeqCst),
        "the text came before the model's step ended, not with its end"
    );
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
}

/// Whether process `pid` has ended (gone, or a zombie nobody has reaped yet).
#[cfg(unix)]
fn ended(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit_once(") ")
            .is_none_or(|(_, rest)| rest.starts_with('Z'))
    })
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quitting_stops_the_mcp_servers() {
    use askfirst_core::approvals::AnswerMode;
    use askfirst_core::mcp::{McpClients, McpServerConfig, McpServerStatus};
    use askfirst_core::policy::Rules;
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("server.pid");
    let server = McpServerConfig {
        name: "everything".into(),
        command: "sh".into(),
        args: vec![
            "-c".into(),
            "echo $$ > \"$1\"; exec \"$2\" stdio".into(),
            "sh".into(),
            pid_file.to_string_lossy().into_owned(),
            super::mcp::server_program("mcp-server-everything"),
        ],
        env: Default::default(),
        trusted: true,
    };
    let workspace = tempfile::tempdir().unwrap();
    let mut h = super::support::harness_in(
        workspace,
        serde_json::json!({"turns": [{"say": "Nothing to do."}]}),
        Duration::from_secs(120),
        Rules::default(),
        AnswerMode::Interactive,
        Some(Arc::new(McpClients::new(vec![server]))),
    );
    // A run lists the servers' tools, which starts them.
    h.runtime.start_run("hello").unwrap();
    h.events.run_finished().await;
    let pid = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_owned();
    assert!(!ended(&pid), "the server runs after the run");
    h.runtime.shutdown();
    assert!(h.runtime.close(Duration::from_secs(10)).await);
    assert!(matches!(
        h.runtime.mcp_statuses()[0].status,
        McpServerStatus::NotStarted
    ));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !ended(&pid) {
        assert!(
            std::time::Instant::now() < deadline,
            "the server still runs"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
