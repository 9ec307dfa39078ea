//! File tools: `list_directory` (read-only), `write_file` and `move_path` (ask first), and the
//! helpers the other file tools share: atomic writes and change previews (unified diffs).

use super::{
    parse_args, path_argument, resolved_path_argument, CallDescription, OnStop, Tool, ToolError,
    Workspace, PREVIEW_CAP_BYTES,
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
            "." => "Look at the list of files in your workspace folder".to_owned(),
            shown => format!("Look at the list of files in the folder {shown}"),
        };
        Ok(CallDescription {
            detail: None,
            summary,
            risk: Risk::Low,
            preview: None,
            fingerprint: None,
            effects: Vec::new(),
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
        // One read gives both the diff and the fingerprint, so the change shown is the change
        // checked before running: a file edited between two reads cannot slip in unseen.
        let (summary, preview, fingerprint) = match current_file(&path) {
            Current::Folder => {
                return Err(ToolError::Failed(format!(
                    "{shown} is a folder, not a file."
                )))
            }
            Current::Special(kind) => return Err(super::special::refusal(&shown, kind)),
            Current::Absent => (
                format!("Create the file {shown} ({lines})"),
                Some(unified_diff(None, &args.content, &shown.replace('\\', "/"))),
                "absent".to_owned(),
            ),
            Current::File { text, fingerprint } => (
                format!("Replace everything in {shown} with new text ({lines})"),
                text.map(|old| unified_diff(Some(&old), &args.content, &shown.replace('\\', "/"))),
                fingerprint,
            ),
        };
        Ok(CallDescription {
            detail: None,
            summary,
            risk: Risk::Medium,
            preview,
            fingerprint: Some(fingerprint),
            effects: Vec::new(),
        })
    }
    fn fingerprint(&self, raw: &str, ws: &Workspace) -> Option<String> {
        let args: WriteFileArgs = parse_args(self.name(), raw).ok()?;
        Some(file_fingerprint(&ws.resolve(&args.path).ok()?))
    }
    fn main_arguments(&self, raw: &str, ws: &Workspace) -> Vec<MainArgument> {
        parse_args::<WriteFileArgs>(self.name(), raw)
            .map(|a| vec![path_argument(&a.path, ws)])
            .unwrap_or_default()
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

/// What a file is now, to notice a change between showing a call and running it: `absent`,
/// `folder`, or `sha256:<hex>` of its bytes (for files over 64 MiB, their size and modification
/// time instead). A file that cannot be read gives `unreadable:<error kind>`.
pub(super) fn file_fingerprint(path: &Path) -> String {
    use sha2::{Digest, Sha256};
    const HASHED_UP_TO: u64 = 64 * 1024 * 1024;
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return "absent".to_owned(),
        Err(e) => return format!("unreadable:{:?}", e.kind()),
    };
    if meta.is_dir() {
        return "folder".to_owned();
    }
    // Never opened: a named pipe would wait for a writer (see `super::special`).
    if let Some(kind) = super::special::special_kind(meta.file_type()) {
        return format!("special:{kind}");
    }
    if meta.len() > HASHED_UP_TO {
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        return format!("large:{}:{modified}", meta.len());
    }
    match super::special::open_regular(path) {
        Ok(mut file) => {
            let mut hasher = Sha256::new();
            match std::io::copy(&mut file, &mut hasher) {
                Ok(_) => format!("sha256:{:x}", hasher.finalize()),
                Err(e) => format!("unreadable:{:?}", e.kind()),
            }
        }
        Err(super::special::OpenRefused::NotRegular(kind)) => format!("special:{kind}"),
        Err(super::special::OpenRefused::Io(e)) => format!("unreadable:{:?}", e.kind()),
    }
}

/// The fingerprint of a file whose bytes are `bytes` (up to 64 MiB), as [`file_fingerprint`]
/// gives it: `sha256:<hex>`.
pub(super) fn bytes_fingerprint(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    format!("sha256:{:x}", Sha256::digest(bytes))
}

/// What is at a path before a write, read once.
enum Current {
    Absent,
    Folder,
    /// A named pipe, device or socket (see `super::special`), never opened.
    Special(&'static str),
    /// A file (or something that cannot be read): its text for the preview when it is UTF-8
    /// text of at most [`PREVIEW_SOURCE_MAX_BYTES`] without NUL, and its fingerprint as
    /// [`file_fingerprint`] gives it.
    File {
        text: Option<String>,
        fingerprint: String,
    },
}

fn current_file(path: &Path) -> Current {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Current::Absent,
        Err(e) => {
            return Current::File {
                text: None,
                fingerprint: format!("unreadable:{:?}", e.kind()),
            }
        }
    };
    if meta.is_dir() {
        return Current::Folder;
    }
    if let Some(kind) = super::special::special_kind(meta.file_type()) {
        return Current::Special(kind);
    }
    if meta.len() > PREVIEW_SOURCE_MAX_BYTES {
        return Current::File {
            text: None,
            fingerprint: file_fingerprint(path),
        };
    }
    let read = super::special::open_regular(path).and_then(|file| {
        use std::io::Read;
        let mut bytes = Vec::new();
        // No more than the size checked (plus one byte, so a file that grew meanwhile still
        // gets a fingerprint of its own rather than one of a prefix).
        file.take(PREVIEW_SOURCE_MAX_BYTES + 1)
            .read_to_end(&mut bytes)
            .map(|_| bytes)
            .map_err(super::special::OpenRefused::Io)
    });
    match read {
        Err(super::special::OpenRefused::NotRegular(kind)) => Current::Special(kind),
        Ok(bytes) if bytes.len() as u64 > PREVIEW_SOURCE_MAX_BYTES => Current::File {
            text: None,
            fingerprint: file_fingerprint(path),
        },
        Ok(bytes) => {
            let fingerprint = bytes_fingerprint(&bytes);
            let text = String::from_utf8(bytes)
                .ok()
                .filter(|text| !text.contains('\0'));
            Current::File { text, fingerprint }
        }
        Err(super::special::OpenRefused::Io(e)) => Current::File {
            text: None,
            fingerprint: format!("unreadable:{:?}", e.kind()),
        },
    }
}

/// A unified diff (3 lines of context) from `old` to `new` for the file `shown` (relative to
/// the workspace, `/` separators): headers `a/<shown>` and `b/<shown>`, or `/dev/null` for a
/// file that does not exist yet (`old` is `None`); an unchanged file gives an empty string.
///
/// Every line of the result ends with exactly one `\n`, so its lines are the diff's lines
/// whatever the file holds: the two headers `--- …` and `+++ …` come first and only there;
/// after the first `@@` hunk header every line starts with ` `, `+` or `-` (a line of the
/// file, its line break taken off; a `\r` of a CRLF or CR line ending stays in it, so a change
/// of line endings shows) or `\` (the file's last line has no line break), or is a further
/// `@@` header. A line of a file that ends in a lone `\r` is a line of its own here too.
///
/// Capped at [`PREVIEW_CAP_BYTES`] at whole lines: when longer, the start and the end are
/// kept and one unprefixed line `[… N lines not shown: A added, R removed …]` stands where
/// the middle was (N counts the file's lines left out, added, removed and unchanged). It is
/// the only line after the headers that does not start with one of the four marks, so no line
/// of the file can be taken for it.
pub(super) fn unified_diff(old: Option<&str>, new: &str, shown: &str) -> String {
    // A header is one line: a path with a line break in it must not look like file content.
    let shown = &shown
        .replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r");
    let old_name = match old {
        Some(_) => format!("a/{shown}"),
        None => "/dev/null".to_owned(),
    };
    let diff = similar::TextDiff::configure()
        .timeout(DIFF_TIME_LIMIT)
        .diff_lines(old.unwrap_or(""), new);
    let mut lines: Vec<DiffLine> = Vec::new();
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        lines.push(DiffLine::new(hunk.header().to_string(), None));
        for change in hunk.iter_changes() {
            let value = change.value();
            let text = value.strip_suffix('\n').unwrap_or(value);
            let mut line = DiffLine::new(format!("{}{text}", change.tag()), Some(change.tag()));
            if change.missing_newline() {
                line.text.push_str("\n\\ No newline at end of file");
            }
            lines.push(line);
        }
    }
    if lines.is_empty() {
        return String::new();
    }
    let header = format!("--- {old_name}\n+++ b/{shown}\n");
    cap_at_whole_lines(header, &lines, PREVIEW_CAP_BYTES)
}

/// One line of a diff as [`unified_diff`] writes it (with the `\ No newline at end of file`
/// marker that belongs to it, if any, so a cut never separates them), without its final line
/// break; `tag` is `None` for a hunk header.
struct DiffLine {
    text: String,
    tag: Option<similar::ChangeTag>,
}

impl DiffLine {
    fn new(text: String, tag: Option<similar::ChangeTag>) -> Self {
        Self { text, tag }
    }

    /// Its size in the diff, line breaks included.
    fn bytes(&self) -> usize {
        self.text.len() + 1
    }
}

/// `header` then `lines`, each ending in `\n`; if that is more than `cap` bytes, as many whole
/// lines from the start and from the end as fit in about half of `cap` each, and between them
/// one line saying how many lines of the file were left out.
fn cap_at_whole_lines(header: String, lines: &[DiffLine], cap: usize) -> String {
    let total = header.len() + lines.iter().map(DiffLine::bytes).sum::<usize>();
    let mut out = header;
    if total <= cap {
        for line in lines {
            out.push_str(&line.text);
            out.push('\n');
        }
        return out;
    }
    // The note is short; this leaves room for it (and for the header) inside the cap.
    let room = cap.saturating_sub(out.len() + 100);
    let mut head = 0;
    let mut used = 0;
    while head < lines.len() && used + lines[head].bytes() <= room / 2 {
        used += lines[head].bytes();
        head += 1;
    }
    let mut tail = lines.len();
    while tail > head && used + lines[tail - 1].bytes() <= room {
        used += lines[tail - 1].bytes();
        tail -= 1;
    }
    let (mut added, mut removed, mut same) = (0usize, 0usize, 0usize);
    for line in &lines[head..tail] {
        match line.tag {
            Some(similar::ChangeTag::Insert) => added += 1,
            Some(similar::ChangeTag::Delete) => removed += 1,
            Some(similar::ChangeTag::Equal) => same += 1,
            None => {}
        }
    }
    for line in &lines[..head] {
        out.push_str(&line.text);
        out.push('\n');
    }
    let left_out = plural(added + removed + same, "line", "lines");
    out.push_str(&format!(
        "[… {left_out} not shown: {added} added, {removed} removed …]\n"
    ));
    for line in &lines[tail..] {
        out.push_str(&line.text);
        out.push('\n');
    }
    out
}

/// The workspace folder opened as a capability: every path under it is then resolved beneath
/// it by the operating system (Linux `openat2` with `RESOLVE_BENEATH`; cap-std's own
/// component-by-component walk elsewhere), so a symlink or `..` swapped in after a call was
/// checked cannot lead a write or a move out of the workspace.
fn open_root(ws: &Workspace) -> std::io::Result<cap_std::fs::Dir> {
    cap_std::fs::Dir::open_ambient_dir(ws.root(), cap_std::ambient_authority())
}

/// `path` (resolved by [`Workspace::resolve`]) relative to the workspace folder.
fn inside(ws: &Workspace, path: &Path) -> std::io::Result<PathBuf> {
    path.strip_prefix(ws.root())
        .map(Path::to_path_buf)
        .map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "outside the workspace",
            )
        })
}

/// Creates the folders leading to `path` (inside the workspace), beneath the workspace folder.
pub(super) async fn create_parent_dirs(ws: &Workspace, path: &Path) -> std::io::Result<()> {
    let Some(parent) = inside(ws, path)?.parent().map(Path::to_path_buf) else {
        return Ok(());
    };
    let ws = ws.clone();
    run_blocking(move || {
        if parent.as_os_str().is_empty() {
            return Ok(());
        }
        open_root(&ws)?.create_dir_all(&parent)
    })
    .await
}

async fn run_blocking<T: Send + 'static>(
    job: impl FnOnce() -> std::io::Result<T> + Send + 'static,
) -> std::io::Result<T> {
    tokio::task::spawn_blocking(job)
        .await
        .map_err(std::io::Error::other)?
}

/// Writes `bytes` to a temporary file beside `path` (inside the workspace), flushes it to
/// disk, then renames it over `path`, so a crash or a full disk never leaves a half-written file
/// in its place. An existing file's permissions (such as "executable") are kept. Every step is
/// resolved beneath the workspace folder (see [`open_root`]).
///
/// # Errors
/// The I/O error; a path that would lead out of the workspace gives `PermissionDenied` (or
/// the error of the refused symlink), and nothing is written.
pub(super) async fn write_atomically(
    ws: &Workspace,
    path: &Path,
    bytes: &[u8],
) -> std::io::Result<()> {
    let target = inside(ws, path)?;
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = target.with_file_name(format!(".{name}.askfirst-{}.tmp", uuid::Uuid::new_v4()));
    let ws = ws.clone();
    let bytes = bytes.to_vec();
    run_blocking(move || {
        use std::io::Write;
        let root = open_root(&ws)?;
        // Checked beneath the root, right before: a special file is never replaced or opened.
        if let Some(kind) = root
            .metadata(&target)
            .ok()
            .and_then(|meta| super::special::special_kind_beneath(meta.file_type()))
        {
            return Err(not_ordinary(kind));
        }
        let result = (|| {
            let mut options = cap_std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            let mut file = root.open_with(&tmp, &options)?;
            file.write_all(&bytes)?;
            file.sync_all()?;
            if let Ok(existing) = root.metadata(&target) {
                file.set_permissions(existing.permissions())?;
            }
            drop(file);
            root.rename(&tmp, &root, &target)
        })();
        if result.is_err() {
            let _ = root.remove_file(&tmp);
        }
        result
    })
    .await
}

/// The I/O error for a special file found at the last moment (see `super::special`).
fn not_ordinary(kind: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("it is not an ordinary file (it is {kind}); Ask First does not open it"),
    )
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
        match std::fs::symlink_metadata(&from) {
            Err(_) => return Err(ToolError::Failed(format!("{} does not exist.", args.from))),
            // From `lstat` alone: a named pipe, device or socket is not moved.
            Ok(meta) => super::special::refuse_special(&meta, &ws.display(&from))?,
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
            detail: None,
            summary: format!("Move {what}{} to {}", ws.display(&from), ws.display(&to)),
            risk: Risk::Medium,
            preview: None,
            fingerprint: None,
            effects: Vec::new(),
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
                .map(|p| resolved_path_argument(p, ws))
                .collect(),
            Err(_) => vec![path_argument(&args.from, ws), path_argument(&args.to, ws)],
        }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// What `ws.resolve` checked can be swapped before the write happens: a folder on the way
    /// replaced by a symlink to somewhere else. The write and the folder creation are resolved
    /// beneath the workspace by the OS, so they fail rather than reach outside.
    #[tokio::test]
    async fn a_folder_swapped_for_a_symlink_after_the_check_cannot_lead_a_write_out() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        std::fs::create_dir_all(root.join("notes")).unwrap();
        let ws = Workspace::open(&root).unwrap();
        let checked = ws.resolve("notes/today.txt").unwrap();
        let checked_deeper = ws.resolve("notes/new/today.txt").unwrap();
        // The swap.
        std::fs::remove_dir(root.join("notes")).unwrap();
        std::os::unix::fs::symlink(outside.path(), ws.root().join("notes")).unwrap();

        assert!(write_atomically(&ws, &checked, b"hello").await.is_err());
        assert!(create_parent_dirs(&ws, &checked_deeper).await.is_err());
        assert_eq!(
            std::fs::read_dir(outside.path()).unwrap().count(),
            0,
            "nothing was written outside"
        );
        // A (relative) symlink that stays inside still works. (An absolute one swapped in
        // after the check is refused too: the OS cannot tell it stays inside.)
        std::fs::remove_file(ws.root().join("notes")).unwrap();
        std::fs::create_dir(ws.root().join("real")).unwrap();
        std::os::unix::fs::symlink("real", ws.root().join("notes")).unwrap();
        write_atomically(&ws, &checked, b"hello").await.unwrap();
        assert_eq!(
            std::fs::read_to_string(ws.root().join("real/today.txt")).unwrap(),
            "hello"
        );
    }

    /// The fingerprint taken when a call is shown (from the same read as its diff) must equal
    /// the one taken just before it runs when nothing changed, or an untouched file would be
    /// refused as changed: text, no file yet, not UTF-8, too big for a preview, edited.
    #[test]
    fn an_unchanged_file_keeps_its_fingerprint_from_showing_to_running() {
        use crate::tools::{edit::EditFile, Tool};
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        std::fs::write(dir.path().join("text.txt"), "one\ntwo\n").unwrap();
        std::fs::write(dir.path().join("binary.bin"), [0xff, 0xfe, 0, 1]).unwrap();
        let big = "x".repeat(usize::try_from(PREVIEW_SOURCE_MAX_BYTES).unwrap() + 10);
        std::fs::write(dir.path().join("big.txt"), &big).unwrap();
        for path in ["text.txt", "binary.bin", "big.txt", "new.txt"] {
            let raw = json!({ "path": path, "content": "new\n" }).to_string();
            let shown = WriteFile.describe(&raw, &ws).unwrap().fingerprint.unwrap();
            assert_eq!(
                Some(shown.clone()),
                WriteFile.fingerprint(&raw, &ws),
                "{path}"
            );
            assert!(
                shown.starts_with(if path == "new.txt" {
                    "absent"
                } else {
                    "sha256:"
                }),
                "{shown}"
            );
        }
        let raw = json!({ "path": "text.txt", "old_text": "two", "new_text": "2" }).to_string();
        let shown = EditFile.describe(&raw, &ws).unwrap().fingerprint;
        assert_eq!(shown, EditFile.fingerprint(&raw, &ws));
        std::fs::write(dir.path().join("text.txt"), "one\ntwo\nthree\n").unwrap();
        assert_ne!(
            shown,
            EditFile.fingerprint(&raw, &ws),
            "a changed file must not match"
        );
    }

    /// Lines of a file that look like diff syntax are lines of the file: each is one diff
    /// line with its own mark, and only the two headers come before the first `@@`.
    #[test]
    fn file_lines_that_look_like_diff_syntax_stay_prefixed_content() {
        let old = "keep\n-- sql comment\n--- not a header\nlast";
        let new = "keep\n+\n-\n++\n--\n+++ x\n--- x\n@@ -1 +1 @@\n\\ No newline at end of file\n\
                   cr\rcrlf\r\nlast";
        assert_eq!(
            unified_diff(Some(old), new, "f.txt"),
            "--- a/f.txt\n+++ b/f.txt\n@@ -1,4 +1,12 @@\n keep\n--- sql comment\n---- not a header\n\
             ++\n+-\n+++\n+--\n++++ x\n+--- x\n+@@ -1 +1 @@\n+\\ No newline at end of file\n\
             +cr\r\n+crlf\r\n last\n\\ No newline at end of file\n"
        );
    }

    /// A diff over the cap keeps whole lines from its start and end, and says how many lines
    /// of the file it leaves out; every line is still a header, a marked line or that note.
    #[test]
    fn a_long_diff_is_cut_at_whole_lines_and_says_how_many() {
        let old: String = (0..20_000).map(|i| format!("old line {i}\n")).collect();
        let new: String = (0..30_000).map(|i| format!("new line {i}\n")).collect();
        let diff = unified_diff(Some(&old), &new, "big.txt");
        assert!(diff.len() <= PREVIEW_CAP_BYTES, "{}", diff.len());
        let lines: Vec<&str> = diff.lines().collect();
        let notes: Vec<&&str> = lines.iter().filter(|l| l.starts_with("[… ")).collect();
        assert_eq!(notes.len(), 1, "{notes:?}");
        let shown_file_lines = lines[2..]
            .iter()
            .filter(|l| l.starts_with(['+', '-', ' ']))
            .count();
        let added = lines[2..].iter().filter(|l| l.starts_with('+')).count();
        let removed = lines[2..].iter().filter(|l| l.starts_with('-')).count();
        assert_eq!(
            *notes[0],
            format!(
                "[… {} lines not shown: {} added, {} removed …]",
                50_000 - shown_file_lines,
                30_000 - added,
                20_000 - removed
            )
        );
        for line in &lines[2..] {
            assert!(
                line.starts_with(['+', '-', ' ', '@', '\\']) || line == notes[0],
                "{line}"
            );
        }
        // Whole lines only: the last kept line before the note and the first after it are
        // lines of the file as they are.
        let at = lines.iter().position(|l| l == notes[0]).unwrap();
        assert!(lines[at - 1].starts_with("-old line "), "{}", lines[at - 1]);
        assert!(lines[at + 1].starts_with("+new line "), "{}", lines[at + 1]);
        assert_eq!(lines.last(), Some(&"+new line 29999"));
    }

    #[test]
    fn a_line_break_in_a_file_name_stays_in_the_diff_header() {
        let diff = unified_diff(None, "hello\n", "break\n.txt");
        assert!(diff.contains("+++ b/break\\n.txt\n"), "{diff}");
        assert!(!diff.lines().any(|l| l == ".txt"), "{diff}");
    }
}
