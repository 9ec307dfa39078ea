//! Forwards the core's events, in order, to the window (`run-event`, `approval-required`,
//! `approval-resolved`), keeps the tray's count current, and sends a notification per request.
//!
//! The tray is updated by a task of its own, at most one update at a time and always once more
//! after the latest change: a tray update waits for the GUI thread, and doing one per event on
//! the forwarding path made a burst of 1,000 approvals reach the window one every ~9 ms
//! (BENCHMARKS.md, "1,000 approvals at once").

use crate::{notify, tray};
use askfirst_core::agent::AgentRuntime;
use askfirst_protocol::event_names::{APPROVAL_REQUIRED, APPROVAL_RESOLVED, RUN_EVENT};
use askfirst_protocol::{AgentEvent, SequencedEvent};
use std::sync::Arc;
use tauri::{AppHandle, Emitter, Manager, Runtime};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::sync::Notify;

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
            update_tray(&tray_app);
        }
    });
    tauri::async_runtime::spawn(async move {
        while let Some(event) = events.recv().await {
            forward(&app, &event, &tray_changed);
        }
        tray_task.abort();
    });
}

/// Forwards one event; an approval event also asks for a tray update.
fn forward<R: Runtime>(app: &AppHandle<R>, sequenced: &SequencedEvent, tray_changed: &Notify) {
    // A window that is gone or not yet loaded recovers with `list_run_events` and
    // `list_pending_approvals`.
    if let Err(error) = app.emit(RUN_EVENT, sequenced) {
        eprintln!("askfirst: could not emit {RUN_EVENT}: {error}");
    }
    match &sequenced.event {
        AgentEvent::ApprovalRequired(request) => {
            if let Err(error) = app.emit(APPROVAL_REQUIRED, request) {
                eprintln!("askfirst: could not emit {APPROVAL_REQUIRED}: {error}");
            }
            notify::approval_required(app, request);
            tray_changed.notify_one();
        }
        AgentEvent::ApprovalResolved(resolved) => {
            if let Err(error) = app.emit(APPROVAL_RESOLVED, resolved) {
                eprintln!("askfirst: could not emit {APPROVAL_RESOLVED}: {error}");
            }
            notify::approval_resolved(app, resolved.approval_id);
            tray_changed.notify_one();
        }
        // The window learns it from `run-event` (and `list_pending_approvals` after a reload).
        AgentEvent::ApprovalExtended { .. }
        | AgentEvent::RunStarted { .. }
        | AgentEvent::AssistantMessage { .. }
        | AgentEvent::AssistantDelta { .. }
        | AgentEvent::LogStatus { .. }
        | AgentEvent::SessionOpened { .. }
        | AgentEvent::ToolCallProposed { .. }
        | AgentEvent::ToolCallStarted { .. }
        | AgentEvent::ToolCallFinished { .. }
        | AgentEvent::RunFinished { .. } => {}
    }
}

fn update_tray<R: Runtime>(app: &AppHandle<R>) {
    let (Some(runtime), Some(tray)) = (
        app.try_state::<Arc<AgentRuntime>>(),
        app.try_state::<tray::AppTray<R>>(),
    ) else {
        return;
    };
    tray.set_pending(app, &runtime.list_pending_approvals());
}
