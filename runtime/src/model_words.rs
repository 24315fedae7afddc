//! Errors in the model's words: a compile error that points at a node
//! (`loc("NAME")`) is followed by what a user finds of that node in Netron:
//! its op type, and its inputs' and outputs' ONNX names with the types shape
//! inference gave them. Only on the error path: the model is imported again.

use crate::compile::{self, CompileOptions};
use crate::HostTensor;
use onnx_translate::proto::{GraphProto, NodeProto};
use std::collections::HashMap;

/// What every explained error carries, so that an error is explained once.
const MARK: &str = "\n  the node: ";

/// `err`, followed by a line describing the node it names (if it names one the model has).
pub(crate) fn explain(model: &[u8], path: Option<&std::path::Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions, err: String) -> String {
    if err.contains(MARK) {
        return err;
    }
    let Some(name) = named_node(&err) else { return err };
    match describe(model, path, given, opts, &name) {
        Some(d) => format!("{}{}{}", err, MARK, d),
        None => err,
    }
}

/// The first `loc("NAME")` of a message.
fn named_node(err: &str) -> Option<String> {
    let start = err.find("loc(\"")? + 5;
    let len = err[start..].find('"')?;
    Some(err[start..start + len].to_string())
}

/// The node of the model (any graph, subgraphs included) that the importer
/// named `name`: its own name, or `OpType#index` for an unnamed one.
fn find_node<'a>(g: &'a GraphProto, name: &str) -> Option<&'a NodeProto> {
    for (i, n) in g.node.iter().enumerate() {
        let own = n.name.as_deref().filter(|s| !s.is_empty()).map(String::from);
        if own.unwrap_or_else(|| format!("{}#{}", n.op_type.as_deref().unwrap_or("?"), i)) == name {
            return Some(n);
        }
    }
    g.node.iter().flat_map(|n| &n.attribute).flat_map(|a| a.g.iter().map(|b| &**b).chain(a.graphs.iter())).find_map(|sub| find_node(sub, name))
}

fn describe(model: &[u8], path: Option<&std::path::Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions, name: &str) -> Option<String> {
    let proto = onnx_translate::proto::decode_model(bytes::Bytes::copy_from_slice(model)).ok()?;
    let node = find_node(proto.graph.as_ref()?, name)?.clone();
    // The types after shape inference, where it gets that far.
    let types = node_types(model, path, given, opts, name);
    let show = |names: &[String], types: Option<&Vec<String>>| -> String {
        let mut k = 0;
        let parts: Vec<String> = names
            .iter()
            .map(|n| {
                if n.is_empty() {
                    return "(absent)".to_string();
                }
                let t = types.and_then(|t| t.get(k)).cloned();
                k += 1;
                match t {
                    Some(t) => format!("{}: {}", n, t),
                    None => n.clone(),
                }
            })
            .collect();
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    };
    let op = node.op_type.clone().unwrap_or_default();
    let domain = node.domain.as_deref().filter(|d| !d.is_empty() && *d != "ai.onnx").map(|d| format!(" (domain {})", d)).unwrap_or_default();
    Some(format!(
        "'{}', {}{}; inputs {}; outputs {}",
        name,
        op,
        domain,
        show(&node.input, types.as_ref().map(|t| &t.0)),
        show(&node.output, types.as_ref().map(|t| &t.1))
    ))
}

/// The inferred types of the op named `name`: its present operands' and its results'.
fn node_types(model: &[u8], path: Option<&std::path::Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions, name: &str) -> Option<(Vec<String>, Vec<String>)> {
    let compile::Specialized { ctx, mut imp, .. } = compile::specialize(model, path, given, opts).ok()?;
    let _ = driver::pipelines::run(&ctx, &mut imp.body, imp.module, driver::pipelines::RESOLVE_PIPELINE);
    let body = &imp.body;
    let op = body.walk_preorder(imp.module).into_iter().find(|o| body.name(*o).as_str().starts_with("onnx.") && body.op(*o).loc.node_name().as_deref() == Some(name))?;
    let ty = |v: &ir::Value| -> Option<String> {
        let t = body.value_type(*v);
        if matches!(t.data(), ir::types::TypeData::None) {
            return None;
        }
        Some(compile::spec(&ctx, String::new(), t).map(|s| s.to_string().trim_start_matches(": ").to_string()).unwrap_or_else(|_| t.to_string()))
    };
    let o = body.op(op);
    Some((o.operands().iter().filter_map(ty).collect(), o.results().iter().filter_map(ty).collect()))
}
