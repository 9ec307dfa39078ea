//! The built-in tool fetch_url: no redirect followed (each hop is asked about anew), what its cards say about an
//! address, size caps and failures.

use askfirst_core::policy::Contents;
use askfirst_core::policy::{ArgumentKind, MainArgument};
use askfirst_core::tools::{CallDescription, ToolError, OUTPUT_CAP_BYTES};
use askfirst_protocol::Risk;
use pretty_assertions::assert_eq;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::tools_builtin::{told, tool, ws};

// ---------------------------------------------------------------- fetch_url

/// A tiny HTTP/1.1 server on 127.0.0.1 for the fetch tests; returns its port.
pub(super) fn serve() -> u16 {
    serve_counting().0
}

/// [`serve`], and how many requests it has received.
fn serve_counting() -> (u16, Arc<AtomicUsize>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&hits);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            counted.fetch_add(1, Ordering::SeqCst);
            std::thread::spawn(move || {
                let mut request = Vec::new();
                let mut byte = [0_u8; 1];
                while !request.ends_with(b"\r\n\r\n") {
                    match stream.read(&mut byte) {
                        Ok(1) => request.push(byte[0]),
                        _ => return,
                    }
                }
                let request = String::from_utf8_lossy(&request);
                let path = request.split(' ').nth(1).unwrap_or("/").to_owned();
                let chain = path
                    .strip_prefix("/chain/")
                    .and_then(|n| n.parse::<u32>().ok());
                let (status, headers, body): (&str, String, Vec<u8>) = match path.as_str() {
                    _ if chain == Some(0) => {
                        ("200 OK", String::new(), b"end of the chain".to_vec())
                    }
                    _ if chain.is_some() => (
                        "302 Found",
                        format!("Location: /chain/{}\r\n", chain.unwrap_or(1) - 1),
                        Vec::new(),
                    ),
                    _ if path.starts_with("/redirect-to/") => (
                        "301 Moved Permanently",
                        format!("Location: {}\r\n", &path["/redirect-to/".len()..]),
                        Vec::new(),
                    ),
                    "/hello" => (
                        "200 OK",
                        "Content-Type: text/plain; charset=utf-8\r\n".into(),
                        b"hello from the test server\n".to_vec(),
                    ),
                    "/to-localhost" => (
                        "302 Found",
                        format!("Location: http://localhost:{port}/hello\r\n"),
                        Vec::new(),
                    ),
                    "/same-host" => ("302 Found", "Location: /hello\r\n".into(), Vec::new()),
                    "/big" => (
                        "200 OK",
                        "Content-Type: text/plain\r\n".into(),
                        vec![b'a'; 3 * 1024 * 1024],
                    ),
                    "/binary" => (
                        "200 OK",
                        "Content-Type: application/octet-stream\r\n".into(),
                        vec![0, 1, 2, 3],
                    ),
                    _ => (
                        "404 Not Found",
                        "Content-Type: text/plain\r\n".into(),
                        b"not here".to_vec(),
                    ),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            });
        }
    });
    (port, hits)
}

#[tokio::test]
async fn fetch_url_returns_text_and_follows_no_redirect() {
    let port = serve();
    let (_dir, ws) = ws();
    let fetch = tool("fetch_url");
    let raw = format!(r#"{{"url": "http://127.0.0.1:{port}/hello"}}"#);
    assert_eq!(
        fetch.main_arguments(&raw, &ws),
        vec![MainArgument {
            alias: None,
            kind: ArgumentKind::Url,
            text: format!("http://127.0.0.1:{port}/hello"),
            resolved: None,
            contents: Contents::No,
        }]
    );
    assert_eq!(
        fetch.execute(&raw, &ws).await.unwrap(),
        format!(
            "Fetched http://127.0.0.1:{port}/hello (HTTP 200 OK, text/plain; charset=utf-8).\n\
             hello from the test server\n"
        )
    );

    // Another host (the same server under another name) is not gone to: the model is told
    // where it leads, and to ask again.
    let raw = format!(r#"{{"url": "http://127.0.0.1:{port}/to-localhost"}}"#);
    assert_eq!(
        fetch.execute(&raw, &ws).await.map_err(|e| e.to_string()),
        Err(told(&format!(
            "Not followed: http://127.0.0.1:{port}/to-localhost redirects to \
             http://localhost:{port}/hello (an address on this computer), which is not the \
             address that was approved, so Ask First did not go there. To read it, fetch_url \
             must be called again with http://localhost:{port}/hello; a new approval card will \
             show it."
        )))
    );

    // Another port is another program: it never hears from us.
    let (other, other_hits) = serve_counting();
    let raw = format!(
        r#"{{"url": "http://127.0.0.1:{port}/redirect-to/http://127.0.0.1:{other}/hello"}}"#
    );
    assert_eq!(
        fetch.execute(&raw, &ws).await.map_err(|e| e.to_string()),
        Err(told(&format!(
            "Not followed: http://127.0.0.1:{port}/redirect-to/http://127.0.0.1:{other}/hello \
             redirects to http://127.0.0.1:{other}/hello (an address on this computer), which \
             is not the address that was approved, so Ask First did not go there. To read it, \
             fetch_url must be called again with http://127.0.0.1:{other}/hello; a new approval \
             card will show it."
        )))
    );
    assert_eq!(other_hits.load(Ordering::SeqCst), 0);

    // Nor a scheme that is not the web.
    let raw = format!(r#"{{"url": "http://127.0.0.1:{port}/redirect-to/file:///etc/passwd"}}"#);
    assert_eq!(
        fetch.execute(&raw, &ws).await.map_err(|e| e.to_string()),
        Err(told(&format!(
            "Not followed: http://127.0.0.1:{port}/redirect-to/file:///etc/passwd redirects to \
             file:///etc/passwd, which is not a web address that can be fetched, so Ask First \
             did not go there."
        )))
    );

    // Not even a redirect on the same site is followed: every hop is a new address, which the
    // rules judge (found by a third hostile review: "allow /docs/*" and "never /private/*", and
    // /docs/start redirected to /private/data was followed with no card).
    let raw = format!(r#"{{"url": "http://127.0.0.1:{port}/same-host"}}"#);
    assert_eq!(
        fetch.execute(&raw, &ws).await.map_err(|e| e.to_string()),
        Err(told(&format!(
            "Not followed: http://127.0.0.1:{port}/same-host redirects to \
             http://127.0.0.1:{port}/hello (an address on this computer), which is not the \
             address that was approved, so Ask First did not go there. To read it, fetch_url \
             must be called again with http://127.0.0.1:{port}/hello; a new approval card will \
             show it."
        )))
    );

    // `localhost` is looked up, checked (this computer, as the card says) and connected to.
    let raw = format!(r#"{{"url": "http://localhost:{port}/hello"}}"#);
    assert_eq!(
        fetch.execute(&raw, &ws).await.unwrap(),
        format!(
            "Fetched http://localhost:{port}/hello (HTTP 200 OK, text/plain; charset=utf-8).\n\
             hello from the test server\n"
        )
    );
}

#[test]
fn fetch_url_cards_say_where_an_address_is() {
    let (_dir, ws) = ws();
    let fetch = tool("fetch_url");
    let this_computer = "The address is on this computer, not on the internet: it reaches a \
                         program running here, which may hand out private information or act \
                         on the request.";
    let local_network = "The address is on your local network, not on the internet: a device \
                         such as a router, a printer or another computer at home or at work.";
    let metadata = "On a cloud server, this address hands out the server's own settings and \
                    access keys.";
    let secret = "The address contains a user name or password, which is sent along.";
    let redirects = "If the site sends the request on to a different address, Ask First does \
                     not follow it: you are asked again about that address.";
    let card = |summary: &str, effects: &[&str]| CallDescription {
        change: None,
        summary: summary.to_owned(),
        risk: Risk::High,
        preview: None,
        fingerprint: None,
        effects: effects.iter().map(|e| (*e).to_owned()).collect(),
        detail: None,
    };
    let here = "(an address on this computer)";
    let near = "(an address on your local network)";
    let far = "(this goes on the internet)";
    let cases = [
        (
            "http://127.0.0.1:8080/x",
            card(
                &format!("Read the web page at http://127.0.0.1:8080/x {here}"),
                &[this_computer, redirects],
            ),
        ),
        (
            "http://2130706433/",
            card(
                &format!("Read the web page at http://127.0.0.1/ {here}"),
                &[this_computer, redirects],
            ),
        ),
        (
            "http://0x7f.1/",
            card(
                &format!("Read the web page at http://127.0.0.1/ {here}"),
                &[this_computer, redirects],
            ),
        ),
        (
            "http://localhost:3000/",
            card(
                &format!("Read the web page at http://localhost:3000/ {here}"),
                &[this_computer, redirects],
            ),
        ),
        (
            "http://[::ffff:127.0.0.1]/",
            card(
                &format!("Read the web page at http://[::ffff:7f00:1]/ {here}"),
                &[this_computer, redirects],
            ),
        ),
        (
            "http://example.com@0.0.0.0/",
            card(
                &format!("Read the web page at http://example.com@0.0.0.0/ {here}"),
                &[this_computer, secret, redirects],
            ),
        ),
        (
            "http://192.168.1.1/",
            card(
                &format!("Read the web page at http://192.168.1.1/ {near}"),
                &[local_network, redirects],
            ),
        ),
        (
            "http://printer.local/",
            card(
                &format!("Read the web page at http://printer.local/ {near}"),
                &[local_network, redirects],
            ),
        ),
        (
            "http://169.254.169.254/latest/meta-data",
            card(
                &format!("Read the web page at http://169.254.169.254/latest/meta-data {near}"),
                &[local_network, metadata, redirects],
            ),
        ),
        (
            "https://example.com/",
            card(
                &format!("Read the web page at https://example.com/ {far}"),
                &[redirects],
            ),
        ),
    ];
    for (address, expected) in cases {
        let raw = serde_json::json!({ "url": address }).to_string();
        assert_eq!(fetch.describe(&raw, &ws), Ok(expected), "{address}");
    }
}

#[tokio::test]
async fn fetch_url_caps_size_and_reports_failures() {
    let port = serve();
    let (_dir, ws) = ws();
    let fetch = tool("fetch_url");

    let raw = format!(r#"{{"url": "http://127.0.0.1:{port}/big"}}"#);
    let half = "a".repeat(OUTPUT_CAP_BYTES / 2);
    assert_eq!(
        fetch.execute(&raw, &ws).await.unwrap(),
        format!(
            "Fetched http://127.0.0.1:{port}/big (HTTP 200 OK, text/plain).\n\
             [Only the first 2 MB were read; the rest was not downloaded.]\n\
             {half}\n[… {} bytes cut …]\n{half}",
            2 * 1024 * 1024 - OUTPUT_CAP_BYTES
        )
    );

    let raw = format!(r#"{{"url": "http://127.0.0.1:{port}/binary"}}"#);
    assert_eq!(
        fetch.execute(&raw, &ws).await.unwrap(),
        format!(
            "Fetched http://127.0.0.1:{port}/binary (HTTP 200 OK, application/octet-stream).\n\
             The response is binary content (4 bytes read), not text, so it is not shown."
        )
    );

    let raw = format!(r#"{{"url": "http://127.0.0.1:{port}/missing"}}"#);
    // The model gets the status line and the text; the person, the same facts in words.
    assert_eq!(
        fetch.execute(&raw, &ws).await.unwrap_err(),
        ToolError::Said {
            model: format!(
                "Fetched http://127.0.0.1:{port}/missing (HTTP 404 Not Found, text/plain).\n\
                 not here"
            ),
            person: format!(
                "http://127.0.0.1:{port}/missing answered with an error (HTTP status 404).\n\
                 What it sent:\nnot here"
            ),
        }
    );

    // Nothing listens on this port any more.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let raw = format!(r#"{{"url": "http://127.0.0.1:{closed}/"}}"#);
    let err = fetch.execute(&raw, &ws).await.unwrap_err();
    assert!(matches!(err, ToolError::Said { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("Could not fetch http://127.0.0.1:{closed}/: ")),
        "{message}"
    );

    for bad in [
        r#"{"url": "file:///etc/passwd"}"#,
        r#"{"url": "ftp://example.com/x"}"#,
        r#"{"url": "not a url"}"#,
        r#"{"url": "http://"}"#,
    ] {
        assert!(
            matches!(
                fetch.describe(bad, &ws),
                Err(ToolError::InvalidArguments { .. })
            ),
            "{bad}"
        );
        assert!(
            matches!(
                fetch.execute(bad, &ws).await,
                Err(ToolError::InvalidArguments { .. })
            ),
            "{bad}"
        );
    }
}
