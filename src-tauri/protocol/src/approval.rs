//! An approval: what the card shows ([`ApprovalRequest`]), what the person said ([`Decision`])
//! and how it ended ([`Outcome`]), with grants and the policy layers.

use crate::*;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

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
        /// What the line will do that matters, read from how it parses (deleting for good,
        /// writing outside the folder, downloading from a host, …), one sentence each, in the
        /// order found; "Ask First cannot tell …" where the reading cannot see through it.
        /// Empty (and left out of the JSON) when it does nothing worth saying.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        effects: Vec<CommandEffect>,
        /// What the command did when it was tried first on a copy-on-write copy of the folder
        /// (without the network): the card shows these real changes, and Approve applies
        /// exactly them. Absent when the card asks before the command runs (it needs the
        /// internet, a rule asks about it, or this computer cannot make the copy).
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tried: Option<Box<TriedCommand>>,
    },
    /// The request comes from another agent on this computer through the inbox (not from Ask
    /// First's own assistant): who asks and the folder it works in, which is that agent's own
    /// folder, not the one the person chose for Ask First.
    External {
        /// The agent's name as people know it ("Claude Code").
        agent: String,
        /// The folder the agent works in, as the card shows it (`~/projects/site`).
        folder: String,
        /// The exact command line, when the call runs one (`Bash`, `run_shell_command`).
        #[ts(optional)]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<String>,
    },
}

/// What a command did when it was tried on a copy of the person's folder (DESIGN.md §7.4):
/// every change it made, what it printed and how it ended. Nothing of it has reached the
/// folder yet.
///
/// JSON: `{"changes":[{"change":"deleted","path":"a.tmp","folder":false}],"more":0,
/// "output":"","ended":"It finished without an error."}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TriedCommand {
    /// The changes, the riskiest first (deletions, permission changes, links out of the
    /// folder, changed files, then what is new), each kind by path; at most
    /// [`TriedCommand::SHOWN_CAP`] of them.
    pub changes: Vec<FileChange>,
    /// How many changes there are beyond `changes` (0 when the list is whole). Approve
    /// applies them too; the card says how many.
    #[ts(type = "number")]
    pub more: u64,
    /// What the command printed (standard output and error together), capped as the tool
    /// caps it (start and end kept, the cut stated).
    pub output: String,
    /// How it ended, as a sentence in the person's language ("It finished without an
    /// error.", "It failed with exit code 2.").
    pub ended: String,
}

impl TriedCommand {
    /// How many changes a card lists one by one (the rest are counted in `more`).
    pub const SHOWN_CAP: usize = 10_000;
}

/// One change a command made on the copy of the folder.
///
/// JSON: `{"change":"created","path":"Reports/q1.pdf","folder":false,"size":12040}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileChange {
    /// What happened to it.
    pub change: ChangeKind,
    /// The path relative to the folder, parts separated by `/`, exactly as on disk (lossily
    /// converted to UTF-8 where it is not; control and bidi characters are the UI's to show
    /// visibly).
    pub path: String,
    /// Whether it is a folder (a folder created or deleted with everything in it).
    pub folder: bool,
    /// For a file created or changed: its new size in bytes.
    #[ts(optional, type = "number")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// For a link: where it leads, exactly as written in the link.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// For a link: whether it leads out of the folder.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub outside: bool,
    /// For a file whose permissions changed: the new permission bits (`0o755` as 493).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<u32>,
    /// For a text file created or changed: a unified diff, in the format of
    /// [`ApprovalRequest::preview`].
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

/// The kind of a [`FileChange`] (wire and `data-change`: `created`, `changed`, `deleted`,
/// `moved`, `mode`, `link`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// A new file or folder.
    Created,
    /// A file whose content changed.
    Changed,
    /// A file or folder deleted (a folder with everything in it).
    Deleted,
    /// An entry moved (only where the kernel shows a move; a folder renamed on the copy
    /// shows as deleted and created).
    Moved,
    /// Only its permissions changed (`chmod +x`).
    Mode,
    /// A link created or changed.
    Link,
}

/// One thing a command line will do that matters, for its card: as a [`Wording`] (a key and
/// its values, for a window that words it in another language) and in English.
///
/// JSON: `{"wording":{"key":"command.deletes_folder","args":{"name":"Photos"}},
/// "text":"Deletes the folder Photos permanently, with everything in it (it does not go to
/// the trash)."}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CommandEffect {
    /// The sentence as a key and values (keys start with `command.`).
    pub wording: Wording,
    /// The sentence in English, as the card shows it (plain text, one line).
    pub text: String,
}

/// What a call changes, as its tool knows it exactly from the arguments and the disk when it
/// described the call: a typed fact, so that what may be answered outside the card (approving
/// from a notification) is decided from it and never from the summary's words. Only the kinds
/// Ask First needs are named; a call of any other kind has none.
///
/// JSON: `"new_file"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CallChange {
    /// It creates one file that did not exist when the card was made, inside the folder
    /// (`write_file` on a path where nothing is). Checked again before it runs: if something
    /// is there by then, it does not run.
    NewFile,
}

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
    /// What the call changes, where its tool knows it exactly ([`CallChange`]); `None` (and
    /// left out of the JSON) for every other call.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<CallChange>,
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
    /// Whether this card asks again about a call that was waiting when Ask First last closed
    /// (quit, a crash): the call was described and judged again at the start, and nothing of
    /// it was done; the card says so.
    #[serde(default)]
    pub resumed: bool,
    /// The arguments the person may change on the card before saying yes ("Change…"), by
    /// name, in the order the editor shows them (`path`, `content`, `new_text`, `to`,
    /// `command`); each is a string argument of `arguments_json`. Empty (and left out of the
    /// JSON) when the card offers no "Change…": another agent's call, an MCP server's tool, a
    /// tool whose calls are not changed on a card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub editable: Vec<String>,
    /// Who asks, when it is not Ask First's own agent: the name of the agent hosted over ACP
    /// ("Gemini CLI") whose permission request, or file read or write through Ask First, this
    /// card is. Absent for Ask First's own agent.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
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
    /// Do not run it as asked: run this changed call instead, if it is allowed. The call is
    /// judged again from scratch (its own card, or a refusal, follows); this answer approves
    /// nothing. Only the arguments named in the request's `editable` may be given, each as
    /// its whole new text; the others stay as the model sent them.
    ///
    /// JSON: `{"kind":"change","fields":{"path":"notes/plan.txt"}}`.
    Change {
        /// The changed arguments: name → new text.
        fields: std::collections::BTreeMap<String, String>,
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
        /// The user's note or the policy's reason, if any. Ask First's own reasons are in
        /// English: what the model is told.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
        /// Ask First's own reason as a sentence key, for the person in their language (absent
        /// for the user's note, and in logs written before it was kept).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        wording: Option<Wording>,
    },
    /// The tool did not run: the approval was cut short.
    Cancelled {
        /// What cut it short.
        cause: CancelCause,
    },
    /// The tool did not run as asked: the person changed the call on its card. The changed
    /// call (these arguments, same tool and tool-call id) is a new proposal, judged again by
    /// the policy, with its own card or refusal; nothing is approved by this outcome.
    Changed {
        /// The changed call's arguments, exactly as they will be judged (and run, if approved).
        arguments_json: String,
        /// Lower-case hex SHA-256 of `arguments_json`'s UTF-8 bytes.
        arguments_sha256: String,
    },
}

impl Outcome {
    /// Whether the tool may run. The only `true` is `Approved`.
    pub fn is_approved(&self) -> bool {
        match self {
            Outcome::Approved { .. } => true,
            Outcome::Denied { .. } | Outcome::Cancelled { .. } | Outcome::Changed { .. } => false,
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
