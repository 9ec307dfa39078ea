//! Whether a tool call runs, asks first, or is refused: the policy layers of DESIGN.md §4,
//! first match wins, and every verdict names the layer that made it.
//!
//! 1. **Hard denials** ([`HARD_DENIALS`]), which no rule or grant can override.
//! 2. **Session policy** `never`: a call that would ask is denied instead (applied to the final
//!    "ask" of the layers below, so what rules, grants or defaults allow still runs).
//! 3. **User rules** in `rules.toml` in the data folder: deny, then ask, then allow. A rule names a
//!    tool (or `*`) and optionally a glob on the call's main argument (a path relative to the
//!    workspace, a command line, a URL). A deny or ask rule matches when any main argument
//!    matches; an allow rule only when every main argument does. A rules file that cannot be
//!    read makes every call ask — never allow — until it is fixed.
//! 4. **Session grants** from "Allow for this session": exact tool and canonical arguments.
//! 5. **Tool defaults**: read-only tools run; everything else asks.

use crate::command_line::CommandPattern;
use crate::url_pattern::{Destination, UrlPattern};
use askfirst_protocol::{Grant, PolicyLayer, Risk, SessionPolicy};
use globset::{GlobBuilder, GlobMatcher};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The built-in hard denials, as documented to users.
pub const HARD_DENIALS: &[&str] = &[
    "A path outside the workspace folder (absolute, `..`, or a symlink that leads out) is \
     never used.",
    "Ask First's own files (settings, rules, session logs) are never read or changed by the \
     agent, however they are reached (another spelling, a second name, a command, an MCP \
     server).",
    "Commands that wipe or format disks, stop the computer or every program, or delete a \
     whole folder outside the workspace (`rm -rf /home/*`, `mkfs`, `dd` onto a device, \
     `shutdown`, `reboot`, `kill -9 -1`, a fork bomb) are never run, also when hidden after \
     `;`, `&&`, a pipe, `$(…)`, `sudo`, `xargs`, `find -exec` or inside `sh -c`.",
];

/// The reason given when a call would reach Ask First's own files.
const OWN_FILES: &str = "The agent may not read or change Ask First's own files (settings, rules, \
                         session logs).";

/// The reason given when a call names more texts than are checked for paths.
const TOO_MANY_TEXTS: &str = "This action names more texts (or longer ones) than Ask First can \
                              check for paths it may not touch, so it is not done. Ask for it \
                              in smaller parts.";

/// What a tool's main argument is, which decides how globs match it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgumentKind {
    /// A path: matched relative to the workspace, `*` stays within one folder, `**` crosses.
    Path,
    /// A text in the arguments of a tool Ask First does not know (an MCP tool) that names a
    /// path: judged by deny and ask rules and by the own-files denial (refusing is safe), but
    /// never the reason an allow rule applies, and not refused for lying outside the workspace
    /// (the server may have folders of its own).
    MentionedPath,
    /// A command line: `*` matches anything.
    Command,
    /// A URL: `*` matches anything.
    Url,
}

/// One main argument of a call, as the policy sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MainArgument {
    /// What kind of argument it is.
    pub kind: ArgumentKind,
    /// For paths: relative to the workspace with `/` separators (`.` for the workspace), each
    /// existing part spelled as it is on disk ([`crate::identity::real_spelling`]); otherwise
    /// the text as given.
    pub text: String,
    /// For paths: the spelling the model used, where it differs from `text` (other case on a
    /// case-insensitive file system). Deny and ask rules match either; allow rules need both.
    pub alias: Option<String>,
    /// For paths: where it resolves on disk.
    pub resolved: Option<PathBuf>,
}

/// The facts about one call that the policy decides on.
#[derive(Debug, Clone)]
pub struct CallFacts<'a> {
    /// The tool.
    pub tool_name: &'a str,
    /// Whether the tool only reads.
    pub read_only: bool,
    /// The call's risk.
    pub risk: Risk,
    /// Its main arguments.
    pub main_arguments: &'a [MainArgument],
    /// Its canonical arguments, if they have a canonical form.
    pub canonical_arguments: Option<&'a str>,
    /// The MCP server that provides the tool, when it is not built in.
    pub mcp_server: Option<&'a str>,
    /// What the call's target looked like when it was described
    /// ([`crate::tools::CallDescription::fingerprint`]): a grant covers only this state.
    pub fingerprint: Option<&'a str>,
}

/// The policy's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyDecision {
    /// Run without asking.
    Allow,
    /// Ask the user first; `reason` is shown on the card.
    Ask {
        /// Why the user is asked, in plain words.
        reason: String,
    },
    /// Refuse without asking; `reason` is told to the model and shown.
    Deny {
        /// Why it is refused.
        reason: String,
    },
}

/// A decision and the layer that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// What to do.
    pub decision: PolicyDecision,
    /// Who decided.
    pub layer: PolicyLayer,
    /// For allows: why, in plain words (for the audit log).
    pub note: String,
}

impl Verdict {
    fn allow(layer: PolicyLayer, note: impl Into<String>) -> Self {
        Self {
            decision: PolicyDecision::Allow,
            layer,
            note: note.into(),
        }
    }
    fn ask(layer: PolicyLayer, reason: impl Into<String>) -> Self {
        let reason = reason.into();
        Self {
            decision: PolicyDecision::Ask {
                reason: reason.clone(),
            },
            layer,
            note: reason,
        }
    }
    fn deny(layer: PolicyLayer, reason: impl Into<String>) -> Self {
        let reason = reason.into();
        Self {
            decision: PolicyDecision::Deny {
                reason: reason.clone(),
            },
            layer,
            note: reason,
        }
    }
}

/// The states of a grant's target that the grant covers: the one its card showed, and the one
/// the granted action itself last left (a created file, now holding what was written).
#[derive(Debug, Clone, PartialEq, Eq)]
struct GrantedStates {
    shown: Option<String>,
    left: Option<Option<String>>,
}

impl GrantedStates {
    fn covers(&self, now: Option<&str>) -> bool {
        self.shown.as_deref() == now || self.left.as_ref().is_some_and(|l| l.as_deref() == now)
    }
}

/// Errors of the rules file. The message names the file and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
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
    literal_folder: Option<PathBuf>,
}

impl Rule {
    /// A rule for `tool`, optionally with a glob `pattern`.
    ///
    /// # Errors
    /// The glob's error message when `pattern` is not a valid glob.
    pub fn new(tool: &str, pattern: Option<&str>) -> Result<Self, String> {
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
        self.matches_path_spelled(text) || {
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
    fn about_everything(&self) -> bool {
        self.pattern
            .as_deref()
            .is_none_or(|p| matches!(p.trim(), "*" | "**"))
    }

    /// Deny and ask rules on a command: any simple command of the line matches (also inside
    /// `sh -c`, after `sudo`, …). On a web address: its scheme, host and path match as parts.
    fn matches_text_any(&self, kind: ArgumentKind, text: &str) -> bool {
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
    fn matches_argument_any(&self, argument: &MainArgument) -> bool {
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

    /// For a rule whose pattern is a plain folder or file (`Taxes`, `Taxes/**`, no glob
    /// characters before): whether the argument's file is that folder or file or lies inside
    /// it, compared by identity on disk.
    fn inside_named_folder(&self, argument: &MainArgument) -> bool {
        let (Some(literal), Some(resolved)) = (&self.literal_folder, &argument.resolved) else {
            return false;
        };
        if !matches!(
            argument.kind,
            ArgumentKind::Path | ArgumentKind::MentionedPath
        ) || Path::new(&argument.text).is_absolute()
        {
            return false;
        }
        // The workspace folder: `resolved` less as many parts as `text` has.
        let depth = if argument.text == "." {
            0
        } else {
            argument.text.split('/').count()
        };
        let Some(root) = resolved.ancestors().nth(depth) else {
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

    /// Deny and ask rules: any main argument matches (or the rule has no pattern).
    fn matches_any(&self, facts: &CallFacts<'_>) -> bool {
        self.names(facts.tool_name)
            && (self.pattern.is_none()
                || facts
                    .main_arguments
                    .iter()
                    .any(|a| self.matches_argument_any(a)))
    }

    /// Allow rules: every main argument matches, and there is at least one when the rule has
    /// a pattern.
    ///
    /// Paths merely mentioned (in a command's words, an MCP tool's texts) are not what an
    /// allow rule is about: they can only make deny and ask rules match.
    fn matches_all(&self, facts: &CallFacts<'_>) -> bool {
        let mut judged = facts
            .main_arguments
            .iter()
            .filter(|a| a.kind != ArgumentKind::MentionedPath)
            .peekable();
        self.names(facts.tool_name)
            && (self.pattern.is_none()
                || (judged.peek().is_some() && judged.all(|a| self.matches_argument_all(a))))
    }

    fn describe(&self) -> String {
        match &self.pattern {
            Some(p) => format!("{} \"{}\"", self.tool, p),
            None => self.tool.clone(),
        }
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

/// The text written to a new rules file, explaining how to write rules.
pub const RULES_TEMPLATE: &str = r##"# Ask First rules: what the agent may do without asking, what it must always ask
# about, and what it may never do. Checked in this order: deny, then ask, then allow;
# the first rule that matches decides. Without a matching rule, reading runs and
# everything else asks.
#
# `tool` is a tool name (or "*" for every tool). `match` is optional:
# - for files, a path relative to your workspace folder ("*" stays in one folder, "**"
#   goes into sub-folders). A rule on a folder holds however the folder is reached
#   (another spelling of its name, a command or an MCP tool that names it).
# - for run_command, a command: words, each of which may hold "*" ("git status*" is
#   `git status` with any further words). An allow rule allows a command line only when
#   every command on it matches and it uses no other shell features (no `;` with another
#   command, no `>`, no `$(…)`); a deny or ask rule matches any command on the line,
#   also inside `sh -c`, after `sudo` or `xargs`.
# - for fetch_url, a web address: scheme, host and path are matched each on its own
#   ("http://*.example.com/*" is any page of example.com and its sub-domains, never
#   another host). Addresses on this computer or your local network always ask, unless
#   a rule names that address exactly ("http://localhost:3000/*").
#
# Examples (remove the "#" to use one):
#
# [[deny]]
# tool = "write_file"
# match = "Taxes/**"
#
# [[ask]]
# tool = "list_directory"
# match = "Private/**"
#
# [[allow]]
# tool = "write_file"
# match = "Drafts/*.txt"
#
# [[allow]]
# tool = "run_command"
# match = "git status*"
"##;

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
                    if e.tool.trim().is_empty() {
                        return Err(format!("rule {} in [[{list}]] has an empty `tool`", i + 1));
                    }
                    Rule::new(e.tool.trim(), e.pattern.as_deref()).map_err(|err| {
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

/// Removes the first rule whose one-line form (as [`Policy::rules_summary`] writes it, e.g.
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
    for kind in ["deny", "ask", "allow"] {
        if removed {
            break;
        }
        let Some(tables) = doc.get_mut(kind).and_then(|i| i.as_array_of_tables_mut()) else {
            continue;
        };
        let position = tables.iter().position(|t| {
            let tool = t.get("tool").and_then(|v| v.as_str()).unwrap_or_default();
            let pattern = t.get("match").and_then(|v| v.as_str());
            let described = match pattern {
                Some(p) => format!("{kind} {tool} \"{p}\""),
                None => format!("{kind} {tool}"),
            };
            described == line
        });
        if let Some(index) = position {
            tables.remove(index);
            removed = true;
        }
    }
    if removed {
        let tmp = path.with_extension("toml.tmp");
        std::fs::write(&tmp, doc.to_string())
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(read_error)?;
    }
    Ok(removed)
}

/// The policy in force for a session: rules, grants and the session policy. Shared by the
/// session's runs; all methods take `&self`.
#[derive(Debug)]
pub struct Policy {
    state: Mutex<PolicyState>,
    /// Ask First's own folder (settings, rules, logs), which the agent may never change, and
    /// the workspace inside it (if any), which it may.
    protected: Option<(PathBuf, PathBuf)>,
    /// The data folder's identity when the policy was made: still Ask First's own folder if
    /// something renamed it since (its path then leads elsewhere, or nowhere).
    data_id_at_start: Option<crate::identity::FileId>,
}

#[derive(Debug)]
struct PolicyState {
    session: SessionPolicy,
    rules: Rules,
    /// Each grant with the states of its target it covers (see [`CallFacts::fingerprint`]).
    grants: BTreeMap<(String, String), (Grant, GrantedStates)>,
}

impl Policy {
    /// A policy with `rules`, protecting `data_dir` (except the part that is the workspace,
    /// when the workspace lies inside it).
    pub fn new(rules: Rules, data_dir: Option<(&Path, &Path)>) -> Self {
        let protected = data_dir.map(|(data, workspace)| {
            let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
            (canon(data), canon(workspace))
        });
        let data_id_at_start = protected
            .as_ref()
            .and_then(|(data, _)| crate::identity::FileId::of(data));
        Self {
            data_id_at_start,
            state: Mutex::new(PolicyState {
                session: SessionPolicy::Ask,
                rules,
                grants: BTreeMap::new(),
            }),
            protected,
        }
    }

    fn lock(&self) -> MutexGuard<'_, PolicyState> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Replaces the rules (after the file changed).
    pub fn set_rules(&self, rules: Rules) {
        self.lock().rules = rules;
    }

    /// The rules in force, one line each (`deny write_file "Taxes/**"`), deny first.
    pub fn rules_summary(&self) -> Vec<String> {
        match &self.lock().rules {
            Rules::Broken(_) => Vec::new(),
            Rules::Loaded(set) => [
                ("deny", &set.deny),
                ("ask", &set.ask),
                ("allow", &set.allow),
            ]
            .into_iter()
            .flat_map(|(kind, rules)| {
                rules
                    .iter()
                    .map(move |r| format!("{kind} {}", r.describe()))
            })
            .collect(),
        }
    }

    /// The folders and files inside `workspace` that a deny rule for every tool (`*`) or for
    /// `run_command` names plainly (`Private/**`, `Taxes`), as they are on disk: a command is
    /// shut in without them (the kernel's line; a command whose words name them is refused
    /// before that). Rules with glob characters before the end cannot be listed and are not.
    pub fn denied_for_commands(&self, workspace: &Path) -> Vec<PathBuf> {
        let state = self.lock();
        let Rules::Loaded(set) = &state.rules else {
            return Vec::new();
        };
        set.deny
            .iter()
            .filter(|rule| rule.tool == "*" || rule.tool == "run_command")
            .filter_map(|rule| rule.literal_folder.as_ref())
            .filter_map(|literal| std::fs::canonicalize(workspace.join(literal)).ok())
            .filter(|real| real.starts_with(workspace) && real != workspace)
            .collect()
    }

    /// The rules file's problem, if it has one.
    pub fn rules_error(&self) -> Option<RulesError> {
        match &self.lock().rules {
            Rules::Broken(e) => Some(e.clone()),
            Rules::Loaded(_) => None,
        }
    }

    /// The session policy.
    pub fn session_policy(&self) -> SessionPolicy {
        self.lock().session
    }

    /// Sets the session policy; it applies from the next decision.
    pub fn set_session_policy(&self, policy: SessionPolicy) {
        self.lock().session = policy;
    }

    /// Adds a grant for this exact tool and canonical arguments, and for its target as it was
    /// when the card showed it (`fingerprint`, from
    /// [`crate::tools::CallDescription::fingerprint`]): once the target changed (a folder
    /// holds more files, a file has other content) the same call asks again. Returns it.
    pub fn grant(
        &self,
        tool_name: &str,
        canonical_arguments: &str,
        fingerprint: Option<&str>,
        summary: &str,
    ) -> Grant {
        let grant = Grant {
            tool_name: tool_name.to_owned(),
            canonical_arguments: canonical_arguments.to_owned(),
            summary: summary.to_owned(),
            granted_at: crate::unix_millis_now(),
        };
        self.lock().grants.insert(
            (tool_name.to_owned(), canonical_arguments.to_owned()),
            (
                grant.clone(),
                GrantedStates {
                    shown: fingerprint.map(str::to_owned),
                    left: None,
                },
            ),
        );
        grant
    }

    /// After a call with this exact tool and canonical arguments ran: a grant for it (if there
    /// is one) now also covers the state the call left (`fingerprint`), besides the one its
    /// card showed, so repeating it runs without asking while anything else that changed its
    /// target asks.
    pub fn grant_state_now(
        &self,
        tool_name: &str,
        canonical_arguments: &str,
        fingerprint: Option<&str>,
    ) {
        if let Some((_, states)) = self
            .lock()
            .grants
            .get_mut(&(tool_name.to_owned(), canonical_arguments.to_owned()))
        {
            states.left = Some(fingerprint.map(str::to_owned));
        }
    }

    /// Removes a grant; returns whether there was one.
    pub fn revoke(&self, tool_name: &str, canonical_arguments: &str) -> bool {
        self.lock()
            .grants
            .remove(&(tool_name.to_owned(), canonical_arguments.to_owned()))
            .is_some()
    }

    /// Removes every grant (a new or reopened session starts without any).
    pub fn clear_grants(&self) {
        self.lock().grants.clear();
    }

    /// The grants in force.
    pub fn grants(&self) -> Vec<Grant> {
        self.lock()
            .grants
            .values()
            .map(|(grant, _)| grant.clone())
            .collect()
    }

    fn hard_denial(&self, facts: &CallFacts<'_>) -> Option<String> {
        for argument in facts.main_arguments {
            match argument.kind {
                ArgumentKind::Path | ArgumentKind::MentionedPath => {
                    let Some(resolved) = &argument.resolved else {
                        if argument.kind == ArgumentKind::MentionedPath {
                            if argument.text.is_empty() {
                                return Some(TOO_MANY_TEXTS.to_owned());
                            }
                            continue;
                        }
                        return Some(format!(
                            "{} is outside the workspace folder.",
                            argument.text
                        ));
                    };
                    let changes = !facts.read_only;
                    if self.own_files(resolved, changes) {
                        return Some(OWN_FILES.to_owned());
                    }
                }
                ArgumentKind::Command => {
                    if let Some(reason) = crate::command_line::hard_denial(&argument.text) {
                        return Some(reason.to_owned());
                    }
                }
                ArgumentKind::Url => {}
            }
        }
        None
    }

    /// Whether `resolved` is one of Ask First's own files or folders, compared by identity on
    /// disk: inside the data folder (however it is spelled or reached: other case, a bind
    /// mount, a second name of one of its files), or — when `changes` — a folder that holds
    /// it (moving or deleting that would move or delete it). The demo workspace inside the
    /// data folder is the agent's to use.
    fn own_files(&self, resolved: &Path, changes: bool) -> bool {
        use crate::identity::{contains_identity, first_ancestor_among, is_within, FileId};

        let Some((data, workspace)) = &self.protected else {
            return false;
        };
        // The data folder as its path leads now, and as it was at start (if it was moved).
        let data_ids: Vec<FileId> = FileId::of(data)
            .into_iter()
            .chain(self.data_id_at_start)
            .collect();
        let Some(&data_id) = data_ids.first() else {
            return false;
        };
        let workspace_id = FileId::of(workspace);
        // The workspace inside the data folder (the demo) is the agent's; the workspace as a
        // whole when it *is* the data folder is not.
        let own_workspace =
            workspace_id.filter(|id| !data_ids.contains(id) && is_within(workspace, data_id));
        let wanted: Vec<FileId> = own_workspace
            .iter()
            .copied()
            .chain(data_ids.clone())
            .collect();
        if first_ancestor_among(resolved, &wanted).is_some_and(|id| data_ids.contains(&id)) {
            return true;
        }
        if changes {
            if let Some(target) = FileId::of_link(resolved).or_else(|| FileId::of(resolved)) {
                if is_within(data, target) {
                    return true;
                }
            }
        }
        // A second name (hard link) of a file of the data folder, anywhere.
        if crate::identity::has_other_names(resolved) {
            if let Some(file) = FileId::of(resolved) {
                return contains_identity(data, file, own_workspace, 3, 50_000);
            }
        }
        false
    }

    /// Decides about one call.
    pub fn decide(&self, facts: &CallFacts<'_>) -> Verdict {
        if let Some(reason) = self.hard_denial(facts) {
            return Verdict::deny(PolicyLayer::HardDenial, reason);
        }
        let state = self.lock();
        let verdict = Self::below_session(&state, facts);
        match (&verdict.decision, state.session) {
            (PolicyDecision::Ask { .. }, SessionPolicy::Never) => Verdict::deny(
                PolicyLayer::SessionPolicy,
                "You chose not to be asked in this session, so actions that need your OK are \
                 not done.",
            ),
            (_, SessionPolicy::Ask | SessionPolicy::Never) => verdict,
        }
    }

    fn below_session(state: &PolicyState, facts: &CallFacts<'_>) -> Verdict {
        match &state.rules {
            Rules::Broken(error) => {
                return Verdict::ask(
                    PolicyLayer::UserRule,
                    format!("{error} Until it is fixed, Ask First asks before every action."),
                )
            }
            Rules::Loaded(rules) => {
                if let Some(rule) = rules.deny.iter().find(|r| r.matches_any(facts)) {
                    return Verdict::deny(
                        PolicyLayer::UserRule,
                        format!("Your rule \"deny {}\" forbids this.", rule.describe()),
                    );
                }
                if let Some(rule) = rules.ask.iter().find(|r| r.matches_any(facts)) {
                    return Verdict::ask(
                        PolicyLayer::UserRule,
                        format!(
                            "Your rule \"ask {}\" says to ask you first.",
                            rule.describe()
                        ),
                    );
                }
                if let Some(rule) = rules.allow.iter().find(|r| r.matches_all(facts)) {
                    return Verdict::allow(
                        PolicyLayer::UserRule,
                        format!("Allowed by your rule \"allow {}\".", rule.describe()),
                    );
                }
            }
        }
        if let Some(canonical) = facts.canonical_arguments {
            let granted = state
                .grants
                .get(&(facts.tool_name.to_owned(), canonical.to_owned()))
                .is_some_and(|(_, states)| states.covers(facts.fingerprint));
            if granted {
                return Verdict::allow(
                    PolicyLayer::SessionGrant,
                    "Allowed for this session: you allowed exactly this action earlier.",
                );
            }
        }
        if let Some(server) = facts.mcp_server {
            return match (facts.read_only, facts.risk) {
                (true, Risk::Low) => Verdict::allow(
                    PolicyLayer::ToolDefault,
                    format!("Only reads, says the MCP server \"{server}\", which you trust."),
                ),
                _ => Verdict::ask(
                    PolicyLayer::ToolDefault,
                    format!(
                        "This uses the MCP server \"{server}\", which could change things or \
                         reach the internet, so it needs your OK."
                    ),
                ),
            };
        }
        match (facts.read_only, facts.risk) {
            (true, Risk::Low) => Verdict::allow(PolicyLayer::ToolDefault, "Only reads."),
            (true, Risk::Medium | Risk::High) => Verdict::ask(
                PolicyLayer::ToolDefault,
                "This only reads, but it is marked risky, so it needs your OK.",
            ),
            (false, Risk::Low | Risk::Medium) => Verdict::ask(
                PolicyLayer::ToolDefault,
                "This changes files in your workspace folder, so it needs your OK.",
            ),
            (false, Risk::High) => Verdict::ask(
                PolicyLayer::ToolDefault,
                "This is a high-risk action, so it needs your OK.",
            ),
        }
    }
}
