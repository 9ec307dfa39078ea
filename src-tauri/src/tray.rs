//! The tray icon (StatusNotifierItem via libayatana-appindicator on Linux). Its menu shows how
//! many approvals are waiting, one item per waiting approval that opens the window at its card,
//! "Show Ask First" and "Quit"; the icon's title shows the count where the platform shows one.

use crate::window;
use askfirst_core::i18n::{tr, Arg};
use askfirst_protocol::event_names::FOCUS_APPROVAL;
use askfirst_protocol::ApprovalRequest;
use tauri::menu::{IsMenuItem, Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::{TrayIcon, TrayIconBuilder};
use tauri::{AppHandle, Emitter, Runtime};

/// Menu item ids.
pub mod ids {
    /// The "N approvals waiting" line; opens the window.
    pub const PENDING: &str = "pending";
    /// "…and N more in the window" after the listed approvals; opens the window.
    pub const MORE: &str = "more";
    /// "Show Ask First".
    pub const SHOW: &str = "show";
    /// "Quit".
    pub const QUIT: &str = "quit";
    /// Prefix of one waiting approval's item; the approval id follows.
    pub const APPROVAL_PREFIX: &str = "approval:";
}

/// The most approvals listed one by one in the menu.
pub const MAX_LISTED: usize = 10;

/// The label of the pending line for `count` waiting approvals.
pub fn pending_label(count: usize) -> String {
    tr("tray-pending", &[("count", Arg::from(count))])
}

/// The line after the [`MAX_LISTED`] approvals listed when `count` are waiting, if more are.
pub fn more_label(count: usize) -> Option<String> {
    (count > MAX_LISTED).then(|| tr("tray-more", &[("count", Arg::from(count - MAX_LISTED))]))
}

/// A menu label for one waiting approval: its summary as one line of at most 60 characters,
/// control, bidi and zero-width characters shown as their codes ([`askfirst_core::text::display_label`];
/// the card shows everything).
pub fn approval_label(request: &ApprovalRequest) -> String {
    let label = askfirst_core::text::display_label(&request.summary, 60);
    // GTK menus read "&" as the mark of a keyboard shortcut; "&&" shows one "&".
    tr("tray-review", &[("label", Arg::from(label))]).replace('&', "&&")
}

/// The label of "Show Ask First".
pub fn show_label() -> String {
    tr("tray-show", &[])
}

/// The label of "Quit".
pub fn quit_label() -> String {
    tr("tray-quit", &[])
}

/// The icon's title and tooltip for `count` waiting approvals: "Ask First", or with the count.
pub fn title(count: usize) -> String {
    tr("tray-tooltip", &[("count", Arg::from(count))])
}

/// Rebuilds the tray's menu and title in the current language, e.g. after
/// `askfirst_core::i18n::set_language` (the settings' language changed). Does nothing without
/// a tray or a backend.
pub fn relabel<R: Runtime>(app: &AppHandle<R>) {
    use tauri::Manager;
    let (Some(runtime), Some(tray)) = (
        app.try_state::<std::sync::Arc<askfirst_core::agent::AgentRuntime>>(),
        app.try_state::<AppTray<R>>(),
    ) else {
        return;
    };
    tray.set_pending(app, &runtime.list_pending_approvals());
}

/// The tray icon.
pub struct AppTray<R: Runtime> {
    icon: TrayIcon<R>,
}

fn build_menu<R: Runtime>(
    app: &AppHandle<R>,
    pending: &[ApprovalRequest],
) -> tauri::Result<Menu<R>> {
    let count = MenuItem::with_id(
        app,
        ids::PENDING,
        pending_label(pending.len()),
        !pending.is_empty(),
        None::<&str>,
    )?;
    let mut items: Vec<Box<dyn IsMenuItem<R>>> = vec![Box::new(count)];
    for request in pending.iter().take(MAX_LISTED) {
        items.push(Box::new(MenuItem::with_id(
            app,
            format!("{}{}", ids::APPROVAL_PREFIX, request.approval_id),
            approval_label(request),
            true,
            None::<&str>,
        )?));
    }
    if let Some(more) = more_label(pending.len()) {
        items.push(Box::new(MenuItem::with_id(
            app,
            ids::MORE,
            more,
            true,
            None::<&str>,
        )?));
    }
    items.push(Box::new(PredefinedMenuItem::separator(app)?));
    items.push(Box::new(MenuItem::with_id(
        app,
        ids::SHOW,
        show_label(),
        true,
        None::<&str>,
    )?));
    items.push(Box::new(MenuItem::with_id(
        app,
        ids::QUIT,
        quit_label(),
        true,
        None::<&str>,
    )?));
    let refs: Vec<&dyn IsMenuItem<R>> = items.iter().map(|i| i.as_ref()).collect();
    Menu::with_items(app, &refs)
}

impl<R: Runtime> AppTray<R> {
    /// Builds the tray icon with its menu.
    ///
    /// # Errors
    /// Tauri's error when the menu or icon cannot be made.
    pub fn build(app: &AppHandle<R>) -> tauri::Result<Self> {
        let mut builder = TrayIconBuilder::with_id("main")
            .tooltip(title(0))
            .title(title(0))
            .menu(&build_menu(app, &[])?)
            .on_menu_event(|app, event| {
                let id = event.id.as_ref();
                if let Some(approval) = id.strip_prefix(ids::APPROVAL_PREFIX) {
                    window::show_main(app);
                    let _ = app.emit(FOCUS_APPROVAL, approval.to_owned());
                    return;
                }
                match id {
                    ids::SHOW | ids::PENDING | ids::MORE => window::show_main(app),
                    ids::QUIT => {
                        window::save_size(app);
                        app.exit(0)
                    }
                    _ => {}
                }
            });
        if let Some(icon) = app.default_window_icon() {
            builder = builder.icon(icon.clone());
        }
        Ok(Self {
            icon: builder.build(app)?,
        })
    }

    /// Shows the waiting approvals in the menu and their count in the icon's title.
    pub fn set_pending(&self, app: &AppHandle<R>, pending: &[ApprovalRequest]) {
        match build_menu(app, pending) {
            Ok(menu) => {
                if let Err(error) = self.icon.set_menu(Some(menu)) {
                    eprintln!("askfirst: could not update the tray menu: {error}");
                }
            }
            Err(error) => eprintln!("askfirst: could not build the tray menu: {error}"),
        }
        let title = self::title(pending.len());
        let _ = self.icon.set_title(Some(title));
    }
}

/// Whether a tray host was last seen: 0 not known yet, 1 yes, 2 no.
static HOST_SEEN: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Whether the desktop shows tray icons, as last checked (`None` before the first check
/// ended). Checked in the background at start and after each use, so nothing waits for the bus.
pub fn host_seen() -> Option<bool> {
    match HOST_SEEN.load(std::sync::atomic::Ordering::SeqCst) {
        1 => Some(true),
        2 => Some(false),
        _ => None,
    }
}

/// Checks again, on a thread of its own, whether a tray host is there.
pub fn check_host_in_background() {
    let _ = std::thread::Builder::new()
        .name("tray-host-check".into())
        .spawn(|| {
            let seen = host_available();
            HOST_SEEN.store(
                if seen { 1 } else { 2 },
                std::sync::atomic::Ordering::SeqCst,
            );
        });
}

/// Whether something shows tray icons: a StatusNotifierWatcher owns its name on the session
/// bus (the StatusNotifierItem protocol libayatana-appindicator speaks, freedesktop.org
/// "StatusNotifierItem" specification). No session bus means no.
#[cfg(target_os = "linux")]
pub fn host_available() -> bool {
    use gio::prelude::*;
    let Ok(bus) = gio::bus_get_sync(gio::BusType::Session, gio::Cancellable::NONE) else {
        return false;
    };
    let Some(reply_type) = gio::glib::VariantTy::new("(b)").ok() else {
        return false;
    };
    bus.call_sync(
        Some("org.freedesktop.DBus"),
        "/org/freedesktop/DBus",
        "org.freedesktop.DBus",
        "NameHasOwner",
        Some(&("org.kde.StatusNotifierWatcher",).to_variant()),
        Some(reply_type),
        gio::DBusCallFlags::NONE,
        2000,
        gio::Cancellable::NONE,
    )
    .ok()
    .and_then(|reply| reply.get::<(bool,)>())
    .is_some_and(|(owned,)| owned)
}

/// Elsewhere the platform always has a place for tray icons.
#[cfg(not(target_os = "linux"))]
pub fn host_available() -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_menu_says_how_many_are_not_listed() {
        assert_eq!(pending_label(400), "400 approvals waiting");
        assert_eq!(more_label(MAX_LISTED), None);
        assert_eq!(
            more_label(MAX_LISTED + 1).as_deref(),
            Some("…and 1 more in the window")
        );
        assert_eq!(
            more_label(400).as_deref(),
            Some("…and 390 more in the window")
        );
    }
}
