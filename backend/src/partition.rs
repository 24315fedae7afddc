//! The generic partitioner (`npu-partition{targets=npu16,cpu}`): asks every
//! backend of an ordered list about every `onnx` op of a graph function, lets
//! each group the ops it runs as one, places each op (group) on the first
//! backend that takes it (the CPU, last, takes everything), forms convex
//! subgraphs and outlines each run of one backend into a function
//! (`backend.partition = "<backend>"`) that the graph function calls in order.
//!
//! Convexity by construction: the ops are put in a topological order that
//! keeps taking ready ops of the current backend until none is left (a greedy
//! merge: an NPU op waits for other NPU work to finish instead of opening a
//! new partition); each run of that order is a partition, and a contiguous
//! piece of a topological order never has a path leaving and re-entering it.

use crate::interface::{Backend, Reason, Unsupported, CPU};
use ir::attributes::Attribute;
use onnx::ops;
use ir::pass::{Pass, PassContext};
use ir::{Body, Context, InsertPoint, Location, OpId, OperationState, Value};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::sync::Arc;

/// The attribute naming a partition function's backend.
pub const PARTITION_ATTR: &str = "backend.partition";
/// On an op the first backend refused: its reason code and message.
pub const REASON_CODE_ATTR: &str = "backend.reason_code";
pub const REASON_ATTR: &str = "backend.reason";
/// On an op: `{backend = "message"}` for each backend that took it and then
/// could not compile its partition; the partitioner asks those no more.
pub const REFUSED_ATTR: &str = "backend.compile_failed";

/// The backend a placement rule puts an op on, set before the backends'
/// `prepare`: a backend leaves such an op as it is (npu16 does not write an
/// LSTM pinned to the CPU out as its steps, so the rule still finds it).
pub const PINNED_ATTR: &str = "backend.pinned";
/// On an op before partitioning: a number that follows it into its partition,
/// so a partition's failure can be charged to the ops it came from.
pub const OP_ID_ATTR: &str = "backend.op";

pub struct Partition {
    /// The backends in order of preference (empty: every registered one); the CPU is always last.
    pub targets: Vec<String>,
    /// Where the report of the ops off the first backend goes ("" none, "-" stderr, else a file).
    pub report: String,
    /// Where the partition graph goes (Graphviz), "" for nowhere.
    pub dot: String,
    /// A placement file forcing nodes onto backends (`crate::placement`), "" for none.
    pub placement: String,
}

/// Registers `npu-partition`.
pub fn register(reg: &mut ir::pass::PassRegistry) {
    use ir::pass::{OptionKind, OptionSpec as Opt, PassInfo};
    reg.register(PassInfo {
        argument: "npu-partition",
        summary: "Ask each backend of a list which onnx ops it runs, place each op on the first that takes it (the CPU last), form convex subgraphs and outline each run of one backend into a function",
        options: vec![
            Opt::new("targets", OptionKind::List, "", "Backends in order of preference, the CPU last (default: every registered backend)"),
            Opt::new("report", OptionKind::String, "", "Write each op that fell back, with its reason code, and the split (\"-\": stderr)"),
            Opt::new("dot", OptionKind::String, "", "Write the graph coloured by backend (Graphviz)"),
            Opt::new("placement", OptionKind::String, "", "Force nodes onto backends: lines 'NODE BACKEND' or '/REGEX/ BACKEND', or a --report-json file"),
        ],
        create: |o| Ok(Box::new(Partition { targets: o.list("targets"), report: o.string("report"), dot: o.string("dot"), placement: o.string("placement") })),
    });
}

/// Where one op runs, and why not on the backends before it.
#[derive(Clone, Debug)]
pub struct Placement {
    pub node: String,
    pub op: String,
    pub backend: String,
    pub reason: Option<Unsupported>,
    pub partition: String,
    /// The op's useful multiply-accumulates ([`macs`]): where the model's arithmetic runs.
    pub macs: u64,
}

/// The multiply-accumulates an `onnx` product does (convolutions, matrix
/// products, recurrent layers' gate products; 0 for every other op or an
/// unknown shape), counted from its
/// shapes as the model defines it (a depthwise filter's zeros not counted).
pub fn macs(body: &Body, op: OpId) -> u64 {
    let o = body.op(op);
    let repeats = o.attr(REDUCTION_REPEATS_ATTR).and_then(|a| a.as_int()).filter(|r| *r > 1).unwrap_or(1) as u64;
    let all = shaped_macs(body, op) / repeats;
    // A band of rows some of which another op computed too: its own rows only.
    let rows = o.results().first().and_then(|v| body.value_type(*v).shape().and_then(|s| s.get(2).copied())).filter(|h| *h > 0);
    match (o.int_attr(USEFUL_ROWS_ATTR), rows) {
        (Some(u), Some(h)) if (0..h).contains(&u) => all * u as u64 / h as u64,
        _ => all,
    }
}

/// Set by a backend's `prepare` on an op that computes a band of rows of a
/// map (axis 2 of its result), some of which another band computes too
/// (`npu16`'s row bands and their halos): its MACs as the model defines them
/// are those of this many of its rows.
pub const USEFUL_ROWS_ATTR: &str = "backend.useful_rows";

/// Set by a backend's `prepare` on a product it rewrote to reduce over its
/// input several times (`npu16`'s weights with zero points as symmetric
/// parts): its MACs as the model defines them are the shapes' divided by it.
pub const REDUCTION_REPEATS_ATTR: &str = "backend.reduction_repeats";

fn shaped_macs(body: &Body, op: OpId) -> u64 {
    let o = body.op(op);
    let shape = |i: usize| o.operands().get(i).and_then(|v| body.value_type(*v).shape().map(|s| s.to_vec())).filter(|s| s.iter().all(|d| *d >= 0));
    let y = o.results().first().and_then(|v| body.value_type(*v).shape().map(|s| s.to_vec())).filter(|s| s.iter().all(|d| *d >= 0));
    let n = |s: &[i64]| s.iter().product::<i64>().max(0) as u64;
    let (Some(y), Some(x)) = (y, shape(0)) else { return 0 };
    match body.name(op).as_str() {
        ops::Conv::NAME | ops::ConvInteger::NAME | ops::QLinearConv::NAME => shape(if body.name(op).as_str() == ops::QLinearConv::NAME { 3 } else { 1 }).map_or(0, |w| n(&y) * n(&w[1..])),
        ops::ConvTranspose::NAME => shape(1).map_or(0, |w| n(&x) * n(&w[1..])),
        // Every step multiplies the input by W and the state by R (X is [seq, batch, input] by default).
        ops::LSTM::NAME | ops::GRU::NAME | ops::RNN::NAME if x.len() == 3 => match (shape(1), shape(2)) {
            (Some(w), Some(r)) => n(&x[..2]) * (n(&w) + n(&r)),
            _ => 0,
        },
        ops::MatMul::NAME | ops::MatMulInteger::NAME | ops::QLinearMatMul::NAME => n(&y) * x.last().copied().unwrap_or(0).max(0) as u64,
        ops::Gemm::NAME => {
            let k = if o.attr("transA").and_then(|a| a.as_int()).unwrap_or(0) != 0 { x.first() } else { x.last() };
            n(&y) * k.copied().unwrap_or(0).max(0) as u64
        }
        _ => 0,
    }
}

fn graph_functions(body: &Body, module: OpId) -> Vec<OpId> {
    let mb = body.region_blocks(body.op(module).regions()[0])[0];
    body.block_ops(mb)
        .filter(|f| body.name(*f).as_str() == func::ops::FUNC && body.op(*f).attr(PARTITION_ATTR).is_none() && body.entry_block(*f).is_some())
        .collect()
}

/// The backend of a partition function, if it is one.
pub fn partition_backend(body: &Body, f: OpId) -> Option<&str> {
    body.op(f).str_attr(PARTITION_ATTR)
}

impl Pass for Partition {
    fn argument(&self) -> &'static str {
        "npu-partition"
    }
    fn display_name(&self) -> &'static str {
        "Partition"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let backends = crate::registry::resolve(&self.targets)?;
        let rules = if self.placement.is_empty() { vec![] } else { crate::placement::read(&self.placement)? };
        for op in body.walk_preorder(module) {
            let Some(node) = body.op(op).loc.node_name().filter(|_| !rules.is_empty()) else { continue };
            if let Some(r) = rules.iter().find(|r| r.matches(&node)) {
                body.op_mut(op).attributes.set(ctx.ident(PINNED_ATTR), ir::attributes::Attribute::string(&r.backend));
            }
        }
        for b in &backends {
            let keys = b.hw_keys();
            if !keys.is_empty() {
                // Checked, and completed with the defaults, where every later question reads it.
                let desc = crate::hw::HwDesc::of_module(body, module, b.name(), &keys)?;
                body.op_mut(module).attributes.set(ctx.ident(&crate::hw::attr_name(b.name())), desc.to_attr(ctx));
            }
            b.prepare(ctx, body, module).map_err(|e| format!("backend '{}': {}", b.name(), e))?;
        }
        for r in &rules {
            if !backends.iter().any(|b| b.name() == r.backend) {
                return Err(format!("{}: backend '{}' is not in the target list ({})", r.origin, r.backend, backends.iter().map(|b| b.name().to_string()).collect::<Vec<_>>().join(",")));
            }
        }
        let mut used = vec![false; rules.len()];
        let mut all = Vec::new();
        let mut edges = Vec::new();
        for f in graph_functions(body, module) {
            let (placed, e) = partition_function(ctx, body, f, &backends, &rules, &mut used)?;
            let base = all.len();
            edges.extend(e.into_iter().map(|(a, b)| (a + base, b + base)));
            all.extend(placed);
        }
        if let Some(k) = used.iter().position(|u| !u) {
            return Err(format!("{}: names no node of the model", rules[k].origin));
        }
        let names: Vec<String> = backends.iter().map(|b| b.name().to_string()).collect();
        if !self.report.is_empty() {
            emit(&self.report, &report(&all, &names))?;
        }
        if !self.dot.is_empty() {
            emit(&self.dot, &dot(&all, &edges, &names))?;
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

/// Vela-style summary: each op that fell back, where to and why (with its
/// reason code), then the split over `backends` (in their order).
pub fn report(all: &[Placement], backends: &[String]) -> String {
    let mut s = String::new();
    for b in backends.iter().skip(1) {
        let here: Vec<&Placement> = all.iter().filter(|p| &p.backend == b).collect();
        if here.is_empty() && b != CPU {
            continue;
        }
        let title = if b == CPU { "CPU".to_string() } else { b.clone() };
        let _ = writeln!(s, "{} operations ({} of {}):", title, here.len(), all.len());
        for p in &here {
            let why = p.reason.as_ref().map(|r| r.to_string()).unwrap_or_default();
            let _ = writeln!(s, "  {:<24} {:<28} {}", p.op, format!("\"{}\"", p.node), why);
        }
    }
    s.push_str(&split_line(all, backends));
    s
}

/// One line: each backend's ops, their share and its partitions.
pub fn split_line(all: &[Placement], backends: &[String]) -> String {
    let n = all.len().max(1);
    let split: Vec<String> = backends
        .iter()
        .map(|b| {
            let ops = all.iter().filter(|p| &p.backend == b).count();
            let parts = all.iter().filter(|p| &p.backend == b).map(|p| p.partition.as_str()).collect::<HashSet<_>>().len();
            format!("{}: {} ops ({:.1}%) in {} partitions", b, ops, 100.0 * ops as f64 / n as f64, parts)
        })
        .collect();
    format!("{}\n", split.join("; "))
}

/// The graph coloured by backend, one cluster per partition.
pub fn dot(all: &[Placement], edges: &[(usize, usize)], backends: &[String]) -> String {
    const COLORS: &[&str] = &["palegreen", "lightblue", "khaki", "plum"];
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
            let color = match backends.iter().position(|b| *b == p.backend) {
                _ if p.backend == CPU => "lightsalmon",
                Some(i) => COLORS[i % COLORS.len()],
                None => "white",
            };
            let tip = p.reason.as_ref().map(|r| format!(", tooltip=\"{}\"", r.to_string().replace('"', "'"))).unwrap_or_default();
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

/// The partition functions of a module that `backend` runs.
pub fn partitions_of(body: &Body, module: OpId, backend: &str) -> Vec<OpId> {
    let mb = body.region_blocks(body.op(module).regions()[0])[0];
    body.block_ops(mb).filter(|f| partition_backend(body, *f) == Some(backend) && body.entry_block(*f).is_some()).collect()
}

/// Gives a partition to the CPU after its backend could not compile it (a
/// kernel that cannot tile, a buffer that does not fit): the function is
/// relabelled and each of its ops records why, so the model still runs and
/// the report says what happened.
pub fn fall_back_to_cpu(ctx: &Context, body: &mut Body, f: OpId, why: &Unsupported) {
    body.op_mut(f).attributes.set(ctx.ident(PARTITION_ATTR), Attribute::string(CPU));
    let Some(entry) = body.entry_block(f) else { return };
    let ops: Vec<OpId> = body.block_ops(entry).filter(|o| !matches!(body.name(*o).as_str(), ops::Constant::NAME | func::ops::RETURN)).collect();
    for op in ops {
        body.op_mut(op).attributes.set(ctx.ident(REASON_CODE_ATTR), Attribute::string(why.reason.code()));
        body.op_mut(op).attributes.set(ctx.ident(REASON_ATTR), Attribute::string(&why.message));
    }
}

/// Numbers every op of the module's graph functions (`backend.op`), before partitioning.
pub fn number_ops(ctx: &Context, body: &mut Body, module: OpId) {
    let mut next = 0i64;
    for f in graph_functions(body, module) {
        let Some(entry) = body.entry_block(f) else { continue };
        for op in body.block_ops(entry).collect::<Vec<_>>() {
            body.op_mut(op).attributes.set(ctx.ident(OP_ID_ATTR), Attribute::integer(next as i128, ctx.i64()));
            next += 1;
        }
    }
}

/// The numbers (`backend.op`) of the ops of partition `f` (constants excluded).
pub fn op_numbers(body: &Body, f: OpId) -> Vec<i64> {
    let Some(entry) = body.entry_block(f) else { return vec![] };
    body.block_ops(entry).filter(|o| body.name(*o).as_str() != ops::Constant::NAME).filter_map(|o| body.op(o).attr(OP_ID_ATTR).and_then(|a| a.as_int()).map(|i| i as i64)).collect()
}

/// The numbers of the ops of partition `f` whose node names `error` quotes
/// (a compile error located at the ops it could not take).
pub fn named_op_numbers(body: &Body, f: OpId, error: &str) -> Vec<i64> {
    let Some(entry) = body.entry_block(f) else { return vec![] };
    let first = error.lines().next().unwrap_or("");
    let quoted: Vec<&str> = first.split('"').skip(1).step_by(2).collect();
    body.block_ops(entry)
        .filter(|o| body.op(*o).loc.node_name().is_some_and(|n| quoted.contains(&n.as_str())))
        .filter_map(|o| body.op(o).attr(OP_ID_ATTR).and_then(|a| a.as_int()).map(|i| i as i64))
        .collect()
}

/// Records on the ops numbered `ids` (of an unpartitioned module) that
/// `backend` could not compile them, so that partitioning again gives them
/// to the next backend of the list. Returns how many ops were not marked for
/// `backend` before.
pub fn refuse(ctx: &Context, body: &mut Body, module: OpId, ids: &[i64], backend: &str, message: &str) -> usize {
    let mut marked = 0;
    for f in graph_functions(body, module) {
        let Some(entry) = body.entry_block(f) else { continue };
        for op in body.block_ops(entry).collect::<Vec<_>>() {
            if !body.op(op).attr(OP_ID_ATTR).and_then(|a| a.as_int()).is_some_and(|i| ids.contains(&(i as i64))) {
                continue;
            }
            let mut d = body.op(op).attr(REFUSED_ATTR).and_then(|a| a.as_dict()).cloned().unwrap_or_default();
            if d.get(backend).is_none() {
                marked += 1;
            }
            d.set(ctx.ident(backend), Attribute::string(message));
            body.op_mut(op).attributes.set(ctx.ident(REFUSED_ATTR), Attribute::new(ir::attributes::AttrData::Dict(d)));
        }
    }
    marked
}

/// Every op of the partition functions of a partitioned module, with its backend and reason.
pub fn placements(body: &Body, module: OpId) -> Vec<Placement> {
    let mut out = vec![];
    let mb = body.region_blocks(body.op(module).regions()[0])[0];
    for f in body.block_ops(mb) {
        let Some(backend) = partition_backend(body, f) else { continue };
        let fname = body.op(f).str_attr("sym_name").unwrap_or("").to_string();
        let Some(entry) = body.entry_block(f) else { continue };
        for op in body.block_ops(entry) {
            let n = body.name(op);
            if n.as_str() == ops::Constant::NAME || n.as_str() == func::ops::RETURN {
                continue;
            }
            let o = body.op(op);
            let reason_of = |op: OpId| {
                let o = body.op(op);
                o.str_attr(REASON_ATTR).map(|m| {
                    let code = o.str_attr(REASON_CODE_ATTR).and_then(Reason::from_code).unwrap_or(Reason::Constraint);
                    Unsupported::new(code, m)
                })
            };
            // A constant's DequantizeLinear (quantized weights) is copied to
            // where its user runs: it stays off a backend for its user's reason.
            let reason = reason_of(op).or_else(|| {
                if !is_const(body, op) {
                    return None;
                }
                body.op(op).results().iter().flat_map(|r| body.uses(*r).iter()).find_map(|u| {
                    let r = reason_of(u.op)?;
                    let user = body.op(u.op).loc.node_name().unwrap_or_else(|| body.name(u.op).as_str().to_string());
                    Some(Unsupported::new(r.reason, format!("a constant's dequantization, copied to where its user {} ({}) runs: {}", user, body.name(u.op).as_str(), r.message)))
                })
            });
            out.push(Placement { node: o.loc.node_name().unwrap_or_default(), op: n.as_str().to_string(), backend: backend.to_string(), reason, partition: fname.clone(), macs: macs(body, op) });
        }
    }
    out
}

/// Constants, absent optional inputs (`onnx.NoValue`) and DequantizeLinear of
/// constants (quantized weights): not partitioned, but copied into each
/// partition that reads them.
fn is_const(body: &Body, op: OpId) -> bool {
    match body.name(op).as_str() {
        // An absent optional input is copied into each partition like a constant (it is no value to pass).
        ops::Constant::NAME | ops::NO_VALUE => true,
        ops::DequantizeLinear::NAME => body.op(op).operands().iter().all(|v| body.defining_op(*v).is_some_and(|d| body.name(d).as_str() == ops::Constant::NAME)),
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


type Placed = (Vec<Placement>, Vec<(usize, usize)>);

/// One DequantizeLinear per user, so each can go where its user goes (as
/// ONNX Runtime's QDQ handling does): an int8 tensor crosses a partition
/// edge, never its dequantized copy.
fn split_shared_dequantize(body: &mut Body, entry: ir::Block) {
    let dqs: Vec<OpId> = body.block_ops(entry).filter(|o| body.name(*o).as_str() == ops::DequantizeLinear::NAME).collect();
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

/// Each op's backend (an index into `backends`) and group representative,
/// and why the backends before it refused it.
fn place(body: &Body, work: &[OpId], backends: &[Arc<dyn Backend>], forced: &[Option<(usize, String)>]) -> (Vec<usize>, Vec<usize>, Vec<Option<Unsupported>>) {
    let n = work.len();
    let mut target: Vec<Option<usize>> = vec![None; n];
    let mut group: Vec<usize> = (0..n).collect();
    let mut why: Vec<Vec<(String, Unsupported)>> = vec![vec![]; n];
    for (bi, b) in backends.iter().enumerate() {
        let mut answers: Vec<Result<(), Unsupported>> = work.iter().map(|o| b.supports(body, *o)).collect();
        // A backend that failed to compile an op's partition before is not asked again.
        for (i, op) in work.iter().enumerate() {
            if let Some(m) = body.op(*op).attr(REFUSED_ATTR).and_then(|a| a.as_dict()).and_then(|d| d.get(b.name())).and_then(|m| m.as_str()) {
                answers[i] = Err(Unsupported::new(Reason::CompileFailed, m));
            }
        }
        let groups = b.group(body, work, &mut answers);
        // A placement rule: only its backend (or the CPU after it) may take the op.
        for (i, f) in forced.iter().enumerate() {
            if let Some((k, origin)) = f {
                if *k != bi && b.name() != CPU {
                    answers[i] = Err(Unsupported::new(Reason::Placement, format!("placed on {} by {}", backends[*k].name(), origin)));
                }
            }
        }
        // A group is placed whole: on this backend when its representative goes
        // here. A malformed grouping (a cycle, an index out of range) groups nothing.
        let rep = |i: usize| {
            let (mut r, mut steps) = (i, 0);
            while groups.get(r).is_some_and(|g| *g != r) && steps <= n {
                r = groups[r];
                steps += 1;
            }
            if groups.get(r) == Some(&r) { r } else { i }
        };
        for i in 0..n {
            if target[i].is_some() {
                continue;
            }
            let r = rep(i);
            let ok = answers[i].is_ok() && answers.get(r).is_some_and(|a| a.is_ok()) && target[r].is_none_or(|t| t == bi);
            if ok {
                target[i] = Some(bi);
                group[i] = r;
            } else if let Err(e) = &answers[i] {
                why[i].push((b.name().to_string(), e.clone()));
            } else {
                let host = body.op(work[r]).loc.node_name().unwrap_or_else(|| body.name(work[r]).as_str().to_string());
                why[i].push((b.name().to_string(), Unsupported::new(Reason::Fusion, format!("runs only together with {}, which is not placed on {}", host, b.name()))));
            }
        }
    }
    let reasons = why
        .into_iter()
        .map(|w| match w.len() {
            0 => None,
            1 => Some(w[0].1.clone()),
            _ => Some(Unsupported::new(w[0].1.reason, w.iter().map(|(b, e)| format!("{}: {}", b, e)).collect::<Vec<_>>().join("; "))),
        })
        .collect();
    // The CPU takes everything, so every op has a backend.
    (target.into_iter().map(|t| t.unwrap_or(backends.len() - 1)).collect(), group, reasons)
}

fn partition_function(ctx: &Context, body: &mut Body, f: OpId, backends: &[Arc<dyn Backend>], rules: &[crate::placement::Rule], used: &mut [bool]) -> Result<Placed, String> {
    let entry = body.entry_block(f).ok_or("function without body")?;
    split_shared_dequantize(body, entry);
    let fname = body.op(f).str_attr("sym_name").unwrap_or("graph").to_string();
    let all_ops: Vec<OpId> = body.block_ops(entry).collect();
    let ret = *all_ops.last().ok_or("empty function")?;
    let work: Vec<OpId> = all_ops.iter().copied().filter(|o| *o != ret && !is_const(body, *o)).collect();
    let index: HashMap<OpId, usize> = work.iter().enumerate().map(|(i, o)| (*o, i)).collect();
    // The first rule matching an op's node name decides it.
    let forced: Vec<Option<(usize, String)>> = work
        .iter()
        .map(|op| {
            let node = body.op(*op).loc.node_name()?;
            let k = rules.iter().position(|r| r.matches(&node))?;
            used[k] = true;
            let b = backends.iter().position(|b| b.name() == rules[k].backend)?;
            Some((b, rules[k].origin.clone()))
        })
        .collect();
    let (target, group, reasons) = place(body, &work, backends, &forced);
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
        for v in body.captured_values(op) {
            if let Some(&d) = body.defining_op(v).and_then(|d| index.get(&d)) {
                edges.push((d, i));
                let (a, b) = (reps[d], reps[i]);
                if a != b && !g.contains_edge(nodes[a], nodes[b]) {
                    g.add_edge(nodes[a], nodes[b], ());
                }
            }
        }
    }
    // Greedy topological order of the groups: stay on the current backend while it has ready ones.
    let mut indeg: Vec<usize> = nodes.iter().map(|n| g.neighbors_directed(*n, petgraph::Direction::Incoming).count()).collect();
    let mut ready: Vec<usize> = (0..work.len()).filter(|i| reps[*i] == *i && indeg[*i] == 0).collect();
    let mut order = Vec::with_capacity(work.len());
    let mut current = ready.iter().min().map(|i| target[*i]).unwrap_or(0);
    while !ready.is_empty() {
        let pick = ready.iter().copied().filter(|i| target[*i] == current).min();
        let Some(i) = pick else {
            current = ready.iter().min().map(|i| target[*i]).unwrap_or(current);
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
    // Each group's ops in program order, then runs of one backend.
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, r) in reps.iter().enumerate() {
        members.entry(*r).or_default().push(i);
    }
    let order: Vec<usize> = order.into_iter().flat_map(|r| members.remove(&r).unwrap_or_default()).collect();
    let mut runs: Vec<(usize, Vec<usize>)> = vec![];
    for i in order {
        match runs.last_mut() {
            Some((rt, v)) if *rt == target[i] => v.push(i),
            _ => runs.push((target[i], vec![i])),
        }
    }
    let mut placed: Vec<Placement> = work
        .iter()
        .enumerate()
        .map(|(i, op)| Placement {
            node: body.op(*op).loc.node_name().unwrap_or_default(),
            op: body.name(*op).as_str().to_string(),
            backend: backends[target[i]].name().to_string(),
            reason: reasons[i].clone(),
            partition: String::new(),
            macs: macs(body, *op),
        })
        .collect();
    for (i, op) in work.iter().enumerate() {
        if let Some(r) = &reasons[i] {
            body.op_mut(*op).attributes.set(ctx.ident(REASON_CODE_ATTR), Attribute::string(r.reason.code()));
            body.op_mut(*op).attributes.set(ctx.ident(REASON_ATTR), Attribute::string(&r.message));
        }
    }
    let mut counts = vec![0usize; backends.len()];
    for (t, members) in runs {
        let name = backends[t].name();
        // `g_cpu0`, `g_npu16_0`: a digit never runs into the count.
        let sep = if name.ends_with(|c: char| c.is_ascii_digit()) { "_" } else { "" };
        let pname = format!("{}_{}{}{}", fname, name, sep, counts[t]);
        counts[t] += 1;
        let ops: Vec<OpId> = members.iter().map(|i| work[*i]).collect();
        for i in &members {
            placed[*i].partition = pname.clone();
        }
        outline(ctx, body, f, ret, &ops, &pname, name)?;
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
fn outline(ctx: &Context, body: &mut Body, f: OpId, ret: OpId, ops: &[OpId], name: &str, backend: &str) -> Result<(), String> {
    let set: HashSet<OpId> = ops.iter().flat_map(|o| body.walk_preorder(*o)).collect();
    let mut inputs: Vec<Value> = vec![];
    let mut consts: Vec<Value> = vec![];
    for &op in ops {
        for v in body.captured_values(op) {
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
    body.op_mut(nf).attributes.set(ctx.ident(PARTITION_ATTR), Attribute::string(backend));
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
    let call = OperationState::new(ctx.op_name(func::ops::CALL), loc).operands(&inputs).results(&out_types).property(ctx.ident("callee"), Attribute::symbol(name));
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
