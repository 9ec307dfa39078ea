//! `move_path` (asks first): moves or renames a file or folder inside the workspace, never
//! overwriting.

use super::files::{create_parent_dirs, inside, io_failed, not_ordinary, open_root, run_blocking};
use super::{
    parse_args, path_argument, resolved_path_argument, CallDescription, OnStop, Tool, ToolError,
    Workspace,
};
use crate::i18n::{tr, Arg};
use crate::policy::{Contents, MainArgument};
use askfirst_protocol::Risk;
use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;
use std::path::PathBuf;

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
            return Err(ToolError::said(
                "The workspace folder itself cannot be moved.".into(),
                "tool_failed-move_workspace",
                &[],
            ));
        }
        match std::fs::symlink_metadata(&from) {
            Err(_) => {
                return Err(ToolError::said(
                    format!("{} does not exist.", args.from),
                    "tool_failed-not_there",
                    &[("name", Arg::from(&args.from))],
                ))
            }
            // From `lstat` alone: a named pipe, device or socket is not moved.
            Ok(meta) => super::special::refuse_special(&meta, &ws.display(&from))?,
        }
        let mut to = ws.resolve(&args.to)?;
        if args.to.ends_with('/') || to.is_dir() {
            let name = from.file_name().ok_or_else(|| {
                ToolError::said(
                    format!("{:?} does not name a file or folder.", args.from),
                    "tool_failed-no_name",
                    &[("path", Arg::from(&args.from))],
                )
            })?;
            to.push(name);
        }
        if std::fs::symlink_metadata(&to).is_ok() {
            let shown = ws.display(&to);
            return Err(ToolError::said(
                format!("{shown} already exists; it will not be overwritten."),
                "tool_failed-already_there",
                &[("name", Arg::from(&shown))],
            ));
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
        let key = if from.is_dir() {
            "card-move-folder"
        } else {
            "card-move"
        };
        let places = [
            ("from", Arg::from(ws.display(&from))),
            ("to", Arg::from(ws.display(&to))),
        ];
        Ok(CallDescription {
            change: None,
            summary: tr(key, &places),
            risk: Risk::Medium,
            preview: None,
            fingerprint: None,
            effects: Vec::new(),
            detail: None,
        })
    }
    fn main_arguments(&self, raw: &str, ws: &Workspace) -> Vec<MainArgument> {
        let Ok(args) = parse_args::<MovePathArgs>(self.name(), raw) else {
            return Vec::new();
        };
        // The real target (`to/<name>` when `to` is a folder), so rules see where it lands;
        // what is moved goes with everything inside it, so rules about any of that apply.
        let mut arguments = match self.targets(&args, ws) {
            Ok((from, to)) => vec![
                resolved_path_argument(from, ws),
                resolved_path_argument(to, ws),
            ],
            Err(_) => vec![path_argument(&args.from, ws), path_argument(&args.to, ws)],
        };
        arguments[0].contents = Contents::Yes;
        arguments
    }
    fn planned_change(&self, raw: &str, ws: &Workspace) -> Option<crate::undo::Planned> {
        let args: MovePathArgs = parse_args(self.name(), raw).ok()?;
        let (from, to) = self.targets(&args, ws).ok()?;
        Some(crate::undo::Planned::Move { from, to })
    }
    fn on_stop(&self) -> OnStop {
        // The rename runs on a blocking thread that dropping the future does not stop.
        OnStop::Finish
    }
    async fn execute(&self, raw: &str, ws: &Workspace) -> Result<String, ToolError> {
        let args: MovePathArgs = parse_args(self.name(), raw)?;
        let (_, to) = self.targets(&args, ws)?;
        create_parent_dirs(ws, &to)
            .await
            .map_err(|e| io_failed("create the folder for", &args.to, &e))?;
        let (from, to) = self.targets(&args, ws)?;
        let (from_inside, to_inside) = (
            inside(ws, &from).map_err(|e| io_failed("move", &args.from, &e))?,
            inside(ws, &to).map_err(|e| io_failed("move", &args.to, &e))?,
        );
        let root_ws = ws.clone();
        run_blocking(move || {
            let root = open_root(&root_ws)?;
            if let Some(kind) = root
                .symlink_metadata(&from_inside)
                .ok()
                .and_then(|meta| super::special::special_kind_beneath(meta.file_type()))
            {
                return Err(not_ordinary(kind));
            }
            // Never overwrite: the target must not exist (checked beneath the root, at once).
            if root.symlink_metadata(&to_inside).is_ok() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "something with that name is already there",
                ));
            }
            root.rename(&from_inside, &root, &to_inside)
        })
        .await
        .map_err(|e| io_failed("move", &args.from, &e))?;
        Ok(format!(
            "Moved {} to {}.",
            ws.display(&from),
            ws.display(&to)
        ))
    }
}
