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

/// Whether commands run shut in here (the checks of what is hidden need it); says so if not.
fn shut_in() -> bool {
    let confined = Confinement::detected().is_confined();
    if !confined {
        assert!(
            std::env::var_os("ASKFIRST_REQUIRE_SANDBOX_TESTS").is_none(),
            "commands cannot be shut in here, and ASKFIRST_REQUIRE_SANDBOX_TESTS is set: {:?}",
            Confinement::detected()
        );
        eprintln!("skipped: commands cannot be shut in here");
    }
    confined
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
    if !shut_in() {
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
        outputs[..3]
            .iter()
            .all(|(status, _)| *status == ToolCallStatus::Succeeded),
        "{outputs:?}"
    );
    // The PDF was not there for find, the contracts not for grep, ls or sh (whose write there
    // fails, rather than seem to work).
    assert_eq!(outputs[3].0, ToolCallStatus::Failed, "{outputs:?}");
    assert!(outputs[3].1.contains("Read-only"), "{outputs:?}");
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

/// Runs `line` with the deny rule on PDFs and the ask rule on `Work/Contracts` (no allow
/// rule), approving its card; returns the card's reason and the command's output.
async fn approved(line: &str) -> (String, (ToolCallStatus, String)) {
    let mut h = harness_with(
        commands(&[line]),
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
             [[ask]]\ntool = \"*\"\nmatch = \"Work/Contracts/**\"\n",
        ),
        AnswerMode::Interactive,
    );
    plant(h.dir.path());
    h.runtime.start_run("look").unwrap();
    // A command that changes nothing on the copy it is tried on has no card, unless a rule
    // asks about it.
    let card = h
        .events
        .next_matching(|e| match e {
            AgentEvent::ApprovalRequired(card) => Some(Some(card.clone())),
            AgentEvent::RunFinished { .. } => Some(None),
            _ => None,
        })
        .await;
    let reason = match card {
        Some(card) => {
            h.runtime
                .resolve_approval(card.approval_id, Decision::Approve)
                .unwrap();
            h.events.run_finished().await;
            card.reason
        }
        None => String::new(),
    };
    let outputs = finished_outputs(&h.events.all());
    (reason, outputs[0].clone())
}

#[tokio::test]
async fn only_a_card_that_named_the_ask_rule_opens_its_place_and_a_denied_file_never() {
    if !shut_in() {
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

    // An ordinary card (the command names nothing a rule is about), approved: the contracts
    // stay hidden, since the card did not say the command could reach them.
    let (reason, (status, output)) = approved("cat Work/*/*.p?f; grep -r IBAN; echo ended").await;
    assert!(!reason.contains("Work/Contracts"), "{reason}");
    assert_eq!(status, ToolCallStatus::Succeeded, "{output}");
    assert!(output.contains("ended"), "{output}");
    assert!(!output.contains("IBAN DE00"), "{output}");
    assert!(!output.contains("%PDF"), "{output}");

    // A card the ask rule made, approved: the contracts are there for it; the PDF never is.
    let (reason, (_, output)) =
        approved("cat Work/Contracts/salary.txt; cat Work/*/*.p?f; echo ended").await;
    assert!(reason.contains("Work/Contracts"), "{reason}");
    assert!(output.contains("IBAN DE00 1234"), "{output}");
    assert!(!output.contains("%PDF"), "{output}");
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
    if !shut_in() {
        return;
    }
    let cap = askfirst_core::policy::kept::HIDDEN_CAP;
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
    super::support::ignored_test_in_child(
        "all::rules_commands::where_commands_cannot_be_shut_in_child",
        &[],
        |child| {
            child.env("ASKFIRST_SANDBOX", "off");
        },
    );
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

/// Runs `scenario` with `rules_text` in a workspace `plant` fills, answering every card No
/// (so a card would show as a refusal); the workspace and the outputs.
async fn played(
    scenario: serde_json::Value,
    rules_text: &str,
    plant: impl FnOnce(&std::path::Path),
) -> (tempfile::TempDir, Vec<(ToolCallStatus, String)>) {
    let mut h = harness_with(scenario, TIMEOUT, rules(rules_text), AnswerMode::FailClosed);
    plant(h.dir.path());
    h.runtime.start_run("tidy").unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 0);
    let outputs = finished_outputs(&events);
    let dir = std::mem::replace(&mut h.dir, tempfile::tempdir().unwrap());
    (dir, outputs)
}

/// Found by a hostile review: the rule typed with its accents joined (NFC), the folder on disk
/// with them apart (NFD, as copied from a Mac); ext4 keeps the two apart.
#[tokio::test]
async fn a_folder_spelled_in_the_other_unicode_form_is_kept_from_commands() {
    if !shut_in() {
        return;
    }
    let nfd = "Docs/Re\u{301}sume\u{301}s";
    let (dir, outputs) = played(
        commands(&[
            "grep -r SECRET; echo ended",
            "find . -path '*cv.txt' -delete",
        ]),
        "[[deny]]\ntool = \"*\"\nmatch = \"Docs/R\u{e9}sum\u{e9}s/**\"\n\
         [[allow]]\ntool = \"run_command\"\n",
        |root| {
            std::fs::create_dir_all(root.join(nfd)).unwrap();
            std::fs::write(root.join(nfd).join("cv.txt"), "SECRET salary\n").unwrap();
        },
    )
    .await;
    assert!(outputs[0].1.contains("ended"), "{outputs:?}");
    assert!(!outputs[0].1.contains("SECRET salary"), "{outputs:?}");
    assert!(dir.path().join(nfd).join("cv.txt").exists());
}

/// Found by a hostile review: names that are not UTF-8 (a Latin-1 byte, as in old zip files)
/// were matched by a stand-in spelling and hidden by a path that does not exist, and a folder
/// so named broke every command.
#[cfg(unix)]
#[tokio::test]
async fn names_that_are_not_utf8_are_kept_by_their_real_names() {
    use std::os::unix::ffi::OsStrExt;
    if !shut_in() {
        return;
    }
    let odd_file = std::ffi::OsStr::from_bytes(b"relev\xe9.pdf");
    let odd_folder = std::ffi::OsStr::from_bytes(b"Scans-\xe9t\xe9");
    let (dir, outputs) = played(
        commands(&[
            "grep -ra SECRET; echo ended",
            "sh -c 'rm -f -- rel* Sc*/sub/*'",
            "true",
        ]),
        "[[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n[[allow]]\ntool = \"run_command\"\n",
        |root| {
            std::fs::write(root.join(odd_file), "%PDF SECRET one\n").unwrap();
            std::fs::create_dir_all(root.join(odd_folder).join("sub")).unwrap();
            std::fs::write(root.join(odd_folder).join("sub/tax.pdf"), "%PDF SECRET two").unwrap();
        },
    )
    .await;
    assert!(outputs[0].1.contains("ended"), "{outputs:?}");
    assert!(!outputs[0].1.contains("SECRET"), "{outputs:?}");
    assert!(dir.path().join(odd_file).exists());
    assert!(dir.path().join(odd_folder).join("sub/tax.pdf").exists());
    assert_eq!(outputs[2].0, ToolCallStatus::Succeeded, "{outputs:?}");
}

/// A folder outside the workspace that the sandbox shows (`/srv`, as `/tmp` and the home
/// folder are hidden anyway), made for one test and removed after it; `None` where it cannot
/// be made.
struct Outside(std::path::PathBuf);

impl Outside {
    fn new(name: &str) -> Option<Outside> {
        let path = std::path::Path::new("/srv").join(format!("{name}-{}", std::process::id()));
        std::fs::create_dir_all(&path).ok().map(|()| Outside(path))
    }
}

impl Drop for Outside {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Found by a hostile review: a kept folder that is a link leading out of the workspace, and
/// a PDF in a folder reached through such a link.
#[tokio::test]
async fn what_a_link_leads_to_outside_the_workspace_is_kept_too() {
    if !shut_in() {
        return;
    }
    let (Some(taxes), Some(scans)) = (
        Outside::new("askfirst-taxes"),
        Outside::new("askfirst-scans"),
    ) else {
        eprintln!("skipped: /srv cannot be written here");
        return;
    };
    std::fs::write(taxes.0.join("2024.txt"), "TAXSECRET\n").unwrap();
    std::fs::write(scans.0.join("a.pdf"), "%PDF PDFSECRET\n").unwrap();
    std::fs::write(scans.0.join("b.txt"), "plain text\n").unwrap();
    let (_dir, outputs) = played(
        commands(&["grep -rR SECRET; sh -c 'cat Docs/*/* Scans/*'; echo ended"]),
        "[[deny]]\ntool = \"*\"\nmatch = \"Docs/Taxes/**\"\n\
         [[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
         [[allow]]\ntool = \"run_command\"\n",
        |root| {
            std::fs::create_dir_all(root.join("Docs")).unwrap();
            std::os::unix::fs::symlink(&taxes.0, root.join("Docs/Taxes")).unwrap();
            std::os::unix::fs::symlink(&scans.0, root.join("Scans")).unwrap();
        },
    )
    .await;
    assert!(outputs[0].1.contains("plain text"), "{outputs:?}");
    assert!(!outputs[0].1.contains("SECRET"), "{outputs:?}");
}

/// Found by a hostile review: "ask before any docker command" (`docker*` for run_command) is
/// about commands, not about `docker-compose.yml`; and a write into a kept folder fails rather
/// than seem to work and vanish.
#[tokio::test]
async fn a_command_rule_keeps_no_files_and_a_write_into_a_kept_folder_fails() {
    if !shut_in() {
        return;
    }
    let (dir, outputs) = played(
        commands(&[
            "sh -c 'cat *.yml; cd dock*; echo generated > out.txt'",
            "sh -c 'cd Priv*; echo planted > new.txt'",
        ]),
        "[[ask]]\ntool = \"run_command\"\nmatch = \"docker*\"\n\
         [[deny]]\ntool = \"*\"\nmatch = \"Private/**\"\n\
         [[allow]]\ntool = \"run_command\"\n\
         [[allow]]\ntool = \"write_file\"\nmatch = \"docker/**\"\n",
        |root| {
            std::fs::write(root.join("docker-compose.yml"), "services: {}\n").unwrap();
            std::fs::create_dir_all(root.join("docker")).unwrap();
            std::fs::create_dir_all(root.join("Private")).unwrap();
        },
    )
    .await;
    assert!(outputs[0].1.contains("services: {}"), "{outputs:?}");
    assert!(dir.path().join("docker/out.txt").exists());
    assert_eq!(outputs[1].0, ToolCallStatus::Failed, "{outputs:?}");
    assert!(outputs[1].1.contains("Read-only"), "{outputs:?}");
    assert!(!dir.path().join("Private/new.txt").exists());
}

#[tokio::test]
async fn a_command_card_names_the_rules_whose_places_are_hidden_from_it() {
    if !shut_in() {
        return;
    }
    let keeping = "[[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
         [[deny]]\ntool = \"*\"\nmatch = \"Private/**\"\n\
         [[ask]]\ntool = \"*\"\nmatch = \"Work/Contracts/**\"\n\
         [[ask]]\ntool = \"run_command\"\nmatch = \"docker*\"\n";
    // An ordinary command card: every rule that keeps places, deny first (docker* is about
    // commands, not places).
    let mut h = harness_with(
        commands(&["grep -r IBAN > found.txt", "cat Work/Contracts/salary.txt"]),
        TIMEOUT,
        rules(keeping),
        AnswerMode::Interactive,
    );
    plant(h.dir.path());
    h.runtime.start_run("look").unwrap();
    let card = h.events.approval_required().await;
    assert_eq!(
        card.effects.last().map(String::as_str),
        Some(
            "What your rules keep is hidden from it: Never touch anything matching “**/*.pdf”; \
             Never touch anything in Private; Ask before anything in Work/Contracts."
        ),
        "{:?}",
        card.effects
    );
    h.runtime
        .resolve_approval(card.approval_id, Decision::Deny { note: None })
        .unwrap();
    // A card the ask rule made opens its place once approved: only the never rules are named.
    let card = h.events.approval_required().await;
    let last = card.effects.last().cloned().unwrap_or_default();
    assert!(
        last.contains("Private") && !last.contains("Work/Contracts"),
        "{last}"
    );
    h.runtime
        .resolve_approval(card.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
}

/// Found by a third hostile review: approving the card that one ask rule made opened what
/// every ask rule keeps.
#[tokio::test]
async fn approving_one_ask_rules_card_opens_only_what_that_rule_keeps() {
    if !shut_in() {
        return;
    }
    let mut h = harness_with(
        commands(&["echo hi; grep -r IBAN; echo ended"]),
        TIMEOUT,
        rules(
            "[[ask]]\ntool = \"*\"\nmatch = \"Work/Contracts/**\"\n\
             [[ask]]\ntool = \"run_command\"\nmatch = \"echo*\"\n",
        ),
        AnswerMode::Interactive,
    );
    plant(h.dir.path());
    h.runtime.start_run("look").unwrap();
    let card = h.events.approval_required().await;
    assert!(card.reason.contains("echo*"), "{}", card.reason);
    assert!(
        card.effects.iter().any(|e| e.contains("Work/Contracts")),
        "{:?}",
        card.effects
    );
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    assert!(outputs[0].1.contains("ended"), "{outputs:?}");
    assert!(!outputs[0].1.contains("IBAN DE00"), "{outputs:?}");
}

/// Found by a third hostile review: a folder above a kept one filled past what is compared
/// let the kept one (spelled in the other Unicode form) go unfound, and unhidden.
#[tokio::test]
async fn a_folder_too_full_to_look_through_for_a_kept_one_stops_the_command() {
    if !shut_in() {
        return;
    }
    let cap = askfirst_core::policy::rules::CONTENTS_CAP;
    let nfd = "Docs/Re\u{301}sume\u{301}s";
    let (_dir, outputs) = played(
        commands(&["grep -r SECRET; echo ended"]),
        "[[deny]]\ntool = \"*\"\nmatch = \"Docs/R\u{e9}sum\u{e9}s/**\"\n\
         [[allow]]\ntool = \"run_command\"\n",
        |root| {
            std::fs::create_dir_all(root.join(nfd)).unwrap();
            std::fs::write(root.join(nfd).join("cv.txt"), "SECRET salary\n").unwrap();
            for n in 0..cap {
                std::fs::File::create(root.join("Docs").join(n.to_string())).unwrap();
            }
        },
    )
    .await;
    assert_eq!(outputs[0].0, ToolCallStatus::Failed, "{:?}", outputs[0].0);
    assert!(outputs[0].1.contains("too big"), "{}", outputs[0].1);
    assert!(!outputs[0].1.contains("SECRET salary"));
}

/// Found by a third hostile review: a link to a system folder made the glob walk look
/// through it, and every later command was refused as looking through too much.
#[tokio::test]
async fn a_link_to_a_system_folder_is_not_looked_through() {
    if !shut_in() {
        return;
    }
    let (_dir, outputs) = played(
        commands(&["true"]),
        "[[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n[[allow]]\ntool = \"run_command\"\n",
        |root| std::os::unix::fs::symlink("/usr", root.join("tools")).unwrap(),
    )
    .await;
    assert_eq!(outputs[0].0, ToolCallStatus::Succeeded, "{outputs:?}");
}

/// Found by a third hostile review: a second name (hard link, made by the person or a backup
/// tool) of a file in a kept folder stayed readable by that name.
#[tokio::test]
async fn another_name_of_a_kept_file_is_kept_too() {
    if !shut_in() {
        return;
    }
    let (dir, outputs) = played(
        commands(&["grep -r SECRET; echo ended"]),
        "[[deny]]\ntool = \"*\"\nmatch = \"Docs/Taxes/**\"\n[[allow]]\ntool = \"run_command\"\n",
        |root| {
            std::fs::create_dir_all(root.join("Docs/Taxes")).unwrap();
            std::fs::create_dir_all(root.join("Backup")).unwrap();
            std::fs::write(root.join("Docs/Taxes/2024.txt"), "TAXSECRET\n").unwrap();
            std::fs::hard_link(
                root.join("Docs/Taxes/2024.txt"),
                root.join("Backup/2024.txt"),
            )
            .unwrap();
            std::fs::write(root.join("notes.txt"), "notes\n").unwrap();
        },
    )
    .await;
    assert!(outputs[0].1.contains("ended"), "{outputs:?}");
    assert!(!outputs[0].1.contains("TAXSECRET"), "{outputs:?}");
    assert!(dir.path().join("Backup/2024.txt").exists());
}

/// Found by a third hostile review: `chmod 0` on the folders above kept places (they are
/// writable) made the look for what to hide pass them over, and a later command read what
/// they hold. Root reads every folder whatever its permissions, so the check runs in a test
/// process of its own as the user nobody where this one is root.
#[test]
fn a_folder_made_unreadable_on_the_way_stops_the_next_command() {
    let nobody = [
        "setpriv",
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
    ];
    let root = nix::unistd::geteuid().is_root();
    super::support::ignored_test_in_child(
        "all::rules_commands::unreadable_folder_child",
        if root { &nobody } else { &[] },
        |child| {
            child.env("HOME", "/tmp").current_dir("/");
        },
    );
}

#[tokio::test]
#[ignore = "run by a_folder_made_unreadable_on_the_way_stops_the_next_command"]
async fn unreadable_folder_child() {
    if !shut_in() {
        return;
    }
    let (dir, outputs) = played(
        commands(&[
            "sh -c 'chmod 0 Wor*/20* Wor*/Con*'",
            "sh -c 'chmod 755 Wor*/20* Wor*/Con*; grep -r SECRET; grep -r IBAN; echo ended'",
        ]),
        "[[deny]]\ntool = \"*\"\nmatch = \"**/*.pdf\"\n\
         [[deny]]\ntool = \"*\"\nmatch = \"Work/Contracts/**\"\n\
         [[allow]]\ntool = \"run_command\"\n\
         [[allow]]\ntool = \"write_file\"\n[[allow]]\ntool = \"edit_file\"\n",
        |root| {
            plant(root);
            std::fs::write(root.join("Work/2024/contract.pdf"), "%PDF SECRET").unwrap();
        },
    )
    .await;
    // (The first takes the permissions of Work/2024 away; Work/Contracts is hidden already,
    // and read-only.)
    assert!(outputs[0].1.contains("Work/Contracts"), "{outputs:?}");
    assert_eq!(outputs[1].0, ToolCallStatus::Failed, "{outputs:?}");
    assert!(outputs[1].1.contains("cannot look into"), "{outputs:?}");
    assert!(!outputs[1].1.contains("SECRET") && !outputs[1].1.contains("IBAN DE00"));
    // The person can read the folders again by giving them their permissions back.
    use std::os::unix::fs::PermissionsExt;
    for folder in ["Work/2024", "Work/Contracts"] {
        std::fs::set_permissions(
            dir.path().join(folder),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
}

/// The rules the form writes for "Never read files in Private" and "Never delete files in
/// Photos", with commands allowed (so no card stands between a command and the files).
const FILE_TOOL_RULES: &str = "[[deny]]\ntool = \"read_file\"\nmatch = \"Private/**\"\n\
     [[deny]]\ntool = \"delete_path\"\nmatch = \"Photos/**\"\n\
     [[allow]]\ntool = \"run_command\"\n";

#[tokio::test]
async fn a_rule_about_a_file_tool_holds_for_commands_too() {
    if !shut_in() {
        return;
    }
    let mut h = harness_with(
        commands(&[
            // Named: refused by the rule itself.
            "cat Private/diary.txt",
            // Not named: Private is hidden, Photos read-only.
            "grep -r secret; echo grep-ended",
            "ls Photos; cat Photos/cat.jpg",
            "rm -rf Photos; find . -name '*.jpg' -delete; mv Photos Gone; echo tried",
            "echo made > made.txt",
        ]),
        TIMEOUT,
        rules(FILE_TOOL_RULES),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    std::fs::create_dir_all(root.join("Private")).unwrap();
    std::fs::write(root.join("Private/diary.txt"), "secret-7731\n").unwrap();
    std::fs::create_dir_all(root.join("Photos")).unwrap();
    std::fs::write(root.join("Photos/cat.jpg"), "photo-7731\n").unwrap();
    h.runtime.start_run("tidy").unwrap();
    // The one change (made.txt) is shown on a card: the allow rule lets commands run, not
    // change files unasked.
    let card = h.events.approval_required().await;
    assert!(card.summary.contains("echo made"), "{}", card.summary);
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 1);
    let outputs = finished_outputs(&events);
    assert_eq!(outputs.len(), 5, "{outputs:?}");
    assert_eq!(outputs[0].0, ToolCallStatus::Denied, "{outputs:?}");
    assert!(outputs[1].1.contains("grep-ended"), "{outputs:?}");
    assert!(!outputs[1].1.contains("secret-7731"), "{outputs:?}");
    // Photos can still be read.
    assert_eq!(outputs[2].0, ToolCallStatus::Succeeded, "{outputs:?}");
    assert!(outputs[2].1.contains("cat.jpg"), "{outputs:?}");
    assert!(outputs[2].1.contains("photo-7731"), "{outputs:?}");
    assert!(outputs[3].1.contains("tried"), "{outputs:?}");
    assert_eq!(
        std::fs::read_to_string(root.join("Photos/cat.jpg")).unwrap(),
        "photo-7731\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("Private/diary.txt")).unwrap(),
        "secret-7731\n"
    );
    assert_eq!(outputs[4].0, ToolCallStatus::Succeeded, "{outputs:?}");
    assert!(root.join("made.txt").exists());
}

#[tokio::test]
async fn a_command_card_says_what_rules_about_file_tools_keep_from_it() {
    if !shut_in() {
        return;
    }
    // It writes a file, so it has a card (after it was tried on a copy).
    let mut h = harness_with(
        commands(&["ls > listing.txt"]),
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"read_file\"\nmatch = \"Private/**\"\n\
             [[ask]]\ntool = \"write_file\"\nmatch = \"Photos/**\"\n",
        ),
        AnswerMode::Interactive,
    );
    std::fs::create_dir_all(h.dir.path().join("Private")).unwrap();
    std::fs::create_dir_all(h.dir.path().join("Photos")).unwrap();
    h.runtime.start_run("look").unwrap();
    let card = h.events.approval_required().await;
    let effects = card.effects.join("\n");
    assert!(
        effects.contains("What your rules keep is hidden from it: Never read files in Private."),
        "{effects}"
    );
    // Tried on a copy first, it may change Photos there: the card of its changes asks by
    // that rule.
    assert!(!effects.contains("Photos"), "{effects}");
    h.runtime
        .resolve_approval(card.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
}

/// Found by a hostile review: `Rule::left_to_sandbox` (rules.rs) leaves a rule about writing
/// to the sandbox for every path our command names, but the sandbox binds read-only only what
/// exists when the command starts: "Never write .pdf files" and "Never write files in
/// Reports" (not made yet) are passed by a command that creates one, with no card.
#[tokio::test]
async fn hostile_a_never_write_rule_is_passed_by_a_command_that_creates_the_file() {
    if !shut_in() {
        return;
    }
    let mut h = harness_with(
        commands(&[
            "echo forged > invoice.pdf",
            "mkdir -p Reports && echo forged > Reports/q1.txt",
        ]),
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"write_file\"\nmatch = \"**/*.pdf\"\n\
             [[deny]]\ntool = \"write_file\"\nmatch = \"Reports/**\"\n\
             [[allow]]\ntool = \"run_command\"\n",
        ),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    h.runtime.start_run("write").unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    assert!(!root.join("invoice.pdf").exists(), "{outputs:?}");
    assert!(!root.join("Reports/q1.txt").exists(), "{outputs:?}");
}

/// False refusal found by a hostile review: a "never delete" glob rule (`**/*.jpg`) is now a
/// read-only place for every match (`kept::keeps`), and past `HIDDEN_CAP` (1,000) places the
/// command is not run at all: in a folder of 1,001 photos, `echo hello` fails.
#[tokio::test]
async fn hostile_a_never_delete_rule_on_many_photos_stops_every_command() {
    if !shut_in() {
        return;
    }
    let mut h = harness_with(
        commands(&["echo hello", "find . -name '*.jpg' -delete; echo tried"]),
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"delete_path\"\nmatch = \"**/*.jpg\"\n\
             [[allow]]\ntool = \"run_command\"\n",
        ),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    std::fs::create_dir_all(root.join("Photos")).unwrap();
    for n in 0..1_001 {
        std::fs::write(root.join(format!("Photos/{n}.jpg")), "").unwrap();
    }
    h.runtime.start_run("hello").unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    assert_eq!(outputs[0].0, ToolCallStatus::Succeeded, "{outputs:?}");
    assert!(outputs[0].1.contains("hello"), "{outputs:?}");
    // Too many to show read-only one by one, the folder holding them is shown read-only.
    assert!(outputs[1].1.contains("tried"), "{outputs:?}");
    assert!(
        (0..1_001).all(|n| root.join(format!("Photos/{n}.jpg")).exists()),
        "{outputs:?}"
    );
}

/// False refusal found by a hostile review: "Ask before deleting files in Photos" never asks
/// for a command: `Rule::left_to_sandbox` skips the ask rule for the paths a command names,
/// and the sandbox then shows Photos read-only, so `rm Photos/old.jpg` just fails with no card
/// the person could approve.
#[tokio::test]
async fn hostile_an_ask_before_deleting_rule_never_asks_for_a_command() {
    if !shut_in() {
        return;
    }
    let mut h = harness_with(
        commands(&["rm Photos/old.jpg"]),
        TIMEOUT,
        rules("[[ask]]\ntool = \"delete_path\"\nmatch = \"Photos/**\"\n"),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    std::fs::create_dir_all(root.join("Photos")).unwrap();
    std::fs::write(root.join("Photos/old.jpg"), "old").unwrap();
    h.runtime.start_run("tidy").unwrap();
    let card = h.events.approval_required().await;
    assert!(card.reason.contains("Photos"), "{}", card.reason);
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    assert_eq!(outputs[0].0, ToolCallStatus::Succeeded, "{outputs:?}");
    assert!(!root.join("Photos/old.jpg").exists(), "{outputs:?}");
}

/// Runs `lines` as our own commands (allowed) under "Never write .pdf files" and "Never write
/// files in Work/Reports" (not made yet), in a workspace with `notes.txt`, `Docs/old.pdf`,
/// `Work/`, and `arch.tar` and `arch.zip` each holding one `.pdf`; the workspace is returned.
async fn never_write(lines: &[&str]) -> (tempfile::TempDir, Vec<(ToolCallStatus, String)>) {
    let mut h = harness_with(
        commands(lines),
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"write_file\"\nmatch = \"**/*.pdf\"\n\
             [[deny]]\ntool = \"write_file\"\nmatch = \"Work/Reports/**\"\n\
             [[allow]]\ntool = \"run_command\"\n",
        ),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    std::fs::write(root.join("notes.txt"), "notes\n").unwrap();
    std::fs::create_dir_all(root.join("Docs")).unwrap();
    std::fs::create_dir_all(root.join("Work")).unwrap();
    std::fs::write(root.join("Docs/old.pdf"), "%PDF").unwrap();
    let stage = tempfile::tempdir().unwrap();
    std::fs::write(stage.path().join("packed.pdf"), "%PDF").unwrap();
    std::fs::write(stage.path().join("zipped.pdf"), "%PDF").unwrap();
    std::process::Command::new("tar")
        .arg("-cf")
        .arg(root.join("arch.tar"))
        .arg("-C")
        .arg(stage.path())
        .arg("packed.pdf")
        .status()
        .unwrap();
    let _ = std::process::Command::new("zip")
        .arg("-qj")
        .arg(root.join("arch.zip"))
        .arg(stage.path().join("zipped.pdf"))
        .status();
    h.runtime.start_run("write").unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    (h.dir, outputs)
}

/// Found by a second hostile review: `Rule::made_by_name` (rules.rs) passes over every word
/// that starts with `-`, so an output file glued to its option (`sort -oX`, `--output=X`) is
/// never judged, and the sandbox cannot keep read-only a file that does not exist yet.
#[tokio::test]
async fn hostile2_a_never_write_rule_is_passed_by_an_output_glued_to_its_option() {
    if !shut_in() {
        return;
    }
    let (dir, outputs) = never_write(&[
        "sort -oglued.pdf notes.txt",
        "sort --output=long.pdf notes.txt",
    ])
    .await;
    assert!(!dir.path().join("glued.pdf").exists(), "{outputs:?}");
    assert!(!dir.path().join("long.pdf").exists(), "{outputs:?}");
}

/// Found by a second hostile review: `Rule::made_by_name` (rules.rs) passes over every word
/// with a `$`, so a name built from a variable makes what a "never write" rule forbids.
#[tokio::test]
async fn hostile2_a_never_write_rule_is_passed_by_a_name_built_from_a_variable() {
    if !shut_in() {
        return;
    }
    let (dir, outputs) = never_write(&[
        "n=invoice; touch $n.pdf",
        "w=Reports; mkdir -p Work/$w && echo forged > Work/$w/q1.txt",
    ])
    .await;
    assert!(!dir.path().join("invoice.pdf").exists(), "{outputs:?}");
    assert!(!dir.path().join("Work/Reports").exists(), "{outputs:?}");
}

/// Found by a second hostile review: `Rule::made_by_name` (rules.rs) judges a word relative
/// to the workspace only, so after `cd Work` the word `Reports` (a new `Work/Reports`) is
/// read as `Reports` and never matches "Never write files in Work/Reports".
#[tokio::test]
async fn hostile2_a_never_write_rule_on_a_new_folder_is_passed_after_cd() {
    if !shut_in() {
        return;
    }
    let (dir, outputs) =
        never_write(&["cd Work && mkdir Reports && echo forged > Reports/q1.txt"]).await;
    assert!(
        !dir.path().join("Work/Reports/q1.txt").exists(),
        "{outputs:?}"
    );
}

/// Found by a second hostile review: a command makes files its words never name: copying a
/// folder (`cp -r`) or unpacking an archive (`tar -x`, `unzip`) writes new `.pdf` files,
/// which neither `Rule::made_by_name` (rules.rs) nor the sandbox (it binds read-only only
/// what exists) stops.
#[tokio::test]
async fn hostile2_a_never_write_rule_is_passed_by_copying_or_unpacking() {
    if !shut_in() {
        return;
    }
    let (dir, outputs) =
        never_write(&["cp -r Docs Copy", "tar -xf arch.tar", "unzip -q arch.zip"]).await;
    assert!(!dir.path().join("Copy/old.pdf").exists(), "{outputs:?}");
    assert!(!dir.path().join("packed.pdf").exists(), "{outputs:?}");
    assert!(!dir.path().join("zipped.pdf").exists(), "{outputs:?}");
}

/// Found by a second hostile review: a name inside a script's text (`python3 -c`, `awk`,
/// `perl -e`) is not a word `Rule::made_by_name` (rules.rs) reads as a path.
#[tokio::test]
async fn hostile2_a_never_write_rule_is_passed_by_a_name_inside_a_script() {
    if !shut_in() {
        return;
    }
    let (dir, outputs) = never_write(&[
        "python3 -c 'open(\"script.pdf\", \"w\").write(\"forged\")'",
        "awk 'BEGIN { print \"forged\" > \"awk.pdf\" }'",
    ])
    .await;
    assert!(!dir.path().join("script.pdf").exists(), "{outputs:?}");
    assert!(!dir.path().join("awk.pdf").exists(), "{outputs:?}");
}

/// False refusal found by a second hostile review: past `HIDDEN_CAP` read-only places,
/// `kept::kept_places` (kept.rs) shows the parent of every place read-only, also of a plain
/// folder's rule ("Never delete files in Taxes"), whose parent is the workspace itself: the
/// command is not run at all, though the photos' folder alone would do.
#[tokio::test]
async fn hostile2_many_photos_with_a_folder_rule_stop_every_command() {
    if !shut_in() {
        return;
    }
    let mut h = harness_with(
        commands(&["echo hello"]),
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"delete_path\"\nmatch = \"**/*.jpg\"\n\
             [[deny]]\ntool = \"delete_path\"\nmatch = \"Taxes/**\"\n\
             [[allow]]\ntool = \"run_command\"\n",
        ),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    std::fs::create_dir_all(root.join("Taxes")).unwrap();
    std::fs::create_dir_all(root.join("Photos")).unwrap();
    for n in 0..1_001 {
        std::fs::write(root.join(format!("Photos/{n}.jpg")), "").unwrap();
    }
    h.runtime.start_run("hello").unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    assert_eq!(outputs[0].0, ToolCallStatus::Succeeded, "{outputs:?}");
    assert!(outputs[0].1.contains("hello"), "{outputs:?}");
}

/// False refusal found by a second hostile review: `Rule::made_by_name` (rules.rs) reads
/// every word that names nothing on disk as a file the command makes, so text that only
/// mentions a `.pdf` (an echo, a commit message) is refused under "Never write .pdf files".
#[tokio::test]
async fn hostile2_a_never_write_rule_refuses_a_command_that_only_mentions_a_name() {
    if !shut_in() {
        return;
    }
    let (_dir, outputs) = never_write(&["echo 'Remember to send invoice.pdf'"]).await;
    assert_eq!(outputs[0].0, ToolCallStatus::Succeeded, "{outputs:?}");
}

#[tokio::test]
async fn a_rule_about_a_file_tool_everywhere_holds_for_commands_too() {
    if !shut_in() {
        return;
    }
    // "Never delete files and folders": commands run with the whole folder read-only.
    let mut h = harness_with(
        commands(&[
            "rm -f notes.txt; find . -delete; mv notes.txt gone.txt; echo made > made.txt; cat notes.txt",
        ]),
        TIMEOUT,
        rules("[[deny]]\ntool = \"delete_path\"\n[[allow]]\ntool = \"run_command\"\n"),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    std::fs::write(root.join("notes.txt"), "notes-5521\n").unwrap();
    h.runtime.start_run("tidy").unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    assert!(outputs[0].1.contains("notes-5521"), "{outputs:?}");
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).unwrap(),
        "notes-5521\n"
    );
    assert!(!root.join("made.txt").exists() && !root.join("gone.txt").exists());

    // "Never read files": a command, which could read any of them, is refused.
    let mut h = harness_with(
        commands(&["ls"]),
        TIMEOUT,
        rules("[[deny]]\ntool = \"read_file\"\n[[allow]]\ntool = \"run_command\"\n"),
        AnswerMode::Interactive,
    );
    h.runtime.start_run("look").unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    assert_eq!(outputs[0].0, ToolCallStatus::Denied, "{outputs:?}");
}

#[tokio::test]
async fn an_ask_rule_about_a_file_tool_everywhere_asks_for_every_command_and_opens_when_approved() {
    if !shut_in() {
        return;
    }
    let mut h = harness_with(
        commands(&["echo made > made.txt"]),
        TIMEOUT,
        rules("[[ask]]\ntool = \"write_file\"\n[[allow]]\ntool = \"run_command\"\n"),
        AnswerMode::Interactive,
    );
    let root = h.dir.path().to_owned();
    h.runtime.start_run("write").unwrap();
    let card = h.events.approval_required().await;
    assert!(
        card.reason.contains("Ask before writing files"),
        "{}",
        card.reason
    );
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    assert!(root.join("made.txt").exists());
}

/// A folder for a test that a command shut in would see as it is on disk: outside `/tmp`, the
/// home folders, `/run`, `/media` and `/mnt` (which the sandbox shows empty anyway).
fn outside_the_shown_empty() -> Option<tempfile::TempDir> {
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    [env!("CARGO_TARGET_TMPDIR"), "/var/cache", "/srv", "/opt"]
        .into_iter()
        .filter_map(|base| std::fs::canonicalize(base).ok())
        .filter(|base| {
            !askfirst_core::tools::sandbox::SHOWN_EMPTY
                .iter()
                .any(|hidden| base.starts_with(hidden))
                && !home.as_ref().is_some_and(|home| base.starts_with(home))
        })
        .find_map(|base| tempfile::tempdir_in(base).ok())
}

/// Found by a hostile review: with the whole workspace hidden by an ask rule about reading
/// everywhere that this command's card did not name ("Ask before reading files", behind "Ask
/// before running commands"), `confined_command` (sandbox.rs, the `shown &&` filter of `kept`)
/// stops hiding the places the rules keep outside the workspace: `Photos`, a link to a folder
/// elsewhere under "Never touch anything in Photos", is read through its real path.
#[tokio::test]
async fn hostile3_a_workspace_hidden_whole_shows_what_a_deny_rule_keeps_outside_it() {
    if !shut_in() {
        return;
    }
    let Some(elsewhere) = outside_the_shown_empty() else {
        eprintln!("skipped: no folder outside /tmp and the home folder to write to");
        return;
    };
    let elsewhere = elsewhere.path().canonicalize().unwrap();
    let photos = elsewhere.join("album-3d41");
    std::fs::create_dir(&photos).unwrap();
    std::fs::write(photos.join("secret.txt"), "photo-secret-3d41\n").unwrap();
    // Its words name no kept place (a folder elsewhere, then a pattern).
    let line = format!("cd {} && cat albu*/secret.txt", elsewhere.display());
    let mut h = harness_with(
        commands(&[line.as_str()]),
        TIMEOUT,
        rules(
            "[[deny]]\ntool = \"*\"\nmatch = \"Photos/**\"\n\
             [[ask]]\ntool = \"run_command\"\n\
             [[ask]]\ntool = \"read_file\"\n",
        ),
        AnswerMode::Interactive,
    );
    std::os::unix::fs::symlink(&photos, h.dir.path().join("Photos")).unwrap();
    h.runtime.start_run("look").unwrap();
    let card = h.events.approval_required().await;
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    let outputs = finished_outputs(&h.events.all());
    assert!(
        outputs
            .iter()
            .all(|(_, text)| !text.contains("photo-secret-3d41")),
        "{outputs:?}"
    );
}
