//! The tools the agent may call. Each declares its risk, validates its arguments, says in plain
//! words what one call will do, and runs confined to the [`Workspace`].
//!
//! Arguments arrive as the model's raw JSON text; a tool parses that exact text both to describe
//! the call and to run it, so what runs is what was shown.

pub mod catalog;
mod command;
mod delete;
mod edit;
mod fetch;
mod fs;
mod read;
pub mod sandbox;
mod special;
mod workspace;

pub use command::{RunCommand, DEFAULT_COMMAND_TIMEOUT_SECS, MAX_COMMAND_TIMEOUT_SECS};
pub use delete::DeletePath;
pub use edit::EditFile;
pub use fetch::{FetchUrl, FETCH_MAX_REDIRECTS, FETCH_SIZE_CAP_BYTES, FETCH_TIMEOUT_SECS};
pub use fs::{ListDirectory, MovePath, WriteFile, LIST_ENTRIES_SHOWN};
pub use read::ReadFile;
pub use workspace::Workspace;

use crate::policy::{ArgumentKind, MainArgument};
use askfirst_protocol::Risk;
use async_trait::async_trait;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, VecDeque};
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
#[non_exhaustive]
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
    /// The tool ran and failed (file missing, permission denied, …).
    #[error("{0}")]
    Failed(String),
    /// An MCP server could not be used: it failed to start, stopped, or did not answer in
    /// time (see [`crate::mcp`]). The message names the server and says what happened.
    #[error("{message}")]
    McpServer {
        /// The server's name from the settings.
        server: String,
        /// What happened, in plain words.
        message: String,
    },
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
    }
}

/// The most texts of one call's arguments that [`mentioned_paths`] looks at.
const MENTIONED_MAX_COUNT: usize = 1024;
/// The longest path the kernel takes (Linux's `PATH_MAX`). A longer text may still name one
/// once `./` and `a/..` are taken away by the letters (as Node's `path.resolve` does), so texts
/// up to [`MENTIONED_MAX_SCANNED`] are normalised so before they are judged.
const MENTIONED_MAX_LEN: usize = 4096;
/// Texts without a line break longer than this are not looked at, and the call is refused as
/// naming more than can be checked; texts with a line break are not paths.
const MENTIONED_MAX_SCANNED: usize = 1024 * 1024;

/// Every text in `arguments` (an MCP tool's arguments, any shape) that could name a path, as
/// the policy sees it ([`ArgumentKind::MentionedPath`]): a path relative to the workspace, an
/// absolute path, or a `file://` address. Inside the workspace its `text` is relative (so path
/// rules apply to it); outside, `text` is the absolute path (no rule matches it, but the
/// own-files denial still compares it). At most [`MENTIONED_MAX_COUNT`] texts are looked at;
/// past that one argument with an empty `text` and no `resolved` path says so, and every deny
/// or ask rule with a pattern matches it (refusing is the safe side).
pub(crate) fn mentioned_paths(arguments: &serde_json::Value, ws: &Workspace) -> Vec<MainArgument> {
    let mut texts = Vec::new();
    let mut too_many = false;
    let mut stack = vec![arguments];
    while let Some(value) = stack.pop() {
        match value {
            serde_json::Value::String(text) => {
                if texts.len() >= MENTIONED_MAX_COUNT {
                    too_many = true;
                } else if text.len() <= MENTIONED_MAX_SCANNED || text.contains('\n') {
                    texts.push(text.as_str());
                } else {
                    too_many = true;
                }
            }
            serde_json::Value::Array(items) => stack.extend(items.iter()),
            serde_json::Value::Object(map) => {
                // Keys can name paths too (`{"Private/diary.txt": true}`).
                for (key, item) in map {
                    if texts.len() >= MENTIONED_MAX_COUNT {
                        too_many = true;
                    } else if key.len() <= MENTIONED_MAX_SCANNED || key.contains('\n') {
                        texts.push(key.as_str());
                    } else {
                        too_many = true;
                    }
                    stack.push(item);
                }
            }
            serde_json::Value::Null | serde_json::Value::Bool(_) | serde_json::Value::Number(_) => {
            }
        }
    }
    mentioned_paths_in(texts, too_many, ws)
}

/// The texts of `texts` that could name a path, as in [`mentioned_paths`]; `too_many` says
/// that some were left out (then the whole workspace counts as mentioned).
pub(crate) fn mentioned_paths_in<'a>(
    texts: impl IntoIterator<Item = &'a str>,
    mut too_many: bool,
    ws: &Workspace,
) -> Vec<MainArgument> {
    let mut found = Vec::new();
    for (i, text) in texts.into_iter().enumerate() {
        if i >= MENTIONED_MAX_COUNT {
            too_many = true;
            break;
        }
        if text.len() <= MENTIONED_MAX_SCANNED {
            found.extend(mentioned_path(text, ws));
        } else if !text.contains('\n') {
            too_many = true;
        }
    }
    if too_many {
        found.push(MainArgument {
            kind: ArgumentKind::MentionedPath,
            text: String::new(),
            alias: None,
            resolved: None,
        });
    }
    found
}

/// One text as a path, if it can be one (see [`mentioned_paths`]): where it leads when `..`
/// is resolved as the kernel does (after symlinks) and, where that differs, as the letters say
/// (`a/../b` is `b`, as Node's `path.resolve` and many MCP servers do), so that rules about
/// either apply.
fn mentioned_path(text: &str, ws: &Workspace) -> Vec<MainArgument> {
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.contains(['\n', '\0']) {
        return Vec::new();
    }
    let decoded;
    let spelled = match trimmed.strip_prefix("file://") {
        Some(rest) => {
            decoded = percent_decoded(rest.strip_prefix("localhost").unwrap_or(rest));
            decoded.as_str()
        }
        None => trimmed,
    };
    // `~/…` and `$HOME/…`, as a server or a shell would read them.
    let home_expanded;
    let spelled = match home_relative(spelled) {
        Some(rest) => match std::env::var_os("HOME") {
            Some(home) => {
                home_expanded = std::path::Path::new(&home).join(rest);
                home_expanded.to_str().unwrap_or(spelled)
            }
            None => spelled,
        },
        None => spelled,
    };
    let given = std::path::Path::new(spelled);
    // A bare word (`status`, `-la`) names a path only if something by that name exists.
    if !given.is_absolute()
        && !spelled.contains('/')
        && std::fs::symlink_metadata(ws.root().join(given)).is_err()
    {
        return Vec::new();
    }
    let joined = if given.is_absolute() {
        given.to_path_buf()
    } else {
        ws.root().join(given)
    };
    let mut found: Vec<MainArgument> = Vec::new();
    // Where the kernel would lead it (only for what it could take), where the letters lead it
    // and, for a relative text, where it leads from each folder above the workspace and the
    // data folder: a server resolves relative paths against folders of its own.
    let mut candidates = vec![Some(lexical(&joined))];
    if spelled.len() <= MENTIONED_MAX_LEN {
        candidates.insert(0, resolved_as_far_as_it_exists(&joined));
    }
    if !given.is_absolute() {
        let above = ws
            .root()
            .ancestors()
            .skip(1)
            .chain(
                ws.own_data()
                    .into_iter()
                    .flat_map(|d| d.ancestors().skip(1)),
            )
            .take(64);
        for folder in above {
            let from_there = lexical(&folder.join(given));
            let lands_inside = from_there.starts_with(ws.root())
                || ws.own_data().is_some_and(|d| from_there.starts_with(d));
            if lands_inside {
                candidates.push(Some(from_there));
            }
        }
    }
    for candidate in candidates {
        let Some(resolved) = candidate else {
            continue;
        };
        let argument = match resolved.strip_prefix(ws.root()) {
            Ok(relative) => MainArgument {
                kind: ArgumentKind::MentionedPath,
                text: crate::identity::real_spelling(ws.root(), relative),
                alias: None,
                resolved: Some(resolved),
            },
            // Outside the workspace (`../data/rules.toml`): no rule is about it, but the
            // own-files denial still compares it.
            Err(_) => MainArgument {
                kind: ArgumentKind::MentionedPath,
                text: resolved.display().to_string(),
                alias: None,
                resolved: Some(resolved),
            },
        };
        if argument.text.len() <= MENTIONED_MAX_LEN && !found.contains(&argument) {
            found.push(argument);
        }
    }
    found
}

/// What follows `~/`, `$HOME/` or `${HOME}/` (or `""` for the home folder itself), if `text`
/// starts so.
fn home_relative(text: &str) -> Option<&str> {
    ["~", "$HOME", "${HOME}"].iter().find_map(|prefix| {
        let rest = text.strip_prefix(prefix)?;
        if rest.is_empty() {
            Some("")
        } else {
            rest.strip_prefix('/')
        }
    })
}

/// `path` with `..` and symlinks resolved as far as it exists, like the operating system
/// would, and the rest (which does not exist) appended with its `..` taken away by the letters.
fn resolved_as_far_as_it_exists(path: &std::path::Path) -> Option<PathBuf> {
    use std::path::Component;
    let mut existing = path;
    let mut rest = Vec::new();
    let mut resolved = loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            break real;
        }
        // Not `file_name()`: it has none for `a/..`, and a missing `a` must not hide the text.
        match existing.components().next_back() {
            Some(Component::Normal(name)) => rest.push(name.to_owned()),
            Some(Component::ParentDir) => rest.push("..".into()),
            Some(Component::CurDir) => {}
            Some(Component::RootDir | Component::Prefix(_)) | None => return None,
        }
        existing = existing.parent()?;
    };
    for name in rest.into_iter().rev() {
        if name == ".." {
            resolved.pop();
        } else if name != "." {
            resolved.push(name);
        }
    }
    Some(resolved)
}

/// `path` (absolute) with `.` and `..` taken away by the letters, not following symlinks.
fn lexical(path: &std::path::Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// `%XX` sequences of a `file://` address decoded (invalid ones kept as written).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied(),
            bytes.get(i + 2).copied(),
        ) {
            (b'%', Some(h), Some(l)) if hex(h).is_some() && hex(l).is_some() => {
                let value = hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0);
                out.push(u8::try_from(value).unwrap_or(b'?'));
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Bytes kept from text that may be huge: the first and the last `cap / 2` bytes, and how many
/// there were in all. Fed in pieces with [`HeadTail::push`]; memory stays within `cap`.
#[derive(Debug, Clone)]
pub(crate) struct HeadTail {
    half: usize,
    head: Vec<u8>,
    tail: VecDeque<u8>,
    total: u64,
}

impl HeadTail {
    /// Keeps at most `cap` bytes (half from the start, half from the end).
    pub(crate) fn new(cap: usize) -> Self {
        Self {
            half: cap / 2,
            head: Vec::new(),
            tail: VecDeque::new(),
            total: 0,
        }
    }

    /// Built from a start and an end already read, out of `total` bytes (for a file read with
    /// a seek rather than in full). `head` and `tail` must not overlap.
    pub(crate) fn from_parts(head: Vec<u8>, tail: Vec<u8>, total: u64) -> Self {
        Self {
            half: head.len().max(tail.len()),
            head,
            tail: tail.into(),
            total,
        }
    }

    /// Adds the next piece.
    pub(crate) fn push(&mut self, chunk: &[u8]) {
        self.total = self.total.saturating_add(chunk.len() as u64);
        let room = self.half.saturating_sub(self.head.len());
        let (to_head, rest) = chunk.split_at(room.min(chunk.len()));
        self.head.extend_from_slice(to_head);
        if rest.len() >= self.half {
            self.tail.clear();
            self.tail.extend(&rest[rest.len() - self.half..]);
        } else {
            self.tail.extend(rest);
            let excess = self.tail.len().saturating_sub(self.half);
            self.tail.drain(..excess);
        }
    }

    /// How many bytes were pushed in all.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// Whether any kept byte is NUL, the usual sign of binary (non-text) content.
    pub(crate) fn looks_binary(&self) -> bool {
        self.head.contains(&0) || self.tail.contains(&0)
    }

    /// Whether some kept bytes are not UTF-8 (and so will show as U+FFFD).
    pub(crate) fn has_invalid_utf8(&self) -> bool {
        let (front, back) = self.tail.as_slices();
        let mut tail = front.to_vec();
        tail.extend_from_slice(back);
        if ((self.head.len() + tail.len()) as u64) < self.total {
            std::str::from_utf8(whole_chars_at_end(&self.head)).is_err()
                || std::str::from_utf8(whole_chars_at_start(&tail)).is_err()
        } else {
            let mut all = self.head.clone();
            all.extend_from_slice(&tail);
            std::str::from_utf8(&all).is_err()
        }
    }

    /// The kept text (invalid UTF-8 shown as U+FFFD), with a line `[… N bytes cut …]` where
    /// the middle was dropped. A character split by the cut is dropped whole.
    pub(crate) fn into_text(self) -> String {
        let tail: Vec<u8> = self.tail.into();
        let kept = (self.head.len() + tail.len()) as u64;
        if kept >= self.total {
            let mut all = self.head;
            all.extend_from_slice(&tail);
            return String::from_utf8_lossy(&all).into_owned();
        }
        let head = whole_chars_at_end(&self.head);
        let tail = whole_chars_at_start(&tail);
        let cut = self.total - (head.len() + tail.len()) as u64;
        let cut = if cut == 1 {
            "1 byte".to_owned()
        } else {
            format!("{cut} bytes")
        };
        format!(
            "{}\n[… {cut} cut …]\n{}",
            String::from_utf8_lossy(head),
            String::from_utf8_lossy(tail)
        )
    }
}

/// `bytes` without a UTF-8 character left incomplete at its end.
fn whole_chars_at_end(bytes: &[u8]) -> &[u8] {
    match std::str::from_utf8(bytes) {
        Err(e) if e.error_len().is_none() => &bytes[..e.valid_up_to()],
        Ok(_) | Err(_) => bytes,
    }
}

/// `bytes` without the continuation bytes of a UTF-8 character that began before it.
fn whole_chars_at_start(bytes: &[u8]) -> &[u8] {
    let skip = bytes
        .iter()
        .take(3)
        .take_while(|b| (**b & 0b1100_0000) == 0b1000_0000)
        .count();
    &bytes[skip..]
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
