//! The vocabulary Ask First's core, shell and UI share: plain serde types, no runtime.
//!
//! Everything that crosses the IPC boundary between the Rust backend and the webview is defined
//! here and exported to TypeScript with `ts-rs` into `ui/src/lib/bindings/` (committed; the
//! `bindings_are_current` test fails when they drift; `make bindings` regenerates them).
//!
//! Words follow the field's usage: a *session* is a conversation, a *run* one agent turn from a
//! user message to a final answer, a *step* one model call, a *tool call* what the model asked to
//! do, an *approval* a pending or resolved request for the user's OK, a *decision* what the user
//! said, an *outcome* how the approval ended.

use ts_rs::TS;

mod activity;
mod approval;
mod command;
mod event;
mod folder;
mod ids;
mod inbox;
pub mod language;
mod probe;
mod rules;
mod settings;
mod workers;

pub use activity::*;
pub use approval::*;
pub use command::*;
pub use event::*;
pub use folder::*;
pub use ids::*;
pub use inbox::*;
pub use language::Language;
pub use probe::*;
pub use rules::*;
pub use settings::*;
pub use workers::*;

/// Event names the shell emits to the webview.
pub mod event_names {
    /// Payload: [`crate::ApprovalRequest`].
    pub const APPROVAL_REQUIRED: &str = "approval-required";
    /// Payload: [`crate::ApprovalResolvedEvent`].
    pub const APPROVAL_RESOLVED: &str = "approval-resolved";
    /// Payload: [`crate::SequencedEvent`].
    pub const RUN_EVENT: &str = "run-event";
    /// Payload: a list of [`crate::SequencedEvent`], in the order the core emitted them (the
    /// approval variants inside are what `approval-required` and `approval-resolved` carry).
    /// The shell no longer emits it: the window takes the events with the `wait_run_events`
    /// command (a long poll), because WebKit kept memory for every script an event was
    /// delivered in (BENCHMARKS.md, "No growth: where the page's memory went"). The window
    /// still takes it, and the three single events, from whatever delivers them (the
    /// benchmark's fed events).
    pub const RUN_EVENTS: &str = "run-events";
    /// Payload: the approval id as a string. Sent when the person chose a request in the tray
    /// or a notification: the window scrolls to that card and focuses it.
    pub const FOCUS_APPROVAL: &str = "focus-approval";
    /// No payload. Sent when the person closed the window on a desktop with no tray to bring
    /// it back from: it was minimised instead, and the window says why and where Quit is.
    pub const CLOSE_KEPT: &str = "close-kept";
}

/// Writes the TypeScript declaration of every type that crosses IPC, and of the types they use,
/// into `dir` (one `.ts` file each).
///
/// # Errors
/// The `ts-rs` export error (I/O or formatting).
pub fn export_bindings(dir: &std::path::Path) -> Result<(), ts_rs::ExportError> {
    let cfg = ts_rs::Config::new().with_out_dir(dir);
    macro_rules! export {
        ($($t:ty),* $(,)?) => { $( <$t as TS>::export_all(&cfg)?; )* };
    }
    export!(
        ApprovalRequest,
        ApprovalResolvedEvent,
        AgentEvent,
        Decision,
        Outcome,
        StartRunRequest,
        StartRunResponse,
        ResolveApprovalRequest,
        CancelRunRequest,
        WaitRunEventsRequest,
        RunEventsPage,
        CommandError,
        ErrorCode,
        RunStatus,
        ToolCallStatus,
        SequencedEvent,
        Grant,
        RevokeGrantRequest,
        SetSessionPolicyRequest,
        SessionSummary,
        OpenSessionRequest,
        SettingsView,
        Language,
        SaveSettingsRequest,
        RemoveRuleRequest,
        McpServerView,
        McpEnvEntry,
        SaveMcpServerRequest,
        RemoveMcpServerRequest,
        SessionPolicy,
        PolicyLayer,
        CallDetail,
        CallChange,
        CommandEffect,
        NotRun,
        Wording,
        ProviderKind,
        ProviderSetting,
        ProviderInfo,
        NotifyWhen,
        NotificationApprovals,
        StartAtLoginRequest,
        WholeRange,
        McpServerState,
        RulesView,
        AddRuleRequest,
        ChangeRuleRequest,
        TestConnectionRequest,
        ConnectionOutcome,
        ConnectionTestResult,
        FindLocalModelsRequest,
        LocalModels,
        FolderView,
        PickFolderResponse,
        WelcomeView,
        OtherAgentView,
        WorkerView,
        WorkersView,
        ChooseWorkerRequest,
        OtherAgentRequest,
        GoneRequestView,
        GoneRequestsView,
        DismissGoneRequest,
        ActivityEntry,
        ActivityState,
        AllowedBy,
        UndoChangeRequest,
        UndoTaskRequest,
        UndoResponse,
    );
    Ok(())
}
