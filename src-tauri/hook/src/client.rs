//! The running Ask First's inbox socket, and one request over it.
//!
//! The socket is `$XDG_RUNTIME_DIR/askfirst/inbox.sock` (the per-user runtime folder of the
//! XDG Base Directory spec; the app keeps the `askfirst` folder 0700 and the socket 0600, and
//! checks every peer's uid). One connection: the request as one JSON line, then the answer as
//! one JSON line when the person has decided.

use askfirst_protocol::{InboxAnswer, InboxRequest, INBOX_MAX_REQUEST_BYTES, INBOX_SOCKET_NAME};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The longest the hook waits for the person: the longest approval timeout Ask First offers
/// (one hour), and a minute more for the answer to arrive. Ask First itself answers "deny"
/// at its own timeout, long before this.
pub const LONGEST_WAIT: Duration = Duration::from_secs(3660);

/// The most bytes an answer line may hold (64 KiB).
pub const MAX_ANSWER_BYTES: u64 = 64 * 1024;

/// Why Ask First could not be asked.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// No `$XDG_RUNTIME_DIR`: there is no per-user place for the socket.
    #[error("this desktop session has no runtime folder (XDG_RUNTIME_DIR), so Ask First cannot be reached")]
    NoRuntimeDir,
    /// The socket is not there or refused the connection: Ask First is not running.
    #[error("Ask First is not running (or its inbox is closed)")]
    NotRunning(#[source] std::io::Error),
    /// Writing the request or reading the answer failed (the app quit while waiting).
    #[error("Ask First stopped answering")]
    Io(#[source] std::io::Error),
    /// The answer was not an [`InboxAnswer`] line.
    #[error("Ask First's answer could not be read")]
    Answer,
    /// The request could not be encoded, or is larger than the socket takes.
    #[error("the request is too large for Ask First's inbox")]
    TooLarge,
}

/// `$XDG_RUNTIME_DIR/askfirst/inbox.sock`, from `runtime_dir` (the variable's value).
///
/// # Errors
/// [`ClientError::NoRuntimeDir`] when it is unset or empty.
pub fn socket_path(runtime_dir: Option<&std::ffi::OsStr>) -> Result<PathBuf, ClientError> {
    match runtime_dir {
        Some(dir) if !dir.is_empty() => Ok(Path::new(dir).join("askfirst").join(INBOX_SOCKET_NAME)),
        _ => Err(ClientError::NoRuntimeDir),
    }
}

/// Sends `request` to the inbox at `socket` and waits at most `wait` for the answer.
///
/// # Errors
/// [`ClientError`]; the caller fails closed (never "allow").
pub fn ask(
    socket: &Path,
    request: &InboxRequest,
    wait: Duration,
) -> Result<InboxAnswer, ClientError> {
    let mut line = serde_json::to_vec(request).map_err(|_| ClientError::TooLarge)?;
    line.push(b'\n');
    if line.len() > INBOX_MAX_REQUEST_BYTES {
        return Err(ClientError::TooLarge);
    }
    let mut stream = UnixStream::connect(socket).map_err(ClientError::NotRunning)?;
    stream
        .set_write_timeout(Some(Duration::from_secs(10)))
        .map_err(ClientError::Io)?;
    stream
        .set_read_timeout(Some(wait))
        .map_err(ClientError::Io)?;
    stream.write_all(&line).map_err(ClientError::Io)?;
    stream.flush().map_err(ClientError::Io)?;
    let mut answer = String::new();
    BufReader::new(stream.take(MAX_ANSWER_BYTES))
        .read_line(&mut answer)
        .map_err(ClientError::Io)?;
    if !answer.ends_with('\n') {
        return Err(ClientError::Answer);
    }
    serde_json::from_str(answer.trim_end()).map_err(|_| ClientError::Answer)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use super::*;
    use askfirst_protocol::{ExternalAgent, InboxVerdict};
    use std::os::unix::net::UnixListener;

    fn request() -> InboxRequest {
        InboxRequest {
            agent: ExternalAgent::ClaudeCode,
            hook_event: "PreToolUse".into(),
            session_id: "s".into(),
            cwd: "/tmp".into(),
            tool_name: "Bash".into(),
            tool_input_json: "{}".into(),
        }
    }

    #[test]
    fn no_runtime_dir_and_no_socket_are_errors_not_answers() {
        assert!(matches!(socket_path(None), Err(ClientError::NoRuntimeDir)));
        let dir = tempfile::tempdir().expect("temp dir");
        let gone = dir.path().join("inbox.sock");
        assert!(matches!(
            ask(&gone, &request(), Duration::from_secs(1)),
            Err(ClientError::NotRunning(_))
        ));
    }

    #[test]
    fn a_closed_connection_or_a_garbled_answer_is_an_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("inbox.sock");
        let listener = UnixListener::bind(&path).expect("bind");
        let server = std::thread::spawn(move || {
            for reply in [
                &b""[..],
                b"{\"verdict\":\"maybe\"}\n",
                b"{\"verdict\":\"allow\"}\n",
            ] {
                let (mut stream, _) = listener.accept().expect("accept");
                let mut line = String::new();
                BufReader::new(&stream).read_line(&mut line).expect("read");
                stream.write_all(reply).expect("write");
            }
        });
        let wait = Duration::from_secs(5);
        assert!(matches!(
            ask(&path, &request(), wait),
            Err(ClientError::Answer)
        ));
        assert!(matches!(
            ask(&path, &request(), wait),
            Err(ClientError::Answer)
        ));
        assert_eq!(
            ask(&path, &request(), wait).expect("answer").verdict,
            InboxVerdict::Allow
        );
        server.join().expect("server");
    }
}
