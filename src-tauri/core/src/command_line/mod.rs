//! What a `run_command` line *parses to*, and what follows from that (DESIGN.md §7.3): read by
//! the one reading of a command line, the crate `askfirst-shell-line` (re-exported here, so
//! that the core's users keep one door), with the card's words for what a line does
//! ([`effect_words`]), which need the core's sentences.
//!
//! - [`plain_commands`]: the strict reading, for allow rules (plain lines only).
//! - [`all_simple_commands`], [`redirection_targets`], [`names_in`]: the lenient reading, for
//!   deny and ask rules, the hard denials and the paths a line names.
//! - [`CommandPattern`] (a rule's `match`), [`hard_denial`] (what never runs), [`effects`]
//!   (what a command does that matters, as [`Effect`]s for the approval card).

pub use askfirst_shell_line::{
    all_simple_commands, effects, hard_denial, names_in, plain_commands, redirection_targets,
    CommandPattern, Effect, Names, PathKind, Place, Target, MAX_NESTING,
};

pub mod effect_words;

#[cfg(test)]
use askfirst_shell_line::MAX_EFFECTS;

/// The hard denials' sentence keys, for the tables of `tests.rs`.
#[cfg(test)]
mod hard {
    pub(super) use askfirst_shell_line::hard::*;
}

/// What a line does that matters, as `effect_words` and the tables read it.
mod effects {
    #[cfg(test)]
    pub use askfirst_shell_line::{effects, Place};
    pub use askfirst_shell_line::{Effect, PathKind, Target};
}

#[cfg(test)]
mod effect_tests;
#[cfg(test)]
mod effect_words_tests;
#[cfg(test)]
mod tests;
