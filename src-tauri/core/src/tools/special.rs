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
use std::fs::{FileType, Metadata};
use std::path::Path;

/// What kind of special file `file_type` is, in words ("a named pipe", "a device",
/// "a socket"); `None` for a file, folder or symlink.
pub(crate) fn special_kind(file_type: FileType) -> Option<&'static str> {
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
pub(crate) fn special_kind_beneath(file_type: cap_std::fs::FileType) -> Option<&'static str> {
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

/// The words for a special file of one of these kinds.
#[cfg(unix)]
fn kind_in_words(fifo: bool, device: bool, socket: bool) -> Option<&'static str> {
    if fifo {
        Some("a named pipe")
    } else if device {
        Some("a device")
    } else if socket {
        Some("a socket")
    } else {
        None
    }
}

/// The refusal of a special file: "`shown` is not an ordinary file (it is a named pipe); Ask
/// First does not open it."
pub(crate) fn refusal(shown: &str, kind: &str) -> ToolError {
    ToolError::Failed(format!(
        "{shown} is not an ordinary file (it is {kind}); Ask First does not open it."
    ))
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
pub(crate) fn special_at(path: &Path) -> Option<&'static str> {
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
    NotRegular(&'static str),
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
        return Err(OpenRefused::NotRegular("a folder"));
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
