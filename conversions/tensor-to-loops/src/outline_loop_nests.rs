//! `outline-loop-nests`: each top-level loop nest of a loop-level function
//! moves into a private function of its own, marked `noinline`, and is called
//! where it stood. LLVM's loop passes (IndVarSimplify, LoopRotate) grow faster
//! than linearly with the size of the function they run on: a model's whole
//! graph in one function spent 5.6 s of O2 in them, one function per nest 1.1 s,
//! and small functions are what parallel code generation splits.
//!
//! Nests that come out the same (layers of one shape: weights are arguments)
//! share one function, so MLIR and LLVM compile each kernel once.
//!
//! A nest whose outermost loop is marked parallel (`npu.parallel`, by
//! `convert-tensor-to-loops`) and does enough work to pay for threads takes
//! that loop's bounds and step as its last three arguments and carries the
//! LLVM attribute `npu-parallel`: code generation for the JIT hands its calls
//! to the runtime, which splits the range over its threads.
//!
//! A nest's scalar and vector constants are cloned into its function; every
//! other value it uses from outside (globals included) becomes an argument. A memref argument is `llvm.noalias`
//! when no other argument views the same buffer and that buffer is an
//! allocation, a global or a `llvm.noalias` argument of the caller, so LLVM
//! keeps the alias facts it had in the big function.

use ir::attributes::{AttrData, Attribute};
use ir::pass::{Pass, PassContext};
use ir::types::TypeData;
use ir::{Body, InsertPoint, OpId, OperationState, Value, ValueDef};
use std::collections::{HashMap, HashSet};

pub struct OutlineLoopNests;

/// The LLVM function attribute an outlined nest carries.
pub const NEST_MARKER: &str = "npu-loop-nest";
/// The LLVM function attribute of a nest whose last three arguments are its
/// outer loop's lower bound, upper bound and step, any sub-range of which it
/// may be called on; its value is the ops the whole range runs (estimated),
/// from which the runtime chooses how many pieces to cut it into.
pub const PARALLEL_MARKER: &str = "npu-parallel";
/// Below this many ops executed (estimated from the loops' static trip
/// counts), a nest runs on the calling thread: waking others costs more.
const MIN_PARALLEL_WORK: f64 = 50_000.0;
/// The ops a nest that only stores a constant counts per op it runs (its
/// index arithmetic included): a float cache line's worth.
const FILL_STORE_WORK: f64 = 16.0;

impl Pass for OutlineLoopNests {
    fn argument(&self) -> &'static str {
        "outline-loop-nests"
    }
    fn display_name(&self) -> &'static str {
        "OutlineLoopNests"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let mblock = body.region_blocks(body.op(module).regions()[0])[0];
        let funcs: Vec<OpId> = body.block_ops(mblock).filter(|o| body.name(*o).as_str() == func::ops::FUNC && body.entry_block(*o).is_some()).collect();
        let mut taken: HashSet<String> = body.block_ops(mblock).filter_map(|o| body.op(o).properties.get("sym_name").and_then(|a| a.as_str()).map(String::from)).collect();
        // Each distinct nest function, by its text under a common name.
        let mut kernels: HashMap<String, String> = HashMap::new();
        for f in funcs {
            // Functions this pass made, and any other private one, stay whole.
            if !crate::is_public(body, f) {
                continue;
            }
            let fname = body.op(f).properties.get("sym_name").and_then(|a| a.as_str()).unwrap_or("f").to_string();
            let entry = body.entry_block(f).unwrap();
            let f_noalias = noalias_args(body, f);
            let nests: Vec<OpId> = body.block_ops(entry).filter(|o| body.name(*o).as_str().starts_with("scf.") && !body.op(*o).regions().is_empty()).collect();
            // What is left is glue (allocations, calls, frees) in one basic block:
            // compiled without optimization, as LLVM's SelectionDAG spent 0.75 s on
            // one such block of 400 calls that FastISel does in a blink.
            if !nests.is_empty() {
                body.op_mut(f).attributes.set(ctx.ident("passthrough"), Attribute::new(AttrData::Array(vec![Attribute::string("noinline"), Attribute::string("optnone")])));
            }
            // Each function after the previous one, so the module reads top-down.
            let mut after = f;
            for (n, nest) in nests.into_iter().enumerate() {
                let mut name = format!("{fname}_nest{n}");
                while taken.contains(&name) {
                    name.push('_');
                }
                let parallel = parallel_work(body, nest, MIN_PARALLEL_WORK);
                // Parallel loops inside a nest that is not (an RNN's products
                // inside its loop over the steps) go on threads on their own.
                let inner = if parallel.is_none() { inner_parallel_loops(body, nest) } else { vec![] };
                for o in body.walk_preorder(nest) {
                    body.op_mut(o).attributes.remove(crate::TRIPS);
                }
                let (g, call) = outline(ctx, body, nest, &name, &f_noalias, parallel);
                let g_noalias = noalias_args(body, g);
                for (k, (l, work)) in inner.into_iter().enumerate() {
                    let mut iname = format!("{name}_par{k}");
                    while taken.contains(&iname) {
                        iname.push('_');
                    }
                    let (ig, icall) = outline(ctx, body, l, &iname, &g_noalias, Some(work));
                    place(ctx, body, (ig, icall), iname, &mut kernels, &mut taken, &mut after);
                }
                place(ctx, body, (g, call), name, &mut kernels, &mut taken, &mut after);
            }
        }
        Ok(())
    }
}

/// Puts the outlined function `g` (called by `call`) in the module after
/// `after`, or, when a function of the same text is there already, points
/// the call at that one and drops `g`.
fn place(ctx: &ir::Context, body: &mut Body, (g, call): (OpId, OpId), name: String, kernels: &mut HashMap<String, String>, taken: &mut HashSet<String>, after: &mut OpId) {
    let key = anonymous_text(ctx, body, g);
    if let Some(same) = kernels.get(&key) {
        body.op_mut(call).properties.set(ctx.ident("callee"), Attribute::symbol(same));
        body.erase(g);
        return;
    }
    kernels.insert(key, name.clone());
    taken.insert(name);
    body.insert(g, InsertPoint::After(*after));
    *after = g;
}

/// Below this many ops a parallel loop inside another nest (run once per
/// iteration of an outer loop) runs on the calling thread: the workers are
/// still spinning from the iteration before, so a call costs less than waking
/// them (an LSTM's recurrent product of 256 × 1024 per step: about 41,000).
const MIN_INNER_PARALLEL_WORK: f64 = 20_000.0;

/// The outermost loops marked parallel inside `nest` (not `nest` itself)
/// with work enough to share, and that work.
fn inner_parallel_loops(body: &Body, nest: OpId) -> Vec<(OpId, u64)> {
    let mut found: Vec<(OpId, u64)> = vec![];
    for o in body.walk_preorder(nest).into_iter().skip(1) {
        if found.iter().any(|(f, _)| body.is_ancestor(*f, o)) {
            continue;
        }
        if let Some(w) = parallel_work(body, o, MIN_INNER_PARALLEL_WORK) {
            found.push((o, w));
        }
    }
    found
}

/// The ops `nest` runs when it is a result-less `scf.for` marked parallel,
/// of at least two iterations, with at least `min` ops to share.
fn parallel_work(body: &Body, nest: OpId, min: f64) -> Option<u64> {
    let op = body.op(nest);
    let marked = body.name(nest).as_str() == scf::ops::FOR && op.results().is_empty() && op.attributes.get(crate::PARALLEL).is_some() && trips(body, nest).is_some_and(|t| t >= 2);
    if !marked {
        return None;
    }
    let mut w = work(body, nest);
    // A fill's cost is the cache lines it writes, not its instructions (a
    // column's scalar store writes its row's line; a 16-lane store a whole
    // one): the border fills of a padded buffer on two threads,
    // MobileNetV2-like 4.52 -> 4.36 ms.
    if crate::fuse_fill_nests::fill_value(body, nest).is_some() {
        w *= FILL_STORE_WORK;
    }
    // At most i64::MAX: the runtime reads it as a signed count.
    (w >= min).then_some(w.min(i64::MAX as f64) as u64)
}

/// An `scf.for`'s trip count when its bounds and step are constants.
fn trips(body: &Body, l: OpId) -> Option<i64> {
    let c = |v: Value| body.defining_op(v).filter(|d| body.name(*d).as_str() == arith::ops::CONSTANT).and_then(|d| body.op(d).properties.get("value").and_then(|a| a.as_int()).and_then(|v| i64::try_from(v).ok()));
    let o = body.op(l).operands();
    let (lb, ub, st) = (c(o[0])?, c(o[1])?, c(o[2])?);
    (st > 0).then(|| ((ub - lb).max(0) + st - 1) / st)
}

/// The ops `op` executes, roughly: loops of unknown trip count count once,
/// or as often as their `npu.trips` says.
fn work(body: &Body, op: OpId) -> f64 {
    let inner: f64 = body.op(op).regions().iter().flat_map(|r| body.region_blocks(*r).to_vec()).flat_map(|b| body.block_ops(b).collect::<Vec<_>>()).map(|o| work(body, o)).sum();
    let estimate = || body.op(op).attributes.get(crate::TRIPS).and_then(|a| a.as_int()).and_then(|v| i64::try_from(v).ok());
    let times = if body.name(op).as_str() == scf::ops::FOR { trips(body, op).or_else(estimate).unwrap_or(1).max(0) as f64 } else { 1.0 };
    1.0 + times * inner
}

/// `f` printed under a placeholder name: equal texts, equal functions.
fn anonymous_text(ctx: &ir::Context, body: &mut Body, f: OpId) -> String {
    let name = ctx.ident("sym_name");
    let real = body.op(f).properties.get("sym_name").cloned();
    body.op_mut(f).properties.set(name, Attribute::string("nest"));
    let text = ir::printer::print_op(ctx, body, f, ir::printer::PrintOptions { generic: true, debug_info: false });
    if let Some(real) = real {
        body.op_mut(f).properties.set(name, real);
    }
    text
}

/// The entry-block arguments of `f` marked `llvm.noalias`.
fn noalias_args(body: &Body, f: OpId) -> HashSet<Value> {
    let args = body.block_args(body.entry_block(f).unwrap()).to_vec();
    let attrs = body.op(f).properties.get("arg_attrs").and_then(|a| a.as_array()).map(|a| a.to_vec()).unwrap_or_default();
    args.iter().zip(attrs.iter()).filter(|(_, a)| a.as_dict().is_some_and(|d| d.get("llvm.noalias").is_some())).map(|(v, _)| *v).collect()
}

/// Moves `nest` into a new function `name` (returned, not yet placed in the
/// module) and calls it where the nest stood (the call returned too). A
/// `parallel` nest (with the ops it runs) takes its loop's bounds and step as
/// three more arguments.
fn outline(ctx: &ir::Context, body: &mut Body, nest: OpId, name: &str, noalias: &HashSet<Value>, parallel: Option<u64>) -> (OpId, OpId) {
    // Values the nest uses from outside, in order of first use.
    let free = body.captured_values(nest);
    // A global (a small constant such as a bias) is an argument, not cloned:
    // two nests of one shape reading different globals share a function.
    let is_const = |body: &Body, v: Value| body.defining_op(v).is_some_and(|d| body.name(d).as_str() == arith::ops::CONSTANT && body.op(d).regions().is_empty());
    let args: Vec<Value> = free.iter().copied().filter(|v| !is_const(body, *v)).collect();
    let bounds: Vec<Value> = if parallel.is_some() { body.op(nest).operands()[..3].to_vec() } else { vec![] };
    let arg_types: Vec<ir::Type> = args.iter().chain(&bounds).map(|v| body.value_type(*v).clone()).collect();
    let result_types: Vec<ir::Type> = body.op(nest).results().iter().map(|v| body.value_type(*v).clone()).collect();
    let loc = body.op(nest).loc.clone();
    let (func, entry) = func::FunctionBuilder::create(ctx, body, name, &arg_types, &result_types, loc.clone());
    body.op_mut(func).properties.set(ctx.ident("sym_visibility"), Attribute::string("private"));
    // `npu-loop-nest` tells code generation it is called only from the
    // model's function (no packed wrapper for the runtime to call it by).
    let marker = |m: &str, v: &str| Attribute::new(AttrData::Array(vec![Attribute::string(m), Attribute::string(v)]));
    let mut passthrough = vec![Attribute::string("noinline"), marker(NEST_MARKER, "true")];
    if let Some(work) = parallel {
        passthrough.push(marker(PARALLEL_MARKER, &work.to_string()));
    }
    body.op_mut(func).attributes.set(ctx.ident("passthrough"), Attribute::new(AttrData::Array(passthrough)));
    // noalias where the argument's buffer is unique among the arguments and known distinct.
    let roots: Vec<Option<Value>> = args.iter().map(|v| matches!(body.value_type(*v).data(), TypeData::MemRef { .. }).then(|| crate::root_buffer(body, *v))).collect();
    // Buffers counted by their root, a global by its symbol (two get_global
    // of one symbol are one buffer).
    let key = |body: &Body, r: Value| -> String {
        match body.defining_op(r).filter(|d| body.name(*d).as_str() == memref::ops::GET_GLOBAL) {
            Some(d) => format!("@{:?}", body.op(d).properties.get("name")),
            None => format!("{:?}", r),
        }
    };
    let mut count: HashMap<String, usize> = HashMap::new();
    for r in roots.iter().flatten() {
        *count.entry(key(body, *r)).or_default() += 1;
    }
    let distinct = |body: &Body, r: Value| match body.value_def(r) {
        ValueDef::OpResult { op: d, .. } => matches!(body.name(d).as_str(), memref::ops::ALLOC | memref::ops::ALLOCA | memref::ops::GET_GLOBAL),
        ValueDef::BlockArg { .. } => noalias.contains(&r),
    };
    let arg_attrs: Vec<Attribute> = roots
        .iter()
        .chain(bounds.iter().map(|_| &None))
        .map(|r| {
            let mut d = ir::attributes::AttrDict::default();
            if let Some(r) = r {
                if count[&key(body, *r)] == 1 && distinct(body, *r) {
                    d.set(ctx.ident("llvm.noalias"), Attribute::unit());
                }
            }
            Attribute::new(AttrData::Dict(d))
        })
        .collect();
    if !arg_attrs.is_empty() {
        body.op_mut(func).properties.set(ctx.ident("arg_attrs"), Attribute::new(AttrData::Array(arg_attrs)));
    }
    // Constants cloned in, the arguments in place of the values they carry.
    let mut map: HashMap<Value, Value> = HashMap::new();
    for &v in &free {
        if is_const(body, v) {
            let d = body.defining_op(v).unwrap();
            let c = body.clone_op(d, &mut HashMap::new());
            body.insert(c, InsertPoint::AtEnd(entry));
            map.insert(v, body.op(c).result(0));
        }
    }
    let fargs = body.block_args(entry).to_vec();
    for (a, v) in fargs.iter().zip(&args) {
        map.insert(*v, *a);
    }
    let call_args: Vec<Value> = args.iter().chain(&bounds).copied().collect();
    let call = OperationState::new(ctx.op_name(func::ops::CALL), loc.clone()).operands(&call_args).results(&result_types).property(ctx.ident("callee"), Attribute::symbol(name));
    let call = body.build(call, InsertPoint::Before(nest));
    for (old, new) in body.op(nest).results().to_vec().into_iter().zip(body.op(call).results().to_vec()) {
        body.replace_all_uses(old, new);
    }
    body.move_op(nest, InsertPoint::AtEnd(entry));
    for o in body.walk_preorder(nest) {
        let ops = body.op(o).operands().to_vec();
        for (i, v) in ops.into_iter().enumerate() {
            if let Some(&n) = map.get(&v) {
                body.set_operand(o, i, n);
            }
        }
    }
    if parallel.is_some() {
        // The loop runs over the range the caller gives (after the remapping,
        // so other uses of the same constants keep their values).
        body.op_mut(nest).attributes.remove(crate::PARALLEL);
        for (i, a) in fargs[args.len()..].iter().enumerate() {
            body.set_operand(nest, i, *a);
        }
    }
    let rets = body.op(nest).results().to_vec();
    func::FunctionBuilder::ret(ctx, body, entry, &rets, loc);
    (func, call)
}
