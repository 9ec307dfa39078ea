//! The registry: exactly one outcome per approval, whoever answers first.

use super::support::Events;
use askfirst_core::approvals::{sha256_hex, ApprovalError, ApprovalRegistry, NewApproval};
use askfirst_protocol::{
    AgentEvent, ApprovalId, ApprovalScope, ApprovalSource, CancelCause, Decision, DenialSource,
    Outcome, Risk, RunId,
};
use pretty_assertions::assert_eq;
use std::time::Duration;

fn new_approval(run_id: RunId) -> NewApproval {
    NewApproval {
        run_id,
        tool_call_id: "call_1".into(),
        tool_name: "write_file".into(),
        arguments_json: r#"{"path":"a.txt","content":"x"}"#.into(),
        summary: "Create the file a.txt (1 line)".into(),
        reason: "test".into(),
        risk: Risk::Medium,
    }
}

#[tokio::test]
async fn registers_before_announcing_and_delivers_the_decision() {
    let events = Events::new();
    let registry = ApprovalRegistry::new(Duration::from_secs(120), events.sink.clone());
    let run = RunId::new();
    let pending = registry.request(new_approval(run));
    let request = pending.request().clone();
    // Announced once, and already listed.
    assert_eq!(
        events.all(),
        vec![AgentEvent::ApprovalRequired(request.clone())]
    );
    assert_eq!(registry.list_pending(None), vec![request.clone()]);
    assert_eq!(registry.list_pending(Some(RunId::new())), vec![]);
    assert_eq!(
        request.arguments_sha256,
        sha256_hex(request.arguments_json.as_bytes())
    );

    let outcome = registry
        .resolve(request.approval_id, Decision::Approve)
        .unwrap();
    let approved = Outcome::Approved {
        scope: ApprovalScope::Once,
        source: ApprovalSource::User,
    };
    assert_eq!(outcome, approved);
    assert_eq!(pending.wait().await, approved);
    assert_eq!(registry.list_pending(None), vec![]);
}

#[tokio::test]
async fn unknown_id_and_second_resolve_are_not_pending_and_change_nothing() {
    let events = Events::new();
    let registry = ApprovalRegistry::new(Duration::from_secs(120), events.sink.clone());
    let unknown = ApprovalId::new();
    let error = registry.resolve(unknown, Decision::Approve).unwrap_err();
    assert_eq!(error, ApprovalError::NotPending(unknown));
    assert_eq!(
        error.to_string(),
        format!("No pending approval {unknown}. It may have already been resolved or timed out.")
    );

    let pending = registry.request(new_approval(RunId::new()));
    let id = pending.request().approval_id;
    let denied = registry
        .resolve(
            id,
            Decision::Deny {
                note: Some("  not now ".into()),
            },
        )
        .unwrap();
    assert_eq!(
        denied,
        Outcome::Denied {
            source: DenialSource::User,
            reason: Some("not now".into())
        }
    );
    // A late Approve must not turn the denial into an approval.
    assert_eq!(
        registry.resolve(id, Decision::Approve),
        Err(ApprovalError::NotPending(id))
    );
    assert_eq!(pending.wait().await, denied);
    let resolved: Vec<_> = events
        .all()
        .into_iter()
        .filter(|e| matches!(e, AgentEvent::ApprovalResolved(_)))
        .collect();
    assert_eq!(resolved.len(), 1, "exactly one resolution is announced");
}

#[tokio::test(start_paused = true)]
async fn timeout_denies_and_a_late_answer_is_not_pending() {
    let events = Events::new();
    let registry = ApprovalRegistry::new(Duration::from_secs(120), events.sink.clone());
    let pending = registry.request(new_approval(RunId::new()));
    let id = pending.request().approval_id;
    let waiter = tokio::spawn(pending.wait());
    tokio::time::sleep(Duration::from_secs(119)).await;
    assert_eq!(
        registry.list_pending(None).len(),
        1,
        "still waiting just before the deadline"
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    let outcome = waiter.await.unwrap();
    assert_eq!(
        outcome,
        Outcome::Denied {
            source: DenialSource::Timeout,
            reason: None
        }
    );
    assert_eq!(
        registry.resolve(id, Decision::Approve),
        Err(ApprovalError::NotPending(id))
    );
    assert_eq!(registry.list_pending(None), vec![]);
}

#[tokio::test]
async fn cancel_shutdown_and_drop_end_requests_as_cancelled() {
    let events = Events::new();
    let registry = ApprovalRegistry::new(Duration::from_secs(120), events.sink.clone());
    let run_a = RunId::new();
    let run_b = RunId::new();
    let a = registry.request(new_approval(run_a));
    let b = registry.request(new_approval(run_b));
    let c = registry.request(new_approval(run_b));
    let c_id = c.request().approval_id;

    assert_eq!(registry.cancel_run(run_a), 1);
    assert_eq!(
        a.wait().await,
        Outcome::Cancelled {
            cause: CancelCause::RunAborted
        }
    );

    drop(c); // a dropped waiter leaves nothing behind
    assert_eq!(
        registry.resolve(c_id, Decision::Approve),
        Err(ApprovalError::NotPending(c_id))
    );

    assert_eq!(registry.shutdown(), 1);
    assert_eq!(
        b.wait().await,
        Outcome::Cancelled {
            cause: CancelCause::AppShutdown
        }
    );
    assert_eq!(registry.list_pending(None), vec![]);
}
