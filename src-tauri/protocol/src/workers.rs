//! "Who does the work": Ask First's own agent, or another agent program on this computer that
//! Ask First hosts over ACP (the core's `acp` module), for the conversation in the window.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The id of Ask First's own agent among the choices.
pub const OWN_AGENT: &str = "askfirst";

/// One choice of "Who does the work".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkerView {
    /// [`OWN_AGENT`], or the agent's id (`gemini`, `claude`, …, `custom`).
    pub id: String,
    /// Its name as people know it ("Gemini CLI"); empty for Ask First's own agent (the window
    /// names it in the person's language).
    pub name: String,
    /// The command it is started with, as one line (words split as a shell splits them);
    /// empty for Ask First's own agent.
    pub command: String,
}

/// `list_workers`' answer: who does the work in the conversation in the window, and who could.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkersView {
    /// The choice in force for the conversation in the window.
    pub chosen: WorkerView,
    /// Every choice: Ask First's own agent first, then the agents found on this computer (and
    /// the chosen one, if it is not among them).
    pub choices: Vec<WorkerView>,
}

/// `choose_worker`'s argument: `id` one of the choices' (or `custom`), `command` the line to
/// start it with (ignored for [`OWN_AGENT`]).
/// JS: `invoke('choose_worker', { request: { id: 'gemini', command: 'gemini --acp' } })`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChooseWorkerRequest {
    /// Which choice.
    pub id: String,
    /// The command line to start it with.
    pub command: String,
}
