//! The sentences of [`super::ProviderError`] that depend on a variant's facts (which
//! connection failure, which bound, how long): what a person reads when a model fails. The
//! words are in `locales/*/app.ftl` (keys `provider-…` and `duration-…`).

use super::error::{ConnectFailure, ReplyLimit};
use crate::i18n::{tr, Arg};
use std::time::Duration;

/// A duration as a person says it: "30 minutes", "1 minute", "45 seconds", "1 second".
pub(super) fn spoken(duration: Duration) -> String {
    let seconds = duration.as_secs();
    match (seconds / 60, seconds) {
        (0, 0) => tr("duration-less_than_a_second", &[]),
        (0, s) => tr("duration-seconds", &[("count", Arg::from(s))]),
        (m, _) => tr("duration-minutes", &[("count", Arg::from(m))]),
    }
}

pub(super) fn connect_sentence(host: &str, reason: ConnectFailure) -> String {
    let key = match reason {
        ConnectFailure::Refused => "provider-connect-refused",
        ConnectFailure::NameNotFound => "provider-connect-name_not_found",
        ConnectFailure::Tls => "provider-connect-tls",
        ConnectFailure::TimedOut => "provider-connect-timed_out",
        ConnectFailure::Dropped => "provider-connect-dropped",
        ConnectFailure::Other => "provider-connect-other",
    };
    tr(key, &[("host", Arg::from(host))])
}

pub(super) fn not_an_ai_service_sentence(host: &str, content_type: &str) -> String {
    let key = if content_type.contains("html") {
        "provider-not_an_ai_service-web_page"
    } else {
        "provider-not_an_ai_service"
    };
    tr(key, &[("host", Arg::from(host))])
}

pub(super) fn too_large_sentence(host: &str, limit: &ReplyLimit) -> String {
    const MB: usize = 1024 * 1024;
    let host = ("host", Arg::from(host));
    match limit {
        ReplyLimit::ToolCalls { count } => tr(
            "provider-too_large-tool_calls",
            &[host, ("count", Arg::from(*count))],
        ),
        ReplyLimit::Reply { bytes } => tr(
            "provider-too_large-reply",
            &[host, ("limit_mb", Arg::from(bytes / MB))],
        ),
        ReplyLimit::Line { bytes } | ReplyLimit::Event { bytes } => tr(
            "provider-too_large-piece",
            &[host, ("limit_mb", Arg::from(bytes / MB))],
        ),
    }
}
