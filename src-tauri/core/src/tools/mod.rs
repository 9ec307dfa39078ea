//! The tools the agent may call. Each declares its risk, validates its arguments, says in plain
//! words what one call will do, and runs confined to the [`Workspace`].
//!
//! Arguments arrive as the model's raw JSON text; a tool parses that exact text both to describe
//! the call and to run it, so what runs is what was shown.

mod fs;
mod workspace;

pub use fs::{ListDirectory, MovePath, WriteFile};
pub use workspace::Workspace;

use crate::policy::{ArgumentKind, MainArgument};
use askfirst_protocol::Risk;
use async_trait::async_trait;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Why a tool call could not be described or run. The message is what the model is told, so it
/// says what went wrong and how to do better.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// The arguments are not valid JSON or do not fit the tool's schema.
    #[error("The arguments for {tool} are not valid: {detail}")]
    InvalidArguments {
        /// The tool's name.
        tool: String,
        /// What is wrong, from the JSON parser.
        detail: String,
    },
    /// A path is absolute, climbs out with `..`, or resolves outside the workspace.
    #[error(
        "The path {path:?} is outside the workspace folder; only paths inside it can be used."
    )]
    OutsideWorkspace {
        /// The path as given.
        path: String,
    },
    /// The tool ran and failed (file missing, permission denied, …).
    #[error("{0}")]
    Failed(String),
}

/// A description of one proposed call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallDescription {
    /// One plain sentence for a non-programmer, e.g. "Create summary.txt (3 lines)".
    pub summary: String,
    /// How risky this call is.
    pub risk: Risk,
}

/// One tool the agent can call.
#[async_trait]
pub trait Tool: Send + Sync {
    /// The name the model uses, e.g. `write_file`.
    fn name(&self) -> &'static str;
    /// What the tool does, for the model.
    fn description(&self) -> &'static str;
    /// JSON Schema of the arguments object, for the model.
    fn parameters_schema(&self) -> serde_json::Value;
    /// Whether the tool only reads. Read-only tools are allowed by default; every other tool
    /// asks.
    fn read_only(&self) -> bool;
    /// Validates the raw arguments and says what the call will do.
    ///
    /// # Errors
    /// [`ToolError::InvalidArguments`] or [`ToolError::OutsideWorkspace`].
    fn describe(
        &self,
        arguments_json: &str,
        workspace: &Workspace,
    ) -> Result<CallDescription, ToolError>;
    /// The call's main arguments for the policy (paths, commands, URLs); empty when the
    /// arguments are invalid or the tool has none.
    fn main_arguments(&self, _arguments_json: &str, _workspace: &Workspace) -> Vec<MainArgument> {
        Vec::new()
    }
    /// Runs the call with exactly these raw arguments; returns the text the model is told.
    ///
    /// # Errors
    /// Any [`ToolError`]; the message is told to the model.
    async fn execute(
        &self,
        arguments_json: &str,
        workspace: &Workspace,
    ) -> Result<String, ToolError>;
}

/// A tool as offered to the model: name, description and JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    /// The tool's name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// JSON Schema of its arguments object.
    pub parameters: serde_json::Value,
}

/// The set of tools a run may use, by name.
#[derive(Clone, Default)]
pub struct ToolSet {
    tools: BTreeMap<&'static str, Arc<dyn Tool>>,
}

impl ToolSet {
    /// The built-in tools: `list_directory`, `write_file`, `move_path`.
    pub fn builtin() -> Self {
        let mut set = Self::default();
        set.add(Arc::new(ListDirectory));
        set.add(Arc::new(WriteFile));
        set.add(Arc::new(MovePath));
        set
    }

    /// Adds (or replaces) a tool.
    pub fn add(&mut self, tool: Arc<dyn Tool>) {
        self.tools.insert(tool.name(), tool);
    }

    /// The tool called `name`, if any.
    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.tools.get(name).cloned()
    }

    /// The names of all tools, sorted.
    pub fn names(&self) -> Vec<&'static str> {
        self.tools.keys().copied().collect()
    }

    /// All tools as offered to the model.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.tools
            .values()
            .map(|t| ToolSpec {
                name: t.name().to_owned(),
                description: t.description().to_owned(),
                parameters: t.parameters_schema(),
            })
            .collect()
    }
}

/// Parses a tool's raw arguments into its typed form.
///
/// # Errors
/// [`ToolError::InvalidArguments`] with the parser's message.
pub(crate) fn parse_args<T: DeserializeOwned>(tool: &str, raw: &str) -> Result<T, ToolError> {
    serde_json::from_str(raw).map_err(|e| ToolError::InvalidArguments {
        tool: tool.to_owned(),
        detail: e.to_string(),
    })
}

/// A path argument as the policy sees it: relative to the workspace where it resolves inside,
/// with `resolved: None` where it does not.
pub(crate) fn path_argument(given: &str, workspace: &Workspace) -> MainArgument {
    match workspace.resolve(given) {
        Ok(resolved) => MainArgument {
            kind: ArgumentKind::Path,
            text: workspace.display(&resolved).replace('\\', "/"),
            resolved: Some(resolved),
        },
        Err(_) => MainArgument {
            kind: ArgumentKind::Path,
            text: given.to_owned(),
            resolved: None,
        },
    }
}
