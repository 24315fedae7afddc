//! ACME through the framework's own drivers, end to end: a model partitioned
//! over `acme,cpu` runs its MatMul/Relu/Add on ACME's executor and its
//! Softmax on the CPU, and matches the CPU path; `acme-opt` partitions and
//! converts with every `npu-opt` flag; the acme verifier's errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn inputs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs")
}

fn run(exe: &str, args: &[&str]) -> Output {
    Command::new(exe).args(args).output().unwrap_or_else(|e| panic!("{}: {}", exe, e))
}

/// The test model (`inputs/mlp.py`: MatMul, Relu, Add, Softmax) written to `d/mlp.onnx`.
fn mlp(d: &Path) -> PathBuf {
    let model = d.join("mlp.onnx");
    let py = run("python3", &[inputs().join("mlp.py").to_str().unwrap(), model.to_str().unwrap()]);
    assert!(py.status.success(), "python3 with onnx (scripts/setup.sh installs it): {}", text(&py));
    model
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn a_model_runs_on_acme_and_the_cpu_and_matches_the_cpu_path() {
    let d = scratch("mlp");
    let model = mlp(&d);
    let (m, cpu, json) = (model.to_str().unwrap(), d.join("cpu"), d.join("report.json"));
    let exe = env!("CARGO_BIN_EXE_acme-run");
    let o = run(exe, &[m, "--target", "cpu", "--seed", "1", "--output-dir", cpu.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(exe, &[m, "--target", "acme,cpu", "-v", "--seed", "1", "--compare", cpu.to_str().unwrap(), "--report-json", json.to_str().unwrap()]);
    let t = text(&o);
    assert!(o.status.success(), "{}", t);
    assert!(t.contains("onnx.Softmax") && t.contains("[no-lowering] ACME has no onnx.Softmax"), "{}", t);
    assert!(t.contains("acme: 3 ops (75.0%) in 1 partitions; cpu: 1 ops (25.0%) in 1 partitions"), "{}", t);
    // 4x64 by 64x48: two 32-column tiles of 64 cycles each, plus the fill.
    assert!(t.contains("acme partition mlp_acme0 (") && t.contains("12288 MACs"), "{}", t);
    assert!(t.lines().any(|l| l.split_whitespace().collect::<Vec<_>>() == ["matmul", "160", "12288", "14080"]), "{}", t);
    assert!(t.contains("y: ok"), "{}", t);
    let j = std::fs::read_to_string(&json).unwrap();
    assert!(j.contains("\"backend\": \"acme\"") && j.contains("\"reason_code\": \"no-lowering\""), "{}", j);
    // A corrupted expectation must fail: the comparison is real.
    let bad = d.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    let o = run(exe, &[m, "--target", "cpu", "--seed", "2", "--output-dir", bad.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(exe, &[m, "--target", "acme,cpu", "-v", "--seed", "1", "--compare", bad.to_str().unwrap()]);
    assert!(!o.status.success() && text(&o).contains("y: MISMATCH"), "{}", text(&o));
}

#[test]
fn backend_lists_are_checked() {
    let d = scratch("lists");
    let model = mlp(&d);
    let exe = env!("CARGO_BIN_EXE_acme-run");
    let o = run(exe, &[model.to_str().unwrap(), "--target", "acme,nope"]);
    assert!(!o.status.success() && text(&o).contains("acme-run: error: --target acme,nope: unknown backend 'nope'; registered: cpu, acme"), "{}", text(&o));
    // npu16 and ACME side by side: each op on the first that takes it.
    let o = run(exe, &[model.to_str().unwrap(), "--target", "npu16,acme,cpu", "-v", "--seed", "1"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("npu16: ") && text(&o).contains("; acme: "), "{}", text(&o));
}

#[test]
fn acme_opt_partitions_and_converts_with_npu_opts_flags() {
    let exe = env!("CARGO_BIN_EXE_acme-opt");
    let f = inputs().join("partitioned.mlir");
    let o = run(exe, &[f.to_str().unwrap(), "--pass-pipeline=builtin.module(npu-partition{targets=acme,cpu report=-}, convert-onnx-to-acme)", "--mlir-print-op-generic"]);
    let t = text(&o);
    assert!(o.status.success(), "{}", t);
    assert!(t.contains("\"acme.matmul\"") && t.contains("\"acme.relu\"") && t.contains("backend.partition = \"acme\""), "{}", t);
    assert!(t.contains("acme: 2 ops (66.7%) in 1 partitions; cpu: 1 ops (33.3%) in 1 partitions"), "{}", t);
    // Its flags are npu-opt's.
    let o = run(exe, &["--help"]);
    assert!(text(&o).contains("--mlir-print-ir-after-all") && text(&o).contains("convert-onnx-to-acme"), "{}", text(&o));
}

#[test]
fn the_acme_verifier_errors_are_expected() {
    let exe = env!("CARGO_BIN_EXE_acme-opt");
    let f = inputs().join("invalid.mlir");
    let o = run(exe, &[f.to_str().unwrap(), "--split-input-file", "--verify-diagnostics"]);
    assert!(o.status.success(), "{}", text(&o));
    // Without the expectations, the same file is an error.
    let o = run(exe, &[f.to_str().unwrap(), "--split-input-file"]);
    assert!(!o.status.success() && text(&o).contains("cannot give [4, 2]"), "{}", text(&o));
}

/// The compile cache through ACME's `Executable::save` and `Backend::load`: a
/// second compile loads the saved program and computes the same outputs.
#[test]
fn acme_programs_are_cached_and_load_again() {
    let d = scratch("cache");
    let model = mlp(&d);
    let exe = env!("CARGO_BIN_EXE_acme-run");
    let (m, cache) = (model.to_str().unwrap(), d.join("cache"));
    let mut reports = vec![];
    for k in 0..2 {
        let (out, json) = (d.join(format!("out{}", k)), d.join(format!("r{}.json", k)));
        let o = run(exe, &[m, "--target", "acme,cpu", "-v", "--seed", "1", "--cache-dir", cache.to_str().unwrap(), "--output-dir", out.to_str().unwrap(), "--report-json", json.to_str().unwrap()]);
        assert!(o.status.success() && !text(&o).contains("warning"), "{}", text(&o));
        reports.push(std::fs::read_to_string(&json).unwrap());
    }
    assert!(reports[0].contains("\"compile_cache\": \"miss\"") && reports[1].contains("\"compile_cache\": \"hit\""), "{:?}", reports);
    assert_eq!(std::fs::read(d.join("out0/y.npy")).unwrap(), std::fs::read(d.join("out1/y.npy")).unwrap());
    // A saved program that does not fit its buffers is refused, not run.
    let mut w = backend::codec::Writer::default();
    w.u64(32).u64(32).u64(1024).usizes(&[4]).usize(1).usizes(&[0]).u64(0).u64(1).str("relu").u64(3).usize(0).usize(7);
    assert!(acme::executor::Program::load(&w.0).is_err());
    // Products that overflow, and buffers too large to allocate, are refused too.
    let mut w = backend::codec::Writer::default();
    w.u64(32).u64(32).u64(1024).usizes(&[0, 0, 0]).usize(2).usizes(&[2]).u64(0).u64(1).str("mm").u64(1).usize(0).usize(1).usize(2).usize(1 << 32).usize(1 << 32).usize(1 << 32);
    assert!(acme::executor::Program::load(&w.0).is_err());
    let mut w = backend::codec::Writer::default();
    w.u64(32).u64(32).u64(1024).usizes(&[usize::MAX / 2, usize::MAX / 2]).usize(1).usizes(&[1]).u64(0).u64(0);
    assert!(acme::executor::Program::load(&w.0).is_err());
}

/// `acme-opt` is built on the `driver` crate and links no LLVM or MLIR;
/// `acme-run` (the CPU path's JIT) does, so the check can fail.
#[test]
fn acme_opt_links_no_llvm() {
    const SYMBOL: &[u8] = b"mlirTranslateModuleToLLVMIR";
    let holds = |exe: &str| std::fs::read(exe).unwrap().windows(SYMBOL.len()).any(|w| w == SYMBOL);
    assert!(holds(env!("CARGO_BIN_EXE_acme-run")));
    assert!(!holds(env!("CARGO_BIN_EXE_acme-opt")), "acme-opt links MLIR's translation to LLVM IR");
}

/// ACME's hardware description: `--set acme.array=64` reaches the executor's
/// cycle counts through the module (`backend.hw.acme`); unknown keys, wrong
/// types and values out of range are errors naming the key; `list-ops` shows the keys.
#[test]
fn the_hardware_description_is_acmes_own_and_checked() {
    let d = scratch("hw");
    let model = mlp(&d);
    let exe = env!("CARGO_BIN_EXE_acme-run");
    let m = model.to_str().unwrap();
    let row = |args: &[&str]| {
        let o = run(exe, &[&[m, "--target", "acme,cpu", "-v", "--seed", "1"], args].concat());
        assert!(o.status.success(), "{}", text(&o));
        text(&o).lines().find(|l| l.split_whitespace().next() == Some("matmul")).map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).unwrap_or_default()
    };
    // 4x64 by 64x48: with a 32-wide array two tiles of 64 cycles and the fill (160);
    // with a 64-wide one, one tile and a longer fill (128).
    assert_eq!(row(&[]), "matmul 160 12288 14080");
    assert_eq!(row(&["--set", "acme.array=64"]), "matmul 128 12288 14080");
    for (set, says) in [
        ("acme.nope=1", "backend 'acme' has no hardware key 'nope'; its keys: array, lanes, weight_kib"),
        ("acme.array=0", "acme.array = 0: out of range [1, 1024]"),
        ("acme.array=wide", "acme.array = wide: expected an integer"),
    ] {
        let o = run(exe, &[m, "--target", "acme,cpu", "-v", "--set", set]);
        assert!(!o.status.success() && text(&o).contains(says), "--set {}: {}", set, text(&o));
    }
    let o = run(exe, &["list-ops", "acme"]);
    assert!(text(&o).contains("| `array` | 32 | 1 to 1024 | the MAC array's side (rows = columns) |"), "{}", text(&o));
}

/// In `acme-opt` the description is the module's attribute: the partitioner
/// completes it with the defaults, and refuses a key ACME does not have.
#[test]
fn acme_opt_checks_the_description_on_the_module() {
    let d = scratch("hw-opt");
    let exe = env!("CARGO_BIN_EXE_acme-opt");
    let body = std::fs::read_to_string(inputs().join("partitioned.mlir")).unwrap();
    let pipeline = "--pass-pipeline=builtin.module(npu-partition{targets=acme,cpu})";
    let (good, bad) = (d.join("good.mlir"), d.join("bad.mlir"));
    std::fs::write(&good, format!("module attributes {{backend.hw.acme = {{array = 64 : i64}}}} {{\n{}}}\n", body)).unwrap();
    std::fs::write(&bad, format!("module attributes {{backend.hw.acme = {{rows = 64 : i64}}}} {{\n{}}}\n", body)).unwrap();
    let o = run(exe, &[good.to_str().unwrap(), pipeline]);
    assert!(o.status.success() && text(&o).contains("backend.hw.acme = {array = 64 : i64, lanes = 32 : i64, weight_kib = 256 : i64}"), "{}", text(&o));
    let o = run(exe, &[bad.to_str().unwrap(), pipeline]);
    assert!(!o.status.success() && text(&o).contains("backend 'acme' has no hardware key 'rows'; its keys: array, lanes"), "{}", text(&o));
}

/// A partition ACME takes but cannot compile (its weights do not fit a 4 KiB
/// weight buffer) goes to the next backend of the list, npu16, not straight to
/// the CPU; the report says why; the outputs still match the CPU path's.
#[test]
fn a_partition_acme_cannot_compile_goes_to_the_next_backend() {
    let d = scratch("next");
    let model = mlp(&d);
    let exe = env!("CARGO_BIN_EXE_acme-run");
    let (m, cpu) = (model.to_str().unwrap(), d.join("cpu"));
    assert!(run(exe, &[m, "--target", "cpu", "--seed", "1", "--output-dir", cpu.to_str().unwrap()]).status.success());
    let o = run(exe, &[m, "--target", "acme,npu16,cpu", "-v", "--seed", "1", "--set", "acme.weight_kib=4", "--compare", cpu.to_str().unwrap()]);
    let t = text(&o);
    assert!(o.status.success() && t.contains("y: ok"), "{}", t);
    assert!(t.contains("acme: 0 ops (0.0%) in 0 partitions; npu16: 4 ops"), "{}", t);
    assert!(t.contains("acme could not compile its partition: acme.matmul: 12288 bytes of weights do not fit the 4096-byte weight buffer"), "{}", t);
    // With only the CPU after it, the partition goes to the CPU with the same reason.
    let o = run(exe, &[m, "--target", "acme,cpu", "-v", "--seed", "1", "--set", "acme.weight_kib=4", "--compare", cpu.to_str().unwrap()]);
    let t = text(&o);
    assert!(o.status.success() && t.contains("y: ok") && t.contains("[compile-failed] acme could not compile its partition"), "{}", t);
}

/// `acme-translate` is `npu-translate` with ACME's translation added: the
/// converted partitions as ACME programs; an unconverted module is an error.
#[test]
fn acme_translate_writes_acme_programs_and_keeps_our_translations() {
    let d = scratch("translate");
    let converted = d.join("converted.mlir");
    let o = run(env!("CARGO_BIN_EXE_acme-opt"), &[inputs().join("partitioned.mlir").to_str().unwrap(), "--pass-pipeline=builtin.module(npu-partition{targets=acme,cpu}, convert-onnx-to-acme)", "-o", converted.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let exe = env!("CARGO_BIN_EXE_acme-translate");
    let o = run(exe, &["--mlir-to-acme", converted.to_str().unwrap()]);
    let t = text(&o);
    assert!(o.status.success() && t.contains("program @g_acme0 (array 32, lanes 32)") && t.contains("matmul b0 b1 -> b2[8] (4x8 by 8x2)") && t.contains("relu b2 -> b3[8]"), "{}", t);
    let o = run(exe, &["--mlir-to-acme", inputs().join("partitioned.mlir").to_str().unwrap()]);
    assert!(!o.status.success() && text(&o).contains("the module has no acme partition"), "{}", text(&o));
    let o = run(exe, &["--help"]);
    assert!(text(&o).contains("--mlir-to-acme") && text(&o).contains("--import-onnx") && text(&o).contains("--mlir-to-llvmir"), "{}", text(&o));
    // One translation at a time, ACME's counted with ours.
    let o = run(exe, &["--export-onnx", "--mlir-to-acme", converted.to_str().unwrap()]);
    assert!(!o.status.success() && text(&o).contains("choose one translation"), "{}", text(&o));
}
