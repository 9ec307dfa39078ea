//! "Who answers", checked from the settings screen: what "Test the connection" found
//! ([`ConnectionTest`], one typed outcome each, worded once for the person, its technical detail
//! kept apart), and whether Ollama runs on this computer with which models
//! ([`find_local_models`]). The requests themselves are `crate::providers::probe`'s.
//!
//! The test uses the settings **on screen, not yet saved** ([`probe_target`]): a person tries
//! an address and a key before keeping them. A key not typed is the saved one (the window never
//! holds it), and a setting the environment fixes wins, as it does for a task.

use super::catalog::{entry, missing_key};
use super::settings::{AppConfig, Setting};
use crate::config::SettingsFile;
use crate::provider::{ConnectFailure, ProviderError};
use crate::providers::probe::{ask_tiny, list_models, ollama_root, ProbeFailure, Wire};
use crate::providers::{ApiKey, HttpSettings};
use crate::text::{display_label, plural, seconds};
use askfirst_protocol::{
    ConnectionOutcome, ConnectionTestResult, LocalModels, ProviderKind, TestConnectionRequest,
};
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

impl ConnectionTest {
    /// The outcome of a failed probe of `kind` at `host`.
    fn from_failure(kind: ProviderKind, host: &str, failure: ProbeFailure) -> Self {
        let host = host.to_owned();
        match failure {
            ProbeFailure::TooSlow { waited } => Self::TooSlow { host, waited },
            ProbeFailure::TooLarge { bytes } => Self::NotAnAiService {
                host,
                web_page: false,
                detail: format!("reply over {bytes} bytes"),
            },
            ProbeFailure::NotTheApi { detail } => Self::NotAnAiService {
                host,
                web_page: false,
                detail,
            },
            ProbeFailure::Http(error) => Self::from_provider_error(kind, host, error),
        }
    }

    fn from_provider_error(kind: ProviderKind, host: String, error: ProviderError) -> Self {
        match error {
            ProviderError::Auth { status, detail, .. } => Self::KeyRefused {
                host,
                status,
                detail,
            },
            ProviderError::ModelNotFound { model, detail, .. } => Self::ModelNotFound {
                host,
                model,
                models: Vec::new(),
                detail,
            },
            ProviderError::RateLimited { detail, .. } if says_out_of_credit(&detail) => {
                Self::OutOfCredit {
                    host,
                    status: Some(429),
                    detail,
                }
            }
            ProviderError::RateLimited { detail, .. } => Self::RateLimited { host, detail },
            ProviderError::ServerError { status, detail, .. } => Self::ServiceTrouble {
                host,
                status: Some(status),
                detail,
            },
            ProviderError::Refused { status, detail, .. }
                if status == 402 || says_out_of_credit(&detail) =>
            {
                Self::OutOfCredit {
                    host,
                    status: Some(status),
                    detail,
                }
            }
            // No such endpoint, or sent elsewhere: whatever is there is not the API.
            ProviderError::Refused { status, detail, .. }
                if matches!(status, 300..=399 | 404 | 405) =>
            {
                Self::NotAnAiService {
                    host,
                    web_page: false,
                    detail: format!("HTTP {status}: {detail}"),
                }
            }
            ProviderError::Refused { status, detail, .. } => Self::Refused {
                host,
                status,
                detail,
            },
            ProviderError::ServiceError { detail, .. } if says_out_of_credit(&detail) => {
                Self::OutOfCredit {
                    host,
                    status: None,
                    detail,
                }
            }
            ProviderError::ServiceError { detail, .. }
            | ProviderError::EndedEarly { detail, .. } => Self::ServiceTrouble {
                host,
                status: None,
                detail,
            },
            ProviderError::CannotConnect { reason, detail, .. } => Self::NothingAnswers {
                local_ollama: kind == ProviderKind::Ollama && is_this_computer(&host),
                host,
                reason,
                detail,
            },
            ProviderError::NotAnAiService { content_type, .. } => Self::NotAnAiService {
                host,
                web_page: content_type.contains("html"),
                detail: format!("Content-Type: {content_type}"),
            },
            error @ (ProviderError::Malformed { .. } | ProviderError::TooLarge { .. }) => {
                Self::NotAnAiService {
                    host,
                    web_page: false,
                    detail: error.detail().unwrap_or_default(),
                }
            }
            ProviderError::IdleTimeout { waited, .. } => Self::TooSlow { host, waited },
            ProviderError::TooSlow { limit, .. } => Self::TooSlow {
                host,
                waited: limit,
            },
            ProviderError::MissingKey { .. } => Self::MissingKey { host },
            // Not made by an HTTP request; kept as their own sentence.
            error @ (ProviderError::ScriptExhausted { .. }
            | ProviderError::Config(_)
            | ProviderError::BadScenario { .. }) => Self::ServiceTrouble {
                host,
                status: None,
                detail: error.to_string(),
            },
        }
    }
}

/// The provider to test and how to reach it, from the settings on screen (`request`), the
/// environment (which wins where it fixes a setting) and the saved key (used when none is
/// typed, unless "Remove the saved key" is ticked). Reads `settings.json`.
///
/// # Errors
/// [`ConnectionTest::NoServiceNeeded`] for the demo; [`ConnectionTest::BadAddress`] for an
/// address that is not `http(s)://host…`.
pub fn probe_target(
    config: &AppConfig,
    request: &TestConnectionRequest,
) -> Result<(ProviderKind, HttpSettings), ConnectionTest> {
    let kind = request.provider;
    let e = entry(kind);
    let Some(family) = e.family else {
        return Err(ConnectionTest::NoServiceNeeded);
    };
    let env = &config.env;
    let nonempty = |s: &str| Some(s.trim().to_owned()).filter(|s| !s.is_empty());
    let base_url = env
        .first(Setting::BaseUrl, Some(family))
        .or_else(|| nonempty(&request.base_url))
        .unwrap_or_else(|| e.default_base_url.to_owned());
    let model = env
        .first(Setting::Model, Some(family))
        .or_else(|| nonempty(&request.model))
        .unwrap_or_else(|| e.default_model.to_owned());
    let saved_key = || {
        (!request.clear_api_key)
            .then(|| SettingsFile::load(&config.settings_path()).ok())
            .flatten()
            .and_then(|file| file.api_key)
    };
    let key = env
        .first(Setting::ApiKey, Some(family))
        .or_else(|| request.api_key.as_deref().and_then(nonempty))
        .or_else(saved_key)
        .map(|k| ApiKey::new(&k));
    let parsed = reqwest::Url::parse(base_url.trim());
    if !parsed
        .as_ref()
        .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
    {
        return Err(ConnectionTest::BadAddress { text: base_url });
    }
    Ok((kind, HttpSettings::new(base_url.trim(), key, &model)))
}

/// Sends one tiny request to `kind` at `http` and says what happened; when the model does not
/// exist, asks the service which it has. Everything within `within` ([`TEST_TIME`] in the app),
/// the list within as long again.
pub async fn test_connection(
    kind: ProviderKind,
    http: &HttpSettings,
    within: Duration,
) -> ConnectionTest {
    let host = http.host();
    let wire = match kind {
        ProviderKind::Demo => return ConnectionTest::NoServiceNeeded,
        ProviderKind::OpenAi => Wire::OpenAi,
        ProviderKind::Ollama => Wire::Ollama,
        ProviderKind::Anthropic => Wire::Anthropic,
    };
    if missing_key(kind, http).is_some() {
        return ConnectionTest::MissingKey { host };
    }
    match ask_tiny(wire, http, within).await {
        Ok(model) => ConnectionTest::Works { host, model },
        Err(failure) => match ConnectionTest::from_failure(kind, &host, failure) {
            ConnectionTest::ModelNotFound {
                host,
                model,
                detail,
                ..
            } => ConnectionTest::ModelNotFound {
                models: list_models(wire, http, within).await.unwrap_or_default(),
                host,
                model,
                detail,
            },
            other => other,
        },
    }
}

/// Whether Ollama runs at `base_url` ("" for the catalogue's address) and which models it has
/// (`GET /api/tags`), within `within` ([`FIND_LOCAL_TIME`] in the app).
pub async fn find_local_models(base_url: &str, within: Duration) -> LocalModels {
    let base = Some(base_url.trim())
        .filter(|b| !b.is_empty())
        .unwrap_or(entry(ProviderKind::Ollama).default_base_url);
    let http = HttpSettings::new(base, None, "");
    let host = http.host();
    let not_running = |sentence: String, detail: Option<String>| LocalModels {
        running: false,
        models: Vec::new(),
        sentence,
        detail: detail.map(|d| display_label(&d, MAX_DETAIL_CHARS)),
    };
    if reqwest::Url::parse(ollama_root(base)).is_err() {
        return not_running(
            ConnectionTest::BadAddress {
                text: base.to_owned(),
            }
            .sentence(),
            None,
        );
    }
    match list_models(Wire::Ollama, &http, within).await {
        Ok(models) => LocalModels {
            running: true,
            sentence: match models.len() {
                0 => "Ollama is running on this computer, but it has no models yet. Get one \
                      with Ollama (for example: ollama pull llama3.1), or choose another way to \
                      answer."
                    .to_owned(),
                n => format!(
                    "Ollama is running with {}. Choose which one answers.",
                    plural(n, "model", "models")
                ),
            },
            models,
            detail: None,
        },
        Err(
            failure @ (ProbeFailure::TooSlow { .. }
            | ProbeFailure::Http(ProviderError::CannotConnect { .. })),
        ) => {
            let detail =
                ConnectionTest::from_failure(ProviderKind::Ollama, &host, failure).detail();
            let sentence = if is_this_computer(&host) {
                NO_LOCAL_MODEL.to_owned()
            } else {
                format!(
                    "Ollama does not answer at {host}. Check the address, or choose another way \
                     to answer."
                )
            };
            not_running(sentence, detail)
        }
        Err(failure) => {
            let detail =
                ConnectionTest::from_failure(ProviderKind::Ollama, &host, failure).detail();
            not_running(
                format!(
                    "Something answers at {host}, but it is not Ollama. Check the address, or \
                     choose another way to answer."
                ),
                detail,
            )
        }
    }
}
