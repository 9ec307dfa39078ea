//! Run supervision: every run task has a supervisor that waits for it, and every run ends
//! with exactly one `RunFinished`, however its task ends.
//!
//! A root [`CancellationToken`] has a child per run (Stop cancels the child; quitting cancels
//! the root), and a [`TaskTracker`] holds the supervisors, so quitting waits for the runs
//! without polling (the rmcp / codex shape). A run ends itself by [`Supervisor::end`]ing under
//! the lock that [`Supervisor::begin`] takes, so the next run cannot start before the last
//! one's end has been announced.

use super::RunError;
use crate::sync::MutexExt;
use askfirst_protocol::RunId;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Mutex, MutexGuard};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// The runs going on, their tokens and their supervisors.
pub(super) struct Supervisor {
    tracker: TaskTracker,
    root: CancellationToken,
    active: Mutex<HashMap<RunId, CancellationToken>>,
}

impl Supervisor {
    pub(super) fn new() -> Self {
        Self {
            tracker: TaskTracker::new(),
            root: CancellationToken::new(),
            active: Mutex::new(HashMap::new()),
        }
    }

    fn active(&self) -> MutexGuard<'_, HashMap<RunId, CancellationToken>> {
        // Each critical section is one insert, remove or lookup: a panic cannot leave it
        // half-done.
        self.active.lock_or_recover()
    }

    /// Whether no run is going on.
    pub(super) fn is_idle(&self) -> bool {
        self.active().is_empty()
    }

    /// Takes the one slot for run `id`: its token (a child of the root), or
    /// [`RunError::Busy`] while another run goes on.
    pub(super) fn begin(&self, id: RunId) -> Result<CancellationToken, RunError> {
        let mut active = self.active();
        if !active.is_empty() {
            return Err(RunError::Busy);
        }
        let token = self.root.child_token();
        active.insert(id, token.clone());
        Ok(token)
    }

    /// Stops run `id`; whether it was going on.
    pub(super) fn cancel(&self, id: RunId) -> bool {
        match self.active().get(&id) {
            Some(token) => {
                token.cancel();
                true
            }
            None => false,
        }
    }

    /// Stops every run, and every run started from now on.
    pub(super) fn cancel_all(&self) {
        self.root.cancel();
    }

    /// Ends run `id` if it is still going: removes it and, under the same lock (so no run
    /// starts in between), calls `announce`, which must not block (it emits the end). Returns
    /// whether it was still going (at most one caller gets `true`).
    pub(super) fn end(&self, id: RunId, announce: impl FnOnce()) -> bool {
        let mut active = self.active();
        if active.remove(&id).is_none() {
            return false;
        }
        announce();
        true
    }

    /// Spawns a run's task on `handle` with a supervisor that waits for it and then calls
    /// `after` with what went wrong, if the task panicked: `after` ends the run if the task did
    /// not ([`Supervisor::end`] makes that a no-op when it did).
    pub(super) fn spawn(
        &self,
        handle: &tokio::runtime::Handle,
        run: impl Future<Output = ()> + Send + 'static,
        after: impl FnOnce(Option<String>) + Send + 'static,
    ) {
        let task = handle.spawn(run);
        self.tracker.spawn_on(
            async move {
                let panicked = task.await.err().map(|error| error.to_string());
                after(panicked);
            },
            handle,
        );
    }

    /// Waits until every supervised run has ended, at most `limit`; whether they all did.
    /// No run should start after this (the app is closing): the tracker is closed.
    pub(super) async fn wait(&self, limit: std::time::Duration) -> bool {
        self.tracker.close();
        tokio::time::timeout(limit, self.tracker.wait())
            .await
            .is_ok()
    }
}
