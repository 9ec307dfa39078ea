//! The event history a (re)loading window replays.

use askfirst_core::history::{EventHistory, MAX_EVENTS_PER_ANSWER};
use askfirst_protocol::{AgentEvent, RunId, SequencedEvent, SessionId};
use pretty_assertions::assert_eq;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn said(run_id: RunId, text: &str) -> AgentEvent {
    AgentEvent::AssistantMessage {
        run_id,
        text: text.to_owned(),
    }
}

#[test]
fn opening_a_session_drops_the_earlier_events_and_the_numbers_go_on() {
    let history = EventHistory::new();
    let forwarded = Arc::new(Mutex::new(Vec::new()));
    let to = Arc::clone(&forwarded);
    let sink = history.sink(move |e| to.lock().unwrap().push(e));
    let run_id = RunId::new();
    let session_id = SessionId::new();
    let opened = AgentEvent::SessionOpened {
        session_id,
        title: None,
    };
    sink(said(run_id, "one"));
    sink(said(run_id, "two"));
    assert_eq!(
        history.snapshot(),
        vec![
            SequencedEvent {
                seq: 0,
                event: said(run_id, "one")
            },
            SequencedEvent {
                seq: 1,
                event: said(run_id, "two")
            },
        ]
    );
    sink(opened.clone());
    sink(said(run_id, "three"));
    let latest = vec![
        SequencedEvent {
            seq: 2,
            event: opened,
        },
        SequencedEvent {
            seq: 3,
            event: said(run_id, "three"),
        },
    ];
    assert_eq!(history.snapshot(), latest);
    // The live window got every event, numbered without gaps.
    let seqs: Vec<u64> = forwarded.lock().unwrap().iter().map(|e| e.seq).collect();
    assert_eq!(seqs, vec![0, 1, 2, 3]);
}

fn seqs(events: &[SequencedEvent]) -> Vec<u64> {
    events.iter().map(|e| e.seq).collect()
}

#[tokio::test]
async fn the_window_waits_for_the_events_after_the_last_it_took() {
    let history = EventHistory::new();
    let sink = history.sink(|_| {});
    let run_id = RunId::new();
    sink(said(run_id, "before the window listened"));
    // Where the history ends, at once and without events.
    let (events, next) = history.wait_from(None, Duration::from_secs(60)).await;
    assert_eq!((events, next), (Vec::new(), 1));
    // An event that comes while the window waits is answered at once.
    let waiting = {
        let history = Arc::clone(&history);
        tokio::spawn(async move { history.wait_from(Some(1), Duration::from_secs(60)).await })
    };
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(
        !waiting.is_finished(),
        "answered before there was anything new"
    );
    sink(said(run_id, "one"));
    sink(said(run_id, "two"));
    let (events, next) = tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .expect("the wait ended when the event came")
        .unwrap();
    assert_eq!(next, 1 + events.len() as u64);
    assert_eq!(events[0].event, said(run_id, "one"));
    // What was already there is answered without waiting.
    let (events, next) = history.wait_from(Some(1), Duration::from_secs(60)).await;
    assert_eq!((seqs(&events), next), (vec![1, 2], 3));
}

#[tokio::test(start_paused = true)]
async fn a_wait_with_nothing_new_ends_empty_and_asks_from_the_same_place() {
    let history = EventHistory::new();
    let sink = history.sink(|_| {});
    sink(said(RunId::new(), "one"));
    let (events, next) = history.wait_from(Some(1), Duration::from_secs(20)).await;
    assert_eq!((events, next), (Vec::new(), 1));
}

#[tokio::test]
async fn after_a_new_session_the_answer_starts_at_its_opening_and_a_long_history_comes_in_parts() {
    let history = EventHistory::new();
    let sink = history.sink(|_| {});
    let run_id = RunId::new();
    sink(said(run_id, "old"));
    sink(said(run_id, "old too"));
    let opened = AgentEvent::SessionOpened {
        session_id: SessionId::new(),
        title: None,
    };
    sink(opened.clone());
    // The window had taken the first event only: the old session's rest is gone.
    let (events, next) = history.wait_from(Some(1), Duration::from_secs(60)).await;
    assert_eq!((seqs(&events), next), (vec![2], 3));
    assert_eq!(events[0].event, opened);
    // More than one answer holds: the rest come with the next ones, in order, without gaps.
    let more = MAX_EVENTS_PER_ANSWER + 10;
    for i in 0..more {
        sink(said(run_id, &format!("{i}")));
    }
    let (first, next) = history.wait_from(Some(3), Duration::from_secs(60)).await;
    assert_eq!(first.len(), MAX_EVENTS_PER_ANSWER);
    let (rest, end) = history.wait_from(Some(next), Duration::from_secs(60)).await;
    let all: Vec<u64> = seqs(&first).into_iter().chain(seqs(&rest)).collect();
    assert_eq!(all, (3..3 + more as u64).collect::<Vec<_>>());
    assert_eq!(end, history.end());
    // A number past the end (not from this history) is answered from the end.
    let (events, next) = history
        .wait_from(Some(end + 100), Duration::from_millis(10))
        .await;
    assert_eq!((events, next), (Vec::new(), end));
}
