//! The Anthropic Messages API, streaming, with tools.
//!
//! Source: Anthropic API reference, "Messages" and "Streaming Messages": events
//! `message_start`, `content_block_start` (`text` or `tool_use` blocks), `content_block_delta`
//! (`text_delta`, `input_json_delta`), `content_block_stop`, `message_delta`, `message_stop`,
//! `ping` and `error`. Tool results go back as `tool_result` blocks in one user message.

use super::http::{self, excerpt, HttpSettings};
use crate::provider::{
    DeltaSink, Message, ModelTurn, Provider, ProviderError, ReplyLimit, ToolCall,
};
use crate::tools::ToolSpec;
use async_trait::async_trait;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The API version header sent with every request.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";
/// The most tokens one reply may use.
pub const MAX_TOKENS: u32 = 4096;

/// A model behind the Anthropic Messages API.
pub struct AnthropicProvider {
    settings: HttpSettings,
    client: reqwest::Client,
}

impl AnthropicProvider {
    /// A provider for `settings` (`base_url` without `/v1`, e.g. `https://api.anthropic.com`).
    pub fn new(settings: HttpSettings) -> Self {
        Self {
            settings,
            client: http::client(),
        }
    }
}

fn wire(messages: &[Message], tools: &[ToolSpec], model: &str) -> Value {
    let mut system = Vec::new();
    let mut out: Vec<Value> = Vec::new();
    for m in messages {
        match m {
            Message::System { text } => system.push(text.clone()),
            Message::User { text } => out.push(json!({"role": "user", "content": text})),
            Message::Assistant { turn } => {
                let mut blocks = Vec::new();
                if let Some(text) = turn.text.as_deref().filter(|t| !t.is_empty()) {
                    blocks.push(json!({"type": "text", "text": text}));
                }
                for call in &turn.tool_calls {
                    // `input` must be an object; a call whose arguments were not valid JSON
                    // was answered with an error, and is sent back with an empty input.
                    let input = serde_json::from_str::<Value>(&call.arguments_json)
                        .ok()
                        .filter(Value::is_object)
                        .unwrap_or_else(|| json!({}));
                    blocks.push(json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input}));
                }
                if blocks.is_empty() {
                    blocks.push(json!({"type": "text", "text": "(no reply)"}));
                }
                out.push(json!({"role": "assistant", "content": blocks}));
            }
            Message::ToolResult {
                tool_call_id,
                content,
                is_error,
            } => {
                let block = json!({"type": "tool_result", "tool_use_id": tool_call_id,
                                   "content": content, "is_error": is_error});
                // Consecutive results share one user message.
                match out.last_mut() {
                    Some(last)
                        if last["role"] == "user"
                            && last["content"].as_array().is_some_and(|blocks| {
                                blocks.iter().all(|b| b["type"] == "tool_result")
                            }) =>
                    {
                        if let Some(blocks) = last["content"].as_array_mut() {
                            blocks.push(block);
                        }
                    }
                    _ => out.push(json!({"role": "user", "content": [block]})),
                }
            }
        }
    }
    let mut body =
        json!({"model": model, "max_tokens": MAX_TOKENS, "messages": out, "stream": true});
    if !system.is_empty() {
        body["system"] = Value::String(system.join("\n\n"));
    }
    if !tools.is_empty() {
        body["tools"] = tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
            .collect();
    }
    body
}

enum Block {
    Text(String),
    ToolUse {
        id: String,
        name: String,
        json: String,
        start_input: Option<Value>,
    },
}

#[async_trait]
impl Provider for AnthropicProvider {
    fn display_name(&self) -> String {
        crate::i18n::tr(
            "provider-name-model_at_host",
            &[
                ("model", crate::i18n::Arg::from(&self.settings.model)),
                ("host", crate::i18n::Arg::from(self.settings.host())),
            ],
        )
    }

    async fn step(
        &self,
        messages: &[Message],
        tools: &[ToolSpec],
        deltas: &DeltaSink<'_>,
    ) -> Result<ModelTurn, ProviderError> {
        let url = format!("{}/v1/messages", self.settings.base_url);
        let body = wire(messages, tools, &self.settings.model);
        let mut events = http::stream_events(&self.settings, || {
            let request = self
                .client
                .post(&url)
                .header("anthropic-version", ANTHROPIC_VERSION)
                .json(&body);
            match &self.settings.api_key {
                Some(key) => request.header("x-api-key", key.expose()),
                None => request,
            }
        })
        .await?;
        let host = events.host().to_owned();
        let mut calls = 0usize;
        let mut blocks: BTreeMap<u64, Block> = BTreeMap::new();
        let mut stopped = false;
        while let Some(event) = events.next().await? {
            if event.data.trim().is_empty() {
                continue;
            }
            let data: Value =
                serde_json::from_str(&event.data).map_err(|e| ProviderError::Malformed {
                    host: host.clone(),
                    detail: format!("an event is not JSON ({e}): {}", excerpt(&event.data)),
                })?;
            let kind = data["type"].as_str().unwrap_or(event.event.as_str());
            let index = data["index"].as_u64().unwrap_or(0);
            match kind {
                "content_block_start" => {
                    let block = &data["content_block"];
                    let is_call = block["type"].as_str() == Some("tool_use");
                    if is_call && !blocks.contains_key(&index) {
                        calls += 1;
                        if calls > crate::provider::MAX_STREAMED_TOOL_CALLS {
                            return Err(ProviderError::TooLarge {
                                host,
                                limit: ReplyLimit::ToolCalls {
                                    count: crate::provider::MAX_STREAMED_TOOL_CALLS,
                                },
                            });
                        }
                    }
                    let new = match block["type"].as_str() {
                        Some("tool_use") => Block::ToolUse {
                            id: block["id"].as_str().unwrap_or_default().to_owned(),
                            name: block["name"].as_str().unwrap_or_default().to_owned(),
                            json: String::new(),
                            start_input: block.get("input").cloned(),
                        },
                        _ => {
                            let text = block["text"].as_str().unwrap_or_default().to_owned();
                            if !text.is_empty() {
                                deltas(&text);
                            }
                            Block::Text(text)
                        }
                    };
                    blocks.insert(index, new);
                }
                "content_block_delta" => {
                    let delta = &data["delta"];
                    match (blocks.get_mut(&index), delta["type"].as_str()) {
                        (Some(Block::Text(text)), Some("text_delta")) => {
                            let piece = delta["text"].as_str().unwrap_or_default();
                            text.push_str(piece);
                            deltas(piece);
                        }
                        (Some(Block::ToolUse { json, .. }), Some("input_json_delta")) => {
                            json.push_str(delta["partial_json"].as_str().unwrap_or_default());
                        }
                        _ => {} // thinking and other deltas are not shown
                    }
                }
                "message_stop" => {
                    stopped = true;
                    break;
                }
                "error" => {
                    return Err(ProviderError::in_reply(
                        host,
                        http::error_message(&data.to_string()),
                    ))
                }
                _ => {} // message_start, content_block_stop, message_delta, ping
            }
        }
        if !stopped {
            return Err(ProviderError::EndedEarly {
                host,
                detail: "the stream ended without message_stop".to_owned(),
            });
        }
        let mut text = String::new();
        let mut tool_calls = Vec::new();
        for block in blocks.into_values() {
            match block {
                Block::Text(t) => text.push_str(&t),
                Block::ToolUse {
                    id,
                    name,
                    json,
                    start_input,
                } => {
                    let arguments_json = if !json.trim().is_empty() {
                        json
                    } else {
                        start_input
                            .filter(|v| v.as_object().is_some_and(|o| !o.is_empty()))
                            .map(|v| v.to_string())
                            .unwrap_or_else(|| "{}".to_owned())
                    };
                    tool_calls.push(ToolCall {
                        id,
                        name,
                        arguments_json,
                    });
                }
            }
        }
        Ok(ModelTurn {
            text: (!text.is_empty()).then_some(text),
            tool_calls,
        })
    }
}
