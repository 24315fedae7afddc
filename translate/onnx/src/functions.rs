//! Model-local functions (`ModelProto.functions`) inlined before import: every
//! node that calls one becomes the function's nodes, its values renamed apart
//! (`<function>#<call>::<name>`), the function's inputs and outputs bound to the
//! call's, attribute references (`@alpha`) resolved against the call's
//! attributes or the function's defaults, and node names prefixed with the
//! caller's so locations say where an op came from. Calls inside inlined
//! bodies and inside subgraphs are inlined too; a function that calls itself
//! is an error, not a hang.

use crate::proto::{AttributeProto, FunctionProto, GraphProto, ModelProto, NodeProto};
use std::collections::HashMap;

/// Calls may nest this deep (deeper is taken for recursion).
const MAX_DEPTH: usize = 64;
/// Inlining stops with an error past this many nodes (a small model whose
/// calls fan out exponentially must not exhaust memory).
const MAX_NODES: usize = 10_000_000;

/// The model's main graph with every call of a model-local function inlined;
/// `None` when the model has no functions (nothing to do).
pub fn inline_functions(model: &ModelProto, graph: &GraphProto, opset: i64) -> Result<Option<GraphProto>, String> {
    if model.functions.is_empty() {
        return Ok(None);
    }
    let mut table: HashMap<(String, String, String), &FunctionProto> = HashMap::new();
    for f in &model.functions {
        let key = key(f.domain.as_deref(), f.name.as_deref(), f.overload.as_deref());
        // A function written against another version of the default domain would be read wrongly.
        if let Some(v) = f.opset_import.iter().find(|o| is_default(o.domain.as_deref())).and_then(|o| o.version) {
            if v != opset {
                return Err(format!("function '{}' (domain '{}') is written for opset {} of the default domain; the model imports opset {}", key.1, key.0, v, opset));
            }
        }
        if table.insert(key.clone(), f).is_some() {
            return Err(format!("function '{}' (domain '{}') is defined twice", key.1, key.0));
        }
    }
    let mut inl = Inliner { table, calls: 0, nodes: 0 };
    let mut g = graph.clone();
    g.node = inl.nodes(&graph.node, 0)?;
    inl.subgraphs(&mut g.node, 0)?;
    Ok(Some(g))
}

fn is_default(domain: Option<&str>) -> bool {
    matches!(domain, None | Some("") | Some("ai.onnx"))
}

fn key(domain: Option<&str>, name: Option<&str>, overload: Option<&str>) -> (String, String, String) {
    let d = if is_default(domain) { "" } else { domain.unwrap_or("") };
    (d.to_string(), name.unwrap_or("").to_string(), overload.unwrap_or("").to_string())
}

struct Inliner<'a> {
    table: HashMap<(String, String, String), &'a FunctionProto>,
    /// Calls inlined so far: numbers each call's renamed values.
    calls: usize,
    nodes: usize,
}

impl Inliner<'_> {
    /// `nodes` with every call expanded, recursively.
    fn nodes(&mut self, nodes: &[NodeProto], depth: usize) -> Result<Vec<NodeProto>, String> {
        let mut out = Vec::with_capacity(nodes.len());
        for n in nodes {
            let k = key(n.domain.as_deref(), n.op_type.as_deref(), n.overload.as_deref());
            let Some(f) = self.table.get(&k).copied() else {
                self.count(1)?;
                out.push(n.clone());
                continue;
            };
            if depth >= MAX_DEPTH {
                return Err(format!("node '{}' calls function '{}': calls nest deeper than {} (does the function call itself?)", n.name.as_deref().unwrap_or(""), k.1, MAX_DEPTH));
            }
            let body = self.expand(n, f)?;
            out.extend(self.nodes(&body, depth + 1)?);
        }
        Ok(out)
    }

    fn count(&mut self, n: usize) -> Result<(), String> {
        self.nodes += n;
        if self.nodes > MAX_NODES {
            return Err(format!("inlining the model's functions gives more than {} nodes", MAX_NODES));
        }
        Ok(())
    }

    /// Calls inside subgraphs (If/Loop/Scan bodies) of already expanded nodes.
    fn subgraphs(&mut self, nodes: &mut [NodeProto], depth: usize) -> Result<(), String> {
        for n in nodes {
            for a in &mut n.attribute {
                for g in a.g.iter_mut().map(|b| &mut **b).chain(a.graphs.iter_mut()) {
                    g.node = self.nodes(&g.node, depth)?;
                    self.subgraphs(&mut g.node, depth + 1)?;
                }
            }
        }
        Ok(())
    }

    /// The body of `f` for the call `call`: renamed, bound, attributes resolved.
    fn expand(&mut self, call: &NodeProto, f: &FunctionProto) -> Result<Vec<NodeProto>, String> {
        self.calls += 1;
        let fname = f.name.as_deref().unwrap_or("");
        let caller = call.name.clone().unwrap_or_else(|| fname.to_string());
        let mut names: HashMap<String, String> = HashMap::new();
        if call.input.len() > f.input.len() || call.output.len() > f.output.len() {
            return Err(format!(
                "node '{}' calls function '{}' with {} inputs and {} outputs; it takes {} and gives {}",
                caller, fname, call.input.len(), call.output.len(), f.input.len(), f.output.len()
            ));
        }
        // Inputs the call leaves out are absent optional inputs ("").
        for (i, formal) in f.input.iter().enumerate() {
            names.insert(formal.clone(), call.input.get(i).cloned().unwrap_or_default());
        }
        for (i, formal) in f.output.iter().enumerate() {
            if let Some(actual) = call.output.get(i).filter(|o| !o.is_empty()) {
                names.insert(formal.clone(), actual.clone());
            }
        }
        let prefix = format!("{}#{}::", fname, self.calls);
        let rename = Rename { names: &names, prefix: &prefix };
        let resolve = Resolve { call, defaults: &f.attribute_proto, declared: &f.attribute };
        f.node.iter().map(|n| rename.node(n, &resolve, &caller)).collect()
    }
}

/// Renames a function body's values apart from the caller's.
struct Rename<'a> {
    names: &'a HashMap<String, String>,
    prefix: &'a str,
}

impl Rename<'_> {
    fn name(&self, n: &str) -> String {
        if n.is_empty() {
            return String::new();
        }
        self.names.get(n).cloned().unwrap_or_else(|| format!("{}{}", self.prefix, n))
    }

    fn node(&self, n: &NodeProto, resolve: &Resolve, caller: &str) -> Result<NodeProto, String> {
        let mut out = n.clone();
        out.input = n.input.iter().map(|i| self.name(i)).collect();
        out.output = n.output.iter().map(|o| self.name(o)).collect();
        out.name = Some(format!("{}/{}", caller, n.name.as_deref().unwrap_or(n.op_type.as_deref().unwrap_or(""))));
        out.attribute = vec![];
        for a in &n.attribute {
            let Some(mut a) = resolve.attribute(a)? else { continue };
            for g in a.g.iter_mut().map(|b| &mut **b).chain(a.graphs.iter_mut()) {
                self.graph(g, resolve, caller)?;
            }
            out.attribute.push(a);
        }
        Ok(out)
    }

    /// A subgraph inside the body: every name it uses or defines renamed the same way.
    fn graph(&self, g: &mut GraphProto, resolve: &Resolve, caller: &str) -> Result<(), String> {
        for vi in g.input.iter_mut().chain(g.output.iter_mut()).chain(g.value_info.iter_mut()) {
            vi.name = vi.name.as_deref().map(|n| self.name(n));
        }
        for t in &mut g.initializer {
            t.name = t.name.as_deref().map(|n| self.name(n));
        }
        g.node = g.node.iter().map(|n| self.node(n, resolve, caller)).collect::<Result<_, _>>()?;
        Ok(())
    }
}

/// Resolves attribute references of a body against one call.
struct Resolve<'a> {
    call: &'a NodeProto,
    defaults: &'a [AttributeProto],
    declared: &'a [String],
}

impl Resolve<'_> {
    /// The attribute as the body's node gets it; `None` when it refers to an
    /// attribute the call does not set and that has no default (left unset).
    fn attribute(&self, a: &AttributeProto) -> Result<Option<AttributeProto>, String> {
        let Some(r) = a.ref_attr_name.as_deref().filter(|r| !r.is_empty()) else { return Ok(Some(a.clone())) };
        let known = self.declared.iter().any(|d| d == r) || self.defaults.iter().any(|d| d.name.as_deref() == Some(r));
        if !known {
            return Err(format!("attribute '{}' refers to '@{}', which the function does not declare", a.name.as_deref().unwrap_or(""), r));
        }
        let given = self.call.attribute.iter().chain(self.defaults).find(|c| c.name.as_deref() == Some(r));
        Ok(given.map(|g| {
            let mut v = g.clone();
            v.name = a.name.clone();
            v
        }))
    }
}
