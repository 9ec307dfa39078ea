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

use crate::provider::ConnectFailure;
use crate::text::{display_label, seconds};
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
        match self {
            Self::Works { host, model } => format!("It works: {model} at {host} answered."),
            Self::NoServiceNeeded => {
                "The demo needs no connection: it answers from a fixed script, without an AI."
                    .to_owned()
            }
            Self::BadAddress { text } => format!(
                "\"{}\" is not a web address. It should look like https://api.example.com/v1.",
                display_label(text, 80)
            ),
            Self::MissingKey { host } => {
                format!("{host} needs an API key. Paste your key above, then test again.")
            }
            Self::KeyRefused { host, .. } => format!(
                "The key was refused by {host}. Check that you copied the whole key and that it \
                 is still valid."
            ),
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
            } => format!(
                "{host} answered with a web page, so it is not an AI service; a sign-in page may \
                 be in the way. Check the address."
            ),
            Self::NotAnAiService { host, .. } => format!(
                "{host} answered, but it is not an AI service Ask First can use. Check the \
                 address (for OpenAI-compatible services it often ends in /v1)."
            ),
            Self::ModelNotFound {
                host,
                model,
                models,
                ..
            } => match models.as_slice() {
                [] => format!(
                    "{host} has no model called \"{model}\", and it did not say which it has. \
                     Check the model name."
                ),
                names => format!(
                    "{host} has no model called \"{model}\". Choose one it has: {}.",
                    names.join(", ")
                ),
            },
            Self::RateLimited { host, .. } => format!(
                "{host} says it is getting too many requests right now. Wait a minute and test \
                 again."
            ),
            Self::OutOfCredit { host, .. } => format!(
                "{host} says the account has no credit or quota left. Check the plan and billing \
                 with the service."
            ),
            Self::ServiceTrouble {
                host,
                status: Some(status),
                ..
            } => format!("{host} is having trouble on its side (error {status}). Try again later."),
            Self::ServiceTrouble { host, .. } => {
                format!("{host} stopped with an error while answering. Try again later.")
            }
            Self::Refused { host, status, .. } => format!(
                "{host} refused the test (error {status}). Check the address and the model name."
            ),
            Self::TooSlow { host, waited } => format!(
                "{host} did not answer within {}, so Ask First stopped waiting. A local model \
                 that is still loading may need another try.",
                seconds(*waited)
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
    match reason {
        ConnectFailure::Refused | ConnectFailure::TimedOut if local_ollama => {
            NO_LOCAL_MODEL.to_owned()
        }
        ConnectFailure::Refused => format!(
            "Nothing answers at {host}. Check the address, and that the service is running."
        ),
        ConnectFailure::NameNotFound => format!(
            "The address {host} could not be found. Check the address and the internet \
             connection."
        ),
        ConnectFailure::Tls => format!(
            "A secure connection to {host} could not be made. Check whether the address should \
             start with http:// or https://."
        ),
        ConnectFailure::TimedOut => format!(
            "Nothing answered at {host} in time. Check the address and the internet connection."
        ),
        ConnectFailure::Dropped => {
            format!("{host} closed the connection without answering. Try again later.")
        }
        ConnectFailure::Other => {
            format!("{host} could not be reached. Check the address and the internet connection.")
        }
    }
}

/// The sentence when Ollama does not answer on this computer.
const NO_LOCAL_MODEL: &str = "No local model is running on this computer. Install Ollama \
     (ollama.com) and start it, or choose another way to answer.";

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
