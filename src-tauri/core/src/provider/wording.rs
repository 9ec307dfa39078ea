//! The sentences of [`super::ProviderError`] that depend on a variant's facts (which
//! connection failure, which bound, how long): what a person reads when a model fails.

use super::error::{ConnectFailure, ReplyLimit};
use std::time::Duration;

/// A duration as a person says it: "30 minutes", "1 minute", "45 seconds", "1 second".
pub(super) fn spoken(duration: Duration) -> String {
    let seconds = duration.as_secs();
    match (seconds / 60, seconds) {
        (1, _) => "1 minute".to_owned(),
        (0, 1) => "1 second".to_owned(),
        (0, 0) => "less than a second".to_owned(),
        (0, s) => format!("{s} seconds"),
        (m, _) => format!("{m} minutes"),
    }
}

pub(super) fn connect_sentence(host: &str, reason: ConnectFailure) -> String {
    match reason {
        ConnectFailure::Refused => format!(
            "Nothing answered at {host}. Check that the model service is running and that the \
             address in the settings is right."
        ),
        ConnectFailure::NameNotFound => format!(
            "The address {host} could not be found. Check the address in the settings and the \
             internet connection."
        ),
        ConnectFailure::Tls => format!(
            "A secure connection to {host} could not be made. Check whether the address in the \
             settings should start with http:// or https://."
        ),
        ConnectFailure::TimedOut => format!(
            "The connection to {host} took too long. Check the internet connection and the \
             address in the settings."
        ),
        ConnectFailure::Dropped => format!(
            "The model service at {host} closed the connection without answering. Try again \
             later."
        ),
        ConnectFailure::Other => format!(
            "Could not reach the model at {host}. Check the internet connection and the address \
             in the settings."
        ),
    }
}

pub(super) fn not_an_ai_service_sentence(host: &str, content_type: &str) -> String {
    if content_type.contains("html") {
        format!(
            "The address {host} answered with a web page, not a model service; a login page or \
             a network sign-in may be in the way. Check the address in the settings."
        )
    } else {
        format!(
            "The address {host} did not answer like a model service. Check the address in the \
             settings."
        )
    }
}

pub(super) fn too_large_sentence(host: &str, limit: &ReplyLimit) -> String {
    const MB: usize = 1024 * 1024;
    match limit {
        ReplyLimit::ToolCalls { count } => format!(
            "The model at {host} asked for more than {count} actions in one reply, more than \
             Ask First takes at once. Try again with a smaller task."
        ),
        ReplyLimit::Reply { bytes } => format!(
            "The reply from {host} was larger than {} MB, more than Ask First takes from a model \
             at once. Try again with a smaller task.",
            bytes / MB
        ),
        ReplyLimit::Line { bytes } | ReplyLimit::Event { bytes } => format!(
            "The reply from {host} had a piece larger than {} MB, more than Ask First takes from \
             a model at once. Try again with a smaller task.",
            bytes / MB
        ),
    }
}
