//! Hosting another AI agent over the Agent Client Protocol (ACP, agentclientprotocol.com,
//! `docs/protocol/v1/`): this module owns everything of the protocol's wire — starting the
//! agent's program, reading its newline-delimited JSON-RPC 2.0 messages with bounds, writing
//! ours — and the list of agents Ask First knows how to start ([`agents`]). What a run does with
//! the messages (cards, events, the session log) is [`crate::agent`]'s `acp_run`.
//!
//! Why not the `agent-client-protocol` crate (5.2.0): its process transport reads the agent's
//! stdout with `BufReader::lines()` (`acp_agent.rs`), a line of any length held in memory, where
//! Ask First bounds everything that comes from outside (DESIGN.md §7.5); and it has had four
//! major versions in five months. The part of v1 a client needs is small: `initialize`,
//! `session/new`, `session/prompt`, `session/cancel` out; `session/update`,
//! `session/request_permission`, `fs/read_text_file`, `fs/write_text_file` in.

pub mod agents;
pub mod wire;

pub use agents::{find_agents, AcpAgent};
pub use wire::{AgentProcess, Incoming, RpcError, WireError};

use std::time::Duration;

/// The protocol version Ask First speaks (`initialize`'s `protocolVersion`).
pub const PROTOCOL_VERSION: u64 = 1;

/// The longest line (one JSON-RPC message) taken from an agent. Why 40 MiB: a file write is
/// the largest message an agent sends (`fs/write_text_file` with the whole new text), Ask First
/// writes at most [`MAX_WRITE_BYTES`], and JSON escaping can make a text up to twice as long.
pub const MAX_LINE_BYTES: usize = 40 * 1024 * 1024;

/// The most text one `fs/write_text_file` may carry, as a model's own `write_file` call.
pub const MAX_WRITE_BYTES: usize = 16 * 1024 * 1024;

/// Bounds of one hosted run, other than sizes. Tests shorten them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AcpLimits {
    /// How long the agent may take to answer `initialize` and `session/new` (starting Node.js
    /// and reading its own settings takes a few seconds).
    pub start: Duration,
    /// How long the agent may stay silent while it works on a prompt and nobody is asked
    /// anything: no message at all in this long ends the run as hung.
    pub silence: Duration,
    /// How many messages (notifications and requests) the agent may send in one run.
    pub messages: usize,
    /// How long the agent has to end its turn after `session/cancel` before it is stopped.
    pub cancel_grace: Duration,
}

impl Default for AcpLimits {
    fn default() -> Self {
        Self {
            start: Duration::from_secs(60),
            silence: Duration::from_secs(600),
            messages: 20_000,
            cancel_grace: Duration::from_secs(3),
        }
    }
}
