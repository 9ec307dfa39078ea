//! The current session's log ([`SessionLog`]): switchable to another session's file, watched
//! for failures, and written through one writer thread in the order things happened; and
//! [`logging_sink`], which records every event there without blocking whoever emits it. The
//! records and the file format are [`crate::audit`]'s.

use crate::audit::{AuditError, AuditRecord, AuditSink, NoAudit};
use crate::sync::MutexExt;
use std::sync::{Arc, Mutex};

/// Called with what went wrong when the session log starts failing, and with `None` when it
/// can be written again.
pub type LogWatcher = Arc<dyn Fn(Option<String>) + Send + Sync>;

/// Whether the log is failing now (what, since when), and who wants to know when that changes.
#[derive(Default)]
struct LogHealth {
    problem: Option<(String, u64)>,
    watcher: Option<LogWatcher>,
}

/// The current session's log, which can be switched to another session's file; everything
/// that writes audit records holds this one. It tells its watcher (see [`SessionLog::watch`])
/// when writing starts failing (a full disk, a read-only folder) and when it works again, so
/// the person can be told: the approvals it cannot record are refused meanwhile.
///
/// Every write goes through one writer thread, in the order it was asked for: a record that
/// must be on file before its outcome takes effect ([`AuditSink::append`]: an approval asked or
/// decided) waits for the writer; an event ([`logging_sink`]) is queued and passed on from the
/// writer once recorded, so emitting never blocks (`EventSink`'s contract) and the file keeps
/// the order things happened in.
pub struct SessionLog {
    inner: Mutex<Arc<dyn AuditSink>>,
    health: Mutex<LogHealth>,
    writer: Mutex<Option<std::sync::mpsc::Sender<Box<Job>>>>,
    writer_thread: std::sync::OnceLock<std::thread::ThreadId>,
}

/// One write for the writer thread: `record` into `sink` (the log current when it was asked
/// for), then `then`.
struct Job {
    sink: Arc<dyn AuditSink>,
    record: Option<AuditRecord>,
    then: Then,
}

/// What the writer does after a write.
enum Then {
    /// Hands the result back to the caller, who waits for it.
    Answer(std::sync::mpsc::SyncSender<Result<(), AuditError>>),
    /// Reports the result to the log's health, then passes the event on.
    Forward(crate::EventSink, Box<askfirst_protocol::AgentEvent>),
}

impl SessionLog {
    /// A log writing to `sink`, with its writer thread (which ends with the log).
    pub fn new(sink: Arc<dyn AuditSink>) -> Arc<Self> {
        let (tx, rx) = std::sync::mpsc::channel::<Box<Job>>();
        let log = Arc::new(Self {
            inner: Mutex::new(sink),
            health: Mutex::new(LogHealth::default()),
            writer: Mutex::new(Some(tx)),
            writer_thread: std::sync::OnceLock::new(),
        });
        let weak = Arc::downgrade(&log);
        let spawned = std::thread::Builder::new()
            .name("askfirst-audit-writer".into())
            .spawn(move || {
                for job in rx {
                    let result = match &job.record {
                        Some(record) => job.sink.append(record),
                        None => Ok(()),
                    };
                    match job.then {
                        Then::Answer(answer) => {
                            let _ = answer.send(result);
                        }
                        Then::Forward(next, event) => {
                            if let Some(log) = weak.upgrade() {
                                if let Err(error) = &result {
                                    eprintln!("askfirst: {error}");
                                }
                                log.report(result.as_ref().err().map(ToString::to_string));
                            }
                            next(*event);
                        }
                    }
                }
            });
        match spawned {
            Ok(thread) => {
                let _ = log.writer_thread.set(thread.thread().id());
            }
            // No thread: every write happens on the caller's thread, as the writer would.
            Err(error) => {
                eprintln!("askfirst: no audit writer thread ({error}); writing in place");
                *log.writer.lock_or_recover() = None;
            }
        }
        log
    }

    /// Queues `job`; gives it back when there is no writer (it then runs in place).
    fn queue(&self, job: Box<Job>) -> Result<(), Box<Job>> {
        if self.writer_thread.get() == Some(&std::thread::current().id()) {
            return Err(job); // the writer itself (a watcher): in place, or it would wait on itself
        }
        match &*self.writer.lock_or_recover() {
            Some(tx) => tx.send(job).map_err(|e| e.0),
            None => Err(job),
        }
    }

    /// Records `event` (see [`logging_sink`]) after everything asked for before it, then passes
    /// it to `next`; returns at once.
    pub fn record_then(
        &self,
        record: Option<AuditRecord>,
        next: crate::EventSink,
        event: askfirst_protocol::AgentEvent,
    ) {
        let job = Box::new(Job {
            sink: self.current(),
            record,
            then: Then::Forward(next, Box::new(event)),
        });
        if let Err(job) = self.queue(job) {
            let result = match &job.record {
                Some(record) => job.sink.append(record),
                None => Ok(()),
            };
            if let Err(error) = &result {
                eprintln!("askfirst: {error}");
            }
            self.report(result.as_ref().err().map(ToString::to_string));
            if let Then::Forward(next, event) = job.then {
                next(*event);
            }
        }
    }

    /// Waits until everything asked for so far is written and its event passed on (before a
    /// session switch, and when the app quits).
    pub fn flush(&self) {
        let (answer, done) = std::sync::mpsc::sync_channel(1);
        let job = Box::new(Job {
            sink: Arc::new(NoAudit),
            record: None,
            then: Then::Answer(answer),
        });
        if self.queue(job).is_ok() {
            let _ = done.recv();
        }
    }

    /// From now on `watcher` is called on every change between "can be written" and "cannot"
    /// (with the error, in plain words). It is called outside every lock of this log, and it
    /// must not write to this log (send to the window instead).
    pub fn watch(&self, watcher: LogWatcher) {
        self.health.lock_or_recover().watcher = Some(watcher);
    }

    /// Records whether writing works (`None`) or what fails; tells the watcher on a change.
    /// When writing works again after failing, an [`AuditRecord::Unrecorded`] marks the gap.
    /// Appends report themselves; call this for a failure found another way (a log that could
    /// not even be opened).
    pub fn report(&self, problem: Option<String>) {
        let (notify, gap) = {
            let mut health = self.health.lock_or_recover();
            if health.problem.is_some() == problem.is_some() {
                return;
            }
            let gap = match problem.clone() {
                Some(text) => {
                    health.problem = Some((text, crate::unix_millis_now()));
                    None
                }
                None => health.problem.take(),
            };
            (health.watcher.clone(), gap)
        };
        if let Some((problem, since)) = gap {
            // Best effort, straight to the file: this is the first write that works again.
            let _ = self.current().append(&AuditRecord::Unrecorded {
                since,
                problem,
                at: crate::unix_millis_now(),
            });
        }
        if let Some(watcher) = notify {
            watcher(problem);
        }
    }

    /// What fails when the log cannot be written now; `None` when it can.
    pub fn problem(&self) -> Option<String> {
        self.health
            .lock_or_recover()
            .problem
            .as_ref()
            .map(|(text, _)| text.clone())
    }

    /// From now on, writes go to `sink`.
    pub fn switch(&self, sink: Arc<dyn AuditSink>) {
        *self.inner.lock_or_recover() = sink;
    }

    fn current(&self) -> Arc<dyn AuditSink> {
        Arc::clone(&self.inner.lock_or_recover())
    }
}

impl AuditSink for SessionLog {
    /// Writes `record` through the writer thread and waits until it is written (and synced,
    /// for a decision): the caller acts on it only then.
    fn append(&self, record: &AuditRecord) -> Result<(), AuditError> {
        let (answer, done) = std::sync::mpsc::sync_channel(1);
        let job = Box::new(Job {
            sink: self.current(),
            record: Some(record.clone()),
            then: Then::Answer(answer),
        });
        let result = match self.queue(job) {
            Ok(()) => match done.recv() {
                Ok(result) => result,
                // The writer is gone (it panicked): write in place.
                Err(_) => self.current().append(record),
            },
            Err(job) => job.sink.append(record),
        };
        self.report(result.as_ref().err().map(ToString::to_string));
        result
    }
}

/// A sink that records every event in the session log (streamed text pieces excepted, the
/// whole text follows in `AssistantMessage`; and the log's own status) and then passes it on to
/// `next`. It never blocks: the record is written by the log's writer thread
/// ([`SessionLog`]), which passes the event on once it is recorded, in the order emitted.
pub fn logging_sink(log: Arc<SessionLog>, next: crate::EventSink) -> crate::EventSink {
    Arc::new(move |event: askfirst_protocol::AgentEvent| {
        let record = (!matches!(
            event,
            askfirst_protocol::AgentEvent::AssistantDelta { .. }
                | askfirst_protocol::AgentEvent::LogStatus { .. }
        ))
        .then(|| AuditRecord::Event {
            event: event.clone(),
            at: crate::unix_millis_now(),
        });
        log.record_then(record, Arc::clone(&next), event);
    })
}
