//! The settings screen: what it shows ([`SettingsScreen::view`]) and the changes it makes
//! (save the settings, edit the MCP servers, remove a rule), each applied to the running
//! backend and written to `settings.json` or `rules.toml`. These do file I/O (an fsync on save):
//! a front end calls them off its GUI thread.

use super::catalog::{entry, key_address_in_force, provider_infos, provider_setting};
use super::secrets::{KeyStore, KeyedSettings};
use super::settings::{
    effective_language, language_tag, parse_language_tag, AppConfig, Setting, APPROVAL_TIMEOUT_SECS,
};
use crate::agent::AgentRuntime;
use crate::config::SettingsFile;
use crate::i18n::{tr, Arg};
use crate::mcp::{McpServerConfig, McpServerStatus};
use crate::sync::MutexExt;
use askfirst_protocol::{
    ErrorCode, McpServerState, McpServerView, NotificationApprovals, NotifyWhen, ProviderKind,
    ProviderSetting, SaveSettingsRequest, SettingsView,
};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

/// Why a change from the settings screen was refused; nothing changed then.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// A scenario file is only set by `ASKFIRST_PROVIDER`, never saved from the screen.
    #[error("Unknown provider \"{0}\".")]
    UnknownProvider(String),
    /// The waiting time is outside [`APPROVAL_TIMEOUT_SECS`].
    #[error(
        "The waiting time must be between {} and {} seconds.",
        APPROVAL_TIMEOUT_SECS.min,
        APPROVAL_TIMEOUT_SECS.max
    )]
    TimeoutOutOfRange(u64),
    /// `settings.json` cannot be read or has a mistake (so it is never overwritten).
    #[error("{0}")]
    FileUnreadable(String),
    /// `settings.json` cannot be written.
    #[error("The settings could not be saved to {}: {source}", path.display())]
    SaveFailed {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The rule to remove is not in the rules file.
    #[error("The rule {0} is not in the rules file.")]
    NoSuchRule(String),
    /// The rules file cannot be read or written.
    #[error(transparent)]
    Rules(#[from] crate::policy::RulesError),
    /// An MCP server change was refused (the sentence says why).
    #[error("{0}")]
    McpServer(String),
    /// The desktop's keyring did not remove a key (the other settings were saved).
    #[error(
        "The key could not be removed from the desktop's keyring ({0}). Try again, or remove \
         it with the desktop's passwords app (it is listed under \"Ask First\")."
    )]
    KeyringRemove(String),
}

impl SettingsError {
    /// The code the window receives.
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::UnknownProvider(_)
            | Self::TimeoutOutOfRange(_)
            | Self::NoSuchRule(_)
            | Self::McpServer(_) => ErrorCode::InvalidRequest,
            Self::FileUnreadable(_)
            | Self::SaveFailed { .. }
            | Self::Rules(_)
            | Self::KeyringRemove(_) => ErrorCode::Storage,
        }
    }
}

/// The settings the app started with, the notification setting in force, and the settings
/// screen's reads and changes.
#[derive(Debug)]
pub struct SettingsScreen {
    config: AppConfig,
    keys: Arc<KeyStore>,
    notify: Mutex<NotifyWhen>,
    /// Which requests a notification may approve, as last saved.
    notification_approvals: Mutex<NotificationApprovals>,
    /// Held from reading `settings.json` to saving it ([`SettingsScreen::load_file`]): the
    /// window's commands run side by side, and a change saved from a copy read before another
    /// change would undo it (a key removed would come back).
    editing: Mutex<()>,
}

impl SettingsScreen {
    /// The screen over `config`, saving API keys through `keys`.
    pub fn new(config: AppConfig, keys: Arc<KeyStore>) -> Self {
        let notify = Mutex::new(config.notify_when);
        // A file that cannot be read allows none (and the screen says what is wrong with it).
        let notification_approvals = Mutex::new(
            SettingsFile::load(&config.settings_path())
                .map(|file| file.notification_approvals)
                .unwrap_or_default(),
        );
        Self {
            config,
            keys,
            notify,
            notification_approvals,
            editing: Mutex::new(()),
        }
    }

    /// Where API keys are kept.
    pub fn keys(&self) -> &KeyStore {
        &self.keys
    }

    /// The settings the app started with.
    pub fn config(&self) -> &AppConfig {
        &self.config
    }

    /// When to send notifications now.
    pub fn notify_when(&self) -> NotifyWhen {
        *self.notify.lock_or_recover()
    }

    /// Which requests a notification may approve now ("Let me approve from notifications").
    pub fn notification_approvals(&self) -> NotificationApprovals {
        *self.notification_approvals.lock_or_recover()
    }

    /// Saves which requests a notification may approve (in `settings.json`, at once, the rest
    /// of the file as it is) and applies it from the next click. Returns the settings now in
    /// force.
    ///
    /// # Errors
    /// A file that cannot be read (or has a mistake: it is never overwritten) or written;
    /// nothing changes then.
    pub fn set_notification_approvals(
        &self,
        runtime: &AgentRuntime,
        allowed: NotificationApprovals,
    ) -> Result<SettingsView, SettingsError> {
        self.edit_file(|file| file.notification_approvals = allowed)?;
        *self.notification_approvals.lock_or_recover() = allowed;
        Ok(self.view(runtime))
    }

    /// The language in force now: the one saved in `settings.json`, else the desktop's
    /// ([`effective_language`]). Reads `settings.json` (a file that cannot be read counts as
    /// no choice). For a front end to render its sentences in (at start and after each save).
    pub fn language(&self) -> askfirst_protocol::Language {
        let file = SettingsFile::load(&self.config.settings_path()).unwrap_or_default();
        effective_language(file.language.as_deref(), &self.config.env)
    }

    fn family(&self, file: &SettingsFile) -> Option<super::catalog::ApiFamily> {
        match provider_setting(&self.config.env, file) {
            Ok(ProviderSetting::Kind(kind)) => entry(kind).family,
            Ok(ProviderSetting::Scripted(_)) | Err(_) => None,
        }
    }

    /// The settings for the settings screen (never the API key itself). Reads `settings.json`.
    pub fn view(&self, runtime: &AgentRuntime) -> SettingsView {
        let env = &self.config.env;
        let loaded = self.keys.load();
        let settings_error = loaded.as_ref().err().cloned();
        let file = loaded.unwrap_or_else(|_| KeyedSettings::empty());
        let family = self.family(&file);
        // A name the file has wrong shows as the demo (the file's mistake is reported when a
        // task starts).
        let provider =
            provider_setting(env, &file).unwrap_or(ProviderSetting::Kind(ProviderKind::Demo));
        let address = key_address_in_force(env, &file);
        let (has_api_key, key_storage) = self.keys.storage(env, family, &file, address.as_deref());
        let file = file.into_inner();
        SettingsView {
            provider,
            providers: provider_infos(),
            base_url: env
                .first(Setting::BaseUrl, family)
                .or(file.base_url)
                .unwrap_or_default(),
            model: env
                .first(Setting::Model, family)
                .or(file.model)
                .unwrap_or_default(),
            has_api_key,
            key_storage,
            approval_timeout_secs: runtime.approvals().timeout().as_secs(),
            approval_timeout_range: APPROVAL_TIMEOUT_SECS,
            notify: self.notify_when(),
            notification_approvals: self.notification_approvals(),
            set_by_environment: env.set_by_environment(family),
            rules_path: self.config.rules_path().display().to_string(),
            rules: runtime.policy().rules_summary(),
            rules_error: runtime.policy().rules_error().map(|e| e.to_string()),
            workspace: runtime.folder().path().display().to_string(),
            mcp_servers: mcp_views(runtime, &file.mcp_servers),
            settings_error,
            language: file.language.as_deref().and_then(parse_language_tag),
            effective_language: effective_language(file.language.as_deref(), env),
        }
    }

    /// Loads `settings.json` to change it, once where keys are kept has been found
    /// ([`KeyStore::load`]), so that moving the file's keys there and a change never overlap;
    /// and no other change starts until the guard returned with it is dropped (after the save).
    fn load_file(&self) -> Result<(MutexGuard<'_, ()>, KeyedSettings), SettingsError> {
        let editing = self.editing.lock_or_recover();
        let file = self.keys.load().map_err(SettingsError::FileUnreadable)?;
        Ok((editing, file))
    }

    /// Loads `settings.json`, lets `change` edit it and saves it (owner-only, atomically).
    ///
    /// # Errors
    /// A file that cannot be read (or has a mistake: it is never overwritten) or written.
    pub(super) fn edit_file(
        &self,
        change: impl FnOnce(&mut SettingsFile),
    ) -> Result<(), SettingsError> {
        let (_editing, mut file) = self.load_file()?;
        change(&mut file);
        self.save_file(&file)
    }

    fn save_file(&self, file: &SettingsFile) -> Result<(), SettingsError> {
        let path = self.config.settings_path();
        file.save(&path)
            .map_err(|source| SettingsError::SaveFailed { path, source })
    }

    /// Saves the settings to `settings.json` (owner-only, atomically, synced); they apply to
    /// the next task, and the timeout and notification setting at once unless the environment
    /// fixes them. A key typed is saved for the address in force after the change, in the
    /// desktop's keyring where one is used ([`KeyStore::save_key`]); "remove the saved key"
    /// removes the keys of the address before and after. A provider fixed by the environment is shown, not saved: the file keeps its
    /// own. Returns the settings now in force.
    ///
    /// # Errors
    /// [`SettingsError::UnknownProvider`] for a scenario file, a timeout outside
    /// [`APPROVAL_TIMEOUT_SECS`], a file that cannot be read or written (nothing changes then);
    /// [`SettingsError::KeyringRemove`] when the keyring did not remove a key (the rest saved).
    pub fn save(
        &self,
        runtime: &AgentRuntime,
        request: SaveSettingsRequest,
    ) -> Result<SettingsView, SettingsError> {
        let env = &self.config.env;
        let provider_fixed = env.first(Setting::Provider, None).is_some();
        let provider = match request.provider {
            ProviderSetting::Kind(kind) => Some(kind),
            ProviderSetting::Scripted(_) if provider_fixed => None,
            ProviderSetting::Scripted(path) => {
                return Err(SettingsError::UnknownProvider(format!("scripted:{path}")))
            }
        };
        if !APPROVAL_TIMEOUT_SECS.contains(request.approval_timeout_secs) {
            return Err(SettingsError::TimeoutOutOfRange(
                request.approval_timeout_secs,
            ));
        }
        let (_editing, mut file) = self.load_file()?;
        let nonempty = |s: String| Some(s.trim().to_owned()).filter(|s| !s.is_empty());
        if let (false, Some(kind)) = (provider_fixed, provider) {
            file.provider = Some(kind.as_str().to_owned());
        }
        // The key the screen showed belongs to the address in force before; one typed now, to
        // the address in force after.
        let old_address = key_address_in_force(env, &file);
        file.base_url = nonempty(request.base_url);
        file.model = nonempty(request.model);
        let address = key_address_in_force(env, &file);
        let mut not_removed = None;
        if request.clear_api_key {
            for a in old_address.iter().chain(address.iter()) {
                if let Err(why) = self.keys.remove_key(&mut file, a) {
                    not_removed = Some(why);
                }
            }
        }
        if let (Some(key), Some(address)) = (request.api_key.and_then(nonempty), &address) {
            self.keys.save_key(&mut file, address, &key);
        }
        // A key of an earlier version is bound to the address in force now.
        self.keys.move_saved_keys(&mut file, address.as_deref());
        file.approval_timeout_secs = Some(request.approval_timeout_secs);
        file.notify = Some(request.notify.as_str().to_owned());
        file.language = request.language.map(|l| language_tag(l).to_owned());
        self.save_file(&file)?;
        if env.first(Setting::ApprovalTimeoutSecs, None).is_none() {
            runtime
                .approvals()
                .set_timeout(std::time::Duration::from_secs(
                    request.approval_timeout_secs,
                ));
        }
        if env.first(Setting::Notify, None).is_none() {
            *self.notify.lock_or_recover() = request.notify;
        }
        if let Some(why) = not_removed {
            return Err(SettingsError::KeyringRemove(why));
        }
        Ok(self.view(runtime))
    }

    /// Loads `settings.json`, lets `change` edit its MCP servers (its error is a sentence for
    /// the person), saves the file and applies the servers to the next task (a server whose
    /// settings did not change keeps running). Returns the settings now in force.
    ///
    /// # Errors
    /// [`SettingsError::McpServer`] from `change`; a file that cannot be read or written
    /// (nothing changes then).
    pub fn edit_mcp_servers(
        &self,
        runtime: &AgentRuntime,
        change: impl FnOnce(&mut Vec<McpServerConfig>) -> Result<(), String>,
    ) -> Result<SettingsView, SettingsError> {
        let (_editing, mut file) = self.load_file()?;
        change(&mut file.mcp_servers).map_err(SettingsError::McpServer)?;
        self.save_file(&file)?;
        runtime.set_mcp_servers(file.into_inner().mcp_servers);
        Ok(self.view(runtime))
    }

    /// Removes the MCP server `name` from `settings.json`; it is stopped and its tools are no
    /// longer offered from the next task on.
    ///
    /// # Errors
    /// [`SettingsError::McpServer`] when no server has that name; as
    /// [`SettingsScreen::edit_mcp_servers`].
    pub fn remove_mcp_server(
        &self,
        runtime: &AgentRuntime,
        name: &str,
    ) -> Result<SettingsView, SettingsError> {
        self.edit_mcp_servers(runtime, |servers| {
            let before = servers.len();
            servers.retain(|s| s.name != name);
            if servers.len() == before {
                return Err(crate::i18n::tr(
                    "mcp_config-no_such_server",
                    &[("name", crate::i18n::Arg::from(name))],
                ));
            }
            Ok(())
        })
    }

    /// Removes one rule from the rules file (its comments and other rules stay) and applies
    /// the rules at once. Returns the settings now in force.
    ///
    /// # Errors
    /// [`SettingsError::NoSuchRule`]; [`SettingsError::Rules`] when the file cannot be read or
    /// written.
    pub fn remove_rule(
        &self,
        runtime: &AgentRuntime,
        rule: &str,
    ) -> Result<SettingsView, SettingsError> {
        let path = self.config.rules_path();
        if !crate::policy::remove_rule(&path, rule)? {
            return Err(SettingsError::NoSuchRule(rule.to_owned()));
        }
        runtime
            .policy()
            .set_rules(crate::policy::Rules::load(&path));
        runtime.record_rule_change(Some(rule.to_owned()), None);
        Ok(self.view(runtime))
    }
}

/// The MCP servers for the settings screen: the saved settings with the live status of the
/// server of the same name.
fn mcp_views(runtime: &AgentRuntime, saved: &[McpServerConfig]) -> Vec<McpServerView> {
    let live = runtime.mcp_statuses();
    saved
        .iter()
        .map(|config| {
            let status = live
                .iter()
                .find(|s| s.name == config.name)
                .map(|s| s.status.clone());
            let mut status_detail = None;
            let (state, status) = match status {
                None => (McpServerState::NotStarted, tr("mcp-status-next_task", &[])),
                Some(McpServerStatus::NotStarted) => (
                    McpServerState::NotStarted,
                    tr("mcp-status-when_needed", &[]),
                ),
                Some(McpServerStatus::Starting) => {
                    (McpServerState::Starting, tr("mcp-status-starting", &[]))
                }
                Some(McpServerStatus::Running { tools }) => (
                    McpServerState::Running,
                    tr("mcp-status-running", &[("count", Arg::from(tools.len()))]),
                ),
                Some(McpServerStatus::Failed {
                    message, detail, ..
                }) => {
                    status_detail = detail;
                    (McpServerState::Failed, message)
                }
            };
            McpServerView {
                name: config.name.clone(),
                // For showing only: the words quoted back into the line they were read from.
                command_line: askfirst_shell_line::words::quoted_line(
                    std::iter::once(&config.command).chain(config.args.iter()),
                ),
                env_names: config.env.keys().cloned().collect(),
                trusted: config.trusted,
                state,
                status,
                status_detail,
            }
        })
        .collect()
}
