//! What reading and applying a command's changes costs (`changes`), once the command was tried
//! on a copy of the folder (`tools::copy`, `tools::try_on_copy`):
//!
//! - reading one change (`echo x > new.txt`) in a folder of 100 files and in one of 10,000:
//!   `changes::read` walks only the copy's upper folder, so it must not grow with the folder;
//! - applying 1,000 small files one try made (criterion; a fresh try per iteration, untimed);
//! - a plain loop of a few runs with one 1 GiB file: made by a try (`head -c 1G /dev/zero`),
//!   and an existing one changed by a try (a line appended), whose before-copy the store
//!   keeps only when the file is within `UndoStore::per_file_limit` (a quarter of the cap:
//!   250 MB by default, so not with the default cap; kept with a 5 GB cap).
//!
//! `make bench` runs it; figures are in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use askfirst_core::changes::{self, ChangeSet};
use askfirst_core::tools::copy::{self, CopyFolder};
use askfirst_core::tools::{try_on_copy, Workspace};
use askfirst_core::undo::{UndoStore, Was, DEFAULT_UNDO_CAP_BYTES};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// As many entries as the app reads a command's changes up to (`agent::try_first::CHANGE_CAP`).
const CHANGE_CAP: usize = 200_000;

/// Runs of each 1 GiB case.
const BIG_RUNS: usize = 5;

const GIB: u64 = 1 << 30;

/// A person's folder and Ask First's data folder beside it (never inside it).
struct Place {
    _dir: tempfile::TempDir,
    data: PathBuf,
    ws: Workspace,
}

impl Place {
    /// `files` small files, in folders of 100.
    fn new(files: usize) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("folder");
        let data = dir.path().join("data");
        std::fs::create_dir_all(&data).unwrap();
        for n in 0..files {
            let folder = root.join(format!("folder-{:03}", n / 100));
            if n % 100 == 0 {
                std::fs::create_dir_all(&folder).unwrap();
            }
            std::fs::write(
                folder.join(format!("file-{:03}.txt", n % 100)),
                "some text\n",
            )
            .unwrap();
        }
        std::fs::create_dir_all(&root).unwrap();
        let ws = Workspace::open(&root).unwrap().with_own_data(&data);
        assert!(
            copy::available(&ws),
            "commands cannot be tried on a copy on this computer"
        );
        Self {
            _dir: dir,
            data,
            ws,
        }
    }

    fn root(&self) -> &Path {
        self.ws.root()
    }

    /// Tries `line` on a new copy; the copy and what it changed.
    fn try_line(&self, runtime: &tokio::runtime::Runtime, line: &str) -> (CopyFolder, ChangeSet) {
        let copy = CopyFolder::make(&self.ws).unwrap();
        let raw = serde_json::json!({ "command": line, "timeout_secs": 600 }).to_string();
        runtime
            .block_on(try_on_copy(&raw, &self.ws, &copy, false))
            .unwrap()
            .unwrap();
        let set = changes::read(self.root(), &copy.upper(), CHANGE_CAP).unwrap();
        (copy, set)
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn read_one_change(c: &mut Criterion) {
    let runtime = runtime();
    let mut group = c.benchmark_group("read_1_change");
    for files in [100, 10_000] {
        let place = Place::new(files);
        let (copy, set) = place.try_line(&runtime, "echo x > new.txt");
        assert_eq!(set.entries.len(), 1);
        let upper = copy.upper();
        group.bench_function(BenchmarkId::new("in_a_folder_of", files), |b| {
            b.iter(|| changes::read(place.root(), &upper, CHANGE_CAP).unwrap())
        });
    }
    group.finish();
}

fn apply_small_files(c: &mut Criterion) {
    let runtime = runtime();
    let place = Place::new(100);
    let store = UndoStore::new(&place.data, DEFAULT_UNDO_CAP_BYTES);
    let made = place.root().join("made");
    let line = "mkdir made && cd made && i=0; while [ $i -lt 1000 ]; do echo $i > f$i.txt; i=$((i+1)); done";
    let mut group = c.benchmark_group("apply");
    group.sample_size(10);
    group.bench_function("1000_small_files", |b| {
        b.iter_batched_ref(
            || {
                let _ = std::fs::remove_dir_all(&made);
                let (copy, set) = place.try_line(&runtime, line);
                assert_eq!(set.entries.len(), 1_001);
                (copy, set)
            },
            |(copy, set)| changes::apply(set, place.root(), &copy.upper(), Some(&store)).unwrap(),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

fn percentiles(mut times: Vec<Duration>) -> String {
    times.sort();
    let at = |p: usize| times[(times.len() * p / 100).min(times.len() - 1)];
    format!(
        "median {:.2?} min {:.2?} max {:.2?}",
        at(50),
        times[0],
        at(100)
    )
}

/// One 1 GiB file, made by a try, and changed by one (a plain loop: each run needs a try of
/// its own, and the disk holds a few of them at once at most).
fn one_gib_file(_: &mut Criterion) {
    let runtime = runtime();
    let place = Place::new(100);
    let big = place.root().join("big.bin");

    // Made by a try.
    let store = UndoStore::new(&place.data, DEFAULT_UNDO_CAP_BYTES);
    let (mut tried, mut read, mut applied) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..BIG_RUNS {
        let _ = std::fs::remove_file(&big);
        let start = Instant::now();
        let copy = CopyFolder::make(&place.ws).unwrap();
        let raw = r#"{"command": "head -c 1G /dev/zero > big.bin", "timeout_secs": 600}"#;
        runtime
            .block_on(try_on_copy(raw, &place.ws, &copy, false))
            .unwrap()
            .unwrap();
        tried.push(start.elapsed());
        let start = Instant::now();
        let set = changes::read(place.root(), &copy.upper(), CHANGE_CAP).unwrap();
        read.push(start.elapsed());
        assert_eq!(set.upper_bytes(), GIB);
        let start = Instant::now();
        changes::apply(&set, place.root(), &copy.upper(), Some(&store)).unwrap();
        applied.push(start.elapsed());
        assert_eq!(std::fs::metadata(&big).unwrap().len(), GIB);
    }
    eprintln!(
        "1 GiB file made by a try, {BIG_RUNS} runs: try {}; read {}; apply {}",
        percentiles(tried),
        percentiles(read),
        percentiles(applied)
    );

    // An existing one changed by a try: the default store (per-file limit 250 MB: no copy
    // kept, the command cannot be undone), and a 5 GB one (limit 1.25 GB: the copy is kept).
    let mut file = std::fs::File::create(&big).unwrap();
    let chunk: Vec<u8> = (0..(1 << 20)).map(|i| (i % 251) as u8).collect();
    for _ in 0..1024 {
        file.write_all(&chunk).unwrap();
    }
    file.sync_all().unwrap();
    drop(file);
    for (label, cap) in [
        ("default 1 GB", DEFAULT_UNDO_CAP_BYTES),
        ("5 GB", 5_000_000_000),
    ] {
        let store = UndoStore::new(&place.data, cap);
        let (mut tried, mut read, mut applied) = (Vec::new(), Vec::new(), Vec::new());
        let mut kept = Vec::new();
        for _ in 0..BIG_RUNS {
            let start = Instant::now();
            let copy = CopyFolder::make(&place.ws).unwrap();
            let raw = r#"{"command": "echo one more line >> big.bin", "timeout_secs": 600}"#;
            runtime
                .block_on(try_on_copy(raw, &place.ws, &copy, false))
                .unwrap()
                .unwrap();
            tried.push(start.elapsed());
            let start = Instant::now();
            let set = changes::read(place.root(), &copy.upper(), CHANGE_CAP).unwrap();
            read.push(start.elapsed());
            assert_eq!(set.entries.len(), 1);
            let start = Instant::now();
            let done = changes::apply(&set, place.root(), &copy.upper(), Some(&store)).unwrap();
            applied.push(start.elapsed());
            let before = &done.undo[0].before;
            kept.push(match before {
                Was::File { size, .. } => format!("kept ({size} bytes)"),
                Was::NotKept { size } => format!("not kept ({size} bytes): cannot be undone"),
                other => format!("{other:?}"),
            });
            // The store does not grow past one copy.
            if let Was::File { sha256, .. } = before {
                assert!(store.has(sha256));
                std::fs::remove_file(store.blob_path(sha256).unwrap()).unwrap();
            }
        }
        eprintln!(
            "1 GiB file changed by a try, store cap {label}, {BIG_RUNS} runs: try {}; read {}; apply {}; before: {}",
            percentiles(tried),
            percentiles(read),
            percentiles(applied),
            kept[0]
        );
    }
}

criterion_group!(benches, read_one_change, apply_small_files, one_gib_file);
criterion_main!(benches);
