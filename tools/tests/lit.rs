//! The lit suite (`test/lit`) with real LLVM lit and FileCheck, one named test
//! per file: `cargo test -- onnx/ops.mlir` runs that file, and a failure names
//! it and shows lit's output for it.

mod common;

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;

fn llvm_tools_dir() -> PathBuf {
    PathBuf::from(std::env::var("LLVM_TOOLS_DIR").unwrap_or_else(|_| "/usr/lib/llvm-22/bin".into()))
}

fn run_one(file: &Path) -> Result<(), Failed> {
    let npu_opt = Path::new(env!("CARGO_BIN_EXE_npu-opt"));
    let llvm = llvm_tools_dir();
    let lit = if llvm.join("lit").exists() { llvm.join("lit") } else { PathBuf::from("lit") };
    let out = Command::new(&lit)
        .arg("-v")
        .arg("--param")
        .arg(format!("tools_dir={}", npu_opt.parent().unwrap().display()))
        .arg("--param")
        .arg(format!("llvm_tools_dir={}", llvm.display()))
        .arg("--param")
        .arg(format!("run_dir={}", run_dir(file)))
        .arg(file)
        .output()
        .map_err(|e| format!("could not run {} (run scripts/setup.sh): {}", lit.display(), e))?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // lit exits 0 when it found nothing to run: require its one PASS line.
    if out.status.success() && text.lines().any(|l| l.starts_with("PASS: ") || l.starts_with("XFAIL: ")) {
        Ok(())
    } else {
        Err(text.into())
    }
}

/// The exec root of one file's lit run, under `target/lit` (`lit.cfg.py`).
fn run_dir(file: &Path) -> String {
    let rel = file.strip_prefix(common::lit_root()).unwrap_or(file);
    rel.to_string_lossy().replace(['/', '.'], "_")
}

fn main() {
    let args = Arguments::from_args();
    let root = common::lit_root();
    // The files lit runs: lit.cfg.py's suffixes, its `Inputs` exclusion.
    let trials = common::lit_files(&["mlir", "s"], false)
        .into_iter()
        .map(|f| {
            let name = f.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
            Trial::test(name, move || run_one(&f))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
