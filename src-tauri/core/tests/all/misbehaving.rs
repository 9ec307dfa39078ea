//! Model services that misbehave: each must end the step with the right typed
//! [`ProviderError`] and a sentence a person understands, for the OpenAI-compatible and the
//! Anthropic provider alike, and quickly (short configured timeouts, no test waits more than
//! about a second). `run.rs` shows a run through the `AgentRuntime` ending once, and the next
//! task working.

mod run;
mod server;

use askfirst_core::provider::{
    ConnectFailure, ModelTurn, Provider, ProviderError, ProviderErrorCode, ReplyLimit,
    MAX_REPLY_BYTES,
};
use askfirst_core::providers::anthropic::AnthropicProvider;
use askfirst_core::providers::http::MAX_LINE_BYTES;
use askfirst_core::providers::openai::OpenAiProvider;
use askfirst_core::providers::HttpSettings;
use pretty_assertions::assert_eq;
use serde_json::json;
use server::{head, read_request, reply, serve, sse_head, trickle, Server};
use std::time::Duration;
use tokio::io::AsyncWriteExt;

/// The two wire formats.
#[derive(Debug, Clone, Copy)]
pub enum Api {
    OpenAi,
    Anthropic,
}

const APIS: [Api; 2] = [Api::OpenAi, Api::Anthropic];

impl Api {
    pub fn provider(self, settings: HttpSettings) -> Box<dyn Provider> {
        match self {
            Api::OpenAi => Box::new(OpenAiProvider::new(settings)),
            Api::Anthropic => Box::new(AnthropicProvider::new(settings)),
        }
    }

    /// The events before any text: nothing for OpenAI, a message and a text block for
    /// Anthropic.
    pub fn start(self) -> String {
        match self {
            Api::OpenAi => String::new(),
            Api::Anthropic => [
                json!({"type": "message_start", "message": {"id": "m", "role": "assistant", "content": []}}),
                json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            ]
            .iter()
            .map(event)
            .collect(),
        }
    }

    /// One event with a piece of text.
    pub fn text(self, text: &str) -> String {
        event(&match self {
            Api::OpenAi => json!({"choices": [{"index": 0, "delta": {"content": text}}]}),
            Api::Anthropic => json!({"type": "content_block_delta", "index": 0,
                                     "delta": {"type": "text_delta", "text": text}}),
        })
    }

    /// The events of one whole tool call.
    pub fn tool_call(self) -> String {
        let events = match self {
            Api::OpenAi => vec![
                json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c1",
                    "function": {"name": "list_directory", "arguments": "{\"path\": \".\"}"}}]}}]}),
            ],
            Api::Anthropic => vec![
                json!({"type": "content_block_stop", "index": 0}),
                json!({"type": "content_block_start", "index": 1, "content_block":
                    {"type": "tool_use", "id": "c1", "name": "list_directory", "input": {}}}),
                json!({"type": "content_block_delta", "index": 1, "delta":
                    {"type": "input_json_delta", "partial_json": "{\"path\": \".\"}"}}),
                json!({"type": "content_block_stop", "index": 1}),
            ],
        };
        events.iter().map(event).collect()
    }

    /// The events that end a reply.
    pub fn end(self) -> String {
        match self {
            Api::OpenAi => format!(
                "{}data: [DONE]\n\n",
                event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
            ),
            Api::Anthropic => [
                json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}}),
                json!({"type": "message_stop"}),
            ]
            .iter()
            .map(event)
            .collect(),
        }
    }

    /// A whole good reply saying `text`.
    pub fn good(self, text: &str) -> String {
        format!("{}{}{}", self.start(), self.text(text), self.end())
    }
}

fn event(value: &serde_json::Value) -> String {
    match value["type"].as_str() {
        Some(kind) => format!("event: {kind}\ndata: {value}\n\n"),
        None => format!("data: {value}\n\n"),
    }
}

/// Settings for a test: quick retries (5 ms doubling, at most 50 ms) and a 2 s idle timeout.
pub fn settings(base: &str) -> HttpSettings {
    let mut s = HttpSettings::new(base, None, "test-model");
    s.retry_base = Duration::from_millis(5);
    s.max_retry_wait = Duration::from_millis(50);
    s.idle_timeout = Duration::from_secs(2);
    s
}

async fn step_with(api: Api, settings: HttpSettings) -> Result<ModelTurn, ProviderError> {
    let conversation = vec![askfirst_core::provider::Message::User { text: "hi".into() }];
    api.provider(settings)
        .step(&conversation, &[], &|_: &str| {})
        .await
}

async fn step(api: Api, server: &Server) -> Result<ModelTurn, ProviderError> {
    step_with(api, settings(&server.base)).await
}

/// The error of a step that must fail, checked to read as plain words: the sentence names no
/// protocol, status or library, ends with a full stop, and leaves the technical part to
/// `detail()`.
fn failed(api: Api, result: Result<ModelTurn, ProviderError>) -> ProviderError {
    let error = result.expect_err(&format!("{api:?}: the step should fail"));
    let sentence = error.to_string();
    for technical in [
        "HTTP ",
        "JSON",
        "SSE",
        "{",
        "reqwest",
        "hyper",
        "error sending",
        "Content-Type",
        "text/",
        "[DONE]",
        "message_stop",
        "dns",
        "tls",
        "rustls",
        "Os {",
        "os error",
        "bytes",
    ] {
        assert!(
            !sentence.contains(technical),
            "{api:?}: {sentence:?} says {technical:?}"
        );
    }
    assert!(sentence.ends_with('.'), "{sentence:?}");
    assert!(sentence.starts_with(char::is_uppercase), "{sentence:?}");
    assert!(
        sentence.len() < 260,
        "{sentence:?} is too long to read at a glance"
    );
    if let Some(detail) = error.detail() {
        assert!(
            !detail.is_empty() && !sentence.contains(&detail),
            "{error:?}"
        );
    }
    error
}

#[tokio::test]
async fn the_fake_servers_good_replies_are_understood() {
    for api in APIS {
        let body = api.good("hello").into_bytes();
        let server = serve(move |_, socket| reply(socket, sse_head(), body.clone())).await;
        let turn = step(api, &server).await.unwrap();
        assert_eq!(turn.text.as_deref(), Some("hello"), "{api:?}");
    }
}

#[tokio::test]
async fn a_wrong_content_type_is_not_an_ai_service() {
    for api in APIS {
        let body = api.good("hello").into_bytes();
        let server = serve(move |_, socket| {
            reply(
                socket,
                head(200, &[("Content-Type", "text/plain")]),
                body.clone(),
            )
        })
        .await;
        let error = failed(api, step(api, &server).await);
        assert_eq!(
            error,
            ProviderError::NotAnAiService {
                host: format!("127.0.0.1:{}", server.port),
                content_type: "text/plain".into()
            }
        );
        assert!(error
            .to_string()
            .contains("did not answer like a model service"));
    }
}

#[tokio::test]
async fn an_html_login_page_is_a_web_page_not_a_model_service() {
    let page = b"<!doctype html><html><body><form>Sign in to the hotel Wi-Fi</form></body></html>";
    for api in APIS {
        for status in [200, 404] {
            let server = serve(move |_, socket| {
                reply(
                    socket,
                    head(status, &[("Content-Type", "text/html; charset=utf-8")]),
                    page.to_vec(),
                )
            })
            .await;
            let error = failed(api, step(api, &server).await);
            assert_eq!(error.code(), ProviderErrorCode::NotAnAiService, "{error:?}");
            assert!(error.to_string().contains("web page"), "{error}");
        }
    }
}

#[tokio::test]
async fn invalid_json_in_the_stream_is_a_malformed_reply() {
    for api in APIS {
        let body = format!("{}data: {{\"choices\": [nope\n\n", api.start()).into_bytes();
        let server = serve(move |_, socket| reply(socket, sse_head(), body.clone())).await;
        let error = failed(api, step(api, &server).await);
        assert_eq!(error.code(), ProviderErrorCode::MalformedReply, "{error:?}");
        assert!(error.detail().unwrap().contains("not JSON"), "{error:?}");
    }
}

#[tokio::test]
async fn garbage_after_a_tool_call_is_a_malformed_reply_not_a_call() {
    for api in APIS {
        let body = format!(
            "{}{}data: ]]]}}garbage{{\n\n{}",
            api.start(),
            api.tool_call(),
            api.end()
        );
        let body = body.into_bytes();
        let server = serve(move |_, socket| reply(socket, sse_head(), body.clone())).await;
        let error = failed(api, step(api, &server).await);
        assert_eq!(error.code(), ProviderErrorCode::MalformedReply, "{error:?}");
    }
}

#[tokio::test]
async fn a_stream_that_stops_mid_way_ended_early() {
    for api in APIS {
        // Closed cleanly in the middle of an event: the half event is dropped.
        let body = format!("{}{}data: {{\"choi", api.start(), api.text("I will")).into_bytes();
        let server = serve(move |_, socket| reply(socket, sse_head(), body.clone())).await;
        let error = failed(api, step(api, &server).await);
        assert_eq!(error.code(), ProviderErrorCode::EndedEarly, "{error:?}");

        // Chunked transfer broken off inside a chunk: the connection breaks, not the stream.
        let text = format!("{}{}", api.start(), api.text("I will"));
        let body = format!("{:x}\r\n{text}\r\n400\r\ndata: {{", text.len()).into_bytes();
        let chunked = head(
            200,
            &[
                ("Content-Type", "text/event-stream"),
                ("Transfer-Encoding", "chunked"),
            ],
        );
        let server = serve(move |_, socket| reply(socket, chunked.clone(), body.clone())).await;
        let error = failed(api, step(api, &server).await);
        assert_eq!(error.code(), ProviderErrorCode::EndedEarly, "{error:?}");
    }
}

#[tokio::test]
async fn a_server_that_drips_a_byte_a_second_hits_the_idle_timeout() {
    for api in APIS {
        let body = api.good("slow");
        let server = serve(move |_, socket| {
            let bytes: Vec<Vec<u8>> = body.bytes().map(|b| vec![b]).collect();
            trickle(
                socket,
                sse_head(),
                bytes.into_iter(),
                Duration::from_secs(1),
            )
        })
        .await;
        let mut quick = settings(&server.base);
        quick.idle_timeout = Duration::from_millis(200);
        let error = failed(api, step_with(api, quick).await);
        assert_eq!(
            error,
            ProviderError::IdleTimeout {
                host: format!("127.0.0.1:{}", server.port),
                waited: Duration::from_millis(200)
            }
        );
    }
}

#[tokio::test]
async fn a_server_that_never_answers_or_only_keeps_alive_hits_the_idle_timeout() {
    for api in APIS {
        // Accepts, reads the request, and sends no head at all.
        let server = serve(|_, mut socket| async move {
            read_request(&mut socket).await;
            tokio::time::sleep(Duration::from_secs(5)).await;
            drop(socket);
        })
        .await;
        let mut quick = settings(&server.base);
        quick.idle_timeout = Duration::from_millis(200);
        let error = failed(api, step_with(api, quick.clone()).await);
        assert_eq!(error.code(), ProviderErrorCode::IdleTimeout, "{error:?}");
        assert_eq!(
            server.connections(),
            1,
            "a silent service is not asked again"
        );

        // Sends a comment at once, then nothing.
        let server = serve(|_, socket| {
            trickle(
                socket,
                sse_head(),
                vec![b": keep-alive\n\n".to_vec()].into_iter(),
                Duration::from_secs(5),
            )
        })
        .await;
        quick.base_url = server.base.clone();
        let error = failed(api, step_with(api, quick).await);
        assert_eq!(error.code(), ProviderErrorCode::IdleTimeout, "{error:?}");
    }
}

#[tokio::test]
async fn huge_or_countless_headers_are_a_malformed_reply() {
    let huge = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Huge: {}\r\n\r\n",
        "h".repeat(1024 * 1024)
    );
    let many: String = (0..5000)
        .map(|n| format!("X-Header-{n}: {n}\r\n"))
        .collect();
    let many = format!("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n{many}\r\n");
    for api in APIS {
        for head in [huge.clone(), many.clone()] {
            let server = serve(move |_, socket| reply(socket, head.clone(), Vec::new())).await;
            let error = failed(api, step(api, &server).await);
            assert_eq!(error.code(), ProviderErrorCode::MalformedReply, "{error:?}");
            assert_eq!(
                server.connections(),
                1,
                "an unreadable head is not asked again"
            );
        }
    }
}

#[tokio::test]
async fn one_64_mb_line_ends_at_the_line_bound() {
    for api in APIS {
        let server = serve(|_, socket| {
            let start = b"data: {\"choices\": [{\"delta\": {\"content\": \"".to_vec();
            let line = std::iter::once(start).chain((0..1024).map(|_| vec![b'a'; 64 * 1024]));
            trickle(socket, sse_head(), line, Duration::ZERO)
        })
        .await;
        let error = failed(api, step(api, &server).await);
        assert_eq!(
            error,
            ProviderError::TooLarge {
                host: format!("127.0.0.1:{}", server.port),
                limit: ReplyLimit::Line {
                    bytes: MAX_LINE_BYTES
                }
            }
        );
    }
}

#[tokio::test]
async fn a_reply_that_never_ends_stops_at_the_total_bound() {
    for api in APIS {
        let server = serve(move |_, socket| {
            let piece = api.text(&"word ".repeat(2000)).into_bytes();
            let body = std::iter::once(api.start().into_bytes()).chain(std::iter::repeat(piece));
            trickle(socket, sse_head(), body, Duration::ZERO)
        })
        .await;
        let error = failed(api, step(api, &server).await);
        assert_eq!(error.code(), ProviderErrorCode::TooLarge, "{error:?}");
        assert!(
            matches!(error, ProviderError::TooLarge { limit: ReplyLimit::Reply { bytes }, .. } if bytes == MAX_REPLY_BYTES),
            "{error:?}"
        );
    }
}

#[tokio::test]
async fn retry_after_that_is_infinite_huge_negative_or_a_date_cannot_hurt() {
    for api in APIS {
        for value in [
            "inf",
            "1e300",
            "-1",
            "NaN",
            "99999999999999999999999",
            "Fri, 31 Dec 9999 23:59:59 GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "soon",
        ] {
            let good = api.good("after the wait").into_bytes();
            let server = serve(move |n, socket| {
                let (head, body) = match n {
                    0 => (
                        head(
                            429,
                            &[("Content-Type", "application/json"), ("Retry-After", value)],
                        ),
                        br#"{"error": {"message": "slow down"}}"#.to_vec(),
                    ),
                    _ => (sse_head(), good.clone()),
                };
                reply(socket, head, body)
            })
            .await;
            let turn = step(api, &server).await;
            assert_eq!(
                turn.map(|t| t.text),
                Ok(Some("after the wait".to_owned())),
                "{api:?} Retry-After: {value}"
            );
            assert_eq!(server.connections(), 2, "{value}");
        }
    }
}

#[tokio::test]
async fn the_retry_wait_is_the_servers_capped_or_the_doubling_backoff() {
    let s = settings("http://127.0.0.1:1");
    assert_eq!(s.retry_wait(0, None), Duration::from_millis(5));
    assert_eq!(s.retry_wait(2, None), Duration::from_millis(20));
    assert_eq!(s.retry_wait(40, None), Duration::from_millis(50));
    assert_eq!(
        s.retry_wait(0, Some(Duration::MAX)),
        Duration::from_millis(50)
    );
    assert_eq!(s.retry_wait(3, Some(Duration::ZERO)), Duration::ZERO);
}

#[tokio::test]
async fn a_429_storm_ends_as_rate_limited_after_the_retries() {
    for api in APIS {
        let server = serve(|_, socket| {
            reply(
                socket,
                head(
                    429,
                    &[("Content-Type", "application/json"), ("Retry-After", "0")],
                ),
                br#"{"error": {"message": "Rate limit reached for requests"}}"#.to_vec(),
            )
        })
        .await;
        let error = failed(api, step(api, &server).await);
        assert_eq!(
            error,
            ProviderError::RateLimited {
                host: format!("127.0.0.1:{}", server.port),
                tries: 4,
                detail: "Rate limit reached for requests".into()
            }
        );
        assert_eq!(server.connections(), 4, "one try and three retries");
    }
}

#[tokio::test]
async fn server_errors_end_as_server_error_after_the_retries() {
    let page = b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";
    for api in APIS {
        let server = serve(move |_, socket| {
            reply(
                socket,
                head(502, &[("Content-Type", "text/html")]),
                page.to_vec(),
            )
        })
        .await;
        let error = failed(api, step(api, &server).await);
        assert!(
            matches!(
                error,
                ProviderError::ServerError {
                    status: 502,
                    tries: 4,
                    ..
                }
            ),
            "{error:?}"
        );
        assert_eq!(server.connections(), 4);
    }
}

#[tokio::test]
async fn an_error_object_in_place_of_a_reply_is_the_services_error() {
    for api in APIS {
        let body =
            br#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#;
        let server = serve(move |_, socket| {
            reply(
                socket,
                head(200, &[("Content-Type", "application/json")]),
                body.to_vec(),
            )
        })
        .await;
        let error = failed(api, step(api, &server).await);
        assert_eq!(error.code(), ProviderErrorCode::ServiceError, "{error:?}");
        assert_eq!(error.detail().as_deref(), Some("Overloaded"));
    }
}

#[tokio::test]
async fn a_server_that_does_not_stream_still_answers_for_openai() {
    let body = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": "whole"},
                                    "finish_reason": "stop"}]});
    let body = body.to_string().into_bytes();
    let server = serve(move |_, socket| {
        reply(
            socket,
            head(200, &[("Content-Type", "application/json")]),
            body.clone(),
        )
    })
    .await;
    let turn = step(Api::OpenAi, &server).await.unwrap();
    assert_eq!(turn.text.as_deref(), Some("whole"));
}

#[tokio::test]
async fn a_refused_connection_says_nothing_answered() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    for api in APIS {
        let error = failed(
            api,
            step_with(api, settings(&format!("http://127.0.0.1:{port}"))).await,
        );
        assert!(
            matches!(
                error,
                ProviderError::CannotConnect {
                    reason: ConnectFailure::Refused,
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(
            error
                .to_string()
                .starts_with("Nothing answered at 127.0.0.1:"),
            "{error}"
        );
    }
}

#[tokio::test]
async fn tls_to_a_plain_http_port_is_a_secure_connection_failure_not_retried() {
    for api in APIS {
        let server = serve(|_, mut socket| async move {
            let mut hello = [0u8; 512];
            let _ = tokio::io::AsyncReadExt::read(&mut socket, &mut hello).await;
            let _ = socket
                .write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                .await;
            let _ = socket.shutdown().await;
        })
        .await;
        let error = failed(
            api,
            step_with(api, settings(&format!("https://127.0.0.1:{}", server.port))).await,
        );
        assert!(
            matches!(
                error,
                ProviderError::CannotConnect {
                    reason: ConnectFailure::Tls,
                    ..
                }
            ),
            "{error:?}"
        );
        assert_eq!(
            server.connections(),
            1,
            "a TLS failure does not cure itself"
        );
    }
}

#[tokio::test]
async fn a_host_that_does_not_exist_is_a_name_not_found() {
    // `.invalid` never resolves (RFC 6761); a resolver answers at once.
    let mut s = settings("http://askfirst-no-such-host.invalid");
    s.idle_timeout = Duration::from_secs(30);
    let error = failed(Api::OpenAi, step_with(Api::OpenAi, s).await);
    assert!(
        matches!(
            error,
            ProviderError::CannotConnect {
                reason: ConnectFailure::NameNotFound,
                ..
            }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_refused_key_behind_a_login_page_is_still_the_key() {
    for api in APIS {
        let server = serve(|_, socket| {
            reply(
                socket,
                head(401, &[("Content-Type", "text/html")]),
                b"<html>Log in</html>".to_vec(),
            )
        })
        .await;
        let error = failed(api, step(api, &server).await);
        assert_eq!(error.code(), ProviderErrorCode::Unauthorized, "{error:?}");
        assert_eq!(server.connections(), 1);
    }
}
