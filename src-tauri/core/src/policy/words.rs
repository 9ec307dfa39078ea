//! The words for people about rules, in one place: a rule as a sentence ("Never touch anything
//! in Private", "Always allow downloading from example.com") and an action as the "what"
//! choice of the settings screen's form ("Writing files").
//!
//! A sentence is made from what the rule *is* (its list, its tool, and its `match` read as the
//! form reads it, [`super::editor::choice_of`]); a rule written by hand that the form cannot
//! express still gets a sentence, quoting its pattern.

use super::RuleKind;
use askfirst_protocol::RuleScope;

/// How a tool is spoken of: "reading" / "read" / "files".
struct ToolWords {
    /// After "Always allow" and "Ask before": "writing".
    gerund: &'static str,
    /// After "Never": "write".
    base: &'static str,
    /// What it acts on, without a place: "files".
    object: String,
    /// Whether the tool's argument is a path in the person's folder.
    on_paths: bool,
}

fn tool_words(tool: &str) -> ToolWords {
    let fixed = |gerund, base, object: &str| ToolWords {
        gerund,
        base,
        object: object.to_owned(),
        on_paths: true,
    };
    match tool {
        "read_file" => fixed("reading", "read", "files"),
        "list_directory" => fixed("listing", "list", "folders"),
        "write_file" => fixed("writing", "write", "files"),
        "edit_file" => fixed("changing", "change", "files"),
        "move_path" => fixed("moving or renaming", "move or rename", "files and folders"),
        "delete_path" => fixed("deleting", "delete", "files and folders"),
        "run_command" => ToolWords {
            on_paths: false,
            ..fixed("running", "run", "commands")
        },
        "fetch_url" => ToolWords {
            on_paths: false,
            ..fixed("downloading", "download", "from the internet")
        },
        other => ToolWords {
            gerund: "using",
            base: "use",
            object: tool_object(other),
            on_paths: false,
        },
    }
}

/// "the tool “echo” of the MCP server “everything”" for `everything__echo`.
fn tool_object(tool: &str) -> String {
    match tool.split_once("__") {
        Some((server, name)) if !server.is_empty() && !name.is_empty() => {
            format!("the tool “{name}” of the MCP server “{server}”")
        }
        _ => format!("the tool “{tool}”"),
    }
}

/// The "what" choice of the form for `tool` ("Writing files", "Anything").
pub fn action_label(tool: &str) -> String {
    match tool {
        "*" => "Anything".to_owned(),
        "read_file" => "Reading files".to_owned(),
        "list_directory" => "Listing what is in folders".to_owned(),
        "write_file" => "Writing files (new or replaced)".to_owned(),
        "edit_file" => "Changing parts of files".to_owned(),
        "move_path" => "Moving or renaming files and folders".to_owned(),
        "delete_path" => "Deleting files and folders".to_owned(),
        "run_command" => "Running commands".to_owned(),
        "fetch_url" => "Downloading from the internet".to_owned(),
        other => {
            let object = tool_object(other);
            let mut chars = object.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => object,
            }
        }
    }
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
/// touch anything in Private"). `scope` is the rule as the form reads it, when it can.
pub fn sentence(
    kind: RuleKind,
    tool: &str,
    pattern: Option<&str>,
    scope: Option<&RuleScope>,
) -> String {
    let target = target(scope, pattern);
    if tool == "*" {
        return anything(kind, &target);
    }
    let words = tool_words(tool);
    let object = &words.object;
    let phrase = match (&target, tool) {
        (Target::All, _) => object.clone(),
        (Target::Folder(folder), "run_command") => format!("commands that touch {folder}"),
        (Target::Folder(folder), _) if words.on_paths => format!("{object} in {folder}"),
        (Target::Folder(folder), _) => format!("{object} on anything in {folder}"),
        (Target::Path(path), _) if words.on_paths => (*path).to_owned(),
        (Target::Command { words, and_more }, _) => format!(
            "the command “{words}”{}",
            if *and_more {
                " (with anything after it)"
            } else {
                ""
            }
        ),
        (Target::Site { host, sub_domains }, _) => format!(
            "from {host}{}",
            if *sub_domains {
                " and its sub-domains"
            } else {
                ""
            }
        ),
        (Target::Path(pattern) | Target::Matching(pattern), "run_command") => {
            format!("commands matching “{pattern}”")
        }
        (Target::Path(pattern) | Target::Matching(pattern), "fetch_url") => {
            format!("from addresses matching “{pattern}”")
        }
        (Target::Path(pattern) | Target::Matching(pattern), _) if words.on_paths => {
            format!("{object} matching “{pattern}”")
        }
        (Target::Path(pattern) | Target::Matching(pattern), _) => {
            format!("{object} on anything matching “{pattern}”")
        }
    };
    match kind {
        RuleKind::Deny => format!("Never {} {phrase}", words.base),
        RuleKind::Ask => format!("Ask before {} {phrase}", words.gerund),
        RuleKind::Allow => format!("Always allow {} {phrase}", words.gerund),
    }
}

/// A rule for every tool (`*`).
fn anything(kind: RuleKind, target: &Target<'_>) -> String {
    let place = match target {
        Target::All => None,
        Target::Folder(folder) => Some(format!("anything in {folder}")),
        Target::Path(path) => Some(format!("anything on {path}")),
        Target::Command { words, .. } => Some(format!("anything matching “{words}”")),
        Target::Site { host, .. } => Some(format!("anything matching “{host}”")),
        Target::Matching(pattern) => Some(format!("anything matching “{pattern}”")),
    };
    match (kind, place) {
        (RuleKind::Deny, None) => "Never do anything (every action is refused)".to_owned(),
        (RuleKind::Ask, None) => "Ask before anything".to_owned(),
        (RuleKind::Allow, None) => "Always allow everything, without asking".to_owned(),
        (RuleKind::Deny, Some(place)) => {
            format!(
                "Never touch {}",
                place.strip_prefix("anything on ").unwrap_or(&place)
            )
        }
        (RuleKind::Ask, Some(place)) => format!("Ask before {place}"),
        (RuleKind::Allow, Some(place)) => format!("Always allow {place}"),
    }
}
