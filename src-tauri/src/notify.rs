//! Native notifications (freedesktop Desktop Notifications over D-Bus on Linux, through
//! `tauri-plugin-notification`). One per approval request, or one for a burst of them: the
//! title says the app needs an OK, the body is the plain summary (or how many wait), never the
//! raw arguments.

use askfirst_core::app::SettingsScreen;
use askfirst_core::i18n::{tr, Arg};
use askfirst_core::sync::MutexExt;
use askfirst_protocol::{ApprovalId, ApprovalRequest, NotifyWhen};
use std::sync::Arc;
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_notification::Notification;
#[cfg(not(target_os = "linux"))]
use tauri_plugin_notification::NotificationExt;

/// The notification's title, in English (the person reads [`Words::for_approval`]'s).
pub const TITLE: &str = "Ask First needs your OK";

/// The words of a notification, in the current language (`askfirst_core::i18n`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    /// The title ("Ask First needs your OK").
    pub title: String,
    /// The body: for an approval, its summary as the service shows it.
    pub body: String,
    /// The label of the action that opens the window at the card ("Review"); empty when the
    /// notification has none.
    pub action: String,
}

impl Words {
    /// The notification of an approval request whose plain summary is `summary`; `markup`:
    /// whether the service reads the body as markup (see [`body_text`]).
    pub fn for_approval(summary: &str, markup: bool) -> Self {
        Words {
            title: tr("notify-title", &[]),
            body: body_text(summary, markup),
            action: tr("notify-review", &[]),
        }
    }

    /// The notification of `count` requests that came together: "64 actions are waiting".
    pub fn for_many(count: usize) -> Self {
        Words {
            title: tr("notify-title", &[]),
            body: tr("notify-many", &[("count", Arg::from(count))]),
            action: tr("notify-review", &[]),
        }
    }

    /// The once-per-launch note that closing the window left Ask First running.
    pub fn still_running() -> Self {
        Words {
            title: tr("notify-still_running-title", &[]),
            body: tr("notify-still_running-body", &[]),
            action: String::new(),
        }
    }
}

/// Asks for the notification of `request`: shown if the setting and the window's focus say so
/// when it goes out. Without the plugin (tests) or a notification service it does nothing. It
/// never blocks the approval flow, and never waits for the GUI thread: the bridge calls it once
/// per `ApprovalRequired`, and the focus check, the wording and the D-Bus call happen on the
/// notifications thread. Requests that come together ([`GATHER_QUIET`]) are told together:
/// up to [`MAX_NAMED`] one notification each, more as one that says how many wait
/// ([`Words::for_many`]) — a model turn of 64 calls makes one notification, not 64.
pub fn approval_required<R: Runtime>(app: &AppHandle<R>, request: &ApprovalRequest) {
    if app.try_state::<Notification<R>>().is_none() {
        return;
    }
    #[cfg(target_os = "linux")]
    linux::ask(app, request.approval_id, request.summary.clone());
    #[cfg(not(target_os = "linux"))]
    {
        if !should_notify(app) {
            return;
        }
        let words = Words::for_approval(&request.summary, true);
        show(app, &words.title, &words.body);
    }
}

/// How long the notifications thread waits, after a request, for more before it shows them:
/// a burst of cards (one model turn) arrives over a few hundred milliseconds, each request
/// within a few milliseconds of the one before.
pub const GATHER_QUIET: std::time::Duration = std::time::Duration::from_millis(100);

/// The longest a request waits for others to be told with it.
pub const GATHER_AT_MOST: std::time::Duration = std::time::Duration::from_millis(1000);

/// The most requests arriving together that get a notification each (with their summary);
/// more are told as one notification with their count.
pub const MAX_NAMED: usize = 3;

/// Whether the setting and the window say to notify now: `Never`, or `Unfocused` while the
/// window is shown and focused, say no. Asks the GUI thread (the window's state) and waits
/// for it: call it off the async workers.
fn should_notify<R: Runtime>(app: &AppHandle<R>) -> bool {
    let when = app
        .try_state::<Arc<SettingsScreen>>()
        .map(|s| s.notify_when())
        .unwrap_or(NotifyWhen::Unfocused);
    let window_in_front = || {
        app.get_webview_window(crate::window::MAIN)
            .map(|w| w.is_visible().unwrap_or(false) && w.is_focused().unwrap_or(false))
            .unwrap_or(false)
    };
    match when {
        NotifyWhen::Never => false,
        NotifyWhen::Unfocused => !window_in_front(),
        NotifyWhen::Always => true,
    }
}

/// The approval was answered or ended: its notification, if still shown, is closed (one that
/// tells several requests, once all of them ended), so no "needs your OK" stays behind for
/// something that needs nothing any more.
pub fn approval_resolved<R: Runtime>(app: &AppHandle<R>, approval_id: ApprovalId) {
    #[cfg(target_os = "linux")]
    linux::close_for_approval(app, approval_id);
    #[cfg(not(target_os = "linux"))]
    let _ = (app, approval_id);
}

/// Linux (freedesktop notifications over D-Bus) through notify-rust, which the notification
/// plugin wraps, used directly because approvals need what the plugin does not offer: the
/// notification's id, to close it once the approval ends (`CloseNotification`), and its
/// actions, so a click on it opens the window at the card (`ActionInvoked`, action
/// `default`). Desktop Notifications Specification 1.2.
#[cfg(target_os = "linux")]
mod linux {
    use super::{Words, GATHER_AT_MOST, GATHER_QUIET, MAX_NAMED};
    use askfirst_core::sync::MutexExt;
    use askfirst_protocol::event_names::FOCUS_APPROVAL;
    use askfirst_protocol::ApprovalId;
    use std::collections::HashMap;
    use std::sync::{mpsc, Mutex, OnceLock};
    use std::time::Instant;
    use tauri::{AppHandle, Emitter, Manager, Runtime};

    /// The server ids of the notifications shown for approvals still waiting (several
    /// approvals share one when they were told together).
    #[derive(Default)]
    pub struct Shown(Mutex<HashMap<ApprovalId, u32>>);

    impl Shown {
        fn map(&self) -> std::sync::MutexGuard<'_, HashMap<ApprovalId, u32>> {
            self.0.lock_or_recover()
        }
    }

    /// A notification with no action, sent in the background (a missing service is logged
    /// once by the probe, not here).
    pub fn show_plain(title: String, body: String) {
        let _ = std::thread::Builder::new()
            .name("notification".into())
            .spawn(move || {
                let _ = notify_rust::Notification::new()
                    .appname("Ask First")
                    .summary(&title)
                    .body(&body)
                    .show();
            });
    }

    /// What the notifications thread does, without the app's runtime type in it.
    trait Side: Send {
        /// [`super::should_notify`], and the service's markup capability (probing it if due).
        fn gate(&self) -> Option<bool>;
        /// Shows `words` for `approvals` and remembers it for them.
        fn show(&self, approvals: Vec<ApprovalId>, words: Words);
        /// Closes the notification of `approval` once no other approval it tells waits.
        fn close(&self, approval: ApprovalId);
    }

    /// Work for the notifications thread.
    enum Job {
        /// A request wants a notification: its id and summary.
        Ask(Box<dyn Side>, ApprovalId, String),
        /// A request ended.
        Close(Box<dyn Side>, ApprovalId),
    }

    /// Sends `job` to the one thread that talks to the notification service: notifications
    /// appear in the order the approvals came (one thread each raced, so a burst showed up
    /// shuffled), and a close never overtakes its show.
    fn in_order(job: Job) {
        static QUEUE: OnceLock<Option<Mutex<mpsc::Sender<Job>>>> = OnceLock::new();
        let queue = QUEUE.get_or_init(|| {
            let (send, receive) = mpsc::channel::<Job>();
            let started = std::thread::Builder::new()
                .name("notifications".into())
                .spawn(move || serve(&receive));
            started.ok().map(|_| Mutex::new(send))
        });
        if let Some(send) = queue {
            let _ = send.lock_or_recover().send(job);
        }
    }

    /// The notifications thread: each request waits until no other came for [`GATHER_QUIET`]
    /// (at most [`GATHER_AT_MOST`]); those that came together (and did not end meanwhile) are
    /// told together. A close that comes meanwhile for an earlier one is done after the show.
    fn serve(receive: &mpsc::Receiver<Job>) {
        while let Ok(job) = receive.recv() {
            let (side, first, summary) = match job {
                Job::Close(side, approval) => {
                    side.close(approval);
                    continue;
                }
                Job::Ask(side, approval, summary) => (side, approval, summary),
            };
            let mut asked = vec![(first, summary)];
            let mut closes = Vec::new();
            let until = Instant::now() + GATHER_AT_MOST;
            loop {
                let now = Instant::now();
                let wait = GATHER_QUIET.min(until.saturating_duration_since(now));
                if wait.is_zero() {
                    break;
                }
                match receive.recv_timeout(wait) {
                    Ok(Job::Ask(_, approval, summary)) => asked.push((approval, summary)),
                    Ok(Job::Close(side, approval)) => {
                        if let Some(at) = asked.iter().position(|(id, _)| *id == approval) {
                            // Ended before it was told: nothing to tell.
                            asked.remove(at);
                        } else {
                            closes.push((side, approval));
                        }
                    }
                    Err(_) => break,
                }
            }
            tell(side.as_ref(), asked);
            for (side, approval) in closes {
                side.close(approval);
            }
        }
    }

    fn tell(side: &dyn Side, asked: Vec<(ApprovalId, String)>) {
        if asked.is_empty() {
            return;
        }
        let Some(markup) = side.gate() else {
            return;
        };
        if asked.len() <= MAX_NAMED {
            for (approval, summary) in asked {
                side.show(vec![approval], Words::for_approval(&summary, markup));
            }
        } else {
            let words = Words::for_many(asked.len());
            side.show(asked.into_iter().map(|(id, _)| id).collect(), words);
        }
    }

    /// The app's side of the notifications thread.
    struct AppSide<R: Runtime>(AppHandle<R>);

    impl<R: Runtime> Side for AppSide<R> {
        fn gate(&self) -> Option<bool> {
            let app = &self.0;
            if !super::should_notify(app) {
                return None;
            }
            if let Some(check) = app.try_state::<super::ServiceCheck>() {
                check.before_notifying(super::probe_service);
            }
            // Escaped unless the service is known to show the body as plain text (no
            // `body-markup` capability): there `&amp;` would show as it is.
            Some(
                app.try_state::<super::ServiceCheck>()
                    .and_then(|check| check.markup())
                    .unwrap_or(true),
            )
        }

        fn show(&self, approvals: Vec<ApprovalId>, words: Words) {
            let app = self.0.clone();
            let mut notification = notify_rust::Notification::new();
            notification
                .appname("Ask First")
                .summary(&words.title)
                .body(&words.body)
                .action("default", &words.action);
            let Ok(handle) = notification.show() else {
                return; // no service: the probe logs it once
            };
            let server_id = handle.id();
            if let Some(shown) = app.try_state::<Shown>() {
                let mut map = shown.map();
                for approval in &approvals {
                    map.insert(*approval, server_id);
                }
            }
            // The wait for a click has a thread of its own.
            let _ = std::thread::Builder::new()
                .name("notification".into())
                .spawn(move || {
                    let opener = app.clone();
                    let mut closed = false;
                    handle.wait_for_action(|action| {
                        if action == "default" {
                            crate::window::show_main(&opener);
                            // At the first of its cards still waiting.
                            let still = opener.try_state::<Shown>().and_then(|shown| {
                                let map = shown.map();
                                approvals
                                    .iter()
                                    .find(|id| map.get(id) == Some(&server_id))
                                    .copied()
                            });
                            if let Some(approval) = still.or_else(|| approvals.first().copied()) {
                                let _ = opener.emit(FOCUS_APPROVAL, approval.to_string());
                            }
                        }
                        closed = action == "__closed";
                    });
                    // Clicked but still shown (a server may keep it): closed when the
                    // approvals end.
                    if closed {
                        if let Some(shown) = app.try_state::<Shown>() {
                            let mut map = shown.map();
                            for approval in &approvals {
                                map.remove(approval);
                            }
                        }
                    }
                });
        }

        fn close(&self, approval: ApprovalId) {
            let Some(shown) = self.0.try_state::<Shown>() else {
                return;
            };
            let id = {
                let mut map = shown.map();
                let Some(id) = map.remove(&approval) else {
                    return;
                };
                if map.values().any(|other| *other == id) {
                    return; // it still tells another waiting approval
                }
                id
            };
            use gio::prelude::*;
            if let Ok(bus) = gio::bus_get_sync(gio::BusType::Session, gio::Cancellable::NONE) {
                let _ = bus.call_sync(
                    Some("org.freedesktop.Notifications"),
                    "/org/freedesktop/Notifications",
                    "org.freedesktop.Notifications",
                    "CloseNotification",
                    Some(&(id,).to_variant()),
                    None,
                    gio::DBusCallFlags::NONE,
                    2000,
                    gio::Cancellable::NONE,
                );
            }
        }
    }

    pub fn ask<R: Runtime>(app: &AppHandle<R>, approval_id: ApprovalId, summary: String) {
        in_order(Job::Ask(
            Box::new(AppSide(app.clone())),
            approval_id,
            summary,
        ));
    }

    pub fn close_for_approval<R: Runtime>(app: &AppHandle<R>, approval_id: ApprovalId) {
        // After the show queued before it, so a notification shown just as its approval ended
        // is closed too.
        in_order(Job::Close(Box::new(AppSide(app.clone())), approval_id));
    }
}

#[cfg(target_os = "linux")]
pub use linux::Shown;

/// Shows a notification through the plugin, which sends it in the background and never
/// reports whether a service took it; so the service is probed beside it (see
/// [`ServiceCheck`]) and a missing one is logged once per launch.
/// On Linux it goes through notify-rust as the approvals' do, named "Ask First" (the plugin
/// names the sender after the executable, `askfirst`).
fn show<R: Runtime>(app: &AppHandle<R>, title: &str, body: &str) {
    if let Some(check) = app.try_state::<ServiceCheck>() {
        check.before_notifying(probe_service);
    }
    #[cfg(target_os = "linux")]
    linux::show_plain(title.to_owned(), body.to_owned());
    #[cfg(not(target_os = "linux"))]
    if let Err(error) = app.notification().builder().title(title).body(body).show() {
        eprintln!("askfirst: could not show a notification: {error}");
    }
}

/// Asks the desktop's notification service who it is (`GetServerInformation`, Desktop
/// Notifications Specification 1.2), which also starts a service that is installed but not
/// running (D-Bus activation), and whether it reads markup in the body (`GetCapabilities`:
/// `body-markup`). Returns that.
///
/// # Errors
/// A sentence saying why no service answered (no session bus, nobody owns
/// `org.freedesktop.Notifications`, …).
pub fn probe_service() -> Result<bool, String> {
    #[cfg(all(unix, not(target_os = "macos")))]
    {
        notify_rust::get_server_information().map_err(|e| e.to_string())?;
        Ok(notify_rust::get_capabilities()
            .map(|caps| caps.iter().any(|c| c == "body-markup"))
            .unwrap_or(true))
    }
    #[cfg(not(all(unix, not(target_os = "macos"))))]
    {
        Ok(true)
    }
}

/// How long a missing notification service is not asked for again.
pub const PROBE_AGAIN_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// Whether the desktop has a notification service, found out in the background: at the first
/// notification, and again at most every [`PROBE_AGAIN_AFTER`] while it is missing (one may
/// start later). A missing service is logged once per launch; nothing ever waits for a probe,
/// so the approval flow never blocks on it.
pub struct ServiceCheck {
    state: std::sync::Arc<std::sync::Mutex<CheckState>>,
    again_after: std::time::Duration,
}

impl Default for ServiceCheck {
    fn default() -> Self {
        Self::with_interval(PROBE_AGAIN_AFTER)
    }
}

#[derive(Default)]
struct CheckState {
    found: bool,
    markup: Option<bool>,
    probing: bool,
    last_probe: Option<std::time::Instant>,
    logged: bool,
}

impl ServiceCheck {
    /// A check that probes a missing service again after `again_after`.
    pub fn with_interval(again_after: std::time::Duration) -> Self {
        Self {
            state: Default::default(),
            again_after,
        }
    }

    /// Starts a probe with `probe` on a thread of its own when one is due (never while one is
    /// running, never once a service was found). Returns at once.
    pub fn before_notifying(&self, probe: fn() -> Result<bool, String>) {
        let due = {
            let mut state = self.state.lock_or_recover();
            let due = !state.found
                && !state.probing
                && state
                    .last_probe
                    .is_none_or(|at| at.elapsed() >= self.again_after);
            if due {
                state.probing = true;
            }
            due
        };
        if !due {
            return;
        }
        let state = std::sync::Arc::clone(&self.state);
        let spawned = std::thread::Builder::new()
            .name("notification-probe".into())
            .spawn(move || {
                let result = probe();
                let mut state = state.lock_or_recover();
                state.probing = false;
                state.last_probe = Some(std::time::Instant::now());
                match result {
                    Ok(markup) => {
                        state.found = true;
                        state.markup = Some(markup);
                    }
                    Err(reason) if !state.logged => {
                        state.logged = true;
                        eprintln!(
                            "askfirst: no notification service answered ({reason}); requests \
                             for your OK show in the window and the tray menu only"
                        );
                    }
                    Err(_) => {}
                }
            });
        if spawned.is_err() {
            self.state.lock_or_recover().probing = false;
        }
    }

    /// Whether a probe found a service; `None` before the first probe ended.
    pub fn found(&self) -> Option<bool> {
        let state = self.state.lock_or_recover();
        state.last_probe.map(|_| state.found)
    }

    /// Whether the service reads markup in the body; `None` until a probe found it.
    pub fn markup(&self) -> Option<bool> {
        self.state.lock_or_recover().markup
    }

    /// Whether the missing service was logged.
    pub fn logged(&self) -> bool {
        self.state.lock_or_recover().logged
    }
}

/// The summary made safe for a notification body by [`askfirst_core::text::display_label`]:
/// one line, control, bidi and zero-width characters shown as their codes so the text cannot
/// hide or reorder itself, long text cut at 200 characters with an ellipsis (the card shows it
/// whole); and for a service that reads markup in the body
/// (`markup`: it has the `body-markup` capability, or that is not known), `&`, `<` and `>` are
/// escaped so nothing in it becomes a link or formatting.
///
/// Source: Desktop Notifications Specification 1.2, "Markup" and "GetCapabilities".
pub fn body_text(summary: &str, markup: bool) -> String {
    const MAX_CHARS: usize = 200;
    let cut = askfirst_core::text::display_label(summary, MAX_CHARS);
    if !markup {
        return cut;
    }
    cut.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Tells the person, once per launch, that closing the window left Ask First running in the
/// tray.
pub fn still_running<R: Runtime>(app: &AppHandle<R>) {
    if app.try_state::<Notification<R>>().is_none() {
        return;
    }
    let words = Words::still_running();
    show(app, &words.title, &words.body);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    fn wait_for(what: &str, done: impl Fn() -> bool) {
        let start = Instant::now();
        while !done() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "timed out: {what}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    static MISSING_CALLS: AtomicUsize = AtomicUsize::new(0);
    fn missing() -> Result<bool, String> {
        MISSING_CALLS.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(50));
        Err("org.freedesktop.Notifications was not provided by any .service files".into())
    }

    #[test]
    fn a_missing_service_is_probed_in_the_background_and_logged_once() {
        let check = ServiceCheck::with_interval(Duration::from_millis(200));
        let start = Instant::now();
        check.before_notifying(missing);
        // A second notification while the probe runs starts no other probe.
        check.before_notifying(missing);
        assert!(
            start.elapsed() < Duration::from_millis(40),
            "nothing waits for the probe"
        );
        wait_for("the probe", || check.found() == Some(false));
        assert!(check.logged());
        assert_eq!(MISSING_CALLS.load(Ordering::SeqCst), 1);
        // Within the interval: not asked again.
        check.before_notifying(missing);
        assert_eq!(MISSING_CALLS.load(Ordering::SeqCst), 1);
        // After it: asked again (a service may have started), still logged only once.
        std::thread::sleep(Duration::from_millis(250));
        check.before_notifying(missing);
        wait_for("the second probe", || {
            MISSING_CALLS.load(Ordering::SeqCst) == 2
        });
        wait_for("it to end", || !check.state.lock().unwrap().probing);
        assert!(check.logged());
    }

    static FOUND_CALLS: AtomicUsize = AtomicUsize::new(0);
    fn found() -> Result<bool, String> {
        FOUND_CALLS.fetch_add(1, Ordering::SeqCst);
        Ok(false)
    }

    #[test]
    fn a_service_once_found_is_not_asked_again() {
        let check = ServiceCheck::with_interval(Duration::ZERO);
        check.before_notifying(found);
        wait_for("the probe", || check.found() == Some(true));
        assert_eq!(check.markup(), Some(false));
        check.before_notifying(found);
        check.before_notifying(found);
        assert_eq!(FOUND_CALLS.load(Ordering::SeqCst), 1);
        assert!(!check.logged());
    }

    #[test]
    fn the_body_is_escaped_only_for_a_service_that_reads_markup() {
        let summary = "Write <b>a</b> & b\u{202E}";
        assert_eq!(
            body_text(summary, true),
            "Write &lt;b&gt;a&lt;/b&gt; &amp; b\\u202E"
        );
        // The bidi override is shown as its code: it cannot reorder the notification's text.
        assert_eq!(body_text(summary, false), "Write <b>a</b> & b\\u202E");
    }
}
