//! ONNX's node tests of the ops npu16 claims (its capability table,
//! `docs/npu16-ops.md`), and those named after its op families that mix in
//! other ops (attention's products, expanded Clips: mixed placements), through
//! the backend test kit (`conformance::testkit`):
//! `npu-run --target npu16,cpu`, weights bound as constants, one named test per
//! case (`cargo test -- npu::test_conv_with_strides_padding`). Every chosen
//! test the CPU path passes must pass here too, each NPU partition matching the
//! host reference (`--check-reference`), whether it ran on the NPU or fell
//! back; and the tests listed in test/onnx/npu-node.on-npu must still place
//! ops on the NPU, so a capability regression names the test it moved back
//! to the CPU. The claimed tests run once more on a 32x32 array (the kernels
//! take their lanes from the hardware description). Each corner case of the
//! capability table (`npu::case::...`) runs on npu16 or falls back with its
//! reason code. The docs page must be the table's.

use libtest_mimic::{Arguments, Trial};
use std::path::Path;
use conformance::testkit::{claimed_tests, cpu_passing, NodeTestRun};

/// Tests named after these run too, whatever else their models hold.
const FAMILIES: &[&str] = &["conv", "pool", "gemm", "matmul", "attention", "test_add", "test_sub", "test_mul", "test_max", "test_min", "test_relu", "test_clip", "flatten", "qlinear"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn listed(file: &str) -> Vec<String> {
    let p = root().join(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {}", p.display(), e)).lines().map(|l| l.trim()).filter(|l| !l.starts_with('#') && !l.is_empty()).map(String::from).collect()
}

fn on_npu(test: &str, stdout: &str) -> Result<(), String> {
    let must = listed("test/onnx/npu-node.on-npu").iter().any(|t| t == test);
    if must && !stdout.lines().any(|l| l.starts_with("npu16: ") && !l.starts_with("npu16: 0 ops")) {
        return Err(format!("no op runs on the NPU any more (test/onnx/npu-node.on-npu lists it):\n{}", stdout));
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    npu16::target::register();
    let npu = backend::resolve(&["npu16".to_string()]).expect("npu16 registered").remove(0);
    // Every node test's model is decoded to choose these: once.
    let claimed = claimed_tests(npu.as_ref()).unwrap_or_else(|e| panic!("{}", e));
    let mut tests = claimed.clone();
    tests.extend(cpu_passing().into_iter().filter(|t| FAMILIES.iter().any(|f| t.contains(f))).map(String::from));
    tests.sort();
    tests.dedup();
    let mut run = NodeTestRun::new(env!("CARGO_BIN_EXE_npu-run"), "npu16,cpu");
    run.args.push("--check-reference".into());
    let mut trials = run.trials("npu", &tests, on_npu);
    // The kernels read the array's side from the hardware description: the
    // tests npu16 claims run again on a 32x32 array (`npu32::...`).
    let mut wide = run.clone();
    wide.args.extend(["--set", "array.rows=32", "--set", "array.cols=32"].map(String::from));
    trials.extend(wide.trials("npu32", &claimed, conformance::testkit::passes));
    trials.extend(conformance::testkit::capability_trials(Path::new(env!("CARGO_BIN_EXE_npu-run")), npu.as_ref(), "npu"));
    // The lists must name real tests of the selection, else a check silently shrinks.
    let on = listed("test/onnx/npu-node.on-npu");
    let (n, stray): (usize, Vec<String>) = (tests.len(), on.iter().filter(|t| !tests.contains(t)).cloned().collect());
    trials.push(Trial::test("npu::selection", move || {
        if n < 150 {
            return Err(format!("only {} node tests selected", n).into());
        }
        if !stray.is_empty() {
            return Err(format!("test/onnx/npu-node.on-npu names tests outside the selection: {}", stray.join(", ")).into());
        }
        Ok(())
    }));
    let page = backend::capability::markdown(npu.as_ref());
    trials.push(Trial::test("npu::ops_page", move || {
        let on_disk = std::fs::read_to_string(root().join("docs/npu16-ops.md")).unwrap_or_default();
        if on_disk != page {
            return Err("docs/npu16-ops.md is stale: run `npu-run list-ops npu16 > docs/npu16-ops.md`".into());
        }
        Ok(())
    }));
    libtest_mimic::run(&args, trials).exit();
}
