//! Ask First's agent runtime, free of any UI toolkit.
//!
//! - [`app`]: the app's assembly ([`app::Backend`]) and its settings domain (catalogue,
//!   environment precedence, ranges, the settings screen).
//! - [`approvals`]: the registry of pending approvals, the one place an outcome is decided.
//! - [`audit`]: the session's append-only JSONL audit log; [`session_log`]: the current
//!   session's log and its one writer thread; [`data_dir`]: the data folder's lock.
//! - [`canonical`]: canonical JSON, to compare tool calls exactly.
//! - [`changes`]: what a command changed on a copy of the folder, and applying exactly that.
//! - [`policy`]: whether a tool call runs, asks or is refused.
//! - [`tools`]: the tools the agent may call, each confined to the workspace folder.
//! - [`mcp`]: the user's MCP servers, whose tools are offered next to the built-in ones.
//! - [`provider`]: the model behind one trait; [`providers`] speak to OpenAI-compatible and
//!   Anthropic services; [`scripted`] plays scenario files and the demo.
//! - [`acp`]: another agent hosted over the Agent Client Protocol (its wire, the agents known).
//! - [`agent`]: the agent loop (model step → tool calls → policy → approval → result → next step).
//! - [`sessions`]: the sessions folder, its index, and reopening a past session.
//! - [`history`]: the session's numbered event history, for a window that (re)loads late.
//! - [`url_pattern`]: where a web address leads, and rules' address patterns matched by parts.
//! - [`text`]: the one sanitiser for untrusted text on one line, and small phrases
//!   (`plural`, `seconds`); [`sync`]: locking a mutex a panic poisoned.
//!
//! The core reports everything through one [`EventSink`] of [`AgentEvent`]s; the desktop shell
//! forwards them to the window, the tray and notifications.

pub mod acp;
pub mod agent;
pub mod app;
pub mod approvals;
pub mod audit;
pub mod canonical;
pub mod changes;
pub mod command_line;
pub mod config;
pub mod data_dir;
pub mod history;
pub mod i18n;
pub mod identity;
pub mod inbox;
pub mod mcp;
pub mod notification_answers;
pub mod policy;
pub mod provider;
pub mod providers;
pub mod scripted;
pub mod session_log;
pub mod sessions;
pub mod sync;
pub mod text;
pub mod tools;
pub mod undo;
pub mod url_pattern;

pub use askfirst_protocol as protocol;
use askfirst_protocol::AgentEvent;
use std::sync::Arc;

/// Where the core sends its events, in the order they happen. Must not block: the shell's
/// implementation pushes onto an unbounded channel.
pub type EventSink = Arc<dyn Fn(AgentEvent) + Send + Sync>;

/// Current Unix time in milliseconds (0 if the clock is before 1970).
pub fn unix_millis_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}
