//! Any text given to the `.onnxtext` parser and the importer gives a module or
//! an error at a position inside the text, never a panic.
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
    let Ok(src) = std::str::from_utf8(data) else { return };
    let ctx = CTX.get_or_init(context);
    match onnx_translate::text::parse_model(src) {
        Ok(model) => {
            let _ = onnx_translate::import::import_proto(ctx, &model, &onnx_translate::import::ImportOptions::default());
        }
        Err(e) => assert!(e.pos <= src.len()),
    }
});
