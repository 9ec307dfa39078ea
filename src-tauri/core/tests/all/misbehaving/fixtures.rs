//! What the misbehaving-server tests share: the two wire formats as fake replies, quick
//! settings, and the check that an error reads as plain words.

use super::server::Server;
use askfirst_core::provider::{ModelTurn, Provider, ProviderError};
use askfirst_core::providers::anthropic::AnthropicProvider;
use askfirst_core::providers::openai::OpenAiProvider;
use askfirst_core::providers::HttpSettings;
use serde_json::json;
use std::time::Duration;

/// The two wire formats.
#[derive(Debug, Clone, Copy)]
pub enum Api {
    OpenAi,
    Anthropic,
}

pub const APIS: [Api; 2] = [Api::OpenAi, Api::Anthropic];

impl Api {
    pub fn provider(self, settings: HttpSettings) -> Box<dyn Provider> {
        match self {
            Api::OpenAi => Box::new(OpenAiProvider::new(settings)),
            Api::Anthropic => Box::new(AnthropicProvider::new(settings)),
        }
    }

    /// The events before any text: nothing for OpenAI, a message and a text block for
    /// Anthropic.
    pub fn start(self) -> String {
        match self {
            Api::OpenAi => String::new(),
            Api::Anthropic => [
                json!({"type": "message_start", "message": {"id": "m", "role": "assistant", "content": []}}),
                json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            ]
            .iter()
            .map(event)
            .collect(),
        }
    }

    /// One event with a piece of text.
    pub fn text(self, text: &str) -> String {
        event(&match self {
            Api::OpenAi => json!({"choices": [{"index": 0, "delta": {"content": text}}]}),
            Api::Anthropic => json!({"type": "content_block_delta", "index": 0,
                                     "delta": {"type": "text_delta", "text": text}}),
        })
    }

    /// The events of one whole tool call.
    pub fn tool_call(self) -> String {
        let events = match self {
            Api::OpenAi => vec![
                json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c1",
                    "function": {"name": "list_directory", "arguments": "{\"path\": \".\"}"}}]}}]}),
            ],
            Api::Anthropic => vec![
                json!({"type": "content_block_stop", "index": 0}),
                json!({"type": "content_block_start", "index": 1, "content_block":
                    {"type": "tool_use", "id": "c1", "name": "list_directory", "input": {}}}),
                json!({"type": "content_block_delta", "index": 1, "delta":
                    {"type": "input_json_delta", "partial_json": "{\"path\": \".\"}"}}),
                json!({"type": "content_block_stop", "index": 1}),
            ],
        };
        events.iter().map(event).collect()
    }

    /// The events that end a reply.
    pub fn end(self) -> String {
        match self {
            Api::OpenAi => format!(
                "{}data: [DONE]\n\n",
                event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
            ),
            Api::Anthropic => [
                json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}}),
                json!({"type": "message_stop"}),
            ]
            .iter()
            .map(event)
            .collect(),
        }
    }

    /// A whole good reply saying `text`.
    pub fn good(self, text: &str) -> String {
        format!("{}{}{}", self.start(), self.text(text), self.end())
    }
}

fn event(value: &serde_json::Value) -> String {
    match value["type"].as_str() {
        Some(kind) => format!("event: {kind}\ndata: {value}\n\n"),
        None => format!("data: {value}\n\n"),
    }
}

/// Settings for a test: quick retries (5 ms doubling, at most 50 ms) and a 2 s idle timeout.
pub fn settings(base: &str) -> HttpSettings {
    let mut s = HttpSettings::new(base, None, "test-model");
    s.retry_base = Duration::from_millis(5);
    s.max_retry_wait = Duration::from_millis(50);
    s.idle_timeout = Duration::from_secs(2);
    s
}

pub async fn step_with(api: Api, settings: HttpSettings) -> Result<ModelTurn, ProviderError> {
    let conversation = vec![askfirst_core::provider::Message::User { text: "hi".into() }];
    api.provider(settings)
        .step(&conversation, &[], &|_: &str| {})
        .await
}

pub async fn step(api: Api, server: &Server) -> Result<ModelTurn, ProviderError> {
    step_with(api, settings(&server.base)).await
}

/// The error of a step that must fail, checked to read as plain words: the sentence names no
/// protocol, status or library, ends with a full stop, and leaves the technical part to
/// `detail()`.
pub fn failed(api: Api, result: Result<ModelTurn, ProviderError>) -> ProviderError {
    let error = result.expect_err(&format!("{api:?}: the step should fail"));
    let sentence = error.to_string();
    for technical in [
        "HTTP ",
        "JSON",
        "SSE",
        "{",
        "reqwest",
        "hyper",
        "error sending",
        "Content-Type",
        "text/",
        "[DONE]",
        "message_stop",
        "dns",
        "tls",
        "rustls",
        "Os {",
        "os error",
        "bytes",
    ] {
        assert!(
            !sentence.contains(technical),
            "{api:?}: {sentence:?} says {technical:?}"
        );
    }
    assert!(sentence.ends_with('.'), "{sentence:?}");
    assert!(sentence.starts_with(char::is_uppercase), "{sentence:?}");
    assert!(
        sentence.len() < 260,
        "{sentence:?} is too long to read at a glance"
    );
    if let Some(detail) = error.detail() {
        assert!(
            !detail.is_empty() && !sentence.contains(&detail),
            "{error:?}"
        );
    }
    error
}
