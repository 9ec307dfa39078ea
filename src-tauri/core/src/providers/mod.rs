//! Model providers that speak to a real LLM service over HTTP, streaming.
//!
//! - [`openai::OpenAiProvider`]: the OpenAI Chat Completions API (`POST {base}/chat/completions`
//!   with `stream: true`), which OpenAI, Ollama, LM Studio, llama.cpp's server, vLLM and
//!   OpenRouter all serve.
//! - [`anthropic::AnthropicProvider`]: the Anthropic Messages API (`POST {base}/v1/messages`
//!   with `stream: true`).
//!
//! Each keeps its wire format private; both share [`http`]: retries with backoff on 429, 5xx
//! and connection errors (honouring `Retry-After`), immediate, plain-worded errors on 401, 403
//! and unknown models, and a redacted API key.

pub mod anthropic;
pub mod http;
pub mod openai;

pub use http::{ApiKey, HttpSettings};
