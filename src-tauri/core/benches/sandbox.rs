//! What shutting a command in costs: `run_command {"command": "true"}` through the tool
//! (bubblewrap when this machine has it, see `tools::sandbox`), against `sh -c true` spawned
//! and waited for directly with the same clean environment (what an unconfined command costs
//! at the least). And what trying a command on a copy of the folder first adds (`tools::copy`):
//! a command that changes nothing (`true`, `ls > /dev/null`) in a folder of 10,000 files, run
//! as today (the tool's `execute`) beside confinement + copy (`CopyFolder::make`,
//! `try_on_copy`, `changes::read`, the copy dropped); criterion's figures, then a plain loop
//! of 200 runs of each printing p50 and p95. Figures and method are in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use askfirst_core::tools::copy::{self, CopyFolder};
use askfirst_core::tools::sandbox::{command_env, Confinement};
use askfirst_core::tools::{try_on_copy, ToolSet, Workspace};
use criterion::{criterion_group, criterion_main, Criterion};
use std::path::Path;
use std::time::{Duration, Instant};

/// As many entries as the app reads a command's changes up to (`agent::try_first::CHANGE_CAP`).
const CHANGE_CAP: usize = 200_000;

/// Runs of each command in the plain loop.
const LOOP_RUNS: usize = 200;

fn spawn(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("askfirst-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ws = Workspace::open(&dir).unwrap();
    let tool = ToolSet::builtin().get("run_command").unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    eprintln!("confinement: {:?}", Confinement::detected());
    let mut group = c.benchmark_group("run_command_true");
    group.bench_function("shut_in_when_available", |b| {
        b.iter(|| {
            runtime
                .block_on(tool.execute(r#"{"command": "true"}"#, &ws))
                .unwrap()
        })
    });
    group.bench_function("sh_c_true_unconfined", |b| {
        b.iter(|| {
            std::process::Command::new("sh")
                .args(["-c", "true"])
                .current_dir(&dir)
                .env_clear()
                .envs(command_env(None, None))
                .status()
                .unwrap()
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// 100 folders of 100 small files each.
fn write_folder(root: &Path) {
    for f in 0..100 {
        let folder = root.join(format!("folder-{f:03}"));
        std::fs::create_dir_all(&folder).unwrap();
        for n in 0..100 {
            std::fs::write(folder.join(format!("file-{n:03}.txt")), "some text\n").unwrap();
        }
    }
}

/// A command that changes nothing, tried on a copy as the app does: the copy made, the
/// command run in it, its (empty) changes read, the copy removed.
async fn on_copy(raw: &str, ws: &Workspace) {
    let copy = CopyFolder::make(ws).unwrap();
    try_on_copy(raw, ws, &copy, false).await.unwrap().unwrap();
    let set = askfirst_core::changes::read(ws.root(), &copy.upper(), CHANGE_CAP).unwrap();
    assert!(set.is_empty());
    drop(copy);
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn try_first(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("folder");
    let data = dir.path().join("data");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&data).unwrap();
    write_folder(&root);
    let ws = Workspace::open(&root).unwrap().with_own_data(&data);
    assert!(
        copy::available(&ws),
        "commands cannot be tried on a copy on this computer"
    );
    let tool = ToolSet::builtin().get("run_command").unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let commands = [
        ("true", r#"{"command": "true"}"#),
        ("ls", r#"{"command": "ls > /dev/null"}"#),
    ];
    let mut group = c.benchmark_group("changes_nothing_in_10000_files");
    for (name, raw) in commands {
        group.bench_function(format!("{name}_shut_in"), |b| {
            b.iter(|| runtime.block_on(tool.execute(raw, &ws)).unwrap())
        });
        group.bench_function(format!("{name}_shut_in_on_a_copy"), |b| {
            b.iter(|| runtime.block_on(on_copy(raw, &ws)))
        });
    }
    group.finish();
    // The plain loop: the two ways alternate, so both see the same machine.
    for (name, raw) in commands {
        let mut shut_in = Vec::with_capacity(LOOP_RUNS);
        let mut on_a_copy = Vec::with_capacity(LOOP_RUNS);
        for _ in 0..LOOP_RUNS {
            let start = Instant::now();
            runtime.block_on(tool.execute(raw, &ws)).unwrap();
            shut_in.push(start.elapsed());
            let start = Instant::now();
            runtime.block_on(on_copy(raw, &ws));
            on_a_copy.push(start.elapsed());
        }
        shut_in.sort();
        on_a_copy.sort();
        eprintln!(
            "{name} in 10,000 files, {LOOP_RUNS} runs: shut in p50 {:.2?} p95 {:.2?}; on a copy p50 {:.2?} p95 {:.2?}; added p50 {:.2?}",
            percentile(&shut_in, 50),
            percentile(&shut_in, 95),
            percentile(&on_a_copy, 50),
            percentile(&on_a_copy, 95),
            percentile(&on_a_copy, 50).saturating_sub(percentile(&shut_in, 50)),
        );
    }
    assert!(
        std::fs::read_dir(data.join("runs"))
            .unwrap()
            .next()
            .is_none(),
        "a copy was left behind"
    );
}

criterion_group!(benches, spawn, try_first);
criterion_main!(benches);
