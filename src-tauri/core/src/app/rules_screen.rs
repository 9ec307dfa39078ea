//! The rules part of the settings screen: the rules as sentences ([`SettingsScreen::rules_view`])
//! and the person's changes to them (add, change), each written to `rules.toml` (which stays
//! the store, editable by hand), applied to the policy at once — from the agent's next action
//! on; a request already waiting keeps waiting for the person's answer — and recorded in the
//! conversation's log. Only the window calls these: no tool of the agent can.

use super::screen::SettingsScreen;
use crate::agent::AgentRuntime;
use crate::i18n::{tr, Arg};
use crate::policy::editor::{self, RuleEditError};
use crate::policy::Rules;
use askfirst_protocol::{ErrorCode, RuleChoice, RuleView, RulesView};
use std::path::Path;

/// How many folders of the person's folder the form offers at most.
const FOLDERS_OFFERED: usize = 300;
/// How deep into the person's folder the form looks for folders to offer (1: its own folders).
const FOLDER_DEPTH: usize = 3;

impl super::codes::Worded for RuleEditError {
    fn message(&self) -> String {
        let name = |text: &String| [("name", Arg::from(text))];
        match self {
            // The file's own trouble goes in the detail; the sentence says what to do.
            RuleEditError::File(_) => tr("rule_edit-file", &[]),
            RuleEditError::UnknownAction(tool) => tr("rule_edit-unknown_action", &name(tool)),
            RuleEditError::ScopeNotForAction(action) => {
                tr("rule_edit-scope_not_for_action", &name(action))
            }
            RuleEditError::AllowByFolder(action) => tr("rule_edit-allow_by_folder", &name(action)),
            RuleEditError::FolderMissing => tr("rule_edit-folder_missing", &[]),
            RuleEditError::FolderNotInside => tr("rule_edit-folder_not_inside", &[]),
            RuleEditError::FolderPattern => tr("rule_edit-folder_pattern", &[]),
            RuleEditError::FolderNotFound(folder) => {
                tr("rule_edit-folder_not_found", &name(folder))
            }
            RuleEditError::NotAFolder(file) => tr("rule_edit-not_a_folder", &name(file)),
            RuleEditError::CommandMissing => tr("rule_edit-command_missing", &[]),
            RuleEditError::CommandPattern => tr("rule_edit-command_pattern", &[]),
            RuleEditError::SiteInvalid(site) => tr("rule_edit-site_invalid", &name(site)),
            RuleEditError::SiteMissing => tr("rule_edit-site_missing", &[]),
            RuleEditError::AlreadyThere(rule) => tr("rule_edit-already_there", &name(rule)),
            RuleEditError::NoSuchRule(_) => tr("rule_edit-no_such_rule", &[]),
        }
    }

    fn detail(&self) -> Option<String> {
        match self {
            RuleEditError::File(
                crate::policy::RulesError::Read { path, detail }
                | crate::policy::RulesError::Invalid { path, detail },
            ) => Some(format!("{path}: {detail}")),
            _ => None,
        }
    }
}

impl super::Coded for RuleEditError {
    fn code(&self) -> ErrorCode {
        match self {
            RuleEditError::File(_) => ErrorCode::Storage,
            RuleEditError::UnknownAction(_)
            | RuleEditError::ScopeNotForAction(_)
            | RuleEditError::AllowByFolder(_)
            | RuleEditError::FolderMissing
            | RuleEditError::FolderNotInside
            | RuleEditError::FolderPattern
            | RuleEditError::FolderNotFound(_)
            | RuleEditError::NotAFolder(_)
            | RuleEditError::CommandMissing
            | RuleEditError::CommandPattern
            | RuleEditError::SiteInvalid(_)
            | RuleEditError::SiteMissing
            | RuleEditError::AlreadyThere(_)
            | RuleEditError::NoSuchRule(_) => ErrorCode::InvalidRequest,
        }
    }
}

impl SettingsScreen {
    /// The rules part of the settings screen. Reads the rules file again first, so a change
    /// made by hand shows (and applies) once Settings is opened.
    pub fn rules_view(&self, runtime: &AgentRuntime) -> RulesView {
        let path = self.config().rules_path();
        runtime.policy().set_rules(Rules::load(&path));
        let lines = editor::file_lines(&path);
        let in_force = runtime.policy().rules_in_force();
        let rules: Vec<RuleView> = in_force
            .iter()
            .flatten()
            .map(|(kind, rule)| {
                let line = rule.line(*kind);
                RuleView {
                    sentence: rule.sentence(*kind),
                    choice: editor::choice_of(*kind, &rule.tool, rule.pattern.as_deref()),
                    file_line: lines.iter().find(|(l, _)| *l == line).map(|(_, n)| *n),
                    line,
                }
            })
            .collect();
        let named: Vec<String> = in_force
            .iter()
            .flatten()
            .map(|(_, rule)| rule.tool.clone())
            .collect();
        RulesView {
            path: path.display().to_string(),
            rules,
            error: runtime.policy().rules_error().map(|e| e.to_string()),
            actions: actions(runtime, &named),
            folders: folders(runtime.workspace().root()),
        }
    }

    /// Adds the rule the form describes at the end of the rules file; it applies from the
    /// agent's next action. Returns the rules now in force.
    ///
    /// # Errors
    /// A [`RuleEditError`] sentence when the choice is not valid (an unknown action, a folder
    /// outside the person's folder, …), the rule is there already, or the file has a mistake
    /// or cannot be written; nothing changes then.
    pub fn add_rule(
        &self,
        runtime: &AgentRuntime,
        choice: &RuleChoice,
    ) -> Result<RulesView, RuleEditError> {
        let path = self.config().rules_path();
        refuse_when_broken(&path)?;
        let (kind, tool, pattern) = self.checked(runtime, choice)?;
        editor::add_rule(&path, kind, &tool, pattern.as_deref())?;
        let after = crate::policy::Rule::new(&tool, pattern.as_deref())
            .map(|r| r.line(kind))
            .ok();
        runtime.record_rule_change(None, after);
        Ok(self.rules_view(runtime))
    }

    /// Replaces the rule whose one-line form is `rule` with the one the form describes; it
    /// applies from the agent's next action. Returns the rules now in force.
    ///
    /// # Errors
    /// As [`SettingsScreen::add_rule`], and [`RuleEditError::NoSuchRule`] when the rule is no
    /// longer in the file.
    pub fn change_rule(
        &self,
        runtime: &AgentRuntime,
        rule: &str,
        choice: &RuleChoice,
    ) -> Result<RulesView, RuleEditError> {
        let path = self.config().rules_path();
        refuse_when_broken(&path)?;
        let (kind, tool, pattern) = self.checked(runtime, choice)?;
        editor::change_rule(&path, rule, kind, &tool, pattern.as_deref())?;
        let after = crate::policy::Rule::new(&tool, pattern.as_deref())
            .map(|r| r.line(kind))
            .ok();
        runtime.record_rule_change(Some(rule.to_owned()), after);
        Ok(self.rules_view(runtime))
    }

    fn checked(
        &self,
        runtime: &AgentRuntime,
        choice: &RuleChoice,
    ) -> Result<(crate::policy::RuleKind, String, Option<String>), RuleEditError> {
        let named: Vec<String> = runtime
            .policy()
            .rules_in_force()
            .into_iter()
            .flatten()
            .map(|(_, rule)| rule.tool)
            .collect();
        editor::checked_rule(
            choice,
            &actions(runtime, &named),
            runtime.workspace().root(),
        )
    }
}

/// The window never rewrites a rules file it cannot read as rules: the person's mistake is
/// fixed in the file, where it is.
fn refuse_when_broken(path: &Path) -> Result<(), RuleEditError> {
    if !path.exists() {
        return Ok(());
    }
    match Rules::load(path) {
        Rules::Loaded(_) => Ok(()),
        Rules::Broken(error) => Err(RuleEditError::File(error)),
    }
}

/// The "what" list: anything, the built-in tools, the MCP tools running now, the tools the
/// rules in the file name.
fn actions(runtime: &AgentRuntime, named: &[String]) -> Vec<askfirst_protocol::RuleAction> {
    let builtin = crate::tools::ToolSet::builtin();
    let mut others: Vec<String> = runtime
        .mcp_statuses()
        .into_iter()
        .flat_map(|server| match server.status {
            crate::mcp::McpServerStatus::Running { tools } => {
                tools.into_iter().map(|t| t.name).collect()
            }
            crate::mcp::McpServerStatus::NotStarted
            | crate::mcp::McpServerStatus::Starting
            | crate::mcp::McpServerStatus::Failed { .. } => Vec::new(),
        })
        .collect();
    others.extend(named.iter().cloned());
    editor::rule_actions(&builtin.names(), &others)
}

/// Folders inside `root`, relative to it with `/`, sorted; hidden ones and links left out;
/// at most [`FOLDERS_OFFERED`], at most [`FOLDER_DEPTH`] deep.
fn folders(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut queue = vec![(root.to_owned(), String::new(), 0usize)];
    while let Some((dir, prefix, depth)) = queue.pop() {
        if depth >= FOLDER_DEPTH {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|name| !name.starts_with('.'))
            .collect();
        names.sort();
        for name in names.into_iter().rev() {
            let relative = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}/{name}")
            };
            queue.push((dir.join(&name), relative.clone(), depth + 1));
            found.push(relative);
            if found.len() >= FOLDERS_OFFERED {
                found.sort();
                return found;
            }
        }
    }
    found.sort();
    found
}
