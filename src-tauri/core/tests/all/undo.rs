//! Undo and Activity (issue 14): each file tool's change taken back exactly, through the real
//! backend with the scripted model; the honest limits (a file changed since, the place taken,
//! gone from the trash, the folder gone, copies cleared over the cap, a file too large to
//! copy, a full data folder); a second click or two windows never undo twice.

use super::place::{entry_of, in_a_trash_of_its_own, list, play_calls, undo, Place};
use askfirst_core::app::Coded;
use askfirst_core::undo::UndoError;
use askfirst_protocol::{ActivityState, AllowedBy, RunStatus, UndoResponse};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn done(message: &str) -> Result<UndoResponse, UndoError> {
    Ok(UndoResponse::Done {
        message: message.to_owned(),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_overwrite_is_undone_to_the_exact_bytes_and_permissions_and_only_once() {
    let place = Place::new();
    let before: Vec<u8> = (0..=255u8).chain(b"\r\nend".iter().copied()).collect();
    std::fs::write(place.file("notes.txt"), &before).unwrap();
    std::fs::set_permissions(place.file("notes.txt"), PermissionsExt::from_mode(0o640)).unwrap();
    let (backend, status, _) = place
        .run(&[(
            "write_file",
            json!({"path": "notes.txt", "content": "new\n"}),
        )])
        .await;
    assert_eq!(status, RunStatus::Completed);
    assert_eq!(place.read("notes.txt"), "new\n");

    let entries = list(&backend);
    assert_eq!(entries.len(), 1, "{entries:?}");
    let entry = &entries[0];
    assert_eq!(
        (
            entry.tool_name.as_str(),
            entry.summary.as_str(),
            entry.allowed_by,
            &entry.state,
            entry.paths.clone(),
            entry.conversation.as_str(),
        ),
        (
            "write_file",
            "Replace everything in notes.txt with new text (1 line)",
            AllowedBy::Person,
            &ActivityState::Done,
            vec!["notes.txt".to_owned()],
            "Tidy up",
        )
    );

    // Two windows (or a double click) at once: exactly one undoes.
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| undo(&backend, entry, false));
        let b = s.spawn(|| undo(&backend, entry, false));
        (a.join().unwrap(), b.join().unwrap())
    });
    let mut results = [a, b];
    results.sort_by_key(Result::is_err);
    assert_eq!(
        results,
        [
            done("Undone: Replace everything in notes.txt with new text (1 line)."),
            Err(UndoError::AlreadyUndone)
        ]
    );
    assert_eq!(std::fs::read(place.file("notes.txt")).unwrap(), before);
    assert_eq!(mode(&place.file("notes.txt")), 0o640);
    assert_eq!(list(&backend)[0].state, ActivityState::Undone);
    assert_eq!(undo(&backend, entry, true), Err(UndoError::AlreadyUndone));

    // The log says who asked and what happened.
    let log = std::fs::read_to_string(
        place
            .data
            .join("sessions")
            .join(format!("{}.jsonl", entry.session_id)),
    )
    .unwrap();
    for record in [
        "change_saved",
        "change_applied",
        "undo_requested",
        "undo_done",
    ] {
        assert_eq!(
            log.matches(&format!("\"type\":\"{record}\"")).count(),
            1,
            "{record}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_changed_since_asks_first_and_says_what_would_be_lost() {
    let place = Place::new();
    std::fs::write(place.file("todo.txt"), "milk\neggs\n").unwrap();
    let (backend, _, _) = place
        .run(&[(
            "edit_file",
            json!({"path": "todo.txt", "old_text": "eggs", "new_text": "bread"}),
        )])
        .await;
    assert_eq!(place.read("todo.txt"), "milk\nbread\n");
    // The person changes the file afterwards.
    std::fs::write(place.file("todo.txt"), "milk\nbread\ncheese\n").unwrap();
    let entry = list(&backend).remove(0);
    assert_eq!(
        undo(&backend, &entry, false),
        Ok(UndoResponse::Confirm {
            what_lost: "todo.txt was changed after the agent's change. Undoing puts back the \
                        version from before the agent's change, and those later changes will \
                        be lost."
                .into()
        })
    );
    assert_eq!(
        place.read("todo.txt"),
        "milk\nbread\ncheese\n",
        "nothing yet"
    );
    assert!(undo(&backend, &entry, true).is_ok());
    assert_eq!(place.read("todo.txt"), "milk\neggs\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_goes_back_unless_the_old_place_is_taken() {
    let place = Place::new();
    std::fs::write(place.file("a.txt"), "A").unwrap();
    let (backend, _, _) = place
        .run(&[(
            "move_path",
            json!({"from": "a.txt", "to": "Old/2024/a.txt"}),
        )])
        .await;
    assert_eq!(place.read("Old/2024/a.txt"), "A");
    let entry = list(&backend).remove(0);
    assert_eq!(
        entry.paths,
        vec!["a.txt".to_owned(), "Old/2024/a.txt".to_owned()]
    );

    std::fs::write(place.file("a.txt"), "someone else's").unwrap();
    let taken = undo(&backend, &entry, true).unwrap_err();
    assert_eq!(taken, UndoError::PlaceTaken("a.txt".into()));
    assert_eq!(
        taken.to_command_error().message,
        "Something else is at a.txt now, so nothing was put back there. Move or rename it, \
         then try again."
    );
    assert_eq!(
        list(&backend)[0].state,
        ActivityState::Done,
        "still undoable"
    );

    std::fs::remove_file(place.file("a.txt")).unwrap();
    assert!(undo(&backend, &entry, false).is_ok());
    assert_eq!(place.read("a.txt"), "A");
    assert!(
        !place.file("Old").exists(),
        "the folders the move made are gone again"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_that_is_gone_or_replaced_is_said_and_nothing_is_written_elsewhere() {
    let place = Place::new();
    std::fs::write(place.file("notes.txt"), "old").unwrap();
    let (backend, _, _) = place
        .run(&[("write_file", json!({"path": "notes.txt", "content": "new"}))])
        .await;
    let entry = list(&backend).remove(0);

    let moved = place.ws.with_file_name("Taxes, moved");
    std::fs::rename(&place.ws, &moved).unwrap();
    assert_eq!(
        undo(&backend, &entry, true),
        Err(UndoError::FolderGone(place.ws.clone()))
    );
    // Another folder at the same place is not the one the change was made in.
    std::fs::create_dir(&place.ws).unwrap();
    assert_eq!(
        undo(&backend, &entry, true),
        Err(UndoError::FolderGone(place.ws.clone()))
    );
    assert_eq!(std::fs::read_dir(&place.ws).unwrap().count(), 0);
    assert_eq!(
        std::fs::read_to_string(moved.join("notes.txt")).unwrap(),
        "new"
    );
    let message = UndoError::FolderGone(place.ws.clone())
        .to_command_error()
        .message;
    assert!(message.starts_with("The folder ") && message.contains("not there any more"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_cap_the_oldest_copies_go_and_a_file_too_large_is_said_on_the_card() {
    let place = Place::new();
    // A cap of 40 bytes: at most 10 bytes per file.
    std::fs::write(
        place.data.join("settings.json"),
        r#"{"undo_cap_bytes": 40}"#,
    )
    .unwrap();
    for (i, name) in ["1.txt", "2.txt", "3.txt", "4.txt", "5.txt"]
        .iter()
        .enumerate()
    {
        std::fs::write(place.file(name), format!("version {i}")).unwrap(); // 9 bytes each
    }
    std::fs::write(place.file("big.txt"), "eleven byte").unwrap();
    let mut calls: Vec<(&str, serde_json::Value)> = ["1.txt", "2.txt", "3.txt", "4.txt", "5.txt"]
        .iter()
        .map(|name| ("write_file", json!({"path": name, "content": "x"})))
        .collect();
    calls.push(("write_file", json!({"path": "big.txt", "content": "x"})));
    let (backend, _, effects) = place.run(&calls).await;
    assert_eq!(
        effects.last().unwrap(),
        &vec![
            "This change cannot be undone: the file is 11 bytes, too large for Ask First to \
             keep a copy of."
                .to_owned()
        ]
    );
    assert!(effects[..5].iter().all(Vec::is_empty), "{effects:?}");

    let entries = list(&backend);
    let state_of = |name: &str| entry_of(&entries, name).state;
    assert_eq!(
        state_of("big.txt"),
        ActivityState::CannotUndo {
            why: "The file was 11 bytes, too large for Ask First to keep a copy of.".into()
        }
    );
    assert_eq!(state_of("1.txt"), ActivityState::TooOld);
    for name in ["2.txt", "3.txt", "4.txt", "5.txt"] {
        assert_eq!(state_of(name), ActivityState::Done, "{name}");
    }
    let error = undo(&backend, &entry_of(&entries, "1.txt"), true).unwrap_err();
    assert!(matches!(error, UndoError::TooOld(_)), "{error:?}");
    assert_eq!(place.read("1.txt"), "x");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_before_copy_that_cannot_be_written_keeps_the_file_as_it_was() {
    let place = Place::new();
    std::fs::write(place.file("notes.txt"), "precious").unwrap();
    // A file where the copies' folder would have to be: no copy can be written (as on a
    // full disk).
    std::fs::write(place.data.join("undo"), "").unwrap();
    place.script(&[("write_file", json!({"path": "notes.txt", "content": "new"}))]);
    let (backend, mut events) = place.backend_with_events();
    let (_, calls) = play_calls(&backend, &mut events, |_| {}).await;
    let finished: Vec<_> = calls.iter().map(|(status, _)| *status).collect();
    assert_eq!(finished, [askfirst_protocol::ToolCallStatus::Failed]);
    assert_eq!(place.read("notes.txt"), "precious");
    assert!(
        list(&backend).is_empty(),
        "a change that was not made is not listed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_task_is_undone_newest_first_and_after_a_restart() {
    let place = Place::new();
    std::fs::write(place.file("a.txt"), "a0").unwrap();
    std::fs::write(place.file("b.txt"), "b0").unwrap();
    std::fs::write(place.file("c.txt"), "c0").unwrap();
    let session = {
        let (backend, _, _) = place
            .run(&[
                ("write_file", json!({"path": "a.txt", "content": "a1"})),
                (
                    "edit_file",
                    json!({"path": "a.txt", "old_text": "a1", "new_text": "a2"}),
                ),
                ("write_file", json!({"path": "b.txt", "content": "b1"})),
                ("move_path", json!({"from": "c.txt", "to": "d.txt"})),
                ("write_file", json!({"path": "d.txt", "content": "d1"})),
            ])
            .await;
        backend.runtime.shutdown();
        backend.log.flush();
        list(&backend)[0].session_id
    };
    assert_eq!(
        (
            place.read("a.txt"),
            place.read("b.txt"),
            place.read("d.txt")
        ),
        ("a2".into(), "b1".into(), "d1".into())
    );
    // A new launch reads Activity from the logs.
    let backend = place.backend();
    let entries = list(&backend);
    assert_eq!(entries.len(), 5, "{entries:?}");
    assert!(entries
        .iter()
        .all(|e| e.session_id == session && e.state == ActivityState::Done));
    let run = entries[0].run_id;
    assert_eq!(
        backend.activity.undo_task(session, run, false),
        done("Undid the task's 5 changes, newest first.")
    );
    assert_eq!(
        (
            place.read("a.txt"),
            place.read("b.txt"),
            place.read("c.txt")
        ),
        ("a0".into(), "b0".into(), "c0".into())
    );
    assert!(!place.file("d.txt").exists());
    assert!(list(&backend)
        .iter()
        .all(|e| e.state == ActivityState::Undone));
    assert_eq!(
        backend.activity.undo_task(session, run, false),
        Err(UndoError::AlreadyUndone)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_undo_stops_at_the_first_change_it_cannot_undo_and_says_how_far_it_got() {
    let place = Place::new();
    std::fs::write(place.file("c.txt"), "c0").unwrap();
    std::fs::write(place.file("a.txt"), "a0").unwrap();
    let (backend, _, _) = place
        .run(&[
            ("move_path", json!({"from": "c.txt", "to": "d.txt"})),
            ("write_file", json!({"path": "a.txt", "content": "a1"})),
        ])
        .await;
    std::fs::write(place.file("c.txt"), "new c").unwrap();
    let entry = list(&backend).remove(0);
    let stopped = backend
        .activity
        .undo_task(entry.session_id, entry.run_id, false)
        .unwrap_err();
    assert_eq!(
        stopped.to_command_error().message,
        "Undid 1 of the task's 2 changes, newest first, then stopped at \"Move c.txt to \
         d.txt\": Something else is at c.txt now, so nothing was put back there. Move or \
         rename it, then try again. The older changes were left as they are."
    );
    assert_eq!(place.read("a.txt"), "a0");
    assert_eq!(place.read("d.txt"), "c0");
}

/// Undo moves to and restores from the real trash, which lives under `XDG_DATA_HOME`; the
/// environment is shared by every test of this process, so the cases run in a child process
/// of this test binary with its own (as `tools_builtin` does).
#[test]
fn undo_through_the_trash() {
    in_a_trash_of_its_own("all::undo::trash_cases_in_a_child_process", "undo");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by undo_through_the_trash, in a process of its own"]
async fn trash_cases_in_a_child_process() {
    if std::env::var("ASKFIRST_TEST_TRASH").as_deref() != Ok("undo") {
        return;
    }
    let place = Place::new();
    std::fs::write(place.file("keep.txt"), "keep me").unwrap();
    std::fs::write(place.file("gone.txt"), "gone").unwrap();
    let (backend, _, _) = place
        .run(&[
            (
                "write_file",
                json!({"path": "New/Sub/hello.txt", "content": "hello"}),
            ),
            ("delete_path", json!({"path": "keep.txt"})),
            ("delete_path", json!({"path": "gone.txt"})),
        ])
        .await;
    assert!(!place.file("keep.txt").exists() && !place.file("gone.txt").exists());
    let entries = list(&backend);
    let by_path = |name: &str| entry_of(&entries, name);

    // A new file goes to the trash, and the folders made for it go when empty again.
    assert!(undo(&backend, &by_path("New/Sub/hello.txt"), false).is_ok());
    assert!(!place.file("New").exists());

    // A file moved to the trash comes back, exactly.
    assert!(undo(&backend, &by_path("keep.txt"), false).is_ok());
    assert_eq!(place.read("keep.txt"), "keep me");

    // Emptied from the trash: said so.
    let items = trash::os_limited::list().unwrap();
    let gone: Vec<_> = items
        .into_iter()
        .filter(|i| i.original_path() == place.file("gone.txt"))
        .collect();
    assert_eq!(gone.len(), 1);
    trash::os_limited::purge_all(gone).unwrap();
    let error = undo(&backend, &by_path("gone.txt"), true).unwrap_err();
    assert_eq!(error, UndoError::GoneFromTrash("gone.txt".into()));
    assert_eq!(
        error.to_command_error().message,
        "\"gone.txt\" is no longer in the trash (it may have been emptied), so it cannot be \
         restored. Look in a backup if you have one."
    );
    assert_eq!(by_path("gone.txt").state, ActivityState::Done);
}
