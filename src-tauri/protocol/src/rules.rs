//! The person's rules as the settings screen shows and edits them: each rule as a sentence,
//! and the choices of the "Add a rule" form (what, where, what happens), which the core turns
//! into a rule of the rules file's own language (`[[deny]]`/`[[ask]]`/`[[allow]]` with `tool`
//! and `match`). No second rule language: a [`RuleChoice`] is only another way to write one.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a rule makes happen (wire: `allow`, `ask`, `never`). In the rules file: `[[allow]]`,
/// `[[ask]]`, `[[deny]]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RuleEffect {
    /// Runs without asking.
    Allow,
    /// Always asks first.
    Ask,
    /// Never runs.
    Never,
}

/// Where a rule applies. JSON: an object tagged by `kind`, e.g.
/// `{"kind":"folder","folder":"Private"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RuleScope {
    /// Every call of the action (no `match`).
    Everywhere,
    /// A folder inside the person's folder and everything in it (`match = "Private/**"`),
    /// compared by what the folder is on disk, however it is reached.
    Folder {
        /// The folder relative to the person's folder, parts separated by `/`.
        folder: String,
    },
    /// A command: these words, and with `and_more` any further words (`match = "git status *"`).
    Command {
        /// The command's words as they are, separated by spaces (no `*`, `?`, quotes).
        words: String,
        /// Whether any further words may follow.
        and_more: bool,
    },
    /// A web site over http or https (`match = "*://example.com/*"`), with `sub_domains` also
    /// every name under it (`match = "*://*.example.com/*"`).
    Site {
        /// The site's name (`example.com`) or address.
        host: String,
        /// Whether names under it (`www.example.com`) count too.
        sub_domains: bool,
    },
}

/// Which kind of [`RuleScope`] an action can take (wire: `everywhere`, `folder`, `command`,
/// `site`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RuleScopeKind {
    /// [`RuleScope::Everywhere`].
    Everywhere,
    /// [`RuleScope::Folder`].
    Folder,
    /// [`RuleScope::Command`].
    Command,
    /// [`RuleScope::Site`].
    Site,
}

/// A rule as the form makes it: what happens, to which action, where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RuleChoice {
    /// What happens.
    pub effect: RuleEffect,
    /// The action: a tool's name (`write_file`, `server__tool`) or `*` for anything.
    pub tool: String,
    /// Where.
    pub scope: RuleScope,
}

/// One choice of the form's "what" list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RuleAction {
    /// The tool's name, or `*` for anything.
    pub tool: String,
    /// In plain words ("Writing files", "Running commands").
    pub label: String,
    /// The "where" choices that make sense for it, the first the default.
    pub scopes: Vec<RuleScopeKind>,
}

/// One rule of the rules file as the settings screen lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RuleView {
    /// The rule in one line (`deny * "Private/**"`): the technical detail, and what
    /// `change_rule` and `remove_rule` name it by.
    pub line: String,
    /// The rule in a sentence for people ("Never touch anything in Private").
    pub sentence: String,
    /// The rule as the form's choices; absent for a rule written by hand that the form cannot
    /// express (it is changed in the file).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<RuleChoice>,
    /// The line of the rules file where the rule starts (1 for the first line), when known.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_line: Option<u32>,
}

/// The rules part of the settings screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RulesView {
    /// The rules file (it stays editable by hand).
    pub path: String,
    /// The rules in force, in the order they are checked: never, then ask, then allow.
    pub rules: Vec<RuleView>,
    /// The rules file's problem, if it has one (then every action asks, and the window does
    /// not change the file).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The form's "what" choices: anything, the built-in tools, the MCP tools known now.
    pub actions: Vec<RuleAction>,
    /// Folders inside the person's folder, relative to it, to offer in the "where" field
    /// (a bounded list; any other folder can be typed).
    pub folders: Vec<String>,
}

/// Arguments of the `add_rule` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AddRuleRequest {
    /// The rule to add.
    pub choice: RuleChoice,
}

/// Arguments of the `change_rule` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChangeRuleRequest {
    /// The rule to change, as [`RuleView::line`] names it.
    pub rule: String,
    /// What it becomes.
    pub choice: RuleChoice,
}
