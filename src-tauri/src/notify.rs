//! Native notifications (freedesktop Desktop Notifications over D-Bus on Linux, through
//! `tauri-plugin-notification`). One per approval request, or one for a burst of them: the
//! title says the app needs an OK, the body is the plain summary (or how many wait), never the
//! raw arguments. A request's notification stays until the request ends ([`Staying`]), and
//! what already waits is told when the window goes out of sight ([`remind_waiting`]).

use askfirst_core::app::App;
use askfirst_core::i18n::{tr, Arg};
use askfirst_core::sync::MutexExt;
use askfirst_protocol::{ApprovalId, ApprovalRequest, NotifyWhen};
use std::sync::Arc;
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_notification::Notification;
#[cfg(not(target_os = "linux"))]
use tauri_plugin_notification::NotificationExt;

#[cfg(target_os = "linux")]
mod bus;

/// The notification's title, in English (the person reads [`Words::for_approval`]'s).
pub const TITLE: &str = "Ask First needs your OK";

/// The words of a notification, in the current language (`askfirst_core::i18n`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    /// The title ("Ask First needs your OK").
    pub title: String,
    /// The body: for an approval, its summary and its folder as the service shows them.
    pub body: String,
    /// The label of the button that opens the window at the card ("Open").
    pub open: String,
    /// The label of the button that denies the request ("Deny").
    pub deny: String,
    /// The label of the button that approves it ("Approve"), offered only for the kinds the
    /// person opted into.
    pub approve: String,
}

impl Words {
    /// The notification of an approval request whose plain summary is `summary`, in the
    /// folder said by `folder` (a line such as "Folder: Taxes", see [`folder_line`]);
    /// `markup`: whether the service reads the body as markup (see [`body_text`]).
    pub fn for_approval(summary: &str, folder: &str, markup: bool) -> Self {
        Words {
            title: tr("notify-title", &[]),
            body: format!(
                "{}\n{}",
                body_text(summary, markup),
                body_text(folder, markup)
            ),
            ..Self::buttons()
        }
    }

    /// The notification of `count` requests that came together: "64 actions are waiting".
    pub fn for_many(count: usize) -> Self {
        Words {
            title: tr("notify-title", &[]),
            body: tr("notify-many", &[("count", Arg::from(count))]),
            ..Self::buttons()
        }
    }

    /// The once-per-launch note that closing the window left Ask First running.
    pub fn still_running() -> Self {
        Words {
            title: tr("notify-still_running-title", &[]),
            body: tr("notify-still_running-body", &[]),
            ..Self::buttons()
        }
    }

    fn buttons() -> Self {
        Words {
            title: String::new(),
            body: String::new(),
            open: tr("notify-open", &[]),
            deny: tr("notify-deny", &[]),
            approve: tr("notify-approve", &[]),
        }
    }
}

/// Which buttons a notification has (each only where the server has the `actions`
/// capability). A notification that tells one request has Open and Deny, and Approve for the
/// kinds the person opted into; one that tells a burst has Open only: it stands for no single
/// request, so it never answers one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Buttons {
    /// "Open": the window at the card.
    pub open: bool,
    /// "Deny": denies the one request it tells.
    pub deny: bool,
    /// "Approve": approves it once.
    pub approve: bool,
}

impl Buttons {
    /// Open only (a burst).
    pub const OPEN_ONLY: Self = Self {
        open: true,
        deny: false,
        approve: false,
    };
}

/// The line of a request's notification that says which folder it is about: the folder
/// another agent works in for its requests ([`askfirst_protocol::CallDetail::External`]),
/// else the folder of the conversation in the window; by its name ("Folder: Taxes"), or "the
/// demo folder".
pub fn folder_line<R: Runtime>(app: &AppHandle<R>, request: &ApprovalRequest) -> String {
    let name_of = |path: &std::path::Path| {
        path.file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string())
    };
    if let Some(askfirst_protocol::CallDetail::External { folder, .. }) = &request.detail {
        let folder = folder.trim_end_matches('/');
        return tr(
            "notify-folder",
            &[("folder", Arg::from(name_of(std::path::Path::new(folder))))],
        );
    }
    let Some(backend) = app.try_state::<Arc<App>>() else {
        return String::new();
    };
    let folder = backend.folder();
    if folder.demo {
        return tr("notify-folder-demo", &[]);
    }
    tr(
        "notify-folder",
        &[("folder", Arg::from(name_of(&folder.path)))],
    )
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
    linux::ask(app, request);
    #[cfg(not(target_os = "linux"))]
    {
        if !should_notify(app, false) {
            return;
        }
        let words = Words::for_approval(&request.summary, &folder_line(app, request), true);
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
/// window is shown and focused, say no; `out_of_sight`: the caller knows the window was just
/// hidden or minimised (its focus may not have caught up yet). Asks the GUI thread (the
/// window's state) and waits for it: call it off the async workers.
fn should_notify<R: Runtime>(app: &AppHandle<R>, out_of_sight: bool) -> bool {
    let when = app
        .try_state::<Arc<App>>()
        .map(|backend| backend.notify_when())
        .unwrap_or(NotifyWhen::Unfocused);
    let window_in_front = || {
        app.get_webview_window(crate::window::MAIN)
            .map(|w| w.is_visible().unwrap_or(false) && w.is_focused().unwrap_or(false))
            .unwrap_or(false)
    };
    match when {
        NotifyWhen::Never => false,
        NotifyWhen::Unfocused => out_of_sight || !window_in_front(),
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

/// The window went out of sight (closed to the tray, minimised): what waits and was not told by
/// a notification yet (it came while the window was in front) is told now, as requests that
/// come together are ([`MAX_NAMED`] one each, more as one with their count). A request told
/// once is not told again, however often the window is shown and hidden: its notification
/// stays until it ends ([`Staying`]). Subject to the setting as every notification is
/// (`Never` says no). Returns at once; the notifications thread does the work.
pub fn remind_waiting<R: Runtime>(app: &AppHandle<R>) {
    if app.try_state::<Notification<R>>().is_none() {
        return;
    }
    #[cfg(target_os = "linux")]
    linux::remind(app);
    #[cfg(not(target_os = "linux"))]
    {
        let Some(backend) = app.try_state::<Arc<App>>() else {
            return;
        };
        let waiting = backend.list_pending_approvals();
        if waiting.is_empty() || !should_notify(app, true) {
            return;
        }
        let words = match waiting.as_slice() {
            [one] => Words::for_approval(&one.summary, &folder_line(app, one), true),
            many => Words::for_many(many.len()),
        };
        show(app, &words.title, &words.body);
    }
}

/// How a waiting request's notification stays on the desktop: it must not vanish while the
/// request waits (a person who looked away for ten seconds missed it), and it is closed by
/// Ask First when the request ends ([`approval_resolved`]).
///
/// Source: Desktop Notifications Specification 1.2, "Notify" (`expire_timeout` 0: never
/// expires), "Hints" (`resident`: not removed when an action is invoked, "likely only useful
/// when the server has the persistence capability"; `urgency`) and "GetCapabilities"
/// (`persistence`: the server keeps notifications until the person or the sender removes them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Staying {
    /// `expire_timeout` in milliseconds: 0, never (a server that honours it keeps the bubble
    /// on screen until the request ends or the person closes it).
    pub expire_timeout_ms: i32,
    /// The `resident` hint: a click on "Review" opens the window at the card and the
    /// notification stays, in a server that keeps notifications (`persistence`), until the
    /// request is answered.
    pub resident: bool,
    /// The `urgency` hint: 1, normal. Not critical (2): the spec keeps that for what the
    /// person must see at once, and desktops show critical ones through "do not disturb";
    /// a request that waits is answered when the person comes back, and until then it
    /// stays (expire_timeout 0, resident) and the tray icon shows it.
    pub urgency: u8,
}

/// How a waiting request's notification stays ([`Staying`]) with a server that has the
/// `persistence` capability (`persistence`: `Some(true)`), has not (`Some(false)`), or is not
/// known yet (`None`, the probe still running: assumed, as the desktops' own servers, GNOME
/// Shell's and Plasma's, have it).
pub fn staying(persistence: Option<bool>) -> Staying {
    Staying {
        expire_timeout_ms: 0,
        resident: persistence.unwrap_or(true),
        urgency: 1,
    }
}

/// Linux (freedesktop notifications over D-Bus): the notifications of approvals go through
/// [`bus`], one connection that knows each notification's id (to close it once its approval
/// ends) and takes the clicks on its buttons only from the notification server (see
/// [`bus`]). Desktop Notifications Specification 1.2.
#[cfg(target_os = "linux")]
mod linux {
    use super::bus::{self, Button, Click};
    use super::{Buttons, Staying, Words, GATHER_AT_MOST, GATHER_QUIET, MAX_NAMED};
    use askfirst_core::app::{NotificationAnswer, NotificationAnswered};
    use askfirst_core::sync::MutexExt;
    use askfirst_protocol::event_names::FOCUS_APPROVAL;
    use askfirst_protocol::ApprovalId;
    use std::collections::{HashMap, HashSet};
    use std::sync::{mpsc, Mutex, OnceLock};
    use std::time::Instant;
    use tauri::{AppHandle, Emitter, Manager, Runtime};

    /// The server ids of the notifications shown for approvals still waiting (several
    /// approvals share one when they were told together), and which waiting approvals were
    /// told at all (a notification the person closed still told them: not told again).
    #[derive(Default)]
    pub struct Shown {
        ids: Mutex<HashMap<ApprovalId, u32>>,
        told: Mutex<HashSet<ApprovalId>>,
    }

    impl Shown {
        fn map(&self) -> std::sync::MutexGuard<'_, HashMap<ApprovalId, u32>> {
            self.ids.lock_or_recover()
        }

        fn told(&self) -> std::sync::MutexGuard<'_, HashSet<ApprovalId>> {
            self.told.lock_or_recover()
        }
    }

    /// What the notifications thread knows of the service when it tells something.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(super) struct Service {
        /// Whether the body is read as markup (escape it).
        pub markup: bool,
        /// How the notification stays.
        pub staying: Staying,
    }

    /// One waiting request as a notification tells it.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub(super) struct Asked {
        /// The approval.
        pub id: ApprovalId,
        /// Its plain summary.
        pub summary: String,
        /// The folder it works in, as a line for the body ("Folder: Taxes").
        pub folder: String,
    }

    /// A notification with no action, sent by the notifications thread in its turn (so "still
    /// running" comes before the requests told as the window closed), with the server's
    /// default timeout (a missing service is logged once by the probe, not here).
    pub fn show_plain(title: String, body: String) {
        in_order(Job::Plain(title, body));
    }

    fn send_plain(title: &str, body: &str) {
        let _ = notify_rust::Notification::new()
            .appname("Ask First")
            .summary(title)
            .body(body)
            .show();
    }

    /// What the notifications thread does, without the app's runtime type in it.
    pub(super) trait Side: Send {
        /// [`super::should_notify`] (`out_of_sight`: for a reminder, the window was just
        /// hidden or minimised), and the service's capabilities (probing them if due).
        fn gate(&self, out_of_sight: bool) -> Option<Service>;
        /// Whether the notification of the waiting `approval` may offer Approve now (the
        /// person's choice and the request's facts:
        /// `askfirst_core::notification_answers::may_approve`).
        fn may_approve(&self, approval: ApprovalId) -> bool;
        /// Shows `words` with `buttons` for `approvals`, staying as `staying` says, and
        /// remembers it for them.
        fn show(
            &self,
            approvals: Vec<ApprovalId>,
            words: Words,
            buttons: Buttons,
            staying: Staying,
        );
        /// Closes the notification of `approval` once no other approval it tells waits.
        fn close(&self, approval: ApprovalId);
        /// The approvals waiting now that no notification told yet, oldest first.
        fn untold(&self) -> Vec<Asked>;
    }

    /// Work for the notifications thread.
    pub(super) enum Job {
        /// A request wants a notification.
        Ask(Box<dyn Side>, Asked),
        /// A request ended.
        Close(Box<dyn Side>, ApprovalId),
        /// The window went out of sight: tell what waits and was not told.
        Remind(Box<dyn Side>),
        /// A notification with no action: its title and body.
        Plain(String, String),
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
    /// A reminder that comes meanwhile is done after the show too, so it does not tell again
    /// what the show told.
    pub(super) fn serve(receive: &mpsc::Receiver<Job>) {
        while let Ok(job) = receive.recv() {
            let (side, first) = match job {
                Job::Close(side, approval) => {
                    side.close(approval);
                    continue;
                }
                Job::Remind(side) => {
                    let untold = side.untold();
                    tell(side.as_ref(), untold, true);
                    continue;
                }
                Job::Plain(title, body) => {
                    send_plain(&title, &body);
                    continue;
                }
                Job::Ask(side, asked) => (side, asked),
            };
            let mut asked = vec![first];
            let mut closes = Vec::new();
            let mut remind = false;
            let until = Instant::now() + GATHER_AT_MOST;
            loop {
                let now = Instant::now();
                let wait = GATHER_QUIET.min(until.saturating_duration_since(now));
                if wait.is_zero() {
                    break;
                }
                match receive.recv_timeout(wait) {
                    Ok(Job::Ask(_, more)) => asked.push(more),
                    Ok(Job::Close(side, approval)) => {
                        if let Some(at) = asked.iter().position(|a| a.id == approval) {
                            // Ended before it was told: nothing to tell.
                            asked.remove(at);
                        } else {
                            closes.push((side, approval));
                        }
                    }
                    Ok(Job::Remind(_)) => remind = true,
                    Ok(Job::Plain(title, body)) => send_plain(&title, &body),
                    Err(_) => break,
                }
            }
            tell(side.as_ref(), asked, false);
            for (side, approval) in closes {
                side.close(approval);
            }
            if remind {
                let untold = side.untold();
                tell(side.as_ref(), untold, true);
            }
        }
    }

    /// Tells `asked`: up to [`MAX_NAMED`] one notification each, with Deny and Open (and
    /// Approve where [`Side::may_approve`]); more as one notification with their count and
    /// Open only, which stands for no single request and so never answers one.
    fn tell(side: &dyn Side, asked: Vec<Asked>, out_of_sight: bool) {
        if asked.is_empty() {
            return;
        }
        let Some(service) = side.gate(out_of_sight) else {
            return;
        };
        if asked.len() <= MAX_NAMED {
            for one in asked {
                let words = Words::for_approval(&one.summary, &one.folder, service.markup);
                let buttons = Buttons {
                    open: true,
                    deny: true,
                    approve: side.may_approve(one.id),
                };
                side.show(vec![one.id], words, buttons, service.staying);
            }
        } else {
            let words = Words::for_many(asked.len());
            side.show(
                asked.into_iter().map(|a| a.id).collect(),
                words,
                Buttons::OPEN_ONLY,
                service.staying,
            );
        }
    }

    /// The app's side of the notifications thread.
    struct AppSide<R: Runtime>(AppHandle<R>);

    impl<R: Runtime> Side for AppSide<R> {
        fn gate(&self, out_of_sight: bool) -> Option<Service> {
            let app = &self.0;
            if !super::should_notify(app, out_of_sight) {
                return None;
            }
            let check = app.try_state::<super::ServiceCheck>();
            if let Some(check) = &check {
                check.before_notifying(super::probe_service);
            }
            let known = check.and_then(|check| check.capabilities());
            Some(Service {
                // Escaped unless the service is known to show the body as plain text (no
                // `body-markup` capability): there `&amp;` would show as it is.
                markup: known.is_none_or(|caps| caps.markup),
                staying: super::staying(known.map(|caps| caps.persistence)),
            })
        }

        fn may_approve(&self, approval: ApprovalId) -> bool {
            let app = &self.0;
            let Some(backend) = app.try_state::<std::sync::Arc<askfirst_core::app::App>>() else {
                return false;
            };
            backend.may_approve_from_notification(approval)
        }

        fn untold(&self) -> Vec<Asked> {
            let app = &self.0;
            let Some(backend) = app.try_state::<std::sync::Arc<askfirst_core::app::App>>() else {
                return Vec::new();
            };
            let waiting = backend.list_pending_approvals();
            let Some(shown) = app.try_state::<Shown>() else {
                return Vec::new();
            };
            let told = shown.told().clone();
            waiting
                .into_iter()
                .filter(|request| !told.contains(&request.approval_id))
                .map(|request| asked(app, &request))
                .collect()
        }

        fn show(
            &self,
            approvals: Vec<ApprovalId>,
            words: Words,
            buttons: Buttons,
            staying: Staying,
        ) {
            let app = self.0.clone();
            let clicked = app.clone();
            let Some(bus) = bus::get(move |click| on_click(&clicked, click)) else {
                return;
            };
            let mut labelled = Vec::new();
            if buttons.open {
                labelled.push((Button::Open, words.open.clone()));
            }
            if buttons.deny {
                labelled.push((Button::Deny, words.deny.clone()));
            }
            if buttons.approve {
                labelled.push((Button::Approve, words.approve.clone()));
            }
            let Some(server_id) = bus.show(bus::Shown {
                title: words.title,
                body: words.body,
                buttons: labelled,
                expire_timeout_ms: staying.expire_timeout_ms,
                resident: staying.resident,
                urgency: staying.urgency,
                approvals: approvals.clone(),
            }) else {
                return; // no service: the probe logs it once
            };
            if let Some(shown) = app.try_state::<Shown>() {
                let mut map = shown.map();
                let mut told = shown.told();
                for approval in &approvals {
                    map.insert(*approval, server_id);
                    told.insert(*approval);
                }
            }
        }

        fn close(&self, approval: ApprovalId) {
            let Some(shown) = self.0.try_state::<Shown>() else {
                return;
            };
            shown.told().remove(&approval);
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
            if let Some(bus) = bus::opened() {
                bus.close(id);
            }
        }
    }

    /// `request` as its notification tells it: the folder is the one another agent works in
    /// for its requests, else the folder of the conversation in the window.
    fn asked<R: Runtime>(
        app: &AppHandle<R>,
        request: &askfirst_protocol::ApprovalRequest,
    ) -> Asked {
        Asked {
            id: request.approval_id,
            summary: request.summary.clone(),
            folder: super::folder_line(app, request),
        }
    }

    pub fn ask<R: Runtime>(app: &AppHandle<R>, request: &askfirst_protocol::ApprovalRequest) {
        in_order(Job::Ask(
            Box::new(AppSide(app.clone())),
            asked(app, request),
        ));
    }

    pub fn remind<R: Runtime>(app: &AppHandle<R>) {
        in_order(Job::Remind(Box::new(AppSide(app.clone()))));
    }

    /// A click that the bus took from the notification server: Open opens the window at the
    /// card; Deny and Approve answer the one request the notification tells (off this thread:
    /// the answer is written and synced to the session log first). An answer that comes after
    /// the request ended (answered in the window, timed out) changes nothing and says nothing.
    fn on_click<R: Runtime>(app: &AppHandle<R>, click: Click) {
        let answer = match click.button {
            Button::Open => {
                open_at_card(app, &click.approvals, click.server_id);
                return;
            }
            Button::Deny => NotificationAnswer::Deny,
            Button::Approve => NotificationAnswer::Approve,
        };
        // Only a notification of exactly one request answers (a burst offers no such button).
        let [approval] = click.approvals.as_slice() else {
            return;
        };
        let approval = *approval;
        let app = app.clone();
        let _ = std::thread::Builder::new()
            .name("notification-answer".into())
            .spawn(move || {
                let Some(backend) = app.try_state::<std::sync::Arc<askfirst_core::app::App>>()
                else {
                    return;
                };
                match backend.answer_from_notification(approval, answer) {
                    // The card leaves the window and the notification closes with the
                    // approval's end (`approval_resolved`), as for an answer in the window.
                    Ok(NotificationAnswered::Decided(_)) => {}
                    // Approve no longer offered (the setting was turned off): the card says
                    // the rest.
                    Ok(NotificationAnswered::NotOffered) => open_at_card(&app, &[approval], 0),
                    Err(error) => eprintln!("askfirst: a notification's answer: {error}"),
                }
            });
    }

    /// A click on the notification of `approvals` (server id `server_id`): the window opens at
    /// the first of its cards still waiting.
    fn open_at_card<R: Runtime>(app: &AppHandle<R>, approvals: &[ApprovalId], server_id: u32) {
        crate::window::show_main(app);
        let still = app.try_state::<Shown>().and_then(|shown| {
            let map = shown.map();
            approvals
                .iter()
                .find(|id| map.get(id) == Some(&server_id))
                .copied()
        });
        if let Some(approval) = still.or_else(|| approvals.first().copied()) {
            let _ = app.emit(FOCUS_APPROVAL, approval.to_string());
        }
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
/// running (D-Bus activation), and what it can do (`GetCapabilities`). Returns that.
///
/// # Errors
/// A sentence saying why no service answered (no session bus, nobody owns
/// `org.freedesktop.Notifications`, …).
pub fn probe_service() -> Result<Capabilities, String> {
    #[cfg(all(unix, not(target_os = "macos")))]
    {
        notify_rust::get_server_information().map_err(|e| e.to_string())?;
        Ok(notify_rust::get_capabilities()
            .map(|caps| Capabilities::from_names(&caps))
            .unwrap_or_default())
    }
    #[cfg(not(all(unix, not(target_os = "macos"))))]
    {
        Ok(Capabilities::default())
    }
}

/// What the notification service says it can do (Desktop Notifications Specification 1.2,
/// "GetCapabilities"), as far as Ask First's notifications change with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// `body-markup`: the body is read as markup (so it is escaped).
    pub markup: bool,
    /// `persistence`: notifications are kept until the person or the sender removes them
    /// (so the `resident` hint means something; see [`staying`]).
    pub persistence: bool,
}

impl Default for Capabilities {
    /// When the service would not say: markup assumed (escaping is the safe side) and
    /// persistence assumed (the `resident` hint then does no harm).
    fn default() -> Self {
        Self {
            markup: true,
            persistence: true,
        }
    }
}

impl Capabilities {
    /// From the names `GetCapabilities` returned.
    pub fn from_names(names: &[String]) -> Self {
        let has = |name: &str| names.iter().any(|c| c == name);
        Self {
            markup: has("body-markup"),
            persistence: has("persistence"),
        }
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
    capabilities: Option<Capabilities>,
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
    pub fn before_notifying(&self, probe: fn() -> Result<Capabilities, String>) {
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
                    Ok(capabilities) => {
                        state.found = true;
                        state.capabilities = Some(capabilities);
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

    /// What the service can do; `None` until a probe found it.
    pub fn capabilities(&self) -> Option<Capabilities> {
        self.state.lock_or_recover().capabilities
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
    fn missing() -> Result<Capabilities, String> {
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
    fn found() -> Result<Capabilities, String> {
        FOUND_CALLS.fetch_add(1, Ordering::SeqCst);
        Ok(Capabilities::from_names(&[
            "body".into(),
            "persistence".into(),
        ]))
    }

    #[test]
    fn a_service_once_found_is_not_asked_again() {
        let check = ServiceCheck::with_interval(Duration::ZERO);
        check.before_notifying(found);
        wait_for("the probe", || check.found() == Some(true));
        assert_eq!(
            check.capabilities(),
            Some(Capabilities {
                markup: false,
                persistence: true
            })
        );
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
    #[test]
    fn a_waiting_requests_notification_never_expires_and_stays_after_a_click() {
        let kept = Staying {
            expire_timeout_ms: 0,
            resident: true,
            urgency: 1,
        };
        assert_eq!(staying(Some(true)), kept);
        // Not known yet: as the desktops' own servers (they keep notifications).
        assert_eq!(staying(None), kept);
        // A server that keeps nothing: still never expires, no resident hint.
        assert_eq!(
            staying(Some(false)),
            Staying {
                resident: false,
                ..kept
            }
        );
        assert_eq!(
            Capabilities::from_names(&["actions".into(), "body".into()]),
            Capabilities {
                markup: false,
                persistence: false
            }
        );
    }

    /// The notifications thread with a desktop of its own: the requests that wait, whether the
    /// window is in front, and what was shown.
    #[cfg(target_os = "linux")]
    mod thread {
        use super::super::linux::{serve, Asked, Job, Service, Side};
        use super::super::{staying, Buttons, Staying, Words};
        use askfirst_protocol::ApprovalId;
        use pretty_assertions::assert_eq;
        use std::collections::HashSet;
        use std::sync::{mpsc, Arc, Mutex};

        #[derive(Default)]
        struct Desktop {
            waiting: Vec<(ApprovalId, String)>,
            told: HashSet<ApprovalId>,
            window_in_front: bool,
            /// Those the person lets a notification approve.
            approvable: HashSet<ApprovalId>,
            shown: Vec<(Vec<ApprovalId>, String, Staying)>,
            buttons: Vec<Buttons>,
        }

        #[derive(Clone, Default)]
        struct FakeSide(Arc<Mutex<Desktop>>);

        impl Side for FakeSide {
            fn gate(&self, out_of_sight: bool) -> Option<Service> {
                (out_of_sight || !self.0.lock().unwrap().window_in_front).then(|| Service {
                    markup: false,
                    staying: staying(Some(true)),
                })
            }
            fn may_approve(&self, approval: ApprovalId) -> bool {
                self.0.lock().unwrap().approvable.contains(&approval)
            }
            fn show(
                &self,
                approvals: Vec<ApprovalId>,
                words: Words,
                buttons: Buttons,
                staying: Staying,
            ) {
                let mut desktop = self.0.lock().unwrap();
                desktop.told.extend(approvals.iter().copied());
                desktop.shown.push((approvals, words.body, staying));
                desktop.buttons.push(buttons);
            }
            fn close(&self, approval: ApprovalId) {
                let mut desktop = self.0.lock().unwrap();
                desktop.told.remove(&approval);
                desktop.waiting.retain(|(id, _)| *id != approval);
            }
            fn untold(&self) -> Vec<Asked> {
                let desktop = self.0.lock().unwrap();
                desktop
                    .waiting
                    .iter()
                    .filter(|(id, _)| !desktop.told.contains(id))
                    .map(|(id, summary)| asked(*id, summary))
                    .collect()
            }
        }

        /// Runs `jobs` through the notifications thread until it has done them all; returns
        /// what was shown meanwhile (and forgets it).
        fn run(side: &FakeSide, jobs: Vec<Job>) -> Vec<(Vec<ApprovalId>, String, Staying)> {
            let (send, receive) = mpsc::channel();
            for job in jobs {
                send.send(job).unwrap();
            }
            drop(send);
            serve(&receive);
            std::mem::take(&mut side.0.lock().unwrap().shown)
        }

        fn asked(id: ApprovalId, summary: &str) -> Asked {
            Asked {
                id,
                summary: summary.into(),
                folder: "Folder: Taxes".into(),
            }
        }

        /// The body of a request's notification: its summary, then its folder.
        fn body(summary: &str) -> String {
            format!("{summary}\nFolder: Taxes")
        }

        fn ask(side: &FakeSide, summary: &str) -> (ApprovalId, Job) {
            let id = ApprovalId::new();
            side.0.lock().unwrap().waiting.push((id, summary.into()));
            (id, Job::Ask(Box::new(side.clone()), asked(id, summary)))
        }

        fn remind(side: &FakeSide) -> Job {
            Job::Remind(Box::new(side.clone()))
        }

        #[test]
        fn what_waits_is_told_when_the_window_goes_out_of_sight_and_only_once() {
            let side = FakeSide::default();
            side.0.lock().unwrap().window_in_front = true;
            // Two cards come while the person looks at the window: no notification.
            let (a, ask_a) = ask(&side, "Create the file a.txt");
            let (b, ask_b) = ask(&side, "Create the file b.txt");
            assert_eq!(run(&side, vec![ask_a, ask_b]), vec![]);
            // The window is closed to the tray: both are told now, and they stay.
            side.0.lock().unwrap().window_in_front = false;
            let kept = staying(Some(true));
            assert_eq!(
                run(&side, vec![remind(&side)]),
                vec![
                    (vec![a], body("Create the file a.txt"), kept),
                    (vec![b], body("Create the file b.txt"), kept),
                ]
            );
            // Shown and hidden again: nothing is told twice.
            assert_eq!(run(&side, vec![remind(&side)]), vec![]);
            // A card that comes while hidden is told once, not again by a reminder that
            // comes while it is being gathered.
            let (c, ask_c) = ask(&side, "Delete the file c.txt");
            assert_eq!(
                run(&side, vec![ask_c, remind(&side)]),
                vec![(vec![c], body("Delete the file c.txt"), kept)]
            );
            // One that ended is not told.
            side.0.lock().unwrap().window_in_front = true;
            let (d, ask_d) = ask(&side, "Delete the file d.txt");
            assert_eq!(run(&side, vec![ask_d]), vec![]);
            side.0.lock().unwrap().window_in_front = false;
            let close_d = Job::Close(Box::new(side.clone()), d);
            assert_eq!(run(&side, vec![close_d, remind(&side)]), vec![]);
        }

        #[test]
        fn many_that_wait_are_told_as_one_when_the_window_goes_out_of_sight() {
            let side = FakeSide::default();
            side.0.lock().unwrap().window_in_front = true;
            let jobs: Vec<Job> = (0..5)
                .map(|n| ask(&side, &format!("Create the file {n}.txt")).1)
                .collect();
            assert_eq!(run(&side, jobs), vec![]);
            side.0.lock().unwrap().window_in_front = false;
            let shown = run(&side, vec![remind(&side)]);
            assert_eq!(shown.len(), 1, "{shown:?}");
            assert_eq!(shown[0].0.len(), 5);
            assert_eq!(shown[0].1, "5 actions are waiting");
            // A burst stands for no single request: Open only, never Deny or Approve.
            assert_eq!(side.0.lock().unwrap().buttons, vec![Buttons::OPEN_ONLY]);
        }

        #[test]
        fn a_requests_notification_has_deny_and_approve_only_where_allowed() {
            let side = FakeSide::default();
            let (a, ask_a) = ask(&side, "Create the file a.txt");
            let (_, ask_b) = ask(&side, "Run the command make");
            side.0.lock().unwrap().approvable.insert(a);
            assert_eq!(run(&side, vec![ask_a, ask_b]).len(), 2);
            assert_eq!(
                side.0.lock().unwrap().buttons,
                vec![
                    Buttons {
                        open: true,
                        deny: true,
                        approve: true
                    },
                    Buttons {
                        open: true,
                        deny: true,
                        approve: false
                    },
                ]
            );
        }
    }
}
