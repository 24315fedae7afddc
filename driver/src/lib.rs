//! The drivers, without LLVM: a context with every dialect we ship,
//! `opt_main` (a vendor's `acme-opt` is one call with its own context and
//! passes, and keeps every flag of `npu-opt`), the driver that `*-opt` runs on
//! each input buffer, and writing a tool's output. Nothing here links the CPU
//! code generator, so `npu-opt`, `npu-sim` and a vendor's `*-opt` stay free of it.

pub mod npu_program;
pub mod opt_driver;
pub mod partition_compile;
pub mod phases;
pub mod pipelines;
mod opt_main;
pub mod robustness;
mod test_passes;

pub use opt_main::{opt_main, OptTool};

/// A translation a `*-translate` tool adds (`tools::translate_main`): `--FLAG`
/// takes an IR module (parsed and verified with the tool's context) and
/// writes what `run` returns (a vendor's assembly, binary or listing).
pub struct Translation {
    /// The flag, without dashes (`mlir-to-acme`).
    pub flag: &'static str,
    pub help: &'static str,
    pub run: fn(&Context, &ir::Body, ir::OpId) -> Result<Vec<u8>, String>,
}

use ir::Context;

/// Every pass of the project, from the crate of its pipeline stage: the
/// generic transforms (`ir`), the dialects' own (`onnx`, `tensor`), the two
/// conversions, the partitioner (`backend`), the `test-*` passes that exercise the pass
/// infrastructure from lit, and npu16's, which this also
/// registers as a backend (so `--target` lists and `npu-partition` know it).
pub fn registry() -> ir::pass::PassRegistry {
    let mut reg = ir::pass::PassRegistry::new();
    ir::transforms::register(&mut reg);
    onnx::transforms::register(&mut reg);
    tensor::transforms::register(&mut reg);
    onnx_to_tensor::register(&mut reg);
    tensor_to_loops::register(&mut reg);
    backend::partition::register(&mut reg);
    npu16::register(&mut reg);
    test_passes::register(&mut reg);
    reg
}

/// A context with every dialect of the project registered.
pub fn context() -> Context {
    let ctx = Context::new();
    func::register(&ctx);
    arith::register(&ctx);
    onnx::register(&ctx);
    tensor::register(&ctx);
    scf::register(&ctx);
    memref::register(&ctx);
    math::register(&ctx);
    vector::register(&ctx);
    llvm::register(&ctx);
    npu::register(&ctx);
    ctx
}

/// [`context`], accepting ops of unregistered dialects when asked (`--allow-unregistered-dialect`).
pub fn default_context(allow_unregistered: bool) -> Context {
    let mut ctx = context();
    ctx.allow_unregistered = allow_unregistered;
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

#[cfg(test)]
mod tests {
    use std::os::unix::fs::FileTypeExt;

    /// A pipe or device named as the output stays what it is (renaming over
    /// /dev/null as root would replace the device with a file; it happened).
    #[test]
    fn write_output_writes_into_a_fifo_instead_of_replacing_it() {
        let dir = std::env::temp_dir().join(format!("npu-write-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("out.fifo");
        let _ = std::fs::remove_file(&fifo);
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let reader_path = fifo.clone();
        let reader = std::thread::spawn(move || std::fs::read(&reader_path).unwrap());
        super::write_output(fifo.to_str().unwrap(), b"hello").unwrap();
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo(), "the fifo was replaced by a file");
        assert_eq!(reader.join().unwrap(), b"hello");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn write_output_replaces_a_regular_file_whole() {
        let dir = std::env::temp_dir().join(format!("npu-write-output-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("out.txt");
        std::fs::write(&f, b"old contents that are longer").unwrap();
        super::write_output(f.to_str().unwrap(), b"new").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file is left behind");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
