//! What the HTTP providers share: settings, the redacted API key, sending with retries, and
//! turning error replies into [`ProviderError`]s a person can act on.

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
}

impl HttpSettings {
    /// Settings with the default retry behaviour: 3 retries, 1 s doubling, at most 30 s.
    pub fn new(base_url: &str, api_key: Option<ApiKey>, model: &str) -> Self {
        Self {
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key,
            model: model.to_owned(),
            max_retries: 3,
            retry_base: Duration::from_secs(1),
            max_retry_wait: Duration::from_secs(30),
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
}

/// An HTTP client for providers: connect timeout 15 s, no overall timeout (a reply may stream
/// for minutes; cancelling the run drops the request).
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(15))
        .build()
        .unwrap_or_default()
}

/// The longest line of a streamed reply, in bytes. The SSE parser (`eventsource-stream`) scans
/// its whole buffer again for each piece that arrives, so one line with no line break costs
/// time that grows with the square of its length (a 16 MB line took minutes): lines are cut
/// off here first. Providers send each delta as a short event; 2 MiB leaves room for a server
/// that sends a whole large tool call in one event.
pub const MAX_LINE_BYTES: usize = 2 * 1024 * 1024;

/// `stream` (a response body) ending early, with `over` set, once more than
/// [`crate::provider::MAX_REPLY_BYTES`] came in all or one line grew past [`MAX_LINE_BYTES`]:
/// nothing past the bound is buffered or parsed, and the parser's work stays linear in the
/// reply's size.
pub fn bounded<S, B, E>(
    stream: S,
    over: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> impl futures_util::Stream<Item = Result<B, E>>
where
    S: futures_util::Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
{
    use futures_util::StreamExt;
    stream.scan((0usize, 0usize), move |(seen, line), item| {
        if let Ok(bytes) = &item {
            let bytes = bytes.as_ref();
            *seen = seen.saturating_add(bytes.len());
            *line = match bytes.iter().rposition(|b| *b == b'\n' || *b == b'\r') {
                Some(end) => bytes.len() - end - 1,
                None => line.saturating_add(bytes.len()),
            };
            if *seen > crate::provider::MAX_REPLY_BYTES || *line > MAX_LINE_BYTES {
                over.store(true, std::sync::atomic::Ordering::SeqCst);
                return std::future::ready(None);
            }
        }
        std::future::ready(Some(item))
    })
}

/// What a reply that broke one of the bounds on replies is told to the person as.
pub fn too_large_detail() -> String {
    format!(
        "the reply was larger than {} MB (or one line of it larger than {} MB), more than Ask \
         First takes from a model at once",
        crate::provider::MAX_REPLY_BYTES / (1024 * 1024),
        MAX_LINE_BYTES / (1024 * 1024)
    )
}

/// What a reply with too many tool calls is told to the person as.
pub fn too_many_calls_detail() -> String {
    format!(
        "the model asked for more than {} actions in one reply, more than Ask First takes at \
         once",
        crate::provider::MAX_STREAMED_TOOL_CALLS
    )
}

/// The service's error message from a JSON error body (`{"error": {"message": …}}`,
/// `{"error": "…"}`, `{"message": …}`), or the start of the body.
pub fn error_message(body: &str) -> String {
    let from_json = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            let error = v.get("error").unwrap_or(&v);
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

fn looks_like_unknown_model(body: &str) -> bool {
    let lower = body.to_lowercase();
    lower.contains("model_not_found")
        || (lower.contains("model")
            && (lower.contains("not found") || lower.contains("does not exist")))
}

fn retry_after(response: &reqwest::Response) -> Option<Duration> {
    let value = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?;
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| *s >= 0.0)
        .map(Duration::from_secs_f64)
}

/// Sends the request `build` makes, retrying on 429, 5xx and connection errors, and returns a
/// successful response (whose body may still stream).
///
/// # Errors
/// [`ProviderError::Auth`] on 401/403, [`ProviderError::ModelNotFound`] when the service says
/// the model does not exist, [`ProviderError::Http`] on other client errors, and
/// [`ProviderError::Unavailable`] when the retries ran out.
pub async fn send(
    settings: &HttpSettings,
    build: impl Fn() -> reqwest::RequestBuilder,
) -> Result<reqwest::Response, ProviderError> {
    let host = settings.host();
    let mut attempt = 0u32;
    loop {
        let (detail, wait) = match build().send().await {
            Ok(response) if response.status().is_success() => return Ok(response),
            Ok(response) => {
                let status = response.status().as_u16();
                let wait = retry_after(&response);
                let body = response.text().await.unwrap_or_default();
                match status {
                    401 | 403 => return Err(ProviderError::Auth { host }),
                    404 | 400 if looks_like_unknown_model(&body) => {
                        return Err(ProviderError::ModelNotFound {
                            model: settings.model.clone(),
                            host,
                        })
                    }
                    429 | 500..=599 => (format!("HTTP {status}: {}", error_message(&body)), wait),
                    _ => {
                        return Err(ProviderError::Http {
                            host,
                            status,
                            detail: error_message(&body),
                        })
                    }
                }
            }
            Err(error) => (error.to_string(), None),
        };
        if attempt >= settings.max_retries {
            return Err(ProviderError::Unavailable { host, detail });
        }
        let backoff = settings
            .retry_base
            .saturating_mul(2u32.saturating_pow(attempt));
        tokio::time::sleep(wait.unwrap_or(backoff).min(settings.max_retry_wait)).await;
        attempt += 1;
    }
}
