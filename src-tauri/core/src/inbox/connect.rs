//! Settings → "Other agents on this computer": which agents are on this computer and whether
//! they ask through Ask First, and Connect / Disconnect — the same code as
//! `askfirst-hook install|uninstall` ([`askfirst_hook::install`]).

use askfirst_hook::install::{AgentSettings, InstallError};
use askfirst_protocol::{ExternalAgent, OtherAgentView};
use std::path::{Path, PathBuf};

/// Why an agent could not be connected or disconnected.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// The home folder is not known, so the agent's settings cannot be found.
    #[error("the home folder is not known (HOME is not set)")]
    NoHome,
    /// `askfirst-hook` is not beside Ask First, so there is nothing to connect the agent to.
    #[error("askfirst-hook was not found at {}", .0.display())]
    NoHook(PathBuf),
    /// The agent's settings file could not be read or changed.
    #[error(transparent)]
    Settings(#[from] InstallError),
}

/// Where `askfirst-hook` is: beside this program (the app's executable).
pub fn hook_beside(exe: &Path) -> PathBuf {
    exe.with_file_name("askfirst-hook")
}

/// Each agent as Settings lists it; `home` is the person's home folder.
pub fn list(home: Option<&Path>) -> Vec<OtherAgentView> {
    ExternalAgent::ALL
        .into_iter()
        .map(|agent| {
            let Some(home) = home else {
                return OtherAgentView {
                    agent,
                    name: agent.display_name().to_owned(),
                    found: false,
                    connected: false,
                    settings_file: String::new(),
                    problem: Some(super::words::no_home()),
                };
            };
            let settings = AgentSettings::under(agent, home);
            let (connected, problem) = match settings.connected() {
                Ok(connected) => (connected, None),
                Err(_) => (false, Some(super::words::cannot_read(agent.display_name()))),
            };
            OtherAgentView {
                agent,
                name: agent.display_name().to_owned(),
                found: settings.found(),
                connected,
                settings_file: super::card::as_shown(&settings.file.to_string_lossy(), Some(home)),
                problem,
            }
        })
        .collect()
}

/// Adds Ask First's hook entry (`hook`) to `agent`'s settings under `home`.
///
/// # Errors
/// [`ConnectError`]; the settings are then unchanged.
pub fn connect(agent: ExternalAgent, home: Option<&Path>, hook: &Path) -> Result<(), ConnectError> {
    let home = home.ok_or(ConnectError::NoHome)?;
    if !hook.is_file() {
        return Err(ConnectError::NoHook(hook.to_owned()));
    }
    AgentSettings::under(agent, home).install(hook)?;
    Ok(())
}

/// Removes Ask First's hook entry from `agent`'s settings under `home`.
///
/// # Errors
/// [`ConnectError`]; the settings are then unchanged.
pub fn disconnect(agent: ExternalAgent, home: Option<&Path>) -> Result<(), ConnectError> {
    let home = home.ok_or(ConnectError::NoHome)?;
    AgentSettings::under(agent, home).uninstall()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use super::*;

    #[test]
    fn connect_and_disconnect_change_the_agents_settings_and_the_list_says_so() {
        let home = tempfile::tempdir().expect("home");
        std::fs::create_dir(home.path().join(".claude")).expect("folder");
        let hook = home.path().join("askfirst-hook");
        assert!(matches!(
            connect(ExternalAgent::ClaudeCode, Some(home.path()), &hook),
            Err(ConnectError::NoHook(_))
        ));
        std::fs::write(&hook, "").expect("hook");
        let listed = list(Some(home.path()));
        assert_eq!(
            listed
                .iter()
                .map(|a| (a.found, a.connected))
                .collect::<Vec<_>>(),
            [(true, false), (false, false), (false, false)]
        );
        assert_eq!(listed[0].settings_file, "~/.claude/settings.json");
        connect(ExternalAgent::ClaudeCode, Some(home.path()), &hook).expect("connect");
        assert!(list(Some(home.path()))[0].connected);
        disconnect(ExternalAgent::ClaudeCode, Some(home.path())).expect("disconnect");
        assert!(!list(Some(home.path()))[0].connected);
        assert!(!home.path().join(".claude/settings.json").exists());
    }
}
