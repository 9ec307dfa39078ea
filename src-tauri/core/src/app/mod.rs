//! The app's assembly and its settings domain: what a front end (the desktop shell, a test, a
//! CLI) needs to run Ask First from a settings value.
//!
//! - [`settings`]: where each setting comes from (one environment precedence table), the
//!   ranges they accept, and [`AppConfig`], the settings at start.
//! - [`catalog`]: the providers a person can choose, their defaults, and how the provider in
//!   force is made.
//! - [`screen`]: the settings screen's view and its changes ([`SettingsScreen`]), with typed
//!   errors ([`SettingsError`]) that carry their [`askfirst_protocol::ErrorCode`].
//! - [`probe`]: "Test the connection" and the Ollama finder: each outcome typed and worded
//!   once ([`probe::ConnectionTest`]).
//! - [`folder`]: the person's folder: which folders may be chosen, choosing one, the folder
//!   line, the welcome.
//! - [`codes`]: the [`askfirst_protocol::ErrorCode`] of every core error a command returns.
//! - [`secrets`]: where API keys are kept (the desktop's keyring, else the settings file) and
//!   the one way to find the key of a service ([`KeyStore`]).
//! - [`facade`]: [`App`], the one handle a front end holds, with the operations it calls.
//! - [`Backend::build`]: makes the registry, the session log and its watcher, the audit
//!   writer, the event history, the policy, the MCP clients and the provider factory, and the
//!   agent runtime over them.

pub mod catalog;
pub mod codes;
pub mod facade;
pub mod folder;
pub mod probe;
pub mod rules_screen;
pub mod screen;
pub mod secrets;
pub mod settings;

pub use crate::inbox::Listening;
pub use crate::notification_answers::{NotificationAnswer, NotificationAnswered};
pub use codes::{internal_error, Coded, StartupError, Worded};
pub use facade::{App, FolderName};
pub use folder::FolderError;
pub use screen::{SettingsError, SettingsScreen};
pub use secrets::KeyStore;
use secrets::KeyedSettings;
pub use settings::{AppConfig, ConfigError, Environment};

use crate::agent::{AgentRuntime, ProviderFactory, RuntimeConfig, DEFAULT_MAX_STEPS};
use crate::approvals::{AnswerMode, ApprovalRegistry, RegistryConfig};
use crate::audit::{
    logging_sink, private_dir_all, recover_orphans, recover_orphans_listed, AuditError, AuditSink,
    DataDirLock, JsonlLog, SessionLog, UnavailableLog,
};
use crate::config::SettingsFile;
use crate::history::EventHistory;
use crate::policy::{Policy, Rules};
use crate::provider::ProviderError;
use crate::scripted::{ensure_demo_folder, Scenario};
use crate::tools::{ToolSet, Workspace};
use crate::EventSink;
use askfirst_protocol::{SequencedEvent, SessionId};
use catalog::{make_provider, provider_choice, ProviderChoice};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

/// The core as a front end holds it: the runtime, the session's event history, the receiving
/// end of the events, the settings screen, and the claim on the data folder.
pub struct Backend {
    /// Runs the agent and owns the approvals.
    pub runtime: Arc<AgentRuntime>,
    /// Every event so far, for a window that loads late.
    pub history: Arc<EventHistory>,
    /// The events as they happen, numbered (the front end forwards them).
    pub events: UnboundedReceiver<SequencedEvent>,
    /// The settings the app started with and the settings screen's rules.
    pub settings: Arc<SettingsScreen>,
    /// The session log the runtime and the registry write through (its writer thread):
    /// [`SessionLog::flush`] before a session switch and when the app quits.
    pub log: Arc<SessionLog>,
    /// This app's claim on the data folder, to hold until it quits (`None` when another app
    /// holds it or it could not be taken).
    pub instance_lock: Option<DataDirLock>,
    /// The inbox for other agents on this computer ([`crate::inbox`]); the front end starts
    /// its socket with [`crate::inbox::Inbox::listen`].
    pub inbox: Arc<crate::inbox::Inbox>,
    /// Activity and Undo over this data folder's session logs and before-copies.
    pub activity: Arc<crate::undo::Activity>,
    /// The other agents' requests that were waiting when Ask First last closed, closed at
    /// this start ([`crate::inbox::gone`]): the window says so until the person dismisses
    /// each.
    pub gone: Arc<crate::inbox::gone::GoneRequests>,
}

/// Why the backend could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A folder that cannot be created or opened.
    #[error("cannot {what} {}: {source}", path.display())]
    Folder {
        /// "create the data folder", "create the demo folder", "open the workspace".
        what: &'static str,
        /// The folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The scenario file of a scripted provider cannot be read or parsed.
    #[error(transparent)]
    Provider(#[from] ProviderError),
    /// `ASKFIRST_WORKSPACE` names a folder the welcome would refuse (Ask First's own data
    /// folder or one holding it, the home folder, `/`, a disk whose spellings have no one
    /// identity), with the welcome's sentence.
    #[error("the folder {} set by ASKFIRST_WORKSPACE cannot be used: {source}", path.display())]
    FixedFolder {
        /// The folder.
        path: PathBuf,
        /// Why, as the welcome says it.
        source: folder::FolderError,
    },
}

impl AppConfig {
    /// Makes the provider factory. Each run reads the settings file of `keys` again (this
    /// configuration's store, [`AppConfig::key_store`]; the environment still wins), so a
    /// provider saved in the settings screen applies to the next task, with the key `keys`
    /// holds for its address. The provider chosen now is checked now, so a bad
    /// scenario file fails at start.
    ///
    /// # Errors
    /// [`ProviderError`] for a scenario file that cannot be read or parsed.
    pub fn provider_factory(&self, keys: Arc<KeyStore>) -> Result<ProviderFactory, ProviderError> {
        if let ProviderChoice::Scripted(path) = &self.provider {
            Scenario::load(path)?;
        }
        if self.provider_fixed {
            let choice = self.provider.clone();
            return Ok(Arc::new(move || {
                // The environment fixes the provider; a key may still be saved for its address.
                let file = keys.load().unwrap_or_else(|_| KeyedSettings::empty());
                make_provider(&keys.with_saved_key(choice.clone(), &file))
            }));
        }
        let env = self.env.clone();
        Ok(Arc::new(move || {
            let file = keys.load().map_err(ProviderError::Config)?;
            let choice =
                provider_choice(&env, &file).map_err(|e| ProviderError::Config(e.to_string()))?;
            make_provider(&keys.with_saved_key(choice, &file))
        }))
    }

    /// Where API keys are kept, found when first needed ([`KeyStore::find`]), and the keys
    /// this configuration's settings file holds then moved there ([`KeyStore::for_settings`]).
    pub fn key_store(&self) -> KeyStore {
        KeyStore::for_settings(&self.env, self.settings_path())
    }
}

fn folder(what: &'static str, path: &std::path::Path) -> impl FnOnce(std::io::Error) -> BuildError {
    let path = path.to_owned();
    move |source| BuildError::Folder { what, path, source }
}

impl Backend {
    /// Creates the data folder, claims it ([`crate::audit::lock_data_dir`]), and builds
    /// everything ([`Backend::build_with`]).
    ///
    /// # Errors
    /// As [`Backend::build_with`].
    pub fn build(config: AppConfig, handle: tokio::runtime::Handle) -> Result<Self, BuildError> {
        private_dir_all(&config.data_dir)
            .map_err(folder("create the data folder", &config.data_dir))?;
        let lock = crate::audit::lock_data_dir(&config.data_dir);
        Self::build_with(config, handle, lock)
    }

    /// Builds the backend for `config`, its runs spawned on `handle`, with the claim on the
    /// data folder already tried (`lock`: the result of [`crate::audit::lock_data_dir`]), so a
    /// front end can check for another instance before anything touches the folder. Closes
    /// what a previous launch left waiting (only when this one holds the folder), opens a new
    /// session's log, and loads the rules and the MCP servers of `settings.json`.
    ///
    /// # Errors
    /// Folders that cannot be created, a workspace that is not a folder, a bad scenario file.
    pub fn build_with(
        config: AppConfig,
        handle: tokio::runtime::Handle,
        lock: std::io::Result<Option<DataDirLock>>,
    ) -> Result<Self, BuildError> {
        let data_dir = config.data_dir.clone();
        private_dir_all(&data_dir).map_err(folder("create the data folder", &data_dir))?;
        let fixed = config.workspace_fixed();
        let demo_dir = config.demo_folder();
        // The folder chosen last time, when it is gone: the window says so, and no task
        // starts until another is chosen (the demo folder stands in, unused).
        let chosen_is_gone = !fixed && !config.workspace_is_demo && !config.workspace.is_dir();
        // A folder written into settings.json by hand is checked like a picked one: Ask
        // First's own data folder (or home, or `/`) never becomes the agent's.
        let refused = !fixed && !config.workspace_is_demo && !chosen_is_gone && {
            let home = config.env.var("HOME").map(PathBuf::from);
            match folder::check_folder(&config.workspace, &data_dir, home.as_deref()) {
                Ok(_) => false,
                Err(error) => {
                    eprintln!(
                        "askfirst: the folder {} in settings.json is not used: {error}",
                        config.workspace.display()
                    );
                    true
                }
            }
        };
        let config = if refused {
            AppConfig {
                workspace: demo_dir.clone(),
                workspace_is_demo: true,
                ..config
            }
        } else {
            config
        };
        if fixed {
            let home = config.env.var("HOME").map(PathBuf::from);
            if let Err(source) = folder::check_folder(&config.workspace, &data_dir, home.as_deref())
            {
                // A missing folder or a file is said by opening it, below.
                if !matches!(
                    source,
                    folder::FolderError::Missing(_) | folder::FolderError::NotAFolder(_)
                ) {
                    return Err(BuildError::FixedFolder {
                        path: config.workspace.clone(),
                        source,
                    });
                }
            }
        }
        let start_dir = if config.workspace_is_demo || chosen_is_gone {
            ensure_demo_folder(&demo_dir).map_err(folder("create the demo folder", &demo_dir))?;
            &demo_dir
        } else {
            &config.workspace
        };
        let workspace = Workspace::open(start_dir)
            .map_err(folder("open the workspace", start_dir))?
            .with_own_data(&data_dir);
        let sessions_dir = data_dir.join("sessions");
        let (instance_lock, gone) = claim(lock, &data_dir, &sessions_dir);
        let session_id = SessionId::new();
        let (log, unwritable) = open_log(&sessions_dir, session_id);
        let keys = Arc::new(config.key_store());
        let rules_path = config.rules_path();
        let policy = Arc::new(Policy::new(
            Rules::load(&rules_path),
            // The agent's part of the data folder: the demo folder (a folder the person
            // chooses is never inside it), or the folder the environment sets.
            Some((
                data_dir.as_path(),
                if fixed { workspace.root() } else { &demo_dir },
            )),
        ));
        if let Some(error) = policy.rules_error() {
            eprintln!("askfirst: {error}");
        }
        let log = SessionLog::new(log);
        let audit: Arc<dyn AuditSink> = log.clone();
        // MCP servers from the settings file; they start on first use.
        let mcp_servers = SettingsFile::load(&config.settings_path())
            .map(|f| f.mcp_servers)
            .unwrap_or_default();
        let mcp =
            (!mcp_servers.is_empty()).then(|| Arc::new(crate::mcp::McpClients::new(mcp_servers)));
        let (tx, rx) = unbounded_channel();
        // The events beyond the newest ~256 KiB wait in an unnamed file in the data folder,
        // and cost the app's memory 4 bytes each however long the session (history.rs).
        let history = match tempfile::tempfile_in(&data_dir) {
            Ok(spool) => EventHistory::spooled(spool, crate::history::HELD_BYTES),
            Err(error) => {
                eprintln!("askfirst: the event history stays in memory, no spool: {error}");
                EventHistory::new()
            }
        };
        // The receiver outlives every sender; if it is gone the app is quitting.
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
            timeout: config.approval_timeout,
            mode: AnswerMode::Interactive,
            events: Arc::clone(&events),
            audit,
        });
        let inbox = crate::inbox::Inbox::new(
            Arc::clone(&registry),
            Arc::clone(&policy),
            Arc::clone(&shown),
            &data_dir,
            config.env.var("HOME").map(PathBuf::from),
        );
        let undo_store = crate::undo::UndoStore::new(&data_dir, config.undo_cap_bytes);
        let activity = Arc::new(crate::undo::Activity::new(
            sessions_dir.clone(),
            undo_store.clone(),
        ));
        let runtime_config = RuntimeConfig {
            workspace,
            max_steps: DEFAULT_MAX_STEPS,
            provider: config.provider_factory(Arc::clone(&keys))?,
            tools: ToolSet::builtin(),
            policy,
            rules_path: Some(rules_path),
            log: Arc::clone(&log),
            session_id,
            sessions_dir: Some(sessions_dir.clone()),
            replay_events: shown,
            acp_limits: crate::acp::AcpLimits::default(),
            mcp,
            undo: Some(undo_store.clone()),
        };
        let runtime = AgentRuntime::new(handle, registry, events, runtime_config);
        let person_folder = Arc::downgrade(&runtime);
        inbox.follow_folder(Arc::new(move || {
            person_folder.upgrade().map(|r| r.workspace())
        }));
        if fixed {
            runtime.fix_folder();
        }
        runtime.set_start_folder(if chosen_is_gone {
            crate::agent::SessionFolder::Gone {
                path: config.workspace.clone(),
                demo: false,
            }
        } else {
            crate::agent::SessionFolder::Open {
                workspace: runtime.workspace(),
                demo: config.workspace_is_demo,
            }
        });
        Ok(Self {
            runtime,
            history,
            events: rx,
            settings: Arc::new(SettingsScreen::new(config, keys)),
            log,
            instance_lock,
            inbox,
            activity,
            gone: Arc::new(gone),
        })
    }
}

/// Keeps the claim on the data folder, and closes what a previous launch left waiting — not
/// while another app runs on this data folder (a second launch, before the single-instance
/// guard hands over, or with no session bus for that guard): what it left waiting is still
/// waiting for a person. Returns the claim and the other agents' requests it closed.
fn claim(
    lock: std::io::Result<Option<DataDirLock>>,
    data_dir: &std::path::Path,
    sessions_dir: &std::path::Path,
) -> (Option<DataDirLock>, crate::inbox::gone::GoneRequests) {
    let (instance_lock, another_app_runs) = match lock {
        Ok(Some(lock)) => (Some(lock), false),
        Ok(None) => (None, true),
        Err(error) => {
            eprintln!(
                "askfirst: could not lock the data folder {} ({error})",
                data_dir.display()
            );
            (None, false)
        }
    };
    if another_app_runs {
        eprintln!(
            "askfirst: another Ask First is using {}; its waiting approvals are left to it",
            data_dir.display()
        );
        return (instance_lock, crate::inbox::gone::GoneRequests::default());
    }
    match recover_orphans(sessions_dir) {
        Ok((closed, warnings)) => {
            for warning in warnings {
                eprintln!("askfirst: {warning}");
            }
            if closed > 0 {
                eprintln!(
                    "askfirst: {closed} approval(s) left waiting when Ask First last quit are \
                     recorded as cancelled"
                );
            }
        }
        Err(error) => eprintln!("askfirst: could not check old session logs: {error}"),
    }
    // The other agents' conversations too: what they left waiting is closed the same way,
    // and the window says so (those agents stopped waiting when Ask First closed).
    let gone = match recover_orphans_listed(&data_dir.join("other-agents")) {
        Ok((closed, warnings)) => {
            for warning in warnings {
                eprintln!("askfirst: {warning}");
            }
            closed
        }
        Err(error) => {
            eprintln!("askfirst: could not check the other agents' old logs: {error}");
            Vec::new()
        }
    };
    (
        instance_lock,
        crate::inbox::gone::GoneRequests::from_closed(gone),
    )
}

/// Opens the new session's log; one that cannot be written becomes an [`UnavailableLog`]
/// (every action that needs an OK is then refused) and the problem to report.
fn open_log(
    sessions_dir: &std::path::Path,
    session_id: SessionId,
) -> (Arc<dyn AuditSink>, Option<String>) {
    let log_path = sessions_dir.join(format!("{session_id}.jsonl"));
    match JsonlLog::open(&log_path) {
        Ok(log) => (Arc::new(log), None),
        Err(error) => {
            eprintln!(
                "askfirst: the session log {} cannot be written ({error}); actions that need \
                 your OK will be refused",
                log_path.display()
            );
            let reason = error.to_string();
            let problem = AuditError::Write {
                path: log_path.clone(),
                source: error,
            }
            .to_string();
            let log = UnavailableLog {
                path: log_path,
                error: reason,
            };
            (Arc::new(log), Some(problem))
        }
    }
}
