//! "Who answers", checked from the settings screen: what "Test the connection" found
//! ([`ConnectionTest`], one typed outcome each, worded once for the person, its technical detail
//! kept apart), and whether Ollama runs on this computer with which models
//! ([`find_local_models`]). The requests themselves are `crate::providers::probe`'s.
//!
//! The test uses the settings **on screen, not yet saved** ([`probe_target`]): a person tries
//! an address and a key before keeping them. A key not typed is the saved one (the window never
//! holds it), and a setting the environment fixes wins, as it does for a task.
//!
//! - this file: the outcomes and their words;
//! - `classify.rs`: which outcome a failed request is;
//! - `run.rs`: the settings tested ([`probe_target`]), the test ([`test_connection`]) and the
//!   Ollama finder ([`find_local_models`]).

mod classify;
mod run;

pub use run::{find_local_models, probe_target, test_connection};

use crate::i18n::{tr, Arg};
use crate::provider::ConnectFailure;
use crate::text::display_label;
use askfirst_protocol::{ConnectionOutcome, ConnectionTestResult};
use std::time::Duration;

/// The longest a connection test may take, from the request to the whole answer. A hosted
/// service answers a one-word request in a second or two; a local model that first has to load
/// may take some seconds more. Past it the test says so ([`ConnectionTest::TooSlow`]).
pub const TEST_TIME: Duration = Duration::from_secs(30);

/// The longest the Ollama finder waits. Ollama on this computer answers `GET /api/tags` in
/// milliseconds; the finder runs when the settings open, so it must not keep them waiting.
pub const FIND_LOCAL_TIME: Duration = Duration::from_secs(2);

/// The longest technical detail kept, in characters (one line, cleaned).
pub const MAX_DETAIL_CHARS: usize = 300;

/// What "Test the connection" found. `host` is the service's host (and port, if not the
/// default); `detail` the technical part for the "details" view.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConnectionTest {
    /// The service answered; `model` is the model that did, as the service named it.
    Works {
        /// The service.
        host: String,
        /// The model that answered.
        model: String,
    },
    /// The provider needs no connection (the demo).
    NoServiceNeeded,
    /// The address is not a web address (`http://` or `https://` and a host).
    BadAddress {
        /// The address as typed.
        text: String,
    },
    /// The service needs a key and none is typed or saved.
    MissingKey {
        /// The service.
        host: String,
    },
    /// The key was refused (HTTP 401 or 403).
    KeyRefused {
        /// The service.
        host: String,
        /// 401 or 403.
        status: u16,
        /// The service's message.
        detail: String,
    },
    /// Nothing answers at the address.
    NothingAnswers {
        /// The service.
        host: String,
        /// Which connection failure.
        reason: ConnectFailure,
        /// Whether this was Ollama on this computer (the sentence then says how to get it).
        local_ollama: bool,
        /// The networking library's message.
        detail: String,
    },
    /// Something answered, but not an AI service.
    NotAnAiService {
        /// The service.
        host: String,
        /// Whether it was a web page (a sign-in page may be in the way).
        web_page: bool,
        /// What came instead.
        detail: String,
    },
    /// The service has no such model; `models` are those it has (maybe none, maybe unknown).
    ModelNotFound {
        /// The service.
        host: String,
        /// The model asked for.
        model: String,
        /// The models it lists, bounded.
        models: Vec<String>,
        /// The service's message.
        detail: String,
    },
    /// Too many requests right now (HTTP 429).
    RateLimited {
        /// The service.
        host: String,
        /// The service's message.
        detail: String,
    },
    /// No credit or quota left on the account (HTTP 402, or a 429/400 that says so).
    OutOfCredit {
        /// The service.
        host: String,
        /// The HTTP status, if one came with it.
        status: Option<u16>,
        /// The service's message.
        detail: String,
    },
    /// The service failed on its side (5xx) or stopped with an error.
    ServiceTrouble {
        /// The service.
        host: String,
        /// The HTTP status, if any.
        status: Option<u16>,
        /// The service's message.
        detail: String,
    },
    /// Another refusal (4xx).
    Refused {
        /// The service.
        host: String,
        /// The HTTP status.
        status: u16,
        /// The service's message.
        detail: String,
    },
    /// No whole answer within [`TEST_TIME`].
    TooSlow {
        /// The service.
        host: String,
        /// How long the test waited.
        waited: Duration,
    },
}

impl ConnectionTest {
    /// Its code for the window.
    pub fn outcome(&self) -> ConnectionOutcome {
        match self {
            Self::Works { .. } => ConnectionOutcome::Works,
            Self::NoServiceNeeded => ConnectionOutcome::NoServiceNeeded,
            Self::BadAddress { .. } => ConnectionOutcome::BadAddress,
            Self::MissingKey { .. } => ConnectionOutcome::MissingKey,
            Self::KeyRefused { .. } => ConnectionOutcome::KeyRefused,
            Self::NothingAnswers { .. } => ConnectionOutcome::NothingAnswers,
            Self::NotAnAiService { .. } => ConnectionOutcome::NotAnAiService,
            Self::ModelNotFound { .. } => ConnectionOutcome::ModelNotFound,
            Self::RateLimited { .. } => ConnectionOutcome::RateLimited,
            Self::OutOfCredit { .. } => ConnectionOutcome::OutOfCredit,
            Self::ServiceTrouble { .. } => ConnectionOutcome::ServiceTrouble,
            Self::Refused { .. } => ConnectionOutcome::Refused,
            Self::TooSlow { .. } => ConnectionOutcome::TooSlow,
        }
    }

    /// What happened, in one sentence (or two) for the person. The only place these are worded.
    pub fn sentence(&self) -> String {
        let at = |host: &String| ("host", Arg::from(host));
        match self {
            Self::Works { host, model } => {
                tr("probe-works", &[at(host), ("model", Arg::from(model))])
            }
            Self::NoServiceNeeded => tr("probe-no_service_needed", &[]),
            Self::BadAddress { text } => tr(
                "probe-bad_address",
                &[("text", Arg::from(display_label(text, 80)))],
            ),
            Self::MissingKey { host } => tr("probe-missing_key", &[at(host)]),
            Self::KeyRefused { host, .. } => tr("probe-key_refused", &[at(host)]),
            Self::NothingAnswers {
                host,
                reason,
                local_ollama,
                ..
            } => nothing_answers(host, *reason, *local_ollama),
            Self::NotAnAiService {
                host,
                web_page: true,
                ..
            } => tr("probe-not_an_ai_service-web_page", &[at(host)]),
            Self::NotAnAiService { host, .. } => tr("probe-not_an_ai_service", &[at(host)]),
            Self::ModelNotFound {
                host,
                model,
                models,
                ..
            } => match models.as_slice() {
                [] => tr(
                    "probe-model_not_found",
                    &[at(host), ("model", Arg::from(model))],
                ),
                names => tr(
                    "probe-model_not_found-choose",
                    &[
                        at(host),
                        ("model", Arg::from(model)),
                        ("models", Arg::from(crate::i18n::join_separated(names))),
                    ],
                ),
            },
            Self::RateLimited { host, .. } => tr("probe-rate_limited", &[at(host)]),
            Self::OutOfCredit { host, .. } => tr("probe-out_of_credit", &[at(host)]),
            Self::ServiceTrouble {
                host,
                status: Some(status),
                ..
            } => tr(
                "probe-service_trouble",
                &[at(host), ("status", Arg::from(*status))],
            ),
            Self::ServiceTrouble { host, .. } => tr("probe-service_error", &[at(host)]),
            Self::Refused { host, status, .. } => {
                tr("probe-refused", &[at(host), ("status", Arg::from(*status))])
            }
            Self::TooSlow { host, waited } => tr(
                "probe-too_slow",
                &[
                    at(host),
                    (
                        "waited",
                        Arg::from(tr(
                            "duration-seconds",
                            &[("count", Arg::from(waited.as_secs()))],
                        )),
                    ),
                ],
            ),
        }
    }

    /// The technical detail, one line, at most [`MAX_DETAIL_CHARS`]; `None` where the sentence
    /// says everything.
    pub fn detail(&self) -> Option<String> {
        let detail = match self {
            Self::Works { .. }
            | Self::NoServiceNeeded
            | Self::BadAddress { .. }
            | Self::MissingKey { .. } => return None,
            Self::KeyRefused { status, detail, .. } | Self::Refused { status, detail, .. } => {
                format!("HTTP {status}: {detail}")
            }
            Self::OutOfCredit { status, detail, .. }
            | Self::ServiceTrouble { status, detail, .. } => match status {
                Some(status) => format!("HTTP {status}: {detail}"),
                None => detail.clone(),
            },
            Self::RateLimited { detail, .. } => format!("HTTP 429: {detail}"),
            Self::NothingAnswers { reason, detail, .. } => format!("{reason:?}: {detail}"),
            Self::NotAnAiService { detail, .. } | Self::ModelNotFound { detail, .. } => {
                detail.clone()
            }
            Self::TooSlow { waited, .. } => {
                format!("no whole answer after {} ms", waited.as_millis())
            }
        };
        Some(display_label(&detail, MAX_DETAIL_CHARS))
    }

    /// The value the window receives.
    pub fn to_result(&self) -> ConnectionTestResult {
        ConnectionTestResult {
            outcome: self.outcome(),
            sentence: self.sentence(),
            detail: self.detail(),
            model: match self {
                Self::Works { model, .. } => Some(model.clone()),
                _ => None,
            },
            models: match self {
                Self::ModelNotFound { models, .. } => models.clone(),
                _ => Vec::new(),
            },
        }
    }
}

fn nothing_answers(host: &str, reason: ConnectFailure, local_ollama: bool) -> String {
    let key = match reason {
        ConnectFailure::Refused | ConnectFailure::TimedOut if local_ollama => {
            return tr("probe-no_local_model", &[]);
        }
        ConnectFailure::Refused => "probe-connect-refused",
        ConnectFailure::NameNotFound => "probe-connect-name_not_found",
        ConnectFailure::Tls => "probe-connect-tls",
        ConnectFailure::TimedOut => "probe-connect-timed_out",
        ConnectFailure::Dropped => "probe-connect-dropped",
        ConnectFailure::Other => "probe-connect-other",
    };
    tr(key, &[("host", Arg::from(host))])
}

/// Whether a service's message says the account ran out of credit or quota.
fn says_out_of_credit(detail: &str) -> bool {
    let lower = detail.to_lowercase();
    [
        "quota",
        "credit",
        "billing",
        "insufficient_funds",
        "payment",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// Whether `host` is this computer.
fn is_this_computer(host: &str) -> bool {
    let name = host.rsplit_once(':').map_or(host, |(name, _)| name);
    matches!(name, "127.0.0.1" | "localhost" | "[::1]" | "::1")
}
