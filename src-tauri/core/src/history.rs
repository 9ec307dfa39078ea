//! The session's event history: every [`AgentEvent`] of the latest session in order, numbered,
//! so a window that loads (or reloads) after events were emitted can replay what it missed.
//!
//! Numbers count from 0 since the app started, with no gaps. When a session is opened (a new
//! one, or a past one reopened) the events before it are dropped: the window shows only the
//! latest session, and each session's events are in its log on disk. Without this the history
//! would grow for as long as the app runs.
//!
//! The window takes the events from here ([`EventHistory::wait_from`], a long poll) rather than
//! having each delivery evaluated as a script in its page: WebKit kept ~4–6 kB of the page's
//! memory for every script it was handed, and the page grew by ~9 kB per approval
//! (BENCHMARKS.md, "No growth: where the page's memory went").

use crate::sync::MutexExt;
use crate::EventSink;
use askfirst_protocol::{AgentEvent, SequencedEvent};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::watch;

/// The most events one [`EventHistory::wait_from`] answer carries; the rest come with the next.
pub const MAX_EVENTS_PER_ANSWER: usize = 256;

/// Records events in order and passes each on, numbered, to a forwarder.
pub struct EventHistory {
    kept: Mutex<Kept>,
    /// The number the next event will get (sent after each event is recorded), for the waiters.
    end: watch::Sender<u64>,
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
            end: watch::Sender::new(0),
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
            history.end.send_replace(seq + 1);
            forward(SequencedEvent { seq, event });
        })
    }

    /// The number the next event will get: one past the last recorded.
    pub fn end(&self) -> u64 {
        let kept = self.lock();
        kept.first_seq + kept.events.len() as u64
    }

    /// The events numbered `next` and after, in order, at most [`MAX_EVENTS_PER_ANSWER`],
    /// waiting up to `wait` for the first when there is none yet (then none: an empty list).
    /// Returns them with the number to ask from next time. Events of an earlier session are
    /// gone (a `SessionOpened` drops them): the answer then starts at the latest session's
    /// `SessionOpened`, numbered above `next`. `next: None` asks for where the history ends now,
    /// at once and without events: where a window that starts listening takes up.
    pub async fn wait_from(&self, next: Option<u64>, wait: Duration) -> (Vec<SequencedEvent>, u64) {
        let Some(next) = next else {
            return (Vec::new(), self.end());
        };
        let mut end = self.end.subscribe();
        // Timing out is the normal end of a wait with nothing new: an empty answer.
        let _ = tokio::time::timeout(wait, end.wait_for(|end| *end > next)).await;
        let kept = self.lock();
        let end = kept.first_seq + kept.events.len() as u64;
        // A number past the end cannot come from this history; it starts again from the end.
        let from = next.clamp(kept.first_seq, end);
        let start = usize::try_from(from - kept.first_seq).unwrap_or(usize::MAX);
        let events: Vec<SequencedEvent> = kept
            .events
            .iter()
            .skip(start)
            .take(MAX_EVENTS_PER_ANSWER)
            .enumerate()
            .map(|(i, event)| SequencedEvent {
                seq: from + i as u64,
                event: event.clone(),
            })
            .collect();
        let next = from + events.len() as u64;
        (events, next)
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
