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
//! only when a window (re)loads or falls behind. So the app's memory stays flat however long
//! the session: held in memory, the events were ~5 kB per approval (BENCHMARKS.md, "No
//! growth"). An event the spool cannot take (a full disk) stays in memory: it costs memory,
//! and nothing is lost.
//!
//! The window takes the events from here ([`EventHistory::wait_from`], a long poll) rather than
//! having each delivery evaluated as a script in its page: WebKit kept ~4–6 kB of the page's
//! memory for every script it was handed, and the page grew by ~9 kB per approval
//! (BENCHMARKS.md, "No growth: where the page's memory went").

use crate::sync::MutexExt;
use crate::EventSink;
use askfirst_protocol::{AgentEvent, RunEventsPage, SequencedEvent};
use serde_json::value::RawValue;
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

/// The events kept: those from the latest `SessionOpened` on (or all, before the first).
struct Kept {
    /// The number of `entries[0]`.
    first_seq: u64,
    entries: Vec<Entry>,
    /// Bytes of JSON in [`Entry::Held`] entries.
    held: usize,
    /// How many bytes may be held before the oldest held entries go to the spool only.
    held_limit: usize,
    /// Entries before this index are spooled only, or could not be spooled and stay held.
    evict_from: usize,
    spool: Option<Spool>,
}

/// One event's JSON, in memory or in the spool.
enum Entry {
    /// In memory; `spooled` says where it also is in the spool (`None`: it is not there).
    Held {
        json: Box<RawValue>,
        spooled: Option<Span>,
    },
    /// Only in the spool.
    Spooled(Span),
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
    fn end(&self) -> u64 {
        self.first_seq + self.entries.len() as u64
    }

    /// Drops every event (a session was opened); numbers go on from `first_seq`.
    fn restart(&mut self, first_seq: u64) {
        self.first_seq = first_seq;
        // A fresh vector, so the old session's capacity goes back too.
        self.entries = Vec::new();
        self.held = 0;
        self.evict_from = 0;
        if let Some(spool) = &mut self.spool {
            spool.clear();
        }
    }

    fn push(&mut self, json: Box<RawValue>) {
        let spooled = self
            .spool
            .as_mut()
            .and_then(|spool| spool.append(json.get()));
        self.held += json.get().len();
        self.entries.push(Entry::Held { json, spooled });
        // The newest event stays held, whatever its size.
        while self.held > self.held_limit && self.evict_from + 1 < self.entries.len() {
            let entry = &mut self.entries[self.evict_from];
            self.evict_from += 1;
            if let Entry::Held {
                json,
                spooled: Some(span),
            } = entry
            {
                self.held -= json.get().len();
                *entry = Entry::Spooled(*span);
            }
        }
    }

    fn json(&mut self, index: usize) -> Result<Box<RawValue>, HistoryError> {
        match &self.entries[index] {
            Entry::Held { json, .. } => Ok(json.clone()),
            &Entry::Spooled(span) => match &mut self.spool {
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
                entries: Vec::new(),
                held: 0,
                held_limit,
                evict_from: 0,
                spool,
            }),
            end: watch::Sender::new(0),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        // Each critical section is one push (with its spool write and evictions, each leaving
        // the entries whole) or reads: a panic cannot leave it half-done.
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
        self.lock().held
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
        for index in start..kept.entries.len() {
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
        (0..kept.entries.len())
            .map(|index| kept.json(index))
            .collect()
    }
}
