//! The messages of the run-time checks a lowered module makes
//! (`onnx_to_tensor::checks`), which a run reports through
//! `executor::checks::guarded`.

pub use executor::checks::{guarded, jit_symbols};

/// The messages of a lowered module's checks, by id.
pub fn messages(body: &ir::Body, module: ir::OpId) -> Vec<String> {
    body.op(module)
        .attributes
        .get(onnx_to_tensor::checks::MESSAGES)
        .and_then(|a| a.as_array())
        .map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect())
        .unwrap_or_default()
}
