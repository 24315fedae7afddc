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

/// Whether this host has what the file's `REQUIRES:` names (lit.cfg.py's
/// features: `vnni`, AVX-512 VNNI; `multicore`, two cores or more). A file
/// it lacks is reported ignored, not passed (lit itself would call it
/// UNSUPPORTED and print no PASS line).
fn host_has(file: &Path) -> bool {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    #[cfg(target_arch = "x86_64")]
    let vnni = std::is_x86_feature_detected!("avx512vnni") && std::is_x86_feature_detected!("avx512bw");
    #[cfg(not(target_arch = "x86_64"))]
    let vnni = false;
    let multicore = std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2);
    text.lines().filter_map(|l| l.split_once("REQUIRES:")).flat_map(|(_, f)| f.split(',')).all(|f| match f.trim() {
        "vnni" => vnni,
        "multicore" => multicore,
        _ => true,
    })
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
            let ignored = !host_has(&f);
            Trial::test(name, move || run_one(&f)).with_ignored_flag(ignored)
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
