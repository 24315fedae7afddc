//! Pools as reduction `tensor.generic`s over the kernel window: MaxPool,
//! AveragePool and LpPool (out-of-bounds positions skipped, or counted as
//! padding), GlobalAveragePool and GlobalMaxPool.

use onnx::ops;
use super::reduce::{reduce, Combine};
use super::{add, d, dims_map, expr_map, mul, Cmp, Lower, LowerFn, Sc};
use ir::affine::AffineMap;
use ir::Value;
use tensor::Iterator;
use super::conv::{pad_with, window, Window};

pub const TABLE: &[(&str, LowerFn)] = &[
    (ops::MaxPool::NAME, pool),
    (ops::AveragePool::NAME, pool),
    (ops::LpPool::NAME, pool),
    (ops::GlobalAveragePool::NAME, global_pool),
    (ops::GlobalMaxPool::NAME, global_pool),
];

/// MaxPool / AveragePool: loops (n, c, o_1..o_s | k_1..k_s); out-of-bounds
/// window positions are skipped; AveragePool also counts the positions it
/// divides by (padding included when `count_include_pad`).
fn pool(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    // MaxPool's optional Indices output: the flat position of each maximum.
    let with_indices = l.num_results() > 1 && l.body.has_uses(l.result(1));
    let storage_col = l.int_attr("storage_order", 0) != 0;
    let s = xi.rank() - 2;
    let kernel = l.ints_attr("kernel_shape").ok_or("pooling needs kernel_shape")?;
    let w = window(l, &xi.shape[2..], &out.shape[2..], kernel.clone())?;
    let is_max = l.name() == ops::MaxPool::NAME;
    let lp = (l.name() == ops::LpPool::NAME).then(|| l.int_attr("p", 2) as f64);
    let include_pad = l.int_attr("count_include_pad", 0) != 0;
    let x = l.operand(0)?;
    let sc = out.sc.clone();
    if !with_indices {
        if let Some(v) = pool_affine(l, x, &w, &kernel, &xi.shape, &out.shape, &sc, is_max, lp, include_pad)? {
            return Ok(vec![v]);
        }
    }
    let n_loops = 2 + 2 * s;
    let mut iters = vec![Iterator::Parallel; 2 + s];
    iters.extend(vec![Iterator::Reduction; s]);
    let om = dims_map(n_loops, &(0..2 + s).collect::<Vec<_>>());
    let init = l.fill(&out.shape, &sc, if is_max { super::reduce::identity(Combine::Max, &sc) } else { 0.0 });
    let cnt = l.fill(&out.shape, &sc, 0.0);
    let xs = xi.shape.clone();
    let isc64 = Sc { ty: l.ctx.i64(), kind: super::Kind::Signed };
    let outs: Vec<Value> = if is_max && !with_indices {
        vec![init]
    } else if is_max {
        vec![init, l.fill(&out.shape, &isc64, 0.0)]
    } else {
        vec![init, cnt]
    };
    let maps = if outs.len() == 1 { vec![om] } else { vec![om.clone(), om] };
    let sc_body = sc.clone();
    let mut ranges = out.shape.clone();
    ranges.extend(&kernel);
    let r = l.generic_ranged(&[], &outs, maps, &iters, Some(ranges), move |e, a| {
        let sc = sc_body;
        let it = e.ctx.index();
        let i1 = e.ctx.i1();
        let isc = Sc { ty: it.clone(), kind: super::Kind::Signed };
        let mut at = vec![e.loop_index(0), e.loop_index(1)];
        let mut inb: Option<Value> = None;
        let mut counted: Option<Value> = None;
        for i in 0..s {
            let o = e.loop_index(2 + i);
            let k = e.loop_index(2 + s + i);
            let sv = e.index(w.strides[i]);
            let dv = e.index(w.dilations[i]);
            let pb = e.index(w.before[i]);
            let os = e.op(arith::ops::MULI, &[o, sv], &it);
            let kd = e.op(arith::ops::MULI, &[k, dv], &it);
            let p = e.op(arith::ops::ADDI, &[os, kd], &it);
            let p = e.op(arith::ops::SUBI, &[p, pb], &it);
            let zero = e.index(0);
            let n = e.index(xs[2 + i]);
            let ge = e.cmp(Cmp::Ge, p, zero, &isc);
            let lt = e.cmp(Cmp::Lt, p, n, &isc);
            let ok = e.op(arith::ops::ANDI, &[ge, lt], &i1);
            inb = Some(match inb {
                None => ok,
                Some(q) => e.op(arith::ops::ANDI, &[q, ok], &i1),
            });
            if include_pad {
                let lo = e.index(-w.before[i]);
                let hi = e.index(xs[2 + i] + w.after[i]);
                let ge = e.cmp(Cmp::Ge, p, lo, &isc);
                let lt = e.cmp(Cmp::Lt, p, hi, &isc);
                let okp = e.op(arith::ops::ANDI, &[ge, lt], &i1);
                counted = Some(match counted {
                    None => okp,
                    Some(q) => e.op(arith::ops::ANDI, &[q, okp], &i1),
                });
            }
            let m = e.index(xs[2 + i] - 1);
            let p = e.op(arith::ops::MAXSI, &[p, zero], &it);
            let p = e.op(arith::ops::MINSI, &[p, m], &it);
            at.push(p);
        }
        let inb = inb.unwrap();
        let at_copy = at.clone();
        let mut ops = vec![x];
        ops.extend(at);
        let v = e.op(tensor::ops::EXTRACT, &ops, &sc.ty);
        if let Some(p) = lp {
            let av = e.op(math::ops::ABSF, &[v], &sc.ty);
            let pv = e.scalar(p, &sc);
            let t = e.op(math::ops::POWF, &[av, pv], &sc.ty);
            let sum = e.add(a[0], t, &sc);
            vec![e.select(inb, sum, a[0]), a[1]]
        } else if is_max && with_indices {
            // Flat index of the element read, row- or column-major in the spatial dims.
            let it = e.ctx.index();
            let mut flat = at_copy[0];
            let dims: Vec<usize> = if storage_col { std::iter::once(1).chain((2..2 + s).rev()).collect() } else { (1..2 + s).collect() };
            for dd in dims {
                let size = e.index(xs[dd]);
                let f = e.op(arith::ops::MULI, &[flat, size], &it);
                flat = e.op(arith::ops::ADDI, &[f, at_copy[dd]], &it);
            }
            let i64t = e.ctx.i64();
            let flat = e.index_cast(flat, &i64t, false);
            let gt = e.cmp(Cmp::Gt, v, a[0], &sc);
            let take = e.op(arith::ops::ANDI, &[inb, gt], &e.ctx.i1());
            vec![e.select(take, v, a[0]), e.select(take, flat, a[1])]
        } else if is_max {
            let m = e.max(a[0], v, &sc);
            vec![e.select(inb, m, a[0])]
        } else {
            let sum = e.add(a[0], v, &sc);
            let sum = e.select(inb, sum, a[0]);
            let one = e.scalar(1.0, &sc);
            let c1 = e.add(a[1], one, &sc);
            let counted = counted.unwrap_or(inb);
            vec![sum, e.select(counted, c1, a[1])]
        }
    });
    if is_max {
        return Ok(r);
    }
    let id = AffineMap::identity(out.rank() as u32);
    let s2 = sc.clone();
    if let Some(p) = lp {
        return Ok(vec![l.map_op(&out.shape, &sc.ty.clone(), &[r[0]], vec![id], move |e, a| {
            let inv = e.scalar(1.0 / p, &s2);
            e.op(math::ops::POWF, &[a[0], inv], &s2.ty)
        })]);
    }
    Ok(vec![l.map_op(&out.shape, &sc.ty.clone(), &[r[0], r[1]], vec![id.clone(), id], move |e, a| e.div(a[0], a[1], &s2))])
}

/// Pooling whose every window has the same number of counted elements, as a
/// reduction with affine maps: the input padded once with the reduction's
/// identity (−inf for max, 0 for sums), read at `o·stride + k·dilation`
/// without a bounds test. `None` when windows differ (average pooling that
/// excludes padding at the borders, or ceil-mode overhang): the general path.
#[allow(clippy::too_many_arguments)]
fn pool_affine(l: &mut Lower, x: Value, w: &Window, kernel: &[i64], xs: &[i64], os: &[i64], sc: &Sc, is_max: bool, lp: Option<f64>, include_pad: bool) -> Result<Option<Value>, String> {
    let s = kernel.len();
    // Padding needed at the end so the last window fits (ceil mode), per dim.
    let mut extra = vec![0i64; s];
    for i in 0..s {
        let reach = (os[2 + i] - 1) * w.strides[i] + (kernel[i] - 1) * w.dilations[i] + 1;
        extra[i] = (reach - (xs[2 + i] + w.before[i] + w.after[i])).max(0);
    }
    let padded = w.before.iter().chain(&w.after).any(|&p| p > 0);
    let uniform = is_max || ((include_pad || !padded) && extra.iter().all(|&e| e == 0));
    if !uniform || !sc.is_float() {
        return Ok(None);
    }
    let ident = if is_max { super::reduce::identity(Combine::Max, sc) } else { 0.0 };
    let after: Vec<i64> = (0..s).map(|i| w.after[i] + extra[i]).collect();
    let xp = pad_with(l, x, &w.before, &after, ident);
    let n_loops = 2 + 2 * s;
    let mut iters = vec![Iterator::Parallel; 2 + s];
    iters.extend(vec![Iterator::Reduction; s]);
    let mut xres = vec![d(0), d(1)];
    for i in 0..s {
        xres.push(add(mul(d(2 + i), w.strides[i]), mul(d(2 + s + i), w.dilations[i])));
    }
    let mut ranges = os.to_vec();
    ranges.extend_from_slice(kernel);
    if is_max && s == 2 {
        if let Some(acc) = separable_max(l, xp, w, kernel, os, sc, ident) {
            return Ok(Some(acc));
        }
    }
    let init = l.fill(os, sc, ident);
    let s1 = sc.clone();
    let acc = if lp.is_none() {
        let name = if is_max { tensor::ops::POOLING_NCHW_MAX } else { tensor::ops::POOLING_NCHW_SUM };
        pooling(l, name, xp, init, kernel, &w.strides, &w.dilations)
    } else {
        l.generic_ranged(&[xp], &[init], vec![expr_map(n_loops, xres), dims_map(n_loops, &(0..2 + s).collect::<Vec<_>>())], &iters, Some(ranges), move |e, a| {
        let v = match lp {
            Some(p) => {
                let av = e.op(math::ops::ABSF, &[a[0]], &s1.ty);
                let pv = e.scalar(p, &s1);
                e.op(math::ops::POWF, &[av, pv], &s1.ty)
            }
            None => a[0],
        };
        vec![if is_max { e.max(a[1], v, &s1) } else { e.add(a[1], v, &s1) }]
    })[0]
    };
    if is_max {
        return Ok(Some(acc));
    }
    let count: i64 = kernel.iter().product();
    let s2 = sc.clone();
    let id = AffineMap::identity(os.len() as u32);
    Ok(Some(l.map_op(os, &sc.ty.clone(), &[acc], vec![id], move |e, a| match lp {
        Some(p) => {
            let inv = e.scalar(1.0 / p, &s2);
            e.op(math::ops::POWF, &[a[0], inv], &s2.ty)
        }
        None => {
            let n = e.scalar(count as f64, &s2);
            e.div(a[0], n, &s2)
        }
    })))
}

/// A 2-D max pool as two, along the rows and then the columns, where that
/// reads fewer elements: the max over a window is the max over its rows of
/// each row's max, exactly. A 13×13 window over a 13×13 map (an SPP block's)
/// reads 25·13·13 + 13·13·13 elements for each channel instead of 13·13·169.
/// `None` where one pass is cheaper (a 3×3 window of stride 2).
fn separable_max(l: &mut Lower, xp: Value, w: &Window, kernel: &[i64], os: &[i64], sc: &Sc, ident: f64) -> Option<Value> {
    let (kh, kw) = (kernel[0], kernel[1]);
    if os[2..].contains(&0) {
        return None;
    }
    // The padded rows the windows reach: the first pass's rows.
    let rows = (os[2] - 1) * w.strides[0] + (kh - 1) * w.dilations[0] + 1;
    let (one_pass, two_passes) = (os[2] * os[3] * kh * kw, rows * os[3] * kw + os[2] * os[3] * kh);
    // Two passes also write and read their intermediate: worth it from a third fewer reads.
    if 3 * two_passes > 2 * one_pass {
        return None;
    }
    let pass = |l: &mut Lower, x: Value, shape: &[i64], k: [i64; 2], st: [i64; 2], dl: [i64; 2]| {
        let init = l.fill(shape, sc, ident);
        pooling(l, tensor::ops::POOLING_NCHW_MAX, x, init, &k, &st, &dl)
    };
    let along_rows = pass(l, xp, &[os[0], os[1], rows, os[3]], [1, kw], [1, w.strides[1]], [1, w.dilations[1]]);
    Some(pass(l, along_rows, os, [kh, 1], [w.strides[0], 1], [w.dilations[0], 1]))
}

/// The named pooling op `name` of `x` into `init` over a window of `kernel`.
fn pooling(l: &mut Lower, name: &str, x: Value, init: Value, kernel: &[i64], strides: &[i64], dilations: &[i64]) -> Value {
    let (k, st, dl) = (super::i64_array(l.ctx, kernel), super::i64_array(l.ctx, strides), super::i64_array(l.ctx, dilations));
    l.named(name, &[x, init], &[("kernel", k), ("strides", st), ("dilations", dl)])
}

fn global_pool(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let x = l.operand(0)?;
    let axes: Vec<usize> = (2..xi.rank()).collect();
    let sc = xi.sc.clone();
    if l.name() == ops::GlobalMaxPool::NAME {
        return Ok(vec![reduce(l, x, &axes, true, Combine::Max, &sc, |_, v| v)]);
    }
    let sum = reduce(l, x, &axes, true, Combine::Add, &sc, |_, v| v);
    let n: i64 = xi.shape[2..].iter().product();
    let s2 = sc.clone();
    Ok(vec![l.map_op(&out.shape, &sc.ty.clone(), &[sum], vec![AffineMap::identity(out.rank() as u32)], move |e, a| {
        let nv = e.scalar(n as f64, &s2);
        e.div(a[0], nv, &s2)
    })])
}
