//! Supervising one MCP server: starting it over stdio when a call needs it (never twice at
//! once), listing its tools, calling one with a timeout, stopping it when it fails or stops
//! answering, and keeping the status the settings screen shows. Every start is numbered (a
//! *generation*), so news about an old process never changes a newer one's status.

use super::naming::{name_tools, ListedTool};
use super::stderr::{read_stderr, StderrTail};
use super::{McpServerConfig, McpServerStatus, McpTimeouts};
use crate::i18n::{tr, Arg};
use crate::sync::MutexExt;
use crate::text::{display_label, seconds};
use crate::tools::ToolError;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    JsonObject,
};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{Peer, RoleClient, ServiceError};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// One configured server, supervised: its settings, its running process (if any) and its
/// status. Shared (`Arc`) by the client set and by every [`super::tool::McpTool`] of it.
pub(super) struct SupervisedServer {
    pub(super) config: McpServerConfig,
    /// The server's part of tool names, `[A-Za-z0-9_-]`.
    prefix: String,
    timeouts: McpTimeouts,
    /// Why the settings do not allow starting it at all.
    pub(super) config_error: Option<super::config::StartupProblem>,
    /// The running server, if any. A tokio mutex, held while the server starts so that two
    /// callers never start it twice.
    connection: tokio::sync::Mutex<Option<ServerProcess>>,
    /// The status, never held across `.await`.
    state: Mutex<StatusCell>,
    /// Numbers each start, so news about an old process never changes a newer one's status.
    generations: AtomicU64,
    /// When the last start failed and why; cleared by a start that works.
    failed_start: Mutex<Option<(std::time::Instant, Unusable)>>,
    /// Set when the server was removed from the settings (or changed): it is never started
    /// again, even by a call approved on a card shown before.
    pub(super) retired: AtomicBool,
}

/// A status and the start it is about.
pub(super) struct StatusCell {
    /// The start the status is about.
    pub(super) generation: u64,
    pub(super) status: McpServerStatus,
}

/// A running server process and what it listed.
struct ServerProcess {
    generation: u64,
    service: RunningService<RoleClient, ClientConfig>,
    tools: Arc<Vec<ListedTool>>,
}

/// Why a server cannot be used now: what the model is told, in English, and what the person
/// is told, in the language in force when it happened.
#[derive(Debug, Clone)]
pub(super) struct Unusable {
    model: String,
    person: String,
}

/// What a call needs of a running server: its start's number, the MCP peer to send
/// requests to, and the tools it listed.
pub(super) struct Connected {
    generation: u64,
    peer: Peer<RoleClient>,
    pub(super) tools: Arc<Vec<ListedTool>>,
}

impl SupervisedServer {
    /// A server with these settings, not started; `problem` says why it may never start.
    pub(super) fn new(
        config: McpServerConfig,
        prefix: String,
        timeouts: McpTimeouts,
        problem: Option<super::config::StartupProblem>,
    ) -> Self {
        let status = match &problem {
            Some(problem) => McpServerStatus::Failed {
                message: problem.person(),
                for_model: problem.english(),
                detail: None,
            },
            None => McpServerStatus::NotStarted,
        };
        Self {
            config,
            prefix,
            timeouts,
            config_error: problem,
            connection: tokio::sync::Mutex::new(None),
            state: Mutex::new(StatusCell {
                generation: 0,
                status,
            }),
            generations: AtomicU64::new(0),
            failed_start: Mutex::new(None),
            retired: AtomicBool::new(false),
        }
    }

    /// Stops the running process, if any, as the spec's stdio shutdown says (see
    /// [`super::McpClients::shutdown`]); its status becomes "not started".
    pub(super) async fn stop(&self) {
        let process = self.connection.lock().await.take();
        if let Some(process) = process {
            self.set_status(process.generation, McpServerStatus::NotStarted);
            // The outcome does not matter: the process is gone either way.
            let _ = process.service.cancel().await;
        }
    }

    /// The current status; the guard is never held across `.await`.
    pub(super) fn state(&self) -> MutexGuard<'_, StatusCell> {
        self.state.lock_or_recover()
    }

    pub(super) fn set_status(&self, generation: u64, status: McpServerStatus) {
        let mut state = self.state();
        if generation >= state.generation {
            *state = StatusCell { generation, status };
        }
    }

    pub(super) fn shown_name(&self) -> String {
        display_label(&self.config.name, 80)
    }

    fn error(&self, why: Unusable) -> ToolError {
        ToolError::McpServer {
            server: self.config.name.clone(),
            message: why.model,
            person: why.person,
        }
    }

    /// The running server, started (or started again) if needed.
    ///
    /// # Errors
    /// Why it could not be started, naming the server.
    pub(super) async fn connect(self: &Arc<Self>) -> Result<Connected, Unusable> {
        if let Some(problem) = &self.config_error {
            return Err(Unusable {
                model: problem.english(),
                person: problem.person(),
            });
        }
        if self.retired.load(Ordering::SeqCst) {
            let name = self.shown_name();
            return Err(Unusable {
                model: format!(
                    "The MCP server \"{name}\" was removed or changed in the settings, so this \
                     call of it was not made."
                ),
                person: tr("mcp-retired", &[("server", Arg::from(&name))]),
            });
        }
        let mut slot = self.connection.lock().await;
        if let Some(connection) = slot.as_ref() {
            if !connection.service.is_transport_closed() && !connection.service.is_closed() {
                return Ok(Connected {
                    generation: connection.generation,
                    peer: connection.service.peer().clone(),
                    tools: Arc::clone(&connection.tools),
                });
            }
        }
        // Whatever is left of a server that stopped goes first.
        drop(slot.take());
        let recent_failure = self
            .failed_start
            .lock_or_recover()
            .as_ref()
            .filter(|(at, _)| at.elapsed() < self.timeouts.retry_failed_start)
            .map(|(at, why)| (*at, why.clone()));
        if let Some((at, why)) = recent_failure {
            let wait = self
                .timeouts
                .retry_failed_start
                .saturating_sub(at.elapsed())
                .max(Duration::from_secs(1));
            return Err(Unusable {
                model: format!(
                    "{} (Not tried again yet: next try in {}.)",
                    why.model,
                    seconds(wait)
                ),
                person: tr(
                    "mcp-not_tried_again",
                    &[
                        ("failure", Arg::from(why.person)),
                        ("wait", Arg::from(in_seconds(wait))),
                    ],
                ),
            });
        }
        let generation = self.generations.fetch_add(1, Ordering::SeqCst) + 1;
        self.set_status(generation, McpServerStatus::Starting);
        let mut abandoned = AbandonedStart {
            server: self,
            generation,
            armed: true,
        };
        let tail = Arc::new(StderrTail::default());
        let mut stderr_reader = None;
        let started = tokio::time::timeout(
            self.timeouts.start,
            self.start(generation, &tail, &mut stderr_reader),
        )
        .await;
        let failure = match started {
            Ok(Ok(connection)) => {
                let live = Connected {
                    generation,
                    peer: connection.service.peer().clone(),
                    tools: Arc::clone(&connection.tools),
                };
                self.set_status(
                    generation,
                    McpServerStatus::Running {
                        tools: live.tools.iter().map(|t| t.info.clone()).collect(),
                    },
                );
                *slot = Some(connection);
                abandoned.armed = false;
                *self.failed_start.lock_or_recover() = None;
                return Ok(live);
            }
            Ok(Err(why)) => why,
            Err(_elapsed) => StartFailure {
                said: Trouble::Slow(self.timeouts.start),
                detail: None,
            },
        };
        let StartFailure {
            said: failure,
            detail,
        } = failure;
        // What the server said before it failed explains most failures; wait briefly for it.
        if let Some(reader) = stderr_reader {
            // A reader still going after that is left to finish on its own.
            let _ = tokio::time::timeout(Duration::from_secs(1), reader).await;
        }
        // The model is told in English (the call's result); the person's status is in their
        // language.
        let message = format!(
            "The MCP server \"{}\" could not be started: {}.{} Check its command in the \
             settings; it will be tried again the next time it is needed, after {}.",
            self.shown_name(),
            failure.english(),
            tail.said(&self.config.env),
            seconds(self.timeouts.retry_failed_start)
        );
        let shown = tr(
            "mcp-start_failed",
            &[
                ("server", Arg::from(self.shown_name())),
                ("trouble", Arg::from(failure.person())),
                ("said", Arg::from(tail.person_said(&self.config.env))),
                (
                    "retry",
                    Arg::from(in_seconds(self.timeouts.retry_failed_start)),
                ),
            ],
        );
        let why = Unusable {
            model: message,
            person: shown,
        };
        *self.failed_start.lock_or_recover() = Some((std::time::Instant::now(), why.clone()));
        abandoned.armed = false;
        self.set_status(
            generation,
            McpServerStatus::Failed {
                message: why.person.clone(),
                for_model: why.model.clone(),
                detail,
            },
        );
        Err(why)
    }

    /// Starts the process, does the MCP handshake and lists the tools.
    async fn start(
        self: &Arc<Self>,
        generation: u64,
        tail: &Arc<StderrTail>,
        stderr_reader: &mut Option<tokio::task::JoinHandle<()>>,
    ) -> Result<ServerProcess, StartFailure> {
        let mut command = tokio::process::Command::new(&self.config.command);
        // Only a few harmless variables of Ask First's environment, never its API keys, plus
        // what the settings give this server.
        let inherited = crate::tools::MCP_INHERITED_ENV
            .iter()
            .filter_map(|name| std::env::var_os(name).map(|value| (*name, value)));
        command
            .args(&self.config.args)
            .env_clear()
            .envs(inherited)
            .envs(&self.config.env)
            .kill_on_drop(true);
        #[cfg(unix)]
        let command = {
            let mut wrapped = process_wrap::tokio::CommandWrap::from(command);
            wrapped.wrap(process_wrap::tokio::ProcessGroup::leader());
            wrapped
        };
        let (transport, stderr) = TokioChildProcess::builder(command)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => StartFailure {
                    said: Trouble::NotFound(display_label(&self.config.command, 200)),
                    detail: Some(e.to_string()),
                },
                _ => StartFailure {
                    said: Trouble::CannotRun(display_label(&self.config.command, 200)),
                    detail: Some(e.to_string()),
                },
            })?;
        if let Some(stderr) = stderr {
            *stderr_reader = Some(tokio::spawn(read_stderr(
                stderr,
                Arc::clone(tail),
                Arc::downgrade(self),
                generation,
            )));
        }
        let info = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("askfirst", env!("CARGO_PKG_VERSION")),
        );
        let service = rmcp::serve_client(info, transport)
            .await
            .map_err(|e| match e {
                // The process ended (or closed its output) before the handshake was done.
                rmcp::service::ClientInitializeError::ConnectionClosed(_)
                | rmcp::service::ClientInitializeError::TransportError { .. } => StartFailure {
                    said: Trouble::StoppedEarly,
                    detail: Some(e.to_string()),
                },
                other => StartFailure {
                    said: Trouble::NotMcp,
                    detail: Some(other.to_string()),
                },
            })?;
        let listed = service
            .peer()
            .list_all_tools()
            .await
            .map_err(|e| StartFailure {
                said: Trouble::NoTools,
                detail: Some(e.to_string()),
            })?;
        let tools = name_tools(&self.prefix, listed, self.config.trusted);
        Ok(ServerProcess {
            generation,
            service,
            tools: Arc::new(tools),
        })
    }

    /// Stops the process of start `generation` (if it is still the current one) after it
    /// failed, and records why.
    async fn lost(&self, generation: u64, why: Unusable) {
        let mut slot = self.connection.lock().await;
        if slot.as_ref().is_some_and(|c| c.generation == generation) {
            // Dropping the service closes the connection and ends the process.
            drop(slot.take());
        }
        self.set_status(
            generation,
            McpServerStatus::Failed {
                message: why.person,
                for_model: why.model,
                detail: None,
            },
        );
    }

    /// Calls `tool` with `arguments`.
    ///
    /// # Errors
    /// [`ToolError::McpServer`] when the server cannot be started, stops, or does not answer
    /// within the call timeout (it is then stopped); [`ToolError::Said`] when it refuses the
    /// request or answers it wrongly.
    pub(super) async fn call(
        self: &Arc<Self>,
        tool: &str,
        arguments: JsonObject,
    ) -> Result<CallToolResult, ToolError> {
        let live = self.connect().await.map_err(|m| self.error(m))?;
        let request = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        let name = self.shown_name();
        let shown_tool = display_label(tool, 80);
        let again = "It will be started again the next time one of its tools is needed.";
        match tokio::time::timeout(self.timeouts.call, live.peer.call_tool(request)).await {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(ServiceError::McpError(error))) => {
                let said = display_label(&error.message, 1000);
                Err(ToolError::said(
                    format!("The MCP server \"{name}\" refused to run \"{shown_tool}\": {said}"),
                    "mcp-refused",
                    &[
                        ("server", Arg::from(&name)),
                        ("tool", Arg::from(&shown_tool)),
                        ("said", Arg::from(said)),
                    ],
                ))
            }
            Ok(Err(
                ServiceError::TransportClosed
                | ServiceError::TransportSend(_)
                | ServiceError::Cancelled { .. },
            )) => {
                let message = format!(
                    "The MCP server \"{name}\" stopped while \"{shown_tool}\" was running, so \
                     whether it did anything is unknown. {again}"
                );
                let shown = tr(
                    "mcp-stopped_during_call",
                    &[
                        ("server", Arg::from(&name)),
                        ("tool", Arg::from(&shown_tool)),
                    ],
                );
                let why = Unusable {
                    model: message,
                    person: shown,
                };
                self.lost(live.generation, why.clone()).await;
                Err(self.error(why))
            }
            // Anything else (an answer of the wrong kind, a request the SDK gave up on) leaves
            // the server running.
            Ok(Err(other)) => Err(ToolError::said(
                format!(
                    "The MCP server \"{name}\" did not answer the call of \"{shown_tool}\" \
                     properly: {other}"
                ),
                "mcp-bad_answer",
                &[
                    ("server", Arg::from(&name)),
                    ("tool", Arg::from(&shown_tool)),
                    ("why", Arg::from(other.to_string())),
                ],
            )),
            Err(_elapsed) => {
                let message = format!(
                    "The MCP server \"{name}\" did not answer within {}, so it was stopped; \
                     whether \"{shown_tool}\" did anything is unknown. {again}",
                    seconds(self.timeouts.call)
                );
                let shown = tr(
                    "mcp-call_timed_out",
                    &[
                        ("server", Arg::from(&name)),
                        ("tool", Arg::from(&shown_tool)),
                        ("wait", Arg::from(in_seconds(self.timeouts.call))),
                    ],
                );
                let why = Unusable {
                    model: message,
                    person: shown,
                };
                self.lost(live.generation, why.clone()).await;
                Err(self.error(why))
            }
        }
    }
}

/// Why a start failed: what the person reads (a phrase after "could not be started: ") and the
/// technical side for "Details" (the system's or the MCP SDK's own words).
pub(super) struct StartFailure {
    said: Trouble,
    detail: Option<String>,
}

/// What went wrong starting a server, said after "could not be started:".
enum Trouble {
    /// It did not finish starting within this long.
    Slow(Duration),
    /// No such program (its name as shown).
    NotFound(String),
    /// The program is there but could not be run.
    CannotRun(String),
    /// It ended before the MCP handshake was done.
    StoppedEarly,
    /// It answered, but not as an MCP server.
    NotMcp,
    /// Its tools could not be listed.
    NoTools,
}

impl Trouble {
    /// For the model (the call's result): English.
    fn english(&self) -> String {
        match self {
            Self::Slow(wait) => format!("it did not finish starting within {}", seconds(*wait)),
            Self::NotFound(program) => format!("the program \"{program}\" was not found"),
            Self::CannotRun(program) => format!("the program \"{program}\" could not be run"),
            Self::StoppedEarly => "it stopped before it was ready".to_owned(),
            Self::NotMcp => "it did not answer as an MCP server should".to_owned(),
            Self::NoTools => "it could not list its tools".to_owned(),
        }
    }

    /// For the person (the server's status in Settings), in their language.
    fn person(&self) -> String {
        let program = |p: &String| [("program", Arg::from(p))];
        match self {
            Self::Slow(wait) => tr(
                "mcp-trouble-slow",
                &[("wait", Arg::from(in_seconds(*wait)))],
            ),
            Self::NotFound(p) => tr("mcp-trouble-not_found", &program(p)),
            Self::CannotRun(p) => tr("mcp-trouble-cannot_run", &program(p)),
            Self::StoppedEarly => tr("mcp-trouble-stopped_early", &[]),
            Self::NotMcp => tr("mcp-trouble-not_mcp", &[]),
            Self::NoTools => tr("mcp-trouble-no_tools", &[]),
        }
    }
}

/// A duration in whole seconds, in the person's language ("30 seconds", "30 秒").
pub(super) fn in_seconds(duration: Duration) -> String {
    tr(
        "duration-seconds",
        &[("count", Arg::from(duration.as_secs()))],
    )
}

/// Puts a server's status back to "not started" when its start is given up half-way (the run
/// that needed it was stopped), so that it never stays "starting".
struct AbandonedStart<'a> {
    server: &'a SupervisedServer,
    generation: u64,
    armed: bool,
}

impl Drop for AbandonedStart<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.server
                .set_status(self.generation, McpServerStatus::NotStarted);
        }
    }
}
