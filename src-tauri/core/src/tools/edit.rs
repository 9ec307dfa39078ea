//! `edit_file` (asks first): replaces one exact passage of a text file in the workspace.

use super::files::{io_failed, write_atomically};
use super::preview::{file_fingerprint, unified_diff, Fingerprint};
use super::read::open_inside;
use super::{parse_args, path_argument, CallDescription, OnStop, Tool, ToolError, Workspace};
use crate::i18n::{tr, Arg};
use crate::policy::MainArgument;
use crate::text::plural;
use askfirst_protocol::Risk;
use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;
use similar::{ChangeTag, TextDiff};
use std::io::Read;
use std::path::PathBuf;

/// The largest file, in bytes, that `edit_file` works on.
const EDIT_MAX_BYTES: u64 = 10 * 1024 * 1024;

/// `edit_file {path, old_text, new_text}`: replaces the one place where `old_text` occurs in a
/// UTF-8 text file (at most 10 MB) with `new_text`, written atomically. `old_text` must occur
/// exactly once (overlapping occurrences count); otherwise nothing changes and the error says
/// how many times it occurs. The description carries a unified diff of the change.
pub struct EditFile;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EditFileArgs {
    path: String,
    old_text: String,
    new_text: String,
}

/// One edit, worked out against the file as it is now.
struct Plan {
    path: PathBuf,
    shown: String,
    before: String,
    after: String,
}

impl Plan {
    /// How many lines the edit removes and adds.
    fn changed_lines(&self) -> (usize, usize) {
        let diff = TextDiff::configure()
            .timeout(std::time::Duration::from_millis(500))
            .diff_lines(self.before.as_str(), self.after.as_str());
        let (mut removed, mut added) = (0, 0);
        for change in diff.iter_all_changes() {
            match change.tag() {
                ChangeTag::Delete => removed += 1,
                ChangeTag::Insert => added += 1,
                ChangeTag::Equal => {}
            }
        }
        (removed, added)
    }

    /// The change for the card, in the person's language, e.g. "Replace 3 lines in
    /// notes/todo.txt".
    fn card_words(&self) -> String {
        let (removed, added) = self.changed_lines();
        let name = ("name", Arg::from(&self.shown));
        let (key, args) = if removed == added {
            (
                "card-edit-replace",
                [
                    name,
                    ("removed", Arg::from(removed)),
                    ("added", Arg::from(added)),
                ],
            )
        } else if added == 0 {
            (
                "card-edit-remove",
                [
                    name,
                    ("removed", Arg::from(removed)),
                    ("added", Arg::from(added)),
                ],
            )
        } else if removed == 0 {
            (
                "card-edit-add",
                [
                    name,
                    ("removed", Arg::from(removed)),
                    ("added", Arg::from(added)),
                ],
            )
        } else {
            (
                "card-edit-replace_with",
                [
                    name,
                    ("removed", Arg::from(removed)),
                    ("added", Arg::from(added)),
                ],
            )
        };
        tr(key, &args)
    }

    /// The change in words for the model, in English, e.g. "Replaced 3 lines in
    /// notes/todo.txt" (`done` for the past tense).
    fn words(&self, done: bool) -> String {
        let (removed, added) = self.changed_lines();
        let lines = |n| plural(n, "line", "lines");
        let shown = &self.shown;
        let (replace, remove, add) = if done {
            ("Replaced", "Removed", "Added")
        } else {
            ("Replace", "Remove", "Add")
        };
        if removed == added {
            format!("{replace} {} in {shown}", lines(removed))
        } else if added == 0 {
            format!("{remove} {} from {shown}", lines(removed))
        } else if removed == 0 {
            format!("{add} {} to {shown}", lines(added))
        } else {
            format!(
                "{replace} {} with {} in {shown}",
                lines(removed),
                lines(added)
            )
        }
    }
}

/// How many times `needle` occurs in `haystack`, overlapping occurrences included.
fn occurrences(haystack: &str, needle: &str) -> usize {
    let step = needle.chars().next().map_or(1, char::len_utf8);
    let mut count = 0;
    let mut start = 0;
    while let Some(found) = haystack.get(start..).and_then(|rest| rest.find(needle)) {
        count += 1;
        start += found + step;
    }
    count
}

fn invalid(detail: &str) -> ToolError {
    ToolError::InvalidArguments {
        tool: "edit_file".to_owned(),
        detail: detail.to_owned(),
    }
}

/// Resolves the file, reads it and checks that `old_text` occurs exactly once.
fn plan(args: &EditFileArgs, ws: &Workspace) -> Result<Plan, ToolError> {
    if args.old_text.is_empty() {
        return Err(invalid(
            "old_text is empty; give the exact text to replace, copied from the file.",
        ));
    }
    if args.old_text == args.new_text {
        return Err(invalid(
            "old_text and new_text are the same, so nothing would change.",
        ));
    }
    let path = ws.resolve(&args.path)?;
    let shown = ws.display(&path);
    let meta = match std::fs::metadata(&path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ToolError::said(
                format!("The file {shown} does not exist; use write_file to create it."),
                "tool_failed-no_such_file",
                &[("name", Arg::from(&shown))],
            ))
        }
        Err(e) => return Err(io_failed("read", &shown, &e)),
    };
    if meta.is_dir() {
        return Err(ToolError::said(
            format!("{shown} is a folder, not a file."),
            "tool_failed-is_a_folder",
            &[("name", Arg::from(&shown))],
        ));
    }
    super::special::refuse_special(&meta, &shown)?;
    if meta.len() > EDIT_MAX_BYTES {
        return Err(ToolError::said(
            format!(
                "{shown} is too large to edit ({} bytes; the limit is 10 MB).",
                meta.len()
            ),
            "tool_failed-edit_too_large",
            &[
                ("name", Arg::from(&shown)),
                ("limit", Arg::from(EDIT_MAX_BYTES / (1024 * 1024))),
            ],
        ));
    }
    let mut bytes = Vec::new();
    open_inside(&path, &args.path, ws)?
        .read_to_end(&mut bytes)
        .map_err(|e| io_failed("read", &shown, &e))?;
    let before = String::from_utf8(bytes).map_err(|_| {
        ToolError::said(
            format!("{shown} is not a UTF-8 text file, so it cannot be edited."),
            "tool_failed-not_text",
            &[("name", Arg::from(&shown))],
        )
    })?;
    match occurrences(&before, &args.old_text) {
        1 => {}
        0 => {
            let line_endings = if before.contains("\r\n") && !args.old_text.contains("\r\n") {
                " The file uses Windows line endings (\\r\\n)."
            } else {
                ""
            };
            return Err(ToolError::said(
                format!(
                    "The text to replace does not occur in {shown}.{line_endings} Read the file \
                     and copy the text exactly, including spaces and line breaks."
                ),
                "tool_failed-edit_not_found",
                &[("name", Arg::from(&shown))],
            ));
        }
        n => {
            return Err(ToolError::said(
                format!(
                    "The text to replace occurs {n} times in {shown}; it must occur exactly \
                     once. Include more of the surrounding lines so that it matches only one \
                     place."
                ),
                "tool_failed-edit_many",
                &[("name", Arg::from(&shown)), ("count", Arg::from(n))],
            ))
        }
    }
    let after = before.replacen(&args.old_text, &args.new_text, 1);
    Ok(Plan {
        path,
        shown,
        before,
        after,
    })
}

#[async_trait]
impl Tool for EditFile {
    fn name(&self) -> &'static str {
        "edit_file"
    }
    fn description(&self) -> &'static str {
        "Change part of a text file: replace `old_text`, which must occur exactly once in the \
         file (copy it exactly, with enough surrounding lines to be unique), with `new_text`. \
         `path` is relative to the workspace. The user is asked first."
    }
    fn parameters_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "path": { "type": "string", "description": "File, relative to the workspace" },
                "old_text": { "type": "string", "description": "The exact text to replace; must occur exactly once" },
                "new_text": { "type": "string", "description": "The text to put in its place" }
            },
            "required": ["path", "old_text", "new_text"],
            "additionalProperties": false
        })
    }
    fn read_only(&self) -> bool {
        false
    }
    fn describe(&self, raw: &str, ws: &Workspace) -> Result<CallDescription, ToolError> {
        let args: EditFileArgs = parse_args(self.name(), raw)?;
        let plan = plan(&args, ws)?;
        Ok(CallDescription {
            change: None,
            detail: None,
            summary: plan.card_words(),
            risk: Risk::Medium,
            preview: Some(unified_diff(
                Some(&plan.before),
                &plan.after,
                &plan.shown.replace('\\', "/"),
            )),
            // The bytes the diff was made from (at most 10 MB): the same read, so the file
            // cannot change between showing the change and fingerprinting it.
            fingerprint: Some(Fingerprint::of_bytes(plan.before.as_bytes()).to_string()),
            effects: Vec::new(),
        })
    }
    fn main_arguments(&self, raw: &str, ws: &Workspace) -> Vec<MainArgument> {
        parse_args::<EditFileArgs>(self.name(), raw)
            .map(|a| vec![path_argument(&a.path, ws)])
            .unwrap_or_default()
    }
    fn fingerprint(&self, raw: &str, ws: &Workspace) -> Option<String> {
        let args: EditFileArgs = parse_args(self.name(), raw).ok()?;
        Some(file_fingerprint(&ws.resolve(&args.path).ok()?).to_string())
    }
    fn planned_change(&self, raw: &str, ws: &Workspace) -> Option<crate::undo::Planned> {
        let args: EditFileArgs = parse_args(self.name(), raw).ok()?;
        Some(crate::undo::Planned::Replace(ws.resolve(&args.path).ok()?))
    }
    fn on_stop(&self) -> OnStop {
        // The edit runs on a blocking thread that dropping the future does not stop.
        OnStop::Finish
    }
    async fn execute(&self, raw: &str, ws: &Workspace) -> Result<String, ToolError> {
        let args: EditFileArgs = parse_args(self.name(), raw)?;
        let ws_for_plan = ws.clone();
        // Planned again against the file as it is now: a symlink may have been swapped, or the
        // file changed, since the call was described.
        let given = args.path.clone();
        let plan = tokio::task::spawn_blocking(move || plan(&args, &ws_for_plan))
            .await
            .map_err(|e| {
                ToolError::said(
                    format!("The edit stopped unexpectedly: {e}"),
                    "tool_failed-interrupted-edit",
                    &[("name", Arg::from(&given))],
                )
            })??;
        write_atomically(ws, &plan.path, plan.after.as_bytes())
            .await
            .map_err(|e| io_failed("write", &plan.shown, &e))?;
        Ok(format!("{}.", plan.words(true)))
    }
}
