//! What the card says about another agent's request: who asks, in which folder, what it wants
//! in plain words (for the tools we know: Claude Code's `Bash`, `Write`, `Edit`, `MultiEdit`,
//! `Read`, `WebFetch`; Codex's `Bash`; Gemini CLI's `run_shell_command`, `write_file`,
//! `replace`, `read_file`, `web_fetch`), the diff of a write or edit, and the risk. The tool's
//! name and its exact input are on the card as the agent sent them.

use super::words;
use crate::text::display_label;
use askfirst_protocol::{CallDetail, InboxRequest, Risk};
use serde_json::Value;
use std::path::Path;

/// The most characters of a command, path or address in the summary (the exact input is on
/// the card in full).
const LABEL_CHARS: usize = 160;

/// The most bytes of an existing file read to show what a write replaces (1 MiB); a larger
/// file's diff is shown against nothing, and the card says it replaces the file.
const MAX_OLD_FILE_BYTES: u64 = 1024 * 1024;

/// What the card shows about `request`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalCard {
    /// "Claude Code, in the folder ~/site, wants to run `npm test`".
    pub summary: String,
    /// Why the person is asked.
    pub reason: String,
    /// How risky it is.
    pub risk: Risk,
    /// The unified diff of a write or edit.
    pub preview: Option<String>,
    /// Whose request it is, one sentence.
    pub effects: Vec<String>,
    /// Who asks and where ([`CallDetail::External`]).
    pub detail: CallDetail,
    /// Whether the call only reads (left to the agent's own permission flow).
    pub read_only: bool,
}

/// What kind of call a tool name is, across the agents' names for the same things.
enum Kind {
    Command,
    Write,
    Edit,
    Read,
    Fetch,
    ReadOnly,
    Other,
}

fn kind(tool: &str) -> Kind {
    match tool {
        "Bash" | "run_shell_command" | "shell" | "exec_command" => Kind::Command,
        "Write" | "write_file" => Kind::Write,
        "Edit" | "MultiEdit" | "replace" | "NotebookEdit" | "apply_patch" => Kind::Edit,
        "Read" | "read_file" | "read_many_files" => Kind::Read,
        "WebFetch" | "web_fetch" => Kind::Fetch,
        "Glob"
        | "Grep"
        | "LS"
        | "list_directory"
        | "glob"
        | "search_file_content"
        | "TodoWrite" => Kind::ReadOnly,
        _ => Kind::Other,
    }
}

fn text_field<'a>(input: &'a Value, names: &[&str]) -> Option<&'a str> {
    names
        .iter()
        .find_map(|n| input.get(*n).and_then(Value::as_str))
}

/// `path` with the home folder shown as `~`.
pub fn as_shown(path: &str, home: Option<&Path>) -> String {
    match home.and_then(|h| Path::new(path).strip_prefix(h).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~".to_owned(),
        Some(rest) => format!("~/{}", rest.display()),
        None => path.to_owned(),
    }
}

/// Describes `request` for its card; `home` is the person's home folder.
pub fn describe(request: &InboxRequest, home: Option<&Path>) -> ExternalCard {
    let agent = request.agent.display_name();
    let folder = display_label(&as_shown(&request.cwd, home), LABEL_CHARS);
    let input: Value = serde_json::from_str(&request.tool_input_json).unwrap_or(Value::Null);
    let label = |text: &str| display_label(&as_shown(text, home), LABEL_CHARS);
    let mut preview = None;
    let mut command = None;
    let (wants, risk, read_only) = match kind(&request.tool_name) {
        Kind::Command => {
            let line = text_field(&input, &["command", "cmd"])
                .map(str::to_owned)
                .or_else(|| {
                    // Codex sends a command as a list of words.
                    input.get("command").and_then(Value::as_array).map(|words| {
                        words
                            .iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                });
            match line {
                Some(line) => {
                    let wants = words::to_run(&display_label(&line, LABEL_CHARS));
                    command = Some(line);
                    (wants, Risk::High, false)
                }
                None => (words::to_use(&request.tool_name), Risk::High, false),
            }
        }
        Kind::Write => {
            let path = text_field(&input, &["file_path", "path", "absolute_path"]);
            let content = text_field(&input, &["content"]).unwrap_or("");
            match path {
                Some(path) => {
                    let old = read_small(Path::new(path));
                    preview = Some(crate::tools::preview::unified_diff(
                        old.as_deref(),
                        content,
                        &as_shown(path, home),
                    ))
                    .filter(|d| !d.is_empty());
                    (
                        words::to_write(&label(path), content.lines().count()),
                        Risk::Medium,
                        false,
                    )
                }
                None => (words::to_use(&request.tool_name), Risk::High, false),
            }
        }
        Kind::Edit => {
            let path = text_field(&input, &["file_path", "path", "notebook_path"]);
            let old = text_field(&input, &["old_string", "old_str"]);
            let new = text_field(&input, &["new_string", "new_str", "new_source"]);
            if let (Some(path), Some(new)) = (path, new) {
                preview = Some(crate::tools::preview::unified_diff(
                    Some(old.unwrap_or("")),
                    new,
                    &as_shown(path, home),
                ))
                .filter(|d| !d.is_empty());
            }
            match path {
                Some(path) => (words::to_edit(&label(path)), Risk::Medium, false),
                None => (words::to_use(&request.tool_name), Risk::High, false),
            }
        }
        Kind::Read => match text_field(&input, &["file_path", "path", "absolute_path"]) {
            Some(path) => (words::to_read(&label(path)), Risk::Low, true),
            None => (words::to_use(&request.tool_name), Risk::Low, true),
        },
        Kind::Fetch => match text_field(&input, &["url", "prompt"]) {
            Some(url) => (
                words::to_fetch(&display_label(url, LABEL_CHARS)),
                Risk::High,
                false,
            ),
            None => (words::to_use(&request.tool_name), Risk::High, false),
        },
        Kind::ReadOnly => (words::to_use(&request.tool_name), Risk::Low, true),
        Kind::Other => (
            words::to_use(&display_label(&request.tool_name, LABEL_CHARS)),
            Risk::High,
            false,
        ),
    };
    ExternalCard {
        summary: words::who_asks(agent, &folder, &wants),
        reason: words::reason(agent),
        risk,
        preview,
        effects: vec![words::not_ours(agent)],
        detail: CallDetail::External {
            agent: agent.to_owned(),
            folder,
            command,
        },
        read_only,
    }
}

/// The file at `path` when it is a small text file; `None` otherwise.
fn read_small(path: &Path) -> Option<String> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_OLD_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() as u64 > MAX_OLD_FILE_BYTES {
        return None;
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use super::*;
    use askfirst_protocol::ExternalAgent;
    use pretty_assertions::assert_eq;

    fn request(tool: &str, input: &str) -> InboxRequest {
        InboxRequest {
            agent: ExternalAgent::ClaudeCode,
            hook_event: "PreToolUse".into(),
            session_id: "s".into(),
            cwd: "/home/ann/projects/site".into(),
            tool_name: tool.into(),
            tool_input_json: input.into(),
        }
    }

    #[test]
    fn the_card_says_who_asks_in_which_folder_and_what_it_wants() {
        let home = Path::new("/home/ann");
        let card = describe(&request("Bash", r#"{"command":"npm test"}"#), Some(home));
        assert_eq!(
            card.summary,
            "Claude Code, in the folder ~/projects/site, wants to run `npm test`"
        );
        assert_eq!(
            card.detail,
            CallDetail::External {
                agent: "Claude Code".into(),
                folder: "~/projects/site".into(),
                command: Some("npm test".into()),
            }
        );
        assert_eq!((card.risk, card.read_only), (Risk::High, false));
        let read = describe(
            &request("Read", r#"{"file_path":"/etc/passwd"}"#),
            Some(home),
        );
        assert_eq!(
            read.summary,
            "Claude Code, in the folder ~/projects/site, wants to read the file /etc/passwd"
        );
        assert!(read.read_only);
        let other = describe(&request("mcp__x__do\u{202e}it", "{}"), Some(home));
        assert!(other.summary.contains("\\u202E"), "{}", other.summary);
        assert!(!other.read_only);
    }

    #[test]
    fn a_write_shows_its_diff_and_an_edit_its_change() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "one\ntwo\n").expect("write");
        let input = serde_json::json!({ "file_path": path, "content": "one\nthree\n" }).to_string();
        let card = describe(&request("Write", &input), None);
        let diff = card.preview.expect("diff");
        assert!(diff.contains("-two") && diff.contains("+three"), "{diff}");
        assert!(card.summary.ends_with("(2 lines)"), "{}", card.summary);
        let edit = serde_json::json!({ "file_path": path, "old_string": "two", "new_string": "2" })
            .to_string();
        let diff = describe(&request("Edit", &edit), None)
            .preview
            .expect("diff");
        assert!(diff.contains("-two") && diff.contains("+2"), "{diff}");
    }
}
