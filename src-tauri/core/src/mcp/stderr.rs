//! What an MCP server writes to stderr: its last lines, kept for the messages that explain why
//! it failed, and the sign that its process ended (stderr closes).

use super::server::SupervisedServer;
use super::McpServerStatus;
use crate::sync::MutexExt;
use crate::text::display_label;
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::io::AsyncReadExt;

/// How many of the server's last lines on stderr are kept for error messages.
const STDERR_LINES_KEPT: usize = 20;

/// The longest stderr line kept, in bytes.
const STDERR_LINE_BYTES: usize = 500;

/// The last lines a server wrote to stderr.
#[derive(Default)]
pub(super) struct StderrTail {
    lines: Mutex<VecDeque<String>>,
}

impl StderrTail {
    fn lock(&self) -> MutexGuard<'_, VecDeque<String>> {
        self.lines.lock_or_recover()
    }

    pub(super) fn push(&self, line: &[u8]) {
        let text = display_label(&String::from_utf8_lossy(line), STDERR_LINE_BYTES);
        if text.is_empty() {
            return;
        }
        let mut lines = self.lock();
        if lines.len() == STDERR_LINES_KEPT {
            lines.pop_front();
        }
        lines.push_back(text);
    }

    /// ` It said: "…".` with its last lines, or nothing. The values of the server's own
    /// environment variables (tokens, often) are replaced by `•••` wherever they appear.
    pub(super) fn said(&self, hide: &BTreeMap<String, String>) -> String {
        self.last_lines(hide)
            .map(|text| format!(" It said: \"{text}\"."))
            .unwrap_or_default()
    }

    /// [`StderrTail::said`] in the person's language (what the server wrote stays as written).
    pub(super) fn person_said(&self, hide: &BTreeMap<String, String>) -> String {
        self.last_lines(hide)
            .map(|text| crate::i18n::tr("mcp-it_said", &[("text", crate::i18n::Arg::from(text))]))
            .unwrap_or_default()
    }

    /// The last lines joined with ` / `, the values of `hide` replaced by `•••`; `None` when
    /// it wrote nothing.
    fn last_lines(&self, hide: &BTreeMap<String, String>) -> Option<String> {
        let lines = self.lock();
        let last: Vec<&str> = lines
            .iter()
            .rev()
            .take(3)
            .rev()
            .map(String::as_str)
            .collect();
        if last.is_empty() {
            return None;
        }
        let mut text = last.join(" / ");
        for value in hide.values().filter(|v| v.chars().count() >= 4) {
            text = text.replace(value.as_str(), "•••");
        }
        Some(text)
    }
}

/// Keeps the last lines of a server's stderr; when it closes (the process ended) while the
/// status still says running, the status says it stopped.
pub(super) async fn read_stderr(
    mut stderr: tokio::process::ChildStderr,
    tail: Arc<StderrTail>,
    server: std::sync::Weak<SupervisedServer>,
    generation: u64,
) {
    let mut buffer = [0u8; 4096];
    let mut line: Vec<u8> = Vec::new();
    loop {
        match stderr.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                for piece in buffer[..n].split_inclusive(|b| *b == b'\n') {
                    if line.len() < STDERR_LINE_BYTES * 2 {
                        line.extend_from_slice(piece);
                    }
                    if piece.ends_with(b"\n") {
                        tail.push(&line);
                        line.clear();
                    }
                }
            }
        }
    }
    tail.push(&line);
    let Some(server) = server.upgrade() else {
        return;
    };
    let mut state = server.state();
    if state.generation == generation && matches!(state.status, McpServerStatus::Running { .. }) {
        let name = server.shown_name();
        state.status = McpServerStatus::Failed {
            detail: None,
            for_model: format!(
                "The MCP server \"{name}\" stopped.{} It will be started again the next time \
                 one of its tools is needed.",
                tail.said(&server.config.env)
            ),
            message: crate::i18n::tr(
                "mcp-stopped",
                &[
                    ("server", crate::i18n::Arg::from(&name)),
                    (
                        "said",
                        crate::i18n::Arg::from(tail.person_said(&server.config.env)),
                    ),
                ],
            ),
        };
    }
}
