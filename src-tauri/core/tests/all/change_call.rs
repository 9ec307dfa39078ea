//! "Change…" on a card (issue 43, point 3): the person changes a call before saying yes. The
//! old approval ends as `Changed` (logged with the changed arguments), the changed call is a
//! new proposal judged from scratch (a rule can still refuse it; a command is tried on the copy
//! again), Approve runs exactly it, and the model is told first that the person changed it.
//! Attacks: a path outside the folder, a path a "never" rule covers, a huge text, Save twice,
//! an argument the card does not offer, a change after Stop.

use super::policy::{rules, TIMEOUT};
use super::support::{finished, harness, harness_with, Harness};
use super::try_first::{commands, tried_first};
use askfirst_core::approvals::{AnswerMode, ApprovalError, ChangeProblem};
use askfirst_core::audit::AuditRecord;
use askfirst_core::policy::Rules;
use askfirst_core::provider::Message;
use askfirst_protocol::{
    AgentEvent, ApprovalId, CallDetail, ChangeKind, Decision, Outcome, PolicyLayer, RunStatus,
    ToolCallStatus,
};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::collections::BTreeMap;

/// A scenario of one `write_file` of `path` with `content`, then "done".
fn write(path: &str, content: &str) -> serde_json::Value {
    json!({"turns": [
        {"tool_calls": [{"id": "call_1", "name": "write_file",
                         "arguments": {"path": path, "content": content}}]},
        {"say": "done"}
    ]})
}

fn change(fields: &[(&str, &str)]) -> Decision {
    Decision::Change {
        fields: fields
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect::<BTreeMap<_, _>>(),
    }
}

/// The result the model was sent for `call_id` in its last request.
fn result_for_model(h: &Harness, call_id: &str) -> String {
    let requests = h.requests.lock().unwrap();
    let last = requests.last().expect("the model was asked again");
    last.iter()
        .find_map(|m| match m {
            Message::ToolResult {
                tool_call_id,
                content,
                ..
            } if tool_call_id == call_id => Some(content.clone()),
            _ => None,
        })
        .expect("the call has a result")
}

fn cards(events: &[AgentEvent]) -> Vec<askfirst_protocol::ApprovalRequest> {
    events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ApprovalRequired(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

fn changed_events(events: &[AgentEvent]) -> Vec<(String, String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ToolCallChanged {
                tool_call_id,
                asked_arguments_json,
                arguments_json,
                ..
            } => Some((
                tool_call_id.clone(),
                asked_arguments_json.clone(),
                arguments_json.clone(),
            )),
            _ => None,
        })
        .collect()
}

/// The outcome recorded (`approval_decided`) for `id`.
fn decided(h: &Harness, id: ApprovalId) -> Outcome {
    h.audit
        .all()
        .into_iter()
        .find_map(|r| match r {
            AuditRecord::ApprovalDecided {
                approval_id,
                outcome,
                ..
            } if approval_id == id => Some(outcome),
            _ => None,
        })
        .expect("the outcome was recorded")
}

#[tokio::test]
async fn a_changed_write_runs_exactly_the_changed_call_and_the_model_is_told() {
    let mut h = harness(write("draft.txt", "hello"), TIMEOUT);
    h.runtime.start_run("write it").unwrap();
    let first = h.events.approval_required().await;
    assert_eq!(
        first.editable,
        vec!["path".to_owned(), "content".to_owned()]
    );
    let outcome = h
        .runtime
        .resolve_approval(
            first.approval_id,
            change(&[("path", "notes/plan.txt"), ("content", "hello there\n")]),
        )
        .unwrap();
    let changed_args = r#"{"content":"hello there\n","path":"notes/plan.txt"}"#;
    assert_eq!(
        outcome,
        Outcome::Changed {
            arguments_json: changed_args.to_owned(),
            arguments_sha256: askfirst_core::approvals::sha256_hex(changed_args.as_bytes()),
        }
    );
    // The changed call is a new card: its own id, the model's tool-call id, the new diff.
    let second = h.events.approval_required().await;
    assert_ne!(second.approval_id, first.approval_id);
    assert_eq!(second.tool_call_id, "call_1");
    assert_eq!(second.arguments_json, changed_args);
    let preview = second.preview.clone().unwrap_or_default();
    assert!(preview.contains("notes/plan.txt"), "{preview}");
    assert!(preview.contains("+hello there"), "{preview}");
    assert!(!std::path::Path::exists(
        &h.dir.path().join("notes/plan.txt")
    ));
    h.runtime
        .resolve_approval(second.approval_id, Decision::Approve)
        .unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    // Exactly the changed call ran; the asked one did not.
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("notes/plan.txt")).unwrap(),
        "hello there\n"
    );
    assert!(!h.dir.path().join("draft.txt").exists());
    // The model is told first, in one sentence, that the person changed it, and to what.
    let told = result_for_model(&h, "call_1");
    assert!(
        told.starts_with(&format!(
            "The person changed this call before approving it; what ran was: write_file \
             {changed_args}\n"
        )),
        "{told}"
    );
    // The log keeps the call asked and the call run.
    assert_eq!(decided(&h, first.approval_id), outcome);
    let asked_args = first.arguments_json.as_str();
    assert_eq!(
        changed_events(&h.events.all()),
        vec![(
            "call_1".to_owned(),
            asked_args.to_owned(),
            changed_args.to_owned()
        )]
    );
    assert_eq!(
        finished(&h.events.all())
            .iter()
            .map(|f| f.status)
            .collect::<Vec<_>>(),
        vec![ToolCallStatus::Succeeded]
    );
}

#[tokio::test]
async fn a_changed_path_a_never_rule_covers_is_refused() {
    let mut h = harness_with(
        write("notes.txt", "x"),
        TIMEOUT,
        rules("[[deny]]\ntool = \"*\"\nmatch = \"Taxes/**\"\n"),
        AnswerMode::Interactive,
    );
    std::fs::create_dir(h.dir.path().join("Taxes")).unwrap();
    h.runtime.start_run("write").unwrap();
    let card = h.events.approval_required().await;
    h.runtime
        .resolve_approval(card.approval_id, change(&[("path", "Taxes/2024.txt")]))
        .unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    let events = h.events.all();
    // No second card: the rule refused the changed call.
    assert_eq!(cards(&events).len(), 1);
    let ended = finished(&events);
    assert_eq!(ended.len(), 1);
    assert_eq!(ended[0].status, ToolCallStatus::Denied);
    assert_eq!(ended[0].policy_layer, Some(PolicyLayer::UserRule));
    assert!(!h.dir.path().join("Taxes/2024.txt").exists());
    assert!(!h.dir.path().join("notes.txt").exists());
    let told = result_for_model(&h, "call_1");
    assert!(
        told.starts_with(
            "The person changed this call before approving it, to: write_file \
             {\"content\":\"x\",\"path\":\"Taxes/2024.txt\"}. That changed call did not run"
        ),
        "{told}"
    );
}

#[tokio::test]
async fn a_changed_path_outside_the_folder_does_not_run() {
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("escaped.txt");
    for path in [
        "../escaped.txt".to_owned(),
        target.to_string_lossy().into_owned(),
    ] {
        let mut h = harness(write("inside.txt", "x"), TIMEOUT);
        h.runtime.start_run("write").unwrap();
        let card = h.events.approval_required().await;
        h.runtime
            .resolve_approval(card.approval_id, change(&[("path", &path)]))
            .unwrap();
        // Whatever follows (a refusal, or a card saying it is outside), approving any card
        // that comes never writes outside the folder.
        loop {
            let next = h
                .events
                .next_matching(|e| match e {
                    AgentEvent::ApprovalRequired(r) => Some(Some(r.clone())),
                    AgentEvent::RunFinished { .. } => Some(None),
                    _ => None,
                })
                .await;
            match next {
                Some(request) => {
                    let _ = h
                        .runtime
                        .resolve_approval(request.approval_id, Decision::Approve);
                }
                None => break,
            }
        }
        assert!(!h.dir.path().parent().unwrap().join("escaped.txt").exists());
        assert!(!target.exists(), "{path}");
        let ended = finished(&h.events.all());
        assert_ne!(ended[0].status, ToolCallStatus::Succeeded, "{path}");
    }
}

#[tokio::test]
async fn saving_twice_changes_the_call_once() {
    let mut h = harness(write("a.txt", "1"), TIMEOUT);
    h.runtime.start_run("write").unwrap();
    let card = h.events.approval_required().await;
    let answer = change(&[("content", "2")]);
    assert!(matches!(
        h.runtime.resolve_approval(card.approval_id, answer.clone()),
        Ok(Outcome::Changed { .. })
    ));
    assert_eq!(
        h.runtime.resolve_approval(card.approval_id, answer),
        Err(ApprovalError::NotPending(card.approval_id))
    );
    let second = h.events.approval_required().await;
    h.runtime
        .resolve_approval(second.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events).len(), 2);
    assert_eq!(changed_events(&events).len(), 1);
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("a.txt")).unwrap(),
        "2"
    );
}

#[tokio::test]
async fn a_change_the_card_cannot_take_leaves_it_waiting_as_it_was() {
    let scenario = json!({"turns": [
        {"tool_calls": [{"id": "call_1", "name": "edit_file",
                         "arguments": {"path": "a.txt", "old_text": "one", "new_text": "two"}}]},
        {"say": "done"}
    ]});
    let mut h = harness(scenario, TIMEOUT);
    std::fs::write(h.dir.path().join("a.txt"), "one\n").unwrap();
    h.runtime.start_run("edit").unwrap();
    let card = h.events.approval_required().await;
    assert_eq!(
        card.editable,
        vec!["path".to_owned(), "new_text".to_owned()]
    );
    let id = card.approval_id;
    let cannot = |problem| Err(ApprovalError::CannotChange { id, problem });
    // An argument the card does not offer.
    assert_eq!(
        h.runtime.resolve_approval(id, change(&[("old_text", "o")])),
        cannot(ChangeProblem::Field("old_text".to_owned()))
    );
    // A text larger than a model's call may be (the bound of one reply).
    let huge = "x".repeat(askfirst_core::approvals::MAX_CHANGED_ARGUMENTS_BYTES + 1);
    assert!(matches!(
        h.runtime
            .resolve_approval(id, change(&[("new_text", &huge)])),
        Err(ApprovalError::CannotChange {
            problem: ChangeProblem::TooBig { .. },
            ..
        })
    ));
    drop(huge);
    // The same call again.
    assert_eq!(
        h.runtime
            .resolve_approval(id, change(&[("new_text", "two")])),
        cannot(ChangeProblem::Same)
    );
    // The card still waits, unchanged, and Approve runs the model's call.
    assert_eq!(h.runtime.list_pending_approvals(), vec![card.clone()]);
    h.runtime.resolve_approval(id, Decision::Approve).unwrap();
    h.events.run_finished().await;
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("a.txt")).unwrap(),
        "two\n"
    );
    assert!(changed_events(&h.events.all()).is_empty());
}

#[tokio::test]
async fn a_change_after_stop_changes_nothing() {
    let mut h = harness(write("a.txt", "1"), TIMEOUT);
    let run = h.runtime.start_run("write").unwrap();
    let card = h.events.approval_required().await;
    h.runtime.cancel_run(run.run_id);
    assert_eq!(
        h.runtime
            .resolve_approval(card.approval_id, change(&[("path", "b.txt")])),
        Err(ApprovalError::NotPending(card.approval_id))
    );
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Cancelled);
    assert!(changed_events(&h.events.all()).is_empty());
    assert!(!h.dir.path().join("a.txt").exists());
    assert!(!h.dir.path().join("b.txt").exists());
}

#[tokio::test]
async fn a_change_the_rules_allow_runs_without_a_second_card() {
    let mut h = harness_with(
        write("notes.txt", "x"),
        TIMEOUT,
        rules("[[allow]]\ntool = \"write_file\"\nmatch = \"Drafts/*.txt\"\n"),
        AnswerMode::Interactive,
    );
    std::fs::create_dir(h.dir.path().join("Drafts")).unwrap();
    h.runtime.start_run("write").unwrap();
    let card = h.events.approval_required().await;
    h.runtime
        .resolve_approval(card.approval_id, change(&[("path", "Drafts/a.txt")]))
        .unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events).len(), 1);
    let ended = finished(&events);
    assert_eq!(ended[0].status, ToolCallStatus::Succeeded);
    assert_eq!(ended[0].policy_layer, Some(PolicyLayer::UserRule));
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("Drafts/a.txt")).unwrap(),
        "x"
    );
    assert!(result_for_model(&h, "call_1")
        .starts_with("The person changed this call before approving it; what ran was:"));
}

#[tokio::test]
async fn a_changed_command_is_tried_on_the_copy_again() {
    let mut h = harness_with(
        commands(&["echo one > one.txt"]),
        TIMEOUT,
        Rules::default(),
        AnswerMode::Interactive,
    );
    if !tried_first(h.dir.path()) {
        return;
    }
    h.runtime.start_run("command").unwrap();
    let card = h.events.approval_required().await;
    let changes = |request: &askfirst_protocol::ApprovalRequest| match &request.detail {
        Some(CallDetail::Command {
            tried: Some(tried), ..
        }) => tried
            .changes
            .iter()
            .map(|c| (c.change, c.path.clone()))
            .collect::<Vec<_>>(),
        other => panic!("no tried command on the card: {other:?}"),
    };
    assert_eq!(
        changes(&card),
        vec![(ChangeKind::Created, "one.txt".to_owned())]
    );
    assert_eq!(card.editable, vec!["command".to_owned()]);
    h.runtime
        .resolve_approval(
            card.approval_id,
            change(&[("command", "echo two > two.txt")]),
        )
        .unwrap();
    // The changed command was tried again: its card shows what it did.
    let second = h.events.approval_required().await;
    assert_eq!(
        changes(&second),
        vec![(ChangeKind::Created, "two.txt".to_owned())]
    );
    h.runtime
        .resolve_approval(second.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    assert!(!h.dir.path().join("one.txt").exists());
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("two.txt")).unwrap(),
        "two\n"
    );
}

#[tokio::test]
async fn a_changed_command_a_never_rule_covers_is_refused_after_its_try() {
    let mut h = harness_with(
        commands(&["echo one > one.txt"]),
        TIMEOUT,
        rules("[[deny]]\ntool = \"*\"\nmatch = \"Taxes/**\"\n"),
        AnswerMode::Interactive,
    );
    if !tried_first(h.dir.path()) {
        return;
    }
    std::fs::create_dir(h.dir.path().join("Taxes")).unwrap();
    h.runtime.start_run("command").unwrap();
    let card = h.events.approval_required().await;
    h.runtime
        .resolve_approval(
            card.approval_id,
            change(&[("command", "echo gone > Taxes/2024.txt")]),
        )
        .unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    // No card: the rule's place is hidden from the changed command when it is tried (or its
    // change there is refused), and nothing of it is applied.
    assert_eq!(cards(&events).len(), 1);
    assert_ne!(finished(&events)[0].status, ToolCallStatus::Succeeded);
    assert!(!h.dir.path().join("Taxes/2024.txt").exists());
    assert!(!h.dir.path().join("one.txt").exists());
}

#[tokio::test]
async fn a_reopened_conversation_shows_the_call_asked_and_the_call_run() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let scenario = write("a.txt", "A");
    let (first, mut events) = super::sessions::app_runtime(&data, &workspace, scenario);
    let session = first.session_id();
    first.start_run("Write a.txt").unwrap();
    let card = events.approval_required().await;
    first
        .resolve_approval(card.approval_id, change(&[("path", "b.txt")]))
        .unwrap();
    let second = events.approval_required().await;
    first
        .resolve_approval(second.approval_id, Decision::Approve)
        .unwrap();
    events.run_finished().await;
    let live = changed_events(&events.all());
    drop(first);

    let (again, events) =
        super::sessions::app_runtime(&data, &workspace, json!({"turns": [{"say": "ok"}]}));
    again.open_session(session).unwrap();
    let replayed = events.all();
    assert_eq!(changed_events(&replayed), live);
    assert_eq!(
        live,
        vec![(
            "call_1".to_owned(),
            card.arguments_json.clone(),
            r#"{"content":"A","path":"b.txt"}"#.to_owned()
        )]
    );
    // Its end is replayed as it happened.
    let ended = finished(&replayed);
    assert_eq!(ended.len(), 1);
    assert_eq!(ended[0].status, ToolCallStatus::Succeeded);
}
