//! Where Ask First keeps its data, which folder the agent works in, and which model answers,
//! from the environment (the automation contract, DESIGN.md §6):
//!
//! - `ASKFIRST_DATA_DIR`: all state; default the platform's data folder + `askfirst`.
//! - `ASKFIRST_WORKSPACE`: the folder tools may work in; default the demo folder
//!   `<data dir>/Demo folder`, created with a few sample files on first launch.
//! - `ASKFIRST_PROVIDER`: `demo` (default), `scripted:<path to scenario file>`, `openai`
//!   (`OPENAI_BASE_URL`, default `https://api.openai.com/v1`; `OPENAI_API_KEY`; model
//!   `ASKFIRST_MODEL` or `OPENAI_MODEL`, default `gpt-4o-mini`) or `anthropic`
//!   (`ANTHROPIC_BASE_URL`, default `https://api.anthropic.com`; `ANTHROPIC_API_KEY`; model
//!   `ASKFIRST_MODEL` or `ANTHROPIC_MODEL`, default `claude-sonnet-4-5`). `ollama` is
//!   `openai` at `http://127.0.0.1:11434/v1` without a key.
//! - `settings.json` in the data folder may set `provider`, `base_url`, `model`, `api_key` and
//!   `approval_timeout_secs`; the environment wins over it.
//! - `ASKFIRST_APPROVAL_TIMEOUT_SECS`: seconds a request waits (default 120).
//! - `ASKFIRST_TASK`: a task to start at launch.
//! - `ASKFIRST_NOTIFY`: when to send notifications: `always`, `unfocused` (default), `never`.
//!
//! In the data folder: `rules.toml` (the user's rules, created with instructions when missing)
//! and `sessions/<session id>.jsonl` (each session's audit log).

use anyhow::{bail, Context};
use askfirst_core::agent::{AgentRuntime, ProviderFactory, RuntimeConfig, DEFAULT_MAX_STEPS};
use askfirst_core::approvals::{
    AnswerMode, ApprovalRegistry, RegistryConfig, DEFAULT_APPROVAL_TIMEOUT,
};
use askfirst_core::audit::{
    lock_data_dir, logging_sink, recover_orphans, AuditError, AuditSink, DataDirLock, JsonlLog,
    SessionLog, UnavailableLog,
};
use askfirst_core::config::SettingsFile;
use askfirst_core::history::EventHistory;
use askfirst_core::policy::{Policy, Rules};
use askfirst_core::provider::{Provider, ProviderError};
use askfirst_core::providers::anthropic::AnthropicProvider;
use askfirst_core::providers::openai::OpenAiProvider;
use askfirst_core::providers::{ApiKey, HttpSettings};
use askfirst_core::scripted::{ensure_demo_folder, Scenario, ScriptedProvider};
use askfirst_core::tools::{ToolSet, Workspace};
use askfirst_core::EventSink;
use askfirst_protocol::{SequencedEvent, SessionId};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

/// The core as the shell holds it: the runtime, the session's event history, and the
/// receiving end of the events for the bridge.
pub struct Backend {
    /// Runs the agent and owns the approvals.
    pub runtime: Arc<AgentRuntime>,
    /// Every event so far, for a window that loads late.
    pub history: Arc<EventHistory>,
    /// The events as they happen, numbered.
    pub events: UnboundedReceiver<SequencedEvent>,
    /// The settings the app started with (for the settings screen).
    pub settings: Arc<Settings>,
    /// This app's claim on the data folder, to hold until it quits (`None` when another app
    /// holds it or it could not be taken).
    pub instance_lock: Option<DataDirLock>,
}

/// Which model answers.
#[derive(Debug, Clone)]
pub enum ProviderChoice {
    /// The built-in offline demo.
    Demo,
    /// A scenario file played turn by turn.
    Scripted(PathBuf),
    /// An OpenAI-compatible Chat Completions service.
    OpenAi(HttpSettings),
    /// The Anthropic Messages API.
    Anthropic(HttpSettings),
}

/// The settings in force.
#[derive(Debug, Clone)]
pub struct Settings {
    /// All state lives here.
    pub data_dir: PathBuf,
    /// The folder tools work in.
    pub workspace: PathBuf,
    /// Whether `workspace` is the demo folder (created with sample files when missing).
    pub workspace_is_demo: bool,
    /// Which model answers.
    pub provider: ProviderChoice,
    /// Whether `provider` is fixed for the whole launch (set by `ASKFIRST_PROVIDER`); when
    /// not, each run reads the settings file again, so the settings screen applies.
    pub provider_fixed: bool,
    /// How long a request waits.
    pub approval_timeout: Duration,
    /// A task to start at launch.
    pub autostart_task: Option<String>,
    /// When to send notifications.
    pub notify_when: crate::notify::NotifyWhen,
}

fn env_nonempty(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

impl Settings {
    /// Reads the settings from the environment.
    ///
    /// # Errors
    /// An unknown `ASKFIRST_PROVIDER`, an invalid `ASKFIRST_APPROVAL_TIMEOUT_SECS`, or no data
    /// folder on this platform.
    pub fn from_env() -> anyhow::Result<Self> {
        let data_dir = match env_nonempty("ASKFIRST_DATA_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => dirs::data_dir()
                .context("this system has no data folder; set ASKFIRST_DATA_DIR")?
                .join("askfirst"),
        };
        let (workspace, workspace_is_demo) = match env_nonempty("ASKFIRST_WORKSPACE") {
            Some(dir) => (PathBuf::from(dir), false),
            None => (data_dir.join("Demo folder"), true),
        };
        let file =
            // A settings file with a mistake must not keep the app from opening: the window says
            // what is wrong (`SettingsView::settings_error`) and a task that needs the file stops
            // with that message (the provider factory reads it again for every task).
            SettingsFile::load(&data_dir.join("settings.json")).unwrap_or_else(|error| {
                eprintln!("askfirst: {error}; starting with the default settings");
                SettingsFile::default()
            });
        let provider = provider_choice(&file)?;
        let approval_timeout = match env_nonempty("ASKFIRST_APPROVAL_TIMEOUT_SECS")
            .or(file.approval_timeout_secs.map(|s| s.to_string()))
        {
            None => DEFAULT_APPROVAL_TIMEOUT,
            Some(secs) => match secs.trim().parse::<u64>() {
                Ok(secs) if secs > 0 => Duration::from_secs(secs),
                _ => bail!("ASKFIRST_APPROVAL_TIMEOUT_SECS must be a whole number of seconds above 0, not {secs:?}"),
            },
        };
        Ok(Self {
            data_dir,
            workspace,
            workspace_is_demo,
            provider,
            provider_fixed: env_nonempty("ASKFIRST_PROVIDER").is_some(),
            approval_timeout,
            autostart_task: env_nonempty("ASKFIRST_TASK"),
            notify_when: match env_nonempty("ASKFIRST_NOTIFY").or(file.notify.clone()) {
                None => crate::notify::NotifyWhen::Unfocused,
                Some(value) => crate::notify::NotifyWhen::parse(&value).with_context(|| {
                    format!("ASKFIRST_NOTIFY must be always, unfocused or never, not {value:?}")
                })?,
            },
        })
    }

    /// Where the settings file is.
    pub fn settings_path(&self) -> PathBuf {
        self.data_dir.join("settings.json")
    }

    /// Makes the provider factory. Each run reads the settings file again (the environment
    /// still wins), so a provider saved in the settings screen applies to the next task. The
    /// provider chosen now is checked now, so a bad scenario file fails at start.
    ///
    /// # Errors
    /// A scenario file that cannot be read or parsed.
    pub fn provider_factory(&self) -> anyhow::Result<ProviderFactory> {
        if let ProviderChoice::Scripted(path) = &self.provider {
            Scenario::load(path)?;
        }
        if self.provider_fixed {
            let choice = self.provider.clone();
            return Ok(Arc::new(move || make_provider(&choice)));
        }
        let settings_path = self.settings_path();
        Ok(Arc::new(move || {
            let file = SettingsFile::load(&settings_path).map_err(ProviderError::Config)?;
            let choice =
                provider_choice(&file).map_err(|e| ProviderError::Config(e.to_string()))?;
            make_provider(&choice)
        }))
    }

    /// Creates the folders, claims the data folder ([`lock_data_dir`]), then builds the agent
    /// runtime and its event history.
    ///
    /// # Errors
    /// Folders that cannot be created, a workspace that is not a folder, a bad scenario file.
    pub fn build_runtime(&self, handle: tokio::runtime::Handle) -> anyhow::Result<Backend> {
        askfirst_core::audit::private_dir_all(&self.data_dir).with_context(|| {
            format!("cannot create the data folder {}", self.data_dir.display())
        })?;
        self.build_runtime_with(handle, lock_data_dir(&self.data_dir))
    }

    /// As [`Settings::build_runtime`], with the claim on the data folder already tried
    /// (`lock`: the result of [`lock_data_dir`]), so the app can check for another instance
    /// before anything touches the folder.
    ///
    /// # Errors
    /// As [`Settings::build_runtime`].
    pub fn build_runtime_with(
        &self,
        handle: tokio::runtime::Handle,
        lock: std::io::Result<Option<DataDirLock>>,
    ) -> anyhow::Result<Backend> {
        askfirst_core::audit::private_dir_all(&self.data_dir).with_context(|| {
            format!("cannot create the data folder {}", self.data_dir.display())
        })?;
        if self.workspace_is_demo {
            ensure_demo_folder(&self.workspace).with_context(|| {
                format!("cannot create the demo folder {}", self.workspace.display())
            })?;
        }
        let workspace = Workspace::open(&self.workspace)
            .with_context(|| format!("cannot open the workspace {}", self.workspace.display()))?
            .with_own_data(&self.data_dir);
        // Close what a previous run of the app left waiting, then open this session's log. Not
        // while another app runs on this data folder (a second launch, before the single-
        // instance guard hands over, or with no session bus for that guard): what it left
        // waiting is still waiting for a person.
        let sessions_dir = self.data_dir.join("sessions");
        let (instance_lock, another_app_runs) = match lock {
            Ok(Some(lock)) => (Some(lock), false),
            Ok(None) => (None, true),
            Err(error) => {
                eprintln!(
                    "askfirst: could not lock the data folder {} ({error})",
                    self.data_dir.display()
                );
                (None, false)
            }
        };
        if another_app_runs {
            eprintln!(
                "askfirst: another Ask First is using {}; its waiting approvals are left to it",
                self.data_dir.display()
            );
        } else {
            match recover_orphans(&sessions_dir) {
                Ok((closed, warnings)) => {
                    for warning in warnings {
                        eprintln!("askfirst: {warning}");
                    }
                    if closed > 0 {
                        eprintln!("askfirst: {closed} approval(s) left waiting when Ask First last quit are recorded as cancelled");
                    }
                }
                Err(error) => eprintln!("askfirst: could not check old session logs: {error}"),
            }
        }
        let session_id = SessionId::new();
        let log_path = sessions_dir.join(format!("{session_id}.jsonl"));
        let mut unwritable = None;
        let first: Arc<dyn AuditSink> = match JsonlLog::open(&log_path) {
            Ok(log) => Arc::new(log),
            Err(error) => {
                eprintln!("askfirst: the session log {} cannot be written ({error}); actions that need your OK will be refused", log_path.display());
                let reason = error.to_string();
                unwritable = Some(
                    AuditError::Write {
                        path: log_path.clone(),
                        source: error,
                    }
                    .to_string(),
                );
                Arc::new(UnavailableLog {
                    path: log_path,
                    error: reason,
                })
            }
        };
        let rules_path = self.data_dir.join("rules.toml");
        let policy = Arc::new(Policy::new(
            Rules::load(&rules_path),
            Some((self.data_dir.as_path(), workspace.root())),
        ));
        if let Some(error) = policy.rules_error() {
            eprintln!("askfirst: {error}");
        }
        let log = SessionLog::new(first);
        let audit: Arc<dyn AuditSink> = log.clone();
        // MCP servers from the settings file; they start on first use.
        let mcp_servers = SettingsFile::load(&self.settings_path())
            .map(|f| f.mcp_servers)
            .unwrap_or_default();
        let mcp = (!mcp_servers.is_empty())
            .then(|| Arc::new(askfirst_core::mcp::McpClients::new(mcp_servers)));
        let (tx, rx) = unbounded_channel();
        let history = EventHistory::new();
        // The bridge outlives every sender; if it is gone the app is quitting.
        let shown: EventSink = history.sink(move |event| {
            let _ = tx.send(event);
        });
        // The window says when the log cannot be written (and when it can again).
        let to_window = Arc::clone(&shown);
        log.watch(Arc::new(move |problem| {
            to_window(askfirst_protocol::AgentEvent::LogStatus { problem });
        }));
        log.report(unwritable);
        let events = logging_sink(Arc::clone(&log), Arc::clone(&shown));
        let registry = ApprovalRegistry::new(RegistryConfig {
            timeout: self.approval_timeout,
            mode: AnswerMode::Interactive,
            events: Arc::clone(&events),
            audit: Arc::clone(&audit),
        });
        let config = RuntimeConfig {
            workspace,
            max_steps: DEFAULT_MAX_STEPS,
            provider: self.provider_factory()?,
            tools: ToolSet::builtin(),
            policy,
            rules_path: Some(rules_path),
            log,
            session_id,
            sessions_dir: Some(sessions_dir),
            replay_events: shown,
            mcp,
        };
        Ok(Backend {
            runtime: AgentRuntime::new(handle, registry, events, config),
            history,
            events: rx,
            settings: Arc::new(self.clone()),
            instance_lock,
        })
    }
}

/// Which model answers, from the environment over the settings file.
///
/// # Errors
/// An unknown provider name.
pub fn provider_choice(file: &SettingsFile) -> anyhow::Result<ProviderChoice> {
    let provider_name = env_nonempty("ASKFIRST_PROVIDER").or(file.provider.clone());
    let model = |default: &str, env: &str| {
        env_nonempty("ASKFIRST_MODEL")
            .or_else(|| env_nonempty(env))
            .or(file.model.clone())
            .unwrap_or_else(|| default.to_owned())
    };
    let key = |env: &str| {
        env_nonempty(env)
            .or(file.api_key.clone())
            .map(|k| ApiKey::new(&k))
    };
    let base = |env: &str, default: &str| {
        env_nonempty(env)
            .or(file.base_url.clone())
            .unwrap_or_else(|| default.to_owned())
    };
    Ok(match provider_name.as_deref().map(str::trim) {
        None | Some("demo") => ProviderChoice::Demo,
        Some("openai") => ProviderChoice::OpenAi(HttpSettings::new(
            &base("OPENAI_BASE_URL", "https://api.openai.com/v1"),
            key("OPENAI_API_KEY"),
            &model("gpt-4o-mini", "OPENAI_MODEL"),
        )),
        Some("ollama") => ProviderChoice::OpenAi(HttpSettings::new(
            &base("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1"),
            key("OPENAI_API_KEY"),
            &model("llama3.1", "OPENAI_MODEL"),
        )),
        Some("anthropic") => ProviderChoice::Anthropic(HttpSettings::new(
            &base("ANTHROPIC_BASE_URL", "https://api.anthropic.com"),
            key("ANTHROPIC_API_KEY"),
            &model("claude-sonnet-4-5", "ANTHROPIC_MODEL"),
        )),
        Some(value) => match value.strip_prefix("scripted:") {
            Some(path) => ProviderChoice::Scripted(PathBuf::from(path)),
            None => bail!(
                "ASKFIRST_PROVIDER={value:?} is not known; use `demo`, `openai`, `ollama`, \
                 `anthropic` or `scripted:<path to scenario file>`"
            ),
        },
    })
}

/// Builds the provider for `choice`.
///
/// # Errors
/// [`ProviderError::Config`] for a missing API key or an unreadable scenario file.
pub fn make_provider(choice: &ProviderChoice) -> Result<Arc<dyn Provider>, ProviderError> {
    Ok(match choice {
        ProviderChoice::Demo => Arc::new(ScriptedProvider::demo()),
        ProviderChoice::Scripted(path) => {
            let scenario = Scenario::load(path)?;
            Arc::new(ScriptedProvider::new(
                format!("Scripted scenario ({})", path.display()),
                &scenario,
            ))
        }
        ProviderChoice::OpenAi(http) => {
            let host = http.host();
            if http.api_key.is_none()
                && ["api.openai.com", "openrouter.ai"].contains(&host.as_str())
            {
                return Err(ProviderError::Config(format!(
                    "Add your API key for {host} in the settings (or OPENAI_API_KEY)."
                )));
            }
            Arc::new(OpenAiProvider::new(http.clone()))
        }
        ProviderChoice::Anthropic(http) => {
            if http.api_key.is_none() {
                return Err(ProviderError::Config(
                    "Add your Anthropic API key in the settings (or ANTHROPIC_API_KEY).".into(),
                ));
            }
            Arc::new(AnthropicProvider::new(http.clone()))
        }
    })
}

/// The environment variables that override each setting shown in the settings screen.
pub const ENV_OVERRIDES: &[(&str, &[&str])] = &[
    ("provider", &["ASKFIRST_PROVIDER"]),
    ("base_url", &["OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"]),
    (
        "model",
        &["ASKFIRST_MODEL", "OPENAI_MODEL", "ANTHROPIC_MODEL"],
    ),
    ("api_key", &["OPENAI_API_KEY", "ANTHROPIC_API_KEY"]),
    ("approval_timeout_secs", &["ASKFIRST_APPROVAL_TIMEOUT_SECS"]),
    ("notify", &["ASKFIRST_NOTIFY"]),
];

/// Which settings the environment fixes now.
pub fn set_by_environment() -> Vec<String> {
    ENV_OVERRIDES
        .iter()
        .filter(|(_, vars)| vars.iter().any(|v| env_nonempty(v).is_some()))
        .map(|(name, _)| (*name).to_owned())
        .collect()
}
