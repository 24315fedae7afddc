//! Data movement that moves nothing. A slice whose elements follow one
//! another in DRAM (rows of an NHWC map of one image, images of a batch) is
//! its input at an offset, and a concatenation along such a dim is written
//! in place: each piece's producer stores its result where the piece lies in
//! the whole. No DMA layer and no fence; the row bands of `bands.rs` and the
//! images of `batch.rs` read and write their maps where they are.

use super::movement::dense as strides;
use super::shape;
use ir::{Body, OpId, Value};

fn elem_bytes(body: &Body, v: Value) -> Option<i64> {
    body.value_type(v).element_type().and_then(ir::attributes::element_bytes).map(|b| b as i64)
}

/// The byte offset of an `npu.slice` in its input when its elements are one
/// contiguous run there: steps of one, the dims after the first cut whole,
/// the dims before it of one element. Not for the input of a conv of few
/// channels (`Geom::packed`: its DMAs read each element once per horizontal
/// tap, so it reads a copy on chip rather than DRAM), `lanes` wide.
pub fn slice_offset(body: &Body, op: OpId, lanes: i64) -> Option<i64> {
    let o = body.op(op);
    let packed = |u: &ir::body::Use| body.name(u.op).as_str() == npu::ops::CONV && super::tiling::geometry(body, u.op, lanes).packed();
    if body.uses(o.result(0)).iter().any(packed) {
        return None;
    }
    let (x, y) = (shape(body, o.operand(0)), shape(body, o.result(0)));
    let (off, steps) = (o.ints_attr("offsets")?, o.ints_attr("steps")?);
    if x.len() != y.len() || off.len() != x.len() || steps.iter().any(|s| *s != 1) {
        return None;
    }
    let cut = (0..x.len()).find(|d| y[*d] != x[*d]).unwrap_or(x.len());
    let whole_after = (cut + 1..x.len()).all(|d| off[d] == 0 && y[d] == x[d]);
    let ones_before = (0..cut).all(|d| y[d] == 1);
    if !whole_after || !ones_before {
        return None;
    }
    let s = strides(&x);
    Some(off.iter().zip(&s).map(|(a, b)| a * b).sum::<i64>() * elem_bytes(body, o.result(0))?)
}

/// The pieces of an `npu.concat` and their byte offsets in its result when
/// each is a contiguous run of it (the dims before the axis of one element)
/// and each is the one use of a value a kernel computes (not a view, an
/// argument, or another concatenation written in place), so that kernel can
/// store it there.
pub fn concat_pieces(body: &Body, op: OpId) -> Option<Vec<(Value, i64)>> {
    let o = body.op(op);
    let y = shape(body, o.result(0));
    let axis = o.int_attr("axis")? as usize;
    if axis >= y.len() || y[..axis].iter().any(|d| *d != 1) {
        return None;
    }
    let bytes = elem_bytes(body, o.result(0))?;
    let row = strides(&y)[axis] * bytes;
    let mut at = 0;
    let mut out = vec![];
    for (k, v) in o.operands().iter().enumerate() {
        let d = body.defining_op(*v)?;
        let writes = matches!(body.name(d).as_str(), npu::ops::CONV | npu::ops::ELTWISE | npu::ops::ACT | npu::ops::POOL);
        let once = body.uses(*v).len() == 1 && !o.operands()[..k].contains(v);
        if !writes || !once || body.op(d).results().len() != 1 {
            return None;
        }
        out.push((*v, at * row));
        at += shape(body, *v).get(axis).copied()?;
    }
    (at == y[axis]).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::strides;

    #[test]
    fn row_major() {
        assert_eq!(strides(&[1, 4, 5, 3]), vec![60, 15, 3, 1]);
        assert_eq!(strides(&[]), Vec::<i64>::new());
    }
}
