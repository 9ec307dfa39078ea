//! What the HTTP providers share: settings, the redacted API key, sending with retries,
//! turning error replies into [`ProviderError`]s a person can act on, and reading a reply as
//! a bounded stream of events ([`stream_events`], in `events.rs`).
//!
//! Every input from a service is bounded here: the reply's head (hyper's limits), the wait
//! for each byte ([`HttpSettings::idle_timeout`]) and for the whole reply
//! ([`HttpSettings::max_reply_time`]), `Retry-After` ([`super::retry_after`],
//! capped by [`HttpSettings::max_retry_wait`]), an error body ([`MAX_ERROR_BODY_BYTES`]),
//! a line ([`MAX_LINE_BYTES`]), an event ([`MAX_EVENT_BYTES`]) and the whole reply
//! ([`crate::provider::MAX_REPLY_BYTES`]). Where to change a timeout or a bound: here.

pub use super::events::{stream_events, EventStream};
use crate::provider::ProviderError;
use std::time::Duration;

/// An API key. Its `Debug` and `Display` never show it, so it cannot reach a log, an event or
/// the session file by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key (surrounding whitespace removed).
    pub fn new(key: &str) -> Self {
        Self(key.trim().to_owned())
    }
    /// The key itself, for the request header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// How long a reply may go without a single byte before the step fails with
/// [`ProviderError::IdleTimeout`]: while waiting for the reply's headers and between pieces of
/// its body. Why 120 s: streaming services send something every few seconds (Anthropic sends
/// `ping` events; OpenAI-compatible servers a chunk per token) and a local server loading a
/// large model answers within a minute or so; a service silent for two minutes is not coming
/// back, and the person should hear so instead of watching "Working…".
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(120);

/// The longest one reply may take, from its head to its last byte, before the step fails with
/// [`ProviderError::TooSlow`]: a service that sends a byte just often enough to stay under the
/// idle timeout cannot hold a run for good. Why 30 minutes: a local model on a CPU writes a
/// few tokens a second, so 30 minutes is several thousand tokens, more than the 4,096 an
/// Anthropic reply may use ([`super::anthropic::MAX_TOKENS`]); hosted services take seconds.
pub const DEFAULT_MAX_REPLY_TIME: Duration = Duration::from_secs(30 * 60);

/// How to reach one service.
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// The API's base URL, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    /// The key, if the service needs one (local servers often do not).
    pub api_key: Option<ApiKey>,
    /// The model name.
    pub model: String,
    /// How many times a failed request is retried (429, 5xx, connection errors).
    pub max_retries: u32,
    /// The first wait between tries; it doubles each time unless `Retry-After` says otherwise.
    pub retry_base: Duration,
    /// The longest wait between tries, even if `Retry-After` asks for more.
    pub max_retry_wait: Duration,
    /// The longest time without a byte from the service ([`DEFAULT_IDLE_TIMEOUT`]).
    pub idle_timeout: Duration,
    /// The longest time one reply's body may take ([`DEFAULT_MAX_REPLY_TIME`]).
    pub max_reply_time: Duration,
}

impl HttpSettings {
    /// Settings with the default retry behaviour (3 retries, 1 s doubling, at most 30 s),
    /// [`DEFAULT_IDLE_TIMEOUT`] and [`DEFAULT_MAX_REPLY_TIME`].
    pub fn new(base_url: &str, api_key: Option<ApiKey>, model: &str) -> Self {
        Self {
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key,
            model: model.to_owned(),
            max_retries: 3,
            retry_base: Duration::from_secs(1),
            max_retry_wait: Duration::from_secs(30),
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_reply_time: DEFAULT_MAX_REPLY_TIME,
        }
    }

    /// The host name shown in messages ("api.openai.com", "127.0.0.1:11434").
    pub fn host(&self) -> String {
        reqwest::Url::parse(&self.base_url)
            .ok()
            .and_then(|u| {
                u.host_str().map(|h| match u.port() {
                    Some(port) => format!("{h}:{port}"),
                    None => h.to_owned(),
                })
            })
            .unwrap_or_else(|| self.base_url.clone())
    }

    /// How long to wait before retry number `retry` (0-based): the server's `Retry-After`
    /// if it gave a usable one, else `retry_base` doubled per retry; never more than
    /// `max_retry_wait`.
    pub fn retry_wait(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        retry_after
            .unwrap_or_else(|| {
                self.retry_base
                    .saturating_mul(2u32.saturating_pow(retry.min(31)))
            })
            .min(self.max_retry_wait)
    }
}

/// A request to the model service that waits to be sent again ([`send`]'s retries).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryWait {
    /// Why.
    pub reason: askfirst_protocol::RetryReason,
    /// How long it waits.
    pub wait: Duration,
    /// Which try comes next (2 for the first retry).
    pub next_try: u32,
    /// How many tries there are in all (`max_retries + 1`).
    pub tries: u32,
}

/// Who is told of a [`RetryWait`] (the run, which tells the window).
pub type RetryNotice = std::sync::Arc<dyn Fn(&RetryWait) + Send + Sync>;

tokio::task_local! {
    /// The notice of the step being run ([`telling_retries`]); none outside one (a
    /// connection test).
    static ON_RETRY: RetryNotice;
}

/// Runs `step` (a provider's request) so that each retry [`send`] waits for inside it is told
/// to `notice` before the wait.
pub async fn telling_retries<F: std::future::Future>(notice: RetryNotice, step: F) -> F::Output {
    ON_RETRY.scope(notice, step).await
}

/// An HTTP client for providers: connect timeout 15 s, no overall timeout (a reply may stream
/// for minutes; the idle timeout bounds silence, and cancelling the run drops the request).
/// Response headers are bounded by hyper's defaults (100 headers, about 400 KB in all); more
/// fails the request as [`ProviderError::Malformed`].
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(15))
        .build()
        .unwrap_or_default()
}

/// The longest line of a streamed reply, in bytes (without its line break); past it the step
/// fails with [`ProviderError::TooLarge`]. Providers send each delta as a short event; 2 MiB
/// leaves room for a server that sends a whole large tool call in one event.
pub const MAX_LINE_BYTES: usize = 2 * 1024 * 1024;

/// The most data of one event (its `data:` lines together, or a whole JSON reply), in bytes;
/// past it the step fails with [`ProviderError::TooLarge`]. Twice [`MAX_LINE_BYTES`].
pub const MAX_EVENT_BYTES: usize = 2 * MAX_LINE_BYTES;

/// The most bytes of an error reply's body that are read for its message; the rest is
/// dropped unread. An error message is a sentence or two; 64 KiB is plenty.
pub const MAX_ERROR_BODY_BYTES: usize = 64 * 1024;

/// The service's error message from a JSON error body (`{"error": {"message": …}}`,
/// `{"error": "…"}`, `{"message": …}`, or one of these in an array of one), or the start of the body (at most 300 characters).
pub fn error_message(body: &str) -> String {
    let from_json = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            // Google's APIs send their error object in an array of one.
            let v = v.get(0).filter(|_| v.is_array()).unwrap_or(&v);
            let error = v.get("error").unwrap_or(v);
            error
                .get("message")
                .and_then(|m| m.as_str())
                .or_else(|| error.as_str())
                .map(str::to_owned)
        });
    from_json.unwrap_or_else(|| {
        let trimmed = body.trim();
        let mut cut: String = trimmed.chars().take(300).collect();
        if trimmed.chars().count() > 300 {
            cut.push('…');
        }
        if cut.is_empty() {
            "no details given".to_owned()
        } else {
            cut
        }
    })
}

/// The start of `text` for a detail (at most 200 characters), marked when cut.
pub fn excerpt(text: &str) -> String {
    let mut cut: String = text.chars().take(200).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    cut
}

/// Whether an error body says the model does not exist: OpenAI's `model_not_found` or "does
/// not exist", Ollama's "model \"x\" not found", Anthropic's `not_found_error` with
/// "model: x".
fn looks_like_unknown_model(body: &str) -> bool {
    let lower = body.to_lowercase();
    lower.contains("model_not_found")
        || (lower.contains("model")
            && (lower.contains("not found")
                || lower.contains("does not exist")
                || lower.contains("not_found_error")))
}

/// Whether an error body says the conversation is longer than the model reads at once (its
/// context window). Read from the reply's JSON where the service names the case (OpenAI and
/// Groq `error.code` `context_length_exceeded`; llama.cpp's server `error.type`
/// `exceed_context_size_error`), else from the wording services use in their message
/// (Anthropic "prompt is too long: N tokens > M maximum", "input length and `max_tokens`
/// exceed context limit"; vLLM, OpenRouter and OpenAI "maximum context length is N tokens";
/// OpenAI's Responses API "exceeds the context window"; Mistral "… maximum context length";
/// Gemini's OpenAI-compatible API "exceeds the maximum number of tokens allowed"; vLLM's
/// engine "longer than the maximum model length"; LM Studio, in its stream, "does not fit in
/// context length"). It only chooses the sentence a person reads: the request has already
/// been refused either way.
pub(crate) fn looks_like_context_overflow(body: &str) -> bool {
    const CODES: [&str; 2] = ["context_length_exceeded", "exceed_context_size_error"];
    let named = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .is_some_and(|v| {
            let error = v.get("error").unwrap_or(&v);
            ["code", "type"].iter().any(|field| {
                error
                    .get(field)
                    .and_then(|c| c.as_str())
                    .is_some_and(|c| CODES.contains(&c))
            })
        });
    let message = error_message(body).to_lowercase();
    named
        || [
            "context length",
            "context_length_exceeded",
            "context window",
            "context limit",
            "context size",
            "maximum model length",
            "prompt is too long",
            "maximum number of tokens allowed",
        ]
        .iter()
        .any(|words| message.contains(words))
}

/// Whether an error body is a rate limit's (`error.code` `rate_limit_exceeded`, "… per
/// minute …"), for a 413 that is one.
fn looks_like_rate_limit(body: &str) -> bool {
    let lower = body.to_lowercase();
    lower.contains("rate_limit_exceeded") || lower.contains("per minute")
}

/// Whether a service's message says that this one request is larger than the plan lets
/// through in a minute, so that waiting cannot help: OpenAI's 429 "Request too large for
/// gpt-4o in organization … on tokens per min (TPM): Limit 30000, Requested 45000", Groq's 413
/// "Request too large for model … on tokens per minute (TPM): Limit 6000, Requested 7310".
fn looks_like_request_over_plan(message: &str) -> bool {
    message.to_lowercase().contains("request too large")
}

/// The media type of a response's `Content-Type`, lower case, without parameters
/// (`text/event-stream; charset=utf-8` → `text/event-stream`); empty when there is none.
pub(super) fn media_type(response: &reqwest::Response) -> String {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// Up to `cap` bytes of a body, read within `within` in all (a body dripped a byte at a time
/// cannot hold the step); whatever fails or is late ends it with what came so far.
async fn read_capped(mut response: reqwest::Response, cap: usize, within: Duration) -> String {
    let deadline = tokio::time::Instant::now() + within;
    let mut body = Vec::new();
    while body.len() < cap {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(piece))) => {
                let room = cap - body.len();
                body.extend_from_slice(&piece[..piece.len().min(room)]);
            }
            _ => break,
        }
    }
    String::from_utf8_lossy(&body).into_owned()
}

/// An error and its causes in one line: "error sending request: … : connection refused".
pub(super) fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut out = String::new();
    for cause in causes(error) {
        let text = cause.to_string();
        if !out.contains(&text) {
            if !out.is_empty() {
                out.push_str(": ");
            }
            out.push_str(&text);
        }
    }
    out
}

/// An error and its causes, outermost first. An `io::Error` that wraps another error is
/// followed into that error itself (its `source()` skips it and goes to the wrapped error's
/// source).
fn causes<'a>(
    error: &'a (dyn std::error::Error + 'static),
) -> impl Iterator<Item = &'a (dyn std::error::Error + 'static)> {
    std::iter::successors(Some(error), |e| match e.downcast_ref::<std::io::Error>() {
        Some(io) => io
            .get_ref()
            .map(|inner| inner as &(dyn std::error::Error + 'static)),
        None => e.source(),
    })
}

/// A failure to send or to get the reply's head as a [`ProviderError`], and whether another
/// try may help.
fn transport_error(host: &str, error: &reqwest::Error) -> (ProviderError, bool) {
    use crate::provider::ConnectFailure;
    let detail = chain(error);
    // The innermost kind is the telling one (an `Other` often wraps the real one).
    let io_kind = causes(error)
        .filter_map(|e| e.downcast_ref::<std::io::Error>().map(std::io::Error::kind))
        .last();
    let hyper = causes(error).find_map(|e| e.downcast_ref::<hyper::Error>());
    if hyper.is_some_and(hyper::Error::is_parse) {
        // The reply's head could not be read (too large, too many headers, not HTTP at all).
        return (
            ProviderError::Malformed {
                host: host.to_owned(),
                detail,
            },
            false,
        );
    }
    let reason = if error.is_timeout() || io_kind == Some(std::io::ErrorKind::TimedOut) {
        ConnectFailure::TimedOut
    } else if io_kind == Some(std::io::ErrorKind::ConnectionRefused) {
        ConnectFailure::Refused
    } else if causes(error).any(|e| e.downcast_ref::<rustls::Error>().is_some())
        || (error.is_connect() && io_kind == Some(std::io::ErrorKind::InvalidData))
    {
        // A plain-HTTP port, a bad certificate: rustls says so, or tokio-rustls reports it as
        // invalid data.
        ConnectFailure::Tls
    } else if error.is_connect() && detail.contains("dns error") {
        // hyper-util's resolver names its failures so; it has no type of its own to test.
        ConnectFailure::NameNotFound
    } else if matches!(
        io_kind,
        Some(
            std::io::ErrorKind::ConnectionReset
                | std::io::ErrorKind::ConnectionAborted
                | std::io::ErrorKind::BrokenPipe
                | std::io::ErrorKind::UnexpectedEof
        )
    ) || hyper.is_some_and(|h| h.is_incomplete_message() || h.is_closed())
    {
        ConnectFailure::Dropped
    } else {
        ConnectFailure::Other
    };
    let retry = !matches!(reason, ConnectFailure::Tls | ConnectFailure::NameNotFound);
    (
        ProviderError::CannotConnect {
            host: host.to_owned(),
            reason,
            detail,
        },
        retry,
    )
}

/// Sends the request `build` makes, retrying on 429, 5xx and connection errors that another
/// try may cure, and returns a successful response (whose body may still stream). Each try
/// waits at most `settings.idle_timeout` for the reply's head.
///
/// # Errors
/// [`ProviderError::Auth`] on 401/403, [`ProviderError::ModelNotFound`] when the service says
/// the model does not exist, [`ProviderError::ContextTooLong`] on 413, or on 400/422 when it
/// says the conversation is longer than the model reads ([`looks_like_context_overflow`]),
/// [`ProviderError::NotAnAiService`] for a web page,
/// [`ProviderError::Refused`] on other client errors, [`ProviderError::RateLimited`],
/// [`ProviderError::ServerError`] or [`ProviderError::CannotConnect`] when the retries ran out
/// (TLS and DNS failures are not retried), [`ProviderError::Malformed`] for an unreadable
/// head and [`ProviderError::IdleTimeout`].
pub async fn send(
    settings: &HttpSettings,
    build: impl Fn() -> reqwest::RequestBuilder,
) -> Result<reqwest::Response, ProviderError> {
    let host = settings.host();
    let idle = settings.idle_timeout;
    let mut tries = 0u32;
    loop {
        tries += 1;
        let (failure, retry_after) = match tokio::time::timeout(idle, build().send()).await {
            Err(_) => return Err(ProviderError::IdleTimeout { host, waited: idle }),
            Ok(Ok(response)) if response.status().is_success() => return Ok(response),
            Ok(Ok(response)) => {
                let status = response.status().as_u16();
                let retry_after = response
                    .headers()
                    .get(reqwest::header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| super::retry_after::parse(v, std::time::SystemTime::now()));
                let content_type = media_type(&response);
                let body = read_capped(response, MAX_ERROR_BODY_BYTES, idle).await;
                let detail = error_message(&body);
                let host = host.clone();
                let failure = match status {
                    401 | 403 => {
                        return Err(ProviderError::Auth {
                            host,
                            status,
                            detail,
                        })
                    }
                    // One request over the plan's tokens a minute: no wait lets it through.
                    413 | 429 if looks_like_request_over_plan(&detail) => {
                        return Err(ProviderError::OverPlanLimit {
                            host,
                            status,
                            detail,
                        })
                    }
                    429 => ProviderError::RateLimited {
                        host,
                        tries,
                        detail,
                    },
                    500..=599 => ProviderError::ServerError {
                        host,
                        status,
                        tries,
                        detail,
                    },
                    // Another rate limit answered with 413: as 429.
                    413 if looks_like_rate_limit(&body) => ProviderError::RateLimited {
                        host,
                        tries,
                        detail,
                    },
                    413 => {
                        return Err(ProviderError::ContextTooLong {
                            host,
                            status: Some(status),
                            detail,
                        })
                    }
                    400 | 422 if looks_like_context_overflow(&body) => {
                        return Err(ProviderError::ContextTooLong {
                            host,
                            status: Some(status),
                            detail,
                        })
                    }
                    404 | 400 if looks_like_unknown_model(&body) => {
                        return Err(ProviderError::ModelNotFound {
                            model: settings.model.clone(),
                            host,
                            detail,
                        })
                    }
                    _ if content_type.contains("html") => {
                        return Err(ProviderError::NotAnAiService { host, content_type })
                    }
                    _ => {
                        return Err(ProviderError::Refused {
                            host,
                            status,
                            detail,
                        })
                    }
                };
                (failure, retry_after)
            }
            Ok(Err(error)) => match transport_error(&host, &error) {
                (failure, true) => (failure, None),
                (failure, false) => return Err(failure),
            },
        };
        if tries > settings.max_retries {
            return Err(failure);
        }
        // A busy service that asks for a longer wait than any Ask First makes: waiting the
        // shorter time would only be refused again, with the window saying "Working…".
        if let (ProviderError::RateLimited { host, detail, .. }, Some(asked)) =
            (&failure, retry_after)
        {
            if asked > settings.max_retry_wait {
                return Err(ProviderError::BusyTooLong {
                    host: host.clone(),
                    asked,
                    limit: settings.max_retry_wait,
                    detail: detail.clone(),
                });
            }
        }
        let wait = settings.retry_wait(tries - 1, retry_after);
        let reason = match &failure {
            ProviderError::RateLimited { .. } => askfirst_protocol::RetryReason::Busy,
            ProviderError::ServerError { .. } => askfirst_protocol::RetryReason::ServiceTrouble,
            _ => askfirst_protocol::RetryReason::Unreachable,
        };
        let _ = ON_RETRY.try_with(|tell| {
            tell(&RetryWait {
                reason,
                wait,
                next_try: tries + 1,
                tries: settings.max_retries + 1,
            });
        });
        tokio::time::sleep(wait).await;
    }
}
