//! Convolutions as reduction `tensor.generic`s over (channels, kernel
//! window): directly over wide rows (stride 1 or 2), else as a product of the
//! weights and the im2col columns; integer convolutions with their zero
//! points; ConvTranspose as phase convolutions or by solving for the input
//! position. The window geometry and padding shared with the pools.

use onnx::ops;
use super::{add, c, d, dims_map, expr_map, mul, Cmp, Lower, LowerFn, Sc, TInfo};
use ir::affine::{AffineExpr, AffineMap};
use ir::Value;
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[
    (ops::Conv::NAME, conv),
    (ops::ConvInteger::NAME, conv_integer),
    (ops::QLinearConv::NAME, qlinear_conv),
    (ops::ConvTranspose::NAME, conv_transpose),
];

/// Window geometry of a conv or pool: per spatial dim, kernel, stride,
/// dilation and padding before/after (explicit or from auto_pad; after, only
/// as much as the last window reaches).
pub(super) struct Window {
    pub(super) strides: Vec<i64>,
    pub(super) dilations: Vec<i64>,
    pub(super) before: Vec<i64>,
    pub(super) after: Vec<i64>,
}

pub(super) fn window(l: &Lower, input: &[i64], output: &[i64], kernel: Vec<i64>) -> Result<Window, String> {
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
    // Padding after the input that no window reaches is left out: a
    // stride-2 window's last one often ends inside the input (ResNet-18's
    // 3x3 max pool over 112 rows reads rows -1..111, its pad of 1 after them
    // unread), and each padded column costs a cache line a row to fill.
    for i in 0..s {
        let reach = (output[i] - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1;
        after[i] = after[i].min((reach - before[i] - input[i]).max(0));
    }
    Ok(Window { strides, dilations, before, after })
}

/// Pads the spatial dims (from dim 2) of `x` with `value`: `tensor.pad`
/// (a fill and an insert once generalized: no bounds test per element).
pub(super) fn pad_with(l: &mut Lower, x: Value, before: &[i64], after: &[i64], value: f64) -> Value {
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
    let st = ir::OperationState::new(l.ctx.op_name(tensor::ops::PAD), l.loc.clone())
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
    if g == 1 && direct && s == 2 && l.is_constant(wv) {
        if let Some(t) = direct_channel_tile(m_total, out.shape[3], w.strides[1]) {
            return Ok(conv_direct_channel_lanes(l, x, wv, bias, &w, &out.shape, &sc, t));
        }
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
        return Ok(l.named(tensor::ops::DEPTHWISE_CONV_2D_NCHW_CHW, &[x, w3, init], &[("strides", st), ("dilations", dl)]));
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

/// The channels per tile when a direct 2-D conv with constant weights runs
/// with its output channels along the vector lanes: where its output rows
/// would leave a tenth or more of the lanes idle (a 28-wide row fills 28 of
/// 32; rows of at most 8 past whole vectors take half vectors, which cost
/// half a vector where the target's units are 256 bits wide: a 56-wide row
/// fills 56 of 56 lanes there, 56 of 64 on 512-bit units), or it has a
/// stride of 2 along the rows (each vector of a row then takes two loads and
/// a shuffle).
fn direct_channel_tile(m: i64, ow: i64, stride_w: i64) -> Option<i64> {
    let t = channel_tile_width(m)?;
    let r = ow % 16;
    let lanes = ow - r + match r {
        0 => 0,
        1..=8 if crate::cpu_target().tile().half_vectors_save => 8,
        _ => 16,
    };
    (10 * (lanes - ow) >= lanes || stride_w == 2).then_some(t)
}

/// A direct 2-D conv with the output channels along the lanes, in tiles of
/// t channels: y[n, mt, oh, ow, u] = Σ x[n, c, oh·s + kh·d, ow·s + kw·d] ·
/// Wp[mt, c, kh, kw, u], Wp[mt, c, kh, kw, u] = W[mt·t + u, c, kh, kw]
/// packed at compile time. The contraction kernel's rows are output
/// positions along a row (each input element broadcast), its columns t
/// channels; the product is then transposed to NCHW in registers (16×16
/// tiles), the elementwise ops after the conv fused into that copy.
#[allow(clippy::too_many_arguments)]
fn conv_direct_channel_lanes(l: &mut Lower, x: Value, wv: Value, bias: Option<Value>, w: &Window, out_shape: &[i64], sc: &Sc, t: i64) -> Value {
    let ws = l.body.value_type(wv).shape().unwrap().to_vec();
    let (n, m, c, kh, kw) = (out_shape[0], ws[0], ws[1], ws[2], ws[3]);
    let (oh, ow, mt) = (out_shape[2], out_shape[3], m / t);
    let ty = sc.ty.clone();
    let wp = l.map_op(&[mt, c, kh, kw, t], &ty, &[wv], vec![expr_map(5, vec![add(mul(d(0), t), d(4)), d(1), d(2), d(3)])], |_, a| a[0]);
    let init = channel_tiles_init(l, bias, &[n, mt, oh, ow, t], t, sc);
    // Loops: n, mt, oh, ow, u | c, kh, kw.
    let xres = vec![d(0), d(5), add(mul(d(2), w.strides[0]), mul(d(6), w.dilations[0])), add(mul(d(3), w.strides[1]), mul(d(7), w.dilations[1]))];
    let wres = vec![d(1), d(5), d(6), d(7), d(4)];
    let mut iters = vec![Iterator::Parallel; 5];
    iters.extend([Iterator::Reduction; 3]);
    let yt = super::linalg::contract(l, x, expr_map(8, xres), wp, expr_map(8, wres), init, &iters, 1.0, (None, None));
    from_channel_tiles(l, yt, out_shape, t, vec![d(2), d(3)], sc)
}

/// The channels of a tile along the lanes for `m` output channels: the
/// kernel's tile or half of it (64 or 32 channels; 16 on AVX2), dividing m.
/// Where that makes an odd number of tiles, three quarters or half of it
/// where they are even: threads split the tiles, and 3 tiles went 2 and 1
/// to two threads (MobileNetV2's 14×14 1×1 convs to 96 channels, now 2 tiles
/// of 48; to 576, 12 tiles of 48, not 9 of 64).
fn channel_tile_width(m: i64) -> Option<i64> {
    let w = super::linalg::panel_columns();
    let fits = |t: &i64| *t >= 16 && t % 16 == 0 && m % t == 0;
    let first = [w, w / 2].into_iter().find(fits)?;
    let odd = |t: i64| (m / t) % 2 == 1 && m / t > 1;
    Some(if odd(first) { [w * 3 / 4, w / 2].into_iter().find(|t| fits(t) && !odd(*t)).unwrap_or(first) } else { first })
}

/// The accumulators `[.., t]` of a product in channel tiles of t (`shape`,
/// its tile index at dim 1, its lane last): the bias of channel tile·t +
/// lane, or zeros.
fn channel_tiles_init(l: &mut Lower, bias: Option<Value>, shape: &[i64], t: i64, sc: &Sc) -> Value {
    let r = shape.len();
    match bias {
        Some(b) => l.map_op(shape, &sc.ty.clone(), &[b], vec![expr_map(r, vec![add(mul(d(1), t), d(r - 1))])], |_, a| a[0]),
        None => l.fill(shape, sc, 0.0),
    }
}

/// A product in channel tiles `yt` ([N, M/t, positions.., t]) copied back
/// to the NCHW `out_shape`, `positions` its middle indices in terms of the
/// output's loops: written in the output's own shape, so that the
/// elementwise ops after the conv (a residual Add, a Clip) fuse into this
/// copy, whose read the vector loops transpose in 16×16 tiles.
fn from_channel_tiles(l: &mut Lower, yt: Value, out_shape: &[i64], t: i64, positions: Vec<AffineExpr>, sc: &Sc) -> Value {
    let tile_of = AffineExpr::FloorDiv(Box::new(d(1)), Box::new(AffineExpr::Const(t)));
    let lane_of = AffineExpr::Mod(Box::new(d(1)), Box::new(AffineExpr::Const(t)));
    let mut res = vec![d(0), tile_of];
    res.extend(positions);
    res.push(lane_of);
    l.map_op(out_shape, &sc.ty.clone(), &[yt], vec![expr_map(out_shape.len(), res)], |_, a| a[0])
}

/// The output positions of a product with the channels along the lanes:
/// from the host's tile (`Tile::channel_lanes_min_positions`) to 256; its
/// weights at most `Tile::channel_lanes_max_weight_bytes`.
fn channel_lanes_positions() -> std::ops::RangeInclusive<i64> {
    crate::cpu_target().tile().channel_lanes_min_positions..=256
}

/// The channels per tile when a product of `p` output positions, `m`
/// channels and `q` terms runs with the channels along the vector lanes:
/// the positions fill their vectors partly and the weights fit in L2.
fn channel_tile(p: i64, m: i64, q: i64) -> Option<i64> {
    let t = channel_tile_width(m)?;
    (channel_lanes_positions().contains(&p) && p % 16 != 0 && m * q * 4 <= crate::cpu_target().tile().channel_lanes_max_weight_bytes).then_some(t)
}

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
    if let Some(t) = (p > 1 && l.is_constant(wv)).then(|| channel_tile(p, m, c * k)).flatten() {
        // Few output positions and many channels (a 14×14 map): the
        // channels along the vector lanes, in tiles of t channels,
        // y[n, mt, p, u] = Σ_q col[n, q, p]·Wp[mt, q, u] with Wp[mt, q, u] =
        // W[mt·t + u, q] packed at compile time (each tile's weights one
        // contiguous panel the kernel streams, no copy at run time), then
        // one transpose to the output's shape that the elementwise ops after
        // the conv fuse into.
        let mt = m / t;
        let wp = l.map_op(&[mt, c * k, t], &sc.ty.clone(), &[w2], vec![expr_map(3, vec![add(mul(d(0), t), d(2)), d(1)])], |_, a| a[0]);
        let init_t = channel_tiles_init(l, bias, &[n, mt, p, t], t, sc);
        // Loops: n, mt, p, u | q.
        let iters = [Iterator::Parallel, Iterator::Parallel, Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
        let yt = super::linalg::contract(l, col, expr_map(5, vec![d(0), d(4), d(2)]), wp, expr_map(5, vec![d(1), d(4), d(3)]), init_t, &iters, 1.0, (None, None));
        let position = (2..out_shape.len()).fold(AffineExpr::Const(0), |acc, i| add(mul(acc, out_shape[i]), d(i)));
        return Ok(from_channel_tiles(l, yt, out_shape, t, vec![position], sc));
    }
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
        let grp = e.op(arith::ops::DIVSI, &[m, mp], &it);
        let mm = e.op(arith::ops::REMSI, &[m, mp], &it);
        let cpv = e.index(c_per);
        let gbase = e.op(arith::ops::MULI, &[grp, cpv], &it);
        let ch = e.op(arith::ops::ADDI, &[gbase, cc], &it);
        let mut ok: Option<Value> = None;
        let mut xat = vec![n, ch];
        let mut wat = vec![ch, mm];
        for i in 0..s {
            let o = e.loop_index(2 + i);
            let k = e.loop_index(cl + 1 + i);
            let pb = e.index(before[i]);
            let dv = e.index(dil[i]);
            let kd = e.op(arith::ops::MULI, &[k, dv], &it);
            let num = e.op(arith::ops::ADDI, &[o, pb], &it);
            let num = e.op(arith::ops::SUBI, &[num, kd], &it);
            let sv = e.index(strides[i]);
            let q = e.op(arith::ops::DIVSI, &[num, sv], &it);
            let rem = e.op(arith::ops::REMSI, &[num, sv], &it);
            let zero = e.index(0);
            let hi = e.index(xs[2 + i]);
            let c1 = e.cmp(Cmp::Ge, num, zero, &isc);
            let c2 = e.cmp(Cmp::Eq, rem, zero, &isc);
            let c3 = e.cmp(Cmp::Lt, q, hi, &isc);
            let a12 = e.op(arith::ops::ANDI, &[c1, c2], &i1);
            let inb = e.op(arith::ops::ANDI, &[a12, c3], &i1);
            ok = Some(match ok {
                None => inb,
                Some(p) => e.op(arith::ops::ANDI, &[p, inb], &i1),
            });
            let mx = e.index(xs[2 + i] - 1);
            let q = e.op(arith::ops::MAXSI, &[q, zero], &it);
            let q = e.op(arith::ops::MINSI, &[q, mx], &it);
            xat.push(q);
            wat.push(k);
        }
        let mut xo = vec![x];
        xo.extend(xat);
        let xv = e.op(tensor::ops::EXTRACT, &xo, &sc.ty);
        let mut wo = vec![wv];
        wo.extend(wat);
        let wvv = e.op(tensor::ops::EXTRACT, &wo, &sc.ty);
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
