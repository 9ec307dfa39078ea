//! Whether a tool call runs, asks first, or is refused.
//!
//! This is the minimal policy: read-only tools run without asking; every other tool asks. The
//! layers of DESIGN.md §4 (hard denials, session policy, user rules, grants) build on this.

use askfirst_protocol::Risk;

/// The policy's answer for one tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyDecision {
    /// Run without asking.
    Allow,
    /// Ask the user first; `reason` is shown on the card.
    Ask {
        /// Why the user is asked, in plain words.
        reason: String,
    },
    /// Refuse without asking; `reason` is told to the model.
    Deny {
        /// Why it is refused.
        reason: String,
    },
}

/// The policy in force for a run.
#[derive(Debug, Clone, Default)]
pub struct Policy;

impl Policy {
    /// Decides for a call to a tool that is read-only or not, with the call's risk.
    pub fn decide(&self, read_only: bool, risk: Risk) -> PolicyDecision {
        match (read_only, risk) {
            (true, Risk::Low) => PolicyDecision::Allow,
            (true, Risk::Medium | Risk::High) => PolicyDecision::Ask {
                reason: "This only reads, but it is marked risky, so it needs your OK.".into(),
            },
            (false, Risk::Low | Risk::Medium) => PolicyDecision::Ask {
                reason: "This changes files in your workspace folder, so it needs your OK.".into(),
            },
            (false, Risk::High) => PolicyDecision::Ask {
                reason: "This is a high-risk action, so it needs your OK.".into(),
            },
        }
    }
}
