//! Locking a `std::sync::Mutex` that a panicking holder may have poisoned.
//!
//! The core's mutexes guard small state (a status, a map of grants, the last lines of a
//! server's stderr) that every holder changes in one step, never across an `.await`
//! (STYLE.md). A panic elsewhere while one was held cannot leave such state half-changed, so
//! the guard is taken back rather than the panic spread to every later caller: one bad tool
//! call must not make the whole app unusable.

use std::sync::{Mutex, MutexGuard};

/// [`Mutex::lock`] that recovers from poisoning.
pub trait MutexExt<T: ?Sized> {
    /// Locks the mutex, blocking the thread until it is free; a poisoned mutex (a holder
    /// panicked) is locked all the same, with the state that holder left.
    fn lock_or_recover(&self) -> MutexGuard<'_, T>;
}

impl<T: ?Sized> MutexExt<T> for Mutex<T> {
    fn lock_or_recover(&self) -> MutexGuard<'_, T> {
        self.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poisoned_mutex_is_locked_with_the_state_left_in_it() {
        let shared = std::sync::Arc::new(Mutex::new(1));
        let holder = std::sync::Arc::clone(&shared);
        let panicked = std::thread::spawn(move || {
            let mut value = holder.lock_or_recover();
            *value = 2;
            panic!("a holder panics");
        })
        .join();
        assert!(panicked.is_err());
        assert!(shared.is_poisoned());
        assert_eq!(*shared.lock_or_recover(), 2);
    }
}
