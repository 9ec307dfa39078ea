//! The vocabulary Ask First's core, shell and UI share: plain serde types, no runtime.
//!
//! Everything that crosses the IPC boundary between the Rust backend and the webview is defined
//! here and exported to TypeScript with `ts-rs` into `ui/src/lib/bindings/` (committed; the
//! `bindings_are_current` test fails when they drift; `make bindings` regenerates them).
//!
//! Words follow the field's usage: a *session* is a conversation, a *run* one agent turn from a
//! user message to a final answer, a *step* one model call, a *tool call* what the model asked to
//! do, an *approval* a pending or resolved request for the user's OK, a *decision* what the user
//! said, an *outcome* how the approval ended.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use uuid::Uuid;

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
        pub struct $name(pub Uuid);

        impl $name {
            /// A fresh random (UUID v4) id.
            pub fn new() -> Self {
                Self(Uuid::new_v4())
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = uuid::Error;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Uuid::parse_str(s).map(Self)
            }
        }
    };
}

uuid_id!(
    /// Identifies one approval request. Made by the approvals registry (UUID v4), never derived
    /// from the provider's tool-call id, the run or the step: providers reuse ids.
    ApprovalId
);
uuid_id!(
    /// Identifies one run: one agent turn from a user message to the final answer.
    RunId
);
uuid_id!(
    /// Identifies one session (a conversation).
    SessionId
);

/// How risky one tool call is, as shown on its card (with colour *and* words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Risk {
    /// Only reads.
    Low,
    /// Changes something the user can see or undo (writes, moves inside the workspace).
    Medium,
    /// Hard to undo, leaves the workspace, runs code or reaches the network.
    High,
}

/// Which layer of the policy decided about a tool call (DESIGN.md §4, first match wins, in
/// this order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum PolicyLayer {
    /// A built-in hard denial that no rule or grant can override.
    HardDenial,
    /// The session policy (`never` denies every ask).
    SessionPolicy,
    /// A rule in the user's rules file (or its absence of validity: a broken file asks).
    UserRule,
    /// A grant the user gave with "Allow for this session".
    SessionGrant,
    /// The tool's own default (read-only tools run, others ask).
    ToolDefault,
}

/// What happens when the policy says "ask" in this session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SessionPolicy {
    /// Ask the user (the default).
    Ask,
    /// Never ask: every call that would ask is denied by policy.
    Never,
}

// --- Typed call details (the card shows them; the UI never special-cases a tool by name) ---

/// What the card shows of one call beyond its summary, effects and diff, in a form made for it
/// by the tool from exactly the arguments that will run (DESIGN.md §7, "the card is the whole
/// truth"). The UI renders each kind the same way whichever tool made it, so a new tool with a
/// command line needs no UI change.
///
/// JSON: an object tagged by `kind`, e.g.
/// `{"kind":"command","line":"ls -la","working_folder":"/home/ann/Workspace"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CallDetail {
    /// A shell command line, run as it stands (e.g. `sh -c <line>` by `run_command`).
    Command {
        /// The whole command line exactly as the shell will get it (not trimmed, not quoted).
        line: String,
        /// The folder it runs in: the workspace folder's absolute path, as the operating
        /// system spells it (lossily converted to UTF-8 where it is not valid UTF-8).
        working_folder: String,
    },
}

// --- end of typed call details ---

/// A request for the user's OK before one tool call runs.
///
/// Sent with the `approval-required` event and returned by `list_pending_approvals`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ApprovalRequest {
    /// Made by the registry; the key for `resolve_approval`.
    pub approval_id: ApprovalId,
    /// The run that made the tool call.
    pub run_id: RunId,
    /// The provider's id for the tool call (may repeat across runs; not unique on its own).
    pub tool_call_id: String,
    /// The tool's name, e.g. `write_file`.
    pub tool_name: String,
    /// The arguments exactly as the model sent them (a JSON object as raw text). The tool runs
    /// with exactly these bytes if approved; the UI parses this string losslessly for display.
    pub arguments_json: String,
    /// Lower-case hex SHA-256 of `arguments_json`'s UTF-8 bytes.
    pub arguments_sha256: String,
    /// One plain-language sentence saying what the call will do, for a non-programmer.
    pub summary: String,
    /// Why the user is asked (which policy layer decided "ask").
    pub reason: String,
    /// How risky the call is.
    pub risk: Risk,
    /// Which policy layer decided to ask.
    pub policy_layer: PolicyLayer,
    /// For file writes and edits: a unified diff of what will change, one file: the `--- `
    /// and `+++ ` headers only before the first `@@`; after it every line starts with ` `,
    /// `+`, `-` or `\`, or is another `@@` header. Capped at whole lines: where lines were
    /// left out stands one unprefixed line `[… N lines not shown: A added, R removed …]`.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<String>,
    /// What the call will do that matters, one plain sentence each (e.g. "Deletes files for
    /// good (not to the trash).", "This is an address on this computer."), made by the tool
    /// from exactly these arguments. The card lists them under the summary, always visible.
    /// Empty (and left out of the JSON) when the summary says it all.
    // No `#[ts(optional)]`: ts-rs allows it on `Option` only; `default` with
    // `skip_serializing_if` makes the field optional in TypeScript all the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<String>,
    /// What else the card shows of this call, typed (see [`CallDetail`]); `None` (and left
    /// out of the JSON) when the summary, effects and preview say it all.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<CallDetail>,
    /// What "Allow for this session" would allow, in plain words; `None` when this call cannot
    /// be granted (its arguments have no canonical form), and then the option is not offered.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grant_scope: Option<String>,
    /// When the request times out and resolves as denied: Unix time in milliseconds. The backend
    /// alone decides expiry; the UI's countdown is derived from this. It moves later only with
    /// an [`AgentEvent::ApprovalExtended`].
    #[ts(type = "number")]
    pub expires_at: u64,
}

/// What the user said about one approval request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Decision {
    /// Run this one call.
    Approve,
    /// Run this call, and allow this exact tool with these exact (canonical) arguments for the
    /// rest of the session without asking again. Only offered when the request has a
    /// `grant_scope`.
    ApproveForSession,
    /// Do not run it. An optional note reaches the model as the user's instruction.
    Deny {
        /// The user's note, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        note: Option<String>,
    },
}

/// How far an approval reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalScope {
    /// This one call only.
    Once,
    /// This exact tool and arguments for the rest of the session.
    Session,
}

/// Who approved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalSource {
    /// The user clicked Approve.
    User,
    /// A grant the user gave earlier in this session matched.
    Grant,
}

/// Why an approval ended as denied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum DenialSource {
    /// The user clicked Deny.
    User,
    /// Nobody answered before `expires_at`.
    Timeout,
    /// A rule or the session policy denied it without asking.
    Policy,
    /// Nobody was available to answer (no interactive answerer).
    Unavailable,
}

/// Why an approval ended without an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CancelCause {
    /// The run was stopped.
    RunAborted,
    /// The app quit.
    AppShutdown,
}

/// How an approval ended. Closed: everything except `Approved` means the tool did not run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// The tool may run, once, with the arguments that were shown.
    Approved {
        /// How far the approval reaches.
        scope: ApprovalScope,
        /// Who approved.
        source: ApprovalSource,
    },
    /// The tool did not run.
    Denied {
        /// Who or what denied it.
        source: DenialSource,
        /// The user's note or the policy's reason, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
    },
    /// The tool did not run: the approval was cut short.
    Cancelled {
        /// What cut it short.
        cause: CancelCause,
    },
}

impl Outcome {
    /// Whether the tool may run. The only `true` is `Approved`.
    pub fn is_approved(&self) -> bool {
        match self {
            Outcome::Approved { .. } => true,
            Outcome::Denied { .. } | Outcome::Cancelled { .. } => false,
        }
    }
}

/// A permission the user gave with "Allow for this session": this exact tool with these
/// exact arguments runs without asking until the app quits. Never a prefix or pattern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Grant {
    /// The tool.
    pub tool_name: String,
    /// The arguments in canonical form (sorted keys, no spaces, numbers as written).
    pub canonical_arguments: String,
    /// What the granted call does, in plain words.
    pub summary: String,
    /// When it was given: Unix time in milliseconds.
    #[ts(type = "number")]
    pub granted_at: u64,
}

/// Sent with the `approval-resolved` event when an approval leaves the registry, whoever
/// resolved it (user, timeout, cancel, shutdown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ApprovalResolvedEvent {
    /// The approval that ended.
    pub approval_id: ApprovalId,
    /// Its run.
    pub run_id: RunId,
    /// Its tool call's provider id.
    pub tool_call_id: String,
    /// How it ended.
    pub outcome: Outcome,
}

/// How a run ended, or that it is still going.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// The agent is working (or waiting for the user).
    Running,
    /// The model gave its final answer.
    Completed,
    /// The run stopped on an error (the message says which).
    Failed,
    /// The user stopped the run, or the app quit.
    Cancelled,
}

/// How one tool call ended, for the transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolCallStatus {
    /// The tool ran and succeeded.
    Succeeded,
    /// The tool ran and reported an error (or the call was malformed).
    Failed,
    /// The tool did not run: denied by the user, the policy or a timeout.
    Denied,
    /// The tool did not run: the run was stopped or the app quit.
    Cancelled,
}

/// Everything the core reports about runs, in order, as one tagged enum. Sent to the webview
/// inside a [`SequencedEvent`] as the `run-event` event (the approval variants also go out as
/// `approval-required` and `approval-resolved`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AgentEvent {
    /// A run began with the user's task.
    RunStarted {
        /// The run.
        run_id: RunId,
        /// Its session.
        session_id: SessionId,
        /// What the user asked.
        task: String,
        /// Who answers: the provider's plain name, e.g. "Demo agent (offline, scripted)".
        provider: String,
    },
    /// A piece of the model's text as it streams in (coalesced, a few per second). The
    /// `AssistantMessage` that follows holds the whole text.
    AssistantDelta {
        /// The run.
        run_id: RunId,
        /// The new text.
        text: String,
    },
    /// A session was opened (a new one, or a past one reopened). What follows in the history
    /// belongs to it; a window shows only the latest session's events.
    SessionOpened {
        /// The session.
        session_id: SessionId,
        /// Its title (its first task), if it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        title: Option<String>,
    },
    /// The model said something to the user.
    AssistantMessage {
        /// The run.
        run_id: RunId,
        /// The text, as plain text (never HTML).
        text: String,
    },
    /// The model asked to call a tool; its outcome follows in `ToolCallFinished`.
    ToolCallProposed {
        /// The run.
        run_id: RunId,
        /// The provider's id for the call.
        tool_call_id: String,
        /// The tool's name.
        tool_name: String,
        /// The arguments as the model sent them.
        arguments_json: String,
        /// What the call will do, in plain words.
        summary: String,
    },
    /// The user's OK is needed; the same payload goes out as `approval-required`.
    ApprovalRequired(ApprovalRequest),
    /// An approval ended; the same payload goes out as `approval-resolved`.
    ApprovalResolved(ApprovalResolvedEvent),
    /// A waiting approval got more time: the person answered another card of the same run
    /// while this one had less than half its timeout left, so it waits a whole timeout again
    /// from now (someone who is answering cards one by one is not refused for being slow).
    ApprovalExtended {
        /// The approval.
        approval_id: ApprovalId,
        /// Its run.
        run_id: RunId,
        /// Its new expiry, Unix milliseconds (the card's countdown follows it).
        #[ts(type = "number")]
        expires_at: u64,
    },
    /// A tool call starts running now (it was allowed or approved, and its turn came).
    ToolCallStarted {
        /// The run.
        run_id: RunId,
        /// The provider's id for the call.
        tool_call_id: String,
    },
    /// A tool call ended (ran, failed, or was not run).
    ToolCallFinished {
        /// The run.
        run_id: RunId,
        /// The provider's id for the call.
        tool_call_id: String,
        /// How it ended.
        status: ToolCallStatus,
        /// Which policy layer decided (absent for calls that never reached the policy:
        /// unknown tool, invalid arguments).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        policy_layer: Option<PolicyLayer>,
        /// The tool's output, or why it did not run, as the person is told it (the model is
        /// told the same facts with instructions for it: see the session's `message` records),
        /// plain text.
        output: String,
        /// Why it did not run (or, for a stop, how far it got), as a fact: absent when the
        /// tool ran and `output` is its own, and in logs written before this field existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        not_run: Option<NotRun>,
        /// `output` as a key and values, for a window that words it in another language;
        /// absent exactly when `not_run` is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        wording: Option<Wording>,
    },
    /// Whether the session log can be written. `problem` (what fails, in plain words) when it
    /// cannot — a full disk, a read-only data folder: approvals that cannot be recorded are then
    /// refused, so the window says why; absent when it can be written again. Never written to
    /// the log itself, nor replayed with a reopened session.
    LogStatus {
        /// What fails; absent when writing works.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        problem: Option<String>,
    },
    /// The run ended.
    RunFinished {
        /// The run.
        run_id: RunId,
        /// How it ended (never `running`).
        status: RunStatus,
        /// For `failed` and `cancelled`: what happened, in plain words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        message: Option<String>,
    },
}

/// Arguments of the `start_run` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct StartRunRequest {
    /// What the user asks the agent to do.
    pub task: String,
}

/// Answer of the `start_run` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct StartRunResponse {
    /// The new run.
    pub run_id: RunId,
    /// Its session.
    pub session_id: SessionId,
}

/// Arguments of the `resolve_approval` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ResolveApprovalRequest {
    /// The approval to answer.
    pub approval_id: ApprovalId,
    /// The user's answer.
    pub decision: Decision,
}

/// Arguments of the `set_session_policy` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SetSessionPolicyRequest {
    /// The new policy; it applies from the next decision.
    pub policy: SessionPolicy,
}

/// One past or current session, for the list of sessions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionSummary {
    /// The session.
    pub session_id: SessionId,
    /// Its first task, or "New session".
    pub title: String,
    /// When its log was last written: Unix time in milliseconds.
    #[ts(type = "number")]
    pub updated_at: u64,
    /// Whether it is the session in this window now.
    pub current: bool,
}

/// Arguments of the `open_session` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OpenSessionRequest {
    /// The session to reopen.
    pub session_id: SessionId,
}

/// A provider a person can choose in the settings screen (wire: `demo`, `openai`, `ollama`,
/// `anthropic`). The catalogue of them, with labels and defaults, is
/// [`SettingsView::providers`] (made by the core's `app::catalog`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// The built-in offline demo.
    Demo,
    /// An OpenAI-compatible Chat Completions service.
    #[serde(rename = "openai")]
    OpenAi,
    /// Ollama on this computer (OpenAI-compatible, no key).
    Ollama,
    /// The Anthropic Messages API.
    Anthropic,
}

impl ProviderKind {
    /// Every kind, in the order the settings screen lists them.
    pub const ALL: [ProviderKind; 4] = [Self::Demo, Self::OpenAi, Self::Ollama, Self::Anthropic];

    /// The wire name (`demo`, `openai`, `ollama`, `anthropic`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Demo => "demo",
            Self::OpenAi => "openai",
            Self::Ollama => "ollama",
            Self::Anthropic => "anthropic",
        }
    }

    /// The kind named `name` (its wire name), if any.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// Which provider is in force: one of the [`ProviderKind`]s, or a scenario file fixed by
/// `ASKFIRST_PROVIDER=scripted:<path>` (never chosen in the settings screen). On the wire it is
/// one string, as before: the kind's name or `scripted:<path>`.
#[derive(Debug, Clone, PartialEq, Eq, TS)]
// ts-rs writes no import for a type given as text, so the kinds are spelled out here (the test
// `provider_setting_ts_type_lists_every_kind` keeps them in step with `ProviderKind::ALL`).
#[ts(type = "\"demo\" | \"openai\" | \"ollama\" | \"anthropic\" | `scripted:${string}`")]
pub enum ProviderSetting {
    /// A provider from the catalogue.
    Kind(ProviderKind),
    /// A scenario file played turn by turn (the path as given).
    Scripted(String),
}

impl ProviderSetting {
    /// The wire string.
    pub fn to_wire(&self) -> String {
        match self {
            Self::Kind(kind) => kind.as_str().to_owned(),
            Self::Scripted(path) => format!("scripted:{path}"),
        }
    }

    /// Parses the wire string; `None` for an unknown name.
    pub fn parse(text: &str) -> Option<Self> {
        match text.strip_prefix("scripted:") {
            Some(path) => Some(Self::Scripted(path.to_owned())),
            None => ProviderKind::parse(text).map(Self::Kind),
        }
    }
}

impl Serialize for ProviderSetting {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_wire())
    }
}

impl<'de> Deserialize<'de> for ProviderSetting {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown provider {text:?}; use demo, openai, ollama, anthropic or scripted:<path>"
            ))
        })
    }
}

/// One entry of the provider catalogue, for the settings screen: so the window shows each
/// provider's defaults without keeping its own copy of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProviderInfo {
    /// Which provider.
    pub kind: ProviderKind,
    /// Its name in the list ("Anthropic (Claude)").
    pub label: String,
    /// The address used when none is set ("" for one without a service, the demo).
    pub default_base_url: String,
    /// The model used when none is set ("" for the demo).
    pub default_model: String,
    /// Whether it needs an address, a model and maybe a key (false for the demo).
    pub has_service: bool,
    /// Whether it refuses to start without an API key at its default address.
    pub needs_key: bool,
}

/// When to send a native notification for a request that needs the person's OK (wire:
/// `always`, `unfocused`, `never`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum NotifyWhen {
    /// For every request.
    Always,
    /// Only while the window is not focused (the default).
    #[default]
    Unfocused,
    /// Never.
    Never,
}

impl NotifyWhen {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Always => "always",
            Self::Unfocused => "unfocused",
            Self::Never => "never",
        }
    }

    /// The value named `name` (its wire name), if any.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Always, Self::Unfocused, Self::Never]
            .into_iter()
            .find(|w| w.as_str() == name)
    }
}

/// An inclusive range of whole numbers a setting accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WholeRange {
    /// The smallest value allowed.
    #[ts(type = "number")]
    pub min: u64,
    /// The largest value allowed.
    #[ts(type = "number")]
    pub max: u64,
}

impl WholeRange {
    /// Whether `value` is inside.
    pub fn contains(self, value: u64) -> bool {
        (self.min..=self.max).contains(&value)
    }
}

/// The settings as the settings screen shows them. The API key itself never leaves the
/// backend: only whether one is set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SettingsView {
    /// The provider in force.
    pub provider: ProviderSetting,
    /// The providers a person can choose, in order, with their defaults.
    pub providers: Vec<ProviderInfo>,
    /// The provider's base URL ("" for the provider's default).
    pub base_url: String,
    /// The model name ("" for the provider's default).
    pub model: String,
    /// Whether an API key is saved.
    pub has_api_key: bool,
    /// Seconds an approval waits before it is denied.
    #[ts(type = "number")]
    pub approval_timeout_secs: u64,
    /// The waiting times, in seconds, the settings screen (and `settings.json`) accept.
    pub approval_timeout_range: WholeRange,
    /// When to notify.
    pub notify: NotifyWhen,
    /// Settings fixed by environment variables, which win over what is saved here.
    pub set_by_environment: Vec<String>,
    /// The rules file, for the person to edit.
    pub rules_path: String,
    /// The rules in force, one line each ("deny write_file \"Taxes/**\"").
    pub rules: Vec<String>,
    /// The rules file's problem, if it has one (then every action asks).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_error: Option<String>,
    /// The workspace folder the agent works in.
    pub workspace: String,
    /// The MCP servers, in settings order, and how each is doing.
    pub mcp_servers: Vec<McpServerView>,
    /// What is wrong with `settings.json`, if it cannot be read (the app then runs with the
    /// defaults, and saving is refused so the file is not overwritten).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings_error: Option<String>,
}

/// How an MCP server is doing (wire: `not_started`, `starting`, `running`, `failed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum McpServerState {
    /// Not started yet (it starts when a task needs it).
    NotStarted,
    /// Starting.
    Starting,
    /// Running and offering tools.
    Running,
    /// It could not start or it stopped; the status says why.
    Failed,
}

/// One MCP server as the settings screen shows it. Environment values never leave the
/// backend (they are often tokens): only their names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpServerView {
    /// The name from the settings (its tools are offered as `name__tool`).
    pub name: String,
    /// The program and its arguments as one command line, quoted like a POSIX shell would
    /// need (`npx -y @modelcontextprotocol/server-filesystem '/home/me/My files'`).
    pub command_line: String,
    /// The names of the extra environment variables it gets, sorted.
    pub env_names: Vec<String>,
    /// Whether its tools' read-only hints are trusted.
    pub trusted: bool,
    /// How it is doing.
    pub state: McpServerState,
    /// How it is doing, in a sentence ("Running, 12 tools.", the error when failed).
    pub status: String,
}

/// One environment variable in a [`SaveMcpServerRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpEnvEntry {
    /// The variable's name (letters, digits and `_`, not starting with a digit).
    pub name: String,
    /// Its value; absent keeps the value saved under this name for this server.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// Arguments of the `save_mcp_server` command: adds a server, or replaces the one named
/// `previous_name`. Applies to the next task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SaveMcpServerRequest {
    /// The server being edited; absent adds a new one.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_name: Option<String>,
    /// Its name: 1 to 40 letters, digits, `-` or `_`, unique.
    pub name: String,
    /// The program and its arguments, split like a POSIX shell splits words (quotes and
    /// backslashes; no variables, globs or pipes).
    pub command_line: String,
    /// Every environment variable it should get (the ones left out are removed).
    pub env: Vec<McpEnvEntry>,
    /// Whether its tools' read-only hints are trusted.
    pub trusted: bool,
}

/// Arguments of the `remove_mcp_server` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RemoveMcpServerRequest {
    /// The server's name.
    pub name: String,
}

/// Arguments of the `remove_rule` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RemoveRuleRequest {
    /// The rule as listed in `SettingsView::rules`.
    pub rule: String,
}

/// Arguments of the `save_settings` command. Applies to the next task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SaveSettingsRequest {
    /// The provider chosen (a provider fixed by the environment is sent back as shown and
    /// not saved).
    pub provider: ProviderSetting,
    /// The base URL ("" for the default).
    pub base_url: String,
    /// The model ("" for the default).
    pub model: String,
    /// A new API key; absent keeps the saved one.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    /// Remove the saved key.
    #[serde(default)]
    pub clear_api_key: bool,
    /// Seconds an approval waits (inside [`SettingsView::approval_timeout_range`]).
    #[ts(type = "number")]
    pub approval_timeout_secs: u64,
    /// When to notify.
    pub notify: NotifyWhen,
}

/// Arguments of the `revoke_grant` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RevokeGrantRequest {
    /// The grant's tool.
    pub tool_name: String,
    /// The grant's canonical arguments.
    pub canonical_arguments: String,
}

/// Arguments of the `cancel_run` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CancelRunRequest {
    /// The run to stop.
    pub run_id: RunId,
}

/// A machine-readable error code the UI can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The approval is not waiting (already resolved, timed out, cancelled, or never existed).
    NotPending,
    /// No such run is going.
    UnknownRun,
    /// The request was malformed or refused (e.g. an empty task, "Allow for this session" on a
    /// call that cannot be granted, a setting out of range, a rule or server that is not
    /// there).
    InvalidRequest,
    /// A run is going, so this cannot be done now (start a task, switch sessions).
    Busy,
    /// The session log cannot be written, so nothing that needs a record can happen.
    LogUnavailable,
    /// Ask First is quitting.
    ShuttingDown,
    /// A file of Ask First's (settings, rules, a session log) cannot be read or written; the
    /// message names it.
    Storage,
    /// The provider could not be set up (a missing key, a scenario file that cannot be read).
    ProviderSetup,
    /// Something failed inside the app; the message says what.
    Internal,
}

/// The error every command returns: a code for the UI and a message for the person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CommandError {
    /// What kind of error.
    pub code: ErrorCode,
    /// A sentence for the person.
    pub message: String,
}

/// Event names the shell emits to the webview.
pub mod event_names {
    /// Payload: [`crate::ApprovalRequest`].
    pub const APPROVAL_REQUIRED: &str = "approval-required";
    /// Payload: [`crate::ApprovalResolvedEvent`].
    pub const APPROVAL_RESOLVED: &str = "approval-resolved";
    /// Payload: [`crate::SequencedEvent`].
    pub const RUN_EVENT: &str = "run-event";
    /// Payload: the approval id as a string. Sent when the person chose a request in the tray
    /// or a notification: the window scrolls to that card and focuses it.
    pub const FOCUS_APPROVAL: &str = "focus-approval";
}

/// Writes the TypeScript declaration of every type that crosses IPC, and of the types they use,
/// into `dir` (one `.ts` file each).
///
/// # Errors
/// The `ts-rs` export error (I/O or formatting).
pub fn export_bindings(dir: &std::path::Path) -> Result<(), ts_rs::ExportError> {
    let cfg = ts_rs::Config::new().with_out_dir(dir);
    macro_rules! export {
        ($($t:ty),* $(,)?) => { $( <$t as TS>::export_all(&cfg)?; )* };
    }
    export!(
        ApprovalRequest,
        ApprovalResolvedEvent,
        AgentEvent,
        Decision,
        Outcome,
        StartRunRequest,
        StartRunResponse,
        ResolveApprovalRequest,
        CancelRunRequest,
        CommandError,
        ErrorCode,
        RunStatus,
        ToolCallStatus,
        SequencedEvent,
        Grant,
        RevokeGrantRequest,
        SetSessionPolicyRequest,
        SessionSummary,
        OpenSessionRequest,
        SettingsView,
        SaveSettingsRequest,
        RemoveRuleRequest,
        McpServerView,
        McpEnvEntry,
        SaveMcpServerRequest,
        RemoveMcpServerRequest,
        SessionPolicy,
        PolicyLayer,
        CallDetail,
        NotRun,
        Wording,
        ProviderKind,
        ProviderSetting,
        ProviderInfo,
        NotifyWhen,
        WholeRange,
        McpServerState,
    );
    Ok(())
}

/// One [`AgentEvent`] with its place in the session's event history: `seq` counts from 0, with
/// no gaps, in the order the core emitted them. This is the payload of `run-event`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SequencedEvent {
    /// Position in the session's history (0-based, no gaps).
    #[ts(type = "number")]
    pub seq: u64,
    /// The event.
    pub event: AgentEvent,
}

// ---- Why a tool call did not run, and sentences as keys (issue 12: agent/wording) ----

/// The provider's id for one tool call (`call_…`, `toolu_…`), exactly as the model sent it.
/// Unique within one model turn only: a provider may reuse it in a later turn or run, so it is
/// keyed together with the [`RunId`]. On the wire a plain string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ToolCallId(pub String);

impl ToolCallId {
    /// The id as the provider wrote it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for ToolCallId {
    fn from(id: &str) -> Self {
        Self(id.to_owned())
    }
}

impl From<String> for ToolCallId {
    fn from(id: String) -> Self {
        Self(id)
    }
}

impl std::fmt::Display for ToolCallId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why one tool call did not run, or was not seen through: the facts, without the words. The
/// core words each variant twice (`askfirst_core::agent::wording`): for the model, with what it
/// should do next, and for the person, as a [`Wording`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NotRun {
    /// The person clicked Deny, with the note they typed, if any ("Don't ask me now" denies
    /// the waiting requests as the person's own answer, with that switch's words as the note).
    DeniedByPerson {
        /// What they wrote with the denial.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        note: Option<String>,
    },
    /// Nobody answered the card before it expired.
    TimedOut,
    /// A rule, or the session policy "never", refused it without asking.
    DeniedByRule {
        /// What the policy said (which rule).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
    },
    /// A built-in hard denial refused it; nothing can allow it.
    HardDenial {
        /// What it would have done that is never allowed.
        reason: String,
    },
    /// It could not be asked about: the request could not be recorded, or nobody can answer.
    Unavailable {
        /// Why, in plain words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
    },
    /// The run was stopped, or the app closed, before it started.
    Cancelled {
        /// Stop, or the app closing.
        cause: CancelCause,
    },
    /// The run was stopped, or the app closed, while it ran, and it was interrupted.
    Interrupted {
        /// Stop, or the app closing.
        cause: CancelCause,
    },
    /// The run was stopped, or the app closed, while it ran, and Ask First stopped waiting for
    /// it (an MCP server's call): whether it was done is not known.
    NoLongerAwaited {
        /// Stop, or the app closing.
        cause: CancelCause,
    },
    /// What it works on changed after the card was shown, so it would no longer do what was
    /// shown.
    ChangedAfterShown {
        /// The card's summary.
        summary: String,
    },
    /// The same call (same tool, same canonical arguments) was refused earlier in this run;
    /// it gets the same answer without asking again.
    Repeated {
        /// Why the first one did not run.
        earlier: Box<NotRun>,
    },
    /// The run ended before this call (the model kept asking for what was refused).
    RunEndedBefore,
    /// The run's tool output reached its limit, so the run ended before this call.
    OutputLimit {
        /// The limit, in MiB.
        limit_mb: u32,
    },
    /// The turn asked for more calls than Ask First handles at once; the ones past the limit
    /// were not looked at.
    TooManyCalls {
        /// How many calls the turn had.
        asked: u32,
        /// The most handled per turn.
        limit: u32,
        /// How many were left out.
        left_out: u32,
    },
    /// A reopened session: it was allowed, but Ask First closed before it started.
    ClosedBeforeStart,
    /// A reopened session: it was allowed and may have run, but how it ended was never saved.
    MayHaveRun,
    /// A reopened session: it was refused, but the log has a gap where its end would be.
    RefusedEndNotSaved,
    /// A reopened session: nothing of how it ended was saved (the log has a gap).
    EndNotSaved,
}

/// A sentence for the person as a key and its values, so a window can word it in any
/// language; the core also renders the English text (`askfirst_core::agent::wording`).
/// Keys are dotted (`not_run.denied_by_person_with_note`); values are plain text, inserted
/// where the sentence names them (`{note}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Wording {
    /// Which sentence.
    pub key: String,
    /// Its values by name.
    pub args: std::collections::BTreeMap<String, String>,
}
