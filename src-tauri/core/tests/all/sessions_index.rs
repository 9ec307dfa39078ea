//! The Sessions list reads an index, not every log; the index is rebuilt when it is missing
//! or damaged; and logs written before tool calls carried a typed reason replay as before.

use super::sessions::app_runtime;
use askfirst_core::sessions::store::INDEX_FILE;
use askfirst_protocol::{AgentEvent, Decision, NotRun, RunStatus, ToolCallStatus};
use pretty_assertions::assert_eq;
use serde_json::json;

fn titles(list: &[askfirst_protocol::SessionSummary]) -> Vec<(String, bool)> {
    list.iter().map(|s| (s.title.clone(), s.current)).collect()
}

#[tokio::test]
async fn the_list_comes_from_the_index_and_is_rebuilt_from_the_logs_when_it_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let (first, mut events) = app_runtime(&data, &workspace, json!({"turns": [{"say": "Hi."}]}));
    let old = first.session_id();
    first.start_run("Sort my photos\n  by year").unwrap();
    events.run_finished().await;
    let sessions = data.join("sessions");
    let index = sessions.join(INDEX_FILE);
    assert!(index.exists(), "the first task wrote the index");
    drop(first);

    let (second, _events) = app_runtime(&data, &workspace, json!({"turns": []}));
    let listed = second.list_sessions();
    let past = |title: &str| vec![(title.to_owned(), false), ("New session".to_owned(), true)];
    let sorted = |list: Vec<askfirst_protocol::SessionSummary>| {
        let mut t = titles(&list);
        t.sort_by_key(|(_, current)| *current);
        t
    };
    assert_eq!(sorted(listed), past("Sort my photos by year"));

    // The title is taken from the index: a log whose text changed keeps the indexed title.
    let log = sessions.join(format!("{old}.jsonl"));
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, text.replace("Sort my photos", "Tidy my music")).unwrap();
    assert_eq!(
        sorted(second.list_sessions()),
        past("Sort my photos by year")
    );

    // Gone or damaged, the index is made again from the logs.
    std::fs::remove_file(&index).unwrap();
    assert_eq!(
        sorted(second.list_sessions()),
        past("Tidy my music by year")
    );
    assert!(index.exists());
    std::fs::write(&index, "{ not json").unwrap();
    assert_eq!(
        sorted(second.list_sessions()),
        past("Tidy my music by year")
    );
}

#[tokio::test]
async fn a_session_without_a_task_is_listed_once_it_has_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let (runtime, mut events) = app_runtime(&data, &workspace, json!({"turns": [{"say": "Ok."}]}));
    // Logged without a task yet (a policy change is written to the log).
    runtime.set_session_policy(askfirst_protocol::SessionPolicy::Ask);
    assert_eq!(
        titles(&runtime.list_sessions()),
        vec![("New session".into(), true)]
    );
    runtime.start_run("Write a poem").unwrap();
    events.run_finished().await;
    assert_eq!(
        titles(&runtime.list_sessions()),
        vec![("Write a poem".into(), true)]
    );
}

/// A log line for an event, as the app wrote it before `not_run` and `wording` existed.
fn line(event: serde_json::Value) -> String {
    json!({"type": "event", "event": event, "at": 1}).to_string()
}

#[tokio::test]
async fn a_log_written_before_typed_reasons_replays_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let sessions = data.join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let id = askfirst_protocol::SessionId::new();
    let run = askfirst_protocol::RunId::new();
    let said_no = "You said no. The action was not performed.";
    let lines = [
        json!({"type": "message", "message": {"role": "user", "text": "Old task"}, "at": 1})
            .to_string(),
        line(
            json!({"type": "run_started", "run_id": run, "session_id": id, "task": "Old task",
            "provider": "p"}),
        ),
        line(
            json!({"type": "tool_call_proposed", "run_id": run, "tool_call_id": "c1",
            "tool_name": "write_file", "arguments_json": "{}", "summary": "Write a"}),
        ),
        line(
            json!({"type": "tool_call_finished", "run_id": run, "tool_call_id": "c1",
            "status": "denied", "policy_layer": "tool_default", "output": said_no}),
        ),
        line(json!({"type": "run_finished", "run_id": run, "status": "completed"})),
    ];
    std::fs::write(
        sessions.join(format!("{id}.jsonl")),
        lines.join("\n") + "\n",
    )
    .unwrap();
    let (runtime, events) = app_runtime(&data, &workspace, json!({"turns": []}));
    runtime.open_session(id).unwrap();
    let finished: Vec<_> = events
        .all()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::ToolCallFinished {
                tool_call_id,
                status,
                output,
                not_run,
                wording,
                ..
            } => Some((tool_call_id, status, output, not_run, wording)),
            _ => None,
        })
        .collect();
    assert_eq!(
        finished,
        vec![(
            "c1".to_owned(),
            ToolCallStatus::Denied,
            said_no.to_owned(),
            None,
            None
        )]
    );
    assert!(events.all().iter().any(|e| matches!(
        e,
        AgentEvent::RunFinished {
            status: RunStatus::Completed,
            ..
        }
    )));
    assert_eq!(titles(&runtime.list_sessions())[0].0, "Old task");
}

#[tokio::test]
async fn a_denial_is_logged_with_its_reason_and_replays_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let (runtime, mut events) = app_runtime(&data, &workspace, super::support::write_hello());
    let id = runtime.session_id();
    runtime.start_run("Say hello").unwrap();
    let request = events.approval_required().await;
    let note = Some("Not now".to_owned());
    runtime
        .resolve_approval(request.approval_id, Decision::Deny { note: note.clone() })
        .unwrap();
    events.run_finished().await;
    let reason = |events: Vec<AgentEvent>| {
        events.into_iter().find_map(|e| match e {
            AgentEvent::ToolCallFinished { not_run, .. } => not_run,
            _ => None,
        })
    };
    let expected = Some(NotRun::DeniedByPerson { note });
    assert_eq!(reason(events.all()), expected);
    drop(runtime);
    let (again, replayed) = app_runtime(&data, &workspace, json!({"turns": []}));
    again.open_session(id).unwrap();
    assert_eq!(reason(replayed.all()), expected);
}
