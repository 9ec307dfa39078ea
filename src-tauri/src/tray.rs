//! The tray icon (StatusNotifierItem via libayatana-appindicator on Linux). Its menu shows how
//! many approvals are waiting, one item per waiting approval that opens the window at its card,
//! "Show Ask First" and "Quit". While anything waits the icon itself changes (the app's icon
//! with a mark, [`with_mark`]) and its title and tooltip say how many wait, where the platform
//! shows them; it changes back when nothing waits.

use crate::window;
use askfirst_core::i18n::{tr, Arg};
use askfirst_protocol::event_names::FOCUS_APPROVAL;
use askfirst_protocol::ApprovalRequest;
use std::sync::atomic::{AtomicBool, Ordering};
use tauri::image::Image;
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

/// The icon's title and tooltip for `count` waiting approvals: "Ask First", or "Ask First — 2
/// requests waiting for your OK".
pub fn title(count: usize) -> String {
    tr("tray-tooltip", &[("count", Arg::from(count))])
}

/// The mark's colour while something waits (sRGB): a red that stands out on the icon's blue
/// and on light and dark panels, with a white ring around it ([`with_mark`]).
const MARK: [u8; 3] = [0xE0, 0x31, 0x2B];

/// The app's icon with a mark: a red dot with a white ring in its top right corner, a third
/// of its width across, as panels mark an app that wants attention. `rgba`: the icon's pixels,
/// 4 bytes each (straight alpha), `width` × `height`; returns the marked pixels, same size.
/// Made from the app's own icon at start, so it never differs from it but for the mark.
pub fn with_mark(rgba: &[u8], width: u32, height: u32) -> Vec<u8> {
    let mut out = rgba.to_vec();
    let size = width.min(height) as f32;
    let radius = (size * 0.30).max(3.0);
    let ring = (size / 16.0).max(1.0);
    let (cx, cy) = (width as f32 - radius, radius);
    for y in 0..height {
        for x in 0..width {
            // Distance from the pixel's centre to the mark's; coverage with a one-pixel edge.
            let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
            let outer = (radius - d + 0.5).clamp(0.0, 1.0);
            if outer == 0.0 {
                continue;
            }
            let inner = (radius - ring - d + 0.5).clamp(0.0, 1.0);
            let at = ((y * width + x) * 4) as usize;
            let Some(pixel) = out.get_mut(at..at + 4) else {
                continue;
            };
            for (c, mark) in MARK.iter().enumerate() {
                // Red inside, white on the ring.
                let paint = f32::from(*mark) * inner + 255.0 * (1.0 - inner);
                pixel[c] = blend(pixel[c], pixel[3], paint, outer);
            }
            let alpha = f32::from(pixel[3]) / 255.0;
            pixel[3] = ((alpha + outer * (1.0 - alpha)) * 255.0).round() as u8;
        }
    }
    out
}

/// One channel of `paint` laid over a pixel whose channel is `under` with alpha `alpha`, with
/// coverage `cover` (0–1), as straight (not premultiplied) alpha.
fn blend(under: u8, alpha: u8, paint: f32, cover: f32) -> u8 {
    let a = f32::from(alpha) / 255.0;
    let out_alpha = cover + a * (1.0 - cover);
    if out_alpha <= 0.0 {
        return 0;
    }
    ((paint * cover + f32::from(under) * a * (1.0 - cover)) / out_alpha)
        .round()
        .clamp(0.0, 255.0) as u8
}

/// Rebuilds the tray's menu and title in the current language, e.g. after
/// `askfirst_core::i18n::set_language` (the settings' language changed). Does nothing without
/// a tray or a backend.
pub fn relabel<R: Runtime>(app: &AppHandle<R>) {
    use tauri::Manager;
    let (Some(backend), Some(tray)) = (
        app.try_state::<std::sync::Arc<askfirst_core::app::App>>(),
        app.try_state::<AppTray<R>>(),
    ) else {
        return;
    };
    tray.set_pending(app, &backend.list_pending_approvals());
}

/// The tray icon.
pub struct AppTray<R: Runtime> {
    icon: TrayIcon<R>,
    /// The app's icon, and it with the mark ([`with_mark`]); none without a window icon.
    images: Option<(Image<'static>, Image<'static>)>,
    /// Whether the icon shows the mark now.
    marked: AtomicBool,
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
        let images = app.default_window_icon().map(|icon| {
            let idle = icon.clone().to_owned();
            let marked = Image::new_owned(
                with_mark(idle.rgba(), idle.width(), idle.height()),
                idle.width(),
                idle.height(),
            );
            (idle, marked)
        });
        if let Some((idle, _)) = &images {
            builder = builder.icon(idle.clone());
        }
        Ok(Self {
            icon: builder.build(app)?,
            images,
            marked: AtomicBool::new(false),
        })
    }

    /// Shows the waiting approvals in the menu, their count in the icon's title and tooltip,
    /// and the mark on the icon while any wait.
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
        let _ = self.icon.set_tooltip(Some(&title));
        let _ = self.icon.set_title(Some(title));
        let mark = !pending.is_empty();
        // Only when it changes: each new image is written to a file the panel reads.
        if self.marked.swap(mark, Ordering::SeqCst) != mark {
            if let Some((idle, marked)) = &self.images {
                let image = if mark { marked } else { idle };
                if let Err(error) = self.icon.set_icon(Some(image.clone())) {
                    eprintln!("askfirst: could not change the tray icon: {error}");
                }
            }
        }
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
    fn the_tray_says_how_many_requests_wait() {
        assert_eq!(title(0), "Ask First");
        assert_eq!(title(1), "Ask First — 1 request waiting for your OK");
        assert_eq!(title(2), "Ask First — 2 requests waiting for your OK");
    }

    #[test]
    fn the_marked_icon_is_the_icon_with_a_red_dot_in_its_top_right_corner() {
        // A 32×32 opaque blue square with a transparent border, as the app's icon.
        let (w, h) = (32u32, 32u32);
        let mut icon = vec![0u8; (w * h * 4) as usize];
        for y in 2..30 {
            for x in 2..30 {
                let at = ((y * w + x) * 4) as usize;
                icon[at..at + 4].copy_from_slice(&[0x35, 0x6E, 0xDC, 0xFF]);
            }
        }
        let marked = with_mark(&icon, w, h);
        assert_eq!(marked.len(), icon.len());
        let pixel = |p: &[u8], x: u32, y: u32| {
            let at = ((y * w + x) * 4) as usize;
            [p[at], p[at + 1], p[at + 2], p[at + 3]]
        };
        // The mark's middle is red and opaque; its ring white, also where the icon was clear.
        assert_eq!(pixel(&marked, 22, 9), [0xE0, 0x31, 0x2B, 0xFF]);
        assert_eq!(pixel(&marked, 22, 0), [0xFF, 0xFF, 0xFF, 0xFF]);
        // Away from the corner nothing changed.
        assert_eq!(pixel(&marked, 8, 24), pixel(&icon, 8, 24));
        assert_eq!(pixel(&marked, 0, 31), [0, 0, 0, 0]);
        let changed = (0..w * h)
            .filter(|i| marked[*i as usize * 4..][..4] != icon[*i as usize * 4..][..4])
            .count();
        assert!(
            changed > 100 && changed < 400,
            "the mark covers {changed} of 1024 pixels"
        );
    }

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
