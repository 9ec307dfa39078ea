//! Follows the core's events to keep the tray's count current and to ask for a notification
//! per request (`notify` tells a burst of them as one). The window takes the events itself,
//! with the `wait_run_events` command (a long poll of the event history), not from here: an
//! event emitted to the page is a script evaluated in it, and WebKit kept memory for each
//! (BENCHMARKS.md, "No growth: where the page's memory went").
//!
//! The tray is updated by a task of its own, at most one update at a time and always once more
//! after the latest change: a tray update waits for the GUI thread, and doing one per event on
//! the forwarding path made a burst of 1,000 approvals reach the window one every ~9 ms
//! (BENCHMARKS.md, "1,000 approvals at once"). It waits for a burst to settle
//! ([`TRAY_SETTLE`]) and rebuilds the menu off the async workers: six rebuilds during a burst
//! of 64 cards held the GUI thread for ~550 ms, and the page could not paint meanwhile
//! (BENCHMARKS.md, "The burst: where the events wait").

use crate::{notify, tray};
use askfirst_core::app::App;
use askfirst_protocol::{AgentEvent, SequencedEvent};
use std::sync::Arc;
use tauri::{AppHandle, Manager, Runtime};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::sync::Notify;

/// How long the tray waits after a change for the next before it rebuilds its menu.
pub const TRAY_SETTLE: std::time::Duration = std::time::Duration::from_millis(100);

/// The longest the tray's menu lags behind the first change of a burst.
pub const TRAY_SETTLE_AT_MOST: std::time::Duration = std::time::Duration::from_millis(1000);

/// Spawns the task that drains `events` until every sender is gone, and the task that keeps
/// the tray current.
pub fn spawn<R: Runtime>(app: AppHandle<R>, mut events: UnboundedReceiver<SequencedEvent>) {
    // `Notify` keeps one permit: however many changes come in while the tray is being updated,
    // they make one more update, which reads the list as it is then.
    let tray_changed = Arc::new(Notify::new());
    let changed = Arc::clone(&tray_changed);
    let tray_app = app.clone();
    let tray_task = tauri::async_runtime::spawn(async move {
        loop {
            changed.notified().await;
            // Until the burst is over: a change within TRAY_SETTLE of the last starts it again
            // (at most TRAY_SETTLE_AT_MOST after the first), so a model turn of 64 cards
            // rebuilds the menu once, not once per GUI-thread round.
            let first = tokio::time::Instant::now();
            loop {
                let left = TRAY_SETTLE_AT_MOST.saturating_sub(first.elapsed());
                let settle = tokio::time::sleep(TRAY_SETTLE.min(left));
                tokio::select! {
                    () = settle => break,
                    () = changed.notified() => {}
                }
            }
            // Tauri makes each menu item on the GUI thread and waits for it: on a blocking
            // thread, so the async workers (the agent's runs, this bridge) never wait for it.
            let app = tray_app.clone();
            let _ = tauri::async_runtime::spawn_blocking(move || update_tray(&app)).await;
        }
    });
    tauri::async_runtime::spawn(async move {
        let mut received = Vec::with_capacity(MAX_BATCH_EVENTS);
        while events.recv_many(&mut received, MAX_BATCH_EVENTS).await > 0 {
            forward(&app, &received, &tray_changed);
            received.clear();
        }
        tray_task.abort();
    });
}

/// The most events the bridge takes from its channel at once.
const MAX_BATCH_EVENTS: usize = 256;

/// Asks for a notification per new request and one tray update for all the approval events
/// that were waiting.
fn forward<R: Runtime>(app: &AppHandle<R>, events: &[SequencedEvent], tray_changed: &Notify) {
    let mut approvals_changed = false;
    for sequenced in events {
        match &sequenced.event {
            AgentEvent::ApprovalRequired(request) => {
                notify::approval_required(app, request);
                approvals_changed = true;
            }
            AgentEvent::ApprovalResolved(resolved) => {
                notify::approval_resolved(app, resolved.approval_id);
                approvals_changed = true;
            }
            // The window takes them with `wait_run_events`.
            AgentEvent::ApprovalExtended { .. }
            | AgentEvent::RunStarted { .. }
            | AgentEvent::AssistantMessage { .. }
            | AgentEvent::AssistantDelta { .. }
            | AgentEvent::ModelRetrying { .. }
            | AgentEvent::LogStatus { .. }
            | AgentEvent::SessionOpened { .. }
            | AgentEvent::ToolCallProposed { .. }
            | AgentEvent::ToolCallChanged { .. }
            | AgentEvent::ToolCallStarted { .. }
            | AgentEvent::ToolCallFinished { .. }
            | AgentEvent::RunFinished { .. } => {}
        }
    }
    if approvals_changed {
        tray_changed.notify_one();
    }
}

fn update_tray<R: Runtime>(app: &AppHandle<R>) {
    let (Some(backend), Some(tray)) = (
        app.try_state::<Arc<App>>(),
        app.try_state::<tray::AppTray<R>>(),
    ) else {
        return;
    };
    tray.set_pending(app, &backend.list_pending_approvals());
}
