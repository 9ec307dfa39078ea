//! Our policy applied to another agent's request (DESIGN.md §4's layers, through
//! [`Policy::decide`]): the tools we understand are mapped to the facts our policy reads, by
//! parsed meaning, never by a string prefix.
//!
//! - A shell command (Claude Code `Bash`, Codex `shell` / `exec_command`, Gemini CLI
//!   `run_shell_command`) is our `run_command`: its line as our [`crate::command_line`] parser
//!   reads it (a Codex word list is quoted back into one line), and the paths its words name.
//! - A write (`Write`, `write_file`), an edit (`Edit`, `MultiEdit`, `replace`, `NotebookEdit`,
//!   `apply_patch`) and a read (`Read`, `read_file`, `read_many_files`) are our `write_file`,
//!   `edit_file` and `read_file`, with their path made absolute against the agent's folder
//!   (`~/` is the home folder) and resolved as the kernel would (symlinks, `..`).
//! - A web fetch (`WebFetch`, `web_fetch`) is our `fetch_url` with its address.
//! - Any other tool keeps its own name, with every path its input names.
//!
//! Every path is a *mentioned* path ([`ArgumentKind::MentionedPath`]): inside the person's
//! folder it is relative to it, so the person's deny and ask rules on a place there apply
//! (also by identity on disk: a rule on `Private` holds through a symlink or `..`); outside it
//! is absolute, no folder rule is about it, but the own-files denial still compares it. It is
//! never refused for lying outside the person's folder: another agent works in folders of its
//! own.
//!
//! What comes of the verdict ([`judge`]):
//! - **Hard denials** refuse: Ask First's own files (settings and the API key kept there when
//!   there is no keyring, rules, session logs, the undo store), a command asking the keyring
//!   for Ask First's keys (`secret-tool lookup service "Ask First" …`), the command lines our
//!   parser refuses, and — for anything that changes — the agents' hook settings files, where Ask
//!   First's own hook entry is, and their project settings in any folder, where hooks can be
//!   switched off (another agent could otherwise take itself out of the inbox).
//! - **Deny rules** refuse, **ask rules** ask with their reason on the card.
//! - **A command that works where the rules keep something** (its folder holds a place a deny
//!   or ask rule is about, or lies in one) is asked, with a reason that names those rules,
//!   even when its words name none of it (`grep -r`, `find -delete`): nothing can be hidden
//!   from another agent's command, as it is from ours, so it is never left to the agent.
//! - **Allow rules never allow**, and our session grants are never consulted: our allow rules
//!   presume our own confinement (the folder, bubblewrap, Landlock), which another agent's
//!   tools do not have. The card is shown, and says in one sentence why it still asks.
//! - A call that only reads and that no rule is about is left to the agent's own flow.
//!
//! A refusal goes back as a deny with the reason the agent's model sees, and a
//! `policy_decided` record in the conversation's log; no card.

use super::card::ExternalCard;
use super::words;
use crate::policy::{
    ArgumentKind, CallFacts, Contents, MainArgument, Policy, PolicyDecision, Verdict,
};
use crate::tools::Workspace;
use askfirst_protocol::{ExternalAgent, InboxRequest, PolicyLayer};
use askfirst_shell_line::path::{
    absolute, before_expansion, embedded_paths, glued_value, resolved_on_disk,
    with_variable_spelled_out,
};
use askfirst_shell_line::{every_reading, goes_home, Readings};
use serde_json::Value;
use std::path::{Component, Path, PathBuf};

/// What our policy says about another agent's request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judged {
    /// Refused without a card; `reason` goes to the agent's model.
    Refuse {
        /// Why, in plain words.
        reason: String,
        /// The layer that refused.
        layer: PolicyLayer,
    },
    /// Ask the person on a card.
    Ask {
        /// The rule's reason, when a rule says to ask (shown instead of the default reason).
        rule_reason: Option<String>,
        /// One sentence for the card when an allow rule matched but does not apply here.
        allow_rule_not_applied: Option<String>,
    },
    /// A call that only reads, which no rule is about: left to the agent's own flow.
    LeaveToAgent,
}

/// Our tool that `tool` (another agent's tool name) does the same as, if we know it.
pub fn our_tool(tool: &str) -> Option<&'static str> {
    Some(match tool {
        "Bash" | "run_shell_command" | "shell" | "exec_command" => "run_command",
        "Write" | "write_file" => "write_file",
        "Edit" | "MultiEdit" | "replace" | "NotebookEdit" | "apply_patch" => "edit_file",
        "Read" | "read_file" | "read_many_files" => "read_file",
        "WebFetch" | "web_fetch" => "fetch_url",
        "LS" | "list_directory" => "list_directory",
        _ => return None,
    })
}

/// Whether another agent's tool `tool` searches or lists the folder the agent works in when
/// its input names none (Claude Code's `Grep`, `Glob` and `LS`; Gemini CLI's
/// `search_file_content`, `glob` and `list_directory`).
fn searches_where_it_works(tool: &str) -> bool {
    matches!(
        tool,
        "Grep" | "Glob" | "LS" | "search_file_content" | "glob" | "list_directory"
    )
}

/// The command line of a shell tool's input: a text, or (Codex) a list of words quoted back
/// into one line as a shell would read it.
pub fn command_line(input: &Value) -> Option<String> {
    match input.get("command").or_else(|| input.get("cmd"))? {
        Value::String(line) => Some(line.clone()),
        Value::Array(words) => {
            let words: Option<Vec<&str>> = words.iter().map(Value::as_str).collect();
            Some(askfirst_shell_line::words::quoted_line(words?))
        }
        _ => None,
    }
}

/// The files a patch in Codex's `apply_patch` format names: the paths after `*** Add File:`,
/// `*** Update File:`, `*** Delete File:` and `*** Move to:`, on lines trimmed as Codex trims
/// them.
fn patch_paths(text: &str) -> impl Iterator<Item = &str> {
    // Codex trims each header line before it reads it.
    text.lines().map(str::trim).filter_map(|line| {
        [
            "*** Add File: ",
            "*** Update File: ",
            "*** Delete File: ",
            "*** Move to: ",
        ]
        .iter()
        .find_map(|head| line.strip_prefix(head))
        .map(str::trim)
        .filter(|path| !path.is_empty())
    })
}

/// The folder a shell tool's command runs in: the folder its input gives (Codex's `workdir`,
/// Gemini CLI's `directory` or `dir_path`), made absolute against the agent's folder `cwd`,
/// else `cwd`.
fn command_folder(input: &Value, cwd: &Path, home: Option<&Path>) -> PathBuf {
    ["workdir", "directory", "dir_path"]
        .iter()
        .find_map(|name| input.get(*name).and_then(Value::as_str))
        .filter(|folder| !folder.is_empty())
        .map_or_else(|| cwd.to_path_buf(), |folder| absolute(folder, cwd, home))
}

/// Whether the command `line` runs code its words do not show, so that what it reaches cannot
/// be told from them: a variable or substitution anywhere in it, code given on the command
/// line or in a script (`python3 -c`, `perl -le`, `node x.js`), a shell or interpreter
/// reading its input (`… | sh`), something downloaded, commands it builds while it runs
/// (`eval`), a program Ask First does not know (`awk`, `python3.12`), a container (which
/// may be given any folder), or one that sends data or commands elsewhere (`ssh host cmd`,
/// `curl -d`, `scp`).
fn reach_unknown(line: &str, cwd: &Path, home: Option<&Path>) -> bool {
    use crate::command_line::{effects, Effect, Place};
    // A variable or substitution (`${HOME}`, `$D`, `$(…)`) names what only the shell knows.
    if line.contains(['$', '`']) {
        return true;
    }
    let place = Place {
        root: cwd.to_path_buf(),
        home: home.map(Path::to_path_buf),
        confined: false,
    };
    effects(line, &place).iter().any(|effect| match effect {
        Effect::RunsCode { .. }
        | Effect::RunsScript { .. }
        | Effect::RunsItsInput { .. }
        | Effect::RunsDownloaded { .. }
        | Effect::BuildsCommands { .. }
        | Effect::Unknown { .. }
        | Effect::Containers { .. }
        | Effect::Sends { .. }
        // A build, a project's or a package's scripts, an install (whose packages run their
        // own steps), a program of the folder: code the line does not show.
        | Effect::RunsBuild { .. }
        | Effect::RunsProjectScript { .. }
        | Effect::RunsPackage { .. }
        | Effect::InstallsPackages { .. }
        | Effect::InstallsSoftware { .. }
        | Effect::RunsProgram { .. }
        // More than the card lists: what was left out is not seen.
        | Effect::More { .. } => true,
        // A terminal multiplexer runs the line it is given (or types into a shell) later.
        Effect::Background {
            program: Some(program),
        } => matches!(program.as_str(), "screen" | "tmux" | "daemonize"),
        _ => false,
    })
}

/// The most words of a shell line looked at for paths; a line with more is refused as naming
/// more than can be checked (as for MCP tools).
const MAX_WORDS: usize = 4096;

/// The policy's view of the absolute paths `paths`: inside `workspace` relative to it, outside
/// absolute (see the module's comment). Each is also given as it resolves on disk. With
/// `too_many`, one argument more says that some were left out (every deny rule with a pattern
/// matches it, and the hard denials refuse it).
fn path_arguments(
    paths: &[PathBuf],
    too_many: bool,
    workspace: Option<&Workspace>,
) -> Vec<MainArgument> {
    match workspace {
        Some(ws) => {
            crate::tools::mentioned_paths_in(paths.iter().filter_map(|p| p.to_str()), too_many, ws)
        }
        None => paths
            .iter()
            .map(|p| MainArgument {
                kind: ArgumentKind::MentionedPath,
                text: p.display().to_string(),
                alias: None,
                resolved: Some(resolved_on_disk(p)),
                contents: Contents::No,
            })
            .chain(too_many.then(|| MainArgument {
                kind: ArgumentKind::MentionedPath,
                text: String::new(),
                alias: None,
                resolved: None,
                contents: Contents::No,
            }))
            .collect(),
    }
}

/// Another agent's shell line, read once for every check of one request ([`judge`]).
struct ShellLine {
    /// The line as given.
    text: String,
    /// The folder it runs in ([`command_folder`]).
    folder: PathBuf,
    /// Its simple commands' words, every reading kept ([`Readings::commands`]).
    commands: Vec<Vec<String>>,
    /// The targets of its redirections ([`Readings::redirected`]).
    redirected: Vec<String>,
}

impl ShellLine {
    /// Reads `text`, run in `folder`.
    fn read(text: String, folder: PathBuf) -> Self {
        let Readings {
            commands,
            redirected,
        } = every_reading(&text);
        Self {
            text,
            folder,
            commands,
            redirected,
        }
    }

    /// Whether some reading of it runs `program` (by its name, as a first word).
    fn runs(&self, program: &[&str]) -> bool {
        self.commands
            .iter()
            .any(|words| words.first().is_some_and(|w| program.contains(&w.as_str())))
    }
}

/// The paths the words of a shell `line` name: every word with a `/`, starting with `~`, or
/// naming something that exists in the folder it runs in, made absolute; and whether the line
/// has more than [`MAX_WORDS`] words (then only the first are looked at).
fn words_as_paths(line: &ShellLine, home: Option<&Path>) -> (Vec<PathBuf>, bool) {
    let (commands, redirected, cwd) = (&line.commands, &line.redirected, line.folder.as_path());
    // `cd` alone (or `pushd`) goes to the home folder: what follows runs there, so its words
    // are read from there too.
    let home_by_cd = home.filter(|_| goes_home(commands));
    let mut words = commands.iter().flatten();
    let spelled: Vec<&str> = words
        .by_ref()
        .take(MAX_WORDS)
        .map(String::as_str)
        .chain(redirected.iter().take(MAX_WORDS).map(String::as_str))
        .collect();
    let mut paths = Vec::new();
    let candidates = spelled.into_iter().flat_map(|word| {
        std::iter::once(with_variable_spelled_out(glued_value(word), cwd)).chain(
            embedded_paths(word)
                .filter(move |found| *found != word)
                .map(str::to_owned),
        )
    });
    for word in candidates {
        let word = word.as_str();
        let is_path = |base: &Path| {
            word.contains('/')
                || word.starts_with('~')
                || word.starts_with("$HOME")
                || word.starts_with("${HOME}")
                || (!word.is_empty() && std::fs::symlink_metadata(base.join(word)).is_ok())
        };
        for base in std::iter::once(cwd).chain(home_by_cd) {
            if is_path(base) {
                paths.push(absolute(before_expansion(word), base, home));
            }
        }
    }
    paths.sort();
    paths.dedup();
    (paths, words.next().is_some())
}

/// The facts of `request` as our policy reads them: our tool's name and its main arguments,
/// and for a shell tool its line, read once.
fn facts_of(
    request: &InboxRequest,
    input: &Value,
    workspace: Option<&Workspace>,
    home: Option<&Path>,
) -> (String, Vec<MainArgument>, Option<ShellLine>) {
    let cwd = Path::new(&request.cwd);
    let text = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| input.get(*n).and_then(Value::as_str))
    };
    let ours = our_tool(&request.tool_name);
    let mut arguments = Vec::new();
    let mut shell = None;
    match ours {
        Some("run_command") => {
            if let Some(text) = command_line(input) {
                let line = ShellLine::read(text, command_folder(input, cwd, home));
                let (mut paths, too_many) = words_as_paths(&line, home);
                // The folder it runs in is where its words lead from.
                if line.folder != cwd {
                    paths.push(line.folder.clone());
                }
                if line.runs(&["apply_patch", "applypatch"]) {
                    paths.extend(patch_paths(&line.text).map(|p| absolute(p, &line.folder, home)));
                }
                arguments.push(MainArgument {
                    kind: ArgumentKind::Command,
                    text: line.text.clone(),
                    alias: None,
                    resolved: None,
                    contents: Contents::No,
                });
                arguments.extend(path_arguments(&paths, too_many, workspace));
                shell = Some(line);
            }
        }
        Some("fetch_url") => {
            if let Some(url) = text(&["url"]) {
                let text = url::Url::parse(url).map_or_else(|_| url.to_owned(), |u| u.to_string());
                arguments.push(MainArgument {
                    kind: ArgumentKind::Url,
                    text,
                    alias: None,
                    resolved: None,
                    contents: Contents::No,
                });
            }
        }
        _ => {
            // A write, edit, read or listing: its path fields. Another tool: every text of
            // its input that could name a path (bounded as for MCP tools).
            let mut paths: Vec<PathBuf> = [
                "file_path",
                "path",
                "absolute_path",
                "notebook_path",
                "dir_path",
            ]
            .iter()
            .filter_map(|n| input.get(*n).and_then(Value::as_str))
            .map(|p| absolute(before_expansion(p), cwd, home))
            .collect();
            // Codex's `apply_patch`: the files are named inside the patch.
            if request.tool_name == "apply_patch" {
                let texts = input.as_object().into_iter().flat_map(|fields| {
                    fields.values().flat_map(|value| match value {
                        Value::String(text) => vec![text.as_str()],
                        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
                        _ => Vec::new(),
                    })
                });
                for text in texts {
                    paths.extend(patch_paths(text).map(|p| absolute(p, cwd, home)));
                }
            }
            // A search or listing given no folder works in the agent's own (Claude Code's
            // Grep, Glob; Gemini CLI's search_file_content, glob).
            if paths.is_empty() && searches_where_it_works(&request.tool_name) {
                paths.push(cwd.to_path_buf());
            }
            let mut too_many = false;
            if let Some(list) = input.get("paths").and_then(Value::as_array) {
                too_many = list.len() > MAX_WORDS;
                paths.extend(
                    list.iter()
                        .filter_map(Value::as_str)
                        .take(MAX_WORDS)
                        .map(|p| absolute(before_expansion(p), cwd, home)),
                );
            }
            // Inside the person's folder, the path a write, edit or read is about is a path
            // as our own tools' are (so that an allow rule can be seen to match it, and said
            // on the card not to apply); outside it stays merely mentioned.
            arguments.extend(path_arguments(&paths, too_many, workspace).into_iter().map(
                |mut a| {
                    if ours.is_some() && a.resolved.is_some() && !Path::new(&a.text).is_absolute() {
                        a.kind = ArgumentKind::Path;
                    }
                    a
                },
            ));
            if ours.is_none() {
                if let Some(ws) = workspace {
                    arguments.extend(crate::tools::mentioned_paths(input, ws));
                }
            }
        }
    }
    // A folder that holds the person's folder (the home folder, `/`, a disk it is on) holds
    // everything the rules are about: the person's folder counts as named too.
    if let Some(ws) = workspace {
        let holds_it = arguments.iter().any(|a| {
            a.resolved
                .as_deref()
                .is_some_and(|folder| folder != ws.root() && ws.root().starts_with(folder))
        });
        if holds_it {
            arguments.extend(path_arguments(&[ws.root().to_path_buf()], false, workspace));
        }
    }
    // Another agent's commands and tools run outside our sandbox and may act on everything
    // inside a folder they name (`rm -r`, `mv`, a search): rules about anything inside it
    // are about the request too.
    for argument in &mut arguments {
        if matches!(
            argument.kind,
            ArgumentKind::Path | ArgumentKind::MentionedPath
        ) {
            argument.contents = Contents::Outside;
        }
    }
    // Codex's `apply_patch` edits, and also adds, deletes and moves files (`*** Delete File:`,
    // `*** Move to:`): it keeps its own name, so that a rule about any of those holds for it
    // (`Rule::holds_for_unseen`), not only one about changing files.
    let name = match ours {
        Some(ours) if request.tool_name != "apply_patch" => ours.to_owned(),
        _ => request.tool_name.clone(),
    };
    (name, arguments, shell)
}

/// Whether `path` (as it resolves) is one of the agents' hook settings files under `home`
/// (compared by identity where the file exists, else by its absolute path).
fn is_hook_settings(path: &Path, home: Option<&Path>) -> bool {
    let Some(home) = home else {
        return false;
    };
    ExternalAgent::ALL.into_iter().any(|agent| {
        let file = askfirst_hook::install::AgentSettings::under(agent, home).file;
        match (
            crate::identity::FileId::of(path),
            crate::identity::FileId::of(&file),
        ) {
            (Some(a), Some(b)) => a == b,
            _ => resolved_on_disk(&file) == path || file == path,
        }
    })
}

/// Whether `path` (as it resolves) is an agent's own settings in any folder, where a project
/// can switch hooks off (`"disableAllHooks": true`, an empty `hooks`): a `.claude`, `.gemini`
/// or `.codex` folder itself (a folder moved there would become one), Claude Code's
/// `.claude/settings.json` and `.claude/settings.local.json`, Gemini CLI's
/// `.gemini/settings.json`, or anything in a `.codex` folder (its `hooks.json`,
/// `config.toml`). Names are compared ignoring letter case, as a case-insensitive disk (and
/// macOS) would find them.
fn is_agent_settings_anywhere(path: &Path) -> bool {
    let names: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name.to_string_lossy().to_ascii_lowercase()),
            _ => None,
        })
        .collect();
    let last = |n: usize| names.len().checked_sub(n).map(|at| &names[at..]);
    let is = |tail: &[&str]| {
        last(tail.len()).is_some_and(|found| found.iter().zip(tail).all(|(a, b)| a == b))
    };
    is(&[".claude"])
        || is(&[".gemini"])
        || is(&[".claude", "settings.json"])
        || is(&[".claude", "settings.local.json"])
        || is(&[".gemini", "settings.json"])
        || names.iter().any(|name| name == ".codex")
}

/// Whether a word of a shell line names an agent's settings folder (`.claude`, `.gemini`,
/// `.codex`) in any part of it, also as a pattern that would match one (`.c?aude`, `.cl*`),
/// in any letter case, whether or not it exists yet: `mkdir -p .claude && cd .claude && echo …
/// > settings.local.json` makes the folder the words name before anything is on disk.
fn names_agent_settings(line: &ShellLine) -> bool {
    const NAMES: [&str; 3] = [".claude", ".gemini", ".codex"];
    let matches = |part: &str| {
        let part = part.to_ascii_lowercase();
        if NAMES.contains(&part.as_str()) {
            return true;
        }
        // A pattern for one name (no space or line break: not a patch's or a note's text)
        // that starts with a dot, as the shell's does to match a dot-name (`*` does not).
        part.starts_with('.')
            && part.contains(['*', '?', '['])
            && part.len() <= 64
            && !part.contains(char::is_whitespace)
            && globset::GlobBuilder::new(&part)
                .literal_separator(true)
                .build()
                .is_ok_and(|glob| {
                    let glob = glob.compile_matcher();
                    NAMES.iter().any(|name| glob.is_match(name))
                })
    };
    line.commands
        .iter()
        .flatten()
        .chain(&line.redirected)
        .take(MAX_WORDS)
        .any(|word| glued_value(word).split('/').any(matches))
}

/// Whether a shell line asks the desktop's keyring for Ask First's API keys: a simple command
/// (also inside `sh -c`, after `sudo`, …) run by `secret-tool` or Python's `keyring` that names
/// Ask First's keyring service ([`crate::app::secrets::KEYRING_SERVICE`]) as one word, in any
/// reading of the line. (Any program of the person's may ask the keyring over D-Bus; this
/// refuses the plain ways to.)
fn reads_our_keyring(line: &ShellLine) -> bool {
    line.commands.iter().any(|words| {
        let program = words
            .first()
            .map(|w| w.rsplit('/').next().unwrap_or(w.as_str()));
        matches!(program, Some("secret-tool" | "keyring"))
            && words[1..]
                .iter()
                .any(|w| w.eq_ignore_ascii_case(crate::app::secrets::KEYRING_SERVICE))
    })
}

/// What our policy says about `request`, whose card is `card`: see the module's comment.
/// `workspace` is the person's folder; `home` the person's home folder.
pub fn judge(
    policy: &Policy,
    request: &InboxRequest,
    card: &ExternalCard,
    workspace: Option<&Workspace>,
    home: Option<&Path>,
) -> Judged {
    let input: Value = serde_json::from_str(&request.tool_input_json).unwrap_or(Value::Null);
    let (tool_name, arguments, shell) = facts_of(request, &input, workspace, home);
    let changes = !card.read_only;
    if changes
        && (arguments
            .iter()
            .filter_map(|a| a.resolved.as_deref())
            .any(|p| is_hook_settings(p, home) || is_agent_settings_anywhere(p))
            || shell.as_ref().is_some_and(names_agent_settings))
    {
        return Judged::Refuse {
            reason: words::hook_settings(request.agent.display_name()),
            layer: PolicyLayer::HardDenial,
        };
    }
    if shell.as_ref().is_some_and(reads_our_keyring) {
        return Judged::Refuse {
            reason: words::KEYRING.to_owned(),
            layer: PolicyLayer::HardDenial,
        };
    }
    let facts = CallFacts {
        tool_name: &tool_name,
        read_only: card.read_only,
        risk: card.risk,
        main_arguments: &arguments,
        // No canonical form: our session grants are never used for another agent's request.
        canonical_arguments: None,
        mcp_server: None,
        fingerprint: None,
    };
    let Verdict {
        decision, layer, ..
    } = policy.decide(&facts);
    let judged = match (decision, layer) {
        (PolicyDecision::Deny { .. }, PolicyLayer::SessionPolicy) => Judged::Refuse {
            reason: words::DONT_ASK_NOW.to_owned(),
            layer: PolicyLayer::SessionPolicy,
        },
        (PolicyDecision::Deny { reason, .. }, layer) => Judged::Refuse { reason, layer },
        (PolicyDecision::Ask { reason }, PolicyLayer::UserRule) => Judged::Ask {
            rule_reason: Some(reason),
            allow_rule_not_applied: None,
        },
        (PolicyDecision::Ask { .. }, _) => Judged::Ask {
            rule_reason: None,
            allow_rule_not_applied: None,
        },
        // A read that no deny or ask rule is about is the agent's own business, whatever
        // allowed it here — unless it is a command that could reach Ask First's own files
        // (below).
        (PolicyDecision::Allow, _) if card.read_only && tool_name != "run_command" => {
            Judged::LeaveToAgent
        }
        (PolicyDecision::Allow, _) if card.read_only => Judged::Ask {
            rule_reason: None,
            allow_rule_not_applied: None,
        },
        (PolicyDecision::Allow, PolicyLayer::UserRule) => Judged::Ask {
            rule_reason: None,
            allow_rule_not_applied: Some(words::allow_rule_not_applied(
                request.agent.display_name(),
            )),
        },
        (PolicyDecision::Allow, _) => Judged::Ask {
            rule_reason: None,
            allow_rule_not_applied: None,
        },
    };
    // Another agent's command runs outside our sandbox, so nothing can be hidden from it: one
    // that names no kept place (`grep -r`, `find -delete`) but works where one is could still
    // reach it. It is asked on a card that says so, never left to the agent's own permissions
    // (which may let it run unasked); refused only where its words name the place (above).
    match judged {
        Judged::Ask {
            rule_reason: None,
            allow_rule_not_applied,
        } if tool_name == "run_command" => {
            // A shell tool given no line still runs in its folder.
            let line = shell.unwrap_or_else(|| {
                ShellLine::read(
                    String::new(),
                    command_folder(&input, Path::new(&request.cwd), home),
                )
            });
            let unknown = reach_unknown(&line.text, &line.folder, home);
            let folders: Vec<&Path> = std::iter::once(line.folder.as_path())
                .chain(home.filter(|_| goes_home(&line.commands)))
                .collect();
            let agent = request.agent.display_name();
            if let Some(rules) = reaches_kept(policy, folders.iter().copied(), unknown, workspace) {
                return Judged::Ask {
                    rule_reason: Some(words::command_reaches_kept(agent, &rules)),
                    allow_rule_not_applied,
                };
            }
            // Ask First's own files are kept always, wherever they are: a command whose
            // words do not show all it reaches, or that works where they are (a folder that
            // holds the data folder, or a folder its words name that does), is asked.
            let near_own = folders
                .iter()
                .map(|folder| resolved_on_disk(folder))
                .chain(arguments.iter().filter_map(|a| a.resolved.clone()))
                .any(|folder| folder.is_dir() && policy.holds_own_files(&folder));
            let reason = if unknown {
                Some(words::command_reach_unknown(agent))
            } else if near_own {
                Some(words::command_near_own_files(agent))
            } else {
                None
            };
            match reason {
                Some(reason) => Judged::Ask {
                    rule_reason: Some(reason),
                    allow_rule_not_applied,
                },
                // A command that only reads what its words name, none of it kept.
                None if card.read_only => Judged::LeaveToAgent,
                None => Judged::Ask {
                    rule_reason: None,
                    allow_rule_not_applied,
                },
            }
        }
        other => other,
    }
}

/// The sentences of the rules that keep places from commands ([`Policy::kept_from_command`]),
/// when a command working in `folders` (where it runs, and the home folder after `cd` alone)
/// could reach one of those places:
/// - a kept place lies in one of the folders (by its real path), or a folder lies in one;
/// - its reach is `unknown` (it runs code its words do not show) and some place is kept;
/// - what is kept cannot be listed (too many places, too big a folder, one that cannot be
///   read), and a folder and the person's folder hold one another, or the reach is unknown.
///
/// `None` where no rule keeps anything it could reach, or there is no person's folder for
/// rules to be about.
fn reaches_kept<'a>(
    policy: &Policy,
    folders: impl Iterator<Item = &'a Path>,
    unknown: bool,
    workspace: Option<&Workspace>,
) -> Option<Vec<String>> {
    let workspace = workspace?;
    // Another agent's command is not shut in: a place kept read-only from ours is one it may
    // change, so every kept place counts alike here.
    let rules: Vec<String> = policy
        .kept_from_command(None)
        .into_iter()
        .map(|(_, sentence)| sentence)
        .collect();
    if rules.is_empty() {
        return None;
    }
    let folders: Vec<PathBuf> = folders.map(resolved_on_disk).collect();
    let root = workspace.root();
    let reaches = match policy.hidden_from_command(root, None) {
        Ok(places) => {
            (unknown && !places.is_empty())
                // A rule about every place keeps the whole person's folder.
                || (places.workspace.is_some()
                    && folders
                        .iter()
                        .any(|folder| root.starts_with(folder) || folder.starts_with(root)))
                || places.all().any(|place| {
                    folders
                        .iter()
                        .any(|folder| place.starts_with(folder) || folder.starts_with(place))
                })
        }
        // What is kept cannot be listed (too many places, too big a folder, one that cannot
        // be read): anything in the person's folder may be kept.
        Err(_) => {
            unknown
                || folders
                    .iter()
                    .any(|folder| root.starts_with(folder) || folder.starts_with(root))
        }
    };
    reaches.then_some(rules)
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
