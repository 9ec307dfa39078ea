//! Which [`ErrorCode`] each core error reaches the window with, matched exhaustively so a new
//! error variant is a compile error here until it has its code (and distinct errors keep
//! distinct codes: the disk being full is not "internal").

use crate::agent::{RunError, SessionError};
use crate::approvals::ApprovalError;
use askfirst_protocol::{CommandError, ErrorCode};

/// A core error a command can return.
pub trait Coded: std::fmt::Display {
    /// The code the window receives.
    fn code(&self) -> ErrorCode;

    /// The error as a command returns it: the code and the error's sentence.
    fn to_command_error(&self) -> CommandError {
        CommandError {
            code: self.code(),
            message: self.to_string(),
        }
    }
}

impl Coded for RunError {
    fn code(&self) -> ErrorCode {
        match self {
            RunError::EmptyTask => ErrorCode::InvalidRequest,
            RunError::Busy => ErrorCode::Busy,
            RunError::Provider(_) => ErrorCode::ProviderSetup,
            RunError::FolderGone(_) => ErrorCode::InvalidRequest,
        }
    }
}

impl Coded for SessionError {
    fn code(&self) -> ErrorCode {
        match self {
            SessionError::Busy => ErrorCode::Busy,
            SessionError::Unreadable(_) => ErrorCode::Storage,
            SessionError::FolderFixed => ErrorCode::InvalidRequest,
        }
    }
}

impl Coded for ApprovalError {
    fn code(&self) -> ErrorCode {
        match self {
            ApprovalError::NotPending(_) => ErrorCode::NotPending,
            ApprovalError::NotGrantable(_) => ErrorCode::InvalidRequest,
            // Only in the fail-closed mode, which the app never uses: a bug if it reaches it.
            ApprovalError::ApprovalRequired { .. } => ErrorCode::Internal,
            ApprovalError::Log(_) => ErrorCode::LogUnavailable,
            ApprovalError::ShuttingDown => ErrorCode::ShuttingDown,
        }
    }
}

impl Coded for super::SettingsError {
    fn code(&self) -> ErrorCode {
        super::SettingsError::code(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use askfirst_protocol::ApprovalId;

    #[test]
    fn distinct_failures_have_distinct_codes() {
        let id = ApprovalId::new();
        let codes = [
            ApprovalError::NotPending(id).code(),
            ApprovalError::NotGrantable(id).code(),
            ApprovalError::Log("disk full".into()).code(),
            ApprovalError::ShuttingDown.code(),
            RunError::Busy.code(),
            RunError::Provider(crate::provider::ProviderError::Config("no key".into())).code(),
            SessionError::Unreadable("gone".into()).code(),
        ];
        assert_eq!(
            codes,
            [
                ErrorCode::NotPending,
                ErrorCode::InvalidRequest,
                ErrorCode::LogUnavailable,
                ErrorCode::ShuttingDown,
                ErrorCode::Busy,
                ErrorCode::ProviderSetup,
                ErrorCode::Storage,
            ]
        );
        assert_eq!(SessionError::Busy.code(), RunError::Busy.code());
    }
}
