//! The event history a (re)loading window replays, held in memory or mostly in its spool.

use askfirst_core::history::{EventHistory, HistoryError, MAX_EVENTS_PER_ANSWER};
use askfirst_protocol::{AgentEvent, RunId, SequencedEvent, SessionId};
use pretty_assertions::assert_eq;
use serde_json::value::RawValue;
use std::io::{Read, Seek, SeekFrom};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn said(run_id: RunId, text: &str) -> AgentEvent {
    AgentEvent::AssistantMessage {
        run_id,
        text: text.to_owned(),
    }
}

/// The events as the window reads them.
fn decode(events: Vec<Box<RawValue>>) -> Vec<SequencedEvent> {
    events
        .iter()
        .map(|json| serde_json::from_str(json.get()).unwrap())
        .collect()
}

fn snapshot(history: &EventHistory) -> Vec<SequencedEvent> {
    decode(history.snapshot().unwrap())
}

async fn wait(
    history: &EventHistory,
    next: Option<u64>,
    wait: Duration,
) -> (Vec<SequencedEvent>, u64) {
    let page = history.wait_from(next, wait).await.unwrap();
    (decode(page.events), page.next)
}

/// A history that holds everything in memory, and one that holds about 100 bytes of the
/// newest events and spools the rest: every behaviour is the same.
fn histories() -> Vec<Arc<EventHistory>> {
    vec![
        EventHistory::new(),
        EventHistory::spooled(tempfile::tempfile().unwrap(), 100),
    ]
}

#[test]
fn opening_a_session_drops_the_earlier_events_and_the_numbers_go_on() {
    for history in histories() {
        opening_a_session_drops(&history);
    }
}

fn opening_a_session_drops(history: &Arc<EventHistory>) {
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
        snapshot(history),
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
    assert_eq!(snapshot(history), latest);
    // The live window got every event, numbered without gaps.
    let seqs: Vec<u64> = forwarded.lock().unwrap().iter().map(|e| e.seq).collect();
    assert_eq!(seqs, vec![0, 1, 2, 3]);
}

fn seqs(events: &[SequencedEvent]) -> Vec<u64> {
    events.iter().map(|e| e.seq).collect()
}

#[tokio::test]
async fn the_window_waits_for_the_events_after_the_last_it_took() {
    for history in histories() {
        waits_for_the_events_after(history).await;
    }
}

async fn waits_for_the_events_after(history: Arc<EventHistory>) {
    let sink = history.sink(|_| {});
    let run_id = RunId::new();
    sink(said(run_id, "before the window listened"));
    // Where the history ends, at once and without events.
    let (events, next) = wait(&history, None, Duration::from_secs(60)).await;
    assert_eq!((events, next), (Vec::new(), 1));
    // An event that comes while the window waits is answered at once.
    let waiting = {
        let history = Arc::clone(&history);
        tokio::spawn(async move { wait(&history, Some(1), Duration::from_secs(60)).await })
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
    let (events, next) = wait(&history, Some(1), Duration::from_secs(60)).await;
    assert_eq!((seqs(&events), next), (vec![1, 2], 3));
}

#[tokio::test(start_paused = true)]
async fn a_wait_with_nothing_new_ends_empty_and_asks_from_the_same_place() {
    for history in histories() {
        waits_with_nothing_new(&history).await;
    }
}

async fn waits_with_nothing_new(history: &Arc<EventHistory>) {
    let sink = history.sink(|_| {});
    sink(said(RunId::new(), "one"));
    let (events, next) = wait(history, Some(1), Duration::from_secs(20)).await;
    assert_eq!((events, next), (Vec::new(), 1));
}

#[tokio::test]
async fn after_a_new_session_the_answer_starts_at_its_opening_and_a_long_history_comes_in_parts() {
    for history in histories() {
        starts_at_the_opening(&history).await;
    }
}

async fn starts_at_the_opening(history: &Arc<EventHistory>) {
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
    let (events, next) = wait(history, Some(1), Duration::from_secs(60)).await;
    assert_eq!((seqs(&events), next), (vec![2], 3));
    assert_eq!(events[0].event, opened);
    // More than one answer holds: the rest come with the next ones, in order, without gaps.
    let more = MAX_EVENTS_PER_ANSWER + 10;
    for i in 0..more {
        sink(said(run_id, &format!("{i}")));
    }
    let (first, next) = wait(history, Some(3), Duration::from_secs(60)).await;
    assert_eq!(first.len(), MAX_EVENTS_PER_ANSWER);
    let (rest, end) = wait(history, Some(next), Duration::from_secs(60)).await;
    let all: Vec<u64> = seqs(&first).into_iter().chain(seqs(&rest)).collect();
    assert_eq!(all, (3..3 + more as u64).collect::<Vec<_>>());
    assert_eq!(end, history.end());
    // A number past the end (not from this history) is answered from the end.
    let (events, next) = wait(history, Some(end + 100), Duration::from_millis(10)).await;
    assert_eq!((events, next), (Vec::new(), end));
}

#[tokio::test]
async fn a_spooled_history_holds_only_the_newest_events_and_gives_back_every_one() {
    let spool = tempfile::tempfile().unwrap();
    let mut reader = spool.try_clone().unwrap();
    let history = EventHistory::spooled(spool, 2_000);
    let sink = history.sink(|_| {});
    let run_id = RunId::new();
    let sent: Vec<AgentEvent> = (0..500)
        .map(|i| said(run_id, &format!("event {i} {}", "x".repeat(i % 50))))
        .collect();
    for event in &sent {
        sink(event.clone());
        assert!(
            history.held_bytes() <= 2_000 + 200,
            "{}",
            history.held_bytes()
        );
    }
    // Everything is in the spool, and every event comes back, in order, from both ways in.
    let mut bytes = Vec::new();
    reader.seek(SeekFrom::Start(0)).unwrap();
    reader.read_to_end(&mut bytes).unwrap();
    assert!(bytes.len() > 500 * 60, "{} bytes spooled", bytes.len());
    let events: Vec<AgentEvent> = snapshot(&history).into_iter().map(|e| e.event).collect();
    assert_eq!(events, sent);
    let mut next = Some(0);
    let mut waited = Vec::new();
    while let Some(from) = next.filter(|&n| n < history.end()) {
        let (events, after) = wait(&history, Some(from), Duration::from_secs(1)).await;
        waited.extend(events);
        next = Some(after);
    }
    assert_eq!(seqs(&waited), (0..500).collect::<Vec<_>>());
    // A new session empties the spool.
    sink(AgentEvent::SessionOpened {
        session_id: SessionId::new(),
        title: None,
    });
    let len = reader.metadata().unwrap().len();
    assert!(len < 200, "the spool kept {len} bytes");
    assert_eq!(seqs(&snapshot(&history)), vec![500]);
}

#[test]
fn events_the_spool_cannot_take_stay_in_memory() {
    // A file open for reading only: every write fails, as on a full disk.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spool");
    std::fs::write(&path, "").unwrap();
    let history = EventHistory::spooled(std::fs::File::open(&path).unwrap(), 100);
    let sink = history.sink(|_| {});
    let run_id = RunId::new();
    let sent: Vec<AgentEvent> = (0..50).map(|i| said(run_id, &format!("{i}"))).collect();
    for event in &sent {
        sink(event.clone());
    }
    assert!(history.held_bytes() > 50 * 60, "{}", history.held_bytes());
    let events: Vec<AgentEvent> = snapshot(&history).into_iter().map(|e| e.event).collect();
    assert_eq!(events, sent);
}

#[tokio::test]
async fn a_spool_that_cannot_be_read_back_is_a_typed_error() {
    // A file open for writing only: the events go in, and cannot come back.
    let dir = tempfile::tempdir().unwrap();
    let spool = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(dir.path().join("spool"))
        .unwrap();
    let history = EventHistory::spooled(spool, 100);
    let sink = history.sink(|_| {});
    let run_id = RunId::new();
    for i in 0..20 {
        sink(said(run_id, &format!("{i}")));
    }
    assert!(matches!(
        history.snapshot(),
        Err(HistoryError::Unreadable(_))
    ));
    assert!(matches!(
        history.wait_from(Some(0), Duration::from_millis(10)).await,
        Err(HistoryError::Unreadable(_))
    ));
    // The newest is held, and a window that keeps up still gets it.
    let (events, next) = wait(&history, Some(19), Duration::from_millis(10)).await;
    assert_eq!((seqs(&events), next), (vec![19], 20));
    assert_eq!(events[0].event, said(run_id, "19"));
}
