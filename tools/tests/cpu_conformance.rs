//! ONNX's node tests on the CPU path (`npu-run onnx-tests`): every test in
//! test/onnx/cpu-node.manifest must pass; tests that newly pass are reported.
//! `UPDATE_MANIFEST=1` rewrites the manifest, the list of known failures with
//! their reasons, and docs/cpu-node-tests.md (pass rate per op).

mod common;

use std::path::Path;
use std::process::Command;

#[test]
fn node_tests_in_the_manifest_pass_on_the_cpu() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let manifest = root.join("test/onnx/cpu-node.manifest");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_npu-run"));
    cmd.arg("onnx-tests").arg(common::onnx_node_dir()).arg("--manifest").arg(&manifest).args(["-j", "2"]);
    if std::env::var("UPDATE_MANIFEST").is_ok() {
        cmd.arg("--update-manifest")
            .arg("--known-failures")
            .arg(root.join("test/onnx/cpu-node.known-failures"))
            .arg("--report")
            .arg(root.join("docs/cpu-node-tests.md"));
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{}", stdout);
    assert!(out.status.success(), "manifest tests failed:\n{}\n{}", stdout, String::from_utf8_lossy(&out.stderr));
    let summary = stdout.lines().last().unwrap_or("");
    let passed: usize = summary.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0);
    let listed = std::fs::read_to_string(&manifest).unwrap().lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).count();
    assert!(passed >= listed, "{} passed but the manifest lists {}", passed, listed);
}
