//! Any bytes given to the ONNX importer give a module or diagnostics, never a
//! panic or an out-of-memory abort; an imported module must also print.
#![no_main]
use libfuzzer_sys::fuzz_target;

/// One context for the process: contexts intern for the process's lifetime.
static CTX: std::sync::OnceLock<ir::Context> = std::sync::OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let ctx = CTX.get_or_init(|| tools::default_context(false));
    if let Ok(m) = onnx::import::import_model(ctx, data, &onnx::import::ImportOptions::default()) {
        let _ = ir::printer::print_op(ctx, &m.body, m.module, Default::default());
    }
});
