//! Arrows of the crate graph that must run one way (issue 16): the executor
//! runs what the compilers made without linking them, and the drivers that
//! `npu-opt` links do not reach LLVM. Read from the Cargo.toml files (the
//! workspace's path dependencies, followed transitively).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The names of the `[dependencies]` (not dev-dependencies) of the manifest `text`.
fn dependencies(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut inside = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            inside = l == "[dependencies]";
        } else if inside && !l.is_empty() && !l.starts_with('#') {
            let name = l.split(|c: char| c == '=' || c == '.' || c.is_whitespace()).next().unwrap_or("");
            out.push(name.to_string());
        }
    }
    out
}

/// Every crate of the workspace by name, with the folder it lives in.
fn workspace() -> HashMap<String, PathBuf> {
    let text = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let members = text.split("members = [").nth(1).unwrap().split(']').next().unwrap();
    let mut out = HashMap::new();
    for m in members.split(',').map(|s| s.trim().trim_matches('"')).filter(|s| !s.is_empty()) {
        let manifest = std::fs::read_to_string(root().join(m).join("Cargo.toml")).unwrap();
        let name = manifest.lines().find_map(|l| l.strip_prefix("name = ")).unwrap().trim_matches('"').to_string();
        out.insert(name, root().join(m));
    }
    out
}

/// The crates of ours `name` depends on, directly or not, and every external one it names.
fn reaches(name: &str) -> BTreeSet<String> {
    let ws = workspace();
    let mut seen = BTreeSet::new();
    let mut todo = vec![name.to_string()];
    while let Some(c) = todo.pop() {
        let Some(dir) = ws.get(&c) else { continue };
        for d in dependencies(&std::fs::read_to_string(dir.join("Cargo.toml")).unwrap()) {
            if seen.insert(d.clone()) {
                todo.push(d);
            }
        }
    }
    seen
}

fn forbidden(name: &str, not: &[&str]) -> Vec<String> {
    let r = reaches(name);
    not.iter().filter(|n| r.contains(**n)).map(|n| format!("{} reaches {}", name, n)).collect()
}

#[test]
fn the_executor_links_no_compiler() {
    let bad = forbidden("executor", &["runtime", "driver", "onnx-to-tensor", "tensor-to-loops", "npu16", "tensor", "conformance"]);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_drivers_npu_opt_links_reach_no_llvm() {
    let bad = forbidden("driver", &["llvm-cpu", "melior", "mlir-sys", "executor", "runtime"]);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_graph_is_read() {
    // The reading itself can fail: runtime reaches the executor and LLVM.
    let r = reaches("runtime");
    assert!(r.contains("executor") && r.contains("melior") && r.contains("ir"), "{:?}", r);
}

/// Each crate's layer, lowest first (`docs/architecture.md`, The layers): a
/// crate depends only on crates of lower layers, and dialects on each other
/// too (`tensor` builds `arith`, `scf` and `memref` ops, as MLIR's `linalg`).
const LAYERS: &[(&str, &[&str])] = &[
    ("the core and the machines as data", &["ir", "npu-isa", "cpu-target"]),
    ("dialects, and the machines without IR", &["arith", "func", "llvm", "math", "memref", "scf", "vector", "onnx", "tensor", "npu", "npu-sim", "cpu-runtime"]),
    ("translations, conversions, code generation", &["onnx-translate", "onnx-to-tensor", "tensor-to-loops", "llvm-cpu"]),
    ("the backend interface and partitioner", &["backend"]),
    ("backends", &["npu16"]),
    ("registries and pipelines; running compiled code", &["driver", "executor"]),
    ("compiling models", &["runtime"]),
    ("conformance", &["conformance"]),
    ("tools", &["tools"]),
];

#[test]
fn arrows_run_down_the_layers() {
    let layer_of = |c: &str| LAYERS.iter().position(|(_, cs)| cs.contains(&c));
    let ws = workspace();
    let mut bad = vec![];
    for (name, dir) in &ws {
        let Some(l) = layer_of(name) else {
            bad.push(format!("crate '{}' has no layer in LAYERS", name));
            continue;
        };
        for d in dependencies(&std::fs::read_to_string(dir.join("Cargo.toml")).unwrap()) {
            let Some(dl) = layer_of(&d) else { continue };
            if dl > l || (dl == l && l != 1) {
                bad.push(format!("{} ({}) depends on {} ({})", name, LAYERS[l].0, d, LAYERS[dl].0));
            }
        }
    }
    bad.sort();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
