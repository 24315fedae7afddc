//! Any text given to the `.onnxtext` parser and the importer gives a module or
//! an error at a position inside the text, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

/// One context for the process: contexts intern for the process's lifetime.
static CTX: std::sync::OnceLock<ir::Context> = std::sync::OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let ctx = CTX.get_or_init(|| tools::default_context(false));
    match onnx::text::parse_model(src) {
        Ok(model) => {
            let _ = onnx::import::import_proto(ctx, &model, &onnx::import::ImportOptions::default());
        }
        Err(e) => assert!(e.pos <= src.len()),
    }
});
