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
//! [`crate::tools::ToolError::McpServer`] naming it, never a hang; a server that stopped is
//! started again the next time one of its tools is needed. [`McpClients::statuses`] says how
//! each server is doing.
//!
//! Where things are: [`config`] (the settings of a server and their checks), `server` (starting,
//! supervising and calling one server), `stderr` (what a server said), `naming` (the tool
//! names offered to the model), [`hints`] (how annotations are treated), `tool` (one MCP tool
//! as the agent sees it).

pub mod config;
pub mod hints;
mod naming;
mod server;
mod stderr;
mod tool;

pub use config::{validated_server, McpConfigError, McpServerConfig, MAX_SERVER_NAME_CHARS};
pub use hints::{treatment, McpHints};
pub use naming::{McpToolInfo, MAX_TOOL_NAME_LEN};

use crate::tools::Tool;
use server::SupervisedServer;
use std::collections::BTreeSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tool::McpTool;

/// How long a server may take to start and list its tools: 20 s.
pub const DEFAULT_START_TIMEOUT: Duration = Duration::from_secs(20);

/// How long one tool call may take: 30 s. A server that does not answer in time is stopped
/// (and started again when next needed).
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

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
        /// What happened, in plain words, naming the server: for the person, in the language
        /// in force when it happened.
        message: String,
        /// The same in English, for the model when it asks for one of the server's tools
        /// while it is down.
        for_model: String,
        /// The technical side, for "Details": what the system or the MCP SDK said (absent
        /// where the message says everything).
        detail: Option<String>,
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

/// The user's MCP servers: each is started when first needed, restarted when needed after it
/// stopped, and stopped with [`McpClients::shutdown`] (or when this is dropped).
///
/// Making one needs no tokio runtime (nothing starts yet); listing tools and calling them do.
pub struct McpClients {
    servers: Vec<Arc<SupervisedServer>>,
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
                let prefix = naming::server_prefix(&config.name);
                let config_error = config::startup_problem(&config, &prefix, &mut prefixes);
                Arc::new(SupervisedServer::new(
                    config,
                    prefix,
                    timeouts,
                    config_error,
                ))
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
        let gone: Vec<Arc<SupervisedServer>> = self
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
                tools.push(Arc::new(McpTool::new(Arc::clone(server), listed)));
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
        futures_util::future::join_all(self.servers.iter().map(|server| server.stop())).await;
    }
}
