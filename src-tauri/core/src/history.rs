//! The session's event history: every [`AgentEvent`] in order, numbered from 0, so a window
//! that loads (or reloads) after events were emitted can replay what it missed.

use crate::EventSink;
use askfirst_protocol::{AgentEvent, SequencedEvent};
use std::sync::{Arc, Mutex, MutexGuard};

/// Records events in order and passes each on, numbered, to a forwarder.
pub struct EventHistory {
    events: Mutex<Vec<AgentEvent>>,
}

impl EventHistory {
    /// An empty history.
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            events: Mutex::new(Vec::new()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Vec<AgentEvent>> {
        // Each critical section is one push or one clone: a panic cannot leave it half-done.
        self.events
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A sink that records each event and then calls `forward` with it, numbered. Recording
    /// and forwarding happen under one lock, so forwarded events are in `seq` order even when
    /// several threads emit at once; `forward` must therefore not block (an unbounded channel
    /// send is right).
    pub fn sink(
        self: &Arc<Self>,
        forward: impl Fn(SequencedEvent) + Send + Sync + 'static,
    ) -> EventSink {
        let history = Arc::clone(self);
        Arc::new(move |event: AgentEvent| {
            let mut events = history.lock();
            let seq = events.len() as u64;
            events.push(event.clone());
            forward(SequencedEvent { seq, event });
        })
    }

    /// Every event so far, numbered.
    pub fn snapshot(&self) -> Vec<SequencedEvent> {
        self.lock()
            .iter()
            .enumerate()
            .map(|(i, event)| SequencedEvent {
                seq: i as u64,
                event: event.clone(),
            })
            .collect()
    }
}
