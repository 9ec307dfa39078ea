//! What a desktop notification may answer. A notification tells one waiting request (or a
//! burst of them, which it never answers); its Deny denies exactly that request, and its
//! Approve is offered only for the kinds the person opted into in Settings
//! ([`NotificationApprovals`]), decided from the request's typed facts
//! ([`ApprovalRequest::change`], the tool, the policy layer, the detail), never from its words.
//! When in doubt, no Approve.

use crate::approvals::{ApprovalError, ApprovalRegistry};
use crate::audit::AnsweredOn;
use askfirst_protocol::{
    ApprovalId, ApprovalRequest, CallChange, Decision, NotificationApprovals, Outcome, PolicyLayer,
};

/// A button of a request's notification that answers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotificationAnswer {
    /// "Deny": the request is denied as by Deny on its card.
    Deny,
    /// "Approve": offered only where [`may_approve`] says so, and checked again at the click.
    Approve,
}

/// Whether the notification of `request` may offer Approve, with the kinds the person allowed
/// (`allowed`): creating one new file inside the folder ([`CallChange::NewFile`], made only by
/// Ask First's own `write_file`), asked only because the tool asks by default (no rule asked
/// about it), with nothing more on its card to read (no typed detail, no further effects).
/// Deleting, commands, another agent's requests, anything outside the folder and what a rule
/// asks about have no [`CallChange`] or fail these checks, so never.
pub fn may_approve(request: &ApprovalRequest, allowed: NotificationApprovals) -> bool {
    match request.change {
        None => false,
        Some(CallChange::NewFile) => {
            allowed.new_files
                && request.tool_name == "write_file"
                && request.policy_layer == PolicyLayer::ToolDefault
                && request.detail.is_none()
                && request.effects.is_empty()
        }
    }
}

/// What became of a notification's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotificationAnswered {
    /// It decided the request: how it ended (recorded in the session log with
    /// `answered_on: notification`, as any answer before it takes effect).
    Decided(Outcome),
    /// Approve for a request a notification may not approve (any more): nothing changed, the
    /// request still waits for its card.
    NotOffered,
}

/// Answers the waiting request `id` with a notification's `answer`: Deny denies it (no note);
/// Approve approves it once, only when [`may_approve`] says so now (with `allowed`, the
/// person's choice at the moment of the click).
///
/// # Errors
/// [`ApprovalError::NotPending`] when it already ended (answered in the window, timed out):
/// nothing changes, and this is not an error for the person. As
/// [`ApprovalRegistry::resolve`] otherwise.
pub fn answer(
    registry: &ApprovalRegistry,
    id: ApprovalId,
    answer: NotificationAnswer,
    allowed: NotificationApprovals,
) -> Result<NotificationAnswered, ApprovalError> {
    let decision = match answer {
        NotificationAnswer::Deny => Decision::Deny { note: None },
        NotificationAnswer::Approve => {
            let request = registry.pending(id).ok_or(ApprovalError::NotPending(id))?;
            if !may_approve(&request, allowed) {
                return Ok(NotificationAnswered::NotOffered);
            }
            Decision::Approve
        }
    };
    registry
        .resolve_on(id, decision, Some(AnsweredOn::Notification))
        .map(NotificationAnswered::Decided)
}
