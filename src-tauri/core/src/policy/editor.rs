//! The rules file edited from the window: a choice of the settings screen's form
//! ([`askfirst_protocol::RuleChoice`]), checked by [`checked_rule`] (in `choice.rs`, with
//! [`choice_of`], its reverse), is written as a rule of the file's own language (`[[deny]]`,
//! `[[ask]]`, `[[allow]]` with `tool` and `match`).
//!
//! The file stays the person's: adding appends one table at the end (rendered by `toml_edit`),
//! changing edits that one table in place with `toml_edit` (its format-preserving document),
//! removing drops it; every other byte — comments, spacing, other rules — stays as it was. The
//! file is written atomically (a temporary file beside it, synced, owner-only, renamed over it).

use super::rules::{line_of, tool_as_written, RuleKind, RulesError};
use std::path::Path;

pub use super::choice::{
    checked_rule, choice_of, effect_of, kind_of, pattern_of, rule_actions, scope_kinds,
};

/// Why a rule from the window was refused; nothing changed then. The message is a sentence
/// for the person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleEditError {
    /// The "what" is not an action Ask First knows.
    #[error("Ask First has no action “{0}” to make a rule about. Choose one from the list.")]
    UnknownAction(String),
    /// The "where" does not fit the action (a folder for downloads, a site for files).
    #[error("This kind of place cannot be chosen for {0}. Choose another one from the list.")]
    ScopeNotForAction(String),
    /// An allow rule by folder for an action whose folder Ask First cannot see for sure.
    #[error(
        "{0} cannot be allowed by folder, because Ask First cannot be sure where they act. \
         Choose “Always ask” or “Never”, or allow them everywhere."
    )]
    AllowByFolder(String),
    /// No folder was given.
    #[error("Choose a folder, or choose “Everywhere”.")]
    FolderMissing,
    /// The folder is not a plain path inside the person's folder.
    #[error(
        "Write the folder as it is inside your folder, like Private or Photos/2024 (without \
         “..”)."
    )]
    FolderNotInside,
    /// The folder's name has pattern characters.
    #[error(
        "A folder name with pattern characters (such as * or ?) cannot be used here. Write such a rule \
         by hand in the rules file instead."
    )]
    FolderPattern,
    /// No such folder.
    #[error(
        "There is no folder “{0}” in your folder. Check its name, or choose one from the list."
    )]
    FolderNotFound(String),
    /// It is a file.
    #[error("The name “{0}” is a file, not a folder. Choose a folder instead.")]
    NotAFolder(String),
    /// No command words.
    #[error("Type the command's first words, for example “git status”.")]
    CommandMissing,
    /// The command words have pattern characters or quotes.
    #[error(
        "Type the command's words as they are, without pattern characters (such as * or ?) or quotes. Write \
         such a rule by hand in the rules file instead."
    )]
    CommandPattern,
    /// Not a site's name.
    #[error("The name “{0}” is not a web site. Type one like example.com.")]
    SiteInvalid(String),
    /// No site given.
    #[error("Type the web site's name, for example “example.com”.")]
    SiteMissing,
    /// The same rule is there already.
    #[error("You already have this rule: {0}. Use its Change button to make it different.")]
    AlreadyThere(String),
    /// The rule to change is not (or no longer) in the file.
    #[error(
        "This rule is no longer in the rules file (it may have been changed there). The list \
         now shows the file as it is: look at it and try again."
    )]
    NoSuchRule(String),
    /// The file has a mistake or cannot be read or written.
    #[error("The rules file could not be changed. Fix it in the file first, or try again. ({0})")]
    File(#[from] RulesError),
}

fn read_text(path: &Path) -> Result<String, RulesError> {
    std::fs::read_to_string(path).map_err(|e| RulesError::Read {
        path: path.display().to_string(),
        detail: e.to_string(),
    })
}

fn parse_doc(text: &str, path: &Path) -> Result<toml_edit::DocumentMut, RulesError> {
    text.parse()
        .map_err(|e: toml_edit::TomlError| RulesError::Invalid {
            path: path.display().to_string(),
            detail: e.to_string(),
        })
}

/// The rule as a table of its own (`[[deny]]` with `tool` and `match`), rendered by
/// `toml_edit` (quoting and escaping as TOML wants).
fn rendered(kind: RuleKind, tool: &str, pattern: Option<&str>) -> String {
    let mut table = toml_edit::Table::new();
    table.insert("tool", toml_edit::value(tool));
    if let Some(p) = pattern {
        table.insert("match", toml_edit::value(p));
    }
    let mut tables = toml_edit::ArrayOfTables::new();
    tables.push(table);
    let mut doc = toml_edit::DocumentMut::new();
    doc.insert(kind.as_str(), toml_edit::Item::ArrayOfTables(tables));
    doc.to_string()
}

/// `text` with a new rule appended at the end, after a blank line.
fn appended(text: &str, kind: RuleKind, tool: &str, pattern: Option<&str>) -> String {
    let mut out = text.to_owned();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(&rendered(kind, tool, pattern));
    out
}

/// Every rule of the file in order of its lists (deny, ask, allow): its list, `tool` as the
/// rules read it, `match`, and where its table starts in `text` (a byte offset), if known.
fn entries(text: &str) -> Vec<(RuleKind, String, Option<String>, Option<usize>)> {
    let Ok(doc) = toml_edit::Document::parse(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for kind in RuleKind::ALL {
        let Some(tables) = doc.get(kind.as_str()).and_then(|i| i.as_array_of_tables()) else {
            continue;
        };
        for t in tables.iter() {
            let tool = t.get("tool").and_then(|v| v.as_str()).unwrap_or_default();
            let pattern = t.get("match").and_then(|v| v.as_str()).map(str::to_owned);
            out.push((
                kind,
                tool_as_written(tool).to_owned(),
                pattern,
                t.span().map(|s| s.start),
            ));
        }
    }
    out
}

/// For each rule's one-line form (`deny * "Private/**"`), the line of the file where its
/// table starts (1 for the first line). Rules with the same line get the first one's.
pub fn file_lines(path: &Path) -> Vec<(String, u32)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    entries(&text)
        .into_iter()
        .filter_map(|(kind, tool, pattern, start)| {
            let start = start?;
            let line = text.get(..start)?.matches('\n').count() + 1;
            Some((
                line_of(kind, &tool, pattern.as_deref()),
                u32::try_from(line).ok()?,
            ))
        })
        .collect()
}

/// Adds a rule at the end of the rules file (created from the template when missing).
///
/// # Errors
/// [`RuleEditError::AlreadyThere`] when the same rule is in the file; [`RuleEditError::File`]
/// when it cannot be read, parsed or written.
pub fn add_rule(
    path: &Path,
    kind: RuleKind,
    tool: &str,
    pattern: Option<&str>,
) -> Result<(), RuleEditError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => super::RULES_TEMPLATE.to_owned(),
        Err(_) => read_text(path)?,
    };
    parse_doc(&text, path)?;
    let line = line_of(kind, tool, pattern);
    if entries(&text)
        .iter()
        .any(|(k, t, p, _)| line_of(*k, t, p.as_deref()) == line)
    {
        return Err(RuleEditError::AlreadyThere(super::words::sentence(
            kind,
            tool,
            pattern,
            choice_of(kind, tool, pattern).map(|c| c.scope).as_ref(),
        )));
    }
    write_atomically(path, &appended(&text, kind, tool, pattern)).map_err(Into::into)
}

/// Replaces the first rule whose one-line form is `line` with a rule of `kind` about `tool`
/// with `pattern`. In the same list it is changed in place (its comments stay); in another list
/// it is taken out and the new one added at the end.
///
/// # Errors
/// [`RuleEditError::NoSuchRule`] when no rule has that line; [`RuleEditError::AlreadyThere`]
/// when another rule already is the new one; [`RuleEditError::File`] as [`add_rule`].
pub fn change_rule(
    path: &Path,
    line: &str,
    kind: RuleKind,
    tool: &str,
    pattern: Option<&str>,
) -> Result<(), RuleEditError> {
    let text = read_text(path)?;
    let mut doc = parse_doc(&text, path)?;
    let new_line = line_of(kind, tool, pattern);
    if new_line != line
        && entries(&text)
            .iter()
            .any(|(k, t, p, _)| line_of(*k, t, p.as_deref()) == new_line)
    {
        return Err(RuleEditError::AlreadyThere(super::words::sentence(
            kind,
            tool,
            pattern,
            choice_of(kind, tool, pattern).map(|c| c.scope).as_ref(),
        )));
    }
    for old_kind in RuleKind::ALL {
        let Some(tables) = doc
            .get_mut(old_kind.as_str())
            .and_then(|i| i.as_array_of_tables_mut())
        else {
            continue;
        };
        let position = tables.iter().position(|t| {
            let t_tool = t.get("tool").and_then(|v| v.as_str()).unwrap_or_default();
            let t_pattern = t.get("match").and_then(|v| v.as_str());
            line_of(old_kind, tool_as_written(t_tool), t_pattern) == line
        });
        let Some(index) = position else {
            continue;
        };
        let new_text = if old_kind == kind {
            let Some(table) = tables.get_mut(index) else {
                continue;
            };
            set_value(table, "tool", Some(tool));
            set_value(table, "match", pattern);
            doc.to_string()
        } else {
            remove_table(&mut doc, old_kind, index);
            appended(&doc.to_string(), kind, tool, pattern)
        };
        return write_atomically(path, &new_text).map_err(Into::into);
    }
    Err(RuleEditError::NoSuchRule(line.to_owned()))
}

/// Takes the rule at `index` of the list `kind` out of `doc`. The comment lines right above
/// it (no blank line between) are its own and go with it; what comes before a blank line (the
/// person's notes about something else, a comment that ended the file before a rule was
/// added) stays, in front of whatever follows.
pub(super) fn remove_table(doc: &mut toml_edit::DocumentMut, kind: RuleKind, index: usize) {
    let Some(tables) = doc
        .get_mut(kind.as_str())
        .and_then(|i| i.as_array_of_tables_mut())
    else {
        return;
    };
    let Some(removed) = tables.get(index) else {
        return;
    };
    let position = removed.position();
    let prefix = removed
        .decor()
        .prefix()
        .and_then(|p| p.as_str())
        .unwrap_or("")
        .to_owned();
    tables.remove(index);
    if tables.is_empty() {
        doc.remove(kind.as_str());
    }
    // The part up to the last blank line, without that line.
    let lines: Vec<&str> = prefix.split_inclusive('\n').collect();
    let kept: String = match lines.iter().rposition(|l| l.trim().is_empty()) {
        Some(blank) => lines[..blank].concat(),
        None => String::new(),
    };
    if kept.is_empty() {
        return;
    }
    // In front of the next table in the file, or of the file's end.
    let mut next: Option<&mut toml_edit::Table> = None;
    for (_, item) in doc.iter_mut() {
        let Some(list) = item.as_array_of_tables_mut() else {
            continue;
        };
        for table in list.iter_mut() {
            let later = match (table.position(), position) {
                (Some(p), Some(removed)) => p > removed,
                _ => false,
            };
            let earlier_than_found = next
                .as_ref()
                .is_none_or(|found| table.position() < found.position());
            if later && earlier_than_found {
                next = Some(table);
            }
        }
    }
    match next {
        Some(table) => {
            let own = table
                .decor()
                .prefix()
                .and_then(|p| p.as_str())
                .unwrap_or("")
                .to_owned();
            table.decor_mut().set_prefix(format!("{kept}{own}"));
        }
        None => {
            let trailing = doc.trailing().as_str().unwrap_or("").to_owned();
            doc.set_trailing(format!("{kept}{trailing}"));
        }
    }
}

/// Sets (or with `None` removes) `key` of `table`, keeping the spacing around the old value.
fn set_value(table: &mut toml_edit::Table, key: &str, value: Option<&str>) {
    match (value, table.get_mut(key).and_then(|i| i.as_value_mut())) {
        (Some(new), Some(old)) => {
            if old.as_str() != Some(new) {
                let decor = old.decor().clone();
                *old = toml_edit::Value::from(new);
                *old.decor_mut() = decor;
            }
        }
        (Some(new), None) => {
            table.insert(key, toml_edit::value(new));
        }
        (None, _) => {
            table.remove(key);
        }
    }
}

/// Writes `text` to `path` whole or not at all ([`crate::data_dir::write_atomically`]),
/// making its folder first.
///
/// # Errors
/// [`RulesError::Read`] with the I/O error; the old file is then left as it was.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), RulesError> {
    path.parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| crate::data_dir::write_atomically(path, text.as_bytes()))
        .map_err(|e| RulesError::Read {
            path: path.display().to_string(),
            detail: e.to_string(),
        })
}
