//! `onnx-resolve-sequences`: sequences and optional values resolved at
//! compile time, so that only tensors reach the lowerings. Our compilers
//! specialize on the inputs at hand (shapes, and the values that decide
//! shapes), and with them a sequence's length and the position each op reads
//! are known: a sequence becomes the list of tensor values it holds
//! (`onnx.SequenceConstruct`, or `onnx.SequenceEmpty`), an optional its value
//! or nothing (`onnx.Optional`), and the ops that read them fold into plain
//! tensor ops (SequenceAt is the element, ConcatFromSequence a Concat,
//! SplitToSequence Slices, SequenceMap its body once per element, a Loop that
//! carries a sequence is unrolled, as is one whose body's shapes change with
//! the iteration). Shape inference runs between sweeps, so a
//! position computed from a SequenceLength folds before the op that reads it.
//!
//! Last, a function's sequence and optional results become tensor results:
//! element `i` of result `y` is named `y[i]`, an empty sequence is one
//! zero-element tensor named `y[]`, an optional with a value is that value
//! and an empty one is no result at all (the runtime regroups them by these
//! names). What cannot be resolved is an error naming the node and why.

use crate::builder::Builder;
use crate::ops;
use super::shape_inference::ShapeInference;
use ir::attributes::{AttrData, AttrDict, Attribute};
use ir::diagnostics::Diagnostic;
use ir::pass::{Pass, PassContext};
use ir::types::{Type, TypeData};
use ir::{Body, Context, InsertPoint, OpId, Value};
use crate::types::unwrap;
use std::collections::HashMap;

pub struct ResolveSequences {
    /// Ops a Loop that carries a sequence may unroll into, over all its iterations.
    pub max_unrolled_ops: usize,
}

/// Sweeps (shape inference, then rewriting) before giving up on a fixed point.
const MAX_SWEEPS: usize = 64;

/// Whether a value is a sequence or an optional.
fn is_seq_or_opt(ctx: &Context, t: &Type) -> bool {
    unwrap(ctx, t, "Seq").is_some() || unwrap(ctx, t, "Opt").is_some()
}

fn is_none(body: &Body, v: Value) -> bool {
    body.value_type(v).data() == &TypeData::None
}

/// The tensors a resolved sequence holds, looking through Identity.
fn elements(body: &Body, v: Value) -> Option<Vec<Value>> {
    let d = body.defining_op(v)?;
    match body.name(d).as_str() {
        ops::SequenceConstruct::NAME => Some(body.op(d).operands().to_vec()),
        ops::SequenceEmpty::NAME => Some(vec![]),
        ops::Identity::NAME => elements(body, body.op(d).operand(0)),
        _ => None,
    }
}

/// What a resolved optional holds: `Some(None)` when it is empty. A value that
/// is not an optional (a tensor or a sequence passed where one is accepted)
/// holds itself; an absent input holds nothing.
fn held(ctx: &Context, body: &Body, v: Value) -> Option<Option<Value>> {
    if is_none(body, v) {
        return Some(None);
    }
    if unwrap(ctx, body.value_type(v), "Opt").is_none() {
        return Some(Some(v));
    }
    let d = body.defining_op(v)?;
    match body.name(d).as_str() {
        ops::Optional::NAME => Some(body.op(d).operands().iter().copied().find(|x| !is_none(body, *x))),
        ops::Identity::NAME => held(ctx, body, body.op(d).operand(0)),
        _ => None,
    }
}

/// A position operand: absent gives `default`; negative counts from the end;
/// it must fall in `0..=last`.
fn position(body: &Body, op: OpId, index: usize, n: usize, last: usize, default: usize) -> Result<Option<usize>, String> {
    let Some(&p) = body.op(op).operands().get(index).filter(|p| !is_none(body, **p)) else { return Ok(Some(default)) };
    let Some(v) = crate::infer::const_ints(body, p) else { return Ok(None) };
    let &[k] = v.as_slice() else { return Err(format!("the position has {} values; it must be a single integer", v.len())) };
    let at = if k < 0 { k + n as i64 } else { k };
    if at < 0 || at as usize > last {
        return Err(format!("position {} is out of range for a sequence of {} tensors", k, n));
    }
    Ok(Some(at as usize))
}

/// An `onnx.Constant` of `elem` and `shape` with raw little-endian `bytes`, before `at`.
fn constant(ctx: &Context, body: &mut Body, elem: Type, shape: Vec<i64>, bytes: Vec<u8>, loc: ir::Location, at: OpId) -> Value {
    Builder::new(ctx, body, InsertPoint::Before(at), loc).constant(elem, shape, bytes)
}

fn i64s(ctx: &Context, body: &mut Body, vals: &[i64], scalar: bool, loc: ir::Location, at: OpId) -> Value {
    let shape = if scalar { vec![] } else { vec![vals.len() as i64] };
    constant(ctx, body, ctx.i64(), shape, vals.iter().flat_map(|v| v.to_le_bytes()).collect(), loc, at)
}

fn bool_(ctx: &Context, body: &mut Body, b: bool, loc: ir::Location, at: OpId) -> Value {
    constant(ctx, body, ctx.i1(), vec![], vec![b as u8], loc, at)
}

/// A sequence holding `elems`, of type `ty`.
fn sequence(ctx: &Context, body: &mut Body, elems: &[Value], ty: Type, loc: ir::Location, at: OpId) -> Value {
    let name = if elems.is_empty() { ops::SequenceEmpty::NAME } else { ops::SequenceConstruct::NAME };
    Builder::new(ctx, body, InsertPoint::Before(at), loc).op(name, elems, &[ty], &[])[0]
}

fn static_shape(body: &Body, v: Value) -> Option<Vec<i64>> {
    body.value_type(v).shape().filter(|s| !s.contains(&ir::types::DYNAMIC)).map(|s| s.to_vec())
}

fn fail(why: impl Into<String>) -> String {
    why.into()
}

struct Rewrite<'a> {
    ctx: &'a Context,
    body: &'a mut Body,
    op: OpId,
    loc: ir::Location,
    /// Ops unrolling may still create, over the whole pass (`max-unrolled-ops`).
    budget: &'a mut usize,
}

impl Rewrite<'_> {
    /// A builder of onnx ops before the op being rewritten.
    fn builder(&mut self) -> Builder<'_> {
        Builder::new(self.ctx, self.body, InsertPoint::Before(self.op), self.loc.clone())
    }
    fn operand(&self, i: usize) -> Option<Value> {
        self.body.op(self.op).operands().get(i).copied()
    }

    fn elements_of(&self, i: usize) -> Result<Vec<Value>, String> {
        let v = self.operand(i).ok_or_else(|| format!("operand #{} is missing", i))?;
        elements(self.body, v).ok_or_else(|| format!("its sequence operand #{} is not known at compile time", i))
    }

    fn replace(&mut self, with: &[Value]) {
        let results = self.body.op(self.op).results().to_vec();
        for (r, v) in results.iter().zip(with) {
            self.body.replace_all_uses(*r, *v);
        }
        self.body.erase(self.op);
    }

    fn result_type(&self) -> Type {
        self.body.value_type(self.body.op(self.op).result(0)).clone()
    }

    /// An unranked tensor of the element type of sequence result `r` (inference refines it).
    fn element_type(&self, of: Value) -> Type {
        let t = self.body.value_type(of);
        let elem = unwrap(self.ctx, t, "Seq").and_then(|e| e.element_type().cloned()).or_else(|| t.element_type().cloned()).unwrap_or_else(|| self.ctx.f32());
        self.ctx.intern_type(TypeData::UnrankedTensor { elem })
    }

    /// Rewrites the op; `Err` says why it cannot be yet (empty: nothing to do).
    fn run(&mut self) -> Result<(), String> {
        let name = self.body.name(self.op);
        match name.as_str() {
            ops::Identity::NAME => match self.operand(0) {
                Some(x) if is_seq_or_opt(self.ctx, self.body.value_type(x)) => {
                    self.replace(&[x]);
                    Ok(())
                }
                _ => Err(String::new()),
            },
            ops::SequenceInsert::NAME => self.insert(),
            ops::SequenceErase::NAME => self.erase(),
            ops::SequenceAt::NAME => self.at(),
            ops::SequenceLength::NAME => self.length(),
            ops::ConcatFromSequence::NAME => self.concat(),
            ops::SplitToSequence::NAME => self.split(),
            ops::SequenceMap::NAME => self.map(),
            ops::OptionalHasElement::NAME => self.has_element(),
            ops::OptionalGetElement::NAME => self.get_element(),
            ops::Loop::NAME => self.unroll(),
            ops::If::NAME if self.body.op(self.op).results().iter().any(|r| is_seq_or_opt(self.ctx, self.body.value_type(*r))) => {
                Err("it chooses a sequence or optional value at run time; its condition must be known at compile time".into())
            }
            _ => Err(String::new()),
        }
    }

    fn insert(&mut self) -> Result<(), String> {
        let mut xs = self.elements_of(0)?;
        let t = self.operand(1).ok_or_else(|| fail("no tensor to insert"))?;
        let n = xs.len();
        let at = position(self.body, self.op, 2, n, n, n)?.ok_or_else(|| fail("the position is not known at compile time"))?;
        xs.insert(at, t);
        let ty = self.result_type();
        let s = sequence(self.ctx, self.body, &xs, ty, self.loc.clone(), self.op);
        { self.replace(&[s]); Ok(()) }
    }

    fn erase(&mut self) -> Result<(), String> {
        let mut xs = self.elements_of(0)?;
        let n = xs.len();
        if n == 0 {
            return Err(fail("SequenceErase of an empty sequence"));
        }
        let at = position(self.body, self.op, 1, n, n - 1, n - 1)?.ok_or_else(|| fail("the position is not known at compile time"))?;
        xs.remove(at);
        let ty = self.result_type();
        let s = sequence(self.ctx, self.body, &xs, ty, self.loc.clone(), self.op);
        { self.replace(&[s]); Ok(()) }
    }

    fn at(&mut self) -> Result<(), String> {
        let xs = self.elements_of(0)?;
        let n = xs.len();
        if n == 0 {
            return Err(fail("SequenceAt of an empty sequence"));
        }
        if self.operand(1).is_none_or(|p| is_none(self.body, p)) {
            return Err(fail("SequenceAt needs a position"));
        }
        let at = position(self.body, self.op, 1, n, n - 1, 0)?.ok_or_else(|| fail("the position is not known at compile time"))?;
        { self.replace(&[xs[at]]); Ok(()) }
    }

    fn length(&mut self) -> Result<(), String> {
        let n = self.elements_of(0)?.len() as i64;
        let c = i64s(self.ctx, self.body, &[n], true, self.loc.clone(), self.op);
        { self.replace(&[c]); Ok(()) }
    }

    /// Concat along `axis`, or with `new_axis` a stack (each element reshaped to hold a new dim of 1 there).
    fn concat(&mut self) -> Result<(), String> {
        let xs = self.elements_of(0)?;
        if xs.is_empty() {
            return Err(fail("ConcatFromSequence of an empty sequence"));
        }
        let new_axis = self.body.op(self.op).int_attr("new_axis").unwrap_or(0) != 0;
        let axis = self.body.op(self.op).int_attr("axis").unwrap_or(0);
        let mut parts = Vec::new();
        let mut rank = None;
        for &x in &xs {
            let s = static_shape(self.body, x).ok_or_else(|| fail("an element's shape is not known at compile time"))?;
            let r = s.len() as i64 + new_axis as i64;
            if rank.is_some_and(|k| k != r) {
                return Err(fail("the sequence holds tensors of different ranks"));
            }
            rank = Some(r);
            let a = if axis < 0 { axis + r } else { axis };
            if a < 0 || a >= r {
                return Err(fail(format!("axis {} is out of range for rank {}", axis, r)));
            }
            if new_axis {
                let mut shape = s.clone();
                shape.insert(a as usize, 1);
                let elem = self.body.value_type(x).element_type().cloned().unwrap_or_else(|| self.ctx.f32());
                let sh = i64s(self.ctx, self.body, &shape, false, self.loc.clone(), self.op);
                let ty = self.ctx.intern_type(TypeData::RankedTensor { shape, elem, encoding: None });
                let r = ops::Reshape::build(&mut self.builder(), x, sh, &[ty], &ops::ReshapeAttrs { allowzero: Some(1) });
                parts.push(r.reshaped(self.body));
            } else {
                parts.push(x);
            }
        }
        let a = if axis < 0 { axis + rank.unwrap_or(0) } else { axis };
        let ty = self.element_type(self.body.op(self.op).result(0));
        let c = ops::Concat::build(&mut self.builder(), &parts, &[ty], &ops::ConcatAttrs { axis: Some(a) });
        let c = c.concat_result(self.body);
        { self.replace(&[c]); Ok(()) }
    }

    /// Slices of `split` sizes along `axis` (chunks of one, squeezed unless `keepdims`, when absent).
    fn split(&mut self) -> Result<(), String> {
        let x = self.operand(0).ok_or_else(|| fail("no input"))?;
        let shape = static_shape(self.body, x).ok_or_else(|| fail("the input's shape is not known at compile time"))?;
        let r = shape.len() as i64;
        let axis = self.body.op(self.op).int_attr("axis").unwrap_or(0);
        let a = if axis < 0 { axis + r } else { axis };
        if a < 0 || a >= r {
            return Err(fail(format!("axis {} is out of range for rank {}", axis, r)));
        }
        let dim = shape[a as usize];
        let split = self.operand(1).filter(|s| !is_none(self.body, *s));
        let (sizes, squeeze) = match split {
            None => (vec![1; dim as usize], self.body.op(self.op).int_attr("keepdims").unwrap_or(1) == 0),
            Some(s) => {
                let v = crate::infer::const_ints(self.body, s).ok_or_else(|| fail("the split is not known at compile time"))?;
                let scalar = self.body.value_type(s).shape().is_some_and(|s| s.is_empty());
                if scalar {
                    let k = v.first().copied().unwrap_or(0);
                    if k <= 0 {
                        return Err(fail(format!("split {} must be positive", k)));
                    }
                    let mut sizes = vec![k; (dim / k) as usize];
                    if dim % k != 0 {
                        sizes.push(dim % k);
                    }
                    (sizes, false)
                } else {
                    let total = v.iter().try_fold(0i64, |acc, k| if *k < 0 { None } else { acc.checked_add(*k) });
                    if total != Some(dim) {
                        return Err(fail(format!("split {:?} does not add up to the axis' {} elements", v, dim)));
                    }
                    (v, false)
                }
            }
        };
        let elem = self.body.value_type(x).element_type().cloned().unwrap_or_else(|| self.ctx.f32());
        let axes = i64s(self.ctx, self.body, &[a], false, self.loc.clone(), self.op);
        let mut parts = Vec::new();
        let mut start = 0;
        for k in sizes {
            let (s, e) = (i64s(self.ctx, self.body, &[start], false, self.loc.clone(), self.op), i64s(self.ctx, self.body, &[start + k], false, self.loc.clone(), self.op));
            let mut out = shape.clone();
            out[a as usize] = k;
            let ty = self.ctx.intern_type(TypeData::RankedTensor { shape: out.clone(), elem: elem.clone(), encoding: None });
            let slice = ops::Slice::build(&mut self.builder(), x, s, e, Some(axes), None, &[ty]);
            let mut part = slice.output(self.body);
            if squeeze {
                out.remove(a as usize);
                let sh = i64s(self.ctx, self.body, &out, false, self.loc.clone(), self.op);
                let ty = self.ctx.intern_type(TypeData::RankedTensor { shape: out, elem: elem.clone(), encoding: None });
                let r = ops::Reshape::build(&mut self.builder(), part, sh, &[ty], &ops::ReshapeAttrs { allowzero: Some(1) });
                part = r.reshaped(self.body);
            }
            parts.push(part);
            start += k;
        }
        let ty = self.result_type();
        let s = sequence(self.ctx, self.body, &parts, ty, self.loc.clone(), self.op);
        { self.replace(&[s]); Ok(()) }
    }

    /// The body once per element (sequence operands give their i-th element, tensors themselves).
    fn map(&mut self) -> Result<(), String> {
        let operands = self.body.op(self.op).operands().to_vec();
        let mut per_arg: Vec<Result<Vec<Value>, Value>> = Vec::new();
        let mut n = None;
        for (i, &v) in operands.iter().enumerate() {
            if unwrap(self.ctx, self.body.value_type(v), "Seq").is_some() {
                let xs = self.elements_of(i)?;
                if n.is_some_and(|n| n != xs.len()) {
                    return Err(fail("its sequences have different lengths"));
                }
                n = Some(xs.len());
                per_arg.push(Ok(xs));
            } else {
                per_arg.push(Err(v));
            }
        }
        let n = n.unwrap_or(0);
        let block = self.body.entry_block(self.op).ok_or_else(|| fail("no body"))?;
        let args = self.body.block_args(block).to_vec();
        let results = self.body.op(self.op).results().to_vec();
        let yields = self.body.last_op(block).filter(|t| self.body.name(*t).as_str() == ops::YIELD).map(|t| self.body.op(t).operands().len());
        if args.len() != operands.len() || yields != Some(results.len()) {
            return Err(fail(format!("its body takes {} values and yields {:?} for {} operands and {} results", args.len(), yields, operands.len(), results.len())));
        }
        self.spend(n as u128, block)?;
        let mut outs: Vec<Vec<Value>> = vec![vec![]; results.len()];
        for i in 0..n {
            let mut map = HashMap::new();
            for (a, p) in args.iter().zip(&per_arg) {
                map.insert(*a, match p {
                    Ok(xs) => xs[i],
                    Err(v) => *v,
                });
            }
            let yielded = self.clone_block(block, &mut map);
            for (k, y) in yielded.into_iter().enumerate().take(outs.len()) {
                outs[k].push(y);
            }
        }
        let mut seqs = Vec::new();
        for (k, r) in results.iter().enumerate() {
            let ty = self.body.value_type(*r).clone();
            seqs.push(sequence(self.ctx, self.body, &outs[k], ty, self.loc.clone(), self.op));
        }
        { self.replace(&seqs); Ok(()) }
    }

    /// Takes `copies` of `block` (counting the ops nested in it) out of the
    /// pass's unrolling budget, or says it would exceed it.
    fn spend(&mut self, copies: u128, block: ir::Block) -> Result<(), String> {
        let per_copy: usize = self.body.block_ops(block).map(|o| self.body.walk_preorder(o).len()).sum();
        let need = copies * per_copy as u128;
        if need > *self.budget as u128 {
            return Err(fail(format!("unrolling {} copies of a body of {} ops is more than the {} ops left to unroll (max-unrolled-ops)", copies, per_copy, *self.budget)));
        }
        *self.budget -= need as usize;
        Ok(())
    }

    /// Clones the ops of `block` before the op (block arguments through `map`); what its terminator yields.
    fn clone_block(&mut self, block: ir::Block, map: &mut HashMap<Value, Value>) -> Vec<Value> {
        let ops: Vec<OpId> = self.body.block_ops(block).collect();
        let mut yielded = vec![];
        for o in ops {
            if self.body.name(o).as_str() == ops::YIELD {
                yielded = self.body.op(o).operands().iter().map(|v| *map.get(v).unwrap_or(v)).collect();
                continue;
            }
            let c = self.body.clone_op(o, map);
            self.body.insert(c, InsertPoint::Before(self.op));
        }
        yielded
    }

    fn has_element(&mut self) -> Result<(), String> {
        let has = match self.operand(0) {
            None => false,
            Some(v) => held(self.ctx, self.body, v).ok_or_else(|| fail("whether its optional holds a value is not known at compile time"))?.is_some(),
        };
        let c = bool_(self.ctx, self.body, has, self.loc.clone(), self.op);
        { self.replace(&[c]); Ok(()) }
    }

    fn get_element(&mut self) -> Result<(), String> {
        let v = self.operand(0).ok_or_else(|| fail("no input"))?;
        match held(self.ctx, self.body, v).ok_or_else(|| fail("whether its optional holds a value is not known at compile time"))? {
            Some(x) => { self.replace(&[x]); Ok(()) }
            None => Err(fail("the optional is empty (OptionalGetElement of nothing)")),
        }
    }

    /// A Loop that carries a sequence or optional, or whose body's shapes are
    /// not static (they change with the iteration), unrolled: its trip count
    /// and condition must be known, and its body's condition either passed on
    /// unchanged or constant. Scan outputs are the rows stacked.
    fn unroll(&mut self) -> Result<(), String> {
        let operands = self.body.op(self.op).operands().to_vec();
        let carried = operands.len().saturating_sub(2);
        let results = self.body.op(self.op).results().to_vec();
        let touches = operands.iter().chain(&results).any(|v| is_seq_or_opt(self.ctx, self.body.value_type(*v)));
        // A body whose shapes are not static (a Slice from the iteration number)
        // has static ones in each unrolled copy.
        let dynamic = !touches && self.body.walk_preorder(self.op).into_iter().skip(1).any(|o| {
            self.body.op(o).results().iter().any(|r| {
                let t = self.body.value_type(*r);
                !is_seq_or_opt(self.ctx, t) && t.data() != &TypeData::None && t.shape().is_none_or(|s| s.contains(&ir::types::DYNAMIC))
            })
        });
        if !touches && !dynamic {
            return Err(String::new());
        }
        let block = self.body.entry_block(self.op).ok_or_else(|| fail("no body"))?;
        let args = self.body.block_args(block).to_vec();
        let term = self.body.last_op(block).ok_or_else(|| fail("no body"))?;
        let yields = self.body.op(term).operands().to_vec();
        if args.len() != carried + 2 || yields.len() < carried + 1 || results.len() != yields.len() - 1 {
            return Err(fail("the Loop's body does not match its operands and results"));
        }
        let scans = results.len() - carried;
        let trip = match operands.first().filter(|m| !is_none(self.body, **m)) {
            None => None,
            Some(m) => Some(crate::infer::const_ints(self.body, *m).and_then(|v| v.first().copied()).ok_or_else(|| fail("its trip count is not known at compile time"))?),
        };
        let first = match operands.get(1).filter(|c| !is_none(self.body, **c)) {
            None => true,
            Some(c) => crate::infer::const_ints(self.body, *c).and_then(|v| v.first().copied()).ok_or_else(|| fail("its condition is not known at compile time"))? != 0,
        };
        // The body's condition: the one it got, or a constant.
        let mut c = yields[0];
        while let Some(d) = self.body.defining_op(c).filter(|d| self.body.name(*d).as_str() == ops::Identity::NAME) {
            c = self.body.op(d).operand(0);
        }
        let again = if c == args[1] {
            true
        } else {
            crate::infer::const_ints(self.body, c).and_then(|v| v.first().copied()).ok_or_else(|| fail("its body computes the condition; a Loop that carries a sequence needs one known at compile time"))? != 0
        };
        let n = match (first, again, trip) {
            (false, _, _) => 0,
            (true, true, Some(m)) => m.max(0),
            (true, false, m) => m.unwrap_or(1).clamp(0, 1),
            (true, true, None) => return Err(fail("it has no trip count and its condition stays true: it would never end")),
        };
        if self.body.name(term).as_str() != ops::YIELD {
            return Err(fail("its body does not end in onnx.Yield"));
        }
        self.spend(n.max(0) as u128, block)?;
        if scans > 0 && n == 0 {
            return Err(fail("it runs no iteration, so its scan outputs would be empty"));
        }
        let mut current: Vec<Value> = operands[2..].to_vec();
        let mut rows: Vec<Vec<Value>> = vec![vec![]; scans];
        for i in 0..n {
            let mut map = HashMap::new();
            let iter = i64s(self.ctx, self.body, &[i], true, self.loc.clone(), self.op);
            let cond = bool_(self.ctx, self.body, true, self.loc.clone(), self.op);
            map.insert(args[0], iter);
            map.insert(args[1], cond);
            for (a, v) in args[2..].iter().zip(&current) {
                map.insert(*a, *v);
            }
            let yielded = self.clone_block(block, &mut map);
            current = yielded[1..1 + carried].to_vec();
            for (k, v) in yielded[1 + carried..].iter().enumerate() {
                rows[k].push(*v);
            }
        }
        // Scan outputs: the rows stacked along a new first axis (the dialect
        // holds every op in its newest form: Unsqueeze's axes are an operand).
        for (k, vals) in rows.into_iter().enumerate() {
            let mut parts = Vec::new();
            for v in vals {
                let elem = self.element_type(v);
                let zero = i64s(self.ctx, self.body, &[0], false, self.loc.clone(), self.op);
                let u = ops::Unsqueeze::build(&mut self.builder(), v, zero, &[elem]);
                parts.push(u.expanded(self.body));
            }
            let ty = self.body.value_type(results[carried + k]).clone();
            let c = ops::Concat::build(&mut self.builder(), &parts, &[ty], &ops::ConcatAttrs { axis: Some(0) });
            current.push(c.concat_result(self.body));
        }
        { self.replace(&current); Ok(()) }
    }
}

impl ResolveSequences {
    /// One sweep over `root` in program order; how many ops were rewritten,
    /// and why each op left is waiting.
    fn sweep(&self, ctx: &Context, body: &mut Body, root: OpId, waiting: &mut HashMap<OpId, String>, budget: &mut usize) -> usize {
        let ops: Vec<OpId> = body.walk_preorder(root).into_iter().filter(|o| body.name(*o).dialect() == "onnx").collect();
        let mut done = 0;
        waiting.clear();
        for op in ops {
            if body.is_erased(op) {
                continue;
            }
            let loc = body.op(op).loc.clone();
            // Only ops that hold sequences or optionals wait with a reason worth reporting.
            let holds = body.op(op).results().iter().chain(body.op(op).operands()).any(|v| is_seq_or_opt(ctx, body.value_type(*v)));
            let mut rw = Rewrite { ctx, body, op, loc, budget: &mut *budget };
            match rw.run() {
                Ok(()) => done += 1,
                Err(why) if !why.is_empty() && holds => {
                    waiting.insert(op, why);
                }
                Err(_) => {}
            }
        }
        done
    }
}

/// The function's sequence and optional results as tensor results (see the module doc).
fn flatten_results(ctx: &Context, body: &mut Body, f: OpId) -> Result<(), Diagnostic> {
    let Some(entry) = body.entry_block(f) else { return Ok(()) };
    let Some(ret) = body.last_op(entry).filter(|r| body.name(*r).as_str() == func::ops::RETURN) else { return Ok(()) };
    let Some((ins, _)) = func::function_type(body, f) else { return Ok(()) };
    let returned = body.op(ret).operands().to_vec();
    if !returned.iter().any(|v| is_seq_or_opt(ctx, body.value_type(*v))) {
        return Ok(());
    }
    let dicts: Vec<Attribute> = body.op(f).properties.get("res_attrs").and_then(|a| a.as_array()).map(|a| a.to_vec()).unwrap_or_default();
    let loc = body.op(ret).loc.clone();
    let (mut vals, mut types, mut attrs) = (vec![], vec![], vec![]);
    for (k, &v) in returned.iter().enumerate() {
        let dict = dicts.get(k).and_then(|d| d.as_dict()).cloned().unwrap_or_default();
        let name = dict.get("onnx.name").and_then(|n| n.as_str()).map(String::from).unwrap_or_else(|| format!("output{}", k));
        let named = |n: String| {
            let mut d = AttrDict::new();
            d.set(ctx.ident("onnx.name"), Attribute::string(&n));
            Attribute::new(AttrData::Dict(d))
        };
        let t = body.value_type(v).clone();
        if !is_seq_or_opt(ctx, &t) {
            vals.push(v);
            types.push(t);
            attrs.push(Attribute::new(AttrData::Dict(dict)));
            continue;
        }
        let unknown = || Diagnostic::error(loc.clone(), format!("output '{}' is a sequence or optional value not known at compile time", name));
        let inner = if unwrap(ctx, &t, "Opt").is_some() {
            match held(ctx, body, v).ok_or_else(unknown)? {
                None => continue,
                Some(x) => x,
            }
        } else {
            v
        };
        let it = body.value_type(inner).clone();
        if let Some(elem_ty) = unwrap(ctx, &it, "Seq") {
            let xs = elements(body, inner).ok_or_else(unknown)?;
            if xs.is_empty() {
                let elem = elem_ty.element_type().cloned().unwrap_or_else(|| ctx.f32());
                let c = constant(ctx, body, elem, vec![0], vec![], loc.clone(), ret);
                vals.push(c);
                types.push(body.value_type(c).clone());
                attrs.push(named(format!("{}[]", name)));
            }
            for (i, x) in xs.into_iter().enumerate() {
                vals.push(x);
                types.push(body.value_type(x).clone());
                attrs.push(named(format!("{}[{}]", name, i)));
            }
        } else {
            vals.push(inner);
            types.push(it);
            attrs.push(named(name));
        }
    }
    // `y[0]` of a sequence must not meet a tensor output of that very name.
    let mut seen = std::collections::HashSet::new();
    for a in &attrs {
        if let Some(n) = a.as_dict().and_then(|d| d.get("onnx.name")).and_then(|n| n.as_str()) {
            if !seen.insert(n.to_string()) {
                return Err(Diagnostic::error(loc, format!("two outputs would be named '{}' (a sequence's elements are named `name[i]`); rename one", n)));
            }
        }
    }
    body.set_operands(ret, &vals);
    let fty = ctx.intern_type(TypeData::Function { inputs: ins, results: types });
    let props = &mut body.op_mut(f).properties;
    props.set(ctx.ident("function_type"), Attribute::type_attr(fty));
    props.set(ctx.ident("res_attrs"), Attribute::new(AttrData::Array(attrs)));
    Ok(())
}

/// Removes resolved sequence and optional constructors nothing reads any more.
fn erase_dead(ctx: &Context, body: &mut Body, root: OpId) {
    loop {
        let dead: Vec<OpId> = body
            .walk_postorder(root)
            .into_iter()
            .filter(|o| body.name(*o).dialect() == "onnx" && body.op(*o).regions().is_empty())
            .filter(|o| body.op(*o).results().iter().all(|r| !body.has_uses(*r)) && body.op(*o).results().iter().any(|r| is_seq_or_opt(ctx, body.value_type(*r))))
            .collect();
        if dead.is_empty() {
            return;
        }
        for o in dead {
            body.erase(o);
        }
    }
}

impl Pass for ResolveSequences {
    fn argument(&self) -> &'static str {
        "onnx-resolve-sequences"
    }
    fn display_name(&self) -> &'static str {
        "ONNXResolveSequences"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let mentions = |body: &Body| {
            body.walk_preorder(root).into_iter().any(|o| {
                let d = body.op(o);
                d.results().iter().chain(d.operands()).any(|v| is_seq_or_opt(ctx, body.value_type(*v)))
                    || d.regions().iter().flat_map(|r| body.region_blocks(*r)).any(|b| body.block_args(*b).iter().any(|a| is_seq_or_opt(ctx, body.value_type(*a))))
                    || matches!(body.name(o).as_str(), ops::OptionalHasElement::NAME | ops::OptionalGetElement::NAME | ops::Loop::NAME)
            })
        };
        if !mentions(cx.body) {
            return Ok(());
        }
        let mut waiting = HashMap::new();
        let mut total = 0;
        let mut budget = self.max_unrolled_ops;
        for _ in 0..MAX_SWEEPS {
            ShapeInference.run(cx, root)?;
            match self.sweep(ctx, cx.body, root, &mut waiting, &mut budget) {
                0 => break,
                n => total += n,
            }
        }
        // What still holds a sequence or optional cannot run: say which node and why.
        let mut failed = 0;
        for op in cx.body.walk_preorder(root) {
            if cx.body.is_erased(op) || cx.body.name(op).dialect() != "onnx" {
                continue;
            }
            let d = cx.body.op(op);
            // Constructors are resolved values; the ops that read them say what is missing.
            let constructor = matches!(cx.body.name(op).as_str(), ops::SequenceConstruct::NAME | ops::SequenceEmpty::NAME | ops::Optional::NAME);
            let stuck = !constructor && d.results().iter().chain(d.operands()).any(|v| is_seq_or_opt(ctx, cx.body.value_type(*v)));
            // Inside a region of an op that is itself waiting (a Loop to unroll), that op says why.
            let mut inside_waiting = false;
            let mut p = cx.body.parent_op(op);
            while let Some(q) = p {
                inside_waiting |= waiting.contains_key(&q);
                p = cx.body.parent_op(q);
            }
            if !stuck || inside_waiting {
                continue;
            }
            let why = waiting.get(&op).cloned().unwrap_or_else(|| "it reads a sequence or optional value that is not known at compile time".into());
            cx.emit(Diagnostic::error(d.loc.clone(), format!("cannot resolve '{}' at compile time: {}", cx.body.name(op).as_str(), why)));
            failed += 1;
        }
        cx.stat("num-resolved", "Sequence and optional ops resolved", total as u64);
        if failed > 0 {
            return Err(format!("{} sequence or optional op(s) could not be resolved", failed));
        }
        let funcs: Vec<OpId> = cx.body.walk_preorder(root).into_iter().filter(|o| cx.body.name(*o).as_str() == func::ops::FUNC).collect();
        for f in funcs {
            if let Err(d) = flatten_results(ctx, cx.body, f) {
                cx.emit(d);
                return Err("a sequence or optional output could not be resolved".into());
            }
        }
        erase_dead(ctx, cx.body, root);
        ShapeInference.run(cx, root)?;
        Ok(())
    }
}
