//! Examples of every variant of the errors `error_catalogue.rs` checks that have many
//! variants (a model's failures, an MCP server's settings refused), each list next to a
//! `match` without a `_` arm so a new variant does not compile until it is listed.

use askfirst_core::mcp::McpConfigError;
use askfirst_core::provider::{ConnectFailure, ProviderError, ReplyLimit};
use std::time::Duration;

/// An OS error with that code (its text ends "(os error N)").
pub fn io(code: i32) -> std::io::Error {
    std::io::Error::from_raw_os_error(code)
}

/// Every kind of model failure, with a raw chain in each detail.
pub fn provider_errors() -> Vec<ProviderError> {
    let host = || "api.example.com".to_owned();
    let mut all = vec![
        ProviderError::ScriptExhausted { step: 2, turns: 1 },
        ProviderError::Config(
            "The settings file /home/me/.local/share/askfirst/settings.json has a mistake: \
             expected value at line 1 column 1"
                .into(),
        ),
        ProviderError::MissingKey {
            host: host(),
            env_var: "OPENAI_API_KEY".into(),
        },
        ProviderError::BadScenario {
            detail: "/tmp/s.json cannot be read (No such file or directory (os error 2)).".into(),
        },
        ProviderError::Auth {
            host: host(),
            status: 401,
            detail: "{\"error\": \"invalid_api_key\"}".into(),
        },
        ProviderError::ModelNotFound {
            model: "gpt-9".into(),
            host: host(),
            detail: "{\"error\": \"model_not_found\"}".into(),
        },
        ProviderError::RateLimited {
            host: host(),
            tries: 4,
            detail: "Rate limit reached".into(),
        },
        ProviderError::BusyTooLong {
            host: host(),
            asked: std::time::Duration::MAX,
            limit: std::time::Duration::from_secs(30),
            detail: "Rate limit reached".into(),
        },
        ProviderError::ServerError {
            host: host(),
            status: 503,
            tries: 4,
            detail: "upstream connect error".into(),
        },
        ProviderError::ContextTooLong {
            host: host(),
            status: Some(400),
            detail: "prompt is too long: 208310 tokens > 200000 maximum".into(),
        },
        ProviderError::ContextTooLong {
            host: host(),
            status: None,
            detail: "Input does not fit in context length.".into(),
        },
        ProviderError::OverPlanLimit {
            host: host(),
            status: 429,
            detail: "Request too large for gpt-4o in organization org-x on tokens per min (TPM): \
                     Limit 30000, Requested 45000."
                .into(),
        },
        ProviderError::Refused {
            host: host(),
            status: 400,
            detail: "Bad Request".into(),
        },
        ProviderError::ServiceError {
            host: host(),
            detail: "{\"type\": \"overloaded_error\"}".into(),
        },
        ProviderError::NotAnAiService {
            host: host(),
            content_type: "text/html".into(),
        },
        ProviderError::NotAnAiService {
            host: host(),
            content_type: "image/png".into(),
        },
        ProviderError::Malformed {
            host: host(),
            detail: "expected value at line 1 column 1".into(),
        },
        ProviderError::EndedEarly {
            host: host(),
            detail: "the stream ended without a finish marker".into(),
        },
        ProviderError::IdleTimeout {
            host: host(),
            waited: Duration::from_secs(60),
        },
        ProviderError::TooSlow {
            host: host(),
            limit: Duration::from_secs(600),
        },
    ];
    for reason in [
        ConnectFailure::Refused,
        ConnectFailure::NameNotFound,
        ConnectFailure::Tls,
        ConnectFailure::TimedOut,
        ConnectFailure::Dropped,
        ConnectFailure::Other,
    ] {
        all.push(ProviderError::CannotConnect {
            host: host(),
            reason,
            detail: "error sending request for url (http://127.0.0.1:9/v1/chat/completions): \
                     client error (Connect): tcp connect error: Connection refused (os error 111)"
                .into(),
        });
    }
    for limit in [
        ReplyLimit::Reply {
            bytes: 16 * 1024 * 1024,
        },
        ReplyLimit::Line {
            bytes: 2 * 1024 * 1024,
        },
        ReplyLimit::Event {
            bytes: 2 * 1024 * 1024,
        },
        ReplyLimit::ToolCalls { count: 64 },
    ] {
        all.push(ProviderError::TooLarge {
            host: host(),
            limit,
        });
    }
    for error in &all {
        match error {
            ProviderError::ScriptExhausted { .. }
            | ProviderError::Config(_)
            | ProviderError::MissingKey { .. }
            | ProviderError::BadScenario { .. }
            | ProviderError::Auth { .. }
            | ProviderError::ModelNotFound { .. }
            | ProviderError::RateLimited { .. }
            | ProviderError::BusyTooLong { .. }
            | ProviderError::ServerError { .. }
            | ProviderError::ContextTooLong { .. }
            | ProviderError::OverPlanLimit { .. }
            | ProviderError::Refused { .. }
            | ProviderError::ServiceError { .. }
            | ProviderError::CannotConnect { .. }
            | ProviderError::NotAnAiService { .. }
            | ProviderError::Malformed { .. }
            | ProviderError::EndedEarly { .. }
            | ProviderError::TooLarge { .. }
            | ProviderError::IdleTimeout { .. }
            | ProviderError::TooSlow { .. } => {}
        }
    }
    all
}

/// Every refusal of an MCP server's settings (they reach the window as
/// [`SettingsError::McpServer`]).
pub fn mcp_config_errors() -> Vec<McpConfigError> {
    let all = vec![
        McpConfigError::NameLength,
        McpConfigError::NameCharacters,
        McpConfigError::NoLongerSaved {
            previous: "files".into(),
        },
        McpConfigError::NameTaken {
            other: "Files".into(),
        },
        McpConfigError::UnclosedQuote,
        McpConfigError::NoProgram,
        McpConfigError::VariableName { name: "1X".into() },
        McpConfigError::VariableValue {
            name: "TOKEN".into(),
        },
        McpConfigError::VariableTwice {
            name: "TOKEN".into(),
        },
    ];
    for error in &all {
        match error {
            McpConfigError::NameLength
            | McpConfigError::NameCharacters
            | McpConfigError::NoLongerSaved { .. }
            | McpConfigError::NameTaken { .. }
            | McpConfigError::UnclosedQuote
            | McpConfigError::NoProgram
            | McpConfigError::VariableName { .. }
            | McpConfigError::VariableValue { .. }
            | McpConfigError::VariableTwice { .. } => {}
        }
    }
    all
}
