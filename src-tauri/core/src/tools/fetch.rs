//! `fetch_url` (asks first): reads one web address (HTTP GET) and returns its text, with caps
//! on size and time. The card says where the address is; the connection goes only there
//! (checked after the name lookup, pinned against rebinding), and a redirect elsewhere is
//! handed back to be asked about, not followed.

use super::OUTPUT_CAP_BYTES;
use super::{error_chain, parse_args, CallDescription, HeadTail, Tool, ToolError, Workspace};
use crate::i18n::{tr, Arg};
use crate::policy::{ArgumentKind, Contents, MainArgument};
use crate::url_pattern::{destination, Destination};
use askfirst_protocol::Risk;
use async_trait::async_trait;
use futures_util::future::BoxFuture;
use serde::Deserialize;
use serde_json::json;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;
use tokio::time::Instant;
use url::{Host, Url};

/// The most bytes of a response body that are read; the rest is not downloaded.
pub const FETCH_SIZE_CAP_BYTES: usize = 2 * 1024 * 1024;

/// The most seconds one fetch may take, from connecting to the last byte of the body.
pub const FETCH_TIMEOUT_SECS: u64 = 20;

/// `fetch_url {url}`: an HTTP GET of an `http://` or `https://` address (TLS by rustls with
/// the webpki roots, proxies from the environment).
///
/// - The card names where the address is ([`Destination`]): on this computer, on the local
///   network, or on the internet.
/// - Right before connecting, a host name is looked up and every address it gives must be
///   where the card said (a public-looking name that leads to `127.0.0.1` or `192.168.…` is
///   refused); the connection is then pinned to the addresses checked, so a second lookup
///   (DNS rebinding) cannot move it. Addresses on this computer or the local network are
///   reached directly, never through a proxy (which would reach its own). Through a proxy
///   from the environment, an internet address is looked up and checked here, but the proxy
///   makes its own lookup.
/// - Redirects are never followed, not even on the same site: every hop is a new address,
///   which the person's rules must judge as they judge the first (found by a third hostile
///   review: with "allow `/docs/*`" and "never `/private/*`", a same-site redirect from
///   `/docs/start` to `/private/data` was followed with no card). The call fails with a
///   message naming where it leads and saying that `fetch_url` must be called again with that
///   address, which the rules then allow, refuse, or ask about on a card.
/// - Caps: the body is read up to [`FETCH_SIZE_CAP_BYTES`] within [`FETCH_TIMEOUT_SECS`]
///   (for the whole call, lookups and redirects included; what arrived is kept, and the reply
///   says it was cut); the text handed to the model is capped at [`super::OUTPUT_CAP_BYTES`],
///   first and last halves kept, the cut stated.
/// - Result: a first line with the final address, the HTTP status and the content type, notes
///   in brackets, then the text (binary bodies are described, not shown). A status other than
///   2xx is a [`ToolError::Said`] carrying the same reply (and, for the person, the same
///   facts in words).
pub struct FetchUrl;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FetchUrlArgs {
    url: String,
}

/// The address, which must be `http` or `https` with a host.
fn checked_url(given: &str) -> Result<Url, ToolError> {
    let invalid = |detail: String| ToolError::InvalidArguments {
        tool: "fetch_url".to_owned(),
        detail,
    };
    let url = Url::parse(given.trim())
        .map_err(|e| invalid(format!("{given:?} is not a web address ({e}).")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(invalid(format!(
            "Only web addresses starting with http:// or https:// can be fetched, not {given:?}."
        )));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(invalid(format!("{given:?} has no host name.")));
    }
    Ok(url)
}

/// Where an address is, in words that fit "… (here)" and "which is here": in English for the
/// model, and (`place-*` of the catalogues) for the person in the language in force.
fn place(destination: Destination) -> &'static str {
    match destination {
        Destination::ThisComputer => "an address on this computer",
        Destination::LocalNetwork => "an address on your local network",
        Destination::Internet => "an address on the internet",
    }
}

/// [`place`] for the person.
fn place_for_person(destination: Destination) -> String {
    let key = match destination {
        Destination::ThisComputer => "place-this_computer",
        Destination::LocalNetwork => "place-local_network",
        Destination::Internet => "place-internet",
    };
    tr(key, &[])
}

/// The well-known addresses where a cloud server hands out its own settings and keys.
fn is_cloud_metadata(url: &Url) -> bool {
    match url.host() {
        Some(Host::Ipv4(ip)) => ip == Ipv4Addr::new(169, 254, 169, 254),
        Some(Host::Ipv6(ip)) => {
            ip == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254)
                || ip.to_ipv4_mapped() == Some(Ipv4Addr::new(169, 254, 169, 254))
        }
        Some(Host::Domain(name)) => name.trim_end_matches('.') == "metadata.google.internal",
        None => false,
    }
}

fn describe_url(url: &Url) -> CallDescription {
    let destination = destination(url);
    let mut effects = Vec::new();
    let page = [("url", Arg::from(url.to_string()))];
    let summary = match destination {
        Destination::ThisComputer => {
            effects.push(tr("card-fetch-this_computer-risk", &[]));
            tr("card-fetch-this_computer", &page)
        }
        Destination::LocalNetwork => {
            effects.push(tr("card-fetch-local_network-risk", &[]));
            if is_cloud_metadata(url) {
                effects.push(tr("card-fetch-cloud_metadata-risk", &[]));
            }
            tr("card-fetch-local_network", &page)
        }
        Destination::Internet => tr("card-fetch-internet", &page),
    };
    if !url.username().is_empty() || url.password().is_some() {
        effects.push(tr("card-fetch-credentials-risk", &[]));
    }
    effects.push(tr("card-fetch-redirects", &[]));
    CallDescription {
        change: None,
        detail: None,
        summary,
        risk: Risk::High,
        preview: None,
        fingerprint: None,
        effects,
    }
}

#[async_trait]
impl Tool for FetchUrl {
    fn name(&self) -> &'static str {
        "fetch_url"
    }
    fn description(&self) -> &'static str {
        "Read a web page or file from the internet (HTTP GET of an http:// or https:// \
         address) and get its text. At most 2 MB are downloaded, within 20 seconds; long text \
         shows its start and end. Redirects to a different site are not followed: the result \
         names the new address, to fetch again if needed. The user is asked first."
    }
    fn parameters_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": { "url": { "type": "string", "description": "The address, starting with http:// or https://" } },
            "required": ["url"],
            "additionalProperties": false
        })
    }
    fn read_only(&self) -> bool {
        // It only reads, but it reaches the network, and an address can carry data out.
        false
    }
    fn describe(&self, raw: &str, _ws: &Workspace) -> Result<CallDescription, ToolError> {
        let args: FetchUrlArgs = parse_args(self.name(), raw)?;
        Ok(describe_url(&checked_url(&args.url)?))
    }
    fn main_arguments(&self, raw: &str, _ws: &Workspace) -> Vec<MainArgument> {
        parse_args::<FetchUrlArgs>(self.name(), raw)
            .map(|a| {
                let text = checked_url(&a.url).map_or(a.url, |u| u.to_string());
                vec![MainArgument {
                    kind: ArgumentKind::Url,
                    text,
                    alias: None,
                    resolved: None,
                    contents: Contents::No,
                }]
            })
            .unwrap_or_default()
    }
    async fn execute(&self, raw: &str, _ws: &Workspace) -> Result<String, ToolError> {
        let args: FetchUrlArgs = parse_args(self.name(), raw)?;
        let url = checked_url(&args.url)?;
        fetch(&url, system_lookup).await
    }
}

/// Looks up a host name's addresses for a port: the system's resolver, or a test's.
type Lookup = fn(String, u16) -> BoxFuture<'static, std::io::Result<Vec<SocketAddr>>>;

fn system_lookup(host: String, port: u16) -> BoxFuture<'static, std::io::Result<Vec<SocketAddr>>> {
    Box::pin(async move {
        Ok(tokio::net::lookup_host((host.as_str(), port))
            .await?
            .collect())
    })
}

/// Whether every address a host name led to is where the card said `url` is.
fn check_resolved(url: &Url, addrs: &[SocketAddr]) -> Result<(), ToolError> {
    let host = url.host_str().unwrap_or_default();
    let shown = destination(url);
    if addrs.is_empty() {
        return Err(ToolError::said(
            format!("Could not fetch {url}: no address was found for {host}."),
            "tool_failed-fetch-no_address",
            &[("url", Arg::from(url.as_str())), ("host", Arg::from(host))],
        ));
    }
    match addrs
        .iter()
        .map(|a| (a.ip(), Destination::of_ip(a.ip())))
        .find(|(_, actual)| *actual != shown)
    {
        None => Ok(()),
        Some((ip, actual)) => {
            let mut direct = url.clone();
            let retry = match direct.set_ip_host(ip) {
                Ok(()) => format!(
                    " If that is meant, fetch_url must be called again with {direct}, so that \
                     the approval card says where it goes."
                ),
                Err(()) => String::new(),
            };
            Err(ToolError::said(
                format!(
                    "Refused: {url} was shown for approval as {}, but the name {host} leads to \
                     {ip}, {}. Ask First did not connect.{retry}",
                    place(shown),
                    place(actual)
                ),
                "tool_failed-fetch-leads_elsewhere",
                &[
                    ("url", Arg::from(url.as_str())),
                    ("host", Arg::from(host)),
                    ("ip", Arg::from(ip.to_string())),
                    ("shown", Arg::from(place_for_person(shown))),
                    ("actual", Arg::from(place_for_person(actual))),
                ],
            ))
        }
    }
}

/// Why a redirect from `from` to `to` was not followed.
fn not_followed(from: &Url, to: &Url) -> ToolError {
    if !matches!(to.scheme(), "http" | "https") {
        return ToolError::said(
            format!(
                "Not followed: {from} redirects to {to}, which is not a web address that can be \
                 fetched, so Ask First did not go there."
            ),
            "tool_failed-fetch-redirect_not_web",
            &[
                ("from", Arg::from(from.as_str())),
                ("to", Arg::from(to.as_str())),
            ],
        );
    }
    let downgrade = if from.scheme() == "https" && to.scheme() == "http" {
        " It would also leave the encrypted https connection for plain http."
    } else {
        ""
    };
    ToolError::said(
        format!(
            "Not followed: {from} redirects to {to} ({}), which is not the address that was \
             approved, so Ask First did not go there.{downgrade} To read it, fetch_url must be \
             called again with {to}; a new approval card will show it.",
            place(destination(to))
        ),
        if downgrade.is_empty() {
            "tool_failed-fetch-redirect_elsewhere"
        } else {
            "tool_failed-fetch-redirect_elsewhere_unencrypted"
        },
        &[
            ("from", Arg::from(from.as_str())),
            ("to", Arg::from(to.as_str())),
            ("place", Arg::from(place_for_person(destination(to)))),
        ],
    )
}

fn could_not_fetch(url: &Url, e: &reqwest::Error) -> ToolError {
    if e.is_timeout() {
        return no_answer(url);
    }
    let why = error_chain(e);
    ToolError::said(
        format!("Could not fetch {url}: {why}."),
        "tool_failed-fetch-failed",
        &[("url", Arg::from(url.as_str())), ("why", Arg::from(why))],
    )
}

/// `url` did not answer within [`FETCH_TIMEOUT_SECS`].
fn no_answer(url: &Url) -> ToolError {
    ToolError::said(
        format!("Could not fetch {url}: it did not answer within {FETCH_TIMEOUT_SECS} seconds."),
        "tool_failed-fetch-no_answer",
        &[
            ("url", Arg::from(url.as_str())),
            ("wait", Arg::from(fetch_wait())),
        ],
    )
}

async fn fetch(url: &Url, lookup: Lookup) -> Result<String, ToolError> {
    let deadline = Instant::now() + Duration::from_secs(FETCH_TIMEOUT_SECS);
    let left = || deadline.saturating_duration_since(Instant::now());
    let mut client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("AskFirst/", env!("CARGO_PKG_VERSION")));
    if destination(url) != Destination::Internet {
        // A proxy would reach its own computer or network, not the one the card names.
        client = client.no_proxy();
    }
    if let Some(Host::Domain(name)) = url.host() {
        let port = url.port_or_known_default().unwrap_or(80);
        let addrs = match tokio::time::timeout(left(), lookup(name.to_owned(), port)).await {
            Ok(Ok(addrs)) => addrs,
            Ok(Err(e)) => {
                return Err(ToolError::said(
                    format!(
                        "Could not fetch {url}: the address of {name} could not be found ({e})."
                    ),
                    "tool_failed-fetch-no_address",
                    &[("url", Arg::from(url.as_str())), ("host", Arg::from(name))],
                ))
            }
            Err(_) => return Err(no_answer(url)),
        };
        check_resolved(url, &addrs)?;
        // Redirects are never followed, so this one pin covers the whole call.
        client = client.resolve_to_addrs(name, &addrs);
    }
    let client = client.build().map_err(|e| {
        let why = error_chain(&e);
        ToolError::said(
            format!("Could not prepare the request: {why}"),
            "tool_failed-fetch-not_prepared",
            &[("url", Arg::from(url.as_str())), ("why", Arg::from(why))],
        )
    })?;

    let mut response = client
        .get(url.clone())
        .timeout(left())
        .send()
        .await
        .map_err(|e| could_not_fetch(url, &e))?;
    let status = response.status().as_u16();
    let next = response
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|location| url.join(location).ok());
    if let Some(next) = next.filter(|_| matches!(status, 301 | 302 | 303 | 307 | 308)) {
        return Err(not_followed(url, &next));
    }

    let status = response.status();
    let final_url = response.url().clone();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();

    let mut body = HeadTail::new(OUTPUT_CAP_BYTES);
    // What was not read, each as (for the model, for the person).
    let mut notes: Vec<(String, String)> = Vec::new();
    let mut read: usize = 0;
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                let room = FETCH_SIZE_CAP_BYTES - read;
                if chunk.len() > room {
                    body.push(&chunk[..room]);
                    let limit = FETCH_SIZE_CAP_BYTES / (1024 * 1024);
                    notes.push((
                        format!(
                            "Only the first {limit} MB were read; the rest was not downloaded."
                        ),
                        tr(
                            "tool_failed-fetch-note-size_cap",
                            &[("limit", Arg::from(limit))],
                        ),
                    ));
                    break;
                }
                read += chunk.len();
                body.push(&chunk);
            }
            Ok(None) => break,
            Err(e) => {
                notes.push(if e.is_timeout() {
                    (
                        format!(
                            "The download took longer than {FETCH_TIMEOUT_SECS} seconds; only \
                             what arrived by then is shown."
                        ),
                        tr(
                            "tool_failed-fetch-note-slow",
                            &[("wait", Arg::from(fetch_wait()))],
                        ),
                    )
                } else {
                    let why = error_chain(&e);
                    (
                        format!("The download broke off ({why}); only what arrived is shown."),
                        tr(
                            "tool_failed-fetch-note-broke_off",
                            &[("why", Arg::from(why))],
                        ),
                    )
                });
                break;
            }
        }
    }

    let kind = if content_type.is_empty() {
        String::new()
    } else {
        format!(", {content_type}")
    };
    let mut reply = format!("Fetched {final_url} (HTTP {status}{kind}).\n");
    for (note, _) in &notes {
        reply.push_str(&format!("[{note}]\n"));
    }
    let media = content_type.to_ascii_lowercase();
    let binary_type = [
        "image/",
        "audio/",
        "video/",
        "font/",
        "application/octet-stream",
    ]
    .iter()
    .any(|prefix| media.starts_with(prefix));
    let bytes = body.total();
    // What the answer holds, for the model and for the person (the text itself for both).
    let (held, held_for_person) = if bytes == 0 {
        (
            "The response has no text.".to_owned(),
            tr("tool_failed-fetch-no_text", &[]),
        )
    } else if binary_type || body.looks_binary() {
        (
            format!(
                "The response is binary content ({bytes} bytes read), not text, so it is not shown."
            ),
            tr("tool_failed-fetch-not_text", &[("bytes", Arg::from(bytes))]),
        )
    } else {
        let text = body.into_text();
        let sent = format!("{}\n{text}", tr("tool_failed-fetch-sent", &[]));
        (text, sent)
    };
    reply.push_str(&held);
    if status.is_success() {
        return Ok(reply);
    }
    // The person reads an error status, what was not read, and what the answer holds.
    let mut person = tr(
        "tool_failed-fetch-error_status",
        &[
            ("url", Arg::from(final_url.as_str())),
            ("status", Arg::from(status.as_u16().to_string())),
        ],
    );
    for (_, note) in &notes {
        person.push('\n');
        person.push_str(note);
    }
    person.push('\n');
    person.push_str(&held_for_person);
    Err(ToolError::Said {
        model: reply,
        person,
    })
}

/// [`FETCH_TIMEOUT_SECS`] in the person's language ("30 seconds").
fn fetch_wait() -> String {
    tr(
        "duration-seconds",
        &[("count", Arg::from(FETCH_TIMEOUT_SECS))],
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use pretty_assertions::assert_eq;
    use std::io::{Read, Write};

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    fn addrs(ips: &[&str]) -> Vec<SocketAddr> {
        ips.iter()
            .map(|ip| SocketAddr::new(ip.parse().unwrap(), 80))
            .collect()
    }

    #[test]
    fn a_name_must_lead_where_the_card_said() {
        let public = url("http://example.com/x");
        assert_eq!(check_resolved(&public, &addrs(&["93.184.216.34"])), Ok(()));
        // DNS rebinding: one of the answers is this computer.
        assert_eq!(
            check_resolved(&public, &addrs(&["93.184.216.34", "127.0.0.1"]))
                .map_err(|e| e.to_string()),
            Err(
                "Refused: http://example.com/x was shown for approval as an address on the \
                 internet, but the name example.com leads to 127.0.0.1, an address on this \
                 computer. Ask First did not connect. If that is meant, fetch_url must be \
                 called again with http://127.0.0.1/x, so that the approval card says where it \
                 goes."
                    .to_owned()
            )
        );
        // The person is told it in their language, with where the name leads.
        let said = crate::i18n::with_language(crate::i18n::Language::PtBr, || {
            check_resolved(&public, &addrs(&["127.0.0.1"]))
                .unwrap_err()
                .for_person()
        });
        assert!(
            said.contains("127.0.0.1") && said.contains("este computador"),
            "{said}"
        );
        for (name, ip) in [
            ("http://example.com/", "::ffff:127.0.0.1"),
            ("http://example.com/", "169.254.169.254"),
            ("http://example.com/", "fd00::1"),
            ("http://printer.local/", "127.0.0.1"),
            ("http://intranet/", "93.184.216.34"),
            ("http://localhost/", "192.168.1.2"),
        ] {
            assert!(
                check_resolved(&url(name), &addrs(&[ip])).is_err(),
                "{name} -> {ip}"
            );
        }
        assert_eq!(
            check_resolved(&url("http://localhost:1/"), &addrs(&["127.0.0.1", "::1"])),
            Ok(())
        );
        assert_eq!(
            check_resolved(&url("http://printer.local/"), &addrs(&["192.168.1.9"])),
            Ok(())
        );
        assert!(check_resolved(&public, &[]).is_err());
    }

    #[test]
    fn a_redirect_to_plain_http_says_it_leaves_the_encrypted_connection() {
        let from = url("https://example.com/a");
        assert_eq!(
            not_followed(&from, &url("http://example.com/b")).to_string(),
            "Not followed: https://example.com/a redirects to http://example.com/b (an \
                 address on the internet), which is not the address that was approved, so Ask \
                 First did not go there. It would also leave the encrypted https connection for \
                 plain http. To read it, fetch_url must be called again with \
                 http://example.com/b; a new approval card will show it."
                .to_owned()
        );
    }

    /// Answers one request on 127.0.0.1 with a short text; returns the port.
    fn serve_once() -> u16 {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            let mut request = Vec::new();
            let mut byte = [0_u8; 1];
            while !request.ends_with(b"\r\n\r\n") {
                match stream.read(&mut byte) {
                    Ok(1) => request.push(byte[0]),
                    _ => return,
                }
            }
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\
                  Connection: close\r\n\r\nhi\n",
            );
        });
        port
    }

    fn to_loopback(
        _host: String,
        port: u16,
    ) -> BoxFuture<'static, std::io::Result<Vec<SocketAddr>>> {
        Box::pin(async move { Ok(vec![SocketAddr::from(([127, 0, 0, 1], port))]) })
    }

    #[tokio::test]
    async fn a_public_name_that_leads_to_this_computer_is_refused_before_connecting() {
        let port = serve_once();
        let address = url(&format!("http://rebind.example:{port}/"));
        assert_eq!(destination(&address), Destination::Internet);
        let err = fetch(&address, to_loopback).await.unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "Refused: http://rebind.example:{port}/ was shown for approval as an address on \
                 the internet, but the name rebind.example leads to 127.0.0.1, an address on \
                 this computer. Ask First did not connect. If that is meant, fetch_url must be \
                 called again with http://127.0.0.1:{port}/, so that the approval card says \
                 where it goes."
            )
        );
    }

    #[tokio::test]
    async fn the_connection_goes_to_the_checked_address() {
        // `app.localhost` is on this computer on the card; the system resolver is never asked
        // (it may not know the name), the checked address is used.
        let port = serve_once();
        let address = url(&format!("http://app.localhost:{port}/"));
        assert_eq!(
            fetch(&address, to_loopback).await,
            Ok(format!(
                "Fetched http://app.localhost:{port}/ (HTTP 200 OK, text/plain).\nhi\n"
            ))
        );
    }
}
