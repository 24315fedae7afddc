//! The hook a failed run-time check calls (`onnx_to_tensor::checks` emits
//! the checks). A check records its failure on the calling thread (compiled
//! code runs on it); the caller clears the record before a call and takes it
//! after (`executor::checks::guarded` turns it into the check's message).

use std::cell::Cell;

thread_local! {
    static FAILED: Cell<Option<(i64, i64)>> = const { Cell::new(None) };
}

/// `cpu_target::abi::CHECK_FAILED(id, count, value)`: check `id` failed
/// `count` times (0: it held), `value` the first offending value.
pub(crate) extern "C" fn failed(id: i64, count: i64, value: i64) {
    if count != 0 {
        FAILED.with(|f| {
            if f.get().is_none() {
                f.set(Some((id, value)));
            }
        });
    }
}

/// Forgets a failure recorded on this thread.
pub fn clear() {
    FAILED.with(|f| f.set(None));
}

/// The first check that failed on this thread since [`clear`], and its value.
pub fn take() -> Option<(i64, i64)> {
    FAILED.with(|f| f.take())
}
