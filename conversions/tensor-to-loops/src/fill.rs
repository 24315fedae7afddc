//! A fill of a reduction's output run in the reduction's accumulators: the
//! generic just before a product or a vectorized reduction (a depthwise
//! conv) that writes its output with a bias broadcast over rows or columns,
//! or one scalar, is not lowered on its own; the reduction's accumulators
//! start from the fill's values in registers. Without it the output is
//! written once by the fill and read back by every tile: a 1x1 conv making
//! 4.8 MB of MobileNetV2's 112x112 maps spent a quarter of its time in its
//! bias fill.

use super::vectorize::{lane_elem, uses_dim};
use super::B;
use ir::affine::AffineExpr;
use ir::{Body, InsertPoint, OpId, Value};
use tensor::{Generic, Iterator};

/// The generic just before a reduction that only fills its output.
pub struct Fill {
    pub op: OpId,
    source: FillSource,
    /// The contraction's loop that runs as each of the fill's loops.
    loops: Vec<usize>,
}

enum FillSource {
    /// An input read at the fill's map (along the output's last dim at unit
    /// stride, or not along it at all).
    Input(Value, ir::affine::AffineMap),
    /// A value defined outside the fill (a zero).
    Scalar(Value),
}

/// The [`Fill`] of reduction `op`, if the op before it is one: all loops
/// parallel, a body that yields an input or an outside value, and an output
/// map that is `op`'s, loop for loop of the same sizes (so `op`
/// writes every element the fill wrote: the whole output, or the interior of
/// a padded buffer, `fold-pad-into-producer`).
pub(super) fn fusable_fill(body: &Body, op: OpId) -> Option<Fill> {
    // `insert-profiling`'s calls between the two do not count: the fill's
    // work is then timed with the contraction's node.
    let mut prev = body.prev_op(op)?;
    while body.name(prev).as_str() == func::ops::CALL && body.op(prev).attr("callee").and_then(|c| c.as_symbol()).is_some_and(|s| [crate::insert_profiling::ENTER, crate::insert_profiling::EXIT].contains(&s[0].as_str())) {
        prev = body.prev_op(prev)?;
    }
    if body.name(prev).as_str() != tensor::ops::GENERIC {
        return None;
    }
    let (g, f) = (Generic::new(body, op), Generic::new(body, prev));
    let out = *g.outputs().first()?;
    let (fmaps, fiters, fsizes, gsizes) = (f.maps(), f.iterators(), f.loop_sizes(), g.loop_sizes());
    let n = fiters.len();
    if f.outputs() != [out] || f.epilogue().is_some() || fiters.iter().any(|i| *i != Iterator::Parallel) {
        return None;
    }
    // Nothing either op reads may be the output's buffer: the fill's values
    // never reach memory.
    let root = super::root_buffer(body, out);
    if f.inputs().iter().chain(g.inputs()).any(|v| super::root_buffer(body, *v) == root) {
        return None;
    }
    let (fm, cm) = (fmaps.last()?, &g.maps()[g.inputs().len()]);
    if fm.results.len() != cm.results.len() {
        return None;
    }
    // Loop for loop: each of the fill's loops is one of `op`'s, no loop of
    // either used twice, and every parallel loop of `op` indexes the output
    // (so `op` writes each element the fill wrote once, accumulating in place).
    let mut loops = vec![None; n];
    let mut used = vec![false; gsizes.len()];
    for (fe, ce) in fm.results.iter().zip(&cm.results) {
        let ((fd, fc), (gd, gc)) = (fe.dim_plus_const()?, ce.dim_plus_const()?);
        let (fd, gd) = (fd as usize, gd as usize);
        if fc != gc || fsizes[fd].is_none() || fsizes[fd] != gsizes[gd] || loops[fd].is_some() || used[gd] {
            return None;
        }
        loops[fd] = Some(gd);
        used[gd] = true;
    }
    if g.iterators().iter().enumerate().any(|(l, it)| *it == Iterator::Parallel && !used[l]) {
        return None;
    }
    let loops: Vec<usize> = loops.into_iter().collect::<Option<_>>()?;
    let ops: Vec<OpId> = body.block_ops(f.block()).collect();
    let [y] = ops[..] else { return None };
    let [v] = body.op(y).operands()[..] else { return None };
    let elem = lane_elem(body.value_type(out))?;
    let args = body.block_args(f.block());
    let source = match args.iter().position(|a| *a == v) {
        Some(k) if k < f.inputs().len() => {
            let (x, m) = (f.inputs()[k], fmaps[k].clone());
            // The fill's loop that is `op`'s vector loop j, its output's last index.
            let (_, gj) = cm.results.last()?.dim_plus_const()?;
            let fj = loops.iter().position(|&l| l == gj as usize)?;
            let along = m.results.iter().any(|e| uses_dim(e, fj));
            let contiguous = m.results.last() == Some(&AffineExpr::Dim(fj as u32)) && !m.results[..m.results.len() - 1].iter().any(|e| uses_dim(e, fj));
            if (along && !contiguous) || lane_elem(body.value_type(x)) != Some(elem) {
                return None;
            }
            FillSource::Input(x, m)
        }
        Some(_) => return None,
        None if body.value_type(v) == &elem => FillSource::Scalar(v),
        None => return None,
    };
    Some(Fill { op: prev, source, loops })
}

impl Fill {
    /// The fill's vector at `op`'s loop indices `ivs` (lanes along its loop
    /// `j`, `mask` of them).
    pub(super) fn init(&self, b: &B, body: &mut Body, at: &mut InsertPoint, ivs: &[Value], j: usize, mask: Value, zero: Value, vt: &ir::Type) -> Value {
        let o = match &self.source {
            FillSource::Scalar(v) => b.op(body, at, vector::ops::BROADCAST, &[*v], &[vt.clone()], &[]),
            FillSource::Input(x, m) => {
                let fivs: Vec<Value> = self.loops.iter().map(|&l| ivs[l]).collect();
                let xi: Vec<Value> = m.results.iter().map(|e| b.expr(body, at, e, &fivs)).collect();
                let fj = self.loops.iter().position(|&l| l == j).expect("checked in fusable_fill");
                if m.results.iter().any(|e| uses_dim(e, fj)) {
                    let mut ops = vec![*x];
                    ops.extend(xi);
                    ops.extend([mask, zero]);
                    b.op(body, at, vector::ops::MASKEDLOAD, &ops, &[vt.clone()], &[])
                } else {
                    let s = b.load(body, at, *x, &xi);
                    b.op(body, at, vector::ops::BROADCAST, &[s], &[vt.clone()], &[])
                }
            }
        };
        body.op(o).result(0)
    }
}
