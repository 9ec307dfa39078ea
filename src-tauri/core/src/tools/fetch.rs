//! `fetch_url` (asks first): reads one web address (HTTP GET) and returns its text, with caps
//! on size and time, and a note when redirects led to a different site.

use super::OUTPUT_CAP_BYTES;
use super::{error_chain, parse_args, CallDescription, HeadTail, Tool, ToolError, Workspace};
use crate::policy::{ArgumentKind, MainArgument};
use askfirst_protocol::Risk;
use async_trait::async_trait;
use reqwest::Url;
use serde::Deserialize;
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The most bytes of a response body that are read; the rest is not downloaded.
pub const FETCH_SIZE_CAP_BYTES: usize = 2 * 1024 * 1024;

/// The most seconds one fetch may take, from connecting to the last byte of the body.
pub const FETCH_TIMEOUT_SECS: u64 = 20;

/// The most redirects followed.
const MAX_REDIRECTS: usize = 10;

/// `fetch_url {url}`: an HTTP GET of an `http://` or `https://` address (TLS by rustls with
/// the webpki roots, proxies from the environment).
///
/// - Caps: the body is read up to [`FETCH_SIZE_CAP_BYTES`] within [`FETCH_TIMEOUT_SECS`]
///   (what arrived is kept, and the reply says it was cut); the text handed to the model is
///   capped at [`super::OUTPUT_CAP_BYTES`], first and last halves kept, the cut stated.
/// - Redirects: up to 10 are followed; when any leads to a different host than the one asked
///   for, the reply says so and names where the text came from.
/// - Result: a first line with the final address, the HTTP status and the content type, notes
///   in brackets, then the text (binary bodies are described, not shown). A status other than
///   2xx is a [`ToolError::Failed`] carrying the same reply.
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

fn host_of(url: &Url) -> String {
    url.host_str().unwrap_or_default().to_owned()
}

#[async_trait]
impl Tool for FetchUrl {
    fn name(&self) -> &'static str {
        "fetch_url"
    }
    fn description(&self) -> &'static str {
        "Read a web page or file from the internet (HTTP GET of an http:// or https:// \
         address) and get its text. At most 2 MB are downloaded, within 20 seconds; long text \
         shows its start and end. The user is asked first."
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
        let url = checked_url(&args.url)?;
        Ok(CallDescription {
            summary: format!("Read the web page at {url} (this goes on the internet)"),
            risk: Risk::High,
            preview: None,
            fingerprint: None,
            effects: Vec::new(),
        })
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
                }]
            })
            .unwrap_or_default()
    }
    async fn execute(&self, raw: &str, _ws: &Workspace) -> Result<String, ToolError> {
        let args: FetchUrlArgs = parse_args(self.name(), raw)?;
        let url = checked_url(&args.url)?;
        fetch(&url).await
    }
}

async fn fetch(url: &Url) -> Result<String, ToolError> {
    let limit = Duration::from_secs(FETCH_TIMEOUT_SECS);
    // Every address a redirect led to, to report the ones on other hosts.
    let hops: Arc<Mutex<Vec<Url>>> = Arc::default();
    let policy = {
        let hops = Arc::clone(&hops);
        reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() > MAX_REDIRECTS {
                return attempt.error(format!("more than {MAX_REDIRECTS} redirects"));
            }
            hops.lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(attempt.url().clone());
            attempt.follow()
        })
    };
    let client = reqwest::Client::builder()
        .timeout(limit)
        .redirect(policy)
        .user_agent(concat!("AskFirst/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| ToolError::Failed(format!("Could not prepare the request: {e}")))?;
    let mut response = client.get(url.clone()).send().await.map_err(|e| {
        let why = if e.is_timeout() {
            format!("it did not answer within {FETCH_TIMEOUT_SECS} seconds")
        } else {
            error_chain(&e)
        };
        ToolError::Failed(format!("Could not fetch {url}: {why}."))
    })?;

    let status = response.status();
    let final_url = response.url().clone();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();

    let mut body = HeadTail::new(OUTPUT_CAP_BYTES);
    let mut notes = Vec::new();
    let mut read: usize = 0;
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                let room = FETCH_SIZE_CAP_BYTES - read;
                if chunk.len() > room {
                    body.push(&chunk[..room]);
                    notes.push(format!(
                        "Only the first {} MB were read; the rest was not downloaded.",
                        FETCH_SIZE_CAP_BYTES / (1024 * 1024)
                    ));
                    break;
                }
                read += chunk.len();
                body.push(&chunk);
            }
            Ok(None) => break,
            Err(e) => {
                notes.push(if e.is_timeout() {
                    format!(
                        "The download took longer than {FETCH_TIMEOUT_SECS} seconds; only what \
                         arrived by then is shown."
                    )
                } else {
                    format!(
                        "The download broke off ({}); only what arrived is shown.",
                        error_chain(&e)
                    )
                });
                break;
            }
        }
    }

    let asked_host = host_of(url);
    let mut other_hosts: Vec<String> = Vec::new();
    for hop in hops
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .iter()
    {
        let host = host_of(hop);
        if host != asked_host && !other_hosts.contains(&host) {
            other_hosts.push(host);
        }
    }
    if !other_hosts.is_empty() {
        notes.insert(
            0,
            format!(
                "Redirected: {asked_host} sent the request on to a different site ({}); the text \
                 below comes from {final_url}.",
                other_hosts.join(", ")
            ),
        );
    }

    let kind = if content_type.is_empty() {
        String::new()
    } else {
        format!(", {content_type}")
    };
    let mut reply = format!("Fetched {final_url} (HTTP {status}{kind}).\n");
    for note in &notes {
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
    if body.total() == 0 {
        reply.push_str("The response has no text.");
    } else if binary_type || body.looks_binary() {
        reply.push_str(&format!(
            "The response is binary content ({} bytes read), not text, so it is not shown.",
            body.total()
        ));
    } else {
        reply.push_str(&body.into_text());
    }
    if status.is_success() {
        Ok(reply)
    } else {
        Err(ToolError::Failed(reply))
    }
}
