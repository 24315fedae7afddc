//! `bufferize`: tensors become memrefs, one function at a time.
//!
//! - Function arguments become memrefs; results become extra output arguments
//!   (destination-passing at the function boundary, so the caller owns every
//!   buffer it sees and the function returns nothing).
//! - `tensor.empty` becomes `memref.alloc`; a tensor constant becomes a private
//!   `memref.global` read with `memref.get_global`.
//! - `tensor.generic` on tensors becomes the same op on memrefs, writing its
//!   outputs in place: into its init's buffer when that init is a generic result
//!   used by nothing else (a reduction's filled accumulator), else into a copy.
//! - Reshapes become `memref.reinterpret_cast` views of their source.
//! - A returned value computed into a fresh buffer is computed straight into
//!   the output argument; anything else is copied there.
//! - Each allocation is freed right after its last use (views extend it).

use crate::ops;
use ir::attributes::{ArrayData, AttrData, Attribute};
use ir::pass::{Pass, PassContext};
use ir::types::TypeData;
use ir::{Block, Body, Context, InsertPoint, OpId, OperationState, Type, Value};
use crate::i64_array;
use std::collections::HashMap;

pub struct Bufferize;

pub fn memref_type(ctx: &Context, t: &Type) -> Option<Type> {
    match t.data() {
        TypeData::RankedTensor { shape, elem, .. } => Some(ctx.intern_type(TypeData::MemRef { shape: shape.clone(), elem: elem.clone(), layout: None, memory_space: None })),
        _ => None,
    }
}

fn i32_array(ctx: &Context, v: &[i64]) -> Attribute {
    Attribute::new(AttrData::DenseArray { elem: ctx.i32(), data: ArrayData::Int(v.to_vec()) })
}

struct State<'a> {
    ctx: &'a Context,
    /// tensor value → its buffer
    buf: HashMap<Value, Value>,
    /// buffer → the allocation it views (for liveness and in-place checks)
    root: HashMap<Value, Value>,
    allocs: Vec<Value>,
    globals: Vec<(String, Attribute, Type)>,
    module_globals: usize,
    fname: String,
    /// Every op seen, in order: the tensor-level ones are erased at the end, users first.
    visited: Vec<OpId>,
}

impl State<'_> {
    fn alloc(&mut self, body: &mut Body, at: InsertPoint, t: &Type, loc: ir::Location) -> Value {
        let mt = memref_type(self.ctx, t).unwrap_or_else(|| t.clone());
        let props = [("operandSegmentSizes", i32_array(self.ctx, &[0, 0])), ("alignment", Attribute::integer(64, self.ctx.i64()))];
        let alloc = memref::ops::Alloc::build(&mut ir::OpBuilder::new(self.ctx, body, at, loc), &[], &[mt], &props);
        let v = alloc.memref(body);
        self.allocs.push(v);
        self.root.insert(v, v);
        v
    }
    fn root_of(&self, b: Value) -> Value {
        *self.root.get(&b).unwrap_or(&b)
    }
}

fn copy(ctx: &Context, body: &mut Body, at: InsertPoint, from: Value, to: Value, loc: ir::Location) {
    memref::ops::Copy::build(&mut ir::OpBuilder::new(ctx, body, at, loc), from, to, &[], &[]);
}

impl Pass for Bufferize {
    fn argument(&self) -> &'static str {
        "bufferize"
    }
    fn display_name(&self) -> &'static str {
        "Bufferize"
    }
    fn anchor(&self) -> Option<&'static str> {
        Some(func::ops::FUNC)
    }
    fn run(&mut self, cx: &mut PassContext, func: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let Some(&entry) = body.region_blocks(body.op(func).regions()[0]).first() else { return Ok(()) };
        // Already on buffers (loop-level text given again, an outlined loop
        // nest returning scalars): nothing to do.
        let is_tensor = |t: &ir::Type| matches!(t.data(), TypeData::RankedTensor { .. } | TypeData::UnrankedTensor { .. });
        let tensors_in_signature = match body.op(func).properties.get("function_type").and_then(|a| a.as_type()).map(|t| t.data().clone()) {
            Some(TypeData::Function { inputs, results }) => inputs.iter().chain(&results).any(is_tensor),
            _ => true,
        };
        if !tensors_in_signature && !body.walk_preorder(func).iter().any(|o| body.op(*o).results().iter().any(|v| is_tensor(body.value_type(*v)))) {
            return Ok(());
        }
        let module = body.parent_op(func).ok_or("bufferize needs the function inside a module")?;
        let existing = body.walk_preorder(module).iter().filter(|o| body.name(**o).as_str() == memref::ops::GLOBAL).count();
        let fname = body.op(func).properties.get("sym_name").and_then(|a| a.as_str()).unwrap_or("f").to_string();
        let mut st = State { ctx, buf: HashMap::new(), root: HashMap::new(), allocs: vec![], globals: vec![], module_globals: existing, fname, visited: vec![] };

        // Arguments.
        for a in body.block_args(entry).to_vec() {
            if let Some(mt) = memref_type(ctx, body.value_type(a)) {
                body.set_value_type(a, mt);
                // Users are rebuilt on buffers, which they find here.
                st.buf.insert(a, a);
            }
        }
        let ret = bufferize_block(&mut st, body, entry)?;
        read_buffers_in_bodies(&st, body, func);
        // Results become output arguments.
        let ret = ret.filter(|r| body.name(*r).as_str() == func::ops::RETURN).ok_or("function without func.return")?;
        let returned = body.op(ret).operands().to_vec();
        let mut out_args = Vec::new();
        for (i, v) in returned.iter().enumerate() {
            let t = body.value_type(*v).clone();
            // A returned argument already has its memref type.
            let mt = match t.data() {
                TypeData::MemRef { .. } => t.clone(),
                _ => memref_type(ctx, &t).ok_or("a function result is not a ranked tensor")?,
            };
            let a = body.add_block_arg(entry, mt, None);
            out_args.push(a);
            let b = *st.buf.get(v).ok_or("returned value with no buffer")?;
            let first = returned.iter().position(|x| x == v) == Some(i);
            let direct = first && st.allocs.contains(&b) && st.root_of(b) == b;
            if direct {
                // Compute straight into the caller's buffer.
                let alloc = body.defining_op(b).unwrap();
                body.replace_all_uses(b, a);
                body.erase(alloc);
                st.allocs.retain(|x| *x != b);
                for r in st.root.values_mut() {
                    if *r == b {
                        *r = a;
                    }
                }
                for bv in st.buf.values_mut() {
                    if *bv == b {
                        *bv = a;
                    }
                }
            } else {
                copy(ctx, body, InsertPoint::Before(ret), b, a, body.op(ret).loc.clone());
            }
        }
        body.set_operands(ret, &[]);
        free_block(&mut st, body, entry, ret);
        // Erase the tensor-level ops, users first.
        for op in st.visited.iter().rev() {
            if !body.is_erased(*op) && body.op(*op).results().iter().any(|r| is_tensor(body.value_type(*r))) {
                body.erase(*op);
            }
        }
        // The new signature, with arg_attrs carrying the result names.
        let inputs: Vec<Type> = body.block_args(entry).iter().map(|a| body.value_type(*a).clone()).collect();
        let fty = ctx.intern_type(TypeData::Function { inputs, results: vec![] });
        let props = &mut body.op_mut(func).properties;
        props.set(ctx.ident("function_type"), Attribute::type_attr(fty));
        let arg_attrs = props.get("arg_attrs").and_then(|a| a.as_array()).map(|a| a.to_vec());
        let res_attrs = props.remove("res_attrs").and_then(|a| a.as_array().map(|a| a.to_vec()));
        let n_all = body.block_args(entry).len();
        let n_in = n_all - out_args.len();
        let empty = || Attribute::new(AttrData::Dict(Default::default()));
        let mut all = arg_attrs.unwrap_or_default();
        all.resize(n_in, empty());
        let mut outs = res_attrs.unwrap_or_default();
        outs.resize(out_args.len(), empty());
        all.extend(outs);
        // Every argument is a distinct buffer (the runtime never passes one
        // twice): `llvm.noalias` spares LLVM runtime alias checks and loop versions.
        for a in all.iter_mut() {
            let mut d = a.as_dict().cloned().unwrap_or_default();
            d.set(ctx.ident("llvm.noalias"), Attribute::unit());
            *a = Attribute::new(AttrData::Dict(d));
        }
        body.op_mut(func).properties.set(ctx.ident("arg_attrs"), Attribute::new(AttrData::Array(all)));
        body.op_mut(func).attributes.set(ctx.ident("llvm.emit_c_interface"), Attribute::unit());
        // Globals go at the start of the module.
        let mblock = body.region_blocks(body.op(module).regions()[0])[0];
        for (name, value, mt) in st.globals {
            let g = OperationState::new(ctx.op_name(memref::ops::GLOBAL), body.op(func).loc.clone())
                .property(ctx.ident("sym_name"), Attribute::string(&name))
                .property(ctx.ident("sym_visibility"), Attribute::string("private"))
                .property(ctx.ident("type"), Attribute::type_attr(mt))
                .property(ctx.ident("initial_value"), value)
                .property(ctx.ident("constant"), Attribute::unit())
                .property(ctx.ident("alignment"), Attribute::integer(64, ctx.i64()));
            body.build(g, InsertPoint::AtStart(mblock));
        }
        Ok(())
    }
}

/// Rebuilds each op of `block` on buffers (nested control flow included);
/// returns the block's terminator, left for the caller to rewrite.
fn bufferize_block(st: &mut State, body: &mut Body, block: Block) -> Result<Option<OpId>, String> {
    let ctx = st.ctx;
    let ops: Vec<OpId> = body.block_ops(block).collect();
    let mut term = None;
    for op in ops {
        st.visited.push(op);
        let name = body.name(op).as_str();
        let loc = body.op(op).loc.clone();
        match name {
            arith::ops::CONSTANT if memref_type(ctx, body.value_type(body.op(op).result(0))).is_some() => {
                let r = body.op(op).result(0);
                let t = body.value_type(r).clone();
                let mt = memref_type(ctx, &t).unwrap();
                let value = body.op(op).properties.get("value").cloned().unwrap();
                let gname = format!("__constant_{}_{}", ir_safe(&st.fname), st.module_globals + st.globals.len());
                st.globals.push((gname.clone(), value, mt.clone()));
                let g = OperationState::new(ctx.op_name(memref::ops::GET_GLOBAL), loc).results(&[mt]).property(ctx.ident("name"), Attribute::symbol(&gname));
                let gop = body.build(g, InsertPoint::Before(op));
                let gv = body.op(gop).result(0);
                st.buf.insert(r, gv);
            }
            ops::EMPTY => {
                let r = body.op(op).result(0);
                let t = body.value_type(r).clone();
                let b = st.alloc(body, InsertPoint::Before(op), &t, loc);
                st.buf.insert(r, b);
            }
            ops::COLLAPSE_SHAPE | ops::EXPAND_SHAPE => {
                let r = body.op(op).result(0);
                let src = *st.buf.get(&body.op(op).operand(0)).ok_or("reshape of a value with no buffer")?;
                let t = body.value_type(r).clone();
                let shape = t.shape().unwrap().to_vec();
                let strides = row_major_strides(&shape);
                let mt = memref_type(ctx, &t).unwrap();
                let s = OperationState::new(ctx.op_name(memref::ops::REINTERPRET_CAST), loc)
                    .operands(&[src])
                    .results(&[mt])
                    .property(ctx.ident("operandSegmentSizes"), i32_array(ctx, &[1, 0, 0, 0]))
                    .property(ctx.ident("static_offsets"), i64_array(ctx, &[0]))
                    .property(ctx.ident("static_sizes"), i64_array(ctx, &shape))
                    .property(ctx.ident("static_strides"), i64_array(ctx, &strides));
                let v = body.build(s, InsertPoint::Before(op));
                let v = body.op(v).result(0);
                let root = st.root_of(src);
                st.root.insert(v, root);
                st.buf.insert(r, v);
            }
            ops::GENERIC => {
                let (ins, outs) = {
                    let g = crate::Generic::new(body, op);
                    (g.inputs().to_vec(), g.outputs().to_vec())
                };
                let mut new_ins = Vec::new();
                for v in &ins {
                    new_ins.push(*st.buf.get(v).ok_or_else(|| format!("generic input with no buffer: {:?} {} in {:?}", body.value_def(*v), body.value_type(*v), body.value_block(*v).and_then(|b| body.block_parent_op(b)).map(|p| body.name(p).as_str())))?);
                }
                let mut new_outs = Vec::new();
                for v in &outs {
                    let b = *st.buf.get(v).ok_or("generic output with no buffer")?;
                    let def = body.defining_op(*v).filter(|d| body.op(*d).parent_block() == Some(block));
                    let fresh_empty = def.is_some_and(|d| body.name(d).as_str() == ops::EMPTY) && body.uses(*v).len() == 1;
                    let reusable = def.is_some_and(|d| body.name(d).as_str() == ops::GENERIC) && body.uses(*v).len() == 1 && st.allocs.contains(&b);
                    if fresh_empty || reusable {
                        new_outs.push(b);
                    } else {
                        let t = body.value_type(*v).clone();
                        let nb = st.alloc(body, InsertPoint::Before(op), &t, loc.clone());
                        copy(ctx, body, InsertPoint::Before(op), b, nb, loc.clone());
                        new_outs.push(nb);
                    }
                }
                let results = body.op(op).results().to_vec();
                let mut operands = new_ins.clone();
                operands.extend(&new_outs);
                rebuild_on_buffers(body, op, &operands);
                // The new op writes in place: the old results are its output buffers.
                for (r, b) in results.iter().zip(&new_outs) {
                    st.buf.insert(*r, *b);
                }
            }
            ops::INSERT_ROW => insert_row(st, body, block, op)?,
            scf::ops::IF => bufferize_if(st, body, op)?,
            scf::ops::WHILE => bufferize_while(st, body, block, op)?,
            func::ops::RETURN | scf::ops::YIELD | scf::ops::CONDITION => term = Some(op),
            // A scalar read outside a body (a run-time check's verdict, a condition).
            ops::EXTRACT => {
                let o = body.op(op);
                let mut operands = o.operands().to_vec();
                operands[0] = *st.buf.get(&operands[0]).ok_or("tensor.extract of a value with no buffer")?;
                let (r, ty) = (o.result(0), body.value_type(o.result(0)).clone());
                let load = body.build(OperationState::new(ctx.op_name(memref::ops::LOAD), loc).operands(&operands).results(&[ty]), InsertPoint::Before(op));
                let v = body.op(load).result(0);
                body.replace_all_uses(r, v);
                body.erase(op);
            }
            _ => {
                for &v in body.op(op).operands() {
                    if is_tensor(body.value_type(v)) {
                        return Err(format!("bufferize: '{}' uses a tensor and has no bufferization", name));
                    }
                }
            }
        }
    }
    Ok(term)
}

/// Reads of tensors inside bodies (a generic's `tensor.extract` of a value
/// from above) become reads of that value's buffer.
fn read_buffers_in_bodies(st: &State, body: &mut Body, root: OpId) {
    for op in body.walk_preorder(root) {
        if body.name(op).as_str() == ops::EXTRACT {
            let t = body.op(op).operand(0);
            if let Some(&b) = st.buf.get(&t) {
                body.set_operand(op, 0, b);
            }
        }
    }
}

/// Frees each buffer allocated in `block` after the last op of the block
/// that uses it or a view of it (nested users count as their ancestor here).
/// The block's captured reads are moved onto buffers first: a read that
/// still names the tensor would not count as a use, and its buffer would be
/// freed before it (a use after free inside an `scf.if` branch).
fn free_block(st: &mut State, body: &mut Body, block: Block, term: OpId) {
    let ops: Vec<OpId> = body.block_ops(block).collect();
    for op in ops {
        read_buffers_in_bodies(st, body, op);
    }
    let order: Vec<OpId> = body.block_ops(block).collect();
    let pos: HashMap<OpId, usize> = order.iter().enumerate().map(|(i, o)| (*o, i)).collect();
    let mine: Vec<Value> = st.allocs.iter().copied().filter(|a| body.defining_op(*a).is_some_and(|d| body.op(d).parent_block() == Some(block))).collect();
    for a in mine {
        let mut last = pos[&body.defining_op(a).unwrap()];
        let views: Vec<Value> = st.root.iter().filter(|(_, r)| **r == a).map(|(v, _)| *v).collect();
        for v in views.iter().chain(std::iter::once(&a)) {
            for u in body.uses(*v) {
                let mut o = u.op;
                while body.op(o).parent_block() != Some(block) {
                    match body.parent_op(o) {
                        Some(p) => o = p,
                        None => break,
                    }
                }
                if let Some(&p) = pos.get(&o) {
                    last = last.max(p);
                }
            }
        }
        let at = if order[last] == term { InsertPoint::Before(term) } else { InsertPoint::After(order[last]) };
        body.build(OperationState::new(st.ctx.op_name(memref::ops::DEALLOC), body.op(term).loc.clone()).operands(&[a]), at);
        st.allocs.retain(|x| *x != a);
    }
}

fn row_major_strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    strides
}

/// Copies `vals`' buffers into `dests` (where a destination is given) before
/// `at`. A value whose buffer is, or views, another destination goes through a
/// temporary first, so a loop that swaps its carried values reads them intact.
fn copy_into(st: &mut State, body: &mut Body, at: OpId, vals: &[Value], dests: &[Option<Value>]) -> Result<(), String> {
    let loc = body.op(at).loc.clone();
    let targets: Vec<Value> = dests.iter().flatten().copied().collect();
    let mut pending = Vec::new();
    for (v, d) in vals.iter().zip(dests) {
        let Some(d) = *d else { continue };
        let src = *st.buf.get(v).ok_or("a yielded value with no buffer")?;
        if src == d {
            continue;
        }
        let root = st.root_of(src);
        if targets.iter().any(|t| *t == root || *t == src) {
            let t = body.value_type(d).clone();
            let tmp = st.alloc(body, InsertPoint::Before(at), &t, loc.clone());
            copy(st.ctx, body, InsertPoint::Before(at), src, tmp, loc.clone());
            pending.push((tmp, d));
        } else {
            pending.push((src, d));
        }
    }
    for (src, d) in pending {
        copy(st.ctx, body, InsertPoint::Before(at), src, d, loc.clone());
    }
    Ok(())
}

/// Moves `op`'s regions to a new op with the operands and results that are
/// not tensors; the other results map to `bufs`.
fn rebuild_without_tensors(st: &mut State, body: &mut Body, op: OpId, bufs: &[Option<Value>], operands: &[Value]) -> OpId {
    let d = body.op(op);
    let results = d.results().to_vec();
    let types: Vec<Type> = results.iter().zip(bufs).filter(|(_, b)| b.is_none()).map(|(r, _)| body.value_type(*r).clone()).collect();
    let mut s = OperationState::new(d.name, d.loc.clone()).operands(operands).results(&types);
    for (k, v) in d.properties.iter() {
        s = s.property(*k, v.clone());
    }
    for r in d.regions().to_vec() {
        let nr = body.new_region();
        for b in body.region_blocks(r).to_vec() {
            body.remove_block(b);
            body.append_block(nr, b);
        }
        s = s.region(nr);
    }
    let new = body.build(s, InsertPoint::Before(op));
    let mut kept = body.op(new).results().to_vec().into_iter();
    for (r, b) in results.iter().zip(bufs) {
        match b {
            Some(b) => {
                st.buf.insert(*r, *b);
            }
            None => body.replace_all_uses(*r, kept.next().unwrap()),
        }
    }
    new
}

/// `scf.if`: each tensor result gets a buffer before the if; each branch
/// copies what it yields there and yields the other values only.
fn bufferize_if(st: &mut State, body: &mut Body, op: OpId) -> Result<(), String> {
    let loc = body.op(op).loc.clone();
    let mut bufs = Vec::new();
    for r in body.op(op).results().to_vec() {
        let t = body.value_type(r).clone();
        bufs.push(if is_tensor(&t) { Some(st.alloc(body, InsertPoint::Before(op), &t, loc.clone())) } else { None });
    }
    for r in body.op(op).regions().to_vec() {
        let Some(&b) = body.region_blocks(r).first() else { continue };
        let term = bufferize_block(st, body, b)?.ok_or("an scf.if branch without scf.yield")?;
        let vals = body.op(term).operands().to_vec();
        copy_into(st, body, term, &vals, &bufs)?;
        let kept: Vec<Value> = vals.iter().zip(&bufs).filter(|(_, b)| b.is_none()).map(|(v, _)| *v).collect();
        body.set_operands(term, &kept);
        free_block(st, body, b, term);
    }
    if bufs.iter().any(Option::is_some) {
        let c = body.op(op).operands().to_vec();
        rebuild_without_tensors(st, body, op, &bufs, &c);
    }
    Ok(())
}

/// `scf.while`: each carried tensor lives in one buffer (its slot) for the
/// whole loop: the initial value is copied in (a `tensor.empty` is used as
/// it is), both regions read their tensor arguments from the slots, and what
/// the condition forwards or the body yields is copied back into them.
fn bufferize_while(st: &mut State, body: &mut Body, block: Block, op: OpId) -> Result<(), String> {
    let loc = body.op(op).loc.clone();
    let inits = body.op(op).operands().to_vec();
    let results = body.op(op).results().to_vec();
    let mut slots = Vec::new();
    // Tensor-ness from the results: a function argument passed in is a memref already.
    for (v, r) in inits.iter().zip(&results) {
        let t = body.value_type(*r).clone();
        if !is_tensor(&t) {
            slots.push(None);
            continue;
        }
        let b = *st.buf.get(v).ok_or("a loop's initial value with no buffer")?;
        let def = body.defining_op(*v).filter(|d| body.op(*d).parent_block() == Some(block));
        if def.is_some_and(|d| body.name(d).as_str() == ops::EMPTY) && body.uses(*v).len() == 1 {
            slots.push(Some(b));
        } else {
            let s = st.alloc(body, InsertPoint::Before(op), &t, loc.clone());
            copy(st.ctx, body, InsertPoint::Before(op), b, s, loc.clone());
            slots.push(Some(s));
        }
    }
    let scalars: Vec<Value> = inits.iter().zip(&slots).filter(|(_, s)| s.is_none()).map(|(v, _)| *v).collect();
    for (ri, r) in body.op(op).regions().to_vec().into_iter().enumerate() {
        let Some(&b) = body.region_blocks(r).first() else { continue };
        let args = body.block_args(b).to_vec();
        if args.len() != slots.len() {
            return Err("an scf.while region whose arguments do not match its carried values".into());
        }
        for (a, s) in args.iter().zip(&slots) {
            if let Some(s) = s {
                st.buf.insert(*a, *s);
            }
        }
        let term = bufferize_block(st, body, b)?.ok_or("an scf.while region without a terminator")?;
        let all = body.op(term).operands().to_vec();
        let (lead, vals) = if ri == 0 { (vec![all[0]], all[1..].to_vec()) } else { (vec![], all) };
        copy_into(st, body, term, &vals, &slots)?;
        let mut kept = lead;
        kept.extend(vals.iter().zip(&slots).filter(|(_, s)| s.is_none()).map(|(v, _)| *v));
        body.set_operands(term, &kept);
        free_block(st, body, b, term);
        // The same block without its tensor arguments: their uses read the slots.
        let types: Vec<Type> = args.iter().zip(&slots).filter(|(_, s)| s.is_none()).map(|(a, _)| body.value_type(*a).clone()).collect();
        let nb = body.new_block(&types);
        let mut new_args = body.block_args(nb).to_vec().into_iter();
        let repl: Vec<Value> = slots.iter().map(|s| s.unwrap_or_else(|| new_args.next().unwrap())).collect();
        body.inline_block(b, InsertPoint::AtEnd(nb), &repl);
        body.remove_block(b);
        body.append_block(r, nb);
    }
    rebuild_without_tensors(st, body, op, &slots, &scalars);
    Ok(())
}

/// `tensor.insert_row`: the source is copied into a view of the row, in the
/// destination's own buffer when nothing else reads that value (a loop's
/// scan output, carried in its slot), else in a copy.
fn insert_row(st: &mut State, body: &mut Body, block: Block, op: OpId) -> Result<(), String> {
    let ctx = st.ctx;
    let loc = body.op(op).loc.clone();
    let (src, dest, offset) = (body.op(op).operand(0), body.op(op).operand(1), body.op(op).operand(2));
    let dim = body.op(op).attr("dim").and_then(|a| a.as_int()).ok_or("insert_row without dim")? as usize;
    let sb = *st.buf.get(&src).ok_or("insert_row of a value with no buffer")?;
    let db = *st.buf.get(&dest).ok_or("insert_row into a value with no buffer")?;
    let owned = match body.defining_op(dest) {
        None => body.value_block(dest) == Some(block) && body.block_parent_op(block).is_some_and(|p| body.name(p).as_str() == scf::ops::WHILE),
        Some(d) => body.op(d).parent_block() == Some(block) && st.allocs.contains(&db) && st.root_of(db) == db,
    };
    let t = body.value_type(dest).clone();
    let target = if owned && body.uses(dest).len() == 1 {
        db
    } else {
        let nb = st.alloc(body, InsertPoint::Before(op), &t, loc.clone());
        copy(ctx, body, InsertPoint::Before(op), db, nb, loc.clone());
        nb
    };
    let shape = t.shape().unwrap().to_vec();
    let strides = row_major_strides(&shape);
    let (mut offsets, mut sizes) = (vec![0i64; shape.len()], shape.clone());
    offsets[dim] = ir::types::DYNAMIC;
    sizes[dim] = 1;
    let (mut row, mut row_strides) = (shape.clone(), strides.clone());
    row.remove(dim);
    row_strides.remove(dim);
    let elem = t.element_type().unwrap().clone();
    let layout = Attribute::new(AttrData::Strided { strides: row_strides, offset: ir::types::DYNAMIC });
    let vt = ctx.intern_type(TypeData::MemRef { shape: row.clone(), elem, layout: Some(layout), memory_space: None });
    let s = OperationState::new(ctx.op_name(memref::ops::SUBVIEW), loc.clone())
        .operands(&[target, offset])
        .results(&[vt])
        .property(ctx.ident("operandSegmentSizes"), i32_array(ctx, &[1, 1, 0, 0]))
        .property(ctx.ident("static_offsets"), i64_array(ctx, &offsets))
        .property(ctx.ident("static_sizes"), i64_array(ctx, &sizes))
        .property(ctx.ident("static_strides"), i64_array(ctx, &vec![1; shape.len()]));
    let view = body.build(s, InsertPoint::Before(op));
    let view = body.op(view).result(0);
    let n = row.len();
    let gb = crate::GenericBuilder { ctx, loc };
    let maps = vec![ir::affine::AffineMap::identity(n as u32); 2];
    gb.build(body, InsertPoint::Before(op), &[sb], &[view], maps, &vec![crate::Iterator::Parallel; n], None, |_, _, args| vec![args[0]]);
    st.root.insert(view, st.root_of(target));
    st.buf.insert(body.op(op).result(0), target);
    Ok(())
}

fn ir_safe(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

/// Builds the memref form of a tensor generic: same maps and body, buffers
/// as operands, no results. The old op stays (emptied) until the end.
fn rebuild_on_buffers(body: &mut Body, op: OpId, operands: &[Value]) {
    let d = body.op(op);
    let mut st = OperationState::new(d.name, d.loc.clone()).operands(operands);
    for (k, v) in d.properties.iter() {
        st = st.property(*k, v.clone());
    }
    for (k, v) in d.attributes.iter() {
        st = st.attribute(*k, v.clone());
    }
    let mut st = st;
    // The body and, if fused, the epilogue.
    for region in d.regions().to_vec() {
        let new_region = body.new_region();
        for b in body.region_blocks(region).to_vec() {
            body.remove_block(b);
            body.append_block(new_region, b);
        }
        st = st.region(new_region);
    }
    body.build(st, InsertPoint::Before(op));
}

fn is_tensor(t: &Type) -> bool {
    matches!(t.data(), TypeData::RankedTensor { .. } | TypeData::UnrankedTensor { .. })
}
