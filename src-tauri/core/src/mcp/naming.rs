//! The names an MCP server's tools are offered to the model under: `server__tool`, made of
//! `[A-Za-z0-9_-]` and at most [`MAX_TOOL_NAME_LEN`] long, as the OpenAI and Anthropic APIs
//! require, a number added where two would be the same.

use super::hints::{hints, treatment, McpHints};
use crate::text::{display_label, truncate_text};
use askfirst_protocol::Risk;
use std::collections::BTreeSet;

/// The longest tool name offered to the model, in ASCII characters: 64, the limit of the
/// OpenAI and Anthropic APIs (`^[a-zA-Z0-9_-]{1,64}$`).
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// The longest server name used in tool names (`server__tool`), in ASCII characters: the
/// longest name the settings accept.
const MAX_SERVER_PREFIX_LEN: usize = super::MAX_SERVER_NAME_CHARS;

/// The longest tool description passed on to the model, in bytes; longer ones are cut.
const MAX_DESCRIPTION_BYTES: usize = 4096;

/// One tool of a running server, as listed and as Ask First treats it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpToolInfo {
    /// The name offered to the model: `server__tool`, only `[A-Za-z0-9_-]`, at most
    /// [`MAX_TOOL_NAME_LEN`] characters.
    pub name: String,
    /// The tool's own name on its server.
    pub server_tool: String,
    /// Its annotations.
    pub hints: McpHints,
    /// Whether the policy sees it as read-only: only for a trusted server and
    /// `readOnlyHint: true`.
    pub read_only: bool,
    /// The risk every call of it carries.
    pub risk: Risk,
}

/// A tool as the server listed it.
pub(super) struct ListedTool {
    pub(super) info: McpToolInfo,
    pub(super) description: String,
    pub(super) schema: serde_json::Value,
}

/// The tools a server listed, with the names offered to the model: `prefix__tool` made of
/// `[A-Za-z0-9_-]`, at most [`MAX_TOOL_NAME_LEN`] long, a number added where two would be the
/// same.
pub(super) fn name_tools(
    prefix: &str,
    listed: Vec<rmcp::model::Tool>,
    trusted: bool,
) -> Vec<ListedTool> {
    let mut taken = BTreeSet::new();
    listed
        .into_iter()
        .map(|tool| {
            let base = truncate_ascii(
                &format!("{prefix}__{}", sanitize(&tool.name)),
                MAX_TOOL_NAME_LEN,
            );
            let mut name = base.clone();
            let mut n = 2;
            while !taken.insert(name.clone()) {
                let suffix = format!("_{n}");
                name = format!(
                    "{}{suffix}",
                    truncate_ascii(&base, MAX_TOOL_NAME_LEN - suffix.len())
                );
                n += 1;
            }
            let hints = hints(tool.annotations.as_ref(), tool.title.as_deref());
            let (read_only, risk) = treatment(&hints, trusted);
            let description = match tool.description.as_deref().map(str::trim) {
                Some(text) if !text.is_empty() => truncate_text(text, MAX_DESCRIPTION_BYTES),
                _ => format!(
                    "The tool \"{}\" of an MCP server (no description given).",
                    display_label(&tool.name, 80)
                ),
            };
            ListedTool {
                info: McpToolInfo {
                    name,
                    server_tool: tool.name.to_string(),
                    hints,
                    read_only,
                    risk,
                },
                description,
                schema: serde_json::Value::Object((*tool.input_schema).clone()),
            }
        })
        .collect()
}

/// The server's part of its tools' names: its name with every character outside
/// `[A-Za-z0-9_-]` replaced by `_`, at most 40 characters.
pub(super) fn server_prefix(name: &str) -> String {
    truncate_ascii(&sanitize(name), MAX_SERVER_PREFIX_LEN)
}

/// `text` with every character outside `[A-Za-z0-9_-]` replaced by `_`.
fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The first `max` bytes of ASCII `text` (all of it when shorter).
fn truncate_ascii(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}
