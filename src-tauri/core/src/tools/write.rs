//! `write_file` (asks first): creates or replaces a text file, with a diff of the change on
//! the card and a check that the file did not change after it was shown.

use super::files::{create_parent_dirs, io_failed, write_atomically};
use super::preview::{current_file, file_fingerprint, unified_diff, Current, Fingerprint};
use super::{parse_args, path_argument, CallDescription, OnStop, Tool, ToolError, Workspace};
use crate::i18n::{tr, Arg};
use crate::policy::MainArgument;
use crate::text::plural;
use askfirst_protocol::Risk;
use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;

/// `write_file {path, content}`: creates or replaces a text file, atomically (a temporary file
/// in the same folder, then a rename), creating missing parent folders.
pub struct WriteFile;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WriteFileArgs {
    path: String,
    content: String,
}

fn line_count(text: &str) -> usize {
    text.lines().count()
}

#[async_trait]
impl Tool for WriteFile {
    fn name(&self) -> &'static str {
        "write_file"
    }
    fn description(&self) -> &'static str {
        "Create a text file, or replace all of an existing file's text. `path` is relative to \
         the workspace. The user is asked first."
    }
    fn parameters_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "path": { "type": "string", "description": "File, relative to the workspace" },
                "content": { "type": "string", "description": "The whole new text of the file" }
            },
            "required": ["path", "content"],
            "additionalProperties": false
        })
    }
    fn read_only(&self) -> bool {
        false
    }
    fn describe(&self, raw: &str, ws: &Workspace) -> Result<CallDescription, ToolError> {
        let args: WriteFileArgs = parse_args(self.name(), raw)?;
        let path = ws.resolve(&args.path)?;
        let shown = ws.display(&path);
        let lines = Arg::from(line_count(&args.content));
        // One read gives both the diff and the fingerprint, so the change shown is the change
        // checked before running: a file edited between two reads cannot slip in unseen.
        let (summary, preview, fingerprint, change) = match current_file(&path) {
            Current::Folder => {
                return Err(ToolError::said(
                    format!("{shown} is a folder, not a file."),
                    "tool_failed-is_a_folder",
                    &[("name", Arg::from(&shown))],
                ))
            }
            Current::Special(kind) => return Err(super::special::refusal(&shown, kind)),
            Current::Absent => (
                tr(
                    "card-write-create",
                    &[("name", Arg::from(&shown)), ("lines", lines)],
                ),
                Some(unified_diff(None, &args.content, &shown.replace('\\', "/"))),
                Fingerprint::Absent,
                Some(askfirst_protocol::CallChange::NewFile),
            ),
            Current::File { text, fingerprint } => (
                tr(
                    "card-write-replace",
                    &[("name", Arg::from(&shown)), ("lines", lines)],
                ),
                text.map(|old| unified_diff(Some(&old), &args.content, &shown.replace('\\', "/"))),
                fingerprint,
                None,
            ),
        };
        Ok(CallDescription {
            change,
            summary,
            risk: Risk::Medium,
            preview,
            fingerprint: Some(fingerprint.to_string()),
            effects: Vec::new(),
            detail: None,
        })
    }
    fn fingerprint(&self, raw: &str, ws: &Workspace) -> Option<String> {
        let args: WriteFileArgs = parse_args(self.name(), raw).ok()?;
        Some(file_fingerprint(&ws.resolve(&args.path).ok()?).to_string())
    }
    fn main_arguments(&self, raw: &str, ws: &Workspace) -> Vec<MainArgument> {
        parse_args::<WriteFileArgs>(self.name(), raw)
            .map(|a| vec![path_argument(&a.path, ws)])
            .unwrap_or_default()
    }
    fn planned_change(&self, raw: &str, ws: &Workspace) -> Option<crate::undo::Planned> {
        let args: WriteFileArgs = parse_args(self.name(), raw).ok()?;
        Some(crate::undo::Planned::Replace(ws.resolve(&args.path).ok()?))
    }
    fn repeat_changes_nothing(&self) -> bool {
        true
    }
    fn on_stop(&self) -> OnStop {
        // The write runs on a blocking thread that dropping the future does not stop.
        OnStop::Finish
    }
    async fn execute(&self, raw: &str, ws: &Workspace) -> Result<String, ToolError> {
        let args: WriteFileArgs = parse_args(self.name(), raw)?;
        let path = ws.resolve(&args.path)?;
        let shown = ws.display(&path);
        if let Some(kind) = super::special::special_at(&path) {
            return Err(super::special::refusal(&shown, kind));
        }
        create_parent_dirs(ws, &path)
            .await
            .map_err(|e| io_failed("create the folder for", &shown, &e))?;
        // Check again after creating folders: nothing may have moved the target outside.
        let path = ws.resolve(&args.path)?;
        write_atomically(ws, &path, args.content.as_bytes())
            .await
            .map_err(|e| io_failed("write", &shown, &e))?;
        Ok(format!(
            "Wrote {} to {shown}.",
            plural(args.content.len(), "byte", "bytes")
        ))
    }
}
