//! ONNX's node tests of the families the NPU runs (conv, pools, Gemm,
//! MatMul, the elementwise ops, QLinear*) through `npu-run --target npu`,
//! weights bound as constants (`--bind weights`) so the NPU can take them, one
//! named test per case (`cargo test -- npu::test_conv_with_strides_padding`):
//! every test the CPU path passes (test/onnx/cpu-node.manifest) must pass here
//! too, each NPU partition matching the host reference (`--check-reference`),
//! whether it ran on the NPU or fell back to the CPU; and the tests listed in
//! test/onnx/npu-node.on-npu must still place ops on the NPU, so a capability
//! regression names the test it moved back to the CPU.

mod common;

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;

const FAMILIES: &[&str] = &["conv", "pool", "gemm", "matmul", "test_add", "test_sub", "test_mul", "test_max", "test_min", "test_relu", "test_clip", "flatten", "qlinear"];

fn listed(file: &str) -> Vec<String> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {}", p.display(), e)).lines().map(|l| l.trim()).filter(|l| !l.starts_with('#') && !l.is_empty()).map(String::from).collect()
}

fn run(dir: &Path, must_use_npu: bool) -> Result<(), Failed> {
    let out = Command::new(env!("CARGO_BIN_EXE_npu-run"))
        .arg(dir.join("model.onnx"))
        .args(["--target", "npu16,cpu", "--bind", "weights", "--check-reference", "--test-data"])
        .arg(dir.join("test_data_set_0"))
        .output()
        .map_err(|e| format!("could not run npu-run: {}", e))?;
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        return Err(format!("fails through the NPU path:\n{}\n{}", stdout, stderr).into());
    }
    if must_use_npu && !stdout.lines().any(|l| l.starts_with("npu16: ") && !l.starts_with("npu16: 0 ops")) {
        return Err(format!("no op runs on the NPU any more (test/onnx/npu-node.on-npu lists it):\n{}", stdout).into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let dir = common::onnx_node_dir();
    let tests: Vec<String> = listed("test/onnx/cpu-node.manifest").into_iter().filter(|l| FAMILIES.iter().any(|f| l.contains(f))).collect();
    let on_npu = listed("test/onnx/npu-node.on-npu");
    let mut trials: Vec<Trial> = tests
        .iter()
        .map(|t| {
            let (d, must): (PathBuf, bool) = (dir.join(t), on_npu.contains(t));
            Trial::test(format!("npu::{}", t), move || run(&d, must))
        })
        .collect();
    // The lists must name real tests of the selection, else a check silently shrinks.
    let (n, stray): (usize, Vec<String>) = (tests.len(), on_npu.iter().filter(|t| !tests.contains(t)).cloned().collect());
    trials.push(Trial::test("npu::selection", move || {
        if n < 150 {
            return Err(format!("only {} node tests selected", n).into());
        }
        if !stray.is_empty() {
            return Err(format!("test/onnx/npu-node.on-npu names tests outside the selection: {}", stray.join(", ")).into());
        }
        Ok(())
    }));
    libtest_mimic::run(&args, trials).exit();
}
