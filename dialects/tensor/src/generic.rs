//! `tensor.generic`: a loop nest described as data. Each operand has an affine
//! indexing map from the loop indices to its element; loops are `parallel` or
//! `reduction`; the body computes the output elements from the input elements
//! (block arguments: inputs, then the outputs' current values) and yields them.
//! On tensors it returns the filled outputs; on memrefs it writes them in place.
//!
//! An optional second region, the epilogue, runs once per output element after
//! every reduction is complete (a fused activation, bias or residual add): its
//! block takes the outputs' final values, then every input's element (only
//! inputs whose maps use no reduction loop may be read there), and yields the
//! values stored.

use crate::ops;
use ir::affine::AffineMap;
use ir::attributes::{ArrayData, AttrData, Attribute};
use ir::dialect::{optional, required, AttrKind, Count, OpDef, Trait};
use ir::{Block, Body, Context, InsertPoint, Location, OpId, Type, Value};

pub const PARALLEL: &str = "parallel";
pub const REDUCTION: &str = "reduction";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Iterator {
    Parallel,
    Reduction,
}

/// Read access to a `tensor.generic`.
pub struct Generic<'a> {
    body: &'a Body,
    op: OpId,
}

impl<'a> Generic<'a> {
    pub fn new(body: &'a Body, op: OpId) -> Generic<'a> {
        Generic { body, op }
    }
    fn segments(&self) -> (usize, usize) {
        let d = self.body.op(self.op);
        match d.attr("operandSegmentSizes").map(|a| a.data()) {
            Some(AttrData::DenseArray { data: ArrayData::Int(v), .. }) if v.len() == 2 => (v[0].max(0) as usize, v[1].max(0) as usize),
            _ => (d.operands().len(), 0),
        }
    }
    pub fn inputs(&self) -> &'a [Value] {
        let (n, _) = self.segments();
        &self.body.op(self.op).operands()[..n.min(self.body.op(self.op).operands().len())]
    }
    pub fn outputs(&self) -> &'a [Value] {
        let (n, _) = self.segments();
        &self.body.op(self.op).operands()[n.min(self.body.op(self.op).operands().len())..]
    }
    pub fn maps(&self) -> Vec<AffineMap> {
        let d = self.body.op(self.op);
        d.attr("indexing_maps")
            .and_then(|a| a.as_array())
            .map(|v| v.iter().filter_map(|m| if let AttrData::AffineMap(m) = m.data() { Some(m.clone()) } else { None }).collect())
            .unwrap_or_default()
    }
    pub fn iterators(&self) -> Vec<Iterator> {
        let d = self.body.op(self.op);
        d.attr("iterator_types")
            .and_then(|a| a.as_array())
            .map(|v| v.iter().map(|s| if s.as_str() == Some(REDUCTION) { Iterator::Reduction } else { Iterator::Parallel }).collect())
            .unwrap_or_default()
    }
    pub fn block(&self) -> Block {
        self.body.region_blocks(self.body.op(self.op).regions()[0])[0]
    }
    /// The epilogue's block, if the op has one.
    pub fn epilogue(&self) -> Option<Block> {
        let r = *self.body.op(self.op).regions().get(1)?;
        self.body.region_blocks(r).first().copied()
    }
    /// The size of each loop: the `loop_ranges` property when present (loops
    /// that index no operand directly, like a pooling window, need it), else
    /// read off the first operand whose map gives that loop as a plain result
    /// dimension (`None` if no operand does).
    pub fn loop_sizes(&self) -> Vec<Option<i64>> {
        if let Some(AttrData::DenseArray { data: ArrayData::Int(v), .. }) = self.body.op(self.op).attr("loop_ranges").map(|a| a.data()) {
            return v.iter().map(|&x| Some(x)).collect();
        }
        self.derived_loop_sizes()
    }
    fn derived_loop_sizes(&self) -> Vec<Option<i64>> {
        let maps = self.maps();
        let mut sizes = vec![None; self.iterators().len()];
        // Outputs first: they are written whole, so they define the parallel
        // loops exactly; an input may be read in part (a slice, a gate).
        let n_in = self.inputs().len();
        let pairs = maps.iter().zip(self.inputs().iter().chain(self.outputs()).copied()).enumerate();
        let mut ordered: Vec<(usize, (&AffineMap, Value))> = pairs.collect();
        ordered.sort_by_key(|(i, _)| *i < n_in);
        for (_, (m, v)) in ordered {
            let v = &v;
            let Some(shape) = self.body.value_type(*v).shape() else { continue };
            for (r, e) in m.results.iter().enumerate() {
                if let ir::affine::AffineExpr::Dim(d) = e {
                    if sizes[*d as usize].is_none() && r < shape.len() {
                        sizes[*d as usize] = Some(shape[r]);
                    }
                }
            }
        }
        sizes
    }
}

fn verify(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let g = Generic::new(body, op);
    let d = body.op(op);
    let (ni, no) = g.segments();
    if ni + no != d.operands().len() {
        return Err(format!("operandSegmentSizes says {} inputs and {} outputs but the op has {} operands", ni, no, d.operands().len()));
    }
    let on_tensors = g.outputs().iter().all(|&v| matches!(body.value_type(v).data(), ir::types::TypeData::RankedTensor { .. }));
    if on_tensors && d.results().len() != no {
        return Err(format!("expects one result per output on tensors ({}), got {}", no, d.results().len()));
    }
    if !on_tensors && !d.results().is_empty() {
        return Err("expects no results when the outputs are memrefs".into());
    }
    let maps = g.maps();
    let iters = g.iterators();
    let n_maps = d.attr("indexing_maps").and_then(|a| a.as_array()).map(|a| a.len()).unwrap_or(0);
    if n_maps != maps.len() {
        return Err("expects indexing_maps to hold affine maps".into());
    }
    if maps.len() != ni + no {
        return Err(format!("expects one indexing map per operand ({}), got {}", ni + no, maps.len()));
    }
    for (i, (m, v)) in maps.iter().zip(d.operands()).enumerate() {
        if m.num_dims as usize != iters.len() {
            return Err(format!("indexing map #{} has {} dims but the op has {} loops", i, m.num_dims, iters.len()));
        }
        let rank = body.value_type(*v).shape().map(|s| s.len()).unwrap_or(0);
        if m.results.len() != rank {
            return Err(format!("indexing map #{} has {} results but operand #{} has rank {}", i, m.results.len(), i, rank));
        }
    }
    for (i, m) in maps[ni..].iter().enumerate() {
        // Outputs are written at the mapped element: each index must be a loop
        // dimension, maybe offset, or a constant (writing one window or slice,
        // the rest unchanged), so distinct iterations write distinct elements.
        let plain = |e: &ir::affine::AffineExpr| matches!(e, ir::affine::AffineExpr::Const(_)) || e.dim_plus_const().is_some();
        if !m.results.iter().all(plain) {
            return Err(format!("output #{} must be indexed by plain loop dimensions", i));
        }
    }
    let sizes = g.loop_sizes();
    if sizes.len() != iters.len() {
        return Err(format!("loop_ranges has {} entries but the op has {} loops", sizes.len(), iters.len()));
    }
    if let Some(i) = sizes.iter().position(|s| s.is_none()) {
        return Err(format!("the size of loop #{} is not given by any operand; set loop_ranges", i));
    }
    // Every access stays inside its operand: a lowering bug must fail here,
    // not write past a buffer at run time.
    let ranges: Vec<i64> = sizes.iter().map(|s| s.unwrap_or(0)).collect();
    if ranges.iter().all(|&n| n > 0) {
        for (i, (m, v)) in maps.iter().zip(d.operands()).enumerate() {
            let Some(shape) = body.value_type(*v).shape() else { continue };
            for (k, e) in m.results.iter().enumerate() {
                let (lo, hi) = interval(e, &ranges).ok_or_else(|| format!("indexing map #{} result {} cannot be bounded", i, k))?;
                if shape[k] >= 0 && (lo < 0 || hi >= shape[k]) {
                    return Err(format!("indexing map #{} reads dim {} of operand #{} at {}..={}, outside 0..{}", i, k, i, lo, hi, shape[k]));
                }
            }
        }
    }
    let Some(&block) = body.region_blocks(d.regions()[0]).first() else { return Err("expects a body block".into()) };
    let args = body.block_args(block);
    if args.len() != ni + no {
        return Err(format!("expects the body to take {} element arguments, got {}", ni + no, args.len()));
    }
    for (i, (a, v)) in args.iter().zip(d.operands()).enumerate() {
        let elem = body.value_type(*v).element_type().unwrap_or(body.value_type(*v));
        if body.value_type(*a) != elem {
            return Err(format!("body argument #{} must have the element type of operand #{}", i, i));
        }
    }
    verify_yield(body, block, &g)?;
    if d.regions().len() > 2 {
        return Err("expects a body and at most an epilogue region".into());
    }
    if let Some(ep) = g.epilogue() {
        let args = body.block_args(ep);
        if args.len() != no + ni {
            return Err(format!("expects the epilogue to take {} output values then {} input elements, got {} arguments", no, ni, args.len()));
        }
        for (i, (a, v)) in args.iter().zip(g.outputs().iter().chain(g.inputs())).enumerate() {
            if Some(body.value_type(*a)) != body.value_type(*v).element_type() {
                return Err(format!("epilogue argument #{} must have its operand's element type", i));
            }
        }
        for (k, a) in args[no..].iter().enumerate() {
            let reads_reduction = maps[k].results.iter().any(|e| iters.iter().enumerate().any(|(l, it)| *it == Iterator::Reduction && uses_dim(e, l)));
            if body.has_uses(*a) && reads_reduction {
                return Err(format!("the epilogue reads input #{}, whose map uses a reduction loop", k));
            }
        }
        verify_yield(body, ep, &g)?;
    }
    Ok(())
}

fn uses_dim(e: &ir::affine::AffineExpr, d: usize) -> bool {
    use ir::affine::AffineExpr as E;
    match e {
        E::Dim(x) => *x as usize == d,
        E::Sym(_) | E::Const(_) => false,
        E::Add(a, b) | E::Mul(a, b) | E::Mod(a, b) | E::FloorDiv(a, b) | E::CeilDiv(a, b) => uses_dim(a, d) || uses_dim(b, d),
    }
}

/// A region's terminator yields one value of each output's element type.
fn verify_yield(body: &Body, block: Block, g: &Generic) -> Result<(), String> {
    let no = g.outputs().len();
    if let Some(y) = body.last_op(block) {
        let ys = body.op(y).operands();
        if ys.len() != no {
            return Err(format!("expects the body to yield {} values, got {}", no, ys.len()));
        }
        for (i, (yv, o)) in ys.iter().zip(g.outputs()).enumerate() {
            if Some(body.value_type(*yv)) != body.value_type(*o).element_type() {
                return Err(format!("yielded value #{} must have output #{}'s element type", i, i));
            }
        }
    }
    Ok(())
}

pub const GENERIC: OpDef = OpDef {
    name: ops::GENERIC,
    summary: "A loop nest as data: indexing maps, iterator types and a scalar body.",
    operands: Count::AtLeast(1),
    results: Count::Any,
    regions: Count::AtLeast(1),
    traits: &[Trait::SingleBlock],
    properties: &[
        required("indexing_maps", AttrKind::Array),
        required("iterator_types", AttrKind::Array),
        required("operandSegmentSizes", AttrKind::Any),
        optional("loop_ranges", AttrKind::Any),
    ],
    verify: Some(verify),
    ..OpDef::DEFAULT
};

/// Builds a `tensor.generic` on tensors; `f` fills the body given the block
/// arguments and returns the values to yield.
pub struct GenericBuilder<'c> {
    pub ctx: &'c Context,
    pub loc: Location,
}

impl<'c> GenericBuilder<'c> {
    pub fn build(
        &self,
        body: &mut Body,
        at: InsertPoint,
        ins: &[Value],
        outs: &[Value],
        maps: Vec<AffineMap>,
        iters: &[Iterator],
        ranges: Option<Vec<i64>>,
        f: impl FnOnce(&mut Body, Block, &[Value]) -> Vec<Value>,
    ) -> OpId {
        let ctx = self.ctx;
        let elem = |body: &Body, v: Value| -> Type { body.value_type(v).element_type().cloned().unwrap_or_else(|| body.value_type(v).clone()) };
        let arg_types: Vec<Type> = ins.iter().chain(outs).map(|&v| elem(body, v)).collect();
        let result_types: Vec<Type> = outs
            .iter()
            .filter(|&&v| matches!(body.value_type(v).data(), ir::types::TypeData::RankedTensor { .. }))
            .map(|&v| body.value_type(v).clone())
            .collect();
        let region = body.new_region();
        let block = body.add_block(region, &arg_types);
        let args: Vec<Value> = body.block_args(block).to_vec();
        let yields = f(body, block, &args);
        ops::Yield::build(&mut ir::OpBuilder::new(ctx, body, InsertPoint::AtEnd(block), self.loc.clone()), &yields, &[], &[]);
        let operands: Vec<Value> = ins.iter().chain(outs).copied().collect();
        let mut props = vec![
            ("indexing_maps", Attribute::new(AttrData::Array(maps.into_iter().map(|m| Attribute::new(AttrData::AffineMap(m))).collect()))),
            ("iterator_types", iterator_types_attr(iters)),
            ("operandSegmentSizes", Attribute::new(AttrData::DenseArray { elem: ctx.i32(), data: ArrayData::Int(vec![ins.len() as i64, outs.len() as i64]) })),
        ];
        if let Some(r) = ranges {
            props.push(("loop_ranges", Attribute::new(AttrData::DenseArray { elem: ctx.i64(), data: ArrayData::Int(r) })));
        }
        let mut b = ir::OpBuilder::new(ctx, body, at, self.loc.clone());
        ops::Generic::build(&mut b, &operands, region, vec![], &result_types, &props).op()
    }
}

/// The `iterator_types` attribute of `iters`.
pub fn iterator_types_attr(iters: &[Iterator]) -> Attribute {
    Attribute::new(AttrData::Array(iters.iter().map(|i| Attribute::string(if *i == Iterator::Reduction { REDUCTION } else { PARALLEL })).collect()))
}

/// The range of values an affine expression takes with loop `i` in 0..ranges[i].
fn interval(e: &ir::affine::AffineExpr, ranges: &[i64]) -> Option<(i64, i64)> {
    use ir::affine::AffineExpr as E;
    Some(match e {
        E::Dim(i) => (0, ranges.get(*i as usize)? - 1),
        E::Sym(_) => return None,
        E::Const(c) => (*c, *c),
        E::Add(a, b) => {
            let (x, y) = (interval(a, ranges)?, interval(b, ranges)?);
            (x.0.checked_add(y.0)?, x.1.checked_add(y.1)?)
        }
        E::Mul(a, b) => {
            let (x, y) = (interval(a, ranges)?, interval(b, ranges)?);
            let c = [x.0.checked_mul(y.0)?, x.0.checked_mul(y.1)?, x.1.checked_mul(y.0)?, x.1.checked_mul(y.1)?];
            (*c.iter().min()?, *c.iter().max()?)
        }
        E::Mod(a, b) => {
            let (x, k) = (interval(a, ranges)?, interval(b, ranges)?);
            if k.0 != k.1 || k.0 <= 0 {
                return None;
            }
            if x.0 >= 0 && x.1 < k.0 {
                x
            } else {
                (0, k.0 - 1)
            }
        }
        E::FloorDiv(a, b) | E::CeilDiv(a, b) => {
            let (x, k) = (interval(a, ranges)?, interval(b, ranges)?);
            if k.0 != k.1 || k.0 <= 0 {
                return None;
            }
            let ceil = matches!(e, E::CeilDiv(..));
            let div = |v: i64| if ceil { -((-v).div_euclid(k.0)) } else { v.div_euclid(k.0) };
            (div(x.0), div(x.1))
        }
    })
}
