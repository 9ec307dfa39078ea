//! The folder the agent works in, as the window shows it ("Working in: ~/Documents/Taxes"),
//! and whether the welcome of the first launch is to be shown.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The folder of the conversation in the window. Returned by the `get_folder`,
/// `pick_folder` and `use_demo_folder` commands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FolderView {
    /// The folder's full path.
    pub path: String,
    /// The path as a person reads it: the home folder as `~` (`~/Documents/Taxes`).
    pub display: String,
    /// Whether it is the demo folder (sample files kept inside Ask First's data folder).
    pub is_demo: bool,
    /// Whether `ASKFIRST_WORKSPACE` sets it for this launch (the window cannot change it).
    pub set_by_environment: bool,
    /// Whether the folder is no longer there (the conversation cannot go on until another
    /// folder is chosen).
    pub missing: bool,
    /// Whether choosing a folder now starts a new conversation (the one in the window has
    /// tasks in its own folder, which it keeps).
    pub change_starts_new_conversation: bool,
}

/// What `pick_folder` did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PickFolderResponse {
    /// The folder in force now (unchanged when the person closed the picker).
    pub folder: FolderView,
    /// Whether a folder was chosen (false: the picker was closed without choosing).
    pub chosen: bool,
}

/// Whether the welcome is to be shown: `get_welcome`'s answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WelcomeView {
    /// True on a first launch, until the person finishes or skips the welcome (never when
    /// `ASKFIRST_WORKSPACE` sets the folder: tests and power users).
    pub show: bool,
}
