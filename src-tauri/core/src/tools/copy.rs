//! The copy of the person's folder a command is tried on first (DESIGN.md §7.4, "effects, not
//! words"): an overlayfs view of the folder whose changes land in a folder of Ask First's own
//! (the *upper* folder), so that the real folder stays as it is until the person, a rule or a
//! grant says yes to what the command actually did ([`crate::changes`] reads and applies it).
//!
//! How the copy is made: bubblewrap 0.8 (Debian 12) has no `--overlay`, so the command's bwrap
//! is started inside a user and mount namespace of its own made by util-linux's `unshare -Urm`,
//! in which `mount -t overlay -o userxattr` (Linux 5.11 and later) puts the copy over the
//! folder's own path; bwrap, nested inside, binds that path as usual, so everything else of
//! the confinement ([`super::sandbox`]) stays as it is. The command keeps the person's user
//! and group ids (`--uid`, `--gid`). A try runs without the network (`--unshare-net`) unless
//! the person approved the command's use of it. The upper and work folders live in
//! `<data folder>/runs/<id>` (or, where the data folder lies inside the person's folder, in
//! the system's temporary folder), never inside the folder and never around it, and are
//! hidden from the command with the rest of Ask First's files. They are removed when the
//! [`CopyFolder`] is dropped.
//!
//! Where the copy cannot be made (no unprivileged user namespaces, a setuid bwrap, a kernel
//! or file system overlayfs refuses), [`CopyFolder::make`] or the try says so with
//! [`NoCopy`], and the command is asked about first, on its words, as before — the card then
//! says it runs on the folder itself.

use super::Workspace;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The most processes one try may have at once (`ulimit -u`), so a fork bomb ends the try
/// instead of freezing the computer. Counted per user namespace (Linux 5.14 and later).
pub const TRY_PROCESS_CAP: u32 = 1_000;

/// The shell script that makes the copy inside the new namespaces, then starts bwrap: `$1`
/// is the run's folder (holding `lower`, a link to the person's folder, and `upper`, `work`),
/// `$2` the person's folder, the rest bwrap's command line. Relative names in the mount
/// options mean no path is ever spelled inside them (a comma or colon in a folder's name
/// cannot change them). When the mount fails it writes `nocopy` to standard input (the pipe
/// only Ask First reads, see `sandbox::RUNNER`) and ends; so it does when the process limit
/// cannot be set (`ulimit -u` in bash, `-p` in dash, which has no `-u`): a try is never
/// started without it.
const MAKE_COPY: &str = r#"cd "$1" || { echo nocopy >&0; exit 125; }
PATH=/usr/sbin:/usr/bin:/sbin:/bin mount -t overlay askfirst-copy -o userxattr,lowerdir=lower,upperdir=upper,workdir=work "$2" 2>/dev/null || { echo nocopy >&0; exit 125; }
{ ulimit -u "$3" || ulimit -p "$3"; } 2>/dev/null || { echo nocopy >&0; exit 125; }
shift 3
exec "$@""#;

/// Why a command cannot be tried on a copy here (for logs; the card's sentence is
/// [`NO_COPY_SENTENCE`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the command cannot be tried on a copy of the folder: {reason}")]
pub struct NoCopy {
    /// What failed, e.g. "bwrap cannot make a user namespace on this computer".
    pub reason: String,
}

/// The card's sentence for a command that runs on the folder itself because no copy could be
/// made, as a sentence key of `locales/*/app.ftl`.
pub const NO_COPY_SENTENCE: &str = "confinement-no_copy";

/// One try's copy of the folder: the run's folder with `upper` (what the command changed),
/// `work` (overlayfs's own) and `lower` (a link to the person's folder). Removed when dropped.
#[derive(Debug)]
pub struct CopyFolder {
    run_dir: PathBuf,
    root: PathBuf,
    /// The bytes free for this user on the file system of the copy when it was made.
    free_at_start: u64,
    /// Set when the try wrote past its bounds ([`WriteBounds`]) and was stopped.
    overflowed: std::sync::atomic::AtomicBool,
}

/// The most a try may write on its copy (disk space its new and changed files take): 8 GiB.
/// Past it the try is stopped and nothing of it is applied.
pub const TRY_WRITE_CAP_BYTES: u64 = 8 << 30;

/// The environment variable that lowers [`TRY_WRITE_CAP_BYTES`] (`ASKFIRST_TRY_WRITE_CAP=<bytes>`),
/// read once: for tests of a try that writes too much, and for a computer with little room.
pub const TRY_WRITE_CAP_ENV: &str = "ASKFIRST_TRY_WRITE_CAP";

/// The most a try may write: [`TRY_WRITE_CAP_BYTES`], or less where [`TRY_WRITE_CAP_ENV`]
/// says so.
pub fn write_cap() -> u64 {
    static CAP: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *CAP.get_or_init(|| {
        std::env::var(TRY_WRITE_CAP_ENV)
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map_or(TRY_WRITE_CAP_BYTES, |cap| cap.min(TRY_WRITE_CAP_BYTES))
    })
}

/// The free space a try always leaves on the disk that holds the copy: 1 GiB (unless the disk
/// had less to begin with; then it may use half of what was free).
pub const TRY_FREE_FLOOR_BYTES: u64 = 1 << 30;

/// The most entries a try's copy may hold before it is stopped (as many as a change set may
/// have, `agent::try_first::CHANGE_CAP`).
pub const TRY_ENTRY_CAP: usize = 200_000;

/// What a running try may write ([`CopyFolder::bounds`]), checked from another thread while it
/// runs.
#[derive(Debug, Clone)]
pub struct WriteBounds {
    upper: PathBuf,
    free_at_start: u64,
}

impl WriteBounds {
    /// Whether the try has written past its bounds: more than [`write_cap`] bytes or
    /// [`TRY_ENTRY_CAP`] entries in its copy, or the disk's free space below
    /// [`TRY_FREE_FLOOR_BYTES`] (or below half of what was free when it started). Folders it
    /// made unreadable are not looked into; the free space still counts what is in them.
    pub fn exceeded(&self) -> bool {
        let floor = TRY_FREE_FLOOR_BYTES.min(self.free_at_start / 2);
        if free_bytes(&self.upper).is_some_and(|free| free < floor) {
            return true;
        }
        let (mut bytes, mut entries) = (0_u64, 0_usize);
        let mut folders = vec![self.upper.clone()];
        while let Some(folder) = folders.pop() {
            let Ok(listing) = std::fs::read_dir(&folder) else {
                continue;
            };
            for entry in listing.flatten() {
                entries += 1;
                let Ok(meta) = entry.metadata() else { continue };
                bytes = bytes.saturating_add(std::os::unix::fs::MetadataExt::blocks(&meta) * 512);
                if meta.is_dir() {
                    folders.push(entry.path());
                }
                if entries > TRY_ENTRY_CAP || bytes > write_cap() {
                    return true;
                }
            }
        }
        false
    }
}

/// The bytes free for this user on the file system holding `path`.
fn free_bytes(path: &Path) -> Option<u64> {
    let stat = nix::sys::statvfs::statvfs(path).ok()?;
    Some(stat.blocks_available().saturating_mul(stat.fragment_size()))
}

impl CopyFolder {
    /// Makes an empty copy for a command in `ws`.
    ///
    /// # Errors
    /// [`NoCopy`] when commands are not confined here, bwrap has no user namespace of its own,
    /// no folder for the copy can be found outside the person's folder, or it cannot be made.
    pub fn make(ws: &Workspace) -> Result<Self, NoCopy> {
        match super::sandbox::Confinement::detected() {
            super::sandbox::Confinement::Bubblewrap {
                user_namespace: true,
                ..
            } => {}
            super::sandbox::Confinement::Bubblewrap { .. } => {
                return Err(NoCopy {
                    reason: "bwrap cannot make a user namespace on this computer".into(),
                })
            }
            super::sandbox::Confinement::Unavailable { reason } => {
                return Err(NoCopy {
                    reason: reason.clone(),
                })
            }
        }
        let root = ws.root().to_path_buf();
        let runs = runs_folder(ws).ok_or_else(|| NoCopy {
            reason: "no folder for the copy lies outside the person's folder".into(),
        })?;
        let failed = |e: std::io::Error| NoCopy {
            reason: format!(
                "the folder for the copy could not be made in {}: {e}",
                runs.display()
            ),
        };
        make_private_dir(&runs).map_err(failed)?;
        let run_dir = runs.join(uuid::Uuid::new_v4().to_string());
        make_private_dir(&run_dir).map_err(failed)?;
        let free_at_start = free_bytes(&run_dir).unwrap_or(u64::MAX);
        let copy = Self {
            run_dir,
            root,
            free_at_start,
            overflowed: std::sync::atomic::AtomicBool::new(false),
        };
        std::fs::create_dir(copy.upper()).map_err(failed)?;
        std::fs::create_dir(copy.run_dir.join("work")).map_err(failed)?;
        std::os::unix::fs::symlink(&copy.root, copy.run_dir.join("lower")).map_err(failed)?;
        Ok(copy)
    }

    /// The upper folder: what the command changed, as overlayfs keeps it.
    pub fn upper(&self) -> PathBuf {
        self.run_dir.join("upper")
    }

    /// What the try on this copy may write, for a watch while it runs.
    pub fn bounds(&self) -> WriteBounds {
        WriteBounds {
            upper: self.upper(),
            free_at_start: self.free_at_start,
        }
    }

    /// Records that the try wrote past its bounds and was stopped.
    pub(crate) fn mark_overflowed(&self) {
        self.overflowed
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether the try wrote past its bounds and was stopped: nothing of it may be applied.
    pub fn overflowed(&self) -> bool {
        self.overflowed.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The person's folder this is a copy of (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `bwrap` (as `sandbox::confined_command` made it) started inside the namespaces that
    /// hold this copy, with the person's ids, and without the network unless `network`.
    pub(crate) fn wrap(&self, bwrap: &Command, network: bool) -> Command {
        let mut unshare = Command::new(unshare_program());
        unshare
            .args(["-Urm", "--", "sh", "-c", MAKE_COPY, "askfirst-copy"])
            .arg(&self.run_dir)
            .arg(&self.root)
            .arg(TRY_PROCESS_CAP.to_string())
            .arg(bwrap.get_program());
        let uid = nix::unistd::getuid().as_raw().to_string();
        let gid = nix::unistd::getgid().as_raw().to_string();
        unshare.args(["--uid", &uid, "--gid", &gid]);
        if !network {
            unshare.arg("--unshare-net");
        }
        unshare.args(bwrap.get_args());
        unshare.env_clear();
        for (name, value) in bwrap.get_envs() {
            if let Some(value) = value {
                unshare.env(name, value);
            }
        }
        if let Some(folder) = bwrap.get_current_dir() {
            unshare.current_dir(folder);
        }
        unshare
    }
}

impl Drop for CopyFolder {
    fn drop(&mut self) {
        // overlayfs leaves `work/work` without any permission, and the command may have left
        // folders of the upper folder so (`chmod 000`): they must be opened to be removed by
        // a person who is not root.
        open_folders(&self.run_dir);
        let _ = std::fs::remove_dir_all(&self.run_dir);
    }
}

/// Gives every folder beneath `dir` (and `dir`), not through a link, the owner's read, write
/// and search permission where it lacks them (best effort), so that it can be removed.
fn open_folders(dir: &Path) {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    let mut todo = vec![dir.to_path_buf()];
    while let Some(folder) = todo.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&folder) else {
            continue;
        };
        if !meta.is_dir() {
            continue;
        }
        if meta.mode() & 0o700 != 0o700 {
            let _ = std::fs::set_permissions(
                &folder,
                std::fs::Permissions::from_mode((meta.mode() & 0o7777) | 0o700),
            );
        }
        let Ok(children) = std::fs::read_dir(&folder) else {
            continue;
        };
        for child in children.flatten() {
            if child.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(child.path());
            }
        }
    }
}

/// A folder only this user may enter, made if missing.
fn make_private_dir(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    match std::fs::DirBuilder::new().mode(0o700).create(path) {
        Ok(()) => Ok(()),
        // Only a real folder of this user's (not a link, nor another user's folder in a
        // shared temporary folder).
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::symlink_metadata(path)?;
            if meta.is_dir() && meta.uid() == nix::unistd::getuid().as_raw() {
                Ok(())
            } else {
                Err(std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    "it is not a folder of this user's",
                ))
            }
        }
        Err(e) => Err(e),
    }
}

/// Where tries keep their copies: `<data folder>/runs`, or `<temp>/askfirst-runs-<uid>`
/// where the data folder lies inside the person's folder (or is not known); never a folder
/// inside the person's folder or around it (overlayfs's upper folder must not overlap its
/// lower one).
fn runs_folder(ws: &Workspace) -> Option<PathBuf> {
    let root = ws.root();
    let apart = |folder: &Path| !folder.starts_with(root) && !root.starts_with(folder);
    let in_data = ws.own_data().map(|data| data.join("runs"));
    let in_temp = std::fs::canonicalize(std::env::temp_dir())
        .ok()
        .map(|temp| {
            let mut name = OsString::from("askfirst-runs-");
            name.push(nix::unistd::getuid().as_raw().to_string());
            temp.join(name)
        });
    in_data
        .into_iter()
        .chain(in_temp)
        .find(|folder| apart(folder))
}

/// The environment variable that turns trying commands on a copy off (`ASKFIRST_TRY_FIRST=off`),
/// read once: commands are then asked about on their words and run on the folder itself, and
/// their cards say so. For computers where the copy misbehaves, and for tests of that path.
pub const TRY_FIRST_SWITCH_ENV: &str = "ASKFIRST_TRY_FIRST";

/// Whether commands in `ws` can be tried on a copy here: commands are confined with a user
/// namespace of bwrap's own, a folder for copies lies outside `ws`, and the kernel made a test
/// copy there (tried once per process and folder for copies, a few milliseconds).
pub fn available(ws: &Workspace) -> bool {
    let works = probed(ws);
    crate::sync::MutexExt::lock_or_recover(tried_first_folders())
        .insert(ws.root().to_owned(), works);
    works
}

/// The folders [`available`] was asked about, and its answer.
fn tried_first_folders() -> &'static std::sync::Mutex<std::collections::HashMap<PathBuf, bool>> {
    static FOLDERS: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<PathBuf, bool>>,
    > = std::sync::OnceLock::new();
    FOLDERS.get_or_init(Default::default)
}

/// Whether commands in the folder `root` (canonical) are tried on a copy first, as
/// [`available`] last answered for it (every command's card is described, and so asks,
/// before the policy decides about it); `false` for a folder it was never asked about.
pub fn tried_first_in(root: &Path) -> bool {
    crate::sync::MutexExt::lock_or_recover(tried_first_folders())
        .get(root)
        .copied()
        .unwrap_or(false)
}

/// [`available`], without recording the answer.
fn probed(ws: &Workspace) -> bool {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static PROBED: OnceLock<Mutex<HashMap<PathBuf, bool>>> = OnceLock::new();
    if std::env::var_os(TRY_FIRST_SWITCH_ENV).is_some_and(|v| v.eq_ignore_ascii_case("off")) {
        return false;
    }
    if !matches!(
        super::sandbox::Confinement::detected(),
        super::sandbox::Confinement::Bubblewrap {
            user_namespace: true,
            ..
        }
    ) {
        return false;
    }
    let Some(runs) = runs_folder(ws) else {
        return false;
    };
    let probed = PROBED.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(known) = crate::sync::MutexExt::lock_or_recover(probed).get(&runs) {
        return *known;
    }
    let works = probe(&runs);
    if !works {
        eprintln!(
            "askfirst: commands cannot be tried on a copy of the folder here (a test copy in {} failed)",
            runs.display()
        );
    }
    crate::sync::MutexExt::lock_or_recover(probed).insert(runs, works);
    works
}

/// Makes a test copy of an empty folder in `runs` (see [`MAKE_COPY`]); whether it worked.
fn probe(runs: &Path) -> bool {
    if make_private_dir(runs).is_err() {
        return false;
    }
    let dir = runs.join(format!("probe-{}", uuid::Uuid::new_v4()));
    if make_private_dir(&dir).is_err() {
        return false;
    }
    let made = ["lower", "upper", "work"]
        .iter()
        .all(|name| std::fs::create_dir(dir.join(name)).is_ok());
    let works = made
        && Command::new(unshare_program())
            .args([
                "-Urm",
                "--",
                "sh",
                "-c",
                "cd \"$1\" && mount -t overlay askfirst-probe -o userxattr,lowerdir=lower,upperdir=upper,workdir=work lower && touch lower/made",
                "askfirst-probe",
            ])
            .arg(&dir)
            .env_clear()
            .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
        && dir.join("upper/made").exists()
        && !dir.join("lower/made").exists();
    let _ = std::fs::set_permissions(
        dir.join("work/work"),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    );
    let _ = std::fs::remove_dir_all(&dir);
    works
}

/// util-linux's `unshare`, found on `PATH` once (or `/usr/bin/unshare`).
fn unshare_program() -> &'static Path {
    static FOUND: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    FOUND.get_or_init(|| {
        super::sandbox::find_on_path("unshare").unwrap_or_else(|| PathBuf::from("/usr/bin/unshare"))
    })
}
