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
    logging_sink, recover_orphans, AuditSink, JsonlLog, SessionLog, UnavailableLog,
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
            SettingsFile::load(&data_dir.join("settings.json")).map_err(anyhow::Error::msg)?;
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
        let provider = match provider_name.as_deref().map(str::trim) {
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
        };
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
            approval_timeout,
            autostart_task: env_nonempty("ASKFIRST_TASK"),
            notify_when: match env_nonempty("ASKFIRST_NOTIFY") {
                None => crate::notify::NotifyWhen::Unfocused,
                Some(value) => crate::notify::NotifyWhen::parse(&value).with_context(|| {
                    format!("ASKFIRST_NOTIFY must be always, unfocused or never, not {value:?}")
                })?,
            },
        })
    }

    /// Makes the provider factory; a scenario file is checked now so a bad one fails at start.
    ///
    /// # Errors
    /// A scenario file that cannot be read or parsed.
    pub fn provider_factory(&self) -> anyhow::Result<ProviderFactory> {
        Ok(match &self.provider {
            ProviderChoice::OpenAi(http) => {
                let needs_key = ["api.openai.com", "openrouter.ai"].contains(&http.host().as_str());
                let missing = (needs_key && http.api_key.is_none()).then(|| {
                    format!(
                        "Add your API key for {} in the settings (OPENAI_API_KEY).",
                        http.host()
                    )
                });
                let provider: Arc<dyn Provider> = Arc::new(OpenAiProvider::new(http.clone()));
                Arc::new(move || match &missing {
                    Some(message) => Err(ProviderError::Config(message.clone())),
                    None => Ok(Arc::clone(&provider)),
                })
            }
            ProviderChoice::Anthropic(http) => {
                let missing = http.api_key.is_none().then(|| {
                    "Add your Anthropic API key in the settings (ANTHROPIC_API_KEY).".to_owned()
                });
                let provider: Arc<dyn Provider> = Arc::new(AnthropicProvider::new(http.clone()));
                Arc::new(move || match &missing {
                    Some(message) => Err(ProviderError::Config(message.clone())),
                    None => Ok(Arc::clone(&provider)),
                })
            }
            ProviderChoice::Demo => {
                Arc::new(|| Ok(Arc::new(ScriptedProvider::demo()) as Arc<dyn Provider>))
            }
            ProviderChoice::Scripted(path) => {
                Scenario::load(path)?;
                let path = path.clone();
                Arc::new(move || -> Result<Arc<dyn Provider>, ProviderError> {
                    let scenario = Scenario::load(&path)?;
                    let name = format!("Scripted scenario ({})", path.display());
                    Ok(Arc::new(ScriptedProvider::new(name, &scenario)))
                })
            }
        })
    }

    /// Creates the folders, then the agent runtime and its event history.
    ///
    /// # Errors
    /// Folders that cannot be created, a workspace that is not a folder, a bad scenario file.
    pub fn build_runtime(&self, handle: tokio::runtime::Handle) -> anyhow::Result<Backend> {
        std::fs::create_dir_all(&self.data_dir).with_context(|| {
            format!("cannot create the data folder {}", self.data_dir.display())
        })?;
        if self.workspace_is_demo {
            ensure_demo_folder(&self.workspace).with_context(|| {
                format!("cannot create the demo folder {}", self.workspace.display())
            })?;
        }
        let workspace = Workspace::open(&self.workspace)
            .with_context(|| format!("cannot open the workspace {}", self.workspace.display()))?;
        // Close what a previous run of the app left waiting, then open this session's log.
        let sessions_dir = self.data_dir.join("sessions");
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
        let session_id = SessionId::new();
        let log_path = sessions_dir.join(format!("{session_id}.jsonl"));
        let first: Arc<dyn AuditSink> = match JsonlLog::open(&log_path) {
            Ok(log) => Arc::new(log),
            Err(error) => {
                eprintln!("askfirst: the session log {} cannot be written ({error}); actions that need your OK will be refused", log_path.display());
                Arc::new(UnavailableLog {
                    path: log_path,
                    error: error.to_string(),
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
        let (tx, rx) = unbounded_channel();
        let history = EventHistory::new();
        // The bridge outlives every sender; if it is gone the app is quitting.
        let shown: EventSink = history.sink(move |event| {
            let _ = tx.send(event);
        });
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
        };
        Ok(Backend {
            runtime: AgentRuntime::new(handle, registry, events, config),
            history,
            events: rx,
        })
    }
}
