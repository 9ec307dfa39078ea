//! The ACP agents Ask First knows how to start, and which of them are on this computer (a
//! program of that name on `PATH`). Commands are from each agent's own documentation
//! (`shared/research/anchors-run-first-notify-acp-restart.md` §3.1): Gemini CLI
//! `gemini --acp`, the Claude adapter `claude-agent-acp`, `codex-acp`, `goose acp`,
//! `copilot --acp`, `opencode acp`.

use askfirst_protocol::{WorkerView, WorkersView, OWN_AGENT};
use std::path::{Path, PathBuf};

/// An agent program Ask First can host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcpAgent {
    /// A short stable id (`gemini`, `claude`, …; `custom` for one the person typed).
    pub id: String,
    /// The name people know it by ("Gemini CLI"), shown on cards.
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
}

/// One known agent: id, name, program, arguments.
struct Known {
    id: &'static str,
    name: &'static str,
    program: &'static str,
    args: &'static [&'static str],
}

const KNOWN: &[Known] = &[
    Known {
        id: "gemini",
        name: "Gemini CLI",
        program: "gemini",
        args: &["--acp"],
    },
    Known {
        id: "claude",
        name: "Claude",
        program: "claude-agent-acp",
        args: &[],
    },
    Known {
        id: "codex",
        name: "Codex",
        program: "codex-acp",
        args: &[],
    },
    Known {
        id: "goose",
        name: "goose",
        program: "goose",
        args: &["acp"],
    },
    Known {
        id: "copilot",
        name: "GitHub Copilot CLI",
        program: "copilot",
        args: &["--acp"],
    },
    Known {
        id: "opencode",
        name: "OpenCode",
        program: "opencode",
        args: &["acp"],
    },
];

/// The name of the known agent `id` ("Gemini CLI"), if it is one.
pub fn known_name(id: &str) -> Option<&'static str> {
    KNOWN.iter().find(|k| k.id == id).map(|k| k.name)
}

/// Where `program` is on `path` (a `PATH` value), if it is an executable file there.
pub fn on_path(program: &str, path: &std::ffi::OsStr) -> Option<PathBuf> {
    if program.contains('/') {
        let given = Path::new(program);
        return is_executable(given).then(|| given.to_owned());
    }
    std::env::split_paths(path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// The known agents whose program is on `path` (normally the `PATH` of Ask First's
/// environment), in the order above, each with its usual command.
pub fn find_agents(path: &std::ffi::OsStr) -> Vec<AcpAgent> {
    KNOWN
        .iter()
        .filter(|k| on_path(k.program, path).is_some())
        .map(|k| AcpAgent {
            id: k.id.to_owned(),
            name: k.name.to_owned(),
            command: std::iter::once(k.program)
                .chain(k.args.iter().copied())
                .map(str::to_owned)
                .collect(),
        })
        .collect()
}

/// How `agent` is shown among the choices (`None`: Ask First's own agent).
pub fn view(agent: Option<&AcpAgent>) -> WorkerView {
    match agent {
        Some(agent) => WorkerView {
            id: agent.id.clone(),
            name: agent.name.clone(),
            command: askfirst_shell_line::words::quoted_line(&agent.command),
        },
        None => WorkerView {
            id: OWN_AGENT.to_owned(),
            name: String::new(),
            command: String::new(),
        },
    }
}

/// "Who does the work": `chosen` in force, and the choices — Ask First's own agent, the
/// agents found on `path`, and `chosen` when it is not one of them.
pub fn workers(chosen: Option<&AcpAgent>, path: &std::ffi::OsStr) -> WorkersView {
    let mut choices = vec![view(None)];
    for found in find_agents(path) {
        // The command the person gave the chosen one is shown, not the usual one.
        match chosen.filter(|c| c.id == found.id) {
            Some(chosen) => choices.push(view(Some(chosen))),
            None => choices.push(view(Some(&found))),
        }
    }
    if let Some(chosen) = chosen.filter(|c| !choices.iter().any(|v| v.id == c.id)) {
        choices.push(view(Some(chosen)));
    }
    WorkersView {
        chosen: view(chosen),
        choices,
    }
}

/// The agent a choice names: `None` for Ask First's own; else the agent `id` started with
/// `command` (one line, split as a shell splits words), named as known or after its program.
///
/// # Errors
/// [`NoCommand`] when the line is empty or cannot be split (an unclosed quote).
pub fn chosen(id: &str, command: &str) -> Result<Option<AcpAgent>, NoCommand> {
    if id == OWN_AGENT {
        return Ok(None);
    }
    let words = askfirst_shell_line::words::words(command).map_err(|_| NoCommand)?;
    let Some(program) = words.first() else {
        return Err(NoCommand);
    };
    let (id, name) = match known_name(id) {
        Some(name) => (id.to_owned(), name.to_owned()),
        None => (
            "custom".to_owned(),
            Path::new(program)
                .file_name()
                .map_or_else(|| program.clone(), |n| n.to_string_lossy().into_owned()),
        ),
    };
    Ok(Some(AcpAgent {
        id,
        name: crate::text::display_label(&name, 80),
        command: words,
    }))
}

/// A choice of another agent without a command to start it with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("no command to start the agent with")]
pub struct NoCommand;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn only_agents_whose_program_is_on_the_path_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let gemini = dir.path().join("gemini");
        std::fs::write(&gemini, "#!/bin/sh\n").unwrap();
        std::fs::write(dir.path().join("codex-acp"), "not executable").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&gemini, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let shown = workers(None, dir.path().as_os_str());
        assert_eq!(
            shown
                .choices
                .iter()
                .map(|c| c.id.as_str())
                .collect::<Vec<_>>(),
            ["askfirst", "gemini"]
        );
        assert_eq!(shown.choices[1].command, "gemini --acp");
        assert_eq!(shown.chosen.id, "askfirst");
        let found = find_agents(dir.path().as_os_str());
        assert_eq!(
            found,
            vec![AcpAgent {
                id: "gemini".into(),
                name: "Gemini CLI".into(),
                command: vec!["gemini".into(), "--acp".into()],
            }]
        );
    }
}

#[cfg(test)]
mod choice_tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_choice_is_the_command_given_split_as_a_shell_splits_it() {
        assert_eq!(chosen("askfirst", "anything"), Ok(None));
        assert_eq!(
            chosen("gemini", "gemini --acp -m 'gemini 2.5'"),
            Ok(Some(AcpAgent {
                id: "gemini".into(),
                name: "Gemini CLI".into(),
                command: vec![
                    "gemini".into(),
                    "--acp".into(),
                    "-m".into(),
                    "gemini 2.5".into()
                ],
            }))
        );
        assert_eq!(
            chosen("custom", "/opt/my-agent/bin/agent --stdio")
                .unwrap()
                .unwrap()
                .name,
            "agent"
        );
        assert_eq!(chosen("gemini", "  "), Err(NoCommand));
        assert_eq!(chosen("gemini", "gemini 'unclosed"), Err(NoCommand));
    }
}
