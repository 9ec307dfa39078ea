//! The OpenAI Chat Completions API, streaming (`stream: true`), with tools.
//!
//! Source: OpenAI API reference, "Create chat completion" and "The chat completion chunk
//! object". The same wire format is served by Ollama (`http://127.0.0.1:11434/v1`), LM Studio,
//! llama.cpp's server, vLLM and OpenRouter, with known differences this parser tolerates:
//! tool-call ids missing or reused, arguments in one chunk or many (or as an object), the
//! name repeated in later chunks, `finish_reason` of `stop`, `tool_calls`, `length` or
//! `function_call`, usage only in the last chunk or never, and a stream that ends without
//! `[DONE]` after a `finish_reason`.

use super::http::{self, excerpt, HttpSettings};
use crate::provider::{
    DeltaSink, Message, ModelTurn, Provider, ProviderError, ReplyLimit, ToolCall,
};
use crate::tools::ToolSpec;
use async_trait::async_trait;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};

/// A model behind an OpenAI-compatible Chat Completions endpoint.
pub struct OpenAiProvider {
    settings: HttpSettings,
    client: reqwest::Client,
}

impl OpenAiProvider {
    /// A provider for `settings`.
    pub fn new(settings: HttpSettings) -> Self {
        Self {
            settings,
            client: http::client(),
        }
    }

    fn body(&self, messages: &[Message], tools: &[ToolSpec]) -> Value {
        let mut body = json!({
            "model": self.settings.model,
            "messages": wire_messages(messages),
            "stream": true,
        });
        if !tools.is_empty() {
            body["tools"] = tools
                .iter()
                .map(|t| {
                    json!({"type": "function", "function": {
                        "name": t.name, "description": t.description, "parameters": t.parameters
                    }})
                })
                .collect();
        }
        body
    }
}

fn wire_messages(messages: &[Message]) -> Vec<Value> {
    messages
        .iter()
        .map(|m| match m {
            Message::System { text } => json!({"role": "system", "content": text}),
            Message::User { text } => json!({"role": "user", "content": text}),
            Message::Assistant { turn } => {
                let mut msg = json!({"role": "assistant", "content": turn.text});
                if !turn.tool_calls.is_empty() {
                    msg["tool_calls"] = turn
                        .tool_calls
                        .iter()
                        .map(|c| {
                            json!({"id": c.id, "type": "function",
                                   "function": {"name": c.name, "arguments": c.arguments_json}})
                        })
                        .collect();
                }
                msg
            }
            Message::ToolResult {
                tool_call_id,
                content,
                ..
            } => {
                json!({"role": "tool", "tool_call_id": tool_call_id, "content": content})
            }
        })
        .collect()
}

#[derive(Default)]
struct PartialCall {
    id: Option<String>,
    name: String,
    arguments: String,
}

/// Assembles one streamed reply from its chunks.
#[derive(Default)]
pub(crate) struct Assembler {
    text: String,
    calls: BTreeMap<u64, PartialCall>,
    finished: bool,
    /// Set when the reply asked for more than [`crate::provider::MAX_STREAMED_TOOL_CALLS`].
    too_many_calls: bool,
}

impl Assembler {
    /// Takes one chunk (the JSON of one `data:` line); returns new text for the person.
    pub(crate) fn chunk(&mut self, chunk: &Value) -> Result<String, String> {
        if let Some(error) = chunk.get("error") {
            return Err(http::error_message(&json!({ "error": error }).to_string()));
        }
        let mut new_text = String::new();
        let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else {
            return Ok(new_text); // e.g. a usage-only last chunk
        };
        let delta = choice
            .get("delta")
            .or_else(|| choice.get("message"))
            .unwrap_or(&Value::Null);
        if let Some(text) = delta.get("content").and_then(Value::as_str) {
            self.text.push_str(text);
            new_text.push_str(text);
        }
        if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
            for (position, call) in calls.iter().enumerate() {
                let index = call
                    .get("index")
                    .and_then(Value::as_u64)
                    .unwrap_or(position as u64);
                if !self.calls.contains_key(&index)
                    && self.calls.len() >= crate::provider::MAX_STREAMED_TOOL_CALLS
                {
                    self.too_many_calls = true;
                    return Ok(new_text);
                }
                let entry = self.calls.entry(index).or_default();
                if let Some(id) = call
                    .get("id")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                {
                    entry.id.get_or_insert_with(|| id.to_owned());
                }
                let function = call.get("function").unwrap_or(&Value::Null);
                if let Some(name) = function.get("name").and_then(Value::as_str) {
                    // Some servers repeat the whole name in every chunk; others stream it.
                    if entry.name != name {
                        entry.name.push_str(name);
                    }
                }
                match function.get("arguments") {
                    Some(Value::String(piece)) => entry.arguments.push_str(piece),
                    Some(Value::Null) | None => {}
                    Some(other) => entry.arguments.push_str(&other.to_string()),
                }
            }
        }
        if choice.get("finish_reason").is_some_and(|r| !r.is_null()) {
            self.finished = true;
        }
        Ok(new_text)
    }

    /// The whole turn. Tool calls keep the model's order; a missing id is made up
    /// (`call_<n>`) and an id used twice in the turn is made unique, so every call can be
    /// answered on its own.
    pub(crate) fn finish(self) -> ModelTurn {
        let mut seen = HashSet::new();
        let tool_calls = self
            .calls
            .into_iter()
            .enumerate()
            .map(|(n, (_, call))| {
                let mut id = call.id.unwrap_or_else(|| format!("call_{}", n + 1));
                if !seen.insert(id.clone()) {
                    id = format!("{id}_{}", n + 1);
                    seen.insert(id.clone());
                }
                let arguments_json = if call.arguments.trim().is_empty() {
                    "{}".to_owned()
                } else {
                    call.arguments
                };
                ToolCall {
                    id,
                    name: call.name,
                    arguments_json,
                }
            })
            .collect();
        ModelTurn {
            text: (!self.text.is_empty()).then_some(self.text),
            tool_calls,
        }
    }
}

#[async_trait]
impl Provider for OpenAiProvider {
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
        let url = format!("{}/chat/completions", self.settings.base_url);
        let body = self.body(messages, tools);
        let mut events = http::stream_events(&self.settings, || {
            let request = self.client.post(&url).json(&body);
            match &self.settings.api_key {
                Some(key) => request.bearer_auth(key.expose()),
                None => request,
            }
        })
        .await?;
        let host = events.host().to_owned();
        let mut assembler = Assembler::default();
        let mut done = false;
        loop {
            let event = match events.next().await {
                Ok(Some(event)) => event,
                Ok(None) => break,
                // A server that sent its finish_reason and then neither [DONE] nor the end of
                // the reply has said all it will say.
                Err(ProviderError::IdleTimeout { .. }) if assembler.finished => break,
                Err(error) => return Err(error),
            };
            let data = event.data.trim();
            if data == "[DONE]" {
                done = true;
                break;
            }
            if data.is_empty() {
                continue;
            }
            let chunk: Value =
                serde_json::from_str(data).map_err(|e| ProviderError::Malformed {
                    host: host.clone(),
                    detail: format!("a chunk is not JSON ({e}): {}", excerpt(data)),
                })?;
            let text = assembler
                .chunk(&chunk)
                .map_err(|detail| ProviderError::in_reply(host.clone(), detail))?;
            if !text.is_empty() {
                deltas(&text);
            }
            if assembler.too_many_calls {
                return Err(ProviderError::TooLarge {
                    host,
                    limit: ReplyLimit::ToolCalls {
                        count: crate::provider::MAX_STREAMED_TOOL_CALLS,
                    },
                });
            }
        }
        if !done && !assembler.finished {
            return Err(ProviderError::EndedEarly {
                host,
                detail: "the stream ended without [DONE] or a finish_reason".to_owned(),
            });
        }
        Ok(assembler.finish())
    }
}
