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
//!
//!   "Allow in this conversation" is Claude Code's own session permission, given only on
//!   `PermissionRequest` (`PreToolUse` has none): `decision.updatedPermissions` with one
//!   `{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test"}],
//!   "behavior":"allow","destination":"session"}` (the hooks reference's `PermissionRequest`
//!   decision control; the schema of Claude Code 2.1.332 takes `destination` one of
//!   `userSettings`, `projectSettings`, `localSettings`, `session`, `cliArg`). See
//!   [`session_rule`] for which requests have one.
//! - **Codex CLI** (`PermissionRequest`, openai/codex `codex-rs/hooks`, PR #17563): the same
//!   input fields; answers `{"hookSpecificOutput":{"hookEventName":"PermissionRequest",
//!   "decision":{"behavior":"allow"|"deny","message":"…"}}}`; no output falls back to Codex's
//!   own approval prompt. It has no "ask" verdict, and no session permission: in Codex 0.171.0
//!   `updatedPermissions` is "reserved for a future permission-rewrite capability" and a hook
//!   that sends it fails closed (its hook output schema). Its `PreToolUse` hook (Claude Code's
//!   input and output shape, tool `Bash`) fires in `codex exec` too, but takes only "deny".
//! - **Gemini CLI** (`BeforeTool`, <https://geminicli.com/docs/hooks/reference>): the same
//!   input fields; answers `{"decision":"allow"|"deny","reason":"…"}`; `{}` leaves the call
//!   to Gemini's own confirmation. It has no session permission a hook can give.

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

/// A permission rule in Claude Code's terms (`{toolName, ruleContent}` of its settings'
/// `permissions.allow`, e.g. `Bash(npm test)`), which "Allow in this conversation" adds for the
/// rest of that Claude Code conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionRule {
    /// `Bash(<command>)`: exactly this command line (Claude Code matches a rule without `:*`
    /// to the whole command only).
    Command(String),
    /// `WebFetch(domain:<host>)`: fetching from this host.
    Site(String),
}

/// The longest command line offered as a session rule; a longer one is approved once only.
const SESSION_RULE_MAX_CHARS: usize = 1000;

/// The session permission "Allow in this conversation" would give the agent for `request`, in
/// the agent's own terms; `None` where the agent has none for this hook event (every
/// `PreToolUse` and `BeforeTool`, Codex), or the call is not one whose rule says exactly what
/// it allows (a shell command on one line, a web page's host). Ask First shows it on the card
/// from this same value, and the hook sends this same value back.
pub fn session_rule(request: &InboxRequest) -> Option<SessionRule> {
    if request.agent != ExternalAgent::ClaudeCode || request.hook_event != "PermissionRequest" {
        return None;
    }
    let input: serde_json::Value = serde_json::from_str(&request.tool_input_json).ok()?;
    let text = |name: &str| input.get(name).and_then(serde_json::Value::as_str);
    match request.tool_name.as_str() {
        // Claude Code reads `*` in a rule as "anything" (spaces included) and a rule ending in
        // `:*` as a prefix, so a line with a `*` (`rm -f *.log`) would also allow other
        // commands (`rm -f thesis.docx b.log`): such a line is approved once only.
        "Bash" => text("command")
            .filter(|c| {
                !c.trim().is_empty()
                    && c.chars().count() <= SESSION_RULE_MAX_CHARS
                    && !c.chars().any(char::is_control)
                    && !c.contains('*')
            })
            .map(|c| SessionRule::Command(c.to_owned())),
        // The same for a host with a `*` in it (the URL standard lets one through).
        "WebFetch" => text("url")
            .and_then(|u| url::Url::parse(u).ok())
            .filter(|u| matches!(u.scheme(), "http" | "https"))
            .and_then(|u| u.host_str().map(str::to_owned))
            .filter(|host| !host.contains('*'))
            .map(SessionRule::Site),
        _ => None,
    }
}

impl SessionRule {
    /// The rule as Claude Code's `updatedPermissions` entry.
    fn as_update(&self) -> serde_json::Value {
        let (tool, content) = match self {
            SessionRule::Command(line) => ("Bash", line.clone()),
            SessionRule::Site(host) => ("WebFetch", format!("domain:{host}")),
        };
        serde_json::json!({
            "type": "addRules",
            "rules": [{ "toolName": tool, "ruleContent": content }],
            "behavior": "allow",
            "destination": "session",
        })
    }
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
/// `hook_event`; `None` prints nothing (the agent's own permission flow goes on). `rule` is
/// the request's [`session_rule`], sent along only with [`InboxVerdict::AllowForSession`].
pub fn render(
    agent: ExternalAgent,
    hook_event: &str,
    rule: Option<&SessionRule>,
    result: &HookResult,
) -> Option<String> {
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
        InboxVerdict::Allow | InboxVerdict::AllowForSession => "allow",
        InboxVerdict::Deny => "deny",
        InboxVerdict::NoOpinion => return None,
    };
    let output = match (agent, hook_event) {
        // Codex's PreToolUse (if a person adds it) can only deny: "allow" is refused there
        // ("PreToolUse hook returned unsupported permissionDecision:allow"), so an approval
        // prints nothing and Codex's own flow goes on.
        (ExternalAgent::Codex, "PreToolUse") => match verdict {
            InboxVerdict::Deny => claude_pre_tool_use("deny", reason),
            InboxVerdict::Allow | InboxVerdict::AllowForSession | InboxVerdict::NoOpinion => {
                return None
            }
        },
        (ExternalAgent::ClaudeCode, "PermissionRequest") | (ExternalAgent::Codex, _) => {
            let mut decision = serde_json::json!({ "behavior": word });
            if let (InboxVerdict::Deny, Some(reason)) = (verdict, &reason) {
                decision["message"] = serde_json::Value::String(reason.clone());
            }
            // Only Claude Code's PermissionRequest takes a session permission (Codex fails
            // closed on it).
            if let (InboxVerdict::AllowForSession, Some(rule), ExternalAgent::ClaudeCode) =
                (verdict, rule, agent)
            {
                decision["updatedPermissions"] = serde_json::json!([rule.as_update()]);
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
            render(ExternalAgent::ClaudeCode, "PreToolUse", None, &answered(InboxVerdict::Allow, None)),
            Some(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#
                    .into()
            )
        );
        assert_eq!(
            render(ExternalAgent::ClaudeCode, "PreToolUse", None,
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
            render(ExternalAgent::ClaudeCode, "PreToolUse", None, &unreachable),
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
                let out = render(agent, event, None, &unreachable).unwrap_or_default();
                assert!(!out.contains("allow"), "{agent:?} {event}: {out}");
            }
        }
    }

    #[test]
    fn codex_and_claude_permission_request_get_a_behaviour_and_gemini_a_decision() {
        let deny = answered(InboxVerdict::Deny, Some("No"));
        assert_eq!(
            render(ExternalAgent::Codex, "PermissionRequest", None, &deny),
            Some(
                r#"{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"No"},"hookEventName":"PermissionRequest"}}"#
                    .into()
            )
        );
        assert_eq!(
            render(ExternalAgent::ClaudeCode, "PermissionRequest", None,
                &answered(InboxVerdict::Allow, None)
            ),
            Some(
                r#"{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}"#
                    .into()
            )
        );
        assert_eq!(
            render(ExternalAgent::Gemini, "BeforeTool", None, &deny),
            Some(r#"{"decision":"deny","reason":"No"}"#.into())
        );
        assert_eq!(
            render(
                ExternalAgent::Gemini,
                "BeforeTool",
                None,
                &answered(InboxVerdict::NoOpinion, None)
            ),
            None
        );
    }

    fn claude(event: &str, tool: &str, input: &str) -> InboxRequest {
        InboxRequest {
            agent: ExternalAgent::ClaudeCode,
            hook_event: event.into(),
            session_id: "s".into(),
            cwd: "/home/a".into(),
            tool_name: tool.into(),
            tool_input_json: input.into(),
        }
    }

    #[test]
    fn only_claude_codes_permission_request_has_a_session_rule_and_it_is_exact() {
        let bash = claude("PermissionRequest", "Bash", r#"{"command":"npm test"}"#);
        assert_eq!(
            session_rule(&bash),
            Some(SessionRule::Command("npm test".into()))
        );
        let fetch = claude(
            "PermissionRequest",
            "WebFetch",
            r#"{"url":"https://Docs.Example.org/a?b","prompt":"p"}"#,
        );
        assert_eq!(
            session_rule(&fetch),
            Some(SessionRule::Site("docs.example.org".into()))
        );
        // No session permission on PreToolUse, for other agents, for writes, or for a
        // command on several lines.
        for request in [
            claude("PreToolUse", "Bash", r#"{"command":"npm test"}"#),
            InboxRequest {
                agent: ExternalAgent::Codex,
                ..bash.clone()
            },
            claude(
                "PermissionRequest",
                "Write",
                r#"{"file_path":"/a","content":""}"#,
            ),
            claude("PermissionRequest", "Bash", r#"{"command":"a\nrm -rf x"}"#),
            // Claude Code reads `*` in a rule as a wildcard: `Bash(rm -f *.log)` would allow
            // `rm -f thesis.docx b.log` too, and `Bash(git:*)` every git command.
            claude("PermissionRequest", "Bash", r#"{"command":"rm -f *.log"}"#),
            claude("PermissionRequest", "Bash", r#"{"command":"git:*"}"#),
            claude(
                "PermissionRequest",
                "WebFetch",
                r#"{"url":"https://*.example.org/","prompt":"p"}"#,
            ),
        ] {
            assert_eq!(session_rule(&request), None, "{request:?}");
        }
    }

    #[test]
    fn allow_for_session_sends_claude_codes_session_permission_on_permission_request() {
        let rule = SessionRule::Command("npm test".into());
        let answer = answered(InboxVerdict::AllowForSession, None);
        assert_eq!(
            render(ExternalAgent::ClaudeCode, "PermissionRequest", Some(&rule), &answer),
            Some(
                r#"{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedPermissions":[{"behavior":"allow","destination":"session","rules":[{"ruleContent":"npm test","toolName":"Bash"}],"type":"addRules"}]},"hookEventName":"PermissionRequest"}}"#
                    .into()
            )
        );
        let site = SessionRule::Site("docs.example.org".into());
        let out = render(
            ExternalAgent::ClaudeCode,
            "PermissionRequest",
            Some(&site),
            &answer,
        )
        .expect("output");
        assert!(
            out.contains(r#""ruleContent":"domain:docs.example.org","toolName":"WebFetch""#),
            "{out}"
        );
        // A plain allow sends no permission, and Codex never gets one.
        let once = render(
            ExternalAgent::ClaudeCode,
            "PermissionRequest",
            Some(&rule),
            &answered(InboxVerdict::Allow, None),
        )
        .expect("output");
        assert!(!once.contains("updatedPermissions"), "{once}");
        let codex = render(
            ExternalAgent::Codex,
            "PermissionRequest",
            Some(&rule),
            &answer,
        )
        .expect("output");
        assert!(!codex.contains("updatedPermissions"), "{codex}");
    }

    #[test]
    fn codex_pre_tool_use_gets_a_deny_and_nothing_for_an_approval() {
        let deny = answered(InboxVerdict::Deny, Some("No"));
        assert_eq!(
            render(ExternalAgent::Codex, "PreToolUse", None, &deny),
            Some(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"No"}}"#
                    .into()
            )
        );
        assert_eq!(
            render(
                ExternalAgent::Codex,
                "PreToolUse",
                None,
                &answered(InboxVerdict::Allow, None)
            ),
            None
        );
    }
}
