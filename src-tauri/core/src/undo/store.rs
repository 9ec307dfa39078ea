//! The before-copies: content-addressed blobs in `<data dir>/undo/blobs/<sha256 hex>`, each
//! written to a temporary file, synced to the disk and renamed into place (and the folder
//! synced) before the change it allows to undo takes effect. One copy per distinct content,
//! however many changes share it. A blob's modification time is when a change last needed
//! it; over the size cap the blobs least recently needed go first.

use sha2::{Digest, Sha256};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The default size cap of all before-copies together, in bytes (1 GB).
pub const DEFAULT_UNDO_CAP_BYTES: u64 = 1_000_000_000;

/// The before-copies of one data folder, with their size cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoStore {
    dir: PathBuf,
    cap_bytes: u64,
}

impl UndoStore {
    /// The store in `<data_dir>/undo`, keeping at most `cap_bytes` of copies.
    pub fn new(data_dir: &Path, cap_bytes: u64) -> Self {
        Self {
            dir: data_dir.join("undo"),
            cap_bytes,
        }
    }

    /// The size cap, in bytes.
    pub fn cap_bytes(&self) -> u64 {
        self.cap_bytes
    }

    /// The largest file a copy is kept of: a quarter of the cap, so that one big file never
    /// clears every other change's copy.
    pub fn per_file_limit(&self) -> u64 {
        self.cap_bytes / 4
    }

    fn blobs(&self) -> PathBuf {
        self.dir.join("blobs")
    }

    /// Where the blob of hex digest `sha256` is (it may be gone).
    pub fn blob_path(&self, sha256: &str) -> Option<PathBuf> {
        // A digest from a log is checked before it becomes a file name.
        (sha256.len() == 64 && sha256.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| self.blobs().join(sha256))
    }

    /// Whether the blob is still kept.
    pub fn has(&self, sha256: &str) -> bool {
        self.blob_path(sha256).is_some_and(|p| p.is_file())
    }

    /// Keeps `bytes` and returns their hex SHA-256; durable on return (file and folder
    /// synced). Content already kept is not written again, only marked as needed now. Then
    /// clears the least recently needed other blobs while the total is over the cap.
    ///
    /// # Errors
    /// The I/O error (a full disk, a read-only data folder); nothing half-written is left.
    pub fn save(&self, bytes: &[u8]) -> io::Result<String> {
        let digest = format!("{:x}", Sha256::digest(bytes));
        let blobs = self.blobs();
        crate::data_dir::private_dir_all(&blobs)?;
        let target = blobs.join(&digest);
        if target.is_file() {
            File::options()
                .write(true)
                .open(&target)?
                .set_modified(std::time::SystemTime::now())?;
        } else {
            let tmp = self.dir.join(format!("tmp-{}", uuid::Uuid::new_v4()));
            let written = (|| {
                let mut options = OpenOptions::new();
                options.write(true).create_new(true);
                #[cfg(unix)]
                std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
                let mut file = options.open(&tmp)?;
                file.write_all(bytes)?;
                file.sync_all()?;
                drop(file);
                std::fs::rename(&tmp, &target)?;
                File::open(&blobs)?.sync_all()
            })();
            if let Err(error) = written {
                let _ = std::fs::remove_file(&tmp);
                return Err(error);
            }
        }
        self.clean_up(&digest);
        Ok(digest)
    }

    /// The kept bytes of `sha256`, checked against it; `None` when gone or damaged.
    pub fn load(&self, sha256: &str) -> Option<Vec<u8>> {
        let mut bytes = Vec::new();
        File::open(self.blob_path(sha256)?)
            .ok()?
            .read_to_end(&mut bytes)
            .ok()?;
        (format!("{:x}", Sha256::digest(&bytes)) == sha256).then_some(bytes)
    }

    /// How many bytes the kept copies take.
    pub fn total_bytes(&self) -> u64 {
        self.listing().iter().map(|(_, _, len)| len).sum()
    }

    fn listing(&self) -> Vec<(std::time::SystemTime, PathBuf, u64)> {
        let Ok(entries) = std::fs::read_dir(self.blobs()) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| {
                let meta = entry.metadata().ok()?;
                Some((meta.modified().ok()?, entry.path(), meta.len()))
            })
            .collect()
    }

    /// Removes the least recently needed blobs (never `keep`) while over the cap.
    fn clean_up(&self, keep: &str) {
        let mut blobs = self.listing();
        let mut total: u64 = blobs.iter().map(|(_, _, len)| len).sum();
        if total <= self.cap_bytes {
            return;
        }
        blobs.sort();
        for (_, path, len) in blobs {
            if total <= self.cap_bytes {
                break;
            }
            if path.file_name().is_some_and(|n| n == keep) {
                continue;
            }
            if std::fs::remove_file(&path).is_ok() {
                total = total.saturating_sub(len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn content_is_kept_once_and_the_oldest_goes_first_over_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let store = UndoStore::new(dir.path(), 25);
        let a = store.save(b"0123456789").unwrap();
        assert_eq!(store.save(b"0123456789").unwrap(), a);
        assert_eq!(store.total_bytes(), 10);
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        File::options()
            .write(true)
            .open(store.blob_path(&a).unwrap())
            .unwrap()
            .set_modified(old)
            .unwrap();
        let b = store.save(b"abcdefghij").unwrap();
        let c = store.save(b"ABCDEFGHIJ").unwrap();
        assert!(!store.has(&a), "the least recently needed copy went");
        assert!(store.has(&b) && store.has(&c));
        assert_eq!(store.load(&c).unwrap(), b"ABCDEFGHIJ");
        assert_eq!(store.load("../etc/passwd"), None);
    }
}
