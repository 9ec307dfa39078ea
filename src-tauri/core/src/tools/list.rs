//! `list_directory` (read-only): the names in a folder of the workspace.

use super::files::io_failed;
use super::{parse_args, path_argument, CallDescription, Tool, ToolError, Workspace};
use crate::i18n::{tr, Arg};
use crate::policy::MainArgument;
use crate::text::plural;
use askfirst_protocol::Risk;
use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;

/// The most entries `list_directory` shows of one folder; the rest are counted. 1,000 names of
/// a typical length (about 30 bytes with the size) fit well within
/// [`super::OUTPUT_CAP_BYTES`], and nobody reads more in one go.
pub const LIST_ENTRIES_SHOWN: usize = 1_000;

/// `list_directory {path}`: the names in a folder, folders first marked with `/`, files with
/// their size in bytes; at most [`LIST_ENTRIES_SHOWN`], then a line saying how many more.
pub struct ListDirectory;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListDirectoryArgs {
    path: String,
}

#[async_trait]
impl Tool for ListDirectory {
    fn name(&self) -> &'static str {
        "list_directory"
    }
    fn description(&self) -> &'static str {
        "List the files and folders in a folder of the workspace. `path` is relative to the \
         workspace; use \".\" for the workspace itself."
    }
    fn parameters_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": { "path": { "type": "string", "description": "Folder, relative to the workspace" } },
            "required": ["path"],
            "additionalProperties": false
        })
    }
    fn read_only(&self) -> bool {
        true
    }
    fn describe(&self, raw: &str, ws: &Workspace) -> Result<CallDescription, ToolError> {
        let args: ListDirectoryArgs = parse_args(self.name(), raw)?;
        let path = ws.resolve(&args.path)?;
        let summary = match ws.display(&path).as_str() {
            "." => tr("card-list-workspace", &[]),
            shown => tr("card-list-folder", &[("name", Arg::from(shown))]),
        };
        Ok(CallDescription {
            change: None,
            summary,
            risk: Risk::Low,
            preview: None,
            fingerprint: None,
            effects: Vec::new(),
            detail: None,
        })
    }
    fn main_arguments(&self, raw: &str, ws: &Workspace) -> Vec<MainArgument> {
        parse_args::<ListDirectoryArgs>(self.name(), raw)
            .map(|a| vec![path_argument(&a.path, ws)])
            .unwrap_or_default()
    }
    async fn execute(&self, raw: &str, ws: &Workspace) -> Result<String, ToolError> {
        let args: ListDirectoryArgs = parse_args(self.name(), raw)?;
        let path = ws.resolve(&args.path)?;
        let mut reader = tokio::fs::read_dir(&path)
            .await
            .map_err(|e| io_failed("list", &args.path, &e))?;
        // The first LIST_ENTRIES_SHOWN entries in the order shown (folders first, then by
        // name), kept in a heap of that size, so a folder of a million entries is read in
        // bounded memory; the others are only counted.
        let mut kept: std::collections::BinaryHeap<(bool, String)> =
            std::collections::BinaryHeap::new();
        let mut total = 0usize;
        while let Some(entry) = reader
            .next_entry()
            .await
            .map_err(|e| io_failed("list", &args.path, &e))?
        {
            total += 1;
            let name = entry.file_name().to_string_lossy().into_owned();
            // `DirEntry::metadata` does not follow symlinks and opens nothing.
            let line = match entry.metadata().await {
                Ok(meta) if meta.is_dir() => (false, format!("{name}/")),
                Ok(meta) => (true, format!("{name} ({} bytes)", meta.len())),
                Err(_) => (true, name),
            };
            if kept.len() < LIST_ENTRIES_SHOWN {
                kept.push(line);
            } else if kept.peek().is_some_and(|last| line < *last) {
                kept.pop();
                kept.push(line);
            }
        }
        if total == 0 {
            return Ok(format!("The folder {} is empty.", ws.display(&path)));
        }
        let mut lines: Vec<String> = kept
            .into_sorted_vec()
            .into_iter()
            .map(|(_, line)| line)
            .collect();
        let more = total - lines.len();
        if more > 0 {
            lines.push(format!(
                "…and {} not listed (Ask First lists at most {LIST_ENTRIES_SHOWN} entries of a \
                 folder; list a subfolder to see less at once).",
                plural(more, "more entry", "more entries")
            ));
        }
        Ok(lines.join("\n"))
    }
}
