//! Undo attacked: after the agent's change, something the agent can also run (an approved
//! command) replaces a folder on the way, or the file itself, with a link to another place
//! inside the person's folder (a folder their deny rule keeps from the agent), or with a named
//! pipe; then the person clicks Undo. Undo must touch only the very item the change made and
//! never follow a link: not write, trash or take anything elsewhere, and never hang.

use super::place::{entry_of, in_a_trash_of_its_own, list, undo, Place};
use askfirst_core::app::Coded;
use askfirst_core::undo::UndoError;
use askfirst_protocol::{ActivityEntry, UndoResponse};
use serde_json::json;
use std::os::unix::fs::symlink;
use std::time::Duration;

/// Plays the script, approves every card, and returns Activity's entries.
async fn changed(
    place: &Place,
    calls: &[(&str, serde_json::Value)],
) -> (askfirst_core::app::Backend, Vec<ActivityEntry>) {
    let (backend, _, _) = place.run(calls).await;
    let entries = list(&backend);
    (backend, entries)
}

/// The person's private folder inside their folder, with one file.
fn private(place: &Place, name: &str, content: &str) {
    std::fs::create_dir_all(place.file("Private")).unwrap();
    std::fs::write(place.file("Private").join(name), content).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undoing_an_overwrite_never_writes_through_a_folder_replaced_by_a_link() {
    let place = Place::new();
    std::fs::create_dir(place.file("docs")).unwrap();
    std::fs::write(place.file("docs/notes.txt"), "old").unwrap();
    let (backend, entries) = changed(
        &place,
        &[(
            "write_file",
            json!({"path": "docs/notes.txt", "content": "new"}),
        )],
    )
    .await;
    private(&place, "notes.txt", "private");
    // What `mv docs docs2 && ln -s Private docs` does.
    std::fs::rename(place.file("docs"), place.file("docs2")).unwrap();
    symlink("Private", place.file("docs")).unwrap();

    let answer = undo(&backend, &entries[0], true);
    assert_eq!(
        answer,
        Err(UndoError::NotAFolder("docs".into())),
        "undo refuses to go through the link"
    );
    assert_eq!(place.read("Private/notes.txt"), "private");
    assert_eq!(place.read("docs2/notes.txt"), "new");
    let message = answer.unwrap_err().to_command_error().message;
    assert!(message.contains("docs"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undoing_a_move_never_takes_an_item_out_through_a_folder_replaced_by_a_link() {
    let place = Place::new();
    std::fs::create_dir(place.file("Inbox")).unwrap();
    std::fs::write(place.file("Inbox/x.txt"), "mine").unwrap();
    let (backend, entries) = changed(
        &place,
        &[(
            "move_path",
            json!({"from": "Inbox/x.txt", "to": "Done/x.txt"}),
        )],
    )
    .await;
    private(&place, "x.txt", "private");
    // What `rm -r Done && ln -s Private Done` does: undoing the move would now take the
    // private file out to Inbox, where the agent may read it.
    std::fs::remove_dir_all(place.file("Done")).unwrap();
    symlink("Private", place.file("Done")).unwrap();

    assert_eq!(
        undo(&backend, &entries[0], true),
        Err(UndoError::NotAFolder("Done".into()))
    );
    assert_eq!(place.read("Private/x.txt"), "private");
    assert!(!place.file("Inbox/x.txt").exists());

    // A link in place of the item itself is not the item the change moved either: the link
    // may be moved back (it is what is there), never what it points at.
    std::fs::remove_file(place.file("Done")).unwrap();
    std::fs::create_dir(place.file("Done")).unwrap();
    symlink("../Private/x.txt", place.file("Done/x.txt")).unwrap();
    let _ = undo(&backend, &entries[0], true);
    assert_eq!(place.read("Private/x.txt"), "private");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_never_waits_on_a_named_pipe_put_in_place_of_the_file() {
    let place = Place::new();
    std::fs::write(place.file("notes.txt"), "old").unwrap();
    let (backend, entries) = changed(
        &place,
        &[("write_file", json!({"path": "notes.txt", "content": "new"}))],
    )
    .await;
    // What `rm notes.txt && mkfifo notes.txt` does: opening it waits for a writer forever.
    std::fs::remove_file(place.file("notes.txt")).unwrap();
    nix::unistd::mkfifo(&place.file("notes.txt"), nix::sys::stat::Mode::S_IRWXU).unwrap();

    let backend = std::sync::Arc::new(backend);
    let (tx, rx) = std::sync::mpsc::channel();
    let (b, entry) = (std::sync::Arc::clone(&backend), entries[0].clone());
    std::thread::spawn(move || {
        let _ = tx.send(undo(&b, &entry, false));
        let _ = tx.send(b.activity.undo_task(entry.session_id, entry.run_id, false));
    });
    for _ in 0..2 {
        let answer = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("Undo answers at once, whatever is at the file's place");
        assert!(
            matches!(answer, Ok(UndoResponse::Confirm { .. })),
            "something else is there now: the person is asked first ({answer:?})"
        );
    }
    // Confirmed: the file the change replaced comes back in place of the pipe.
    assert!(undo(&backend, &entries[0], true).is_ok());
    assert_eq!(place.read("notes.txt"), "old");
}

/// The trash cases run in a process of their own (the trash lives under `XDG_DATA_HOME`).
#[test]
fn undo_through_the_trash_follows_no_link() {
    in_a_trash_of_its_own(
        "all::undo_attack::trash_links_in_a_child_process",
        "undo_attack",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by undo_through_the_trash_follows_no_link, in a process of its own"]
async fn trash_links_in_a_child_process() {
    if std::env::var("ASKFIRST_TEST_TRASH").as_deref() != Ok("undo_attack") {
        return;
    }
    let place = Place::new();
    std::fs::create_dir(place.file("Old")).unwrap();
    std::fs::write(place.file("Old/a.txt"), "a").unwrap();
    let (backend, entries) = changed(
        &place,
        &[
            ("write_file", json!({"path": "made.txt", "content": "made"})),
            (
                "write_file",
                json!({"path": "New/made.txt", "content": "made"}),
            ),
            ("delete_path", json!({"path": "Old/a.txt"})),
        ],
    )
    .await;
    let by_path = |name: &str| entry_of(&entries, name);
    private(&place, "secret.txt", "secret");
    private(&place, "made.txt", "private");

    // The created file replaced by a link to a private file: undoing the creation moves at
    // most the link to the trash, never the private file.
    std::fs::remove_file(place.file("made.txt")).unwrap();
    symlink("Private/secret.txt", place.file("made.txt")).unwrap();
    let _ = undo(&backend, &by_path("made.txt"), true);
    assert_eq!(place.read("Private/secret.txt"), "secret");

    // Its folder replaced by a link to the private folder: refused.
    std::fs::remove_dir_all(place.file("New")).unwrap();
    symlink("Private", place.file("New")).unwrap();
    assert_eq!(
        undo(&backend, &by_path("New/made.txt"), true),
        Err(UndoError::NotAFolder("New".into()))
    );
    assert_eq!(place.read("Private/made.txt"), "private");

    // The deleted file's folder replaced by a link: it is not restored into the private
    // folder.
    std::fs::remove_dir(place.file("Old")).unwrap();
    symlink("Private", place.file("Old")).unwrap();
    assert_eq!(
        undo(&backend, &by_path("Old/a.txt"), true),
        Err(UndoError::NotAFolder("Old".into()))
    );
    assert!(!place.file("Private/a.txt").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_question_before_undoing_a_large_task_names_a_few_files_and_counts_the_rest() {
    let place = Place::new();
    let names: Vec<String> = (1..=8).map(|i| format!("file{i}.txt")).collect();
    let calls: Vec<(&str, serde_json::Value)> = names
        .iter()
        .map(|name| {
            (
                "write_file",
                json!({"path": name, "content": "the agent's"}),
            )
        })
        .collect();
    let (backend, entries) = changed(&place, &calls).await;
    for name in &names {
        std::fs::write(place.file(name), "the person's later work").unwrap();
    }
    let entry = &entries[0];
    let Ok(UndoResponse::Confirm { what_lost }) =
        backend
            .activity
            .undo_task(entry.session_id, entry.run_id, false)
    else {
        panic!("the person is asked first");
    };
    let named = names
        .iter()
        .filter(|n| what_lost.contains(n.as_str()))
        .count();
    assert_eq!(named, 5, "{what_lost}");
    assert!(
        what_lost.ends_with(
            "3 more files of the task were changed after the agent's change too, and those \
             changes will be lost as well."
        ),
        "{what_lost}"
    );
    assert_eq!(place.read("file1.txt"), "the person's later work");
}
