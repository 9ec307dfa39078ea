//! The sentences about applying a command's changes that the core says to people; the words
//! are in `locales/<tag>/app.ftl` (keys `tried-…`), in the current language
//! ([`crate::i18n`]).

use super::ApplyError;
use crate::i18n::{tr, Arg};

/// Why a command's changes were not applied: the file changed in the folder meanwhile
/// (`tried-conflict`, naming it), or the step that failed (`tried-apply_failed`).
pub fn apply_failed(error: &ApplyError) -> String {
    match error {
        ApplyError::Conflict { path } => tr(
            "tried-conflict",
            &[("name", Arg::from(path.display().to_string()))],
        ),
        ApplyError::Keep { .. } | ApplyError::Record(_) | ApplyError::Failed { .. } => tr(
            "tried-apply_failed",
            &[("why", Arg::from(error.to_string()))],
        ),
    }
}
