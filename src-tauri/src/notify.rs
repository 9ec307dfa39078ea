//! Native notifications (freedesktop Desktop Notifications over D-Bus on Linux, through
//! `tauri-plugin-notification`). One per approval request: the title says the app needs an
//! OK, the body is the plain summary, never the raw arguments.

use askfirst_protocol::ApprovalRequest;
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_notification::{Notification, NotificationExt};

/// The notification's title.
pub const TITLE: &str = "Ask First needs your OK";

/// When to send notifications (`ASKFIRST_NOTIFY`: `always`, `unfocused` — the default — or
/// `never`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotifyWhen {
    /// For every request.
    Always,
    /// Only when the window is hidden, minimised or in the background.
    Unfocused,
    /// Never.
    Never,
}

/// The notification setting in force, changeable from the settings screen.
pub struct NotifySetting(std::sync::Mutex<NotifyWhen>);

impl NotifySetting {
    /// Starts as `when`.
    pub fn new(when: NotifyWhen) -> Self {
        Self(std::sync::Mutex::new(when))
    }
    /// The setting now.
    pub fn get(&self) -> NotifyWhen {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
    /// Changes it.
    pub fn set(&self, when: NotifyWhen) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = when;
    }
}

impl NotifyWhen {
    /// The setting's name as written in settings.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Always => "always",
            Self::Unfocused => "unfocused",
            Self::Never => "never",
        }
    }

    /// Parses a setting value; `None` for an unknown one.
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim() {
            "always" => Some(Self::Always),
            "unfocused" => Some(Self::Unfocused),
            "never" => Some(Self::Never),
            _ => None,
        }
    }
}

/// Sends the notification for `request` if the setting and the window's focus say so. Without
/// the plugin (tests) or a notification service it does nothing; it never blocks the approval
/// flow. One per approval: the bridge calls it once per `ApprovalRequired`.
pub fn approval_required<R: Runtime>(app: &AppHandle<R>, request: &ApprovalRequest) {
    if app.try_state::<Notification<R>>().is_none() {
        return;
    }
    let when = app
        .try_state::<NotifySetting>()
        .map(|w| w.get())
        .unwrap_or(NotifyWhen::Unfocused);
    let window_in_front = || {
        app.get_webview_window(crate::window::MAIN)
            .map(|w| w.is_visible().unwrap_or(false) && w.is_focused().unwrap_or(false))
            .unwrap_or(false)
    };
    match when {
        NotifyWhen::Never => return,
        NotifyWhen::Unfocused if window_in_front() => return,
        NotifyWhen::Always | NotifyWhen::Unfocused => {}
    }
    let body = body_text(&request.summary);
    if let Err(error) = app.notification().builder().title(TITLE).body(body).show() {
        eprintln!("askfirst: could not show a notification: {error}");
    }
}

/// The summary made safe for a notification body: the freedesktop spec lets servers read a
/// small markup language in the body, so `&`, `<` and `>` are escaped; control, bidi and
/// zero-width characters are dropped so the text cannot hide or reorder itself; long text is
/// cut at 200 characters with an ellipsis (the card shows it whole).
///
/// Source: Desktop Notifications Specification 1.2, "Markup".
pub fn body_text(summary: &str) -> String {
    const MAX_CHARS: usize = 200;
    let clean: String = summary
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .filter(|c| !is_invisible_format(*c))
        .collect();
    let mut cut: String = clean.chars().take(MAX_CHARS).collect();
    if clean.chars().count() > MAX_CHARS {
        cut.push('…');
    }
    cut.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Bidi controls and zero-width characters (Unicode general category Cf that matter here).
pub fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}' | '\u{FEFF}' | '\u{061C}' | '\u{00AD}')
}

/// Tells the person, once per launch, that closing the window left Ask First running in the
/// tray.
pub fn still_running<R: Runtime>(app: &AppHandle<R>) {
    if app.try_state::<Notification<R>>().is_none() {
        return;
    }
    let body =
        "Ask First keeps working in the background and will ask here when it needs your OK. \
                Open it from the tray icon or start it again; quit it from the tray menu.";
    if let Err(error) = app
        .notification()
        .builder()
        .title("Ask First is still running")
        .body(body)
        .show()
    {
        eprintln!("askfirst: could not show a notification: {error}");
    }
}
