//! A local HTTP server that misbehaves on purpose: each accepted connection is handed to a
//! test's handler with its number, and the handler writes whatever bytes it likes.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A running server: its base URL (`http://127.0.0.1:<port>`) and how many connections it
/// accepted.
pub struct Server {
    pub base: String,
    pub port: u16,
    accepted: Arc<AtomicUsize>,
}

impl Server {
    pub fn connections(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }
}

/// Serves until the test's runtime ends: connection `n` (from 0) goes to `handler(n, socket)`.
pub async fn serve<F, Fut>(handler: F) -> Server
where
    F: Fn(usize, TcpStream) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&accepted);
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let n = count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(handler(n, socket));
        }
    });
    Server {
        base: format!("http://127.0.0.1:{port}"),
        port,
        accepted,
    }
}

/// Reads one request: its head, then its body by `Content-Length`.
pub async fn read_request(socket: &mut TcpStream) -> String {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        let n = socket.read(&mut chunk).await.unwrap_or(0);
        if n == 0 {
            return String::from_utf8_lossy(&buf).into_owned();
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    while buf.len() < head_end + length {
        match socket.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// A response head that closes the connection after the body.
pub fn head(status: u16, headers: &[(&str, &str)]) -> String {
    let mut out = format!("HTTP/1.1 {status} Whatever\r\nConnection: close\r\n");
    for (name, value) in headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("\r\n");
    out
}

/// Reads the request, then writes `head` and `body` and closes.
pub async fn reply(mut socket: TcpStream, head: String, body: Vec<u8>) {
    read_request(&mut socket).await;
    let _ = socket.write_all(head.as_bytes()).await;
    let _ = socket.write_all(&body).await;
    let _ = socket.shutdown().await;
}

/// Reads the request, writes `head`, then `body` in pieces of `piece` bytes with `pause`
/// between them; stops when the client has gone.
pub async fn trickle(
    mut socket: TcpStream,
    head: String,
    body: impl Iterator<Item = Vec<u8>>,
    pause: Duration,
) {
    read_request(&mut socket).await;
    if socket.write_all(head.as_bytes()).await.is_err() {
        return;
    }
    for piece in body {
        if socket.write_all(&piece).await.is_err() || socket.flush().await.is_err() {
            return;
        }
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
    }
    let _ = socket.shutdown().await;
}

/// An SSE response head.
pub fn sse_head() -> String {
    head(200, &[("Content-Type", "text/event-stream")])
}
