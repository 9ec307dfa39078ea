//! The main window: bringing it back from the tray or a notification, what closing it does,
//! and its remembered size. Depends only on tauri: the caller says whether a tray is shown and
//! acts on what happened ([`Closed`]). Quitting from the window itself is the window's Quit
//! button (it destroys the window, and the app ends with its last window).

use askfirst_protocol::event_names::CLOSE_KEPT;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use tauri::{AppHandle, Emitter, LogicalSize, Manager, Runtime, Window};

/// The main window's label (tauri.conf.json).
pub const MAIN: &str = "main";

/// Shows, un-minimises and focuses the main window.
pub fn show_main<R: Runtime>(app: &AppHandle<R>) {
    if let Some(window) = app.get_webview_window(MAIN) {
        let _ = window.show();
        let _ = window.unminimize();
        let _ = window.set_focus();
    }
}

/// The global the page reads its first language from (`ui/src/lib/i18n/i18n.svelte.ts`).
pub const LANGUAGE_GLOBAL: &str = "__ASKFIRST_LANGUAGE__";

/// A plugin whose script runs in the window before its page does: it sets
/// `window.__ASKFIRST_LANGUAGE__` to the language in force at start (its tag, such as
/// `"pt-BR"`), so the window's first frame is in the person's language. Without it the page
/// starts in English and switches once it has read the settings, a frame or more later.
pub fn language_plugin<R: Runtime>(
    language: askfirst_protocol::Language,
) -> tauri::plugin::TauriPlugin<R> {
    // A tag of serde's own (`"pt-BR"`), so the script holds nothing but a JSON string.
    let tag = serde_json::to_string(&language).unwrap_or_else(|_| "\"en\"".to_owned());
    tauri::plugin::Builder::new("askfirst-language")
        .js_init_script(format!("window.{LANGUAGE_GLOBAL} = {tag};"))
        .build()
}

/// The window's preferences as managed state: where its size is remembered.
#[derive(Debug, Clone)]
pub struct WindowPrefs {
    /// `<data dir>/window.json`.
    pub size_file: PathBuf,
}

/// What closing the main window did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closed {
    /// It was hidden (it lives on in the tray); `first` in this launch (the caller explains it
    /// once).
    Hidden {
        /// Whether it is the first time in this launch.
        first: bool,
    },
    /// It was minimised, because no tray is there to bring it back from.
    Minimised,
    /// Not the main window: nothing was done.
    NotMain,
}

/// Whether the window was already hidden once in this launch (the first time is explained).
static HIDDEN_BEFORE: AtomicBool = AtomicBool::new(false);

/// Closing the main window hides it instead: runs go on and approvals still arrive in the tray
/// and notifications. With no tray to bring it back from (`tray_shown` false: no tray host on
/// the bus, or no bus), it is minimised instead, so it can still be found in the taskbar, and
/// the window is told ([`CLOSE_KEPT`]) so that it says why and points to its Quit button. The
/// caller has already prevented the close. "Quit" in the tray or the window quits.
pub fn on_close_requested<R: Runtime>(window: &Window<R>, tray_shown: bool) -> Closed {
    if window.label() != MAIN {
        return Closed::NotMain;
    }
    save_size(window.app_handle());
    if !tray_shown {
        let _ = window.minimize();
        let _ = window.emit(CLOSE_KEPT, ());
        return Closed::Minimised;
    }
    let _ = window.hide();
    Closed::Hidden {
        first: !HIDDEN_BEFORE.swap(true, Ordering::SeqCst),
    }
}

fn size_file<R: Runtime>(app: &AppHandle<R>) -> Option<PathBuf> {
    app.try_state::<WindowPrefs>().map(|p| p.size_file.clone())
}

/// Remembers the main window's size (logical pixels) in [`WindowPrefs::size_file`].
pub fn save_size<R: Runtime>(app: &AppHandle<R>) {
    let (Some(path), Some(window)) = (size_file(app), app.get_webview_window(MAIN)) else {
        return;
    };
    let (Ok(size), Ok(scale)) = (window.inner_size(), window.scale_factor()) else {
        return;
    };
    let logical = size.to_logical::<f64>(scale);
    let text = serde_json::json!({"width": logical.width, "height": logical.height}).to_string();
    if let Err(error) = std::fs::write(&path, text) {
        eprintln!("askfirst: could not remember the window size: {error}");
    }
}

/// Gives the main window the size it had last time, if it was remembered and is sensible.
pub fn restore_size<R: Runtime>(app: &AppHandle<R>) {
    let (Some(path), Some(window)) = (size_file(app), app.get_webview_window(MAIN)) else {
        return;
    };
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
        return;
    };
    let (Some(width), Some(height)) = (value["width"].as_f64(), value["height"].as_f64()) else {
        return;
    };
    if (560.0..=10_000.0).contains(&width) && (480.0..=10_000.0).contains(&height) {
        let _ = window.set_size(LogicalSize::new(width, height));
    }
}

/// The WebKitGTK settings the window's webview gets, each measured against a minimal Tauri
/// window in the same run (BENCHMARKS.md, "The floor: each WebKit setting"): `cache` is the web
/// context's `DocumentViewer` cache model (a single-page app that loads only its own assets
/// needs no page or resource cache; no measurable effect at idle, kept as it costs nothing);
/// `no-accel` is the hardware-acceleration policy `Never` (no compositing layers: under
/// software rendering they cost ~65 MiB of PSS, and every frame that scrolls the cards or the
/// conversation took ~100 ms instead of ~14 ms; without them Ask First idles below the minimal
/// app); `pressure` gives the network process a memory limit it frees caches at (no measurable
/// effect at idle). The default is [`DEFAULT_WEBKIT`], with `no-accel` only where the computer
/// has no GPU to render with ([`has_gpu`]: with one, WebKit's own policy stays, as this machine
/// cannot say what compositing on a GPU costs). `ASKFIRST_WEBKIT` (a comma-separated list of
/// these names, or `none`) replaces it, for the benchmark to measure each setting.
///
/// With `no-accel`, WebKitWebDriver's screenshot of some pages never returns (2026-12-01: two
/// end-to-end tests hung on it). Looked at again (2026-12-02): the page keeps painting frames
/// and answering scripts meanwhile, and the X server shows the window drawn right (the
/// end-to-end harness saves that instead when the screenshot does not return); it is the
/// driver's snapshot that waits, not the page.
pub const DEFAULT_WEBKIT: &str = "cache,no-accel";

/// The environment variable that replaces [`DEFAULT_WEBKIT`] (for benchmarks).
pub const WEBKIT_ENV: &str = "ASKFIRST_WEBKIT";

/// Which of the WebKit settings are on: [`DEFAULT_WEBKIT`], or what `ASKFIRST_WEBKIT` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WebkitTuning {
    /// The `DocumentViewer` cache model.
    pub cache: bool,
    /// The hardware-acceleration policy `Never`.
    pub no_accel: bool,
    /// A memory limit for the network process.
    pub pressure: bool,
}

impl WebkitTuning {
    /// Parses a comma-separated list of setting names (unknown names are ignored; `none` or
    /// an empty list turns every setting off).
    pub fn parse(list: &str) -> Self {
        let mut tuning = Self::default();
        for name in list.split(',').map(str::trim) {
            match name {
                "cache" => tuning.cache = true,
                "no-accel" => tuning.no_accel = true,
                "pressure" => tuning.pressure = true,
                _ => {}
            }
        }
        tuning
    }

    /// The settings when `ASKFIRST_WEBKIT` is not set: [`DEFAULT_WEBKIT`], without `no-accel`
    /// when the computer has a GPU (`gpu`), whose compositing WebKit may use.
    pub fn default_for(gpu: bool) -> Self {
        let tuning = Self::parse(DEFAULT_WEBKIT);
        Self {
            no_accel: tuning.no_accel && !gpu,
            ..tuning
        }
    }

    /// The settings for this launch: `ASKFIRST_WEBKIT` if set, else [`Self::default_for`]
    /// this computer.
    pub fn from_env() -> Self {
        match std::env::var(WEBKIT_ENV) {
            Ok(list) => Self::parse(&list),
            Err(_) => Self::default_for(has_gpu()),
        }
    }
}

/// Whether this computer has a GPU render node (`/dev/dri/renderD*`, the DRM device a GPU's
/// driver offers for rendering); without one WebKit renders in software.
pub fn has_gpu() -> bool {
    std::fs::read_dir("/dev/dri").is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    })
}

/// The memory limit of the network process with `pressure` on, in MB (WebKit frees its caches
/// when the process grows past a share of it; it is never killed: no kill threshold is set).
#[cfg(target_os = "linux")]
const NETWORK_MEMORY_LIMIT_MB: u32 = 64;

/// Before any webview exists (between building the app and running it): the settings that
/// WebKit reads only when it starts its processes.
pub fn before_webviews() {
    #[cfg(target_os = "linux")]
    if WebkitTuning::from_env().pressure {
        let mut settings = webkit2gtk::MemoryPressureSettings::new();
        settings.set_memory_limit(NETWORK_MEMORY_LIMIT_MB);
        webkit2gtk::WebsiteDataManager::set_memory_pressure_settings(&mut settings);
    }
}

/// Gives the main window's webview the WebKit settings of this launch ([`WebkitTuning`]).
pub fn tune_webview<R: Runtime>(app: &AppHandle<R>) {
    let tuning = WebkitTuning::from_env();
    let Some(window) = app.get_webview_window(MAIN) else {
        return;
    };
    #[cfg(target_os = "linux")]
    let _ = window.with_webview(move |webview| {
        use webkit2gtk::{
            CacheModel, HardwareAccelerationPolicy, SettingsExt, WebContextExt, WebViewExt,
        };
        let view = webview.inner();
        if tuning.cache {
            if let Some(context) = view.context() {
                context.set_cache_model(CacheModel::DocumentViewer);
            }
        }
        if tuning.no_accel {
            if let Some(settings) = WebViewExt::settings(&view) {
                settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
            }
        }
    });
    #[cfg(not(target_os = "linux"))]
    let _ = (window, tuning);
}

#[cfg(test)]
mod tests {
    use super::WebkitTuning;

    #[test]
    fn webkit_settings_are_read_from_a_list_of_names() {
        assert_eq!(
            WebkitTuning::parse("cache"),
            WebkitTuning {
                cache: true,
                ..WebkitTuning::default()
            }
        );
        assert_eq!(
            WebkitTuning::parse(" no-accel , pressure,unknown"),
            WebkitTuning {
                cache: false,
                no_accel: true,
                pressure: true
            }
        );
        assert_eq!(WebkitTuning::parse("none"), WebkitTuning::default());
        assert_eq!(WebkitTuning::parse(""), WebkitTuning::default());
        assert_eq!(
            WebkitTuning::parse(super::DEFAULT_WEBKIT),
            WebkitTuning::parse("cache,no-accel")
        );
    }

    #[test]
    fn hardware_acceleration_is_turned_off_by_default_only_without_a_gpu() {
        assert_eq!(
            WebkitTuning::default_for(false),
            WebkitTuning {
                cache: true,
                no_accel: true,
                pressure: false
            }
        );
        assert_eq!(
            WebkitTuning::default_for(true),
            WebkitTuning {
                cache: true,
                no_accel: false,
                pressure: false
            }
        );
    }
}
