//! A run survives a restart: Ask First closed (quit) or killed while a card waited goes on at
//! the next start with the same conversation, asking again — a new card, judged again, never
//! acting on an answer given before — and a call that was running is never done twice unless
//! its tool only reads.

use super::sessions::{app_runtime, app_runtime_with};
use askfirst_core::agent::AgentRuntime;
use askfirst_core::audit::{AuditRecord, AuditSink, JsonlLog};
use askfirst_core::policy::Rules;
use askfirst_core::provider::{Message, ModelTurn, ToolCall};
use askfirst_core::sessions::interrupted::{Interrupted, Marks};
use askfirst_protocol::{
    AgentEvent, Decision, NotRun, RunId, RunStatus, SessionId, ToolCallStatus,
};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Two turns: write `a.txt` (asks), then say "Done.".
fn write_then_done() -> serde_json::Value {
    json!({"turns": [
        {"say": "Writing.", "tool_calls": [{"id": "w1", "name": "write_file", "arguments": {"path": "a.txt", "content": "A"}}]},
        {"say": "Done."}
    ]})
}

fn dirs() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    (dir, data, workspace)
}

fn mark_of(data: &Path, session: SessionId) -> Option<Interrupted> {
    Marks::new(&data.join("sessions")).of(session)
}

/// Starts `task` and waits for its card; returns the runtime, the session and the card's id.
async fn card_waiting(
    data: &Path,
    workspace: &Path,
) -> (Arc<AgentRuntime>, SessionId, askfirst_protocol::ApprovalId) {
    let (first, mut events) = app_runtime(data, workspace, write_then_done());
    first.start_run("Write a.txt please").unwrap();
    let card = events.approval_required().await;
    assert!(!card.resumed);
    (Arc::clone(&first), first.session_id(), card.approval_id)
}

/// The second start: resumes, approves what is asked again, and checks the run's end.
async fn approve_after_restart(
    data: &Path,
    workspace: &Path,
    session: SessionId,
    old_card: askfirst_protocol::ApprovalId,
) {
    let (second, mut events) = app_runtime(data, workspace, write_then_done());
    assert_eq!(second.resume_interrupted(), Some(session));
    assert_eq!(second.session_id(), session);
    let card = events.approval_required().await;
    assert!(card.resumed, "the card says it is asked again");
    assert_ne!(card.approval_id, old_card, "a new card, not the old one");
    assert_eq!(card.tool_call_id, "w1");
    // An answer meant for the card before the restart does nothing.
    assert!(second
        .resolve_approval(old_card, Decision::Approve)
        .is_err());
    assert!(
        !workspace.join("a.txt").exists(),
        "nothing done before the new answer"
    );
    second
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    let (_, status, _) = events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert_eq!(
        std::fs::read_to_string(workspace.join("a.txt")).unwrap(),
        "A"
    );
    // The run went on with the turn after the one the conversation held.
    assert!(events
        .all()
        .iter()
        .any(|e| matches!(e, AgentEvent::AssistantMessage { text, .. } if text == "Done.")));
    assert!(events.all().iter().any(
        |e| matches!(e, AgentEvent::RunStarted { resumed: true, task, .. } if task == "Write a.txt please")
    ));
    // Done: nothing is offered again at the next start.
    assert_eq!(mark_of(data, session), None);
    let (third, _events) = app_runtime(data, workspace, write_then_done());
    assert_eq!(third.resume_interrupted(), None);
    // The conversation the next task continues: one write, one result, one final answer.
    let results: Vec<&str> = third_conversation(data, session)
        .iter()
        .filter_map(|m| match m {
            Message::ToolResult { tool_call_id, .. } => Some(tool_call_id.as_str()),
            _ => None,
        })
        .map(|id| if id == "w1" { "w1" } else { "other" })
        .collect();
    assert_eq!(results, vec!["w1"], "the call has exactly one result");
}

/// How the resumed run ended (the replayed transcript ends the run before the restart first).
async fn resumed_run_finished(events: &mut super::support::Events) -> RunStatus {
    let resumed = |e: &AgentEvent| match e {
        AgentEvent::RunStarted {
            run_id,
            resumed: true,
            ..
        } => Some(*run_id),
        _ => None,
    };
    // Already seen (a card of it was waited for), or still to come.
    let run = match events.all().iter().find_map(resumed) {
        Some(run) => run,
        None => events.next_matching(resumed).await,
    };
    events
        .next_matching(|e| match e {
            AgentEvent::RunFinished { run_id, status, .. } if *run_id == run => Some(*status),
            _ => None,
        })
        .await
}

fn third_conversation(data: &Path, session: SessionId) -> Vec<Message> {
    let contents =
        askfirst_core::audit::read_log(&data.join("sessions").join(format!("{session}.jsonl")))
            .unwrap();
    askfirst_core::sessions::replay::replay(contents).conversation
}

#[tokio::test]
async fn a_card_waiting_when_ask_first_was_killed_is_asked_again_at_the_next_start() {
    let (_dir, data, workspace) = dirs();
    let (first, session, old_card) = card_waiting(&data, &workspace).await;
    assert!(
        mark_of(&data, session).is_some(),
        "the mark is left before the card shows"
    );
    // kill -9: nothing more is written, nothing is closed.
    std::mem::forget(first);
    approve_after_restart(&data, &workspace, session, old_card).await;
}

#[tokio::test]
async fn a_card_waiting_when_ask_first_quit_is_asked_again_at_the_next_start() {
    let (_dir, data, workspace) = dirs();
    let (first, session, old_card) = card_waiting(&data, &workspace).await;
    first.shutdown();
    assert!(first.close(Duration::from_secs(10)).await);
    assert!(mark_of(&data, session).is_some(), "quitting keeps the mark");
    drop(first);
    approve_after_restart(&data, &workspace, session, old_card).await;
}

/// Quitting ends the waiting cards first, then the runs: a run that takes its card's "Ask First
/// is closing" before its own Stop ends there as well. It went on (under load, in the two-lane
/// end-to-end run): it asked the model again, finished, and the next start had nothing left to
/// go on with.
#[tokio::test]
async fn a_run_that_hears_of_the_closing_before_its_stop_keeps_the_task_for_the_next_start() {
    let (_dir, data, workspace) = dirs();
    let (first, mut events) = app_runtime(&data, &workspace, write_then_done());
    first.start_run("Write a.txt please").unwrap();
    let card = events.approval_required().await;
    let session = first.session_id();
    first.end_approvals_for_shutdown();
    let (_, status, _) = events.run_finished().await;
    assert_eq!(
        status,
        RunStatus::Cancelled,
        "the run went on after the closing"
    );
    first.shutdown();
    assert!(first.close(Duration::from_secs(10)).await);
    assert!(
        mark_of(&data, session).is_some(),
        "the task is kept for the next start"
    );
    drop(first);
    approve_after_restart(&data, &workspace, session, card.approval_id).await;
}

#[tokio::test]
async fn stop_after_the_restart_ends_the_task_for_good() {
    let (_dir, data, workspace) = dirs();
    let (first, session, _) = card_waiting(&data, &workspace).await;
    std::mem::forget(first);
    let (second, mut events) = app_runtime(&data, &workspace, write_then_done());
    second.resume_interrupted().unwrap();
    let card = events.approval_required().await;
    assert!(second.cancel_run(card.run_id));
    let (_, status, _) = events.run_finished().await;
    assert_eq!(status, RunStatus::Cancelled);
    assert!(!workspace.join("a.txt").exists());
    assert_eq!(mark_of(&data, session), None);
}

#[tokio::test]
async fn a_call_asked_again_is_judged_again_by_the_rules_of_now() {
    let (_dir, data, workspace) = dirs();
    let (first, session, _) = card_waiting(&data, &workspace).await;
    std::mem::forget(first);
    // While Ask First was closed, the person added a rule that refuses the write.
    let rules = Rules::parse(
        "[[deny]]\ntool = \"write_file\"\nmatch = \"*.txt\"\n",
        Path::new("rules.toml"),
    );
    let (second, mut events) = app_runtime_with(&data, &workspace, write_then_done(), rules);
    assert_eq!(second.resume_interrupted(), Some(session));
    assert_eq!(
        resumed_run_finished(&mut events).await,
        RunStatus::Completed
    );
    assert!(!events
        .all()
        .iter()
        .any(|e| matches!(e, AgentEvent::ApprovalRequired(_))));
    assert!(events.all().iter().any(|e| matches!(
        e,
        AgentEvent::ToolCallFinished {
            tool_call_id,
            status: ToolCallStatus::Denied,
            not_run: Some(NotRun::DeniedByRule { .. }),
            ..
        } if tool_call_id == "w1"
    )));
    assert!(!workspace.join("a.txt").exists());
}

/// Writes the log of a run killed while two approved calls ran: a write (changes a file) and
/// a read (only reads); leaves the run's mark.
fn killed_while_running(data: &Path, workspace: &Path) -> (SessionId, RunId) {
    let session = SessionId::new();
    let sessions = data.join("sessions");
    let log = JsonlLog::open(&sessions.join(format!("{session}.jsonl"))).unwrap();
    let run = RunId::new();
    let message = |message| AuditRecord::Message { message, at: 1 };
    let event = |event| AuditRecord::Event { event, at: 1 };
    let call = |id: &str, name: &str, arguments: serde_json::Value| ToolCall {
        id: id.into(),
        name: name.into(),
        arguments_json: arguments.to_string(),
    };
    std::fs::write(workspace.join("notes.txt"), "the notes").unwrap();
    for record in [
        AuditRecord::FolderChosen {
            folder: workspace.to_owned(),
            demo: false,
            at: 1,
        },
        event(AgentEvent::RunStarted {
            run_id: run,
            session_id: session,
            task: "Copy my notes".into(),
            provider: "p".into(),
            resumed: false,
        }),
        message(Message::System { text: "s".into() }),
        message(Message::User {
            text: "Copy my notes".into(),
        }),
        message(Message::Assistant {
            turn: ModelTurn {
                text: None,
                tool_calls: vec![
                    call(
                        "w",
                        "write_file",
                        json!({"path": "copy.txt", "content": "x"}),
                    ),
                    call("r", "read_file", json!({"path": "notes.txt"})),
                ],
            },
        }),
        event(AgentEvent::ToolCallStarted {
            run_id: run,
            tool_call_id: "w".into(),
        }),
        event(AgentEvent::ToolCallStarted {
            run_id: run,
            tool_call_id: "r".into(),
        }),
    ] {
        log.append(&record).unwrap();
    }
    Marks::new(&sessions)
        .leave(&Interrupted {
            session_id: session,
            run_id: run,
            at: 1,
            starts: 0,
        })
        .unwrap();
    (session, run)
}

#[tokio::test]
async fn a_call_that_was_running_is_done_again_only_when_it_only_reads() {
    let (_dir, data, workspace) = dirs();
    let (session, _) = killed_while_running(&data, &workspace);
    // The conversation holds one model turn: the next one is the script's second.
    let (second, mut events) = app_runtime(
        &data,
        &workspace,
        json!({"turns": [{"say": "not played"}, {"say": "Copied, I think."}]}),
    );
    assert_eq!(second.resume_interrupted(), Some(session));
    assert_eq!(
        resumed_run_finished(&mut events).await,
        RunStatus::Completed
    );
    let finished = |id: &str| {
        events.all().into_iter().find_map(|e| match e {
            AgentEvent::ToolCallFinished {
                tool_call_id,
                status,
                not_run,
                output,
                ..
            } if tool_call_id == id => Some((status, not_run, output)),
            _ => None,
        })
    };
    // The write may have been done: it is not done twice, and the model is told so.
    let (status, not_run, _) = finished("w").unwrap();
    assert_eq!(
        (status, not_run),
        (ToolCallStatus::Failed, Some(NotRun::MayHaveRun))
    );
    assert!(!workspace.join("copy.txt").exists());
    // The read changes nothing: it is simply done again.
    let (status, _, output) = finished("r").unwrap();
    assert_eq!(status, ToolCallStatus::Succeeded);
    assert!(output.contains("the notes"), "{output}");
    assert!(events.all().iter().any(
        |e| matches!(e, AgentEvent::AssistantMessage { text, .. } if text == "Copied, I think.")
    ));
}

#[tokio::test]
async fn a_mark_that_no_longer_matches_its_log_is_dropped_and_nothing_runs() {
    let (_dir, data, workspace) = dirs();
    let (session, _) = killed_while_running(&data, &workspace);
    // The mark names another run than the log's last (a later task ended normally, say).
    Marks::new(&data.join("sessions"))
        .leave(&Interrupted {
            session_id: session,
            run_id: RunId::new(),
            at: 2,
            starts: 0,
        })
        .unwrap();
    let (second, events) = app_runtime(&data, &workspace, json!({"turns": [{"say": "x"}]}));
    assert_eq!(second.resume_interrupted(), None);
    assert_eq!(mark_of(&data, session), None);
    assert!(!events
        .all()
        .iter()
        .any(|e| matches!(e, AgentEvent::RunStarted { resumed: true, .. })));
}

#[tokio::test]
async fn a_change_set_waiting_when_ask_first_was_killed_is_tried_again_and_asked_again() {
    let (_dir, data, workspace) = dirs();
    if !super::try_first::tried_first(&workspace) {
        return;
    }
    let scenario = json!({"turns": [
        {"tool_calls": [{"id": "c1", "name": "run_command", "arguments": {"command": "echo made > made.txt"}}]},
        {"say": "Made it."}
    ]});
    let (first, mut events) = app_runtime(&data, &workspace, scenario.clone());
    let session = first.session_id();
    first.start_run("Make a file").unwrap();
    let card = events.approval_required().await;
    let old_card = card.approval_id;
    assert!(matches!(
        &card.detail,
        Some(askfirst_protocol::CallDetail::Command { tried: Some(_), .. })
    ));
    assert!(!workspace.join("made.txt").exists());
    std::mem::forget(first);
    // Meanwhile the person made the file themselves: the try after the restart sees it.
    std::fs::write(workspace.join("made.txt"), "mine\n").unwrap();

    let (second, mut events) = app_runtime(&data, &workspace, scenario);
    assert_eq!(second.resume_interrupted(), Some(session));
    let card = events.approval_required().await;
    assert!(card.resumed);
    assert_ne!(card.approval_id, old_card);
    // Tried again on a copy of the folder as it is now: the card shows an overwrite.
    let Some(askfirst_protocol::CallDetail::Command {
        tried: Some(tried), ..
    }) = &card.detail
    else {
        panic!("not tried again: {card:?}");
    };
    assert_eq!(
        tried
            .changes
            .iter()
            .map(|c| (c.change, c.path.as_str()))
            .collect::<Vec<_>>(),
        vec![(askfirst_protocol::ChangeKind::Changed, "made.txt")]
    );
    assert_eq!(
        std::fs::read_to_string(workspace.join("made.txt")).unwrap(),
        "mine\n"
    );
    second
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    assert_eq!(
        resumed_run_finished(&mut events).await,
        RunStatus::Completed
    );
    assert_eq!(
        std::fs::read_to_string(workspace.join("made.txt")).unwrap(),
        "made\n"
    );
}

#[tokio::test]
async fn a_call_asked_again_and_then_changed_gets_a_card_of_its_own() {
    let (_dir, data, workspace) = dirs();
    let (first, session, _) = card_waiting(&data, &workspace).await;
    std::mem::forget(first);
    let (second, mut events) = app_runtime(&data, &workspace, write_then_done());
    assert_eq!(second.resume_interrupted(), Some(session));
    let card = events.approval_required().await;
    assert!(card.resumed);
    second
        .resolve_approval(
            card.approval_id,
            Decision::Change {
                fields: [("path".to_owned(), "b.txt".to_owned())].into(),
            },
        )
        .unwrap();
    let changed = events.approval_required().await;
    assert_eq!(changed.tool_call_id, "w1");
    // The person's own call, not the one that waited at the restart.
    assert!(!changed.resumed);
    second
        .resolve_approval(changed.approval_id, Decision::Approve)
        .unwrap();
    assert_eq!(
        resumed_run_finished(&mut events).await,
        RunStatus::Completed
    );
    assert!(workspace.join("b.txt").exists() && !workspace.join("a.txt").exists());
}

#[tokio::test]
async fn a_task_that_kills_ask_first_each_time_it_goes_on_stops_being_gone_on_with() {
    let (_dir, data, workspace) = dirs();
    let (first, session, _) = card_waiting(&data, &workspace).await;
    std::mem::forget(first);
    // Two starts in a row go on with it and die (killed while its card waits again)…
    for _ in 0..2 {
        let (again, mut events) = app_runtime(&data, &workspace, write_then_done());
        assert_eq!(again.resume_interrupted(), Some(session));
        assert!(events.approval_required().await.resumed);
        std::mem::forget(again);
    }
    // …so the third does not: the app starts, the conversation is kept.
    let (third, events) = app_runtime(&data, &workspace, write_then_done());
    assert_eq!(third.resume_interrupted(), None);
    assert_eq!(mark_of(&data, session), None);
    assert!(!events
        .all()
        .iter()
        .any(|e| matches!(e, AgentEvent::ApprovalRequired(_))));
    assert!(!workspace.join("a.txt").exists());
}

#[tokio::test]
async fn closing_normally_lets_the_next_start_go_on_however_often_it_went_on_before() {
    let (_dir, data, workspace) = dirs();
    let (first, session, _) = card_waiting(&data, &workspace).await;
    std::mem::forget(first);
    for _ in 0..3 {
        let (again, mut events) = app_runtime(&data, &workspace, write_then_done());
        assert_eq!(again.resume_interrupted(), Some(session));
        assert!(events.approval_required().await.resumed);
        // Quit with the card waiting.
        again.shutdown();
        assert!(again.close(Duration::from_secs(10)).await);
        assert_eq!(mark_of(&data, session).map(|m| m.starts), Some(0));
    }
}
