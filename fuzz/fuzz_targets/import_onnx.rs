//! Any bytes given to the ONNX importer give a module or diagnostics, never a
//! panic or an out-of-memory abort; an imported module must also print.
#![no_main]
use libfuzzer_sys::fuzz_target;

/// One context for the process: contexts intern for the process's lifetime.
static CTX: std::sync::OnceLock<ir::Context> = std::sync::OnceLock::new();

/// The dialects an imported model uses. Not `tools::default_context`: that links
/// the CPU backend's LLVM, whose command-line parser takes libFuzzer's flags.
fn context() -> ir::Context {
    let ctx = ir::Context::new();
    func::register(&ctx);
    onnx::register(&ctx);
    ctx
}

fuzz_target!(|data: &[u8]| {
    let ctx = CTX.get_or_init(context);
    if let Ok(m) = onnx_translate::import::import_model(ctx, data, &onnx_translate::import::ImportOptions::default()) {
        let _ = ir::printer::print_op(ctx, &m.body, m.module, Default::default());
    }
});
