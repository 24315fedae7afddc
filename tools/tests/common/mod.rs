//! What several integration tests share: a deterministic generator, the lit
//! inputs, and where the ONNX node tests are. Each test binary uses a part.
#![allow(dead_code)]

use std::path::PathBuf;

/// A small deterministic generator (xorshift), so failures reproduce from the seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// test/lit.
pub fn lit_root() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/lit").canonicalize().expect("test/lit")
}

/// The files under test/lit with one of `suffixes`, sorted; `Inputs` folders
/// (lit.cfg.py's exclusion) only when `with_inputs`.
pub fn lit_files(suffixes: &[&str], with_inputs: bool) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut stack = vec![lit_root()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {}", d.display(), e)).flatten() {
            let p = e.path();
            if p.is_dir() {
                if with_inputs || p.file_name().is_none_or(|n| n != "Inputs") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| suffixes.iter().any(|s| x == *s)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every chunk (`// -----` split) of every `.mlir` file under test/lit.
pub fn lit_inputs() -> Vec<String> {
    lit_files(&["mlir"], true).iter().flat_map(|p| ir::split::split_input(&std::fs::read_to_string(p).unwrap()).into_iter().map(|c| c.0)).collect()
}

/// The ONNX node tests scripts/setup.sh fetches (`ONNX_NODE_TESTS` or `NPU_CACHE` move them).
pub fn onnx_node_dir() -> PathBuf {
    tools::testkit::onnx_node_dir()
}

/// The names of the node tests (folders holding a model.onnx), sorted.
pub fn onnx_node_tests() -> Vec<String> {
    let dir = onnx_node_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("ONNX node tests not found in {} ({}): run scripts/setup.sh", dir.display(), e))
        .flatten()
        .filter(|e| e.path().join("model.onnx").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() > 1700, "only {} node tests in {}", names.len(), dir.display());
    names
}
