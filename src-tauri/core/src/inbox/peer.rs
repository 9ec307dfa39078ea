//! Who may use the inbox: only the person's own programs. Each connection's peer is checked
//! with `SO_PEERCRED` (the kernel's record of the connecting process, socket(7)); the socket
//! lives in a folder only the person can enter (0700) and is itself 0600.

use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Why a connection was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The peer runs as another user.
    #[error("a program of another user (uid {peer}) tried to use the inbox")]
    OtherUser {
        /// The peer's uid.
        peer: u32,
    },
    /// The kernel could not say who the peer is.
    #[error("the inbox could not tell who connected: {0}")]
    Unknown(String),
}

/// Admits a peer whose uid is `peer` to the inbox of the user `own`: only the same user.
///
/// # Errors
/// [`Refusal::OtherUser`].
pub fn admit(peer: u32, own: u32) -> Result<(), Refusal> {
    if peer == own {
        Ok(())
    } else {
        Err(Refusal::OtherUser { peer })
    }
}

/// Checks the peer of `stream` with `SO_PEERCRED` against this process's uid.
///
/// # Errors
/// [`Refusal`].
pub fn check(stream: &tokio::net::UnixStream) -> Result<(), Refusal> {
    let cred = stream
        .peer_cred()
        .map_err(|error| Refusal::Unknown(error.to_string()))?;
    admit(cred.uid(), own_uid())
}

/// This process's real uid.
pub fn own_uid() -> u32 {
    nix::unistd::getuid().as_raw()
}

/// Makes `<runtime dir>/askfirst` (mode 0700, owned by this user) and returns the socket's
/// path in it.
///
/// # Errors
/// The I/O error; a folder owned by someone else is refused as `PermissionDenied`.
pub fn socket_folder(runtime_dir: &Path) -> std::io::Result<PathBuf> {
    let folder = runtime_dir.join("askfirst");
    match std::fs::DirBuilder::new().mode(0o700).create(&folder) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let meta = std::fs::symlink_metadata(&folder)?;
    if !meta.is_dir() || meta.uid() != own_uid() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!("{} is not a folder of this user", folder.display()),
        ));
    }
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700))?;
    Ok(folder.join(askfirst_protocol::INBOX_SOCKET_NAME))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use super::*;

    #[test]
    fn only_the_same_user_is_admitted() {
        assert_eq!(admit(1000, 1000), Ok(()));
        assert_eq!(admit(0, 1000), Err(Refusal::OtherUser { peer: 0 }));
        assert_eq!(admit(1001, 1000), Err(Refusal::OtherUser { peer: 1001 }));
    }

    #[test]
    fn the_socket_folder_is_made_private_even_when_it_was_open() {
        let runtime = tempfile::tempdir().expect("runtime dir");
        let open = runtime.path().join("askfirst");
        std::fs::create_dir(&open).expect("mkdir");
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        let socket = socket_folder(runtime.path()).expect("folder");
        assert_eq!(socket, open.join("inbox.sock"));
        let mode = std::fs::metadata(&open).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }
}
