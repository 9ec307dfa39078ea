//! `askfirst-hook`: the small program another agent on this computer runs as its permission
//! hook, so that the person answers its requests on Ask First's card.
//!
//! - [`agents`]: each agent's hook format — reading its JSON on standard input into an
//!   [`askfirst_protocol::InboxRequest`], and writing the decision back in its own words.
//! - [`client`]: the per-user socket of the running Ask First, and one request over it.
//! - [`install`]: adding Ask First's hook entry to an agent's user settings and removing
//!   exactly that again (the CLI's `install` / `uninstall` and Settings' Connect / Disconnect).
//!
//! No Tauri and no async runtime here: the hook starts and ends once per tool call.

pub mod agents;
pub mod client;
pub mod install;
