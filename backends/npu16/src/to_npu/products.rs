//! Convolutions and matrix products converted to `npu.conv`, `npu.matmul` and `npu.batch_matmul`.

use onnx::ops;
use super::*;

/// A Conv (or ConvInteger, i32 accumulators out) as `npu.conv` on NHWC data with HWIO weights; grouped ones as a dense conv of block-diagonal weights, dilated ones with zeros between the kernel's taps.
pub(super) fn convert_conv(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let loc = o.loc.clone();
    let at = InsertPoint::Before(op);
    let name = body.name(op);
    // ConvInteger's third operand is a zero point (0), not a bias.
    let b = if name.as_str() == ops::Conv::NAME { o.operands().get(2).copied() } else { None };
    let (x, mut w) = (o.operand(0), o.operand(1));
    let ys = shape(body, o.result(0));
    let mut g = body.op(op).int_attr("group").unwrap_or(1);
    let ws = shape(body, w);
    if g > 1 && !(ws[1] == 1 && ws[0] == g) {
        // Grouped: a dense convolution whose weights are zero outside each group's block.
        let vals = onnx::infer::const_f64s(body, w).ok_or("grouped convolution weights are not constant")?;
        let (f, cg, k) = (ws[0] as usize, ws[1] as usize, (ws[2] * ws[3]) as usize);
        let c = cg * g as usize;
        let mut dense = vec![0f32; f * c * k];
        for o_ in 0..f {
            let grp = o_ / (f / g as usize);
            for i in 0..cg {
                for t in 0..k {
                    dense[(o_ * c + grp * cg + i) * k + t] = vals[(o_ * cg + i) * k + t] as f32;
                }
            }
        }
        w = f32_constant(ctx, body, &dense, vec![ws[0], c as i64, ws[2], ws[3]], at, &loc);
        g = 1;
    }
    let d = body.op(op).ints_attr("dilations").unwrap_or(vec![1, 1]);
    if d.iter().any(|v| *v != 1) {
        if name.as_str() != ops::Conv::NAME {
            return Err("a dilated integer convolution (the NPU takes dilations in f32 only)".into());
        }
        // Dilated: the kernel with d - 1 zeros between its taps (`target::MAX_DILATED_WORK` bounds the waste).
        let ws = shape(body, w);
        let vals = onnx::infer::const_f64s(body, w).ok_or("dilated convolution weights are not constant")?;
        let (kh, kw) = (ws[2] as usize, ws[3] as usize);
        let (dh, dw) = (d[0] as usize, d[1] as usize);
        let (eh, ew) = ((kh - 1) * dh + 1, (kw - 1) * dw + 1);
        let planes = (ws[0] * ws[1]) as usize;
        let mut wide = vec![0f32; planes * eh * ew];
        for p in 0..planes {
            for i in 0..kh {
                for j in 0..kw {
                    wide[(p * eh + i * dh) * ew + j * dw] = vals[(p * kh + i) * kw + j] as f32;
                }
            }
        }
        w = f32_constant(ctx, body, &wide, vec![ws[0], ws[1], eh as i64, ew as i64], at, &loc);
    }
    let strides = body.op(op).ints_attr("strides").unwrap_or(vec![1, 1]);
    let pads = body.op(op).ints_attr("pads").unwrap_or(vec![0; 4]);
    let xt = transpose(ctx, body, x, &TO_NHWC, at, &loc);
    // OIHW → HWIO.
    let wt = transpose(ctx, body, w, &[2, 3, 1, 0], at, &loc);
    let mut operands = vec![xt, wt];
    operands.extend(b);
    let props = vec![("strides", i64s(ctx, &strides)), ("pads", i64s(ctx, &pads)), ("group", Attribute::integer(g as i128, ctx.i64()))];
    emit(ctx, body, op, npu::ops::CONV, &operands, permuted(&ys, &TO_NHWC), props, true);
    Ok(())
}

/// A ConvTranspose as the stride-1 convolution of its output phases and a depth-to-space copy (`deconv::plan`).
pub(super) fn convert_conv_transpose(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let loc = o.loc.clone();
    let at = InsertPoint::Before(op);
    // The phase convolution, then depth to space and the crop (`deconv.rs`).
    let p = crate::deconv::plan(body, op).map_err(|e| e.message)?;
    let w = onnx::infer::const_f64s(body, o.operand(1)).ok_or("ConvTranspose weights are not constant")?;
    let b = match o.operands().get(2) {
        Some(v) if !matches!(body.value_type(*v).data(), TypeData::None) => onnx::infer::const_f64s(body, *v).ok_or("ConvTranspose bias is not constant")?,
        _ => vec![0.0; p.cout as usize],
    };
    if b.len() != p.cout as usize {
        return Err(format!("ConvTranspose bias has {} values for {} output channels", b.len(), p.cout));
    }
    let x = o.operand(0);
    let xt = transpose(ctx, body, x, &TO_NHWC, at, &loc);
    let n = p.phases() * p.cout;
    let wt = f32_constant(ctx, body, &p.weights(&w), vec![p.h.taps, p.w.taps, p.cin, n], at, &loc);
    let bt = f32_constant(ctx, body, &p.bias(&b), vec![n], at, &loc);
    let props = vec![("strides", i64s(ctx, &[1, 1])), ("pads", i64s(ctx, &p.conv_pads())), ("group", Attribute::integer(1, ctx.i64()))];
    let phases = p.phase_shape();
    let to_space = move |ctx: &Context, body: &mut Body, r: Value, loc: &Location| {
        let (h, w, c) = (p.h, p.w, p.cout);
        let mut r = r;
        if p.phases() > 1 {
            r = reshape(ctx, body, r, &[1, h.positions, w.positions, h.stride, w.stride, c], after(body, r), loc);
            r = transpose(ctx, body, r, &[0, 1, 3, 2, 4, 5], after(body, r), loc);
            r = reshape(ctx, body, r, &[1, h.full(), w.full(), c], after(body, r), loc);
        }
        if !p.uncropped() {
            let props = vec![("offsets", i64s(ctx, &[0, h.crop, w.crop, 0])), ("steps", i64s(ctx, &[1; 4]))];
            let ty = tensor(ctx, vec![1, h.out, w.out, c], &ctx.f32());
            let s = build(ctx, body, npu::ops::SLICE, &[r], ty, props, after(body, r), loc);
            r = body.op(s).result(0);
        }
        transpose(ctx, body, r, &TO_NCHW, after(body, r), loc)
    };
    emit_then(ctx, body, op, npu::ops::CONV, &[xt, wt, bt], phases, props, &to_space);
    Ok(())
}

/// A Gemm, MatMul or MatMulInteger with a constant B as `npu.matmul`, else as `npu.batch_matmul`.
pub(super) fn convert_product(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let loc = o.loc.clone();
    let at = InsertPoint::Before(op);
    let name = body.name(op);
    let (a, mut b) = (o.operand(0), o.operand(1));
    let mut c = if name.as_str() == ops::Gemm::NAME { o.operands().get(2).copied() } else { None };
    let trans_b = body.op(op).int_attr("transB").unwrap_or(0) != 0;
    if let Some(row) = bias_add(ctx, body, op, at) {
        c = Some(row);
    }
    let o = body.op(op);
    let ys = shape(body, o.result(0));
    let as_ = shape(body, a);
    if trans_b {
        b = transpose(ctx, body, b, &[1, 0], at, &loc);
    }
    // A constant [1, .., K, N] is one matrix.
    let bs = shape(body, b);
    if bs.len() > 2 {
        b = reshape(ctx, body, b, &bs[bs.len() - 2..], at, &loc);
    }
    let n = shape(body, b)[1];
    let m: i64 = as_[..as_.len() - 1].iter().product();
    let a2 = if as_.len() == 2 { a } else { reshape(ctx, body, a, &[m, as_[as_.len() - 1]], at, &loc) };
    let mut operands = vec![a2, b];
    if let Some(c) = c {
        operands.push(if shape(body, c).len() == 1 { c } else { reshape(ctx, body, c, &[n], at, &loc) });
    }
    if ys.len() == 2 {
        emit(ctx, body, op, npu::ops::MATMUL, &operands, vec![m, n], vec![], false);
    } else {
        // [.., M, K] × [K, N]: a 2-D product between reshapes.
        let y = body.op(op).result(0);
        let tmp = reshape(ctx, body, y, &ys, InsertPoint::After(op), &loc);
        let tmp_op = body.defining_op(tmp).unwrap();
        for u in body.uses(y).to_vec() {
            if u.op != tmp_op {
                body.set_operand(u.op, u.index as usize, tmp);
            }
        }
        // Retype the old op's result to 2-D so `emit` builds the 2-D matmul feeding the reshape.
        body.set_value_type(y, tensor(ctx, vec![m, n], body.value_type(y).element_type().unwrap()));
        emit(ctx, body, op, npu::ops::MATMUL, &operands, vec![m, n], vec![], false);
    }
    Ok(())
}
