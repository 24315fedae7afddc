//! The convolution-like ops beyond Conv: DeformConv (learned offsets,
//! bilinear taps), Col2Im (columns summed back into an image) and
//! CausalConvWithState (a depthwise causal conv carrying its state).

use onnx::ops;
use super::{add, c, d, dims_map, expr_map, Cmp, Lower, LowerFn, Sc};
use ir::affine::AffineMap;
use ir::Value;
use tensor::Iterator;
use super::norms::compute_type;

pub const TABLE: &[(&str, LowerFn)] = &[
    (ops::CausalConvWithState::NAME, causal_conv),
    (ops::Col2Im::NAME, col2im),
    (ops::DeformConv::NAME, deform_conv),
];

/// DeformConv (2-D): each kernel tap reads the input at its place plus a
/// learned offset, bilinearly (neighbours outside the image count as zero, as
/// GridSample with align_corners does), times the tap's mask; one generic
/// reducing over (input channel of the group, ky, kx).
fn deform_conv(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let wi = l.in_info(1)?;
    let out = l.out_info(0)?;
    let (&[n, ic, ih, iw], &[oc, icg, kh, kw], &[_, _, oh, ow]) = (xi.shape.as_slice(), wi.shape.as_slice(), out.shape.as_slice()) else {
        return Err(format!("DeformConv is supported in 2-D (input [N, C, H, W]), got {:?}", xi.shape));
    };
    let group = l.int_attr("group", 1);
    let og = l.int_attr("offset_group", 1);
    let k = kh * kw;
    if group <= 0 || og <= 0 || ic != icg * group || oc % group != 0 || ic % og != 0 || l.in_info(2)?.shape != [n, og * 2 * k, oh, ow] {
        return Err(format!("DeformConv: input {:?}, weight {:?}, offset {:?} do not fit group {} and offset_group {}", xi.shape, wi.shape, l.in_info(2)?.shape, group, og));
    }
    let pads = l.ints_attr("pads").unwrap_or_else(|| vec![0; 4]);
    let st = l.ints_attr("strides").unwrap_or_else(|| vec![1, 1]);
    let dl = l.ints_attr("dilations").unwrap_or_else(|| vec![1, 1]);
    if pads.len() != 4 || st.len() != 2 || dl.len() != 2 {
        return Err("DeformConv's pads, strides and dilations must be 2-D".into());
    }
    let (x, w, off) = (l.operand(0)?, l.operand(1)?, l.operand(2)?);
    let (bias, mask) = (l.opt(3), l.opt(4));
    if let Some(m) = mask {
        if l.info(m)?.shape != [n, og * k, oh, ow] {
            return Err(format!("DeformConv's mask is {:?}, not {:?}", l.info(m)?.shape, [n, og * k, oh, ow]));
        }
    }
    let sc = out.sc.clone();
    let f = compute_type(l, &sc);
    let init = match bias {
        Some(b) => {
            let (bs, f1) = (l.info(b)?.sc, f.clone());
            l.map_op(&out.shape, &f.ty.clone(), &[b], vec![dims_map(4, &[1])], move |e, a| e.cast(a[0], &bs, &f1))
        }
        None => l.fill(&out.shape, &f, 0.0),
    };
    let (xsc, wsc, osc, msc) = (xi.sc.clone(), wi.sc.clone(), l.info(off)?.sc, mask.map(|m| l.info(m)).transpose()?.map(|i| i.sc));
    let (ocg, icog) = (oc / group, ic / og);
    let mut iters = vec![Iterator::Parallel; 4];
    iters.extend([Iterator::Reduction; 3]);
    let maps = vec![expr_map(7, vec![d(1), d(4), d(5), d(6)]), expr_map(7, vec![d(0), d(1), d(2), d(3)])];
    let f1 = f.clone();
    let acc = l.generic_ranged(&[w], &[init], maps, &iters, Some(vec![n, oc, oh, ow, icg, kh, kw]), move |e, a| {
        let f = f1;
        let it = e.ctx.index();
        let isc = Sc { ty: it.clone(), kind: super::Kind::Signed };
        let idx: Vec<Value> = (0..7).map(|i| e.loop_index(i)).collect();
        let (bn, m, i, j, cl, ky, kx) = (idx[0], idx[1], idx[2], idx[3], idx[4], idx[5], idx[6]);
        let op = |e: &mut super::Emit, name: &str, x: Value, y: Value| e.op(name, &[x, y], &it);
        // The input channel, its offset group and this tap's number.
        let ocg_v = e.index(ocg);
        let g = op(e, arith::ops::DIVSI, m, ocg_v);
        let icg_v = e.index(icg);
        let gc = op(e, arith::ops::MULI, g, icg_v);
        let ch = op(e, arith::ops::ADDI, gc, cl);
        let icog_v = e.index(icog);
        let ogi = op(e, arith::ops::DIVSI, ch, icog_v);
        let kw_v = e.index(kw);
        let kyw = op(e, arith::ops::MULI, ky, kw_v);
        let tap = op(e, arith::ops::ADDI, kyw, kx);
        let kk = e.index(k);
        let og_tap = op(e, arith::ops::MULI, ogi, kk);
        let og_tap = op(e, arith::ops::ADDI, og_tap, tap);
        let two = e.index(2);
        let oy_i = op(e, arith::ops::MULI, og_tap, two);
        let one = e.index(1);
        let ox_i = op(e, arith::ops::ADDI, oy_i, one);
        let to_f = |e: &mut super::Emit, v: Value, from: &Sc| e.cast(v, from, &f);
        let dy = e.extract(off, &[bn, oy_i, i, j]);
        let dy = to_f(e, dy, &osc);
        let dx = e.extract(off, &[bn, ox_i, i, j]);
        let dx = to_f(e, dx, &osc);
        let i64s = Sc { ty: e.ctx.i64(), kind: super::Kind::Signed };
        // The tap's place: origin·stride − pad + k·dilation + offset.
        let place = |e: &mut super::Emit, o: Value, kv: Value, s: i64, p: i64, dil: i64, delta: Value| {
            let of = e.index_to_float(o, &f);
            let kf = e.index_to_float(kv, &f);
            let (sv, pv, dv) = (e.scalar(s as f64, &f), e.scalar(p as f64, &f), e.scalar(dil as f64, &f));
            let a = e.mul(of, sv, &f);
            let a = e.sub(a, pv, &f);
            let b = e.mul(kf, dv, &f);
            let a = e.add(a, b, &f);
            e.add(a, delta, &f)
        };
        let h = place(e, i, ky, st[0], pads[0], dl[0], dy);
        let wv = place(e, j, kx, st[1], pads[1], dl[1], dx);
        let (h0, w0) = (e.op(math::ops::FLOOR, &[h], &f.ty), e.op(math::ops::FLOOR, &[wv], &f.ty));
        let (fh, fw) = (e.sub(h, h0, &f), e.sub(wv, w0, &f));
        let onef = e.scalar(1.0, &f);
        let (gh, gw) = (e.sub(onef, fh, &f), e.sub(onef, fw, &f));
        let to_idx = |e: &mut super::Emit, v: Value| {
            let v = e.cast(v, &f, &i64s);
            e.index_cast(v, &it, false)
        };
        let (yi, xi0) = (to_idx(e, h0), to_idx(e, w0));
        let zero = e.index(0);
        let mut sample = e.scalar(0.0, &f);
        for (ddy, wy) in [(0, gh), (1, fh)] {
            for (ddx, wx) in [(0, gw), (1, fw)] {
                let yy = if ddy == 0 { yi } else { op(e, arith::ops::ADDI, yi, one) };
                let xx = if ddx == 0 { xi0 } else { op(e, arith::ops::ADDI, xi0, one) };
                let (hv, wv2) = (e.index(ih), e.index(iw));
                let inside = [e.cmp(Cmp::Ge, yy, zero, &isc), e.cmp(Cmp::Lt, yy, hv, &isc), e.cmp(Cmp::Ge, xx, zero, &isc), e.cmp(Cmp::Lt, xx, wv2, &isc)];
                let mut ok = inside[0];
                for c2 in &inside[1..] {
                    ok = e.op(arith::ops::ANDI, &[ok, *c2], &e.ctx.i1());
                }
                let (yc, xc) = (e.clamp_index(yy, ih), e.clamp_index(xx, iw));
                let v = e.extract(x, &[bn, ch, yc, xc]);
                let v = to_f(e, v, &xsc);
                let zf = e.scalar(0.0, &f);
                let v = e.select(ok, v, zf);
                let wt = e.mul(wy, wx, &f);
                let t = e.mul(wt, v, &f);
                sample = e.add(sample, t, &f);
            }
        }
        if let (Some(mv), Some(ms)) = (mask, &msc) {
            let mval = e.extract(mv, &[bn, og_tap, i, j]);
            let mval = to_f(e, mval, ms);
            sample = e.mul(sample, mval, &f);
        }
        let wgt = to_f(e, a[0], &wsc);
        let t = e.mul(wgt, sample, &f);
        vec![e.add(a[1], t, &f)]
    })[0];
    let f2 = f.clone();
    Ok(vec![l.map_op(&out.shape, &sc.ty.clone(), &[acc], vec![AffineMap::identity(4)], move |e, a| e.cast(a[0], &f2, &sc))])
}

/// Col2Im: the columns of an im2col summed back into the image. Read as a
/// gather: pixel y gets, for each kernel offset k, the column of the block
/// whose window puts k on y (y + pad − k·dilation a multiple of the stride,
/// inside the block grid), summed over k.
fn col2im(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let image = l.const_ints(1)?.ok_or("Col2Im's image_shape must be a constant")?;
    let block = l.const_ints(2)?.ok_or("Col2Im's block_shape must be a constant")?;
    let s = image.len();
    let ones = vec![1; s];
    let (dil, st) = (l.ints_attr("dilations").unwrap_or_else(|| ones.clone()), l.ints_attr("strides").unwrap_or_else(|| ones.clone()));
    let pads = l.ints_attr("pads").unwrap_or_else(|| vec![0; 2 * s]);
    let k: i64 = block.iter().product();
    if xi.rank() != 3 || block.len() != s || dil.len() != s || st.len() != s || pads.len() != 2 * s || k <= 0 || xi.shape[1] % k != 0 || out.shape.len() != s + 2 {
        return Err(format!("Col2Im of {:?} into an image {:?} by blocks {:?} does not fit", xi.shape, image, block));
    }
    // Blocks along each spatial dim, and their count must be the input's.
    let grid: Vec<i64> = (0..s).map(|i| (image[i] + pads[i] + pads[s + i] - dil[i] * (block[i] - 1) - 1) / st[i] + 1).collect();
    if grid.iter().any(|g| *g <= 0) || grid.iter().product::<i64>() != xi.shape[2] {
        return Err(format!("Col2Im: {:?} blocks of {:?} do not make the input's {} columns", grid, block, xi.shape[2]));
    }
    let sc = out.sc.clone();
    let x = l.operand(0)?;
    let r = s + 2;
    let init = l.fill(&out.shape, &sc, 0.0);
    let mut iters = vec![Iterator::Parallel; r];
    iters.extend(vec![Iterator::Reduction; s]);
    let mut ranges = out.shape.clone();
    ranges.extend_from_slice(&block);
    let s1 = sc.clone();
    Ok(vec![l.generic_ranged(&[], &[init], vec![expr_map(2 * s + 2, (0..r).map(d).collect())], &iters, Some(ranges), move |e, a| {
        let it = e.ctx.index();
        let isc = Sc { ty: it.clone(), kind: super::Kind::Signed };
        let zero = e.index(0);
        let mut valid = None;
        let (mut col, mut row) = (e.index(0), e.index(0));
        for i in 0..s {
            let (y, kk) = (e.loop_index(2 + i), e.loop_index(r + i));
            let p = e.index(pads[i]);
            let dv = e.index(dil[i]);
            let kd = e.op(arith::ops::MULI, &[kk, dv], &it);
            let yp = e.op(arith::ops::ADDI, &[y, p], &it);
            let t = e.op(arith::ops::SUBI, &[yp, kd], &it);
            let sv = e.index(st[i]);
            let q = e.op(arith::ops::DIVSI, &[t, sv], &it);
            let rem = e.op(arith::ops::REMSI, &[t, sv], &it);
            let gn = e.index(grid[i]);
            let checks = [e.cmp(Cmp::Ge, t, zero, &isc), e.cmp(Cmp::Eq, rem, zero, &isc), e.cmp(Cmp::Lt, q, gn, &isc)];
            for ch in checks {
                valid = Some(match valid {
                    None => ch,
                    Some(v) => e.op(arith::ops::ANDI, &[v, ch], &e.ctx.i1()),
                });
            }
            // Row-major offsets: the block among the grid, the kernel offset among the block.
            let qc = e.clamp_index(q, grid[i]);
            let gi = e.index(grid[i]);
            let cm = e.op(arith::ops::MULI, &[col, gi], &it);
            col = e.op(arith::ops::ADDI, &[cm, qc], &it);
            let bi = e.index(block[i]);
            let rm = e.op(arith::ops::MULI, &[row, bi], &it);
            row = e.op(arith::ops::ADDI, &[rm, kk], &it);
        }
        let (n, c) = (e.loop_index(0), e.loop_index(1));
        let kn = e.index(k);
        let cb = e.op(arith::ops::MULI, &[c, kn], &it);
        let ch = e.op(arith::ops::ADDI, &[cb, row], &it);
        let v = e.extract(x, &[n, ch, col]);
        let zf = e.scalar(0.0, &s1);
        let v = e.select(valid.expect("a spatial dim"), v, zf);
        vec![e.add(a[0], v, &s1)]
    })[0]])
}


/// Stateful causal depthwise conv (Mamba's, Gated DeltaNet's): the input
/// behind the carried state (zeros when absent) is convolved per channel with
/// a k-wide kernel, plus bias, optionally through SiLU; the new state is the
/// last k - 1 positions of that padded input.
fn causal_conv(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let wi = l.in_info(1)?;
    let (&[b, ch, t], &[wc, 1, k]) = (xi.shape.as_slice(), wi.shape.as_slice()) else {
        return Err(format!("CausalConvWithState needs an input (batch, channels, length) and a weight (channels, 1, k), got {:?} and {:?}", xi.shape, wi.shape));
    };
    if wc != ch || k < 1 {
        return Err(format!("CausalConvWithState's weight {:?} does not fit {} channels", wi.shape, ch));
    }
    let silu = match l.str_attr("activation").as_deref().unwrap_or("none") {
        "none" => false,
        "silu" | "swish" => true,
        a => return Err(format!("CausalConvWithState's activation '{}' is not one of silu, swish, none", a)),
    };
    let sc = xi.sc.clone();
    let cs = compute_type(l, &sc);
    let x = l.operand(0)?;
    let past = l.opt(3);
    if let Some(p) = past {
        let ps = l.info(p)?.shape;
        if ps != [b, ch, k - 1] {
            return Err(format!("CausalConvWithState's past_state is {:?}, not {:?}", ps, [b, ch, k - 1]));
        }
    }
    // The input behind the state: position j < k - 1 is the state's, the rest the input's.
    let padded_shape = [b, ch, t + k - 1];
    let s1 = sc.clone();
    let padded = l.fill_with(&padded_shape, &sc.ty.clone(), move |e| {
        let (i, j, n) = (e.loop_index(0), e.loop_index(1), e.loop_index(2));
        let it = e.ctx.index();
        let isc = Sc { ty: it.clone(), kind: super::Kind::Signed };
        let km1 = e.index(k - 1);
        let in_state = e.cmp(Cmp::Lt, n, km1, &isc);
        let off = e.op(arith::ops::SUBI, &[n, km1], &it);
        let nx = e.clamp_index(off, t);
        let from_input = e.extract(x, &[i, j, nx]);
        let from_state = match past {
            Some(p) => {
                let ns = e.clamp_index(n, k - 1);
                e.extract(p, &[i, j, ns])
            }
            None => e.scalar(0.0, &s1),
        };
        e.select(in_state, from_state, from_input)
    });
    let w = l.operand(1)?;
    let wsc = wi.sc.clone();
    let init = l.fill(&[b, ch, t], &cs, 0.0);
    let maps = vec![expr_map(4, vec![d(0), d(1), add(d(2), d(3))]), expr_map(4, vec![d(1), c(0), d(3)]), expr_map(4, vec![d(0), d(1), d(2)])];
    let iters = [Iterator::Parallel, Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
    let (c1, s1) = (cs.clone(), sc.clone());
    let acc = l.generic_ranged(&[padded, w], &[init], maps, &iters, Some(vec![b, ch, t, k]), move |e, a| {
        let xv = e.cast(a[0], &s1, &c1);
        let wv = e.cast(a[1], &wsc, &c1);
        let p = e.mul(xv, wv, &c1);
        vec![e.add(a[2], p, &c1)]
    })[0];
    let bias = l.opt(2);
    let mut ins = vec![acc];
    let mut maps = vec![AffineMap::identity(3)];
    let bsc = match bias {
        Some(bv) => {
            ins.push(bv);
            maps.push(dims_map(3, &[1]));
            Some(l.info(bv)?.sc)
        }
        None => None,
    };
    let (c2, s2) = (cs.clone(), sc.clone());
    let y = l.map_op(&[b, ch, t], &sc.ty.clone(), &ins, maps, move |e, a| {
        let mut v = a[0];
        if let Some(bsc) = &bsc {
            let bv = e.cast(a[1], bsc, &c2);
            v = e.add(v, bv, &c2);
        }
        if silu {
            let one = e.scalar(1.0, &c2);
            let zero = e.scalar(0.0, &c2);
            let nv = e.sub(zero, v, &c2);
            let ex = e.op(math::ops::EXP, &[nv], &c2.ty);
            let den = e.add(one, ex, &c2);
            v = e.div(v, den, &c2);
        }
        e.cast(v, &c2, &s2)
    });
    let state = l.map_op(&[b, ch, k - 1], &sc.ty.clone(), &[padded], vec![expr_map(3, vec![d(0), d(1), add(d(2), c(t))])], |_, a| a[0]);
    Ok(vec![y, state])
}
