//! The session's event history: every [`AgentEvent`] of the latest session in order, numbered,
//! so a window that loads (or reloads) after events were emitted can replay what it missed.
//!
//! Numbers count from 0 since the app started, with no gaps. When a session is opened (a new
//! one, or a past one reopened) the events before it are dropped: the window shows only the
//! latest session, and each session's events are in its log on disk. Without this the history
//! would grow for as long as the app runs.
//!
//! Each event is kept as its [`SequencedEvent`] JSON, encoded once when it is recorded, so an
//! answer is a copy. Only the newest events (about [`HELD_BYTES`] of JSON) stay in memory; the
//! older ones are in a spool, an unnamed temporary file in the data folder, and are read back
//! only when a window (re)loads or falls behind; what stays in memory of an older event is 4
//! bytes of index (`Evicted`). Held in memory, the events were ~5 kB per approval
//! (BENCHMARKS.md, "No growth"). An event the spool cannot take (a full disk) stays in memory:
//! it costs memory, and nothing is lost.
//!
//! The window takes the events from here ([`EventHistory::wait_from`], a long poll) rather than
//! having each delivery evaluated as a script in its page: WebKit kept ~4–6 kB of the page's
//! memory for every script it was handed, and the page grew by ~9 kB per approval
//! (BENCHMARKS.md, "No growth: where the page's memory went").

use crate::sync::MutexExt;
use crate::EventSink;
use askfirst_protocol::{AgentEvent, RunEventsPage, SequencedEvent};
use serde_json::value::RawValue;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::watch;

/// The most events one [`EventHistory::wait_from`] answer carries; the rest come with the next.
pub const MAX_EVENTS_PER_ANSWER: usize = 256;

/// About the most bytes of JSON one [`EventHistory::wait_from`] answer carries (a single larger
/// event goes alone), so that a burst of big cards does not make one huge answer.
pub const MAX_BYTES_PER_ANSWER: usize = 1 << 20;

/// About how many bytes of event JSON the app holds in memory (the newest events) when it has a
/// spool; the rest are read back from the spool. 256 KiB is about a hundred approvals: a
/// window keeping up (it asks again within milliseconds) never reads the disk.
pub const HELD_BYTES: usize = 256 << 10;

/// The history could not give back events it recorded: the spool could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    /// Reading the spool failed; the text says why (the OS's words).
    #[error("the event history's spool could not be read: {0}")]
    Unreadable(String),
}

/// Records events in order and passes each on, numbered, to a forwarder.
pub struct EventHistory {
    kept: Mutex<Kept>,
    /// The number the next event will get (sent after each event is recorded), for the waiters.
    end: watch::Sender<u64>,
}

/// The events kept: those from the latest `SessionOpened` on (or all, before the first). The
/// oldest are `evicted` (in the spool only, at ~4 bytes of index each), the newest `held`.
struct Kept {
    /// The number of the first event kept.
    first_seq: u64,
    /// Events `0..evicted.count` (counted from `first_seq`): no longer held, but for those the
    /// spool could not take.
    evicted: Evicted,
    /// The events after the evicted ones, newest last, in memory.
    held: VecDeque<Held>,
    /// Bytes of JSON in `held`.
    held_bytes: usize,
    /// How many bytes may be held before the oldest held events go to the spool only.
    held_limit: usize,
    spool: Option<Spool>,
}

/// One event's JSON in memory; `spooled` says where it also is in the spool (`None`: it is not
/// there, the spool could not take it).
struct Held {
    json: Box<RawValue>,
    spooled: Option<Span>,
}

/// How often [`Evicted`] notes a spool offset: every this many spooled events.
const CHECKPOINT_EVERY: usize = 64;

/// Where the evicted events are. Events are spooled one after another in the order they are
/// recorded, and evicted in that order, so the evicted events the spool took are the start of
/// the spool: `lengths` gives each one's length and `checkpoints` every
/// [`CHECKPOINT_EVERY`]th one's offset, and an offset is a checkpoint plus the lengths after it.
/// That is 4 bytes per event (the session's whole history otherwise grew the app's memory by
/// ~40 bytes per event, ~0.2 kB per approval: BENCHMARKS.md, "The app process").
#[derive(Default)]
struct Evicted {
    /// How many events are evicted.
    count: usize,
    /// The length of each evicted event in the spool, in spool order.
    lengths: Vec<u32>,
    /// The spool offset of `lengths[k * CHECKPOINT_EVERY]`, for each `k`.
    checkpoints: Vec<u64>,
    /// The evicted events the spool could not take (a full disk), with their indexes, in
    /// order: they stay in memory, so nothing is lost. Usually empty; found by binary search,
    /// so a long stretch of full disk does not slow every later lookup.
    stuck: Vec<(usize, Box<RawValue>)>,
    /// Bytes of JSON in `stuck`.
    stuck_bytes: usize,
}

impl Evicted {
    /// Adds the next evicted event.
    fn push(&mut self, held: Held) {
        match held.spooled {
            Some(span) => {
                if self.lengths.len().is_multiple_of(CHECKPOINT_EVERY) {
                    self.checkpoints.push(span.offset);
                }
                self.lengths.push(span.len);
            }
            None => {
                self.stuck_bytes += held.json.get().len();
                self.stuck.push((self.count, held.json));
            }
        }
        self.count += 1;
    }

    /// Where evicted event `index` (below `count`) is.
    fn place(&self, index: usize) -> Place<'_> {
        // How many stuck events come before `index`; then whether `index` is the next one.
        let stuck_before = self.stuck.partition_point(|(stuck, _)| *stuck < index);
        if let Some((stuck, json)) = self.stuck.get(stuck_before) {
            if *stuck == index {
                return Place::Memory(json);
            }
        }
        let ordinal = index - stuck_before;
        let from = ordinal - ordinal % CHECKPOINT_EVERY;
        let offset = self.checkpoints[ordinal / CHECKPOINT_EVERY]
            + self.lengths[from..ordinal]
                .iter()
                .map(|&len| u64::from(len))
                .sum::<u64>();
        Place::Spool(Span {
            offset,
            len: self.lengths[ordinal],
        })
    }
}

/// Where an evicted event is: in memory (the spool could not take it) or in the spool.
enum Place<'a> {
    Memory(&'a RawValue),
    Spool(Span),
}

/// Where an event's JSON is in the spool: `len` bytes from byte `offset`.
#[derive(Debug, Clone, Copy)]
struct Span {
    offset: u64,
    len: u32,
}

/// The spool file and how much of it is in use (events are written one after another).
struct Spool {
    file: File,
    len: u64,
}

impl Spool {
    /// Writes `json` after the events already there; `None` if it cannot (the disk is full,
    /// the event is over 4 GiB). A write that fails part way is written over by the next.
    fn append(&mut self, json: &str) -> Option<Span> {
        let len = u32::try_from(json.len()).ok()?;
        let written = self
            .file
            .seek(SeekFrom::Start(self.len))
            .and_then(|_| self.file.write_all(json.as_bytes()));
        match written {
            Ok(()) => {
                let span = Span {
                    offset: self.len,
                    len,
                };
                self.len += u64::from(len);
                Some(span)
            }
            Err(error) => {
                eprintln!("askfirst: an event stays in memory, the spool cannot take it: {error}");
                None
            }
        }
    }

    fn read(&mut self, span: Span) -> Result<Box<RawValue>, HistoryError> {
        let mut bytes = vec![0; span.len as usize];
        self.file
            .seek(SeekFrom::Start(span.offset))
            .and_then(|_| self.file.read_exact(&mut bytes))
            .map_err(|error| HistoryError::Unreadable(error.to_string()))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| HistoryError::Unreadable("an event is not text".into()))?;
        RawValue::from_string(text).map_err(|error| HistoryError::Unreadable(error.to_string()))
    }

    /// Empties the spool (its disk space goes back); the next event is written at the start.
    fn clear(&mut self) {
        self.len = 0;
        if let Err(error) = self.file.set_len(0) {
            eprintln!("askfirst: the event spool could not be emptied: {error}");
        }
    }
}

impl Kept {
    fn len(&self) -> usize {
        self.evicted.count + self.held.len()
    }

    fn end(&self) -> u64 {
        self.first_seq + self.len() as u64
    }

    /// Drops every event (a session was opened); numbers go on from `first_seq`.
    fn restart(&mut self, first_seq: u64) {
        self.first_seq = first_seq;
        // Fresh collections, so the old session's capacity goes back too.
        self.evicted = Evicted::default();
        self.held = VecDeque::new();
        self.held_bytes = 0;
        if let Some(spool) = &mut self.spool {
            spool.clear();
        }
    }

    fn push(&mut self, json: Box<RawValue>) {
        let spooled = self
            .spool
            .as_mut()
            .and_then(|spool| spool.append(json.get()));
        self.held_bytes += json.get().len();
        self.held.push_back(Held { json, spooled });
        // The newest event stays held, whatever its size. Without a spool nothing is evicted
        // (it would only move into `stuck`).
        while self.spool.is_some() && self.held_bytes > self.held_limit && self.held.len() > 1 {
            let Some(oldest) = self.held.pop_front() else {
                break;
            };
            self.held_bytes -= oldest.json.get().len();
            self.evicted.push(oldest);
        }
    }

    fn json(&mut self, index: usize) -> Result<Box<RawValue>, HistoryError> {
        if let Some(held) = index
            .checked_sub(self.evicted.count)
            .and_then(|at| self.held.get(at))
        {
            return Ok(held.json.clone());
        }
        match self.evicted.place(index) {
            Place::Memory(json) => Ok(json.to_owned()),
            Place::Spool(span) => match &mut self.spool {
                Some(spool) => spool.read(span),
                None => Err(HistoryError::Unreadable("there is no spool".into())),
            },
        }
    }
}

impl EventHistory {
    /// An empty history that holds every event in memory (for tests, and when no spool can be
    /// made).
    pub fn new() -> Arc<Self> {
        Self::with(None, usize::MAX)
    }

    /// An empty history that holds about `held_limit` bytes of the newest events' JSON in
    /// memory and the rest in `spool`: a file open for reading and writing that nothing else
    /// uses (the app gives it an unnamed temporary file in its data folder; its contents are
    /// replaced).
    pub fn spooled(spool: File, held_limit: usize) -> Arc<Self> {
        Self::with(
            Some(Spool {
                file: spool,
                len: 0,
            }),
            held_limit,
        )
    }

    fn with(mut spool: Option<Spool>, held_limit: usize) -> Arc<Self> {
        if let Some(spool) = &mut spool {
            spool.clear();
        }
        Arc::new(Self {
            kept: Mutex::new(Kept {
                first_seq: 0,
                evicted: Evicted::default(),
                held: VecDeque::new(),
                held_bytes: 0,
                held_limit,
                spool,
            }),
            end: watch::Sender::new(0),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        // Each critical section is one push (with its spool write and evictions, each leaving
        // the events whole) or reads: a panic cannot leave it half-done.
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
            let seq = kept.end();
            let opens = matches!(event, AgentEvent::SessionOpened { .. });
            let sequenced = SequencedEvent { seq, event };
            let json = match serde_json::value::to_raw_value(&sequenced) {
                Ok(json) => json,
                Err(error) => {
                    // Plain data with string keys always encodes; an event that did not could
                    // not reach the window by any way (the IPC encodes the same), so it is
                    // not numbered either.
                    eprintln!(
                        "askfirst: an event could not be encoded, so it is not shown: {error}"
                    );
                    return;
                }
            };
            if opens {
                kept.restart(seq);
            }
            kept.push(json);
            history.end.send_replace(seq + 1);
            forward(sequenced);
        })
    }

    /// The number the next event will get: one past the last recorded.
    pub fn end(&self) -> u64 {
        self.lock().end()
    }

    /// Bytes of event JSON held in memory now (the rest is in the spool): about
    /// [`HELD_BYTES`] at most with a spool, unless the spool could not take some events.
    pub fn held_bytes(&self) -> usize {
        let kept = self.lock();
        kept.held_bytes + kept.evicted.stuck_bytes
    }

    /// The events numbered `next` and after, in order, each as its [`SequencedEvent`] JSON, at
    /// most [`MAX_EVENTS_PER_ANSWER`] and about [`MAX_BYTES_PER_ANSWER`], waiting up to `wait`
    /// for the first when there is none yet (then none: an empty list); with the number to ask
    /// from next time. Events of an earlier session are gone (a `SessionOpened` drops them): the
    /// answer then starts at the latest session's `SessionOpened`, numbered above `next`.
    /// `next: None` asks for where the history ends now, at once and without events: where a
    /// window that starts listening takes up.
    ///
    /// # Errors
    /// [`HistoryError::Unreadable`] when an event has to be read back from the spool and cannot.
    pub async fn wait_from(
        &self,
        next: Option<u64>,
        wait: Duration,
    ) -> Result<RunEventsPage, HistoryError> {
        let Some(next) = next else {
            return Ok(RunEventsPage {
                events: Vec::new(),
                next: self.end(),
            });
        };
        let mut end = self.end.subscribe();
        // Timing out is the normal end of a wait with nothing new: an empty answer.
        let _ = tokio::time::timeout(wait, end.wait_for(|end| *end > next)).await;
        let mut kept = self.lock();
        // A number past the end cannot come from this history; it starts again from the end.
        let from = next.clamp(kept.first_seq, kept.end());
        let start = usize::try_from(from - kept.first_seq).unwrap_or(usize::MAX);
        let mut events = Vec::new();
        let mut bytes = 0;
        for index in start..kept.len() {
            if events.len() == MAX_EVENTS_PER_ANSWER {
                break;
            }
            let json = kept.json(index)?;
            if !events.is_empty() && bytes + json.get().len() > MAX_BYTES_PER_ANSWER {
                break;
            }
            bytes += json.get().len();
            events.push(json);
        }
        let next = from + events.len() as u64;
        Ok(RunEventsPage { events, next })
    }

    /// The events of the latest session, each as its [`SequencedEvent`] JSON, numbered as they
    /// were sent: the first is that session's `SessionOpened` (numbered from where the earlier
    /// sessions ended), or, before any session was opened, the first event (number 0).
    ///
    /// # Errors
    /// [`HistoryError::Unreadable`] when an event has to be read back from the spool and cannot.
    pub fn snapshot(&self) -> Result<Vec<Box<RawValue>>, HistoryError> {
        let mut kept = self.lock();
        (0..kept.len()).map(|index| kept.json(index)).collect()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Evicted events, some the spool took and some it could not, across several checkpoints:
    /// each is found where it was put.
    #[test]
    fn evicted_events_are_found_across_checkpoints_and_stuck_ones() {
        let mut evicted = Evicted::default();
        let mut offset = 0;
        let mut expected = Vec::new();
        for index in 0..500usize {
            let json =
                RawValue::from_string(format!("[{index}{}]", " ".repeat(index % 7))).unwrap();
            if index % 37 == 5 || (100..104).contains(&index) {
                expected.push(Ok(json.get().to_owned()));
                evicted.push(Held {
                    json,
                    spooled: None,
                });
            } else {
                let len = u32::try_from(json.get().len()).unwrap();
                expected.push(Err((offset, len)));
                evicted.push(Held {
                    json,
                    spooled: Some(Span { offset, len }),
                });
                offset += u64::from(len);
            }
        }
        assert_eq!(evicted.count, 500);
        for (index, expected) in expected.into_iter().enumerate() {
            let found = match evicted.place(index) {
                Place::Memory(json) => Ok(json.get().to_owned()),
                Place::Spool(span) => Err((span.offset, span.len)),
            };
            assert_eq!(found, expected, "event {index}");
        }
    }
}
