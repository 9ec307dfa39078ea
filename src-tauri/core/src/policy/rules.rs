//! The user's rules (DESIGN.md §4, layer 3): the file `rules.toml` in the data folder, read
//! into [`Rules`], written from [`RULES_TEMPLATE`] when missing, and a rule removed from it by
//! its one-line form ([`remove_rule`]; adding and changing are in [`super::editor`]). How a
//! rule matches a call's arguments is here too.

use super::kept::Keep;
use super::{ArgumentKind, CallFacts, Contents, MainArgument};
use crate::command_line::CommandPattern;
use crate::url_pattern::{Destination, UrlPattern};
use globset::{GlobBuilder, GlobMatcher};
use serde::Deserialize;
use std::cell::OnceCell;
use std::path::{Path, PathBuf};

/// How deep a glob rule looks inside a folder whose contents may go with a call
/// ([`super::Contents`]) for what it is about.
pub const CONTENTS_DEPTH: usize = 32;
/// How many entries a glob rule looks at inside such a folder; past them, a folder our own
/// tools move or trash counts as holding what the rule is about, one only named does not.
pub const CONTENTS_CAP: usize = 50_000;

/// How far the sandbox keeps a rule's promise for one argument of our own command
/// ([`Rule::left_to_sandbox`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sandboxed {
    /// Not at all: the command's words are judged as for any tool.
    No,
    /// For what already exists: the names the command's words give are still judged.
    ButNames,
    /// Wholly: the command's words need not be judged for this rule.
    Wholly,
}

/// What one of our file tools does, for a rule about it that holds for tools whose names do not
/// say so (a command, an MCP tool, another agent's tool: [`Rule::holds_for_unseen`]): the one
/// table of which tools those are, whether a tool that says it only reads is held to the rule,
/// and how a command shut in is kept from the rule's places ([`super::kept::keeps`]).
/// `None` for every other tool.
pub(super) fn file_tool_keep(tool: &str) -> Option<Keep> {
    match tool {
        // Reading: the place is hidden from a command.
        "read_file" | "list_directory" => Some(Keep::Hidden),
        // Changing: the place is shown read-only, so a command may still read it; a tool that
        // says it only reads is not held to such a rule.
        "write_file" | "edit_file" | "move_path" | "delete_path" => Some(Keep::ReadOnly),
        _ => None,
    }
}

/// Whether `tool` is one of our file tools that change files (see [`file_tool_keep`]).
fn changes_files(tool: &str) -> bool {
    file_tool_keep(tool) == Some(Keep::ReadOnly)
}

/// Our own tools, each of which does only what its name says (a command is the exception).
const BUILT_IN_TOOLS: [&str; 8] = [
    "read_file",
    "list_directory",
    "write_file",
    "edit_file",
    "move_path",
    "delete_path",
    "fetch_url",
    "run_command",
];

pub use super::template::RULES_TEMPLATE;

/// Errors of the rules file. The message names the file and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The file could not be read.
    #[error("The rules file {path} could not be read: {detail}")]
    Read {
        /// The file.
        path: String,
        /// The I/O error.
        detail: String,
    },
    /// The file is not valid.
    #[error("The rules file {path} has a mistake: {detail}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        detail: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    #[serde(default)]
    deny: Vec<RuleEntry>,
    #[serde(default)]
    ask: Vec<RuleEntry>,
    #[serde(default)]
    allow: Vec<RuleEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleEntry {
    tool: String,
    #[serde(default, rename = "match")]
    pattern: Option<String>,
}

/// A rule's `tool` as the file gives it, read the one way both [`Rules::parse`] and
/// [`remove_rule`] read it: spaces around the name do not count.
pub(super) fn tool_as_written(tool: &str) -> &str {
    tool.trim()
}

/// Which list of the rules file a rule is in, which says what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleKind {
    /// `[[deny]]`: never run.
    Deny,
    /// `[[ask]]`: always ask first.
    Ask,
    /// `[[allow]]`: run without asking.
    Allow,
}

impl RuleKind {
    /// The kinds in the order they are checked: deny, ask, allow.
    pub const ALL: [RuleKind; 3] = [RuleKind::Deny, RuleKind::Ask, RuleKind::Allow];

    /// Its name in the rules file (`deny`, `ask`, `allow`).
    pub fn as_str(self) -> &'static str {
        match self {
            RuleKind::Deny => "deny",
            RuleKind::Ask => "ask",
            RuleKind::Allow => "allow",
        }
    }
}

/// The one-line form of a rule of `kind` about `tool` with `pattern`: `deny write_file
/// "Taxes/**"`, or `ask run_command` without a pattern. The only place it is written.
pub(super) fn line_of(kind: RuleKind, tool: &str, pattern: Option<&str>) -> String {
    let kind = kind.as_str();
    match pattern {
        Some(p) => format!("{kind} {tool} \"{p}\""),
        None => format!("{kind} {tool}"),
    }
}

/// A rule's pattern as a path in the person's folder, as a person writing it means it: without
/// a leading `./` or `/` (the folder's own root), and with a trailing `/` read as "everything
/// in that folder" (`Bank/` → `Bank/**`, `Medical/**/` → `Medical/**`). A web address
/// (`…://…`) is left as it is.
fn path_form(pattern: &str) -> String {
    if pattern.contains("://") {
        return pattern.to_owned();
    }
    let mut p = pattern;
    loop {
        let before = p;
        p = p.trim_start_matches("./");
        p = p.trim_start_matches('/');
        if p == before {
            break;
        }
    }
    if p.is_empty() {
        return pattern.to_owned();
    }
    match p.strip_suffix('/') {
        Some(folder) => {
            let folder = folder.trim_end_matches('/');
            if folder.ends_with("/**") || folder == "**" {
                folder.to_owned()
            } else {
                format!("{folder}/**")
            }
        }
        None => p.to_owned(),
    }
}

/// One user rule.
#[derive(Debug, Clone)]
pub struct Rule {
    /// The tool it is about (`*` for every tool).
    pub tool: String,
    /// The glob on the main argument, as written.
    pub pattern: Option<String>,
    for_paths: Option<GlobMatcher>,
    /// For a pattern `folder/**`: the folder itself, which the pattern is about too.
    folder_itself: Option<GlobMatcher>,
    /// The pattern read as a command (words, each a glob; see
    /// [`crate::command_line::CommandPattern`]), when it can be one.
    for_command: Option<CommandPattern>,
    /// The pattern read as a web address (scheme, host, port and path as parts; see
    /// [`crate::url_pattern::UrlPattern`]), when it can be one.
    for_url: Option<UrlPattern>,
    /// Whether the pattern's host is a plain name or address (no `*`): only such a rule can
    /// allow an address on this computer or the local network.
    url_host_literal: bool,
    /// For a pattern that names one folder or file without glob characters (`Taxes/**`,
    /// `Taxes`, `Taxes/2024.pdf`): that path, compared by identity on disk.
    pub(super) literal_folder: Option<PathBuf>,
}

impl Rule {
    /// A rule for `tool`, optionally with a glob `pattern`.
    ///
    /// # Errors
    /// The glob's error message when `pattern` is not a valid glob.
    pub fn new(tool: &str, pattern: Option<&str>) -> Result<Self, String> {
        let written = pattern;
        // Paths are matched on the pattern as a person means it (`./Secret/**`, `/Taxes/**`,
        // `Bank/` and `Medical/**/` are about those folders in the person's folder); commands
        // and addresses on the pattern as written.
        let path_pattern = pattern.map(path_form);
        let pattern = path_pattern.as_deref();
        let for_paths = match pattern {
            None => None,
            Some(p) => Some(
                GlobBuilder::new(p)
                    .literal_separator(true)
                    .backslash_escape(true)
                    .build()
                    .map(|g| g.compile_matcher())
                    .map_err(|e| e.to_string())?,
            ),
        };
        let folder_itself = match pattern.and_then(|p| p.strip_suffix("/**")) {
            Some(folder) if !folder.is_empty() => Some(
                GlobBuilder::new(folder)
                    .literal_separator(true)
                    .backslash_escape(true)
                    .build()
                    .map(|g| g.compile_matcher())
                    .map_err(|e| e.to_string())?,
            ),
            _ => None,
        };
        let literal_folder = pattern
            .map(|p| p.strip_suffix("/**").unwrap_or(p))
            .filter(|p| {
                !p.is_empty()
                    && !p.starts_with('/')
                    && !p.contains(['*', '?', '[', ']', '{', '}', '\\'])
                    && !p.split('/').any(|part| matches!(part, "" | "." | ".."))
            })
            .map(PathBuf::from);
        // A rule about one tool must make sense for it; a rule for every tool (`*`) is read
        // in each way it can be.
        let pattern = written;
        let everything = pattern.is_some_and(|p| matches!(p.trim(), "*" | "**"));
        let pattern_for_parts = pattern.filter(|_| !everything);
        let for_command = match pattern_for_parts.map(CommandPattern::parse) {
            Some(Err(e)) if tool == "run_command" => return Err(e),
            Some(parsed) => parsed.ok(),
            None => None,
        };
        let for_url = match pattern_for_parts.map(UrlPattern::parse) {
            Some(Err(e)) if tool == "fetch_url" => return Err(e),
            Some(parsed) => parsed.ok(),
            None => None,
        };
        let url_host_literal = pattern
            .and_then(|p| p.split_once("://"))
            .map(|(_, rest)| rest.split(['/', '?']).next().unwrap_or(""))
            .is_some_and(|host| !host.is_empty() && !host.contains('*'));
        Ok(Self {
            tool: tool.to_owned(),
            pattern: pattern.map(str::to_owned),
            for_paths,
            folder_itself,
            for_command,
            for_url,
            url_host_literal,
            literal_folder,
        })
    }

    fn matches_path(&self, text: &str) -> bool {
        self.matches_path_spelled(text)
            || !text.is_ascii() && {
                // The same name in the other Unicode form (`é` as one character or as `e` and an
                // accent), which a normalising file system or server treats as the same.
                use unicode_normalization::UnicodeNormalization;
                let composed: String = text.nfc().collect();
                let decomposed: String = text.nfd().collect();
                (composed != text && self.matches_path_spelled(&composed))
                    || (decomposed != text && self.matches_path_spelled(&decomposed))
            }
    }

    fn matches_path_spelled(&self, text: &str) -> bool {
        self.for_paths.as_ref().is_none_or(|m| m.is_match(text))
            || self
                .folder_itself
                .as_ref()
                .is_some_and(|m| m.is_match(text))
    }

    /// Whether a pattern of `*` alone (or none) makes the rule about every argument.
    pub(super) fn about_everything(&self) -> bool {
        self.pattern
            .as_deref()
            .is_none_or(|p| matches!(p.trim(), "*" | "**"))
    }

    /// Whether the rule's pattern is a glob that names no one place (`**/*.pdf`, `Docs/*.txt`):
    /// not a plain folder or file (`Taxes/**`, compared by identity instead), not `*` alone, and
    /// not missing. What such a rule is about is found by looking through folders.
    pub(super) fn is_glob(&self) -> bool {
        self.literal_folder.is_none() && !self.about_everything()
    }

    /// Deny and ask rules on a command: any simple command of the line matches (also inside
    /// `sh -c`, after `sudo`, …). On a web address: its scheme, host and path match as parts.
    pub(super) fn matches_text_any(&self, kind: ArgumentKind, text: &str) -> bool {
        match kind {
            ArgumentKind::Path | ArgumentKind::MentionedPath => self.matches_path(text),
            ArgumentKind::Command => {
                self.about_everything()
                    || self
                        .for_command
                        .as_ref()
                        .is_some_and(|c| c.matches_any(text))
            }
            ArgumentKind::Url => {
                self.about_everything()
                    || self
                        .for_url
                        .as_ref()
                        .is_some_and(|u| url::Url::parse(text).is_ok_and(|url| u.matches(&url)))
            }
        }
    }

    /// Allow rules on a command: the line is plain words only and every simple command
    /// matches. On a web address: the parts match, and an address on this computer or the
    /// local network is allowed only by a rule that names its host exactly.
    fn matches_text_all(&self, kind: ArgumentKind, text: &str) -> bool {
        match kind {
            ArgumentKind::Path => self.matches_path(text),
            ArgumentKind::MentionedPath => false,
            ArgumentKind::Command => {
                if self.about_everything() {
                    return crate::command_line::plain_commands(text).is_some();
                }
                self.for_command.as_ref().is_some_and(|c| c.allows(text))
            }
            ArgumentKind::Url => {
                let Ok(url) = url::Url::parse(text) else {
                    return false;
                };
                let nearby = crate::url_pattern::destination(&url) != Destination::Internet;
                if nearby && !self.url_host_literal {
                    return false;
                }
                self.about_everything() && !nearby
                    || self.for_url.as_ref().is_some_and(|u| u.matches(&url))
            }
        }
    }

    /// Whether the rule is about this argument: its spelling on disk or as given matches, or
    /// (for a rule on a folder, `Taxes/**` or `Taxes`) the argument lies in that very folder,
    /// however it is reached (another case, a bind mount).
    fn matches_argument_any(
        &self,
        argument: &MainArgument,
        asking: bool,
        inside: &OnceCell<Inside>,
    ) -> bool {
        self.names_argument(argument)
            || (argument.contents != Contents::No && self.about_contents(argument, asking, inside))
    }

    /// Whether the rule is about the argument itself, not what is inside it: its spelling on
    /// disk or as given matches, or it lies in the rule's very folder.
    fn names_argument(&self, argument: &MainArgument) -> bool {
        self.matches_text_any(argument.kind, &argument.text)
            || argument
                .alias
                .as_deref()
                .is_some_and(|alias| self.matches_text_any(argument.kind, alias))
            || self.inside_named_folder(argument)
    }

    /// Whether every spelling of the argument matches (for allow rules).
    fn matches_argument_all(&self, argument: &MainArgument) -> bool {
        self.matches_text_all(argument.kind, &argument.text)
            && argument
                .alias
                .as_deref()
                .is_none_or(|alias| self.matches_text_all(argument.kind, alias))
    }

    /// The workspace folder of a path argument inside it: `resolved` less as many parts as
    /// `text` has (`None` for an argument that is not a relative path resolved on disk).
    fn workspace_root(argument: &MainArgument) -> Option<&Path> {
        let resolved = argument.resolved.as_deref()?;
        if !matches!(
            argument.kind,
            ArgumentKind::Path | ArgumentKind::MentionedPath
        ) || Path::new(&argument.text).is_absolute()
        {
            return None;
        }
        let depth = if argument.text == "." {
            0
        } else {
            argument.text.split('/').count()
        };
        resolved.ancestors().nth(depth)
    }

    /// For an argument whose contents may go with the call ([`MainArgument::contents`]):
    /// whether anything inside it is what the rule (`asking`: an ask rule) is about.
    /// - A rule on a plain folder or file (`Taxes/**`): when that place lies inside the
    ///   argument's folder, compared by identity on disk, through links too. Where commands
    ///   are shut in, a deny rule's place is left to the sandbox for a folder our own command
    ///   names ([`Contents::OurCommand`]), and every rule's place for the folder it works in
    ///   ([`Contents::Working`]): the command runs without them.
    /// - Another pattern (`**/*.pdf`): when a path inside matches, looked through once for
    ///   all rules (`inside`, see [`Inside`]). Past its bounds, a folder moved or trashed by
    ///   our own tools counts as a match (refusing or asking is the safe side, and moving so
    ///   big a folder is rare); a folder a command or another program only names does not (a
    ///   photo library or a project's dependencies would otherwise have every command on them
    ///   refused). The folder our command works in counts past its bounds too, where
    ///   commands are not shut in (shut in, it does not count: see [`Contents::Working`]).
    fn about_contents(
        &self,
        argument: &MainArgument,
        asking: bool,
        inside: &OnceCell<Inside>,
    ) -> bool {
        // Rules name places in the person's folder: a folder outside it (given absolute) holds
        // nothing they are about.
        let (Some(root), Some(resolved)) =
            (Self::workspace_root(argument), argument.resolved.as_deref())
        else {
            return false;
        };
        if !std::fs::symlink_metadata(resolved).is_ok_and(|m| m.is_dir()) {
            return false;
        }
        let confined = crate::tools::sandbox::Confinement::detected().is_confined();
        // Shut in, the command runs without what the rules keep in the folder it works in
        // (or is not run where that cannot be done: `agent::call`).
        if argument.contents == Contents::Working && confined {
            return false;
        }
        if let Some(literal) = &self.literal_folder {
            if argument.contents == Contents::OurCommand && !asking && confined {
                return false;
            }
            let named = root.join(literal);
            // Its own folders, and where links along the way lead.
            return crate::identity::FileId::of(resolved).is_some_and(|folder| {
                crate::identity::is_within(&named, folder)
                    || std::fs::canonicalize(&named)
                        .is_ok_and(|real| crate::identity::is_within(&real, folder))
            });
        }
        if !self.is_glob() {
            return false; // `*` alone: already decided by the argument itself
        }
        let inside = inside.get_or_init(|| Inside::look_through(resolved, &argument.text));
        let mut matching = inside
            .paths()
            .filter(|path| self.matches_text_any(ArgumentKind::Path, path));
        match argument.contents {
            Contents::Working | Contents::Yes => inside.past_bounds || matching.next().is_some(),
            Contents::No | Contents::OurCommand | Contents::Outside => matching.next().is_some(),
        }
    }

    /// For a rule whose pattern is a plain folder or file (`Taxes`, `Taxes/**`, no glob
    /// characters before): whether the argument's file is that folder or file or lies inside
    /// it, compared by identity on disk.
    fn inside_named_folder(&self, argument: &MainArgument) -> bool {
        let (Some(literal), Some(resolved)) = (&self.literal_folder, &argument.resolved) else {
            return false;
        };
        let Some(root) = Self::workspace_root(argument) else {
            return false;
        };
        let named = root.join(literal);
        let Some(folder) = crate::identity::FileId::of(&named) else {
            return false;
        };
        crate::identity::is_within(resolved, folder)
            // A second name (hard link), elsewhere, of a file inside the folder.
            || (crate::identity::has_other_names(resolved)
                && crate::identity::FileId::of(resolved).is_some_and(|file| {
                    crate::identity::contains_identity(&named, file, None, 16, 50_000)
                }))
    }

    fn names(&self, tool: &str) -> bool {
        self.tool == "*" || self.tool == tool
    }

    /// Whether this deny or ask rule, about a place for one of our file tools ("Never read
    /// files in Private": `read_file "Private/**"`), holds for the call `facts` as well, whose
    /// tool may do what that file tool does there without its name saying so: a command
    /// (`run_command`), an MCP server's tool, another agent's tool we know no equal of
    /// (Claude Code's `Grep`, Codex's `apply_patch`). Not for our other file tools, whose names
    /// say what they do; not for a rule about every place of its tool (`deny write_file`),
    /// which is about the tool; and a rule about changing files not for a tool other than a
    /// command that says it only reads (Claude Code's `Grep`, an MCP tool marked read-only:
    /// the same word that lets such a tool be trusted to only read elsewhere).
    fn holds_for_unseen(&self, facts: &CallFacts<'_>) -> bool {
        let tool = facts.tool_name;
        file_tool_keep(&self.tool).is_some()
            && !self.about_everything()
            && (tool == "run_command" || !BUILT_IN_TOOLS.contains(&tool))
            && !(changes_files(&self.tool) && facts.read_only && tool != "run_command")
    }

    /// For a rule about every place for one of our file tools ("Never delete files and
    /// folders": `deny delete_path`): whether it holds for the call `facts` of another tool that
    /// may do the same without its name saying so (see [`Self::holds_for_unseen`]):
    /// - our own command, always, except shut in under a deny rule about changing files: it
    ///   then runs with the whole workspace read-only instead ([`super::kept::keeps`]);
    /// - another agent's command, an MCP tool or another agent's tool, when it names something
    ///   that exists in the person's folder (a rule about changing files not for a tool that
    ///   says it only reads). A web address or a sentence with a `/` names nothing there; a
    ///   command of another agent that works in the person's folder without naming anything
    ///   asks, naming the rule (`inbox::policy::reaches_kept`).
    fn holds_everywhere_for_unseen(&self, facts: &CallFacts<'_>, asking: bool) -> bool {
        let tool = facts.tool_name;
        if file_tool_keep(&self.tool).is_none()
            || (tool != "run_command" && BUILT_IN_TOOLS.contains(&tool))
        {
            return false;
        }
        let changing = changes_files(&self.tool);
        let ours = facts
            .main_arguments
            .iter()
            .any(|a| a.contents == Contents::Working);
        if tool == "run_command" && ours {
            return !(changing
                && !asking
                && crate::tools::sandbox::Confinement::detected().is_confined());
        }
        !(changing && facts.read_only && tool != "run_command")
            && facts.main_arguments.iter().any(|a| {
                matches!(a.kind, ArgumentKind::Path | ArgumentKind::MentionedPath)
                    // Relative: inside the person's folder (see `mentioned_paths`).
                    && !Path::new(&a.text).is_absolute()
                    && a
                        .resolved
                        .as_deref()
                        .is_some_and(|p| std::fs::symlink_metadata(p).is_ok())
            })
    }

    /// How far the sandbox keeps the promise of this deny rule (held for a tool by
    /// [`Self::holds_for_unseen`]) for `argument`, so that the command's words need not: for our
    /// own command shut in, naming a place or working in the folder, a rule about changing
    /// files shows what it is about read-only ([`super::kept::keeps`]), so the command may
    /// still read it (`ls Photos` under "Never delete files in Photos"):
    /// - [`Sandboxed::Wholly`] for a rule about changing or deleting what exists (`edit_file`,
    ///   `delete_path`), and one about writing or moving into a plain folder or file that exists
    ///   when the command starts (`write_file "Reports/**"`);
    /// - [`Sandboxed::ButNames`] for a rule about writing or moving into a place that may not
    ///   exist yet (`write_file "**/*.pdf"`, a folder not made yet): the sandbox cannot stop a
    ///   new file from being made there, so a command whose words name one is refused, while
    ///   what a folder it names already holds is left to the sandbox.
    ///
    /// Never for an ask rule: its card must ask (and, once approved, opens the place).
    fn left_to_sandbox(&self, argument: &MainArgument, asking: bool) -> Sandboxed {
        let tool = self.tool.as_str();
        if asking
            || !changes_files(tool)
            || !matches!(argument.contents, Contents::OurCommand | Contents::Working)
            || !crate::tools::sandbox::Confinement::detected().is_confined()
        {
            return Sandboxed::No;
        }
        let exists = || {
            self.literal_folder.as_ref().is_some_and(|literal| {
                Self::workspace_root(argument)
                    .is_some_and(|root| std::fs::symlink_metadata(root.join(literal)).is_ok())
            })
        };
        if matches!(tool, "edit_file" | "delete_path") || exists() {
            Sandboxed::Wholly
        } else {
            Sandboxed::ButNames
        }
    }

    /// Deny and ask rules (`asking` for an ask rule): any main argument matches (or the rule
    /// has no pattern). `looked` is what the decision's rules have looked at so far, for the
    /// next rules of the same decision ([`Looked::for_call`]). A rule about
    /// a place for a file tool holds for the paths a command, an MCP tool or another agent's
    /// tool names too ([`Self::holds_for_unseen`]).
    pub(super) fn matches_any(&self, facts: &CallFacts<'_>, asking: bool, looked: &Looked) -> bool {
        let inside = &looked.inside;
        if !self.names(facts.tool_name) && self.about_everything() {
            return self.holds_everywhere_for_unseen(facts, asking);
        }
        if self.names(facts.tool_name) {
            return self.pattern.is_none()
                || facts
                    .main_arguments
                    .iter()
                    .zip(inside)
                    .any(|(a, inside)| self.matches_argument_any(a, asking, inside));
        }
        self.holds_for_unseen(facts)
            && (facts
                .main_arguments
                .iter()
                .zip(inside)
                .filter(|(a, _)| matches!(a.kind, ArgumentKind::Path | ArgumentKind::MentionedPath))
                .any(|(a, inside)| match self.left_to_sandbox(a, asking) {
                    Sandboxed::Wholly => false,
                    // What exists is read-only; what the command makes is judged on what it
                    // made, when it is tried on a copy of the folder first
                    // (`agent::try_first`). Where it cannot be, nothing can keep this rule for
                    // it: it is refused.
                    Sandboxed::ButNames => {
                        !Self::workspace_root(a).is_some_and(crate::tools::copy::tried_first_in)
                    }
                    Sandboxed::No => self.matches_argument_any(a, asking, inside),
                }))
    }

    /// Allow rules: every main argument matches, and there is at least one when the rule has
    /// a pattern.
    ///
    /// Paths merely mentioned (in a command's words, an MCP tool's texts) are not what an
    /// allow rule is about: they can only make deny and ask rules match.
    pub(super) fn matches_all(&self, facts: &CallFacts<'_>) -> bool {
        let mut judged = facts
            .main_arguments
            .iter()
            .filter(|a| a.kind != ArgumentKind::MentionedPath)
            .peekable();
        self.names(facts.tool_name)
            && (self.pattern.is_none()
                || (judged.peek().is_some() && judged.all(|a| self.matches_argument_all(a))))
    }

    /// The rule's one-line form when it is of `kind`, as the settings screen lists it
    /// ([`super::Policy::rules_summary`]), the reasons quote it, and [`remove_rule`] finds it:
    /// `deny write_file "Taxes/**"`.
    pub fn line(&self, kind: RuleKind) -> String {
        line_of(kind, &self.tool, self.pattern.as_deref())
    }

    /// The rule when it is of `kind` in a sentence for people, as the settings screen lists it
    /// and the reasons quote it: "Never touch anything in Private" (see [`super::words`]).
    pub fn sentence(&self, kind: RuleKind) -> String {
        let pattern = self.pattern.as_deref();
        let choice = super::editor::choice_of(kind, &self.tool, pattern);
        super::words::sentence(kind, &self.tool, pattern, choice.map(|c| c.scope).as_ref())
    }
}

/// What one decision looks at once for all its rules ([`Rule::matches_any`]), when a rule
/// first needs it: what is inside each main argument.
pub(super) struct Looked {
    /// One cell for each main argument, in order (see [`Inside`]).
    inside: Vec<OnceCell<Inside>>,
}

impl Looked {
    /// Nothing looked at yet, for the call `facts`.
    pub(super) fn for_call(facts: &CallFacts<'_>) -> Self {
        Self {
            inside: facts
                .main_arguments
                .iter()
                .map(|_| OnceCell::new())
                .collect(),
        }
    }
}

/// What is inside one folder argument, as glob rules read it: looked through once per
/// decision, up to [`CONTENTS_DEPTH`] levels and [`CONTENTS_CAP`] entries, and shared by every
/// rule that asks (N glob rules used to mean N walks of the same folder under the policy's
/// lock). Links inside are not followed: they move as links.
#[derive(Debug, Default)]
pub(super) struct Inside {
    /// Each entry's path as rules read it (`Docs/2024/a.pdf`), one after another, each ended
    /// by a NUL (which no path holds): one allocation for up to [`CONTENTS_CAP`] paths.
    paths: String,
    /// Whether the walk stopped at a bound (more entries than [`CONTENTS_CAP`], or a folder
    /// [`CONTENTS_DEPTH`] levels down), so that something past it went unseen.
    past_bounds: bool,
}

impl Inside {
    /// Looks through the folder `resolved`, whose path as rules read it is `text` (`.` for
    /// the workspace). Unreadable folders inside are passed over.
    fn look_through(resolved: &Path, text: &str) -> Self {
        let mut inside = Self::default();
        let mut seen = 0;
        let top = if text == "." {
            String::new()
        } else {
            text.to_owned()
        };
        let mut stack = vec![(resolved.to_path_buf(), top, 0)];
        while let Some((path, folder_text, level)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&path) else {
                continue;
            };
            for entry in entries.flatten() {
                seen += 1;
                if seen > CONTENTS_CAP {
                    inside.past_bounds = true;
                    return inside;
                }
                let start = inside.paths.len();
                if !folder_text.is_empty() {
                    inside.paths.push_str(&folder_text);
                    inside.paths.push('/');
                }
                inside.paths.push_str(&entry.file_name().to_string_lossy());
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    if level + 1 >= CONTENTS_DEPTH {
                        inside.past_bounds = true;
                    } else {
                        stack.push((entry.path(), inside.paths[start..].to_owned(), level + 1));
                    }
                }
                inside.paths.push('\0');
            }
        }
        inside
    }

    /// Each entry's path, as rules read it.
    fn paths(&self) -> impl Iterator<Item = &str> {
        self.paths.split_terminator('\0')
    }
}

/// The user's rules.
#[derive(Debug, Clone, Default)]
pub struct RuleSet {
    /// Never run these.
    pub deny: Vec<Rule>,
    /// Always ask for these.
    pub ask: Vec<Rule>,
    /// Run these without asking.
    pub allow: Vec<Rule>,
}

impl RuleSet {
    /// The rules of `kind`.
    pub fn of_kind(&self, kind: RuleKind) -> &[Rule] {
        match kind {
            RuleKind::Deny => &self.deny,
            RuleKind::Ask => &self.ask,
            RuleKind::Allow => &self.allow,
        }
    }
}

/// The state of the rules file.
#[derive(Debug, Clone)]
pub enum Rules {
    /// Rules in force (possibly none).
    Loaded(RuleSet),
    /// The file is broken: every call asks until it is fixed.
    Broken(RulesError),
}

impl Default for Rules {
    fn default() -> Self {
        Rules::Loaded(RuleSet::default())
    }
}

impl Rules {
    /// Parses rules from TOML text; `path` names the file in messages.
    pub fn parse(text: &str, path: &Path) -> Rules {
        let shown = path.display().to_string();
        let invalid = |detail: String| {
            Rules::Broken(RulesError::Invalid {
                path: shown.clone(),
                detail,
            })
        };
        let file: RulesFile = match toml::from_str(text) {
            Ok(file) => file,
            Err(e) => return invalid(e.to_string().trim().to_owned()),
        };
        let convert = |entries: Vec<RuleEntry>, list: &str| -> Result<Vec<Rule>, String> {
            entries
                .into_iter()
                .enumerate()
                .map(|(i, e)| {
                    let tool = tool_as_written(&e.tool);
                    if tool.is_empty() {
                        return Err(format!("rule {} in [[{list}]] has an empty `tool`", i + 1));
                    }
                    Rule::new(tool, e.pattern.as_deref()).map_err(|err| {
                        format!("rule {} in [[{list}]] has a bad `match`: {err}", i + 1)
                    })
                })
                .collect()
        };
        let set = (|| -> Result<RuleSet, String> {
            Ok(RuleSet {
                deny: convert(file.deny, "deny")?,
                ask: convert(file.ask, "ask")?,
                allow: convert(file.allow, "allow")?,
            })
        })();
        match set {
            Ok(set) => Rules::Loaded(set),
            Err(detail) => invalid(detail),
        }
    }

    /// Loads the rules file; a missing file is created from [`RULES_TEMPLATE`] (no rules).
    pub fn load(path: &Path) -> Rules {
        match std::fs::read_to_string(path) {
            Ok(text) => Rules::parse(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if let Some(parent) = path.parent() {
                    let _ = std::fs::create_dir_all(parent);
                }
                let _ = std::fs::write(path, RULES_TEMPLATE);
                Rules::default()
            }
            Err(e) => Rules::Broken(RulesError::Read {
                path: path.display().to_string(),
                detail: e.to_string(),
            }),
        }
    }
}

/// Removes the first rule whose one-line form ([`Rule::line`], as
/// [`super::Policy::rules_summary`] lists it, e.g.
/// `deny write_file "Taxes/**"`) is `line` from the rules file, keeping the file's comments and
/// the other rules as they are. Returns whether a rule was removed.
///
/// # Errors
/// [`RulesError`] when the file cannot be read, parsed or written.
pub fn remove_rule(path: &Path, line: &str) -> Result<bool, RulesError> {
    let shown = path.display().to_string();
    let read_error = |e: std::io::Error| RulesError::Read {
        path: shown.clone(),
        detail: e.to_string(),
    };
    let text = std::fs::read_to_string(path).map_err(read_error)?;
    let mut doc: toml_edit::DocumentMut =
        text.parse()
            .map_err(|e: toml_edit::TomlError| RulesError::Invalid {
                path: shown.clone(),
                detail: e.to_string(),
            })?;
    let mut removed = false;
    for kind in RuleKind::ALL {
        let Some(tables) = doc.get(kind.as_str()).and_then(|i| i.as_array_of_tables()) else {
            continue;
        };
        let position = tables.iter().position(|t| {
            let tool = t.get("tool").and_then(|v| v.as_str()).unwrap_or_default();
            let pattern = t.get("match").and_then(|v| v.as_str());
            line_of(kind, tool_as_written(tool), pattern) == line
        });
        if let Some(index) = position {
            super::editor::remove_table(&mut doc, kind, index);
            removed = true;
            break;
        }
    }
    if removed {
        super::editor::write_atomically(path, &doc.to_string())?;
    }
    Ok(removed)
}
