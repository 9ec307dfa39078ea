//! The built-in hard denials (DESIGN.md §4, layer 1): what no rule or grant can allow, however
//! a call spells it. Paths outside the workspace, Ask First's own files (compared by identity
//! on disk), and the command lines `crate::command_line::hard_denial` refuses.

use super::{refusal, ArgumentKind, CallFacts, Policy};
use askfirst_protocol::Wording;
use std::path::Path;

/// The built-in hard denials, as documented to users.
pub const HARD_DENIALS: &[&str] = &[
    "A path outside the workspace folder (absolute, `..`, or a symlink that leads out) is \
     never used.",
    "Ask First's own files (settings, rules, session logs) are never read or changed by the \
     agent, however they are reached (another spelling, a second name, a command, an MCP \
     server).",
    "Commands that wipe or format disks, stop the computer or every program, or delete a \
     whole folder outside the workspace (`rm -rf /home/*`, `mkfs`, `dd` onto a device, \
     `shutdown`, `reboot`, `kill -9 -1`, a fork bomb) are never run, also when hidden after \
     `;`, `&&`, a pipe, `$(…)`, `sudo`, `xargs`, `find -exec` or inside `sh -c`.",
];

/// The reason given when a call would reach Ask First's own files (a sentence key).
const OWN_FILES: &str = "refusal.own_files";

/// The reason given when a call names more texts than are checked for paths (a sentence key).
const TOO_MANY_TEXTS: &str = "refusal.too_many_texts";

impl Policy {
    /// The reason the hard denials refuse this call, if they do, as a sentence.
    pub(super) fn hard_denial(&self, facts: &CallFacts<'_>) -> Option<Wording> {
        for argument in facts.main_arguments {
            match argument.kind {
                ArgumentKind::Path | ArgumentKind::MentionedPath => {
                    let Some(resolved) = &argument.resolved else {
                        if argument.kind == ArgumentKind::MentionedPath {
                            if argument.text.is_empty() {
                                return Some(refusal(TOO_MANY_TEXTS, []));
                            }
                            continue;
                        }
                        return Some(refusal(
                            "refusal.outside_workspace",
                            [("path", argument.text.clone())],
                        ));
                    };
                    let changes = !facts.read_only;
                    if self.own_files(resolved, changes) {
                        return Some(refusal(OWN_FILES, []));
                    }
                }
                ArgumentKind::Command => {
                    if let Some(key) = crate::command_line::hard_denial(&argument.text) {
                        return Some(refusal(key, []));
                    }
                }
                ArgumentKind::Url => {}
            }
        }
        None
    }

    /// Whether a program working in `folder` (resolved) could reach Ask First's own files
    /// without naming them: the folder is one of them, or holds the data folder (compared by
    /// identity, like [`Self::own_files`]). The demo workspace inside the data folder holds
    /// none of them.
    pub fn holds_own_files(&self, folder: &Path) -> bool {
        let Some((data, _)) = &self.protected else {
            return false;
        };
        self.own_files(folder, false)
            || crate::identity::FileId::of(folder)
                .is_some_and(|id| crate::identity::is_within(data, id))
    }

    /// Whether `resolved` is one of Ask First's own files or folders, compared by identity on
    /// disk: inside the data folder (however it is spelled or reached: other case, a bind
    /// mount, a second name of one of its files), or — when `changes` — a folder that holds
    /// it (moving or deleting that would move or delete it). The demo workspace inside the
    /// data folder is the agent's to use.
    fn own_files(&self, resolved: &Path, changes: bool) -> bool {
        use crate::identity::{contains_identity, first_ancestor_among, is_within, FileId};

        let Some((data, workspace)) = &self.protected else {
            return false;
        };
        // The data folder as its path leads now, and as it was at start (if it was moved).
        let data_ids: Vec<FileId> = FileId::of(data)
            .into_iter()
            .chain(self.data_id_at_start)
            .collect();
        let Some(&data_id) = data_ids.first() else {
            return false;
        };
        let workspace_id = FileId::of(workspace);
        // The workspace inside the data folder (the demo) is the agent's; the workspace as a
        // whole when it *is* the data folder is not.
        let own_workspace =
            workspace_id.filter(|id| !data_ids.contains(id) && is_within(workspace, data_id));
        let wanted: Vec<FileId> = own_workspace
            .iter()
            .copied()
            .chain(data_ids.clone())
            .collect();
        if first_ancestor_among(resolved, &wanted).is_some_and(|id| data_ids.contains(&id)) {
            return true;
        }
        if changes {
            if let Some(target) = FileId::of_link(resolved).or_else(|| FileId::of(resolved)) {
                if is_within(data, target) {
                    return true;
                }
            }
        }
        // A second name (hard link) of a file of the data folder, anywhere.
        if crate::identity::has_other_names(resolved) {
            if let Some(file) = FileId::of(resolved) {
                return contains_identity(data, file, own_workspace, 3, 50_000);
            }
        }
        false
    }
}
