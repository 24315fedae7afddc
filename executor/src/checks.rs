//! The run-time checks compiled code makes (`onnx_to_tensor::checks`): the
//! error a failed check turns a run into. The hook the code calls is
//! in `cpu_runtime::checks`; [`guarded`] clears its record before a call and
//! reports it after.

/// Every hook compiled code may call, by name (`cpu-runtime`'s).
pub fn jit_symbols() -> Vec<(&'static str, *mut ())> {
    cpu_runtime::symbols()
}

/// Runs `call`; a check that failed during it makes the result that check's error.
pub fn guarded<T>(messages: &[String], call: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    cpu_runtime::checks::clear();
    let r = call()?;
    match cpu_runtime::checks::take() {
        None => Ok(r),
        Some((id, value)) => Err(match messages.get(id as usize) {
            Some(m) => cpu_target::abi::fill(m, value),
            None => format!("run-time check {} failed (value {})", id, value),
        }),
    }
}
