//! Older opset forms normalized on import to the newest one, so later passes
//! see one form per operator: attributes that later became inputs
//! (Unsqueeze/Squeeze/Reduce* `axes`, Split `split`, Slice, Pad, Clip, TopK `k`,
//! Dropout `ratio`) become constant operands, Upsample becomes Resize,
//! Softmax/LogSoftmax/Hardmax before opset 13 (over everything from `axis`
//! on, the input seen as 2-D) become Flatten → the op over the last axis →
//! Reshape back, and attributes that no longer exist (`consumed_inputs`,
//! `is_test`, `spatial`) are dropped.

use ir::attributes::{ArrayData, AttrData, AttrDict, Attribute};
use ir::types::TypeData;
use onnx::ops;
use onnx::builder::Builder;
use ir::{Block, Body, Context, InsertPoint, Location, OperationState, Value};

/// What the importer builds: the op name, its operands and its properties.
pub struct NodeParts {
    pub op_name: String,
    pub operands: Vec<Value>,
    pub props: AttrDict,
    /// The op's first result is to be reshaped to this value's shape (the
    /// importer adds `Shape` and `Reshape` after the op).
    pub reshape_like: Option<Value>,
}

/// Rewrites an older form in place (constants are created before the node).
pub fn normalize(ctx: &Context, body: &mut Body, block: Block, loc: &Location, op_type: &str, since: u32, parts: &mut NodeParts) -> Result<(), String> {
    let mut b = Builder::new(ctx, body, InsertPoint::AtEnd(block), loc.clone());
    for dead in ["consumed_inputs", "is_test", "spatial"] {
        parts.props.remove(dead);
    }
    let elem0 = parts.operands.first().and_then(|v| b.body.value_type(*v).element_type().cloned()).unwrap_or_else(|| ctx.f32());
    let reduce = op_type.starts_with("Reduce");
    let axes_became_input = match op_type {
        "Unsqueeze" | "Squeeze" => since < 13,
        "ReduceSum" => since < 13,
        _ if reduce => since < 18,
        _ => false,
    };
    if axes_became_input {
        if let Some(axes) = parts.props.remove("axes") {
            let v = axes.as_ints().ok_or("axes must be a list of integers")?;
            let c = b.i64s(&v);
            parts.operands.push(c);
        }
    }
    match op_type {
        "Split" if since < 13 => {
            if let Some(split) = parts.props.remove("split") {
                let v = split.as_ints().ok_or("split must be a list of integers")?;
                let c = b.i64s(&v);
                parts.operands.push(c);
            }
        }
        "Slice" if since < 10 => {
            let starts = parts.props.remove("starts").and_then(|a| a.as_ints()).ok_or("Slice-1 needs starts")?;
            let ends = parts.props.remove("ends").and_then(|a| a.as_ints()).ok_or("Slice-1 needs ends")?;
            let (s, e) = (b.i64s(&starts), b.i64s(&ends));
            parts.operands.extend([s, e]);
            if let Some(axes) = parts.props.remove("axes").and_then(|a| a.as_ints()) {
                let a = b.i64s(&axes);
                parts.operands.push(a);
            }
        }
        "Pad" if since < 11 => {
            let pads = parts.props.remove("pads").or_else(|| parts.props.remove("paddings")).and_then(|a| a.as_ints()).ok_or("Pad-2 needs pads")?;
            let value = parts.props.remove("value").and_then(|a| a.as_float()).unwrap_or(0.0);
            let p = b.i64s(&pads);
            let v = b.scalar(&elem0, value);
            parts.operands.extend([p, v]);
        }
        "Clip" if since < 11 => {
            let min = parts.props.remove("min").and_then(|a| a.as_float());
            let max = parts.props.remove("max").and_then(|a| a.as_float());
            let lo = match min {
                Some(x) => b.scalar(&elem0, x),
                None => b.none(),
            };
            let hi = match max {
                Some(x) => b.scalar(&elem0, x),
                None => b.none(),
            };
            parts.operands.extend([lo, hi]);
        }
        "TopK" if since < 10 => {
            let k = parts.props.remove("k").and_then(|a| a.as_int()).ok_or("TopK-1 needs k")? as i64;
            let c = b.i64s(&[k]);
            parts.operands.push(c);
        }
        "Dropout" if since < 12 => {
            if let Some(r) = parts.props.remove("ratio").and_then(|a| a.as_float()) {
                let c = b.scalar(&ctx.f32(), r);
                parts.operands.push(c);
            }
        }
        "Upsample" => {
            // Upsample(X, scales) ≡ Resize(X, roi = none, scales) with the same mode.
            let scales = match parts.props.remove("scales") {
                Some(a) => match a.data() {
                    AttrData::DenseArray { data: ArrayData::Float(v), .. } => {
                        let bytes = v.iter().flat_map(|x| (*x as f32).to_le_bytes()).collect();
                        b.constant(ctx.f32(), vec![v.len() as i64], bytes)
                    }
                    _ => return Err("Upsample scales must be a list of floats".into()),
                },
                None => *parts.operands.get(1).ok_or("Upsample needs scales")?,
            };
            let roi = b.none();
            parts.operands = vec![parts.operands[0], roi, scales];
            parts.op_name = ops::Resize::NAME.into();
            if !parts.props.contains("mode") {
                parts.props.set(ctx.ident("mode"), Attribute::string("nearest"));
            }
        }
        "Softmax" | "LogSoftmax" | "Hardmax" if since < 13 => {
            // Before 13: the input coerced to 2-D at `axis` (default 1), the op over the second dim.
            let x = *parts.operands.first().ok_or("needs an input")?;
            let rank = b.body.value_type(x).shape().map(|s| s.len() as i64);
            let axis = parts.props.get("axis").and_then(|a| a.as_int()).unwrap_or(1) as i64;
            // -1 is the last axis whatever the rank: no rewrite (an exported model re-imports as it was).
            let last = axis == -1 || rank.is_some_and(|r| axis == r - 1);
            parts.props.set(ctx.ident("axis"), Attribute::integer(if last { axis as i128 } else { -1 }, ctx.i64()));
            if !last {
                let elem = b.body.value_type(x).element_type().cloned().unwrap_or_else(|| ctx.f32());
                let flat_ty = ctx.intern_type(TypeData::UnrankedTensor { elem });
                let st = OperationState::new(ctx.op_name(ops::Flatten::NAME), loc.clone())
                    .operands(&[x])
                    .results(&[flat_ty])
                    .property(ctx.ident("axis"), Attribute::integer(axis as i128, ctx.i64()));
                let op = b.body.build(st, InsertPoint::AtEnd(block));
                parts.operands[0] = b.body.op(op).result(0);
                parts.reshape_like = Some(x);
            }
        }
        "Resize" if since < 11 => {
            // Resize-10(X, scales) → Resize(X, roi = none, scales).
            let roi = b.none();
            if parts.operands.len() == 2 {
                parts.operands.insert(1, roi);
            }
        }
        _ => {}
    }
    Ok(())
}
