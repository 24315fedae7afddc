//! Quantization and quantized products and softmax.

use super::*;

pub(super) const FAMILY: Family = Family::rules("quantization", &["DequantizeLinear", "DynamicQuantizeLinear", "QLinearConv", "QLinearMatMul", "QuantizeLinear", "ms.QLinearSoftmax"], infer);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "QuantizeLinear" => {
            // The zero point's type, else output_dtype, else uint8.
            let x = in0()?;
            let elem = match ins.get(2).cloned().flatten() {
                Some(zp) => zp.elem,
                None => match int_attr(attr("output_dtype")).filter(|d| *d != 0) {
                    Some(dt) => crate::types::elem_type(ctx, dt as i32).ok()?,
                    None => ctx.intern_type(TypeData::Integer { width: 8, signedness: ir::types::Signedness::Unsigned }),
                },
            };
            one(t(&elem, x.shape))
        }
        "DequantizeLinear" => {
            let x = in0()?;
            let elem = match int_attr(attr("output_dtype")).filter(|d| *d != 0) {
                Some(dt) => crate::types::elem_type(ctx, dt as i32).ok()?,
                None => ins.get(1)?.clone()?.elem,
            };
            one(t(&elem, x.shape))
        }
        "DynamicQuantizeLinear" => {
            let x = in0()?;
            let u8t = ctx.intern_type(TypeData::Integer { width: 8, signedness: ir::types::Signedness::Unsigned });
            Some(vec![t(&u8t, x.shape), t(&ctx.f32(), Some(vec![])), t(&u8t, Some(vec![]))])
        }
        "QLinearMatMul" | "QLinearConv" => {
            // Shapes as MatMul / Conv of (x, w); the element type of y_zero_point.
            let (a, b) = (in0()?.shape?, ins.get(3)?.clone()?.shape?);
            let elem = ins.get(7)?.clone()?.elem;
            if name == "QLinearMatMul" {
                if a.len() < 2 || b.len() < 2 {
                    return None;
                }
                let mut out = broadcast(&[Some(a[..a.len() - 2].to_vec()), Some(b[..b.len() - 2].to_vec())])?;
                out.push(a[a.len() - 2]);
                out.push(b[b.len() - 1]);
                return one(t(&elem, Some(out)));
            }
            if a.len() < 3 || b.len() != a.len() {
                return None;
            }
            let sp = a.len() - 2;
            let strides = ints_attr(attr("strides")).unwrap_or(vec![1; sp]);
            let dil = ints_attr(attr("dilations")).unwrap_or(vec![1; sp]);
            let pads = ints_attr(attr("pads")).unwrap_or(vec![0; 2 * sp]);
            let mut out = vec![a[0], b[0]];
            for i in 0..sp {
                out.push(window(a[2 + i], b[2 + i], pads[i] + pads[i + sp], strides[i], dil[i], false));
            }
            one(t(&elem, Some(out)))
        }
        "ms.QLinearSoftmax" => same_as_first(ctx, body, op),
        _ => None,
    }
}
