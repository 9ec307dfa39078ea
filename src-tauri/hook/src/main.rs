//! `askfirst-hook`: run by another agent as its permission hook, or by a person to connect one.
//!
//! - `askfirst-hook <agent>` (`claude-code`, `codex`, `gemini`): reads the agent's hook JSON
//!   on standard input, asks the running Ask First, prints the decision in the agent's format
//!   and exits 0. When Ask First cannot be asked it never answers "allow": Claude Code gets
//!   "ask" (its own prompt), the others no output (their own prompt); the reason goes to
//!   standard error.
//! - `askfirst-hook install <agent>` / `uninstall <agent>`: adds or removes Ask First's hook
//!   entry in the agent's user settings under `$HOME` ([`askfirst_hook::install`]).

use askfirst_hook::agents::{
    parse_input, render, session_rule, HookResult, SessionRule, MAX_HOOK_INPUT_BYTES,
};
use askfirst_hook::client::{ask, socket_path, LONGEST_WAIT};
use askfirst_hook::install::AgentSettings;
use askfirst_protocol::ExternalAgent;
use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: askfirst-hook <claude-code|codex|gemini>\n       \
                     askfirst-hook install <claude-code|codex|gemini>\n       \
                     askfirst-hook uninstall <claude-code|codex|gemini>";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let agent = |slug: &str| {
        ExternalAgent::from_slug(slug).ok_or_else(|| format!("unknown agent \"{slug}\"\n{USAGE}"))
    };
    let done = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["install", slug] => agent(slug).and_then(install),
        ["uninstall", slug] => agent(slug).and_then(uninstall),
        [slug] => agent(slug).map(run_hook),
        _ => Err(USAGE.to_owned()),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("askfirst-hook: {message}");
            ExitCode::from(2)
        }
    }
}

fn install(agent: ExternalAgent) -> Result<(), String> {
    let settings = AgentSettings::for_home(agent).map_err(|e| e.to_string())?;
    let hook =
        std::env::current_exe().map_err(|e| format!("cannot find this program's own path: {e}"))?;
    let changed = settings.install(&hook).map_err(|e| e.to_string())?;
    println!(
        "{} {} asks through Ask First ({}).",
        agent.display_name(),
        if changed { "now" } else { "already" },
        settings.file.display()
    );
    Ok(())
}

fn uninstall(agent: ExternalAgent) -> Result<(), String> {
    let settings = AgentSettings::for_home(agent).map_err(|e| e.to_string())?;
    let changed = settings.uninstall().map_err(|e| e.to_string())?;
    println!(
        "{} {} asks in its own terminal ({}).",
        agent.display_name(),
        if changed { "again" } else { "already" },
        settings.file.display()
    );
    Ok(())
}

/// The hook itself: always exits 0 with the agent's answer (or none), never "allow" unless
/// Ask First said so.
fn run_hook(agent: ExternalAgent) {
    let mut input = Vec::new();
    let read = std::io::stdin()
        .take(u64::try_from(MAX_HOOK_INPUT_BYTES).unwrap_or(u64::MAX) + 1)
        .read_to_end(&mut input);
    let (event, rule, result): (String, Option<SessionRule>, HookResult) = match read
        .map_err(|e| e.to_string())
        .and_then(|_| parse_input(agent, &input).map_err(|e| e.to_string()))
    {
        Err(why) => (
            // Unknown event: the PreToolUse shape is the one that can ask.
            "PreToolUse".to_owned(),
            None,
            HookResult::Unreachable {
                reason: format!(
                    "Ask First could not read this request ({why}), so it was not answered there"
                ),
            },
        ),
        Ok(request) => {
            let event = request.hook_event.clone();
            let rule = session_rule(&request);
            let answer = socket_path(std::env::var_os("XDG_RUNTIME_DIR").as_deref())
                .and_then(|socket| ask(&socket, &request, LONGEST_WAIT));
            let result = match answer {
                Ok(answer) => HookResult::Answered(answer),
                Err(error) => HookResult::Unreachable {
                    reason: format!("Ask First could not be asked: {error}. Answer here instead"),
                },
            };
            (event, rule, result)
        }
    };
    if let HookResult::Unreachable { reason } = &result {
        eprintln!("askfirst-hook: {reason}");
    }
    if let Some(output) = render(agent, &event, rule.as_ref(), &result) {
        let mut stdout = std::io::stdout();
        let _ = writeln!(stdout, "{output}");
        let _ = stdout.flush();
    }
}
