//! The host reference for NPU partitions: evaluates the tensor-level `npu`
//! ops of a partition (after `convert-onnx-to-npu`, before scheduling) with
//! plain loops. For int8 it is the arithmetic the NPU must match bit for
//! bit (i32 accumulation, `v.requant`'s round-half-up fixed-point
//! requantization, ReLU as the clamp at zero); for f32 it is the same math in
//! another summation order.

use onnx::ops;
use crate::tensor::HostTensor;
use ir::{Body, OpId, Value};
use onnx_translate::proto::data_type as dt;
use std::collections::HashMap;

fn f32s(t: &HostTensor) -> Vec<f32> {
    t.data.as_ref().chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn i8s(t: &HostTensor) -> Vec<i32> {
    t.data.as_ref().iter().map(|b| *b as i8 as i32).collect()
}

fn i32s(t: &HostTensor) -> Vec<i64> {
    t.data.as_ref().chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap()) as i64).collect()
}

fn from_f32(shape: &[i64], v: &[f32]) -> Result<HostTensor, String> {
    let mut t = HostTensor::zeros(dt::FLOAT, shape)?;
    for (c, x) in t.data.as_mut().chunks_exact_mut(4).zip(v) {
        c.copy_from_slice(&x.to_le_bytes());
    }
    Ok(t)
}

fn from_i8(shape: &[i64], v: &[i8]) -> Result<HostTensor, String> {
    let mut t = HostTensor::zeros(dt::INT8, shape)?;
    for (c, x) in t.data.as_mut().iter_mut().zip(v) {
        *c = *x as u8;
    }
    Ok(t)
}


fn shape(body: &Body, v: Value) -> Vec<i64> {
    body.value_type(v).shape().map(|s| s.to_vec()).unwrap_or_default()
}

/// A convolution (NHWC, HWIO) or matmul ([M, K] × [K, N] as a 1×1 conv over M×1).
fn product(body: &Body, op: OpId, ins: &[&HostTensor]) -> Result<HostTensor, String> {
    let o = body.op(op);
    let y = shape(body, o.result(0));
    let conv = body.name(op).as_str() == npu::ops::CONV;
    let (x, w) = (&ins[0].shape, &ins[1].shape);
    let (h, wd, c, kh, kw, f, sh, sw, pt, pl, oh, ow, g) = if conv {
        let s = body.op(op).ints_attr("strides").unwrap_or(vec![1, 1]);
        let p = body.op(op).ints_attr("pads").unwrap_or(vec![0; 4]);
        let g = o.attr("group").and_then(|a| a.as_int()).unwrap_or(1) as i64;
        (x[1], x[2], x[3], w[0], w[1], w[3], s[0], s[1], p[0], p[1], y[1], y[2], g)
    } else {
        (x[0], 1, x[1], 1, 1, w[1], 1, 1, 0, 0, x[0], 1, 1)
    };
    let cin = c / g;
    let per_group = f / g;
    let int8 = ins[0].dtype == dt::INT8;
    let n = (oh * ow * f) as usize;
    // Sum over (kh, kw, ci) per output; in i64 for int8 (the NPU's i32 wraps identically for these ranges).
    // An i16 filter: a depthwise conv's weights less their zero points.
    let wide = |t: &HostTensor| t.data.as_ref().chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]) as f64).collect::<Vec<_>>();
    let (xf, wf) = if int8 { (i8s(ins[0]).into_iter().map(|v| v as f64).collect::<Vec<_>>(), if ins[1].dtype == dt::INT16 { wide(ins[1]) } else { i8s(ins[1]).into_iter().map(|v| v as f64).collect::<Vec<_>>() }) } else { (f32s(ins[0]).into_iter().map(|v| v as f64).collect(), f32s(ins[1]).into_iter().map(|v| v as f64).collect()) };
    let mut acc_i = vec![0i64; n];
    let mut acc_f = vec![0f32; n];
    // int8 padding holds the input's zero point (`pad_value`): a tap over it adds pad · w.
    let pad = if int8 { o.attr("pad_value").and_then(|a| a.as_int()).unwrap_or(0) as i64 } else { 0 };
    for oy in 0..oh {
        for ox in 0..ow {
            for co in 0..f {
                let grp = co / per_group;
                let (mut si, mut sf) = (0i64, 0f32);
                for ky in 0..kh {
                    let iy = oy * sh - pt + ky;
                    for kx in 0..kw {
                        let ix = ox * sw - pl + kx;
                        let inside = iy >= 0 && iy < h && ix >= 0 && ix < wd;
                        if !inside && pad == 0 {
                            continue;
                        }
                        for ci in 0..cin {
                            let wv = wf[(((ky * kw + kx) * cin + ci) * f + co) as usize];
                            let xv = if inside { xf[((iy * wd + ix) * c + grp * cin + ci) as usize] } else { pad as f64 };
                            if int8 {
                                si += xv as i64 * wv as i64;
                            } else {
                                sf += xv as f32 * wv as f32;
                            }
                        }
                    }
                }
                let k = ((oy * ow + ox) * f + co) as usize;
                acc_i[k] = si;
                acc_f[k] = sf;
            }
        }
    }
    if int8 && body.value_type(o.result(0)).element_type().is_some_and(|e| e.to_string() == "i32") {
        // An integer product: the i32 accumulators (wrapping as the array's).
        let mut t = HostTensor::zeros(dt::INT32, &y)?;
        for (c, a) in t.data.as_mut().chunks_exact_mut(4).zip(&acc_i) {
            c.copy_from_slice(&(*a as i32).to_le_bytes());
        }
        return Ok(t);
    }
    if int8 {
        let bias = ins.get(2).map(|b| i32s(b)).unwrap_or_default();
        let mult = body.op(op).ints_attr("mult").ok_or("int8 product without mult")?;
        let shift = body.op(op).ints_attr("shift").ok_or("int8 product without shift")?;
        let (lo, hi) = npu::tensor_ops::int8_clamp(body, op);
        let zp = npu::tensor_ops::int8_zp(body, op);
        let out: Vec<i8> = (0..n)
            .map(|k| {
                let co = k % f as usize;
                let a = (acc_i[k] + bias.get(co).copied().unwrap_or(0)) as i32;
                npu16::quant::requantize(a, mult[co], shift[co], zp, lo, hi)
            })
            .collect();
        return from_i8(&y, &out);
    }
    let bias = ins.get(2).map(|b| f32s(b)).unwrap_or_default();
    let act = Activation::of(body, op);
    let out: Vec<f32> = (0..n).map(|k| act.apply(acc_f[k] + bias.get(k % f as usize).copied().unwrap_or(0.0))).collect();
    from_f32(&y, &out)
}

/// `npu.batch_matmul`: per batch A·B (B given as [Bt, N, K] when `transpose_b`),
/// summed over K in order, as the array accumulates.
fn batch_product(body: &Body, op: OpId, a: &HostTensor, b: &HostTensor) -> Result<HostTensor, String> {
    let y = shape(body, body.op(op).result(0));
    let (bt, m, n) = (y[0] as usize, y[1] as usize, y[2] as usize);
    let k = a.shape[2] as usize;
    let t = npu::tensor_ops::transpose_b(body, op);
    let (av, bv) = (f32s(a), f32s(b));
    let act = Activation::of(body, op);
    let mut out = vec![0f32; bt * m * n];
    for z in 0..bt {
        for i in 0..m {
            for j in 0..n {
                let mut s = 0f32;
                for r in 0..k {
                    let w = if t { bv[(z * n + j) * k + r] } else { bv[(z * k + r) * n + j] };
                    s += av[(z * m + i) * k + r] * w;
                }
                out[(z * m + i) * n + j] = act.apply(s);
            }
        }
    }
    from_f32(&y, &out)
}

/// An op's f32 activation (`act` and its `min`/`max`/`alpha`/`beta`), as the
/// vector unit computes it.
struct Activation {
    kind: String,
    min: f32,
    max: f32,
    alpha: f32,
    beta: f32,
}

impl Activation {
    fn of(body: &Body, op: OpId) -> Activation {
        let f = |k: &str, d: f32| body.op(op).float_attr(k).map(|v| v as f32).unwrap_or(d);
        Activation { kind: body.op(op).str_attr("act").unwrap_or("none").to_string(), min: f("min", f32::MIN), max: f("max", f32::MAX), alpha: f("alpha", 0.0), beta: f("beta", 0.0) }
    }
    fn apply(&self, v: f32) -> f32 {
        let hard = |v: f32, a: f32, b: f32| (v * a + b).clamp(0.0, 1.0);
        match self.kind.as_str() {
            "relu" => npu_isa::maximum(v, 0.0),
            "relu6" => v.clamp(0.0, 6.0),
            "clip" if v.is_nan() => v,
            "clip" => v.max(self.min).min(self.max),
            "sigmoid" => 1.0 / (1.0 + (-v).exp()),
            "tanh" => v.tanh(),
            "erf" => npu_isa::erf(v),
            "hardsigmoid" => hard(v, self.alpha, self.beta),
            "hardswish" => v * hard(v, 1.0 / 6.0, 0.5),
            "leakyrelu" if self.alpha <= 1.0 => npu_isa::maximum(v, v * self.alpha),
            "leakyrelu" => npu_isa::minimum(v, v * self.alpha),
            // x^-beta (LRN's divisor; beta 0.5, 0.75 or 1).
            "rpow" => v.powf(-self.beta),
            _ => v,
        }
    }
}

fn pool(body: &Body, op: OpId, x: &HostTensor) -> Result<HostTensor, String> {
    let y = shape(body, body.op(op).result(0));
    if x.dtype == dt::INT8 && body.op(op).str_attr("kind") == Some("avg") {
        let zx = body.op(op).attr("in_zp").and_then(|a| a.as_int()).unwrap_or(0) as i64;
        let m = body.op(op).ints_attr("mult").ok_or("int8 average without mult")?;
        let s = body.op(op).ints_attr("shift").ok_or("int8 average without shift")?;
        let (lo, hi) = npu::tensor_ops::int8_clamp(body, op);
        let zp = npu::tensor_ops::int8_zp(body, op);
        // Requantization number `i` (of the whole image: 0; over a window: its rows inside the image, less one).
        let requant = |acc: i64, i: usize| -> Result<i8, String> { Ok(npu16::quant::requantize(acc as i32, *m.get(i).ok_or("too few mult")?, *s.get(i).ok_or("too few shift")?, zp, lo, hi)) };
        let xv = i8s(x);
        let Some(k) = body.op(op).attr("avg_shift").and_then(|a| a.as_int()).map(|k| k as i64) else {
            // Over a window (clipped at the padding, which it does not count):
            // the sum of x·L over each window row's w' columns is L/w' times
            // their sum (v.poolavg's exact mean); rows added, zx·L·h' taken off.
            let (h, w, c, oh, ow) = (x.shape[1], x.shape[2], x.shape[3], y[1], y[2]);
            let k = body.op(op).ints_attr("kernel").ok_or("no kernel")?;
            let st = body.op(op).ints_attr("strides").ok_or("no strides")?;
            let p = body.op(op).ints_attr("pads").ok_or("no pads")?;
            let l = npu::tensor_ops::avg_premult(k[1], p[1], p[3]);
            let mut out = Vec::with_capacity((oh * ow * c) as usize);
            for (oy, ox, ch) in (0..oh).flat_map(|oy| (0..ow).flat_map(move |ox| (0..c).map(move |ch| (oy, ox, ch)))) {
                let (y0, x0) = (oy * st[0] - p[0], ox * st[1] - p[1]);
                let (ya, yb, xa, xb) = (y0.max(0), (y0 + k[0]).min(h), x0.max(0), (x0 + k[1]).min(w));
                let mut sum = 0i64;
                for iy in ya..yb {
                    for ix in xa..xb {
                        sum += *xv.get(((iy * w + ix) * c + ch) as usize).ok_or("an int8 average window past its input")? as i64;
                    }
                }
                let (hr, wc) = (yb - ya, xb - xa);
                out.push(requant(sum * l / wc - zx * l * hr, (hr - 1) as usize)?);
            }
            return from_i8(&y, &out);
        };
        // Of the whole image: the mean of x·2^avg_shift (round half away from
        // zero, as v.poolavg), less zx·2^avg_shift, requantized.
        let (hw, c) = ((x.shape[1] * x.shape[2]) as usize, x.shape[3] as usize);
        let n = hw as i64;
        let out: Vec<i8> = (0..c)
            .map(|ch| {
                let sum: i64 = (0..hw).map(|p| (xv[p * c + ch] as i64) << k).sum();
                let mean = if sum >= 0 { (sum + n / 2) / n } else { -((-sum + n / 2) / n) };
                requant(mean - (zx << k), 0)
            })
            .collect::<Result<_, _>>()?;
        return from_i8(&y, &out);
    }
    if x.dtype == dt::INT8 {
        // Max pooling of int8 values, exactly (the f32 path below is exact for them too).
        let as_f = HostTensor { dtype: dt::FLOAT, shape: x.shape.clone(), data: crate::tensor::AlignedBytes::from_slice(&i8s(x).iter().flat_map(|v| (*v as f32).to_le_bytes()).collect::<Vec<_>>()) };
        let r = pool(body, op, &as_f)?;
        return from_i8(&y, &f32s(&r).iter().map(|v| *v as i8).collect::<Vec<_>>());
    }
    let (h, w, c, oh, ow) = (x.shape[1], x.shape[2], x.shape[3], y[1], y[2]);
    let k = body.op(op).ints_attr("kernel").ok_or("no kernel")?;
    let s = body.op(op).ints_attr("strides").ok_or("no strides")?;
    let p = body.op(op).ints_attr("pads").ok_or("no pads")?;
    let max = body.op(op).str_attr("kind") == Some("max");
    let xv = f32s(x);
    let mut out = vec![0f32; (oh * ow * c) as usize];
    for oy in 0..oh {
        for ox in 0..ow {
            for ch in 0..c {
                let (y0, x0) = (oy * s[0] - p[0], ox * s[1] - p[1]);
                let (mut m, mut sum, mut cnt) = (f32::NEG_INFINITY, 0f32, 0);
                for iy in y0.max(0)..(y0 + k[0]).min(h) {
                    for ix in x0.max(0)..(x0 + k[1]).min(w) {
                        let v = xv[((iy * w + ix) * c + ch) as usize];
                        m = npu_isa::maximum(m, v);
                        sum += v;
                        cnt += 1;
                    }
                }
                out[((oy * ow + ox) * c + ch) as usize] = if max { m } else { sum / cnt as f32 };
            }
        }
    }
    from_f32(&y, &out)
}

fn eltwise(body: &Body, op: OpId, a: &HostTensor, b: &HostTensor) -> Result<HostTensor, String> {
    if a.dtype == dt::INT8 {
        // The int8 add: each input less its zero point, rescaled in fixed point, i32 sum, one requantization.
        let im = body.op(op).ints_attr("in_mult").ok_or("int8 add without in_mult")?;
        let iz = body.op(op).ints_attr("in_zp").unwrap_or(vec![0, 0]);
        let m = body.op(op).ints_attr("mult").ok_or("int8 add without mult")?[0];
        let s = body.op(op).ints_attr("shift").ok_or("int8 add without shift")?[0];
        let (lo, hi) = npu::tensor_ops::int8_clamp(body, op);
        let zp = npu::tensor_ops::int8_zp(body, op);
        let out: Vec<i8> = i8s(a).iter().zip(i8s(b)).map(|(x, y)| npu16::quant::requantize(((*x as i64 - iz[0]) * im[0] + (y as i64 - iz[1]) * im[1]) as i32, m, s, zp, lo, hi)).collect();
        return from_i8(&a.shape, &out);
    }
    let (av, bv) = (f32s(a), f32s(b));
    let f = match body.op(op).str_attr("kind").unwrap_or("") {
        "add" => |x: f32, y: f32| x + y,
        "sub" => |x: f32, y: f32| x - y,
        "rsub" => |x: f32, y: f32| -(x - y),
        "mul" => |x: f32, y: f32| x * y,
        "max" => npu_isa::maximum,
        "min" => npu_isa::minimum,
        k => return Err(format!("unknown elementwise kind '{}'", k)),
    };
    let act = Activation::of(body, op);
    // `b` is `a`'s shape, one value, or one per channel (the innermost dim).
    let out: Vec<f32> = av.iter().enumerate().map(|(k, x)| act.apply(f(*x, bv[k % bv.len()]))).collect();
    from_f32(&a.shape, &out)
}

fn dense_strides(shape: &[i64]) -> Vec<i64> {
    (0..shape.len()).map(|d| shape[d + 1..].iter().product()).collect()
}

/// The input element that element `k` of a result of `shape` reads (`pick(dim, index)` per dim, summed).
fn source_index(k: i64, shape: &[i64], pick: &dyn Fn(usize, i64) -> i64) -> i64 {
    let (mut rest, mut at) = (k, 0);
    for d in (0..shape.len()).rev() {
        at += pick(d, rest % shape[d]);
        rest /= shape[d];
    }
    at
}

/// ONNX's LayerNormalization of one row, in f32.
fn layer_norm_row(row: &mut [f32], scale: &[f32], bias: &[f32], eps: f32) {
    let n = row.len() as f32;
    let mean = row.iter().sum::<f32>() / n;
    let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n;
    let r = 1.0 / (var + eps).sqrt();
    for (k, v) in row.iter_mut().enumerate() {
        *v = (*v - mean) * r * scale[k] + bias[k];
    }
}

/// Softmax of one row, shifted by its maximum, in f32.
fn softmax_row(row: &mut [f32]) {
    let m = row.iter().copied().fold(f32::NEG_INFINITY, npu_isa::maximum);
    for v in row.iter_mut() {
        *v = (*v - m).exp();
    }
    let s: f32 = row.iter().sum();
    for v in row.iter_mut() {
        *v /= s;
    }
}

/// Evaluates partition `f` (tensor-level npu ops) on `args`; returns its results.
pub fn evaluate(ctx: &ir::Context, body: &Body, f: OpId, args: &[HostTensor]) -> Result<Vec<HostTensor>, String> {
    let entry = body.entry_block(f).ok_or("partition without body")?;
    let mut vals: HashMap<Value, HostTensor> = HashMap::new();
    for (a, t) in body.block_args(entry).iter().zip(args) {
        vals.insert(*a, t.clone());
    }
    for op in body.block_ops(entry) {
        let name = body.name(op);
        let o = body.op(op);
        let get = |i: usize| vals.get(&o.operand(i)).ok_or_else(|| format!("{}: operand not evaluated", o.loc));
        let r = match name.as_str() {
            func::ops::RETURN => return o.operands().iter().map(|v| vals.get(v).cloned().ok_or("result not evaluated".to_string())).collect(),
            ops::Constant::NAME => crate::compile::constant_tensor(ctx, body, op)?,
            ops::Reshape::NAME | ops::Flatten::NAME | ops::Squeeze::NAME | ops::Unsqueeze::NAME => {
                let mut t = get(0)?.clone();
                t.shape = shape(body, o.result(0));
                t
            }
            ops::Transpose::NAME | npu::ops::SLICE | npu::ops::UPSAMPLE => {
                let x = get(0)?;
                let y = shape(body, o.result(0));
                let xs = dense_strides(&x.shape);
                let attr = |n: &str| body.op(op).ints_attr(n).ok_or_else(|| format!("{}: no {}", o.loc, n));
                // Result index → input index, per dim.
                let pick: Box<dyn Fn(usize, i64) -> i64> = match name.as_str() {
                    ops::Transpose::NAME => {
                        let perm = attr("perm")?;
                        let src: Vec<i64> = perm.iter().map(|p| xs[*p as usize]).collect();
                        Box::new(move |d, i| i * src[d])
                    }
                    npu::ops::SLICE => {
                        let (off, st) = (attr("offsets")?, attr("steps")?);
                        Box::new(move |d, i| (off[d] + i * st[d]) * xs[d])
                    }
                    _ => {
                        let f = attr("factors")?;
                        Box::new(move |d, i| if d == 1 || d == 2 { i / f[d - 1] * xs[d] } else { i * xs[d] })
                    }
                };
                // Element by element whatever the type (int8 moves as f32 does).
                let eb = crate::tensor::dtype_size(x.dtype).ok_or("an element type without a size")?;
                let mut t = HostTensor::zeros(x.dtype, &y)?;
                let src = x.data.as_ref();
                for (k, dst) in t.data.as_mut().chunks_exact_mut(eb).enumerate() {
                    let at = source_index(k as i64, &y, &pick) as usize * eb;
                    dst.copy_from_slice(&src[at..at + eb]);
                }
                t
            }
            npu::ops::PAD => {
                let x = get(0)?;
                let y = shape(body, o.result(0));
                let p = body.op(op).ints_attr("pads").ok_or_else(|| format!("{}: no pads", o.loc))?;
                let value = o.float_attr("value").unwrap_or(0.0) as f32;
                let (xv, xs, r) = (f32s(x), dense_strides(&x.shape), y.len());
                // Result index → input index, or the padding value outside the input.
                let out: Vec<f32> = (0..y.iter().product::<i64>())
                    .map(|k| {
                        let (mut rest, mut at) = (k, 0);
                        for d in (0..r).rev() {
                            let i = rest % y[d] - p[d];
                            rest /= y[d];
                            if i < 0 || i >= x.shape[d] {
                                return value;
                            }
                            at += i * xs[d];
                        }
                        xv[at as usize]
                    })
                    .collect();
                from_f32(&y, &out)?
            }
            npu::ops::CONCAT => {
                let axis = o.attr("axis").and_then(|a| a.as_int()).ok_or("concat without axis")? as usize;
                let y = shape(body, o.result(0));
                let parts: Vec<&HostTensor> = (0..o.operands().len()).map(get).collect::<Result<_, _>>()?;
                let (outer, inner): (i64, i64) = (y[..axis].iter().product(), y[axis + 1..].iter().product());
                // Bytes, whatever the element type (int8 moves as f32 does).
                let dtype = parts.first().ok_or("a concat of nothing")?.dtype;
                let eb = crate::tensor::dtype_size(dtype).ok_or("an element type without a size")?;
                if parts.iter().any(|p| p.dtype != dtype || p.shape.len() != y.len()) {
                    return Err(format!("{}: concat operands of different types or ranks", o.loc));
                }
                let mut t = HostTensor::zeros(dtype, &y)?;
                let mut at = 0;
                let dst = t.data.as_mut();
                for k in 0..outer as usize {
                    for p in &parts {
                        let n = (p.shape[axis] * inner) as usize * eb;
                        let src = p.data.as_ref().get(k * n..(k + 1) * n).ok_or_else(|| format!("{}: a concat operand smaller than its shape", o.loc))?;
                        dst.get_mut(at..at + n).ok_or_else(|| format!("{}: concat operands larger than the result", o.loc))?.copy_from_slice(src);
                        at += n;
                    }
                }
                t
            }
            npu::ops::CONV | npu::ops::MATMUL => {
                let ins: Vec<&HostTensor> = (0..o.operands().len()).map(get).collect::<Result<_, _>>()?;
                product(body, op, &ins)?
            }
            npu::ops::BATCH_MATMUL => batch_product(body, op, get(0)?, get(1)?)?,
            npu::ops::POOL => pool(body, op, get(0)?)?,
            npu::ops::ELTWISE => eltwise(body, op, get(0)?, get(1)?)?,
            npu::ops::LUT => {
                // v.lut: entry x + 128 for each int8 x.
                let x = get(0)?;
                let t = body.op(op).ints_attr("table").filter(|t| t.len() == 256).ok_or_else(|| format!("{}: npu.lut without its 256-entry table", o.loc))?;
                let y: Vec<i8> = i8s(x).into_iter().map(|v| t[(v + 128).clamp(0, 255) as usize] as i8).collect();
                from_i8(&x.shape, &y)?
            }
            npu::ops::ACT => {
                let act = Activation::of(body, op);
                let x = get(0)?;
                from_f32(&x.shape, &f32s(x).into_iter().map(|v| act.apply(v)).collect::<Vec<_>>())?
            }
            npu::ops::LAYERNORM | npu::ops::SOFTMAX => {
                let x = get(0)?;
                let c = *x.shape.last().ok_or("a scalar to normalize")? as usize;
                let eps = o.float_attr("epsilon").unwrap_or(0.0) as f32;
                let (scale, bias) = if name.as_str() == npu::ops::LAYERNORM { (f32s(get(1)?), f32s(get(2)?)) } else { (vec![], vec![]) };
                let mut v = f32s(x);
                for row in v.chunks_exact_mut(c.max(1)) {
                    if scale.is_empty() {
                        softmax_row(row);
                    } else {
                        layer_norm_row(row, &scale, &bias, eps);
                    }
                }
                from_f32(&x.shape, &v)?
            }
            other => return Err(format!("{}: the reference has no '{}'", o.loc, other)),
        };
        vals.insert(o.result(0), r);
    }
    Err("partition without return".into())
}

#[cfg(test)]
mod tests {
    use super::Activation;

    /// Every activation the `npu` dialect accepts is evaluated, none passed through as the identity.
    #[test]
    fn every_activation_is_evaluated() {
        for kind in npu::tensor_ops::UNARY {
            let a = Activation { kind: kind.to_string(), min: -1.0, max: 1.0, alpha: 0.1, beta: 0.75 };
            assert!([-2.0f32, 2.5, 7.0].iter().any(|&v| a.apply(v) != v), "act \"{}\" is evaluated as the identity", kind);
        }
    }
}
