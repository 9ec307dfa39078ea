//! Every sentence the inbox says to the person (on the card, in the current language: the words
//! are in `locales/<tag>/app.ftl`, keys `inbox-…`) or to the other agent's model (a denial's
//! reason, in English like all text sent to a model), in one place.

use crate::i18n::{tr, Arg};

/// What another agent wants to do, for the card's first sentence ([`who_asks`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wants {
    /// To run a command line (shown exactly).
    Run(String),
    /// To write a file of so many lines.
    Write {
        /// The file, as the card shows it.
        path: String,
        /// Lines of the new content.
        lines: usize,
    },
    /// To change a file.
    Edit(String),
    /// To read a file.
    Read(String),
    /// To fetch an address from the internet.
    Fetch(String),
    /// To use another tool, by its name.
    Use(String),
}

/// "Claude Code, in the folder ~/projects/site, wants to run `npm test`": one whole sentence
/// per kind of request (`locales/<tag>/app.ftl`, keys `inbox-wants-…`), in the current language.
pub fn who_asks(agent: &str, folder: &str, wants: &Wants) -> String {
    let who = |key: &str, name: &str, value: &str| {
        tr(
            key,
            &[
                ("agent", Arg::from(agent)),
                ("folder", Arg::from(folder)),
                (name, Arg::from(value)),
            ],
        )
    };
    match wants {
        Wants::Run(command) => who("inbox-wants-run", "command", command),
        Wants::Write { path, lines } => tr(
            "inbox-wants-write",
            &[
                ("agent", Arg::from(agent)),
                ("folder", Arg::from(folder)),
                ("path", Arg::from(path.as_str())),
                ("lines", Arg::from(*lines)),
            ],
        ),
        Wants::Edit(path) => who("inbox-wants-edit", "path", path),
        Wants::Read(path) => who("inbox-wants-read", "path", path),
        Wants::Fetch(url) => who("inbox-wants-fetch", "url", url),
        Wants::Use(tool) => who("inbox-wants-use", "tool", tool),
    }
}

/// What a command call wants.
pub fn to_run(command: &str) -> Wants {
    Wants::Run(command.to_owned())
}

/// What a write wants; `lines` of the new content.
pub fn to_write(path: &str, lines: usize) -> Wants {
    Wants::Write {
        path: path.to_owned(),
        lines,
    }
}

/// What an edit wants.
pub fn to_edit(path: &str) -> Wants {
    Wants::Edit(path.to_owned())
}

/// What a read wants.
pub fn to_read(path: &str) -> Wants {
    Wants::Read(path.to_owned())
}

/// What a fetch wants.
pub fn to_fetch(url: &str) -> Wants {
    Wants::Fetch(url.to_owned())
}

/// What any other tool wants.
pub fn to_use(tool: &str) -> Wants {
    Wants::Use(tool.to_owned())
}

/// Why the person is asked (the card's reason line).
pub fn reason(agent: &str) -> String {
    tr("inbox-reason", &[("agent", Arg::from(agent))])
}

/// The card's effect line saying whose request it is.
pub fn not_ours(agent: &str) -> String {
    tr("inbox-not-ours", &[("agent", Arg::from(agent))])
}

// What the other agent's MODEL is told stays in English, like all text sent to a model.

/// The reason the agent's model gets when "Don't ask me now" refused the call.
pub const DONT_ASK_NOW: &str = "The person has chosen \"Don't ask me now\" in Ask First, so \
    this action was not approved. Do not retry it now.";

/// The reason the agent's model gets when nobody answered in time.
pub fn timed_out(seconds: &str) -> String {
    format!(
        "Nobody answered in Ask First within {seconds}, so this action was not approved. Do not \
         retry it unchanged."
    )
}

/// The reason the agent's model gets when the person denied without a note.
pub const DENIED: &str = "The person denied this action in Ask First. Do not retry it unchanged.";

/// The reason when the person denied with a note.
pub fn denied_with_note(note: &str) -> String {
    format!("The person denied this action in Ask First and said: {note}")
}

/// The reason when Ask First could not record or ask (log unwritable, quitting).
pub const NOT_ASKED: &str = "Ask First could not ask the person (it may be closing, or it \
    cannot save its history), so this action was not approved.";

/// The reason when too many requests arrive at once.
pub const TOO_MANY: &str = "Too many requests reached Ask First at once, so this one was not \
    approved. Try again in a moment.";

/// Settings: the home folder is not known.
pub fn no_home() -> String {
    tr("inbox-no-home", &[])
}

/// Settings: an agent's settings file cannot be read.
pub fn cannot_read(agent: &str) -> String {
    tr("inbox-cannot-read", &[("agent", Arg::from(agent))])
}

/// The reason the agent's model gets when it would change an agent's hook settings file, where
/// Ask First's own hook entry is.
pub fn hook_settings(agent: &str) -> String {
    format!(
        "{agent} may not change the hook settings of Claude Code, Codex or Gemini CLI through \
         this action: Ask First's own hook entry is there. The person can change them in Ask \
         First's Settings, Other agents."
    )
}

/// The reason the agent's model gets when a command would read Ask First's keys from the
/// desktop's keyring.
pub const KEYRING: &str = "Ask First does not let another program read the API keys it keeps \
    in your keyring, so this command was not run.";

/// The card's line when one of the person's allow rules matched another agent's request: it
/// still asks, and why.
pub fn allow_rule_not_applied(agent: &str) -> String {
    tr(
        "inbox-allow-rule-not-applied",
        &[("agent", Arg::from(agent))],
    )
}

/// The reason on another agent's command card when the folder it works in holds what the
/// person's rules keep (`rules`: their sentences, as Settings lists them): the command runs
/// outside Ask First's shelter, so it could reach those places without naming them.
pub fn command_reaches_kept(agent: &str, rules: &[String]) -> String {
    const NAMED: usize = 3;
    let named = Arg::from(rules[..rules.len().min(NAMED)].join("; "));
    if rules.len() > NAMED {
        tr(
            "inbox-command-reaches-kept_more",
            &[
                ("agent", Arg::from(agent)),
                ("rules", named),
                ("more", Arg::from(rules.len() - NAMED)),
            ],
        )
    } else {
        tr(
            "inbox-command-reaches-kept",
            &[("agent", Arg::from(agent)), ("rules", named)],
        )
    }
}

/// Why another agent's command is asked whose words do not show all it reaches (code given
/// on its line or in a script, a variable, a program Ask First does not know): it could reach
/// Ask First's own files, which nothing hides from another agent's command.
pub fn command_reach_unknown(agent: &str) -> String {
    tr(
        "inbox-command-reach-unknown",
        &[("agent", Arg::from(agent))],
    )
}

/// Why another agent's command is asked that works in a folder holding Ask First's own files
/// (the home folder, say), or names one.
pub fn command_near_own_files(agent: &str) -> String {
    tr(
        "inbox-command-near-own-files",
        &[("agent", Arg::from(agent))],
    )
}

/// What "Allow in this conversation" does on another agent's card: the agent's own session
/// permission `rule` (its own words in `locales/<tag>/app.ftl`, keys `inbox-session-…`).
pub fn session_scope(agent: &str, rule: &askfirst_hook::agents::SessionRule) -> String {
    use askfirst_hook::agents::SessionRule;
    match rule {
        SessionRule::Command(line) => tr(
            "inbox-session-command",
            &[
                ("agent", Arg::from(agent)),
                ("command", Arg::from(crate::text::display_label(line, 1000))),
            ],
        ),
        SessionRule::Site(host) => tr(
            "inbox-session-site",
            &[
                ("agent", Arg::from(agent)),
                ("host", Arg::from(crate::text::display_label(host, 300))),
            ],
        ),
    }
}
