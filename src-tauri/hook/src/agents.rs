//! Each agent's hook format: what it writes on the hook's standard input, and what the hook
//! prints back.
//!
//! - **Claude Code** (hooks reference, <https://code.claude.com/docs/en/hooks>): `PreToolUse`
//!   gets `{session_id, cwd, hook_event_name, tool_name, tool_input, tool_use_id, …}` and
//!   answers `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":
//!   "allow"|"deny"|"ask","permissionDecisionReason":"…"}}` (a deny's reason is shown to the
//!   model, an ask's in the terminal prompt). `PermissionRequest` (the permission dialog)
//!   answers `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":
//!   {"behavior":"allow"|"deny","message":"…"}}}`; printing nothing leaves the dialog to the
//!   terminal.
//! - **Codex CLI** (`PermissionRequest`, openai/codex `codex-rs/hooks`, PR #17563): the same
//!   input fields; answers `{"hookSpecificOutput":{"hookEventName":"PermissionRequest",
//!   "decision":{"behavior":"allow"|"deny","message":"…"}}}`; no output falls back to Codex's
//!   own approval prompt. It has no "ask" verdict.
//! - **Gemini CLI** (`BeforeTool`, <https://geminicli.com/docs/hooks/reference>): the same
//!   input fields; answers `{"decision":"allow"|"deny","reason":"…"}`; `{}` leaves the call
//!   to Gemini's own confirmation.

use askfirst_protocol::{ExternalAgent, InboxAnswer, InboxRequest, InboxVerdict};
use serde::Deserialize;
use serde_json::value::RawValue;

/// The most bytes the hook reads from standard input (the request's own bound).
pub const MAX_HOOK_INPUT_BYTES: usize = askfirst_protocol::INBOX_MAX_REQUEST_BYTES - 64 * 1024;

/// Why the agent's hook input cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// More than [`MAX_HOOK_INPUT_BYTES`].
    #[error("the hook input is larger than {MAX_HOOK_INPUT_BYTES} bytes")]
    TooLarge,
    /// Not the JSON the agent's hook reference describes.
    #[error("the hook input is not the agent's hook JSON: {0}")]
    Json(#[from] serde_json::Error),
}

#[derive(Deserialize)]
struct HookInput<'a> {
    #[serde(default)]
    session_id: String,
    #[serde(default)]
    cwd: String,
    #[serde(default)]
    hook_event_name: String,
    tool_name: String,
    #[serde(borrow)]
    tool_input: Option<&'a RawValue>,
}

/// Reads `input` (the agent's hook JSON) into the request Ask First is asked.
///
/// # Errors
/// [`InputError`] when it is too large or not the hook JSON.
pub fn parse_input(agent: ExternalAgent, input: &[u8]) -> Result<InboxRequest, InputError> {
    if input.len() > MAX_HOOK_INPUT_BYTES {
        return Err(InputError::TooLarge);
    }
    let hook: HookInput<'_> = serde_json::from_slice(input)?;
    Ok(InboxRequest {
        agent,
        hook_event: hook.hook_event_name,
        session_id: hook.session_id,
        cwd: hook.cwd,
        tool_name: hook.tool_name,
        tool_input_json: hook
            .tool_input
            .map_or_else(|| "{}".to_owned(), |raw| raw.get().to_owned()),
    })
}

/// How the hook ends for the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookResult {
    /// Ask First answered.
    Answered(InboxAnswer),
    /// Ask First could not be asked (not running, the socket refused, the answer unreadable):
    /// the agent's own prompt decides where it has one, never "allow". `reason` says why.
    Unreachable {
        /// A plain sentence for the person at the agent's prompt.
        reason: String,
    },
}

/// What the hook prints on standard output for `result`, in `agent`'s format for
/// `hook_event`; `None` prints nothing (the agent's own permission flow goes on).
pub fn render(agent: ExternalAgent, hook_event: &str, result: &HookResult) -> Option<String> {
    let (verdict, reason) = match result {
        HookResult::Answered(answer) => (answer.verdict, answer.reason.clone()),
        HookResult::Unreachable { reason } => {
            return match (agent, hook_event) {
                // Claude Code's PreToolUse can ask for its own terminal prompt.
                (ExternalAgent::ClaudeCode, "PreToolUse") => {
                    Some(claude_pre_tool_use("ask", Some(reason.clone())))
                }
                // The others: no output leaves the call to the agent's own prompt.
                _ => None,
            };
        }
    };
    let word = match verdict {
        InboxVerdict::Allow => "allow",
        InboxVerdict::Deny => "deny",
        InboxVerdict::NoOpinion => return None,
    };
    let output = match (agent, hook_event) {
        (ExternalAgent::ClaudeCode, "PermissionRequest") | (ExternalAgent::Codex, _) => {
            let mut decision = serde_json::json!({ "behavior": word });
            if let (InboxVerdict::Deny, Some(reason)) = (verdict, &reason) {
                decision["message"] = serde_json::Value::String(reason.clone());
            }
            serde_json::json!({
                "hookSpecificOutput": {
                    "hookEventName": "PermissionRequest",
                    "decision": decision,
                }
            })
            .to_string()
        }
        (ExternalAgent::ClaudeCode, _) => claude_pre_tool_use(word, reason),
        (ExternalAgent::Gemini, _) => {
            let mut out = serde_json::json!({ "decision": word });
            if let Some(reason) = reason {
                out["reason"] = serde_json::Value::String(reason);
            }
            out.to_string()
        }
    };
    Some(output)
}

fn claude_pre_tool_use(decision: &str, reason: Option<String>) -> String {
    let mut specific = serde_json::json!({
        "hookEventName": "PreToolUse",
        "permissionDecision": decision,
    });
    if let Some(reason) = reason {
        specific["permissionDecisionReason"] = serde_json::Value::String(reason);
    }
    serde_json::json!({ "hookSpecificOutput": specific }).to_string()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use super::*;
    use pretty_assertions::assert_eq;

    fn answered(verdict: InboxVerdict, reason: Option<&str>) -> HookResult {
        HookResult::Answered(InboxAnswer {
            verdict,
            reason: reason.map(str::to_owned),
        })
    }

    #[test]
    fn reads_claude_codes_pre_tool_use_input_keeping_the_exact_tool_input() {
        let input = br#"{"session_id":"s1","cwd":"/home/a/site","hook_event_name":"PreToolUse",
            "tool_name":"Bash","tool_input":{"command":"npm test","n":12345678901234567890},
            "tool_use_id":"t1","permission_mode":"default"}"#;
        let request = parse_input(ExternalAgent::ClaudeCode, input).expect("parses");
        assert_eq!(
            request,
            InboxRequest {
                agent: ExternalAgent::ClaudeCode,
                hook_event: "PreToolUse".into(),
                session_id: "s1".into(),
                cwd: "/home/a/site".into(),
                tool_name: "Bash".into(),
                tool_input_json: r#"{"command":"npm test","n":12345678901234567890}"#.into(),
            }
        );
    }

    #[test]
    fn refuses_input_over_the_bound_and_input_that_is_not_hook_json() {
        let big = vec![b' '; MAX_HOOK_INPUT_BYTES + 1];
        assert!(matches!(
            parse_input(ExternalAgent::ClaudeCode, &big),
            Err(InputError::TooLarge)
        ));
        assert!(matches!(
            parse_input(ExternalAgent::ClaudeCode, b"{\"cwd\":\"/\"}"),
            Err(InputError::Json(_))
        ));
    }

    #[test]
    fn claude_code_pre_tool_use_gets_allow_deny_with_the_reason_and_ask_when_unreachable() {
        assert_eq!(
            render(ExternalAgent::ClaudeCode, "PreToolUse", &answered(InboxVerdict::Allow, None)),
            Some(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#
                    .into()
            )
        );
        assert_eq!(
            render(
                ExternalAgent::ClaudeCode,
                "PreToolUse",
                &answered(InboxVerdict::Deny, Some("Not now"))
            ),
            Some(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Not now"}}"#
                    .into()
            )
        );
        let unreachable = HookResult::Unreachable {
            reason: "Ask First is not running".into(),
        };
        assert_eq!(
            render(ExternalAgent::ClaudeCode, "PreToolUse", &unreachable),
            Some(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Ask First is not running"}}"#
                    .into()
            )
        );
    }

    #[test]
    fn no_agent_is_ever_told_allow_when_ask_first_cannot_be_reached() {
        let unreachable = HookResult::Unreachable {
            reason: "refused".into(),
        };
        for agent in ExternalAgent::ALL {
            for event in ["PreToolUse", "PermissionRequest", "BeforeTool"] {
                let out = render(agent, event, &unreachable).unwrap_or_default();
                assert!(!out.contains("allow"), "{agent:?} {event}: {out}");
            }
        }
    }

    #[test]
    fn codex_and_claude_permission_request_get_a_behaviour_and_gemini_a_decision() {
        let deny = answered(InboxVerdict::Deny, Some("No"));
        assert_eq!(
            render(ExternalAgent::Codex, "PermissionRequest", &deny),
            Some(
                r#"{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"No"},"hookEventName":"PermissionRequest"}}"#
                    .into()
            )
        );
        assert_eq!(
            render(
                ExternalAgent::ClaudeCode,
                "PermissionRequest",
                &answered(InboxVerdict::Allow, None)
            ),
            Some(
                r#"{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}"#
                    .into()
            )
        );
        assert_eq!(
            render(ExternalAgent::Gemini, "BeforeTool", &deny),
            Some(r#"{"decision":"deny","reason":"No"}"#.into())
        );
        assert_eq!(
            render(
                ExternalAgent::Gemini,
                "BeforeTool",
                &answered(InboxVerdict::NoOpinion, None)
            ),
            None
        );
    }
}
