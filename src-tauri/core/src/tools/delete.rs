//! `delete_path` (asks first): moves a file or folder of the workspace to the system trash,
//! so the person can restore it. Nothing is ever deleted permanently: without a usable trash
//! the call fails and the item stays where it is.

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
use std::path::{Component, Path, PathBuf};

/// How many items inside a folder are counted for the summary before it says "more than".
const COUNT_LIMIT: usize = 10_000;

/// `delete_path {path}`: moves a file, folder or symlink to the system trash with the `trash`
/// crate (the freedesktop.org trash on Linux, the Trash on macOS, the Recycle Bin on Windows).
///
/// The path must resolve inside the workspace (through symlinks) and must not be the workspace
/// itself. A symlink is trashed as the link; what it points to stays. Errors: the item does not
/// exist, or there is no trash to move it to ([`ToolError::Said`]; nothing is deleted).
pub struct DeletePath;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeletePathArgs {
    path: String,
}

/// What a call would move to the trash.
struct Target {
    /// The entry itself: its folder resolved through symlinks, its own name not followed.
    entry: PathBuf,
    /// Where the entry leads when it is a symlink (else the entry).
    resolved: PathBuf,
    kind: Kind,
}

enum Kind {
    File,
    Folder,
    Symlink,
}

fn target(given: &str, ws: &Workspace) -> Result<Target, ToolError> {
    // Where the path leads must be inside the workspace (this refuses `..`, absolute paths
    // and symlinks that lead out) …
    let resolved = ws.resolve(given)?;
    if resolved == ws.root() {
        return Err(ToolError::said(
            "The workspace folder itself cannot be moved to the trash.".into(),
            "tool_failed-trash_workspace",
            &[],
        ));
    }
    // … and the entry trashed is the last name as given, in its resolved folder, so a symlink
    // is trashed as a link, never its target.
    let name = match Path::new(given).components().next_back() {
        Some(Component::Normal(name)) => name.to_owned(),
        _ => {
            return Err(ToolError::said(
                format!("{given:?} does not name a file or folder."),
                "tool_failed-no_name",
                &[("path", Arg::from(given))],
            ))
        }
    };
    let folder = Path::new(given)
        .parent()
        .map_or(Ok(ws.root().to_owned()), |p| {
            ws.resolve(&p.to_string_lossy())
        })?;
    let entry = folder.join(name);
    if entry == ws.root() || !entry.starts_with(ws.root()) {
        return Err(ToolError::OutsideWorkspace {
            path: given.to_owned(),
        });
    }
    let meta = match std::fs::symlink_metadata(&entry) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let shown = ws.display(&entry);
            return Err(ToolError::said(
                format!("{shown} does not exist."),
                "tool_failed-not_there",
                &[("name", Arg::from(&shown))],
            ));
        }
        Err(e) => return Err(super::files::io_failed("read", &ws.display(&entry), &e)),
    };
    // From `lstat` alone (a symlink to one is trashed as the link, which opens nothing).
    super::special::refuse_special(&meta, &ws.display(&entry))?;
    let kind = if meta.file_type().is_symlink() {
        Kind::Symlink
    } else if meta.is_dir() {
        Kind::Folder
    } else {
        Kind::File
    };
    Ok(Target {
        entry,
        resolved,
        kind,
    })
}

/// What the card says is moved, to notice a change before it is: a file's content (as
/// [`super::preview::file_fingerprint`]), a folder's contents (see [`Survey`]), or where a shortcut
/// leads.
fn target_fingerprint(target: &Target, folder: Option<&Survey>) -> String {
    match target.kind {
        Kind::File => format!("file:{}", super::preview::file_fingerprint(&target.entry)),
        Kind::Folder => format!("folder:{}", folder.map_or("", |s| s.fingerprint.as_str())),
        Kind::Symlink => format!("link:{}", target.resolved.display()),
    }
}

/// What is inside a folder, walked once (not following symlinks).
struct Survey {
    /// How many files and folders are inside, up to [`COUNT_LIMIT`]; `None` past it.
    count: Option<usize>,
    /// SHA-256 of every entry's path, kind, size and modification time, sorted: any file
    /// added, removed, renamed or rewritten inside changes it. Past [`COUNT_LIMIT`] entries
    /// only the folder's own listing counts.
    fingerprint: String,
}

fn survey(folder: &Path) -> Survey {
    use sha2::{Digest, Sha256};
    let describe = |entry: &std::fs::DirEntry| {
        let meta = entry.metadata().ok();
        let modified = meta
            .as_ref()
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        format!(
            "{}\0{:?}\0{}\0{modified}\n",
            entry
                .path()
                .strip_prefix(folder)
                .unwrap_or(&entry.path())
                .display(),
            entry.file_type().ok().map(|t| (t.is_dir(), t.is_symlink())),
            meta.map(|m| m.len()).unwrap_or_default(),
        )
    };
    let digest = |mut lines: Vec<String>| {
        lines.sort();
        let mut hasher = Sha256::new();
        lines.iter().for_each(|line| hasher.update(line.as_bytes()));
        format!("{:x}", hasher.finalize())
    };
    let mut lines = Vec::new();
    let mut pending = vec![folder.to_owned()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if lines.len() == COUNT_LIMIT {
                let top = std::fs::read_dir(folder)
                    .map(|entries| entries.flatten().map(|e| describe(&e)).collect())
                    .unwrap_or_default();
                return Survey {
                    count: None,
                    fingerprint: format!("many:{}", digest(top)),
                };
            }
            lines.push(describe(&entry));
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                pending.push(entry.path());
            }
        }
    }
    Survey {
        count: Some(lines.len()),
        fingerprint: digest(lines),
    }
}

#[async_trait]
impl Tool for DeletePath {
    fn name(&self) -> &'static str {
        "delete_path"
    }
    fn description(&self) -> &'static str {
        "Move a file or folder of the workspace to the trash (the user can restore it from \
         there). `path` is relative to the workspace. The user is asked first."
    }
    fn parameters_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": { "path": { "type": "string", "description": "File or folder, relative to the workspace" } },
            "required": ["path"],
            "additionalProperties": false
        })
    }
    fn read_only(&self) -> bool {
        false
    }
    fn describe(&self, raw: &str, ws: &Workspace) -> Result<CallDescription, ToolError> {
        let args: DeletePathArgs = parse_args(self.name(), raw)?;
        let target = target(&args.path, ws)?;
        let shown = ws.display(&target.entry);
        let folder = matches!(target.kind, Kind::Folder).then(|| survey(&target.entry));
        let summary = match target.kind {
            Kind::File => tr("card-delete-file", &[("name", Arg::from(&shown))]),
            Kind::Folder => match folder.as_ref().and_then(|s| s.count) {
                Some(n) => tr(
                    "card-delete-folder",
                    &[("name", Arg::from(&shown)), ("count", Arg::from(n))],
                ),
                None => tr(
                    "card-delete-big_folder",
                    &[
                        ("name", Arg::from(&shown)),
                        ("count", Arg::from(COUNT_LIMIT)),
                    ],
                ),
            },
            Kind::Symlink => tr(
                "card-delete-shortcut",
                &[
                    ("name", Arg::from(&shown)),
                    ("target", Arg::from(ws.display(&target.resolved))),
                ],
            ),
        };
        Ok(CallDescription {
            change: None,
            detail: None,
            summary,
            risk: Risk::High,
            preview: None,
            fingerprint: Some(target_fingerprint(&target, folder.as_ref())),
            effects: Vec::new(),
        })
    }
    fn fingerprint(&self, raw: &str, ws: &Workspace) -> Option<String> {
        let args: DeletePathArgs = parse_args(self.name(), raw).ok()?;
        Some(match target(&args.path, ws) {
            Ok(target) => {
                let folder = matches!(target.kind, Kind::Folder).then(|| survey(&target.entry));
                target_fingerprint(&target, folder.as_ref())
            }
            Err(_) => "absent".to_owned(),
        })
    }
    fn main_arguments(&self, raw: &str, ws: &Workspace) -> Vec<MainArgument> {
        let Ok(args) = parse_args::<DeletePathArgs>(self.name(), raw) else {
            return Vec::new();
        };
        // The entry trashed, and where it leads when that differs, so rules about either
        // apply.
        match target(&args.path, ws) {
            Ok(target) => {
                let mut paths = vec![target.entry.clone()];
                if target.resolved != target.entry {
                    paths.push(target.resolved);
                }
                let mut arguments: Vec<MainArgument> = paths
                    .into_iter()
                    .map(|p| resolved_path_argument(p, ws))
                    .collect();
                // What is trashed goes with everything inside it, so rules about any of that
                // apply (a shortcut goes alone: its entry is the link, not a folder).
                arguments[0].contents = Contents::Yes;
                arguments
            }
            Err(_) => vec![path_argument(&args.path, ws)],
        }
    }
    fn planned_change(&self, raw: &str, ws: &Workspace) -> Option<crate::undo::Planned> {
        let args: DeletePathArgs = parse_args(self.name(), raw).ok()?;
        Some(crate::undo::Planned::Trash(
            target(&args.path, ws).ok()?.entry,
        ))
    }
    fn on_stop(&self) -> OnStop {
        // The move to the trash runs on a blocking thread that dropping the future does not stop.
        OnStop::Finish
    }
    async fn execute(&self, raw: &str, ws: &Workspace) -> Result<String, ToolError> {
        let args: DeletePathArgs = parse_args(self.name(), raw)?;
        // Checked again: a symlink may have been swapped since the call was described.
        let target = target(&args.path, ws)?;
        let shown = ws.display(&target.entry);
        let entry = target.entry.clone();
        let moved = tokio::task::spawn_blocking(move || trash::delete(&entry))
            .await
            .map_err(|e| {
                ToolError::said(
                    format!("Moving {shown} to the trash stopped: {e}"),
                    "tool_failed-interrupted-trash",
                    &[("name", Arg::from(&shown))],
                )
            })?;
        match moved {
            Ok(()) => Ok(format!(
                "Moved {shown} to the trash; it can be restored from there."
            )),
            Err(e) => Err(ToolError::said(
                format!(
                    "Could not move {shown} to the trash ({e}), so it was left where it is. Ask \
                     First never deletes anything permanently."
                ),
                "tool_failed-trash_failed",
                &[
                    ("name", Arg::from(&shown)),
                    ("why", Arg::from(e.to_string())),
                ],
            )),
        }
    }
}
