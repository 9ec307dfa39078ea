//! The inbox's wire format: what `askfirst-hook` (run by another agent on this computer as its
//! permission hook) sends to the running Ask First over its Unix socket, and what it gets back.
//!
//! One connection carries one exchange: the hook writes one [`InboxRequest`] as a single line
//! of JSON (at most [`INBOX_MAX_REQUEST_BYTES`], newline-terminated), the app answers with one
//! [`InboxAnswer`] line when the person has decided (or the request timed out), and closes.
//! The socket can only *ask*: nothing a client sends can decide an approval.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The most bytes one request line may hold (2 MiB), newline included; a longer one is
/// refused unread. Large enough for the whole content of a file an agent wants to write.
pub const INBOX_MAX_REQUEST_BYTES: usize = 2 * 1024 * 1024;

/// The socket's file name inside `$XDG_RUNTIME_DIR/askfirst/`.
pub const INBOX_SOCKET_NAME: &str = "inbox.sock";

/// An agent that can ask through the inbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum ExternalAgent {
    /// Anthropic's Claude Code CLI (`claude`), through its `PreToolUse` / `PermissionRequest`
    /// hooks.
    ClaudeCode,
    /// OpenAI's Codex CLI (`codex`), through its `PermissionRequest` hook.
    Codex,
    /// Google's Gemini CLI (`gemini`), through its `BeforeTool` hook.
    Gemini,
}

impl ExternalAgent {
    /// Every agent, in the order Settings lists them.
    pub const ALL: [ExternalAgent; 3] = [Self::ClaudeCode, Self::Codex, Self::Gemini];

    /// The agent's name as people know it ("Claude Code").
    pub fn display_name(self) -> &'static str {
        match self {
            Self::ClaudeCode => "Claude Code",
            Self::Codex => "Codex",
            Self::Gemini => "Gemini CLI",
        }
    }

    /// The name on the command line and in the wire format (`claude-code`, `codex`, `gemini`).
    pub fn slug(self) -> &'static str {
        match self {
            Self::ClaudeCode => "claude-code",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
        }
    }

    /// The agent named `slug` ([`ExternalAgent::slug`]), if it is one.
    pub fn from_slug(slug: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|agent| agent.slug() == slug)
    }
}

/// One tool call another agent wants to make, as its hook reported it.
///
/// JSON: `{"agent":"claude-code","hook_event":"PreToolUse","session_id":"…","cwd":"/home/a/site",
/// "tool_name":"Bash","tool_input_json":"{\"command\":\"npm test\"}"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InboxRequest {
    /// Which agent asks.
    pub agent: ExternalAgent,
    /// The hook event that ran the hook (`PreToolUse`, `PermissionRequest`, `BeforeTool`).
    pub hook_event: String,
    /// The agent's own conversation id (each gets its own session log in Ask First).
    pub session_id: String,
    /// The folder the agent works in (its current directory), absolute.
    pub cwd: String,
    /// The agent's tool name, exactly as sent (`Bash`, `Write`, `run_shell_command`, …).
    pub tool_name: String,
    /// The tool's input, exactly the JSON text the agent sent (shown on the card as it is).
    pub tool_input_json: String,
}

/// What the person (or Ask First's policy) said about one [`InboxRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InboxAnswer {
    /// The verdict.
    pub verdict: InboxVerdict,
    /// Why, for the agent's model: the person's note on a denial, or Ask First's reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The verdict of an [`InboxAnswer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InboxVerdict {
    /// The person approved this one call.
    Allow,
    /// The person chose "Allow in this conversation" on a card that offered it: this call is
    /// allowed, and the hook hands the agent the session permission the card described (for
    /// Claude Code's `PermissionRequest`: `updatedPermissions` with one `addRules` entry of
    /// destination `session`, see `askfirst_hook::agents::session_rule`). Only given for a
    /// request whose card offered it; Ask First itself keeps no grant from it.
    AllowForSession,
    /// The call was not approved (the person, a rule, the timeout, or "Don't ask me now").
    Deny,
    /// Ask First leaves it to the agent's own permission flow (a call that only reads, which
    /// the agent's own rules already cover). Never given for a call that changes anything.
    NoOpinion,
}

/// One agent in Settings → "Other agents on this computer".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OtherAgentView {
    /// Which agent.
    pub agent: ExternalAgent,
    /// Its name as people know it ("Claude Code").
    pub name: String,
    /// Whether its user settings folder is on this computer (`~/.claude`, `~/.codex`,
    /// `~/.gemini`).
    pub found: bool,
    /// Whether its settings hold Ask First's hook entry.
    pub connected: bool,
    /// The settings file Connect changes, as the person's path (`~/.claude/settings.json`).
    pub settings_file: String,
    /// Why its settings cannot be read or changed, in a plain sentence; `None` when they can.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// `connect_other_agent` / `disconnect_other_agent`'s argument.
/// JS: `invoke('connect_other_agent', { request: { agent: 'claude-code' } })`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OtherAgentRequest {
    /// Which agent.
    pub agent: ExternalAgent,
}

/// A request of another agent that was waiting when Ask First last closed (quit, crashed or
/// was killed): the agent stopped waiting then, and nothing was allowed. Shown once, above the
/// cards, with only "Dismiss" (`list_gone_requests`, `dismiss_gone_request`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GoneRequestView {
    /// The approval the request was (its `approval_asked` record in the agent's log).
    pub approval_id: crate::ApprovalId,
    /// Which agent asked; `None` when its log does not say (the window says "another
    /// program").
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<ExternalAgent>,
    /// The agent's name as people know it ("Claude Code"), with `agent`.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_name: Option<String>,
    /// What the card said, as it said it (who asks, in which folder, what it wants): text made
    /// from another program's request, at most a few hundred bytes; the window shows it as
    /// one line of text with control characters made visible.
    pub summary: String,
    /// When it was asked, Unix milliseconds.
    #[ts(type = "number")]
    pub asked_at: u64,
}

/// `list_gone_requests` / `dismiss_gone_request`'s answer: the first few requests left
/// waiting when Ask First last closed, newest first, and how many more there are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GoneRequestsView {
    /// The requests shown (at most 20).
    pub requests: Vec<GoneRequestView>,
    /// How many more there are beyond `requests`.
    pub more: u32,
}

/// `dismiss_gone_request`'s argument.
/// JS: `invoke('dismiss_gone_request', { request: { approval_id } })`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DismissGoneRequest {
    /// The request to take off the list.
    pub approval_id: crate::ApprovalId,
}
