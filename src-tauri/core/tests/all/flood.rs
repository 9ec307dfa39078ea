//! A hostile model can neither flood nor freeze the app: caps on tool calls per turn, on
//! output per call and per run, and special files (named pipes, devices, sockets) refused
//! without ever blocking.

use super::support::{self, harness, Harness};
use askfirst_core::agent::{MAX_RUN_OUTPUT_BYTES, MAX_TOOL_CALLS_PER_TURN};
use askfirst_core::audit::AuditRecord;
use askfirst_core::provider::Message;
use askfirst_protocol::{AgentEvent, RunStatus};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);

/// A hang guard: a test that would block forever fails instead (never a timing assertion).
const HANG_GUARD: Duration = Duration::from_secs(60);

fn tool_results(messages: &[Message]) -> Vec<(String, String, bool)> {
    messages
        .iter()
        .filter_map(|m| match m {
            Message::ToolResult {
                tool_call_id,
                content,
                is_error,
            } => Some((tool_call_id.clone(), content.clone(), *is_error)),
            _ => None,
        })
        .collect()
}

/// How many bytes the session log would hold: every audit record, and every event as the
/// app's logging sink writes it (streamed text pieces and the log's status excepted), one JSON
/// line each.
fn log_bytes(h: &Harness) -> usize {
    let records = h.audit.all().into_iter().chain(
        h.events
            .all()
            .into_iter()
            .filter(|e| {
                !matches!(
                    e,
                    AgentEvent::AssistantDelta { .. } | AgentEvent::LogStatus { .. }
                )
            })
            .map(|event| AuditRecord::Event { event, at: 1 }),
    );
    records
        .map(|r| serde_json::to_string(&r).unwrap().len() + 1)
        .sum()
}

async fn finished(h: &mut Harness) -> (RunStatus, Option<String>) {
    let (_, status, message) = tokio::time::timeout(HANG_GUARD, h.events.run_finished())
        .await
        .expect("the run did not end");
    (status, message)
}

fn count(events: &[AgentEvent], pick: impl Fn(&AgentEvent) -> bool) -> usize {
    events.iter().filter(|e| pick(e)).count()
}

/// 5,000 auto-allowed calls in one turn: each gets exactly one result, in order; at most the
/// cap run; the person sees one line for the rest, not thousands; the log stays small.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_thousand_calls_in_one_turn_are_answered_in_order_but_not_run() {
    const CALLS: usize = 5_000;
    let calls: Vec<_> = (0..CALLS)
        .map(|_| json!({"name": "read_file", "arguments": {"path": "a.txt"}}))
        .collect();
    let mut h = harness(
        json!({"turns": [{"tool_calls": calls}, {"say": "Done."}]}),
        TIMEOUT,
    );
    std::fs::write(h.dir.path().join("a.txt"), "x".repeat(1024)).unwrap();
    h.runtime.start_run("Read it a lot").unwrap();
    let (status, _) = finished(&mut h).await;
    assert_eq!(status, RunStatus::Completed);

    let requests = h.requests.lock().unwrap().clone();
    let results = tool_results(&requests[1]);
    let ids: Vec<_> = results.iter().map(|(id, _, _)| id.clone()).collect();
    let expected: Vec<_> = (1..=CALLS).map(|n| format!("call_{n}")).collect();
    assert_eq!(ids, expected, "exactly one result per call, in order");
    for (id, content, is_error) in &results[..MAX_TOOL_CALLS_PER_TURN] {
        assert_eq!((content.len(), *is_error), (1024, false), "{id}");
    }
    let limit = format!("limit {MAX_TOOL_CALLS_PER_TURN}");
    for (id, content, is_error) in &results[MAX_TOOL_CALLS_PER_TURN..] {
        assert!(*is_error, "{id}");
        assert!(content.contains("Not performed"), "{id}: {content}");
        assert!(content.contains(&limit), "{id}: {content}");
        assert!(content.len() < 300, "{id}: a short result, {content}");
    }

    let events = h.events.all();
    let started = count(&events, |e| matches!(e, AgentEvent::ToolCallStarted { .. }));
    assert_eq!(started, MAX_TOOL_CALLS_PER_TURN, "at most the cap ran");
    let proposed = count(&events, |e| {
        matches!(e, AgentEvent::ToolCallProposed { .. })
    });
    let finished = count(&events, |e| {
        matches!(e, AgentEvent::ToolCallFinished { .. })
    });
    assert_eq!(
        (proposed, finished),
        (MAX_TOOL_CALLS_PER_TURN + 1, MAX_TOOL_CALLS_PER_TURN + 1),
        "one line in the transcript for all the calls past the cap"
    );
    let line = support::finished(&events)
        .into_iter()
        .find(|call| call.tool_call_id == format!("call_{}", MAX_TOOL_CALLS_PER_TURN + 1))
        .map(|call| call.output)
        .expect("the line for the calls past the cap");
    assert!(line.contains("5000") && line.contains("4936"), "{line}");
    let policy_decisions = h
        .audit
        .all()
        .iter()
        .filter(|r| matches!(r, AuditRecord::PolicyDecided { .. }))
        .count();
    assert_eq!(
        policy_decisions, MAX_TOOL_CALLS_PER_TURN,
        "calls past the cap never reach the policy"
    );
    let bytes = log_bytes(&h);
    eprintln!("session log for a {CALLS}-call turn: {bytes} bytes");
    // Before the cap: 15.6 MB (about 3.1 KB a call: its proposal, policy record, start, end and
    // result, each with the file's text). Now each call past the cap costs its entry in the
    // model's turn and one short result, about 330 bytes.
    assert!(bytes < 2_000_000, "the log stays small: {bytes} bytes");
}

/// A run whose tool output reaches the per-run limit ends there, with one end event saying
/// why; the call that reached it tells the model the limit, the calls after it say they were
/// not performed, and the model is not asked again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_past_its_output_limit_ends_with_one_clear_sentence() {
    let turn = || {
        let calls: Vec<_> = (0..MAX_TOOL_CALLS_PER_TURN)
            .map(|_| json!({"name": "read_file", "arguments": {"path": "big.txt"}}))
            .collect();
        json!({ "tool_calls": calls })
    };
    let mut h = harness(
        json!({"turns": [turn(), turn(), {"say": "Never said."}]}),
        TIMEOUT,
    );
    // Each read gives about 100 KB (the per-call cap), so the 8 MB come in the second turn.
    std::fs::write(h.dir.path().join("big.txt"), "y".repeat(300 * 1024)).unwrap();
    h.runtime.start_run("Read it a lot").unwrap();
    let (status, message) = finished(&mut h).await;
    assert_eq!(status, RunStatus::Failed);
    let message = message.unwrap();
    assert!(message.contains("8 MB of output"), "{message}");

    let events = h.events.all();
    assert_eq!(
        count(&events, |e| matches!(e, AgentEvent::RunFinished { .. })),
        1,
        "exactly one end event"
    );
    let requests = h.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2, "the model is not asked again");
    // The second turn's results, as the next request would carry them.
    let messages: Vec<Message> = h
        .audit
        .all()
        .into_iter()
        .filter_map(|r| match r {
            AuditRecord::Message { message, .. } => Some(message),
            _ => None,
        })
        .collect();
    let results = tool_results(&messages);
    assert_eq!(
        results.len(),
        2 * MAX_TOOL_CALLS_PER_TURN,
        "one result per call"
    );
    let total: usize = results.iter().map(|(_, c, _)| c.len()).sum();
    assert!(total < MAX_RUN_OUTPUT_BYTES + 200 * 1024, "{total}");
    let last_run = results
        .iter()
        .position(|(_, c, _)| c.contains("so the task ends here."))
        .expect("the call that reached the limit says so to the model");
    assert!(last_run > MAX_TOOL_CALLS_PER_TURN, "{last_run}");
    for (id, content, is_error) in &results[last_run + 1..] {
        assert!(*is_error, "{id}");
        assert!(content.contains("limit 8 MB"), "{id}: {content}");
        assert!(content.contains("not performed"), "{id}: {content}");
    }
    let started = count(&events, |e| matches!(e, AgentEvent::ToolCallStarted { .. }));
    assert_eq!(started, last_run + 1, "nothing ran after the limit");
}

// ------------------------------------------------------------ list_directory and special files

use askfirst_core::tools::{Tool, ToolError, ToolSet, Workspace, LIST_ENTRIES_SHOWN};
use std::path::Path;
use std::sync::Arc;

fn tool(name: &str) -> Arc<dyn Tool> {
    ToolSet::builtin().get(name).unwrap()
}

/// Runs `job` on a thread of its own and gives its answer, or `None` when it blocked (the
/// thread is then left behind, blocked, as the old code left the app's).
fn without_blocking<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(job());
    });
    rx.recv_timeout(HANG_GUARD).ok()
}

fn mkfifo(path: &Path) {
    nix::unistd::mkfifo(path, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
}

/// The refusal of a special file of `kind` shown as `shown`: the model's sentence and the
/// person's (English here).
fn special_refusal(shown: &str, kind: &str) -> ToolError {
    ToolError::Said {
        model: format!(
            "{shown} is not an ordinary file (it is {kind}); Ask First does not open it."
        ),
        person: format!(
            "{shown} is not an ordinary file (it is {kind}), so Ask First does not open it."
        ),
    }
}

fn pipe_refusal(shown: &str) -> ToolError {
    special_refusal(shown, "a named pipe")
}

/// The arguments of each file tool aimed at `path`.
fn calls_on(path: &str) -> Vec<(&'static str, String)> {
    vec![
        ("read_file", json!({ "path": path }).to_string()),
        (
            "write_file",
            json!({ "path": path, "content": "new\n" }).to_string(),
        ),
        (
            "edit_file",
            json!({ "path": path, "old_text": "old", "new_text": "new" }).to_string(),
        ),
        ("delete_path", json!({ "path": path }).to_string()),
        (
            "move_path",
            json!({ "from": path, "to": "moved.txt" }).to_string(),
        ),
    ]
}

#[tokio::test]
async fn list_directory_of_a_huge_folder_shows_the_first_entries_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    std::fs::create_dir(dir.path().join("many")).unwrap();
    for n in 0..5_000 {
        std::fs::write(dir.path().join(format!("many/f{n:04}.txt")), "").unwrap();
    }
    std::fs::create_dir(dir.path().join("many/zz folder")).unwrap();
    let listing = tool("list_directory")
        .execute(r#"{"path": "many"}"#, &ws)
        .await
        .unwrap();
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(lines.len(), LIST_ENTRIES_SHOWN + 1, "{}", lines[0]);
    // Folders first, then files by name, as for a small folder.
    assert_eq!(lines[0], "zz folder/");
    assert_eq!(lines[1], "f0000.txt (0 bytes)");
    assert_eq!(lines[LIST_ENTRIES_SHOWN - 1], "f0998.txt (0 bytes)");
    assert_eq!(
        lines[LIST_ENTRIES_SHOWN],
        "…and 4001 more entries not listed (Ask First lists at most 1000 entries of a folder; \
         list a subfolder to see less at once)."
    );
}

/// Every file tool refuses a named pipe when the call is described, from metadata alone,
/// without waiting for a writer that never comes.
#[test]
fn every_file_tool_refuses_a_named_pipe_when_describing_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    mkfifo(&dir.path().join("pipe"));
    for (name, raw) in calls_on("pipe") {
        let ws = ws.clone();
        let described = without_blocking(move || tool(name).describe(&raw, &ws).map(|_| ()))
            .unwrap_or_else(|| panic!("{name} blocked on a named pipe"));
        assert_eq!(described, Err(pipe_refusal("pipe")), "{name}");
    }
    // A socket is refused alike.
    let _socket = std::os::unix::net::UnixListener::bind(dir.path().join("sock")).unwrap();
    let refused = tool("read_file").describe(r#"{"path": "sock"}"#, &ws);
    assert_eq!(
        refused.map(|_| ()),
        Err(special_refusal("sock", "a socket"))
    );
}

/// A named pipe swapped in after the call was described (an ordinary file then) is refused
/// when the call runs, or by the check of what was shown, and nothing blocks.
#[test]
fn a_named_pipe_swapped_in_after_describing_is_refused_without_blocking() {
    for (name, raw) in calls_on("target.txt") {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        let target = dir.path().join("target.txt");
        std::fs::write(&target, "old\n").unwrap();
        let described = tool(name).describe(&raw, &ws).unwrap();
        std::fs::remove_file(&target).unwrap();
        mkfifo(&target);
        // What runs right before the tool: the check that the target is still as shown.
        let (ws2, raw2) = (ws.clone(), raw.clone());
        let now = without_blocking(move || tool(name).fingerprint(&raw2, &ws2))
            .unwrap_or_else(|| panic!("{name}: checking the target blocked"));
        if described.fingerprint.is_some() {
            assert_ne!(
                now, described.fingerprint,
                "{name}: a pipe is not the file shown"
            );
        }
        // Moving to the trash would touch the real trash of whoever runs the tests; the
        // refusal comes before it, as the describe test shows.
        if name == "delete_path" {
            continue;
        }
        let ran = without_blocking(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(tool(name).execute(&raw, &ws))
        })
        .unwrap_or_else(|| panic!("{name} blocked on a named pipe"));
        assert_eq!(ran, Err(pipe_refusal("target.txt")), "{name}");
        let kind = std::fs::symlink_metadata(&target).unwrap().file_type();
        assert!(
            std::os::unix::fs::FileTypeExt::is_fifo(&kind),
            "{name}: the pipe is left as it was"
        );
    }
}

/// A symlink in the workspace to a device (`/dev/zero`, endless) is refused: it leads outside
/// the workspace, and that refusal, which names the path, comes first.
#[test]
fn a_symlink_to_a_device_is_refused_as_leading_outside() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero")).unwrap();
    for (name, raw) in calls_on("zero") {
        let ws = ws.clone();
        let described = without_blocking(move || tool(name).describe(&raw, &ws).map(|_| ()))
            .unwrap_or_else(|| panic!("{name} blocked on a device"));
        assert_eq!(
            described,
            Err(ToolError::OutsideWorkspace {
                path: "zero".into()
            }),
            "{name}"
        );
    }
    assert_eq!(
        ToolError::OutsideWorkspace {
            path: "zero".into()
        }
        .to_string(),
        "The path \"zero\" is outside the workspace folder; only paths inside it can be used."
    );
}

// ---------------------------------------------------------------------- provider streams

use super::providers::{replay, Reply};
use askfirst_core::provider::{
    Provider, ProviderError, ReplyLimit, MAX_REPLY_BYTES, MAX_STREAMED_TOOL_CALLS,
};
use askfirst_core::providers::anthropic::AnthropicProvider;
use askfirst_core::providers::openai::OpenAiProvider;
use askfirst_core::providers::HttpSettings;

async fn step(
    provider: &dyn Provider,
) -> Result<askfirst_core::provider::ModelTurn, ProviderError> {
    let conversation = vec![Message::User { text: "hi".into() }];
    provider
        .step(&conversation, &ToolSet::builtin().specs(), &|_: &str| {})
        .await
}

fn too_large(result: Result<askfirst_core::provider::ModelTurn, ProviderError>) -> ReplyLimit {
    match result {
        Err(ProviderError::TooLarge { limit, .. }) => limit,
        other => panic!("{other:?}"),
    }
}

/// A stream may not make the app hold more calls than it takes, nor more bytes: the step fails
/// with a sentence before the agent sees any of them.
#[tokio::test]
async fn a_provider_stream_with_too_many_calls_or_bytes_fails_the_step() {
    let call = |n: usize| {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": n, "id": format!("c{n}"), "function": {"name": "read_file", "arguments": "{}"}}
        ]}}]})
    };
    let mut body: String = (0..=MAX_STREAMED_TOOL_CALLS)
        .map(|n| format!("data: {}\n\n", call(n)))
        .collect();
    body.push_str("data: [DONE]\n\n");
    let server = replay(vec![Reply::sse(&body, 64 * 1024)]).await;
    let openai = OpenAiProvider::new(HttpSettings::new(&server.base, None, "m"));
    assert_eq!(
        too_large(step(&openai).await),
        ReplyLimit::ToolCalls {
            count: MAX_STREAMED_TOOL_CALLS
        }
    );

    // A reply that never ends: text in pieces of 64 KB, past the byte bound.
    let piece = format!(
        "data: {}\n\n",
        json!({"choices": [{"index": 0, "delta": {"content": "a".repeat(64 * 1024)}}]})
    );
    let huge = piece.repeat(MAX_REPLY_BYTES / (64 * 1024) + 2);
    let server = replay(vec![Reply::sse(&huge, 1024 * 1024)]).await;
    let openai = OpenAiProvider::new(HttpSettings::new(&server.base, None, "m"));
    let whole = ReplyLimit::Reply {
        bytes: MAX_REPLY_BYTES,
    };
    assert_eq!(too_large(step(&openai).await), whole);

    // One line that never ends (no line break), sent in small pieces: cut off at the line
    // bound.
    let endless = format!(
        "data: {}",
        "a".repeat(askfirst_core::providers::http::MAX_LINE_BYTES + 1)
    );
    let server = replay(vec![Reply::sse(&endless, 8 * 1024)]).await;
    let openai = OpenAiProvider::new(HttpSettings::new(&server.base, None, "m"));
    assert_eq!(
        too_large(step(&openai).await),
        ReplyLimit::Line {
            bytes: askfirst_core::providers::http::MAX_LINE_BYTES
        }
    );

    let blocks: String = (0..=MAX_STREAMED_TOOL_CALLS)
        .map(|n| {
            format!(
                "event: content_block_start\ndata: {}\n\n",
                json!({"type": "content_block_start", "index": n, "content_block":
                    {"type": "tool_use", "id": format!("t{n}"), "name": "read_file", "input": {}}})
            )
        })
        .collect();
    let body = format!("{blocks}event: message_stop\ndata: {{\"type\": \"message_stop\"}}\n\n");
    let server = replay(vec![Reply::sse(&body, 64 * 1024)]).await;
    let anthropic = AnthropicProvider::new(HttpSettings::new(&server.base, None, "m"));
    assert_eq!(
        too_large(step(&anthropic).await),
        ReplyLimit::ToolCalls {
            count: MAX_STREAMED_TOOL_CALLS
        }
    );
    let start = "event: content_block_start\ndata: {\"type\": \"content_block_start\", \
                 \"index\": 0, \"content_block\": {\"type\": \"text\", \"text\": \"\"}}\n\n";
    let piece = format!(
        "event: content_block_delta\ndata: {}\n\n",
        json!({"type": "content_block_delta", "index": 0,
               "delta": {"type": "text_delta", "text": "a".repeat(64 * 1024)}})
    );
    let huge = format!("{start}{}", piece.repeat(MAX_REPLY_BYTES / (64 * 1024) + 2));
    let server = replay(vec![Reply::sse(&huge, 1024 * 1024)]).await;
    let anthropic = AnthropicProvider::new(HttpSettings::new(&server.base, None, "m"));
    assert_eq!(too_large(step(&anthropic).await), whole);
}
