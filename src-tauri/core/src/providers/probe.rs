//! The requests of "Test the connection" and of the Ollama finder: one tiny, non-streamed chat
//! request ([`ask_tiny`]) and the list of a service's models ([`list_models`]). What each
//! outcome means for the person is decided and worded in `crate::app::probe`; here are only
//! the wire formats and the bounds.
//!
//! Sources: OpenAI API reference, "Create chat completion" (`POST {base}/chat/completions`,
//! the reply's `model`) and "List models" (`GET {base}/models`, `{"data": [{"id": …}]}`);
//! Anthropic API reference, "Messages" (`POST {base}/v1/messages`, the reply's `model`) and
//! "List Models" (`GET {base}/v1/models`, `{"data": [{"id": …}]}`); Ollama's `docs/api.md`,
//! "List Local Models" (`GET {root}/api/tags`, `{"models": [{"name": …}]}`).
//!
//! Bounded against a hostile server: no retries, no redirects (an API key is never sent on to
//! another address), the whole test within one deadline (headers and body), a body read to at
//! most [`MAX_REPLY_BYTES`] / [`MAX_MODELS_BYTES`], at most [`MAX_MODELS`] names of at most
//! [`MAX_MODEL_NAME_CHARS`] characters each, cleaned for one line.

use super::anthropic::ANTHROPIC_VERSION;
use super::http::{error_message, excerpt, media_type, send, HttpSettings};
use crate::provider::ProviderError;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

/// The most bytes of the tiny request's reply that are read; a real one is well under 2 KB.
pub const MAX_REPLY_BYTES: usize = 256 * 1024;

/// The most bytes of a model list that are read. OpenRouter lists some hundreds of models with
/// descriptions (a few MB); 8 MiB leaves room and still bounds memory.
pub const MAX_MODELS_BYTES: usize = 8 * 1024 * 1024;

/// The most model names kept from a list.
pub const MAX_MODELS: usize = 200;

/// The longest model name kept, in characters (longer ones are cut and marked).
pub const MAX_MODEL_NAME_CHARS: usize = 100;

/// What is asked in the tiny request.
const TINY_PROMPT: &str = "Reply with the single word OK.";

/// The most tokens the tiny request lets the model write.
const TINY_MAX_TOKENS: u32 = 16;

/// Which API a service speaks, for the tiny request and its model list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// OpenAI Chat Completions; models at `GET {base}/models`.
    OpenAi,
    /// Ollama: Chat Completions at `{root}/v1`; models at `GET {root}/api/tags`.
    Ollama,
    /// Anthropic Messages; models at `GET {base}/v1/models`.
    Anthropic,
}

/// Why a probe did not get its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeFailure {
    /// The request failed as a model step would: a status, a connection, a web page.
    Http(ProviderError),
    /// No whole answer came within the deadline.
    TooSlow {
        /// The deadline, from the first byte sent.
        waited: Duration,
    },
    /// The reply was larger than the bound.
    TooLarge {
        /// The bound, in bytes.
        bytes: usize,
    },
    /// A successful status, but not the API's answer (another content type, other JSON).
    NotTheApi {
        /// What came instead, bounded.
        detail: String,
    },
}

/// A client for probes: no redirects, connections within `within`.
fn client(within: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(within)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default()
}

/// `settings` for one probe: no retries, and the head must come before `within`.
fn once(settings: &HttpSettings, within: Duration) -> HttpSettings {
    HttpSettings {
        max_retries: 0,
        idle_timeout: within,
        ..settings.clone()
    }
}

/// The root of an Ollama address: `http://127.0.0.1:11434/v1` → `http://127.0.0.1:11434`.
pub fn ollama_root(base_url: &str) -> &str {
    let trimmed = base_url.trim_end_matches('/');
    trimmed.strip_suffix("/v1").unwrap_or(trimmed)
}

/// Reads a successful reply's body as JSON, at most `cap` bytes, by `deadline`.
async fn json_body(
    mut response: reqwest::Response,
    cap: usize,
    deadline: Instant,
    waited: Duration,
) -> Result<Value, ProbeFailure> {
    let content_type = media_type(&response);
    if !content_type.is_empty() && !content_type.contains("json") {
        return Err(ProbeFailure::Http(ProviderError::NotAnAiService {
            host: response
                .url()
                .host_str()
                .map(|h| match response.url().port() {
                    Some(port) => format!("{h}:{port}"),
                    None => h.to_owned(),
                })
                .unwrap_or_default(),
            content_type,
        }));
    }
    let mut body = Vec::new();
    loop {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Err(_) => return Err(ProbeFailure::TooSlow { waited }),
            Ok(Err(error)) => {
                return Err(ProbeFailure::NotTheApi {
                    detail: excerpt(&super::http::chain(&error)),
                })
            }
            Ok(Ok(None)) => break,
            Ok(Ok(Some(piece))) => {
                if body.len() + piece.len() > cap {
                    return Err(ProbeFailure::TooLarge { bytes: cap });
                }
                body.extend_from_slice(&piece);
            }
        }
    }
    serde_json::from_slice(&body).map_err(|e| ProbeFailure::NotTheApi {
        detail: format!(
            "not JSON ({e}): {}",
            excerpt(&String::from_utf8_lossy(&body))
        ),
    })
}

/// Sends one tiny chat request with `settings` and returns the name of the model that
/// answered (the reply's `model`, else the one asked for). Everything within `within`.
///
/// # Errors
/// [`ProbeFailure`]: the request's [`ProviderError`] (as [`send`] makes them, no retries), a
/// reply that is not the API's answer, too large, or too late.
pub async fn ask_tiny(
    wire: Wire,
    settings: &HttpSettings,
    within: Duration,
) -> Result<String, ProbeFailure> {
    let deadline = Instant::now() + within;
    let work = async {
        let reply = match wire {
            Wire::OpenAi | Wire::Ollama => {
                match openai_tiny(settings, within, "max_tokens", deadline).await {
                    // Newer OpenAI models take only `max_completion_tokens`.
                    Err(ProbeFailure::Http(ProviderError::Refused {
                        status: 400,
                        detail,
                        ..
                    })) if detail.contains("max_completion_tokens") => {
                        openai_tiny(settings, within, "max_completion_tokens", deadline).await?
                    }
                    other => other?,
                }
            }
            Wire::Anthropic => anthropic_tiny(settings, within, deadline).await?,
        };
        answered_model(wire, &reply, settings)
    };
    match tokio::time::timeout_at(deadline, work).await {
        Ok(Err(ProbeFailure::Http(ProviderError::IdleTimeout { .. }))) | Err(_) => {
            Err(ProbeFailure::TooSlow { waited: within })
        }
        Ok(result) => result,
    }
}

async fn openai_tiny(
    settings: &HttpSettings,
    within: Duration,
    limit_field: &str,
    deadline: Instant,
) -> Result<Value, ProbeFailure> {
    let client = client(within);
    let url = format!("{}/chat/completions", settings.base_url);
    let mut body = json!({
        "model": settings.model,
        "messages": [{"role": "user", "content": TINY_PROMPT}],
        "stream": false,
    });
    body[limit_field] = json!(TINY_MAX_TOKENS);
    let response = send(&once(settings, within), || {
        let request = client.post(&url).json(&body);
        match &settings.api_key {
            Some(key) => request.bearer_auth(key.expose()),
            None => request,
        }
    })
    .await
    .map_err(ProbeFailure::Http)?;
    json_body(response, MAX_REPLY_BYTES, deadline, within).await
}

async fn anthropic_tiny(
    settings: &HttpSettings,
    within: Duration,
    deadline: Instant,
) -> Result<Value, ProbeFailure> {
    let client = client(within);
    let url = format!("{}/v1/messages", settings.base_url);
    let body = json!({
        "model": settings.model,
        "max_tokens": TINY_MAX_TOKENS,
        "messages": [{"role": "user", "content": TINY_PROMPT}],
    });
    let response = send(&once(settings, within), || {
        let request = client
            .post(&url)
            .header("anthropic-version", ANTHROPIC_VERSION)
            .json(&body);
        match &settings.api_key {
            Some(key) => request.header("x-api-key", key.expose()),
            None => request,
        }
    })
    .await
    .map_err(ProbeFailure::Http)?;
    json_body(response, MAX_REPLY_BYTES, deadline, within).await
}

/// The model named in a successful reply, if the reply is the API's answer: OpenAI's has
/// `choices`, Anthropic's `content`; either may carry an `error` object instead.
fn answered_model(
    wire: Wire,
    reply: &Value,
    settings: &HttpSettings,
) -> Result<String, ProbeFailure> {
    if reply.get("error").is_some_and(|e| !e.is_null()) {
        return Err(ProbeFailure::Http(ProviderError::ServiceError {
            host: settings.host(),
            detail: error_message(&reply.to_string()),
        }));
    }
    let is_answer = match wire {
        Wire::OpenAi | Wire::Ollama => reply.get("choices").is_some_and(Value::is_array),
        Wire::Anthropic => reply.get("content").is_some_and(Value::is_array),
    };
    if !is_answer {
        return Err(ProbeFailure::NotTheApi {
            detail: format!(
                "JSON without the API's answer: {}",
                excerpt(&reply.to_string())
            ),
        });
    }
    let named = reply
        .get("model")
        .and_then(Value::as_str)
        .map(|m| crate::text::display_label(m, MAX_MODEL_NAME_CHARS))
        .filter(|m| !m.is_empty());
    Ok(named.unwrap_or_else(|| crate::text::display_label(&settings.model, MAX_MODEL_NAME_CHARS)))
}

/// The models the service at `settings` has (at most [`MAX_MODELS`], names cleaned for one
/// line and cut at [`MAX_MODEL_NAME_CHARS`]), within `within`. For [`Wire::Ollama`],
/// `settings.base_url` may end in `/v1` or not.
///
/// # Errors
/// As [`ask_tiny`]; [`ProbeFailure::NotTheApi`] for JSON without the list.
pub async fn list_models(
    wire: Wire,
    settings: &HttpSettings,
    within: Duration,
) -> Result<Vec<String>, ProbeFailure> {
    let deadline = Instant::now() + within;
    let client = client(within);
    let (url, list_key, name_key) = match wire {
        Wire::OpenAi => (format!("{}/models", settings.base_url), "data", "id"),
        Wire::Anthropic => (format!("{}/v1/models", settings.base_url), "data", "id"),
        Wire::Ollama => (
            format!("{}/api/tags", ollama_root(&settings.base_url)),
            "models",
            "name",
        ),
    };
    let work = async {
        let response = send(&once(settings, within), || {
            let request = client.get(&url);
            match (&settings.api_key, wire) {
                (Some(key), Wire::Anthropic) => request
                    .header("anthropic-version", ANTHROPIC_VERSION)
                    .header("x-api-key", key.expose()),
                (None, Wire::Anthropic) => request.header("anthropic-version", ANTHROPIC_VERSION),
                (Some(key), Wire::OpenAi | Wire::Ollama) => request.bearer_auth(key.expose()),
                (None, Wire::OpenAi | Wire::Ollama) => request,
            }
        })
        .await
        .map_err(ProbeFailure::Http)?;
        let list = json_body(response, MAX_MODELS_BYTES, deadline, within).await?;
        let Some(entries) = list.get(list_key).and_then(Value::as_array) else {
            return Err(ProbeFailure::NotTheApi {
                detail: format!(
                    "JSON without \"{list_key}\": {}",
                    excerpt(&list.to_string())
                ),
            });
        };
        Ok(entries
            .iter()
            .filter_map(|e| e.get(name_key).and_then(Value::as_str))
            .map(|name| crate::text::display_label(name, MAX_MODEL_NAME_CHARS))
            .filter(|name| !name.is_empty())
            .take(MAX_MODELS)
            .collect())
    };
    match tokio::time::timeout_at(deadline, work).await {
        Ok(Err(ProbeFailure::Http(ProviderError::IdleTimeout { .. }))) | Err(_) => {
            Err(ProbeFailure::TooSlow { waited: within })
        }
        Ok(result) => result,
    }
}
