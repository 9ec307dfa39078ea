//! Benchmarks of the approvals registry: one approval's round trip (register → resolve →
//! waiter woken) with 1, 1,000 and 100,000 other approvals pending, and the memory one pending
//! approval holds. `make bench` runs it; figures and method are in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used)]
// The counting allocator below must implement the unsafe GlobalAlloc trait.
#![allow(unsafe_code)]

use askfirst_core::approvals::{AnswerMode, ApprovalRegistry, NewApproval, RegistryConfig};
use askfirst_core::audit::NoAudit;
use askfirst_core::EventSink;
use askfirst_protocol::{Decision, PolicyLayer, Risk, RunId};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Counts bytes currently allocated, to measure memory per pending approval.
struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn registry() -> Arc<ApprovalRegistry> {
    let events: EventSink = Arc::new(|_| {});
    ApprovalRegistry::new(RegistryConfig {
        timeout: Duration::from_secs(3600),
        mode: AnswerMode::Interactive,
        events,
        audit: Arc::new(NoAudit),
    })
}

/// A typical request: a 1-line file write with its summary.
fn new_approval(run_id: RunId, i: usize) -> NewApproval {
    NewApproval {
        change: None,
        run_id,
        tool_call_id: format!("call_{i}"),
        tool_name: "write_file".into(),
        arguments_json: format!("{{\"path\":\"notes/file-{i}.txt\",\"content\":\"Hello {i}\\n\"}}"),
        summary: format!("Create the file notes/file-{i}.txt (1 line)"),
        reason: "This changes files in your workspace folder, so it needs your OK.".into(),
        risk: Risk::Medium,
        policy_layer: PolicyLayer::ToolDefault,
        grant_scope: Some("Until you close Ask First, this exact action will run again.".into()),
        preview: None,
        effects: Vec::new(),
        detail: None,
        reword: None,
        resumed: false,
        editable: Vec::new(),
        agent: None,
    }
}

fn round_trip(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("register_resolve_wake");
    for pending in [1usize, 1_000, 100_000] {
        let registry = registry();
        let run = RunId::new();
        let _guard = rt.enter();
        let held: Vec<_> = (0..pending)
            .map(|i| registry.request(new_approval(run, i)).unwrap())
            .collect();
        group.bench_with_input(BenchmarkId::from_parameter(pending), &pending, |b, _| {
            let mut i = pending;
            b.iter(|| {
                i += 1;
                rt.block_on(async {
                    let waiter = registry.request(new_approval(run, i)).unwrap();
                    let id = waiter.request().approval_id;
                    registry.resolve(id, Decision::Approve).unwrap();
                    waiter.wait().await
                })
            });
        });
        drop(held);
    }
    group.finish();
}

fn memory_per_pending(_c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let _guard = rt.enter();
    let registry = registry();
    let run = RunId::new();
    const N: usize = 100_000;
    let before = LIVE.load(Ordering::SeqCst);
    let held: Vec<_> = (0..N)
        .map(|i| registry.request(new_approval(run, i)).unwrap())
        .collect();
    let after = LIVE.load(Ordering::SeqCst);
    let per = (after - before) as f64 / N as f64;
    println!(
        "memory per pending approval (registry entry + waiter, typical 1-line write): {per:.0} bytes \
         ({N} pending: {:.1} MiB)",
        (after - before) as f64 / (1024.0 * 1024.0)
    );
    drop(held);
    let released = LIVE.load(Ordering::SeqCst);
    println!(
        "after all {N} waiters are dropped: {} bytes still held",
        released - before
    );
}

criterion_group!(benches, round_trip, memory_per_pending);
criterion_main!(benches);
