//! Every sentence of Undo and Activity that the core says to people, in one place; the words
//! themselves are in `locales/<tag>/app.ftl` (keys `undo-…`), rendered in the current language
//! ([`crate::i18n`]). Names of files are as the folder spells them.

use crate::i18n::{language, tr, Arg, Language};

/// A size as people read it: "512 bytes", "3.4 KB", "4.2 GB" (powers of 1000, one decimal,
/// the decimal mark of the current language: "4,2 GB" in Portuguese).
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return tr("undo-bytes", &[("count", Arg::from(bytes))]);
    }
    #[allow(clippy::cast_precision_loss)]
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    let number = format!("{value:.1}");
    let number = match language() {
        Language::PtBr => number.replace('.', ","),
        Language::En | Language::ZhCn => number,
    };
    format!("{number} {}", UNITS[unit])
}

/// The card's line for a change whose file is too large to keep a copy of.
pub fn too_large_on_card(bytes: u64) -> String {
    tr(
        "undo-too-large-on-card",
        &[("size", Arg::from(size(bytes)))],
    )
}

/// Activity's reason for the same.
pub fn too_large(bytes: u64) -> String {
    tr("undo-too-large", &[("size", Arg::from(size(bytes)))])
}

/// Activity's reason for a command.
pub fn command() -> String {
    tr("undo-command", &[])
}

/// Activity's reason for a tool of an MCP server (another program).
pub fn other_program() -> String {
    tr("undo-other-program", &[])
}

/// Activity's reason for a file change with no before-copy (made before Undo existed).
pub fn no_copy() -> String {
    tr("undo-no-copy", &[])
}

/// What the model (in English) and the person (in theirs) are told when the before-copy could
/// not be written, in `language`.
pub fn copy_refused_in(language: crate::i18n::Language, file: &str) -> String {
    crate::i18n::tr_in(language, "undo-copy-refused", &[("file", Arg::from(file))])
}

/// What undoing would lose: the file was changed after the agent replaced or edited it.
pub fn changed_since(file: &str) -> String {
    tr("undo-changed-since", &[("file", Arg::from(file))])
}

/// The same for a file the agent created.
pub fn changed_since_created(file: &str) -> String {
    tr("undo-changed-since-created", &[("file", Arg::from(file))])
}

/// After the first few of a task's files changed since: how many more were.
pub fn changed_since_more(count: usize) -> String {
    tr("undo-changed-since-more", &[("count", Arg::from(count))])
}

/// One change undone.
pub fn undone(summary: &str) -> String {
    tr(
        "undo-undone",
        &[("summary", Arg::from(summary.trim_end_matches(['.', '。'])))],
    )
}

/// A whole task undone.
pub fn task_undone(count: usize) -> String {
    tr("undo-task-undone", &[("count", Arg::from(count))])
}

/// What the model (in English) and the person (in theirs) are told when the change's record
/// could not be written, in `language`.
pub fn not_recorded_in(language: crate::i18n::Language) -> String {
    crate::i18n::tr_in(language, "undo-not-recorded", &[])
}
