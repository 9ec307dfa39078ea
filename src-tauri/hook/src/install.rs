//! Connecting an agent to Ask First: adding one hook entry to its user settings, and removing
//! exactly that entry again. Used by `askfirst-hook install|uninstall <agent>` and by
//! Settings → "Other agents on this computer".
//!
//! | Agent | File (under `$HOME`) | Event | Entry |
//! |---|---|---|---|
//! | Claude Code | `.claude/settings.json` | `hooks.PreToolUse` and `hooks.PermissionRequest` | `{"matcher":"*","hooks":[{"type":"command","command":"<hook> claude-code","timeout":3660}]}` in each (timeout in s) |
//! | Codex CLI | `.codex/hooks.json` | `hooks.PermissionRequest` | `{"hooks":[{"type":"command","command":"<hook> codex","timeout":3660}]}` |
//! | Gemini CLI | `.gemini/settings.json` | `hooks.BeforeTool` | `{"matcher":".*","hooks":[{"type":"command","command":"<hook> gemini","timeout":3660000}]}` (timeout in ms) |
//!
//! Claude Code gets two entries, one job each: its `PreToolUse` hook runs on every tool call
//! and applies Ask First's policy (hard denials and deny rules refuse, an ask rule asks on a
//! card, anything else is left to Claude Code's own permission flow), and its
//! `PermissionRequest` hook runs when Claude Code would ask the person, and asks on a card
//! instead, where "Allow in this conversation" can hand Claude Code its own session
//! permission (see `crate::agents::session_rule`). So the window shows what Claude Code would
//! have asked in its terminal, and nothing it would not.
//!
//! Everything else in the file stays byte for byte: its text is changed only where the entry
//! goes (an event list or `hooks` object that is not there yet is added at the end of its
//! parent, in the file's own layout), and uninstall takes out exactly what install put in, so
//! install followed by uninstall gives back the same bytes ([`json_text`]). A command is ours
//! when it ends in `askfirst-hook <agent>`. Uninstall removes only our commands: a group that
//! also holds someone else's command, or a key other than `matcher` and `hooks`, keeps them;
//! a group of ours alone goes whole. An event list or the `hooks` object left empty goes too
//! when it was not there before.
//!
//! Before the first change the file is copied to `<file>.askfirst-backup`, which tells
//! uninstall what was there before. A settings file that is a link (into a dotfiles folder)
//! stays a link: its target is replaced atomically through a temporary file in the target's
//! folder, made with `O_EXCL` under a name no one can plant in advance, and keeps its mode
//! ([`file`]). The backup stays beside the link (see [`AgentSettings::backup`]'s comment).

use askfirst_protocol::ExternalAgent;
use json_text::{empty_inside, has, EditError, JsonText, Step};
use serde::Serialize;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

mod file;
mod json_text;

/// The hook's timeout in the agent's settings, in seconds: as long as the hook may wait
/// ([`crate::client::LONGEST_WAIT`]), so the agent never gives up before Ask First answers.
pub const HOOK_TIMEOUT_SECS: u64 = 3660;

/// Why an agent's settings could not be changed.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// `$HOME` is not set.
    #[error("the home folder is not known (HOME is not set)")]
    NoHome,
    /// The file could not be read or written.
    #[error("{} could not be {what}: {source}", path.display())]
    Io {
        /// "read", "written", "backed up".
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not JSON, or not an object where settings are expected; left unchanged.
    #[error("{} is not a settings file Ask First can change safely ({why}); it was left as it is", path.display())]
    NotSettings {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// Where `agent`'s user settings are, and what Ask First adds there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSettings {
    /// The agent.
    pub agent: ExternalAgent,
    /// The agent's user folder (`~/.claude`).
    pub folder: PathBuf,
    /// The file the hook entry goes in.
    pub file: PathBuf,
    /// The hook events' keys under `hooks` (one entry of ours in each).
    pub events: &'static [&'static str],
}

/// Ask First's hook entry: a group of its own with one command. The fields are in the order
/// they are written.
#[derive(Debug, Serialize)]
struct Group {
    #[serde(skip_serializing_if = "Option::is_none")]
    matcher: Option<&'static str>,
    hooks: [Handler; 1],
}

/// The command in [`Group`].
#[derive(Debug, Serialize)]
struct Handler {
    #[serde(rename = "type")]
    kind: &'static str,
    command: String,
    timeout: u64,
}

impl AgentSettings {
    /// `agent`'s settings under `home`.
    pub fn under(agent: ExternalAgent, home: &Path) -> Self {
        let (folder, file, events): (_, _, &'static [&'static str]) = match agent {
            ExternalAgent::ClaudeCode => (
                ".claude",
                "settings.json",
                &["PreToolUse", "PermissionRequest"],
            ),
            ExternalAgent::Codex => (".codex", "hooks.json", &["PermissionRequest"]),
            ExternalAgent::Gemini => (".gemini", "settings.json", &["BeforeTool"]),
        };
        let folder = home.join(folder);
        Self {
            agent,
            file: folder.join(file),
            folder,
            events,
        }
    }

    /// `agent`'s settings under `$HOME`.
    ///
    /// # Errors
    /// [`InstallError::NoHome`].
    pub fn for_home(agent: ExternalAgent) -> Result<Self, InstallError> {
        match std::env::var_os("HOME") {
            Some(home) if !home.is_empty() => Ok(Self::under(agent, Path::new(&home))),
            _ => Err(InstallError::NoHome),
        }
    }

    /// The copy of the file as it was before Ask First's first change. It stays beside
    /// [`Self::file`] even when that is a link into another folder: the link's target is
    /// often in a dotfiles repository, where a stray copy would show up as a new file to
    /// commit, and could travel to another computer and mislead an uninstall there.
    fn backup(&self) -> PathBuf {
        let mut name = self.file.as_os_str().to_owned();
        name.push(".askfirst-backup");
        PathBuf::from(name)
    }

    /// The hook entry for `hook` (the `askfirst-hook` program's absolute path).
    fn entry(&self, hook: &Path) -> Group {
        let command = format!(
            "{} {}",
            shell_quote(&hook.to_string_lossy()),
            self.agent.slug()
        );
        let timeout = match self.agent {
            ExternalAgent::Gemini => HOOK_TIMEOUT_SECS * 1000,
            ExternalAgent::ClaudeCode | ExternalAgent::Codex => HOOK_TIMEOUT_SECS,
        };
        let matcher = match self.agent {
            ExternalAgent::ClaudeCode => Some("*"),
            ExternalAgent::Gemini => Some(".*"),
            ExternalAgent::Codex => None,
        };
        Group {
            matcher,
            hooks: [Handler {
                kind: "command",
                command,
                timeout,
            }],
        }
    }

    /// Whether the agent's folder exists (the agent has been used on this computer).
    pub fn found(&self) -> bool {
        self.folder.is_dir()
    }

    /// Whether the settings hold Ask First's entry in every one of [`Self::events`] (an older
    /// Ask First put Claude Code's in `PreToolUse` only: Connect then shows again).
    ///
    /// # Errors
    /// [`InstallError`] when the file cannot be read or is not settings.
    pub fn connected(&self) -> Result<bool, InstallError> {
        let settings = match self.read_text(&self.file)? {
            Some(text) if !text.trim().is_empty() => self
                .document(text)?
                .value()
                .map_err(|e| self.edit_error(e))?,
            _ => Value::Object(Map::new()),
        };
        Ok(self.events.iter().all(|event| {
            event_list(&settings, event)
                .is_some_and(|list| list.iter().any(|group| is_ours(group, self.agent)))
        }))
    }

    /// Adds Ask First's entry for `hook` to each of [`Self::events`] as a group of its own
    /// (replacing an older command of ours, and only the command where it shares a group);
    /// returns whether the file changed. Nothing else in the file changes, byte for byte.
    ///
    /// # Errors
    /// [`InstallError`]; the file is then unchanged.
    pub fn install(&self, hook: &Path) -> Result<bool, InstallError> {
        let target = self.target()?;
        let before = self.read_text(&target)?;
        let start = match &before {
            Some(text) if !text.trim().is_empty() => text.clone(),
            // Nothing to keep: a new object, laid out as the agents write theirs.
            _ => "{}\n".to_owned(),
        };
        let mut document = self.document(start)?;
        let had_ours = self.holds_ours(&document)?;
        let entry = self.entry(hook);
        let entry_value = serde_json::to_value(&entry)
            .map_err(|e| self.not_settings(format!("the entry could not be written: {e}")))?;
        let mut changed = false;
        for event in self.events {
            let settings = document.value().map_err(|e| self.edit_error(e))?;
            let hooks = match settings.get("hooks") {
                None => None,
                Some(Value::Object(hooks)) => Some(hooks),
                Some(_) => return Err(self.not_settings("\"hooks\" is not an object".into())),
            };
            let list = match hooks.and_then(|hooks| hooks.get(*event)) {
                None => None,
                Some(Value::Array(list)) => Some(list),
                Some(_) => return Err(self.not_settings(format!("hooks.{event} is not a list"))),
            };
            if list.is_some_and(|list| {
                list.iter()
                    .filter(|group| is_ours(group, self.agent))
                    .eq(std::iter::once(&entry_value))
            }) {
                continue;
            }
            let edit = |result: Result<(), EditError>| result.map_err(|e| self.edit_error(e));
            if hooks.is_none() {
                edit(document.insert_member(&[], "hooks", &Map::new()))?;
            }
            if list.is_none() {
                edit(document.insert_member(&[Step::Key("hooks")], event, &Vec::<Value>::new()))?;
            }
            self.remove_ours(&mut document, event, "")?;
            edit(document.append_element(&[Step::Key("hooks"), Step::Key(event)], &entry))?;
            changed = true;
        }
        if !changed {
            return Ok(false);
        }
        self.back_up(before.as_deref(), had_ours)?;
        self.write(&target, document.as_str())?;
        Ok(true)
    }

    /// Removes Ask First's commands (and only them: a group that also holds someone else's
    /// command keeps that, with its matcher and every other key); returns whether the file
    /// changed. An event list or the `hooks` object left empty goes too when the backup shows
    /// it was not there before; a file Ask First created and left empty is removed.
    ///
    /// # Errors
    /// [`InstallError`]; the file is then unchanged.
    pub fn uninstall(&self) -> Result<bool, InstallError> {
        let target = self.target()?;
        let Some(text) = self.read_text(&target)? else {
            return Ok(false);
        };
        if text.trim().is_empty() {
            return Ok(false);
        }
        let mut document = self.document(text)?;
        if !self.holds_ours(&document)? {
            return Ok(false);
        }
        // The file before Ask First's first change: what it had stays, even when empty.
        let backup = self.backup();
        let original = file::read_plain(&backup).map_err(|source| InstallError::Io {
            what: "read",
            path: backup.clone(),
            source,
        })?;
        let had = |path: &[Step<'_>]| original.as_deref().is_some_and(|o| has(o, path));
        let inside = |path: &[Step<'_>]| {
            original
                .as_deref()
                .and_then(|o| empty_inside(o, path))
                .unwrap_or_default()
        };
        let edit = |result: Result<(), EditError>| result.map_err(|e| self.edit_error(e));
        let settings = document.value().map_err(|e| self.edit_error(e))?;
        let ours_in = self.events.iter().filter(|event| {
            event_list(&settings, event)
                .is_some_and(|list| list.iter().any(|group| is_ours(group, self.agent)))
        });
        for event in ours_in {
            let list_path = [Step::Key("hooks"), Step::Key(event)];
            self.remove_ours(&mut document, event, &inside(&list_path))?;
            let settings = document.value().map_err(|e| self.edit_error(e))?;
            if event_list(&settings, event).is_some_and(Vec::is_empty) && !had(&list_path) {
                edit(document.remove(&list_path[..1], list_path[1], &inside(&list_path[..1])))?;
            }
        }
        let settings = document.value().map_err(|e| self.edit_error(e))?;
        let hooks_left = settings.get("hooks").and_then(Value::as_object);
        if hooks_left.is_some_and(Map::is_empty) && !had(&[Step::Key("hooks")]) {
            edit(document.remove(&[], Step::Key("hooks"), &inside(&[])))?;
        }
        let emptied = document
            .value()
            .map_err(|e| self.edit_error(e))?
            .as_object()
            .is_some_and(Map::is_empty);
        match &original {
            None if emptied => {
                std::fs::remove_file(&target).map_err(|source| InstallError::Io {
                    what: "written",
                    path: target.clone(),
                    source,
                })?;
            }
            // The file had nothing in it: it gets back exactly that.
            Some(original) if emptied && original.trim().is_empty() => {
                self.write(&target, original)?;
            }
            None | Some(_) => self.write(&target, document.as_str())?,
        }
        let _ = std::fs::remove_file(&backup);
        Ok(true)
    }

    /// Removes every command of ours from `event`'s list: a group that is all ours (its
    /// commands all ours, no key but `matcher` and `hooks`) goes whole, from any other group
    /// only our command goes. A list left empty gets `emptied` between its brackets.
    fn remove_ours(
        &self,
        document: &mut JsonText,
        event: &str,
        emptied: &str,
    ) -> Result<(), InstallError> {
        let list_path = [Step::Key("hooks"), Step::Key(event)];
        // Each turn removes one group or command of ours, so this ends.
        loop {
            let settings = document.value().map_err(|e| self.edit_error(e))?;
            let Some(list) = event_list(&settings, event) else {
                return Ok(());
            };
            // The first group with a command of ours, and that command's place in it.
            let Some((index, group, handler)) =
                list.iter().enumerate().find_map(|(index, group)| {
                    let handler = handlers(group)
                        .iter()
                        .position(|handler| is_our_command(handler, self.agent))?;
                    Some((index, group, handler))
                })
            else {
                return Ok(());
            };
            let removed = if is_all_ours(group, self.agent) {
                document.remove(&list_path, Step::Index(index), emptied)
            } else {
                let handlers_path = [
                    list_path[0],
                    list_path[1],
                    Step::Index(index),
                    Step::Key("hooks"),
                ];
                document.remove(&handlers_path, Step::Index(handler), "")
            };
            removed.map_err(|e| self.edit_error(e))?;
        }
    }

    /// Whether any of [`Self::events`] holds a command of ours.
    fn holds_ours(&self, document: &JsonText) -> Result<bool, InstallError> {
        let settings = document.value().map_err(|e| self.edit_error(e))?;
        Ok(self.events.iter().any(|event| {
            event_list(&settings, event)
                .is_some_and(|list| list.iter().any(|group| is_ours(group, self.agent)))
        }))
    }

    /// Copies the file as it was before (`before`, `None` when there was none) to
    /// [`Self::backup`], unless the file already held our entry and a backup from that
    /// install is there. A backup found while the file holds nothing of ours is left from an
    /// earlier install and is replaced (or removed, when there is no file), so that uninstall
    /// never keeps an empty list because an old copy had one.
    fn back_up(&self, before: Option<&str>, had_ours: bool) -> Result<(), InstallError> {
        let backup = self.backup();
        let failed = |source| InstallError::Io {
            what: "backed up",
            path: backup.clone(),
            source,
        };
        match before {
            None => match std::fs::remove_file(&backup) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(failed(e)),
                Ok(()) | Err(_) => Ok(()),
            },
            Some(_) if had_ours && file::read_plain(&backup).map_err(failed)?.is_some() => Ok(()),
            // Never through a link planted there: `replace` renames over the link itself.
            Some(text) => {
                file::replace(&backup, text.as_bytes(), file::NEW_FILE_MODE).map_err(failed)
            }
        }
    }

    fn not_settings(&self, why: String) -> InstallError {
        InstallError::NotSettings {
            path: self.file.clone(),
            why,
        }
    }

    fn edit_error(&self, error: EditError) -> InstallError {
        self.not_settings(error.to_string())
    }

    /// `text` as a settings document.
    fn document(&self, text: String) -> Result<JsonText, InstallError> {
        JsonText::new(text).map_err(|e| self.edit_error(e))
    }

    /// The file the settings are in: [`Self::file`], or the target of the link it is.
    fn target(&self) -> Result<PathBuf, InstallError> {
        file::resolve_links(&self.file).map_err(|source| InstallError::Io {
            what: "read",
            path: self.file.clone(),
            source,
        })
    }

    /// The text at `path`, `None` when there is no file.
    fn read_text(&self, path: &Path) -> Result<Option<String>, InstallError> {
        file::read_text(path).map_err(|source| InstallError::Io {
            what: "read",
            path: path.to_owned(),
            source,
        })
    }

    /// Replaces `target` (the resolved settings file) with `text`, keeping its mode.
    fn write(&self, target: &Path, text: &str) -> Result<(), InstallError> {
        let failed = |source| InstallError::Io {
            what: "written",
            path: target.to_owned(),
            source,
        };
        if let Some(parent) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(failed)?;
        }
        let mode = file::mode_of(target).unwrap_or(file::NEW_FILE_MODE);
        file::replace(target, text.as_bytes(), mode).map_err(failed)
    }
}

fn event_list<'a>(settings: &'a Value, event: &str) -> Option<&'a Vec<Value>> {
    settings.get("hooks")?.get(event)?.as_array()
}

/// A group's commands (empty when it has none, or is not a group).
fn handlers(group: &Value) -> &[Value] {
    group
        .get("hooks")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Whether a group holds a command of ours.
fn is_ours(group: &Value, agent: ExternalAgent) -> bool {
    handlers(group)
        .iter()
        .any(|handler| is_our_command(handler, agent))
}

/// Whether a group is nothing but ours: only commands of ours, and no key but `matcher` and
/// `hooks` (those of our entry). Anything else in it is someone's, and keeps the group.
fn is_all_ours(group: &Value, agent: ExternalAgent) -> bool {
    let handlers = handlers(group);
    !handlers.is_empty()
        && handlers
            .iter()
            .all(|handler| is_our_command(handler, agent))
        && group
            .as_object()
            .is_some_and(|g| g.keys().all(|key| key == "matcher" || key == "hooks"))
}

/// Whether a command is Ask First's: it ends in `askfirst-hook <agent>`.
fn is_our_command(handler: &Value, agent: ExternalAgent) -> bool {
    let suffix = format!(" {}", agent.slug());
    handler
        .get("command")
        .and_then(Value::as_str)
        .is_some_and(|command| {
            command
                .strip_suffix(&suffix)
                .is_some_and(|program| program.trim_end_matches('\'').ends_with("askfirst-hook"))
        })
}

/// `text` as one shell word (single-quoted unless it is plainly safe).
fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@".contains(c))
    {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use super::*;
    use pretty_assertions::assert_eq;

    const HOOK: &str = "/opt/Ask First/askfirst-hook";

    fn read(path: &Path) -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
    }

    fn text(path: &Path) -> String {
        std::fs::read_to_string(path).expect("read")
    }

    /// The names in `folder`, sorted.
    fn names(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(folder)
            .expect("list")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }

    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path)
            .expect("metadata")
            .permissions()
            .mode()
            & 0o7777
    }

    fn set_mode(path: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }

    /// `settings` (a JSON object, `None` for none) with our entry for `hook` added at the end
    /// of each of the agent's events.
    fn with_ours(settings: Option<Value>, agent: &AgentSettings, hook: &str) -> Value {
        let mut settings = settings.unwrap_or_else(|| serde_json::json!({}));
        let entry = serde_json::to_value(agent.entry(Path::new(hook))).expect("entry");
        for event in agent.events {
            let hooks = settings
                .as_object_mut()
                .expect("object")
                .entry("hooks")
                .or_insert_with(|| serde_json::json!({}));
            let list = hooks
                .as_object_mut()
                .expect("hooks")
                .entry(*event)
                .or_insert_with(|| serde_json::json!([]));
            list.as_array_mut().expect("list").push(entry.clone());
        }
        settings
    }

    /// Settings files of every shape the tests round-trip, by name.
    const SAMPLES: &[(&str, &str)] = &[
        (
            "pretty, two spaces",
            "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test)\"]\n  }\n}\n",
        ),
        (
            "minified, no newline at the end",
            r#"{"model":"opus","permissions":{"allow":["Bash(npm test)"]}}"#,
        ),
        (
            "odd indentation and CRLF",
            "{\r\n   \"model\" : \"opus\" ,\r\n     \"n\":1\r\n}",
        ),
        (
            "tabs, hooks of another event",
            "{\n\t\"hooks\": {\n\t\t\"PostToolUse\": [\n\t\t\t{\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"prettier\"}]}\n\t\t]\n\t},\n\t\"theme\": \"dark\"\n}\n",
        ),
        (
            "their own groups in our events, four spaces",
            "{\n    \"hooks\": {\n        \"PreToolUse\": [\n            { \"matcher\": \"Bash\", \"hooks\": [ { \"type\": \"command\", \"command\": \"/home/me/audit-logger.sh\" } ] }\n        ],\n        \"PermissionRequest\": [{\"hooks\":[{\"type\":\"command\",\"command\":\"my-guard\"}]}],\n        \"BeforeTool\": [ {\"matcher\": \"run_shell_command\", \"hooks\": [{\"type\": \"command\", \"command\": \"guard.sh\"}]} ]\n    }\n}\n",
        ),
        ("an empty hooks object with a space", "{ \"hooks\": { } }"),
        (
            "empty event lists",
            "{\"hooks\": {\"PreToolUse\": [ ], \"PermissionRequest\": [\n], \"BeforeTool\": []}}\n",
        ),
        ("an empty object", "{}\n"),
        ("an empty object with a space", "{ }"),
        ("an empty object over two lines", "{\n}\n"),
        ("whitespace only", "\n  \n"),
        ("an empty file", ""),
        (
            "escapes, other scripts, a number's own spelling",
            "{\"name\":\"caf\\u00e9 ☕\",\"url\":\"https:\\/\\/x\\t\\\"y\\\"\",\"hooks\":{},\"n\":1.50,\"e\":-1E+5,\"z\":-0.0}",
        ),
    ];

    #[test]
    fn install_then_uninstall_gives_back_the_same_bytes_for_every_agent_and_layout() {
        for agent in ExternalAgent::ALL {
            for (name, original) in SAMPLES {
                let home = tempfile::tempdir().expect("home");
                let settings = AgentSettings::under(agent, home.path());
                std::fs::create_dir_all(&settings.folder).expect("folder");
                std::fs::write(&settings.file, original).expect("write");
                let case = format!("{} with {name}", agent.slug());

                assert!(
                    settings.install(Path::new(HOOK)).expect("install"),
                    "{case}"
                );
                assert!(settings.connected().expect("status"), "{case}");
                let before = serde_json::from_str(original).ok();
                assert_eq!(
                    read(&settings.file),
                    with_ours(before, &settings, HOOK),
                    "{case}"
                );
                assert_eq!(text(&settings.backup()), *original, "{case}");
                assert!(!settings.install(Path::new(HOOK)).expect("again"), "{case}");

                assert!(settings.uninstall().expect("uninstall"), "{case}");
                assert_eq!(text(&settings.file), *original, "{case}");
                assert_eq!(
                    names(&settings.folder),
                    [settings.file.file_name().expect("name").to_string_lossy()],
                    "{case}: no backup or temporary file is left"
                );
            }
        }
    }

    #[test]
    fn install_writes_only_the_entry_into_the_text_in_the_files_own_layout() {
        let home = tempfile::tempdir().expect("home");
        let gemini = AgentSettings::under(ExternalAgent::Gemini, home.path());
        std::fs::create_dir_all(&gemini.folder).expect("folder");
        let four_spaces =
            "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"AfterTool\": []\n    }\n}\n";
        std::fs::write(&gemini.file, four_spaces).expect("write");
        assert!(gemini
            .install(Path::new("/usr/bin/askfirst-hook"))
            .expect("install"));
        assert_eq!(
            text(&gemini.file),
            r#"{
    "model": "opus",
    "hooks": {
        "AfterTool": [],
        "BeforeTool": [
            {
                "matcher": ".*",
                "hooks": [
                    {
                        "type": "command",
                        "command": "/usr/bin/askfirst-hook gemini",
                        "timeout": 3660000
                    }
                ]
            }
        ]
    }
}
"#
        );

        let codex = AgentSettings::under(ExternalAgent::Codex, home.path());
        std::fs::create_dir_all(&codex.folder).expect("folder");
        std::fs::write(&codex.file, r#"{"model":"o3"}"#).expect("write");
        assert!(codex
            .install(Path::new("/usr/bin/askfirst-hook"))
            .expect("install"));
        assert_eq!(
            text(&codex.file),
            r#"{"model":"o3","hooks":{"PermissionRequest":[{"hooks":[{"type":"command","command":"/usr/bin/askfirst-hook codex","timeout":3660}]}]}}"#
        );

        let claude = AgentSettings::under(ExternalAgent::ClaudeCode, home.path());
        assert!(claude
            .install(Path::new("/usr/bin/askfirst-hook"))
            .expect("install"));
        let entry = r#"[
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/bin/askfirst-hook claude-code",
            "timeout": 3660
          }
        ]
      }
    ]"#;
        assert_eq!(
            text(&claude.file),
            format!(
                "{{\n  \"hooks\": {{\n    \"PreToolUse\": {entry},\n    \"PermissionRequest\": {entry}\n  }}\n}}\n"
            )
        );
    }

    /// The review's finding: a group holding our command and the person's audit logger.
    const SHARED_GROUP: &str = r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "*",
        "hooks": [
          { "type": "command", "command": "/usr/bin/askfirst-hook claude-code", "timeout": 3660 },
          { "type": "command", "command": "/home/me/audit-logger.sh" }
        ]
      },
      { "matcher": "Bash", "note": "mine", "hooks": [ { "type": "command", "command": "/usr/bin/askfirst-hook claude-code" } ] }
    ]
  }
}
"#;

    /// [`SHARED_GROUP`] with our commands taken out and nothing else changed.
    const SHARED_GROUP_WITHOUT_OURS: &str = r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "*",
        "hooks": [
          { "type": "command", "command": "/home/me/audit-logger.sh" }
        ]
      },
      { "matcher": "Bash", "note": "mine", "hooks": [] }
    ]
  }
}
"#;

    #[test]
    fn a_group_that_holds_someone_elses_command_or_key_keeps_it() {
        let home = tempfile::tempdir().expect("home");
        let settings = AgentSettings::under(ExternalAgent::ClaudeCode, home.path());
        std::fs::create_dir_all(&settings.folder).expect("folder");

        std::fs::write(&settings.file, SHARED_GROUP).expect("write");
        assert!(settings.uninstall().expect("uninstall"));
        assert_eq!(text(&settings.file), SHARED_GROUP_WITHOUT_OURS);

        // Installing over it moves our command into a group of its own; the rest stays.
        std::fs::write(&settings.file, SHARED_GROUP).expect("write");
        assert!(settings
            .install(Path::new("/usr/bin/askfirst-hook"))
            .expect("install"));
        let installed = read(&settings.file);
        let before: Value = serde_json::from_str(SHARED_GROUP_WITHOUT_OURS).expect("json");
        assert_eq!(
            installed,
            with_ours(Some(before), &settings, "/usr/bin/askfirst-hook")
        );
        assert!(settings.uninstall().expect("uninstall"));
        assert_eq!(text(&settings.file), SHARED_GROUP_WITHOUT_OURS);
    }

    #[test]
    fn a_backup_left_from_an_earlier_install_does_not_make_uninstall_keep_anything() {
        let home = tempfile::tempdir().expect("home");
        let claude = AgentSettings::under(ExternalAgent::ClaudeCode, home.path());
        std::fs::create_dir_all(&claude.folder).expect("folder");
        let original = "{\n  \"model\": \"opus\"\n}\n";
        std::fs::write(&claude.file, original).expect("write");
        // From an install whose entries the person since took out by hand.
        std::fs::write(claude.backup(), r#"{"hooks":{"PreToolUse":[]}}"#).expect("stale");
        assert!(claude.install(Path::new(HOOK)).expect("install"));
        assert_eq!(text(&claude.backup()), original);
        assert!(claude.uninstall().expect("uninstall"));
        assert_eq!(
            text(&claude.file),
            original,
            "no \"PreToolUse\": [] is left"
        );

        // A backup without a file: the file Ask First creates is removed again.
        let gemini = AgentSettings::under(ExternalAgent::Gemini, home.path());
        std::fs::create_dir_all(&gemini.folder).expect("folder");
        std::fs::write(gemini.backup(), r#"{"hooks":{}}"#).expect("stale");
        assert!(gemini.install(Path::new(HOOK)).expect("install"));
        assert!(!gemini.backup().exists());
        assert!(gemini.uninstall().expect("uninstall"));
        assert!(!gemini.file.exists());
    }

    #[test]
    fn a_settings_file_that_is_a_link_stays_a_link_and_its_target_is_replaced() {
        let home = tempfile::tempdir().expect("home");
        let settings = AgentSettings::under(ExternalAgent::ClaudeCode, home.path());
        std::fs::create_dir_all(&settings.folder).expect("folder");
        // ~/.claude/settings.json -> ../dotfiles/claude.json -> claude/settings.json
        let dotfiles = home.path().join("dotfiles");
        std::fs::create_dir_all(dotfiles.join("claude")).expect("dotfiles");
        let real = dotfiles.join("claude/settings.json");
        let original = "{\n  \"model\": \"opus\"\n}\n";
        std::fs::write(&real, original).expect("write");
        std::os::unix::fs::symlink("claude/settings.json", dotfiles.join("claude.json"))
            .expect("inner link");
        std::os::unix::fs::symlink("../dotfiles/claude.json", &settings.file).expect("link");
        let links = || {
            (
                std::fs::read_link(&settings.file).expect("still a link"),
                std::fs::read_link(dotfiles.join("claude.json")).expect("still a link"),
            )
        };
        let before = links();

        assert!(settings.install(Path::new(HOOK)).expect("install"));
        assert_eq!(links(), before);
        assert_eq!(
            read(&real),
            with_ours(serde_json::from_str(original).ok(), &settings, HOOK)
        );
        assert!(settings.connected().expect("status"));
        // The backup is beside the link, a plain file; nothing is added to the dotfiles.
        assert!(std::fs::symlink_metadata(settings.backup())
            .expect("backup")
            .is_file());
        assert_eq!(text(&settings.backup()), original);
        assert_eq!(names(&dotfiles), ["claude", "claude.json"]);
        assert_eq!(names(&dotfiles.join("claude")), ["settings.json"]);

        assert!(settings.uninstall().expect("uninstall"));
        assert_eq!(links(), before);
        assert_eq!(text(&real), original);
        assert_eq!(names(&settings.folder), ["settings.json"]);
    }

    #[test]
    fn a_link_planted_at_a_temporary_or_backup_name_is_never_written_through() {
        let home = tempfile::tempdir().expect("home");
        let settings = AgentSettings::under(ExternalAgent::ClaudeCode, home.path());
        std::fs::create_dir_all(&settings.folder).expect("folder");
        let original = "{\n  \"model\": \"opus\"\n}\n";
        std::fs::write(&settings.file, original).expect("write");
        let elsewhere = home.path().join("elsewhere");
        std::fs::create_dir_all(&elsewhere).expect("elsewhere");
        let planted = [
            "settings.json.askfirst-tmp",
            "settings.json.askfirst-backup.askfirst-tmp",
            "settings.json.askfirst-backup",
        ];
        for (n, name) in planted.iter().enumerate() {
            let victim = elsewhere.join(format!("victim-{n}"));
            std::fs::write(&victim, "do not touch").expect("victim");
            std::os::unix::fs::symlink(&victim, settings.folder.join(name)).expect("plant");
        }
        let victims = || {
            (0..planted.len())
                .map(|n| text(&elsewhere.join(format!("victim-{n}"))))
                .collect::<Vec<_>>()
        };

        assert!(settings.install(Path::new(HOOK)).expect("install"));
        assert_eq!(victims(), ["do not touch"; 3]);
        assert!(!std::fs::symlink_metadata(&settings.file)
            .expect("file")
            .file_type()
            .is_symlink());
        assert!(settings.connected().expect("status"));
        // The planted backup link was replaced by a plain copy of the file.
        assert!(std::fs::symlink_metadata(settings.backup())
            .expect("backup")
            .is_file());
        assert_eq!(text(&settings.backup()), original);

        assert!(settings.uninstall().expect("uninstall"));
        assert_eq!(victims(), ["do not touch"; 3]);
        assert_eq!(text(&settings.file), original);
    }

    #[test]
    fn a_temporary_name_that_is_taken_is_skipped_not_opened_and_the_file_is_removed_unless_kept() {
        let folder = tempfile::tempdir().expect("folder");
        let victim = folder.path().join("victim");
        std::fs::write(&victim, "do not touch").expect("victim");
        std::os::unix::fs::symlink(&victim, folder.path().join("taken")).expect("plant");
        let names_tried = ["taken", "free"].map(std::ffi::OsString::from);
        let (mut created, temporary) =
            file::create_temporary(folder.path(), names_tried).expect("a free name");
        std::io::Write::write_all(&mut created, b"new").expect("write");
        assert_eq!(text(&victim), "do not touch");
        assert_eq!(text(&folder.path().join("free")), "new");
        drop(temporary);
        assert_eq!(names(folder.path()), ["taken", "victim"]);

        let all_taken = ["taken"].map(std::ffi::OsString::from);
        assert!(file::create_temporary(folder.path(), all_taken).is_err());
        assert_eq!(text(&victim), "do not touch");
    }

    #[test]
    fn the_settings_file_keeps_its_mode_through_a_link_and_without() {
        let home = tempfile::tempdir().expect("home");
        let claude = AgentSettings::under(ExternalAgent::ClaudeCode, home.path());
        std::fs::create_dir_all(&claude.folder).expect("folder");
        let real = home.path().join("claude-settings.json");
        std::fs::write(&real, "{}\n").expect("write");
        set_mode(&real, 0o640);
        std::os::unix::fs::symlink(&real, &claude.file).expect("link");
        let codex = AgentSettings::under(ExternalAgent::Codex, home.path());
        std::fs::create_dir_all(&codex.folder).expect("folder");
        std::fs::write(&codex.file, "{}\n").expect("write");
        set_mode(&codex.file, 0o604);
        let gemini = AgentSettings::under(ExternalAgent::Gemini, home.path());

        for settings in [&claude, &codex, &gemini] {
            assert!(settings.install(Path::new(HOOK)).expect("install"));
        }
        assert!(read(&real)["hooks"]["PreToolUse"].is_array());
        assert_eq!(mode(&real), 0o640);
        assert_eq!(mode(&codex.file), 0o604);
        assert_eq!(
            mode(&gemini.file),
            0o600,
            "a new file is the person's alone"
        );
        assert_eq!(mode(&claude.backup()), 0o600);

        for settings in [&claude, &codex] {
            assert!(settings.uninstall().expect("uninstall"));
        }
        assert_eq!(text(&real), "{}\n");
        assert_eq!(mode(&real), 0o640);
        assert_eq!(mode(&codex.file), 0o604);
    }

    #[test]
    fn install_keeps_every_other_setting_and_uninstall_removes_exactly_the_entry() {
        let home = tempfile::tempdir().expect("home");
        let settings = AgentSettings::under(ExternalAgent::ClaudeCode, home.path());
        std::fs::create_dir_all(&settings.folder).expect("folder");
        let original = serde_json::json!({
            "model": "opus",
            "permissions": { "allow": ["Bash(npm test)"] },
            "hooks": { "PostToolUse": [{ "matcher": "Write", "hooks": [{ "type": "command", "command": "prettier" }] }] }
        });
        std::fs::write(&settings.file, original.to_string()).expect("write");
        assert!(!settings.connected().expect("status"));
        assert!(settings.install(Path::new(HOOK)).expect("install"));
        assert!(settings.connected().expect("status"));
        let mut expected = original.clone();
        let ours = serde_json::json!([{ "matcher": "*", "hooks": [{
            "type": "command", "command": "'/opt/Ask First/askfirst-hook' claude-code", "timeout": 3660 }] }]);
        expected["hooks"]["PreToolUse"] = ours.clone();
        expected["hooks"]["PermissionRequest"] = ours;
        assert_eq!(read(&settings.file), expected);
        assert_eq!(read(&settings.backup()), original);
        // Installing again changes nothing.
        assert!(!settings.install(Path::new(HOOK)).expect("again"));
        assert!(settings.uninstall().expect("uninstall"));
        assert_eq!(read(&settings.file), original);
        assert!(!settings.backup().exists());
        assert!(!settings.uninstall().expect("nothing left"));
    }

    #[test]
    fn an_older_claude_code_entry_in_pre_tool_use_only_is_not_connected_until_both_are_there() {
        let home = tempfile::tempdir().expect("home");
        let settings = AgentSettings::under(ExternalAgent::ClaudeCode, home.path());
        std::fs::create_dir_all(&settings.folder).expect("folder");
        let older = serde_json::json!({ "hooks": { "PreToolUse": [{ "matcher": "*", "hooks": [{
            "type": "command", "command": "/usr/bin/askfirst-hook claude-code", "timeout": 3660 }] }] } });
        std::fs::write(&settings.file, older.to_string()).expect("write");
        assert!(
            !settings.connected().expect("status"),
            "PermissionRequest is missing"
        );
        assert!(settings
            .install(Path::new("/usr/bin/askfirst-hook"))
            .expect("install"));
        assert!(settings.connected().expect("status"));
        let now = read(&settings.file);
        assert_eq!(
            now["hooks"]["PreToolUse"], older["hooks"]["PreToolUse"],
            "kept, not doubled"
        );
        assert_eq!(
            now["hooks"]["PermissionRequest"],
            older["hooks"]["PreToolUse"]
        );
        assert!(settings.uninstall().expect("uninstall"));
        // The event list the file had before stays, emptied of ours.
        assert_eq!(
            read(&settings.file),
            serde_json::json!({ "hooks": { "PreToolUse": [] } })
        );
    }

    #[test]
    fn a_file_ask_first_created_is_removed_again_and_others_entries_are_kept() {
        let home = tempfile::tempdir().expect("home");
        let settings = AgentSettings::under(ExternalAgent::Gemini, home.path());
        assert!(settings
            .install(Path::new("/usr/bin/askfirst-hook"))
            .expect("install"));
        let installed = read(&settings.file);
        assert_eq!(
            installed["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"],
            serde_json::json!(3_660_000)
        );
        assert!(settings.uninstall().expect("uninstall"));
        assert!(!settings.file.exists());

        let codex = AgentSettings::under(ExternalAgent::Codex, home.path());
        std::fs::create_dir_all(&codex.folder).expect("folder");
        let theirs = serde_json::json!({ "hooks": { "PermissionRequest": [
            { "hooks": [{ "type": "command", "command": "my-guard codex" }] } ] } });
        std::fs::write(&codex.file, theirs.to_string()).expect("write");
        assert!(codex
            .install(Path::new("/usr/bin/askfirst-hook"))
            .expect("install"));
        assert_eq!(
            read(&codex.file)["hooks"]["PermissionRequest"]
                .as_array()
                .map(Vec::len),
            Some(2)
        );
        assert!(codex.uninstall().expect("uninstall"));
        assert_eq!(read(&codex.file), theirs);
    }

    #[test]
    fn a_file_that_is_not_settings_is_left_alone() {
        let home = tempfile::tempdir().expect("home");
        let settings = AgentSettings::under(ExternalAgent::ClaudeCode, home.path());
        std::fs::create_dir_all(&settings.folder).expect("folder");
        std::fs::write(&settings.file, "{ not json").expect("write");
        assert!(matches!(
            settings.install(Path::new(HOOK)),
            Err(InstallError::NotSettings { .. })
        ));
        assert_eq!(
            std::fs::read_to_string(&settings.file).expect("read"),
            "{ not json"
        );
        // Readers disagree on which of two "hooks" counts: neither is changed.
        let twice = r#"{"hooks":{},"hooks":{"PreToolUse":[]}}"#;
        std::fs::write(&settings.file, twice).expect("write");
        assert!(matches!(
            settings.install(Path::new(HOOK)),
            Err(InstallError::NotSettings { .. })
        ));
        assert_eq!(
            std::fs::read_to_string(&settings.file).expect("read"),
            twice
        );
    }
}
