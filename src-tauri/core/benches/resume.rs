//! Benchmark of what keeping runs for a restart costs (issue "Nothing is lost when Ask First
//! stops"): per card, the `approval_asked` record now synced to the disk, side by side with the
//! same record unsynced (as before); per run, leaving its mark (a small file written whole and
//! synced, then renamed); at start, finding the newest mark among 100 interrupted runs, side by
//! side with none. Prints p50 and p95 of each (a sync's cost is in its tail). `make bench` runs
//! it; figures are in BENCHMARKS.md. `ASKFIRST_BENCH_DIR` picks the disk (default: the system's
//! temporary folder).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use askfirst_core::audit::{AuditRecord, AuditSink, JsonlLog};
use askfirst_core::sessions::interrupted::{Interrupted, Marks};
use askfirst_protocol::{AgentEvent, ApprovalId, RunId, SessionId};
use std::time::{Duration, Instant};

const ROUNDS: usize = 200;

fn percentiles(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.95))
}

fn report(what: &str, times: Vec<Duration>) {
    let (p50, p95) = percentiles(times);
    println!(
        "{what}: p50 {:.3} ms, p95 {:.3} ms ({ROUNDS} rounds)",
        p50.as_secs_f64() * 1000.0,
        p95.as_secs_f64() * 1000.0
    );
}

fn time(mut work: impl FnMut(usize)) -> Vec<Duration> {
    (0..ROUNDS)
        .map(|n| {
            let started = Instant::now();
            work(n);
            started.elapsed()
        })
        .collect()
}

fn main() {
    let base = std::env::var_os("ASKFIRST_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let dir = tempfile::tempdir_in(base).unwrap();
    println!("disk: {}", dir.path().display());
    let log = JsonlLog::open(&dir.path().join("session.jsonl")).unwrap();
    let run_id = RunId::new();
    let asked = |n: usize| AuditRecord::ApprovalAsked {
        approval_id: ApprovalId::new(),
        run_id,
        tool_call_id: format!("call_{n}"),
        tool_name: "write_file".into(),
        arguments_json: r#"{"path":"summary.txt","content":"Three lines of summary.\n"}"#.into(),
        arguments_sha256: "0".repeat(64),
        summary: "Create the file summary.txt (3 lines)".into(),
        reason: "This changes files in your workspace folder, so it needs your OK.".into(),
        risk: askfirst_protocol::Risk::Medium,
        policy_layer: askfirst_protocol::PolicyLayer::ToolDefault,
        effects: Vec::new(),
        expires_at: 0,
        at: 0,
    };
    // The same bytes' worth of record, unsynced: what a card's record cost before.
    let unsynced = |n: usize| AuditRecord::Event {
        event: AgentEvent::ToolCallStarted {
            run_id,
            tool_call_id: format!(
                "call_{n}_{}",
                "x".repeat(serde_json::to_string(&asked(n)).unwrap().len() - 60)
            ),
        },
        at: 0,
    };
    report(
        "a card's record, unsynced (before)",
        time(|n| log.append(&unsynced(n)).unwrap()),
    );
    report(
        "a card's record, synced (now)",
        time(|n| log.append(&asked(n)).unwrap()),
    );
    let sessions = dir.path().join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let marks = Marks::new(&sessions);
    let session = SessionId::new();
    report(
        "a run's mark left (once per run)",
        time(|n| {
            marks
                .leave(&Interrupted {
                    session_id: session,
                    run_id: RunId::new(),
                    at: n as u64,
                    starts: 0,
                })
                .unwrap()
        }),
    );
    marks.remove(session);
    // 500 session logs beside the marks, as after months of use (names only are read).
    for _ in 0..500 {
        std::fs::write(
            sessions.join(format!("{}.jsonl", SessionId::new())),
            b"{}\n",
        )
        .unwrap();
    }
    report(
        "at start, the newest mark among none (500 logs)",
        time(|_| assert!(marks.newest().is_none())),
    );
    for n in 0..100 {
        marks
            .leave(&Interrupted {
                session_id: SessionId::new(),
                run_id: RunId::new(),
                at: n,
                starts: 0,
            })
            .unwrap();
    }
    report(
        "at start, the newest mark among 100 (500 logs)",
        time(|_| assert!(marks.newest().is_some())),
    );
}
