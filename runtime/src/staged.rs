//! Models whose shapes depend on the data: run in stages. The model is cut at
//! its first op whose output size depends on its input values
//! (`crate::host_ops::OPS`): a prefix model computes that op's inputs and
//! every other value the rest reads, the host evaluates the op, and the rest
//! of the model (its nodes after the op, reading those values as inputs of
//! known shape and value) is compiled for them and runs, cut again at its
//! next such op. Each stage is an ordinary model, so the CPU and the NPU
//! paths run stages alike, and each node is computed once.

use crate::tensor::HostTensor;
use onnx_translate::proto::{decode_model, encode_model, ModelProto, NodeProto, ValueInfoProto};
use std::collections::{HashMap, HashSet};

/// Named values: a stage's inputs or outputs.
pub type Values = HashMap<String, HostTensor>;

/// Where the top-level graph must be cut: its first node of a host-evaluated
/// op (ops inside If/Loop bodies are not cut).
pub fn cut_point(m: &ModelProto) -> Option<usize> {
    let g = m.graph.as_ref()?;
    g.node.iter().position(|n| matches!(n.domain.as_deref(), None | Some("") | Some("ai.onnx")) && crate::host_ops::OPS.contains(&n.op_type.as_deref().unwrap_or("")))
}

/// Whether `model` runs in stages (a model that cannot be decoded does not:
/// the compile reports why).
pub fn needs_stages(model: &[u8]) -> bool {
    decode_model(bytes::Bytes::copy_from_slice(model)).is_ok_and(|m| cut_point(&m).is_some())
}

/// What one stage is for, to label its report.
pub enum StageKind<'a> {
    /// Computes the inputs of this node.
    Prefix(&'a NodeProto),
    /// The model's outputs.
    Last,
}

/// Runs `model` on `given` in stages; `run` compiles and runs one stage's
/// model on the values given and returns its outputs, the last stage's in the
/// model's output order.
pub fn run_in_stages<T>(model: &[u8], given: Values, run: &mut dyn FnMut(StageKind, &[u8], &Values) -> Result<T, String>, named: &dyn Fn(&T) -> Values) -> Result<T, String> {
    let mut m = decode_model(bytes::Bytes::copy_from_slice(model))?;
    let mut given = given;
    loop {
        let Some(at) = cut_point(&m) else { return run(StageKind::Last, &encode_model(&m), &given) };
        let g = m.graph.as_ref().ok_or("model has no graph")?;
        let node = g.node[at].clone();
        // What the nodes before the cut compute and the op or the rest reads.
        let mut read: HashSet<&str> = node.input.iter().map(String::as_str).collect();
        read.extend(g.output.iter().filter_map(|o| o.name.as_deref()));
        for n in &g.node[at + 1..] {
            reads_of(n, &mut read);
        }
        // Constants stay constants: the rest keeps its own copy (a MatMul's
        // constant B must stay one for a backend to take it).
        let is_constant = |n: &&NodeProto| n.op_type.as_deref() == Some("Constant") && n.input.is_empty();
        let constants: Vec<NodeProto> = g.node[..at].iter().filter(is_constant).cloned().collect();
        let mut crossing: Vec<String> = vec![];
        for o in g.node[..at].iter().filter(|n| !is_constant(n)).flat_map(|n| &n.output) {
            if !o.is_empty() && read.contains(o.as_str()) && !crossing.contains(o) {
                crossing.push(o.clone());
            }
        }
        // The prefix computes those and the op's inputs that constants give.
        let mut wanted = crossing.clone();
        wanted.extend(constants.iter().flat_map(|n| &n.output).filter(|o| node.input.contains(o)).cloned());
        let mut computed = Values::new();
        if !wanted.is_empty() {
            let mut prefix = m.clone();
            let pg = prefix.graph.as_mut().ok_or("model has no graph")?;
            pg.node.truncate(at);
            // Untyped outputs: the importer gives them their values' types.
            pg.output = wanted.iter().map(|n| ValueInfoProto { name: Some(n.clone()), ..Default::default() }).collect();
            computed = named(&run(StageKind::Prefix(&node), &encode_model(&prefix), &given)?);
            // A sequence or an optional comes back as its elements (`crate::values`), not as one value.
            if let Some(missing) = wanted.iter().find(|n| !computed.contains_key(*n)) {
                return Err(format!(
                    "'{}' is needed after {} '{}' (whose output size depends on the data) but is not a tensor; a staged run carries tensors only across its cuts",
                    missing,
                    node.op_type.as_deref().unwrap_or(""),
                    node.name.as_deref().unwrap_or("")
                ));
            }
        }
        // The op's inputs: computed, given, constants or initializers.
        let inits: HashMap<&str, &onnx_translate::proto::TensorProto> = g.initializer.iter().filter_map(|t| t.name.as_deref().map(|n| (n, t))).collect();
        let mut values: Vec<Option<HostTensor>> = vec![];
        for name in &node.input {
            values.push(match (name.as_str(), computed.get(name).or_else(|| given.get(name))) {
                ("", _) => None,
                (_, Some(t)) => Some(t.clone()),
                (_, None) => Some(HostTensor::from_proto(inits.get(name.as_str()).ok_or_else(|| format!("'{}' reads '{}', which nothing computes", node.name.as_deref().unwrap_or(""), name))?)?),
            });
        }
        let results = crate::host_ops::eval(&node, &values)?;
        // The rest: the nodes after the op, the values crossing the cut as inputs.
        let g = m.graph.as_mut().ok_or("model has no graph")?;
        g.node.drain(..=at);
        g.node.splice(0..0, constants);
        let outs = node.output.iter().zip(results).filter(|(n, _)| !n.is_empty()).map(|(n, t)| (n.clone(), t));
        for (name, t) in computed.into_iter().filter(|(n, _)| crossing.contains(n)).chain(outs) {
            g.input.push(ValueInfoProto { name: Some(name.clone()), r#type: Some(crate::values::tensor_type(&t)), ..Default::default() });
            given.insert(name, t);
        }
    }
}

/// Every value `n` reads, its subgraphs' reads from outer scopes included.
fn reads_of<'a>(n: &'a NodeProto, into: &mut HashSet<&'a str>) {
    into.extend(n.input.iter().map(String::as_str));
    for a in &n.attribute {
        for g in a.g.as_deref().into_iter().chain(a.graphs.iter()) {
            for inner in &g.node {
                reads_of(inner, into);
            }
            into.extend(g.output.iter().filter_map(|o| o.name.as_deref()));
        }
    }
}

/// One model on the CPU path, in stages when it needs them: the output specs
/// and values of its last stage. `notice` sees each stage once it is compiled
/// (a tool says where the cuts are and what the compile cache did).
pub fn run_cpu(
    model: &[u8],
    path: Option<&std::path::Path>,
    given: Values,
    opts: &crate::CompileOptions,
    notice: &mut dyn FnMut(&StageKind, &crate::Compiled),
) -> Result<(Vec<crate::TensorSpec>, Vec<HostTensor>), String> {
    let mut stage = |kind: StageKind, m: &[u8], given: &Values| -> Result<(Vec<crate::TensorSpec>, Vec<HostTensor>), String> {
        let c = crate::compile(m, path, given, opts)?;
        notice(&kind, &c);
        let inputs: Values = given.iter().filter(|(k, _)| c.inputs.iter().any(|s| &s.name == *k) && !c.bound.contains(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
        let outs = c.run(&inputs)?;
        Ok((c.outputs.clone(), outs))
    };
    run_in_stages(model, given, &mut stage, &|(specs, outs)| specs.iter().map(|s| s.name.clone()).zip(outs.iter().cloned()).collect())
}
