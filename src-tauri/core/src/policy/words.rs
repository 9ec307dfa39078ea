//! The words for people about rules, in one place: a rule as a sentence ("Never touch anything
//! in Private", "Always allow downloading from example.com") and an action as the "what"
//! choice of the settings screen's form ("Writing files").
//!
//! A sentence is made from what the rule *is* (its list, its tool, and its `match` read as the
//! form reads it, [`super::editor::choice_of`]); a rule written by hand that the form cannot
//! express still gets a sentence, quoting its pattern. Each language writes every sentence
//! whole (the `rule-*` messages of `locales/*/app.ftl`, one per tool family, chosen by the
//! rule's kind and shape): grammar pieces glued together could not be translated. Names (a
//! folder, a command, a site, an MCP tool) are parameters and are never translated.

use super::RuleKind;
use crate::i18n::{tr, Arg};
use askfirst_protocol::RuleScope;

/// The catalogue message of a rule about `tool` (one per tool family: each language writes
/// the whole sentence for every kind and shape) and the parameters naming the tool.
fn rule_message(tool: &str) -> (&'static str, Vec<(&'static str, Arg)>) {
    match tool {
        "*" => ("rule-anything", vec![]),
        "read_file" => ("rule-read_file", vec![]),
        "list_directory" => ("rule-list_directory", vec![]),
        "write_file" => ("rule-write_file", vec![]),
        "edit_file" => ("rule-edit_file", vec![]),
        "move_path" => ("rule-move_path", vec![]),
        "delete_path" => ("rule-delete_path", vec![]),
        "run_command" => ("rule-run_command", vec![]),
        "fetch_url" => ("rule-fetch_url", vec![]),
        other => match other.split_once("__") {
            Some((server, name)) if !server.is_empty() && !name.is_empty() => (
                "rule-mcp_tool",
                vec![("tool", Arg::from(name)), ("server", Arg::from(server))],
            ),
            _ => ("rule-other_tool", vec![("tool", Arg::from(other))]),
        },
    }
}

/// The shapes a tool's sentences have besides `all` (see the comment above the `rule-*`
/// messages in `locales/en/app.ftl`).
fn on_paths(tool: &str) -> bool {
    matches!(
        tool,
        "*" | "read_file"
            | "list_directory"
            | "write_file"
            | "edit_file"
            | "move_path"
            | "delete_path"
    )
}

/// The "what" choice of the form for `tool` ("Writing files", "Anything"), in the current
/// language.
pub fn action_label(tool: &str) -> String {
    let (key, args) = match tool {
        "*" => ("rule-action-anything", vec![]),
        "read_file" => ("rule-action-read_file", vec![]),
        "list_directory" => ("rule-action-list_directory", vec![]),
        "write_file" => ("rule-action-write_file", vec![]),
        "edit_file" => ("rule-action-edit_file", vec![]),
        "move_path" => ("rule-action-move_path", vec![]),
        "delete_path" => ("rule-action-delete_path", vec![]),
        "run_command" => ("rule-action-run_command", vec![]),
        "fetch_url" => ("rule-action-fetch_url", vec![]),
        other => match rule_message(other) {
            ("rule-mcp_tool", args) => ("rule-action-mcp_tool", args),
            (_, args) => ("rule-action-other_tool", args),
        },
    };
    tr(key, &args)
}

/// What a rule is about, as the sentence says it.
enum Target<'a> {
    /// Every call.
    All,
    /// A folder of the form (`Private/**`).
    Folder(&'a str),
    /// A plain path without glob characters (`hello.txt`, `Taxes`).
    Path(&'a str),
    /// The form's command words.
    Command { words: &'a str, and_more: bool },
    /// The form's site.
    Site { host: &'a str, sub_domains: bool },
    /// Any other pattern, quoted as written.
    Matching(&'a str),
}

fn target<'a>(scope: Option<&'a RuleScope>, pattern: Option<&'a str>) -> Target<'a> {
    match (scope, pattern) {
        (Some(RuleScope::Everywhere), _) | (None, None) => Target::All,
        (Some(RuleScope::Folder { folder }), _) => Target::Folder(folder),
        (Some(RuleScope::Command { words, and_more }), _) => Target::Command {
            words,
            and_more: *and_more,
        },
        (Some(RuleScope::Site { host, sub_domains }), _) => Target::Site {
            host,
            sub_domains: *sub_domains,
        },
        (None, Some(p)) if matches!(p.trim(), "*" | "**") => Target::All,
        (None, Some(p))
            if !p.is_empty()
                && !p.starts_with('/')
                && !p.contains(['*', '?', '[', ']', '{', '}', '\\', ':', ' '])
                && !p.split('/').any(|part| matches!(part, "" | "." | "..")) =>
        {
            Target::Path(p)
        }
        (None, Some(p)) => Target::Matching(p),
    }
}

/// The rule of `kind` about `tool` with `pattern` in a sentence, without a full stop ("Never
/// touch anything in Private"), in the current language. `scope` is the rule as the form reads
/// it, when it can.
pub fn sentence(
    kind: RuleKind,
    tool: &str,
    pattern: Option<&str>,
    scope: Option<&RuleScope>,
) -> String {
    let (key, mut args) = rule_message(tool);
    let kind = match kind {
        RuleKind::Deny => "deny",
        RuleKind::Ask => "ask",
        RuleKind::Allow => "allow",
    };
    args.push(("kind", Arg::from(kind)));
    let mut with = |shape: &str, name: &'static str, value: &str| {
        args.push(("shape", Arg::from(shape)));
        args.push((name, Arg::from(value)));
    };
    // Each family has its own shapes; a target the family has no words for (a site on a file
    // tool, which the form never writes) is quoted as a pattern.
    match (target(scope, pattern), tool) {
        (Target::All, _) => with("all", "pattern", ""),
        (Target::Folder(folder), "fetch_url") => {
            with("matching", "pattern", &format!("{folder}/**"))
        }
        (Target::Folder(folder), _) => with("folder", "folder", folder),
        (Target::Path(path), _) if on_paths(tool) => with("path", "path", path),
        (Target::Command { words, and_more }, "run_command") => {
            with(
                if and_more { "command_more" } else { "command" },
                "words",
                words,
            );
        }
        (Target::Site { host, sub_domains }, "fetch_url") => {
            with(if sub_domains { "site_sub" } else { "site" }, "host", host);
        }
        (Target::Command { words: text, .. } | Target::Site { host: text, .. }, _)
        | (Target::Path(text) | Target::Matching(text), _) => with("matching", "pattern", text),
    }
    tr(key, &args)
}
