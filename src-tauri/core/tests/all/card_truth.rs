//! The card is the whole truth, also after it was shown: between the card and the run (while
//! the person reads it, or as an earlier call of the same turn runs), a folder on the way to
//! the call's file is replaced by a link to a folder the person's deny rule keeps from the
//! agent. The file's contents look the same (nothing there, either way), so only where the
//! path now leads tells: the call must not run where the card did not say.

use super::place::{play_calls, run_task, Place};
use askfirst_protocol::{RunStatus, ToolCallStatus};
use serde_json::json;
use std::os::unix::fs::symlink;

const DENY_PRIVATE: &str = "[[deny]]\ntool = \"*\"\nmatch = \"Private/**\"\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_whose_path_leads_elsewhere_after_its_card_was_shown_does_not_run() {
    for (tool, arguments) in [
        (
            "write_file",
            json!({"path": "docs/new.txt", "content": "from the model"}),
        ),
        (
            "move_path",
            json!({"from": "report.txt", "to": "docs/report.txt"}),
        ),
    ] {
        let place = Place::new();
        std::fs::create_dir(place.file("docs")).unwrap();
        std::fs::create_dir(place.file("Private")).unwrap();
        std::fs::write(place.file("report.txt"), "report").unwrap();
        std::fs::write(place.data.join("rules.toml"), DENY_PRIVATE).unwrap();
        place.script(&[(tool, arguments)]);
        let (backend, mut events) = place.backend_with_events();
        let (status, calls) = play_calls(&backend, &mut events, |_| {
            // What `rm -r docs && ln -s Private docs` does, run before this call.
            std::fs::remove_dir(place.file("docs")).unwrap();
            symlink("Private", place.file("docs")).unwrap();
        })
        .await;
        assert_eq!(status, RunStatus::Completed);
        assert_eq!(
            std::fs::read_dir(place.file("Private")).unwrap().count(),
            0,
            "{tool}: nothing lands in the folder the deny rule keeps from the agent"
        );
        let statuses: Vec<_> = calls.iter().map(|(status, _)| *status).collect();
        assert_eq!(statuses, [ToolCallStatus::Failed], "{tool}: {calls:?}");
        assert_eq!(place.read("report.txt"), "report");
    }
}

/// The same through a real command of the same turn, for a call that asks nobody: a file read
/// is proposed (and allowed) before the command runs; the command then puts a link to a
/// private file in its place. The read must not hand the private file to the model.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_allowed_before_an_earlier_call_swapped_in_a_link_reads_nothing_private() {
    let place = Place::new();
    std::fs::create_dir(place.file("Private")).unwrap();
    std::fs::write(place.file("Private/secret.txt"), "the secret").unwrap();
    std::fs::write(place.file("notes.txt"), "notes").unwrap();
    std::fs::write(place.data.join("rules.toml"), DENY_PRIVATE).unwrap();
    place.script_turns(json!([
        {"say": "Working.", "tool_calls": [
            {"name": "run_command",
             "arguments": {"command": "d=Priv; rm notes.txt && ln -s ${d}ate/secret.txt notes.txt"}},
            {"name": "read_file", "arguments": {"path": "notes.txt"}}
        ]},
        {"say": "Done."}
    ]));
    let (backend, mut events) = place.backend_with_events();
    let (_, outputs) = play_calls(&backend, &mut events, |_| {}).await;
    assert!(
        std::fs::symlink_metadata(place.file("notes.txt"))
            .unwrap()
            .file_type()
            .is_symlink(),
        "the command ran: {outputs:?}"
    );
    assert_eq!(outputs.len(), 2, "{outputs:?}");
    let (status, output) = &outputs[1];
    assert_eq!(*status, ToolCallStatus::Failed, "{output:?}");
    assert!(!format!("{output:?}").contains("the secret"), "{output:?}");
}

/// A command is not stopped because an earlier command of the turn made a link its words
/// lead through: the kernel shuts it in wherever the link leads.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_through_a_link_an_earlier_command_made_still_runs() {
    let place = Place::new();
    place.script_turns(json!([
        {"say": "Working.", "tool_calls": [
            {"name": "run_command",
             "arguments": {"command": "mkdir -p build/out && ln -s build/out latest"}},
            {"name": "run_command", "arguments": {"command": "touch latest/made.txt"}}
        ]},
        {"say": "Done."}
    ]));
    let (backend, mut events) = place.backend_with_events();
    let (status, _) = run_task(&backend, &mut events).await;
    assert_eq!(status, RunStatus::Completed);
    assert!(place.file("build/out/made.txt").exists());
}
