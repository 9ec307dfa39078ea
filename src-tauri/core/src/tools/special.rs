//! Special files — named pipes (FIFOs), character and block devices, sockets — are refused by
//! every file tool without ever being opened: opening a named pipe waits for a writer (or a
//! reader) that may never come, which would freeze the run where Stop cannot reach it (file
//! tools are let finish, [`super::OnStop::Finish`]), and a device can give endless data.
//!
//! Checked twice: from metadata alone (`stat`/`lstat`, which do not open) when a call is
//! described and again when it runs; and where a file is opened, it is opened with
//! `O_NONBLOCK` and its type checked on the open handle (`fstat`) before a byte is read, so a
//! named pipe swapped in between the check and the open cannot block either.

use super::ToolError;
use crate::i18n::{tr, Arg};
use std::fs::{FileType, Metadata};
use std::path::Path;

/// What is at a path that is not an ordinary file. Shown (`Display`) in the model's English:
/// "a named pipe", "a device", "a socket", "a folder"; also part of a fingerprint
/// (`special:a named pipe`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SpecialKind {
    /// A named pipe (FIFO).
    NamedPipe,
    /// A character or block device.
    Device,
    /// A Unix socket.
    Socket,
    /// A folder, where a file was opened.
    Folder,
}

impl SpecialKind {
    /// What it is, for the person, in the language in force ("a named pipe").
    pub(crate) fn words(self) -> String {
        let key = match self {
            Self::NamedPipe => "special_kind-pipe",
            Self::Device => "special_kind-device",
            Self::Socket => "special_kind-socket",
            Self::Folder => "special_kind-folder",
        };
        tr(key, &[])
    }
}

impl std::fmt::Display for SpecialKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::NamedPipe => "a named pipe",
            Self::Device => "a device",
            Self::Socket => "a socket",
            Self::Folder => "a folder",
        })
    }
}

/// What kind of special file `file_type` is; `None` for a file, folder or symlink.
pub(crate) fn special_kind(file_type: FileType) -> Option<SpecialKind> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        kind_in_words(
            file_type.is_fifo(),
            file_type.is_char_device() || file_type.is_block_device(),
            file_type.is_socket(),
        )
    }
    #[cfg(not(unix))]
    {
        let _ = file_type;
        None
    }
}

/// [`special_kind`] for a file type seen beneath the workspace capability (cap-std).
pub(crate) fn special_kind_beneath(file_type: cap_std::fs::FileType) -> Option<SpecialKind> {
    #[cfg(unix)]
    {
        use cap_std::fs::FileTypeExt;
        kind_in_words(
            file_type.is_fifo(),
            file_type.is_char_device() || file_type.is_block_device(),
            file_type.is_socket(),
        )
    }
    #[cfg(not(unix))]
    {
        let _ = file_type;
        None
    }
}

/// The special kind of a file with these properties.
#[cfg(unix)]
fn kind_in_words(fifo: bool, device: bool, socket: bool) -> Option<SpecialKind> {
    if fifo {
        Some(SpecialKind::NamedPipe)
    } else if device {
        Some(SpecialKind::Device)
    } else if socket {
        Some(SpecialKind::Socket)
    } else {
        None
    }
}

/// The refusal of a special file: "`shown` is not an ordinary file (it is a named pipe); Ask
/// First does not open it."
pub(crate) fn refusal(shown: &str, kind: SpecialKind) -> ToolError {
    ToolError::said(
        format!("{shown} is not an ordinary file (it is {kind}); Ask First does not open it."),
        "tool_failed-special",
        &[
            ("name", Arg::from(shown)),
            ("kind", Arg::from(kind.words())),
        ],
    )
}

/// The reason inside an [`std::io::Error`] (of kind `InvalidInput`) when a step beneath the
/// workspace capability finds a special file: [`super::files::io_failed`] words it for the
/// person.
#[derive(Debug)]
pub(crate) struct NotOrdinary(pub(crate) SpecialKind);

impl std::fmt::Display for NotOrdinary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "it is not an ordinary file (it is {}); Ask First does not open it",
            self.0
        )
    }
}

impl std::error::Error for NotOrdinary {}

impl NotOrdinary {
    /// Why, for the person: `tool_failed-why-special` in the language in force.
    pub(crate) fn for_person(&self) -> String {
        tr(
            "tool_failed-why-special",
            &[("kind", Arg::from(self.0.words()))],
        )
    }
}

/// Refuses `meta` when it is of a special file.
///
/// # Errors
/// [`refusal`] naming `shown`.
pub(crate) fn refuse_special(meta: &Metadata, shown: &str) -> Result<(), ToolError> {
    match special_kind(meta.file_type()) {
        Some(kind) => Err(refusal(shown, kind)),
        None => Ok(()),
    }
}

/// The special kind of what is at `path` now, following symlinks, from metadata alone (the
/// file is not opened); `None` when it is no special file or cannot be looked at.
pub(crate) fn special_at(path: &Path) -> Option<SpecialKind> {
    std::fs::metadata(path)
        .ok()
        .and_then(|meta| special_kind(meta.file_type()))
}

/// Why [`open_regular`] gave no file.
#[derive(Debug)]
pub(crate) enum OpenRefused {
    /// Opening or checking failed.
    Io(std::io::Error),
    /// The open handle is of a special file of this kind (see [`special_kind`]), or "a
    /// folder".
    NotRegular(SpecialKind),
}

impl OpenRefused {
    /// The error as the model is told it, for the file shown as `shown`.
    pub(crate) fn into_tool_error(self, what: &str, shown: &str) -> ToolError {
        match self {
            Self::Io(e) => super::files::io_failed(what, shown, &e),
            Self::NotRegular(kind) => refusal(shown, kind),
        }
    }
}

impl From<std::io::Error> for OpenRefused {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

/// Opens `path` for reading without ever blocking: with `O_NONBLOCK` (a named pipe then opens
/// at once instead of waiting for a writer), then refuses anything but an ordinary file by the
/// open handle's own type (`fstat`), and clears `O_NONBLOCK` again for ordinary reads.
///
/// # Errors
/// [`OpenRefused::Io`] when opening fails; [`OpenRefused::NotRegular`] for anything but an
/// ordinary file.
pub(crate) fn open_regular(path: &Path) -> Result<std::fs::File, OpenRefused> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits());
    }
    let file = options.open(path)?;
    let file_type = file.metadata()?.file_type();
    if let Some(kind) = special_kind(file_type) {
        return Err(OpenRefused::NotRegular(kind));
    }
    if file_type.is_dir() {
        return Err(OpenRefused::NotRegular(SpecialKind::Folder));
    }
    #[cfg(unix)]
    {
        use nix::fcntl::{fcntl, FcntlArg, OFlag};
        let flags = OFlag::from_bits_truncate(
            fcntl(&file, FcntlArg::F_GETFL).map_err(std::io::Error::from)?,
        );
        fcntl(&file, FcntlArg::F_SETFL(flags - OFlag::O_NONBLOCK)).map_err(std::io::Error::from)?;
    }
    Ok(file)
}
