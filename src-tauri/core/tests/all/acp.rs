//! Hosting another agent over ACP (`askfirst_core::acp`, `agent/acp_run.rs`), against a small
//! agent that speaks the protocol (`tests/acp/fake_agent.py`): its file writes and reads are
//! Ask First's own `write_file` and `read_file` calls (card with diff, rules, the folder), its
//! permission requests are cards naming it, Stop answers every waiting request, and each kind
//! of bad input ends the task with one sentence and leaves the next task working.

use super::support::{harness_acp, Harness};
use askfirst_core::acp::{AcpAgent, AcpLimits};
use askfirst_core::policy::Rules;
use askfirst_protocol::{AgentEvent, CallDetail, Decision, RunStatus, ToolCallStatus};
use pretty_assertions::assert_eq;
use std::path::{Path, PathBuf};
use std::time::Duration;

const AGENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/acp/fake_agent.py");

/// A runtime hosting the fake agent in `mode`; returns it and the agent's log of what it read.
fn hosted(mode: &str, limits: AcpLimits, rules: Rules) -> (Harness, PathBuf) {
    let h = harness_acp(limits, rules);
    let log = h.dir.path().with_extension("agent-log");
    set_mode(&h, mode, &log);
    (h, log)
}

fn set_mode(h: &Harness, mode: &str, log: &Path) {
    h.runtime
        .set_agent(Some(AcpAgent {
            id: "fake".into(),
            name: "Fake agent".into(),
            command: vec![
                "python3".into(),
                AGENT.into(),
                mode.into(),
                log.display().to_string(),
            ],
        }))
        .unwrap();
}

/// What the agent read from Ask First, one JSON message a line.
fn heard(log: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn said(h: &Harness) -> Vec<String> {
    h.events
        .all()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::AssistantMessage { text, .. } => Some(text),
            _ => None,
        })
        .collect()
}

fn run_ends(h: &Harness) -> usize {
    h.events
        .all()
        .iter()
        .filter(|e| matches!(e, AgentEvent::RunFinished { .. }))
        .count()
}

fn defaults() -> (AcpLimits, Rules) {
    (AcpLimits::default(), Rules::default())
}

#[tokio::test]
async fn a_write_through_fs_makes_a_card_with_its_diff_and_approve_writes() {
    let (limits, rules) = defaults();
    let (mut h, log) = hosted("write", limits, rules);
    h.runtime.start_run("Write hello.txt").unwrap();
    let card = h.events.approval_required().await;
    assert_eq!(card.tool_name, "write_file");
    assert_eq!(card.agent.as_deref(), Some("Fake agent"));
    assert_eq!(
        card.arguments_json,
        r#"{"content":"Hi\n","path":"hello.txt"}"#
    );
    assert!(
        card.preview.as_deref().unwrap_or("").contains("+Hi"),
        "{card:?}"
    );
    assert!(
        !h.dir.path().join("hello.txt").exists(),
        "nothing before the OK"
    );
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    let (_, status, message) = h.events.run_finished().await;
    assert_eq!((status, message), (RunStatus::Completed, None));
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("hello.txt")).unwrap(),
        "Hi\n"
    );
    assert_eq!(said(&h), ["I will write hello.txt.", "Written."]);
    let answer = heard(&log).into_iter().find(|m| m["id"] == 101).unwrap();
    assert_eq!(answer["result"], serde_json::json!({}));
    // The run's start names who did the work.
    assert!(h.events.all().iter().any(|e| matches!(
        e,
        AgentEvent::RunStarted { provider, .. } if provider == "Fake agent"
    )));
    assert_eq!(run_ends(&h), 1);
}

#[tokio::test]
async fn deny_with_a_note_reaches_the_agents_model_and_writes_nothing() {
    let (limits, rules) = defaults();
    let (mut h, log) = hosted("write", limits, rules);
    h.runtime.start_run("Write hello.txt").unwrap();
    let card = h.events.approval_required().await;
    h.runtime
        .resolve_approval(
            card.approval_id,
            Decision::Deny {
                note: Some("Write a poem instead".into()),
            },
        )
        .unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert!(!h.dir.path().join("hello.txt").exists());
    let answer = heard(&log).into_iter().find(|m| m["id"] == 101).unwrap();
    let told = answer["error"]["message"].as_str().unwrap().to_owned();
    assert!(told.contains("Write a poem instead"), "{told}");
    assert!(
        said(&h)[1].contains("Write a poem instead"),
        "{:?}",
        said(&h)
    );
}

#[tokio::test]
async fn a_deny_rule_refuses_the_write_without_a_card() {
    let rules = Rules::parse(
        "[[deny]]\ntool = \"write_file\"\nmatch = \"hello.txt\"\n",
        Path::new("rules.toml"),
    );
    let (mut h, log) = hosted("write", AcpLimits::default(), rules);
    h.runtime.start_run("Write hello.txt").unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert!(!h.dir.path().join("hello.txt").exists());
    assert!(!h
        .events
        .all()
        .iter()
        .any(|e| matches!(e, AgentEvent::ApprovalRequired(_))));
    let answer = heard(&log).into_iter().find(|m| m["id"] == 101).unwrap();
    assert!(answer["error"]["message"].is_string(), "{answer}");
    assert!(super::support::finished_statuses(&h.events.all()).contains(&ToolCallStatus::Denied));
}

#[tokio::test]
async fn a_read_runs_without_a_card_and_gives_exactly_the_lines_asked_for() {
    let (limits, rules) = defaults();
    let (mut h, _log) = hosted("read", limits, rules);
    std::fs::write(h.dir.path().join("notes.txt"), "one\ntwo\nthree\n").unwrap();
    h.runtime.start_run("Read my notes").unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert_eq!(said(&h), [r#"Read: {"content": "two\n"}"#]);
}

#[tokio::test]
async fn a_path_outside_the_folder_is_refused_with_a_sentence_for_the_agent() {
    let (limits, rules) = defaults();
    let (mut h, _log) = hosted("outside", limits, rules);
    h.runtime.start_run("Write outside").unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert!(!Path::new("/etc/askfirst-outside.txt").exists());
    let told = said(&h).join("\n");
    assert!(
        told.starts_with("Refused: ") && told.contains("outside"),
        "{told}"
    );
    assert!(!h
        .events
        .all()
        .iter()
        .any(|e| matches!(e, AgentEvent::ApprovalRequired(_))));
}

async fn permission_answered(decision: Decision) -> (String, askfirst_protocol::ApprovalRequest) {
    let (limits, rules) = defaults();
    let (mut h, _log) = hosted("permission", limits, rules);
    h.runtime.start_run("Clean the build").unwrap();
    let card = h.events.approval_required().await;
    h.runtime
        .resolve_approval(card.approval_id, decision)
        .unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    (said(&h).join("\n"), card)
}

#[tokio::test]
async fn a_permission_request_is_a_card_naming_the_agent_and_approve_picks_allow_once() {
    let (told, card) = permission_answered(Decision::Approve).await;
    assert_eq!(
        told,
        r#"Outcome: {"optionId": "yes", "outcome": "selected"}"#
    );
    assert_eq!(card.agent.as_deref(), Some("Fake agent"));
    assert_eq!(card.tool_name, "execute");
    assert!(card.summary.contains("Fake agent") && card.summary.contains("Run rm -rf build"));
    assert!(card.grant_scope.is_none() && card.editable.is_empty());
    assert!(matches!(
        card.detail,
        Some(CallDetail::External { ref agent, ref command, .. })
            if agent == "Fake agent" && command.as_deref() == Some("rm -rf build")
    ));
}

#[tokio::test]
async fn deny_on_a_permission_card_picks_reject_once() {
    let (told, _) = permission_answered(Decision::Deny { note: None }).await;
    assert_eq!(
        told,
        r#"Outcome: {"optionId": "no", "outcome": "selected"}"#
    );
}

#[tokio::test]
async fn stop_cancels_the_turn_and_answers_every_waiting_permission_request() {
    let (limits, rules) = defaults();
    let (mut h, log) = hosted("wait", limits, rules);
    let run = h.runtime.start_run("Delete everything").unwrap();
    let card = h.events.approval_required().await;
    assert!(h.runtime.cancel_run(run.run_id));
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Cancelled);
    let heard = heard(&log);
    assert!(
        heard.iter().any(|m| m["method"] == "session/cancel"),
        "{heard:?}"
    );
    let answer = heard.iter().find(|m| m["id"] == 101).unwrap();
    assert_eq!(answer["result"]["outcome"]["outcome"], "cancelled");
    assert!(h.runtime.list_pending_approvals().is_empty());
    assert!(h
        .runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .is_err());
    assert_eq!(run_ends(&h), 1);
}

#[tokio::test]
async fn the_agents_own_tool_calls_are_shown_in_the_transcript() {
    let (limits, rules) = defaults();
    let (mut h, _log) = hosted("own_tool", limits, rules);
    h.runtime.start_run("Weather?").unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    let events = h.events.all();
    assert!(events.iter().any(|e| matches!(
        e,
        AgentEvent::ToolCallProposed { tool_name, summary, .. }
            if tool_name == "fetch" && summary == "Fake agent: Searching the web"
    )));
    assert_eq!(
        super::support::finished_statuses(&events),
        [ToolCallStatus::Succeeded]
    );
    assert_eq!(said(&h), ["Sunny."]);
}

/// Runs the fake agent in `mode`, which must end the task with a sentence naming the agent
/// (checked by `sentence`); then the next task, with a well-behaved agent, works.
async fn ends_with_a_sentence_and_the_next_task_works(
    mode: &str,
    limits: AcpLimits,
    sentence: &str,
) -> Harness {
    let (mut h, log) = hosted(mode, limits, Rules::default());
    h.runtime.start_run("Do something").unwrap();
    let (_, status, message) =
        tokio::time::timeout(Duration::from_secs(60), h.events.run_finished())
            .await
            .unwrap();
    assert_eq!(status, RunStatus::Failed, "{mode}");
    let message = message.unwrap();
    assert!(
        message.contains("Fake agent") && message.contains(sentence),
        "{mode}: {message}"
    );
    assert_eq!(run_ends(&h), 1, "{mode}");
    set_mode(&h, "own_tool", &log);
    // The run's end is announced a moment before the run lets go of the session.
    let mut started = h.runtime.start_run("Weather?");
    for _ in 0..100 {
        if started.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        started = h.runtime.start_run("Weather?");
    }
    started.unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed, "the next task after {mode}");
    h
}

#[tokio::test]
async fn a_message_over_the_size_cap_ends_the_task() {
    ends_with_a_sentence_and_the_next_task_works("huge", AcpLimits::default(), "40 MB").await;
}

#[tokio::test]
async fn a_line_that_is_not_json_rpc_ends_the_task() {
    ends_with_a_sentence_and_the_next_task_works("garbage", AcpLimits::default(), "protocol").await;
}

#[tokio::test]
async fn a_method_not_offered_is_answered_with_an_error_and_ends_the_task() {
    let (limits, rules) = defaults();
    let (mut h, log) = hosted("unknown", limits, rules);
    h.runtime.start_run("Do something").unwrap();
    let (_, status, message) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Failed);
    assert!(message.unwrap().contains("terminal/create"));
    let log = std::fs::read_to_string(log).unwrap();
    assert!(
        log.contains(r#"ANSWER {"error": {"code": -32601, "message": "Ask First does not offer terminal/create."}"#),
        "{log}"
    );
    drop(h);
    ends_with_a_sentence_and_the_next_task_works(
        "unknown",
        AcpLimits::default(),
        "terminal/create",
    )
    .await;
}

#[tokio::test]
async fn a_flood_of_updates_ends_the_task() {
    let limits = AcpLimits {
        messages: 1000,
        ..AcpLimits::default()
    };
    ends_with_a_sentence_and_the_next_task_works("flood", limits, "1000").await;
}

#[tokio::test]
async fn an_agent_that_hangs_is_stopped() {
    let limits = AcpLimits {
        silence: Duration::from_secs(1),
        ..AcpLimits::default()
    };
    let h = ends_with_a_sentence_and_the_next_task_works("hang", limits, "1 seconds").await;
    drop(h);
}

#[tokio::test]
async fn an_agent_that_crashes_ends_the_task_with_its_last_words_in_details() {
    let h = ends_with_a_sentence_and_the_next_task_works("crash", AcpLimits::default(), "stopped")
        .await;
    let detail = h.events.all().into_iter().find_map(|e| match e {
        AgentEvent::RunFinished { detail, .. } => detail,
        _ => None,
    });
    assert!(detail.unwrap_or_default().contains("boom"));
}

#[tokio::test]
async fn an_agent_that_needs_a_sign_in_says_how() {
    ends_with_a_sentence_and_the_next_task_works("auth", AcpLimits::default(), "sign in").await;
}

#[tokio::test]
async fn an_agent_that_cannot_be_started_says_so() {
    let h = harness_acp(AcpLimits::default(), Rules::default());
    let mut h = h;
    h.runtime
        .set_agent(Some(AcpAgent {
            id: "custom".into(),
            name: "Fake agent".into(),
            command: vec!["/nonexistent/askfirst-agent".into()],
        }))
        .unwrap();
    h.runtime.start_run("Do something").unwrap();
    let (_, status, message) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Failed);
    assert!(message.unwrap().contains("could not be started"));
}

#[tokio::test]
async fn a_file_not_there_reads_as_empty_so_the_agent_can_create_it() {
    let (limits, rules) = defaults();
    let (mut h, _log) = hosted("read", limits, rules);
    h.runtime.start_run("Read my notes").unwrap();
    let (_, status, _) = h.events.run_finished().await;
    assert_eq!(status, RunStatus::Completed);
    assert_eq!(said(&h), [r#"Read: {"content": ""}"#]);
}
