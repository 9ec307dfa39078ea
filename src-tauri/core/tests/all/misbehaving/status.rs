//! Misbehaving services seen in the status line and the connection: Retry-After values that
//! once panicked the run, 429 storms, 5xx pages, refused keys, refused connections, TLS to a
//! plain-HTTP port, unknown hosts.

use super::fixtures::{failed, settings, step, step_with, Api, APIS};
use super::server::{head, reply, serve, sse_head, trickle};
use askfirst_core::provider::{ConnectFailure, ProviderError, ProviderErrorCode};
use pretty_assertions::assert_eq;
use std::time::Duration;
use tokio::io::AsyncWriteExt;

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
            // A wait longer than any Ask First makes fails at once, with a sentence; whatever
            // cannot be read as a wait is tried again after Ask First's own.
            if [
                "1e300",
                "99999999999999999999999",
                "Fri, 31 Dec 9999 23:59:59 GMT",
            ]
            .contains(&value)
            {
                assert!(
                    matches!(turn, Err(ProviderError::BusyTooLong { .. })),
                    "{api:?} Retry-After: {value}: {turn:?}"
                );
                assert_eq!(server.connections(), 1, "{value}");
                continue;
            }
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

#[tokio::test]
async fn an_error_body_dripped_a_byte_at_a_time_is_read_for_one_idle_timeout_at_most() {
    let server = serve(|_, socket| {
        let body = (0..100).map(|n| vec![b'a' + (n % 26) as u8]);
        trickle(
            socket,
            head(503, &[("Content-Type", "text/plain")]),
            body,
            Duration::from_millis(100),
        )
    })
    .await;
    let mut s = settings(&server.base);
    s.max_retries = 0;
    s.idle_timeout = Duration::from_millis(500);
    let error = failed(Api::OpenAi, step_with(Api::OpenAi, s).await);
    let ProviderError::ServerError {
        detail, tries: 1, ..
    } = &error
    else {
        panic!("{error:?}");
    };
    assert!(
        !detail.is_empty()
            && detail.len() < 100
            && "abcdefghijklmnopqrstuvwxyz".starts_with(detail.as_str()),
        "only what came within the idle timeout: {detail:?}"
    );
}

#[tokio::test]
async fn a_server_that_hangs_up_or_speaks_no_http_is_told_apart() {
    for api in APIS {
        // Reads the request and closes without a word: retried, then "closed the connection".
        let server = serve(|_, mut socket| async move {
            super::server::read_request(&mut socket).await;
            drop(socket);
        })
        .await;
        let error = failed(api, step(api, &server).await);
        assert!(
            matches!(
                error,
                ProviderError::CannotConnect {
                    reason: ConnectFailure::Dropped,
                    ..
                }
            ),
            "{error:?}"
        );
        assert_eq!(
            server.connections(),
            4,
            "a dropped connection may be a restart"
        );

        // Answers with something that is not HTTP: unreadable, and not asked again.
        let server =
            serve(|_, socket| reply(socket, "SSH-2.0-OpenSSH_9.6\r\n\r\n".into(), Vec::new()))
                .await;
        let error = failed(api, step(api, &server).await);
        assert_eq!(error.code(), ProviderErrorCode::MalformedReply, "{error:?}");
        assert_eq!(server.connections(), 1);
    }
}
