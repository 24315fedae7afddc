//! The run-time checks compiled code makes (`onnx_to_tensor::checks`):
//! the hook it calls, and the error a failed check turns a run into. A check
//! records its failure on the calling thread (the compiled code runs on it);
//! [`guarded`] clears the record before a call and reports it after.

use std::cell::Cell;

thread_local! {
    static FAILED: Cell<Option<(i64, i64)>> = const { Cell::new(None) };
}

extern "C" fn failed(id: i64, count: i64, value: i64) {
    if count != 0 {
        FAILED.with(|f| {
            if f.get().is_none() {
                f.set(Some((id, value)));
            }
        });
    }
}

/// Every hook compiled code may call, by name: the checks' and profiling's.
pub fn jit_symbols() -> Vec<(&'static str, *mut ())> {
    let mut s = crate::profile::symbols();
    s.push((onnx_to_tensor::checks::HOOK, failed as *mut ()));
    s.push((llvm_cpu::PARALLEL_FOR, crate::parallel::parallel_for as *mut ()));
    s
}

/// The messages of a lowered module's checks, by id.
pub fn messages(body: &ir::Body, module: ir::OpId) -> Vec<String> {
    body.op(module)
        .attributes
        .get(onnx_to_tensor::checks::MESSAGES)
        .and_then(|a| a.as_array())
        .map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

/// Runs `call`; a check that failed during it makes the result that check's error.
pub fn guarded<T>(messages: &[String], call: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    FAILED.with(|f| f.set(None));
    let r = call()?;
    match FAILED.with(|f| f.take()) {
        None => Ok(r),
        Some((id, value)) => Err(match messages.get(id as usize) {
            Some(m) => onnx_to_tensor::checks::fill(m, value),
            None => format!("run-time check {} failed (value {})", id, value),
        }),
    }
}
