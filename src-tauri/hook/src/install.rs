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
//! Every other setting is kept (the file is rewritten with its keys in sorted order). Before
//! the first change the file is copied to `<file>.askfirst-backup`. The entry is ours when one
//! of its commands ends in `askfirst-hook <agent>`; uninstall removes those entries, and the
//! event list and `hooks` object only when they are left empty and were not there before.

use askfirst_protocol::ExternalAgent;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

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

    fn backup(&self) -> PathBuf {
        let mut name = self.file.as_os_str().to_owned();
        name.push(".askfirst-backup");
        PathBuf::from(name)
    }

    /// The hook entry for `hook` (the `askfirst-hook` program's absolute path).
    fn entry(&self, hook: &Path) -> Value {
        let command = format!(
            "{} {}",
            shell_quote(&hook.to_string_lossy()),
            self.agent.slug()
        );
        let timeout = match self.agent {
            ExternalAgent::Gemini => HOOK_TIMEOUT_SECS * 1000,
            ExternalAgent::ClaudeCode | ExternalAgent::Codex => HOOK_TIMEOUT_SECS,
        };
        let handler =
            serde_json::json!({ "type": "command", "command": command, "timeout": timeout });
        match self.agent {
            ExternalAgent::ClaudeCode => serde_json::json!({ "matcher": "*", "hooks": [handler] }),
            ExternalAgent::Gemini => serde_json::json!({ "matcher": ".*", "hooks": [handler] }),
            ExternalAgent::Codex => serde_json::json!({ "hooks": [handler] }),
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
        let settings = self.read()?.unwrap_or_default();
        Ok(self.events.iter().all(|event| {
            event_list(&settings, event)
                .is_some_and(|list| list.iter().any(|group| is_ours(group, self.agent)))
        }))
    }

    /// Adds Ask First's entry for `hook` (replacing an older entry of ours); returns whether
    /// the file changed.
    ///
    /// # Errors
    /// [`InstallError`]; the file is then unchanged.
    pub fn install(&self, hook: &Path) -> Result<bool, InstallError> {
        let before = self.read()?;
        let mut settings = before.clone().unwrap_or_default();
        let hooks = object_at(&mut settings, "hooks", &self.file)?;
        let entry = self.entry(hook);
        let mut changed = false;
        for event in self.events {
            let list = match hooks
                .entry(*event)
                .or_insert_with(|| Value::Array(Vec::new()))
            {
                Value::Array(list) => list,
                _ => return Err(self.not_settings(format!("hooks.{event} is not a list"))),
            };
            if list
                .iter()
                .filter(|g| is_ours(g, self.agent))
                .eq(std::iter::once(&entry))
            {
                continue;
            }
            list.retain(|group| !is_ours(group, self.agent));
            list.push(entry.clone());
            changed = true;
        }
        if !changed {
            return Ok(false);
        }
        if let Some(original) = &before {
            if !self.backup().exists() {
                let text = serde_json::to_string_pretty(original).unwrap_or_default();
                write_atomically(&self.backup(), &text).map_err(|source| InstallError::Io {
                    what: "backed up",
                    path: self.backup(),
                    source,
                })?;
            }
        }
        self.write(&Value::Object(settings))?;
        Ok(true)
    }

    /// Removes Ask First's entries (and only them); returns whether the file changed.
    ///
    /// # Errors
    /// [`InstallError`]; the file is then unchanged.
    pub fn uninstall(&self) -> Result<bool, InstallError> {
        let Some(mut settings) = self.read()? else {
            return Ok(false);
        };
        // What was there before Ask First's first change: empty containers it had stay.
        let original = std::fs::read_to_string(self.backup())
            .ok()
            .and_then(|text| serde_json::from_str::<Map<String, Value>>(&text).ok());
        let had_hooks = original.as_ref().is_some_and(|o| o.contains_key("hooks"));
        let Some(Value::Object(hooks)) = settings.get_mut("hooks") else {
            return Ok(false);
        };
        let mut changed = false;
        for event in self.events {
            let had_event = original
                .as_ref()
                .is_some_and(|o| event_list(o, event).is_some());
            let Some(Value::Array(list)) = hooks.get_mut(*event) else {
                continue;
            };
            let len = list.len();
            list.retain(|group| !is_ours(group, self.agent));
            if list.len() == len {
                continue;
            }
            changed = true;
            if list.is_empty() && !had_event {
                hooks.remove(*event);
            }
        }
        if !changed {
            return Ok(false);
        }
        if hooks.is_empty() && !had_hooks {
            settings.remove("hooks");
        }
        if settings.is_empty() && original.is_none() {
            std::fs::remove_file(&self.file).map_err(|source| InstallError::Io {
                what: "written",
                path: self.file.clone(),
                source,
            })?;
        } else {
            self.write(&Value::Object(settings))?;
        }
        let _ = std::fs::remove_file(self.backup());
        Ok(true)
    }

    fn not_settings(&self, why: String) -> InstallError {
        InstallError::NotSettings {
            path: self.file.clone(),
            why,
        }
    }

    /// The settings object, `None` when there is no file.
    fn read(&self) -> Result<Option<Map<String, Value>>, InstallError> {
        let text = match std::fs::read_to_string(&self.file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(InstallError::Io {
                    what: "read",
                    path: self.file.clone(),
                    source,
                })
            }
        };
        if text.trim().is_empty() {
            return Ok(Some(Map::new()));
        }
        match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => Ok(Some(map)),
            Ok(_) => Err(self.not_settings("it is not a JSON object".into())),
            Err(error) => Err(self.not_settings(error.to_string())),
        }
    }

    fn write(&self, settings: &Value) -> Result<(), InstallError> {
        let mut text = serde_json::to_string_pretty(settings).unwrap_or_default();
        text.push('\n');
        if let Some(parent) = self.file.parent() {
            std::fs::create_dir_all(parent).map_err(|source| InstallError::Io {
                what: "written",
                path: self.file.clone(),
                source,
            })?;
        }
        write_atomically(&self.file, &text).map_err(|source| InstallError::Io {
            what: "written",
            path: self.file.clone(),
            source,
        })
    }
}

fn event_list<'a>(settings: &'a Map<String, Value>, event: &str) -> Option<&'a Vec<Value>> {
    settings.get("hooks")?.get(event)?.as_array()
}

fn object_at<'a>(
    settings: &'a mut Map<String, Value>,
    key: &str,
    path: &Path,
) -> Result<&'a mut Map<String, Value>, InstallError> {
    match settings
        .entry(key)
        .or_insert_with(|| Value::Object(Map::new()))
    {
        Value::Object(map) => Ok(map),
        _ => Err(InstallError::NotSettings {
            path: path.to_owned(),
            why: format!("\"{key}\" is not an object"),
        }),
    }
}

/// Whether a hook group is Ask First's: one of its commands ends in `askfirst-hook <agent>`.
fn is_ours(group: &Value, agent: ExternalAgent) -> bool {
    let suffix = format!(" {}", agent.slug());
    group
        .get("hooks")
        .and_then(Value::as_array)
        .is_some_and(|handlers| {
            handlers.iter().any(|h| {
                h.get("command").and_then(Value::as_str).is_some_and(|c| {
                    c.strip_suffix(&suffix).is_some_and(|program| {
                        program.trim_end_matches('\'').ends_with("askfirst-hook")
                    })
                })
            })
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

/// Writes `text` to a temporary file beside `path` and renames it over `path`, keeping the
/// old file's permissions (0600 for a new one: settings may hold keys).
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).map_or(0o600, |m| m.permissions().mode() & 0o7777);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".askfirst-tmp");
    let tmp = PathBuf::from(tmp);
    let mut file = std::fs::File::create(&tmp)?;
    file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&tmp, path)
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
    }
}
