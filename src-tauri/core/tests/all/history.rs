//! The event history a (re)loading window replays.

use askfirst_core::history::EventHistory;
use askfirst_protocol::{AgentEvent, RunId, SequencedEvent, SessionId};
use pretty_assertions::assert_eq;
use std::sync::{Arc, Mutex};

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
