//! Forwards the core's events, in order, to the window (`run-event`, `approval-required`,
//! `approval-resolved`), keeps the tray's count current, and sends a notification per request.

use crate::{notify, tray};
use askfirst_core::agent::AgentRuntime;
use askfirst_protocol::event_names::{APPROVAL_REQUIRED, APPROVAL_RESOLVED, RUN_EVENT};
use askfirst_protocol::{AgentEvent, SequencedEvent};
use std::sync::Arc;
use tauri::{AppHandle, Emitter, Manager, Runtime};
use tokio::sync::mpsc::UnboundedReceiver;

/// Spawns the task that drains `events` until every sender is gone.
pub fn spawn<R: Runtime>(app: AppHandle<R>, mut events: UnboundedReceiver<SequencedEvent>) {
    tauri::async_runtime::spawn(async move {
        while let Some(event) = events.recv().await {
            forward(&app, &event);
        }
    });
}

/// Forwards one event.
pub fn forward<R: Runtime>(app: &AppHandle<R>, sequenced: &SequencedEvent) {
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
            update_tray(app);
        }
        AgentEvent::ApprovalResolved(resolved) => {
            if let Err(error) = app.emit(APPROVAL_RESOLVED, resolved) {
                eprintln!("askfirst: could not emit {APPROVAL_RESOLVED}: {error}");
            }
            notify::approval_resolved(app, resolved.approval_id);
            update_tray(app);
        }
        AgentEvent::RunStarted { .. }
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
