//! The JSONL audit log: records survive, torn lines are skipped, orphans are closed.

use askfirst_core::audit::{read_log, recover_orphans, AuditRecord, AuditSink, JsonlLog};
use askfirst_protocol::{ApprovalId, CancelCause, Outcome, PolicyLayer, Risk, RunId};
use pretty_assertions::assert_eq;
use std::io::Write;

fn asked(id: ApprovalId, run: RunId) -> AuditRecord {
    AuditRecord::ApprovalAsked {
        approval_id: id,
        run_id: run,
        tool_call_id: "call_1".into(),
        tool_name: "write_file".into(),
        arguments_json: "{\"path\":\"a\"}".into(),
        arguments_sha256: "00".into(),
        summary: "Create a".into(),
        risk: Risk::Medium,
        reason: "r".into(),
        policy_layer: PolicyLayer::ToolDefault,
        effects: Vec::new(),
        at: 1,
        expires_at: 2,
    }
}

#[test]
fn a_torn_last_line_is_skipped_and_nothing_before_it_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sessions/s.jsonl");
    let log = JsonlLog::open(&path).unwrap();
    let (a, run) = (ApprovalId::new(), RunId::new());
    log.append(&asked(a, run)).unwrap();
    drop(log);
    // The app dies halfway through writing the next record.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all(b"{\"type\":\"approval_decided\",\"appro")
        .unwrap();
    drop(file);

    let contents = read_log(&path).unwrap();
    assert_eq!(contents.records.len(), 1);
    assert_eq!(contents.warnings.len(), 1);
    assert!(
        contents.warnings[0].contains("line 2"),
        "{:?}",
        contents.warnings
    );

    // Recovery closes the orphan on a line of its own; the torn line stays skipped.
    let (closed, _) = recover_orphans(path.parent().unwrap()).unwrap();
    assert_eq!(closed, 1);
    let contents = read_log(&path).unwrap();
    let records: Vec<AuditRecord> = contents
        .records
        .into_iter()
        .map(|r| serde_json::from_value(r).unwrap())
        .collect();
    assert_eq!(records[0], asked(a, run));
    assert!(matches!(
        &records[1],
        AuditRecord::ApprovalDecided { approval_id, outcome: Outcome::Cancelled { cause: CancelCause::AppShutdown }, .. }
            if *approval_id == a
    ));
    // A second recovery finds nothing left to close.
    assert_eq!(recover_orphans(path.parent().unwrap()).unwrap().0, 0);
}

#[test]
fn a_missing_sessions_folder_is_fine() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(recover_orphans(&dir.path().join("nope")).unwrap().0, 0);
}

#[cfg(unix)]
#[test]
fn a_read_only_folder_is_a_clear_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root ignores permissions; only check when they apply.
    if std::fs::write(ro.join("probe"), b"x").is_err() {
        assert!(JsonlLog::open(&ro.join("s.jsonl")).is_err());
    }
}

#[test]
fn only_one_app_at_a_time_holds_a_data_folder_and_a_kill_frees_it() {
    let dir = tempfile::tempdir().unwrap();
    let first = askfirst_core::audit::lock_data_dir(dir.path()).unwrap();
    assert!(first.is_some());
    // A second launch finds it taken, so it leaves the first one's waiting approvals alone.
    assert!(askfirst_core::audit::lock_data_dir(dir.path())
        .unwrap()
        .is_none());
    // The claim ends with its holder (the operating system drops it when a process dies).
    drop(first);
    assert!(askfirst_core::audit::lock_data_dir(dir.path())
        .unwrap()
        .is_some());
}

/// A sink that fails while `failing` is set, like a disk that fills up and is freed again.
struct Flaky {
    failing: std::sync::atomic::AtomicBool,
    written: std::sync::Mutex<Vec<AuditRecord>>,
}

impl AuditSink for Flaky {
    fn append(&self, record: &AuditRecord) -> Result<(), askfirst_core::audit::AuditError> {
        if self.failing.load(std::sync::atomic::Ordering::SeqCst) {
            Err(askfirst_core::audit::AuditError::Write {
                path: "s.jsonl".into(),
                source: std::io::Error::other("No space left on device"),
            })
        } else {
            self.written.lock().unwrap().push(record.clone());
            Ok(())
        }
    }
}

#[test]
fn the_session_log_says_once_when_it_starts_failing_and_once_when_it_works_again() {
    use std::sync::atomic::Ordering::SeqCst;
    use std::sync::{Arc, Mutex};
    let sink = Arc::new(Flaky {
        failing: false.into(),
        written: Mutex::new(Vec::new()),
    });
    let log = askfirst_core::audit::SessionLog::new(sink.clone());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let into = Arc::clone(&seen);
    log.watch(Arc::new(move |problem| into.lock().unwrap().push(problem)));
    let record = AuditRecord::SessionPolicyChanged {
        policy: askfirst_protocol::SessionPolicy::Ask,
        at: 1,
    };
    log.append(&record).unwrap();
    sink.failing.store(true, SeqCst);
    assert!(log.append(&record).is_err());
    assert!(log.append(&record).is_err());
    assert_eq!(
        log.problem().as_deref(),
        Some("The session log s.jsonl could not be written: No space left on device")
    );
    sink.failing.store(false, SeqCst);
    log.append(&record).unwrap();
    log.append(&record).unwrap();
    assert_eq!(
        sink.written.lock().unwrap().len(),
        4,
        "1 + the record + 1 gap + 1"
    );
    assert!(matches!(
        &sink.written.lock().unwrap()[2],
        AuditRecord::Unrecorded { problem, .. }
            if problem == "The session log s.jsonl could not be written: No space left on device"
    ));
    assert_eq!(
        *seen.lock().unwrap(),
        vec![
            Some(
                "The session log s.jsonl could not be written: No space left on device".to_owned()
            ),
            None
        ]
    );
    assert_eq!(log.problem(), None);
}

#[cfg(unix)]
#[test]
fn session_logs_are_readable_by_their_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data/sessions/s.jsonl");
    askfirst_core::audit::JsonlLog::open(&path).unwrap();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&dir.path().join("data/sessions")), 0o700);
    assert_eq!(mode(&dir.path().join("data")), 0o700);
}

/// An `approval_asked` record keeps the card's effects; one written before effects were
/// recorded still reads, with none.
#[test]
fn an_asked_record_keeps_its_effects_and_older_records_still_read() {
    let (id, run) = (ApprovalId::new(), RunId::new());
    let AuditRecord::ApprovalAsked {
        approval_id,
        run_id,
        tool_call_id,
        tool_name,
        arguments_json,
        arguments_sha256,
        summary,
        risk,
        reason,
        policy_layer,
        at,
        expires_at,
        ..
    } = asked(id, run)
    else {
        unreachable!()
    };
    let with_effects = AuditRecord::ApprovalAsked {
        approval_id,
        run_id,
        tool_call_id,
        tool_name,
        arguments_json,
        arguments_sha256,
        summary,
        risk,
        reason,
        policy_layer,
        effects: vec!["Runs shut in: it can change only the workspace folder.".into()],
        at,
        expires_at,
    };
    let json = serde_json::to_value(&with_effects).unwrap();
    assert_eq!(
        json["effects"],
        serde_json::json!(["Runs shut in: it can change only the workspace folder."])
    );
    assert_eq!(
        serde_json::from_value::<AuditRecord>(json).unwrap(),
        with_effects
    );

    let mut older = serde_json::to_value(asked(id, run)).unwrap();
    assert_eq!(older.get("effects"), None, "left out when empty: {older}");
    older.as_object_mut().unwrap().remove("effects");
    assert_eq!(
        serde_json::from_value::<AuditRecord>(older).unwrap(),
        asked(id, run)
    );
}

/// A sink that blocks every write until the gate opens, and keeps what it was given.
struct Gated {
    open: std::sync::Mutex<bool>,
    opened: std::sync::Condvar,
    written: std::sync::Mutex<Vec<AuditRecord>>,
}

impl AuditSink for Gated {
    fn append(&self, record: &AuditRecord) -> Result<(), askfirst_core::audit::AuditError> {
        let mut open = self.open.lock().unwrap();
        while !*open {
            open = self.opened.wait(open).unwrap();
        }
        self.written.lock().unwrap().push(record.clone());
        Ok(())
    }
}

#[test]
fn event_logging_never_blocks_the_emitter_and_keeps_the_order_of_records() {
    use askfirst_core::audit::{logging_sink, SessionLog};
    use askfirst_protocol::{AgentEvent, SessionId, SessionPolicy};
    use std::sync::{Arc, Mutex};
    let sink = Arc::new(Gated {
        open: Mutex::new(false),
        opened: std::sync::Condvar::new(),
        written: Mutex::new(Vec::new()),
    });
    let log = SessionLog::new(sink.clone());
    let forwarded = Arc::new(Mutex::new(Vec::new()));
    let (into, written) = (Arc::clone(&forwarded), Arc::clone(&sink));
    let events = logging_sink(
        Arc::clone(&log),
        Arc::new(move |event| {
            // Passed on only once its record is written.
            let records = written.written.lock().unwrap().len();
            into.lock().unwrap().push((event, records));
        }),
    );
    let opened = |n: u8| AgentEvent::SessionOpened {
        session_id: SessionId::new(),
        title: Some(format!("event {n}")),
    };
    let (a, b) = (opened(1), opened(2));
    // The disk is stuck: emitting still returns at once (EventSink's "must not block").
    events(a.clone());
    events(b.clone());
    assert!(forwarded.lock().unwrap().is_empty());
    // A record that must be on file before it takes effect waits behind the events…
    let writer_log = Arc::clone(&log);
    let decided = std::thread::spawn(move || {
        writer_log
            .append(&AuditRecord::SessionPolicyChanged {
                policy: SessionPolicy::Never,
                at: 7,
            })
            .unwrap();
    });
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(!decided.is_finished());
    *sink.open.lock().unwrap() = true;
    sink.opened.notify_all();
    decided.join().unwrap();
    let c = opened(3);
    events(c.clone());
    log.flush();
    // …and the file has everything in the order it happened.
    let record = |event: &AgentEvent| {
        sink.written
            .lock()
            .unwrap()
            .iter()
            .any(|r| matches!(r, AuditRecord::Event { event: e, .. } if e == event))
    };
    assert!(record(&a) && record(&b) && record(&c));
    let kinds: Vec<String> = sink
        .written
        .lock()
        .unwrap()
        .iter()
        .map(|r| match r {
            AuditRecord::Event {
                event: AgentEvent::SessionOpened { title, .. },
                ..
            } => title.clone().unwrap_or_default(),
            AuditRecord::SessionPolicyChanged { .. } => "policy".into(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(kinds, ["event 1", "event 2", "policy", "event 3"]);
    assert_eq!(
        *forwarded.lock().unwrap(),
        [(a, 1), (b, 2), (c, 4)],
        "each event passed on after its own record, in order"
    );
}
