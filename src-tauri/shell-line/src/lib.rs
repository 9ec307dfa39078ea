//! The one reading of a command line in Ask First: what a `run_command` line (or another
//! agent's shell command) *parses to*, and what follows from that (DESIGN.md §7.3: rules and
//! hard denials judge what a command is, never a text glob over what the model wrote); and the
//! one way a word becomes a path. Every user in the core goes through here: the card's
//! effects, command rules, the hard denials, the paths a line mentions, the inbox's judgement
//! of another agent's command, an MCP server's command line.
//!
//! Two readings of one line, for the two directions a mistake can go:
//!
//! - [`plain_commands`] is **strict**, for allow rules: it answers only for a line of plain
//!   words joined by `&&`, `||`, `;` and `|`, whose meaning no shell can change, and `None`
//!   for anything else. A line it cannot read is never allowed by a rule.
//! - [`all_simple_commands`] is **lenient**, for deny and ask rules and the hard denials: it
//!   cuts at everything that might separate commands (also inside `$(…)`, backquotes and
//!   double quotes), looks inside `sh -c`/`bash -lc`/`eval` strings, `find -exec`, `xargs`,
//!   `env -S` and wrappers such as `sudo`, `env`, `nohup`, `timeout 5`, `busybox`, and would
//!   rather split too much than too little.
//!
//! Modules:
//!
//! - `plain`: the strict reading ([`plain_commands`]), by hand and by `grammar`.
//! - `grammar`: the bash grammar's reading of a plain line (tree-sitter-bash).
//! - `split`: cutting one line into simple commands, words and redirections (lenient, one
//!   level; ANSI-C quoting decoded as bash does).
//! - `reading`: the lenient reading through every level ([`all_simple_commands`],
//!   [`redirection_targets`], [`names_in`]) and every reading of another agent's line
//!   ([`every_reading`], [`goes_home`]).
//! - `wrappers`: seeing through what runs another command (shells, `sudo`, `env`, `xargs`,
//!   `env -S`, `find -exec`), and the list of shells.
//! - [`hard`]: the hard denials ([`hard_denial`]) and their sentence keys.
//! - `pattern`: rules' command patterns ([`CommandPattern`]).
//! - `effects`, `effect`, `programs`, `developer`: what a line does that matters, for the
//!   approval card ([`effects`], [`Effect`], [`Place`]); worded by the core's
//!   `command_line::effect_words`.
//! - [`path`]: the one way a word becomes a path (`~`, `$HOME`, `/proc/self/cwd`, `..`,
//!   links, values glued to options).
//! - [`words`]: a line cut into words as `sh` does (an argv), and words quoted back into one.
//!
//! Everything here reads the line once per nesting level (at most [`MAX_NESTING`] levels), so
//! the work is linear in the line's length (`benches/hostile.rs` measures 1 MB lines and
//! deep nesting).

mod developer;
mod effect;
mod effects;
mod grammar;
pub mod hard;
pub mod path;
mod pattern;
mod plain;
mod programs;
mod reading;
mod split;
pub mod words;
mod wrappers;

pub use effects::{effects, Effect, PathKind, Place, Target};
pub use hard::hard_denial;
pub use pattern::CommandPattern;
pub use plain::plain_commands;
use reading::expand;
pub use reading::{
    all_simple_commands, every_reading, goes_home, names_in, redirection_targets, Names, Readings,
};
use wrappers::*;

/// How many `sh -c` / `eval` / wrapper levels are looked into; deeper nesting is refused by
/// [`hard_denial`] rather than left unchecked.
pub const MAX_NESTING: usize = 8;

/// At most this many effects come out of [`effects`], then [`Effect::More`].
pub const MAX_EFFECTS: usize = 10;

/// The system's folders a command shut in sees as empty folders of its own (home folders,
/// removable drives, temporary folders, `/run` with its sockets), besides the person's own
/// home folder and Ask First's data folder wherever they are. The core's sandbox hides them;
/// the card's effects say a command's words lead there ([`Effect::Outside`]'s `hidden`).
pub const SHOWN_EMPTY: [&str; 7] = [
    "/home", "/root", "/media", "/mnt", "/tmp", "/var/tmp", "/run",
];
