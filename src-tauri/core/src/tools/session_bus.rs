//! The D-Bus session bus, as the command sandbox and the key store see it. The desktop's
//! keyring (the Secret Service) answers anyone on the session bus, so a command the agent runs
//! must not reach that bus: [`SessionBus`] says where the bus is (the sockets to hide from a
//! command, [`super::sandbox`]) and whether a confined command could still reach it
//! ([`SessionBus::open_to_commands`]; then `crate::app::secrets` keeps API keys out of the
//! keyring).
//!
//! Addresses follow the D-Bus specification, "Server Addresses"
//! (<https://dbus.freedesktop.org/doc/dbus-specification.html#addresses>):
//! `transport:key=value,…;transport:…`, values percent-escaped. A client given no address uses
//! `$XDG_RUNTIME_DIR/bus` when that socket exists, as libdbus and GDBus do.

use super::sandbox::Confinement;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Where the session bus is, from `DBUS_SESSION_BUS_ADDRESS` and `XDG_RUNTIME_DIR`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionBus {
    /// The bus's sockets in the file system (`unix:path=…`, `unix:runtime=yes`, or
    /// `$XDG_RUNTIME_DIR/bus` when no address is set and that socket exists).
    pub paths: Vec<PathBuf>,
    /// Sockets in the abstract namespace (`unix:abstract=…`), which no mount can hide.
    pub abstract_names: Vec<String>,
    /// Addresses of other transports (`tcp:…`, `launchd:…`), as given.
    pub other: Vec<String>,
    /// `XDG_RUNTIME_DIR`, the folder of the person's sockets (the keyring's control socket is
    /// `keyring/control` in it), when it is an absolute path.
    pub runtime_dir: Option<PathBuf>,
}

impl SessionBus {
    /// The bus named by `address` (`DBUS_SESSION_BUS_ADDRESS`) and `runtime_dir`
    /// (`XDG_RUNTIME_DIR`); blank values count as unset.
    pub fn from_vars(address: Option<&str>, runtime_dir: Option<&str>) -> Self {
        let runtime_dir = runtime_dir
            .map(str::trim)
            .filter(|d| d.starts_with('/'))
            .map(PathBuf::from);
        let mut bus = Self {
            runtime_dir,
            ..Self::default()
        };
        let address = address.map(str::trim).filter(|a| !a.is_empty());
        let Some(address) = address else {
            if let Some(socket) = bus.runtime_dir.as_ref().map(|d| d.join("bus")) {
                if is_socket(&socket) {
                    bus.paths.push(socket);
                }
            }
            return bus;
        };
        for one in address.split(';').filter(|a| !a.trim().is_empty()) {
            let (transport, params) = one.split_once(':').unwrap_or((one, ""));
            let value = |key: &str| {
                params
                    .split(',')
                    .filter_map(|kv| kv.split_once('='))
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| unescape(v))
            };
            match transport {
                "unix" => {
                    if let Some(path) = value("path") {
                        bus.paths.push(PathBuf::from(path));
                    } else if let Some(name) = value("abstract") {
                        bus.abstract_names.push(name);
                    } else if value("runtime").as_deref() == Some("yes") {
                        if let Some(dir) = &bus.runtime_dir {
                            bus.paths.push(dir.join("bus"));
                        }
                    } else {
                        bus.other.push(one.to_owned());
                    }
                }
                _ => bus.other.push(one.to_owned()),
            }
        }
        bus
    }

    /// The bus of this process's environment, read once.
    pub fn of_process() -> &'static SessionBus {
        static BUS: OnceLock<SessionBus> = OnceLock::new();
        BUS.get_or_init(|| {
            let var = |name| std::env::var(name).ok();
            Self::from_vars(
                var("DBUS_SESSION_BUS_ADDRESS").as_deref(),
                var("XDG_RUNTIME_DIR").as_deref(),
            )
        })
    }

    /// Whether a session bus is named at all. When not, a D-Bus client would try to start
    /// one of its own ("autolaunch"), which Ask First never asks for.
    pub fn is_present(&self) -> bool {
        !(self.paths.is_empty() && self.abstract_names.is_empty() && self.other.is_empty())
    }

    /// Why a command confined by `confinement` could still talk to this bus, or `None` when it
    /// cannot. Sockets in the file system are hidden by the sandbox; abstract sockets are closed
    /// only by Landlock's scopes (`scopes`: [`super::sandbox::scopes_enforced`]); other
    /// transports are not closed. A command that is not confined can reach everything, the
    /// keyring as well as Ask First's own files (its card says so), so the keyring is no worse
    /// a place for a key then: `None`.
    pub fn open_to_commands(&self, confinement: &Confinement, scopes: bool) -> Option<String> {
        if !confinement.is_confined() {
            return None;
        }
        if let Some(other) = self.other.first() {
            return Some(format!(
                "the session bus {other} is not a Unix socket the command sandbox can hide"
            ));
        }
        match self.abstract_names.first() {
            Some(name) if !scopes => Some(format!(
                "the session bus is the abstract socket @{name}, which the command sandbox can \
                 close only with Landlock scopes (Linux 6.12 or later)"
            )),
            Some(_) | None => None,
        }
    }
}

/// Whether `path` is a Unix socket.
fn is_socket(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata(path).is_ok_and(|m| m.file_type().is_socket())
}

/// Undoes the `%XX` escapes of an address value (invalid escapes are kept as written).
fn unescape(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn confined() -> Confinement {
        Confinement::Bubblewrap {
            program: "/usr/bin/bwrap".into(),
            user_namespace: true,
        }
    }

    #[test]
    fn addresses_are_read_as_the_specification_writes_them() {
        let bus = SessionBus::from_vars(
            Some("unix:path=/tmp/dbus-a%20b,guid=1;unix:abstract=/tmp/dbus-x;tcp:host=h,port=1"),
            Some("/run/user/1000"),
        );
        assert_eq!(bus.paths, [PathBuf::from("/tmp/dbus-a b")]);
        assert_eq!(bus.abstract_names, ["/tmp/dbus-x"]);
        assert_eq!(bus.other, ["tcp:host=h,port=1"]);
        let runtime = SessionBus::from_vars(Some("unix:runtime=yes"), Some("/run/user/7"));
        assert_eq!(runtime.paths, [PathBuf::from("/run/user/7/bus")]);
        // No address and no socket in the runtime folder: no bus (never autolaunched).
        let none = SessionBus::from_vars(None, Some("/nonexistent-askfirst"));
        assert!(!none.is_present());
        assert!(!SessionBus::from_vars(Some("  "), None).is_present());
    }

    #[test]
    fn only_a_bus_the_sandbox_can_close_counts_as_closed() {
        let path = SessionBus::from_vars(Some("unix:path=/tmp/bus"), None);
        assert_eq!(path.open_to_commands(&confined(), false), None);
        let abstract_bus = SessionBus::from_vars(Some("unix:abstract=/tmp/dbus-x"), None);
        assert_eq!(abstract_bus.open_to_commands(&confined(), true), None);
        assert!(abstract_bus
            .open_to_commands(&confined(), false)
            .unwrap()
            .contains("Landlock"));
        let tcp = SessionBus::from_vars(Some("tcp:host=localhost,port=4"), None);
        assert!(tcp.open_to_commands(&confined(), true).is_some());
        let unconfined = Confinement::Unavailable {
            reason: "test".into(),
        };
        assert_eq!(abstract_bus.open_to_commands(&unconfined, false), None);
    }
}
