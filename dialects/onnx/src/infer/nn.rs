//! Type and shape rules of products, convolutions and pools.

use super::*;

/// The operators whose rules live here.
pub(super) const NAMES: &[&str] = &["AveragePool", "Conv", "ConvInteger", "ConvTranspose", "DeformConv", "Gemm", "GlobalAveragePool", "GlobalLpPool", "GlobalMaxPool", "LpPool", "MatMul", "MatMulInteger", "MaxPool"];

#[allow(unused_variables)]
pub(super) fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "MatMul" | "MatMulInteger" => {
            let (a, b) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            let elem = if name == "MatMulInteger" { ctx.i32() } else { in0()?.elem };
            if a.is_empty() || b.is_empty() {
                return None;
            }
            let (a2, b2) = (if a.len() == 1 { vec![1, a[0]] } else { a.clone() }, if b.len() == 1 { vec![b[0], 1] } else { b.clone() });
            let batch = broadcast(&[Some(a2[..a2.len() - 2].to_vec()), Some(b2[..b2.len() - 2].to_vec())])?;
            let mut out = batch;
            if a.len() > 1 {
                out.push(a2[a2.len() - 2]);
            }
            if b.len() > 1 {
                out.push(b2[b2.len() - 1]);
            }
            one(t(&elem, Some(out)))
        }
        "Gemm" => {
            let (a, b) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            if a.len() != 2 || b.len() != 2 {
                return None;
            }
            let m = if int_attr(attr("transA")).unwrap_or(0) != 0 { a[1] } else { a[0] };
            let n = if int_attr(attr("transB")).unwrap_or(0) != 0 { b[0] } else { b[1] };
            one(t(&in0()?.elem, Some(vec![m, n])))
        }
        "Conv" | "ConvInteger" | "MaxPool" | "AveragePool" | "LpPool" | "ConvTranspose" | "DeformConv" => {
            let x = in0()?.shape?;
            if x.len() < 3 {
                return None;
            }
            let sp = x.len() - 2;
            let kernel: Vec<i64> = match ints_attr(attr("kernel_shape")) {
                Some(k) => k,
                None if name.contains("Conv") => ins.get(1)?.clone()?.shape?[2..].to_vec(),
                None => return None,
            };
            if kernel.len() != sp {
                return None;
            }
            let strides = ints_attr(attr("strides")).unwrap_or(vec![1; sp]);
            let dil = ints_attr(attr("dilations")).unwrap_or(vec![1; sp]);
            let pads = ints_attr(attr("pads")).unwrap_or(vec![0; 2 * sp]);
            let auto = attr("auto_pad").and_then(|a| a.as_str()).unwrap_or("NOTSET");
            let ceil = int_attr(attr("ceil_mode")).unwrap_or(0) != 0;
            // Attributes of the wrong length say nothing (the verifier names them).
            if strides.len() != sp || dil.len() != sp || pads.len() != 2 * sp || ints_attr(attr("output_padding")).is_some_and(|p| p.len() != sp) {
                return None;
            }
            let channels = if name.contains("Conv") {
                let w = ins.get(1)?.clone()?.shape?;
                if name == "ConvTranspose" { w.get(1).copied()? * int_attr(attr("group")).unwrap_or(1) } else { w[0] }
            } else {
                x[1]
            };
            let mut out = vec![x[0], channels];
            for i in 0..sp {
                let v = if name == "ConvTranspose" {
                    if let Some(os) = ints_attr(attr("output_shape")) {
                        *os.get(i)?
                    } else if x[2 + i] == DYNAMIC {
                        DYNAMIC
                    } else {
                        let op_pad = ints_attr(attr("output_padding")).map(|p| p[i]).unwrap_or(0);
                        let total_pad = if auto == "NOTSET" { pads[i] + pads[i + sp] } else { 0 };
                        let full = strides[i] * (x[2 + i] - 1) + op_pad + (kernel[i] - 1) * dil[i] + 1;
                        if auto == "SAME_UPPER" || auto == "SAME_LOWER" { x[2 + i] * strides[i] } else { full - total_pad }
                    }
                } else {
                    match auto {
                        "SAME_UPPER" | "SAME_LOWER" => {
                            if x[2 + i] == DYNAMIC { DYNAMIC } else { (x[2 + i] + strides[i] - 1) / strides[i] }
                        }
                        "VALID" => window(x[2 + i], kernel[i], 0, strides[i], dil[i], ceil),
                        _ => window(x[2 + i], kernel[i], pads[i] + pads[i + sp], strides[i], dil[i], ceil),
                    }
                };
                out.push(v);
            }
            let elem = if name == "ConvInteger" { ctx.i32() } else { in0()?.elem };
            let mut v = vec![t(&elem, Some(out.clone()))];
            if name == "MaxPool" && d.results().len() == 2 {
                v.push(t(&ctx.i64(), Some(out)));
            }
            Some(v)
        }
        "GlobalAveragePool" | "GlobalMaxPool" | "GlobalLpPool" => {
            let x = in0()?.shape?;
            let mut out = x[..2.min(x.len())].to_vec();
            out.extend(std::iter::repeat_n(1, x.len().saturating_sub(2)));
            one(t(&in0()?.elem, Some(out)))
        }
        _ => None,
    }
}
