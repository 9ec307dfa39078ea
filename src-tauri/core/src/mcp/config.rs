//! The settings of one MCP server (`mcp_servers` in `settings.json`) and the checks a server
//! must pass before it is saved or started.

use crate::text::display_label;
use askfirst_protocol::SaveMcpServerRequest;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One MCP server in `settings.json`, under `mcp_servers`:
///
/// ```json
/// {"name": "filesystem", "command": "npx",
///  "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/Documents"],
///  "env": {"SOME_TOKEN": "…"}, "trusted": false}
/// ```
///
/// The server runs as a child process speaking MCP over its stdin and stdout (the spec's
/// stdio transport); it inherits Ask First's environment plus `env`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpServerConfig {
    /// The name shown to the user and used in tool names (`name__tool`).
    pub name: String,
    /// The program to run (looked up on `PATH` when it has no `/`).
    pub command: String,
    /// Its arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Extra environment variables; values may be secrets (`Debug` redacts them).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Whether the user trusts this server's read-only hints: only then may its tools marked
    /// `readOnlyHint: true` run without asking.
    #[serde(default)]
    pub trusted: bool,
}

impl std::fmt::Debug for McpServerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let env: BTreeMap<&str, &str> = self
            .env
            .keys()
            .map(|k| (k.as_str(), "<redacted>"))
            .collect();
        f.debug_struct("McpServerConfig")
            .field("name", &self.name)
            .field("command", &self.command)
            .field("args", &self.args)
            .field("env", &env)
            .field("trusted", &self.trusted)
            .finish()
    }
}

/// The longest MCP server name, in characters: 40, so that `name__tool` leaves room for the
/// tool's own name within [`super::MAX_TOOL_NAME_LEN`].
pub const MAX_SERVER_NAME_CHARS: usize = 40;

/// Why a server's settings from the settings screen ([`SaveMcpServerRequest`]) cannot be
/// saved. The message is a sentence for the person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum McpConfigError {
    /// The name is empty (after trimming) or longer than [`MAX_SERVER_NAME_CHARS`].
    #[error("Give the server a name of 1 to {MAX_SERVER_NAME_CHARS} characters.")]
    NameLength,
    /// The name has a character other than ASCII letters, digits, `-` and `_`.
    #[error(
        "A server name may use only letters (without accents), digits, \"-\" and \"_\" (it \
         becomes part of its tools' names)."
    )]
    NameCharacters,
    /// The server being edited (`previous_name`) is no longer saved.
    #[error("There is no MCP server named \"{previous}\" any more.")]
    NoLongerSaved {
        /// The name it had.
        previous: String,
    },
    /// Another saved server has this name, ignoring ASCII case.
    #[error(
        "Another MCP server is already named \"{other}\"; names may not differ only in capitals."
    )]
    NameTaken {
        /// The other server's name as saved.
        other: String,
    },
    /// The command line has a quote that is not closed.
    #[error("The command has a quote that is not closed.")]
    UnclosedQuote,
    /// The command line is empty.
    #[error(
        "Say which program starts the server (for example: npx -y \
         @modelcontextprotocol/server-filesystem ~/Documents)."
    )]
    NoProgram,
    /// An environment variable's name is not letters, digits and `_` (not starting with a
    /// digit).
    #[error(
        "\"{name}\" cannot be an environment variable's name: use letters, digits and \"_\", \
         not starting with a digit."
    )]
    VariableName {
        /// The name given (trimmed).
        name: String,
    },
    /// A variable was sent without a value and this server had none saved under that name.
    #[error("Give the variable {name} a value.")]
    VariableValue {
        /// The variable.
        name: String,
    },
    /// The same variable is listed twice.
    #[error("The variable {name} is listed twice.")]
    VariableTwice {
        /// The variable.
        name: String,
    },
}

impl McpConfigError {
    /// The sentence for the person in the current language (the `Display` text is the English
    /// one, for logs).
    pub fn sentence(&self) -> String {
        use crate::i18n::{tr, Arg};
        match self {
            Self::NameLength => tr(
                "mcp_config-name_length",
                &[("limit", Arg::from(MAX_SERVER_NAME_CHARS))],
            ),
            Self::NameCharacters => tr("mcp_config-name_characters", &[]),
            Self::NoLongerSaved { previous } => tr(
                "mcp_config-no_longer_saved",
                &[("name", Arg::from(previous))],
            ),
            Self::NameTaken { other } => tr("mcp_config-name_taken", &[("name", Arg::from(other))]),
            Self::UnclosedQuote => tr("mcp_config-unclosed_quote", &[]),
            Self::NoProgram => tr("mcp_config-no_program", &[]),
            Self::VariableName { name } => {
                tr("mcp_config-variable_name", &[("name", Arg::from(name))])
            }
            Self::VariableValue { name } => {
                tr("mcp_config-variable_value", &[("name", Arg::from(name))])
            }
            Self::VariableTwice { name } => {
                tr("mcp_config-variable_twice", &[("name", Arg::from(name))])
            }
        }
    }
}

/// Checks a [`SaveMcpServerRequest`] against the servers saved now (`saved`) and builds the
/// server's settings: the name trimmed, the command line split like a POSIX shell splits words
/// (quotes and backslashes; `shell-words`), and every variable the request lists, a variable
/// sent without a value keeping the value saved for the server being edited.
///
/// # Errors
/// The first [`McpConfigError`] found, in the order: name, the server being edited, a name
/// taken, the command line, then each variable in order.
pub fn validated_server(
    request: SaveMcpServerRequest,
    saved: &[McpServerConfig],
) -> Result<McpServerConfig, McpConfigError> {
    let name = request.name.trim().to_owned();
    if name.is_empty() || name.chars().count() > MAX_SERVER_NAME_CHARS {
        return Err(McpConfigError::NameLength);
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(McpConfigError::NameCharacters);
    }
    let previous = request
        .previous_name
        .as_deref()
        .map(|previous| {
            saved
                .iter()
                .find(|s| s.name == previous)
                .ok_or_else(|| McpConfigError::NoLongerSaved {
                    previous: previous.to_owned(),
                })
        })
        .transpose()?;
    let taken = saved
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(&name) && previous.is_none_or(|p| p.name != s.name));
    if let Some(other) = taken {
        return Err(McpConfigError::NameTaken {
            other: other.name.clone(),
        });
    }
    let words = askfirst_shell_line::words::words(request.command_line.trim())
        .map_err(|_| McpConfigError::UnclosedQuote)?;
    let Some((command, args)) = words.split_first() else {
        return Err(McpConfigError::NoProgram);
    };
    let mut env = BTreeMap::new();
    for entry in request.env {
        let var = entry.name.trim().to_owned();
        let valid = var
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(McpConfigError::VariableName { name: var });
        }
        let value = match entry.value {
            Some(value) => value,
            None => previous
                .and_then(|p| p.env.get(&var).cloned())
                .ok_or_else(|| McpConfigError::VariableValue { name: var.clone() })?,
        };
        if env.insert(var.clone(), value).is_some() {
            return Err(McpConfigError::VariableTwice { name: var });
        }
    }
    Ok(McpServerConfig {
        name,
        command: command.clone(),
        args: args.to_vec(),
        env,
        trusted: request.trusted,
    })
}

/// Why a saved server can never start as it is saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum StartupProblem {
    /// It has no name.
    NoName,
    /// It has no command (its name as shown).
    NoCommand(String),
    /// An earlier server has the same name, or one differing only in punctuation.
    SameName(String),
}

impl StartupProblem {
    /// For the model (the result of a call of its tools): English.
    pub(super) fn english(&self) -> String {
        match self {
            Self::NoName => {
                "An MCP server in the settings has no name; give it one to use it.".to_owned()
            }
            Self::NoCommand(shown) => format!(
                "The MCP server \"{shown}\" has no command in the settings, so it cannot be \
                 started. Give it one in Settings (Edit)."
            ),
            Self::SameName(shown) => format!(
                "Another MCP server in the settings has the same name as \"{shown}\" (or one \
                 that differs only in punctuation); give each its own name."
            ),
        }
    }

    /// For the person (the server's state in Settings), in their language.
    pub(super) fn person(&self) -> String {
        use crate::i18n::{tr, Arg};
        match self {
            Self::NoName => tr("mcp-problem-no_name", &[]),
            Self::NoCommand(shown) => tr("mcp-problem-no_command", &[("server", Arg::from(shown))]),
            Self::SameName(shown) => tr("mcp-problem-same_name", &[("server", Arg::from(shown))]),
        }
    }
}

/// Why `config` can never start as saved, if it cannot (`prefixes`: the tool-name prefixes of
/// the servers before it; this one's is added).
pub(super) fn startup_problem(
    config: &McpServerConfig,
    prefix: &str,
    prefixes: &mut BTreeSet<String>,
) -> Option<StartupProblem> {
    let shown = display_label(&config.name, 80);
    if config.name.trim().is_empty() {
        Some(StartupProblem::NoName)
    } else if config.command.trim().is_empty() {
        Some(StartupProblem::NoCommand(shown))
    } else if !prefixes.insert(prefix.to_owned()) {
        Some(StartupProblem::SameName(shown))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use askfirst_protocol::McpEnvEntry;
    use pretty_assertions::assert_eq;

    fn request(name: &str, command_line: &str) -> SaveMcpServerRequest {
        SaveMcpServerRequest {
            previous_name: None,
            name: name.to_owned(),
            command_line: command_line.to_owned(),
            env: Vec::new(),
            trusted: false,
        }
    }

    fn saved(name: &str, env: &[(&str, &str)]) -> McpServerConfig {
        McpServerConfig {
            name: name.to_owned(),
            command: "npx".to_owned(),
            args: Vec::new(),
            env: env
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            trusted: false,
        }
    }

    #[test]
    fn a_valid_request_gives_the_server_with_its_words_split() {
        let mut request = request("  files ", "npx -y '@scope/server fs' ~/Docs");
        request.env = vec![McpEnvEntry {
            name: " TOKEN ".to_owned(),
            value: Some("s3cret".to_owned()),
        }];
        request.trusted = true;
        assert_eq!(
            validated_server(request, &[]),
            Ok(McpServerConfig {
                name: "files".to_owned(),
                command: "npx".to_owned(),
                args: vec![
                    "-y".to_owned(),
                    "@scope/server fs".to_owned(),
                    "~/Docs".to_owned()
                ],
                env: [("TOKEN".to_owned(), "s3cret".to_owned())].into(),
                trusted: true,
            })
        );
    }

    #[test]
    fn each_mistake_is_its_own_error() {
        let taken = [saved("Files", &[])];
        let long = "x".repeat(MAX_SERVER_NAME_CHARS + 1);
        for (request, saved, want) in [
            (request(" ", "npx"), &[][..], McpConfigError::NameLength),
            (request(&long, "npx"), &[][..], McpConfigError::NameLength),
            (
                request("fichiers-é", "npx"),
                &[][..],
                McpConfigError::NameCharacters,
            ),
            (
                request("files", "npx"),
                &taken[..],
                McpConfigError::NameTaken {
                    other: "Files".to_owned(),
                },
            ),
            (
                request("files", "npx 'open"),
                &[][..],
                McpConfigError::UnclosedQuote,
            ),
            (request("files", "   "), &[][..], McpConfigError::NoProgram),
        ] {
            assert_eq!(validated_server(request, saved), Err(want));
        }
        let mut gone = request("files", "npx");
        gone.previous_name = Some("old".to_owned());
        assert_eq!(
            validated_server(gone, &[]),
            Err(McpConfigError::NoLongerSaved {
                previous: "old".to_owned()
            })
        );
    }

    #[test]
    fn variables_are_checked_and_a_value_left_out_is_kept_from_the_saved_server() {
        let saved = [saved("files", &[("TOKEN", "kept")])];
        let entry = |name: &str, value: Option<&str>| McpEnvEntry {
            name: name.to_owned(),
            value: value.map(str::to_owned),
        };
        let with = |previous: Option<&str>, env: Vec<McpEnvEntry>| SaveMcpServerRequest {
            previous_name: previous.map(str::to_owned),
            env,
            ..request("files", "npx")
        };
        let edited = validated_server(with(Some("files"), vec![entry("TOKEN", None)]), &saved);
        assert_eq!(
            edited.unwrap().env.get("TOKEN").map(String::as_str),
            Some("kept")
        );
        assert_eq!(
            validated_server(with(None, vec![entry("TOKEN", None)]), &[]),
            Err(McpConfigError::VariableValue {
                name: "TOKEN".to_owned()
            })
        );
        assert_eq!(
            validated_server(with(None, vec![entry("1A", Some("v"))]), &[]),
            Err(McpConfigError::VariableName {
                name: "1A".to_owned()
            })
        );
        assert_eq!(
            validated_server(
                with(None, vec![entry("A", Some("1")), entry("A", Some("2"))]),
                &[]
            ),
            Err(McpConfigError::VariableTwice {
                name: "A".to_owned()
            })
        );
        // Renaming a server to another capitalisation of its own name is no clash.
        let renamed = SaveMcpServerRequest {
            previous_name: Some("files".to_owned()),
            ..request("Files", "npx")
        };
        assert_eq!(validated_server(renamed, &saved).unwrap().name, "Files");
    }
}
