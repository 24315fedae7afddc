//! The run-time checks compiled code makes (`onnx_to_tensor::checks`): the
//! error a failed check turns a run into. The hook the code calls is
//! in `cpu_runtime::checks`; [`guarded`] clears its record before a call and
//! reports it after.

/// Every hook compiled code may call, by name (`cpu-runtime`'s).
pub fn jit_symbols() -> Vec<(&'static str, *mut ())> {
    cpu_runtime::symbols()
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
    cpu_runtime::checks::clear();
    let r = call()?;
    match cpu_runtime::checks::take() {
        None => Ok(r),
        Some((id, value)) => Err(match messages.get(id as usize) {
            Some(m) => onnx_to_tensor::checks::fill(m, value),
            None => format!("run-time check {} failed (value {})", id, value),
        }),
    }
}
