//! The test itself: the settings it uses ([`probe_target`]), the tiny request and, for an
//! unknown model, the model list ([`test_connection`]); and the Ollama finder
//! ([`find_local_models`]).

use super::{is_this_computer, ConnectionTest, MAX_DETAIL_CHARS};
use crate::app::catalog::{entry, missing_key};
use crate::app::secrets::{key_address, KeyStore};
use crate::app::settings::{AppConfig, Setting};
use crate::i18n::{tr, Arg};
use crate::provider::ProviderError;
use crate::providers::probe::{ask_tiny, list_models, ollama_root, ProbeFailure, Wire};
use crate::providers::{ApiKey, HttpSettings};
use crate::text::display_label;
use askfirst_protocol::{LocalModels, ProviderKind, TestConnectionRequest};
use std::time::Duration;

/// The provider to test and how to reach it, from the settings on screen (`request`), the
/// environment (which wins where it fixes a setting) and the saved key (used when none is
/// typed, unless "Remove the saved key" is ticked: the one saved for this address, in the
/// keyring or the settings file, [`KeyStore::saved_key`]). Reads `settings.json`.
///
/// # Errors
/// [`ConnectionTest::NoServiceNeeded`] for the demo; [`ConnectionTest::BadAddress`] for an
/// address that is not `http(s)://host…`.
pub fn probe_target(
    config: &AppConfig,
    keys: &KeyStore,
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
            .then(|| keys.load().ok())
            .flatten()
            .and_then(|file| keys.saved_key(&file, &key_address(base_url.trim())))
            .map(|(key, _place)| key)
    };
    let key = env
        .first(Setting::ApiKey, Some(family))
        .or_else(|| request.api_key.as_deref().and_then(nonempty))
        .map(|k| ApiKey::new(&k))
        .or_else(saved_key);
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
/// exist, asks the service which it has. Everything within `within` ([`super::TEST_TIME`] in
/// the app), the list within as long again.
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
/// (`GET /api/tags`), within `within` ([`super::FIND_LOCAL_TIME`] in the app).
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
                0 => tr("probe-ollama-no_models", &[]),
                n => tr("probe-ollama-models", &[("count", Arg::from(n))]),
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
                tr("probe-no_local_model", &[])
            } else {
                tr("probe-ollama-not_answering", &[("host", Arg::from(&host))])
            };
            not_running(sentence, detail)
        }
        Err(failure) => {
            let detail =
                ConnectionTest::from_failure(ProviderKind::Ollama, &host, failure).detail();
            not_running(
                tr("probe-ollama-not_ollama", &[("host", Arg::from(&host))]),
                detail,
            )
        }
    }
}
