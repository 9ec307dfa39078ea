//! How an MCP tool is treated, from the hints of its `annotations` and whether the user trusts
//! its server (MCP spec 2025-06-18, `ToolAnnotations`; DESIGN.md §4).

use askfirst_protocol::Risk;
use rmcp::model::ToolAnnotations;

/// The hints of a tool's `annotations` as the server sent them (`None`: not sent). They are
/// hints, not promises (MCP spec, `ToolAnnotations`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpHints {
    /// `title`: a human-readable title.
    pub title: Option<String>,
    /// `readOnlyHint`: the tool does not change its environment (spec default false).
    pub read_only: Option<bool>,
    /// `destructiveHint`: it may delete or overwrite (spec default true).
    pub destructive: Option<bool>,
    /// `idempotentHint`: calling it again with the same arguments changes nothing more
    /// (spec default false).
    pub idempotent: Option<bool>,
    /// `openWorldHint`: it reaches beyond a closed set of things, such as the internet (spec
    /// default true).
    pub open_world: Option<bool>,
}

/// How a tool with these hints is treated, for a server that is or is not `trusted`:
/// whether it counts as read-only, and its risk.
///
/// - read-only and [`Risk::Low`] only when the server is trusted and `readOnlyHint` is true;
/// - otherwise [`Risk::Medium`] when the hints say explicitly neither destructive nor
///   open-world, and [`Risk::High`] when either is true or missing (the spec's defaults).
pub fn treatment(hints: &McpHints, trusted: bool) -> (bool, Risk) {
    if trusted && hints.read_only == Some(true) {
        return (true, Risk::Low);
    }
    let risk = match (hints.destructive, hints.open_world) {
        (Some(false), Some(false)) => Risk::Medium,
        _ => Risk::High,
    };
    (false, risk)
}

/// The hints of `annotations`; the title falls back to the tool's own `title`.
pub(super) fn hints(annotations: Option<&ToolAnnotations>, tool_title: Option<&str>) -> McpHints {
    let title = annotations
        .and_then(|a| a.title.as_deref())
        .or(tool_title)
        .map(str::to_owned);
    match annotations {
        Some(a) => McpHints {
            title,
            read_only: a.read_only_hint,
            destructive: a.destructive_hint,
            idempotent: a.idempotent_hint,
            open_world: a.open_world_hint,
        },
        None => McpHints {
            title,
            ..McpHints::default()
        },
    }
}
