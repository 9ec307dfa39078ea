//! The ids that travel between the core, the shell and the window: one newtype each.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use uuid::Uuid;

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
        pub struct $name(pub Uuid);

        impl $name {
            /// A fresh random (UUID v4) id.
            pub fn new() -> Self {
                Self(Uuid::new_v4())
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = uuid::Error;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Uuid::parse_str(s).map(Self)
            }
        }
    };
}

uuid_id!(
    /// Identifies one approval request. Made by the approvals registry (UUID v4), never derived
    /// from the provider's tool-call id, the run or the step: providers reuse ids.
    ApprovalId
);
uuid_id!(
    /// Identifies one run: one agent turn from a user message to the final answer.
    RunId
);
uuid_id!(
    /// Identifies one session (a conversation).
    SessionId
);

/// The provider's id for one tool call (`call_…`, `toolu_…`), exactly as the model sent it.
/// Unique within one model turn only: a provider may reuse it in a later turn or run, so it is
/// keyed together with the [`RunId`]. On the wire a plain string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ToolCallId(pub String);

impl ToolCallId {
    /// The id as the provider wrote it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for ToolCallId {
    fn from(id: &str) -> Self {
        Self(id.to_owned())
    }
}

impl From<String> for ToolCallId {
    fn from(id: String) -> Self {
        Self(id)
    }
}

impl std::fmt::Display for ToolCallId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
