//! The agent loop end to end with a scripted model over a temporary workspace.

use super::support::{finished_outputs, finished_statuses, harness, write_hello};
use askfirst_core::agent::{denial_text, RunError, USER_DENIAL_TAIL};
use askfirst_core::provider::Message;
use askfirst_protocol::{AgentEvent, Decision, DenialSource, RunStatus, ToolCallStatus};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);

fn tool_results(messages: &[Message]) -> Vec<(String, String, bool)> {
    messages
        .iter()
        .filter_map(|m| match m {
            Message::ToolResult {
                tool_call_id,
                content,
                is_error,
            } => Some((tool_call_id.clone(), content.clone(), *is_error)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn approve_writes_exactly_the_shown_content() {
    let mut h = harness(write_hello(), TIMEOUT);
    let started = h.runtime.start_run("Say hello").unwrap();
    let request = h.events.approval_required().await;
    assert_eq!(request.run_id, started.run_id);
    assert_eq!(request.tool_name, "write_file");
    assert_eq!(request.summary, "Create the file hello.txt (1 line)");
    assert!(
        !h.dir.path().join("hello.txt").exists(),
        "nothing is written before the click"
    );

    h.runtime
        .resolve_approval(request.approval_id, Decision::Approve)
        .unwrap();
    let (run_id, status, message) = h.events.run_finished().await;
    assert_eq!(
        (run_id, status, message),
        (started.run_id, RunStatus::Completed, None)
    );
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("hello.txt")).unwrap(),
        "Hello from Ask First\n"
    );
    assert_eq!(
        finished_statuses(&h.events.all()),
        vec![ToolCallStatus::Succeeded]
    );
    // A second answer is refused and changes nothing.
    assert!(h
        .runtime
        .resolve_approval(request.approval_id, Decision::Approve)
        .is_err());
}

#[tokio::test]
async fn deny_does_not_write_and_the_model_is_told() {
    let mut h = harness(write_hello(), TIMEOUT);
    h.runtime.start_run("Say hello").unwrap();
    let request = h.events.approval_required().await;
    h.runtime
        .resolve_approval(request.approval_id, Decision::Deny { note: None })
        .unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert!(!h.dir.path().join("hello.txt").exists());
    let requests = h.requests.lock().unwrap().clone();
    assert_eq!(
        requests.len(),
        2,
        "the model was asked again after the denial"
    );
    assert_eq!(
        tool_results(&requests[1]),
        vec![(
            "call_1".to_owned(),
            format!("The user denied this action. {USER_DENIAL_TAIL}"),
            true
        )]
    );
    let final_message = h.events.all().into_iter().rev().find_map(|e| match e {
        AgentEvent::AssistantMessage { text, .. } => Some(text),
        _ => None,
    });
    assert_eq!(final_message.as_deref(), Some("Finished."));
}

#[tokio::test]
async fn a_note_with_the_denial_reaches_the_model() {
    let mut h = harness(write_hello(), TIMEOUT);
    h.runtime.start_run("Say hello").unwrap();
    let request = h.events.approval_required().await;
    let note = Some("Call it greeting.txt instead".to_owned());
    h.runtime
        .resolve_approval(request.approval_id, Decision::Deny { note })
        .unwrap();
    h.events.run_finished().await;
    let requests = h.requests.lock().unwrap().clone();
    let (_, content, _) = tool_results(&requests[1]).remove(0);
    assert_eq!(
        content,
        denial_text(DenialSource::User, Some("Call it greeting.txt instead"))
    );
    assert!(content.contains("Call it greeting.txt instead"));
}

#[tokio::test(start_paused = true)]
async fn no_answer_times_out_as_denied() {
    let mut h = harness(write_hello(), Duration::from_secs(5));
    h.runtime.start_run("Say hello").unwrap();
    h.events.approval_required().await;
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert!(!h.dir.path().join("hello.txt").exists());
    assert_eq!(
        finished_statuses(&h.events.all()),
        vec![ToolCallStatus::Denied]
    );
    let requests = h.requests.lock().unwrap().clone();
    let (_, content, _) = tool_results(&requests[1]).remove(0);
    assert_eq!(content, denial_text(DenialSource::Timeout, None));
}

#[tokio::test]
async fn reading_runs_without_asking() {
    let mut h = harness(
        json!({"turns": [
            {"tool_calls": [{"name": "list_directory", "arguments": {"path": "."}}]},
            {"say": "Seen."}
        ]}),
        TIMEOUT,
    );
    std::fs::write(h.dir.path().join("notes.txt"), "abc").unwrap();
    std::fs::create_dir(h.dir.path().join("Photos")).unwrap();
    h.runtime.start_run("What is there?").unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    let events = h.events.all();
    assert!(!events
        .iter()
        .any(|e| matches!(e, AgentEvent::ApprovalRequired(_))));
    let requests = h.requests.lock().unwrap().clone();
    assert_eq!(
        tool_results(&requests[1]),
        vec![(
            "call_1".to_owned(),
            "Photos/\nnotes.txt (3 bytes)".to_owned(),
            false
        )]
    );
}

#[tokio::test]
async fn bad_calls_become_tool_errors_without_a_card() {
    let mut h = harness(
        json!({"turns": [
            {"tool_calls": [
                {"name": "write_file", "arguments_json": "{\"path\": \"a.txt\", \"content\": "},
                {"name": "format_disk", "arguments": {}},
                {"name": "write_file", "arguments": {"path": "../outside.txt", "content": "x"}},
                {"name": "write_file", "arguments": {"path": "/tmp/abs.txt", "content": "x"}}
            ]},
            {"say": "Sorry."}
        ]}),
        TIMEOUT,
    );
    h.runtime.start_run("Try things").unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    let events = h.events.all();
    assert!(!events
        .iter()
        .any(|e| matches!(e, AgentEvent::ApprovalRequired(_))));
    assert_eq!(finished_statuses(&events), vec![ToolCallStatus::Failed; 4]);
    let requests = h.requests.lock().unwrap().clone();
    let results = tool_results(&requests[1]);
    let ids: Vec<&str> = results.iter().map(|(id, _, _)| id.as_str()).collect();
    assert_eq!(
        ids,
        vec!["call_1", "call_2", "call_3", "call_4"],
        "one result per call, in order"
    );
    assert!(results[0]
        .1
        .starts_with("The arguments for write_file are not valid"));
    assert!(results[1]
        .1
        .starts_with("There is no tool named \"format_disk\""));
    assert!(results[2].1.contains("outside the workspace"));
    assert!(results[3].1.contains("outside the workspace"));
    assert!(!h.dir.path().parent().unwrap().join("outside.txt").exists());
}

#[tokio::test]
async fn cancel_while_waiting_cancels_the_approval_and_runs_nothing() {
    let mut h = harness(write_hello(), TIMEOUT);
    let started = h.runtime.start_run("Say hello").unwrap();
    let request = h.events.approval_required().await;
    assert!(h.runtime.cancel_run(started.run_id));
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Cancelled);
    assert!(!h.dir.path().join("hello.txt").exists());
    assert!(h
        .runtime
        .resolve_approval(request.approval_id, Decision::Approve)
        .is_err());
    assert_eq!(h.runtime.list_pending_approvals(), vec![]);
    assert_eq!(
        finished_statuses(&h.events.all()),
        vec![ToolCallStatus::Cancelled]
    );
    // A second cancel is a quiet no-op.
    assert!(!h.runtime.cancel_run(started.run_id));
}

/// Quitting with approvals waiting: every one of them, and every call and the run, is recorded
/// as ended by the app closing — never as if the person had pressed Stop.
#[tokio::test]
async fn quitting_while_cards_wait_never_says_the_person_stopped_anything() {
    let write =
        |name: &str| json!({"name": "write_file", "arguments": {"path": name, "content": "1"}});
    let mut h = harness(
        json!({"turns": [{"tool_calls": [write("a.txt"), write("b.txt"), write("c.txt")]}, {"say": "ok"}]}),
        TIMEOUT,
    );
    h.runtime.start_run("Write three files").unwrap();
    for _ in 0..3 {
        h.events.approval_required().await;
    }
    h.runtime.shutdown();
    let (_, status, message) = h.events.run_finished().await;
    assert_eq!(
        (status, message.as_deref()),
        (
            RunStatus::Cancelled,
            Some("Ask First was closed while the agent was working.")
        )
    );
    let outputs = finished_outputs(&h.events.all());
    assert_eq!(outputs.len(), 3);
    for (_, output) in &outputs {
        assert!(output.contains("The app was closed"), "{output}");
    }
    let causes = h.audit.decided_outcomes();
    assert_eq!(
        causes,
        vec![
            askfirst_protocol::Outcome::Cancelled {
                cause: askfirst_protocol::CancelCause::AppShutdown
            };
            3
        ]
    );
    for c in ["a.txt", "b.txt", "c.txt"] {
        assert!(!h.dir.path().join(c).exists());
    }
}

#[tokio::test]
async fn the_same_denied_call_is_not_asked_again_in_the_run() {
    let call = json!({"name": "write_file", "arguments": {"path": "x.txt", "content": "1"}});
    let same_reordered = json!({"name": "write_file", "arguments_json": "{ \"content\": \"1\", \"path\": \"x.txt\" }"});
    let mut h = harness(
        json!({"turns": [{"tool_calls": [call]}, {"tool_calls": [same_reordered]}, {"say": "ok"}]}),
        TIMEOUT,
    );
    h.runtime.start_run("x").unwrap();
    let request = h.events.approval_required().await;
    h.runtime
        .resolve_approval(request.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
    let asked = h
        .events
        .all()
        .iter()
        .filter(|e| matches!(e, AgentEvent::ApprovalRequired(_)))
        .count();
    assert_eq!(asked, 1);
    assert_eq!(
        finished_statuses(&h.events.all()),
        vec![ToolCallStatus::Denied, ToolCallStatus::Denied]
    );
}

#[tokio::test]
async fn empty_task_and_second_run_are_refused() {
    let mut h = harness(write_hello(), TIMEOUT);
    assert_eq!(h.runtime.start_run("   ").unwrap_err(), RunError::EmptyTask);
    h.runtime.start_run("one").unwrap();
    h.events.approval_required().await;
    assert_eq!(h.runtime.start_run("two").unwrap_err(), RunError::Busy);
}

#[tokio::test]
async fn a_script_that_runs_out_fails_the_run_loudly() {
    let mut h = harness(
        json!({"turns": [{"tool_calls": [{"name": "list_directory", "arguments": {"path": "."}}]}]}),
        TIMEOUT,
    );
    h.runtime.start_run("x").unwrap();
    let (_, status, message) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Failed);
    assert_eq!(
        message.as_deref(),
        Some(
            "The scripted scenario has no turn left for model call 2; it has 1 turns. Add a \
             turn to the scenario file, or give the agent a smaller task."
        )
    );
}

#[tokio::test]
async fn parallel_calls_show_all_cards_at_once_and_each_answer_is_its_own() {
    let mut h = harness(
        json!({"turns": [
            {"tool_calls": [
                {"name": "write_file", "arguments": {"path": "one.txt", "content": "1"}},
                {"name": "write_file", "arguments": {"path": "two.txt", "content": "2"}}
            ]},
            {"say": "done"}
        ]}),
        TIMEOUT,
    );
    h.runtime.start_run("two files").unwrap();
    let first = h.events.approval_required().await;
    let second = h.events.approval_required().await;
    assert_eq!(
        h.runtime.list_pending_approvals().len(),
        2,
        "both cards wait at once"
    );
    // Answered out of order: the second is denied before the first is approved.
    h.runtime
        .resolve_approval(second.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.runtime
        .resolve_approval(first.approval_id, Decision::Approve)
        .unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("one.txt")).unwrap(),
        "1"
    );
    assert!(!h.dir.path().join("two.txt").exists());
    assert_eq!(
        finished_statuses(&h.events.all()),
        vec![ToolCallStatus::Succeeded, ToolCallStatus::Denied]
    );
    let requests = h.requests.lock().unwrap().clone();
    let ids: Vec<String> = tool_results(&requests[1])
        .into_iter()
        .map(|(id, _, _)| id)
        .collect();
    assert_eq!(
        ids,
        vec!["call_1".to_owned(), "call_2".to_owned()],
        "results in the model's order"
    );
}

#[tokio::test]
async fn a_file_the_person_changed_while_the_card_waited_is_not_overwritten() {
    let mut h = harness(
        json!({"turns": [
            {"say": "Replacing.", "tool_calls": [
                {"name": "write_file", "arguments": {"path": "notes.txt", "content": "new\n"}},
                {"name": "edit_file", "arguments": {"path": "list.txt", "old_text": "milk", "new_text": "oat milk"}}
            ]},
            {"say": "Done."}
        ]}),
        TIMEOUT,
    );
    let notes = h.dir.path().join("notes.txt");
    let list = h.dir.path().join("list.txt");
    std::fs::write(&notes, "line 1\nline 2\n").unwrap();
    std::fs::write(&list, "milk\neggs\n").unwrap();
    h.runtime.start_run("Tidy").unwrap();
    let first = h.events.approval_required().await;
    let second = h.events.approval_required().await;
    // The person keeps working in another editor while the cards wait.
    std::fs::write(&notes, "line 1\nline 2\nMy own paragraph.\n").unwrap();
    std::fs::write(&list, "milk\neggs\nbread\n").unwrap();
    for request in [first, second] {
        h.runtime
            .resolve_approval(request.approval_id, Decision::Approve)
            .unwrap();
    }
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "line 1\nline 2\nMy own paragraph.\n"
    );
    assert_eq!(
        std::fs::read_to_string(&list).unwrap(),
        "milk\neggs\nbread\n"
    );
    let outputs = finished_outputs(&h.events.all());
    assert_eq!(outputs.len(), 2);
    for (status, output) in outputs {
        assert_eq!(status, ToolCallStatus::Failed);
        assert!(
            output.starts_with("Not done: the file or folder changed after this was shown"),
            "{output}"
        );
    }
}

#[tokio::test]
async fn a_folder_that_filled_up_while_the_card_waited_is_not_moved_to_the_trash() {
    let mut h = harness(
        json!({"turns": [
            {"say": "Clearing up.", "tool_calls": [
                {"name": "delete_path", "arguments": {"path": "old"}}
            ]},
            {"say": "Done."}
        ]}),
        TIMEOUT,
    );
    let folder = h.dir.path().join("old");
    std::fs::create_dir_all(&folder).unwrap();
    h.runtime.start_run("Remove the empty folder").unwrap();
    let request = h.events.approval_required().await;
    assert!(
        request.summary.contains("it is empty"),
        "{}",
        request.summary
    );
    // The person saves their work into it while the card waits.
    std::fs::write(folder.join("thesis.docx"), "chapter 1").unwrap();
    h.runtime
        .resolve_approval(request.approval_id, Decision::Approve)
        .unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert!(folder.join("thesis.docx").exists());
    let outputs = finished_outputs(&h.events.all());
    assert_eq!(outputs.len(), 1);
    assert_eq!(outputs[0].0, ToolCallStatus::Failed);
    assert!(
        outputs[0]
            .1
            .starts_with("Not done: the file or folder changed after this was shown"),
        "{}",
        outputs[0].1
    );
}

#[tokio::test]
async fn two_calls_creating_the_same_file_cannot_both_write_it() {
    let mut h = harness(
        json!({"turns": [
            {"say": "Twice.", "tool_calls": [
                {"name": "write_file", "arguments": {"path": "a.txt", "content": "first\n"}},
                {"name": "write_file", "arguments": {"path": "a.txt", "content": "second\n"}}
            ]},
            {"say": "Done."}
        ]}),
        TIMEOUT,
    );
    h.runtime.start_run("Write").unwrap();
    let first = h.events.approval_required().await;
    let second = h.events.approval_required().await;
    assert_eq!(first.summary, "Create the file a.txt (1 line)");
    assert_eq!(second.summary, "Create the file a.txt (1 line)");
    for request in [first, second] {
        h.runtime
            .resolve_approval(request.approval_id, Decision::Approve)
            .unwrap();
    }
    h.events.run_finished().await;
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("a.txt")).unwrap(),
        "first\n"
    );
    let statuses: Vec<ToolCallStatus> = finished_outputs(&h.events.all())
        .into_iter()
        .map(|(s, _)| s)
        .collect();
    assert_eq!(
        statuses,
        vec![ToolCallStatus::Succeeded, ToolCallStatus::Failed]
    );
}

/// Found by a third hostile review: two calls of one reply with the same id. Each call gets an
/// id of its own in the run, so the person's answers, the outcomes and the transcript stay with
/// the right call.
#[tokio::test]
async fn two_calls_with_one_id_keep_their_own_outcomes() {
    let write = |path: &str| {
        serde_json::json!({"id": "dup", "name": "write_file",
            "arguments": {"path": path, "content": "x"}})
    };
    let mut h = super::support::harness(
        serde_json::json!({"turns": [
            {"tool_calls": [write("a.txt"), write("b.txt")]},
            {"tool_calls": [write("c.txt")]},
            {"say": "done"}
        ]}),
        std::time::Duration::from_secs(60),
    );
    h.runtime.start_run("write").unwrap();
    let first = h.events.approval_required().await;
    let second = h.events.approval_required().await;
    assert_ne!(first.tool_call_id, second.tool_call_id);
    assert!(first.arguments_json.contains("a.txt"), "{first:?}");
    h.runtime
        .resolve_approval(first.approval_id, askfirst_protocol::Decision::Approve)
        .unwrap();
    h.runtime
        .resolve_approval(
            second.approval_id,
            askfirst_protocol::Decision::Deny { note: None },
        )
        .unwrap();
    let third = h.events.approval_required().await;
    assert!(
        third.tool_call_id != first.tool_call_id && third.tool_call_id != second.tool_call_id,
        "{third:?}"
    );
    h.runtime
        .resolve_approval(third.approval_id, askfirst_protocol::Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    let done = super::support::finished(&h.events.all());
    let by_id = |id: &str| done.iter().find(|d| d.tool_call_id == id).map(|d| d.status);
    assert_eq!(
        by_id(&first.tool_call_id),
        Some(askfirst_protocol::ToolCallStatus::Succeeded)
    );
    assert_eq!(
        by_id(&second.tool_call_id),
        Some(askfirst_protocol::ToolCallStatus::Denied)
    );
    assert!(h.dir.path().join("a.txt").exists() && !h.dir.path().join("b.txt").exists());
    assert!(h.dir.path().join("c.txt").exists());
    // The model is sent each result under its call's own id.
    let sent = h.requests.lock().unwrap().last().cloned().unwrap();
    let text = serde_json::to_string(&sent).unwrap();
    assert!(
        text.contains(&format!("\"{}\"", second.tool_call_id)),
        "{text}"
    );
}

/// A model service that fails its first answer (HTTP 503), then answers; records what it is sent.
struct FailsOnce {
    calls: std::sync::Mutex<Vec<Vec<Message>>>,
}

#[async_trait::async_trait]
impl askfirst_core::provider::Provider for FailsOnce {
    fn display_name(&self) -> String {
        "fails once".into()
    }
    async fn step(
        &self,
        messages: &[Message],
        _tools: &[askfirst_core::tools::ToolSpec],
        _deltas: &askfirst_core::provider::DeltaSink<'_>,
    ) -> Result<askfirst_core::provider::ModelTurn, askfirst_core::provider::ProviderError> {
        let mut calls = self.calls.lock().unwrap();
        calls.push(messages.to_vec());
        if calls.len() == 1 {
            return Err(askfirst_core::provider::ProviderError::ServerError {
                host: "api.example.com".into(),
                status: 503,
                tries: 4,
                detail: "overloaded".into(),
            });
        }
        Ok(askfirst_core::provider::ModelTurn {
            text: Some("Done.".into()),
            tool_calls: Vec::new(),
        })
    }
}

/// "Try again" after the model service failed: the same task started again is not told to the
/// model twice (the failed run left it as the conversation's last message); a task typed after
/// a run that answered is told, whatever its words.
#[tokio::test]
async fn the_same_task_tried_again_after_the_service_failed_is_said_once() {
    let provider = std::sync::Arc::new(FailsOnce {
        calls: std::sync::Mutex::new(Vec::new()),
    });
    let mut h = super::support::harness_with_provider(provider.clone());
    h.runtime.start_run("Sort my invoices").unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Failed);
    h.runtime.start_run("Sort my invoices").unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    h.runtime.start_run("Sort my invoices").unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    let users = |messages: &[Message]| {
        messages
            .iter()
            .filter(|m| matches!(m, Message::User { .. }))
            .count()
    };
    let calls = provider.calls.lock().unwrap().clone();
    assert_eq!(
        calls.iter().map(|c| users(c)).collect::<Vec<_>>(),
        [1, 1, 2]
    );
}
