//! Every English sentence the inbox says to the person (on the card) or to the other agent's
//! model (a denial's reason), in one place for the translation catalogues.

/// "Claude Code, in the folder ~/projects/site, wants to run `npm test`" — `wants` is what
/// it wants ("to run `npm test`").
pub fn who_asks(agent: &str, folder: &str, wants: &str) -> String {
    format!("{agent}, in the folder {folder}, wants {wants}")
}

/// What a command call wants.
pub fn to_run(command: &str) -> String {
    format!("to run `{command}`")
}

/// What a write wants; `lines` of the new content.
pub fn to_write(path: &str, lines: usize) -> String {
    let lines = crate::text::plural(lines, "line", "lines");
    format!("to write the file {path} ({lines})")
}

/// What an edit wants.
pub fn to_edit(path: &str) -> String {
    format!("to change the file {path}")
}

/// What a read wants.
pub fn to_read(path: &str) -> String {
    format!("to read the file {path}")
}

/// What a fetch wants.
pub fn to_fetch(url: &str) -> String {
    format!("to fetch {url} from the internet")
}

/// What any other tool wants.
pub fn to_use(tool: &str) -> String {
    format!("to use its tool \"{tool}\"")
}

/// Why the person is asked (the card's reason line).
pub fn reason(agent: &str) -> String {
    format!(
        "{agent} asks you here instead of in its terminal. It works in its own folder, not in \
         the one you chose for Ask First, and Ask First does not confine what it does."
    )
}

/// The card's effect line saying whose request it is.
pub fn not_ours(agent: &str) -> String {
    format!("This is {agent}'s own request: if you approve, {agent} does it itself.")
}

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
pub const NO_HOME: &str =
    "Ask First does not know your home folder, so it cannot find the other agents' settings.";

/// Settings: an agent's settings file cannot be read.
pub fn cannot_read(agent: &str) -> String {
    format!(
        "Ask First cannot read {agent}'s settings file. Check that it is valid, then try again."
    )
}
