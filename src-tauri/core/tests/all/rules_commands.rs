//! Rules hold for our own commands that name nothing (`find -delete`, `grep -r`): a command
//! works in the workspace and may act on all of it, so it runs shut in without what a deny
//! rule keeps, and, unless the person approved it on its card, without what an ask rule
//! keeps (glob rules included); where it cannot be shut in, the folder it works in counts
//! for the rules with everything inside. Paths glued to options (`--output=…`) and reached
//! through `/proc/self/cwd` are read as the paths they are.

use super::policy::{rules, TIMEOUT};
use super::support::{finished_outputs, harness_with};
use askfirst_core::approvals::AnswerMode;
use askfirst_core::tools::sandbox::Confinement;
use askfirst_protocol::{AgentEvent, Decision, ToolCallStatus};
use serde_json::json;

fn cards(events: &[AgentEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, AgentEvent::ApprovalRequired(_)))
        .count()
}

fn commands(lines: &[&str]) -> serde_json::Value {
    let mut turns: Vec<serde_json::Value> = lines
        .iter()
        .map(
            |line| json!({"tool_calls": [{"name": "run_command", "arguments": {"command": line}}]}),
        )
        .collect();
    turns.push(json!({"say": "done"}));
    json!({ "turns": turns })
}

const KEEPING: &str = "[[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
     [[ask]]\ntool = \"*\"\nmatch = \"Work/Contracts/**\"\n\
     [[allow]]\ntool = \"run_command\"\n";

fn plant(root: &std::path::Path) {
    std::fs::create_dir_all(root.join("Work/2024")).unwrap();
    std::fs::write(root.join("Work/2024/contract.pdf"), "%PDF").unwrap();
    std::fs::create_dir_all(root.join("Work/Contracts")).unwrap();
    std::fs::write(root.join("Work/Contracts/salary.txt"), "IBAN DE00 1234\n").unwrap();
    std::fs::write(root.join("notes.txt"), "notes\n").unwrap();
}

#[tokio::test]
async fn a_command_that_names_no_folder_runs_without_what_the_rules_keep() {
    if !Confinement::detected().is_confined() {
        eprintln!("skipped: commands cannot be shut in here");
        return;
    }
    let mut h = harness_with(
        commands(&[
            "find -name '*.pdf' -delete; find -type f",
            "grep -r IBAN; echo grep-ended",
            "ls -R",
            // Words no rule reads as the kept folder.
            "sh -c 'cd Work/Contr*; echo overwritten > salary.txt; cat salary.txt'",
        ]),
        TIMEOUT,
        rules(KEEPING),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    plant(&root);
    h.runtime.start_run("tidy").unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 0);
    let outputs = finished_outputs(&events);
    assert!(
        outputs
            .iter()
            .all(|(status, _)| *status == ToolCallStatus::Succeeded),
        "{outputs:?}"
    );
    // The PDF was not there for find, the contracts not for grep, ls or sh.
    assert_eq!(
        std::fs::read(root.join("Work/2024/contract.pdf")).unwrap(),
        b"%PDF"
    );
    assert!(outputs[0].1.contains("notes.txt"), "{outputs:?}");
    assert!(outputs[1].1.contains("grep-ended"), "{outputs:?}");
    assert!(!outputs[1].1.contains("IBAN"), "{outputs:?}");
    assert!(outputs[2].1.contains("Contracts"), "{outputs:?}");
    assert!(!outputs[2].1.contains("salary.txt"), "{outputs:?}");
    assert_eq!(
        std::fs::read_to_string(root.join("Work/Contracts/salary.txt")).unwrap(),
        "IBAN DE00 1234\n"
    );
}

#[tokio::test]
async fn a_command_approved_on_its_card_sees_what_an_ask_rule_keeps_but_never_a_denied_file() {
    if !Confinement::detected().is_confined() {
        eprintln!("skipped: commands cannot be shut in here");
        return;
    }
    // The word check refuses a command that names the denied PDF, without a card.
    let mut h = harness_with(
        commands(&["cat Work/2024/contract.pdf; grep -r IBAN"]),
        TIMEOUT,
        rules("[[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n"),
        AnswerMode::Interactive,
    );
    plant(h.dir.path());
    h.runtime.start_run("look").unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    assert_eq!(outputs[0].0, ToolCallStatus::Denied, "{outputs:?}");

    // No allow rule for cat: its card is shown, and the person approves it.
    let mut h = harness_with(
        commands(&["cat Work/*/*.p?f; grep -r IBAN"]),
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
             [[ask]]\ntool = \"*\"\nmatch = \"Work/Contracts/**\"\n",
        ),
        AnswerMode::Interactive,
    );
    plant(h.dir.path());
    h.runtime.start_run("look").unwrap();
    let card = h.events.approval_required().await;
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    // Approved: the contracts are there for it; the PDF never is.
    assert!(outputs[0].1.contains("IBAN DE00 1234"), "{outputs:?}");
    assert!(!outputs[0].1.contains("%PDF"), "{outputs:?}");
}

#[tokio::test]
async fn a_path_glued_to_an_option_or_reached_through_proc_is_the_path_it_names() {
    let mut h = harness_with(
        commands(&[
            "sort --output=Work/Contracts/salary.txt notes.txt",
            "sort -oWork/Contracts/salary.txt notes.txt",
            "dd if=notes.txt of=Work/Contracts/salary.txt",
            "cat /proc/self/cwd/Work/Contracts/salary.txt",
        ]),
        TIMEOUT,
        rules(
            "[[ask]]\ntool = \"*\"\nmatch = \"Work/Contracts/**\"\n\
             [[allow]]\ntool = \"run_command\"\n",
        ),
        AnswerMode::Interactive,
    );
    plant(h.dir.path());
    h.runtime.start_run("tidy").unwrap();
    for _ in 0..4 {
        let card = h.events.approval_required().await;
        assert!(card.reason.contains("Work/Contracts"), "{}", card.reason);
        h.runtime
            .resolve_approval(card.approval_id, Decision::Deny { note: None })
            .unwrap();
    }
    h.events.run_finished().await;
    assert_eq!(cards(&h.events.all()), 4);
    assert_eq!(
        std::fs::read_to_string(h.dir.path().join("Work/Contracts/salary.txt")).unwrap(),
        "IBAN DE00 1234\n"
    );
}

#[tokio::test]
async fn more_files_kept_than_can_be_hidden_and_the_command_is_not_run() {
    if !Confinement::detected().is_confined() {
        eprintln!("skipped: commands cannot be shut in here");
        return;
    }
    let cap = askfirst_core::policy::rules::HIDDEN_CAP;
    let mut h = harness_with(
        commands(&["touch ran.txt"]),
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
             [[allow]]\ntool = \"run_command\"\n",
        ),
        AnswerMode::Interactive,
    );
    let scans = h.dir.path().join("Scans");
    std::fs::create_dir_all(&scans).unwrap();
    for n in 0..=cap {
        std::fs::write(scans.join(format!("{n}.pdf")), "%PDF").unwrap();
    }
    h.runtime.start_run("tidy").unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    assert_eq!(outputs[0].0, ToolCallStatus::Failed, "{outputs:?}");
    assert!(outputs[0].1.contains("more than 1000"), "{outputs:?}");
    assert!(!h.dir.path().join("ran.txt").exists());
}

/// Runs [`where_commands_cannot_be_shut_in_child`] in a test process of its own with
/// `ASKFIRST_SANDBOX=off` (the detection is made once per process).
#[test]
fn where_commands_cannot_be_shut_in_the_folder_they_work_in_counts_for_the_rules() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "all::rules_commands::where_commands_cannot_be_shut_in_child",
            "--ignored",
            "--test-threads=1",
        ])
        .env("ASKFIRST_SANDBOX", "off")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("1 passed"), "{text}");
}

#[tokio::test]
#[ignore = "run by where_commands_cannot_be_shut_in_the_folder_they_work_in_counts_for_the_rules"]
async fn where_commands_cannot_be_shut_in_child() {
    assert!(!Confinement::detected().is_confined());
    let mut h = harness_with(
        commands(&["mv Docs Old", "find -name '*.pdf' -delete", "grep -r IBAN"]),
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"*\"\nmatch = \"Docs/Taxes/**\"\n\
             [[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
             [[allow]]\ntool = \"run_command\"\n",
        ),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    std::fs::create_dir_all(root.join("Docs/Taxes")).unwrap();
    std::fs::write(root.join("Docs/Taxes/2024.txt"), "IBAN DE00 1234\n").unwrap();
    plant(&root);
    h.runtime.start_run("tidy").unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 0);
    let outputs = finished_outputs(&events);
    assert!(
        outputs
            .iter()
            .all(|(status, _)| *status == ToolCallStatus::Denied),
        "{outputs:?}"
    );
    assert!(root.join("Docs/Taxes/2024.txt").exists());
    assert!(root.join("Work/2024/contract.pdf").exists());
}
