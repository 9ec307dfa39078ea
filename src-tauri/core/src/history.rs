//! The session's event history: every [`AgentEvent`] of the latest session in order, numbered,
//! so a window that loads (or reloads) after events were emitted can replay what it missed.
//!
//! Numbers count from 0 since the app started, with no gaps. When a session is opened (a new
//! one, or a past one reopened) the events before it are dropped: the window shows only the
//! latest session, and each session's events are in its log on disk. Without this the history
//! would grow for as long as the app runs.

use crate::sync::MutexExt;
use crate::EventSink;
use askfirst_protocol::{AgentEvent, SequencedEvent};
use std::sync::{Arc, Mutex, MutexGuard};

/// Records events in order and passes each on, numbered, to a forwarder.
pub struct EventHistory {
    kept: Mutex<Kept>,
}

/// The events kept: those from the latest `SessionOpened` on (or all, before the first).
struct Kept {
    /// The number of `events[0]`.
    first_seq: u64,
    events: Vec<AgentEvent>,
}

impl EventHistory {
    /// An empty history.
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            kept: Mutex::new(Kept {
                first_seq: 0,
                events: Vec::new(),
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        // Each critical section is one push (after a clear) or one clone: a panic cannot leave
        // it half-done.
        self.kept.lock_or_recover()
    }

    /// A sink that records each event and then calls `forward` with it, numbered. Recording
    /// and forwarding happen under one lock, so forwarded events are in `seq` order even when
    /// several threads emit at once; `forward` must therefore not block (an unbounded channel
    /// send is right). A `SessionOpened` drops the events recorded before it.
    pub fn sink(
        self: &Arc<Self>,
        forward: impl Fn(SequencedEvent) + Send + Sync + 'static,
    ) -> EventSink {
        let history = Arc::clone(self);
        Arc::new(move |event: AgentEvent| {
            let mut kept = history.lock();
            let seq = kept.first_seq + kept.events.len() as u64;
            if matches!(event, AgentEvent::SessionOpened { .. }) {
                kept.first_seq = seq;
                // A fresh vector, so the old session's capacity goes back too.
                kept.events = Vec::new();
            }
            kept.events.push(event.clone());
            forward(SequencedEvent { seq, event });
        })
    }

    /// The events of the latest session, numbered as they were sent: the first is that
    /// session's `SessionOpened` (numbered from where the earlier sessions ended), or, before
    /// any session was opened, the first event (number 0).
    pub fn snapshot(&self) -> Vec<SequencedEvent> {
        let kept = self.lock();
        kept.events
            .iter()
            .enumerate()
            .map(|(i, event)| SequencedEvent {
                seq: kept.first_seq + i as u64,
                event: event.clone(),
            })
            .collect()
    }
}
