//! The inbox's promises: only an approval allows, each answer goes to the request that asked,
//! the policy applies, requests are bounded, and the socket is the person's alone.

#![allow(clippy::expect_used)]

use super::*;
use crate::approvals::{AnswerMode, RegistryConfig};
use crate::audit::NoAudit;
use crate::policy::Rules;
use askfirst_protocol::{AgentEvent, ApprovalRequest, Decision};
use pretty_assertions::assert_eq;
use std::os::unix::fs::PermissionsExt;
use tokio::io::AsyncBufReadExt;

struct Fixture {
    inbox: Arc<Inbox>,
    registry: Arc<ApprovalRegistry>,
    policy: Arc<Policy>,
    asked: tokio::sync::mpsc::UnboundedReceiver<ApprovalRequest>,
    _data: tempfile::TempDir,
}

fn fixture(timeout: Duration) -> Fixture {
    let (tx, asked) = tokio::sync::mpsc::unbounded_channel();
    let events: EventSink = Arc::new(move |event| {
        if let AgentEvent::ApprovalRequired(request) = event {
            let _ = tx.send(request);
        }
    });
    let registry = ApprovalRegistry::new(RegistryConfig {
        timeout,
        mode: AnswerMode::Interactive,
        events: Arc::new(|_| {}),
        audit: Arc::new(NoAudit),
    });
    let policy = Arc::new(Policy::new(Rules::default(), None));
    let data = tempfile::tempdir().expect("data dir");
    let inbox = Inbox::new(
        Arc::clone(&registry),
        Arc::clone(&policy),
        events,
        data.path(),
        Some(PathBuf::from("/home/ann")),
    );
    Fixture {
        inbox,
        registry,
        policy,
        asked,
        _data: data,
    }
}

impl Fixture {
    /// Sends `request` to the inbox as a hook does, and waits for its card; returns the card
    /// and the hook's answer to come.
    async fn ask(
        &mut self,
        request: InboxRequest,
    ) -> (ApprovalRequest, tokio::task::JoinHandle<InboxAnswer>) {
        let inbox = Arc::clone(&self.inbox);
        let asking = tokio::spawn(async move { inbox.answer(request).await });
        let card = self.asked.recv().await.expect("a card");
        (card, asking)
    }

    /// Answers `card` with `decision` as the person does, and returns what the hook is told.
    async fn decide(
        &self,
        card: &ApprovalRequest,
        asking: tokio::task::JoinHandle<InboxAnswer>,
        decision: Decision,
    ) -> InboxAnswer {
        self.registry
            .resolve(card.approval_id, decision)
            .expect("resolve");
        asking.await.expect("answer")
    }
}

/// Claude Code asking as it would ask the person (its `PermissionRequest` hook: a card).
fn request(session: &str, tool: &str, input: &str) -> InboxRequest {
    InboxRequest {
        agent: ExternalAgent::ClaudeCode,
        hook_event: "PermissionRequest".into(),
        session_id: session.into(),
        cwd: "/home/ann/site".into(),
        tool_name: tool.into(),
        tool_input_json: input.into(),
    }
}

fn allow() -> InboxAnswer {
    InboxAnswer {
        verdict: InboxVerdict::Allow,
        reason: None,
    }
}

#[tokio::test]
async fn only_the_persons_approval_allows_and_a_note_reaches_the_agent() {
    let mut f = fixture(Duration::from_secs(60));
    let (card, asking) = f
        .ask(request("s1", "Bash", r#"{"command":"npm test"}"#))
        .await;
    assert_eq!(card.tool_name, "Bash");
    assert_eq!(card.arguments_json, r#"{"command":"npm test"}"#);
    // Our grants are never offered: only Claude Code's own session permission.
    let scope = card
        .grant_scope
        .clone()
        .expect("Claude Code's session permission");
    assert!(
        scope.starts_with("Claude Code will not ask again for exactly `npm test`"),
        "{scope}"
    );
    assert_eq!(
        card.summary,
        "Claude Code, in the folder ~/site, wants to run `npm test`"
    );
    assert_eq!(f.decide(&card, asking, Decision::Approve).await, allow());

    let (card, asking) = f
        .ask(request(
            "s1",
            "Write",
            r#"{"file_path":"/home/ann/site/a","content":"x"}"#,
        ))
        .await;
    // Another agent's call cannot be changed on its card: no "Change…", and the answer is
    // refused with the card left waiting.
    assert!(card.editable.is_empty());
    let change = Decision::Change {
        fields: [("content".to_owned(), "y".to_owned())].into(),
    };
    assert_eq!(
        f.registry.resolve(card.approval_id, change),
        Err(crate::approvals::ApprovalError::CannotChange {
            id: card.approval_id,
            problem: crate::approvals::ChangeProblem::NotOffered,
        })
    );
    let note = Some("use b instead".into());
    assert_eq!(
        f.decide(&card, asking, Decision::Deny { note }).await,
        InboxAnswer {
            verdict: InboxVerdict::Deny,
            reason: Some(words::denied_with_note("use b instead")),
        }
    );
    // An answer is given once: the card is gone.
    assert!(f
        .registry
        .resolve(card.approval_id, Decision::Approve)
        .is_err());
}

#[tokio::test(start_paused = true)]
async fn no_answer_in_time_denies_with_a_reason() {
    let mut f = fixture(Duration::from_secs(30));
    let (_card, asking) = f
        .ask(request("s", "Bash", r#"{"command":"rm -rf build"}"#))
        .await;
    let answer = asking.await.expect("answer");
    assert_eq!(
        answer,
        InboxAnswer {
            verdict: InboxVerdict::Deny,
            reason: Some(words::timed_out("30 seconds")),
        }
    );
}

#[tokio::test]
async fn dont_ask_me_now_refuses_without_a_card_and_reads_are_left_to_the_agent() {
    let mut f = fixture(Duration::from_secs(60));
    f.policy.set_session_policy(SessionPolicy::Never);
    let answer = f
        .inbox
        .answer(request("s", "Bash", r#"{"command":"ls"}"#))
        .await;
    assert_eq!(answer.verdict, InboxVerdict::Deny);
    assert_eq!(answer.reason.as_deref(), Some(words::DONT_ASK_NOW));
    f.policy.set_session_policy(SessionPolicy::Ask);
    let read = f
        .inbox
        .answer(request("s", "Read", r#"{"file_path":"/home/ann/site/a"}"#))
        .await;
    assert_eq!(read.verdict, InboxVerdict::NoOpinion);
    assert!(f.asked.try_recv().is_err(), "no card was shown");
}

#[tokio::test]
async fn too_many_requests_at_once_are_denied_not_queued() {
    let f = fixture(Duration::from_secs(60));
    let slots: Vec<_> = ExternalAgent::ALL
        .into_iter()
        .flat_map(|agent| (0..MAX_IN_FLIGHT).map_while(move |_| Some(agent)))
        .map_while(|agent| f.inbox.admit(agent))
        .collect();
    assert_eq!(
        slots.len(),
        MAX_IN_FLIGHT.min(MAX_WAITING_PER_AGENT),
        "the first agent's requests fill its share"
    );
    let answer = f
        .inbox
        .answer(request("s", "Bash", r#"{"command":"ls"}"#))
        .await;
    assert_eq!(answer.reason.as_deref(), Some(words::TOO_MANY));
    drop(slots);
    assert!(
        f.inbox.admit(ExternalAgent::ClaudeCode).is_some(),
        "slots come back"
    );
}

/// Found by a red team (round three): 32 forged requests in one agent's name pushed the
/// person's own card out of view. One agent has at most [`MAX_WAITING_PER_AGENT`] requests
/// waiting; the next is refused at once with a sentence, while another agent still asks.
#[tokio::test]
async fn one_agent_floods_only_its_own_share_of_cards() {
    let Fixture {
        inbox, mut asked, ..
    } = fixture(Duration::from_secs(60));
    let mut waiting = Vec::new();
    for i in 0..MAX_WAITING_PER_AGENT {
        let inbox = Arc::clone(&inbox);
        waiting.push(tokio::spawn(async move {
            inbox
                .answer(request(
                    "flood",
                    "Bash",
                    &format!(r#"{{"command":"rm -rf build-{i}"}}"#),
                ))
                .await
        }));
    }
    let mut cards = 0;
    while cards < MAX_WAITING_PER_AGENT {
        tokio::time::timeout(Duration::from_secs(10), asked.recv())
            .await
            .expect("a card")
            .expect("asked");
        cards += 1;
    }
    let refused = inbox
        .answer(request("flood", "Bash", r#"{"command":"rm -rf one-more"}"#))
        .await;
    assert_eq!(refused.verdict, InboxVerdict::Deny);
    assert_eq!(refused.reason.as_deref(), Some(words::TOO_MANY));
    let mut other = request("g", "run_shell_command", r#"{"command":"rm -rf x"}"#);
    other.agent = ExternalAgent::Gemini;
    let inbox2 = Arc::clone(&inbox);
    let gemini = tokio::spawn(async move { inbox2.answer(other).await });
    tokio::time::timeout(Duration::from_secs(10), asked.recv())
        .await
        .expect("another agent still gets its card")
        .expect("asked");
    gemini.abort();
    for task in waiting {
        task.abort();
    }
}

async fn exchange(path: &Path, line: &[u8]) -> String {
    let mut stream = tokio::net::UnixStream::connect(path)
        .await
        .expect("connect");
    stream.write_all(line).await.expect("write");
    let mut answer = String::new();
    let mut reader = BufReader::new(stream);
    let _ = reader.read_line(&mut answer).await;
    answer
}

#[tokio::test]
async fn the_socket_is_private_bounded_and_answers_each_request_once() {
    let mut f = fixture(Duration::from_secs(60));
    let runtime = tempfile::tempdir().expect("runtime dir");
    let listening = f
        .inbox
        .listen(runtime.path(), &tokio::runtime::Handle::current())
        .expect("listen");
    let path = listening.path().to_owned();
    let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(path.parent().expect("folder")), 0o700);
    // A second inbox does not steal the socket of a running one.
    assert!(f
        .inbox
        .listen(runtime.path(), &tokio::runtime::Handle::current())
        .is_err());

    // Too large, or not a request: closed without an answer (the hook then fails closed).
    let mut big = vec![b'x'; INBOX_MAX_REQUEST_BYTES + 10];
    big.push(b'\n');
    assert_eq!(exchange(&path, &big).await, "");
    assert_eq!(exchange(&path, b"{\"verdict\":\"allow\"}\n").await, "");

    // Two requests at once: each answer goes to the one that asked.
    let line = |session: &str, command: &str| {
        let mut text = serde_json::to_vec(&request(
            session,
            "Bash",
            &serde_json::json!({ "command": command }).to_string(),
        ))
        .expect("json");
        text.push(b'\n');
        text
    };
    let (first, second) = (line("a", "make one"), line("b", "make two"));
    let p1 = path.clone();
    let one = tokio::spawn(async move { exchange(&p1, &first).await });
    let p2 = path.clone();
    let two = tokio::spawn(async move { exchange(&p2, &second).await });
    let mut cards = [
        f.asked.recv().await.expect("card"),
        f.asked.recv().await.expect("card"),
    ];
    cards.sort_by_key(|c| c.arguments_json.clone());
    assert_ne!(cards[0].run_id, cards[1].run_id, "one conversation each");
    f.registry
        .resolve(cards[1].approval_id, Decision::Deny { note: None })
        .expect("deny two");
    f.registry
        .resolve(cards[0].approval_id, Decision::Approve)
        .expect("approve one");
    let one: InboxAnswer = serde_json::from_str(&one.await.expect("one")).expect("answer");
    let two: InboxAnswer = serde_json::from_str(&two.await.expect("two")).expect("answer");
    assert_eq!(one, allow());
    assert_eq!(two.verdict, InboxVerdict::Deny);

    // A hook that goes away cancels its card.
    let mut stream = tokio::net::UnixStream::connect(&path)
        .await
        .expect("connect");
    stream
        .write_all(&line("c", "make three"))
        .await
        .expect("write");
    let card = f.asked.recv().await.expect("card");
    drop(stream);
    for _ in 0..100 {
        if f.registry.list_pending(None).is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        f.registry.list_pending(None).is_empty(),
        "{card:?} was cancelled"
    );
    drop(listening);
    assert!(!path.exists(), "the socket is removed");
}

#[tokio::test]
async fn allow_in_this_conversation_is_the_agents_own_session_permission_and_ask_first_keeps_none()
{
    let mut f = fixture(Duration::from_secs(60));
    let permission_request = || InboxRequest {
        hook_event: "PermissionRequest".into(),
        ..request("s1", "Bash", r#"{"command":"npm test"}"#)
    };
    let (card, asking) = f.ask(permission_request()).await;
    let scope = card
        .grant_scope
        .clone()
        .expect("offered on PermissionRequest");
    assert_eq!(
        scope,
        "Claude Code will not ask again for exactly `npm test` until you close that Claude Code \
         conversation. It remembers this itself, so Ask First will not be asked about it again \
         either."
    );
    assert_eq!(
        f.decide(&card, asking, Decision::ApproveForSession)
            .await
            .verdict,
        InboxVerdict::AllowForSession
    );
    // Ask First keeps no grant: the same request, asked again, is asked again.
    let (card, again) = f.ask(permission_request()).await;
    assert_eq!(f.decide(&card, again, Decision::Approve).await, allow());
}

#[tokio::test]
async fn on_pre_tool_use_only_our_policy_speaks_and_an_ask_rule_asks_without_a_session_button() {
    let mut f = fixture(Duration::from_secs(60));
    let pre_tool_use = |command: &str| InboxRequest {
        hook_event: "PreToolUse".into(),
        ..request(
            "s1",
            "Bash",
            &serde_json::json!({ "command": command }).to_string(),
        )
    };
    // What no rule asks about is left to Claude Code's own flow (its PermissionRequest hook
    // asks here when Claude Code would ask): no card, no decision.
    let answer = f.inbox.answer(pre_tool_use("mkdir build")).await;
    assert_eq!(answer.verdict, InboxVerdict::NoOpinion);
    assert!(f.asked.try_recv().is_err(), "no card");
    assert!(f.registry.list_pending(None).is_empty());

    // An ask rule asks on a card, every time, and with no session permission to give there.
    f.policy.set_rules(Rules::parse(
        "[[ask]]\ntool = \"run_command\"\nmatch = \"make*\"\n",
        Path::new("rules.toml"),
    ));
    for round in 0..2 {
        let (card, asking) = f.ask(pre_tool_use("make all")).await;
        assert_eq!(card.grant_scope, None, "round {round}");
        // "Allow in this conversation" cannot be given where it is not offered.
        assert!(f
            .registry
            .resolve(card.approval_id, Decision::ApproveForSession)
            .is_err());
        assert_eq!(f.decide(&card, asking, Decision::Approve).await, allow());
    }
}

#[tokio::test]
async fn connections_over_the_cap_are_closed_at_once_and_the_inbox_keeps_answering() {
    let mut f = fixture(Duration::from_secs(60));
    let runtime = tempfile::tempdir().expect("runtime dir");
    let listening = f
        .inbox
        .listen(runtime.path(), &tokio::runtime::Handle::current())
        .expect("listen");
    let path = listening.path().to_owned();
    // A process holds the most connections open without sending anything.
    let mut held = Vec::new();
    for _ in 0..MAX_CONNECTIONS {
        held.push(
            tokio::net::UnixStream::connect(&path)
                .await
                .expect("connect"),
        );
    }
    // One more is closed unread: its reader sees the end at once, not after READ_LIMIT.
    let mut extra = tokio::net::UnixStream::connect(&path)
        .await
        .expect("connect");
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(Duration::from_secs(2), extra.read(&mut byte))
        .await
        .expect("closed before the read limit");
    assert_eq!(read.expect("read"), 0, "closed without an answer");
    // Once the held connections go, a request is served again.
    drop(held);
    let mut line = serde_json::to_vec(&request(
        "after",
        "Bash",
        &serde_json::json!({ "command": "make again" }).to_string(),
    ))
    .expect("json");
    line.push(b'\n');
    // The permits return as each held connection's handler sees its end; until then a new
    // connection may still be closed unread, and is tried again.
    for _ in 0..100 {
        let (p, l) = (path.clone(), line.clone());
        let mut asked = tokio::spawn(async move { exchange(&p, &l).await });
        match tokio::time::timeout(Duration::from_millis(100), &mut asked).await {
            Ok(closed) => {
                assert_eq!(closed.expect("exchange"), "", "closed unread");
                continue;
            }
            Err(_) => {
                let card = f.asked.recv().await.expect("card");
                f.registry
                    .resolve(card.approval_id, Decision::Approve)
                    .expect("approve");
                let answer: InboxAnswer =
                    serde_json::from_str(&asked.await.expect("answer")).expect("json");
                assert_eq!(answer, allow());
                return;
            }
        }
    }
    panic!("no request was served after the held connections went");
}

#[tokio::test]
async fn a_waiting_card_is_said_again_in_another_language_and_still_answers_its_request() {
    use crate::i18n::{with_language, Language};
    let mut f = fixture(Duration::from_secs(60));
    let inbox = Arc::clone(&f.inbox);
    let asked = request("s1", "Bash", r#"{"command":"mkdir build"}"#);
    let asking = tokio::spawn({
        let asked = asked.clone();
        async move { inbox.answer(asked).await }
    });
    let card = f.asked.recv().await.expect("a card");
    // The person switches to Portuguese while the card waits (rewording runs on this thread,
    // so its language is this thread's).
    let changed = with_language(Language::PtBr, || f.registry.reword_pending());
    assert_eq!(changed, 1);
    let now = f.registry.list_pending(None).remove(0);
    let in_portuguese = with_language(Language::PtBr, || {
        card::describe(&asked, Some(Path::new("/home/ann")))
    });
    assert_eq!(now.summary, in_portuguese.summary);
    assert_ne!(now.summary, card.summary);
    assert_eq!(now.reason, in_portuguese.reason);
    let scope = now.grant_scope.clone().expect("still offered");
    assert_ne!(Some(&scope), card.grant_scope.as_ref());
    assert!(scope.contains("`mkdir build`"), "{scope}");
    assert_eq!(
        (
            &now.approval_id,
            &now.arguments_json,
            now.risk,
            now.expires_at
        ),
        (
            &card.approval_id,
            &card.arguments_json,
            card.risk,
            card.expires_at
        )
    );
    f.registry
        .resolve(card.approval_id, Decision::Approve)
        .expect("resolve");
    assert_eq!(asking.await.expect("answer"), allow());
}

/// Red team, round four: the agent a request comes from is what the request says
/// (`InboxRequest::agent`, written by whoever connects), so the per-agent share is per name,
/// not per program. One program that sends eight requests in each of the three agents' names
/// puts 24 cards in front of the person — the flood [`MAX_WAITING_PER_AGENT`] was meant to keep
/// to a handful — and the real Claude Code, Codex and Gemini CLI are all refused "too many"
/// meanwhile.
#[tokio::test]
#[ignore = "red team: one program claiming all three agents' names still floods 24 cards"]
async fn hostile4_one_program_in_every_agents_name_floods_three_shares_of_cards() {
    let Fixture {
        inbox, mut asked, ..
    } = fixture(Duration::from_secs(60));
    let mut waiting = Vec::new();
    for agent in ExternalAgent::ALL {
        for i in 0..MAX_WAITING_PER_AGENT {
            let inbox = Arc::clone(&inbox);
            let mut forged = request(
                "flood",
                "Bash",
                &format!(r#"{{"command":"rm -rf build-{i}"}}"#),
            );
            forged.agent = agent;
            waiting.push(tokio::spawn(async move { inbox.answer(forged).await }));
        }
    }
    let mut cards = 0;
    while tokio::time::timeout(Duration::from_secs(2), asked.recv())
        .await
        .is_ok_and(|card| card.is_some())
    {
        cards += 1;
    }
    for task in waiting {
        task.abort();
    }
    assert!(
        cards <= MAX_WAITING_PER_AGENT,
        "one program put {cards} cards in front of the person"
    );
}
