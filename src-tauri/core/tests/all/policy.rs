//! The policy layers, user rules and session grants, alone and through the agent loop.

use super::support::{harness, harness_with, write_hello};
use askfirst_core::approvals::AnswerMode;
use askfirst_core::canonical::canonical_json;
use askfirst_core::policy::{ArgumentKind, CallFacts, MainArgument, Policy, PolicyDecision, Rules};
use askfirst_protocol::{
    AgentEvent, ApprovalScope, ApprovalSource, Decision, Outcome, PolicyLayer, Risk, RunStatus,
    SessionPolicy, ToolCallStatus,
};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::path::Path;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);

fn rules(text: &str) -> Rules {
    Rules::parse(text, Path::new("rules.toml"))
}

fn path(text: &str) -> MainArgument {
    MainArgument {
        alias: None,
        kind: ArgumentKind::Path,
        text: text.into(),
        resolved: Some(text.into()),
    }
}

fn decide(
    policy: &Policy,
    tool: &str,
    read_only: bool,
    args: &[MainArgument],
) -> (PolicyDecision, PolicyLayer) {
    let v = policy.decide(&CallFacts {
        fingerprint: None,
        tool_name: tool,
        read_only,
        risk: if read_only { Risk::Low } else { Risk::Medium },
        main_arguments: args,
        canonical_arguments: Some("{}"),
        mcp_server: None,
    });
    (v.decision, v.layer)
}

#[test]
fn canonical_json_is_exact() {
    assert_eq!(
        canonical_json(r#"{ "b": 1, "a": [true, null] }"#).as_deref(),
        Some(r#"{"a":[true,null],"b":1}"#)
    );
    assert_eq!(
        canonical_json(r#"{"a":"\u0041"}"#),
        canonical_json(r#"{"a":"A"}"#)
    );
    // Big integers keep their digits: these two must never be "the same call".
    assert_ne!(
        canonical_json(r#"{"n":12345678901234567890}"#),
        canonical_json(r#"{"n":12345678901234567891}"#)
    );
    assert_eq!(
        canonical_json(r#"{"a":1,"a":2}"#),
        None,
        "duplicate keys have no canonical form"
    );
    assert_eq!(canonical_json(r#"{"a":"#), None);
    assert_eq!(
        canonical_json(&("[".repeat(10_000) + &"]".repeat(10_000))),
        None
    );
}

#[test]
fn deny_beats_ask_beats_allow_and_allow_needs_every_argument() {
    let policy = Policy::new(
        rules(
            r#"
            [[allow]]
            tool = "write_file"
            match = "Drafts/*.txt"
            [[allow]]
            tool = "move_path"
            match = "Drafts/**"
            [[ask]]
            tool = "write_file"
            match = "Drafts/secret*"
            [[deny]]
            tool = "*"
            match = "Taxes/**"
            "#,
        ),
        None,
    );
    assert!(matches!(
        decide(&policy, "write_file", false, &[path("Drafts/a.txt")]),
        (PolicyDecision::Allow, PolicyLayer::UserRule)
    ));
    assert!(matches!(
        decide(&policy, "write_file", false, &[path("Drafts/secret.txt")]),
        (PolicyDecision::Ask { .. }, PolicyLayer::UserRule)
    ));
    // `*` stays inside one folder for paths.
    assert!(matches!(
        decide(&policy, "write_file", false, &[path("Drafts/sub/a.txt")]),
        (PolicyDecision::Ask { .. }, PolicyLayer::ToolDefault)
    ));
    assert!(matches!(
        decide(&policy, "list_directory", true, &[path("Taxes/2025")]),
        (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)
    ));
    // A move out of Drafts is not covered by an allow for Drafts: every argument must match.
    assert!(matches!(
        decide(
            &policy,
            "move_path",
            false,
            &[path("Drafts/a.txt"), path("Public/a.txt")]
        ),
        (PolicyDecision::Ask { .. }, PolicyLayer::ToolDefault)
    ));
    // …and a move into Taxes is denied: any argument suffices for deny.
    assert!(matches!(
        decide(
            &policy,
            "move_path",
            false,
            &[path("Drafts/a.txt"), path("Taxes/a.txt")]
        ),
        (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)
    ));
}

#[test]
fn a_broken_rules_file_asks_for_everything_never_allows() {
    for text in [
        "[[allow]]\ntool = ",
        "[[allow]]\ntool = \"x\"\nmatch = \"[\"",
        "[[permit]]\ntool = \"x\"",
    ] {
        let policy = Policy::new(rules(text), None);
        assert!(policy.rules_error().is_some(), "{text}");
        let (decision, layer) = decide(&policy, "list_directory", true, &[path(".")]);
        assert!(
            matches!(decision, PolicyDecision::Ask { ref reason } if reason.contains("rules file")),
            "{decision:?}"
        );
        assert_eq!(layer, PolicyLayer::UserRule);
    }
}

#[test]
fn hard_denials_beat_rules_and_session_never_turns_asks_into_denials() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = data.join("Demo folder");
    std::fs::create_dir_all(&workspace).unwrap();
    let policy = Policy::new(
        rules("[[allow]]\ntool = \"*\""),
        Some((data.as_path(), workspace.as_path())),
    );
    let rules_file = MainArgument {
        alias: None,
        kind: ArgumentKind::Path,
        text: "../rules.toml".into(),
        resolved: Some(std::fs::canonicalize(&data).unwrap().join("rules.toml")),
    };
    assert!(matches!(
        decide(&policy, "write_file", false, &[rules_file]),
        (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)
    ));
    let outside = MainArgument {
        alias: None,
        kind: ArgumentKind::Path,
        text: "../x".into(),
        resolved: None,
    };
    assert!(matches!(
        decide(&policy, "write_file", false, &[outside]),
        (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)
    ));
    // Even with a rule allowing every command, these never run, however they are hidden.
    for line in [
        "sudo  rm -rf /",
        "ls; shutdown now",
        "echo ok && poweroff",
        "echo \"$(reboot)\"",
        "sh -c 'mkfs.ext4 /dev/sda1'",
    ] {
        let command = MainArgument {
            alias: None,
            kind: ArgumentKind::Command,
            text: line.into(),
            resolved: None,
        };
        assert!(
            matches!(
                decide(&policy, "run_command", false, &[command]),
                (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)
            ),
            "{line}"
        );
    }
    let fine = MainArgument {
        alias: None,
        kind: ArgumentKind::Command,
        text: "rm -rf build/".into(),
        resolved: None,
    };
    assert!(matches!(
        decide(&policy, "run_command", false, &[fine]),
        (PolicyDecision::Allow, PolicyLayer::UserRule)
    ));

    let plain = Policy::new(Rules::default(), None);
    plain.set_session_policy(SessionPolicy::Never);
    assert!(matches!(
        decide(&plain, "write_file", false, &[path("a.txt")]),
        (PolicyDecision::Deny { .. }, PolicyLayer::SessionPolicy)
    ));
    assert!(matches!(
        decide(&plain, "list_directory", true, &[path(".")]),
        (PolicyDecision::Allow, PolicyLayer::ToolDefault)
    ));
}

fn asked(events: &[AgentEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, AgentEvent::ApprovalRequired(_)))
        .count()
}

fn statuses(events: &[AgentEvent]) -> Vec<(ToolCallStatus, Option<PolicyLayer>)> {
    events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ToolCallFinished {
                status,
                policy_layer,
                ..
            } => Some((*status, *policy_layer)),
            _ => None,
        })
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
    let command = |line: &str| json!({"name": "run_command", "arguments": {"command": line}});
    let scenario = json!({"turns": [
        {"tool_calls": [command("echo one >> log.txt"), command("echo one >> log.txt"), command("echo two >> log.txt")]},
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
        "one\none\n"
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
    let said: Vec<_> = h
        .events
        .all()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::ToolCallFinished { output, .. } => Some(output),
            _ => None,
        })
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
        .filter(|r| !matches!(r, AuditRecord::Message { .. } | AuditRecord::Event { .. }))
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

#[test]
fn a_folder_rule_covers_the_folder_itself_and_moves_are_judged_by_their_real_target() {
    use askfirst_core::tools::{ToolSet, Workspace};
    let policy = Policy::new(
        rules("[[deny]]\ntool = \"*\"\nmatch = \"Taxes/**\"\n[[allow]]\ntool = \"move_path\""),
        None,
    );
    assert!(matches!(
        decide(&policy, "list_directory", true, &[path("Taxes")]),
        (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)
    ));
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("Taxes")).unwrap();
    std::fs::write(dir.path().join("a.txt"), "a").unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    let mv = ToolSet::builtin().get("move_path").unwrap();
    let args = mv.main_arguments(r#"{"from":"a.txt","to":"Taxes"}"#, &ws);
    assert_eq!(
        args.iter().map(|a| a.text.as_str()).collect::<Vec<_>>(),
        vec!["a.txt", "Taxes/a.txt"]
    );
    assert!(matches!(
        decide(&policy, "move_path", false, &args),
        (PolicyDecision::Deny { .. }, PolicyLayer::UserRule)
    ));
}

#[test]
fn the_data_folder_inside_the_workspace_is_still_protected() {
    let dir = tempfile::tempdir().unwrap();
    let workspace = std::fs::canonicalize(dir.path()).unwrap();
    let data = workspace.join(".local/share/askfirst");
    std::fs::create_dir_all(&data).unwrap();
    let policy = Policy::new(
        rules("[[allow]]\ntool = \"*\""),
        Some((data.as_path(), workspace.as_path())),
    );
    let arg = |p: &Path| MainArgument {
        alias: None,
        kind: ArgumentKind::Path,
        text: "x".into(),
        resolved: Some(p.to_owned()),
    };
    assert!(matches!(
        decide(
            &policy,
            "write_file",
            false,
            &[arg(&data.join("rules.toml"))]
        ),
        (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)
    ));
    // Moving a folder that contains it would move it too.
    assert!(matches!(
        decide(
            &policy,
            "move_path",
            false,
            &[arg(&workspace.join(".local")), arg(&workspace.join("x"))]
        ),
        (PolicyDecision::Deny { .. }, PolicyLayer::HardDenial)
    ));
    // Reading the workspace is fine; so is writing elsewhere in it.
    assert!(matches!(
        decide(&policy, "list_directory", true, &[arg(&workspace)]),
        (PolicyDecision::Allow, _)
    ));
    assert!(matches!(
        decide(
            &policy,
            "write_file",
            false,
            &[arg(&workspace.join("notes.txt"))]
        ),
        (PolicyDecision::Allow, PolicyLayer::UserRule)
    ));
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

#[test]
fn removing_a_rule_keeps_the_rest_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.toml");
    let text = "# my notes\n[[deny]]\ntool = \"*\"\nmatch = \"Taxes/**\"\n\n# drafts are fine\n[[allow]]\ntool = \"write_file\"\nmatch = \"Drafts/*.txt\"\n";
    std::fs::write(&path, text).unwrap();
    let policy = Policy::new(Rules::load(&path), None);
    assert_eq!(
        policy.rules_summary(),
        vec![r#"deny * "Taxes/**""#, r#"allow write_file "Drafts/*.txt""#]
    );
    assert!(askfirst_core::policy::remove_rule(&path, r#"deny * "Taxes/**""#).unwrap());
    assert!(!askfirst_core::policy::remove_rule(&path, r#"deny * "Taxes/**""#).unwrap());
    let after = std::fs::read_to_string(&path).unwrap();
    // A rule's own comment goes with it; the other rules and their comments stay.
    assert!(
        after.contains("# drafts are fine") && !after.contains("Taxes"),
        "{after}"
    );
    let policy = Policy::new(Rules::load(&path), None);
    assert_eq!(
        policy.rules_summary(),
        vec![r#"allow write_file "Drafts/*.txt""#]
    );
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
