//! RotaryEmbedding (opset 23): each element of the rotated part of a head is
//! combined with its partner (the other half, or its neighbour when
//! interleaved) through the cos/sin caches at the token's position, as ONNX's
//! reference does; one elementwise generic over the input, no transposes.

use onnx::ops;
use super::{Cmp, Emit, Kind, Lower, LowerFn, Sc};
use ir::Value;

pub const TABLE: &[(&str, LowerFn)] = &[(ops::RotaryEmbedding::NAME, rotary)];


fn rotary(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let r = xi.rank();
    let (x, cos, sin) = (l.operand(0)?, l.operand(1)?, l.operand(2)?);
    let pos = l.opt(3);
    let interleaved = l.int_attr("interleaved", 0) != 0;
    // (head size, which input dim is the token, how a feature index splits).
    let (head, heads3d) = match r {
        4 => (xi.shape[3], None),
        3 => {
            let n = l.int_attr("num_heads", 0);
            if n <= 0 || xi.shape[2] % n != 0 {
                return Err("RotaryEmbedding on 3-D input needs num_heads dividing the hidden size".into());
            }
            (xi.shape[2] / n, Some(n))
        }
        _ => return Err("RotaryEmbedding needs 3-D or 4-D input".into()),
    };
    let rot = match l.int_attr("rotary_embedding_dim", 0) {
        0 => head,
        d => d,
    };
    let half = rot / 2;
    let (xsc, csc) = (xi.sc.clone(), l.in_info(1)?.sc);
    let psc = match pos {
        Some(p) => Some(l.info(p)?.sc),
        None => None,
    };
    let seq_dim = if r == 4 { 2 } else { 1 };
    let shape = xi.shape.clone();
    Ok(vec![l.map_op(&shape, &xsc.ty.clone(), &[], vec![], move |e, _| {
        let it = e.ctx.index();
        let isc = Sc { ty: it.clone(), kind: Kind::Signed };
        let idx: Vec<Value> = (0..r).map(|i| e.loop_index(i)).collect();
        let (b, s) = (idx[0], idx[seq_dim]);
        // d: the position within the head; base: the flat index of the head's start.
        let last = idx[r - 1];
        let (dpos, head_base) = match heads3d {
            None => (last, None),
            Some(_) => {
                let hv = e.index(head);
                let dd = e.op(arith::ops::REMSI, &[last, hv], &it);
                let start = e.op(arith::ops::SUBI, &[last, dd], &it);
                (dd, Some(start))
            }
        };
        let with_d = |e: &mut Emit, dv: Value| -> Vec<Value> {
            let mut at = idx.clone();
            at[r - 1] = match head_base {
                Some(base) => e.op(arith::ops::ADDI, &[base, dv], &e.ctx.index()),
                None => dv,
            };
            at
        };
        let x_here = e.extract(x, &idx);
        // Pair index i into the caches, partner position, and whether this is the first of the pair.
        let (i, partner, first) = if interleaved {
            let two = e.index(2);
            let p = e.op(arith::ops::DIVSI, &[dpos, two], &it);
            let m = e.op(arith::ops::REMSI, &[dpos, two], &it);
            let zero = e.index(0);
            let first = e.cmp(Cmp::Eq, m, zero, &isc);
            let one = e.index(1);
            let up = e.op(arith::ops::ADDI, &[dpos, one], &it);
            let down = e.op(arith::ops::SUBI, &[dpos, one], &it);
            (p, e.select(first, up, down), first)
        } else {
            let hv = e.index(half);
            let first = e.cmp(Cmp::Lt, dpos, hv, &isc);
            let minus = e.op(arith::ops::SUBI, &[dpos, hv], &it);
            let plus = e.op(arith::ops::ADDI, &[dpos, hv], &it);
            (e.select(first, dpos, minus), e.select(first, plus, minus), first)
        };
        let rv = e.index(rot);
        let rotated = e.cmp(Cmp::Lt, dpos, rv, &isc);
        // Reads stay in bounds even where the result is not used.
        let partner = e.clamp_index(partner, head);
        let i = e.clamp_index(i, half.max(1));
        let pat = with_d(e, partner);
        let x_other = e.extract(x, &pat);
        let (cv, sv) = match (pos, &psc) {
            (Some(p), Some(ps)) => {
                let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
                let pid = e.extract(p, &[b, s]);
                let pid = e.cast(pid, ps, &i64s);
                let pid = e.index_cast(pid, &it, false);
                let n = e.body.value_type(cos).shape().unwrap()[0];
                let pid = e.clamp_index(pid, n);
                (e.extract(cos, &[pid, i]), e.extract(sin, &[pid, i]))
            }
            _ => (e.extract(cos, &[b, s, i]), e.extract(sin, &[b, s, i])),
        };
        let f = Sc { ty: e.ctx.f32(), kind: Kind::Float };
        let (xh, xo) = (e.cast(x_here, &xsc, &f), e.cast(x_other, &xsc, &f));
        let (c, sn) = (e.cast(cv, &csc, &f), e.cast(sv, &csc, &f));
        // first: x1 = here, x2 = other → cos·x1 − sin·x2; second: x1 = other, x2 = here → sin·x1 + cos·x2.
        let a = e.mul(c, xh, &f);
        let bb = e.mul(sn, xo, &f);
        let real = e.sub(a, bb, &f);
        let p = e.mul(sn, xo, &f);
        let q = e.mul(c, xh, &f);
        let imag = e.add(p, q, &f);
        let y = e.select(first, real, imag);
        let y = e.cast(y, &f, &xsc);
        e.select(rotated, y, x_here)
    })])
}
