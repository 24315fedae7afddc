//! Shared pieces of the command-line tools: the registry of every dialect we
//! ship, and the driver that `npu-opt` runs on each input buffer.

pub mod opt_driver;

use ir::Context;

/// A context with every dialect of the project registered.
pub fn default_context(allow_unregistered: bool) -> Context {
    let mut ctx = Context::new();
    ctx.allow_unregistered = allow_unregistered;
    func::register(&ctx);
    arith::register(&ctx);
    onnx::register(&ctx);
    ctx
}

/// Writes a tool's output: `-` is standard output; a device or pipe (/dev/null,
/// a FIFO) is written directly, since renaming over it would replace it; a file
/// is written beside the target and renamed, so a failure never leaves half a file.
pub fn write_output(path: &str, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    if path == "-" {
        std::io::stdout().lock().write_all(bytes)
    } else if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        std::fs::write(path, bytes)
    } else {
        let tmp = format!("{}.tmp{}", path, std::process::id());
        std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, path)).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
    }
}
