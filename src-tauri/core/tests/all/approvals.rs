//! The registry: exactly one outcome per approval, whoever answers first.

use super::support::{registry, Events};
use askfirst_core::approvals::{sha256_hex, ApprovalError, NewApproval};
use askfirst_protocol::{
    AgentEvent, ApprovalId, ApprovalScope, ApprovalSource, CancelCause, Decision, DenialSource,
    Outcome, PolicyLayer, Risk, RunId,
};
use pretty_assertions::assert_eq;
use std::time::Duration;

fn new_approval(run_id: RunId) -> NewApproval {
    NewApproval {
        change: None,
        run_id,
        tool_call_id: "call_1".into(),
        tool_name: "write_file".into(),
        arguments_json: r#"{"path":"a.txt","content":"x"}"#.into(),
        summary: "Create the file a.txt (1 line)".into(),
        reason: "test".into(),
        risk: Risk::Medium,
        policy_layer: PolicyLayer::ToolDefault,
        grant_scope: Some("this exact call".into()),
        preview: None,
        effects: Vec::new(),
        detail: None,
        reword: None,
        resumed: false,
        editable: Vec::new(),
        agent: None,
    }
}

#[tokio::test]
async fn registers_before_announcing_and_delivers_the_decision() {
    let events = Events::new();
    let (registry, _audit) = registry(Duration::from_secs(120), &events);
    let run = RunId::new();
    let pending = registry.request(new_approval(run)).unwrap();
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
    let (registry, _audit) = registry(Duration::from_secs(120), &events);
    let unknown = ApprovalId::new();
    let error = registry.resolve(unknown, Decision::Approve).unwrap_err();
    assert_eq!(error, ApprovalError::NotPending(unknown));
    assert_eq!(
        error.to_string(),
        format!("No pending approval {unknown}. It may have already been resolved or timed out.")
    );

    let pending = registry.request(new_approval(RunId::new())).unwrap();
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
            reason: Some("not now".into()),
            wording: None
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
    let (registry, _audit) = registry(Duration::from_secs(120), &events);
    let pending = registry.request(new_approval(RunId::new())).unwrap();
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
            reason: None,
            wording: None
        }
    );
    assert_eq!(
        registry.resolve(id, Decision::Approve),
        Err(ApprovalError::NotPending(id))
    );
    assert_eq!(registry.list_pending(None), vec![]);
}

#[tokio::test(start_paused = true)]
async fn an_answer_after_the_deadline_is_refused_even_before_the_timer_fires() {
    // On a busy machine the waiter's timer can fire late; a click that comes after the
    // deadline (the card says "Time is up · not run") must not approve all the same.
    let events = Events::new();
    let (registry, audit) = registry(Duration::from_secs(120), &events);
    let pending = registry.request(new_approval(RunId::new())).unwrap();
    let id = pending.request().approval_id;
    // The waiter is not polled: its timer cannot have fired.
    tokio::time::advance(Duration::from_millis(120_001)).await;
    assert_eq!(
        registry.resolve(id, Decision::Approve),
        Err(ApprovalError::NotPending(id))
    );
    let timed_out = Outcome::Denied {
        source: DenialSource::Timeout,
        reason: None,
        wording: None,
    };
    assert_eq!(pending.wait().await, timed_out);
    assert_eq!(registry.list_pending(None), vec![]);
    let decided = audit.decided_outcomes();
    assert_eq!(decided, vec![timed_out.clone()]);
    let resolved: Vec<_> = events
        .all()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::ApprovalResolved(r) => Some(r.outcome),
            _ => None,
        })
        .collect();
    assert_eq!(resolved, vec![timed_out]);

    // Just before the deadline an answer still counts.
    let pending = registry.request(new_approval(RunId::new())).unwrap();
    let id = pending.request().approval_id;
    tokio::time::advance(Duration::from_millis(119_999)).await;
    let approved = registry.resolve(id, Decision::Approve).unwrap();
    assert_eq!(pending.wait().await, approved);
}

#[tokio::test]
async fn cancel_shutdown_and_drop_end_requests_as_cancelled() {
    let events = Events::new();
    let (registry, _audit) = registry(Duration::from_secs(120), &events);
    let run_a = RunId::new();
    let run_b = RunId::new();
    let a = registry.request(new_approval(run_a)).unwrap();
    let b = registry.request(new_approval(run_b)).unwrap();
    let c = registry.request(new_approval(run_b)).unwrap();
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

#[tokio::test]
async fn addressable_by_run_and_tool_call_and_grantable_only_when_offered() {
    let events = Events::new();
    let (registry, _audit) = registry(Duration::from_secs(120), &events);
    let run = RunId::new();
    let pending = registry.request(new_approval(run)).unwrap();
    let id = pending.request().approval_id;
    assert_eq!(registry.find(run, "call_1"), Some(id));
    assert_eq!(registry.find(RunId::new(), "call_1"), None);

    let mut no_grant = new_approval(run);
    no_grant.tool_call_id = "call_2".into();
    no_grant.grant_scope = None;
    let other = registry.request(no_grant).unwrap();
    let other_id = other.request().approval_id;
    assert_ne!(other_id, id, "ids are made by the registry, never reused");
    assert_eq!(
        registry.resolve(other_id, Decision::ApproveForSession),
        Err(ApprovalError::NotGrantable(other_id))
    );
    assert_eq!(
        registry.list_pending(None).len(),
        2,
        "a refused answer changes nothing"
    );

    let outcome = registry.resolve(id, Decision::ApproveForSession).unwrap();
    assert_eq!(
        outcome,
        Outcome::Approved {
            scope: ApprovalScope::Session,
            source: ApprovalSource::User
        }
    );
    assert_eq!(registry.find(run, "call_1"), None);
    drop(other);
}

#[tokio::test]
async fn fail_closed_mode_refuses_instead_of_waiting() {
    use askfirst_core::approvals::{AnswerMode, ApprovalRegistry, RegistryConfig};
    let events = Events::new();
    let registry = ApprovalRegistry::new(RegistryConfig {
        timeout: Duration::from_secs(120),
        mode: AnswerMode::FailClosed,
        events: events.sink.clone(),
        audit: std::sync::Arc::new(askfirst_core::audit::NoAudit),
    });
    let error = registry.request(new_approval(RunId::new())).err().unwrap();
    assert!(matches!(error, ApprovalError::ApprovalRequired { .. }));
    assert_eq!(registry.list_pending(None), vec![]);
    assert_eq!(events.all(), vec![], "nobody is asked");
}

#[tokio::test]
async fn asked_and_decided_are_recorded_and_an_unrecordable_approval_does_not_take_effect() {
    use askfirst_core::audit::AuditRecord;
    use std::sync::atomic::Ordering;
    let events = Events::new();
    let (registry, audit) = registry(Duration::from_secs(120), &events);
    let pending = registry.request(new_approval(RunId::new())).unwrap();
    let id = pending.request().approval_id;
    assert!(matches!(
        audit.all().as_slice(),
        [AuditRecord::ApprovalAsked { approval_id, .. }] if *approval_id == id
    ));
    // The disk fills up before the user clicks Approve.
    audit.failing.store(true, Ordering::SeqCst);
    let outcome = registry.resolve(id, Decision::Approve).unwrap();
    assert!(
        // Said in words; the log's own error (the fake "disk full") is not in the reason.
        matches!(&outcome, Outcome::Denied { source: DenialSource::Unavailable, reason: Some(r), .. }
            if r.contains("could not save your answer") && r.contains("nothing was run")
                && !r.contains("disk full")),
        "{outcome:?}"
    );
    // The person is told it in their language (the model the English above).
    let Outcome::Denied {
        wording: Some(wording),
        ..
    } = &outcome
    else {
        panic!("no wording: {outcome:?}");
    };
    let said = askfirst_core::i18n::wording_in(askfirst_protocol::Language::PtBr, wording);
    assert!(said.contains("sua resposta"), "{said}");
    assert_eq!(pending.wait().await, outcome);
    // And a request that cannot be recorded is not shown at all.
    let error = registry.request(new_approval(RunId::new())).err().unwrap();
    assert!(matches!(error, ApprovalError::Log(_)));
    let said = askfirst_core::i18n::wording_in(
        askfirst_protocol::Language::ZhCn,
        &error.wording().expect("a sentence for the person"),
    );
    assert!(said.contains("磁盘"), "{said}");
    assert_eq!(registry.list_pending(None), vec![]);
}

#[tokio::test]
async fn after_shutdown_new_requests_are_refused_and_closed_in_the_log() {
    use askfirst_core::audit::AuditRecord;
    let events = Events::new();
    let (registry, audit) = registry(Duration::from_secs(120), &events);
    registry.shutdown();
    let error = registry.request(new_approval(RunId::new())).err().unwrap();
    assert_eq!(error, ApprovalError::ShuttingDown);
    assert_eq!(registry.list_pending(None), vec![]);
    let records = audit.all();
    assert_eq!(records.len(), 2);
    assert!(matches!(
        &records[1],
        AuditRecord::ApprovalDecided {
            outcome: Outcome::Cancelled {
                cause: CancelCause::AppShutdown
            },
            ..
        }
    ));
}

#[tokio::test(start_paused = true)]
async fn answering_a_card_gives_the_others_of_its_run_that_are_running_late_more_time() {
    let events = Events::new();
    let (registry, audit) = registry(Duration::from_secs(120), &events);
    let run = RunId::new();
    let early = registry.request(new_approval(run)).unwrap();
    let later = registry.request(new_approval(run)).unwrap();
    let waiting = registry.request(new_approval(run)).unwrap();
    let elsewhere = registry.request(new_approval(RunId::new())).unwrap();
    let id = |p: &askfirst_core::approvals::PendingApproval| p.request().approval_id;
    let (early_id, later_id, waiting_id) = (id(&early), id(&later), id(&waiting));
    let asked_expiry = waiting.request().expires_at;
    // A new timeout in the settings is for new requests: these keep the 120 s they were
    // asked with, also when extended.
    registry.set_timeout(Duration::from_secs(3600));
    let waiting = tokio::spawn(waiting.wait());
    let elsewhere = tokio::spawn(elsewhere.wait());
    let extended = || {
        events
            .all()
            .into_iter()
            .filter_map(|e| match e {
                AgentEvent::ApprovalExtended { approval_id, .. } => Some(approval_id),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    // 30 s in, 90 s are left of 120: an answer changes nothing.
    tokio::time::sleep(Duration::from_secs(30)).await;
    registry.resolve(early_id, Decision::Approve).unwrap();
    assert_eq!(extended(), vec![]);
    // 100 s in, 20 s are left: the person is answering, so the run's card waits 120 s more;
    // the other run's does not.
    tokio::time::sleep(Duration::from_secs(70)).await;
    registry
        .resolve(later_id, Decision::Deny { note: None })
        .unwrap();
    assert_eq!(extended(), vec![waiting_id]);
    tokio::time::sleep(Duration::from_secs(21)).await;
    let timed_out = Outcome::Denied {
        source: DenialSource::Timeout,
        reason: None,
        wording: None,
    };
    assert_eq!(elsewhere.await.unwrap(), timed_out);
    let still = registry.list_pending(None);
    assert_eq!(still.len(), 1);
    assert_eq!(still[0].approval_id, waiting_id);
    assert!(still[0].expires_at > asked_expiry);
    // It times out a whole timeout after that answer, and the log says it got the time.
    tokio::time::sleep(Duration::from_secs(98)).await;
    assert!(!waiting.is_finished());
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(waiting.await.unwrap(), timed_out);
    let extensions = audit
        .all()
        .into_iter()
        .filter(|r| {
            matches!(r, askfirst_core::audit::AuditRecord::ApprovalExtended { approval_id, .. } if *approval_id == waiting_id)
        })
        .count();
    assert_eq!(extensions, 1);
    drop((early, later));
}

/// What the call does that matters goes onto the card and into the log's `approval_asked`
/// record as it is; a call with none leaves the field out of both.
#[tokio::test]
async fn the_effects_reach_the_card_and_the_log() {
    use askfirst_core::audit::AuditRecord;
    let events = Events::new();
    let (registry, audit) = registry(Duration::from_secs(120), &events);
    let effects = vec![
        "Deletes files for good (not to the trash).".to_owned(),
        "This is an address on this computer.".to_owned(),
    ];
    let pending = registry
        .request(NewApproval {
            change: None,
            effects: effects.clone(),
            ..new_approval(RunId::new())
        })
        .unwrap();
    let request = pending.request().clone();
    assert_eq!(request.effects, effects);
    assert_eq!(
        events.all(),
        vec![AgentEvent::ApprovalRequired(request.clone())]
    );
    let json = serde_json::to_value(&request).unwrap();
    assert_eq!(json["effects"], serde_json::json!(effects));
    let recorded: Vec<Vec<String>> = audit
        .all()
        .iter()
        .filter_map(|r| match r {
            AuditRecord::ApprovalAsked { effects, .. } => Some(effects.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(recorded, vec![effects]);

    let plain = registry.request(new_approval(RunId::new())).unwrap();
    let json = serde_json::to_value(plain.request()).unwrap();
    assert_eq!(json.get("effects"), None, "{json}");
}
