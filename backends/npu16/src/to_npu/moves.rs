//! Data movement ops converted to their NHWC `npu` ops.

use onnx::ops;
use super::*;

/// Data movement (Slice, Split, Concat, nearest Resize, Pad): 4-D tensors move in NHWC, per-dim attributes permuted and axes mapped.
pub(super) fn convert_movement(ctx: &Context, body: &mut Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let loc = o.loc.clone();
    let at = InsertPoint::Before(op);
    let name = body.name(op);
    // Data movement: 4-D tensors move in NHWC (per-dim attributes permuted, axes mapped).
    let ys = shape(body, o.result(0));
    let four = ys.len() == 4;
    let rank = ys.len() as i64;
    let nhwc = |v: &[i64]| if four { permuted(v, &TO_NHWC) } else { v.to_vec() };
    let axis_of = |a: i64| {
        let a = if a < 0 { a + rank } else { a };
        if four { TO_NCHW[a as usize] } else { a }
    };
    let const_ints = |i: usize| o.operands().get(i).filter(|v| !matches!(body.value_type(**v).data(), TypeData::None)).and_then(|v| onnx::infer::const_f64s(body, *v)).map(|v| v.iter().map(|x| *x as i64).collect::<Vec<i64>>());
    let x = o.operand(0);
    let xs = shape(body, x);
    // (result index, npu op, operands, properties)
    let mut outs: Vec<(usize, &str, Vec<Value>, Vec<(&str, Attribute)>)> = vec![];
    match name.as_str() {
        ops::Slice::NAME => {
            let starts = const_ints(1).ok_or("Slice starts are not constant")?;
            let axes = const_ints(3).unwrap_or_else(|| (0..starts.len() as i64).collect());
            let steps = const_ints(4).unwrap_or_else(|| vec![1; starts.len()]);
            let (mut off, mut st) = (vec![0; xs.len()], vec![1; xs.len()]);
            for k in 0..starts.len() {
                let a = if axes[k] < 0 { axes[k] + rank } else { axes[k] } as usize;
                let s = if starts[k] < 0 { starts[k] + xs[a] } else { starts[k] };
                off[a] = s.clamp(0, xs[a]);
                st[a] = steps[k];
            }
            outs.push((0, npu::ops::SLICE, vec![x], vec![("offsets", i64s(ctx, &nhwc(&off))), ("steps", i64s(ctx, &nhwc(&st)))]));
        }
        ops::Split::NAME => {
            let a = o.attr("axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
            let a = if a < 0 { a + rank } else { a } as usize;
            let mut at = 0;
            for i in 0..o.results().len() {
                let mut off = vec![0; xs.len()];
                off[a] = at;
                at += shape(body, o.result(i))[a];
                outs.push((i, npu::ops::SLICE, vec![x], vec![("offsets", i64s(ctx, &nhwc(&off))), ("steps", i64s(ctx, &vec![1; xs.len()]))]));
            }
        }
        ops::Concat::NAME => {
            let a = o.attr("axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
            outs.push((0, npu::ops::CONCAT, o.operands().to_vec(), vec![("axis", Attribute::integer(axis_of(a) as i128, ctx.i64()))]));
        }
        ops::Pad::NAME => {
            let (p, value) = crate::target::pad_geometry(body, op).map_err(|e| e.message)?;
            let r = xs.len();
            let pads = [nhwc(&p[..r]), nhwc(&p[r..])].concat();
            outs.push((0, npu::ops::PAD, vec![x], vec![("pads", i64s(ctx, &pads)), ("value", Attribute::float(value, ctx.f32()))]));
        }
        _ => {
            let f = [ys[2] / xs[2], ys[3] / xs[3]];
            outs.push((0, npu::ops::UPSAMPLE, vec![x], vec![("factors", i64s(ctx, &f))]));
        }
    }
    let results = o.results().to_vec();
    for (i, npu_name, operands, props) in outs {
        let y = results[i];
        let elem = body.value_type(y).element_type().unwrap().clone();
        let r = build_nhwc(ctx, body, npu_name, &operands, &shape(body, y), &elem, props, four, at, &loc);
        body.replace_all_uses(y, r);
    }
    body.erase(op);
    Ok(())
}
