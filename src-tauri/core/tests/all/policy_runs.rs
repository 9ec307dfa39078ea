//! Session grants, the session policy and refusals through the agent loop, and what the audit
//! log records of each decision.

use super::policy::{rules, TIMEOUT};
use super::support::{finished, finished_outputs, harness, harness_with, write_hello};
use askfirst_core::approvals::AnswerMode;
use askfirst_core::policy::Rules;
use askfirst_protocol::{
    AgentEvent, ApprovalScope, ApprovalSource, Decision, Outcome, PolicyLayer, RunStatus,
    SessionPolicy, ToolCallStatus,
};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::time::Duration;

fn asked(events: &[AgentEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, AgentEvent::ApprovalRequired(_)))
        .count()
}

fn statuses(events: &[AgentEvent]) -> Vec<(ToolCallStatus, Option<PolicyLayer>)> {
    finished(events)
        .into_iter()
        .map(|f| (f.status, f.policy_layer))
        .collect()
}

#[tokio::test]
async fn allow_for_this_session_grants_exactly_that_call() {
    let write = |content: &str| json!({"name": "write_file", "arguments": {"path": "a.txt", "content": content}});
    let scenario = json!({"turns": [{"tool_calls": [write("1")]}, {"say": "done"}]});
    let mut h = harness(scenario.clone(), TIMEOUT);
    h.runtime.start_run("one").unwrap();
    let request = h.events.approval_required().await;
    assert!(request.grant_scope.is_some());
    h.runtime
        .resolve_approval(request.approval_id, Decision::ApproveForSession)
        .unwrap();
    h.events.run_finished().await;
    assert_eq!(h.policy.grants().len(), 1);
    assert_eq!(
        h.policy.grants()[0].canonical_arguments,
        r#"{"content":"1","path":"a.txt"}"#
    );

    // The same call again (keys reordered) runs without a card; a different one asks.
    std::fs::remove_file(h.dir.path().join("a.txt")).unwrap();
    h.runtime.start_run("two").unwrap();
    h.events.run_finished().await;
    assert_eq!(asked(&h.events.all()), 1);
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("a.txt")).unwrap(),
        "1"
    );
    assert_eq!(
        statuses(&h.events.all()).last(),
        Some(&(ToolCallStatus::Succeeded, Some(PolicyLayer::SessionGrant)))
    );

    assert!(h
        .runtime
        .revoke_grant("write_file", r#"{"content":"1","path":"a.txt"}"#));
    h.runtime.start_run("three").unwrap();
    h.events.approval_required().await;
}

#[tokio::test]
async fn allow_for_this_session_also_answers_the_identical_calls_already_waiting() {
    // Writes (a command's card comes only after it was tried, one at a time).
    let write = |text: &str| json!({"name": "write_file", "arguments": {"path": "log.txt", "content": text}});
    let scenario = json!({"turns": [
        {"tool_calls": [write("one\n"), write("one\n"), write("two\n")]},
        {"say": "done"}
    ]});
    let mut h = harness(scenario, TIMEOUT);
    h.runtime.start_run("three commands").unwrap();
    let first = h.events.approval_required().await;
    let same = h.events.approval_required().await;
    let other = h.events.approval_required().await;
    assert!(first.grant_scope.is_some());
    h.runtime
        .resolve_approval(first.approval_id, Decision::ApproveForSession)
        .unwrap();
    // The identical one is answered by the grant; the different one still asks.
    let resolved = |id| {
        h.events.all().into_iter().find_map(|e| match e {
            AgentEvent::ApprovalResolved(resolved) if resolved.approval_id == id => {
                Some(resolved.outcome)
            }
            _ => None,
        })
    };
    for _ in 0..100 {
        if resolved(same.approval_id).is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        resolved(same.approval_id),
        Some(Outcome::Approved {
            scope: ApprovalScope::Session,
            source: ApprovalSource::Grant
        })
    );
    assert_eq!(
        h.runtime
            .list_pending_approvals()
            .iter()
            .map(|r| r.approval_id)
            .collect::<Vec<_>>(),
        vec![other.approval_id]
    );
    h.runtime
        .resolve_approval(other.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("log.txt")).unwrap(),
        "one\n"
    );
    // One grant, created by the person's answer (not again by the call it covered).
    assert_eq!(h.policy.grants().len(), 1);
    assert_eq!(
        h.audit
            .all()
            .iter()
            .filter(|r| matches!(r, askfirst_core::audit::AuditRecord::GrantCreated { .. }))
            .count(),
        1
    );
}

#[tokio::test]
async fn approve_once_never_creates_a_grant() {
    let mut h = harness(write_hello(), TIMEOUT);
    h.runtime.start_run("one").unwrap();
    let request = h.events.approval_required().await;
    h.runtime
        .resolve_approval(request.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    assert_eq!(h.policy.grants(), vec![]);
    h.runtime.start_run("again").unwrap();
    h.events.approval_required().await;
}

#[tokio::test]
async fn session_never_denies_without_asking() {
    let mut h = harness(write_hello(), TIMEOUT);
    h.runtime.set_session_policy(SessionPolicy::Never);
    h.runtime.start_run("one").unwrap();
    h.events.run_finished().await;
    assert_eq!(asked(&h.events.all()), 0);
    assert_eq!(
        statuses(&h.events.all()),
        vec![(ToolCallStatus::Denied, Some(PolicyLayer::SessionPolicy))]
    );
    assert!(!h.dir.path().join("hello.txt").exists());
    assert!(h.audit.all().iter().any(|r| matches!(
        r,
        askfirst_core::audit::AuditRecord::SessionPolicyChanged {
            policy: SessionPolicy::Never,
            ..
        }
    )));
}

#[tokio::test]
async fn dont_ask_me_now_also_refuses_what_already_waits() {
    let mut h = harness(write_hello(), TIMEOUT);
    h.runtime.start_run("one").unwrap();
    let request = h.events.approval_required().await;
    h.runtime.set_session_policy(SessionPolicy::Never);
    h.events.run_finished().await;
    assert!(h.runtime.list_pending_approvals().is_empty());
    assert!(!h.dir.path().join("hello.txt").exists());
    assert_eq!(
        statuses(&h.events.all()),
        vec![(ToolCallStatus::Denied, Some(PolicyLayer::ToolDefault))]
    );
    // Said as what the person did, not as a "no" to this card they may never have seen.
    let said: Vec<_> = finished_outputs(&h.events.all())
        .into_iter()
        .map(|(_, output)| output)
        .collect();
    assert_eq!(said.len(), 1);
    assert!(
        said[0].starts_with(
            "You said no, with the note: \"Don't ask me now: refuse whatever needs my OK\""
        ),
        "{}",
        said[0]
    );
    assert!(h
        .runtime
        .resolve_approval(request.approval_id, Decision::Approve)
        .is_err());
}

#[tokio::test]
async fn dont_ask_me_now_gives_no_card_more_time() {
    // Three cards running late (less than half of 2 s left): refusing them all at once is not
    // answering them one by one, so none is given more time, and the log does not say so.
    let write =
        |path: &str| json!({"name": "write_file", "arguments": {"path": path, "content": "x"}});
    let mut h = harness(
        json!({"turns": [{"tool_calls": [write("a.txt"), write("b.txt"), write("c.txt")]}, {"say": "done"}]}),
        Duration::from_secs(2),
    );
    h.runtime.start_run("three").unwrap();
    for _ in 0..3 {
        h.events.approval_required().await;
    }
    tokio::time::sleep(Duration::from_millis(1200)).await;
    h.runtime.set_session_policy(SessionPolicy::Never);
    h.events.run_finished().await;
    assert!(!h
        .events
        .all()
        .iter()
        .any(|e| matches!(e, AgentEvent::ApprovalExtended { .. })));
    assert!(!h.audit.all().iter().any(|r| matches!(
        r,
        askfirst_core::audit::AuditRecord::ApprovalExtended { .. }
    )));
    assert_eq!(
        statuses(&h.events.all()),
        vec![(ToolCallStatus::Denied, Some(PolicyLayer::ToolDefault)); 3]
    );
}

#[tokio::test]
async fn fail_closed_runs_deny_instead_of_waiting() {
    let mut h = harness_with(
        write_hello(),
        TIMEOUT,
        Rules::default(),
        AnswerMode::FailClosed,
    );
    h.runtime.start_run("one").unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert_eq!(asked(&h.events.all()), 0);
    assert_eq!(
        statuses(&h.events.all()),
        vec![(ToolCallStatus::Denied, Some(PolicyLayer::ToolDefault))]
    );
}

#[tokio::test]
async fn repeating_a_refused_call_three_times_stops_the_run() {
    let call = json!({"name": "write_file", "arguments": {"path": "x.txt", "content": "1"}});
    let turns: Vec<_> = (0..6)
        .map(|_| json!({"tool_calls": [call.clone()]}))
        .collect();
    let mut h = harness(json!({ "turns": turns }), TIMEOUT);
    h.runtime.start_run("x").unwrap();
    let request = h.events.approval_required().await;
    h.runtime
        .resolve_approval(request.approval_id, Decision::Deny { note: None })
        .unwrap();
    let (_, status, message) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Failed);
    assert!(message.unwrap().contains("already refused"));
    assert_eq!(asked(&h.events.all()), 1);
    assert_eq!(
        h.requests.lock().unwrap().len(),
        4,
        "the first call and three repeats"
    );
}

#[tokio::test]
async fn every_decision_is_audited_with_its_layer() {
    use askfirst_core::audit::AuditRecord;
    let mut h = harness(
        json!({"turns": [
            {"tool_calls": [{"name": "list_directory", "arguments": {"path": "."}}]},
            {"tool_calls": [{"name": "write_file", "arguments": {"path": "a.txt", "content": "x"}}]},
            {"say": "ok"}
        ]}),
        TIMEOUT,
    );
    h.runtime.start_run("x").unwrap();
    let request = h.events.approval_required().await;
    h.runtime
        .resolve_approval(request.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    let kinds: Vec<String> = h
        .audit
        .all()
        .iter()
        // The decisions (not the conversation, the transcript or the conversation's folder).
        .filter(|r| {
            !matches!(
                r,
                AuditRecord::Message { .. }
                    | AuditRecord::Event { .. }
                    | AuditRecord::FolderChosen { .. }
            )
        })
        .map(|r| match r {
            AuditRecord::PolicyDecided {
                allowed,
                policy_layer,
                ..
            } => format!("policy {allowed} {policy_layer:?}"),
            AuditRecord::ApprovalAsked {
                policy_layer,
                arguments_json,
                ..
            } => format!("asked {policy_layer:?} {arguments_json}"),
            AuditRecord::ApprovalDecided { outcome, .. } => {
                format!("decided {}", outcome.is_approved())
            }
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            "policy true ToolDefault".to_owned(),
            r#"asked ToolDefault {"content":"x","path":"a.txt"}"#.to_owned(),
            "decided true".to_owned(),
        ]
    );
}

#[tokio::test]
async fn allow_for_this_session_is_not_offered_past_an_ask_rule() {
    let mut h = harness_with(
        write_hello(),
        TIMEOUT,
        rules("[[ask]]\ntool = \"write_file\""),
        AnswerMode::Interactive,
    );
    h.runtime.start_run("x").unwrap();
    let request = h.events.approval_required().await;
    assert_eq!(request.policy_layer, PolicyLayer::UserRule);
    assert_eq!(request.grant_scope, None);
}

/// Found by an attacker: a grant on an edit renewed itself (1 -> 10 -> 100 -> 1000) because the
/// edit's text matched again in what it left.
#[tokio::test]
async fn a_grant_on_an_edit_does_not_cover_the_edit_again_on_what_it_left() {
    let edit = json!({"name": "edit_file", "arguments":
        {"path": "conf.txt", "old_text": "limit = 1", "new_text": "limit = 10"}});
    let scenario = json!({"turns": [
        {"tool_calls": [edit.clone()]},
        {"tool_calls": [edit]},
        {"say": "done"}
    ]});
    let mut h = harness(scenario, TIMEOUT);
    std::fs::write(h.dir.path().join("conf.txt"), "limit = 1\n").unwrap();
    h.runtime.start_run("raise the limit").unwrap();
    let first = h.events.approval_required().await;
    h.runtime
        .resolve_approval(first.approval_id, Decision::ApproveForSession)
        .unwrap();
    // The same edit on `limit = 10` would make `limit = 100`, which no card showed: it asks.
    let second = h.events.approval_required().await;
    assert_eq!(second.tool_name, "edit_file");
    h.runtime
        .resolve_approval(second.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("conf.txt")).unwrap(),
        "limit = 10\n"
    );
}
