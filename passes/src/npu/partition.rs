//! `npu-partition`: asks the target of every op of a graph function whether
//! it runs it, forms convex subgraphs of the ops it runs, and outlines each
//! run of one target into a function (`npu.partition = "npu"` or `"cpu"`)
//! that the graph function now calls in order.
//!
//! Convexity by construction: the ops are put in a topological order that
//! keeps taking ready ops of the current target until none is left (a greedy
//! merge: an NPU op waits for other NPU work to finish instead of opening a
//! new partition); each run of that order is a partition, and a contiguous
//! piece of a topological order never has a path leaving and re-entering it.

use super::target::{Npu, Target};
use crate::insert_profiling::node_name;
use ir::attributes::Attribute;
use ir::pass::{Pass, PassContext};
use ir::{Body, Context, InsertPoint, Location, OpId, OperationState, Value};
use npu::hw::HwDesc;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

pub struct NpuPartition {
    /// Where the CPU-operation report goes ("" none, "-" stderr, else a file).
    pub report: String,
    /// Where the partition graph goes (Graphviz), "" for nowhere.
    pub dot: String,
}

/// The decision for one op.
#[derive(Clone, Debug)]
pub struct Placement {
    pub node: String,
    pub op: String,
    pub npu: bool,
    pub reason: Option<String>,
    pub partition: String,
}

/// Ops whose NPU form is fused into the NPU op producing their input.
const FUSED_INTO_PRODUCER: &[&str] = &["onnx.Relu", "onnx.Clip", "onnx.Flatten"];
/// NPU ops an activation fuses into.
const ACTIVATION_HOSTS: &[&str] = &["onnx.Conv", "onnx.Gemm", "onnx.MatMul", "onnx.Add", "onnx.Sub", "onnx.Mul", "onnx.Max", "onnx.Min"];

/// The hardware description of a module (`npu.hw`, default `npu16`).
pub fn module_hw(body: &Body, module: OpId) -> Result<HwDesc, String> {
    match body.op(module).attr("npu.hw") {
        Some(a) => HwDesc::from_attr(a),
        None => Ok(HwDesc::npu16()),
    }
}

fn graph_functions(body: &Body, module: OpId) -> Vec<OpId> {
    let mb = body.region_blocks(body.op(module).regions()[0])[0];
    body.block_ops(mb)
        .filter(|f| body.name(*f).as_str() == "func.func" && body.op(*f).attr("npu.partition").is_none() && body.entry_block(*f).is_some())
        .collect()
}

impl Pass for NpuPartition {
    fn argument(&self) -> &'static str {
        "npu-partition"
    }
    fn display_name(&self) -> &'static str {
        "NpuPartition"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let hw = module_hw(body, module)?;
        if body.op(module).attr("npu.hw").is_none() {
            body.op_mut(module).attributes.set(ctx.ident("npu.hw"), hw.to_attr(ctx));
        }
        let target = Npu { hw };
        let mut all = Vec::new();
        let mut edges = Vec::new();
        for f in graph_functions(body, module) {
            let (placed, e) = partition_function(ctx, body, f, &target)?;
            let base = all.len();
            edges.extend(e.into_iter().map(|(a, b)| (a + base, b + base)));
            all.extend(placed);
        }
        if !self.report.is_empty() {
            emit(&self.report, &report(&all))?;
        }
        if !self.dot.is_empty() {
            emit(&self.dot, &dot(&all, &edges))?;
        }
        Ok(())
    }
}

fn emit(to: &str, text: &str) -> Result<(), String> {
    if to == "-" {
        eprint!("{}", text);
        Ok(())
    } else {
        std::fs::write(to, text).map_err(|e| format!("cannot write '{}': {}", to, e))
    }
}

/// Vela-style summary: each CPU op and why, then the split.
pub fn report(all: &[Placement]) -> String {
    let mut s = String::new();
    let n = all.len().max(1);
    let cpu: Vec<&Placement> = all.iter().filter(|p| !p.npu).collect();
    let _ = writeln!(s, "CPU operations ({} of {}):", cpu.len(), all.len());
    for p in &cpu {
        let _ = writeln!(s, "  {:<24} {:<28} {}", p.op, format!("\"{}\"", p.node), p.reason.as_deref().unwrap_or(""));
    }
    let parts = |npu: bool| all.iter().filter(|p| p.npu == npu).map(|p| p.partition.as_str()).collect::<HashSet<_>>().len();
    let npu_ops = all.len() - cpu.len();
    let _ = writeln!(s, "NPU: {} ops ({:.1}%) in {} partitions; CPU: {} ops ({:.1}%) in {} partitions", npu_ops, 100.0 * npu_ops as f64 / n as f64, parts(true), cpu.len(), 100.0 * cpu.len() as f64 / n as f64, parts(false));
    s
}

/// The graph coloured by target, one cluster per partition.
pub fn dot(all: &[Placement], edges: &[(usize, usize)]) -> String {
    let mut s = String::from("digraph partitions {\n  node [shape=box, style=filled, fontname=\"monospace\"];\n");
    let mut parts: Vec<&str> = vec![];
    for p in all {
        if !parts.contains(&p.partition.as_str()) {
            parts.push(&p.partition);
        }
    }
    for (k, part) in parts.iter().enumerate() {
        let _ = writeln!(s, "  subgraph cluster_{} {{\n    label=\"{}\";", k, part);
        for (i, p) in all.iter().enumerate().filter(|(_, p)| p.partition == *part) {
            let color = if p.npu { "palegreen" } else { "lightsalmon" };
            let tip = p.reason.as_deref().map(|r| format!(", tooltip=\"{}\"", r.replace('"', "'"))).unwrap_or_default();
            let _ = writeln!(s, "    n{} [label=\"{}\\n{}\", fillcolor={}{}];", i, p.node.replace('"', "'"), p.op, color, tip);
        }
        s.push_str("  }\n");
    }
    for (a, b) in edges {
        let _ = writeln!(s, "  n{} -> n{};", a, b);
    }
    s.push_str("}\n");
    s
}

/// Constants, and DequantizeLinear of constants (quantized weights): not
/// partitioned, but copied into each partition that reads them.
fn is_const(body: &Body, op: OpId) -> bool {
    match body.name(op).as_str() {
        "onnx.Constant" => true,
        "onnx.DequantizeLinear" => body.op(op).operands().iter().all(|v| body.defining_op(*v).is_some_and(|d| body.name(d).as_str() == "onnx.Constant")),
        _ => false,
    }
}

/// Copies the constant (tree) defining `v` to the end of `block`.
fn clone_constant(body: &mut Body, v: Value, block: ir::Block, map: &mut HashMap<Value, Value>) -> Value {
    if let Some(c) = map.get(&v) {
        return *c;
    }
    let d = body.defining_op(v).unwrap();
    for o in body.op(d).operands().to_vec() {
        clone_constant(body, o, block, map);
    }
    let nc = body.clone_op(d, map);
    body.insert(nc, InsertPoint::AtEnd(block));
    let r = body.op(nc).result(0);
    map.insert(v, r);
    r
}

/// Values an op (or any op nested in it) reads that are defined outside it.
fn captured(body: &Body, op: OpId) -> Vec<Value> {
    let inner: HashSet<OpId> = body.walk_preorder(op).into_iter().collect();
    let mut out = Vec::new();
    for o in body.walk_preorder(op) {
        for &v in body.op(o).operands() {
            let outside = match body.defining_op(v) {
                Some(d) => !inner.contains(&d),
                None => body.value_block(v).and_then(|b| body.block_parent_op(b)).is_none_or(|p| !inner.contains(&p)),
            };
            if outside && !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

type Placed = (Vec<Placement>, Vec<(usize, usize)>);

/// One DequantizeLinear per user, so each can go where its user goes (as
/// ONNX Runtime's QDQ handling does): an int8 tensor crosses a partition
/// edge, never its dequantized copy.
fn split_shared_dequantize(body: &mut Body, entry: ir::Block) {
    let dqs: Vec<OpId> = body.block_ops(entry).filter(|o| body.name(*o).as_str() == "onnx.DequantizeLinear").collect();
    for dq in dqs {
        let r = body.op(dq).result(0);
        let uses = body.uses(r).to_vec();
        for u in uses.iter().skip(1) {
            let mut map = HashMap::new();
            let c = body.clone_op(dq, &mut map);
            body.insert(c, InsertPoint::After(dq));
            let nr = body.op(c).result(0);
            body.set_operand(u.op, u.index as usize, nr);
        }
    }
}

fn partition_function(ctx: &Context, body: &mut Body, f: OpId, target: &Npu) -> Result<Placed, String> {
    let entry = body.entry_block(f).ok_or("function without body")?;
    split_shared_dequantize(body, entry);
    let fname = body.op(f).attr("sym_name").and_then(|a| a.as_str()).unwrap_or("graph").to_string();
    let all_ops: Vec<OpId> = body.block_ops(entry).collect();
    let ret = *all_ops.last().ok_or("empty function")?;
    let work: Vec<OpId> = all_ops.iter().copied().filter(|o| *o != ret && !is_const(body, *o)).collect();
    let index: HashMap<OpId, usize> = work.iter().enumerate().map(|(i, o)| (*o, i)).collect();
    // The capability query, then fusion-aware refinement in program order.
    let mut npu: Vec<Result<(), String>> = work.iter().map(|o| target.supports(body, *o)).collect();
    // Ops fused into another (activations into their producer, a quantized
    // pattern's DQ/Q into its product) are placed with it, as one node.
    let mut group: Vec<usize> = (0..work.len()).collect();
    for (i, &op) in work.iter().enumerate() {
        let name = body.name(op);
        if npu[i].is_err() || !FUSED_INTO_PRODUCER.contains(&name.as_str()) {
            continue;
        }
        let x = body.op(op).operand(0);
        let host = body.defining_op(x).and_then(|d| index.get(&d).copied());
        let ok = host.is_some_and(|h| {
            npu[h].is_ok() && body.uses(x).len() == 1 && (name.as_str() == "onnx.Flatten" || ACTIVATION_HOSTS.contains(&body.name(work[h]).as_str()))
        });
        if !ok {
            npu[i] = Err(format!("standalone {} (runs fused into the NPU op producing its input)", &name.as_str()[5..]));
        } else if let Some(h) = host {
            group[i] = h;
        }
    }
    // Quantized products: the product, its DequantizeLinears and QuantizeLinear
    // (and a DequantizeLinear → Relu → QuantizeLinear after) are one int8 NPU op.
    for &op in &work {
        let (mut members, q) = if let Some(a) = super::quant::qadd(body, op) {
            (vec![op, a.a.op, a.b.op, a.q], a.q)
        } else if super::quant::qinteger(body, op) {
            let geometry = if body.name(op).as_str() == "onnx.ConvInteger" {
                super::target::conv_geometry(body, op)
            } else if body.value_type(body.op(op).operand(1)).shape().map(|s| s.len()) == Some(2) {
                Ok(())
            } else {
                Err("B is not a matrix".into())
            };
            npu[index[&op]] = geometry;
            continue;
        } else if let Some((x, q)) = super::quant::qmaxpool(body, op) {
            if npu[index[&op]].is_err() {
                continue;
            }
            // No chain after a pool: its Q is the group's last op.
            for o in [op, x.op, q] {
                if let Some(&i) = index.get(&o) {
                    npu[i] = Ok(());
                    group[i] = index[&op];
                }
            }
            continue;
        } else {
            if !matches!(body.name(op).as_str(), "onnx.Conv" | "onnx.Gemm" | "onnx.MatMul" | "onnx.QLinearConv" | "onnx.QLinearMatMul") {
                continue;
            }
            let Some(m) = super::quant::qmac(body, op) else { continue };
            if let Err(r) = super::target::quantized_mac(body, op) {
                npu[index[&op]] = Err(r);
                continue;
            }
            let mut v = vec![op, m.x.op, m.w.op, m.q];
            v.extend(m.b.as_ref().map(|b| b.op));
            (v, m.q)
        };
        if let Some((dq, relu, q2, _)) = super::quant::relu_chain(body, body.op(q).result(0)) {
            members.extend([dq, relu, q2]);
        }
        for o in members {
            if let Some(&i) = index.get(&o) {
                npu[i] = Ok(());
                group[i] = index[&op];
            }
        }
    }
    let rep = |mut i: usize| {
        while group[i] != i {
            i = group[i];
        }
        i
    };
    let reps: Vec<usize> = (0..work.len()).map(rep).collect();
    // The data-flow graph of the ops (constants excluded: each partition gets its own copy).
    // One graph node per group (its representative's index).
    let mut g: DiGraph<usize, ()> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..work.len()).map(|i| g.add_node(i)).collect();
    let mut edges = vec![];
    for (i, &op) in work.iter().enumerate() {
        for v in captured(body, op) {
            if let Some(&d) = body.defining_op(v).and_then(|d| index.get(&d)) {
                edges.push((d, i));
                let (a, b) = (reps[d], reps[i]);
                if a != b && !g.contains_edge(nodes[a], nodes[b]) {
                    g.add_edge(nodes[a], nodes[b], ());
                }
            }
        }
    }
    // Greedy topological order of the groups: stay on the current target while it has ready ones.
    let mut indeg: Vec<usize> = nodes.iter().map(|n| g.neighbors_directed(*n, petgraph::Direction::Incoming).count()).collect();
    let mut ready: Vec<usize> = (0..work.len()).filter(|i| reps[*i] == *i && indeg[*i] == 0).collect();
    let mut order = Vec::with_capacity(work.len());
    let mut current = ready.iter().min().map(|i| npu[*i].is_ok()).unwrap_or(false);
    while !ready.is_empty() {
        let pick = ready.iter().copied().filter(|i| npu[*i].is_ok() == current).min();
        let Some(i) = pick else {
            current = !current;
            continue;
        };
        ready.retain(|r| *r != i);
        order.push(i);
        for n in g.neighbors_directed(nodes[i], petgraph::Direction::Outgoing) {
            let j = g[n];
            indeg[j] -= 1;
            if indeg[j] == 0 {
                ready.push(j);
            }
        }
    }
    if order.len() != reps.iter().enumerate().filter(|(i, r)| *i == **r).count() {
        return Err("the graph has a cycle".into());
    }
    // Each group's ops in program order, then runs of one target.
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, r) in reps.iter().enumerate() {
        members.entry(*r).or_default().push(i);
    }
    let order: Vec<usize> = order.into_iter().flat_map(|r| members.remove(&r).unwrap_or_default()).collect();
    let mut runs: Vec<(bool, Vec<usize>)> = vec![];
    for i in order {
        let t = npu[i].is_ok();
        match runs.last_mut() {
            Some((rt, v)) if *rt == t => v.push(i),
            _ => runs.push((t, vec![i])),
        }
    }
    let mut placed: Vec<Placement> = work
        .iter()
        .enumerate()
        .map(|(i, op)| Placement {
            node: node_name(&body.op(*op).loc).unwrap_or_default(),
            op: body.name(*op).as_str().to_string(),
            npu: npu[i].is_ok(),
            reason: npu[i].clone().err(),
            partition: String::new(),
        })
        .collect();
    for (i, op) in work.iter().enumerate() {
        if let Err(r) = &npu[i] {
            body.op_mut(*op).attributes.set(ctx.ident("npu.cpu_reason"), Attribute::string(r));
        }
    }
    let mut counts = (0, 0);
    for (t, members) in runs {
        let kind = if t { "npu" } else { "cpu" };
        let k = if t { &mut counts.0 } else { &mut counts.1 };
        let pname = format!("{}_{}{}", fname, kind, *k);
        *k += 1;
        let ops: Vec<OpId> = members.iter().map(|i| work[*i]).collect();
        for i in &members {
            placed[*i].partition = pname.clone();
        }
        outline(ctx, body, f, ret, &ops, &pname, kind)?;
    }
    // Constants only partitions use are dead in the graph function now (users first).
    let consts: Vec<OpId> = body.block_ops(entry).filter(|o| is_const(body, *o)).collect();
    for c in consts.into_iter().rev() {
        if !body.has_uses(body.op(c).result(0)) {
            body.erase(c);
        }
    }
    Ok((placed, edges))
}

/// Moves `ops` (in order) into a new function `name` and calls it before `ret`.
fn outline(ctx: &Context, body: &mut Body, f: OpId, ret: OpId, ops: &[OpId], name: &str, kind: &str) -> Result<(), String> {
    let set: HashSet<OpId> = ops.iter().flat_map(|o| body.walk_preorder(*o)).collect();
    let mut inputs: Vec<Value> = vec![];
    let mut consts: Vec<Value> = vec![];
    for &op in ops {
        for v in captured(body, op) {
            if body.defining_op(v).is_some_and(|d| set.contains(&d)) {
                continue;
            }
            let c = body.defining_op(v).is_some_and(|d| is_const(body, d));
            let list = if c { &mut consts } else { &mut inputs };
            if !list.contains(&v) {
                list.push(v);
            }
        }
    }
    let mut outputs: Vec<Value> = vec![];
    for &op in ops {
        for &r in body.op(op).results() {
            if body.uses(r).iter().any(|u| !set.contains(&u.op)) {
                outputs.push(r);
            }
        }
    }
    let loc = Location::fused(&ops.iter().map(|o| body.op(*o).loc.clone()).collect::<Vec<_>>());
    let in_types: Vec<ir::Type> = inputs.iter().map(|v| body.value_type(*v).clone()).collect();
    let out_types: Vec<ir::Type> = outputs.iter().map(|v| body.value_type(*v).clone()).collect();
    let (nf, nb) = func::FunctionBuilder::create(ctx, body, name, &in_types, &out_types, body.op(f).loc.clone());
    body.op_mut(nf).properties.set(ctx.ident("sym_visibility"), Attribute::string("private"));
    body.op_mut(nf).attributes.set(ctx.ident("npu.partition"), Attribute::string(kind));
    body.insert(nf, InsertPoint::Before(f));
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (v, a) in inputs.iter().zip(body.block_args(nb).to_vec()) {
        map.insert(*v, a);
    }
    let mut cmap: HashMap<Value, Value> = HashMap::new();
    for c in &consts {
        let r = clone_constant(body, *c, nb, &mut cmap);
        map.insert(*c, r);
    }
    for &op in ops {
        body.move_op(op, InsertPoint::AtEnd(nb));
    }
    for &op in ops {
        for o in body.walk_preorder(op) {
            for (i, v) in body.op(o).operands().to_vec().into_iter().enumerate() {
                if let Some(n) = map.get(&v) {
                    body.set_operand(o, i, *n);
                }
            }
        }
    }
    // The call, then outside uses of the outputs read its results.
    let call = OperationState::new(ctx.op_name("func.call"), loc).operands(&inputs).results(&out_types).property(ctx.ident("callee"), Attribute::symbol(name));
    let call = body.build(call, InsertPoint::Before(ret));
    let results = body.op(call).results().to_vec();
    for (v, r) in outputs.iter().zip(&results) {
        for u in body.uses(*v).to_vec() {
            if !set.contains(&u.op) {
                body.set_operand(u.op, u.index as usize, *r);
            }
        }
    }
    func::FunctionBuilder::ret(ctx, body, nb, &outputs, body.op(f).loc.clone());
    Ok(())
}
