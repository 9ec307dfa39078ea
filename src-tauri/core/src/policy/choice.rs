//! The "Add a rule" form's choices and the rules file's language, one the other: a
//! [`RuleChoice`] checked against the actions on offer and the person's folder
//! ([`checked_rule`]) becomes a `[[deny]]`/`[[ask]]`/`[[allow]]` entry with `tool` and `match`,
//! and an entry reads back as choices where the form would have written exactly it
//! ([`choice_of`]). No second rule language: the form is only another way to write a rule.

use super::editor::RuleEditError;
use super::RuleKind;
use crate::command_line::CommandPattern;
use crate::url_pattern::UrlPattern;
use askfirst_protocol::{RuleAction, RuleChoice, RuleEffect, RuleScope, RuleScopeKind};
use std::path::{Path, PathBuf};

/// Characters that make a path or a command word a pattern rather than a plain name.
const PATTERN_CHARACTERS: [char; 7] = ['*', '?', '[', ']', '{', '}', '\\'];

/// The file's list a rule of this effect goes in.
pub fn kind_of(effect: RuleEffect) -> RuleKind {
    match effect {
        RuleEffect::Allow => RuleKind::Allow,
        RuleEffect::Ask => RuleKind::Ask,
        RuleEffect::Never => RuleKind::Deny,
    }
}

/// The effect of a rule in this list.
pub fn effect_of(kind: RuleKind) -> RuleEffect {
    match kind {
        RuleKind::Allow => RuleEffect::Allow,
        RuleKind::Ask => RuleEffect::Ask,
        RuleKind::Deny => RuleEffect::Never,
    }
}

/// The `match` the form writes for `scope` (`None` for everywhere).
pub fn pattern_of(scope: &RuleScope) -> Option<String> {
    match scope {
        RuleScope::Everywhere => None,
        RuleScope::Folder { folder } => Some(format!("{folder}/**")),
        RuleScope::Command { words, and_more } => Some(if *and_more {
            format!("{words} *")
        } else {
            words.clone()
        }),
        RuleScope::Site { host, sub_domains } => Some(if *sub_domains {
            format!("*://*.{host}/*")
        } else {
            format!("*://{host}/*")
        }),
    }
}

/// The "where" choices of `tool`, the first the default.
pub fn scope_kinds(tool: &str) -> Vec<RuleScopeKind> {
    match tool {
        "run_command" => vec![
            RuleScopeKind::Everywhere,
            RuleScopeKind::Command,
            RuleScopeKind::Folder,
        ],
        "fetch_url" => vec![RuleScopeKind::Everywhere, RuleScopeKind::Site],
        _ => vec![RuleScopeKind::Everywhere, RuleScopeKind::Folder],
    }
}

fn scope_kind(scope: &RuleScope) -> RuleScopeKind {
    match scope {
        RuleScope::Everywhere => RuleScopeKind::Everywhere,
        RuleScope::Folder { .. } => RuleScopeKind::Folder,
        RuleScope::Command { .. } => RuleScopeKind::Command,
        RuleScope::Site { .. } => RuleScopeKind::Site,
    }
}

/// The form's "what" list: anything, the built-in tools `builtin`, then `others` (MCP tools
/// known now, tools named by rules in the file), each once.
pub fn rule_actions(builtin: &[&str], others: &[String]) -> Vec<RuleAction> {
    let mut tools: Vec<String> = std::iter::once("*".to_owned())
        .chain(builtin.iter().map(|t| (*t).to_owned()))
        .collect();
    for tool in others {
        if !tools.contains(tool) {
            tools.push(tool.clone());
        }
    }
    tools
        .into_iter()
        .map(|tool| RuleAction {
            label: super::words::action_label(&tool),
            scopes: scope_kinds(&tool),
            tool,
        })
        .collect()
}

/// The rule of the file's list `kind` about `tool` with `pattern` as the form's choices, when
/// the form would write exactly that rule; `None` for a rule written by hand in another way.
pub fn choice_of(kind: RuleKind, tool: &str, pattern: Option<&str>) -> Option<RuleChoice> {
    let scope = match pattern {
        None => RuleScope::Everywhere,
        Some(p) => scope_of_pattern(tool, p)?,
    };
    if !scope_kinds(tool).contains(&scope_kind(&scope)) {
        return None;
    }
    (pattern_of(&scope).as_deref() == pattern).then(|| RuleChoice {
        effect: effect_of(kind),
        tool: tool.to_owned(),
        scope,
    })
}

fn scope_of_pattern(tool: &str, pattern: &str) -> Option<RuleScope> {
    let plain = |text: &str| !text.is_empty() && !text.contains(PATTERN_CHARACTERS);
    if tool == "fetch_url" {
        let rest = pattern.strip_prefix("*://")?.strip_suffix("/*")?;
        let (host, sub_domains) = match rest.strip_prefix("*.") {
            Some(host) => (host, true),
            None => (rest, false),
        };
        let fine =
            plain(host) && !host.contains(['/', '@', ':', '?', '#']) || host.starts_with('[');
        return fine.then(|| RuleScope::Site {
            host: host.to_owned(),
            sub_domains,
        });
    }
    if let Some(folder) = pattern.strip_suffix("/**") {
        let inside = plain(folder)
            && !folder.starts_with('/')
            && !folder
                .split('/')
                .any(|part| matches!(part, "" | "." | ".."));
        return inside.then(|| RuleScope::Folder {
            folder: folder.to_owned(),
        });
    }
    if tool == "run_command" {
        let (words, and_more) = match pattern.strip_suffix(" *") {
            Some(words) => (words, true),
            None => (pattern, false),
        };
        let fine = plain(words) && !words.contains(['"', '\'']);
        return fine.then(|| RuleScope::Command {
            words: words.to_owned(),
            and_more,
        });
    }
    None
}

/// Checks a choice of the form against the actions on offer and the person's folder
/// `workspace`, and returns the rule to write: its list, tool and `match`, cleaned (a folder
/// relative to `workspace` with `/`, a site's name in the form web addresses compare).
///
/// # Errors
/// A [`RuleEditError`] sentence saying what to change.
pub fn checked_rule(
    choice: &RuleChoice,
    actions: &[RuleAction],
    workspace: &Path,
) -> Result<(RuleKind, String, Option<String>), RuleEditError> {
    let tool = choice.tool.trim();
    let Some(action) = actions.iter().find(|a| a.tool == tool) else {
        return Err(RuleEditError::UnknownAction(choice.tool.clone()));
    };
    let label = action.label.to_lowercase();
    if !action.scopes.contains(&scope_kind(&choice.scope)) {
        return Err(RuleEditError::ScopeNotForAction(label));
    }
    let scope = match &choice.scope {
        RuleScope::Everywhere => RuleScope::Everywhere,
        RuleScope::Folder { folder } => {
            let by_path = matches!(
                tool,
                "*" | "read_file"
                    | "list_directory"
                    | "write_file"
                    | "edit_file"
                    | "move_path"
                    | "delete_path"
            );
            if choice.effect == RuleEffect::Allow && !by_path {
                return Err(RuleEditError::AllowByFolder(action.label.clone()));
            }
            RuleScope::Folder {
                folder: checked_folder(folder, workspace)?,
            }
        }
        RuleScope::Command { words, and_more } => {
            let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
            if words.is_empty() {
                return Err(RuleEditError::CommandMissing);
            }
            if words.contains(PATTERN_CHARACTERS)
                || words.contains(['"', '\''])
                || words.chars().any(char::is_control)
            {
                return Err(RuleEditError::CommandPattern);
            }
            RuleScope::Command {
                words,
                and_more: *and_more,
            }
        }
        RuleScope::Site { host, sub_domains } => RuleScope::Site {
            host: checked_host(host)?,
            sub_domains: *sub_domains,
        },
    };
    let pattern = pattern_of(&scope);
    // The rule must read back as what was chosen, in the file's own language.
    if let Some(p) = &pattern {
        super::Rule::new(tool, Some(p)).map_err(|_| match &scope {
            RuleScope::Command { .. } => RuleEditError::CommandPattern,
            RuleScope::Site { host, .. } => RuleEditError::SiteInvalid(host.clone()),
            RuleScope::Folder { .. } | RuleScope::Everywhere => RuleEditError::FolderPattern,
        })?;
        if let RuleScope::Command { .. } = scope {
            CommandPattern::parse(p).map_err(|_| RuleEditError::CommandPattern)?;
        }
    }
    Ok((kind_of(choice.effect), tool.to_owned(), pattern))
}

/// A folder typed or picked, relative to `workspace` with `/`; it must exist inside it.
fn checked_folder(folder: &str, workspace: &Path) -> Result<String, RuleEditError> {
    let root = std::fs::canonicalize(workspace).unwrap_or_else(|_| workspace.to_owned());
    // Spaces around the name are the person's typing, unless a folder has them in its name
    // (`Spaced `): then the name is kept exact, or the rule would be about another folder.
    let exact = folder.trim_end_matches('/');
    let typed = if !exact.trim().is_empty()
        && Path::new(exact).is_relative()
        && std::fs::symlink_metadata(root.join(exact)).is_ok()
    {
        folder
    } else {
        folder.trim()
    };
    if typed.trim().is_empty() {
        return Err(RuleEditError::FolderMissing);
    }
    if typed.chars().any(char::is_control) {
        return Err(RuleEditError::FolderNotInside);
    }
    let relative: String = if Path::new(typed).is_absolute() {
        let given = std::fs::canonicalize(typed).unwrap_or_else(|_| PathBuf::from(typed));
        match given.strip_prefix(&root) {
            Ok(rest) => rest.to_string_lossy().into_owned(),
            Err(_) => return Err(RuleEditError::FolderNotInside),
        }
    } else {
        typed.trim_end_matches('/').to_owned()
    };
    if relative.is_empty() || relative == "." {
        return Err(RuleEditError::FolderMissing);
    }
    if relative.contains(PATTERN_CHARACTERS) {
        return Err(RuleEditError::FolderPattern);
    }
    if relative
        .split('/')
        .any(|part| matches!(part, "" | "." | ".."))
    {
        return Err(RuleEditError::FolderNotInside);
    }
    let on_disk = root.join(&relative);
    let real = match std::fs::canonicalize(&on_disk) {
        Ok(real) => real,
        Err(_) => return Err(RuleEditError::FolderNotFound(relative)),
    };
    if !real.starts_with(&root) || real == root {
        return Err(RuleEditError::FolderNotInside);
    }
    if !real.is_dir() {
        return Err(RuleEditError::NotAFolder(relative));
    }
    Ok(relative)
}

/// A site's name as typed (`example.com`, `https://www.example.com/page`), as the `url` crate
/// reads a web address's host (lower case, international names in punycode).
fn checked_host(typed: &str) -> Result<String, RuleEditError> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err(RuleEditError::SiteMissing);
    }
    let invalid = || RuleEditError::SiteInvalid(typed.to_owned());
    let address = if typed.contains("://") {
        typed.to_owned()
    } else {
        format!("https://{typed}")
    };
    let url = url::Url::parse(&address).map_err(|_| invalid())?;
    if !matches!(url.scheme(), "http" | "https") || !url.username().is_empty() {
        return Err(invalid());
    }
    let host = url.host_str().ok_or_else(invalid)?.trim_end_matches('.');
    if host.is_empty() || host.contains('*') {
        return Err(invalid());
    }
    UrlPattern::parse(&format!("*://{host}/*")).map_err(|_| invalid())?;
    Ok(host.to_owned())
}
