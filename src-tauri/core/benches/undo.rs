//! Benchmark of what a write pays for Undo (issue 14): keeping the before-copy of the file it
//! replaces (read beneath the folder, hashed, written to the store, synced, renamed) for files
//! of 1 KB, 1 MB and 100 MB, next to the atomic write itself (a temporary file, synced,
//! renamed), and the copy of content already kept (only marked as needed now). Each copy is
//! of new content and removed after it was timed, so the store never grows. `make bench`
//! runs it; figures are in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use askfirst_core::tools::Workspace;
use askfirst_core::undo::{capture, Planned, UndoStore};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::io::Write;
use std::time::{Duration, Instant};

const SIZES: [(&str, usize); 3] = [
    ("1 KB", 1_000),
    ("1 MB", 1_000_000),
    ("100 MB", 100_000_000),
];

/// What a write does without Undo: a temporary file beside the target, synced, renamed.
fn atomic_write(path: &std::path::Path, bytes: &[u8]) {
    let tmp = path.with_extension("tmp");
    let mut file = std::fs::File::create(&tmp).unwrap();
    file.write_all(bytes).unwrap();
    file.sync_all().unwrap();
    drop(file);
    std::fs::rename(&tmp, path).unwrap();
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("ws");
    std::fs::create_dir_all(&root).unwrap();
    let ws = Workspace::open(&root).unwrap();
    let store = UndoStore::new(&dir.path().join("data"), 10_000_000_000);
    let mut group = c.benchmark_group("undo_before_copy");
    group.sample_size(10);
    for (label, size) in SIZES {
        let path = ws.root().join("file.bin");
        let mut bytes: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        let mut n: u64 = 0;
        group.bench_function(BenchmarkId::new("atomic write alone", label), |b| {
            b.iter(|| atomic_write(&path, &bytes));
        });
        group.bench_function(BenchmarkId::new("keep a new before-copy", label), |b| {
            b.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                for _ in 0..iters {
                    n += 1;
                    bytes[..8].copy_from_slice(&n.to_le_bytes());
                    std::fs::write(&path, &bytes).unwrap();
                    let start = Instant::now();
                    let change = capture(&store, &ws, &Planned::Replace(path.clone())).unwrap();
                    spent += start.elapsed();
                    let askfirst_core::undo::Change::Replace {
                        before: askfirst_core::undo::Before::Kept { sha256, .. },
                        ..
                    } = change
                    else {
                        panic!("not kept: {change:?}")
                    };
                    std::fs::remove_file(store.blob_path(&sha256).unwrap()).unwrap();
                }
                spent
            });
        });
        group.bench_function(BenchmarkId::new("content already kept", label), |b| {
            capture(&store, &ws, &Planned::Replace(path.clone())).unwrap();
            b.iter(|| capture(&store, &ws, &Planned::Replace(path.clone())).unwrap());
        });
        println!(
            "{label}: the store keeps {} bytes for one copy of this file",
            store.total_bytes()
        );
        let _ = std::fs::remove_dir_all(dir.path().join("data/undo"));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
