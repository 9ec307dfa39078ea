//! The settings as the window shows and saves them: the provider catalogue, notifications,
//! ranges and MCP servers.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A provider a person can choose in the settings screen (wire: `demo`, `openai`, `ollama`,
/// `anthropic`). The catalogue of them, with labels and defaults, is
/// [`SettingsView::providers`] (made by the core's `app::catalog`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// The built-in offline demo.
    Demo,
    /// An OpenAI-compatible Chat Completions service.
    #[serde(rename = "openai")]
    OpenAi,
    /// Ollama on this computer (OpenAI-compatible, no key).
    Ollama,
    /// The Anthropic Messages API.
    Anthropic,
}

impl ProviderKind {
    /// Every kind, in the order the settings screen lists them.
    pub const ALL: [ProviderKind; 4] = [Self::Demo, Self::OpenAi, Self::Ollama, Self::Anthropic];

    /// The wire name (`demo`, `openai`, `ollama`, `anthropic`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Demo => "demo",
            Self::OpenAi => "openai",
            Self::Ollama => "ollama",
            Self::Anthropic => "anthropic",
        }
    }

    /// The kind named `name` (its wire name), if any.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// Which provider is in force: one of the [`ProviderKind`]s, or a scenario file fixed by
/// `ASKFIRST_PROVIDER=scripted:<path>` (never chosen in the settings screen). On the wire it is
/// one string, as before: the kind's name or `scripted:<path>`.
#[derive(Debug, Clone, PartialEq, Eq, TS)]
// ts-rs writes no import for a type given as text, so the kinds are spelled out here (the test
// `provider_setting_ts_type_lists_every_kind` keeps them in step with `ProviderKind::ALL`).
#[ts(type = "\"demo\" | \"openai\" | \"ollama\" | \"anthropic\" | `scripted:${string}`")]
pub enum ProviderSetting {
    /// A provider from the catalogue.
    Kind(ProviderKind),
    /// A scenario file played turn by turn (the path as given).
    Scripted(String),
}

impl ProviderSetting {
    /// The wire string.
    pub fn to_wire(&self) -> String {
        match self {
            Self::Kind(kind) => kind.as_str().to_owned(),
            Self::Scripted(path) => format!("scripted:{path}"),
        }
    }

    /// Parses the wire string; `None` for an unknown name.
    pub fn parse(text: &str) -> Option<Self> {
        match text.strip_prefix("scripted:") {
            Some(path) => Some(Self::Scripted(path.to_owned())),
            None => ProviderKind::parse(text).map(Self::Kind),
        }
    }
}

impl Serialize for ProviderSetting {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_wire())
    }
}

impl<'de> Deserialize<'de> for ProviderSetting {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown provider {text:?}; use demo, openai, ollama, anthropic or scripted:<path>"
            ))
        })
    }
}

/// One entry of the provider catalogue, for the settings screen: so the window shows each
/// provider's defaults without keeping its own copy of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProviderInfo {
    /// Which provider.
    pub kind: ProviderKind,
    /// Its name in the list ("Anthropic (Claude)").
    pub label: String,
    /// The address used when none is set ("" for one without a service, the demo).
    pub default_base_url: String,
    /// The model used when none is set ("" for the demo).
    pub default_model: String,
    /// Whether it needs an address, a model and maybe a key (false for the demo).
    pub has_service: bool,
    /// Whether it refuses to start without an API key at its default address.
    pub needs_key: bool,
}

/// When to send a native notification for a request that needs the person's OK (wire:
/// `always`, `unfocused`, `never`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum NotifyWhen {
    /// For every request.
    Always,
    /// Only while the window is not focused (the default).
    #[default]
    Unfocused,
    /// Never.
    Never,
}

impl NotifyWhen {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Always => "always",
            Self::Unfocused => "unfocused",
            Self::Never => "never",
        }
    }

    /// The value named `name` (its wire name), if any.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Always, Self::Unfocused, Self::Never]
            .into_iter()
            .find(|w| w.as_str() == name)
    }
}

/// Which requests the person lets a notification approve (Settings, "Let me approve from
/// notifications"). Every kind is off by default; deleting, commands, anything outside the
/// folder and what a rule asks about are never offered. Also the arguments of the
/// `set_notification_approvals` command.
///
/// JSON: `{"new_files":true}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
pub struct NotificationApprovals {
    /// Creating a new file inside the folder ([`crate::CallChange::NewFile`]), asked only
    /// because the tool asks by default.
    #[serde(default)]
    pub new_files: bool,
}

/// Arguments of the `set_start_at_login` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct StartAtLoginRequest {
    /// Whether Ask First starts (in the tray) when the person logs in.
    pub enabled: bool,
}

/// An inclusive range of whole numbers a setting accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WholeRange {
    /// The smallest value allowed.
    #[ts(type = "number")]
    pub min: u64,
    /// The largest value allowed.
    #[ts(type = "number")]
    pub max: u64,
}

impl WholeRange {
    /// Whether `value` is inside.
    pub fn contains(self, value: u64) -> bool {
        (self.min..=self.max).contains(&value)
    }
}

/// The settings as the settings screen shows them. The API key itself never leaves the
/// backend: only whether one is set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SettingsView {
    /// The provider in force.
    pub provider: ProviderSetting,
    /// The providers a person can choose, in order, with their defaults.
    pub providers: Vec<ProviderInfo>,
    /// The provider's base URL ("" for the provider's default).
    pub base_url: String,
    /// The model name ("" for the provider's default).
    pub model: String,
    /// Whether an API key is saved.
    pub has_api_key: bool,
    /// Where the API key is kept (or a new one would be), in a sentence. Never the key.
    pub key_storage: KeyStorage,
    /// Seconds an approval waits before it is denied.
    #[ts(type = "number")]
    pub approval_timeout_secs: u64,
    /// The waiting times, in seconds, the settings screen (and `settings.json`) accept.
    pub approval_timeout_range: WholeRange,
    /// When to notify.
    pub notify: NotifyWhen,
    /// Which requests a notification may approve (every kind off by default).
    pub notification_approvals: NotificationApprovals,
    /// Settings fixed by environment variables, which win over what is saved here.
    pub set_by_environment: Vec<String>,
    /// The rules file, for the person to edit.
    pub rules_path: String,
    /// The rules in force, one line each ("deny write_file \"Taxes/**\"").
    pub rules: Vec<String>,
    /// The rules file's problem, if it has one (then every action asks).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_error: Option<String>,
    /// The workspace folder the agent works in.
    pub workspace: String,
    /// The MCP servers, in settings order, and how each is doing.
    pub mcp_servers: Vec<McpServerView>,
    /// What is wrong with `settings.json`, if it cannot be read (the app then runs with the
    /// defaults, and saving is refused so the file is not overwritten).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings_error: Option<String>,
    /// The language chosen in the settings screen; absent follows the desktop's.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<crate::Language>,
    /// The language the window and messages are shown in now: the one chosen, else the
    /// desktop's (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`), else English.
    pub effective_language: crate::Language,
}

/// How an MCP server is doing (wire: `not_started`, `starting`, `running`, `failed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum McpServerState {
    /// Not started yet (it starts when a task needs it).
    NotStarted,
    /// Starting.
    Starting,
    /// Running and offering tools.
    Running,
    /// It could not start or it stopped; the status says why.
    Failed,
}

/// One MCP server as the settings screen shows it. Environment values never leave the
/// backend (they are often tokens): only their names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpServerView {
    /// The name from the settings (its tools are offered as `name__tool`).
    pub name: String,
    /// The program and its arguments as one command line, quoted like a POSIX shell would
    /// need (`npx -y @modelcontextprotocol/server-filesystem '/home/me/My files'`).
    pub command_line: String,
    /// The names of the extra environment variables it gets, sorted.
    pub env_names: Vec<String>,
    /// Whether its tools' read-only hints are trusted.
    pub trusted: bool,
    /// How it is doing.
    pub state: McpServerState,
    /// How it is doing, in a sentence ("Running, 12 tools.", what happened when failed).
    pub status: String,
    /// When failed: the technical side of `status` (what the system or the MCP SDK said), for
    /// a "Details" view one click away; absent where `status` says everything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status_detail: Option<String>,
}

/// One environment variable in a [`SaveMcpServerRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpEnvEntry {
    /// The variable's name (letters, digits and `_`, not starting with a digit).
    pub name: String,
    /// Its value; absent keeps the value saved under this name for this server.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// Arguments of the `save_mcp_server` command: adds a server, or replaces the one named
/// `previous_name`. Applies to the next task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SaveMcpServerRequest {
    /// The server being edited; absent adds a new one.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_name: Option<String>,
    /// Its name: 1 to 40 letters, digits, `-` or `_`, unique.
    pub name: String,
    /// The program and its arguments, split like a POSIX shell splits words (quotes and
    /// backslashes; no variables, globs or pipes).
    pub command_line: String,
    /// Every environment variable it should get (the ones left out are removed).
    pub env: Vec<McpEnvEntry>,
    /// Whether its tools' read-only hints are trusted.
    pub trusted: bool,
}

/// Arguments of the `remove_mcp_server` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RemoveMcpServerRequest {
    /// The server's name.
    pub name: String,
}

/// Arguments of the `remove_rule` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RemoveRuleRequest {
    /// The rule as listed in `SettingsView::rules`.
    pub rule: String,
}

/// Arguments of the `save_settings` command. Applies to the next task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SaveSettingsRequest {
    /// The provider chosen (a provider fixed by the environment is sent back as shown and
    /// not saved).
    pub provider: ProviderSetting,
    /// The base URL ("" for the default).
    pub base_url: String,
    /// The model ("" for the default).
    pub model: String,
    /// A new API key; absent keeps the saved one.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    /// Remove the saved key.
    #[serde(default)]
    pub clear_api_key: bool,
    /// Seconds an approval waits (inside [`SettingsView::approval_timeout_range`]).
    #[ts(type = "number")]
    pub approval_timeout_secs: u64,
    /// When to notify.
    pub notify: NotifyWhen,
    /// The language chosen; absent follows the desktop's. Applies at once.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<crate::Language>,
}

/// Where an API key is kept (wire: `keyring`, `settings_file`, `environment`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum KeyPlace {
    /// The desktop's keyring (the Secret Service over D-Bus, e.g. GNOME Keyring or KWallet).
    Keyring,
    /// Ask First's own `settings.json`, readable only by the person (owner-only permissions).
    SettingsFile,
    /// An environment variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`), which wins over both.
    Environment,
}

/// Where the API key of the service in force is kept, for the settings screen: the place,
/// a sentence for the person ("Your key is kept in the desktop's keyring."), and the technical
/// reason when the keyring is not used, one click away.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct KeyStorage {
    /// Where the saved key is, or where a key saved now would go.
    pub place: KeyPlace,
    /// The sentence the settings screen shows.
    pub sentence: String,
    /// Why the keyring is not used, in technical words (e.g. "no D-Bus session bus:
    /// DBUS_SESSION_BUS_ADDRESS is not set"); absent when it is used.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}
