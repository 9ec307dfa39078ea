//! Cards already waiting are said again when the person changes the language
//! (`AgentRuntime::set_language`): their words follow at once, the call they ask about does not
//! change, and a card whose file changed since keeps the words it was shown with. And a tool
//! that fails says why in that language, while the model is told the English.

use super::support::{finished, harness};
use askfirst_core::i18n::{self, tr_in, Arg, Language};
use askfirst_protocol::{AgentEvent, Decision, RunStatus};
use pretty_assertions::assert_eq;
use std::time::Duration;

/// The variable that makes [`reword_child`] do its work (in a process of its own: the language
/// is the whole process's, and the other tests read English).
const CHILD: &str = "ASKFIRST_TEST_REWORD_CHILD";

#[test]
fn waiting_cards_are_said_again_in_the_new_language() {
    super::support::in_a_child_process("all::reword::reword_child", CHILD);
}

#[test]
fn reword_child() {
    if std::env::var_os(CHILD).is_none() {
        return; // run by the test above, in a process of its own
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let scenario = serde_json::json!({"turns": [
            {"say": "Two files.", "tool_calls": [
                {"name": "write_file", "arguments": {"path": "new.txt", "content": "one\n"}},
                {"name": "write_file", "arguments": {"path": "old.txt", "content": "two\n"}}
            ]},
            {"say": "Finished."}
        ]});
        let mut h = harness(scenario, Duration::from_secs(120));
        std::fs::write(h.dir.path().join("old.txt"), "before\n").unwrap();
        h.runtime.start_run("Write two files").unwrap();
        let a = h.events.approval_required().await;
        let b = h.events.approval_required().await;
        let (new, old) = if a.arguments_json.contains("new.txt") {
            (a, b)
        } else {
            (b, a)
        };
        let english = tr_in(
            Language::En,
            "card-write-create",
            &[("name", Arg::from("new.txt")), ("lines", Arg::from(1))],
        );
        assert_eq!(new.summary, english);
        // old.txt changes while its card waits: that card keeps the words it was shown with.
        std::fs::write(h.dir.path().join("old.txt"), "changed by the person\n").unwrap();

        let runtime = h.runtime.clone();
        let changed = tokio::task::spawn_blocking(move || runtime.set_language(Language::ZhCn))
            .await
            .unwrap();
        assert_eq!(changed, 1);
        assert_eq!(i18n::language(), Language::ZhCn);
        let listed = h.runtime.list_pending_approvals();
        let now = |id| listed.iter().find(|r| r.approval_id == id).unwrap().clone();
        let new_now = now(new.approval_id);
        assert_eq!(
            new_now.summary,
            tr_in(
                Language::ZhCn,
                "card-write-create",
                &[("name", Arg::from("new.txt")), ("lines", Arg::from(1))],
            )
        );
        assert_eq!(new_now.reason, tr_in(Language::ZhCn, "reason-changes", &[]));
        assert_ne!(new_now.reason, new.reason);
        assert_eq!(
            new_now.grant_scope,
            Some(tr_in(Language::ZhCn, "card-grant_scope", &[]))
        );
        // Only the words: the call, its diff, risk and expiry are what the card asked about.
        assert_eq!(
            (
                &new_now.arguments_json,
                &new_now.arguments_sha256,
                &new_now.preview,
                new_now.risk,
                new_now.expires_at,
                &new_now.tool_call_id,
            ),
            (
                &new.arguments_json,
                &new.arguments_sha256,
                &new.preview,
                new.risk,
                new.expires_at,
                &new.tool_call_id,
            )
        );
        assert_eq!(now(old.approval_id), old);
        // The same language again changes nothing.
        let runtime = h.runtime.clone();
        let again = tokio::task::spawn_blocking(move || runtime.set_language(Language::ZhCn))
            .await
            .unwrap();
        assert_eq!(again, 0);

        // Approving the card said again runs exactly the call it asked about.
        h.runtime
            .resolve_approval(new.approval_id, Decision::Approve)
            .unwrap();
        h.runtime
            .resolve_approval(old.approval_id, Decision::Deny { note: None })
            .unwrap();
        let (_, status, _) = h.events.run_finished().await;
        assert_eq!(status, RunStatus::Completed);
        assert_eq!(
            std::fs::read_to_string(h.dir.path().join("new.txt")).unwrap(),
            "one\n"
        );
        assert_eq!(
            std::fs::read_to_string(h.dir.path().join("old.txt")).unwrap(),
            "changed by the person\n"
        );
        // No second "approval required" went out for a card said again.
        let asked = h
            .events
            .all()
            .iter()
            .filter(|e| matches!(e, AgentEvent::ApprovalRequired(_)))
            .count();
        assert_eq!(asked, 2);

        // Failures are told in the language too (the model still gets the English).
        let failing = serde_json::json!({"turns": [
            {"say": "Trying.", "tool_calls": [
                {"name": "read_file", "arguments": {"path": "missing.txt"}},
                {"name": "run_command", "arguments": {"command": "echo out; exit 3"}}
            ]},
            {"say": "Finished."}
        ]});
        let mut f = harness(failing, Duration::from_secs(120));
        f.runtime.start_run("Fail twice").unwrap();
        // The command changes nothing on the copy it is tried on: no card.
        f.events.run_finished().await;
        let outputs: Vec<String> = finished(&f.events.all())
            .into_iter()
            .map(|call| call.output)
            .collect();
        assert_eq!(
            outputs,
            vec![
                "文件 missing.txt 不存在。".to_owned(),
                "命令执行失败（退出码 3）。\n它输出的内容：\nout\n".to_owned(),
            ]
        );
        let sent = f.requests.lock().unwrap().clone();
        let told = serde_json::to_string(&sent[1]).unwrap();
        assert!(
            told.contains("The file missing.txt does not exist."),
            "{told}"
        );
        assert!(
            told.contains("The command failed with exit code 3."),
            "{told}"
        );
        h.runtime.set_language(Language::En);
    });
    println!("child: checked");
}
