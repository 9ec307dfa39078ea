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
    /// For a command tried on a copy first: the changes its card showed.
    changes: Option<ChangeShape>,
}

/// What a command's changes were like when "Allow in this conversation" was given on their
/// card: which paths changed in which way, and what the files its words name held (a script
/// it runs). The same command later runs without a card only when its changes are among
/// these and those files are unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChangeShape {
    /// Each change as (kind, path relative to the folder), e.g. `("deleted", "a.tmp")`.
    pub changes: std::collections::BTreeSet<(String, String)>,
    /// A fingerprint of the files the command's words name (empty when none exists).
    pub inputs: String,
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
                    changes: None,
                },
            ),
        );
        grant
    }

    /// Adds a grant for a command tried on a copy first (tool `run_command`, these canonical
    /// arguments) that covers changes among `shape` ([`Self::command_changes_granted`]); it is
    /// listed, revoked and cleared with the other grants. Returns it.
    pub fn grant_command_changes(
        &self,
        canonical_arguments: &str,
        shape: ChangeShape,
        summary: &str,
    ) -> Grant {
        let grant = Grant {
            tool_name: "run_command".to_owned(),
            canonical_arguments: canonical_arguments.to_owned(),
            summary: summary.to_owned(),
            granted_at: crate::unix_millis_now(),
        };
        self.lock().grants.insert(
            ("run_command".to_owned(), canonical_arguments.to_owned()),
            (
                grant.clone(),
                GrantedStates {
                    // Never the state of a description: the command still runs on the copy
                    // first, and its changes decide.
                    shown: Some(String::from("\u{0}changes")),
                    left: None,
                    changes: Some(shape),
                },
            ),
        );
        grant
    }

    /// Whether a grant covers the changes `shape` of the command with these canonical
    /// arguments: every change is one the granted card showed (same path, same kind), and the
    /// files its words name are as they were.
    pub fn command_changes_granted(&self, canonical_arguments: &str, shape: &ChangeShape) -> bool {
        self.lock()
            .grants
            .get(&("run_command".to_owned(), canonical_arguments.to_owned()))
            .and_then(|(_, states)| states.changes.as_ref())
            .is_some_and(|granted| {
                granted.inputs == shape.inputs && shape.changes.is_subset(&granted.changes)
            })
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
