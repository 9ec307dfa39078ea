//! One reply read as a bounded stream of events: [`stream_events`] sends the request (through
//! [`super::http::send`]'s retries) and checks the content type; [`EventStream`] yields the
//! events, enforcing the bounds on size and on silence. Both providers' send-and-stream loop.

use super::http::{chain, media_type, send, HttpSettings, MAX_EVENT_BYTES, MAX_LINE_BYTES};
use super::sse::{SseError, SseEvent, SseParser};
use crate::provider::ProviderError;
use std::time::Duration;

/// Sends the request (as [`send`]) and reads its reply as a stream of events: server-sent
/// events for `text/event-stream` (or no `Content-Type`), or one event holding the whole body
/// for `application/json` (a server that answered without streaming, or with an error
/// object).
///
/// # Errors
/// Those of [`send`], and [`ProviderError::NotAnAiService`] for any other content type.
pub async fn stream_events(
    settings: &HttpSettings,
    build: impl Fn() -> reqwest::RequestBuilder,
) -> Result<EventStream, ProviderError> {
    let response = send(settings, build).await?;
    let content_type = media_type(&response);
    let whole = match content_type.as_str() {
        "text/event-stream" | "" => None,
        "application/json" => Some(Vec::new()),
        _ => {
            return Err(ProviderError::NotAnAiService {
                host: settings.host(),
                content_type,
            })
        }
    };
    Ok(EventStream {
        host: settings.host(),
        idle: settings.idle_timeout,
        response,
        parser: SseParser::new(MAX_LINE_BYTES, MAX_EVENT_BYTES),
        whole,
        received: 0,
        ended: false,
        deadline: tokio::time::Instant::now() + settings.max_reply_time,
        max_reply_time: settings.max_reply_time,
    })
}

/// The events of one reply, bounded: at most [`crate::provider::MAX_REPLY_BYTES`] in all,
/// lines of at most [`MAX_LINE_BYTES`], events of at most [`MAX_EVENT_BYTES`], at most the
/// settings' idle timeout between two pieces and their `max_reply_time` in all. Nothing past a
/// bound is buffered or parsed; the work is linear in the bytes received.
pub struct EventStream {
    host: String,
    idle: Duration,
    response: reqwest::Response,
    parser: SseParser,
    /// `Some` for a body read whole (JSON): the bytes so far.
    whole: Option<Vec<u8>>,
    received: usize,
    ended: bool,
    /// When the body must have ended (`max_reply_time` after its head came).
    deadline: tokio::time::Instant,
    max_reply_time: Duration,
}

impl EventStream {
    /// The next event, or `None` when the reply ended (the caller decides whether it ended
    /// early).
    ///
    /// # Errors
    /// [`ProviderError::TooLarge`] past a bound, [`ProviderError::IdleTimeout`],
    /// [`ProviderError::TooSlow`], and
    /// [`ProviderError::EndedEarly`] when the connection broke.
    pub async fn next(&mut self) -> Result<Option<SseEvent>, ProviderError> {
        use crate::provider::{ReplyLimit, MAX_REPLY_BYTES};
        loop {
            if let Some(event) = self.parser.next_event() {
                return Ok(Some(event));
            }
            if self.ended {
                return Ok(self.whole.take().map(|body| SseEvent {
                    event: String::new(),
                    data: String::from_utf8_lossy(&body).into_owned(),
                }));
            }
            let until = self.deadline.min(tokio::time::Instant::now() + self.idle);
            let piece = match tokio::time::timeout_at(until, self.response.chunk()).await {
                Err(_) if until == self.deadline => {
                    return Err(ProviderError::TooSlow {
                        host: self.host.clone(),
                        limit: self.max_reply_time,
                    })
                }
                Err(_) => {
                    return Err(ProviderError::IdleTimeout {
                        host: self.host.clone(),
                        waited: self.idle,
                    })
                }
                Ok(Ok(None)) => {
                    self.ended = true;
                    continue;
                }
                Ok(Err(error)) => {
                    return Err(ProviderError::EndedEarly {
                        host: self.host.clone(),
                        detail: chain(&error),
                    })
                }
                Ok(Ok(Some(piece))) => piece,
            };
            self.received = self.received.saturating_add(piece.len());
            let too_large = |limit| ProviderError::TooLarge {
                host: self.host.clone(),
                limit,
            };
            if self.received > MAX_REPLY_BYTES {
                return Err(too_large(ReplyLimit::Reply {
                    bytes: MAX_REPLY_BYTES,
                }));
            }
            match &mut self.whole {
                Some(body) if body.len() + piece.len() > MAX_EVENT_BYTES => {
                    return Err(too_large(ReplyLimit::Event {
                        bytes: MAX_EVENT_BYTES,
                    }))
                }
                Some(body) => body.extend_from_slice(&piece),
                None => self.parser.feed(&piece).map_err(|e| {
                    too_large(match e {
                        SseError::LineTooLong(bytes) => ReplyLimit::Line { bytes },
                        SseError::EventTooLarge(bytes) => ReplyLimit::Event { bytes },
                    })
                })?,
            }
        }
    }

    /// The service's host name, for errors the caller makes.
    pub fn host(&self) -> &str {
        &self.host
    }
}
