//! Model services that misbehave: each must end the step with the right typed
//! [`ProviderError`] and a sentence a person understands, for the OpenAI-compatible and the
//! Anthropic provider alike, and quickly (short configured timeouts, no test waits more than
//! about a second). `status.rs` covers statuses and connections; `run.rs` shows a run through the `AgentRuntime` ending once, and the next
//! task working.

mod fixtures;
mod run;
pub mod server;
mod status;

use askfirst_core::provider::{ProviderError, ProviderErrorCode, ReplyLimit, MAX_REPLY_BYTES};
use askfirst_core::providers::http::MAX_LINE_BYTES;
use fixtures::{failed, settings, step, step_with, Api, APIS};
use pretty_assertions::assert_eq;
use serde_json::json;
use server::{head, read_request, reply, serve, sse_head, trickle};
use std::time::Duration;

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
async fn an_openai_server_silent_after_its_finish_reason_has_answered() {
    let finished = json!({"choices": [{"index": 0, "delta": {"content": "All done."},
                                       "finish_reason": "stop"}]});
    let body = format!("data: {finished}\n\n").into_bytes();
    let server = serve(move |_, socket| {
        trickle(
            socket,
            sse_head(),
            vec![body.clone()].into_iter(),
            Duration::from_secs(5),
        )
    })
    .await;
    let mut quick = settings(&server.base);
    quick.idle_timeout = Duration::from_millis(200);
    let turn = step_with(Api::OpenAi, quick.clone()).await.unwrap();
    assert_eq!(turn.text.as_deref(), Some("All done."));

    // Without the finish_reason, the same silence is a timeout.
    let body = Api::OpenAi.text("Half").into_bytes();
    let server = serve(move |_, socket| {
        trickle(
            socket,
            sse_head(),
            vec![body.clone()].into_iter(),
            Duration::from_secs(5),
        )
    })
    .await;
    quick.base_url = server.base.clone();
    let error = failed(Api::OpenAi, step_with(Api::OpenAi, quick).await);
    assert_eq!(error.code(), ProviderErrorCode::IdleTimeout, "{error:?}");
}

#[tokio::test]
async fn a_drip_just_under_the_idle_timeout_still_ends_at_the_reply_time() {
    for api in APIS {
        let body = api.good(&"slow ".repeat(100));
        let server = serve(move |_, socket| {
            let bytes: Vec<Vec<u8>> = body.bytes().map(|b| vec![b]).collect();
            trickle(
                socket,
                sse_head(),
                bytes.into_iter(),
                Duration::from_millis(20),
            )
        })
        .await;
        let mut quick = settings(&server.base);
        quick.idle_timeout = Duration::from_millis(200);
        quick.max_reply_time = Duration::from_millis(400);
        let error = failed(api, step_with(api, quick).await);
        assert_eq!(
            error,
            ProviderError::TooSlow {
                host: format!("127.0.0.1:{}", server.port),
                limit: Duration::from_millis(400)
            }
        );
    }
}
