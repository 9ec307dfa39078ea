//! Every sentence of Undo and Activity that the core says to people, in one place (so the
//! translations can take them over). Names of files are as the folder spells them.

use crate::text::plural;

/// A size as people read it: "512 bytes", "3.4 KB", "4.2 GB" (powers of 1000, one decimal).
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return plural(bytes, "byte", "bytes");
    }
    #[allow(clippy::cast_precision_loss)]
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// The card's line for a change whose file is too large to keep a copy of.
pub fn too_large_on_card(bytes: u64) -> String {
    format!(
        "This change cannot be undone: the file is {}, too large for Ask First to keep a copy of.",
        size(bytes)
    )
}

/// Activity's reason for the same.
pub fn too_large(bytes: u64) -> String {
    format!(
        "The file was {}, too large for Ask First to keep a copy of.",
        size(bytes)
    )
}

/// Activity's reason for a command.
pub const COMMAND: &str =
    "Commands cannot be undone: Ask First cannot see everything a command changed.";

/// Activity's reason for a tool of an MCP server (another program).
pub const OTHER_PROGRAM: &str =
    "Ask First cannot undo what another program's tool did; it can only show what the card said.";

/// Activity's reason for a file change with no before-copy (made before Undo existed).
pub const NO_COPY: &str =
    "Ask First kept no copy from before this change (it was made before Undo existed).";

/// What the model and the person are told when the before-copy could not be written.
pub fn copy_refused(file: &str) -> String {
    format!(
        "Ask First could not keep a copy of {file} to undo this change (the disk may be full), \
         so it did not change the file. Free some space, then try again."
    )
}

/// What undoing would lose: the file was changed after the agent replaced or edited it.
pub fn changed_since(file: &str) -> String {
    format!(
        "{file} was changed after the agent's change. Undoing puts back the version from \
         before the agent's change, and those later changes will be lost."
    )
}

/// The same for a file the agent created.
pub fn changed_since_created(file: &str) -> String {
    format!(
        "{file} was changed after the agent created it. Undoing moves it to the trash with \
         those changes (you can restore it from there)."
    )
}

/// One change undone.
pub fn undone(summary: &str) -> String {
    format!("Undone: {}.", summary.trim_end_matches('.'))
}

/// A whole task undone.
pub fn task_undone(count: usize) -> String {
    format!(
        "Undid the task's {}, newest first.",
        plural(count, "change", "changes")
    )
}

/// What the model and the person are told when the change's record could not be written.
pub const NOT_RECORDED: &str = "Ask First could not write this change down in the \
     conversation's history, so it did not make it. Free some space, then try again.";
