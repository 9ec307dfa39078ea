//! The session-bus side of approval notifications (Linux): one connection that sends them
//! (`Notify`, `CloseNotification`) to the notification server by its unique bus name, and
//! takes the clicks on them (`ActionInvoked`) only from that server.
//!
//! Any process of the person can send a signal named `ActionInvoked` on the session bus, as a
//! broadcast or straight to Ask First's connection; notify-rust takes any of them as a click.
//! A click on an answering button is an answer, so here it counts only when all of these hold:
//! the signal's sender is the unique name that owns `org.freedesktop.Notifications` now and
//! showed that notification (a match rule on it, and the header checked again, because a
//! signal sent straight to a connection reaches it whatever its rules say); the notification id
//! is one Ask First showed through that server and that is still open; and the action key
//! carries that notification's own nonce (`deny:<nonce>`, 122 random bits from the operating
//! system, never shown anywhere else), for a button it offered.
//!
//! Source: Desktop Notifications Specification 1.2 ("Notify", "ActionInvoked",
//! "NotificationClosed", "GetCapabilities"); D-Bus Specification, "Match Rules" and
//! "Message Bus Messages" (`GetNameOwner`, `NameOwnerChanged`).

use askfirst_core::sync::MutexExt;
use askfirst_protocol::ApprovalId;
use futures_util::StreamExt;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use zbus::names::{BusName, OwnedUniqueName};
use zbus::Variant as Value;
use zbus::{Connection, MatchRule, MessageStream};

const NAME: &str = "org.freedesktop.Notifications";
const PATH: &str = "/org/freedesktop/Notifications";
const INTERFACE: &str = "org.freedesktop.Notifications";

/// The action key of the notification's body (Desktop Notifications Specification 1.2: a
/// click on the notification itself). It only opens the window, as "Open" does.
pub const DEFAULT_ACTION: &str = "default";

/// A button of an approval's notification; its action key is `<key>:<nonce>`
/// (docs/automation.md: `open`, `deny`, `approve`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Button {
    /// Opens the window at the card.
    Open,
    /// Denies the one request the notification tells.
    Deny,
    /// Approves it (only for the kinds the person opted into).
    Approve,
}

impl Button {
    /// The first part of its action key.
    pub fn key(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Deny => "deny",
            Self::Approve => "approve",
        }
    }

    fn parse(key: &str) -> Option<Self> {
        [Self::Open, Self::Deny, Self::Approve]
            .into_iter()
            .find(|button| button.key() == key)
    }
}

/// A notification to show: its words, its buttons with their labels (in the order shown), how
/// it stays, and the approvals it tells.
pub struct Shown {
    /// The title.
    pub title: String,
    /// The body, already made safe for the server.
    pub body: String,
    /// The buttons and their labels; empty: none (and no click on the body either).
    pub buttons: Vec<(Button, String)>,
    /// `expire_timeout` in milliseconds.
    pub expire_timeout_ms: i32,
    /// The `resident` hint.
    pub resident: bool,
    /// The `urgency` hint (0 low, 1 normal, 2 critical).
    pub urgency: u8,
    /// The approvals it tells (one, or a burst).
    pub approvals: Vec<ApprovalId>,
}

/// A click that passed every check: which button, on the notification of which approvals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Click {
    /// The button (a click on the body counts as [`Button::Open`]).
    pub button: Button,
    /// The approvals the notification tells.
    pub approvals: Vec<ApprovalId>,
    /// The notification's id at the server.
    pub server_id: u32,
}

/// What the server can do, as far as the notifications change with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ServerCaps {
    /// `actions`: it shows buttons and reports clicks. Without it, no buttons are sent.
    pub actions: bool,
}

/// One notification the server shows for Ask First.
struct Open {
    nonce: String,
    buttons: Vec<Button>,
    approvals: Vec<ApprovalId>,
}

#[derive(Default)]
struct State {
    /// The unique name that owns `org.freedesktop.Notifications`, as last seen, and what it
    /// can do.
    owner: Option<(OwnedUniqueName, ServerCaps)>,
    /// The open notifications, by server id, of the owner above (ids belong to a server).
    open: HashMap<u32, Open>,
}

/// The connection, what is open on it, and what a click does.
pub struct Bus {
    connection: Connection,
    state: Mutex<State>,
    on_click: Box<dyn Fn(Click) + Send + Sync>,
}

static BUS: OnceLock<Option<Arc<Bus>>> = OnceLock::new();

/// The one connection, opened at the first call (`on_click` is what a click does: the first
/// call's is kept). `None` when there is no session bus.
pub fn get(on_click: impl Fn(Click) + Send + Sync + 'static) -> Option<Arc<Bus>> {
    BUS.get_or_init(|| match Bus::connect(Box::new(on_click)) {
        Ok(bus) => Some(bus),
        Err(error) => {
            eprintln!("askfirst: no session bus for notifications ({error})");
            None
        }
    })
    .clone()
}

/// The connection if it was opened.
pub fn opened() -> Option<Arc<Bus>> {
    BUS.get().cloned().flatten()
}

/// A nonce for one notification's action keys: 122 random bits (a version 4 UUID, from the
/// operating system's generator), as 32 hex digits.
fn nonce() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

impl Bus {
    /// Connects to the session bus, listens for the server's signals and starts the thread
    /// that takes them.
    fn connect(on_click: Box<dyn Fn(Click) + Send + Sync>) -> zbus::Result<Arc<Self>> {
        let connection = zbus::block_on(Connection::session())?;
        let bus = Arc::new(Self {
            connection,
            state: Mutex::new(State::default()),
            on_click,
        });
        // Who owns the name, and its signals, from now on.
        let owner_changes = MatchRule::builder()
            .msg_type(zbus::message::Type::Signal)
            .sender("org.freedesktop.DBus")
            .interface("org.freedesktop.DBus")
            .member("NameOwnerChanged")
            .arg(0, NAME)
            .build()?;
        let proxy = zbus::block_on(zbus::fdo::DBusProxy::new(&bus.connection))?;
        zbus::block_on(proxy.add_match_rule(owner_changes))?;
        let stream = MessageStream::from(&bus.connection);
        let listening = Arc::clone(&bus);
        std::thread::Builder::new()
            .name("notification-clicks".into())
            .spawn(move || listening.listen(stream))
            .map_err(|e| zbus::Error::Failure(e.to_string()))?;
        Ok(bus)
    }

    /// The server's unique name and capabilities, asking the bus when not known yet (the
    /// server may be started by D-Bus activation on the first `Notify`, so after a failed
    /// look the next show looks again). Adds the match rule on its signals.
    fn owner(&self) -> Option<(OwnedUniqueName, ServerCaps)> {
        if let Some(known) = self.state.lock_or_recover().owner.clone() {
            return Some(known);
        }
        let proxy = zbus::block_on(zbus::fdo::DBusProxy::new(&self.connection)).ok()?;
        // Starts a server that is installed but not running.
        let _ = zbus::block_on(proxy.start_service_by_name(NAME.try_into().ok()?, 0));
        let name: BusName<'_> = NAME.try_into().ok()?;
        let owner = zbus::block_on(proxy.get_name_owner(name)).ok()?;
        self.follow(&owner);
        let caps = self.capabilities(&owner);
        let mut state = self.state.lock_or_recover();
        state.owner = Some((owner.clone(), caps));
        Some((owner, caps))
    }

    /// Listens to `owner`'s notification signals (a match rule with its unique name).
    fn follow(&self, owner: &OwnedUniqueName) {
        let Ok(proxy) = zbus::block_on(zbus::fdo::DBusProxy::new(&self.connection)) else {
            return;
        };
        for member in ["ActionInvoked", "NotificationClosed"] {
            let rule = MatchRule::builder()
                .msg_type(zbus::message::Type::Signal)
                .sender(owner.as_str())
                .path(PATH)
                .interface(INTERFACE)
                .member(member)
                .build();
            if let Ok(rule) = rule {
                let _ = zbus::block_on(proxy.add_match_rule(rule));
            }
        }
    }

    fn capabilities(&self, owner: &OwnedUniqueName) -> ServerCaps {
        let reply = zbus::block_on(self.connection.call_method(
            Some(owner.as_str()),
            PATH,
            Some(INTERFACE),
            "GetCapabilities",
            &(),
        ));
        let names: Vec<String> = reply
            .ok()
            .and_then(|reply| reply.body().deserialize().ok())
            .unwrap_or_default();
        ServerCaps {
            actions: names.iter().any(|name| name == "actions"),
        }
    }

    /// Shows `shown` through the server; returns its id there. Buttons are sent only to a
    /// server with the `actions` capability.
    pub fn show(&self, shown: Shown) -> Option<u32> {
        let (owner, caps) = self.owner()?;
        let nonce = nonce();
        let buttons: Vec<(Button, String)> = if caps.actions {
            shown.buttons
        } else {
            Vec::new()
        };
        let mut actions: Vec<String> = Vec::new();
        if buttons.iter().any(|(button, _)| *button == Button::Open) {
            let open = buttons
                .iter()
                .find(|(button, _)| *button == Button::Open)
                .map(|(_, label)| label.clone())
                .unwrap_or_default();
            actions.push(DEFAULT_ACTION.to_owned());
            actions.push(open);
        }
        for (button, label) in &buttons {
            actions.push(format!("{}:{nonce}", button.key()));
            actions.push(label.clone());
        }
        let mut hints: HashMap<&str, Value<'_>> = HashMap::new();
        hints.insert("urgency", Value::U8(shown.urgency));
        if shown.resident {
            hints.insert("resident", Value::Bool(true));
        }
        let reply = zbus::block_on(self.connection.call_method(
            Some(owner.as_str()),
            PATH,
            Some(INTERFACE),
            "Notify",
            &(
                "Ask First",
                0u32,
                "",
                shown.title.as_str(),
                shown.body.as_str(),
                &actions,
                &hints,
                shown.expire_timeout_ms,
            ),
        ));
        let id: u32 = match reply.and_then(|reply| reply.body().deserialize()) {
            Ok(id) => id,
            Err(_) => {
                // The server may have gone: look for it again next time.
                self.state.lock_or_recover().owner = None;
                return None;
            }
        };
        self.state.lock_or_recover().open.insert(
            id,
            Open {
                nonce,
                buttons: buttons.into_iter().map(|(button, _)| button).collect(),
                approvals: shown.approvals,
            },
        );
        Some(id)
    }

    /// Closes the notification `id` (asks the server to), and forgets it: no click on it
    /// counts from now on.
    pub fn close(&self, id: u32) {
        let owner = {
            let mut state = self.state.lock_or_recover();
            state.open.remove(&id);
            state.owner.clone()
        };
        let Some((owner, _)) = owner else {
            return;
        };
        let _ = zbus::block_on(self.connection.call_method(
            Some(owner.as_str()),
            PATH,
            Some(INTERFACE),
            "CloseNotification",
            &(id,),
        ));
    }

    /// Takes the signals that reach the connection, until it closes.
    fn listen(&self, mut stream: MessageStream) {
        while let Some(message) = zbus::block_on(stream.next()) {
            let Ok(message) = message else {
                continue;
            };
            if let Some(click) = self.take(&message) {
                (self.on_click)(click);
            }
        }
    }

    /// What `message` means for the notifications: a click that passed every check, or
    /// nothing (a signal from anyone else, for a notification not ours or no longer open,
    /// or with a key that is not one we gave).
    fn take(&self, message: &zbus::Message) -> Option<Click> {
        let header = message.header();
        if header.message_type() != zbus::message::Type::Signal {
            return None;
        }
        let sender = header.sender()?.as_str().to_owned();
        let interface = header.interface()?.as_str().to_owned();
        let member = header.member()?.as_str().to_owned();
        let path = header.path()?.as_str().to_owned();
        if interface == "org.freedesktop.DBus" && member == "NameOwnerChanged" {
            if sender != "org.freedesktop.DBus" {
                return None;
            }
            let (name, _old, new): (String, String, String) = message.body().deserialize().ok()?;
            if name == NAME {
                // Another server (or none): what the old one showed is gone with it.
                let mut state = self.state.lock_or_recover();
                state.owner = None;
                state.open.clear();
                drop(state);
                if !new.is_empty() {
                    let _ = self.owner();
                }
            }
            return None;
        }
        if interface != INTERFACE || path != PATH {
            return None;
        }
        let mut state = self.state.lock_or_recover();
        let from_server = state
            .owner
            .as_ref()
            .is_some_and(|(owner, _)| owner.as_str() == sender);
        if !from_server {
            return None;
        }
        match member.as_str() {
            "ActionInvoked" => {
                let (id, key): (u32, String) = message.body().deserialize().ok()?;
                let open = state.open.get(&id)?;
                let button = if key == DEFAULT_ACTION {
                    open.buttons
                        .contains(&Button::Open)
                        .then_some(Button::Open)?
                } else {
                    let (name, nonce) = key.split_once(':')?;
                    let button = Button::parse(name)?;
                    if !same_nonce(nonce, &open.nonce) || !open.buttons.contains(&button) {
                        return None;
                    }
                    button
                };
                Some(Click {
                    button,
                    approvals: open.approvals.clone(),
                    server_id: id,
                })
            }
            "NotificationClosed" => {
                let (id, _reason): (u32, u32) = message.body().deserialize().ok()?;
                state.open.remove(&id);
                None
            }
            _ => None,
        }
    }
}

/// Whether two nonces are the same, comparing every byte (no early exit on the first
/// difference).
fn same_nonce(given: &str, ours: &str) -> bool {
    given.len() == ours.len()
        && given
            .bytes()
            .zip(ours.bytes())
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nonce_is_new_each_time_and_compared_whole() {
        let (a, b) = (nonce(), nonce());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert!(same_nonce(&a, &a.clone()));
        assert!(!same_nonce(&a, &b));
        assert!(!same_nonce(&a, &a[..31]));
        assert!(!same_nonce("", &a));
        assert_eq!(Button::parse("deny"), Some(Button::Deny));
        assert_eq!(Button::parse("default"), None);
    }
}
