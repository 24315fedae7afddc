//! Signal processing, windows and the newer operators.

use super::*;

pub(super) const FAMILY: Family = Family::rules(
    "signal",
    &["AffineGrid", "BlackmanWindow", "CausalConvWithState", "CenterCropPad", "Col2Im", "HammingWindow", "HannWindow", "LinearAttention", "MelWeightMatrix", "STFT", "StringNormalizer", "StringSplit"],
    infer,
)
.shape_operands(&[
    ("CenterCropPad", &[1]),
    ("Col2Im", &[1, 2]),
    ("AffineGrid", &[1]),
    ("HannWindow", &[0]),
    ("HammingWindow", &[0]),
    ("BlackmanWindow", &[0]),
    ("STFT", &[1, 3]),
    ("MelWeightMatrix", &[0, 1]),
]);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
        "CenterCropPad" => {
            let x = in0()?;
            let mut xs = x.shape?;
            let shape = const_ints(body, *ops.get(1)?)?;
            let axes: Vec<usize> = match ints_attr(attr("axes")) {
                Some(a) => a.iter().map(|a| norm_axis(*a, xs.len())).collect::<Option<_>>()?,
                None => (0..xs.len()).collect(),
            };
            if shape.len() != axes.len() {
                return None;
            }
            for (a, n) in axes.iter().zip(&shape) {
                xs[*a] = *n;
            }
            one(t(&x.elem, Some(xs)))
        }
        "HannWindow" | "HammingWindow" | "BlackmanWindow" => {
            let size = const_f64s(body, *ops.first()?)?.first().copied()? as i64;
            let elem = crate::types::elem_type(ctx, int_attr(attr("output_datatype")).unwrap_or(1) as i32).ok()?;
            one(t(&elem, Some(vec![size])))
        }
        "MelWeightMatrix" => {
            let v: Vec<i64> = (0..2).map(|i| const_ints(body, *ops.get(i)?)?.first().copied()).collect::<Option<_>>()?;
            let elem = crate::types::elem_type(ctx, int_attr(attr("output_datatype")).unwrap_or(1) as i32).ok()?;
            one(t(&elem, Some(vec![v[1] / 2 + 1, v[0]])))
        }
        "StringNormalizer" => {
            // Without stop words every string stays: the input's shape. With them the kept
            // count depends on the strings (a removed-to-empty result keeps one ""): [?] or [1, ?].
            let x = in0()?;
            let stops = attr("stopwords").and_then(|a| a.as_array()).is_some_and(|a| !a.is_empty());
            let shape = match (stops, x.shape) {
                (false, s) => s,
                (true, Some(s)) if s.len() == 2 => Some(vec![1, DYNAMIC]),
                (true, Some(_)) => Some(vec![DYNAMIC]),
                (true, None) => None,
            };
            one(t(&x.elem, shape))
        }
        "StringSplit" => {
            // The input's shape and one more dim, the most pieces of any string (data-dependent);
            // the second result counts each string's pieces.
            let x = in0()?;
            let shape = x.shape.clone().map(|s| [s, vec![DYNAMIC]].concat());
            Some(vec![t(&x.elem, shape), t(&ctx.i64(), x.shape)])
        }
        "Col2Im" => {
            // (N, C·∏block, L) → (N, C, image_shape...).
            let xs = in0()?.shape?;
            let image = const_ints(body, *ops.get(1)?)?;
            let block = const_ints(body, *ops.get(2)?)?;
            let per_channel: i64 = block.iter().product();
            if xs.len() != 3 || per_channel <= 0 || image.len() != block.len() {
                return None;
            }
            let c = if xs[1] == DYNAMIC { DYNAMIC } else { xs[1] / per_channel };
            one(t(&in0()?.elem, Some([vec![xs[0], c], image].concat())))
        }
        "AffineGrid" => {
            // size (N, C, H, W) → (N, H, W, 2); (N, C, D, H, W) → (N, D, H, W, 3).
            let size = const_ints(body, *ops.get(1)?)?;
            if size.len() < 4 {
                return None;
            }
            let mut out = vec![size[0]];
            out.extend(&size[2..]);
            out.push(size.len() as i64 - 2);
            one(t(&in0()?.elem, Some(out)))
        }
        "STFT" => {
            // (batch, frames, bins, 2): frames from frame_length and frame_step, bins halved if onesided.
            let xs = in0()?.shape?;
            let step = *const_ints(body, *ops.get(1)?)?.first()?;
            let len = match given(3) {
                Some(v) => *const_ints(body, v)?.first()?,
                None => *body.value_type(given(2)?).shape()?.first()?,
            };
            if xs.len() != 3 || xs[1] == DYNAMIC || len == DYNAMIC || step <= 0 {
                return None;
            }
            let frames = (xs[1] - len) / step + 1;
            let bins = if int_attr(attr("onesided")).unwrap_or(1) != 0 { len / 2 + 1 } else { len };
            one(t(&in0()?.elem, Some(vec![xs[0], frames, bins, 2])))
        }
        "LinearAttention" => {
            // Q (B, S, Hq·Dk), K (B, S, Hkv·Dk), V (B, S, Hkv·Dv) → output (B, S, Hq·Dv), state (B, Hkv, Dk, Dv).
            let (qs, ks, vs) = (in0()?.shape?, ins.get(1)?.clone()?.shape?, ins.get(2)?.clone()?.shape?);
            let (hq, hkv) = (int_attr(attr("q_num_heads"))?, int_attr(attr("kv_num_heads"))?);
            if qs.len() != 3 || ks.len() != 3 || vs.len() != 3 || hkv <= 0 || ks[2] == DYNAMIC || vs[2] == DYNAMIC {
                return None;
            }
            let (dk, dv) = (ks[2] / hkv, vs[2] / hkv);
            let e = in0()?.elem;
            let mut v = vec![t(&e, Some(vec![qs[0], qs[1], hq * dv]))];
            if d.results().len() > 1 {
                v.push(t(&e, Some(vec![qs[0], hkv, dk, dv])));
            }
            Some(v)
        }
        "CausalConvWithState" => {
            // Depthwise causal conv over the last axis: output like the input; the state keeps K - 1 steps.
            let x = in0()?;
            let (xs, ws) = (x.shape.clone()?, ins.get(1)?.clone()?.shape?);
            let k = *ws.last()?;
            let mut v = vec![t(&x.elem, Some(xs.clone()))];
            if d.results().len() > 1 {
                let mut st = xs;
                *st.last_mut()? = if k == DYNAMIC { DYNAMIC } else { k - 1 };
                v.push(t(&x.elem, Some(st)));
            }
            Some(v)
        }
        _ => None,
    }
}
