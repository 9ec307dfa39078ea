//! Why a model step failed, as facts: [`ProviderError`]. Each variant's `Display` is one plain
//! sentence for the person (what happened, what to do); [`ProviderError::detail`] keeps the
//! technical part (status, the service's own message, the parser's complaint) for the "details"
//! one click away; [`ProviderError::code`] lets a front end tell the cases apart without
//! reading sentences.
//!
//! Where to change the words a person reads when a model fails: `locales/*/app.ftl` (keys
//! `provider-…`), chosen by the `#[error]` attributes and
//! the functions in `wording.rs`.

use super::wording::{connect_sentence, not_an_ai_service_sentence, spoken, too_large_sentence};
use crate::i18n::{tr, Arg};
use std::time::Duration;

/// Why a model step failed. The `Display` is the sentence shown to the person; the
/// technical detail is [`Self::detail`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    /// A scripted provider has no turns left for this call.
    #[error("{}", tr("provider-script_exhausted", &[("step", Arg::from(*step)), ("turns", Arg::from(*turns))]))]
    ScriptExhausted {
        /// The 1-based model call that found no turn.
        step: usize,
        /// How many turns the scenario has.
        turns: usize,
    },
    /// The provider could not be set up from the settings file (it cannot be read, has a
    /// mistake, or names a service Ask First does not know); the text is what was wrong, for
    /// [`Self::detail`].
    #[error("{}", tr("provider-config", &[]))]
    Config(String),
    /// The service needs an API key and none is set.
    #[error("{}", tr("provider-missing_key", &[("host", Arg::from(host)), ("env_var", Arg::from(env_var))]))]
    MissingKey {
        /// The service's host name.
        host: String,
        /// The environment variable that can hold the key, e.g. `OPENAI_API_KEY`.
        env_var: String,
    },
    /// A scripted provider's scenario cannot be used (unreadable, not valid, no turns).
    #[error("{}", tr("provider-bad_scenario", &[]))]
    BadScenario {
        /// What is wrong, e.g. "it has no turns." or the parser's message.
        detail: String,
    },
    /// The service refused the API key (HTTP 401 or 403).
    #[error("{}", tr("provider-auth", &[("host", Arg::from(host))]))]
    Auth {
        /// The service's host name (and port, if not the default).
        host: String,
        /// The HTTP status: 401 or 403.
        status: u16,
        /// The service's message.
        detail: String,
    },
    /// The service does not know the model.
    #[error("{}", tr("provider-model_not_found", &[("model", Arg::from(model)), ("host", Arg::from(host))]))]
    ModelNotFound {
        /// The model asked for.
        model: String,
        /// The service's host name.
        host: String,
        /// The service's message.
        detail: String,
    },
    /// The service kept answering 429 "too many requests" until the retries ran out.
    #[error("{}", tr("provider-rate_limited", &[("host", Arg::from(host)), ("tries", Arg::from(*tries))]))]
    RateLimited {
        /// The service's host name.
        host: String,
        /// How many requests were sent in all.
        tries: u32,
        /// The service's last message.
        detail: String,
    },
    /// The service said it is busy (429) and asked to wait longer than Ask First waits between
    /// tries ([`crate::providers::http::HttpSettings::max_retry_wait`]): failed at once rather
    /// than after minutes of "Working…".
    #[error("{}", tr("provider-busy_too_long", &[("host", Arg::from(host)), ("limit", Arg::from(limit.as_secs()))]))]
    BusyTooLong {
        /// The service's host name.
        host: String,
        /// How long it asked to wait (`Duration::MAX` for "forever").
        asked: std::time::Duration,
        /// The longest wait Ask First makes between tries.
        limit: std::time::Duration,
        /// The service's message.
        detail: String,
    },
    /// The service kept failing on its side (HTTP 5xx) until the retries ran out.
    #[error("{}", tr("provider-server_error", &[("host", Arg::from(host)), ("status", Arg::from(*status)), ("tries", Arg::from(*tries))]))]
    ServerError {
        /// The service's host name.
        host: String,
        /// The last HTTP status (500–599).
        status: u16,
        /// How many requests were sent in all.
        tries: u32,
        /// The service's last message.
        detail: String,
    },
    /// The conversation is longer than the model can read at once (its context window): the
    /// service refused the request with HTTP 413, or with 400/422 and a reply that says so, or
    /// accepted it and then said so in its streamed reply
    /// (`crate::providers::http::looks_like_context_overflow`). Every next step of the same
    /// conversation would be refused alike, so the sentence says to start a new one.
    #[error("{}", tr("provider-context_too_long", &[("host", Arg::from(host))]))]
    ContextTooLong {
        /// The service's host name.
        host: String,
        /// The HTTP status; `None` when the reply had begun (an error in the stream).
        status: Option<u16>,
        /// The service's message.
        detail: String,
    },
    /// The service refused one request as larger than the plan lets through in a minute
    /// (OpenAI's 429 and Groq's 413 "Request too large … tokens per min"): waiting cannot
    /// help, and the conversation only grows, so the sentence says to start a new one or
    /// raise the plan's limit. Not retried.
    #[error("{}", tr("provider-over_plan_limit", &[("host", Arg::from(host))]))]
    OverPlanLimit {
        /// The service's host name.
        host: String,
        /// The HTTP status: 413 or 429.
        status: u16,
        /// The service's message.
        detail: String,
    },
    /// The service refused the request for another reason (another 4xx status).
    #[error("{}", tr("provider-refused", &[("host", Arg::from(host)), ("status", Arg::from(*status))]))]
    Refused {
        /// The service's host name.
        host: String,
        /// The HTTP status.
        status: u16,
        /// The service's message.
        detail: String,
    },
    /// The service accepted the request, then reported an error in its reply (an `error`
    /// event in the stream, or an `error` object in place of a reply).
    #[error("{}", tr("provider-service_error", &[("host", Arg::from(host))]))]
    ServiceError {
        /// The service's host name.
        host: String,
        /// The service's message.
        detail: String,
    },
    /// No connection could be made, or it broke before any reply came.
    #[error("{}", connect_sentence(host, *reason))]
    CannotConnect {
        /// The service's host name.
        host: String,
        /// What kind of failure it was.
        reason: ConnectFailure,
        /// The networking library's message.
        detail: String,
    },
    /// Something answered, but not a model service: a web page (a login page, a network
    /// sign-in) or another kind of content.
    #[error("{}", not_an_ai_service_sentence(host, content_type))]
    NotAnAiService {
        /// The service's host name.
        host: String,
        /// The reply's `Content-Type` (its media type, lower case), e.g. `text/html`.
        content_type: String,
    },
    /// The reply could not be read: invalid JSON, garbage after a tool call, unreadable headers.
    #[error("{}", tr("provider-malformed", &[("host", Arg::from(host))]))]
    Malformed {
        /// The service's host name.
        host: String,
        /// What was wrong.
        detail: String,
    },
    /// The reply stopped before it was complete (the connection closed mid-way).
    #[error("{}", tr("provider-ended_early", &[("host", Arg::from(host))]))]
    EndedEarly {
        /// The service's host name.
        host: String,
        /// What was seen, e.g. "the stream ended without a finish marker".
        detail: String,
    },
    /// The reply broke one of the bounds on what Ask First takes from a model.
    #[error("{}", too_large_sentence(host, limit))]
    TooLarge {
        /// The service's host name.
        host: String,
        /// Which bound, and its value.
        limit: ReplyLimit,
    },
    /// Nothing came from the service for the idle timeout.
    #[error("{}", tr("provider-idle_timeout", &[("host", Arg::from(host)), ("waited", Arg::from(spoken(*waited)))]))]
    IdleTimeout {
        /// The service's host name.
        host: String,
        /// How long nothing came.
        waited: Duration,
    },
    /// The reply kept coming, slowly, for longer than one reply may take.
    #[error("{}", tr("provider-too_slow", &[("host", Arg::from(host)), ("limit", Arg::from(spoken(*limit)))]))]
    TooSlow {
        /// The service's host name.
        host: String,
        /// The bound on one reply's time.
        limit: Duration,
    },
}

/// Which kind of connection failure [`ProviderError::CannotConnect`] was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConnectFailure {
    /// Nothing listens at the address (connection refused).
    Refused,
    /// The host name could not be found (DNS).
    NameNotFound,
    /// The secure connection (TLS) failed: a plain-HTTP port, a bad certificate.
    Tls,
    /// The connection could not be made in time.
    TimedOut,
    /// The connection was made, then closed before any reply.
    Dropped,
    /// Another networking failure.
    Other,
}

/// The bound a reply broke ([`ProviderError::TooLarge`]); the numbers are the bound itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReplyLimit {
    /// The whole reply, bytes as received ([`crate::provider::MAX_REPLY_BYTES`]).
    Reply {
        /// The bound, in bytes.
        bytes: usize,
    },
    /// One line of a streamed reply ([`crate::providers::http::MAX_LINE_BYTES`]).
    Line {
        /// The bound, in bytes.
        bytes: usize,
    },
    /// One event of a streamed reply, its data lines together
    /// ([`crate::providers::http::MAX_EVENT_BYTES`]).
    Event {
        /// The bound, in bytes.
        bytes: usize,
    },
    /// Tool calls in one reply ([`crate::provider::MAX_STREAMED_TOOL_CALLS`]).
    ToolCalls {
        /// The bound, a count.
        count: usize,
    },
}

/// A short, stable name for each kind of [`ProviderError`], for a front end that shows each
/// case its own way (an icon, a "check settings" button) without reading sentences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderErrorCode {
    /// [`ProviderError::ScriptExhausted`].
    ScriptExhausted,
    /// [`ProviderError::Config`].
    Config,
    /// [`ProviderError::MissingKey`].
    MissingKey,
    /// [`ProviderError::BadScenario`].
    BadScenario,
    /// [`ProviderError::Auth`].
    Unauthorized,
    /// [`ProviderError::ModelNotFound`].
    ModelNotFound,
    /// [`ProviderError::RateLimited`].
    RateLimited,
    /// [`ProviderError::ServerError`].
    ServerError,
    /// [`ProviderError::ContextTooLong`].
    ContextTooLong,
    /// [`ProviderError::OverPlanLimit`].
    OverPlanLimit,
    /// [`ProviderError::Refused`].
    Refused,
    /// [`ProviderError::ServiceError`].
    ServiceError,
    /// [`ProviderError::CannotConnect`].
    CannotConnect,
    /// [`ProviderError::NotAnAiService`].
    NotAnAiService,
    /// [`ProviderError::Malformed`].
    MalformedReply,
    /// [`ProviderError::EndedEarly`].
    EndedEarly,
    /// [`ProviderError::TooLarge`].
    TooLarge,
    /// [`ProviderError::IdleTimeout`].
    IdleTimeout,
    /// [`ProviderError::TooSlow`].
    TooSlow,
}

impl ProviderErrorCode {
    /// The code as the UI receives it, e.g. `"rate_limited"` (the serde name).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ScriptExhausted => "script_exhausted",
            Self::Config => "config",
            Self::MissingKey => "missing_key",
            Self::BadScenario => "bad_scenario",
            Self::Unauthorized => "unauthorized",
            Self::ModelNotFound => "model_not_found",
            Self::RateLimited => "rate_limited",
            Self::ServerError => "server_error",
            Self::ContextTooLong => "context_too_long",
            Self::OverPlanLimit => "over_plan_limit",
            Self::Refused => "refused",
            Self::ServiceError => "service_error",
            Self::CannotConnect => "cannot_connect",
            Self::NotAnAiService => "not_an_ai_service",
            Self::MalformedReply => "malformed_reply",
            Self::EndedEarly => "ended_early",
            Self::TooLarge => "too_large",
            Self::IdleTimeout => "idle_timeout",
            Self::TooSlow => "too_slow",
        }
    }
}

impl ProviderError {
    /// The error for a service that accepted the request and then reported `detail` (its
    /// message) in its reply: [`ProviderError::ContextTooLong`] when the message says the
    /// conversation is longer than the model reads (LM Studio says so only in the stream),
    /// else [`ProviderError::ServiceError`].
    pub fn in_reply(host: String, detail: String) -> Self {
        if crate::providers::http::looks_like_context_overflow(&detail) {
            Self::ContextTooLong {
                host,
                status: None,
                detail,
            }
        } else {
            Self::ServiceError { host, detail }
        }
    }

    /// Which kind of failure this is.
    pub fn code(&self) -> ProviderErrorCode {
        match self {
            Self::ScriptExhausted { .. } => ProviderErrorCode::ScriptExhausted,
            Self::Config(_) => ProviderErrorCode::Config,
            Self::MissingKey { .. } => ProviderErrorCode::MissingKey,
            Self::BadScenario { .. } => ProviderErrorCode::BadScenario,
            Self::Auth { .. } => ProviderErrorCode::Unauthorized,
            Self::ModelNotFound { .. } => ProviderErrorCode::ModelNotFound,
            Self::RateLimited { .. } | Self::BusyTooLong { .. } => ProviderErrorCode::RateLimited,
            Self::ServerError { .. } => ProviderErrorCode::ServerError,
            Self::ContextTooLong { .. } => ProviderErrorCode::ContextTooLong,
            Self::OverPlanLimit { .. } => ProviderErrorCode::OverPlanLimit,
            Self::Refused { .. } => ProviderErrorCode::Refused,
            Self::ServiceError { .. } => ProviderErrorCode::ServiceError,
            Self::CannotConnect { .. } => ProviderErrorCode::CannotConnect,
            Self::NotAnAiService { .. } => ProviderErrorCode::NotAnAiService,
            Self::Malformed { .. } => ProviderErrorCode::MalformedReply,
            Self::EndedEarly { .. } => ProviderErrorCode::EndedEarly,
            Self::TooLarge { .. } => ProviderErrorCode::TooLarge,
            Self::IdleTimeout { .. } => ProviderErrorCode::IdleTimeout,
            Self::TooSlow { .. } => ProviderErrorCode::TooSlow,
        }
    }

    /// The technical detail behind the sentence, for a "details" view: the HTTP status and
    /// the service's own message, the networking library's or the parser's complaint. `None`
    /// where the sentence says everything.
    pub fn detail(&self) -> Option<String> {
        match self {
            Self::ScriptExhausted { .. } | Self::MissingKey { .. } => None,
            Self::Config(detail) | Self::BadScenario { detail } => Some(detail.clone()),
            Self::ContextTooLong {
                status: Some(status),
                detail,
                ..
            }
            | Self::Auth { status, detail, .. }
            | Self::OverPlanLimit { status, detail, .. }
            | Self::Refused { status, detail, .. } => Some(format!("HTTP {status}: {detail}")),
            Self::ServerError {
                status,
                detail,
                tries,
                ..
            } => Some(format!("HTTP {status} ({tries} tries): {detail}")),
            Self::RateLimited { detail, tries, .. } => {
                Some(format!("HTTP 429 ({tries} tries): {detail}"))
            }
            Self::BusyTooLong { asked, detail, .. } => {
                Some(if *asked == std::time::Duration::MAX {
                    format!("HTTP 429, Retry-After: too long to count: {detail}")
                } else {
                    format!("HTTP 429, Retry-After: {} s: {detail}", asked.as_secs())
                })
            }
            Self::ModelNotFound { detail, .. }
            | Self::ContextTooLong {
                status: None,
                detail,
                ..
            }
            | Self::ServiceError { detail, .. }
            | Self::Malformed { detail, .. }
            | Self::EndedEarly { detail, .. } => Some(detail.clone()),
            Self::CannotConnect { reason, detail, .. } => Some(format!("{reason:?}: {detail}")),
            Self::NotAnAiService { content_type, .. } => {
                Some(format!("Content-Type: {content_type}"))
            }
            Self::TooLarge { limit, .. } => Some(match limit {
                ReplyLimit::Reply { bytes } => format!("reply over {bytes} bytes"),
                ReplyLimit::Line { bytes } => format!("one line over {bytes} bytes"),
                ReplyLimit::Event { bytes } => format!("one event over {bytes} bytes"),
                ReplyLimit::ToolCalls { count } => format!("over {count} tool calls"),
            }),
            Self::IdleTimeout { waited, .. } => {
                Some(format!("no byte for {} ms", waited.as_millis()))
            }
            Self::TooSlow { limit, .. } => {
                Some(format!("reply not complete after {} ms", limit.as_millis()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn each_code_is_sent_by_the_name_as_str_gives() {
        use ProviderErrorCode::*;
        for code in [
            ScriptExhausted,
            Config,
            MissingKey,
            BadScenario,
            Unauthorized,
            ModelNotFound,
            RateLimited,
            ServerError,
            Refused,
            ServiceError,
            CannotConnect,
            NotAnAiService,
            MalformedReply,
            EndedEarly,
            TooLarge,
            IdleTimeout,
            TooSlow,
        ] {
            assert_eq!(
                serde_json::to_string(&code).unwrap(),
                format!("\"{}\"", code.as_str())
            );
        }
    }

    #[test]
    fn the_sentence_and_the_detail_are_kept_apart() {
        let error = ProviderError::ServerError {
            host: "api.example.com".into(),
            status: 503,
            tries: 4,
            detail: "upstream connect error".into(),
        };
        assert_eq!(
            error.to_string(),
            "The model service at api.example.com is having trouble (error 503) and kept \
             failing after 4 tries. Try again later."
        );
        assert_eq!(
            error.detail().as_deref(),
            Some("HTTP 503 (4 tries): upstream connect error")
        );
        assert_eq!(error.code(), ProviderErrorCode::ServerError);
        let too_large = ProviderError::TooLarge {
            host: "h".into(),
            limit: ReplyLimit::Line {
                bytes: 2 * 1024 * 1024,
            },
        };
        assert!(
            too_large.to_string().contains("larger than 2 MB"),
            "{too_large}"
        );
    }
}
