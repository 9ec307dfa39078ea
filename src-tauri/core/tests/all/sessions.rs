//! Sessions: the conversation continues across tasks, every message lands in the session's
//! log, and a past session reopens after a restart with its transcript and conversation.

use super::support::{harness, Events};
use askfirst_core::agent::{AgentRuntime, RuntimeConfig};
use askfirst_core::approvals::{AnswerMode, ApprovalRegistry, RegistryConfig};
use askfirst_core::audit::{logging_sink, JsonlLog, SessionLog};
use askfirst_core::policy::{Policy, Rules};
use askfirst_core::provider::{Message, Provider};
use askfirst_core::scripted::{Scenario, ScriptedProvider};
use askfirst_core::tools::{ToolSet, Workspace};
use askfirst_protocol::{AgentEvent, Decision, RunStatus, SessionId};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test]
async fn a_second_task_continues_the_conversation() {
    let mut h = harness(
        json!({"turns": [{"say": "First answer."}, {"say": "Second answer."}]}),
        Duration::from_secs(120),
    );
    h.runtime.start_run("first task").unwrap();
    h.events.run_finished().await;
    h.runtime.start_run("second task").unwrap();
    h.events.run_finished().await;
    let requests = h.requests.lock().unwrap().clone();
    let second = &requests[1];
    assert!(matches!(&second[0], Message::System { .. }));
    assert_eq!(
        second[1],
        Message::User {
            text: "first task".into()
        }
    );
    assert!(
        matches!(&second[2], Message::Assistant { turn } if turn.text.as_deref() == Some("First answer."))
    );
    assert_eq!(
        second[3],
        Message::User {
            text: "second task".into()
        }
    );
}

/// A runtime as the app builds it: logging sink, sessions folder.
pub fn app_runtime(
    data: &Path,
    workspace: &Path,
    scenario: serde_json::Value,
) -> (Arc<AgentRuntime>, Events) {
    app_runtime_with(data, workspace, scenario, Rules::default())
}

/// [`app_runtime`] with the person's `rules`.
pub fn app_runtime_with(
    data: &Path,
    workspace: &Path,
    scenario: serde_json::Value,
    rules: Rules,
) -> (Arc<AgentRuntime>, Events) {
    let sessions = data.join("sessions");
    let session_id = SessionId::new();
    let log = SessionLog::new(Arc::new(
        JsonlLog::open(&sessions.join(format!("{session_id}.jsonl"))).unwrap(),
    ));
    let events = Events::new();
    let logged = logging_sink(Arc::clone(&log), Arc::clone(&events.sink));
    let registry = ApprovalRegistry::new(RegistryConfig {
        timeout: Duration::from_secs(120),
        mode: AnswerMode::Interactive,
        events: Arc::clone(&logged),
        audit: log.clone(),
    });
    let text = scenario.to_string();
    let config = RuntimeConfig {
        workspace: Workspace::open(workspace).unwrap(),
        max_steps: 10,
        provider: Arc::new(move || {
            let scenario = Scenario::parse(&text)?;
            Ok(Arc::new(ScriptedProvider::new("script", &scenario)) as Arc<dyn Provider>)
        }),
        tools: ToolSet::builtin(),
        mcp: None,
        policy: Arc::new(Policy::new(rules, None)),
        rules_path: None,
        log,
        session_id,
        sessions_dir: Some(sessions),
        replay_events: Arc::clone(&events.sink),
        acp_limits: askfirst_core::acp::AcpLimits::default(),
        undo: None,
    };
    let runtime = AgentRuntime::new(tokio::runtime::Handle::current(), registry, logged, config);
    (runtime, events)
}

#[tokio::test]
async fn a_past_session_reopens_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let scenario = json!({"turns": [
        {"say": "Writing.", "tool_calls": [{"name": "write_file", "arguments": {"path": "a.txt", "content": "A"}}]},
        {"say": "Done with a.txt."},
        {"say": "I remember a.txt."}
    ]});
    let (first, mut events) = app_runtime(&data, &workspace, scenario.clone());
    let old_session = first.session_id();
    first.start_run("Write a.txt please").unwrap();
    let request = events.approval_required().await;
    first
        .resolve_approval(request.approval_id, Decision::Approve)
        .unwrap();
    events.run_finished().await;
    drop(first);

    // "Restart": a new runtime with a new, empty session.
    let (second, events) = app_runtime(
        &data,
        &workspace,
        json!({"turns": [{"say": "I remember a.txt."}]}),
    );
    let listed = second.list_sessions();
    let past = listed
        .iter()
        .find(|s| s.session_id == old_session)
        .expect("the past session is listed");
    assert_eq!(past.title, "Write a.txt please");
    assert!(!past.current);

    second.open_session(old_session).unwrap();
    assert_eq!(second.session_id(), old_session);
    let replayed = events.all();
    assert!(
        matches!(&replayed[0], AgentEvent::SessionOpened { session_id, title: Some(t) } if *session_id == old_session && t == "Write a.txt please")
    );
    let kinds: Vec<&str> = replayed[1..]
        .iter()
        .map(|e| match e {
            AgentEvent::RunStarted { .. } => "started",
            AgentEvent::AssistantMessage { .. } => "said",
            AgentEvent::ToolCallProposed { .. } => "proposed",
            AgentEvent::ToolCallStarted { .. } => "running",
            AgentEvent::ToolCallFinished { .. } => "finished",
            AgentEvent::RunFinished {
                status: RunStatus::Completed,
                ..
            } => "completed",
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            "started",
            "said",
            "proposed",
            "running",
            "finished",
            "said",
            "completed"
        ]
    );
    assert!(second
        .list_sessions()
        .iter()
        .any(|s| s.session_id == old_session && s.current));
}

#[tokio::test]
async fn a_run_cut_short_by_a_crash_reopens_as_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let scenario = json!({"turns": [
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "a.txt", "content": "A"}}]}
    ]});
    let (first, mut events) = app_runtime(&data, &workspace, scenario);
    let old_session = first.session_id();
    first.start_run("Write a.txt").unwrap();
    events.approval_required().await;
    // The app dies here: no shutdown, nothing more is written.
    std::mem::forget(first);
    // Without the mark a run leaves for a restart (a log of an older version), the run is
    // shown stopped; with it, it goes on (`resume.rs`).
    std::fs::remove_file(
        data.join("sessions")
            .join(format!("{old_session}.interrupted.json")),
    )
    .unwrap();

    let (second, events) = app_runtime(&data, &workspace, json!({"turns": [{"say": "x"}]}));
    second.open_session(old_session).unwrap();
    let replayed = events.all();
    assert!(
        !replayed
            .iter()
            .any(|e| matches!(e, AgentEvent::ApprovalRequired(_))),
        "no phantom card"
    );
    assert!(matches!(
        replayed.last(),
        Some(AgentEvent::RunFinished {
            status: RunStatus::Cancelled,
            ..
        })
    ));
    assert!(replayed.iter().any(|e| matches!(
        e,
        AgentEvent::ToolCallFinished {
            status: askfirst_protocol::ToolCallStatus::Cancelled,
            ..
        }
    )));
}

#[test]
fn a_reopened_conversation_gives_every_call_a_result_in_order() {
    use askfirst_core::agent::{answer_unanswered, UNRECORDED_RESULT};
    use askfirst_core::provider::{ModelTurn, ToolCall};
    let call = |id: &str| ToolCall {
        id: id.into(),
        name: "write_file".into(),
        arguments_json: "{}".into(),
    };
    let turn = |ids: &[&str]| Message::Assistant {
        turn: ModelTurn {
            text: None,
            tool_calls: ids.iter().map(|id| call(id)).collect(),
        },
    };
    let result = |id: &str, content: &str| Message::ToolResult {
        tool_call_id: id.into(),
        content: content.into(),
        is_error: content == UNRECORDED_RESULT,
    };
    let user = |text: &str| Message::User { text: text.into() };
    // Killed while two cards waited (no results), and a turn whose middle result was lost.
    let logged = vec![
        user("first"),
        turn(&["a", "b", "c"]),
        result("a", "done"),
        result("c", "done"),
        user("second"),
        turn(&["d", "e"]),
    ];
    assert_eq!(
        answer_unanswered(logged),
        vec![
            user("first"),
            turn(&["a", "b", "c"]),
            result("a", "done"),
            result("b", UNRECORDED_RESULT),
            result("c", "done"),
            user("second"),
            turn(&["d", "e"]),
            result("d", UNRECORDED_RESULT),
            result("e", UNRECORDED_RESULT),
        ]
    );
    // A whole conversation is left as it is.
    let whole = vec![user("x"), turn(&["a"]), result("a", "done"), turn(&[])];
    assert_eq!(answer_unanswered(whole.clone()), whole);
}

/// Writes a session log by hand: a run with four calls that never ended — one refused, one
/// approved (its tool was running), one with no decision, one approved that had not started —
/// and, if `gap`, a stretch that could not be written.
fn write_cut_short_log(sessions: &Path, gap: bool) -> SessionId {
    use askfirst_core::audit::{AuditRecord, AuditSink};
    use askfirst_protocol::{
        ApprovalId, ApprovalScope, ApprovalSource, CancelCause, Outcome, PolicyLayer, Risk, RunId,
    };
    let id = SessionId::new();
    let log = JsonlLog::open(&sessions.join(format!("{id}.jsonl"))).unwrap();
    let run = RunId::new();
    let event = |event| AuditRecord::Event { event, at: 1 };
    log.append(&event(AgentEvent::RunStarted {
        run_id: run,
        session_id: id,
        task: "t".into(),
        provider: "p".into(),
        resumed: false,
    }))
    .unwrap();
    for (call, outcome) in [
        (
            "refused",
            Some(Outcome::Cancelled {
                cause: CancelCause::AppShutdown,
            }),
        ),
        (
            "approved",
            Some(Outcome::Approved {
                scope: ApprovalScope::Once,
                source: ApprovalSource::User,
            }),
        ),
        ("undecided", None),
        (
            "queued",
            Some(Outcome::Approved {
                scope: ApprovalScope::Once,
                source: ApprovalSource::User,
            }),
        ),
    ] {
        log.append(&event(AgentEvent::ToolCallProposed {
            run_id: run,
            tool_call_id: call.into(),
            tool_name: "write_file".into(),
            arguments_json: "{}".into(),
            summary: call.into(),
        }))
        .unwrap();
        let approval_id = ApprovalId::new();
        if let Some(outcome) = outcome {
            log.append(&AuditRecord::ApprovalAsked {
                approval_id,
                run_id: run,
                tool_call_id: call.into(),
                tool_name: "write_file".into(),
                arguments_json: "{}".into(),
                arguments_sha256: "00".into(),
                summary: call.into(),
                risk: Risk::Medium,
                reason: "r".into(),
                policy_layer: PolicyLayer::ToolDefault,
                effects: Vec::new(),
                at: 1,
                expires_at: 2,
            })
            .unwrap();
            log.append(&AuditRecord::ApprovalDecided {
                answered_on: None,
                approval_id,
                run_id: run,
                outcome,
                at: 1,
            })
            .unwrap();
        }
        if call == "approved" {
            log.append(&event(AgentEvent::ToolCallStarted {
                run_id: run,
                tool_call_id: call.into(),
            }))
            .unwrap();
        }
    }
    if gap {
        log.append(&AuditRecord::Unrecorded {
            since: 1,
            problem: "No space left on device".into(),
            at: 2,
        })
        .unwrap();
    }
    id
}

#[tokio::test]
async fn a_reopened_session_claims_only_what_its_log_shows() {
    use askfirst_core::agent::{
        ALLOWED_NOT_STARTED, MAY_HAVE_RUN, UNRECORDED_CALL, UNRECORDED_RUN,
    };
    use askfirst_protocol::ToolCallStatus;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let ends = |events: Vec<AgentEvent>| -> Vec<(String, ToolCallStatus, String)> {
        events
            .into_iter()
            .filter_map(|e| match e {
                AgentEvent::ToolCallFinished {
                    tool_call_id,
                    status,
                    output,
                    ..
                } => Some((tool_call_id, status, output)),
                AgentEvent::RunFinished { message, .. } => {
                    Some(("run".into(), ToolCallStatus::Cancelled, message.unwrap()))
                }
                _ => None,
            })
            .collect()
    };
    let closed = "The app was closed; this action was not performed.".to_owned();
    let whole = write_cut_short_log(&data.join("sessions"), false);
    let with_gap = write_cut_short_log(&data.join("sessions"), true);
    let (runtime, events) = app_runtime(&data, &workspace, json!({"turns": [{"say": "x"}]}));
    runtime.open_session(whole).unwrap();
    assert_eq!(
        ends(events.all()),
        vec![
            ("refused".into(), ToolCallStatus::Cancelled, closed.clone()),
            (
                "approved".into(),
                ToolCallStatus::Failed,
                MAY_HAVE_RUN.into()
            ),
            ("undecided".into(), ToolCallStatus::Cancelled, closed),
            (
                "queued".into(),
                ToolCallStatus::Cancelled,
                ALLOWED_NOT_STARTED.into()
            ),
            (
                "run".into(),
                ToolCallStatus::Cancelled,
                "Ask First was closed while the agent was working.".into()
            ),
        ]
    );
    let (runtime, events) = app_runtime(&data, &workspace, json!({"turns": [{"say": "x"}]}));
    runtime.open_session(with_gap).unwrap();
    assert_eq!(
        ends(events.all()),
        vec![
            (
                "refused".into(),
                ToolCallStatus::Cancelled,
                "This action was not performed.".into()
            ),
            (
                "approved".into(),
                ToolCallStatus::Failed,
                MAY_HAVE_RUN.into()
            ),
            (
                "undecided".into(),
                ToolCallStatus::Failed,
                UNRECORDED_CALL.into()
            ),
            // With a gap, a missing start proves nothing.
            ("queued".into(), ToolCallStatus::Failed, MAY_HAVE_RUN.into()),
            (
                "run".into(),
                ToolCallStatus::Cancelled,
                UNRECORDED_RUN.into()
            ),
        ]
    );
}

#[tokio::test]
async fn a_run_cut_short_ends_where_the_next_one_starts() {
    use askfirst_core::audit::{AuditRecord, AuditSink};
    use askfirst_protocol::RunId;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let id = SessionId::new();
    let log = JsonlLog::open(&data.join("sessions").join(format!("{id}.jsonl"))).unwrap();
    let (killed, next) = (RunId::new(), RunId::new());
    for event in [
        AgentEvent::RunStarted {
            run_id: killed,
            session_id: id,
            task: "first".into(),
            provider: "p".into(),
            resumed: false,
        },
        AgentEvent::RunStarted {
            run_id: next,
            session_id: id,
            task: "second".into(),
            provider: "p".into(),
            resumed: false,
        },
        AgentEvent::RunFinished {
            run_id: next,
            status: RunStatus::Completed,
            message: None,
            detail: None,
        },
    ] {
        log.append(&AuditRecord::Event { event, at: 1 }).unwrap();
    }
    let (runtime, events) = app_runtime(&data, &workspace, json!({"turns": [{"say": "x"}]}));
    runtime.open_session(id).unwrap();
    let runs: Vec<(RunId, &str)> = events
        .all()
        .iter()
        .filter_map(|e| match e {
            AgentEvent::RunStarted { run_id, .. } => Some((*run_id, "started")),
            AgentEvent::RunFinished {
                run_id,
                status: RunStatus::Completed,
                ..
            } => Some((*run_id, "completed")),
            AgentEvent::RunFinished { run_id, .. } => Some((*run_id, "stopped")),
            _ => None,
        })
        .collect();
    assert_eq!(
        runs,
        vec![
            (killed, "started"),
            (killed, "stopped"),
            (next, "started"),
            (next, "completed")
        ]
    );
}
