//! The benchmark models on the NPU path (`bench/npu_models.py --check`):
//! each runs end to end with `npu-run --target npu` and matches the CPU
//! path's outputs, and the ResNet-18-like model stays within 2x of its
//! roofline (issue 7's floor).

use std::path::Path;
use std::process::Command;

#[test]
fn benchmark_models_run_on_the_npu_and_match_the_cpu() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    // The script runs the npu-run this test was built with.
    assert!(Path::new(env!("CARGO_BIN_EXE_npu-run")).exists());
    let out = Command::new("python3").arg(root.join("bench/npu_models.py")).arg("--check").output().expect("python3 (scripts/setup.sh installs it with onnx and numpy)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{}", stdout);
    assert!(out.status.success(), "NPU benchmark models failed:\n{}\n{}", stdout, String::from_utf8_lossy(&out.stderr));
    for m in ["mobilenetv2", "resnet18", "transformer", "mlp", "lstm2", "resnet18-int8", "mobilenetv2-int8"] {
        assert!(stdout.lines().any(|l| l.split_whitespace().next() == Some(m) && l.contains("  match")), "no matching row for {}:\n{}", m, stdout);
    }
}
