//! Session grants (DESIGN.md §4, layer 4): "Allow for this session" on a card allows exactly
//! that tool with exactly those canonical arguments, in memory only, and only while its target
//! is in a state the grant covers.

use super::Policy;
use askfirst_protocol::Grant;

/// The states of a grant's target that the grant covers: the one its card showed, and the one
/// the granted action itself last left (a created file, now holding what was written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct GrantedStates {
    shown: Option<String>,
    left: Option<Option<String>>,
}

impl GrantedStates {
    /// Whether the target's state `now` is one the grant covers.
    pub(super) fn covers(&self, now: Option<&str>) -> bool {
        self.shown.as_deref() == now || self.left.as_ref().is_some_and(|l| l.as_deref() == now)
    }
}

impl Policy {
    /// Adds a grant for this exact tool and canonical arguments, and for its target as it was
    /// when the card showed it (`fingerprint`, from
    /// [`crate::tools::CallDescription::fingerprint`]): once the target changed (a folder
    /// holds more files, a file has other content) the same call asks again. Returns it.
    pub fn grant(
        &self,
        tool_name: &str,
        canonical_arguments: &str,
        fingerprint: Option<&str>,
        summary: &str,
    ) -> Grant {
        let grant = Grant {
            tool_name: tool_name.to_owned(),
            canonical_arguments: canonical_arguments.to_owned(),
            summary: summary.to_owned(),
            granted_at: crate::unix_millis_now(),
        };
        self.lock().grants.insert(
            (tool_name.to_owned(), canonical_arguments.to_owned()),
            (
                grant.clone(),
                GrantedStates {
                    shown: fingerprint.map(str::to_owned),
                    left: None,
                },
            ),
        );
        grant
    }

    /// After a call with this exact tool and canonical arguments ran: a grant for it (if there
    /// is one) now also covers the state the call left (`fingerprint`), besides the one its
    /// card showed, so repeating it runs without asking while anything else that changed its
    /// target asks.
    pub fn grant_state_now(
        &self,
        tool_name: &str,
        canonical_arguments: &str,
        fingerprint: Option<&str>,
    ) {
        if let Some((_, states)) = self
            .lock()
            .grants
            .get_mut(&(tool_name.to_owned(), canonical_arguments.to_owned()))
        {
            states.left = Some(fingerprint.map(str::to_owned));
        }
    }

    /// Removes a grant; returns whether there was one.
    pub fn revoke(&self, tool_name: &str, canonical_arguments: &str) -> bool {
        self.lock()
            .grants
            .remove(&(tool_name.to_owned(), canonical_arguments.to_owned()))
            .is_some()
    }

    /// Removes every grant (a new or reopened session starts without any).
    pub fn clear_grants(&self) {
        self.lock().grants.clear();
    }

    /// The grants in force.
    pub fn grants(&self) -> Vec<Grant> {
        self.lock()
            .grants
            .values()
            .map(|(grant, _)| grant.clone())
            .collect()
    }
}
