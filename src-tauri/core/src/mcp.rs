//! MCP servers: the Model Context Protocol servers the user set up in `settings.json`
//! (`mcp_servers`), started over stdio with rmcp (the official Rust SDK) when a run first needs
//! them, their tools listed with their annotations and offered to the model as `server__tool`.
//!
//! How a call is treated follows the tool's annotations with the cautious defaults of the MCP
//! specification (<https://modelcontextprotocol.io/specification/2025-06-18/server/tools>,
//! `ToolAnnotations`: `readOnlyHint` defaults to false, `destructiveHint` and `openWorldHint` to
//! true) and DESIGN.md §4: annotations are hints, so a read-only hint counts only for a server
//! the user marked trusted.
//!
//! Everything a server sends (tool names, titles, descriptions, results) is untrusted data: it
//! is passed on to the model as a tool description or result, and shown on the card only as a
//! quoted, one-line name or title.
//!
//! A server that fails to start, stops, or does not answer in time gives a
//! [`ToolError::McpServer`] naming it, never a hang; a server that stopped is started again the
//! next time one of its tools is needed. [`McpClients::statuses`] says how each server is doing.

use crate::policy::MainArgument;
use crate::tools::{
    CallDescription, HeadTail, OnStop, Tool, ToolError, Workspace, OUTPUT_CAP_BYTES,
};
use askfirst_protocol::Risk;
use async_trait::async_trait;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ContentBlock,
    Implementation, JsonObject, ResourceContents, ToolAnnotations,
};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{Peer, RoleClient, ServiceError};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::io::AsyncReadExt;

/// How long a server may take to start and list its tools: 20 s.
pub const DEFAULT_START_TIMEOUT: Duration = Duration::from_secs(20);

/// How long one tool call may take: 30 s. A server that does not answer in time is stopped
/// (and started again when next needed).
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// The longest tool name offered to the model, in ASCII characters: 64, the limit of the
/// OpenAI and Anthropic APIs (`^[a-zA-Z0-9_-]{1,64}$`).
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// The longest server name used in tool names (`server__tool`), in ASCII characters.
const MAX_SERVER_PREFIX_LEN: usize = 40;

/// The longest tool description passed on to the model, in bytes; longer ones are cut.
const MAX_DESCRIPTION_BYTES: usize = 4096;

/// How many of the server's last lines on stderr are kept for error messages.
const STDERR_LINES_KEPT: usize = 20;

/// The longest stderr line kept, in bytes.
const STDERR_LINE_BYTES: usize = 500;

/// One MCP server in `settings.json`, under `mcp_servers`:
///
/// ```json
/// {"name": "filesystem", "command": "npx",
///  "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/Documents"],
///  "env": {"SOME_TOKEN": "…"}, "trusted": false}
/// ```
///
/// The server runs as a child process speaking MCP over its stdin and stdout (the spec's
/// stdio transport); it inherits Ask First's environment plus `env`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpServerConfig {
    /// The name shown to the user and used in tool names (`name__tool`).
    pub name: String,
    /// The program to run (looked up on `PATH` when it has no `/`).
    pub command: String,
    /// Its arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Extra environment variables; values may be secrets (`Debug` redacts them).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Whether the user trusts this server's read-only hints: only then may its tools marked
    /// `readOnlyHint: true` run without asking.
    #[serde(default)]
    pub trusted: bool,
}

impl std::fmt::Debug for McpServerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let env: BTreeMap<&str, &str> = self
            .env
            .keys()
            .map(|k| (k.as_str(), "<redacted>"))
            .collect();
        f.debug_struct("McpServerConfig")
            .field("name", &self.name)
            .field("command", &self.command)
            .field("args", &self.args)
            .field("env", &env)
            .field("trusted", &self.trusted)
            .finish()
    }
}

/// How long [`McpClients`] waits for its servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct McpTimeouts {
    /// To start a server and list its tools.
    pub start: Duration,
    /// For one tool call.
    pub call: Duration,
    /// How long a server that could not be started is left alone before the next try, so a
    /// broken or hanging server does not hold up every task (changing its settings tries it
    /// again at once).
    pub retry_failed_start: Duration,
}

/// The default of [`McpTimeouts::retry_failed_start`]: 60 seconds.
pub const DEFAULT_RETRY_FAILED_START: Duration = Duration::from_secs(60);

impl Default for McpTimeouts {
    fn default() -> Self {
        Self {
            start: DEFAULT_START_TIMEOUT,
            call: DEFAULT_CALL_TIMEOUT,
            retry_failed_start: DEFAULT_RETRY_FAILED_START,
        }
    }
}

/// How one server is doing, for the settings screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpServerStatus {
    /// Not started yet: servers start when a run first needs them.
    NotStarted,
    /// Starting and listing its tools.
    Starting,
    /// Running; these are its tools.
    Running {
        /// Its tools, in the server's order.
        tools: Vec<McpToolInfo>,
    },
    /// It could not be started or it stopped; it is tried again when next needed.
    Failed {
        /// What happened, in plain words, naming the server.
        message: String,
    },
}

/// One server's name and status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpServerState {
    /// The name from the settings.
    pub name: String,
    /// Whether the user trusts its read-only hints.
    pub trusted: bool,
    /// How it is doing.
    pub status: McpServerStatus,
}

/// The hints of a tool's `annotations` as the server sent them (`None`: not sent). They are
/// hints, not promises (MCP spec, `ToolAnnotations`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpHints {
    /// `title`: a human-readable title.
    pub title: Option<String>,
    /// `readOnlyHint`: the tool does not change its environment (spec default false).
    pub read_only: Option<bool>,
    /// `destructiveHint`: it may delete or overwrite (spec default true).
    pub destructive: Option<bool>,
    /// `idempotentHint`: calling it again with the same arguments changes nothing more
    /// (spec default false).
    pub idempotent: Option<bool>,
    /// `openWorldHint`: it reaches beyond a closed set of things, such as the internet (spec
    /// default true).
    pub open_world: Option<bool>,
}

/// One tool of a running server, as listed and as Ask First treats it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpToolInfo {
    /// The name offered to the model: `server__tool`, only `[A-Za-z0-9_-]`, at most
    /// [`MAX_TOOL_NAME_LEN`] characters.
    pub name: String,
    /// The tool's own name on its server.
    pub server_tool: String,
    /// Its annotations.
    pub hints: McpHints,
    /// Whether the policy sees it as read-only: only for a trusted server and
    /// `readOnlyHint: true`.
    pub read_only: bool,
    /// The risk every call of it carries.
    pub risk: Risk,
}

/// How a tool with these hints is treated, for a server that is or is not `trusted`:
/// whether it counts as read-only, and its risk.
///
/// - read-only and [`Risk::Low`] only when the server is trusted and `readOnlyHint` is true;
/// - otherwise [`Risk::Medium`] when the hints say explicitly neither destructive nor
///   open-world, and [`Risk::High`] when either is true or missing (the spec's defaults).
pub fn treatment(hints: &McpHints, trusted: bool) -> (bool, Risk) {
    if trusted && hints.read_only == Some(true) {
        return (true, Risk::Low);
    }
    let risk = match (hints.destructive, hints.open_world) {
        (Some(false), Some(false)) => Risk::Medium,
        _ => Risk::High,
    };
    (false, risk)
}

/// The user's MCP servers: each is started when first needed, restarted when needed after it
/// stopped, and stopped with [`McpClients::shutdown`] (or when this is dropped).
///
/// Making one needs no tokio runtime (nothing starts yet); listing tools and calling them do.
pub struct McpClients {
    servers: Vec<Arc<Server>>,
    timeouts: McpTimeouts,
}

impl std::fmt::Debug for McpClients {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.servers.iter().map(|s| &s.config))
            .finish()
    }
}

impl McpClients {
    /// The servers in `configs`, none started yet, with the default timeouts.
    pub fn new(configs: Vec<McpServerConfig>) -> Self {
        Self::with_timeouts(configs, McpTimeouts::default())
    }

    /// The servers in `configs`, none started yet. A server without a name or command, or
    /// whose name is used by an earlier one, is [`McpServerStatus::Failed`] for good.
    pub fn with_timeouts(configs: Vec<McpServerConfig>, timeouts: McpTimeouts) -> Self {
        let mut prefixes = BTreeSet::new();
        let servers = configs
            .into_iter()
            .map(|config| {
                let prefix = truncate_ascii(&sanitize(&config.name), MAX_SERVER_PREFIX_LEN);
                let shown = one_line(&config.name, 80);
                let config_error = if config.name.trim().is_empty() {
                    Some(
                        "An MCP server in the settings has no name; give it one to use it."
                            .to_owned(),
                    )
                } else if config.command.trim().is_empty() {
                    Some(format!(
                        "The MCP server \"{shown}\" has no command in the settings, so it \
                         cannot be started."
                    ))
                } else if !prefixes.insert(prefix.clone()) {
                    Some(format!(
                        "Another MCP server in the settings has the same name as \"{shown}\" \
                         (or one that differs only in punctuation); give each its own name."
                    ))
                } else {
                    None
                };
                let status = match &config_error {
                    Some(message) => McpServerStatus::Failed {
                        message: message.clone(),
                    },
                    None => McpServerStatus::NotStarted,
                };
                Arc::new(Server {
                    config,
                    prefix,
                    timeouts,
                    config_error,
                    connection: tokio::sync::Mutex::new(None),
                    state: Mutex::new(StatusCell {
                        generation: 0,
                        status,
                    }),
                    generations: AtomicU64::new(0),
                    failed_start: Mutex::new(None),
                    retired: std::sync::atomic::AtomicBool::new(false),
                })
            })
            .collect();
        Self { servers, timeouts }
    }

    /// The servers in `configs` (as [`McpClients::with_timeouts`], with these timeouts), where
    /// every server whose settings did not change keeps its connection. The second value holds
    /// the servers no longer wanted (removed or changed), for the caller to
    /// [`shutdown`](McpClients::shutdown).
    pub fn reconfigured(&self, configs: Vec<McpServerConfig>) -> (Self, Self) {
        let mut fresh = Self::with_timeouts(configs, self.timeouts);
        let mut kept = vec![false; self.servers.len()];
        for slot in &mut fresh.servers {
            let same = self.servers.iter().enumerate().find(|(i, old)| {
                !kept[*i] && old.config == slot.config && old.config_error == slot.config_error
            });
            if let Some((i, old)) = same {
                kept[i] = true;
                *slot = Arc::clone(old);
            }
        }
        let gone: Vec<Arc<Server>> = self
            .servers
            .iter()
            .zip(&kept)
            .filter(|(_, kept)| !**kept)
            .map(|(server, _)| Arc::clone(server))
            .collect();
        for server in &gone {
            server.retired.store(true, Ordering::SeqCst);
        }
        (
            fresh,
            Self {
                servers: gone,
                timeouts: self.timeouts,
            },
        )
    }

    /// Whether no server is configured.
    pub fn is_empty(&self) -> bool {
        self.servers.is_empty()
    }

    /// Every tool of every server that is running or can be started now (all at once, each
    /// within the start timeout), in settings order. A server that fails is left out; its
    /// status says why.
    pub async fn tools(&self) -> Vec<Arc<dyn Tool>> {
        let listings = futures_util::future::join_all(
            self.servers
                .iter()
                .map(|server| async move { (server, server.connect().await) }),
        )
        .await;
        let mut tools: Vec<Arc<dyn Tool>> = Vec::new();
        for (server, connected) in listings {
            let Ok(live) = connected else { continue };
            for listed in live.tools.iter() {
                tools.push(Arc::new(McpTool {
                    server: Arc::clone(server),
                    info: listed.info.clone(),
                    description: listed.description.clone(),
                    schema: listed.schema.clone(),
                }));
            }
        }
        tools
    }

    /// Each server's name and status, in settings order.
    pub fn statuses(&self) -> Vec<McpServerState> {
        self.servers
            .iter()
            .map(|server| McpServerState {
                name: server.config.name.clone(),
                trusted: server.config.trusted,
                status: server.state().status.clone(),
            })
            .collect()
    }

    /// Stops every running server, all at once, as the spec's stdio shutdown says (rmcp's
    /// `TokioChildProcess::graceful_shutdown`): closes its input, waits up to 3 s for it to
    /// exit, then sends SIGTERM and, 3 s later, kills it. A later use starts it again.
    pub async fn shutdown(&self) {
        futures_util::future::join_all(self.servers.iter().map(|server| async move {
            let connection = server.connection.lock().await.take();
            if let Some(connection) = connection {
                server.set_status(connection.generation, McpServerStatus::NotStarted);
                // The outcome does not matter: the process is gone either way.
                let _ = connection.service.cancel().await;
            }
        }))
        .await;
    }
}

/// One configured server and its connection.
struct Server {
    config: McpServerConfig,
    /// The server's part of tool names, `[A-Za-z0-9_-]`.
    prefix: String,
    timeouts: McpTimeouts,
    /// Why the settings do not allow starting it at all.
    config_error: Option<String>,
    /// The running server, if any. A tokio mutex, held while the server starts so that two
    /// callers never start it twice.
    connection: tokio::sync::Mutex<Option<Connection>>,
    /// The status, never held across `.await`.
    state: Mutex<StatusCell>,
    /// Numbers each start, so news about an old process never changes a newer one's status.
    generations: AtomicU64,
    /// When the last start failed and why; cleared by a start that works.
    failed_start: Mutex<Option<(std::time::Instant, String)>>,
    /// Set when the server was removed from the settings (or changed): it is never started
    /// again, even by a call approved on a card shown before.
    retired: std::sync::atomic::AtomicBool,
}

struct StatusCell {
    /// The start the status is about.
    generation: u64,
    status: McpServerStatus,
}

/// A running server process and what it listed.
struct Connection {
    generation: u64,
    service: RunningService<RoleClient, ClientConfig>,
    tools: Arc<Vec<ListedTool>>,
}

/// What a call needs of a running server.
struct Live {
    generation: u64,
    peer: Peer<RoleClient>,
    tools: Arc<Vec<ListedTool>>,
}

/// A tool as the server listed it.
struct ListedTool {
    info: McpToolInfo,
    description: String,
    schema: serde_json::Value,
}

/// The last lines a server wrote to stderr.
#[derive(Default)]
struct StderrTail {
    lines: Mutex<VecDeque<String>>,
}

impl StderrTail {
    fn lock(&self) -> MutexGuard<'_, VecDeque<String>> {
        self.lines.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn push(&self, line: &[u8]) {
        let text = one_line(&String::from_utf8_lossy(line), STDERR_LINE_BYTES);
        if text.is_empty() {
            return;
        }
        let mut lines = self.lock();
        if lines.len() == STDERR_LINES_KEPT {
            lines.pop_front();
        }
        lines.push_back(text);
    }

    /// ` It said: "…".` with its last lines, or nothing. The values of the server's own
    /// environment variables (tokens, often) are replaced by `•••` wherever they appear.
    fn said(&self, hide: &BTreeMap<String, String>) -> String {
        let lines = self.lock();
        let last: Vec<&str> = lines
            .iter()
            .rev()
            .take(3)
            .rev()
            .map(String::as_str)
            .collect();
        if last.is_empty() {
            return String::new();
        }
        let mut text = last.join(" / ");
        for value in hide.values().filter(|v| v.chars().count() >= 4) {
            text = text.replace(value.as_str(), "•••");
        }
        format!(" It said: \"{text}\".")
    }
}

impl Server {
    fn state(&self) -> MutexGuard<'_, StatusCell> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set_status(&self, generation: u64, status: McpServerStatus) {
        let mut state = self.state();
        if generation >= state.generation {
            *state = StatusCell { generation, status };
        }
    }

    fn shown_name(&self) -> String {
        one_line(&self.config.name, 80)
    }

    fn error(&self, message: String) -> ToolError {
        ToolError::McpServer {
            server: self.config.name.clone(),
            message,
        }
    }

    /// The running server, started (or started again) if needed.
    ///
    /// # Errors
    /// A message naming the server: why it could not be started.
    async fn connect(self: &Arc<Self>) -> Result<Live, String> {
        if let Some(message) = &self.config_error {
            return Err(message.clone());
        }
        if self.retired.load(Ordering::SeqCst) {
            return Err(format!(
                "The MCP server \"{}\" was removed or changed in the settings, so this call of \
                 it was not made.",
                self.shown_name()
            ));
        }
        let mut slot = self.connection.lock().await;
        if let Some(connection) = slot.as_ref() {
            if !connection.service.is_transport_closed() && !connection.service.is_closed() {
                return Ok(Live {
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
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .filter(|(at, _)| at.elapsed() < self.timeouts.retry_failed_start)
            .map(|(at, message)| (*at, message.clone()));
        if let Some((at, message)) = recent_failure {
            let wait = self
                .timeouts
                .retry_failed_start
                .saturating_sub(at.elapsed());
            return Err(format!(
                "{message} (Not tried again yet: next try in {}.)",
                seconds(wait.max(Duration::from_secs(1)))
            ));
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
                let live = Live {
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
                *self.failed_start.lock().unwrap_or_else(|p| p.into_inner()) = None;
                return Ok(live);
            }
            Ok(Err(why)) => why,
            Err(_elapsed) => format!(
                "it did not finish starting within {}",
                seconds(self.timeouts.start)
            ),
        };
        // What the server said before it failed explains most failures; wait briefly for it.
        if let Some(reader) = stderr_reader {
            // A reader still going after that is left to finish on its own.
            let _ = tokio::time::timeout(Duration::from_secs(1), reader).await;
        }
        let message = format!(
            "The MCP server \"{}\" could not be started: {failure}.{} Check its command in the \
             settings; it will be tried again the next time it is needed, after {}.",
            self.shown_name(),
            tail.said(&self.config.env),
            seconds(self.timeouts.retry_failed_start)
        );
        *self.failed_start.lock().unwrap_or_else(|p| p.into_inner()) =
            Some((std::time::Instant::now(), message.clone()));
        abandoned.armed = false;
        self.set_status(
            generation,
            McpServerStatus::Failed {
                message: message.clone(),
            },
        );
        Err(message)
    }

    /// Starts the process, does the MCP handshake and lists the tools.
    async fn start(
        self: &Arc<Self>,
        generation: u64,
        tail: &Arc<StderrTail>,
        stderr_reader: &mut Option<tokio::task::JoinHandle<()>>,
    ) -> Result<Connection, String> {
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
                std::io::ErrorKind::NotFound => format!(
                    "the program \"{}\" was not found",
                    one_line(&self.config.command, 200)
                ),
                _ => format!(
                    "the program \"{}\" could not be run ({e})",
                    one_line(&self.config.command, 200)
                ),
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
                | rmcp::service::ClientInitializeError::TransportError { .. } => {
                    "it stopped before it was ready".to_owned()
                }
                other => format!("it did not answer as an MCP server should ({other})"),
            })?;
        let listed = service
            .peer()
            .list_all_tools()
            .await
            .map_err(|e| format!("it could not list its tools ({e})"))?;
        let tools = name_tools(&self.prefix, listed, self.config.trusted);
        Ok(Connection {
            generation,
            service,
            tools: Arc::new(tools),
        })
    }

    /// Stops the process of start `generation` (if it is still the current one) after it
    /// failed, and records why.
    async fn lost(&self, generation: u64, message: &str) {
        let mut slot = self.connection.lock().await;
        if slot.as_ref().is_some_and(|c| c.generation == generation) {
            // Dropping the service closes the connection and ends the process.
            drop(slot.take());
        }
        self.set_status(
            generation,
            McpServerStatus::Failed {
                message: message.to_owned(),
            },
        );
    }

    /// Calls `tool` with `arguments`.
    ///
    /// # Errors
    /// [`ToolError::McpServer`] when the server cannot be started, stops, or does not answer
    /// within the call timeout (it is then stopped); [`ToolError::Failed`] when it refuses the
    /// request.
    async fn call(
        self: &Arc<Self>,
        tool: &str,
        arguments: JsonObject,
    ) -> Result<CallToolResult, ToolError> {
        let live = self.connect().await.map_err(|m| self.error(m))?;
        let request = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        let name = self.shown_name();
        let shown_tool = one_line(tool, 80);
        let again = "It will be started again the next time one of its tools is needed.";
        match tokio::time::timeout(self.timeouts.call, live.peer.call_tool(request)).await {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(ServiceError::McpError(error))) => Err(ToolError::Failed(format!(
                "The MCP server \"{name}\" refused to run \"{shown_tool}\": {}",
                one_line(&error.message, 1000)
            ))),
            Ok(Err(
                ServiceError::TransportClosed
                | ServiceError::TransportSend(_)
                | ServiceError::Cancelled { .. },
            )) => {
                let message = format!(
                    "The MCP server \"{name}\" stopped while \"{shown_tool}\" was running, so \
                     whether it did anything is unknown. {again}"
                );
                self.lost(live.generation, &message).await;
                Err(self.error(message))
            }
            // Anything else (an answer of the wrong kind, a request the SDK gave up on) leaves
            // the server running.
            Ok(Err(other)) => Err(ToolError::Failed(format!(
                "The MCP server \"{name}\" did not answer the call of \"{shown_tool}\" \
                 properly: {other}"
            ))),
            Err(_elapsed) => {
                let message = format!(
                    "The MCP server \"{name}\" did not answer within {}, so it was stopped; \
                     whether \"{shown_tool}\" did anything is unknown. {again}",
                    seconds(self.timeouts.call)
                );
                self.lost(live.generation, &message).await;
                Err(self.error(message))
            }
        }
    }
}

/// Puts a server's status back to "not started" when its start is given up half-way (the run
/// that needed it was stopped), so that it never stays "starting".
struct AbandonedStart<'a> {
    server: &'a Server,
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

/// Keeps the last lines of a server's stderr; when it closes (the process ended) while the
/// status still says running, the status says it stopped.
async fn read_stderr(
    mut stderr: tokio::process::ChildStderr,
    tail: Arc<StderrTail>,
    server: std::sync::Weak<Server>,
    generation: u64,
) {
    let mut buffer = [0u8; 4096];
    let mut line: Vec<u8> = Vec::new();
    loop {
        match stderr.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                for piece in buffer[..n].split_inclusive(|b| *b == b'\n') {
                    if line.len() < STDERR_LINE_BYTES * 2 {
                        line.extend_from_slice(piece);
                    }
                    if piece.ends_with(b"\n") {
                        tail.push(&line);
                        line.clear();
                    }
                }
            }
        }
    }
    tail.push(&line);
    let Some(server) = server.upgrade() else {
        return;
    };
    let mut state = server.state();
    if state.generation == generation && matches!(state.status, McpServerStatus::Running { .. }) {
        state.status = McpServerStatus::Failed {
            message: format!(
                "The MCP server \"{}\" stopped.{} It will be started again the next time one of \
                 its tools is needed.",
                server.shown_name(),
                tail.said(&server.config.env)
            ),
        };
    }
}

/// The tools a server listed, with the names offered to the model: `prefix__tool` made of
/// `[A-Za-z0-9_-]`, at most [`MAX_TOOL_NAME_LEN`] long, a number added where two would be the
/// same.
fn name_tools(prefix: &str, listed: Vec<rmcp::model::Tool>, trusted: bool) -> Vec<ListedTool> {
    let mut taken = BTreeSet::new();
    listed
        .into_iter()
        .map(|tool| {
            let base = truncate_ascii(
                &format!("{prefix}__{}", sanitize(&tool.name)),
                MAX_TOOL_NAME_LEN,
            );
            let mut name = base.clone();
            let mut n = 2;
            while !taken.insert(name.clone()) {
                let suffix = format!("_{n}");
                name = format!(
                    "{}{suffix}",
                    truncate_ascii(&base, MAX_TOOL_NAME_LEN - suffix.len())
                );
                n += 1;
            }
            let hints = hints(tool.annotations.as_ref(), tool.title.as_deref());
            let (read_only, risk) = treatment(&hints, trusted);
            let description = match tool.description.as_deref().map(str::trim) {
                Some(text) if !text.is_empty() => truncate_text(text, MAX_DESCRIPTION_BYTES),
                _ => format!(
                    "The tool \"{}\" of an MCP server (no description given).",
                    one_line(&tool.name, 80)
                ),
            };
            ListedTool {
                info: McpToolInfo {
                    name,
                    server_tool: tool.name.to_string(),
                    hints,
                    read_only,
                    risk,
                },
                description,
                schema: serde_json::Value::Object((*tool.input_schema).clone()),
            }
        })
        .collect()
}

/// The hints of `annotations`; the title falls back to the tool's own `title`.
fn hints(annotations: Option<&ToolAnnotations>, tool_title: Option<&str>) -> McpHints {
    let title = annotations
        .and_then(|a| a.title.as_deref())
        .or(tool_title)
        .map(str::to_owned);
    match annotations {
        Some(a) => McpHints {
            title,
            read_only: a.read_only_hint,
            destructive: a.destructive_hint,
            idempotent: a.idempotent_hint,
            open_world: a.open_world_hint,
        },
        None => McpHints {
            title,
            ..McpHints::default()
        },
    }
}

/// One tool of an MCP server, as the agent sees it.
struct McpTool {
    server: Arc<Server>,
    info: McpToolInfo,
    description: String,
    schema: serde_json::Value,
}

impl McpTool {
    /// The raw arguments as the JSON object sent to the server, which must mean exactly what
    /// the card showed: an object, no key twice, no integer too large to pass on exactly.
    fn arguments(&self, raw: &str) -> Result<JsonObject, ToolError> {
        let invalid = |detail: String| ToolError::InvalidArguments {
            tool: self.info.name.clone(),
            detail,
        };
        let value: serde_json::Value =
            serde_json::from_str(raw).map_err(|e| invalid(e.to_string()))?;
        let serde_json::Value::Object(object) = value else {
            return Err(invalid(
                "they must be a JSON object, like {\"path\": \"notes.txt\"}".to_owned(),
            ));
        };
        if crate::canonical::canonical_json(raw).is_none() {
            return Err(invalid(
                "a key appears twice in the same object; give each key once".to_owned(),
            ));
        }
        if let Some(number) = oversized_integer(raw) {
            return Err(invalid(format!(
                "the number {number} is too large to pass on exactly; write it as a string if \
                 the tool accepts one"
            )));
        }
        Ok(object)
    }
}

#[async_trait]
impl Tool for McpTool {
    fn name(&self) -> &str {
        &self.info.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn parameters_schema(&self) -> serde_json::Value {
        self.schema.clone()
    }

    fn read_only(&self) -> bool {
        self.info.read_only
    }

    fn mcp_server(&self) -> Option<&str> {
        Some(&self.server.config.name)
    }

    /// Every text of the arguments that names a path: path rules (deny and ask) and the
    /// own-files denial hold for MCP tools too, whatever the argument is called.
    fn main_arguments(&self, arguments_json: &str, workspace: &Workspace) -> Vec<MainArgument> {
        serde_json::from_str::<serde_json::Value>(arguments_json)
            .map(|value| crate::tools::mentioned_paths(&value, workspace))
            .unwrap_or_default()
    }

    fn describe(
        &self,
        arguments_json: &str,
        _workspace: &Workspace,
    ) -> Result<CallDescription, ToolError> {
        self.arguments(arguments_json)?;
        let mut summary = format!(
            "Use \"{}\" from the MCP server \"{}\"",
            one_line(&self.info.server_tool, 80),
            self.server.shown_name()
        );
        if let Some(title) = self.info.hints.title.as_deref().map(|t| one_line(t, 80)) {
            if !title.is_empty() {
                summary.push_str(&format!(" (the server calls it \"{title}\")"));
            }
        }
        Ok(CallDescription {
            detail: None,
            summary,
            risk: self.info.risk,
            preview: None,
            fingerprint: None,
            effects: Vec::new(),
        })
    }

    fn on_stop(&self) -> OnStop {
        // The server may already have done it, or finish it after the request is dropped.
        OnStop::Abandon
    }
    async fn execute(
        &self,
        arguments_json: &str,
        _workspace: &Workspace,
    ) -> Result<String, ToolError> {
        let arguments = self.arguments(arguments_json)?;
        let result = self.server.call(&self.info.server_tool, arguments).await?;
        let text = result_text(&result);
        if result.is_error == Some(true) {
            return Err(ToolError::Failed(format!(
                "The tool \"{}\" of the MCP server \"{}\" reported an error: {text}",
                one_line(&self.info.server_tool, 80),
                self.server.shown_name()
            )));
        }
        Ok(text)
    }
}

/// The text of a tool's result for the model, capped at [`OUTPUT_CAP_BYTES`]: its text
/// blocks and the text of embedded resources, one after another; other content (images,
/// audio, binary resources, links) named by a line in brackets; the structured result when
/// there is no content at all.
fn result_text(result: &CallToolResult) -> String {
    let mut parts: Vec<String> = Vec::new();
    for block in &result.content {
        let part = match block {
            ContentBlock::Text(text) => text.text.clone(),
            ContentBlock::Image(image) => format!(
                "[an image ({}) that cannot be shown here]",
                one_line(&image.mime_type, 80)
            ),
            ContentBlock::Audio(audio) => format!(
                "[a sound ({}) that cannot be played here]",
                one_line(&audio.mime_type, 80)
            ),
            ContentBlock::Resource(embedded) => match &embedded.resource {
                ResourceContents::TextResourceContents { text, .. } => text.clone(),
                ResourceContents::BlobResourceContents { uri, .. } => {
                    format!(
                        "[binary content {} that cannot be shown here]",
                        one_line(uri, 200)
                    )
                }
                // A kind of resource newer than this code.
                _ => "[content of a kind Ask First cannot show]".to_owned(),
            },
            ContentBlock::ResourceLink(link) => format!("[a link to {}]", one_line(&link.uri, 200)),
            // A kind of content newer than this code (the enum is non-exhaustive).
            _ => "[content of a kind Ask First cannot show]".to_owned(),
        };
        parts.push(part);
    }
    if parts.is_empty() {
        if let Some(structured) = &result.structured_content {
            parts.push(structured.to_string());
        }
    }
    if parts.is_empty() {
        return "(The tool returned nothing.)".to_owned();
    }
    let mut capped = HeadTail::new(OUTPUT_CAP_BYTES);
    capped.push(parts.join("\n").as_bytes());
    capped.into_text()
}

/// A duration in whole seconds for a sentence: "1 second", "20 seconds".
fn seconds(duration: Duration) -> String {
    match duration.as_secs() {
        1 => "1 second".to_owned(),
        n => format!("{n} seconds"),
    }
}

/// `text` with every character outside `[A-Za-z0-9_-]` replaced by `_`.
fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The first `max` bytes of ASCII `text` (all of it when shorter).
fn truncate_ascii(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// `text` cut to at most `max` bytes at a character boundary, with `…` where it was cut.
fn truncate_text(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// Untrusted text for one line of the screen: control characters dropped, runs of
/// whitespace made one space, at most `max` characters (with `…` where cut).
fn one_line(text: &str, max: usize) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    let joined = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.chars().count() <= max {
        return joined;
    }
    let mut cut: String = joined.chars().take(max).collect();
    cut.push('…');
    cut
}

/// The first integer written in `raw` (outside strings) that a 64-bit integer cannot hold:
/// serde_json would round it through `f64`, so the server would get another number than the
/// one shown.
fn oversized_integer(raw: &str) -> Option<&str> {
    let bytes = raw.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 2,
                b'"' => {
                    in_string = false;
                    i += 1;
                }
                _ => i += 1,
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                let literal = &raw[start..i];
                let integer = !literal.contains(['.', 'e', 'E']);
                if integer && literal.parse::<i64>().is_err() && literal.parse::<u64>().is_err() {
                    return Some(literal);
                }
            }
            _ => i += 1,
        }
    }
    None
}
