//! The model behind one trait. A [`Provider`] takes the conversation so far and the tools on
//! offer and returns the model's next turn: some text and any tool calls. Each provider keeps
//! its wire types private.

mod error;
mod wording;

pub use error::{ConnectFailure, ProviderError, ProviderErrorCode, ReplyLimit};

use crate::tools::ToolSpec;
use async_trait::async_trait;

/// The most tool calls a provider assembles from one streamed reply; a reply with more fails
/// the step ([`ProviderError::TooLarge`]) before the agent sees any of them, so memory stays
/// bounded. Eight times [`crate::agent::MAX_TOOL_CALLS_PER_TURN`]: a turn a little over the
/// agent's cap still reaches it and is answered in order (the calls past the cap are told to
/// ask for fewer); one of hundreds of calls is no model's honest work.
pub const MAX_STREAMED_TOOL_CALLS: usize = 512;

/// The most bytes of one streamed reply as received (its text and every call's arguments,
/// with the wire format around them); past it the reply is dropped and the step fails. This
/// also bounds one call's arguments. 16 MiB is some hundred times the longest reply a model
/// writes (output limits are tens of thousands of tokens), and a `write_file` of a few
/// megabytes still fits.
pub const MAX_REPLY_BYTES: usize = 16 * 1024 * 1024;

/// One tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ToolCall {
    /// The provider's id for the call (may be reused by some providers; never used as a key on
    /// its own).
    pub id: String,
    /// The tool's name as the model wrote it (may name no tool).
    pub name: String,
    /// The arguments as raw JSON text, exactly as the model sent them (may be invalid JSON).
    pub arguments_json: String,
}

/// One model turn: optional text, then zero or more tool calls. No tool calls ends the run.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ModelTurn {
    /// What the model says to the user, plain text.
    pub text: Option<String>,
    /// The tool calls, in the model's order.
    pub tool_calls: Vec<ToolCall>,
}

/// One entry of the conversation sent to the model.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// Instructions for the model from the app.
    System {
        /// The text.
        text: String,
    },
    /// What the user said.
    User {
        /// The text.
        text: String,
    },
    /// What the model said and asked for.
    Assistant {
        /// The model's turn.
        turn: ModelTurn,
    },
    /// The answer to one tool call.
    ToolResult {
        /// The call it answers.
        tool_call_id: String,
        /// What the model is told.
        content: String,
        /// Whether the call failed or did not run.
        is_error: bool,
    },
}

/// Receives the model's text as it streams in, piece by piece.
pub type DeltaSink<'a> = dyn Fn(&str) + Send + Sync + 'a;

/// A model that can be asked for its next turn.
#[async_trait]
pub trait Provider: Send + Sync {
    /// A plain name for the person, e.g. "Demo agent (offline, scripted)".
    fn display_name(&self) -> String;

    /// Asks the model for its next turn given the whole conversation and the tools on offer.
    /// Text is passed to `deltas` as it arrives (if the provider streams); the returned turn
    /// holds the whole text. Dropping the future stops the request.
    ///
    /// # Errors
    /// A [`ProviderError`] the run reports as failed.
    async fn step(
        &self,
        messages: &[Message],
        tools: &[ToolSpec],
        deltas: &DeltaSink<'_>,
    ) -> Result<ModelTurn, ProviderError>;
}
