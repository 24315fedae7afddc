//! Neural-network ops: convolutions and pooling as reduction `tensor.generic`s
//! over (channels, kernel window); normalizations and softmax as reductions
//! followed by an elementwise step.

use super::reduce::{out_map, reduce, reduced_shape, Combine};
use super::{add, axis, broadcast_map, c, d, dims_map, expr_map, mul, Cmp, Lower, LowerFn, Sc, TInfo};
use ir::affine::{AffineExpr, AffineMap};
use ir::Value;
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[
    ("onnx.Conv", conv),
    ("onnx.ConvInteger", conv_integer),
    ("onnx.QLinearConv", qlinear_conv),
    ("onnx.ConvTranspose", conv_transpose),
    ("onnx.MaxPool", pool),
    ("onnx.AveragePool", pool),
    ("onnx.GlobalAveragePool", global_pool),
    ("onnx.GlobalMaxPool", global_pool),
    ("onnx.BatchNormalization", batch_norm),
    ("onnx.InstanceNormalization", instance_norm),
    ("onnx.GroupNormalization", group_norm),
    ("onnx.MeanVarianceNormalization", mean_variance_norm),
    ("onnx.LayerNormalization", layer_norm),
    ("onnx.Softmax", softmax),
    ("onnx.LogSoftmax", softmax),
    ("onnx.Hardmax", softmax),
    ("onnx.RMSNormalization", rms_norm),
    ("onnx.LRN", lrn),
    ("onnx.LpNormalization", lp_norm),
    ("onnx.LpPool", pool),
    ("onnx.CausalConvWithState", causal_conv),
    ("onnx.Col2Im", col2im),
    ("onnx.DeformConv", deform_conv),
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
        let g = op(e, "arith.divsi", m, ocg_v);
        let icg_v = e.index(icg);
        let gc = op(e, "arith.muli", g, icg_v);
        let ch = op(e, "arith.addi", gc, cl);
        let icog_v = e.index(icog);
        let ogi = op(e, "arith.divsi", ch, icog_v);
        let kw_v = e.index(kw);
        let kyw = op(e, "arith.muli", ky, kw_v);
        let tap = op(e, "arith.addi", kyw, kx);
        let kk = e.index(k);
        let og_tap = op(e, "arith.muli", ogi, kk);
        let og_tap = op(e, "arith.addi", og_tap, tap);
        let two = e.index(2);
        let oy_i = op(e, "arith.muli", og_tap, two);
        let one = e.index(1);
        let ox_i = op(e, "arith.addi", oy_i, one);
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
        let (h0, w0) = (e.op("math.floor", &[h], &f.ty), e.op("math.floor", &[wv], &f.ty));
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
                let yy = if ddy == 0 { yi } else { op(e, "arith.addi", yi, one) };
                let xx = if ddx == 0 { xi0 } else { op(e, "arith.addi", xi0, one) };
                let (hv, wv2) = (e.index(ih), e.index(iw));
                let inside = [e.cmp(Cmp::Ge, yy, zero, &isc), e.cmp(Cmp::Lt, yy, hv, &isc), e.cmp(Cmp::Ge, xx, zero, &isc), e.cmp(Cmp::Lt, xx, wv2, &isc)];
                let mut ok = inside[0];
                for c2 in &inside[1..] {
                    ok = e.op("arith.andi", &[ok, *c2], &e.ctx.i1());
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
            let kd = e.op("arith.muli", &[kk, dv], &it);
            let yp = e.op("arith.addi", &[y, p], &it);
            let t = e.op("arith.subi", &[yp, kd], &it);
            let sv = e.index(st[i]);
            let q = e.op("arith.divsi", &[t, sv], &it);
            let rem = e.op("arith.remsi", &[t, sv], &it);
            let gn = e.index(grid[i]);
            let checks = [e.cmp(Cmp::Ge, t, zero, &isc), e.cmp(Cmp::Eq, rem, zero, &isc), e.cmp(Cmp::Lt, q, gn, &isc)];
            for ch in checks {
                valid = Some(match valid {
                    None => ch,
                    Some(v) => e.op("arith.andi", &[v, ch], &e.ctx.i1()),
                });
            }
            // Row-major offsets: the block among the grid, the kernel offset among the block.
            let qc = e.clamp_index(q, grid[i]);
            let gi = e.index(grid[i]);
            let cm = e.op("arith.muli", &[col, gi], &it);
            col = e.op("arith.addi", &[cm, qc], &it);
            let bi = e.index(block[i]);
            let rm = e.op("arith.muli", &[row, bi], &it);
            row = e.op("arith.addi", &[rm, kk], &it);
        }
        let (n, c) = (e.loop_index(0), e.loop_index(1));
        let kn = e.index(k);
        let cb = e.op("arith.muli", &[c, kn], &it);
        let ch = e.op("arith.addi", &[cb, row], &it);
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
        let off = e.op("arith.subi", &[n, km1], &it);
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
            let ex = e.op("math.exp", &[nv], &c2.ty);
            let den = e.add(one, ex, &c2);
            v = e.div(v, den, &c2);
        }
        e.cast(v, &c2, &s2)
    });
    let state = l.map_op(&[b, ch, k - 1], &sc.ty.clone(), &[padded], vec![expr_map(3, vec![d(0), d(1), add(d(2), c(t))])], |_, a| a[0]);
    Ok(vec![y, state])
}

/// Window geometry of a conv or pool: per spatial dim, kernel, stride,
/// dilation and padding before/after (explicit or from auto_pad).
struct Window {
    strides: Vec<i64>,
    dilations: Vec<i64>,
    before: Vec<i64>,
    after: Vec<i64>,
}

fn window(l: &Lower, input: &[i64], output: &[i64], kernel: Vec<i64>) -> Result<Window, String> {
    let s = kernel.len();
    let strides = l.ints_attr("strides").unwrap_or_else(|| vec![1; s]);
    let dilations = l.ints_attr("dilations").unwrap_or_else(|| vec![1; s]);
    if strides.len() != s || dilations.len() != s {
        return Err("strides and dilations must have one entry per spatial dim".into());
    }
    let auto = l.str_attr("auto_pad").unwrap_or_else(|| "NOTSET".into());
    let (mut before, mut after) = (vec![0; s], vec![0; s]);
    match auto.as_str() {
        "SAME_UPPER" | "SAME_LOWER" => {
            for i in 0..s {
                let keff = (kernel[i] - 1) * dilations[i] + 1;
                let total = ((output[i] - 1) * strides[i] + keff - input[i]).max(0);
                let small = total / 2;
                if auto == "SAME_UPPER" {
                    before[i] = small;
                    after[i] = total - small;
                } else {
                    before[i] = total - small;
                    after[i] = small;
                }
            }
        }
        "VALID" => {}
        _ => {
            if let Some(p) = l.ints_attr("pads") {
                if p.len() != 2 * s {
                    return Err("pads must have two entries per spatial dim".into());
                }
                before = p[..s].to_vec();
                after = p[s..].to_vec();
            }
        }
    }
    Ok(Window { strides, dilations, before, after })
}

/// Pads the spatial dims (from dim 2) of `x` with `value`: `tensor.pad`
/// (a fill and an insert once generalized: no bounds test per element).
fn pad_with(l: &mut Lower, x: Value, before: &[i64], after: &[i64], value: f64) -> Value {
    if before.iter().chain(after).all(|&p| p == 0) {
        return x;
    }
    let t = l.body.value_type(x).clone();
    let sc = Sc::of(l.ctx, t.element_type().unwrap()).unwrap();
    let (mut low, mut high) = (vec![0i64; 2], vec![0i64; 2]);
    low.extend_from_slice(before);
    high.extend_from_slice(after);
    let v = l.emit().scalar(value, &sc);
    pad_by(l, x, &low, &high, v)
}

/// `tensor.pad` of `x` by `low`/`high` elements per dim with the scalar `v`.
pub(super) fn pad_by(l: &mut Lower, x: Value, low: &[i64], high: &[i64], v: Value) -> Value {
    if low.iter().chain(high).all(|&p| p == 0) {
        return x;
    }
    let t = l.body.value_type(x).clone();
    let shape = t.shape().unwrap().to_vec();
    let oshape: Vec<i64> = (0..shape.len()).map(|i| shape[i] + low[i] + high[i]).collect();
    let ty = l.tensor_type(&oshape, t.element_type().unwrap());
    let st = ir::OperationState::new(l.ctx.op_name("tensor.pad"), l.loc.clone())
        .operands(&[x, v])
        .results(&[ty])
        .property(l.ctx.ident("low"), super::i64_array(l.ctx, low))
        .property(l.ctx.ident("high"), super::i64_array(l.ctx, high));
    let op = l.body.build(st, l.at());
    l.body.op(op).result(0)
}

fn pad_spatial(l: &mut Lower, x: Value, before: &[i64], after: &[i64]) -> Value {
    pad_with(l, x, before, after, 0.0)
}

/// Conv: with one group, a matrix product (below); grouped, loops
/// (n, m, o_1..o_s | c, k_1..k_s) with X read at
/// (n, group_base(m) + c, o_i * stride_i + k_i * dilation_i) after zero padding.
fn conv(l: &mut Lower) -> Result<Vec<Value>, String> {
    let (x, w, bias) = (l.operand(0)?, l.operand(1)?, l.opt(2));
    let sc = l.out_info(0)?.sc;
    Ok(vec![conv_of(l, x, w, bias, &sc)?])
}

/// `v` − its zero point (absent: 0; per tensor, or per slice of `axis`) in i32.
pub(super) fn minus_zero_point(l: &mut Lower, v: Value, zp: Option<Value>, axis: usize) -> Result<Value, String> {
    let vi = l.info(v)?;
    let r = vi.rank();
    let i32s = Sc { ty: l.ctx.i32(), kind: super::Kind::Signed };
    let mut ins = vec![v];
    let mut maps = vec![AffineMap::identity(r as u32)];
    let zsc = match zp {
        Some(z) => {
            let zi = l.info(z)?;
            ins.push(z);
            maps.push(if zi.numel() == 1 { expr_map(r, vec![c(0); zi.rank()]) } else if zi.rank() == 1 && zi.shape[0] == vi.shape[axis] { dims_map(r, &[axis]) } else { return Err(format!("a zero point of shape {:?} for a tensor of shape {:?}", zi.shape, vi.shape)) });
            Some(zi.sc)
        }
        None => None,
    };
    let vsc = vi.sc.clone();
    let o = i32s.clone();
    Ok(l.map_op(&vi.shape, &i32s.ty.clone(), &ins, maps, move |e, a| {
        let x = e.cast(a[0], &vsc, &o);
        match &zsc {
            Some(zs) => {
                let z = e.cast(a[1], zs, &o);
                e.sub(x, z, &o)
            }
            None => x,
        }
    }))
}

/// ConvInteger: (x − x_zp) ⊛ (w − w_zp) in i32, the weight's zero point per
/// tensor or per output channel.
fn conv_integer(l: &mut Lower) -> Result<Vec<Value>, String> {
    let (x, w) = (l.operand(0)?, l.operand(1)?);
    let (zx, zw) = (l.opt(2), l.opt(3));
    let (xi, wi, out) = (l.info(x)?, l.info(w)?, l.out_info(0)?);
    if xi.rank() == 4 && wi.rank() == 4 {
        let win = window(l, &xi.shape[2..], &out.shape[2..], wi.shape[2..].to_vec())?;
        if let Some(y) = super::int8::conv(l, x, w, zx, zw, None, super::int8::Tail::Int32, [&win.strides, &win.dilations, &win.before, &win.after])? {
            return Ok(vec![y]);
        }
    }
    let x = minus_zero_point(l, x, zx, 1)?;
    let w = minus_zero_point(l, w, zw, 0)?;
    let sc = Sc { ty: l.ctx.i32(), kind: super::Kind::Signed };
    Ok(vec![conv_of(l, x, w, None, &sc)?])
}

/// QLinearConv: the ConvInteger product plus the i32 bias, requantized by
/// x_scale · w_scale / y_scale (w_scale per tensor or per output channel),
/// rounded half to even, plus y's zero point, saturated. Int8 weights that
/// fit run on the VNNI kernel (`int8.rs`).
fn qlinear_conv(l: &mut Lower) -> Result<Vec<Value>, String> {
    let (x, sx, zx, w, sw, zw, sy) = (l.operand(0)?, l.operand(1)?, l.opt(2), l.operand(3)?, l.operand(4)?, l.opt(5), l.operand(6)?);
    let (zy, bias) = (l.opt(7), l.opt(8));
    let q = super::int8::QParams { sx, sw, sy, zy };
    let (xi, wi, out) = (l.info(x)?, l.info(w)?, l.out_info(0)?);
    if xi.rank() == 4 && wi.rank() == 4 {
        let win = window(l, &xi.shape[2..], &out.shape[2..], wi.shape[2..].to_vec())?;
        if let Some(y) = super::int8::conv(l, x, w, zx, zw, bias, super::int8::Tail::Requant(&q), [&win.strides, &win.dilations, &win.before, &win.after])? {
            return Ok(vec![y]);
        }
    }
    let x = minus_zero_point(l, x, zx, 1)?;
    let w = minus_zero_point(l, w, zw, 0)?;
    let i32s = Sc { ty: l.ctx.i32(), kind: super::Kind::Signed };
    let acc = conv_of(l, x, w, bias, &i32s)?;
    Ok(vec![super::int8::requantize(l, acc, AffineMap::identity(out.rank() as u32), &q, 1)?])
}

/// A convolution of values `x` and `wv` (the op's attributes, its output's shape) in `sc`.
fn conv_of(l: &mut Lower, x: Value, wv: Value, bias: Option<Value>, sc: &Sc) -> Result<Value, String> {
    let xi = l.info(x)?;
    let wi = l.info(wv)?;
    let out = l.out_info(0)?;
    if xi.rank() < 3 || wi.rank() != xi.rank() {
        return Err("Conv needs input and weight of rank 3 or more".into());
    }
    let s = xi.rank() - 2;
    let g = l.int_attr("group", 1);
    let kernel = wi.shape[2..].to_vec();
    let w = window(l, &xi.shape[2..], &out.shape[2..], kernel)?;
    let (m_total, c_per) = (wi.shape[0], wi.shape[1]);
    if g <= 0 || m_total % g != 0 || xi.shape[1] != c_per * g {
        return Err(format!("group {} does not divide the channels ({} in, {} out)", g, xi.shape[1], m_total));
    }
    let x = pad_spatial(l, x, &w.before, &w.after);
    let sc = sc.clone();
    // A k×k kernel of stride 1 or 2 over wide rows is computed directly,
    // without the K-times-larger im2col buffer: the contraction kernel reads
    // each input row at s·ow + kw (s = 2: two vectors, their even lanes) and
    // keeps a tile of output channels × row vectors in registers over
    // (c, kh, kw).
    let direct = w.strides.iter().all(|&s| s == 1 || s == 2) && wi.shape[2..].iter().any(|&k| k > 1) && out.shape.last().is_some_and(|&ow| ow >= DIRECT_CONV_MIN_WIDTH);
    if g == 1 && !direct {
        return conv_as_matmul(l, x, wv, bias, &w, &out.shape, &sc);
    }
    if s == 2 && c_per == 1 && m_total == g {
        // Depthwise: the named op, filters viewed as [C, kh, kw].
        let w3 = super::shape::reshape(l, wv, &[m_total, wi.shape[2], wi.shape[3]]);
        let init = match bias {
            Some(b) => {
                let r = out.rank();
                l.map_op(&out.shape, &sc.ty.clone(), &[b], vec![dims_map(r, &[1])], |_, a| a[0])
            }
            None => l.fill(&out.shape, &sc, 0.0),
        };
        let (st, dl) = (super::i64_array(l.ctx, &w.strides), super::i64_array(l.ctx, &w.dilations));
        return Ok(l.named("tensor.depthwise_conv_2d_nchw_chw", &[x, w3, init], &[("strides", st), ("dilations", dl)]));
    }
    let n_loops = 3 + 2 * s;
    let cl = 2 + s;
    // Grouped: input channel = (m / (M/g)) · (C/g) + c; depthwise (one output
    // channel per group) needs no division.
    let group_of_m = if g == 1 {
        c(0)
    } else if m_total / g == 1 {
        d(1)
    } else {
        AffineExpr::FloorDiv(Box::new(d(1)), Box::new(c(m_total / g)))
    };
    let chan = add(mul(group_of_m, c_per), d(cl));
    let mut xres = vec![d(0), chan];
    for i in 0..s {
        xres.push(add(mul(d(2 + i), w.strides[i]), mul(d(cl + 1 + i), w.dilations[i])));
    }
    let mut wres = vec![d(1), d(cl)];
    wres.extend((0..s).map(|i| d(cl + 1 + i)));
    let init = match bias {
        Some(b) => {
            let r = out.rank();
            l.map_op(&out.shape, &sc.ty.clone(), &[b], vec![dims_map(r, &[1])], |_, a| a[0])
        }
        None => l.fill(&out.shape, &sc, 0.0),
    };
    let mut iters = vec![Iterator::Parallel; 2 + s];
    iters.extend(vec![Iterator::Reduction; 1 + s]);
    Ok(super::linalg::contract(l, x, expr_map(n_loops, xres), wv, expr_map(n_loops, wres), init, &iters, 1.0, (None, None)))
}

/// Output rows at least this wide take the direct convolution (two vectors
/// of 16 lanes, mostly full); narrower ones the im2col product, whose rows
/// are the whole output map.
const DIRECT_CONV_MIN_WIDTH: i64 = 28;

/// Conv with one group as a matrix product (im2col): the (padded) input is
/// gathered into columns [N, C·K, P] (P = output positions; no copy at all
/// for an unstrided 1×1 kernel), the weight viewed as [M, C·K], and
/// out[n, m, p] = Σ_q W[m, q] · col[n, q, p] is one contraction, which the
/// loop lowering register-tiles.
fn conv_as_matmul(l: &mut Lower, x: Value, wv: Value, bias: Option<Value>, w: &Window, out_shape: &[i64], sc: &Sc) -> Result<Value, String> {
    let xs = l.body.value_type(x).shape().unwrap().to_vec();
    let ws = l.body.value_type(wv).shape().unwrap().to_vec();
    let s = xs.len() - 2;
    let (n, c, m) = (xs[0], xs[1], ws[0]);
    let kernel = &ws[2..];
    let k: i64 = kernel.iter().product();
    let p: i64 = out_shape[2..].iter().product();
    let direct = kernel.iter().all(|&k| k == 1) && w.strides.iter().all(|&s| s == 1) && xs[2..] == out_shape[2..];
    let col = if direct {
        super::shape::reshape(l, x, &[n, c, p])
    } else {
        // col[n, c, k_1..k_s, o_1..o_s] = x[n, c, o_i * stride_i + k_i * dilation_i]
        let mut cshape = vec![n, c];
        cshape.extend_from_slice(kernel);
        cshape.extend_from_slice(&out_shape[2..]);
        let r = cshape.len();
        let mut res = vec![d(0), d(1)];
        for i in 0..s {
            res.push(add(mul(d(2 + s + i), w.strides[i]), mul(d(2 + i), w.dilations[i])));
        }
        let col = l.map_op(&cshape, &sc.ty.clone(), &[x], vec![expr_map(r, res)], |_, a| a[0]);
        super::shape::reshape(l, col, &[n, c * k, p])
    };
    let w2 = super::shape::reshape(l, wv, &[m, c * k]);
    // The accumulator [n, m] for one output position, else [n, m, p].
    let acc_shape = if p == 1 { vec![n, m] } else { vec![n, m, p] };
    let init = match bias {
        Some(b) => l.map_op(&acc_shape, &sc.ty.clone(), &[b], vec![dims_map(acc_shape.len(), &[1])], |_, a| a[0]),
        None => l.fill(&acc_shape, sc, 0.0),
    };
    if p == 1 {
        // One output position (a squeeze-and-excitation block's convs after a
        // global pool): out[n, m] = Σ_q col[n, q]·W^T[q, m], the channels
        // along the vector lanes; W^T of a constant weight is folded at
        // compile time. The product the other way round would fill one lane of 16.
        let wt = l.map_op(&[c * k, m], &sc.ty.clone(), &[w2], vec![expr_map(2, vec![d(1), d(0)])], |_, a| a[0]);
        let col2 = super::shape::reshape(l, col, &[n, c * k]);
        let iters = [Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
        let y = super::linalg::contract(l, col2, expr_map(3, vec![d(0), d(2)]), wt, expr_map(3, vec![d(2), d(1)]), init, &iters, 1.0, (None, None));
        return Ok(super::shape::reshape(l, y, out_shape));
    }
    // Loops: n, m, p | q.
    let iters = [Iterator::Parallel, Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
    let y = super::linalg::contract(l, w2, expr_map(4, vec![d(1), d(3)]), col, expr_map(4, vec![d(0), d(3), d(2)]), init, &iters, 1.0, (None, None));
    Ok(super::shape::reshape(l, y, out_shape))
}

/// ConvTranspose: out[n, m, o] = sum over (c, k) of x[n, c, i] * w[c, m, k]
/// where o = i * stride + k * dilation - pad, read by solving for i in the body.
fn conv_transpose(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let wi = l.in_info(1)?;
    let out = l.out_info(0)?;
    let s = xi.rank() - 2;
    let g = l.int_attr("group", 1);
    let kernel = wi.shape[2..].to_vec();
    let strides = l.ints_attr("strides").unwrap_or_else(|| vec![1; s]);
    let dil = l.ints_attr("dilations").unwrap_or_else(|| vec![1; s]);
    let before = onnx::infer::conv_transpose_pads_before(l.body, l.op).ok_or("ConvTranspose: pads need static shapes")?;
    let c_in = xi.shape[1];
    let m_per = wi.shape[1];
    let c_per = c_in / g;
    let (x, wv) = (l.operand(0)?, l.operand(1)?);
    let sc = out.sc.clone();
    let tiles = (0..s).all(|i| kernel[i] == strides[i] && dil[i] == 1 && before[i] == 0 && out.shape[2 + i] == xi.shape[2 + i] * strides[i]);
    if g == 1 && tiles && sc.is_float() {
        return conv_transpose_tiles(l, x, wv, &xi, &kernel, &out);
    }
    let init = match l.opt(2) {
        Some(b) => {
            let r = out.rank();
            l.map_op(&out.shape, &sc.ty.clone(), &[b], vec![dims_map(r, &[1])], |_, a| a[0])
        }
        None => l.fill(&out.shape, &sc, 0.0),
    };
    // Loops: n, m, o_1..o_s | c (within group), k_1..k_s.
    let n_loops = 3 + 2 * s;
    let cl = 2 + s;
    let mut iters = vec![Iterator::Parallel; 2 + s];
    iters.extend(vec![Iterator::Reduction; 1 + s]);
    let out_m = dims_map(n_loops, &(0..2 + s).collect::<Vec<_>>());
    let xs = xi.shape.clone();
    let mut ranges = out.shape.clone();
    ranges.push(c_per);
    ranges.extend(&kernel);
    let r = l.generic_ranged(&[], &[init], vec![out_m], &iters, Some(ranges), move |e, a| {
        let it = e.ctx.index();
        let i1 = e.ctx.i1();
        let isc = Sc { ty: it.clone(), kind: super::Kind::Signed };
        let n = e.loop_index(0);
        let m = e.loop_index(1);
        let cc = e.loop_index(cl);
        let mp = e.index(m_per);
        let grp = e.op("arith.divsi", &[m, mp], &it);
        let mm = e.op("arith.remsi", &[m, mp], &it);
        let cpv = e.index(c_per);
        let gbase = e.op("arith.muli", &[grp, cpv], &it);
        let ch = e.op("arith.addi", &[gbase, cc], &it);
        let mut ok: Option<Value> = None;
        let mut xat = vec![n, ch];
        let mut wat = vec![ch, mm];
        for i in 0..s {
            let o = e.loop_index(2 + i);
            let k = e.loop_index(cl + 1 + i);
            let pb = e.index(before[i]);
            let dv = e.index(dil[i]);
            let kd = e.op("arith.muli", &[k, dv], &it);
            let num = e.op("arith.addi", &[o, pb], &it);
            let num = e.op("arith.subi", &[num, kd], &it);
            let sv = e.index(strides[i]);
            let q = e.op("arith.divsi", &[num, sv], &it);
            let rem = e.op("arith.remsi", &[num, sv], &it);
            let zero = e.index(0);
            let hi = e.index(xs[2 + i]);
            let c1 = e.cmp(Cmp::Ge, num, zero, &isc);
            let c2 = e.cmp(Cmp::Eq, rem, zero, &isc);
            let c3 = e.cmp(Cmp::Lt, q, hi, &isc);
            let a12 = e.op("arith.andi", &[c1, c2], &i1);
            let inb = e.op("arith.andi", &[a12, c3], &i1);
            ok = Some(match ok {
                None => inb,
                Some(p) => e.op("arith.andi", &[p, inb], &i1),
            });
            let mx = e.index(xs[2 + i] - 1);
            let q = e.op("arith.maxsi", &[q, zero], &it);
            let q = e.op("arith.minsi", &[q, mx], &it);
            xat.push(q);
            wat.push(k);
        }
        let mut xo = vec![x];
        xo.extend(xat);
        let xv = e.op("tensor.extract", &xo, &sc.ty);
        let mut wo = vec![wv];
        wo.extend(wat);
        let wvv = e.op("tensor.extract", &wo, &sc.ty);
        let p = e.mul(xv, wvv, &sc);
        let sum = e.add(a[0], p, &sc);
        vec![e.select(ok.unwrap(), sum, a[0])]
    });
    Ok(r)
}

/// ConvTranspose whose kernel equals its stride (an upsampling by learned
/// s×s tiles: each output element comes from one input position and one
/// kernel position) as one product and a rearrangement: Y[n, (m, k), p] =
/// Σ_c Wt[(m, k), c]·X[n, c, p], Wt = W as [C, M·K] transposed (a constant
/// weight's transpose is folded at compile time), then out[n, m, o] =
/// Y[n, (m, o mod s), o div s] + bias[m]. The general form visits every
/// (output, channel, kernel) triple and discards all but 1/K of them.
fn conv_transpose_tiles(l: &mut Lower, x: Value, wv: Value, xi: &TInfo, kernel: &[i64], out: &TInfo) -> Result<Vec<Value>, String> {
    let s = kernel.len();
    let (n, c_in, m) = (xi.shape[0], xi.shape[1], out.shape[1]);
    let k: i64 = kernel.iter().product();
    let p: i64 = xi.shape[2..].iter().product();
    let sc = out.sc.clone();
    let w2 = super::shape::reshape(l, wv, &[c_in, m * k]);
    let wt = l.map_op(&[m * k, c_in], &sc.ty.clone(), &[w2], vec![expr_map(2, vec![d(1), d(0)])], |_, a| a[0]);
    let x3 = super::shape::reshape(l, x, &[n, c_in, p]);
    let init = l.fill(&[n, m * k, p], &sc, 0.0);
    let iters = [Iterator::Parallel, Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
    let y = super::linalg::contract(l, wt, expr_map(4, vec![d(1), d(3)]), x3, expr_map(4, vec![d(0), d(3), d(2)]), init, &iters, 1.0, (None, None));
    // Output loops n, m, o_1..o_s: kernel position o_i mod s_i, input position o_i div s_i.
    let r = out.rank();
    let (mut kflat, mut pflat) = (mul(d(1), k), c(0));
    let (mut kstride, mut pstride) = (1i64, 1i64);
    for i in (0..s).rev() {
        let o = d(2 + i);
        let ki = AffineExpr::Mod(Box::new(o.clone()), Box::new(c(kernel[i])));
        let pi = AffineExpr::FloorDiv(Box::new(o), Box::new(c(kernel[i])));
        kflat = add(kflat, mul(ki, kstride));
        pflat = add(pflat, mul(pi, pstride));
        kstride *= kernel[i];
        pstride *= xi.shape[2 + i];
    }
    let ymap = expr_map(r, vec![d(0), kflat, pflat]);
    let res = match l.opt(2) {
        Some(b) => {
            let s2 = sc.clone();
            l.map_op(&out.shape, &sc.ty.clone(), &[y, b], vec![ymap, dims_map(r, &[1])], move |e, a| e.add(a[0], a[1], &s2))
        }
        None => l.map_op(&out.shape, &sc.ty.clone(), &[y], vec![ymap], |_, a| a[0]),
    };
    Ok(vec![res])
}

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
    let is_max = l.name() == "onnx.MaxPool";
    let lp = (l.name() == "onnx.LpPool").then(|| l.int_attr("p", 2) as f64);
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
            let os = e.op("arith.muli", &[o, sv], &it);
            let kd = e.op("arith.muli", &[k, dv], &it);
            let p = e.op("arith.addi", &[os, kd], &it);
            let p = e.op("arith.subi", &[p, pb], &it);
            let zero = e.index(0);
            let n = e.index(xs[2 + i]);
            let ge = e.cmp(Cmp::Ge, p, zero, &isc);
            let lt = e.cmp(Cmp::Lt, p, n, &isc);
            let ok = e.op("arith.andi", &[ge, lt], &i1);
            inb = Some(match inb {
                None => ok,
                Some(q) => e.op("arith.andi", &[q, ok], &i1),
            });
            if include_pad {
                let lo = e.index(-w.before[i]);
                let hi = e.index(xs[2 + i] + w.after[i]);
                let ge = e.cmp(Cmp::Ge, p, lo, &isc);
                let lt = e.cmp(Cmp::Lt, p, hi, &isc);
                let okp = e.op("arith.andi", &[ge, lt], &i1);
                counted = Some(match counted {
                    None => okp,
                    Some(q) => e.op("arith.andi", &[q, okp], &i1),
                });
            }
            let m = e.index(xs[2 + i] - 1);
            let p = e.op("arith.maxsi", &[p, zero], &it);
            let p = e.op("arith.minsi", &[p, m], &it);
            at.push(p);
        }
        let inb = inb.unwrap();
        let at_copy = at.clone();
        let mut ops = vec![x];
        ops.extend(at);
        let v = e.op("tensor.extract", &ops, &sc.ty);
        if let Some(p) = lp {
            let av = e.op("math.absf", &[v], &sc.ty);
            let pv = e.scalar(p, &sc);
            let t = e.op("math.powf", &[av, pv], &sc.ty);
            let sum = e.add(a[0], t, &sc);
            vec![e.select(inb, sum, a[0]), a[1]]
        } else if is_max && with_indices {
            // Flat index of the element read, row- or column-major in the spatial dims.
            let it = e.ctx.index();
            let mut flat = at_copy[0];
            let dims: Vec<usize> = if storage_col { std::iter::once(1).chain((2..2 + s).rev()).collect() } else { (1..2 + s).collect() };
            for dd in dims {
                let size = e.index(xs[dd]);
                let f = e.op("arith.muli", &[flat, size], &it);
                flat = e.op("arith.addi", &[f, at_copy[dd]], &it);
            }
            let i64t = e.ctx.i64();
            let flat = e.index_cast(flat, &i64t, false);
            let gt = e.cmp(Cmp::Gt, v, a[0], &sc);
            let take = e.op("arith.andi", &[inb, gt], &e.ctx.i1());
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
            e.op("math.powf", &[a[0], inv], &s2.ty)
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
    let init = l.fill(os, sc, ident);
    let s1 = sc.clone();
    let acc = if lp.is_none() {
        let (k, st, dl) = (super::i64_array(l.ctx, kernel), super::i64_array(l.ctx, &w.strides), super::i64_array(l.ctx, &w.dilations));
        let name = if is_max { "tensor.pooling_nchw_max" } else { "tensor.pooling_nchw_sum" };
        l.named(name, &[xp, init], &[("kernel", k), ("strides", st), ("dilations", dl)])
    } else {
        l.generic_ranged(&[xp], &[init], vec![expr_map(n_loops, xres), dims_map(n_loops, &(0..2 + s).collect::<Vec<_>>())], &iters, Some(ranges), move |e, a| {
        let v = match lp {
            Some(p) => {
                let av = e.op("math.absf", &[a[0]], &s1.ty);
                let pv = e.scalar(p, &s1);
                e.op("math.powf", &[av, pv], &s1.ty)
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
            e.op("math.powf", &[a[0], inv], &s2.ty)
        }
        None => {
            let n = e.scalar(count as f64, &s2);
            e.div(a[0], n, &s2)
        }
    })))
}

fn global_pool(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let x = l.operand(0)?;
    let axes: Vec<usize> = (2..xi.rank()).collect();
    let sc = xi.sc.clone();
    if l.name() == "onnx.GlobalMaxPool" {
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
        let sd = e.op("math.sqrt", &[var], &sc.ty);
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
        let sd = e.op("math.sqrt", &[v], &s3.ty);
        let one = e.scalar(1.0, &s3);
        e.div(one, sd, &s3)
    });
    (mean, inv)
}

/// Computes in f32 when the input is narrower (ONNX's stash_type).
fn compute_type(l: &Lower, sc: &Sc) -> Sc {
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
    if name == "onnx.Hardmax" {
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
    Ok(vec![softmax_along(l, x, mx, ax, name == "onnx.LogSoftmax")])
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
        let ex = e.op("math.exp", &[dlt], &s1.ty);
        vec![e.add(a[2], ex, &s1)]
    })[0];
    let s2 = sc.clone();
    l.map_op(&shape, &sc.ty.clone(), &[x, mx, sum], vec![id, km.clone(), km], move |e, a| {
        let dlt = e.sub(a[0], a[1], &s2);
        if log {
            let ls = e.op("math.log", &[a[2]], &s2.ty);
            e.sub(dlt, ls, &s2)
        } else {
            let ex = e.op("math.exp", &[dlt], &s2.ty);
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
        let rs = e.op("math.sqrt", &[v], &c2.ty);
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
    let norm = reduce(l, x, &[ax], true, Combine::Add, &sc, move |e, v| if p == 1 { e.op("math.absf", &[v], &c1.ty) } else { e.mul(v, v, &c1) });
    let km = out_map(r, &[ax], true);
    let s2 = sc.clone();
    Ok(vec![l.map_op(&xi.shape, &sc.ty.clone(), &[x, norm], vec![AffineMap::identity(r as u32), km], move |e, a| {
        let nrm = if p == 2 { e.op("math.sqrt", &[a[1]], &s2.ty) } else { a[1] };
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
    let st = ir::OperationState::new(l.ctx.op_name("tensor.pad"), l.loc.clone())
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
        let p = e.op("math.powf", &[t, be], &s3.ty);
        e.div(a[0], p, &s3)
    })])
}
