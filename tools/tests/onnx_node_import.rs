//! ONNX's node conformance tests (fetched by scripts/fetch-onnx-data.sh):
//! every model is imported, verified, printed and parsed back. The outcome of
//! each test is compared with the checked-in manifest test/onnx/node-import.manifest,
//! so a test that used to import and no longer does fails CI. Set
//! UPDATE_MANIFEST=1 to rewrite the manifest after an improvement.

use std::collections::BTreeMap;
use std::path::PathBuf;

mod common;
use common::{onnx_node_dir as data_dir, onnx_node_tests};

/// "ok", or the first error's message.
fn outcome(ctx: &ir::Context, dir: &std::path::Path) -> String {
    let path = dir.join("model.onnx");
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => return format!("unreadable: {}", e),
    };
    let opts = onnx_translate::import::ImportOptions { model_path: Some(path.clone()), resource_threshold: 1024, use_declared_types: true, dims: Default::default(), bound_inputs: vec![] };
    let m = match onnx_translate::import::import_model(ctx, &bytes, &opts) {
        Ok(m) => m,
        Err(d) => return d[0].message.clone(),
    };
    let text = ir::printer::print_op(ctx, &m.body, m.module, Default::default());
    match ir::parser::parse_module(ctx, &text, "printed.mlir", 1) {
        Ok(p) => match ir::verifier::verify(ctx, &p.body, p.module) {
            Ok(()) => "ok".into(),
            Err(e) => format!("printed form does not verify: {}", e[0].message),
        },
        Err(d) => format!("printed form does not parse: {}", d.message),
    }
}

#[test]
fn node_tests_import_as_the_manifest_says() {
    let dir = data_dir();
    let names = onnx_node_tests();
    let ctx = driver::default_context(false);
    let results: BTreeMap<String, String> = names.iter().map(|n| (n.clone(), outcome(&ctx, &dir.join(n)))).collect();
    let manifest_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test/onnx/node-import.manifest");
    let render = |r: &BTreeMap<String, String>| -> String {
        let mut s = String::from("# ONNX 1.22.0 node tests: `ok` imports, verifies and round-trips; otherwise the first error.\n");
        for (n, o) in r {
            s.push_str(&format!("{} {}\n", n, o.replace('\n', " ")));
        }
        s
    };
    let ok = results.values().filter(|o| *o == "ok").count();
    let other_domain = results.values().filter(|o| o.contains("unsupported domain") || o.contains("no opset of the default ONNX domain")).count();
    eprintln!("node tests: {} imported of {} ({} of the default domain: {} imported)", ok, results.len(), results.len() - other_domain, ok);
    if std::env::var("UPDATE_MANIFEST").is_ok() {
        std::fs::write(&manifest_path, render(&results)).unwrap();
        return;
    }
    let manifest = std::fs::read_to_string(&manifest_path).expect("test/onnx/node-import.manifest is missing (UPDATE_MANIFEST=1 writes it)");
    let expected: BTreeMap<&str, &str> = manifest.lines().filter(|l| !l.starts_with('#')).filter_map(|l| l.split_once(' ')).collect();
    let regressions: Vec<String> = expected
        .iter()
        .filter(|(n, o)| **o == "ok" && results.get(**n).is_some_and(|r| r != "ok"))
        .map(|(n, _)| format!("{}: {}", n, results[*n]))
        .collect();
    assert!(regressions.is_empty(), "{} node tests no longer import:\n{}", regressions.len(), regressions.join("\n"));
    let improved = results.iter().filter(|(n, o)| *o == "ok" && expected.get(n.as_str()).is_none_or(|e| *e != "ok")).count();
    if improved > 0 {
        eprintln!("{} more node tests import than the manifest says: UPDATE_MANIFEST=1 cargo test --test onnx_node_import", improved);
    }
}

#[test]
fn supported_ops_document_is_up_to_date() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/onnx-ops.md");
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(on_disk == onnx::table::markdown(), "docs/onnx-ops.md is stale: run `npu-translate --list-onnx-ops > docs/onnx-ops.md`");
}

/// Which graph inputs an inference run knows the values of.
#[derive(Clone, Copy, PartialEq)]
enum Bind {
    /// None: only the declared input types.
    Nothing,
    /// The inputs whose values reach an operand that decides a shape
    /// (`onnx::shape_operands`), as a compiler specializing on them sees the
    /// model (and ONNX Runtime when it runs); data inputs stay unknown.
    ShapeInputs,
}

/// "match" when shape inference gives every output its declared type or a
/// more precise one (`onnx::infer::compatible`), else what differs; `bind`
/// says which inputs are bound to the test's first data set.
fn inference_outcome(ctx: &ir::Context, reg: &ir::pass::PassRegistry, dir: &std::path::Path, bind: Bind) -> String {
    let path = dir.join("model.onnx");
    let Ok(bytes) = std::fs::read(&path) else { return "unreadable".into() };
    let bound_inputs = match bind {
        Bind::Nothing => vec![],
        Bind::ShapeInputs => {
            let deciding = shape_deciding_inputs(ctx, &bytes, &path);
            test_inputs(&bytes, dir).into_iter().filter(|(n, _)| deciding.contains(n)).collect()
        }
    };
    let opts = onnx_translate::import::ImportOptions { model_path: Some(path), resource_threshold: 1024, use_declared_types: false, dims: Default::default(), bound_inputs };
    let mut m = match onnx_translate::import::import_model(ctx, &bytes, &opts) {
        Ok(m) => m,
        Err(d) => return format!("import: {}", d[0].message),
    };
    // Inference with constant folding of shape computations, to a fixed point in practice.
    let pm = ir::pass::parse_pipeline("builtin.module(onnx-shape-inference,canonicalize,onnx-shape-inference,canonicalize,onnx-shape-inference)", reg).unwrap();
    let mut pm = ir::pass::PassManager::new(pm, Default::default());
    if let Err(e) = pm.run(ctx, &mut m.body, m.module) {
        return format!("inference: {}", e.diagnostics[0].message);
    }
    let b = &m.body;
    let f = b.block_ops(b.entry_block(m.module).unwrap()).next().unwrap();
    let ret = b.last_op(b.entry_block(f).unwrap()).unwrap();
    let res_attrs = b.op(f).properties.get("res_attrs").and_then(|a| a.as_array()).map(|a| a.to_vec()).unwrap_or_default();
    for (k, v) in b.op(ret).operands().iter().enumerate() {
        let got = b.value_type(*v);
        let Some(want) = res_attrs.get(k).and_then(|d| d.as_dict()).and_then(|d| d.get("onnx.declared_type")).and_then(|a| a.as_type()) else { continue };
        // The inferred type may be more precise than the declared one, never different.
        let ok = onnx::infer::compatible(ctx, want, got) && onnx::infer::precision_in(ctx, got) >= onnx::infer::precision_in(ctx, want);
        if !ok {
            return format!("output {}: inferred {} but declared {}", k, got, want);
        }
    }
    "match".into()
}

/// The names of the graph inputs whose values reach a shape-deciding operand.
fn shape_deciding_inputs(ctx: &ir::Context, bytes: &[u8], path: &std::path::Path) -> Vec<String> {
    let opts = onnx_translate::import::ImportOptions { model_path: Some(path.to_path_buf()), ..Default::default() };
    let Ok(m) = onnx_translate::import::import_model(ctx, bytes, &opts) else { return vec![] };
    let Some(f) = m.body.block_ops(m.body.entry_block(m.module).unwrap()).next() else { return vec![] };
    onnx::shape_operands::deciding_inputs(&m.body, f, &[]).into_iter().map(|(_, n)| n).collect()
}

/// The tensor inputs of `test_data_set_0`, named after the graph inputs they feed
/// (sequences and optionals, which are not TensorProtos, are left unbound).
fn test_inputs(model: &[u8], dir: &std::path::Path) -> Vec<(String, onnx_translate::proto::TensorProto)> {
    let Ok(m) = onnx_translate::proto::decode_model(model.to_vec().into()) else { return vec![] };
    let Some(g) = m.graph else { return vec![] };
    let inits: Vec<&str> = g.initializer.iter().filter_map(|t| t.name.as_deref()).collect();
    let inputs = g.input.iter().filter(|i| !inits.contains(&i.name.as_deref().unwrap_or("")));
    let mut out = vec![];
    for (k, vi) in inputs.enumerate() {
        let is_tensor = matches!(vi.r#type.as_ref().and_then(|t| t.value.as_ref()), Some(onnx_translate::proto::TypeValue::TensorType(_)));
        let Ok(b) = std::fs::read(dir.join(format!("test_data_set_0/input_{}.pb", k))) else { continue };
        // String tensors do not import yet; their inputs stay inputs.
        if let (true, Ok(t)) = (is_tensor, onnx_translate::proto::decode_tensor(b.into())) {
            if t.data_type == Some(onnx_translate::proto::data_type::STRING) {
                continue;
            }
            out.push((vi.name.clone().unwrap_or_default(), t));
        }
    }
    out
}

#[test]
fn shape_inference_gives_the_declared_output_types() {
    inference_against_manifest(Bind::Nothing, "node-infer.manifest");
}

#[test]
fn shape_inference_with_shape_inputs_bound_gives_the_declared_output_types() {
    inference_against_manifest(Bind::ShapeInputs, "node-infer-shape-bound.manifest");
}

fn inference_against_manifest(bind: Bind, manifest: &str) {
    let dir = data_dir();
    let names = onnx_node_tests();
    let ctx = driver::default_context(false);
    let reg = driver::registry();
    let results: BTreeMap<String, String> = names.iter().map(|n| (n.clone(), inference_outcome(&ctx, &reg, &dir.join(n), bind))).collect();
    let imported = results.values().filter(|o| !o.starts_with("import:")).count();
    let matched = results.values().filter(|o| *o == "match").count();
    let (what, how) = match bind {
        Bind::Nothing => ("", ""),
        Bind::ShapeInputs => (" (shape inputs bound)", " with the tensor inputs whose values decide shapes bound to test_data_set_0"),
    };
    eprintln!("shape inference{}: {} of {} imported node tests get their declared output types ({:.1}%)", what, matched, imported, 100.0 * matched as f64 / imported.max(1) as f64);
    let manifest_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test/onnx").join(manifest);
    if std::env::var("UPDATE_MANIFEST").is_ok() {
        let mut s = format!("# ONNX 1.22.0 node tests: `match` when shape inference{} gives every output its declared type or a more precise one; otherwise why not.\n", how);
        for (n, o) in &results {
            s.push_str(&format!("{} {}\n", n, o.replace('\n', " ")));
        }
        std::fs::write(&manifest_path, s).unwrap();
        return;
    }
    let manifest = std::fs::read_to_string(&manifest_path).unwrap_or_else(|_| panic!("test/onnx/{} is missing (UPDATE_MANIFEST=1 writes it)", manifest));
    let regressions: Vec<String> = manifest
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .filter(|(n, o)| *o == "match" && results.get(*n).is_some_and(|r| r != "match"))
        .map(|(n, _)| format!("{}: {}", n, results[n]))
        .collect();
    assert!(regressions.is_empty(), "{} node tests lost their inferred types:\n{}", regressions.len(), regressions.join("\n"));
}
