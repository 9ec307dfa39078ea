//! A command is tried first on a copy-on-write copy of the folder (`agent::try_first`): one
//! that changes nothing runs with no card; the card of one that changes files lists exactly
//! what it did before anything changes; Approve applies those changes, Deny discards them; a
//! "never" rule refuses the whole set; a file the person changed meanwhile stops the apply.

use super::policy::{rules, TIMEOUT};
use super::support::{finished, harness_with};
use askfirst_core::approvals::AnswerMode;
use askfirst_core::tools::copy;
use askfirst_core::tools::Workspace;
use askfirst_protocol::{AgentEvent, CallDetail, ChangeKind, Decision, NotRun, ToolCallStatus};
use serde_json::json;

/// Whether commands are tried on a copy here; fails under `ASKFIRST_REQUIRE_SANDBOX_TESTS`.
pub(crate) fn tried_first(root: &std::path::Path) -> bool {
    let works = copy::available(&Workspace::open(root).unwrap());
    if !works {
        assert!(
            std::env::var_os("ASKFIRST_REQUIRE_SANDBOX_TESTS").is_none(),
            "commands cannot be tried on a copy here, and ASKFIRST_REQUIRE_SANDBOX_TESTS is set"
        );
        eprintln!("skipped: commands cannot be tried on a copy here");
    }
    works
}

pub(crate) fn commands(lines: &[&str]) -> serde_json::Value {
    let mut turns: Vec<serde_json::Value> = lines
        .iter()
        .map(
            |line| json!({"tool_calls": [{"name": "run_command", "arguments": {"command": line}}]}),
        )
        .collect();
    turns.push(json!({"say": "done"}));
    json!({ "turns": turns })
}

fn cards(events: &[AgentEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, AgentEvent::ApprovalRequired(_)))
        .count()
}

/// The card's changes as (kind, path).
fn changes_of(request: &askfirst_protocol::ApprovalRequest) -> Vec<(ChangeKind, String)> {
    let Some(CallDetail::Command {
        tried: Some(tried), ..
    }) = &request.detail
    else {
        panic!("the card shows no tried command: {request:?}");
    };
    tried
        .changes
        .iter()
        .map(|c| (c.change, c.path.clone()))
        .collect()
}

#[tokio::test]
async fn a_command_that_changes_nothing_runs_without_a_card() {
    let mut h = harness_with(
        commands(&["ls; wc -l notes.txt; ls > /dev/null 2>&1"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::write(root.join("notes.txt"), "one\ntwo\n").unwrap();
    h.runtime.start_run("look").unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 0);
    let done = finished(&events);
    assert_eq!(done[0].status, ToolCallStatus::Succeeded, "{:?}", done[0]);
    assert!(done[0].output.contains("2 notes.txt"), "{:?}", done[0]);
}

#[tokio::test]
async fn a_script_s_changes_are_shown_before_they_happen_and_applied_on_approve() {
    let mut h = harness_with(
        commands(&["sh ./tidy.sh"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::write(root.join("a.tmp"), "a").unwrap();
    std::fs::write(root.join("b.tmp"), "b").unwrap();
    std::fs::write(
        root.join("tidy.sh"),
        "rm a.tmp b.tmp\necho 'tidied' > summary.txt\necho done\n",
    )
    .unwrap();
    h.runtime.start_run("tidy").unwrap();
    let card = h.events.approval_required().await;
    let mut shown = changes_of(&card);
    shown.sort();
    assert_eq!(
        shown,
        vec![
            (ChangeKind::Created, "summary.txt".to_owned()),
            (ChangeKind::Deleted, "a.tmp".to_owned()),
            (ChangeKind::Deleted, "b.tmp".to_owned()),
        ]
    );
    // Nothing has happened yet.
    assert!(root.join("a.tmp").exists() && root.join("b.tmp").exists());
    assert!(!root.join("summary.txt").exists());
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    assert!(!root.join("a.tmp").exists() && !root.join("b.tmp").exists());
    assert_eq!(
        std::fs::read_to_string(root.join("summary.txt")).unwrap(),
        "tidied\n"
    );
    let done = finished(&h.events.all());
    assert_eq!(done[0].status, ToolCallStatus::Succeeded, "{:?}", done[0]);
    assert!(done[0].output.contains("done"), "{:?}", done[0]);
}

#[tokio::test]
async fn denied_changes_never_reach_the_folder() {
    let mut h = harness_with(
        commands(&["rm notes.txt; echo new > new.txt"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::write(root.join("notes.txt"), "keep me").unwrap();
    h.runtime.start_run("tidy").unwrap();
    let card = h.events.approval_required().await;
    h.runtime
        .resolve_approval(card.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).unwrap(),
        "keep me"
    );
    assert!(!root.join("new.txt").exists());
    assert_eq!(finished(&h.events.all())[0].status, ToolCallStatus::Denied);
}

#[tokio::test]
async fn a_never_rule_refuses_the_whole_change_set_and_names_the_rule() {
    let mut h = harness_with(
        commands(&["tar -xf arch.tar; echo ok > fine.txt"]),
        TIMEOUT,
        rules("[[deny]]\ntool = \"write_file\"\nmatch = \"**/*.pdf\"\n"),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    let stage = tempfile::tempdir().unwrap();
    std::fs::write(stage.path().join("packed.pdf"), "%PDF").unwrap();
    assert!(std::process::Command::new("tar")
        .arg("-cf")
        .arg(root.join("arch.tar"))
        .arg("-C")
        .arg(stage.path())
        .arg("packed.pdf")
        .status()
        .unwrap()
        .success());
    h.runtime.start_run("unpack").unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 0);
    assert!(!root.join("packed.pdf").exists());
    // Nothing half applied: the harmless file is not there either.
    assert!(!root.join("fine.txt").exists());
    let done = finished(&events);
    assert_eq!(done[0].status, ToolCallStatus::Denied, "{:?}", done[0]);
    match &done[0].not_run {
        Some(NotRun::DeniedByRule {
            reason: Some(reason),
            ..
        }) => assert!(reason.contains("packed.pdf"), "{reason}"),
        other => panic!("not refused by the rule: {other:?}"),
    }
}

#[tokio::test]
async fn a_file_changed_after_the_try_stops_the_apply() {
    let mut h = harness_with(
        commands(&["echo command >> notes.txt; echo made > made.txt"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::write(root.join("notes.txt"), "mine\n").unwrap();
    h.runtime.start_run("append").unwrap();
    let card = h.events.approval_required().await;
    // The person edits the file while the card waits.
    std::fs::write(root.join("notes.txt"), "mine, edited meanwhile\n").unwrap();
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).unwrap(),
        "mine, edited meanwhile\n"
    );
    assert!(!root.join("made.txt").exists());
    assert_eq!(finished(&h.events.all())[0].status, ToolCallStatus::Failed);
}

#[tokio::test]
async fn a_try_has_no_network_and_background_programs_end_before_the_changes_are_read() {
    let mut h = harness_with(
        commands(&[
            "(sleep 1; echo late > late.txt) & python3 -c 'import socket; socket.create_connection((\"1.1.1.1\", 53), 2)' 2>/dev/null && echo online > net.txt; echo now > now.txt",
        ]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    h.runtime.start_run("try").unwrap();
    let card = h.events.approval_required().await;
    assert_eq!(
        changes_of(&card),
        vec![(ChangeKind::Created, "now.txt".to_owned())]
    );
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert!(root.join("now.txt").exists());
    assert!(!root.join("late.txt").exists() && !root.join("net.txt").exists());
}

/// A command may leave a folder without any permission (`chmod 000`): its changes are read,
/// shown and applied all the same (as a user who is not root: `make test-unprivileged`).
#[tokio::test]
async fn a_folder_the_command_left_unreadable_is_shown_and_applied() {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    let mut h = harness_with(
        commands(&["mkdir -p Work/2024 && echo a > Work/2024/a.txt && chmod 000 Work/2024"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    h.runtime.start_run("file it").unwrap();
    let card = h.events.approval_required().await;
    assert_eq!(
        changes_of(&card),
        vec![
            (ChangeKind::Created, "Work".to_owned()),
            (ChangeKind::Created, "Work/2024".to_owned()),
            (ChangeKind::Created, "Work/2024/a.txt".to_owned()),
        ]
    );
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    let done = finished(&h.events.all());
    assert_eq!(done[0].status, ToolCallStatus::Succeeded, "{:?}", done[0]);
    let folder = root.join("Work/2024");
    assert_eq!(
        std::fs::symlink_metadata(&folder).unwrap().mode() & 0o7777,
        0
    );
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(
        std::fs::read_to_string(folder.join("a.txt")).unwrap(),
        "a\n"
    );
}

/// Activity lists a command's changes as one entry, and Undo takes the whole command back:
/// deleted files return, changed files have their old bytes, new files and folders go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_takes_a_whole_command_back() {
    use super::place::{list, undo, Place};
    use askfirst_protocol::{ActivityState, RunStatus};
    let place = Place::new();
    if !tried_first(&std::fs::canonicalize(place.file(".")).unwrap()) {
        return;
    }
    std::fs::write(place.file("a.txt"), "a-before").unwrap();
    std::fs::write(place.file("b.txt"), "b-before").unwrap();
    let line =
        "rm a.txt; echo changed > b.txt; echo new > c.txt; mkdir -p D/E && echo d > D/E/d.txt";
    let (backend, status, _) = place
        .run(&[("run_command", json!({ "command": line }))])
        .await;
    assert_eq!(status, RunStatus::Completed);
    assert!(!place.file("a.txt").exists());
    assert_eq!(place.read("b.txt"), "changed\n");
    assert_eq!(place.read("D/E/d.txt"), "d\n");
    let entries = list(&backend);
    assert_eq!(entries.len(), 1, "{entries:?}");
    let entry = &entries[0];
    assert_eq!(entry.tool_name, "run_command");
    assert_eq!(entry.state, ActivityState::Done, "{entry:?}");
    for path in ["a.txt", "b.txt", "c.txt", "D/E/d.txt"] {
        assert!(
            entry.paths.iter().any(|p| p == path),
            "{path}: {:?}",
            entry.paths
        );
    }
    let undone = undo(&backend, entry, true);
    assert!(undone.is_ok(), "{undone:?}");
    assert_eq!(place.read("a.txt"), "a-before");
    assert_eq!(place.read("b.txt"), "b-before");
    assert!(!place.file("c.txt").exists());
    assert!(!place.file("D").exists());
    assert_eq!(list(&backend)[0].state, ActivityState::Undone);
}

/// What a hostile command leaves on its copy: a named pipe is never put into the folder, a
/// link out of the folder is shown as one, and a name with a newline and a right-to-left
/// mark is on the card exactly.
#[tokio::test]
async fn a_hostile_change_set_is_shown_as_it_is_and_a_pipe_is_never_applied() {
    let mut h = harness_with(
        commands(&[
            "mkfifo pipe; t=/etc; ln -s $t/passwd out-link; printf x > \"$(printf 'evil\\nname\\342\\200\\256txt.exe')\"",
        ]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    h.runtime.start_run("hostile").unwrap();
    let card = h.events.approval_required().await;
    let Some(CallDetail::Command {
        tried: Some(tried), ..
    }) = &card.detail
    else {
        panic!("no tried command: {card:?}");
    };
    let link = tried
        .changes
        .iter()
        .find(|c| c.path == "out-link")
        .expect("the link is on the card");
    assert_eq!(
        (link.change, link.target.as_deref(), link.outside),
        (ChangeKind::Link, Some("/etc/passwd"), true)
    );
    assert!(
        tried
            .changes
            .iter()
            .any(|c| c.path == "evil\nname\u{202e}txt.exe"),
        "{:?}",
        tried.changes
    );
    h.runtime
        .resolve_approval(card.approval_id, Decision::Approve)
        .unwrap();
    h.events.run_finished().await;
    assert!(!root.join("pipe").exists(), "a pipe was applied");
    assert_eq!(
        std::fs::read_link(root.join("out-link")).unwrap(),
        std::path::Path::new("/etc/passwd")
    );
}

/// A try that writes more than it may is stopped, and nothing of it is applied (in a process
/// of its own, with `ASKFIRST_TRY_WRITE_CAP` at 1 MB).
#[test]
fn a_try_that_writes_too_much_is_stopped_and_nothing_applies() {
    super::support::ignored_test_in_child("all::try_first::writes_too_much_child", &[], |child| {
        child.env(copy::TRY_WRITE_CAP_ENV, "1000000");
    });
}

#[tokio::test]
#[ignore = "run by a_try_that_writes_too_much_is_stopped_and_nothing_applies"]
async fn writes_too_much_child() {
    let mut h = harness_with(
        commands(&["echo small > small.txt; yes | head -c 50000000 > big.bin; sleep 20"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    h.runtime.start_run("fill").unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 0);
    let done = finished(&events);
    assert_eq!(done[0].status, ToolCallStatus::Failed, "{:?}", done[0]);
    assert!(done[0].output.contains("stopped"), "{:?}", done[0]);
    assert!(!root.join("small.txt").exists() && !root.join("big.bin").exists());
}

/// A file the person changes while the command runs on the copy is not overwritten by what the
/// command made of it.
#[tokio::test]
async fn a_file_changed_while_the_command_runs_is_not_overwritten() {
    let mut h = harness_with(
        commands(&["sleep 1; echo command >> notes.txt"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::write(root.join("notes.txt"), "mine\n").unwrap();
    h.runtime.start_run("append").unwrap();
    h.events
        .next_matching(|e| matches!(e, AgentEvent::ToolCallStarted { .. }).then_some(()))
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    std::fs::write(root.join("notes.txt"), "mine, edited while it ran\n").unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 0);
    assert_eq!(finished(&events)[0].status, ToolCallStatus::Failed);
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).unwrap(),
        "mine, edited while it ran\n"
    );
}

/// A command whose words read outside the folder is asked about before it is tried (what it
/// reads there would reach the model without a card).
#[tokio::test]
async fn a_command_that_reads_outside_the_folder_asks_before_it_runs() {
    let mut h = harness_with(
        commands(&["cat /etc/hostname"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    h.runtime.start_run("look").unwrap();
    let card = h.events.approval_required().await;
    assert!(
        matches!(&card.detail, Some(CallDetail::Command { tried: None, .. })),
        "{card:?}"
    );
    h.runtime
        .resolve_approval(card.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
}

/// "Allow in this conversation" on the card of a command's changes covers the same command
/// making changes among those (the same paths, the same kinds), and nothing more: a new
/// deletion, or the script it runs edited since, asks again.
#[tokio::test]
async fn allow_in_this_conversation_covers_the_same_changes_and_nothing_more() {
    let tidy =
        json!({"tool_calls": [{"name": "run_command", "arguments": {"command": "sh ./tidy.sh"}}]});
    let edit = json!({"tool_calls": [{"name": "write_file", "arguments": {
        "path": "tidy.sh", "content": "date +%N > stamp.txt; rm -f tidy.sh\n"}}]});
    let mut h = harness_with(
        json!({"turns": [tidy, tidy, tidy, edit, tidy, {"say": "done"}]}),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    std::fs::write(root.join("tidy.sh"), "date +%N > stamp.txt\n").unwrap();
    h.runtime.start_run("tidy").unwrap();
    let first = h.events.approval_required().await;
    assert!(first.grant_scope.is_some(), "{first:?}");
    h.runtime
        .resolve_approval(first.approval_id, Decision::ApproveForSession)
        .unwrap();
    // The second run of it changes stamp.txt, which the first created: another kind of
    // change, so it asks.
    let second = h.events.approval_required().await;
    assert_eq!(
        changes_of(&second),
        vec![(ChangeKind::Changed, "stamp.txt".to_owned())]
    );
    h.runtime
        .resolve_approval(second.approval_id, Decision::ApproveForSession)
        .unwrap();
    // The third makes the same change again: covered, no card. Then the script is edited
    // (its own card), and the same command asks again.
    let write = h.events.approval_required().await;
    assert_eq!(write.tool_name, "write_file");
    h.runtime
        .resolve_approval(write.approval_id, Decision::Approve)
        .unwrap();
    let fifth = h.events.approval_required().await;
    assert_eq!(fifth.tool_name, "run_command");
    h.runtime
        .resolve_approval(fifth.approval_id, Decision::Deny { note: None })
        .unwrap();
    h.events.run_finished().await;
    let events = h.events.all();
    assert_eq!(cards(&events), 4);
    let done = finished(&events);
    assert_eq!(
        done.iter().map(|d| d.status).collect::<Vec<_>>(),
        vec![
            ToolCallStatus::Succeeded,
            ToolCallStatus::Succeeded,
            ToolCallStatus::Succeeded,
            ToolCallStatus::Succeeded,
            ToolCallStatus::Denied
        ]
    );
    assert!(root.join("tidy.sh").exists());
}

/// A fork bomb the words do not show (`f(){ f & f & }; f`) ends with the try, at most 1,000
/// processes, without harming the computer, and leaves nothing running. Only as a person's
/// account: root is not held to a process limit (it would really fork without bound).
#[tokio::test]
async fn a_fork_bomb_ends_with_the_try_and_leaves_nothing_running() {
    if nix::unistd::geteuid().is_root() {
        eprintln!("skipped as root: run by make test-unprivileged");
        return;
    }
    let mut h = harness_with(
        json!({"turns": [
            {"tool_calls": [{"name": "run_command", "arguments": {
                "command": "f(){ f & f & }; f # forkbomb-5a1", "timeout_secs": 5}}]},
            {"say": "done"}
        ]}),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    if !tried_first(&root) {
        return;
    }
    h.runtime.start_run("bomb").unwrap();
    h.events.run_finished().await;
    // It changed nothing: no card; it could not fork past its bound.
    let events = h.events.all();
    assert_eq!(cards(&events), 0);
    let done = finished(&events);
    // Either it reached its bound (bash says it cannot fork) or the try ended first and what it
    // left was stopped with it: which comes first depends on the machine's speed.
    assert!(
        done[0].output.contains("fork")
            || done[0]
                .output
                .contains("left programs running in the background; they were stopped"),
        "{:?}",
        done[0]
    );
    // Whatever it printed or left on the copy, nothing of it is running now.
    assert!(
        super::support::all_gone("forkbomb-5a1").await,
        "processes of the fork bomb are still running"
    );
    let ours = std::process::Command::new("ps")
        .args([
            "-u",
            &nix::unistd::geteuid().as_raw().to_string(),
            "-o",
            "pid=",
        ])
        .output()
        .unwrap();
    let count = String::from_utf8_lossy(&ours.stdout).lines().count();
    assert!(count < 200, "{count} processes of this user are left");
}

/// Where commands cannot be tried on a copy (here `ASKFIRST_TRY_FIRST=off`), a command is asked
/// about first, on its words, as before, and its card says it runs on the folder itself.
#[test]
fn where_no_copy_can_be_made_the_card_says_so_and_asks_first() {
    super::support::ignored_test_in_child("all::try_first::no_copy_child", &[], |child| {
        child.env(copy::TRY_FIRST_SWITCH_ENV, "off");
    });
}

#[tokio::test]
#[ignore = "run by where_no_copy_can_be_made_the_card_says_so_and_asks_first"]
async fn no_copy_child() {
    let mut h = harness_with(
        commands(&["ls", "echo made > made.txt"]),
        TIMEOUT,
        rules(""),
        AnswerMode::Interactive,
    );
    let root = std::fs::canonicalize(h.dir.path()).unwrap();
    assert!(!copy::available(&Workspace::open(&root).unwrap()));
    h.runtime.start_run("look").unwrap();
    for _ in 0..2 {
        let card = h.events.approval_required().await;
        assert!(
            matches!(&card.detail, Some(CallDetail::Command { tried: None, .. })),
            "{card:?}"
        );
        if askfirst_core::tools::sandbox::Confinement::detected().is_confined() {
            assert!(
                card.effects
                    .iter()
                    .any(|e| e.contains("cannot try it on a copy of your folder first")),
                "{:?}",
                card.effects
            );
        }
        h.runtime
            .resolve_approval(card.approval_id, Decision::Approve)
            .unwrap();
    }
    h.events.run_finished().await;
    assert!(root.join("made.txt").exists());
}
