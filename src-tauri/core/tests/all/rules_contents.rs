//! Rules about what is inside a folder hold when the folder itself is moved or trashed: a
//! folder moved takes everything inside it along, so "never touch `Docs/Taxes`" forbids moving
//! `Docs` (and an ask rule asks), whatever an allow rule says about moving; the same for glob
//! rules (`**/*.pdf`). A folder moved that holds nothing the rules name moves as before.

use super::policy::{rules, TIMEOUT};
use super::support::{finished_outputs, harness_with};
use askfirst_core::approvals::AnswerMode;
use askfirst_core::policy::PolicyDecision;
use askfirst_protocol::{AgentEvent, Decision, ToolCallStatus};
use serde_json::json;

fn cards(events: &[AgentEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, AgentEvent::ApprovalRequired(_)))
        .count()
}

#[tokio::test]
async fn a_folder_that_holds_a_forbidden_one_is_not_moved_even_where_moves_are_allowed() {
    let scenario = json!({"turns": [
        {"tool_calls": [{"name": "move_path", "arguments": {"from": "Docs", "to": "Old"}}]},
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "Old/Taxes/2024.txt"}}]},
        {"tool_calls": [{"name": "move_path", "arguments": {"from": "Photos", "to": "Pictures"}}]},
        {"say": "done"}
    ]});
    let mut h = harness_with(
        scenario,
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"*\"\nmatch = \"Docs/Taxes/**\"\n\
             [[allow]]\ntool = \"move_path\"\n",
        ),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    std::fs::create_dir_all(root.join("Docs/Taxes")).unwrap();
    std::fs::write(root.join("Docs/Taxes/2024.txt"), "IBAN DE00 1234\n").unwrap();
    std::fs::create_dir_all(root.join("Photos")).unwrap();
    std::fs::write(root.join("Photos/cat.jpg"), "jpg").unwrap();
    h.runtime.start_run("tidy").unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 0);
    let outputs = finished_outputs(&events);
    assert_eq!(outputs[0].0, ToolCallStatus::Denied, "{outputs:?}");
    assert!(outputs[0].1.contains("Docs/Taxes"), "{outputs:?}");
    assert!(root.join("Docs/Taxes/2024.txt").exists());
    assert!(!root.join("Old").exists());
    assert!(!outputs[1].1.contains("IBAN"), "{outputs:?}");
    // A folder that holds nothing the rules name moves as the allow rule says.
    assert_eq!(outputs[2].0, ToolCallStatus::Succeeded, "{outputs:?}");
    assert!(root.join("Pictures/cat.jpg").exists());
}

#[tokio::test]
async fn a_folder_that_holds_a_forbidden_one_is_not_trashed_and_an_ask_rule_asks() {
    let scenario = json!({"turns": [
        {"tool_calls": [{"name": "delete_path", "arguments": {"path": "Docs"}}]},
        {"tool_calls": [{"name": "move_path", "arguments": {"from": "Work", "to": "Archive"}}]},
        {"say": "done"}
    ]});
    let mut h = harness_with(
        scenario,
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"*\"\nmatch = \"Docs/Private\"\n\
             [[ask]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
             [[allow]]\ntool = \"*\"\n",
        ),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    std::fs::create_dir_all(root.join("Docs/Private")).unwrap();
    std::fs::write(root.join("Docs/Private/secret.txt"), "PIN 4711\n").unwrap();
    std::fs::create_dir_all(root.join("Work/2024/q1")).unwrap();
    std::fs::write(root.join("Work/2024/q1/contract.pdf"), "%PDF").unwrap();
    h.runtime.start_run("tidy").unwrap();
    // The trash is refused without a card; the move of a folder holding a PDF asks.
    let card = h.events.approval_required().await;
    assert_eq!(card.tool_name, "move_path");
    h.runtime
        .resolve_approval(card.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    assert_eq!(outputs[0].0, ToolCallStatus::Denied, "{outputs:?}");
    assert!(root.join("Docs/Private/secret.txt").exists());
    assert!(root.join("Work/2024/q1/contract.pdf").exists());
}

#[tokio::test]
async fn our_command_on_a_folder_holding_an_ask_folder_asks_and_one_holding_a_never_folder_runs_shut_in(
) {
    // Our commands run in the sandbox, which hides every folder a deny rule names: listing
    // its parent still runs (the kernel keeps the folder out). An ask rule has no such
    // keeper, so a command naming a folder that holds the ask folder asks, even where an
    // allow rule would let it run.
    if !askfirst_core::tools::sandbox::scopes_enforced() {
        // Landlock's scopes need Linux 6.12: an older kernel cannot, whatever is installed.
        assert!(
            std::env::var_os("ASKFIRST_REQUIRE_SANDBOX_TESTS").is_none()
                || !kernel_has_landlock_scopes(),
            "commands are not confined here although the kernel could, and \
             ASKFIRST_REQUIRE_SANDBOX_TESTS is set"
        );
        eprintln!("skipped: commands are not confined on this machine");
        return;
    }
    let scenario = json!({"turns": [
        {"tool_calls": [{"name": "run_command", "arguments": {"command": "ls Docs"}}]},
        {"tool_calls": [{"name": "run_command", "arguments": {"command": "ls Work"}}]},
        {"say": "done"}
    ]});
    let mut h = harness_with(
        scenario,
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"*\"\nmatch = \"Docs/Taxes/**\"\n\
             [[ask]]\ntool = \"*\"\nmatch = \"Work/Contracts/**\"\n\
             [[allow]]\ntool = \"run_command\"\nmatch = \"ls*\"\n",
        ),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    std::fs::create_dir_all(root.join("Docs/Taxes")).unwrap();
    std::fs::write(root.join("Docs/Taxes/2024.txt"), "IBAN DE00 1234\n").unwrap();
    std::fs::write(root.join("Docs/list.txt"), "milk\n").unwrap();
    std::fs::create_dir_all(root.join("Work/Contracts")).unwrap();
    h.runtime.start_run("look").unwrap();
    let card = h.events.approval_required().await;
    assert_eq!(card.tool_name, "run_command");
    assert!(
        card.arguments_json.contains("ls Work"),
        "{}",
        card.arguments_json
    );
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 1);
    let outputs = finished_outputs(&events);
    assert_eq!(outputs[0].0, ToolCallStatus::Succeeded, "{outputs:?}");
    assert!(outputs[0].1.contains("list.txt"), "{outputs:?}");
    assert_eq!(outputs[1].0, ToolCallStatus::Succeeded, "{outputs:?}");
}

#[tokio::test]
async fn a_never_glob_holds_against_our_command_on_a_folder_and_a_link_leads_to_the_folder() {
    // The sandbox hides the folders deny rules name, not the files a glob names: a command
    // given a folder that holds a PDF is refused under "never touch PDFs", even where an
    // allow rule lets `find` run. And a rule on a folder reached through a link holds for
    // the folder the link leads to.
    let scenario = json!({"turns": [
        {"tool_calls": [{"name": "run_command", "arguments": {"command": "find Work -name '*.pdf' -delete"}}]},
        {"tool_calls": [{"name": "move_path", "arguments": {"from": "Vault", "to": "Old"}}]},
        {"say": "done"}
    ]});
    let mut h = harness_with(
        scenario,
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
             [[deny]]\ntool = \"*\"\nmatch = \"Docs/Taxes/**\"\n\
             [[allow]]\ntool = \"run_command\"\nmatch = \"find *\"\n\
             [[allow]]\ntool = \"move_path\"\n",
        ),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    std::fs::create_dir_all(root.join("Work/2024")).unwrap();
    std::fs::write(root.join("Work/2024/contract.pdf"), "%PDF").unwrap();
    std::fs::create_dir_all(root.join("Vault/T")).unwrap();
    std::fs::write(root.join("Vault/T/2024.txt"), "IBAN DE00 1234\n").unwrap();
    std::fs::create_dir_all(root.join("Docs")).unwrap();
    std::os::unix::fs::symlink(root.join("Vault/T"), root.join("Docs/Taxes")).unwrap();
    h.runtime.start_run("tidy").unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 0);
    let outputs = finished_outputs(&events);
    assert_eq!(outputs[0].0, ToolCallStatus::Denied, "{outputs:?}");
    assert_eq!(outputs[1].0, ToolCallStatus::Denied, "{outputs:?}");
    assert!(root.join("Work/2024/contract.pdf").exists());
    assert!(root.join("Vault/T/2024.txt").exists());
}

/// What the policy decides about a `move_path` of `from` and about `ls <folder>` (our own
/// command), with the tools' own facts.
fn move_and_list(
    place: &super::identity::Place,
    policy: &askfirst_core::policy::Policy,
    folder: &str,
) -> (PolicyDecision, PolicyDecision) {
    use super::identity::{builtin, verdict};
    let ws = place.workspace();
    let moved = verdict(
        policy,
        &ws,
        &*builtin("move_path"),
        &json!({"from": folder, "to": "Old"}),
    );
    let listed = verdict(
        policy,
        &ws,
        &*builtin("run_command"),
        &json!({"command": format!("ls {folder}")}),
    );
    (moved.0, listed.0)
}

#[test]
fn past_the_bounds_a_folder_moved_counts_as_holding_it_and_one_a_command_names_does_not() {
    use askfirst_core::policy::rules::CONTENTS_DEPTH;
    let place = super::identity::Place::new(false);
    // One level deeper than glob rules look.
    let mut deep = place.ws.join("Deep");
    for level in 0..=CONTENTS_DEPTH {
        deep = deep.join(format!("l{level}"));
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("note.txt"), "").unwrap();
    std::fs::create_dir_all(place.ws.join("Shallow/a")).unwrap();
    std::fs::write(place.ws.join("Shallow/a/note.txt"), "").unwrap();
    let policy = place.policy(
        "[[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
         [[allow]]\ntool = \"move_path\"\n\
         [[allow]]\ntool = \"run_command\"\nmatch = \"ls *\"\n",
    );
    let (moved, listed) = move_and_list(&place, &policy, "Deep");
    assert!(matches!(moved, PolicyDecision::Deny { .. }), "{moved:?}");
    assert_eq!(listed, PolicyDecision::Allow);
    // Looked through to the end, a folder without a PDF moves.
    assert_eq!(
        move_and_list(&place, &policy, "Shallow"),
        (PolicyDecision::Allow, PolicyDecision::Allow)
    );
}

#[test]
fn every_glob_rule_of_a_decision_reads_the_one_look_through_the_folder() {
    let place = super::identity::Place::new(false);
    std::fs::create_dir_all(place.ws.join("Docs/2024/q1")).unwrap();
    std::fs::write(place.ws.join("Docs/2024/q1/contract.pdf"), "%PDF").unwrap();
    std::fs::create_dir_all(place.ws.join("Keys/old")).unwrap();
    std::fs::write(place.ws.join("Keys/old/bank.key"), "k").unwrap();
    std::fs::write(place.ws.join("Keys/contract.pdf"), "%PDF").unwrap();
    // The first rules find nothing in Docs; the ask rule after them finds the PDF in what
    // they looked through.
    let policy = place.policy(
        "[[deny]]\ntool = \"*\"\nmatch = \"**/*.key\"\n\
         [[deny]]\ntool = \"*\"\nmatch = \"**/.ssh/**\"\n\
         [[ask]]\ntool = \"*\"\nmatch = \"**/*.mp4\"\n\
         [[ask]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
         [[allow]]\ntool = \"*\"\n",
    );
    let (moved, _) = move_and_list(&place, &policy, "Docs");
    let PolicyDecision::Ask { reason } = moved else {
        panic!("{moved:?}");
    };
    assert!(reason.contains("*.pdf"), "{reason}");
    // The deny rule first, where both are inside.
    let (moved, _) = move_and_list(&place, &policy, "Keys");
    let PolicyDecision::Deny { reason, .. } = moved else {
        panic!("{moved:?}");
    };
    assert!(reason.contains("*.key"), "{reason}");
}

#[test]
fn a_folder_holding_the_kept_one_in_the_other_unicode_form_is_not_moved() {
    // The rule typed with its accents joined (NFC), the folder on disk with them apart (NFD,
    // as copied from a Mac; ext4 keeps the two apart): the rule's place lies in Docs by its
    // path, whichever form the disk has.
    let place = super::identity::Place::new(false);
    let nfd = place.ws.join("Docs/Re\u{301}sume\u{301}s");
    std::fs::create_dir_all(&nfd).unwrap();
    std::fs::write(nfd.join("cv.txt"), "salary").unwrap();
    let policy = place.policy(
        "[[deny]]\ntool = \"*\"\nmatch = \"Docs/R\u{e9}sum\u{e9}s/**\"\n\
         [[allow]]\ntool = \"move_path\"\n",
    );
    let (moved, _) = move_and_list(&place, &policy, "Docs");
    assert!(matches!(moved, PolicyDecision::Deny { .. }), "{moved:?}");
}

/// Whether this kernel is Linux 6.12 or later (Landlock's scopes).
fn kernel_has_landlock_scopes() -> bool {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let mut parts = release
        .trim()
        .split(['.', '-'])
        .map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    (major, minor) >= (6, 12)
}
