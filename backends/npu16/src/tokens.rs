//! Feature maps as token sequences: a vision transformer's
//! `Reshape([N, C, H, W] → [N, C, H·W])` then `Transpose(perm = [0, 2, 1])`
//! gives `[N, H·W, C]`, which is the NHWC bytes npu16 already holds; the way
//! back (`Transpose` then `Reshape` to `[N, C, H, W]`, or `Reshape` to
//! `[N, H, W, C]` then `Transpose` to NCHW for an op that reads NHWC) is NHWC
//! again. They are free on the NPU: `convert-onnx-to-npu` turns the first
//! two into one Reshape of the NHWC tensor, and the last cancels against the
//! transpose to NHWC in front of its user, instead of a transpose that moves
//! one element per DMA row.

use onnx::ops;
use ir::{Body, OpId, Value};

fn shape(body: &Body, v: Value) -> Option<Vec<i64>> {
    body.value_type(v).shape().map(|s| s.to_vec()).filter(|s| s.iter().all(|d| *d >= 0))
}

fn is(body: &Body, op: OpId, names: &[&str]) -> bool {
    names.contains(&body.name(op).as_str())
}

fn perm_is(body: &Body, op: OpId, p: &[i64]) -> bool {
    body.name(op).as_str() == ops::Transpose::NAME && body.op(op).ints_attr("perm").as_deref() == Some(p)
}

/// `v`, or the value it aliases through Reshapes, Squeezes and Unsqueezes
/// that come back to its shape (the same bytes in any layout).
pub fn unaliased(body: &Body, v: Value) -> Value {
    let want = shape(body, v);
    let (mut at, mut found) = (v, v);
    while let Some(d) = body.defining_op(at).filter(|d| is(body, *d, &[ops::Reshape::NAME, ops::Flatten::NAME, ops::Squeeze::NAME, ops::Unsqueeze::NAME])) {
        at = body.op(d).operand(0);
        if shape(body, at) == want {
            found = at;
        }
    }
    found
}

/// `t` (a `[0, 2, 1]` Transpose) of a Reshape (or a Squeeze of H = 1) of a 4-D `[N, C, H, W]` tensor
/// into `[N, C, H·W]`: that 4-D tensor, the image the tokens come from.
pub fn image_to_tokens(body: &Body, t: OpId) -> Option<Value> {
    if !perm_is(body, t, &[0, 2, 1]) {
        return None;
    }
    let r = body.defining_op(body.op(t).operand(0)).filter(|r| is(body, *r, &[ops::Reshape::NAME, ops::Flatten::NAME, ops::Squeeze::NAME]))?;
    let img = body.op(r).operand(0);
    let (x, y) = (shape(body, img)?, shape(body, body.op(r).result(0))?);
    (x.len() == 4 && y == [x[0], x[1], x[2] * x[3]]).then_some(img)
}

/// `r` (a Reshape into `[N, C, H, W]`) of a `[0, 2, 1]` Transpose of
/// `[N, H·W, C]` tokens: those tokens, the sequence the image comes from.
pub fn tokens_to_image(body: &Body, r: OpId) -> Option<Value> {
    if !is(body, r, &[ops::Reshape::NAME]) {
        return None;
    }
    let t = body.defining_op(body.op(r).operand(0)).filter(|t| perm_is(body, *t, &[0, 2, 1]))?;
    let seq = body.op(t).operand(0);
    let (s, y) = (shape(body, seq)?, shape(body, body.op(r).result(0))?);
    (s.len() == 3 && y.len() == 4 && s == [y[0], y[2] * y[3], y[1]]).then_some(seq)
}
