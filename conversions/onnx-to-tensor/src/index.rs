//! Ops defined by index arithmetic: Trilu, EyeLike, OneHot, CumSum/CumProd,
//! GatherND, and the scatters (ScatterElements, ScatterND) written in gather
//! form — each output element reduces over the updates that land on it — so
//! every write stays a plain `tensor.generic` output.

use onnx::ops;
use super::reduce::{combine, identity, Combine};
use super::{axis, d, dims_map, expr_map, Cmp, Emit, Kind, Lower, LowerFn, Sc};
use ir::affine::{AffineExpr, AffineMap};
use ir::Value;
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[
    (ops::Trilu::NAME, trilu),
    (ops::EyeLike::NAME, eye_like),
    (ops::OneHot::NAME, one_hot),
    (ops::CumSum::NAME, cumulative),
    (ops::CumProd::NAME, cumulative),
    (ops::GatherND::NAME, gather_nd),
    (ops::ScatterElements::NAME, scatter_elements),
    (ops::Scatter::NAME, scatter_elements),
    (ops::ScatterND::NAME, scatter_nd),
    (ops::TopK::NAME, top_k),
    (ops::ReverseSequence::NAME, reverse_sequence),
    (ops::Compress::NAME, compress),
    (ops::TensorScatter::NAME, tensor_scatter),
    (ops::CenterCropPad::NAME, center_crop_pad),
    (ops::AffineGrid::NAME, affine_grid),
    (ops::MaxUnpool::NAME, max_unpool),
];

fn isc(e: &Emit) -> Sc {
    Sc { ty: e.ctx.index(), kind: Kind::Signed }
}


fn trilu(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let r = xi.rank();
    let k = l.const_ints(1)?.and_then(|v| v.first().copied()).unwrap_or(0);
    let upper = l.int_attr("upper", 1) != 0;
    let x = l.operand(0)?;
    let sc = xi.sc.clone();
    Ok(vec![l.map_op(&xi.shape, &sc.ty.clone(), &[x], vec![AffineMap::identity(r as u32)], move |e, a| {
        let (i, j) = (e.loop_index(r - 2), e.loop_index(r - 1));
        let it = e.ctx.index();
        let dj = e.op(arith::ops::SUBI, &[j, i], &it);
        let kv = e.index(k);
        let s = isc(e);
        let keep = e.cmp(if upper { Cmp::Ge } else { Cmp::Le }, dj, kv, &s);
        let z = e.scalar(0.0, &sc);
        e.select(keep, a[0], z)
    })])
}

fn eye_like(l: &mut Lower) -> Result<Vec<Value>, String> {
    let out = l.out_info(0)?;
    let k = l.int_attr("k", 0);
    let sc = out.sc.clone();
    Ok(vec![l.fill_with(&out.shape, &sc.ty.clone(), move |e| {
        let (i, j) = (e.loop_index(0), e.loop_index(1));
        let it = e.ctx.index();
        let dj = e.op(arith::ops::SUBI, &[j, i], &it);
        let kv = e.index(k);
        let s = isc(e);
        let on = e.cmp(Cmp::Eq, dj, kv, &s);
        let one = e.scalar(1.0, &sc);
        let z = e.scalar(0.0, &sc);
        e.select(on, one, z)
    })])
}

fn one_hot(l: &mut Lower) -> Result<Vec<Value>, String> {
    let ii = l.in_info(0)?;
    let out = l.out_info(0)?;
    let r = out.rank();
    let ax = axis(l.int_attr("axis", -1), r)?;
    let depth = l.const_f64s(1)?.and_then(|v| v.first().copied()).ok_or("OneHot needs a constant depth")? as i64;
    let (ind, values) = (l.operand(0)?, l.operand(2)?);
    let in_map = expr_map(r, (0..r).filter(|&i| i != ax).map(d).collect());
    let sc = out.sc.clone();
    let isc_in = ii.sc.clone();
    Ok(vec![l.map_op(&out.shape, &sc.ty.clone(), &[ind], vec![in_map], move |e, a| {
        let f64s = Sc { ty: e.ctx.f64(), kind: Kind::Float };
        let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
        // Indices may be floats: truncate as ONNX's reference does.
        let v = if isc_in.is_float() {
            let f = e.cast(a[0], &isc_in, &f64s);
            e.cast(f, &f64s, &i64s)
        } else {
            e.cast(a[0], &isc_in, &i64s)
        };
        let w = e.wrap_index(v, depth);
        let pos = e.loop_index(ax);
        let s = isc(e);
        let hit = e.cmp(Cmp::Eq, w, pos, &s);
        let zero = e.index(0);
        let one = e.index(1);
        let off = e.extract(values, &[zero]);
        let on = e.extract(values, &[one]);
        e.select(hit, on, off)
    })])
}

/// CumSum / CumProd: out[i] = fold over k of x[k] with k ≤ i (or ≥ for
/// reverse; strictly for exclusive), as a reduction loop over the axis.
fn cumulative(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let r = xi.rank();
    let ax = axis(l.const_ints(1)?.and_then(|v| v.first().copied()).ok_or("the axis must be a constant")?, r)?;
    let exclusive = l.int_attr("exclusive", 0) != 0;
    let reverse = l.int_attr("reverse", 0) != 0;
    let comb = if l.name() == ops::CumProd::NAME { Combine::Mul } else { Combine::Add };
    let sc = xi.sc.clone();
    let x = l.operand(0)?;
    let init = l.fill(&xi.shape, &sc, identity(comb, &sc));
    // Loops: the output's, then k along the axis.
    let mut in_res: Vec<AffineExpr> = (0..r).map(d).collect();
    in_res[ax] = d(r);
    let mut iters = vec![Iterator::Parallel; r];
    iters.push(Iterator::Reduction);
    let maps = vec![expr_map(r + 1, in_res), expr_map(r + 1, (0..r).map(d).collect())];
    Ok(l.generic(&[x], &[init], maps, &iters, move |e, a| {
        let (i, k) = (e.loop_index(ax), e.loop_index(r));
        let s = isc(e);
        let pred = match (reverse, exclusive) {
            (false, false) => Cmp::Le,
            (false, true) => Cmp::Lt,
            (true, false) => Cmp::Ge,
            (true, true) => Cmp::Gt,
        };
        let take = e.cmp(pred, k, i, &s);
        let v = combine(e, comb, a[1], a[0], &sc);
        vec![e.select(take, v, a[1])]
    }))
}

fn gather_nd(l: &mut Lower) -> Result<Vec<Value>, String> {
    let di = l.in_info(0)?;
    let ii = l.in_info(1)?;
    let out = l.out_info(0)?;
    let b = l.int_attr("batch_dims", 0) as usize;
    let last = *ii.shape.last().ok_or("GatherND indices must have rank 1 or more")? as usize;
    let dims = di.shape.get(b..b + last).ok_or("GatherND indices' last dim exceeds the data's rank")?.to_vec();
    super::checks::index_tuples_in_range(l, 1, &dims)?;
    let (data, ind) = (l.operand(0)?, l.operand(1)?);
    let q = ii.rank();
    let isc_in = ii.sc.clone();
    let dshape = di.shape.clone();
    Ok(vec![l.map_op(&out.shape, &out.sc.ty.clone(), &[], vec![], move |e, _| {
        // Output index: indices.shape[:-1] then data.shape[b + last:].
        let lead: Vec<Value> = (0..q - 1).map(|i| e.loop_index(i)).collect();
        let mut at: Vec<Value> = lead[..b].to_vec();
        for k in 0..last {
            let kk = e.index(k as i64);
            let mut iat = lead.clone();
            iat.push(kk);
            let v = e.extract(ind, &iat);
            let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
            let v = e.cast(v, &isc_in, &i64s);
            let w = e.wrap_index(v, dshape[b + k]);
            at.push(e.clamp_index(w, dshape[b + k]));
        }
        for t in 0..dshape.len() - b - last {
            at.push(e.loop_index(q - 1 + t));
        }
        e.extract(data, &at)
    })])
}

fn reduction_of(l: &Lower) -> Result<Option<Combine>, String> {
    Ok(match l.str_attr("reduction").as_deref().unwrap_or("none") {
        "none" => None,
        "add" => Some(Combine::Add),
        "mul" => Some(Combine::Mul),
        "max" => Some(Combine::Max),
        "min" => Some(Combine::Min),
        other => return Err(format!("unknown reduction '{}'", other)),
    })
}

/// out[p] = data[p] folded with every update q whose target is p.
fn scatter_elements(l: &mut Lower) -> Result<Vec<Value>, String> {
    let di = l.in_info(0)?;
    l.in_info(2)?;
    let ii = l.in_info(1)?;
    let r = di.rank();
    let ax = axis(l.int_attr("axis", 0), r)?;
    let red = reduction_of(l)?;
    super::checks::indices_in_range(l, 1, di.shape[ax], &format!("axis {} of size {}", ax, di.shape[ax]))?;
    let (data, ind, upd) = (l.operand(0)?, l.operand(1)?, l.operand(2)?);
    let sc = di.sc.clone();
    let n = di.shape[ax];
    // Loops: p (output, parallel), q (updates, reduction).
    let nl = 2 * r;
    let mut iters = vec![Iterator::Parallel; r];
    iters.extend(vec![Iterator::Reduction; r]);
    let qmap = expr_map(nl, (r..2 * r).map(d).collect());
    let init = l.map_op(&di.shape, &sc.ty.clone(), &[data], vec![AffineMap::identity(r as u32)], |_, a| a[0]);
    let isc_in = ii.sc.clone();
    Ok(l.generic(&[ind, upd], &[init], vec![qmap.clone(), qmap, expr_map(nl, (0..r).map(d).collect())], &iters, move |e, a| {
        let s = isc(e);
        let i1 = e.ctx.i1();
        let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
        let t = e.cast(a[0], &isc_in, &i64s);
        let t = e.wrap_index(t, n);
        let mut hit: Option<Value> = None;
        for k in 0..r {
            let p = e.loop_index(k);
            let target = if k == ax { t } else { e.loop_index(r + k) };
            let eq = e.cmp(Cmp::Eq, p, target, &s);
            hit = Some(match hit {
                None => eq,
                Some(h) => e.op(arith::ops::ANDI, &[h, eq], &i1),
            });
        }
        let v = match red {
            None => a[1],
            Some(cmb) => combine(e, cmb, a[2], a[1], &sc),
        };
        vec![e.select(hit.unwrap(), v, a[2])]
    }))
}

fn scatter_nd(l: &mut Lower) -> Result<Vec<Value>, String> {
    let di = l.in_info(0)?;
    let ii = l.in_info(1)?;
    let r = di.rank();
    let k = *ii.shape.last().ok_or("ScatterND indices must have rank 1 or more")? as usize;
    let red = reduction_of(l)?;
    let dims = di.shape.get(..k).ok_or("ScatterND indices' last dim exceeds the data's rank")?.to_vec();
    super::checks::index_tuples_in_range(l, 1, &dims)?;
    let (data, ind, upd) = (l.operand(0)?, l.operand(1)?, l.operand(2)?);
    let sc = di.sc.clone();
    let u = ii.rank() - 1;
    // Loops: p (output, parallel), then the update positions (reduction).
    let nl = r + u;
    let mut iters = vec![Iterator::Parallel; r];
    iters.extend(vec![Iterator::Reduction; u]);
    let mut upd_res: Vec<AffineExpr> = (r..r + u).map(d).collect();
    upd_res.extend((k..r).map(d));
    let upd_map = expr_map(nl, upd_res);
    let init = l.map_op(&di.shape, &sc.ty.clone(), &[data], vec![AffineMap::identity(r as u32)], |_, a| a[0]);
    let isc_in = ii.sc.clone();
    let dshape = di.shape.clone();
    let mut ranges: Vec<i64> = di.shape.clone();
    ranges.extend(&ii.shape[..u]);
    Ok(l.generic_ranged(&[upd], &[init], vec![upd_map, expr_map(nl, (0..r).map(d).collect())], &iters, Some(ranges), move |e, a| {
        let s = isc(e);
        let i1 = e.ctx.i1();
        let uidx: Vec<Value> = (r..r + u).map(|i| e.loop_index(i)).collect();
        let mut hit: Option<Value> = None;
        for j in 0..k {
            let jj = e.index(j as i64);
            let mut at = uidx.clone();
            at.push(jj);
            let v = e.extract(ind, &at);
            let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
            let v = e.cast(v, &isc_in, &i64s);
            let t = e.wrap_index(v, dshape[j]);
            let p = e.loop_index(j);
            let eq = e.cmp(Cmp::Eq, p, t, &s);
            hit = Some(match hit {
                None => eq,
                Some(h) => e.op(arith::ops::ANDI, &[h, eq], &i1),
            });
        }
        let v = match red {
            None => a[0],
            Some(cmb) => combine(e, cmb, a[1], a[0], &sc),
        };
        vec![e.select(hit.unwrap(), v, a[1])]
    }))
}


/// TopK by ranking: each element's rank along the axis is how many elements
/// come before it (larger — or smaller — values first, ties by position);
/// output r is the element of rank r. O(n²) along the axis, no sorting network.
fn top_k(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let r = xi.rank();
    let ax = axis(l.int_attr("axis", -1), r)?;
    let k = l.const_ints(1)?.and_then(|v| v.first().copied()).ok_or("TopK needs k")?;
    let largest = l.int_attr("largest", 1) != 0;
    let x = l.operand(0)?;
    let sc = xi.sc.clone();
    let i64s = Sc { ty: l.ctx.i64(), kind: Kind::Signed };
    // rank[.., i, ..] = Σ_j before(j, i); loops: x's, then j.
    let mut jres: Vec<AffineExpr> = (0..r).map(d).collect();
    jres[ax] = d(r);
    let mut iters = vec![Iterator::Parallel; r];
    iters.push(Iterator::Reduction);
    let zero = l.fill(&xi.shape, &i64s, 0.0);
    let (s1, i1) = (sc.clone(), i64s.clone());
    let ranks = l.generic(&[x, x], &[zero], vec![expr_map(r + 1, (0..r).map(d).collect()), expr_map(r + 1, jres), expr_map(r + 1, (0..r).map(d).collect())], &iters, move |e, a| {
        let (xi_, xj) = (a[0], a[1]);
        let (i, j) = (e.loop_index(ax), e.loop_index(r));
        let isc = Sc { ty: e.ctx.index(), kind: Kind::Signed };
        let better = e.cmp(if largest { Cmp::Gt } else { Cmp::Lt }, xj, xi_, &s1);
        let same = e.cmp(Cmp::Eq, xj, xi_, &s1);
        let earlier = e.cmp(Cmp::Lt, j, i, &isc);
        let b1 = e.ctx.i1();
        let tie = e.op(arith::ops::ANDI, &[same, earlier], &b1);
        let before = e.op(arith::ops::ORI, &[better, tie], &b1);
        let one = e.int(1, &i1.ty);
        let plus = e.add(a[2], one, &i1);
        vec![e.select(before, plus, a[2])]
    })[0];
    // out[.., q, ..] = the element whose rank is q; loops: out's, then i.
    let mut oshape = xi.shape.clone();
    oshape[ax] = k;
    let mut ires: Vec<AffineExpr> = (0..r).map(d).collect();
    ires[ax] = d(r);
    let vinit = l.fill(&oshape, &sc, 0.0);
    let iinit = l.fill(&oshape, &i64s, 0.0);
    let om = expr_map(r + 1, (0..r).map(d).collect());
    let mut ranges = oshape.clone();
    ranges.push(xi.shape[ax]);
    let i2 = i64s.clone();
    let outs = l.generic_ranged(&[x, ranks], &[vinit, iinit], vec![expr_map(r + 1, ires.clone()), expr_map(r + 1, ires), om.clone(), om], &iters, Some(ranges), move |e, a| {
        let q = e.loop_index(ax);
        let i = e.loop_index(r);
        let qv = e.index_cast(q, &i2.ty, false);
        let hit = e.cmp(Cmp::Eq, a[1], qv, &i2);
        let iv = e.index_cast(i, &i2.ty, false);
        vec![e.select(hit, a[0], a[2]), e.select(hit, iv, a[3])]
    });
    Ok(outs)
}

/// ReverseSequence: along the time axis, the first `len[b]` steps of each
/// batch entry reversed, the rest kept.
fn reverse_sequence(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let r = xi.rank();
    let (bax, tax) = (axis(l.int_attr("batch_axis", 1), r)?, axis(l.int_attr("time_axis", 0), r)?);
    let (x, lens) = (l.operand(0)?, l.operand(1)?);
    let lsc = l.in_info(1)?.sc;
    let n = xi.shape[tax];
    Ok(vec![l.map_op(&xi.shape.clone(), &xi.sc.ty.clone(), &[lens], vec![dims_map(r, &[bax])], move |e, a| {
        let it = e.ctx.index();
        let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
        let len = e.cast(a[0], &lsc, &i64s);
        let len = e.index_cast(len, &it, false);
        let t = e.loop_index(tax);
        let isc = Sc { ty: it.clone(), kind: Kind::Signed };
        let inside = e.cmp(Cmp::Lt, t, len, &isc);
        let one = e.index(1);
        let last = e.op(arith::ops::SUBI, &[len, one], &it);
        let rev = e.op(arith::ops::SUBI, &[last, t], &it);
        let src = e.select(inside, rev, t);
        let src = e.clamp_index(src, n);
        let mut at: Vec<Value> = (0..r).map(|i| e.loop_index(i)).collect();
        at[tax] = src;
        e.extract(x, &at)
    })])
}

/// Compress with a constant condition: the selected positions along the axis
/// (or of the flattened input), read like a Gather.
fn compress(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let cond = l.const_ints(1)?.ok_or("Compress needs a condition")?;
    let out = l.out_info(0)?;
    let mut x = l.operand(0)?;
    let ax = match l.attr("axis").and_then(|a| a.as_int()) {
        Some(a) => axis(a as i64, xi.rank())?,
        None => {
            x = super::shape::reshape(l, x, &[xi.numel()]);
            0
        }
    };
    let picked: Vec<i64> = cond.iter().enumerate().filter(|(_, c)| **c != 0).map(|(i, _)| i as i64).collect();
    if out.shape[ax] != picked.len() as i64 {
        return Err("Compress's output shape does not match its condition".into());
    }
    let r = out.rank();
    Ok(vec![l.map_op(&out.shape, &out.sc.ty.clone(), &[], vec![], move |e, _| {
        let q = e.loop_index(ax);
        // The source position: a chain of selects over the (few) picked indices.
        let mut src = e.index(*picked.last().unwrap_or(&0));
        let isc = Sc { ty: e.ctx.index(), kind: Kind::Signed };
        for (k, p) in picked.iter().enumerate().rev().skip(1) {
            let kv = e.index(k as i64);
            let is = e.cmp(Cmp::Eq, q, kv, &isc);
            let pv = e.index(*p);
            src = e.select(is, pv, src);
        }
        let mut at: Vec<Value> = (0..r).map(|i| e.loop_index(i)).collect();
        at[ax] = src;
        e.extract(x, &at)
    })])
}

/// CenterCropPad: per axis, a centered window of a larger input, or the input
/// centered in zeros when the target is larger.
fn center_crop_pad(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let r = xi.rank();
    let x = l.operand(0)?;
    // Offset of output index i in the input: i + (in − out) / 2 when cropping,
    // i − (out − in) / 2 when padding (floor either way, as ONNX's reference).
    let offs: Vec<i64> = (0..r).map(|i| if xi.shape[i] >= out.shape[i] { (xi.shape[i] - out.shape[i]) / 2 } else { -((out.shape[i] - xi.shape[i]) / 2) }).collect();
    let (ins, sc) = (xi.shape.clone(), out.sc.clone());
    Ok(vec![l.map_op(&out.shape, &sc.ty.clone(), &[], vec![], move |e, _| {
        let it = e.ctx.index();
        let isc = Sc { ty: it.clone(), kind: Kind::Signed };
        let b1 = e.ctx.i1();
        let mut at = Vec::new();
        let mut ok: Option<Value> = None;
        for i in 0..r {
            let o = e.loop_index(i);
            let k = e.index(offs[i]);
            let p = e.op(arith::ops::ADDI, &[o, k], &it);
            let zero = e.index(0);
            let n = e.index(ins[i]);
            let ge = e.cmp(Cmp::Ge, p, zero, &isc);
            let lt = e.cmp(Cmp::Lt, p, n, &isc);
            let inb = e.op(arith::ops::ANDI, &[ge, lt], &b1);
            ok = Some(match ok {
                None => inb,
                Some(q) => e.op(arith::ops::ANDI, &[q, inb], &b1),
            });
            at.push(e.clamp_index(p, ins[i]));
        }
        let v = e.extract(x, &at);
        let z = e.scalar(0.0, &sc);
        match ok {
            Some(ok) => e.select(ok, v, z),
            None => v,
        }
    })])
}

/// AffineGrid: grid[n, spatial..., k] = Σ_j theta[n, k, j] · base_j, where
/// base = (x, y[, z], 1) are the normalized coordinates of the position
/// (linspace(−1, 1) with align_corners, pixel centers otherwise).
fn affine_grid(l: &mut Lower) -> Result<Vec<Value>, String> {
    let ti = l.in_info(0)?;
    let out = l.out_info(0)?;
    let s = out.rank() - 2;
    if ti.rank() != 3 || ti.shape[1] != s as i64 || ti.shape[2] != s as i64 + 1 {
        return Err("AffineGrid needs theta [N, s, s + 1] for s spatial dims".into());
    }
    let align = l.int_attr("align_corners", 0) != 0;
    let theta = l.operand(0)?;
    let sizes: Vec<i64> = out.shape[1..1 + s].to_vec();
    let (tsc, osc) = (ti.sc.clone(), out.sc.clone());
    Ok(vec![l.map_op(&out.shape, &osc.ty.clone(), &[], vec![], move |e, _| {
        let f = Sc { ty: if osc.ty == e.ctx.f64() { e.ctx.f64() } else { e.ctx.f32() }, kind: Kind::Float };
        let t = f.ty.clone();
        let n = e.loop_index(0);
        let k = e.loop_index(1 + s);
        let i64t = e.ctx.i64();
        // base_j for j = 0.. is x (the last spatial dim), y, z, then 1.
        let mut acc: Option<Value> = None;
        for j in 0..=s {
            let base = if j == s {
                e.float(1.0, &t)
            } else {
                let dim = s - 1 - j;
                let len = sizes[dim] as f64;
                let iv = e.loop_index(1 + dim);
                let ii = e.index_cast(iv, &i64t, false);
                let fi = e.op(arith::ops::SITOFP, &[ii], &t);
                if align {
                    if len <= 1.0 {
                        e.float(0.0, &t)
                    } else {
                        let a = e.float(2.0 / (len - 1.0), &t);
                        let m = e.op(arith::ops::MULF, &[fi, a], &t);
                        let one = e.float(1.0, &t);
                        e.op(arith::ops::SUBF, &[m, one], &t)
                    }
                } else {
                    let a = e.float(2.0 / len, &t);
                    let b = e.float(1.0 / len - 1.0, &t);
                    let m = e.op(arith::ops::MULF, &[fi, a], &t);
                    e.op(arith::ops::ADDF, &[m, b], &t)
                }
            };
            let jv = e.index(j as i64);
            let th = e.extract(theta, &[n, k, jv]);
            let th = e.cast(th, &tsc, &f);
            let term = e.op(arith::ops::MULF, &[th, base], &t);
            acc = Some(match acc {
                None => term,
                Some(p) => e.op(arith::ops::ADDF, &[p, term], &t),
            });
        }
        e.cast(acc.unwrap(), &f, &osc)
    })])
}

/// MaxUnpool in gather form: out[p] = the input element whose index (flat over
/// the whole output) is p, or 0; a reduction over the input positions of the
/// same batch entry and channel.
fn max_unpool(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let ii = l.in_info(1)?;
    let out = l.out_info(0)?;
    let r = xi.rank();
    let (x, ind) = (l.operand(0)?, l.operand(1)?);
    let s = r - 2;
    let init = l.fill(&out.shape, &out.sc, 0.0);
    // Loops: n, c, output spatial | input spatial.
    let n_loops = 2 + 2 * s;
    let mut iters = vec![Iterator::Parallel; 2 + s];
    iters.extend(vec![Iterator::Reduction; s]);
    let mut xres = vec![d(0), d(1)];
    xres.extend((0..s).map(|i| d(2 + s + i)));
    let om = expr_map(n_loops, (0..2 + s).map(d).collect());
    let mut ranges = out.shape.clone();
    ranges.extend(&xi.shape[2..]);
    // Indices address the default output ((in − 1)·stride − pads + kernel);
    // a larger output_shape only adds zeros after it.
    let kernel = l.ints_attr("kernel_shape").ok_or("MaxUnpool needs kernel_shape")?;
    let strides = l.ints_attr("strides").unwrap_or_else(|| vec![1; s]);
    let pads = l.ints_attr("pads").unwrap_or_else(|| vec![0; 2 * s]);
    let mut oshape = out.shape.clone();
    for i in 0..s {
        oshape[2 + i] = (xi.shape[2 + i] - 1) * strides[i] - pads[i] - pads[s + i] + kernel[i];
    }
    let real = out.shape.clone();
    let isc_in = ii.sc.clone();
    Ok(l.generic_ranged(&[x, ind], &[init], vec![expr_map(n_loops, xres.clone()), expr_map(n_loops, xres), om], &iters, Some(ranges), move |e, a| {
        let it = e.ctx.index();
        let mut flat = e.loop_index(0);
        for dd in 1..2 + s {
            let size = e.index(oshape[dd]);
            let m = e.op(arith::ops::MULI, &[flat, size], &it);
            let o = e.loop_index(dd);
            flat = e.op(arith::ops::ADDI, &[m, o], &it);
        }
        let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
        let want = e.cast(a[1], &isc_in, &i64s);
        let flat = e.index_cast(flat, &i64s.ty, false);
        let hit = e.cmp(Cmp::Eq, want, flat, &i64s);
        // Positions past the default output stay zero.
        let isc = Sc { ty: it.clone(), kind: Kind::Signed };
        let mut hit = hit;
        for dd in 2..2 + s {
            if oshape[dd] < real[dd] {
                let o = e.loop_index(dd);
                let lim = e.index(oshape[dd]);
                let inside = e.cmp(Cmp::Lt, o, lim, &isc);
                hit = e.op(arith::ops::ANDI, &[hit, inside], &e.ctx.i1());
            }
        }
        vec![e.select(hit, a[0], a[2])]
    }))
}

/// TensorScatter (a KV-cache write): the cache with `update`'s rows written
/// along `axis` from each batch's write index (modulo the cache length in
/// `circular` mode), read back as a gather: position s of batch b holds
/// update row s − w_b when that row exists, else the cache's own.
fn tensor_scatter(l: &mut Lower) -> Result<Vec<Value>, String> {
    let ci = l.in_info(0)?;
    let ui = l.in_info(1)?;
    let r = ci.rank();
    let ax = super::axis(l.int_attr("axis", -2), r)?;
    if ax == 0 || ui.rank() != r || (0..r).any(|i| i != ax && ui.shape[i] != ci.shape[i]) || ui.shape[ax] > ci.shape[ax] {
        return Err(format!("TensorScatter's update {:?} does not fit the cache {:?} along axis {}", ui.shape, ci.shape, ax));
    }
    let circular = match l.str_attr("mode").as_deref().unwrap_or("linear") {
        "linear" => false,
        "circular" => true,
        m => return Err(format!("TensorScatter's mode '{}' is not linear or circular", m)),
    };
    let (cache, update, writes) = (l.operand(0)?, l.operand(1)?, l.opt(2));
    let wsc = writes.map(|w| l.info(w)).transpose()?.map(|i| i.sc);
    let (s_len, u_len) = (ci.shape[ax], ui.shape[ax]);
    Ok(vec![l.fill_with(&ci.shape, &ci.sc.ty.clone(), move |e| {
        let idx: Vec<Value> = (0..r).map(|i| e.loop_index(i)).collect();
        let it = e.ctx.index();
        let isc = Sc { ty: it.clone(), kind: super::Kind::Signed };
        let w = match (writes, &wsc) {
            (Some(wv), Some(wsc)) => {
                let v = e.extract(wv, &[idx[0]]);
                let i64s = Sc { ty: e.ctx.i64(), kind: super::Kind::Signed };
                let v = e.cast(v, wsc, &i64s);
                e.index_cast(v, &it, false)
            }
            _ => e.index(0),
        };
        let mut u = e.op(arith::ops::SUBI, &[idx[ax], w], &it);
        let zero = e.index(0);
        if circular {
            // (s − w) mod S, made non-negative.
            let n = e.index(s_len);
            let m = e.op(arith::ops::REMSI, &[u, n], &it);
            let neg = e.cmp(Cmp::Lt, m, zero, &isc);
            let up = e.op(arith::ops::ADDI, &[m, n], &it);
            u = e.select(neg, up, m);
        }
        let un = e.index(u_len);
        let ge = e.cmp(Cmp::Ge, u, zero, &isc);
        let lt = e.cmp(Cmp::Lt, u, un, &isc);
        let inside = e.op(arith::ops::ANDI, &[ge, lt], &e.ctx.i1());
        let uc = e.clamp_index(u, u_len);
        let mut at = idx.clone();
        at[ax] = uc;
        let from_update = e.extract(update, &at);
        let from_cache = e.extract(cache, &idx);
        e.select(inside, from_update, from_cache)
    })])
}
