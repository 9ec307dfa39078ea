//! The tools a run is offered: the built-in ones plus the current set of MCP servers' tools,
//! which the person can swap at any time (from Settings) without touching a run that goes on.
//!
//! Replaced servers are shut down in the background, but never detached: [`ToolCatalog::close`]
//! waits for those shutdowns and stops the servers still in force (the app's exit).

use super::ToolSet;
use crate::mcp::{McpClients, McpServerConfig, McpServerState, McpServerStatus};
use crate::sync::MutexExt;
use std::sync::{Arc, Mutex};
use tokio_util::task::TaskTracker;

/// The built-in tools and the swappable MCP servers.
pub struct ToolCatalog {
    builtin: ToolSet,
    mcp: Mutex<Option<Arc<McpClients>>>,
    handle: tokio::runtime::Handle,
    /// The shutdowns of replaced servers still going.
    retiring: TaskTracker,
}

impl ToolCatalog {
    /// A catalog offering `builtin` and the tools of `mcp`; replaced servers are shut down on
    /// `handle`.
    pub fn new(
        builtin: ToolSet,
        mcp: Option<Arc<McpClients>>,
        handle: tokio::runtime::Handle,
    ) -> Self {
        Self {
            builtin,
            mcp: Mutex::new(mcp),
            handle,
            retiring: TaskTracker::new(),
        }
    }

    fn current(&self) -> Option<Arc<McpClients>> {
        self.mcp.lock_or_recover().clone()
    }

    /// The tools of one run: the built-in ones and those of the MCP servers that run or start
    /// now. An MCP tool never stands in for a built-in one of the same name.
    pub async fn run_tools(&self) -> ToolSet {
        let mut tools = self.builtin.clone();
        if let Some(mcp) = self.current() {
            for tool in mcp.tools().await {
                // MCP tools are named `server__tool`; none may stand in for a built-in one.
                if tools.get(tool.name()).is_none() {
                    tools.add(tool);
                }
            }
        }
        tools
    }

    /// The MCP servers and how each is doing (empty when none are configured).
    pub fn statuses(&self) -> Vec<McpServerState> {
        self.current().map(|m| m.statuses()).unwrap_or_default()
    }

    /// Why the MCP server that would offer the tool `name` (`server__tool`) is not working,
    /// when it is known to have failed: `(for the model, in English; for the person)`.
    pub fn server_failure(&self, name: &str) -> Option<(String, String)> {
        let (prefix, _) = name.split_once("__")?;
        self.statuses()
            .into_iter()
            .find_map(|server| match server.status {
                McpServerStatus::Failed {
                    message, for_model, ..
                } if server.name == prefix => Some((for_model, message)),
                _ => None,
            })
    }

    /// Replaces the MCP servers; the next run offers their tools. A server whose settings did
    /// not change keeps running; the others are shut down in the background (awaited by
    /// [`ToolCatalog::close`]).
    pub fn set_mcp_servers(&self, configs: Vec<McpServerConfig>) {
        let mut slot = self.mcp.lock_or_recover();
        let (fresh, gone) = match slot.as_ref() {
            Some(old) => {
                let (fresh, gone) = old.reconfigured(configs);
                (fresh, Some(gone))
            }
            None => (McpClients::new(configs), None),
        };
        *slot = (!fresh.is_empty()).then(|| Arc::new(fresh));
        drop(slot);
        if let Some(gone) = gone.filter(|g| !g.is_empty()) {
            self.retiring
                .spawn_on(async move { gone.shutdown().await }, &self.handle);
        }
    }

    /// Stops every MCP server (those in force and those being replaced) and waits until they
    /// are stopped: [`McpClients::shutdown`] gives each a few seconds to exit before it is
    /// killed. For the app's exit; a later run starts the servers again.
    pub async fn close(&self) {
        if let Some(mcp) = self.current() {
            mcp.shutdown().await;
        }
        self.retiring.close();
        self.retiring.wait().await;
        self.retiring.reopen();
    }
}
