//! One MCP tool as the agent sees it ([`McpTool`], a [`Tool`]): its arguments checked to mean
//! exactly what the card showed, its card summary, and its result turned into text for the
//! model.

use super::naming::{ListedTool, McpToolInfo};
use super::server::SupervisedServer;
use crate::canonical::{canonical_json, oversized_integer};
use crate::i18n::{tr, Arg};
use crate::policy::{Contents, MainArgument};
use crate::text::display_label;
use crate::tools::{
    CallDescription, HeadTail, OnStop, Tool, ToolError, Workspace, OUTPUT_CAP_BYTES,
};
use async_trait::async_trait;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, ResourceContents};
use std::sync::Arc;

/// One tool of an MCP server, as the agent sees it.
pub(super) struct McpTool {
    server: Arc<SupervisedServer>,
    info: McpToolInfo,
    description: String,
    schema: serde_json::Value,
}

impl McpTool {
    /// The tool `listed` of `server`.
    pub(super) fn new(server: Arc<SupervisedServer>, listed: &ListedTool) -> Self {
        Self {
            server,
            info: listed.info.clone(),
            description: listed.description.clone(),
            schema: listed.schema.clone(),
        }
    }

    /// The raw arguments as the JSON object sent to the server, which must mean exactly what
    /// the card showed: an object, no key twice, no integer too large to pass on exactly.
    fn arguments(&self, raw: &str) -> Result<JsonObject, ToolError> {
        let invalid = |detail: String| ToolError::InvalidArguments {
            tool: self.info.name.clone(),
            detail,
        };
        let value: serde_json::Value =
            serde_json::from_str(raw).map_err(|e| invalid(e.to_string()))?;
        let serde_json::Value::Object(object) = value else {
            return Err(invalid(
                "they must be a JSON object, like {\"path\": \"notes.txt\"}".to_owned(),
            ));
        };
        if canonical_json(raw).is_none() {
            return Err(invalid(
                "a key appears twice in the same object; give each key once".to_owned(),
            ));
        }
        if let Some(number) = oversized_integer(raw) {
            return Err(invalid(format!(
                "the number {number} is too large to pass on exactly; write it as a string if \
                 the tool accepts one"
            )));
        }
        Ok(object)
    }
}

#[async_trait]
impl Tool for McpTool {
    fn name(&self) -> &str {
        &self.info.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn parameters_schema(&self) -> serde_json::Value {
        self.schema.clone()
    }

    fn read_only(&self) -> bool {
        self.info.read_only
    }

    fn mcp_server(&self) -> Option<&str> {
        Some(&self.server.config.name)
    }

    /// Every text of the arguments that names a path: path rules (deny and ask) and the
    /// own-files denial hold for MCP tools too, whatever the argument is called. An MCP server
    /// runs outside our sandbox and may act on everything inside a folder it is given (a
    /// move, a search), so rules about anything inside it apply too ([`Contents::Outside`]).
    fn main_arguments(&self, arguments_json: &str, workspace: &Workspace) -> Vec<MainArgument> {
        let mut arguments = serde_json::from_str::<serde_json::Value>(arguments_json)
            .map(|value| crate::tools::mentioned_paths(&value, workspace))
            .unwrap_or_default();
        for argument in &mut arguments {
            argument.contents = Contents::Outside;
        }
        arguments
    }

    fn describe(
        &self,
        arguments_json: &str,
        _workspace: &Workspace,
    ) -> Result<CallDescription, ToolError> {
        self.arguments(arguments_json)?;
        let tool = display_label(&self.info.server_tool, 80);
        let server = self.server.shown_name();
        let title = self
            .info
            .hints
            .title
            .as_deref()
            .map(|t| display_label(t, 80))
            .filter(|t| !t.is_empty());
        // What the server calls it is shown as it wrote it, inside the person's sentence.
        let summary = match title {
            Some(title) => tr(
                "mcp-call-titled",
                &[
                    ("tool", Arg::from(tool)),
                    ("server", Arg::from(server)),
                    ("title", Arg::from(title)),
                ],
            ),
            None => tr(
                "mcp-call",
                &[("tool", Arg::from(tool)), ("server", Arg::from(server))],
            ),
        };
        Ok(CallDescription {
            change: None,
            summary,
            risk: self.info.risk,
            preview: None,
            fingerprint: None,
            effects: Vec::new(),
            detail: None,
        })
    }

    fn on_stop(&self) -> OnStop {
        // The server may already have done it, or finish it after the request is dropped.
        OnStop::Abandon
    }
    async fn execute(
        &self,
        arguments_json: &str,
        _workspace: &Workspace,
    ) -> Result<String, ToolError> {
        let arguments = self.arguments(arguments_json)?;
        let result = self.server.call(&self.info.server_tool, arguments).await?;
        let text = result_text(&result);
        if result.is_error == Some(true) {
            let (tool, server) = (
                display_label(&self.info.server_tool, 80),
                self.server.shown_name(),
            );
            return Err(ToolError::said(
                format!(
                    "The tool \"{tool}\" of the MCP server \"{server}\" reported an error: {text}"
                ),
                "mcp-tool_error",
                &[
                    ("tool", Arg::from(&tool)),
                    ("server", Arg::from(&server)),
                    ("said", Arg::from(&text)),
                ],
            ));
        }
        Ok(text)
    }
}

/// The text of a tool's result for the model, capped at [`OUTPUT_CAP_BYTES`]: its text
/// blocks and the text of embedded resources, one after another; other content (images,
/// audio, binary resources, links) named by a line in brackets; the structured result when
/// there is no content at all.
fn result_text(result: &CallToolResult) -> String {
    let mut parts: Vec<String> = Vec::new();
    for block in &result.content {
        let part = match block {
            ContentBlock::Text(text) => text.text.clone(),
            ContentBlock::Image(image) => format!(
                "[an image ({}) that cannot be shown here]",
                display_label(&image.mime_type, 80)
            ),
            ContentBlock::Audio(audio) => format!(
                "[a sound ({}) that cannot be played here]",
                display_label(&audio.mime_type, 80)
            ),
            ContentBlock::Resource(embedded) => match &embedded.resource {
                ResourceContents::TextResourceContents { text, .. } => text.clone(),
                ResourceContents::BlobResourceContents { uri, .. } => {
                    format!(
                        "[binary content {} that cannot be shown here]",
                        display_label(uri, 200)
                    )
                }
                // A kind of resource newer than this code.
                _ => "[content of a kind Ask First cannot show]".to_owned(),
            },
            ContentBlock::ResourceLink(link) => {
                format!("[a link to {}]", display_label(&link.uri, 200))
            }
            // A kind of content newer than this code (the enum is non-exhaustive).
            _ => "[content of a kind Ask First cannot show]".to_owned(),
        };
        parts.push(part);
    }
    if parts.is_empty() {
        if let Some(structured) = &result.structured_content {
            parts.push(structured.to_string());
        }
    }
    if parts.is_empty() {
        return "(The tool returned nothing.)".to_owned();
    }
    let mut capped = HeadTail::new(OUTPUT_CAP_BYTES);
    capped.push(parts.join("\n").as_bytes());
    capped.into_text()
}
