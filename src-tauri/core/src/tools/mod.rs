//! The tools the agent may call. Each declares its risk, validates its arguments, says in plain
//! words what one call will do, and runs confined to the [`Workspace`].
//!
//! Arguments arrive as the model's raw JSON text; a tool parses that exact text both to describe
//! the call and to run it, so what runs is what was shown.
//!
//! Where things are: one file per tool (`list`, `read`, `write`, `edit`, `move_path`, `delete`,
//! `command`, `fetch`); the helpers the file tools share in `files` (confined, atomic writes)
//! and `preview` (the diff on the card and the `Fingerprint` checked before running); special
//! files (pipes, devices) in `special`; the paths an MCP tool's arguments name in `mentioned`;
//! bounded output in `head_tail`; the command sandbox in [`sandbox`]. A new tool implements
//! [`Tool`] in a file of its own and is added to [`ToolSet`].

pub mod catalog;
mod command;
pub mod copy;
mod delete;
mod edit;
mod fetch;
mod files;
mod head_tail;
mod list;
mod mentioned;
mod move_path;
pub(crate) mod preview;
pub(crate) mod read;
pub mod sandbox;
pub mod session_bus;
mod special;
mod workspace;
mod write;

pub use command::{
    before_trying, try_on_copy, BeforeTrying, RunCommand, DEFAULT_COMMAND_TIMEOUT_SECS,
    MAX_COMMAND_TIMEOUT_SECS,
};
pub use delete::DeletePath;
pub use edit::EditFile;
pub use fetch::{FetchUrl, FETCH_SIZE_CAP_BYTES, FETCH_TIMEOUT_SECS};
pub use list::{ListDirectory, LIST_ENTRIES_SHOWN};
pub use move_path::MovePath;
pub use read::ReadFile;
pub use workspace::Workspace;

pub(crate) use head_tail::HeadTail;
pub(crate) use mentioned::{mentioned_paths, mentioned_paths_in};
pub use write::WriteFile;

use crate::i18n::{tr, Arg};
use crate::policy::{ArgumentKind, Contents, MainArgument};
pub use askfirst_protocol::CallDetail;
use askfirst_protocol::Risk;
use async_trait::async_trait;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The most text, in bytes, a tool hands the model from one call (a file's text, a command's
/// output, a web page). Longer text keeps its first and last halves with a line
/// `[… N bytes cut …]` between them.
pub const OUTPUT_CAP_BYTES: usize = 100 * 1024;

/// The most text, in bytes, of a change preview (a unified diff) on the approval card; longer
/// diffs keep whole lines from their start and end, with one line saying how many lines of
/// the file were left out between them.
pub const PREVIEW_CAP_BYTES: usize = 100 * 1024;

/// Why a tool call could not be described or run. The message is what the model is told, so it
/// says what went wrong and how to do better.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// The arguments are not valid JSON or do not fit the tool's schema.
    #[error("The arguments for {tool} are not valid: {detail}")]
    InvalidArguments {
        /// The tool's name.
        tool: String,
        /// What is wrong, from the JSON parser.
        detail: String,
    },
    /// A path is absolute, climbs out with `..`, or resolves outside the workspace.
    #[error(
        "The path {path:?} is outside the workspace folder; only paths inside it can be used."
    )]
    OutsideWorkspace {
        /// The path as given.
        path: String,
    },
    /// The tool ran and failed, said in English only: for a tool that has no sentence of
    /// its own for the person (one outside Ask First's catalogues), whose words the person
    /// then reads as written. Ask First's own tools say [`ToolError::Said`].
    #[error("{0}")]
    Failed(String),
    /// An MCP server could not be used: it failed to start, stopped, or did not answer in
    /// time (see [`crate::mcp`]). The message names the server and says what happened.
    #[error("{message}")]
    McpServer {
        /// The server's name from the settings.
        server: String,
        /// What happened, in plain words: what the model is told, in English.
        message: String,
        /// The same for the person, in the language in force when it happened.
        person: String,
    },
    /// The tool ran and failed, with Ask First's sentence for the person beside the English
    /// the model is told (made with [`ToolError::said`]).
    #[error("{model}")]
    Said {
        /// What the model is told, in English.
        model: String,
        /// What the person is told, in the language in force when it failed.
        person: String,
    },
}

impl ToolError {
    /// A failure the model is told as `model` and the person as the catalogue sentence `key`
    /// (a `tool_failed-*` message of `locales/*/app.ftl`) with `args`.
    pub fn said(model: String, key: &str, args: &[(&str, Arg)]) -> Self {
        Self::Said {
            model,
            person: tr(key, args),
        }
    }

    /// What the person is told about this failure, in the language in force when it was
    /// made; [`ToolError::Failed`]'s text as it is.
    pub fn for_person(&self) -> String {
        match self {
            Self::InvalidArguments { tool, .. } => tr(
                "tool_failed-invalid_arguments",
                &[("tool", Arg::from(tool))],
            ),
            Self::OutsideWorkspace { path } => {
                tr("refusal-outside_workspace", &[("path", Arg::from(path))])
            }
            Self::Said { person, .. } | Self::McpServer { person, .. } => person.clone(),
            Self::Failed(text) => text.clone(),
        }
    }
}

/// A description of one proposed call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallDescription {
    /// One plain sentence for a non-programmer, e.g. "Create summary.txt (3 lines)".
    pub summary: String,
    /// How risky this call is.
    pub risk: Risk,
    /// For `write_file` and `edit_file`: a unified diff of what will change (`---`/`+++`
    /// headers, `@@` hunks with 3 lines of context; a new file is diffed against `/dev/null`),
    /// capped at [`PREVIEW_CAP_BYTES`] at whole lines, a line `[… N lines not shown: …]`
    /// where the middle was left out. `None` for other tools, and when the current file is
    /// too large or not text.
    pub preview: Option<String>,
    /// What the call's target looked like when it was described (opaque, from
    /// [`Tool::fingerprint`]): for `write_file` and `edit_file`, the file's content hash or
    /// that it did not exist. Checked again right before the call runs, so an approval given
    /// for the preview on the card never applies to a file that changed since (edited by the
    /// person, or by an earlier call). `None`: nothing to check.
    pub fingerprint: Option<String>,
    /// What the call will do that matters, one plain sentence each, shown on the card as a
    /// list under the summary (for a command: "Deletes files for good (not to the trash).",
    /// "Runs the script build.sh, whose steps Ask First cannot see.", whether it runs
    /// confined). Empty when the summary says it all.
    pub effects: Vec<String>,
    /// What else the card shows, typed, so that the UI renders it without knowing the tool
    /// (for `run_command`: [`CallDetail::Command`] with the line and the folder it runs in).
    /// `None` when the summary, effects and preview say it all.
    pub detail: Option<CallDetail>,
    /// What the call changes, where the tool knows it exactly from the arguments and the disk
    /// ([`askfirst_protocol::CallChange`]: `write_file` on a path where nothing is); `None`
    /// for everything else. Typed, so that what may be approved outside the card is decided
    /// from it, never from the summary's words.
    pub change: Option<askfirst_protocol::CallChange>,
}

/// Environment variables Ask First reads secrets or its own settings from. Commands and MCP
/// servers never get them: a `run_command env` or an MCP tool that reports its environment
/// would otherwise hand the API keys to the model and into the session log.
pub fn is_own_secret_or_setting(name: &str) -> bool {
    const SECRETS: &[&str] = &["OPENAI_API_KEY", "ANTHROPIC_API_KEY"];
    SECRETS.contains(&name) || name.starts_with("ASKFIRST_")
}

/// The only variables of Ask First's own environment an MCP server inherits (besides the
/// `env` its settings give it), as Codex does for its MCP servers: what a program needs to
/// find itself, its home, its language, temporary files and the network proxy.
pub const MCP_INHERITED_ENV: &[&str] = &[
    "HOME",
    "LOGNAME",
    "USER",
    "PATH",
    "SHELL",
    "TERM",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "TMPDIR",
    "TZ",
    "XDG_RUNTIME_DIR",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
];

/// What Stop (or quitting) does to a tool call that is already running, so that what the
/// person and the model are told about it is true.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnStop {
    /// Dropping [`Tool::execute`]'s future stops the work (a command's process group is
    /// killed, a download ends): the call is reported as stopped before it finished.
    Interrupt,
    /// The work is one short step that goes on in the background once started (a file
    /// written, a move to the trash): it is let finish, and its real outcome is reported.
    Finish,
    /// The work happens elsewhere (an MCP server): Ask First stops waiting for it and says
    /// that it cannot know whether it was done.
    Abandon,
}

/// One tool the agent can call.
#[async_trait]
pub trait Tool: Send + Sync {
    /// The name the model uses, e.g. `write_file` (an MCP tool: `server__tool`).
    fn name(&self) -> &str;
    /// What the tool does, for the model.
    fn description(&self) -> &str;
    /// JSON Schema of the arguments object, for the model.
    fn parameters_schema(&self) -> serde_json::Value;
    /// Whether the tool only reads. Read-only tools are allowed by default; every other tool
    /// asks.
    fn read_only(&self) -> bool;
    /// Validates the raw arguments and says what the call will do.
    ///
    /// # Errors
    /// [`ToolError::InvalidArguments`] or [`ToolError::OutsideWorkspace`].
    fn describe(
        &self,
        arguments_json: &str,
        workspace: &Workspace,
    ) -> Result<CallDescription, ToolError>;
    /// The MCP server that provides this tool, if it is not built in (for the card's reason).
    fn mcp_server(&self) -> Option<&str> {
        None
    }
    /// The call's main arguments for the policy (paths, commands, URLs); empty when the
    /// arguments are invalid or the tool has none.
    fn main_arguments(&self, _arguments_json: &str, _workspace: &Workspace) -> Vec<MainArgument> {
        Vec::new()
    }
    /// The call's target as it is now, comparable with [`CallDescription::fingerprint`];
    /// `None` for tools that do not check.
    fn fingerprint(&self, _arguments_json: &str, _workspace: &Workspace) -> Option<String> {
        None
    }
    /// Whether doing the same call again on what it left changes nothing (`write_file`: the
    /// file already holds that content). Only then does a grant also cover the state the call
    /// left; an edit, whose text may match again, asks again instead.
    fn repeat_changes_nothing(&self) -> bool {
        false
    }
    /// What the call will change on disk, for Undo: [`crate::undo::capture`] keeps it (a
    /// before-copy of a file) right before the call runs. `None` for tools whose changes are
    /// not kept (commands, MCP tools, read-only tools) and for arguments that do not resolve.
    fn planned_change(
        &self,
        _arguments_json: &str,
        _workspace: &Workspace,
    ) -> Option<crate::undo::Planned> {
        None
    }
    /// What Stop does to a call of this tool that is already running (see [`OnStop`]).
    fn on_stop(&self) -> OnStop {
        OnStop::Interrupt
    }
    /// Runs the call with exactly these raw arguments; returns the text the model is told.
    ///
    /// # Errors
    /// Any [`ToolError`]; the message is told to the model.
    async fn execute(
        &self,
        arguments_json: &str,
        workspace: &Workspace,
    ) -> Result<String, ToolError>;
}

/// A tool as offered to the model: name, description and JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    /// The tool's name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// JSON Schema of its arguments object.
    pub parameters: serde_json::Value,
}

/// The set of tools a run may use, by name.
#[derive(Clone, Default)]
pub struct ToolSet {
    tools: BTreeMap<String, Arc<dyn Tool>>,
}

impl ToolSet {
    /// The built-in tools: `list_directory` and `read_file` (read-only), `write_file`,
    /// `edit_file`, `move_path`, `delete_path`, `run_command` and `fetch_url` (ask first).
    pub fn builtin() -> Self {
        let mut set = Self::default();
        set.add(Arc::new(ListDirectory));
        set.add(Arc::new(ReadFile));
        set.add(Arc::new(WriteFile));
        set.add(Arc::new(EditFile));
        set.add(Arc::new(MovePath));
        set.add(Arc::new(DeletePath));
        set.add(Arc::new(RunCommand));
        set.add(Arc::new(FetchUrl));
        set
    }

    /// Adds (or replaces) a tool.
    pub fn add(&mut self, tool: Arc<dyn Tool>) {
        self.tools.insert(tool.name().to_owned(), tool);
    }

    /// The tool called `name`, if any.
    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.tools.get(name).cloned()
    }

    /// The names of all tools, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.tools.keys().map(String::as_str).collect()
    }

    /// All tools as offered to the model.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.tools
            .values()
            .map(|t| ToolSpec {
                name: t.name().to_owned(),
                description: t.description().to_owned(),
                parameters: t.parameters_schema(),
            })
            .collect()
    }
}

/// Parses a tool's raw arguments into its typed form.
///
/// # Errors
/// [`ToolError::InvalidArguments`] with the parser's message.
pub(crate) fn parse_args<T: DeserializeOwned>(tool: &str, raw: &str) -> Result<T, ToolError> {
    serde_json::from_str(raw).map_err(|e| ToolError::InvalidArguments {
        tool: tool.to_owned(),
        detail: e.to_string(),
    })
}

/// A path argument as the policy sees it: relative to the workspace where it resolves inside,
/// with `resolved: None` where it does not. Its `text` is spelled as the folders on disk name
/// their entries ([`crate::identity::real_spelling`]), and `alias` keeps the spelling the model
/// used where it differs (`TAXES/x` for `Taxes/x` on a case-insensitive file system), so that
/// rules see both.
pub(crate) fn path_argument(given: &str, workspace: &Workspace) -> MainArgument {
    match workspace.resolve(given) {
        Ok(resolved) => resolved_path_argument(resolved, workspace),
        Err(_) => MainArgument {
            kind: ArgumentKind::Path,
            text: given.to_owned(),
            alias: None,
            resolved: None,
            contents: Contents::No,
        },
    }
}

/// A path already resolved inside the workspace (by [`Workspace::resolve`]) as the policy
/// sees it; see [`path_argument`].
pub(crate) fn resolved_path_argument(resolved: PathBuf, workspace: &Workspace) -> MainArgument {
    let as_given = workspace.display(&resolved);
    let relative = resolved.strip_prefix(workspace.root()).unwrap_or(&resolved);
    let text = crate::identity::real_spelling(workspace.root(), relative);
    MainArgument {
        kind: ArgumentKind::Path,
        alias: (as_given != text).then_some(as_given),
        text,
        resolved: Some(resolved),
        contents: Contents::No,
    }
}

/// A message with its whole chain of causes, `outer: inner: innermost`, for errors (such as
/// reqwest's) whose own message leaves the cause out.
pub(crate) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}
