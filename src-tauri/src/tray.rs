//! The tray icon (StatusNotifierItem via libayatana-appindicator on Linux). Its menu shows how
//! many approvals are waiting, "Show Ask First" and "Quit"; the icon's title shows the count
//! where the platform shows one.

use crate::window;
use tauri::menu::{Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::{TrayIcon, TrayIconBuilder};
use tauri::{AppHandle, Runtime};

/// Menu item ids.
pub mod ids {
    /// The "N approvals waiting" line; opens the window.
    pub const PENDING: &str = "pending";
    /// "Show Ask First".
    pub const SHOW: &str = "show";
    /// "Quit".
    pub const QUIT: &str = "quit";
}

/// The label of the pending line for `count` waiting approvals.
pub fn pending_label(count: usize) -> String {
    match count {
        0 => "No approvals waiting".to_owned(),
        1 => "1 approval waiting".to_owned(),
        n => format!("{n} approvals waiting"),
    }
}

/// The tray icon and the menu item that shows the count.
pub struct AppTray<R: Runtime> {
    icon: TrayIcon<R>,
    pending: MenuItem<R>,
}

impl<R: Runtime> AppTray<R> {
    /// Builds the tray icon with its menu.
    ///
    /// # Errors
    /// Tauri's error when the menu or icon cannot be made.
    pub fn build(app: &AppHandle<R>) -> tauri::Result<Self> {
        let pending = MenuItem::with_id(app, ids::PENDING, pending_label(0), false, None::<&str>)?;
        let show = MenuItem::with_id(app, ids::SHOW, "Show Ask First", true, None::<&str>)?;
        let quit = MenuItem::with_id(app, ids::QUIT, "Quit", true, None::<&str>)?;
        let separator = PredefinedMenuItem::separator(app)?;
        let menu = Menu::with_items(app, &[&pending, &separator, &show, &quit])?;
        let mut builder = TrayIconBuilder::with_id("main")
            .tooltip("Ask First")
            .title("Ask First")
            .menu(&menu)
            .on_menu_event(|app, event| match event.id.as_ref() {
                ids::SHOW | ids::PENDING => window::show_main(app),
                ids::QUIT => app.exit(0),
                _ => {}
            });
        if let Some(icon) = app.default_window_icon() {
            builder = builder.icon(icon.clone());
        }
        Ok(Self {
            icon: builder.build(app)?,
            pending,
        })
    }

    /// Shows `count` waiting approvals in the menu and the icon's title.
    pub fn set_pending(&self, count: usize) {
        let label = pending_label(count);
        if let Err(error) = self.pending.set_text(&label) {
            eprintln!("askfirst: could not update the tray menu: {error}");
        }
        let _ = self.pending.set_enabled(count > 0);
        let title = if count == 0 {
            "Ask First".to_owned()
        } else {
            format!("Ask First ({count})")
        };
        let _ = self.icon.set_title(Some(title));
    }
}
