//! Answers from a notification's buttons (`askfirst_core::notification_answers`): Deny denies
//! exactly the request its notification tells, and is logged as answered there; Approve is
//! offered only for new files in the folder the person opted into, decided from the request's
//! typed facts; an answer that comes after the request ended changes nothing.

use super::support::{harness, registry, write_hello, Events};
use askfirst_core::approvals::{ApprovalError, NewApproval};
use askfirst_core::audit::{AnsweredOn, AuditRecord};
use askfirst_core::notification_answers::{
    answer, may_approve, NotificationAnswer, NotificationAnswered,
};
use askfirst_core::tools::{Tool, WriteFile};
use askfirst_protocol::{
    ApprovalRequest, ApprovalScope, ApprovalSource, CallChange, CallDetail, DenialSource,
    NotificationApprovals, Outcome, PolicyLayer, Risk, RunId,
};
use pretty_assertions::assert_eq;
use std::time::Duration;

const NEW_FILES: NotificationApprovals = NotificationApprovals { new_files: true };
const NONE: NotificationApprovals = NotificationApprovals { new_files: false };

fn new_file(run_id: RunId, call: &str) -> NewApproval {
    NewApproval {
        change: Some(CallChange::NewFile),
        run_id,
        tool_call_id: call.into(),
        tool_name: "write_file".into(),
        arguments_json: format!(r#"{{"path":"{call}.txt","content":"x"}}"#),
        summary: format!("Create the file {call}.txt (1 line)"),
        reason: "test".into(),
        risk: Risk::Medium,
        policy_layer: PolicyLayer::ToolDefault,
        grant_scope: None,
        preview: None,
        effects: Vec::new(),
        detail: None,
        reword: None,
        resumed: false,
        editable: Vec::new(),
        agent: None,
    }
}

/// The `approval_decided` records, with where each was answered.
fn decided(
    records: &[AuditRecord],
) -> Vec<(askfirst_protocol::ApprovalId, Outcome, Option<AnsweredOn>)> {
    records
        .iter()
        .filter_map(|record| match record {
            AuditRecord::ApprovalDecided {
                approval_id,
                outcome,
                answered_on,
                ..
            } => Some((*approval_id, outcome.clone(), *answered_on)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn notify_answers_deny_denies_exactly_its_request_while_another_waits() {
    let events = Events::new();
    let (registry, audit) = registry(Duration::from_secs(120), &events);
    let run = RunId::new();
    let first = registry.request(new_file(run, "a")).unwrap();
    let second = registry.request(new_file(run, "b")).unwrap();
    let (a, b) = (first.request().clone(), second.request().clone());

    let denied = Outcome::Denied {
        source: DenialSource::User,
        reason: None,
        wording: None,
    };
    assert_eq!(
        answer(&registry, a.approval_id, NotificationAnswer::Deny, NONE),
        Ok(NotificationAnswered::Decided(denied.clone()))
    );
    assert_eq!(first.wait().await, denied);
    // The other one still waits, untouched.
    assert_eq!(registry.list_pending(None), vec![b.clone()]);
    assert_eq!(
        decided(&audit.all()),
        vec![(a.approval_id, denied, Some(AnsweredOn::Notification))]
    );

    // A second answer (already decided) changes nothing.
    assert_eq!(
        answer(&registry, a.approval_id, NotificationAnswer::Deny, NONE),
        Err(ApprovalError::NotPending(a.approval_id))
    );
    assert_eq!(registry.list_pending(None), vec![b.clone()]);

    // Answered in the window first: the notification's Deny comes too late and does nothing.
    registry
        .resolve(b.approval_id, askfirst_protocol::Decision::Approve)
        .unwrap();
    assert_eq!(
        answer(&registry, b.approval_id, NotificationAnswer::Deny, NONE),
        Err(ApprovalError::NotPending(b.approval_id))
    );
    assert_eq!(
        second.wait().await,
        Outcome::Approved {
            scope: ApprovalScope::Once,
            source: ApprovalSource::User
        }
    );
    // The window's answer is logged without `answered_on`.
    assert_eq!(decided(&audit.all())[1].2, None);
}

#[tokio::test]
async fn notify_answers_approve_only_what_the_person_opted_into() {
    let events = Events::new();
    let (registry, audit) = registry(Duration::from_secs(120), &events);
    let run = RunId::new();
    let pending = registry.request(new_file(run, "a")).unwrap();
    let id = pending.request().approval_id;

    // Not opted in: nothing happens, the card still waits.
    assert_eq!(
        answer(&registry, id, NotificationAnswer::Approve, NONE),
        Ok(NotificationAnswered::NotOffered)
    );
    assert_eq!(registry.list_pending(None).len(), 1);
    assert_eq!(decided(&audit.all()), vec![]);

    // Opted in: approved once, logged as answered on the notification.
    let approved = Outcome::Approved {
        scope: ApprovalScope::Once,
        source: ApprovalSource::User,
    };
    assert_eq!(
        answer(&registry, id, NotificationAnswer::Approve, NEW_FILES),
        Ok(NotificationAnswered::Decided(approved.clone()))
    );
    assert_eq!(pending.wait().await, approved);
    assert_eq!(
        decided(&audit.all()),
        vec![(id, approved, Some(AnsweredOn::Notification))]
    );
    assert_eq!(
        answer(&registry, id, NotificationAnswer::Approve, NEW_FILES),
        Err(ApprovalError::NotPending(id))
    );
}

fn request(change: Option<CallChange>) -> ApprovalRequest {
    ApprovalRequest {
        approval_id: askfirst_protocol::ApprovalId::new(),
        run_id: RunId::new(),
        tool_call_id: "c".into(),
        tool_name: "write_file".into(),
        arguments_json: "{}".into(),
        arguments_sha256: String::new(),
        summary: "Create the file a.txt (1 line)".into(),
        reason: String::new(),
        risk: Risk::Medium,
        policy_layer: PolicyLayer::ToolDefault,
        preview: None,
        effects: Vec::new(),
        detail: None,
        change,
        grant_scope: None,
        expires_at: 0,
        resumed: false,
        editable: Vec::new(),
        agent: None,
    }
}

#[test]
fn notify_answers_approve_is_decided_from_typed_facts_never_from_words() {
    let new = request(Some(CallChange::NewFile));
    assert!(may_approve(&new, NEW_FILES));
    assert!(!may_approve(&new, NONE), "off by default");
    // The same words without the typed fact: no Approve.
    assert!(!may_approve(&request(None), NEW_FILES));
    // A rule asked about it: never.
    for layer in [
        PolicyLayer::UserRule,
        PolicyLayer::SessionPolicy,
        PolicyLayer::HardDenial,
    ] {
        let asked_by_rule = ApprovalRequest {
            policy_layer: layer,
            ..new.clone()
        };
        assert!(!may_approve(&asked_by_rule, NEW_FILES), "{layer:?}");
    }
    // Another agent's request, another tool, or more on the card to read: never.
    let external = ApprovalRequest {
        detail: Some(CallDetail::External {
            agent: "Claude Code".into(),
            folder: "~/site".into(),
            command: None,
        }),
        ..new.clone()
    };
    assert!(!may_approve(&external, NEW_FILES));
    let other_tool = ApprovalRequest {
        tool_name: "run_command".into(),
        ..new.clone()
    };
    assert!(!may_approve(&other_tool, NEW_FILES));
    let with_effects = ApprovalRequest {
        effects: vec!["Something else happens.".into()],
        ..new
    };
    assert!(!may_approve(&with_effects, NEW_FILES));
}

#[test]
fn notify_answers_write_file_says_new_file_only_where_nothing_is() {
    let dir = tempfile::tempdir().unwrap();
    let ws = askfirst_core::tools::Workspace::open(dir.path()).unwrap();
    let write = WriteFile;
    let described = write
        .describe(r#"{"path":"new.txt","content":"x"}"#, &ws)
        .unwrap();
    assert_eq!(described.change, Some(CallChange::NewFile));
    std::fs::write(dir.path().join("old.txt"), "before").unwrap();
    let described = write
        .describe(r#"{"path":"old.txt","content":"x"}"#, &ws)
        .unwrap();
    assert_eq!(described.change, None, "replacing a file is not a new file");
    // Outside the folder there is no description at all (refused).
    assert!(write
        .describe(r#"{"path":"../out.txt","content":"x"}"#, &ws)
        .is_err());
}

#[tokio::test]
async fn notify_answers_the_card_of_a_new_file_carries_the_fact() {
    let mut h = harness(write_hello(), Duration::from_secs(120));
    h.runtime.start_run("Say hello").unwrap();
    let request = h.events.approval_required().await;
    assert_eq!(request.change, Some(CallChange::NewFile));
    assert!(may_approve(&request, NEW_FILES));
    // Denied from the notification: the file is not written, as for Deny on the card.
    assert_eq!(
        h.runtime
            .answer_from_notification(request.approval_id, NotificationAnswer::Deny, NEW_FILES)
            .map(|answered| matches!(answered, NotificationAnswered::Decided(_))),
        Ok(true)
    );
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, askfirst_protocol::RunStatus::Completed);
    assert!(!h.dir.path().join("hello.txt").exists());
}
