//! `read_file` (read-only): the text of one file in the workspace, capped for the model.

use super::files::io_failed;
use super::{
    parse_args, path_argument, CallDescription, HeadTail, Tool, ToolError, Workspace,
    OUTPUT_CAP_BYTES,
};
use crate::i18n::{tr, Arg};
use crate::policy::MainArgument;
use crate::text::plural;
use askfirst_protocol::Risk;
use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// `read_file {path}`: the text of a file. A file larger than [`OUTPUT_CAP_BYTES`] is shown as
/// its first and last 50 KB with a line `[… N bytes cut …]` between them (only those parts are
/// read from disk). A binary file (one with NUL bytes) is reported by size, not shown; other
/// bytes that are not UTF-8 are shown as U+FFFD and the reply says so.
pub struct ReadFile;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadFileArgs {
    path: String,
}

/// The file `given` names, which must exist inside the workspace and not be a folder.
fn existing_file(given: &str, ws: &Workspace) -> Result<PathBuf, ToolError> {
    let path = ws.resolve(given)?;
    let shown = ws.display(&path);
    match std::fs::metadata(&path) {
        Ok(meta) if meta.is_dir() => Err(ToolError::said(
            format!("{shown} is a folder, not a file; use list_directory to see what is in it."),
            "tool_failed-is_a_folder",
            &[("name", Arg::from(&shown))],
        )),
        Ok(meta) => {
            // From metadata alone: a named pipe is never opened (that could wait forever).
            super::special::refuse_special(&meta, &shown)?;
            Ok(path)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(ToolError::said(
            format!("The file {shown} does not exist."),
            "tool_failed-no_such_file",
            &[("name", Arg::from(&shown))],
        )),
        Err(e) => Err(io_failed("read", &shown, &e)),
    }
}

/// Whether the opened `file` really lies inside the workspace. On Linux this asks the kernel
/// where the open file is (`/proc/self/fd`), which catches a symlink swapped in between the
/// check of the path and the open; elsewhere (or without `/proc`) the check of the path stands
/// alone.
pub(super) fn opened_inside(file: &std::fs::File, ws: &Workspace) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        if let Ok(real) = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())) {
            return real.starts_with(ws.root());
        }
    }
    let _ = (file, ws);
    true
}

/// Opens `path` for reading, never blocking and only if it is an ordinary file (see
/// [`super::special::open_regular`]: a named pipe swapped in after the check is refused, not
/// waited on), and checks where the open file really is.
pub(super) fn open_inside(
    path: &Path,
    given: &str,
    ws: &Workspace,
) -> Result<std::fs::File, ToolError> {
    let file = super::special::open_regular(path).map_err(|e| e.into_tool_error("read", given))?;
    if !opened_inside(&file, ws) {
        return Err(ToolError::OutsideWorkspace {
            path: given.to_owned(),
        });
    }
    Ok(file)
}

/// Reads the first and last `OUTPUT_CAP_BYTES / 2` bytes of `file` (or all of it when small).
fn read_capped(mut file: std::fs::File) -> std::io::Result<HeadTail> {
    let total = file.metadata()?.len();
    let cap = OUTPUT_CAP_BYTES as u64;
    if total <= cap {
        let mut all = Vec::new();
        file.read_to_end(&mut all)?;
        let mut kept = HeadTail::new(OUTPUT_CAP_BYTES.max(all.len()));
        kept.push(&all);
        return Ok(kept);
    }
    let half = cap / 2;
    let mut head = Vec::new();
    (&mut file).take(half).read_to_end(&mut head)?;
    file.seek(SeekFrom::Start(total - half))?;
    let mut tail = Vec::new();
    file.take(half).read_to_end(&mut tail)?;
    Ok(HeadTail::from_parts(head, tail, total))
}

#[async_trait]
impl Tool for ReadFile {
    fn name(&self) -> &'static str {
        "read_file"
    }
    fn description(&self) -> &'static str {
        "Read a text file in the workspace. `path` is relative to the workspace. Very long \
         files show their start and end, with a note saying how much was cut; binary files \
         are not shown."
    }
    fn parameters_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": { "path": { "type": "string", "description": "File, relative to the workspace" } },
            "required": ["path"],
            "additionalProperties": false
        })
    }
    fn read_only(&self) -> bool {
        true
    }
    fn describe(&self, raw: &str, ws: &Workspace) -> Result<CallDescription, ToolError> {
        let args: ReadFileArgs = parse_args(self.name(), raw)?;
        let path = existing_file(&args.path, ws)?;
        Ok(CallDescription {
            change: None,
            detail: None,
            summary: tr("card-read", &[("name", Arg::from(ws.display(&path)))]),
            risk: Risk::Low,
            preview: None,
            fingerprint: None,
            effects: Vec::new(),
        })
    }
    fn main_arguments(&self, raw: &str, ws: &Workspace) -> Vec<MainArgument> {
        parse_args::<ReadFileArgs>(self.name(), raw)
            .map(|a| vec![path_argument(&a.path, ws)])
            .unwrap_or_default()
    }
    async fn execute(&self, raw: &str, ws: &Workspace) -> Result<String, ToolError> {
        let args: ReadFileArgs = parse_args(self.name(), raw)?;
        // Resolved again: a symlink may have changed since the call was described.
        let path = existing_file(&args.path, ws)?;
        let shown = ws.display(&path);
        let ws_for_read = ws.clone();
        let given = args.path.clone();
        let kept = tokio::task::spawn_blocking(move || {
            let file = open_inside(&path, &given, &ws_for_read)?;
            read_capped(file).map_err(|e| io_failed("read", &given, &e))
        })
        .await
        .map_err(|e| {
            ToolError::said(
                format!("Reading {shown} stopped unexpectedly: {e}"),
                "tool_failed-interrupted-read",
                &[("name", Arg::from(&shown))],
            )
        })??;
        if kept.total() == 0 {
            return Ok(format!("The file {shown} is empty."));
        }
        if kept.looks_binary() {
            return Ok(format!(
                "{shown} is a binary file ({}), not text, so it is not shown.",
                plural(kept.total(), "byte", "bytes")
            ));
        }
        let lossy = kept.has_invalid_utf8();
        let text = kept.into_text();
        if lossy {
            return Ok(format!(
                "[Some bytes of {shown} are not UTF-8 text; they are shown as \u{FFFD}.]\n{text}"
            ));
        }
        Ok(text)
    }
}

/// The whole text of the file `given` (relative to the folder), exactly, for another agent's
/// `fs/read_text_file` ([`crate::acp`]) after the policy let the read happen: opened as
/// `read_file` opens it (inside the folder, an ordinary file), never cut — an agent that
/// writes back a text it was given cut would lose the rest. At most `cap` bytes.
///
/// # Errors
/// The sentence for the agent's model (English): no such file, outside the folder, larger
/// than `cap`, binary, not UTF-8, or reading failed.
pub fn whole_text(given: &str, ws: &Workspace, cap: usize) -> Result<String, String> {
    let path = existing_file(given, ws).map_err(|e| e.to_string())?;
    let file = open_inside(&path, given, ws).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(cap as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_failed("read", given, &e).to_string())?;
    if bytes.len() > cap {
        return Err(format!(
            "{given} is larger than {} MB; Ask First does not pass on larger files whole.",
            cap / (1024 * 1024)
        ));
    }
    if bytes.contains(&0) {
        return Err(format!("{given} is a binary file, not text."));
    }
    String::from_utf8(bytes).map_err(|_| format!("{given} is not UTF-8 text."))
}
