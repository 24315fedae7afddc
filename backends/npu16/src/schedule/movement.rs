//! Data movement on the DMA engines alone: slices, concatenations,
//! nearest-neighbour upsampling and transposes are strided copies DRAM →
//! accumulator → DRAM. A copy is described by views (an offset and a stride
//! per dim) of its source and destinations; dims contiguous in every view
//! merge, the innermost contiguous run goes into the lanes of a row, and
//! where no run is contiguous (a transpose of the innermost dim) each
//! element is a row of its own.

use onnx::ops;
use super::pipeline::{self, Release, Step};
use super::{shape, Dram, Layer};
use ir::{Body, OpId};
use npu::asm::Inst;

/// Where the elements of a copy live: `offset + Σ index·stride` (in elements).
#[derive(Clone)]
struct View {
    offset: i64,
    strides: Vec<i64>,
}

/// Row-major strides of `shape`, in elements.
pub(super) fn dense(shape: &[i64]) -> Vec<i64> {
    let mut s = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1];
    }
    s
}

/// One DMA block: `rows` rows of `cols` elements, loaded from `src` and stored to every `dsts`.
struct Block {
    rows: i64,
    cols: i64,
    src: (i64, i64),
    dsts: Vec<(i64, i64)>,
}

/// The blocks of a copy of `shape` from `src` to each of `dsts` (rows at most `max_rows`).
fn blocks(shape: &[i64], src: &View, dsts: &[View], lanes: i64, max_rows: i64) -> Vec<Block> {
    // Dims: (length, source stride, destination strides); unit dims go, contiguous neighbours merge.
    let mut dims: Vec<(i64, i64, Vec<i64>)> = (0..shape.len()).filter(|d| shape[*d] != 1).map(|d| (shape[d], src.strides[d], dsts.iter().map(|v| v.strides[d]).collect())).collect();
    let mut i = dims.len();
    while i > 1 {
        i -= 1;
        let (n, s, ds) = dims[i].clone();
        let outer = &dims[i - 1];
        if outer.1 == s * n && outer.2.iter().zip(&ds).all(|(o, d)| *o == d * n) {
            dims[i - 1] = (outer.0 * n, s, ds);
            dims.remove(i);
        }
    }
    if dims.is_empty() {
        dims.push((1, 1, vec![1; dsts.len()]));
    }
    // The innermost dim: contiguous everywhere → lanes (split into rows of `lanes` when longer), else one element per row.
    let (n, s, ds) = dims.pop().unwrap();
    let contiguous = s == 1 && ds.iter().all(|d| *d == 1);
    let mut runs: Vec<(i64, i64, i64, i64, Vec<i64>, i64)> = vec![]; // (rows, cols, extra src offset, src row stride, dst row strides, extra dst offset index)
    // Rows go down the longest other dim (the fewest DMAs; ties: the innermost).
    let longest = (0..dims.len()).rev().max_by_key(|i| (dims[*i].0, *i));
    let row_dim = if contiguous && n <= lanes { longest.map(|i| dims.remove(i)) } else { None };
    // A contiguous run longer than a row, under a dim of many rows: per piece
    // of `lanes`, one DMA down that dim (an attention head of 20 values split
    // per token: 2 DMAs of T rows, not 2·T of one row), when that is fewer DMAs.
    let (chunks, rem) = ((n + lanes - 1) / lanes, n % lanes);
    let down = contiguous && n > lanes && longest.is_some_and(|i| chunks < dims[i].0 * (1 + (rem != 0) as i64));
    if down {
        let (r, rs, rds) = dims.remove(longest.unwrap());
        for c in 0..chunks {
            runs.push((r, lanes.min(n - c * lanes), c * lanes, rs, rds.clone(), c * lanes));
        }
    } else if contiguous && n > lanes {
        let full = n / lanes;
        runs.push((full, lanes, 0, lanes, vec![lanes; dsts.len()], 0));
        if n % lanes != 0 {
            runs.push((1, n % lanes, full * lanes, lanes, vec![lanes; dsts.len()], full * lanes));
        }
    } else if contiguous {
        let (rows, rs, rds) = row_dim.unwrap_or((1, n, vec![n; dsts.len()]));
        runs.push((rows, n, 0, rs, rds, 0));
    } else {
        runs.push((n, 1, 0, s, ds.clone(), 0));
    }
    // Every index of the remaining outer dims.
    let mut out = vec![];
    let total: i64 = dims.iter().map(|d| d.0).product();
    for k in 0..total {
        let (mut so, mut dof) = (src.offset, dsts.iter().map(|v| v.offset).collect::<Vec<_>>());
        let mut rest = k;
        for (len, st, dst) in dims.iter().rev() {
            let idx = rest % len;
            rest /= len;
            so += idx * st;
            for (o, d) in dof.iter_mut().zip(dst) {
                *o += idx * d;
            }
        }
        for (rows, cols, sx, rs, rds, dx) in &runs {
            let mut r0 = 0;
            while r0 < *rows {
                let cnt = max_rows.min(rows - r0);
                out.push(Block { rows: cnt, cols: *cols, src: (so + sx + r0 * rs, *rs), dsts: dof.iter().zip(rds).map(|(o, d)| (o + dx + r0 * d, *d)).collect() });
                r0 += cnt;
            }
        }
    }
    out
}

/// Element type of a copy: f32 through two accumulator slots, int8 through two scratchpad slots.
#[derive(Clone, Copy, PartialEq)]
enum Elem {
    F32,
    I8,
}

impl Elem {
    fn of(body: &Body, v: ir::Value) -> Result<Elem, String> {
        match body.value_type(v).element_type().map(|e| e.to_string()).as_deref() {
            Some("f32") => Ok(Elem::F32),
            Some("i8") => Ok(Elem::I8),
            _ => Err("data movement of f32 or int8 tensors only".into()),
        }
    }
    /// Rows of one of the two slots a copy goes through.
    fn slot(self, hw: &npu::hw::HwDesc) -> i64 {
        (if self == Elem::I8 { hw.spad_rows } else { hw.acc_rows } as i64 / 2).max(1)
    }
}

/// Emits `blocks` as load/store steps through two slots (see [`Elem`]).
fn emit_copies(l: &mut Layer, src: &Dram, dsts: &[Dram], blocks: Vec<Block>, slot: i64, elem: Elem) {
    let (load, store, dt, eb) = match elem {
        Elem::F32 => ("dma.loadacc", "dma.storeacc", "f32", 4),
        Elem::I8 => ("dma.load", "dma.store", "i8", 1),
    };
    let dma = |m: &'static str, at: i64, d: &Dram, (off, stride): (i64, i64), b: &Block| {
        let i = Inst::new(m, Some(dt));
        let i = if m == load { i.i("dst", at).with("src", d.at(off * eb)) } else { i.with("dst", d.at(off * eb)).i("src", at) };
        let i = i.i("rows", b.rows).i("cols", b.cols);
        if b.rows > 1 { i.i("stride", stride * eb) } else { i }
    };
    for k in 0..2 {
        let name = format!("rows.{}", k);
        l.buffers.push(if elem == Elem::I8 { npu::asm::Buffer::spad(&name, k * slot, slot, "i8") } else { npu::asm::Buffer::acc(&name, k * slot, slot, "f32") });
    }
    let mut steps = vec![];
    let mut cur = Step::default();
    let (mut used, mut t) = (0, 0);
    for b in blocks {
        if used + b.rows > slot {
            steps.push(std::mem::take(&mut cur));
            t += 1;
            used = 0;
        }
        let acc = (t % 2) * slot + used;
        if cur.loads.is_empty() {
            cur.loads.push((0, vec![]));
        }
        cur.loads[0].1.push(dma(load, acc, src, b.src, &b));
        for (d, at) in dsts.iter().zip(&b.dsts) {
            cur.stores.push(dma(store, acc, d, *at, &b));
        }
        used += b.rows;
    }
    if !cur.loads.is_empty() {
        steps.push(cur);
    }
    pipeline::emit(l.out, vec![], steps, &[Release::Store], false);
}

/// The constant operands of a concatenation live in the constant image (f32 ones: an int8 one has no scale here).
fn operand_dram(l: &mut Layer, body: &Body, v: ir::Value, ins: &mut std::slice::Iter<Dram>) -> Result<Dram, String> {
    if body.defining_op(v).is_some_and(|d| body.name(d).as_str() == ops::Constant::NAME) && Elem::of(body, v)? == Elem::I8 {
        return Err("an int8 constant operand".into());
    }
    match super::push_constant(l.consts, body, v) {
        Ok(d) => Ok(d),
        Err(_) => ins.next().cloned().ok_or_else(|| "operand not in DRAM".to_string()),
    }
}

/// A copy of a whole tensor `v` (a partition result that is its argument, reshaped).
pub fn copy(l: &mut Layer, body: &Body, v: ir::Value, src: &Dram, dst: &Dram) -> Result<(), String> {
    let (shape, elem) = (shape(body, v), Elem::of(body, v)?);
    let slot = elem.slot(l.hw);
    let view = View { offset: 0, strides: dense(&shape) };
    let b = blocks(&shape, &view, std::slice::from_ref(&view), super::conv::lanes_of(l.hw), slot);
    emit_copies(l, src, &[dst.clone()], b, slot, elem);
    Ok(())
}

/// `npu.slice`, `npu.concat`, `npu.upsample`, `npu.pad` and a transpose that moves data.
pub fn emit(l: &mut Layer, body: &Body, op: OpId, ins: &[Dram], out: &Dram) -> Result<(), String> {
    let o = body.op(op);
    let elem = Elem::of(body, o.result(0))?;
    let lanes = super::conv::lanes_of(l.hw);
    let slot = elem.slot(l.hw);
    let y = shape(body, o.result(0));
    let ints = |n: &str| body.op(op).ints_attr(n).ok_or_else(|| format!("no {}", n));
    let mut it = ins.iter();
    match body.name(op).as_str() {
        npu::ops::SLICE => {
            let x = shape(body, o.operand(0));
            let (off, steps) = (ints("offsets")?, ints("steps")?);
            let xs = dense(&x);
            let src = operand_dram(l, body, o.operand(0), &mut it)?;
            let sv = View { offset: off.iter().zip(&xs).map(|(a, b)| a * b).sum(), strides: xs.iter().zip(&steps).map(|(a, b)| a * b).collect() };
            let dv = View { offset: 0, strides: dense(&y) };
            let b = blocks(&y, &sv, &[dv], lanes, slot);
            emit_copies(l, &src, &[out.clone()], b, slot, elem);
        }
        ops::Transpose::NAME => {
            let x = shape(body, o.operand(0));
            let perm = ints("perm")?;
            let xs = dense(&x);
            let src = operand_dram(l, body, o.operand(0), &mut it)?;
            let sv = View { offset: 0, strides: perm.iter().map(|p| xs[*p as usize]).collect() };
            let dv = View { offset: 0, strides: dense(&y) };
            let b = blocks(&y, &sv, &[dv], lanes, slot);
            emit_copies(l, &src, &[out.clone()], b, slot, elem);
        }
        npu::ops::CONCAT => {
            let axis = o.attr("axis").and_then(|a| a.as_int()).ok_or("no axis")? as usize;
            let ys = dense(&y);
            let mut at = 0;
            for v in o.operands().to_vec() {
                let x = shape(body, v);
                let src = operand_dram(l, body, v, &mut it)?;
                let sv = View { offset: 0, strides: dense(&x) };
                let dv = View { offset: at * ys[axis], strides: ys.clone() };
                let b = blocks(&x, &sv, &[dv], lanes, slot);
                emit_copies(l, &src, &[out.clone()], b, slot, elem);
                at += x[axis];
            }
        }
        npu::ops::UPSAMPLE => {
            let x = shape(body, o.operand(0));
            let f = ints("factors")?;
            let ys = dense(&y);
            let src = operand_dram(l, body, o.operand(0), &mut it)?;
            let sv = View { offset: 0, strides: dense(&x) };
            // Each input pixel goes to fh·fw places: one view per (dy, dx).
            let mut dsts = vec![];
            for dy in 0..f[0] {
                for dx in 0..f[1] {
                    dsts.push(View { offset: dy * ys[1] + dx * ys[2], strides: vec![ys[0], ys[1] * f[0], ys[2] * f[1], ys[3]] });
                }
            }
            let b = blocks(&x, &sv, &dsts, lanes, slot);
            let outs = vec![out.clone(); dsts.len()];
            emit_copies(l, &src, &outs, b, slot, elem);
        }
        npu::ops::PAD => {
            if elem == Elem::I8 {
                return Err("int8 padding (its value would be the zero point)".into());
            }
            let x = shape(body, o.operand(0));
            let p = ints("pads")?;
            let value = o.float_attr("value").unwrap_or(0.0) as f32;
            let (r, ys) = (x.len(), dense(&y));
            let corner: i64 = (0..r).map(|d| p[d] * ys[d]).sum();
            let src = operand_dram(l, body, o.operand(0), &mut it)?;
            let b = blocks(&x, &View { offset: 0, strides: dense(&x) }, &[View { offset: corner, strides: ys.clone() }], lanes, slot);
            emit_copies(l, &src, &[out.clone()], b, slot, elem);
            // The border as boxes that tile it: along dim d, the padding before
            // and after, within the input's extent in the dims before d.
            let mut boxes = vec![];
            for d in 0..r {
                for (start, len) in [(0, p[d]), (p[d] + x[d], p[r + d])] {
                    if len > 0 {
                        let dims: Vec<i64> = (0..r).map(|k| if k < d { x[k] } else if k == d { len } else { y[k] }).collect();
                        let offset: i64 = (0..d).map(|k| p[k] * ys[k]).sum::<i64>() + start * ys[d];
                        boxes.push((dims, offset));
                    }
                }
            }
            // One table of the value, as large as the largest box, read by each.
            let most = boxes.iter().map(|(dims, _)| dims.iter().product::<i64>()).max().unwrap_or(0);
            if most > 0 {
                let fill = l.consts.push(&vec![value; most as usize]);
                for (dims, offset) in boxes {
                    let b = blocks(&dims, &View { offset: 0, strides: dense(&dims) }, &[View { offset, strides: ys.clone() }], lanes, slot);
                    emit_copies(l, &fill, &[out.clone()], b, slot, elem);
                }
            }
        }
        n => return Err(format!("'{}' is not data movement", n)),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(strides: &[i64]) -> View {
        View { offset: 0, strides: strides.to_vec() }
    }

    /// Every element of a copy is moved exactly once per destination, to the right place.
    fn check(shape: &[i64], src: &View, dst: &View) {
        let b = blocks(shape, src, std::slice::from_ref(dst), 16, 7);
        let mut moved = std::collections::HashMap::new();
        for b in &b {
            assert!(b.cols <= 16 && b.rows <= 7);
            for r in 0..b.rows {
                for c in 0..b.cols {
                    let s = b.src.0 + r * b.src.1 + c;
                    let d = b.dsts[0].0 + r * b.dsts[0].1 + c;
                    assert!(moved.insert(d, s).is_none(), "destination {} written twice", d);
                }
            }
        }
        let n: i64 = shape.iter().product();
        assert_eq!(moved.len() as i64, n);
        for k in 0..n {
            let (mut rest, mut s, mut d) = (k, src.offset, dst.offset);
            for i in (0..shape.len()).rev() {
                let idx = rest % shape[i];
                rest /= shape[i];
                s += idx * src.strides[i];
                d += idx * dst.strides[i];
            }
            assert_eq!(moved.get(&d), Some(&s), "element {}", k);
        }
    }

    #[test]
    fn copies_move_every_element_once() {
        // Contiguous (merged into rows of 16 and a tail), a transpose (element rows), a strided slice, a concat slot.
        check(&[1, 3, 5, 7], &view(&dense(&[1, 3, 5, 7])), &view(&dense(&[1, 3, 5, 7])));
        check(&[2, 3, 4], &view(&[1, 2, 6]), &view(&dense(&[2, 3, 4])));
        check(&[3, 4], &View { offset: 5, ..view(&[20, 2]) }, &view(&dense(&[3, 4])));
        check(&[2, 5, 3], &view(&dense(&[2, 5, 3])), &View { offset: 3, ..view(&[40, 8, 1]) });
        check(&[1, 40, 3], &view(&dense(&[1, 40, 3])), &view(&[120, 3, 1]));
        // Attention heads split and merged: rows of 10 or of 20 (a row and a piece).
        check(&[4, 20, 10], &view(&[10, 40, 1]), &view(&dense(&[4, 20, 10])));
        check(&[3, 2, 20, 20], &view(&[40, 20, 120, 1]), &view(&dense(&[3, 2, 20, 20])));
    }

    /// Moves of whole rows go down the longest dim: few DMAs, not one per row.
    #[test]
    fn rows_go_down_the_longest_dim() {
        let n = |shape: &[i64], src: &[i64]| blocks(shape, &view(src), &[view(&dense(shape))], 16, 2048).len();
        // Merging 4 heads of 20 tokens × 10 values ([1, 4, 20, 10] → [1, 20, 4, 10]): one DMA per head.
        assert_eq!(n(&[20, 4, 10], &[10, 200, 1]), 4);
        // Splitting [20, 3, 2, 20] into [3, 2, 20, 20]: per (part, head), two pieces of the 20 values down the tokens.
        assert_eq!(n(&[3, 2, 20, 20], &[40, 20, 120, 1]), 12);
        // A contiguous copy stays rows of 16 and a tail.
        assert_eq!(n(&[1, 3, 5, 7], &dense(&[1, 3, 5, 7])), 2);
    }
}
