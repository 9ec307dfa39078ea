//! The HTTP providers against a local server that replays each API's documented wire format as
//! recorded byte streams, split at awkward places.

use askfirst_core::provider::{Message, ModelTurn, Provider, ProviderError, ToolCall};
use askfirst_core::providers::anthropic::AnthropicProvider;
use askfirst_core::providers::openai::OpenAiProvider;
use askfirst_core::providers::{ApiKey, HttpSettings};
use askfirst_core::tools::ToolSet;
use pretty_assertions::assert_eq;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// One scripted HTTP response: status, extra headers, body pieces written one by one.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub pieces: Vec<Vec<u8>>,
}

impl Reply {
    pub fn sse(body: &str, split_every: usize) -> Self {
        let pieces = body
            .as_bytes()
            .chunks(split_every)
            .map(<[u8]>::to_vec)
            .collect();
        Self {
            status: 200,
            headers: vec![("Content-Type", "text/event-stream".into())],
            pieces,
        }
    }
    pub fn status(status: u16, body: &str) -> Self {
        Self {
            status,
            headers: vec![("Content-Type", "application/json".into())],
            pieces: vec![body.as_bytes().to_vec()],
        }
    }
}

/// A local server answering each connection with the next reply; records each request.
pub struct Replay {
    pub base: String,
    pub requests: Arc<Mutex<Vec<String>>>,
}

pub async fn replay(replies: Vec<Reply>) -> Replay {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let recorded = Arc::clone(&requests);
    tokio::spawn(async move {
        for reply in replies {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            // Read the head, then the body by Content-Length.
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            let head_end = loop {
                let n = socket.read(&mut chunk).await.unwrap();
                if n == 0 {
                    break buf.len();
                }
                buf.extend_from_slice(&chunk[..n]);
                if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                    break i + 4;
                }
            };
            let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
            let length = head
                .lines()
                .find_map(|l| {
                    l.to_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().unwrap())
                })
                .unwrap_or(0);
            while buf.len() < head_end + length {
                let n = socket.read(&mut chunk).await.unwrap();
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            recorded
                .lock()
                .unwrap()
                .push(String::from_utf8_lossy(&buf).to_string());
            let mut out = format!("HTTP/1.1 {} X\r\nConnection: close\r\n", reply.status);
            for (k, v) in &reply.headers {
                out.push_str(&format!("{k}: {v}\r\n"));
            }
            out.push_str("\r\n");
            socket.write_all(out.as_bytes()).await.unwrap();
            for piece in reply.pieces {
                if socket.write_all(&piece).await.is_err() {
                    break;
                }
                socket.flush().await.unwrap();
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            let _ = socket.shutdown().await;
        }
    });
    Replay { base, requests }
}

fn settings(base: &str) -> HttpSettings {
    let mut s = HttpSettings::new(base, Some(ApiKey::new("sk-test-secret")), "test-model");
    s.retry_base = Duration::from_millis(5);
    s
}

fn conversation() -> Vec<Message> {
    vec![
        Message::System {
            text: "be good".into(),
        },
        Message::User { text: "hi".into() },
    ]
}

async fn run(provider: &dyn Provider) -> (Result<ModelTurn, ProviderError>, String) {
    let streamed = Mutex::new(String::new());
    let on_delta = |piece: &str| streamed.lock().unwrap().push_str(piece);
    let tools = ToolSet::builtin().specs();
    let turn = provider.step(&conversation(), &tools, &on_delta).await;
    let text = streamed.lock().unwrap().clone();
    (turn, text)
}

fn openai_stream(chunks: &[serde_json::Value], done: bool) -> String {
    let mut body: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    if done {
        body.push_str("data: [DONE]\n\n");
    }
    body
}

#[tokio::test]
async fn openai_text_and_parallel_tool_calls_from_split_chunks() {
    use serde_json::json;
    let chunks = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Let me "}}]}),
        json!({"choices": [{"index": 0, "delta": {"content": "look."}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "call_a", "type": "function", "function": {"name": "list_directory", "arguments": ""}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 1, "id": "call_b", "type": "function", "function": {"name": "write_file", "arguments": "{\"pa"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"path\": \".\"}"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "function": {"arguments": "th\": \"a.txt\", \"content\": \"12345678901234567890\"}"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
        json!({"choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}),
    ];
    // Split every 7 bytes: mid "data:", mid JSON, mid UTF-8 is not possible here (ASCII).
    let server = replay(vec![Reply::sse(&openai_stream(&chunks, true), 7)]).await;
    let provider = OpenAiProvider::new(settings(&server.base));
    let (turn, streamed) = run(&provider).await;
    let turn = turn.unwrap();
    assert_eq!(streamed, "Let me look.");
    assert_eq!(
        turn,
        ModelTurn {
            text: Some("Let me look.".into()),
            tool_calls: vec![
                ToolCall {
                    id: "call_a".into(),
                    name: "list_directory".into(),
                    arguments_json: "{\"path\": \".\"}".into()
                },
                ToolCall {
                    id: "call_b".into(),
                    name: "write_file".into(),
                    arguments_json: "{\"path\": \"a.txt\", \"content\": \"12345678901234567890\"}"
                        .into()
                },
            ]
        }
    );
    let request = server.requests.lock().unwrap()[0].clone();
    assert!(request.starts_with("POST /chat/completions"), "{request}");
    assert!(
        request.contains("authorization: Bearer sk-test-secret")
            || request.contains("Authorization: Bearer sk-test-secret")
    );
    let body: serde_json::Value =
        serde_json::from_str(request.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["stream"], true);
    assert_eq!(body["model"], "test-model");
    assert_eq!(
        body["messages"][0],
        json!({"role": "system", "content": "be good"})
    );
    assert_eq!(body["tools"][0]["type"], "function");
}

#[tokio::test]
async fn openai_missing_and_reused_ids_whole_arguments_and_no_done() {
    use serde_json::json;
    // Ollama-like: arguments whole in one chunk (even as an object), the name repeated, ids
    // missing or reused, and no [DONE] after the finish_reason.
    let chunks = [
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"name": "list_directory", "arguments": {"path": "."}}},
            {"index": 1, "id": "x", "function": {"name": "read_file", "arguments": "{\"path\":\"a\"}"}},
            {"index": 2, "id": "x", "function": {"name": "read_file", "arguments": "{\"path\":\"b\"}"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"name": "list_directory"}}]}, "finish_reason": "stop"}]}),
    ];
    let server = replay(vec![Reply::sse(&openai_stream(&chunks, false), 50)]).await;
    let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
    let turn = turn.unwrap();
    let ids: Vec<&str> = turn.tool_calls.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, vec!["call_1", "x", "x_3"]);
    assert_eq!(turn.tool_calls[0].name, "list_directory");
    assert_eq!(turn.tool_calls[0].arguments_json, "{\"path\":\".\"}");
}

#[tokio::test]
async fn openai_retries_429_then_succeeds_and_gives_up_on_500s() {
    use serde_json::json;
    let ok = openai_stream(
        &[json!({"choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": "stop"}]})],
        true,
    );
    let mut busy = Reply::status(429, r#"{"error": {"message": "slow down"}}"#);
    busy.headers.push(("Retry-After", "0".into()));
    let server = replay(vec![busy, Reply::sse(&ok, 1000)]).await;
    let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
    assert_eq!(turn.unwrap().text.as_deref(), Some("hi"));
    assert_eq!(server.requests.lock().unwrap().len(), 2);

    let server = replay((0..4).map(|_| Reply::status(500, "oops")).collect()).await;
    let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
    assert!(
        matches!(
            turn,
            Err(ProviderError::ServerError {
                status: 500,
                tries: 4,
                ..
            })
        ),
        "{turn:?}"
    );
    assert_eq!(
        server.requests.lock().unwrap().len(),
        4,
        "one try and three retries"
    );
}

#[tokio::test]
async fn openai_auth_and_unknown_model_fail_at_once_in_plain_words() {
    let server = replay(vec![Reply::status(
        401,
        r#"{"error": {"message": "bad key"}}"#,
    )])
    .await;
    let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
    let error = turn.unwrap_err();
    assert!(matches!(error, ProviderError::Auth { .. }));
    assert!(
        error
            .to_string()
            .starts_with("The API key was refused by 127.0.0.1:"),
        "{error}"
    );
    assert!(!error.to_string().contains("sk-test-secret"));
    assert_eq!(server.requests.lock().unwrap().len(), 1);

    let server = replay(vec![Reply::status(
        404,
        r#"{"error": {"message": "model 'test-model' not found"}}"#,
    )])
    .await;
    let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
    assert!(
        matches!(turn, Err(ProviderError::ModelNotFound { ref model, .. }) if model == "test-model"),
        "{turn:?}"
    );
}

#[tokio::test]
async fn openai_stream_cut_in_the_middle_is_an_error_not_a_half_answer() {
    use serde_json::json;
    let body = openai_stream(
        &[json!({"choices": [{"index": 0, "delta": {"content": "I will"}}]})],
        false,
    );
    let server = replay(vec![Reply::sse(&(body + "data: {\"choices\": [{\"ind"), 9)]).await;
    let (turn, streamed) = run(&OpenAiProvider::new(settings(&server.base))).await;
    assert!(
        matches!(turn, Err(ProviderError::EndedEarly { .. })),
        "{turn:?}"
    );
    assert_eq!(streamed, "I will");
}

#[tokio::test]
async fn openai_invalid_json_arguments_are_passed_on_raw() {
    use serde_json::json;
    let chunks = [json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "c", "function": {"name": "write_file", "arguments": "{\"path\": \"a.txt\", "}}]}, "finish_reason": "tool_calls"}]})];
    let server = replay(vec![Reply::sse(&openai_stream(&chunks, true), 13)]).await;
    let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
    assert_eq!(
        turn.unwrap().tool_calls[0].arguments_json,
        "{\"path\": \"a.txt\", "
    );
}

fn anthropic_stream(events: &[serde_json::Value]) -> String {
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect()
}

#[tokio::test]
async fn anthropic_text_and_tool_use_from_input_json_deltas() {
    use serde_json::json;
    let events = [
        json!({"type": "message_start", "message": {"id": "m", "role": "assistant", "content": [], "usage": {"input_tokens": 5}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "ping"}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Writing "}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "now."}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write_file", "input": {}}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"path\": \"a"}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ".txt\", \"content\": \"x\"}"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}}),
        json!({"type": "message_stop"}),
    ];
    let server = replay(vec![Reply::sse(&anthropic_stream(&events), 11)]).await;
    let provider = AnthropicProvider::new(settings(&server.base));
    let (turn, streamed) = run(&provider).await;
    assert_eq!(streamed, "Writing now.");
    assert_eq!(
        turn.unwrap(),
        ModelTurn {
            text: Some("Writing now.".into()),
            tool_calls: vec![ToolCall {
                id: "toolu_1".into(),
                name: "write_file".into(),
                arguments_json: "{\"path\": \"a.txt\", \"content\": \"x\"}".into()
            }]
        }
    );
    let request = server.requests.lock().unwrap()[0].clone();
    assert!(request.starts_with("POST /v1/messages"));
    assert!(request.contains("x-api-key: sk-test-secret"));
    assert!(request.contains("anthropic-version: 2023-06-01"));
    let body: serde_json::Value =
        serde_json::from_str(request.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["system"], "be good");
    assert_eq!(body["tools"][0]["input_schema"]["type"], "object");
}

#[tokio::test]
async fn anthropic_tool_results_go_back_in_one_user_message_and_errors_are_reported() {
    use serde_json::json;
    let server = replay(vec![Reply::sse(
        &anthropic_stream(&[json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})]),
        100,
    )])
    .await;
    let provider = AnthropicProvider::new(settings(&server.base));
    let turn = ModelTurn {
        text: None,
        tool_calls: vec![
            ToolCall {
                id: "t1".into(),
                name: "read_file".into(),
                arguments_json: "{\"path\":\"a\"}".into(),
            },
            ToolCall {
                id: "t2".into(),
                name: "read_file".into(),
                arguments_json: "not json".into(),
            },
        ],
    };
    let messages = vec![
        Message::User { text: "hi".into() },
        Message::Assistant { turn },
        Message::ToolResult {
            tool_call_id: "t1".into(),
            content: "A".into(),
            is_error: false,
        },
        Message::ToolResult {
            tool_call_id: "t2".into(),
            content: "bad args".into(),
            is_error: true,
        },
    ];
    let result = provider.step(&messages, &[], &|_: &str| {}).await;
    assert!(
        matches!(result, Err(ProviderError::ServiceError { ref detail, .. }) if detail == "Overloaded"),
        "{result:?}"
    );
    let request = server.requests.lock().unwrap()[0].clone();
    let body: serde_json::Value =
        serde_json::from_str(request.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    assert_eq!(messages[1]["content"][1]["input"], json!({}));
    assert_eq!(messages[2]["role"], "user");
    assert_eq!(messages[2]["content"].as_array().unwrap().len(), 2);
    assert_eq!(messages[2]["content"][1]["is_error"], true);
}

#[test]
fn the_api_key_never_shows_in_debug_output() {
    let s = settings("http://127.0.0.1:1");
    assert!(!format!("{s:?}").contains("sk-test-secret"));
    let file = askfirst_core::config::SettingsFile {
        api_key: Some("sk-file-secret".into()),
        ..Default::default()
    };
    assert!(!format!("{file:?}").contains("sk-file-secret"));
}

#[cfg(unix)]
#[test]
fn a_settings_file_with_a_key_is_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let file = askfirst_core::config::SettingsFile {
        provider: Some("openai".into()),
        api_key: Some("sk-file-secret".into()),
        ..Default::default()
    };
    file.save(&path).unwrap();
    assert_eq!(
        std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert_eq!(
        askfirst_core::config::SettingsFile::load(&path).unwrap(),
        file
    );
}

#[tokio::test]
async fn a_conversation_too_long_for_the_model_says_to_start_a_new_one_and_is_not_retried() {
    // OpenAI names the case in `error.code`; Anthropic only in its message; 413 is a body too
    // large for the service (or a proxy in front of it), whatever its reply says.
    let openai = r#"{"error": {"message": "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.", "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}"#;
    let anthropic = r#"{"type": "error", "error": {"type": "invalid_request_error", "message": "prompt is too long: 208310 tokens > 200000 maximum"}}"#;
    let llama_cpp = r#"{"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it", "type": "exceed_context_size_error"}}"#;
    for (status, body, anthropic_api) in [
        (400, openai, false),
        (400, llama_cpp, false),
        (400, anthropic, true),
        (
            413,
            "<html><body>413 Request Entity Too Large</body></html>",
            false,
        ),
    ] {
        let server = replay(vec![Reply::status(status, body)]).await;
        let (turn, _) = if anthropic_api {
            run(&AnthropicProvider::new(settings(&server.base))).await
        } else {
            run(&OpenAiProvider::new(settings(&server.base))).await
        };
        let error = turn.unwrap_err();
        assert!(
            matches!(error, ProviderError::ContextTooLong { status: Some(s), .. } if s == status),
            "{body}: {error:?}"
        );
        assert!(
            error
                .to_string()
                .starts_with("This conversation has grown longer than the model at 127.0.0.1:")
                && error
                    .to_string()
                    .contains("then “Start a new conversation”"),
            "{error}"
        );
        assert_eq!(server.requests.lock().unwrap().len(), 1, "{body}");
    }
    // Gemini's OpenAI-compatible API sends its error in an array of one; vLLM's engine says
    // "maximum model length".
    for body in [
        r#"[{"error": {"code": 400, "message": "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", "status": "INVALID_ARGUMENT"}}]"#,
        r#"{"object": "error", "message": "The decoder prompt (length 9000) is longer than the maximum model length of 8192.", "type": "BadRequestError", "code": 400}"#,
    ] {
        let server = replay(vec![Reply::status(400, body)]).await;
        let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
        assert!(
            matches!(
                turn,
                Err(ProviderError::ContextTooLong {
                    status: Some(400),
                    ..
                })
            ),
            "{body}: {turn:?}"
        );
    }
    // LM Studio accepts the request and says so in the stream: the same sentence, no status.
    let server = replay(vec![Reply::sse(
        "data: {\"error\": {\"message\": \"The number of tokens to keep from the initial prompt is greater than the context length. Input does not fit in context length.\"}}\n\n",
        1000,
    )])
    .await;
    let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
    let error = turn.unwrap_err();
    assert!(
        matches!(error, ProviderError::ContextTooLong { status: None, .. }),
        "{error:?}"
    );
    assert!(error.detail().unwrap().starts_with("The number of tokens"));
    // One request over the plan's tokens a minute (Groq's 413, OpenAI's 429) is not a
    // conversation over the model's window, nor a rate limit that waiting cures: not retried.
    let groq = r#"{"error": {"message": "Request too large for model `llama-3.3-70b-versatile` in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 7310, please reduce your message size and try again.", "type": "tokens", "code": "rate_limit_exceeded"}}"#;
    let openai = r#"{"error": {"message": "Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 45000. The input or output tokens must be reduced in order to run successfully.", "type": "tokens", "param": null, "code": "rate_limit_exceeded"}}"#;
    for (status, body) in [(413, groq), (429, openai)] {
        let server = replay(vec![Reply::status(status, body)]).await;
        let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
        let error = turn.unwrap_err();
        assert!(
            matches!(error, ProviderError::OverPlanLimit { status: s, .. } if s == status),
            "{error:?}"
        );
        assert!(
            error.to_string().contains("waiting will not help"),
            "{error}"
        );
        assert_eq!(server.requests.lock().unwrap().len(), 1, "{body}");
    }
    // Another 413 rate limit is retried as 429 is.
    let limited = r#"{"error": {"message": "Rate limit reached", "code": "rate_limit_exceeded"}}"#;
    let server = replay(vec![
        Reply::status(413, limited),
        Reply::status(413, limited),
        Reply::status(413, limited),
        Reply::status(413, limited),
    ])
    .await;
    let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
    assert!(
        matches!(turn, Err(ProviderError::RateLimited { .. })),
        "{turn:?}"
    );
    assert!(server.requests.lock().unwrap().len() > 1);
    // Another refusal keeps its own words (the address and the model name are worth checking).
    let server = replay(vec![Reply::status(
        400,
        r#"{"error": {"message": "Invalid value for 'temperature'", "code": "invalid_value"}}"#,
    )])
    .await;
    let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
    assert!(
        matches!(turn, Err(ProviderError::Refused { status: 400, .. })),
        "{turn:?}"
    );
}

/// Found by newcomers (the first hour): a service answering 429 with `Retry-After: 1e300` kept
/// the window at "Working…" for 85 s with no word of why. A wait longer than Ask First's cap
/// fails at once with a sentence; a shorter one is told to the window (why, until when, which
/// try) before it is waited.
#[tokio::test]
async fn a_busy_service_is_said_while_waited_for_and_an_endless_wait_fails_at_once() {
    use askfirst_protocol::{AgentEvent, RetryReason, RunId};
    let busy = |after: &str| {
        let mut reply = Reply::status(429, r#"{"error": {"message": "slow down"}}"#);
        reply.headers.push(("Retry-After", after.to_owned()));
        reply
    };
    for endless in ["1e300", "31", "Fri, 31 Dec 9999 23:59:59 GMT"] {
        let server = replay(vec![busy(endless), busy(endless)]).await;
        let (turn, _) = run(&OpenAiProvider::new(settings(&server.base))).await;
        let error = turn.unwrap_err();
        assert!(
            matches!(error, ProviderError::BusyTooLong { .. }),
            "{endless}: {error:?}"
        );
        assert!(
            error.to_string().contains("longer than Ask First waits"),
            "{error}"
        );
        assert_eq!(server.requests.lock().unwrap().len(), 1, "{endless}");
    }
    let ok = openai_stream(
        &[
            serde_json::json!({"choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": "stop"}]}),
        ],
        true,
    );
    let server = replay(vec![busy("0.2"), Reply::sse(&ok, 1000)]).await;
    let provider = OpenAiProvider::new(settings(&server.base));
    let said = Mutex::new(Vec::new());
    let emit = |event: AgentEvent| said.lock().unwrap().push(event);
    let run_id = RunId::new();
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let turn = askfirst_core::agent::deltas::step_streaming(
        &emit,
        run_id,
        &provider,
        &conversation(),
        &ToolSet::builtin().specs(),
    )
    .await
    .unwrap();
    assert_eq!(turn.text.as_deref(), Some("hi"));
    let said = said.into_inner().unwrap();
    let retrying: Vec<_> = said
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ModelRetrying {
                run_id: r,
                reason,
                retry_at,
                next_try,
                tries,
            } => Some((*r, *reason, *retry_at, *next_try, *tries)),
            _ => None,
        })
        .collect();
    assert_eq!(retrying.len(), 1, "{said:?}");
    let (r, reason, retry_at, next_try, tries) = retrying[0];
    assert_eq!(
        (r, reason, next_try, tries),
        (run_id, RetryReason::Busy, 2, 4)
    );
    assert!(
        (before + 150..before + 5_000).contains(&retry_at),
        "{retry_at} vs {before}"
    );
}
