//! `fold-constant-copies`: a `tensor.generic` that only moves the elements of
//! a constant (its body yields one input unchanged: a transpose, a slice, a
//! weight put into the layout a kernel reads) becomes the constant it
//! computes; a broadcast, which would make the constant larger, does not. The work is done once, at compile time, instead of on every
//! run: an LSTM's W and R transposed to [dirs, K, gates·H] were 56% of a
//! two-layer LSTM's run time. The runtime then passes the folded constant to
//! the compiled code as a weight, as it passes the model's own.
//!
//! The constant may be seen through reshapes. Only copies whose maps are
//! linear (no modulo or division) and whose output map is a permutation of
//! the loops are folded, up to 256 MiB.

use crate::ops;
use ir::affine::{AffineExpr, AffineMap};
use ir::attributes::{element_bytes, AttrData, Attribute, DenseData, Resource};
use ir::pass::{Pass, PassContext};
use ir::{Body, OpId, OperationState, Value};
use std::sync::Arc;
use crate::{Generic, Iterator};

pub struct FoldConstantCopies;

/// The largest constant this pass makes.
const MAX_BYTES: u64 = 256 << 20;

impl Pass for FoldConstantCopies {
    fn argument(&self) -> &'static str {
        "fold-constant-copies"
    }
    fn display_name(&self) -> &'static str {
        "FoldConstantCopies"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let generics: Vec<OpId> = body.walk_preorder(module).into_iter().filter(|o| body.name(*o).as_str() == ops::GENERIC).collect();
        for op in generics {
            let Some((value, source)) = fold(body, op) else { continue };
            let result = body.op(op).result(0);
            let ty = body.value_type(result).clone();
            let st = OperationState::new(ctx.op_name(arith::ops::CONSTANT), body.op(op).loc.clone()).results(&[ty]).property(ctx.ident("value"), value);
            let c = body.build(st, ir::InsertPoint::Before(op));
            let cv = body.op(c).result(0);
            body.replace_all_uses(result, cv);
            let outs: Vec<Value> = Generic::new(body, op).outputs().to_vec();
            body.erase(op);
            // The source (through its reshapes) and the destination, when
            // nothing else reads them, go now: a dead weight would still
            // become an argument of the function.
            let mut dead = outs;
            dead.push(source);
            while let Some(v) = dead.pop() {
                let Some(d) = body.defining_op(v) else { continue };
                if body.has_uses(v) || !matches!(body.name(d).as_str(), arith::ops::CONSTANT | ops::EMPTY | ops::COLLAPSE_SHAPE | ops::EXPAND_SHAPE) {
                    continue;
                }
                dead.extend(body.op(d).operands().iter().copied());
                body.erase(d);
            }
        }
        Ok(())
    }
}

/// The constant `op` computes and the constant it reads, when `op` is a copy
/// of a constant this pass folds.
fn fold(body: &Body, op: OpId) -> Option<(Attribute, Value)> {
    let g = Generic::new(body, op);
    let (ins, outs) = (g.inputs(), g.outputs());
    if outs.len() != 1 || g.epilogue().is_some() || g.iterators().iter().any(|i| *i != Iterator::Parallel) {
        return None;
    }
    let block = g.block();
    let mut ops = body.block_ops(block);
    let y = ops.next()?;
    if ops.next().is_some() || body.name(y).as_str() != ops::YIELD {
        return None;
    }
    let args = body.block_args(block);
    let k = args.iter().position(|a| body.op(y).operands() == [*a])?;
    let source = *ins.get(k)?;
    // A reshape keeps the row-major order: the constant's bytes, read in the
    // shape the generic sees.
    let mut def = body.defining_op(source)?;
    while matches!(body.name(def).as_str(), ops::COLLAPSE_SHAPE | ops::EXPAND_SHAPE) {
        def = body.defining_op(body.op(def).operand(0))?;
    }
    if body.name(def).as_str() != arith::ops::CONSTANT {
        return None;
    }
    let attr = body.op(def).properties.get("value").or_else(|| body.op(def).attributes.get("value"))?;
    let (bytes, splat): (&[u8], bool) = match attr.data() {
        AttrData::Dense { data, .. } => (&data.bytes, data.splat),
        AttrData::DenseResource { resource, .. } => (resource.blob.get()?.bytes(), false),
        _ => return None,
    };
    let in_ty = body.value_type(source);
    let out_ty = body.value_type(body.op(op).result(0)).clone();
    let (out_shape, elem) = (out_ty.shape()?.to_vec(), out_ty.element_type()?.clone());
    let w = element_bytes(&elem)?;
    let n = out_ty.num_elements()?;
    if in_ty.scalar() != &elem || n.checked_mul(w as u64)? > MAX_BYTES {
        return None;
    }
    // Every element of the output is written (a copy into a slice of a
    // destination keeps the destination's other elements: not folded).
    let maps = g.maps();
    let sizes: Vec<i64> = g.loop_sizes().into_iter().collect::<Option<_>>()?;
    let out_map = &maps[ins.len()];
    let is_permutation = out_map.results.len() == sizes.len() && (0..sizes.len()).all(|l| out_map.results.iter().filter(|e| **e == AffineExpr::Dim(l as u32)).count() == 1);
    if !is_permutation || out_map.results.iter().zip(&out_shape).any(|(e, s)| matches!(e, AffineExpr::Dim(l) if sizes[*l as usize] != *s)) {
        return None;
    }
    // No broadcasts: a bias broadcast to a layer's output is the init of its
    // accumulator, cheaper computed on each run than read from a constant
    // as large as the output.
    let in_shape = in_ty.shape()?.to_vec();
    if n > in_shape.iter().product::<i64>() as u64 {
        return None;
    }
    if splat {
        let data = DenseData { bytes: Arc::from(bytes), splat: true };
        return Some((Attribute::new(AttrData::Dense { ty: out_ty, data }), source));
    }
    if bytes.len() < in_shape.iter().product::<i64>() as usize * w {
        return None;
    }
    let (in_base, in_coef) = linear_offsets(&maps[k], &in_shape, &sizes)?;
    let (out_base, out_coef) = linear_offsets(out_map, &out_shape, &sizes)?;
    let mut out = vec![0u8; n as usize * w];
    let in_elems = (bytes.len() / w) as i64;
    let mut idx = vec![0i64; sizes.len()];
    let (mut io, mut oo) = (in_base, out_base);
    // The output map is a permutation: the loops visit each element once.
    for _ in 0..n {
        // A verified generic's maps stay in bounds; one that would not is not folded.
        if !(0..in_elems).contains(&io) {
            return None;
        }
        let (i, o) = (io as usize * w, oo as usize * w);
        out[o..o + w].copy_from_slice(&bytes[i..i + w]);
        let mut l = sizes.len();
        while l > 0 {
            l -= 1;
            idx[l] += 1;
            io += in_coef[l];
            oo += out_coef[l];
            if idx[l] < sizes[l] {
                break;
            }
            io -= in_coef[l] * sizes[l];
            oo -= out_coef[l] * sizes[l];
            idx[l] = 0;
        }
    }
    let name = format!("folded_{}", body.op_capacity());
    let value = if out.len() >= 1024 {
        Attribute::new(AttrData::DenseResource { ty: out_ty, resource: Resource::new(&name, 16, Arc::new(out)) })
    } else {
        Attribute::new(AttrData::Dense { ty: out_ty, data: DenseData::canonical(out, w, n as usize) })
    };
    Some((value, source))
}

/// The row-major element offset `map` gives into a tensor of `shape` as
/// `base + Σ coef[l]·i_l` over the loops, when every result is linear in them.
fn linear_offsets(map: &AffineMap, shape: &[i64], sizes: &[i64]) -> Option<(i64, Vec<i64>)> {
    if map.results.len() != shape.len() || !map.results.iter().all(is_linear) {
        return None;
    }
    let strides: Vec<i64> = (0..shape.len()).map(|d| shape[d + 1..].iter().product()).collect();
    let offset = |dims: &[i64]| -> Option<i64> {
        let idx = map.eval(dims, &[])?;
        Some(idx.iter().zip(&strides).map(|(i, s)| i * s).sum())
    };
    let zero = vec![0i64; sizes.len()];
    let base = offset(&zero)?;
    let mut coef = Vec::with_capacity(sizes.len());
    for l in 0..sizes.len() {
        let mut unit = zero.clone();
        unit[l] = 1;
        coef.push(offset(&unit)? - base);
    }
    Some((base, coef))
}

fn is_linear(e: &AffineExpr) -> bool {
    match e {
        AffineExpr::Dim(_) | AffineExpr::Const(_) => true,
        AffineExpr::Add(a, b) => is_linear(a) && is_linear(b),
        AffineExpr::Mul(a, b) => matches!((&**a, &**b), (AffineExpr::Const(_), x) | (x, AffineExpr::Const(_)) if is_linear(x)),
        _ => false,
    }
}
