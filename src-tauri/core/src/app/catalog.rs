//! The provider catalogue: every provider a person can choose, with its label, default address
//! and model, and whether it needs a key; and how the provider in force is made from the
//! settings (`ProviderChoice`, [`make_provider`]). A new provider is one entry in
//! [`CATALOGUE`] plus its arm in [`make_provider`].

use super::settings::{Environment, Setting};
use crate::config::SettingsFile;
use crate::provider::{Provider, ProviderError};
use crate::providers::anthropic::AnthropicProvider;
use crate::providers::openai::OpenAiProvider;
use crate::providers::{ApiKey, HttpSettings};
use crate::scripted::{Scenario, ScriptedProvider};
use askfirst_protocol::{ProviderInfo, ProviderKind, ProviderSetting};
use std::path::PathBuf;
use std::sync::Arc;

/// Which wire protocol (and so which environment variables) an HTTP provider uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApiFamily {
    /// OpenAI Chat Completions (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL`).
    OpenAi,
    /// Anthropic Messages (`ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`, `ANTHROPIC_MODEL`).
    Anthropic,
}

/// One provider of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatalogueEntry {
    /// Which provider.
    pub kind: ProviderKind,
    /// Its name in the settings screen's list, as a sentence key of `locales/*/app.ftl`
    /// (English: "provider-choice-demo").
    pub label: &'static str,
    /// The service it speaks to; `None` for the offline demo.
    pub family: Option<ApiFamily>,
    /// The address used when none is set ("" for the demo).
    pub default_base_url: &'static str,
    /// The model used when none is set ("" for the demo).
    pub default_model: &'static str,
    /// Hosts that refuse every request without a key: the provider does not start without one
    /// there. Empty: a key is optional (a local service) or not used.
    pub key_required_at: &'static [&'static str],
    /// Whether the provider never starts without a key, wherever it points.
    pub key_always_required: bool,
}

/// Every provider a person can choose, in the order the settings screen lists them.
pub const CATALOGUE: [CatalogueEntry; 4] = [
    CatalogueEntry {
        kind: ProviderKind::Demo,
        label: "provider-choice-demo",
        family: None,
        default_base_url: "",
        default_model: "",
        key_required_at: &[],
        key_always_required: false,
    },
    CatalogueEntry {
        kind: ProviderKind::OpenAi,
        label: "provider-choice-openai",
        family: Some(ApiFamily::OpenAi),
        default_base_url: "https://api.openai.com/v1",
        default_model: "gpt-4o-mini",
        key_required_at: &["api.openai.com", "openrouter.ai"],
        key_always_required: false,
    },
    CatalogueEntry {
        kind: ProviderKind::Ollama,
        label: "provider-choice-ollama",
        family: Some(ApiFamily::OpenAi),
        default_base_url: "http://127.0.0.1:11434/v1",
        default_model: "llama3.1",
        key_required_at: &[],
        key_always_required: false,
    },
    CatalogueEntry {
        kind: ProviderKind::Anthropic,
        label: "provider-choice-anthropic",
        family: Some(ApiFamily::Anthropic),
        default_base_url: "https://api.anthropic.com",
        default_model: "claude-sonnet-4-5",
        key_required_at: &[],
        key_always_required: true,
    },
];

/// The catalogue entry of `kind`.
pub fn entry(kind: ProviderKind) -> &'static CatalogueEntry {
    match kind {
        ProviderKind::Demo => &CATALOGUE[0],
        ProviderKind::OpenAi => &CATALOGUE[1],
        ProviderKind::Ollama => &CATALOGUE[2],
        ProviderKind::Anthropic => &CATALOGUE[3],
    }
}

/// The catalogue as the settings screen receives it ([`askfirst_protocol::SettingsView`]), its
/// labels in the current language.
pub fn provider_infos() -> Vec<ProviderInfo> {
    CATALOGUE
        .iter()
        .map(|e| ProviderInfo {
            kind: e.kind,
            label: crate::i18n::tr(e.label, &[]),
            default_base_url: e.default_base_url.to_owned(),
            default_model: e.default_model.to_owned(),
            has_service: e.family.is_some(),
            needs_key: e.key_always_required || !e.key_required_at.is_empty(),
        })
        .collect()
}

/// Which model answers, resolved.
#[derive(Debug, Clone)]
pub enum ProviderChoice {
    /// The built-in offline demo.
    Demo,
    /// A scenario file played turn by turn.
    Scripted(PathBuf),
    /// An HTTP service from the catalogue (`kind` says which; its family, how it is spoken to).
    Http {
        /// Which catalogue entry.
        kind: ProviderKind,
        /// Address, key and model in force.
        http: HttpSettings,
    },
}

/// The error of an unknown provider name (from `ASKFIRST_PROVIDER` or `settings.json`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "ASKFIRST_PROVIDER={0:?} is not known; use `demo`, `openai`, `ollama`, `anthropic` or \
     `scripted:<path to scenario file>`"
)]
pub struct UnknownProvider(pub String);

/// The provider setting in force (environment over `file`), unparsed names rejected.
///
/// # Errors
/// [`UnknownProvider`].
pub fn provider_setting(
    env: &Environment,
    file: &SettingsFile,
) -> Result<ProviderSetting, UnknownProvider> {
    match env.first(Setting::Provider, None).or(file.provider.clone()) {
        None => Ok(ProviderSetting::Kind(ProviderKind::Demo)),
        Some(name) => {
            let name = name.trim();
            ProviderSetting::parse(name).ok_or_else(|| UnknownProvider(name.to_owned()))
        }
    }
}

/// The address whose key the service in force gets ([`super::secrets::key_address`] of its
/// base URL, the environment over `file` over the catalogue's default); `None` for the demo, a
/// scenario, or an unknown provider.
pub fn key_address_in_force(env: &Environment, file: &SettingsFile) -> Option<String> {
    let Ok(ProviderSetting::Kind(kind)) = provider_setting(env, file) else {
        return None;
    };
    let e = entry(kind);
    e.family?;
    let base_url = env
        .first(Setting::BaseUrl, e.family)
        .or(file.base_url.clone())
        .unwrap_or_else(|| e.default_base_url.into());
    Some(super::secrets::key_address(&base_url))
}

/// Which model answers: the provider setting in force, with its address and model from the
/// environment over `file` over the catalogue's defaults (the precedence table is
/// [`super::settings::ENVIRONMENT`]), and its key from the environment only: a saved key is
/// added by [`super::secrets::KeyStore::with_saved_key`], for the address in force.
///
/// # Errors
/// [`UnknownProvider`].
pub fn provider_choice(
    env: &Environment,
    file: &SettingsFile,
) -> Result<ProviderChoice, UnknownProvider> {
    let kind = match provider_setting(env, file)? {
        ProviderSetting::Scripted(path) => return Ok(ProviderChoice::Scripted(path.into())),
        ProviderSetting::Kind(ProviderKind::Demo) => return Ok(ProviderChoice::Demo),
        ProviderSetting::Kind(kind) => kind,
    };
    let e = entry(kind);
    let value =
        |setting: Setting, saved: &Option<String>| env.first(setting, e.family).or(saved.clone());
    let http = HttpSettings::new(
        &value(Setting::BaseUrl, &file.base_url).unwrap_or_else(|| e.default_base_url.into()),
        env.first(Setting::ApiKey, e.family)
            .map(|k| ApiKey::new(&k)),
        &value(Setting::Model, &file.model).unwrap_or_else(|| e.default_model.into()),
    );
    Ok(ProviderChoice::Http { kind, http })
}

/// Builds the provider for `choice`.
///
/// # Errors
/// [`ProviderError::MissingKey`] for a missing API key; the scenario's error for an unreadable
/// scenario file.
pub fn make_provider(choice: &ProviderChoice) -> Result<Arc<dyn Provider>, ProviderError> {
    Ok(match choice {
        ProviderChoice::Demo => Arc::new(ScriptedProvider::demo()),
        ProviderChoice::Scripted(path) => {
            let scenario = Scenario::load(path)?;
            Arc::new(ScriptedProvider::from_file(path, &scenario))
        }
        ProviderChoice::Http { kind, http } => {
            if let Some(error) = missing_key(*kind, http) {
                return Err(error);
            }
            match entry(*kind).family {
                Some(ApiFamily::Anthropic) => Arc::new(AnthropicProvider::new(http.clone())),
                Some(ApiFamily::OpenAi) | None => Arc::new(OpenAiProvider::new(http.clone())),
            }
        }
    })
}

/// [`ProviderError::MissingKey`] when `kind` at `http` needs an API key and `http` has none
/// (the catalogue's `key_always_required` and `key_required_at`); `None` otherwise.
pub fn missing_key(kind: ProviderKind, http: &HttpSettings) -> Option<ProviderError> {
    let e = entry(kind);
    let host = http.host();
    let needed = e.key_always_required || e.key_required_at.contains(&host.as_str());
    if http.api_key.is_some() || !needed {
        return None;
    }
    let env_var = match e.family {
        Some(ApiFamily::Anthropic) => "ANTHROPIC_API_KEY",
        Some(ApiFamily::OpenAi) | None => "OPENAI_API_KEY",
    };
    Some(ProviderError::MissingKey {
        host,
        env_var: env_var.to_owned(),
    })
}
