//! The wire of one hosted agent: its program started in the conversation's folder, in a process
//! group of its own, and newline-delimited JSON-RPC 2.0 over its stdin and stdout
//! (ACP `transports.mdx`: "messages MUST NOT contain embedded newlines"; stderr is for logs).
//!
//! Everything read is bounded: a line longer than [`super::MAX_LINE_BYTES`] ends the reading
//! (its bytes are never held past the cap), a line that is not a JSON-RPC 2.0 message is an
//! error, and what the agent prints on stderr is kept only as its last
//! [`STDERR_TAIL_BYTES`] (for the "Details" of a failure).

use serde_json::{json, Map, Value};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// How much of the agent's stderr is kept: its end, where a program says why it stopped.
pub const STDERR_TAIL_BYTES: usize = 4096;

/// How long a message to the agent may take to be written: an agent that stops reading its
/// stdin fills the pipe, and Ask First does not wait on it for ever.
pub const WRITE_LIMIT: Duration = Duration::from_secs(30);

/// How many parsed messages wait between the reader and the run; past it the reader waits, the
/// pipe fills, and the agent waits too (a flood is slowed down, not held in memory).
const QUEUE: usize = 64;

/// One message from the agent.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A call the agent makes and waits for: `id` (a number or a string, echoed back exactly),
    /// the method and its params (`null` when absent).
    Request {
        /// The agent's id for the call.
        id: Value,
        /// The method's name.
        method: String,
        /// Its params.
        params: Value,
    },
    /// A message that wants no answer (`session/update`).
    Notification {
        /// The method's name.
        method: String,
        /// Its params.
        params: Value,
    },
    /// The answer to one of Ask First's requests.
    Response {
        /// The id Ask First gave the request.
        id: Value,
        /// Its result, or the agent's error.
        result: Result<Value, RpcError>,
    },
}

/// A JSON-RPC error object the agent answered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError {
    /// Its code.
    pub code: i64,
    /// Its message, as the agent wrote it (untrusted; clean it before showing it).
    pub message: String,
}

/// Why the wire stopped or a message could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
    /// A line longer than the cap (bytes).
    #[error("the agent sent a message longer than {limit} bytes")]
    TooLong {
        /// The cap.
        limit: usize,
    },
    /// A line that is not a JSON-RPC 2.0 message.
    #[error("the agent sent a line that is not a JSON-RPC 2.0 message")]
    NotJsonRpc,
    /// The agent closed its stdout (it exited, or crashed).
    #[error("the agent's program ended")]
    Closed,
    /// The agent did not read what Ask First wrote within [`WRITE_LIMIT`], or its stdin closed.
    #[error("the agent stopped reading its input: {0}")]
    Write(String),
    /// Reading failed.
    #[error("reading from the agent failed: {0}")]
    Read(String),
}

/// Reads one message from a line (without its newline).
///
/// # Errors
/// [`WireError::NotJsonRpc`] for anything but a JSON-RPC 2.0 request, notification or response.
pub fn parse(line: &[u8]) -> Result<Incoming, WireError> {
    let Ok(Value::Object(mut map)) = serde_json::from_slice::<Value>(line) else {
        return Err(WireError::NotJsonRpc);
    };
    if map.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(WireError::NotJsonRpc);
    }
    let id = map.remove("id");
    let valid_id = |id: &Value| matches!(id, Value::Number(_) | Value::String(_));
    match map.remove("method") {
        Some(Value::String(method)) => {
            let params = map.remove("params").unwrap_or(Value::Null);
            match id {
                None => Ok(Incoming::Notification { method, params }),
                Some(id) if valid_id(&id) => Ok(Incoming::Request { id, method, params }),
                Some(_) => Err(WireError::NotJsonRpc),
            }
        }
        Some(_) => Err(WireError::NotJsonRpc),
        None => {
            let id = id.filter(valid_id).ok_or(WireError::NotJsonRpc)?;
            let result = match (map.remove("result"), map.remove("error")) {
                (Some(result), None) => Ok(result),
                (None, Some(Value::Object(error))) => Err(rpc_error(&error)),
                _ => return Err(WireError::NotJsonRpc),
            };
            Ok(Incoming::Response { id, result })
        }
    }
}

fn rpc_error(error: &Map<String, Value>) -> RpcError {
    RpcError {
        code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
        message: error
            .get("message")
            .and_then(Value::as_str)
            .map(|m| crate::text::truncate_text(m, 2000))
            .unwrap_or_default(),
    }
}

/// Reads lines from `from` until it ends or a line breaks the rules, sending each message (or
/// the one error that ends the reading) to `to`. Only `cap` bytes of a line are ever held.
async fn read_messages(
    from: impl tokio::io::AsyncRead + Unpin,
    to: mpsc::Sender<Result<Incoming, WireError>>,
    cap: usize,
) {
    let mut reader = BufReader::with_capacity(64 * 1024, from);
    let mut line: Vec<u8> = Vec::new();
    loop {
        let buffer = match reader.fill_buf().await {
            Ok(buffer) => buffer,
            Err(error) => {
                let _ = to.send(Err(WireError::Read(error.to_string()))).await;
                return;
            }
        };
        if buffer.is_empty() {
            // A last line without its newline is still a message.
            if !line.iter().all(u8::is_ascii_whitespace) && to.send(parse(&line)).await.is_err() {
                return;
            }
            let _ = to.send(Err(WireError::Closed)).await;
            return;
        }
        let (taken, ends_line) = match buffer.iter().position(|b| *b == b'\n') {
            Some(at) => (at, true),
            None => (buffer.len(), false),
        };
        if line.len() + taken > cap {
            let _ = to.send(Err(WireError::TooLong { limit: cap })).await;
            return;
        }
        line.extend_from_slice(&buffer[..taken]);
        reader.consume(taken + usize::from(ends_line));
        if ends_line {
            let message = std::mem::take(&mut line);
            if message.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let parsed = parse(&message);
            let stop = parsed.is_err();
            if to.send(parsed).await.is_err() || stop {
                return;
            }
        }
    }
}

/// Keeps the end of the agent's stderr.
async fn keep_stderr_tail(mut from: tokio::process::ChildStderr, tail: Arc<Mutex<Vec<u8>>>) {
    let mut chunk = [0u8; 4096];
    loop {
        match from.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                let mut kept = crate::sync::MutexExt::lock_or_recover(&*tail);
                kept.extend_from_slice(&chunk[..n]);
                let over = kept.len().saturating_sub(STDERR_TAIL_BYTES);
                kept.drain(..over);
            }
        }
    }
}

/// A running agent program and the wire to it. Dropping it kills the agent's whole process
/// group.
pub struct AgentProcess {
    child: tokio::process::Child,
    group: Option<i32>,
    stdin: Option<tokio::process::ChildStdin>,
    incoming: mpsc::Receiver<Result<Incoming, WireError>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    next_id: u64,
}

impl AgentProcess {
    /// Starts `command` (the program and its arguments, as given; the program is looked up on
    /// `PATH`) in `folder`, with Ask First's environment less its own variables (`ASKFIRST_*`):
    /// the agent's own keys and settings are the agent's business, read from its environment and
    /// its own files, never from Ask First's settings. Must be called within a tokio runtime.
    ///
    /// # Errors
    /// The program could not be started (not found, not executable), or `command` is empty.
    pub fn start(command: &[String], folder: &Path) -> std::io::Result<Self> {
        let Some((program, args)) = command.split_first() else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "no command to start the agent with",
            ));
        };
        let mut cmd = tokio::process::Command::new(program);
        cmd.args(args)
            .current_dir(folder)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("ASKFIRST_") {
                cmd.env_remove(name);
            }
        }
        #[cfg(unix)]
        cmd.process_group(0);
        let mut child = cmd.spawn()?;
        let group = child.id().and_then(|id| i32::try_from(id).ok());
        let stdin = child.stdin.take();
        let (tx, incoming) = mpsc::channel(QUEUE);
        if let Some(stdout) = child.stdout.take() {
            tokio::spawn(read_messages(stdout, tx, super::MAX_LINE_BYTES));
        }
        let stderr = Arc::new(Mutex::new(Vec::new()));
        if let Some(from) = child.stderr.take() {
            tokio::spawn(keep_stderr_tail(from, Arc::clone(&stderr)));
        }
        Ok(Self {
            child,
            group,
            stdin,
            incoming,
            stderr,
            next_id: 0,
        })
    }

    async fn write(&mut self, message: Value) -> Result<(), WireError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(WireError::Write("its input is closed".into()));
        };
        let mut line = message.to_string();
        line.push('\n');
        let written = tokio::time::timeout(WRITE_LIMIT, async {
            stdin.write_all(line.as_bytes()).await?;
            stdin.flush().await
        })
        .await;
        match written {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) => Err(WireError::Write(error.to_string())),
            Err(_) => Err(WireError::Write(format!(
                "nothing was read for {} s",
                WRITE_LIMIT.as_secs()
            ))),
        }
    }

    /// Sends a request; returns the id it was given (answered by an [`Incoming::Response`]).
    ///
    /// # Errors
    /// [`WireError::Write`].
    pub async fn request(&mut self, method: &str, params: Value) -> Result<Value, WireError> {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.write(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        Ok(id)
    }

    /// Sends a notification.
    ///
    /// # Errors
    /// [`WireError::Write`].
    pub async fn notify(&mut self, method: &str, params: Value) -> Result<(), WireError> {
        self.write(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await
    }

    /// Answers the agent's request `id` with `result`.
    ///
    /// # Errors
    /// [`WireError::Write`].
    pub async fn respond(&mut self, id: &Value, result: Value) -> Result<(), WireError> {
        self.write(json!({"jsonrpc": "2.0", "id": id, "result": result}))
            .await
    }

    /// Answers the agent's request `id` with an error (JSON-RPC codes: -32601 method not found,
    /// -32602 invalid params, -32603 internal; `message` is read by the agent's model).
    ///
    /// # Errors
    /// [`WireError::Write`].
    pub async fn respond_error(
        &mut self,
        id: &Value,
        code: i64,
        message: &str,
    ) -> Result<(), WireError> {
        self.write(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}))
            .await
    }

    /// The next message; after an error or [`WireError::Closed`], `None` for ever.
    pub async fn next(&mut self) -> Option<Result<Incoming, WireError>> {
        self.incoming.recv().await
    }

    /// The end of what the agent printed on stderr, as text (for "Details").
    pub fn stderr_tail(&self) -> String {
        let kept = crate::sync::MutexExt::lock_or_recover(&*self.stderr);
        String::from_utf8_lossy(&kept).into_owned()
    }

    /// Stops the agent: its input is closed (a well-behaved agent exits on that), then, after
    /// at most `grace`, its whole process group is killed. Returns its exit status when known.
    pub async fn stop(&mut self, grace: Duration) -> Option<std::process::ExitStatus> {
        drop(self.stdin.take());
        if let Ok(Ok(status)) = tokio::time::timeout(grace, self.child.wait()).await {
            self.kill_group();
            return Some(status);
        }
        self.kill_group();
        let _ = self.child.start_kill();
        tokio::time::timeout(Duration::from_secs(5), self.child.wait())
            .await
            .ok()
            .and_then(Result::ok)
    }

    /// The agent's exit status, if it has exited.
    pub fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    fn kill_group(&mut self) {
        #[cfg(unix)]
        if let Some(group) = self.group.take() {
            use nix::sys::signal::{killpg, Signal};
            let _ = killpg(nix::unistd::Pid::from_raw(group), Signal::SIGKILL);
        }
    }
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        self.kill_group();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn messages_are_told_apart_and_anything_else_is_refused() {
        assert_eq!(
            parse(br#"{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"a":1}}"#),
            Ok(Incoming::Request {
                id: json!(7),
                method: "fs/read_text_file".into(),
                params: json!({"a": 1})
            })
        );
        assert_eq!(
            parse(br#"{"jsonrpc":"2.0","method":"session/update"}"#),
            Ok(Incoming::Notification {
                method: "session/update".into(),
                params: Value::Null
            })
        );
        assert_eq!(
            parse(br#"{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}}"#),
            Ok(Incoming::Response {
                id: json!("x"),
                result: Err(RpcError {
                    code: -1,
                    message: "no".into()
                })
            })
        );
        for bad in [
            &b"hello"[..],
            br#"[1,2]"#,
            br#"{"id":1,"method":"x"}"#,
            br#"{"jsonrpc":"2.0","id":null,"method":"x"}"#,
            br#"{"jsonrpc":"2.0","id":1}"#,
            br#"{"jsonrpc":"2.0","method":5}"#,
        ] {
            assert_eq!(parse(bad), Err(WireError::NotJsonRpc), "{bad:?}");
        }
    }

    #[tokio::test]
    async fn a_line_over_the_cap_ends_the_reading_without_holding_it() {
        let (tx, mut rx) = mpsc::channel(4);
        let mut input = Vec::new();
        input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n");
        input.extend(std::iter::repeat_n(b'x', 1000));
        input.push(b'\n');
        tokio::spawn(read_messages(std::io::Cursor::new(input), tx, 100));
        assert!(matches!(
            rx.recv().await,
            Some(Ok(Incoming::Notification { .. }))
        ));
        assert_eq!(
            rx.recv().await,
            Some(Err(WireError::TooLong { limit: 100 }))
        );
        assert_eq!(rx.recv().await, None);
    }
}
