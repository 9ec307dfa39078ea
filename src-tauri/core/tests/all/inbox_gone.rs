//! Another agent's request left waiting when Ask First closed (a crash, `kill -9`): the next
//! start records it as cancelled and lists it for the window once, with its agent and summary,
//! until dismissed; a later start does not bring it back.

use askfirst_core::app::{AppConfig, Backend, Environment};
use askfirst_core::audit::{read_log, AuditRecord, AuditSink, JsonlLog};
use askfirst_protocol::{
    AgentEvent, ApprovalId, CancelCause, ExternalAgent, GoneRequestView, GoneRequestsView,
    InboxRequest, Outcome, PolicyLayer, Risk, RunId,
};
use pretty_assertions::assert_eq;
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

fn build(data: &Path) -> Backend {
    let env = Environment::fixed(
        [
            ("ASKFIRST_DATA_DIR", data.to_str().unwrap()),
            ("ASKFIRST_APPROVAL_TIMEOUT_SECS", "3600"),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect::<HashMap<_, _>>(),
    );
    let config = AppConfig::resolve(env, None).unwrap();
    Backend::build(config, tokio::runtime::Handle::current()).unwrap()
}

/// An `approval_asked` record as a log written before agents were named in file names holds.
fn asked(approval_id: ApprovalId, run_id: RunId, summary: &str, at: u64) -> AuditRecord {
    AuditRecord::ApprovalAsked {
        approval_id,
        run_id,
        tool_call_id: "inbox-1".into(),
        tool_name: "Bash".into(),
        arguments_json: "{}".into(),
        arguments_sha256: String::new(),
        summary: summary.into(),
        risk: Risk::High,
        reason: "r".into(),
        policy_layer: PolicyLayer::ToolDefault,
        effects: Vec::new(),
        at,
        expires_at: at + 1,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_left_waiting_is_listed_once_with_its_agent_until_dismissed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");

    // The first Ask First: Claude Code asks through the inbox, and the card waits.
    let first = build(&data);
    assert_eq!(
        first.gone.list(),
        GoneRequestsView {
            requests: vec![],
            more: 0
        }
    );
    let Backend {
        inbox,
        mut events,
        instance_lock,
        ..
    } = first;
    let asking = tokio::spawn({
        let inbox = inbox.clone();
        async move {
            inbox
                .answer(InboxRequest {
                    agent: ExternalAgent::ClaudeCode,
                    hook_event: "PermissionRequest".into(),
                    session_id: "s-1".into(),
                    cwd: "/home/ann/site".into(),
                    tool_name: "Bash".into(),
                    tool_input_json: r#"{"command":"rm -rf build"}"#.into(),
                })
                .await
        }
    });
    let card = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            if let AgentEvent::ApprovalRequired(card) = events.recv().await.unwrap().event {
                break card;
            }
        }
    })
    .await
    .unwrap();
    // It dies without a word (kill -9): its claim on the folder ends, nothing is decided.
    drop(instance_lock);

    // A log of before agents were named in its file name: "another program"; and one whose
    // request was answered: not listed.
    let other_agents = data.join("other-agents");
    let old_id = ApprovalId::new();
    let old_run = RunId::new();
    let old = JsonlLog::open(&other_agents.join(format!("{old_run}.jsonl"))).unwrap();
    old.append(&asked(
        old_id,
        old_run,
        "Something, wants to \u{202e}run",
        1,
    ))
    .unwrap();
    let answered_id = ApprovalId::new();
    old.append(&asked(answered_id, old_run, "answered", 2))
        .unwrap();
    old.append(&AuditRecord::ApprovalDecided {
        approval_id: answered_id,
        run_id: old_run,
        outcome: Outcome::Cancelled {
            cause: CancelCause::RunAborted,
        },
        answered_on: None,
        at: 3,
    })
    .unwrap();
    drop(old);

    // The next start lists both waiting ones, newest first, and records them as cancelled.
    let second = build(&data);
    let listed = second.gone.list();
    assert_eq!(
        listed,
        GoneRequestsView {
            requests: vec![
                GoneRequestView {
                    approval_id: card.approval_id,
                    agent: Some(ExternalAgent::ClaudeCode),
                    agent_name: Some("Claude Code".into()),
                    summary: card.summary.clone(),
                    asked_at: listed.requests[0].asked_at,
                },
                GoneRequestView {
                    approval_id: old_id,
                    agent: None,
                    agent_name: None,
                    summary: "Something, wants to \u{202e}run".into(),
                    asked_at: 1,
                },
            ],
            more: 0,
        }
    );
    assert!(card.summary.contains("Claude Code"), "{}", card.summary);
    assert!(card.summary.contains("~/site") || card.summary.contains("/home/ann/site"));
    let log = std::fs::read_dir(&other_agents)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("claude-code-")
        })
        .unwrap();
    let decided: Vec<AuditRecord> = read_log(&log)
        .unwrap()
        .records
        .into_iter()
        .filter_map(|r| serde_json::from_value(r).ok())
        .filter(|r| matches!(r, AuditRecord::ApprovalDecided { .. }))
        .collect();
    assert!(matches!(
        decided.as_slice(),
        [AuditRecord::ApprovalDecided {
            approval_id,
            outcome: Outcome::Cancelled { cause: CancelCause::AppShutdown },
            ..
        }] if *approval_id == card.approval_id
    ));

    // Dismiss takes one off; the other stays.
    let after = second.gone.dismiss(card.approval_id);
    assert_eq!(after.requests.len(), 1);
    assert_eq!(after.requests[0].approval_id, old_id);
    let Backend { instance_lock, .. } = second;
    drop(instance_lock);

    // A third start shows neither again: both ended in their logs.
    let third = build(&data);
    assert_eq!(
        third.gone.list(),
        GoneRequestsView {
            requests: vec![],
            more: 0
        }
    );
    asking.abort();
}
