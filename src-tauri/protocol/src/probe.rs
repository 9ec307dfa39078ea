//! "Who answers", checked from the settings screen: the `test_connection` command (one tiny
//! request with the settings on screen, and what happened in one sentence) and the
//! `find_local_models` command (is Ollama running on this computer, and which models it has).
//! The core's `app::probe` decides and words each outcome; these are the values the window gets.

use crate::ProviderKind;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Arguments of the `test_connection` command: the provider settings as they are on screen,
/// saved or not. The environment still wins where it fixes a setting, as it does for a task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TestConnectionRequest {
    /// The provider chosen on screen.
    pub provider: ProviderKind,
    /// The address on screen ("" for the provider's default).
    pub base_url: String,
    /// The model on screen ("" for the provider's default).
    pub model: String,
    /// A key typed on screen and not saved yet; absent uses the saved key (the window never
    /// holds a saved key).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    /// "Remove the saved key" is ticked on screen: test without the saved key.
    #[serde(default)]
    pub clear_api_key: bool,
}

/// How a connection test ended (wire: the snake-case names). Each has one sentence, made by
/// the core, in [`ConnectionTestResult::sentence`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ConnectionOutcome {
    /// The service answered the tiny request; [`ConnectionTestResult::model`] says which model.
    Works,
    /// The provider chosen needs no connection (the demo).
    NoServiceNeeded,
    /// The address on screen is not a web address.
    BadAddress,
    /// The service needs an API key and none is typed or saved.
    MissingKey,
    /// The service refused the key (HTTP 401 or 403).
    KeyRefused,
    /// Nothing answers at that address: connection refused, a name not found, a failed secure
    /// connection, no connection in time.
    NothingAnswers,
    /// Something answered, but not an AI service: a web page, or an answer that is not the
    /// API's (other JSON, a missing endpoint, a redirect).
    NotAnAiService,
    /// The service does not have the model; [`ConnectionTestResult::models`] lists those it has.
    ModelNotFound,
    /// The service says there are too many requests right now (HTTP 429).
    RateLimited,
    /// The service says the account has no credit or quota left.
    OutOfCredit,
    /// The service failed on its side (HTTP 5xx) or stopped with an error.
    ServiceTrouble,
    /// The service refused the request for another reason (another 4xx).
    Refused,
    /// No whole answer came in the time a test may take.
    TooSlow,
}

/// What `test_connection` found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ConnectionTestResult {
    /// How it ended.
    pub outcome: ConnectionOutcome,
    /// What happened, in one sentence for the person.
    pub sentence: String,
    /// The technical detail (the HTTP status, the service's own message, the networking
    /// library's complaint), one line, bounded; shown one click away, as text.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The model that answered (for `works`), as the service named it.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The models the service has (for `model_not_found`; may be empty), cleaned and bounded.
    pub models: Vec<String>,
}

/// Arguments of the `find_local_models` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FindLocalModelsRequest {
    /// Ollama's address on screen ("" for the catalogue's default, `http://127.0.0.1:11434/v1`;
    /// a trailing `/v1` is dropped to reach Ollama's own API).
    pub base_url: String,
}

/// Whether Ollama runs at the address, and its installed models.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LocalModels {
    /// Whether Ollama answered.
    pub running: bool,
    /// The installed models (Ollama's `GET /api/tags`), in its order, cleaned and bounded.
    pub models: Vec<String>,
    /// What was found, in one sentence ("No local model is running on this computer. …").
    pub sentence: String,
    /// The technical detail, one line, bounded; shown one click away.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}
