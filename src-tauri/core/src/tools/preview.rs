//! What a change will do, for the card and for the check right before it runs: the file as it
//! is now (read once), a unified diff of the change, and a [`Fingerprint`] of the target, so a
//! file edited between showing a call and running it is noticed.

use super::PREVIEW_CAP_BYTES;
use crate::text::plural;
use std::path::Path;

/// The largest existing file, in bytes, whose text is read to preview a change; above this the
/// call has no preview.
const PREVIEW_SOURCE_MAX_BYTES: u64 = 2 * 1024 * 1024;

/// How long working out a diff may take before it settles for a coarser one.
const DIFF_TIME_LIMIT: std::time::Duration = std::time::Duration::from_millis(500);

/// What a file (or what is at a path) is now, to notice a change between showing a call and
/// running it. Its text form ([`std::fmt::Display`]) is what grants and logs compare and store,
/// and must stay as it is: `absent`, `folder`, `special:<kind>`, `large:<bytes>:<modified ns>`,
/// `sha256:<lowercase hex>`, `unreadable:<io::ErrorKind as Debug>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fingerprint {
    /// Nothing is there.
    Absent,
    /// A folder.
    Folder,
    /// A named pipe, device or socket, never opened (see `super::special`): what it is.
    Special(super::special::SpecialKind),
    /// A file over 64 MiB: its size in bytes and its modification time in nanoseconds since
    /// the Unix epoch (0 when unknown), instead of a hash of its bytes.
    Large {
        /// Its size, in bytes.
        bytes: u64,
        /// Its modification time, in nanoseconds since 1970.
        modified_nanos: u128,
    },
    /// The SHA-256 of the file's bytes.
    Sha256([u8; 32]),
    /// The file could not be read: the kind of the error.
    Unreadable(std::io::ErrorKind),
}

impl Fingerprint {
    /// The fingerprint of a file holding `bytes` (up to 64 MiB), as [`file_fingerprint`] gives
    /// it.
    pub(crate) fn of_bytes(bytes: &[u8]) -> Self {
        use sha2::{Digest, Sha256};
        Self::Sha256(Sha256::digest(bytes).into())
    }
}

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Absent => f.write_str("absent"),
            Self::Folder => f.write_str("folder"),
            Self::Special(kind) => write!(f, "special:{kind}"),
            Self::Large {
                bytes,
                modified_nanos,
            } => write!(f, "large:{bytes}:{modified_nanos}"),
            Self::Sha256(digest) => {
                f.write_str("sha256:")?;
                digest.iter().try_for_each(|b| write!(f, "{b:02x}"))
            }
            Self::Unreadable(kind) => write!(f, "unreadable:{kind:?}"),
        }
    }
}

/// What is at `path` now (following symlinks): [`Fingerprint::Absent`], [`Fingerprint::Folder`],
/// [`Fingerprint::Special`] (never opened: a named pipe would wait for a writer), the SHA-256
/// of a file's bytes, or for files over 64 MiB their size and modification time instead. A
/// file that cannot be read gives [`Fingerprint::Unreadable`].
pub(crate) fn file_fingerprint(path: &Path) -> Fingerprint {
    use sha2::{Digest, Sha256};
    const HASHED_UP_TO: u64 = 64 * 1024 * 1024;
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Fingerprint::Absent,
        Err(e) => return Fingerprint::Unreadable(e.kind()),
    };
    if meta.is_dir() {
        return Fingerprint::Folder;
    }
    if let Some(kind) = super::special::special_kind(meta.file_type()) {
        return Fingerprint::Special(kind);
    }
    if meta.len() > HASHED_UP_TO {
        let modified_nanos = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        return Fingerprint::Large {
            bytes: meta.len(),
            modified_nanos,
        };
    }
    match super::special::open_regular(path) {
        Ok(mut file) => {
            let mut hasher = Sha256::new();
            match std::io::copy(&mut file, &mut hasher) {
                Ok(_) => Fingerprint::Sha256(hasher.finalize().into()),
                Err(e) => Fingerprint::Unreadable(e.kind()),
            }
        }
        Err(super::special::OpenRefused::NotRegular(kind)) => Fingerprint::Special(kind),
        Err(super::special::OpenRefused::Io(e)) => Fingerprint::Unreadable(e.kind()),
    }
}

/// What is at a path before a write, read once.
pub(super) enum Current {
    Absent,
    Folder,
    /// A named pipe, device or socket (see `super::special`), never opened.
    Special(super::special::SpecialKind),
    /// A file (or something that cannot be read): its text for the preview when it is UTF-8
    /// text of at most [`PREVIEW_SOURCE_MAX_BYTES`] without NUL, and its fingerprint as
    /// [`file_fingerprint`] gives it.
    File {
        text: Option<String>,
        fingerprint: Fingerprint,
    },
}

/// What is at `path` now, read once: the diff shown and the fingerprint checked before running
/// come from the same read, so a file edited between two reads cannot slip in unseen.
pub(super) fn current_file(path: &Path) -> Current {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Current::Absent,
        Err(e) => {
            return Current::File {
                text: None,
                fingerprint: Fingerprint::Unreadable(e.kind()),
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
            let fingerprint = Fingerprint::of_bytes(&bytes);
            let text = String::from_utf8(bytes)
                .ok()
                .filter(|text| !text.contains('\0'));
            Current::File { text, fingerprint }
        }
        Err(super::special::OpenRefused::Io(e)) => Current::File {
            text: None,
            fingerprint: Fingerprint::Unreadable(e.kind()),
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
pub(crate) fn unified_diff(old: Option<&str>, new: &str, shown: &str) -> String {
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::tools::{Workspace, WriteFile};
    use pretty_assertions::assert_eq;
    use serde_json::json;

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

    /// Grants and logs hold fingerprints as text: the typed value must write the very text the
    /// strings of before did.
    #[test]
    fn a_fingerprint_writes_the_text_grants_and_logs_compare() {
        assert_eq!(
            Fingerprint::of_bytes(b"abc").to_string(),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(Fingerprint::Absent.to_string(), "absent");
        assert_eq!(Fingerprint::Folder.to_string(), "folder");
        assert_eq!(
            Fingerprint::Special(crate::tools::special::SpecialKind::NamedPipe).to_string(),
            "special:a named pipe"
        );
        assert_eq!(
            Fingerprint::Large {
                bytes: 70_000_000,
                modified_nanos: 12
            }
            .to_string(),
            "large:70000000:12"
        );
        assert_eq!(
            Fingerprint::Unreadable(std::io::ErrorKind::PermissionDenied).to_string(),
            "unreadable:PermissionDenied"
        );
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f"), "abc").unwrap();
        assert_eq!(
            file_fingerprint(&dir.path().join("f")),
            Fingerprint::of_bytes(b"abc")
        );
        assert_eq!(file_fingerprint(dir.path()), Fingerprint::Folder);
        assert_eq!(
            file_fingerprint(&dir.path().join("none")),
            Fingerprint::Absent
        );
    }
}
