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
    conformance::testkit::onnx_node_dir()
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

/// Numbers and types a mutation puts in place of one in the text: the edges
/// parsers, folders and allocators get wrong.
const EDGE_NUMBERS: &[&str] = &["0", "-1", "1", "65536", "4294967296", "4278190081", "9223372036854775807", "-9223372036854775808", "1e309", "nan"];
const EDGE_TYPES: &[&str] = &["f32", "i64", "i1", "f16", "index", "none", "tensor<*xf32>", "tensor<0xf32>", "tensor<4294967296xf32>", "tensor<?x3xi64>", "memref<2xf32>"];
const EDGE_BYTES: &[u8] = b"[]{}()<>:,%@#\"\\x0123456789-.=;\n \0";

/// One random edit of `text`: a byte replaced, a range deleted, a line
/// duplicated, swapped or taken from `other`, a number or a type replaced by
/// an edge case. Edits stay on character boundaries.
pub fn mutate_text(r: &mut Rng, text: &str, other: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    let boundary = |s: &str, mut i: usize| {
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    match r.below(8) {
        0 | 1 => {
            let i = boundary(text, r.below(text.len()));
            let j = boundary(text, (i + 1).min(text.len()));
            let j = if j == i { text[i..].chars().next().map_or(i, |c| i + c.len_utf8()) } else { j };
            format!("{}{}{}", &text[..i], EDGE_BYTES[r.below(EDGE_BYTES.len())] as char, &text[j..])
        }
        2 => {
            let i = boundary(text, r.below(text.len()));
            let j = boundary(text, (i + 1 + r.below(24)).min(text.len()));
            format!("{}{}", &text[..i], &text[j..])
        }
        3 if !lines.is_empty() => {
            let k = r.below(lines.len());
            lines.insert(k, lines[k]);
            lines.join("\n")
        }
        4 if lines.len() > 1 => {
            let (a, b) = (r.below(lines.len()), r.below(lines.len()));
            lines.swap(a, b);
            lines.join("\n")
        }
        5 => {
            let o: Vec<&str> = other.lines().collect();
            if !o.is_empty() {
                let line = o[r.below(o.len())];
                lines.insert(r.below(lines.len() + 1), line);
            }
            lines.join("\n")
        }
        6 => replace_token(r, text, |c| c.is_ascii_digit(), EDGE_NUMBERS),
        _ => replace_token(r, text, |c| c.is_ascii_alphabetic(), EDGE_TYPES),
    }
}

/// Replaces a random run of `in_token` characters (a number, a word) with one of `by`.
fn replace_token(r: &mut Rng, text: &str, in_token: fn(char) -> bool, by: &[&str]) -> String {
    let starts: Vec<usize> = text.char_indices().filter(|(i, c)| in_token(*c) && !text[..*i].chars().next_back().is_some_and(in_token)).map(|(i, _)| i).collect();
    if starts.is_empty() {
        return text.to_string();
    }
    let s = starts[r.below(starts.len())];
    let e = text[s..].char_indices().find(|(_, c)| !in_token(*c) && !c.is_ascii_alphanumeric()).map_or(text.len(), |(k, _)| s + k);
    format!("{}{}{}", &text[..s], by[r.below(by.len())], &text[e..])
}
