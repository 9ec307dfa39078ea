//! The delta coalescer: streamed text goes to the window at most every [`DELTA_INTERVAL`], and
//! never sits in the buffer longer than about that while the model pauses.
//!
//! A fast model sends a piece of text per token; one event each would flood the window (and
//! the session log). Text is gathered and passed on when the interval has passed since the
//! last pass, at the latest on a timer tick, and always at the step's end.

use crate::sync::MutexExt;
use askfirst_protocol::{AgentEvent, RunId};
use std::sync::Mutex;
use tokio::time::{Instant, MissedTickBehavior};

use crate::provider::{Message, ModelTurn, Provider, ProviderError};
use crate::tools::ToolSpec;

/// How often streamed text is passed on to the window at most: every 50 ms.
pub const DELTA_INTERVAL: std::time::Duration = std::time::Duration::from_millis(50);

/// Text waiting to be passed on, and when text was last passed on.
struct Buffer {
    text: String,
    last: Instant,
}

/// One model step, passing streamed text on through `emit` as `AssistantDelta`s of `run_id`:
/// when a piece arrives [`DELTA_INTERVAL`] or more after the last pass, on the timer while the
/// model pauses, and at the end. Returns what the provider returns.
///
/// # Errors
/// The provider's [`ProviderError`].
pub async fn step_streaming(
    emit: &(dyn Fn(AgentEvent) + Send + Sync),
    run_id: RunId,
    provider: &dyn Provider,
    messages: &[Message],
    specs: &[ToolSpec],
) -> Result<ModelTurn, ProviderError> {
    let buffer = Mutex::new(Buffer {
        text: String::new(),
        last: Instant::now(),
    });
    let lock = || buffer.lock_or_recover();
    let flush = |buffer: &mut Buffer| {
        if !buffer.text.is_empty() {
            emit(AgentEvent::AssistantDelta {
                run_id,
                text: std::mem::take(&mut buffer.text),
            });
        }
        buffer.last = Instant::now();
    };
    let on_delta = |piece: &str| {
        let mut buffer = lock();
        buffer.text.push_str(piece);
        if buffer.last.elapsed() >= DELTA_INTERVAL {
            flush(&mut buffer);
        }
    };
    // While a request waits to be sent again, the window says why and until when: the
    // provider's retries are told through a channel read beside the step.
    let (retries, mut retrying) = tokio::sync::mpsc::unbounded_channel();
    let notice: crate::providers::http::RetryNotice =
        std::sync::Arc::new(move |wait: &crate::providers::http::RetryWait| {
            let _ = retries.send(*wait);
        });
    let step =
        crate::providers::http::telling_retries(notice, provider.step(messages, specs, &on_delta));
    tokio::pin!(step);
    let mut ticker = tokio::time::interval_at(Instant::now() + DELTA_INTERVAL, DELTA_INTERVAL);
    ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let result = loop {
        tokio::select! {
            biased;
            result = &mut step => break result,
            Some(wait) = retrying.recv() => emit(AgentEvent::ModelRetrying {
                run_id,
                reason: wait.reason,
                retry_at: unix_ms_after(wait.wait),
                next_try: wait.next_try,
                tries: wait.tries,
            }),
            _ = ticker.tick() => {
                let mut buffer = lock();
                if !buffer.text.is_empty() && buffer.last.elapsed() >= DELTA_INTERVAL {
                    flush(&mut buffer);
                }
            }
        }
    };
    flush(&mut lock());
    result
}

/// Unix milliseconds `wait` from now.
fn unix_ms_after(wait: std::time::Duration) -> u64 {
    let at = std::time::SystemTime::now() + wait;
    at.duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
