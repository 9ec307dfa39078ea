//! Model providers that speak to a real LLM service over HTTP, streaming.
//!
//! - [`openai::OpenAiProvider`]: the OpenAI Chat Completions API (`POST {base}/chat/completions`
//!   with `stream: true`), which OpenAI, Ollama, LM Studio, llama.cpp's server, vLLM and
//!   OpenRouter all serve.
//! - [`anthropic::AnthropicProvider`]: the Anthropic Messages API (`POST {base}/v1/messages`
//!   with `stream: true`).
//!
//! Each keeps its wire format private; both share [`http`]: retries with backoff on 429, 5xx
//! and connection errors (honouring a capped `Retry-After`, [`retry_after`]), immediate,
//! plain-worded errors on 401, 403 and unknown models, a redacted API key, and one bounded
//! event stream ([`http::stream_events`], parsed by [`sse`] in linear time) with an idle
//! timeout. [`probe`] holds the tiny request of "Test the connection" and the model lists.
//! A new provider: a file here with its wire types, its `step` built on
//! [`http::stream_events`], and its errors from [`crate::provider::ProviderError`].

pub mod anthropic;
pub mod events;
pub mod http;
pub mod openai;
pub mod probe;
pub mod retry_after;
pub mod sse;

pub use http::{ApiKey, HttpSettings};
