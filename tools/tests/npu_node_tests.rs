//! ONNX's node tests of the families the NPU runs (conv, pools, Gemm,
//! MatMul, the elementwise ops, QLinear*) through `npu-run --target npu`,
//! weights bound as constants (`--bind weights`) so the NPU can take them:
//! every test the CPU path passes (test/onnx/cpu-node.manifest) must pass here
//! too, each NPU partition matching the host reference (`--check-reference`),
//! whether it ran on the NPU or fell back to the CPU; and a floor of tests
//! must actually place ops on the NPU, so a capability regression shows.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

const FAMILIES: &[&str] = &["conv", "pool", "gemm", "matmul", "test_add", "test_sub", "test_mul", "test_max", "test_min", "test_relu", "test_clip", "flatten", "qlinear"];
/// Tests that put at least one op on the NPU today (a regression lowers it).
const MIN_ON_NPU: usize = 28;

#[test]
fn node_tests_run_on_the_npu_with_cpu_fallback() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let manifest = std::fs::read_to_string(root.join("test/onnx/cpu-node.manifest")).unwrap();
    let dir = common::onnx_node_dir();
    let tests: Vec<String> = manifest.lines().map(|l| l.trim().to_string()).filter(|l| !l.starts_with('#') && !l.is_empty() && FAMILIES.iter().any(|f| l.contains(f))).collect();
    assert!(tests.len() > 150, "only {} node tests selected", tests.len());
    let failures = Mutex::new(vec![]);
    let on_npu = Mutex::new(0usize);
    let next = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(t) = tests.get(i) else { break };
                let d = dir.join(t);
                let out = Command::new(env!("CARGO_BIN_EXE_npu-run"))
                    .arg(d.join("model.onnx"))
                    .args(["--target", "npu", "--bind", "weights", "--check-reference", "--test-data"])
                    .arg(d.join("test_data_set_0"))
                    .output()
                    .unwrap();
                let stdout = String::from_utf8_lossy(&out.stdout);
                if !out.status.success() {
                    let err = String::from_utf8_lossy(&out.stderr);
                    failures.lock().unwrap().push(format!("{}: {}", t, err.lines().filter(|l| l.contains("MISMATCH") || l.contains("error")).collect::<Vec<_>>().join(" | ")));
                } else if stdout.lines().any(|l| l.starts_with("NPU: ") && !l.starts_with("NPU: 0 ops")) {
                    *on_npu.lock().unwrap() += 1;
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let on_npu = on_npu.into_inner().unwrap();
    println!("{} node tests through the NPU path, {} with ops on the NPU, {} failures", tests.len(), on_npu, failures.len());
    assert!(failures.is_empty(), "node tests the CPU path passes fail through the NPU path:\n{}", failures.join("\n"));
    assert!(on_npu >= MIN_ON_NPU, "only {} node tests placed ops on the NPU (floor {})", on_npu, MIN_ON_NPU);
}
