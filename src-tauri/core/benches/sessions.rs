//! Benchmark of opening the Sessions list with 500 sessions on disk (issue 12): the listing
//! as it was (every log read and parsed in full to find its first task), the listing from the
//! sessions index, and the first listing without an index (rebuilt from the logs, each read
//! only to its first task). `make bench` runs it; figures are in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use askfirst_core::audit::{read_log, AuditRecord};
use askfirst_core::provider::{Message, ModelTurn, ToolCall};
use askfirst_core::sessions::store::{SessionStore, INDEX_FILE};
use askfirst_protocol::{AgentEvent, RunId, SessionId, SessionSummary, ToolCallStatus};
use criterion::{criterion_group, criterion_main, Criterion};
use std::io::Write;
use std::path::Path;

const SESSIONS: usize = 500;
/// Tool calls per session: each adds a model turn, a result of ~2 KB and four events, so a
/// log is about 80 KB (40 MB for all), a few days of real use.
const CALLS: usize = 30;

fn write_sessions(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let output = "line of a file that was read\n".repeat(70);
    for n in 0..SESSIONS {
        let id = SessionId::new();
        let run_id = RunId::new();
        let mut file = std::io::BufWriter::new(
            std::fs::File::create(dir.join(format!("{id}.jsonl"))).unwrap(),
        );
        let mut put = |record: AuditRecord| {
            serde_json::to_writer(&mut file, &record).unwrap();
            file.write_all(b"\n").unwrap();
        };
        let message = |message| AuditRecord::Message { message, at: 1 };
        let event = |event| AuditRecord::Event { event, at: 1 };
        put(message(Message::System {
            text: "You are the assistant inside Ask First.".into(),
        }));
        put(message(Message::User {
            text: format!("Task number {n}: tidy the folder of invoices"),
        }));
        for c in 0..CALLS {
            let call = ToolCall {
                id: format!("call_{c}"),
                name: "read_file".into(),
                arguments_json: format!("{{\"path\":\"invoices/{c}.txt\"}}"),
            };
            put(event(AgentEvent::ToolCallProposed {
                run_id,
                tool_call_id: call.id.clone(),
                tool_name: call.name.clone(),
                arguments_json: call.arguments_json.clone(),
                summary: format!("Read invoices/{c}.txt"),
            }));
            put(message(Message::Assistant {
                turn: ModelTurn {
                    text: Some("Let me look.".into()),
                    tool_calls: vec![call.clone()],
                },
            }));
            put(event(AgentEvent::ToolCallFinished {
                run_id,
                tool_call_id: call.id.clone(),
                status: ToolCallStatus::Succeeded,
                policy_layer: None,
                output: output.clone(),
                not_run: None,
                wording: None,
            }));
            put(message(Message::ToolResult {
                tool_call_id: call.id,
                content: output.clone(),
                is_error: false,
            }));
        }
    }
}

/// The listing before the index: every log read and parsed in full for its first task (the
/// code of `AgentRuntime::list_sessions` until issue 12).
fn list_reading_every_log(dir: &Path) -> Vec<SessionSummary> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let Some(id) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.parse::<SessionId>().ok())
        else {
            continue;
        };
        let title = read_log(&path).ok().and_then(|c| {
            c.records
                .into_iter()
                .find_map(|r| match serde_json::from_value(r) {
                    Ok(AuditRecord::Message {
                        message: Message::User { text },
                        ..
                    }) => Some(text),
                    _ => None,
                })
        });
        out.push(SessionSummary {
            session_id: id,
            title: title.unwrap_or_default(),
            updated_at: 0,
            current: false,
        });
    }
    out
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let sessions = dir.path().join("sessions");
    write_sessions(&sessions);
    let store = SessionStore::new(Some(sessions.clone()));
    let current = SessionId::new();
    let mut group = c.benchmark_group("sessions_list_500");
    group.sample_size(10);
    group.bench_function("before_read_every_log", |b| {
        b.iter(|| assert_eq!(list_reading_every_log(&sessions).len(), SESSIONS))
    });
    group.bench_function("index_missing_rebuilt", |b| {
        b.iter_batched(
            || {
                let _ = std::fs::remove_file(sessions.join(INDEX_FILE));
            },
            |()| assert_eq!(store.list(current).len(), SESSIONS),
            criterion::BatchSize::PerIteration,
        )
    });
    store.list(current);
    group.bench_function("from_index", |b| {
        b.iter(|| assert_eq!(store.list(current).len(), SESSIONS))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
