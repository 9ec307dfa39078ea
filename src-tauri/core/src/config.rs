//! The settings file `settings.json` in the data folder: which provider, its base URL and
//! model, the approval timeout, the MCP servers, the person's folder, whether the welcome was
//! done, and the API keys where no desktop keyring can hold them (`crate::app::secrets`). The
//! environment overrides it (see the shell). The file is written with owner-only permissions
//! (0600 on Unix), atomically.

use crate::mcp::McpServerConfig;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::Path;

/// The settings file's contents. Every field is optional; missing means "the default".
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsFile {
    /// `demo`, `openai`, `anthropic` or `scripted:<path>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// The provider's base URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// The model name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The API key of earlier versions, for whichever service was chosen (never logged: `Debug`
    /// redacts it). Read, never written again: at start it moves to the desktop's keyring, or
    /// into `api_keys` for the address in force (`crate::app::secrets::KeyStore::find`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    /// API keys kept here because no desktop keyring could take them: the service's address
    /// (its origin, `crate::app::secrets::key_address`) → the key. A key is only ever sent to
    /// its own address. Never logged: `Debug` shows the addresses only.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub api_keys: BTreeMap<String, String>,
    /// Seconds an approval waits before it is denied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_timeout_secs: Option<u64>,
    /// When to notify: `always`, `unfocused` or `never`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notify: Option<String>,
    /// The MCP servers to offer tools from (their `env` values are never logged: `Debug`
    /// redacts them). Missing means none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<McpServerConfig>,
    /// The folder the person chose for the agent (an absolute path); missing means the demo
    /// folder. `ASKFIRST_WORKSPACE` wins over it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<std::path::PathBuf>,
    /// Whether the person finished or skipped the welcome shown on first launch.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub welcome_done: bool,
    /// The language chosen in the settings screen, as its BCP 47 tag (`en`, `zh-CN`,
    /// `pt-BR`); missing (or a tag Ask First does not speak) follows the desktop's
    /// (`crate::app::settings::desktop_language`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// The most bytes Undo's before-copies may take together; missing means 1 GB
    /// ([`crate::undo::DEFAULT_UNDO_CAP_BYTES`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undo_cap_bytes: Option<u64>,
    /// Which requests a notification may approve ("Let me approve from notifications");
    /// missing means none.
    #[serde(default, skip_serializing_if = "is_none_allowed")]
    pub notification_approvals: askfirst_protocol::NotificationApprovals,
}

fn is_none_allowed(allowed: &askfirst_protocol::NotificationApprovals) -> bool {
    *allowed == askfirst_protocol::NotificationApprovals::default()
}

impl std::fmt::Debug for SettingsFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SettingsFile")
            .field("provider", &self.provider)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("api_keys", &self.api_keys.keys().collect::<Vec<_>>())
            .field("approval_timeout_secs", &self.approval_timeout_secs)
            .field("notify", &self.notify)
            .field("mcp_servers", &self.mcp_servers)
            .field("workspace", &self.workspace)
            .field("welcome_done", &self.welcome_done)
            .field("language", &self.language)
            .field("undo_cap_bytes", &self.undo_cap_bytes)
            .field("notification_approvals", &self.notification_approvals)
            .finish()
    }
}

impl SettingsFile {
    /// Reads the file; a missing file is the defaults.
    ///
    /// # Errors
    /// A message naming the file and what is wrong with it.
    pub fn load(path: &Path) -> Result<Self, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| format!("The settings file {} has a mistake: {e}", path.display())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(format!(
                "The settings file {} cannot be read: {e}",
                path.display()
            )),
        }
    }

    /// Writes the file atomically with owner-only permissions.
    ///
    /// # Errors
    /// The I/O error; the old file is then left as it was.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        crate::data_dir::write_atomically(path, text.as_bytes())
    }
}
