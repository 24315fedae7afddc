//! Signal processing: the window functions, DFT and STFT. A transform is one
//! reduction `tensor.generic` over the summed index (the direct O(n²) sum,
//! exact for the short signals models transform); angles are computed in f64
//! from `(k·n) mod L`, so long transforms keep their precision.

use onnx::ops;
use super::{c, d, expr_map, Cmp, Kind, Lower, LowerFn, Sc};
use ir::affine::{AffineExpr, AffineMap};
use ir::Value;
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[
    (ops::HannWindow::NAME, window),
    (ops::HammingWindow::NAME, window),
    (ops::BlackmanWindow::NAME, window),
    (ops::DFT::NAME, dft),
    (ops::STFT::NAME, stft),
    (ops::MelWeightMatrix::NAME, mel_weight_matrix),
];

/// `a0 - a1·cos(2πn/N) + a2·cos(4πn/N)`, N the size (periodic) or size - 1 (symmetric).
fn window(l: &mut Lower) -> Result<Vec<Value>, String> {
    let out = l.out_info(0)?;
    let &[size] = out.shape.as_slice() else { return Err("a window is one-dimensional".into()) };
    let (a0, a1, a2) = match l.name() {
        ops::HannWindow::NAME => (0.5, 0.5, 0.0),
        ops::HammingWindow::NAME => (25.0 / 46.0, 21.0 / 46.0, 0.0),
        _ => (0.42, 0.5, 0.08),
    };
    let n = if l.int_attr("periodic", 1) != 0 { size } else { size - 1 } as f64;
    let sc = out.sc.clone();
    let f64s = Sc { ty: l.ctx.f64(), kind: Kind::Float };
    Ok(vec![l.fill_with(&[size], &sc.ty.clone(), move |e| {
        let i = e.loop_index(0);
        let x = e.index_to_float(i, &f64s);
        let step = e.scalar(2.0 * std::f64::consts::PI / n, &f64s);
        let t = e.mul(x, step, &f64s);
        let c1 = e.op(math::ops::COS, &[t], &f64s.ty);
        let t2 = e.add(t, t, &f64s);
        let c2 = e.op(math::ops::COS, &[t2], &f64s.ty);
        let (k0, k1, k2) = (e.scalar(a0, &f64s), e.scalar(a1, &f64s), e.scalar(a2, &f64s));
        let p1 = e.mul(k1, c1, &f64s);
        let p2 = e.mul(k2, c2, &f64s);
        let w = e.sub(k0, p1, &f64s);
        let w = e.add(w, p2, &f64s);
        e.cast(w, &f64s, &sc)
    })])
}

/// Which way a transform goes.
#[derive(Clone, Copy, PartialEq)]
enum Direction {
    Forward,
    Inverse,
    /// Inverse of a one-sided spectrum: a real signal (numpy's irfft).
    InverseReal,
}

/// One transform as a reduction over `terms` summed indices: the output has
/// `out_shape` (its last dim the real/imaginary pair, or 1), the input is read
/// at `real`/`imag` (maps over output dims + the summed index, the last one),
/// optionally times a window read at `window_map`. `out_axis` is the output
/// index paired with the summed one in the angle; `len` the transform length.
struct Transform {
    out_shape: Vec<i64>,
    out_axis: usize,
    terms: i64,
    len: i64,
    real: AffineMap,
    imag: Option<AffineMap>,
    window: Option<(Value, AffineMap)>,
    direction: Direction,
}

fn transform(l: &mut Lower, x: Value, t: Transform) -> Result<Value, String> {
    let out = l.out_info(0)?;
    let sc = out.sc.clone();
    let xsc = l.info(x)?.sc;
    let cs = if sc.width() > 32 { sc.clone() } else { Sc { ty: l.ctx.f32(), kind: Kind::Float } };
    let r = t.out_shape.len();
    let mut ins = vec![x];
    let mut maps = vec![t.real.clone()];
    if let Some(m) = &t.imag {
        ins.push(x);
        maps.push(m.clone());
    }
    let wsc = match &t.window {
        Some((w, m)) => {
            ins.push(*w);
            maps.push(m.clone());
            Some(l.info(*w)?.sc)
        }
        None => None,
    };
    maps.push(expr_map(r + 1, (0..r).map(d).collect()));
    let init = l.fill(&t.out_shape, &cs, 0.0);
    let mut iters = vec![Iterator::Parallel; r];
    iters.push(Iterator::Reduction);
    let (has_imag, dir, len, out_axis, complex_out) = (t.imag.is_some(), t.direction, t.len, t.out_axis, t.out_shape[r - 1] == 2);
    let f64s = Sc { ty: l.ctx.f64(), kind: Kind::Float };
    let c1 = cs.clone();
    let sum = l.generic_ranged(&ins, &[init], maps, &iters, Some(t.out_shape.iter().copied().chain([t.terms]).collect()), move |e, a| {
        let cs = c1;
        let isc = Sc { ty: e.ctx.index(), kind: Kind::Signed };
        let mut re = e.cast(a[0], &xsc, &cs);
        let mut im = if has_imag { e.cast(a[1], &xsc, &cs) } else { e.scalar(0.0, &cs) };
        let mut k = if has_imag { 2 } else { 1 };
        if let Some(wsc) = &wsc {
            let w = e.cast(a[k], wsc, &cs);
            re = e.mul(re, w, &cs);
            im = e.mul(im, w, &cs);
            k += 1;
        }
        let acc = a[k];
        // θ = 2π ((out index · summed index) mod len) / len, in f64.
        let it = e.ctx.index();
        let (oi, si) = (e.loop_index(out_axis), e.loop_index(r));
        let p = e.op(arith::ops::MULI, &[oi, si], &it);
        let lv = e.index(len);
        let m = e.op(arith::ops::REMSI, &[p, lv], &it);
        let mf = e.index_to_float(m, &f64s);
        let step = e.scalar(2.0 * std::f64::consts::PI / len as f64, &f64s);
        let th = e.mul(mf, step, &f64s);
        let cos = e.op(math::ops::COS, &[th], &f64s.ty);
        let sin = e.op(math::ops::SIN, &[th], &f64s.ty);
        let (cos, sin) = (e.cast(cos, &f64s, &cs), e.cast(sin, &f64s, &cs));
        // (re + i·im)(cos ± i·sin): minus going forward, plus back.
        let (rc, is) = (e.mul(re, cos, &cs), e.mul(im, sin, &cs));
        let (ic, rs) = (e.mul(im, cos, &cs), e.mul(re, sin, &cs));
        let (real, imag) = if dir == Direction::Forward { (e.add(rc, is, &cs), e.sub(ic, rs, &cs)) } else { (e.sub(rc, is, &cs), e.add(ic, rs, &cs)) };
        let v = if complex_out {
            let ci = e.loop_index(r - 1);
            let zero = e.index(0);
            let is_re = e.cmp(Cmp::Eq, ci, zero, &isc);
            e.select(is_re, real, imag)
        } else if dir == Direction::InverseReal {
            // Bins other than DC and Nyquist stand for their conjugate pair too.
            let two = e.index(2);
            let twice = e.op(arith::ops::MULI, &[si, two], &it);
            let zero = e.index(0);
            let dc = e.cmp(Cmp::Eq, si, zero, &isc);
            let ny = e.cmp(Cmp::Eq, twice, lv, &isc);
            let once = e.op(arith::ops::ORI, &[dc, ny], &e.ctx.i1());
            let dbl = e.add(real, real, &cs);
            e.select(once, real, dbl)
        } else {
            real
        };
        vec![e.add(acc, v, &cs)]
    })[0];
    let scale = if dir == Direction::Forward { 1.0 } else { 1.0 / len as f64 };
    let shape = t.out_shape.clone();
    Ok(l.map_op(&shape, &sc.ty.clone(), &[sum], vec![AffineMap::identity(r as u32)], move |e, a| {
        let s = e.scalar(scale, &cs);
        let v = e.mul(a[0], s, &cs);
        e.cast(v, &cs, &sc)
    }))
}

/// DFT along `axis` (an attribute at opset 17, an input since 20) of a real
/// ([..., 1]) or complex ([..., 2]) signal, `dft_length` long (zero-padded or
/// truncated); `onesided` keeps the bins up to the Nyquist one, and with
/// `inverse` reads such a half spectrum back into a real signal.
fn dft(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let r = xi.rank();
    let opset = onnx::infer::opset_of(l.body, l.op).unwrap_or(20);
    let axis = if opset >= 20 {
        l.const_ints(2)?.and_then(|v| v.first().copied()).unwrap_or(-2)
    } else {
        l.int_attr("axis", 1)
    };
    let axis = super::axis(axis, r)?;
    if r < 2 || axis == r - 1 || !matches!(xi.shape[r - 1], 1 | 2) {
        return Err(format!("DFT needs a signal of shape [..., n, 1 or 2] transformed along another axis, got {:?} along {}", xi.shape, axis));
    }
    let (inverse, onesided) = (l.int_attr("inverse", 0) != 0, l.int_attr("onesided", 0) != 0);
    let n_in = xi.shape[axis];
    let len = match l.const_ints(1)?.and_then(|v| v.first().copied()) {
        Some(n) => n,
        None if inverse && onesided => 2 * (n_in - 1),
        None => n_in,
    };
    if len <= 0 {
        return Err(format!("DFT length {} must be positive", len));
    }
    let direction = match (inverse, onesided) {
        (false, _) => Direction::Forward,
        (true, false) => Direction::Inverse,
        (true, true) => Direction::InverseReal,
    };
    let terms = if direction == Direction::InverseReal { n_in.min(len / 2 + 1) } else { n_in.min(len) };
    let read = |part: i64| {
        let mut res: Vec<AffineExpr> = (0..r - 1).map(|i| if i == axis { d(r) } else { d(i) }).collect();
        res.push(c(part));
        expr_map(r + 1, res)
    };
    let x = l.operand(0)?;
    let imag = (xi.shape[r - 1] == 2).then(|| read(1));
    let t = Transform { out_shape: out.shape.clone(), out_axis: axis, terms, len, real: read(0), imag, window: None, direction };
    Ok(vec![transform(l, x, t)?])
}

/// Frames of `frame_length` every `frame_step` samples, each times the window
/// and transformed: [batch, frames, bins, 2].
fn stft(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    if xi.rank() != 3 || out.rank() != 4 {
        return Err(format!("STFT needs a signal of shape [batch, length, 1 or 2], got {:?}", xi.shape));
    }
    let step = l.const_ints(1)?.and_then(|v| v.first().copied()).ok_or("STFT's frame_step must be a constant")?;
    let window = l.opt(2);
    let len = match (l.const_ints(3)?.and_then(|v| v.first().copied()), window) {
        (Some(n), _) => n,
        (None, Some(w)) => l.info(w)?.shape.first().copied().unwrap_or(0),
        (None, None) => xi.shape[1],
    };
    if len <= 0 || step <= 0 {
        return Err(format!("STFT needs a positive frame length and step, got {} and {}", len, step));
    }
    // Sample f·step + n of frame f.
    let read = |part: i64| expr_map(5, vec![d(0), super::add(super::mul(d(1), step), d(4)), c(part)]);
    let x = l.operand(0)?;
    let imag = (xi.shape[2] == 2).then(|| read(1));
    let window = window.map(|w| (w, expr_map(5, vec![d(4)])));
    let t = Transform { out_shape: out.shape.clone(), out_axis: 2, terms: len.min(xi.shape[1]), len, real: read(0), imag, window, direction: Direction::Forward };
    Ok(vec![transform(l, x, t)?])
}

/// The triangular mel filter bank, computed at compile time from its
/// (constant) inputs as ONNX's reference computes it: [dft_length/2 + 1, num_mel_bins].
fn mel_weight_matrix(l: &mut Lower) -> Result<Vec<Value>, String> {
    let out = l.out_info(0)?;
    let scalar = |l: &Lower, i: usize, what: &str| -> Result<f64, String> { l.const_f64s(i)?.and_then(|v| v.first().copied()).ok_or_else(|| format!("MelWeightMatrix's {} must be a constant", what)) };
    let mels = scalar(l, 0, "num_mel_bins")? as i64;
    let dft_length = scalar(l, 1, "dft_length")? as i64;
    let rate = scalar(l, 2, "sample_rate")?;
    let (lo, hi) = (scalar(l, 3, "lower_edge_hertz")?, scalar(l, 4, "upper_edge_hertz")?);
    let bins = dft_length / 2 + 1;
    if mels <= 0 || bins <= 0 || rate == 0.0 || out.shape != [bins, mels] {
        return Err(format!("MelWeightMatrix of {} bins for a DFT of {} at {} Hz does not give {:?}", mels, dft_length, rate, out.shape));
    }
    let mel = |hz: f64| 2595.0 * (1.0 + hz / 700.0).log10();
    let (low, high) = (mel(lo), mel(hi));
    let step = (high - low) / (mels + 2) as f64;
    let edges: Vec<i64> = (0..mels + 2)
        .map(|i| {
            let hz = 700.0 * (10f64.powf((i as f64 * step + low) / 2595.0) - 1.0);
            (((dft_length + 1) as f64 * hz) / rate).floor() as i64
        })
        .collect();
    let mut w = vec![0.0f64; (bins * mels) as usize];
    let mut set = |j: i64, i: i64, v: f64| -> Result<(), String> {
        let k = (j >= 0 && j < bins).then_some((j * mels + i) as usize).ok_or_else(|| format!("MelWeightMatrix: filter {} reaches bin {} of {}", i, j, bins))?;
        w[k] = v;
        Ok(())
    };
    for i in 0..mels {
        let (left, center, right) = (edges[i as usize], edges[i as usize + 1], edges[i as usize + 2]);
        if center == left {
            set(center, i, 1.0)?;
        } else {
            for j in left..=center {
                set(j, i, (j - left) as f64 / (center - left) as f64)?;
            }
        }
        for j in center..right {
            set(j, i, (right - j) as f64 / (right - center) as f64)?;
        }
    }
    let kind = out.sc.ty.float_kind().ok_or("MelWeightMatrix's output must be a float type")?;
    let width = (kind.width() as usize).div_ceil(8);
    let bytes: Vec<u8> = w.iter().flat_map(|v| ir::float::f64_to_bits(*v, kind).unwrap_or(0).to_le_bytes()[..width].to_vec()).collect();
    let ty = l.tensor_type(&out.shape, &out.sc.ty);
    let data = ir::attributes::DenseData::canonical(bytes, width, w.len());
    Ok(vec![l.emit().constant(ir::Attribute::new(ir::attributes::AttrData::Dense { ty, data }))])
}
