//! Corrupt models never panic the importer: byte flips, truncations and
//! splices of real node-test models give a diagnostic or a valid module.

use std::path::PathBuf;

mod common;
use common::Rng;

#[test]
fn mutated_models_never_panic() {
    let dir = common::onnx_node_dir();
    let mut models: Vec<Vec<u8>> = common::onnx_node_tests().iter().filter_map(|n| std::fs::read(dir.join(n).join("model.onnx")).ok()).collect();
    models.sort_by_key(|m| m.len());
    assert!(models.len() > 1700);
    let ctx = driver::default_context(false);
    let mut r = Rng(0x1234_5678);
    let mut rnd = |n: usize| r.below(n);
    let (mut ok, mut refused) = (0, 0);
    for case in 0..4000 {
        let mut m = models[rnd(models.len())].clone();
        match case % 4 {
            0 => m.truncate(rnd(m.len())),
            1 | 2 => {
                for _ in 0..1 + rnd(6) {
                    let i = rnd(m.len());
                    m[i] = rnd(256) as u8;
                }
            }
            _ => {
                let other = &models[rnd(models.len())];
                let (a, b) = (rnd(m.len()), rnd(other.len()));
                m.truncate(a);
                m.extend_from_slice(&other[b..]);
            }
        }
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            onnx_translate::import::import_model(&ctx, &m, &onnx_translate::import::ImportOptions::default()).is_ok()
        }));
        match r {
            Ok(true) => ok += 1,
            Ok(false) => refused += 1,
            Err(_) => panic!("case {} panicked on a {}-byte mutated model", case, m.len()),
        }
    }
    assert!(refused > 1000 && ok > 20, "{} imported, {} refused: the mutations are not exercising both paths", ok, refused);
}

/// The textual syntax too: edits of a model that uses every construct give a
/// diagnostic with a position inside the text, or a model that imports.
#[test]
fn mutated_onnxtext_never_panics() {
    mutate_text(GOOD_TEXT, 0x9e37_79b9, 3000);
}

/// Edits of a model with local functions (attribute references and defaults,
/// a nested call, a subgraph in a function) exercise the inliner the same way.
#[test]
fn mutated_onnxtext_with_functions_never_panics() {
    mutate_text(FUNCTIONS_TEXT, 0x51ed_270b, 3000);
}

const FUNCTIONS_TEXT: &str = r#"<
  ir_version: 8,
  opset_import: ["" : 18, "local" : 1]
>
g (float[4] X, bool[] c) => (float[4] Y) {
  [sq1] y1 = local.scaled_square <alpha = 3.0> (X)
  [tw] y3 = local.twice (y1)
  [pick] Y = local.pick (y3, c)
}
<
  domain: "local",
  opset_import: ["" : 18]
>
scaled_square <alpha: float = 2.0> (x) => (y) {
  [m] sq = Mul (x, x)
  [a] k = Constant <value_float: float = @alpha> ()
  [s] y = Mul (sq, k)
}
<
  domain: "local",
  opset_import: ["" : 18, "local" : 1]
>
twice (x) => (y) {
  [inner] t = local.scaled_square (x)
  [add] y = Add (t, x)
}
<
  domain: "local",
  opset_import: ["" : 18]
>
pick (x, c) => (y) {
  [branch] y = If (c) <then_branch = then_g () => (float[4] a) { [neg] a = Neg (x) }, else_branch = else_g () => (float[4] b) { [abs] b = Abs (x) }>
}
"#;

const GOOD_TEXT: &str = r#"<
  ir_version: 8,
  opset_import: [ "" : 18 ]
>
g (float[N, 4] X, bool[] c) => (float[N, 2] Y, float[2] Z)
<float[4, 2] W = {1, 0, 0, 1, 1, 1, 0, 0}>
{
  [mm] T = MatMul(X, W)
  U = Transpose <perm = [0, 1]> (T)
  Y = LeakyRelu <alpha = 0.2> (U)
  Z = If (c) <
    then_branch = t () => (float[2] a) { a = Constant <value = float[2] {1, 2}> () },
    else_branch = e () => (float[2] b) { b = Constant <value = float[2] {3, 4}> () }
  >
}
"#;

fn mutate_text(good: &str, seed: u64, cases: usize) {
    let ctx = driver::default_context(false);
    let import = |src: &str| onnx_translate::text::parse_model(src).map(|m| onnx_translate::import::import_proto(&ctx, &m, &Default::default()).is_ok());
    assert_eq!(import(good).ok(), Some(true), "the unmutated model must import");
    let pieces = ["<", ">", "(", ")", "{", "}", "[", "]", ",", "=", "=>", ":", "\"", "-1", "1e400", "float", "?", "@x", "@alpha", "local.", "seq(", "#"];
    let mut r = Rng(seed);
    let mut rnd = |n: usize| r.below(n);
    let (mut ok, mut refused) = (0, 0);
    for case in 0..cases {
        let mut s = good.to_string();
        for _ in 0..1 + rnd(3) {
            let mut i = rnd(s.len());
            while !s.is_char_boundary(i) {
                i -= 1;
            }
            match rnd(3) {
                0 => {
                    let end = (i + 1 + rnd(4)).min(s.len());
                    if s.is_char_boundary(end) {
                        s.replace_range(i..end, "");
                    }
                }
                1 => s.insert_str(i, pieces[rnd(pieces.len())]),
                _ => s.truncate(i),
            }
        }
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| import(&s)));
        match r {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(e)) => {
                assert!(e.pos <= s.len(), "case {}: error position {} past the end", case, e.pos);
                refused += 1
            }
            Err(_) => panic!("case {} panicked on:\n{}", case, s),
        }
    }
    assert!(refused > 500 && ok > 50, "{} parsed, {} refused: the mutations are not exercising both paths", ok, refused);
}

/// Inputs the fuzzer (`fuzz/`) found, kept as regression tests in test/onnx/fuzz.
/// oom-huge-dims.onnx: 224 bytes whose Constant claims 3.8 G elements; the
/// importer used to allocate for the dims before checking the data was there.
#[test]
fn fuzzer_findings_are_refused_cheaply() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test/onnx/fuzz");
    let ctx = driver::default_context(false);
    let bytes = std::fs::read(dir.join("oom-huge-dims.onnx")).unwrap();
    let err = onnx_translate::import::import_model(&ctx, &bytes, &Default::default()).err().expect("must be refused");
    assert!(err[0].message.contains("has 0 data elements but its shape") && err[0].message.contains("needs 3828000000"), "{}", err[0].message);
}
