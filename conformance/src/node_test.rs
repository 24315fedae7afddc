//! One ONNX backend node test (`model.onnx` + `test_data_set_*/input_*.pb`,
//! `output_*.pb`): compile for its inputs, run, compare every output with
//! rtol 1e-3 / atol 1e-5 (NaN-aware; exact for integers and bools).

use runtime::values::{graph_input_names, HostValue};
use runtime::{CompileOptions, HostTensor};
use std::collections::HashMap;
use std::path::Path;

pub const RTOL: f64 = 1e-3;
pub const ATOL: f64 = 1e-5;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    /// Compiled and ran, wrong numbers.
    Fail(String),
    /// Could not compile or run (unsupported op, dtype, dynamic shape, ...).
    Error(String),
}

fn data_sets(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir() && p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("test_data_set_"))).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// The values of `prefix_0.pb`, `prefix_1.pb`, …, read as the declared types say.
fn numbered(dir: &Path, prefix: &str, types: &[onnx_translate::proto::TypeProto]) -> Result<Vec<HostValue>, String> {
    let mut out = Vec::new();
    for i in 0.. {
        let p = dir.join(format!("{}_{}.pb", prefix, i));
        if !p.exists() {
            break;
        }
        let tp = types.get(i).ok_or_else(|| format!("{}: more {} files than the model declares", p.display(), prefix))?;
        let bytes = std::fs::read(&p).map_err(|e| format!("{}: {}", p.display(), e))?;
        out.push(HostValue::from_pb(&bytes, tp).map_err(|e| format!("{}: {}", p.display(), e))?);
    }
    Ok(out)
}

/// Runs every data set of the test in `dir`.
pub fn run_node_test(dir: &Path, opt_level: usize) -> Outcome {
    match try_run(dir, opt_level) {
        Ok(o) => o,
        Err(e) => Outcome::Error(e),
    }
}

fn try_run(dir: &Path, opt_level: usize) -> Result<Outcome, String> {
    let path = dir.join("model.onnx");
    let model = std::fs::read(&path).map_err(|e| format!("{}: {}", path.display(), e))?;
    let m = onnx_translate::proto::decode_model(bytes::Bytes::copy_from_slice(&model))?;
    let names = graph_input_names(&m)?;
    let g = m.graph.as_ref().ok_or("model has no graph")?;
    let type_of = |n: &str| g.input.iter().find(|v| v.name.as_deref() == Some(n)).and_then(|v| v.r#type.clone()).unwrap_or_default();
    let in_types: Vec<onnx_translate::proto::TypeProto> = names.iter().map(|n| type_of(n)).collect();
    let declared = runtime::values::declared_outputs(g);
    let out_types: Vec<onnx_translate::proto::TypeProto> = declared.iter().map(|(_, t)| t.clone()).collect();
    let sets = data_sets(dir);
    if sets.is_empty() {
        return Err("no test data sets".into());
    }
    for set in sets {
        let inputs = numbered(&set, "input", &in_types)?;
        let expected = numbered(&set, "output", &out_types)?;
        // Sequences and optionals travel as tensors (`runtime::values`).
        let mut given = HashMap::new();
        for (i, v) in inputs.into_iter().enumerate() {
            v.flatten_into(&names[i], &mut given);
        }
        // In stages where an op's output size depends on the data (`runtime::staged`).
        let (specs, got) = runtime::staged::run_cpu(&model, Some(&path), given, &CompileOptions { opt_level, ..Default::default() }, &mut |_, _| {})?;
        let named: HashMap<String, HostTensor> = specs.iter().map(|o| o.name.clone()).zip(got).collect();
        if expected.len() != declared.len() {
            return Ok(Outcome::Fail(format!("{} expected outputs for {} declared", expected.len(), declared.len())));
        }
        for ((name, tp), want) in declared.iter().zip(&expected) {
            let got = match HostValue::gather(name, tp, &named) {
                Ok(v) => v,
                Err(e) => return Ok(Outcome::Fail(format!("output '{}': {}", name, e))),
            };
            if let Err(e) = got.compare(want, &|a, b| runtime::compare(a, b, RTOL, ATOL).map(|_| ())) {
                return Ok(Outcome::Fail(format!("output '{}': {}", name, e)));
            }
        }
    }
    Ok(Outcome::Pass)
}

/// The op a node test exercises: its one node's type, or for graphs of
/// several nodes (expanded functions) the most frequent non-Constant op.
pub fn test_op(dir: &Path) -> String {
    let Ok(bytes) = std::fs::read(dir.join("model.onnx")) else { return "?".into() };
    let Ok(m) = onnx_translate::proto::decode_model(bytes::Bytes::from(bytes)) else { return "?".into() };
    let Some(g) = m.graph else { return "?".into() };
    let name = dir.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    if g.node.len() == 1 {
        return g.node[0].op_type.clone().unwrap_or_default();
    }
    // An expanded test (a function's body) counts under the op it expands.
    if let Some(base) = name.split("_expanded").next().filter(|b| b.len() < name.len()) {
        if let Some(parent) = dir.parent() {
            let op = test_op(&parent.join(base));
            if op != "?" && !op.starts_with('(') {
                return format!("{} (expanded)", op);
            }
        }
    }
    "(other multi-node graphs)".into()
}
