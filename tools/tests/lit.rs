//! Runs the whole lit suite (`test/lit`) with real LLVM lit and FileCheck, so
//! that `cargo test` runs everything and a failing lit test fails it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn llvm_tools_dir() -> PathBuf {
    PathBuf::from(std::env::var("LLVM_TOOLS_DIR").unwrap_or_else(|_| "/usr/lib/llvm-22/bin".into()))
}

#[test]
fn lit_suite() {
    let npu_opt = Path::new(env!("CARGO_BIN_EXE_npu-opt"));
    let tools_dir = npu_opt.parent().unwrap();
    let llvm = llvm_tools_dir();
    let lit = if llvm.join("lit").exists() { llvm.join("lit") } else { PathBuf::from("lit") };
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/lit");
    let status = Command::new(&lit)
        .arg("-sv")
        .arg("--param")
        .arg(format!("tools_dir={}", tools_dir.display()))
        .arg("--param")
        .arg(format!("llvm_tools_dir={}", llvm.display()))
        .arg(&suite)
        .status()
        .unwrap_or_else(|e| panic!("could not run {} (run scripts/setup.sh): {}", lit.display(), e));
    assert!(status.success(), "lit suite failed");
}
