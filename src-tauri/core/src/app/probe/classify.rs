//! Which [`ConnectionTest`] a failed request is: a status, a connection failure, a reply that
//! is not the API's, a bound that was hit.

use super::{is_this_computer, says_out_of_credit, ConnectionTest};
use crate::provider::ProviderError;
use crate::providers::probe::ProbeFailure;
use askfirst_protocol::ProviderKind;

impl ConnectionTest {
    /// The outcome of a failed probe of `kind` at `host`.
    pub(super) fn from_failure(kind: ProviderKind, host: &str, failure: ProbeFailure) -> Self {
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
            ProviderError::RateLimited { detail, .. }
            | ProviderError::BusyTooLong { detail, .. }
            | ProviderError::OverPlanLimit { detail, .. } => Self::RateLimited { host, detail },
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
            // The connection check sends a few words: a service that finds them too long (or a
            // proxy that refuses any body) refuses requests, whatever it calls it.
            ProviderError::Refused { status, detail, .. }
            | ProviderError::ContextTooLong {
                status: Some(status),
                detail,
                ..
            } => Self::Refused {
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
            | ProviderError::ContextTooLong {
                status: None,
                detail,
                ..
            }
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
