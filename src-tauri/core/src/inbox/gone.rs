//! Requests of other agents that were waiting when Ask First last closed (quit, a crash,
//! `kill -9`): at start [`crate::audit::recover_orphans_listed`] records them as cancelled in
//! their logs, and [`GoneRequests`] keeps what it closed *at this start* for the window to say
//! so, with only "Dismiss" (the asking process stopped waiting; nothing was allowed).
//!
//! The list is made only from what this start closed, so a dismissed request never comes back:
//! its log already holds its `approval_decided` record, and the next start closes nothing of
//! it. (One not dismissed is not shown again after the next start either: it is the news of
//! one start.)

use crate::audit::ClosedOrphan;
use crate::sync::MutexExt;
use askfirst_protocol::{ApprovalId, ExternalAgent, GoneRequestView, GoneRequestsView, RunId};
use std::path::Path;
use std::sync::Mutex;

/// The most requests the window shows at once; the rest are counted ("and 3 more").
pub const SHOWN: usize = 20;
/// The most requests kept (what one start can find is bounded by what could wait at once,
/// [`super::MAX_IN_FLIGHT`], unless old logs were left by many crashes).
const KEPT: usize = 200;
/// The most bytes of a summary kept (the card's summary is about one line).
const SUMMARY_BYTES: usize = 400;

/// The other agents' requests this start found left waiting, until the person dismisses them.
#[derive(Debug, Default)]
pub struct GoneRequests {
    state: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    requests: Vec<GoneRequestView>,
    /// Found beyond [`KEPT`]: counted, never listed.
    beyond: usize,
}

impl GoneRequests {
    /// The list of what [`crate::audit::recover_orphans_listed`] closed in the other agents'
    /// logs, newest first: the agent from each log's name (`<agent>-<run id>.jsonl`, as
    /// [`super::Inbox`] names it; `None` for any other name), each summary cut to a few hundred
    /// bytes.
    pub fn from_closed(closed: Vec<ClosedOrphan>) -> Self {
        let mut requests: Vec<GoneRequestView> = closed
            .into_iter()
            .map(|orphan| {
                let agent = agent_of_log(&orphan.log);
                GoneRequestView {
                    approval_id: orphan.approval_id,
                    agent,
                    agent_name: agent.map(|a| a.display_name().to_owned()),
                    summary: crate::text::truncate_text(&orphan.summary, SUMMARY_BYTES),
                    asked_at: orphan.asked_at,
                }
            })
            .collect();
        requests.sort_by_key(|r| std::cmp::Reverse(r.asked_at));
        let beyond = requests.len().saturating_sub(KEPT);
        requests.truncate(KEPT);
        Self {
            state: Mutex::new(Kept { requests, beyond }),
        }
    }

    /// The first [`SHOWN`] requests and how many more there are.
    pub fn list(&self) -> GoneRequestsView {
        let kept = self.state.lock_or_recover();
        let shown: Vec<_> = kept.requests.iter().take(SHOWN).cloned().collect();
        let more = kept.requests.len() - shown.len() + kept.beyond;
        GoneRequestsView {
            requests: shown,
            more: u32::try_from(more).unwrap_or(u32::MAX),
        }
    }

    /// Takes `approval_id` off the list (nothing happens when it is not on it: dismissed
    /// already) and returns the list now.
    pub fn dismiss(&self, approval_id: ApprovalId) -> GoneRequestsView {
        self.state
            .lock_or_recover()
            .requests
            .retain(|r| r.approval_id != approval_id);
        self.list()
    }
}

/// The agent whose log is at `log`: its file name is `<agent slug>-<run id>.jsonl`.
fn agent_of_log(log: &Path) -> Option<ExternalAgent> {
    let stem = log.file_stem()?.to_str()?;
    ExternalAgent::ALL.into_iter().find(|agent| {
        stem.strip_prefix(agent.slug())
            .and_then(|rest| rest.strip_prefix('-'))
            .is_some_and(|run| run.parse::<RunId>().is_ok())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn orphan(log: &str, summary: &str, asked_at: u64) -> ClosedOrphan {
        ClosedOrphan {
            log: Path::new("/data/other-agents").join(log),
            approval_id: ApprovalId::new(),
            run_id: RunId::new(),
            summary: summary.to_owned(),
            asked_at,
        }
    }

    #[test]
    fn the_agent_comes_from_the_log_name_and_an_unknown_name_says_none() {
        let run = RunId::new();
        for (name, agent) in [
            (
                format!("claude-code-{run}.jsonl"),
                Some(ExternalAgent::ClaudeCode),
            ),
            (format!("codex-{run}.jsonl"), Some(ExternalAgent::Codex)),
            (format!("gemini-{run}.jsonl"), Some(ExternalAgent::Gemini)),
            (format!("{run}.jsonl"), None),
            ("claude-code-not-a-run.jsonl".to_owned(), None),
            (format!("claude-{run}.jsonl"), None),
        ] {
            assert_eq!(agent_of_log(Path::new(&name)), agent, "{name}");
        }
    }

    #[test]
    fn twenty_are_shown_newest_first_and_the_rest_counted_and_dismiss_takes_one_off() {
        let run = RunId::new();
        let closed: Vec<_> = (0..23u64)
            .map(|i| orphan(&format!("codex-{run}.jsonl"), &format!("ask {i}"), i))
            .collect();
        let gone = GoneRequests::from_closed(closed);
        let view = gone.list();
        assert_eq!(view.requests.len(), SHOWN);
        assert_eq!(view.more, 3);
        assert_eq!(view.requests[0].summary, "ask 22");
        assert_eq!(view.requests[0].agent_name.as_deref(), Some("Codex"));
        let first = view.requests[0].approval_id;
        let after = gone.dismiss(first);
        assert_eq!(after.requests.len(), SHOWN);
        assert_eq!(after.more, 2);
        assert!(after.requests.iter().all(|r| r.approval_id != first));
        // Dismissed already: nothing changes.
        assert_eq!(gone.dismiss(first), after);
    }

    #[test]
    fn a_long_summary_is_cut() {
        let gone = GoneRequests::from_closed(vec![orphan("x.jsonl", &"a".repeat(5000), 1)]);
        let view = gone.list();
        assert!(view.requests[0].summary.len() <= SUMMARY_BYTES + 3);
        assert_eq!(view.requests[0].agent, None);
    }
}
