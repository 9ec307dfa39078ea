//! File tools: `list_directory` (read-only), `write_file` and `move_path` (ask first), and the
//! helpers the other file tools share: atomic writes and change previews (unified diffs).

use super::{
    parse_args, path_argument, CallDescription, HeadTail, Tool, ToolError, Workspace,
    PREVIEW_CAP_BYTES,
};
use crate::policy::MainArgument;
use askfirst_protocol::Risk;
use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;
use std::path::{Path, PathBuf};

/// The largest existing file, in bytes, whose text is read to preview a change; above this the
/// call has no preview.
const PREVIEW_SOURCE_MAX_BYTES: u64 = 2 * 1024 * 1024;

/// How long working out a diff may take before it settles for a coarser one.
const DIFF_TIME_LIMIT: std::time::Duration = std::time::Duration::from_millis(500);

pub(super) fn io_failed(what: &str, path: &str, e: &std::io::Error) -> ToolError {
    ToolError::Failed(format!("Could not {what} {path}: {e}"))
}

/// `list_directory {path}`: the names in a folder, folders first marked with `/`, files with
/// their size in bytes.
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
            "." => "Look at the list of files in your workspace folder".to_owned(),
            shown => format!("Look at the list of files in the folder {shown}"),
        };
        Ok(CallDescription {
            summary,
            risk: Risk::Low,
            preview: None,
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
        let mut folders = Vec::new();
        let mut files = Vec::new();
        while let Some(entry) = reader
            .next_entry()
            .await
            .map_err(|e| io_failed("list", &args.path, &e))?
        {
            let name = entry.file_name().to_string_lossy().into_owned();
            match entry.metadata().await {
                Ok(meta) if meta.is_dir() => folders.push(format!("{name}/")),
                Ok(meta) => files.push(format!("{name} ({} bytes)", meta.len())),
                Err(_) => files.push(name),
            }
        }
        folders.sort();
        files.sort();
        if folders.is_empty() && files.is_empty() {
            return Ok(format!("The folder {} is empty.", ws.display(&path)));
        }
        Ok(folders
            .into_iter()
            .chain(files)
            .collect::<Vec<_>>()
            .join("\n"))
    }
}

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

pub(super) fn plural<N: std::fmt::Display + PartialEq + From<u8>>(
    n: N,
    one: &str,
    many: &str,
) -> String {
    if n == N::from(1) {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
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
        let lines = plural(line_count(&args.content), "line", "lines");
        let (summary, preview) = if path.is_dir() {
            return Err(ToolError::Failed(format!(
                "{shown} is a folder, not a file."
            )));
        } else if path.exists() {
            let preview = read_for_preview(&path)
                .map(|old| unified_diff(Some(&old), &args.content, &shown.replace('\\', "/")));
            (
                format!("Replace everything in {shown} with new text ({lines})"),
                preview,
            )
        } else {
            (
                format!("Create the file {shown} ({lines})"),
                Some(unified_diff(None, &args.content, &shown.replace('\\', "/"))),
            )
        };
        Ok(CallDescription {
            summary,
            risk: Risk::Medium,
            preview,
        })
    }
    fn main_arguments(&self, raw: &str, ws: &Workspace) -> Vec<MainArgument> {
        parse_args::<WriteFileArgs>(self.name(), raw)
            .map(|a| vec![path_argument(&a.path, ws)])
            .unwrap_or_default()
    }
    async fn execute(&self, raw: &str, ws: &Workspace) -> Result<String, ToolError> {
        let args: WriteFileArgs = parse_args(self.name(), raw)?;
        let path = ws.resolve(&args.path)?;
        let shown = ws.display(&path);
        let parent = path
            .parent()
            .ok_or_else(|| ToolError::Failed("No parent folder".into()))?;
        tokio::fs::create_dir_all(parent)
            .await
            .map_err(|e| io_failed("create the folder for", &shown, &e))?;
        // Check again after creating folders: nothing may have moved the target outside.
        let path = ws.resolve(&args.path)?;
        write_atomically(&path, args.content.as_bytes())
            .await
            .map_err(|e| io_failed("write", &shown, &e))?;
        Ok(format!(
            "Wrote {} to {shown}.",
            plural(args.content.len(), "byte", "bytes")
        ))
    }
}

/// The text of an existing file for a change preview: `None` when it cannot be read, is larger
/// than [`PREVIEW_SOURCE_MAX_BYTES`], or is not UTF-8 text.
fn read_for_preview(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.len() > PREVIEW_SOURCE_MAX_BYTES {
        return None;
    }
    let text = String::from_utf8(std::fs::read(path).ok()?).ok()?;
    (!text.contains('\0')).then_some(text)
}

/// A unified diff (3 lines of context) from `old` to `new` for the file `shown` (relative to
/// the workspace, `/` separators): headers `a/<shown>` and `b/<shown>`, or `/dev/null` for a
/// file that does not exist yet (`old` is `None`). Capped at [`PREVIEW_CAP_BYTES`] with the cut
/// stated; an unchanged file gives an empty string.
pub(super) fn unified_diff(old: Option<&str>, new: &str, shown: &str) -> String {
    let old_name = match old {
        Some(_) => format!("a/{shown}"),
        None => "/dev/null".to_owned(),
    };
    let diff = similar::TextDiff::configure()
        .timeout(DIFF_TIME_LIMIT)
        .diff_lines(old.unwrap_or(""), new);
    let text = diff
        .unified_diff()
        .context_radius(3)
        .header(&old_name, &format!("b/{shown}"))
        .to_string();
    let mut capped = HeadTail::new(PREVIEW_CAP_BYTES);
    capped.push(text.as_bytes());
    capped.into_text()
}

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk, then renames it over
/// `path`, so a crash or a full disk never leaves a half-written file in its place. An existing
/// file's permissions (such as "executable") are kept.
pub(super) async fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use tokio::io::AsyncWriteExt;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp: PathBuf =
        path.with_file_name(format!(".{name}.askfirst-{}.tmp", uuid::Uuid::new_v4()));
    let result = async {
        let mut file = tokio::fs::File::create(&tmp).await?;
        file.write_all(bytes).await?;
        file.sync_all().await?;
        drop(file);
        if let Ok(existing) = tokio::fs::metadata(path).await {
            tokio::fs::set_permissions(&tmp, existing.permissions()).await?;
        }
        tokio::fs::rename(&tmp, path).await
    }
    .await;
    if result.is_err() {
        let _ = tokio::fs::remove_file(&tmp).await;
    }
    result
}

/// `move_path {from, to}`: moves or renames a file or folder inside the workspace. `to` is the
/// new path; when it names an existing folder (or ends with `/`), the item moves into it. Never
/// overwrites.
pub struct MovePath;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MovePathArgs {
    from: String,
    to: String,
}

impl MovePath {
    fn targets(
        &self,
        args: &MovePathArgs,
        ws: &Workspace,
    ) -> Result<(PathBuf, PathBuf), ToolError> {
        let from = ws.resolve(&args.from)?;
        if from == ws.root() {
            return Err(ToolError::Failed(
                "The workspace folder itself cannot be moved.".into(),
            ));
        }
        if std::fs::symlink_metadata(&from).is_err() {
            return Err(ToolError::Failed(format!("{} does not exist.", args.from)));
        }
        let mut to = ws.resolve(&args.to)?;
        if args.to.ends_with('/') || to.is_dir() {
            let name = from
                .file_name()
                .ok_or_else(|| ToolError::Failed("No name".into()))?;
            to.push(name);
        }
        if std::fs::symlink_metadata(&to).is_ok() {
            return Err(ToolError::Failed(format!(
                "{} already exists; it will not be overwritten.",
                ws.display(&to)
            )));
        }
        Ok((from, to))
    }
}

#[async_trait]
impl Tool for MovePath {
    fn name(&self) -> &'static str {
        "move_path"
    }
    fn description(&self) -> &'static str {
        "Move or rename a file or folder inside the workspace. `to` is the new path, or an \
         existing folder to move into. Never overwrites. The user is asked first."
    }
    fn parameters_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "from": { "type": "string", "description": "What to move, relative to the workspace" },
                "to": { "type": "string", "description": "Where to, relative to the workspace" }
            },
            "required": ["from", "to"],
            "additionalProperties": false
        })
    }
    fn read_only(&self) -> bool {
        false
    }
    fn describe(&self, raw: &str, ws: &Workspace) -> Result<CallDescription, ToolError> {
        let args: MovePathArgs = parse_args(self.name(), raw)?;
        let (from, to) = self.targets(&args, ws)?;
        let what = if from.is_dir() { "the folder " } else { "" };
        Ok(CallDescription {
            summary: format!("Move {what}{} to {}", ws.display(&from), ws.display(&to)),
            risk: Risk::Medium,
            preview: None,
        })
    }
    fn main_arguments(&self, raw: &str, ws: &Workspace) -> Vec<MainArgument> {
        let Ok(args) = parse_args::<MovePathArgs>(self.name(), raw) else {
            return Vec::new();
        };
        // The real target (`to/<name>` when `to` is a folder), so rules see where it lands.
        match self.targets(&args, ws) {
            Ok((from, to)) => [from, to]
                .into_iter()
                .map(|p| MainArgument {
                    kind: crate::policy::ArgumentKind::Path,
                    text: ws.display(&p).replace('\\', "/"),
                    resolved: Some(p),
                })
                .collect(),
            Err(_) => vec![path_argument(&args.from, ws), path_argument(&args.to, ws)],
        }
    }
    async fn execute(&self, raw: &str, ws: &Workspace) -> Result<String, ToolError> {
        let args: MovePathArgs = parse_args(self.name(), raw)?;
        let (_, to) = self.targets(&args, ws)?;
        if let Some(parent) = to.parent() {
            tokio::fs::create_dir_all(parent)
                .await
                .map_err(|e| io_failed("create the folder for", &args.to, &e))?;
        }
        let (from, to) = self.targets(&args, ws)?;
        tokio::fs::rename(&from, &to)
            .await
            .map_err(|e| io_failed("move", &args.from, &e))?;
        Ok(format!(
            "Moved {} to {}.",
            ws.display(&from),
            ws.display(&to)
        ))
    }
}
