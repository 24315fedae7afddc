//! Normalizations and softmax as reductions followed by an elementwise step:
//! BatchNormalization (inference and training), Instance-, Group-, Layer-,
//! RMS-, MeanVariance- and Lp-normalization, LRN, Softmax, LogSoftmax, Hardmax.

use onnx::ops;
use super::reduce::{out_map, reduce, reduced_shape, Combine};
use super::{add, axis, broadcast_map, c, d, dims_map, expr_map, Cmp, Lower, LowerFn, Sc, TInfo};
use ir::affine::{AffineExpr, AffineMap};
use ir::Value;
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[
    (ops::BatchNormalization::NAME, batch_norm),
    (ops::InstanceNormalization::NAME, instance_norm),
    (ops::GroupNormalization::NAME, group_norm),
    (ops::MeanVarianceNormalization::NAME, mean_variance_norm),
    (ops::LayerNormalization::NAME, layer_norm),
    (ops::Softmax::NAME, softmax),
    (ops::LogSoftmax::NAME, softmax),
    (ops::Hardmax::NAME, softmax),
    (ops::RMSNormalization::NAME, rms_norm),
    (ops::LRN::NAME, lrn),
    (ops::LpNormalization::NAME, lp_norm),
];

fn batch_norm(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    if l.int_attr("training_mode", 0) != 0 {
        return batch_norm_training(l);
    }
    let eps = l.float_attr("epsilon", 1e-5);
    let r = xi.rank();
    let ins: Vec<Value> = (0..5).map(|i| l.operand(i)).collect::<Result<_, _>>()?;
    let scs: Vec<Sc> = (0..5).map(|i| l.in_info(i).map(|t| t.sc)).collect::<Result<_, _>>()?;
    let ch = if r >= 2 { vec![1] } else { vec![] };
    let cmap = dims_map(r, &ch);
    let maps = vec![AffineMap::identity(r as u32), cmap.clone(), cmap.clone(), cmap.clone(), cmap];
    let sc = xi.sc.clone();
    Ok(vec![l.map_op(&xi.shape, &sc.ty.clone(), &ins, maps, move |e, a| {
        let v: Vec<Value> = (0..5).map(|i| e.cast(a[i], &scs[i], &sc)).collect();
        let ep = e.scalar(eps, &sc);
        let var = e.add(v[4], ep, &sc);
        let sd = e.op(math::ops::SQRT, &[var], &sc.ty);
        let xm = e.sub(v[0], v[3], &sc);
        let n = e.div(xm, sd, &sc);
        let y = e.mul(n, v[1], &sc);
        e.add(y, v[2], &sc)
    })])
}

/// Training mode: normalize with the batch's statistics (over every axis but
/// the channels) and return the updated running mean and variance,
/// `running = input · momentum + current · (1 − momentum)`.
fn batch_norm_training(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let (eps, momentum) = (l.float_attr("epsilon", 1e-5), l.float_attr("momentum", 0.9));
    let r = xi.rank();
    let sc = xi.sc.clone();
    if !sc.is_float() || r < 2 {
        return Err("BatchNormalization training needs a float input of rank 2 or more".into());
    }
    let x = l.operand(0)?;
    let axes: Vec<usize> = (0..r).filter(|&a| a != 1).collect();
    let (mean, inv) = moments(l, x, &axes, eps, &sc);
    let c = xi.shape[1];
    let mean_c = super::shape::reshape(l, mean, &[c]);
    let inv_c = super::shape::reshape(l, inv, &[c]);
    let (scale, bias, in_mean, in_var) = (l.operand(1)?, l.operand(2)?, l.operand(3)?, l.operand(4)?);
    let cm = dims_map(r, &[1]);
    let s1 = sc.clone();
    let y = l.map_op(&xi.shape, &sc.ty.clone(), &[x, mean_c, inv_c, scale, bias], vec![AffineMap::identity(r as u32), cm.clone(), cm.clone(), cm.clone(), cm], move |e, a| {
        let d = e.sub(a[0], a[1], &s1);
        let n = e.mul(d, a[2], &s1);
        let y = e.mul(n, a[3], &s1);
        e.add(y, a[4], &s1)
    });
    let mut res = vec![y];
    if l.num_results() > 1 {
        // var = 1/inv^2 - eps.
        let id = AffineMap::identity(1);
        let (s2, s3) = (sc.clone(), sc.clone());
        let rm = l.map_op(&[c], &sc.ty.clone(), &[in_mean, mean_c], vec![id.clone(), id.clone()], move |e, a| {
            let m = e.scalar(momentum, &s2);
            let om = e.scalar(1.0 - momentum, &s2);
            let p = e.mul(a[0], m, &s2);
            let q = e.mul(a[1], om, &s2);
            e.add(p, q, &s2)
        });
        let rv = l.map_op(&[c], &sc.ty.clone(), &[in_var, inv_c], vec![id.clone(), id], move |e, a| {
            let one = e.scalar(1.0, &s3);
            let sd = e.div(one, a[1], &s3);
            let var = e.mul(sd, sd, &s3);
            let ep = e.scalar(eps, &s3);
            let var = e.sub(var, ep, &s3);
            let m = e.scalar(momentum, &s3);
            let om = e.scalar(1.0 - momentum, &s3);
            let p = e.mul(a[0], m, &s3);
            let q = e.mul(var, om, &s3);
            e.add(p, q, &s3)
        });
        res.push(rm);
        res.push(rv);
    }
    Ok(res)
}

/// Mean and 1/sqrt(var + eps) of `x` over `axes` (kept as size-1 dims), in `sc`.
fn moments(l: &mut Lower, x: Value, axes: &[usize], eps: f64, sc: &Sc) -> (Value, Value) {
    let shape = l.body.value_type(x).shape().unwrap().to_vec();
    let r = shape.len();
    let n: i64 = axes.iter().map(|&a| shape[a]).product();
    let sum = reduce(l, x, axes, true, Combine::Add, sc, |_, v| v);
    let rshape = reduced_shape(&shape, axes, true);
    let s1 = sc.clone();
    let id = AffineMap::identity(r as u32);
    let mean = l.map_op(&rshape, &sc.ty.clone(), &[sum], vec![id.clone()], move |e, a| {
        let nv = e.scalar(n as f64, &s1);
        e.div(a[0], nv, &s1)
    });
    let init = l.fill(&rshape, sc, 0.0);
    let iters: Vec<Iterator> = (0..r).map(|i| if axes.contains(&i) { Iterator::Reduction } else { Iterator::Parallel }).collect();
    let om = out_map(r, axes, true);
    let s2 = sc.clone();
    let sq = l.generic(&[x, mean], &[init], vec![id.clone(), om.clone(), om], &iters, move |e, a| {
        let dlt = e.sub(a[0], a[1], &s2);
        let p = e.mul(dlt, dlt, &s2);
        vec![e.add(a[2], p, &s2)]
    })[0];
    let s3 = sc.clone();
    let inv = l.map_op(&rshape, &sc.ty.clone(), &[sq], vec![id], move |e, a| {
        let nv = e.scalar(n as f64, &s3);
        let var = e.div(a[0], nv, &s3);
        let ep = e.scalar(eps, &s3);
        let v = e.add(var, ep, &s3);
        let sd = e.op(math::ops::SQRT, &[v], &s3.ty);
        let one = e.scalar(1.0, &s3);
        e.div(one, sd, &s3)
    });
    (mean, inv)
}

/// Computes in f32 when the input is narrower (ONNX's stash_type).
pub(super) fn compute_type(l: &Lower, sc: &Sc) -> Sc {
    if sc.width() < 32 {
        Sc { ty: l.ctx.f32(), kind: super::Kind::Float }
    } else {
        sc.clone()
    }
}

fn cast_all(l: &mut Lower, x: Value, from: &Sc, to: &Sc) -> Value {
    if from.ty == to.ty {
        return x;
    }
    let shape = l.body.value_type(x).shape().unwrap().to_vec();
    let (f, t) = (from.clone(), to.clone());
    l.map_op(&shape, &to.ty.clone(), &[x], vec![AffineMap::identity(shape.len() as u32)], move |e, a| e.cast(a[0], &f, &t))
}

fn instance_norm(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let eps = l.float_attr("epsilon", 1e-5);
    let r = xi.rank();
    let sc = xi.sc.clone();
    let cs = compute_type(l, &sc);
    let x0 = l.operand(0)?;
    let x = cast_all(l, x0, &sc, &cs);
    let axes: Vec<usize> = (2..r).collect();
    let (mean, inv) = moments(l, x, &axes, eps, &cs);
    let (scale, bias) = (l.operand(1)?, l.operand(2)?);
    let (ss, bs) = (l.in_info(1)?.sc, l.in_info(2)?.sc);
    let km = out_map(r, &axes, true);
    let cm = dims_map(r, &[1]);
    let maps = vec![AffineMap::identity(r as u32), km.clone(), km, cm.clone(), cm];
    Ok(vec![l.map_op(&xi.shape, &sc.ty.clone(), &[x, mean, inv, scale, bias], maps, move |e, a| {
        let dlt = e.sub(a[0], a[1], &cs);
        let nrm = e.mul(dlt, a[2], &cs);
        let s = e.cast(a[3], &ss, &cs);
        let b = e.cast(a[4], &bs, &cs);
        let y = e.mul(nrm, s, &cs);
        let y = e.add(y, b, &cs);
        e.cast(y, &cs, &sc)
    })])
}

/// Statistics over each group of `num_groups` channels (the input viewed as
/// [N, G, C/G, spatial…]), then a scale and bias per channel (opset 21) or per
/// group (opset 18's form, told apart by their length).
fn group_norm(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let r = xi.rank();
    let g = l.int_attr("num_groups", 0);
    let ch = if r >= 2 { xi.shape[1] } else { 0 };
    if r < 2 || g <= 0 || ch % g != 0 {
        return Err(format!("GroupNormalization needs num_groups dividing the channels, got {} groups of {} channels", g, ch));
    }
    let eps = l.float_attr("epsilon", 1e-5);
    let sc = xi.sc.clone();
    let cs = compute_type(l, &sc);
    let x0 = l.operand(0)?;
    let x = cast_all(l, x0, &sc, &cs);
    let mut gshape = vec![xi.shape[0], g, ch / g];
    gshape.extend_from_slice(&xi.shape[2..]);
    let xg = super::shape::reshape(l, x, &gshape);
    let axes: Vec<usize> = (2..r + 1).collect();
    let (mean, inv) = moments(l, xg, &axes, eps, &cs);
    let km = out_map(r + 1, &axes, true);
    let c1 = cs.clone();
    let yg = l.map_op(&gshape, &cs.ty.clone(), &[xg, mean, inv], vec![AffineMap::identity(r as u32 + 1), km.clone(), km], move |e, a| {
        let dlt = e.sub(a[0], a[1], &c1);
        e.mul(dlt, a[2], &c1)
    });
    let y = super::shape::reshape(l, yg, &xi.shape);
    let (scale, bias) = (l.operand(1)?, l.operand(2)?);
    let (si, bi) = (l.in_info(1)?, l.in_info(2)?);
    let map_of = |n: i64| if n == ch { Ok(dims_map(r, &[1])) } else if n == g { Ok(expr_map(r, vec![AffineExpr::FloorDiv(Box::new(d(1)), Box::new(c(ch / g)))])) } else { Err(format!("GroupNormalization's scale and bias hold {} values, for {} channels in {} groups", n, ch, g)) };
    let (sm, bm) = (map_of(si.numel())?, map_of(bi.numel())?);
    let (ss, bs, c2) = (si.sc, bi.sc, cs.clone());
    Ok(vec![l.map_op(&xi.shape, &sc.ty.clone(), &[y, scale, bias], vec![AffineMap::identity(r as u32), sm, bm], move |e, a| {
        let s = e.cast(a[1], &ss, &c2);
        let b = e.cast(a[2], &bs, &c2);
        let v = e.mul(a[0], s, &c2);
        let v = e.add(v, b, &c2);
        e.cast(v, &c2, &sc)
    })])
}

/// (x - mean) / sqrt(variance + 1e-9) over `axes` (N, H, W by default), as ONNX's function computes it.
fn mean_variance_norm(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let r = xi.rank();
    let mut axes = l.ints_attr("axes").unwrap_or_else(|| vec![0, 2, 3]).iter().map(|&a| axis(a, r)).collect::<Result<Vec<usize>, String>>()?;
    axes.sort_unstable();
    axes.dedup();
    let sc = xi.sc.clone();
    let cs = compute_type(l, &sc);
    let x0 = l.operand(0)?;
    let x = cast_all(l, x0, &sc, &cs);
    let (mean, inv) = moments(l, x, &axes, 1e-9, &cs);
    let km = out_map(r, &axes, true);
    Ok(vec![l.map_op(&xi.shape, &sc.ty.clone(), &[x, mean, inv], vec![AffineMap::identity(r as u32), km.clone(), km], move |e, a| {
        let dlt = e.sub(a[0], a[1], &cs);
        let y = e.mul(dlt, a[2], &cs);
        e.cast(y, &cs, &sc)
    })])
}

/// What Layer and RMS normalization share: the input in the compute type and
/// the normalized axes (from `axis` to the last).
struct NormInput {
    xi: TInfo,
    axes: Vec<usize>,
    eps: f64,
    sc: Sc,
    cs: Sc,
    x: Value,
}

fn norm_input(l: &mut Lower) -> Result<NormInput, String> {
    let xi = l.in_info(0)?;
    let ax = axis(l.int_attr("axis", -1), xi.rank())?;
    let eps = l.float_attr("epsilon", 1e-5);
    let sc = xi.sc.clone();
    let cs = compute_type(l, &sc);
    let x0 = l.operand(0)?;
    let x = cast_all(l, x0, &sc, &cs);
    let axes = (ax..xi.rank()).collect();
    Ok(NormInput { xi, axes, eps, sc, cs, x })
}

fn layer_norm(l: &mut Lower) -> Result<Vec<Value>, String> {
    let NormInput { xi, axes, eps, sc, cs, x } = norm_input(l)?;
    let r = xi.rank();
    let (mean, inv) = moments(l, x, &axes, eps, &cs);
    let scale = l.operand(1)?;
    let ssc = l.in_info(1)?.sc;
    let sshape = l.in_info(1)?.shape;
    let km = out_map(r, &axes, true);
    let mut ins = vec![x, mean, inv, scale];
    let mut maps = vec![AffineMap::identity(r as u32), km.clone(), km, broadcast_map(&sshape, &xi.shape)];
    let bias = l.opt(2);
    let mut bsc = ssc.clone();
    if let Some(b) = bias {
        let bi = l.in_info(2)?;
        bsc = bi.sc.clone();
        ins.push(b);
        maps.push(broadcast_map(&bi.shape, &xi.shape));
    }
    let has_bias = bias.is_some();
    let (cs2, sc2) = (cs.clone(), sc.clone());
    let y = l.map_op(&xi.shape, &sc.ty.clone(), &ins, maps, move |e, a| {
        let dlt = e.sub(a[0], a[1], &cs2);
        let nrm = e.mul(dlt, a[2], &cs2);
        let s = e.cast(a[3], &ssc, &cs2);
        let mut y = e.mul(nrm, s, &cs2);
        if has_bias {
            let b = e.cast(a[4], &bsc, &cs2);
            y = e.add(y, b, &cs2);
        }
        e.cast(y, &cs2, &sc2)
    });
    let mut res = vec![y];
    for (i, v) in [mean, inv].into_iter().enumerate() {
        if l.num_results() > i + 1 {
            let oi = l.out_info(i + 1)?;
            let v = cast_all(l, v, &cs, &oi.sc);
            res.push(v);
        }
    }
    Ok(res)
}

/// Softmax, LogSoftmax and Hardmax along one axis (opset 13 semantics).
fn softmax(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let r = xi.rank();
    let ax = axis(l.int_attr("axis", -1), r)?;
    let x = l.operand(0)?;
    let sc = xi.sc.clone();
    let name = l.name();
    let mx = reduce(l, x, &[ax], true, Combine::Max, &sc, |_, v| v);
    let id = AffineMap::identity(r as u32);
    let km = out_map(r, &[ax], true);
    if name == ops::Hardmax::NAME {
        // 1 at the first position equal to the max, 0 elsewhere: find that
        // position with an ArgMax-like reduction, then compare indices.
        let isc = Sc { ty: l.ctx.i64(), kind: super::Kind::Signed };
        let first = l.fill(&reduced_shape(&xi.shape, &[ax], true), &isc, xi.shape[ax] as f64);
        let iters: Vec<Iterator> = (0..r).map(|i| if i == ax { Iterator::Reduction } else { Iterator::Parallel }).collect();
        let (s1, i1) = (sc.clone(), isc.clone());
        let pos = l.generic(&[x, mx], &[first], vec![id.clone(), km.clone(), km.clone()], &iters, move |e, a| {
            let k = e.loop_index(ax);
            let k = e.index_cast(k, &i1.ty, false);
            let eq = e.cmp(Cmp::Eq, a[0], a[1], &s1);
            let m = e.min(a[2], k, &i1);
            vec![e.select(eq, m, a[2])]
        })[0];
        let s2 = sc.clone();
        return Ok(vec![l.map_op(&xi.shape, &sc.ty.clone(), &[pos], vec![km], move |e, a| {
            let k = e.loop_index(ax);
            let k = e.index_cast(k, &isc.ty, false);
            let eq = e.cmp(Cmp::Eq, a[0], k, &isc);
            let one = e.scalar(1.0, &s2);
            let zero = e.scalar(0.0, &s2);
            e.select(eq, one, zero)
        })]);
    }
    Ok(vec![softmax_along(l, x, mx, ax, name == ops::LogSoftmax::NAME)])
}

/// Softmax (or log-softmax) of `x` along `ax`, given its max along `ax` (kept dim).
pub fn softmax_along(l: &mut Lower, x: Value, mx: Value, ax: usize, log: bool) -> Value {
    let t = l.body.value_type(x).clone();
    let shape = t.shape().unwrap().to_vec();
    let sc = Sc::of(l.ctx, t.element_type().unwrap()).unwrap();
    let r = shape.len();
    let id = AffineMap::identity(r as u32);
    let km = out_map(r, &[ax], true);
    let init = l.fill(&reduced_shape(&shape, &[ax], true), &sc, 0.0);
    let iters: Vec<Iterator> = (0..r).map(|i| if i == ax { Iterator::Reduction } else { Iterator::Parallel }).collect();
    let s1 = sc.clone();
    let sum = l.generic(&[x, mx], &[init], vec![id.clone(), km.clone(), km.clone()], &iters, move |e, a| {
        let dlt = e.sub(a[0], a[1], &s1);
        let ex = e.op(math::ops::EXP, &[dlt], &s1.ty);
        vec![e.add(a[2], ex, &s1)]
    })[0];
    let s2 = sc.clone();
    l.map_op(&shape, &sc.ty.clone(), &[x, mx, sum], vec![id, km.clone(), km], move |e, a| {
        let dlt = e.sub(a[0], a[1], &s2);
        if log {
            let ls = e.op(math::ops::LOG, &[a[2]], &s2.ty);
            e.sub(dlt, ls, &s2)
        } else {
            let ex = e.op(math::ops::EXP, &[dlt], &s2.ty);
            e.div(ex, a[2], &s2)
        }
    })
}

fn rms_norm(l: &mut Lower) -> Result<Vec<Value>, String> {
    let NormInput { xi, axes, eps, sc, cs, x } = norm_input(l)?;
    let r = xi.rank();
    let n: i64 = axes.iter().map(|&a| xi.shape[a]).product();
    let c1 = cs.clone();
    let ss = reduce(l, x, &axes, true, Combine::Add, &cs, move |e, v| e.mul(v, v, &c1));
    let scale = l.operand(1)?;
    let si = l.in_info(1)?;
    let km = out_map(r, &axes, true);
    let (c2, s2, ssc) = (cs.clone(), sc.clone(), si.sc.clone());
    Ok(vec![l.map_op(&xi.shape, &sc.ty.clone(), &[x, ss, scale], vec![AffineMap::identity(r as u32), km, broadcast_map(&si.shape, &xi.shape)], move |e, a| {
        let nv = e.scalar(n as f64, &c2);
        let ms = e.div(a[1], nv, &c2);
        let ep = e.scalar(eps, &c2);
        let v = e.add(ms, ep, &c2);
        let rs = e.op(math::ops::SQRT, &[v], &c2.ty);
        let y = e.div(a[0], rs, &c2);
        let s = e.cast(a[2], &ssc, &c2);
        let y = e.mul(y, s, &c2);
        e.cast(y, &c2, &s2)
    })])
}

fn lp_norm(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let r = xi.rank();
    let ax = axis(l.int_attr("axis", -1), r)?;
    let p = l.int_attr("p", 2);
    if p != 1 && p != 2 {
        return Err(format!("LpNormalization p must be 1 or 2, got {}", p));
    }
    let sc = xi.sc.clone();
    let x = l.operand(0)?;
    let c1 = sc.clone();
    let norm = reduce(l, x, &[ax], true, Combine::Add, &sc, move |e, v| if p == 1 { e.op(math::ops::ABSF, &[v], &c1.ty) } else { e.mul(v, v, &c1) });
    let km = out_map(r, &[ax], true);
    let s2 = sc.clone();
    Ok(vec![l.map_op(&xi.shape, &sc.ty.clone(), &[x, norm], vec![AffineMap::identity(r as u32), km], move |e, a| {
        let nrm = if p == 2 { e.op(math::ops::SQRT, &[a[1]], &s2.ty) } else { a[1] };
        // A zero norm gives zeros, as ONNX's reference does (not 0/0).
        let zero = e.scalar(0.0, &s2);
        let is_zero = e.cmp(Cmp::Eq, nrm, zero, &s2);
        let q = e.div(a[0], nrm, &s2);
        e.select(is_zero, zero, q)
    })])
}

/// Local response normalization across channels:
/// y = x / (bias + alpha / size · Σ over the channel window of x²)^beta,
/// the window summed from x² padded with zeros along the channels.
fn lrn(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let r = xi.rank();
    let sc = xi.sc.clone();
    if !sc.is_float() || r < 3 {
        return Err("LRN needs a float input of rank 3 or more".into());
    }
    let size = l.int_attr("size", 0);
    if size <= 0 {
        return Err("LRN needs a positive size".into());
    }
    let (alpha, beta, bias) = (l.float_attr("alpha", 1e-4), l.float_attr("beta", 0.75), l.float_attr("bias", 1.0));
    let x = l.operand(0)?;
    let s1 = sc.clone();
    let sq = l.map_op(&xi.shape, &sc.ty.clone(), &[x], vec![AffineMap::identity(r as u32)], move |e, a| e.mul(a[0], a[0], &s1));
    let (lo, hi) = ((size - 1) / 2, size - 1 - (size - 1) / 2);
    let mut low = vec![0i64; r];
    let mut high = vec![0i64; r];
    low[1] = lo;
    high[1] = hi;
    let zero = l.emit().scalar(0.0, &sc);
    let mut pshape = xi.shape.clone();
    pshape[1] += lo + hi;
    let ty = l.tensor_type(&pshape, &sc.ty);
    let st = ir::OperationState::new(l.ctx.op_name(tensor::ops::PAD), l.loc.clone())
        .operands(&[sq, zero])
        .results(&[ty])
        .property(l.ctx.ident("low"), super::i64_array(l.ctx, &low))
        .property(l.ctx.ident("high"), super::i64_array(l.ctx, &high));
    let op = l.body.build(st, l.at());
    let padded = l.body.op(op).result(0);
    // Loops: the output's, then k over the window: padded[n, c + k, ...].
    let mut res: Vec<AffineExpr> = (0..r).map(d).collect();
    res[1] = add(d(1), d(r));
    let mut iters = vec![Iterator::Parallel; r];
    iters.push(Iterator::Reduction);
    let init = l.fill(&xi.shape, &sc, 0.0);
    let mut ranges = xi.shape.clone();
    ranges.push(size);
    let s2 = sc.clone();
    let sum = l.generic_ranged(&[padded], &[init], vec![expr_map(r + 1, res), dims_map(r + 1, &(0..r).collect::<Vec<_>>())], &iters, Some(ranges), move |e, a| vec![e.add(a[1], a[0], &s2)])[0];
    let s3 = sc.clone();
    let id = AffineMap::identity(r as u32);
    Ok(vec![l.map_op(&xi.shape, &sc.ty.clone(), &[x, sum], vec![id.clone(), id], move |e, a| {
        let k = e.scalar(alpha / size as f64, &s3);
        let b = e.scalar(bias, &s3);
        let t = e.mul(a[1], k, &s3);
        let t = e.add(t, b, &s3);
        let be = e.scalar(beta, &s3);
        let p = e.op(math::ops::POWF, &[t, be], &s3.ty);
        e.div(a[0], p, &s3)
    })])
}
