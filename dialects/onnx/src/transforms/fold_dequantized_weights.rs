//! `onnx-fold-dequantized-weights`: a DequantizeLinear whose operands are all
//! constants (a QDQ model's weights and biases) becomes the f32 constant it
//! computes, `(f32(q) - f32(zp)) · scale` per tensor or per axis, as the CPU
//! lowering computes it, bit for bit. The CPU path ran ResNet-18's weight
//! dequantization on every call (a third of its int8 run time); now it runs
//! once, at compile time, and the float kernels read f32 weights.
//!
//! Integer inputs of 8, 16 or 32 bits to f32; blocked quantization, other
//! output types and constants over 256 MiB stay as they are.

use crate::ops;
use ir::attributes::{AttrData, Attribute, DenseData, Resource};
use ir::pass::{Pass, PassContext};
use ir::{Body, Context, OpId, OperationState, Value};
use std::sync::Arc;

pub struct FoldDequantizedWeights;

/// The largest constant this pass makes.
const MAX_BYTES: u64 = 256 << 20;

impl Pass for FoldDequantizedWeights {
    fn argument(&self) -> &'static str {
        "onnx-fold-dequantized-weights"
    }
    fn display_name(&self) -> &'static str {
        "FoldDequantizedWeights"
    }
    fn run(&mut self, cx: &mut PassContext, module: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let body = &mut *cx.body;
        let dqs: Vec<OpId> = body.walk_preorder(module).into_iter().filter(|o| body.name(*o).as_str() == ops::DequantizeLinear::NAME).collect();
        for op in dqs {
            let Some(value) = fold(ctx, body, op) else { continue };
            let result = body.op(op).result(0);
            let ty = body.value_type(result).clone();
            let st = OperationState::new(ctx.op_name(ops::Constant::NAME), body.op(op).loc.clone()).results(&[ty]).property(ctx.ident("value"), value);
            let c = body.build(st, ir::InsertPoint::Before(op));
            let cv = body.op(c).result(0);
            body.replace_all_uses(result, cv);
            let operands: Vec<Value> = body.op(op).operands().to_vec();
            body.erase(op);
            // The quantized constants go when nothing else reads them.
            for v in operands {
                if let Some(d) = body.defining_op(v).filter(|d| !body.has_uses(v) && body.name(*d).as_str() == ops::Constant::NAME) {
                    body.erase(d);
                }
            }
        }
        Ok(())
    }
}

fn constant(body: &Body, v: Value) -> bool {
    body.defining_op(v).is_some_and(|d| body.name(d).as_str() == ops::Constant::NAME)
}

/// The f32 values DequantizeLinear `op` computes, when all its operands are constants this pass folds.
fn fold(ctx: &Context, body: &Body, op: OpId) -> Option<Attribute> {
    let o = body.op(op);
    if !o.operands().iter().all(|v| constant(body, *v) || matches!(body.value_type(*v).data(), ir::types::TypeData::None)) {
        return None;
    }
    if o.attr("block_size").and_then(|a| a.as_int()).unwrap_or(0) != 0 {
        return None;
    }
    let out_ty = body.value_type(o.result(0)).clone();
    if out_ty.element_type()? != &ctx.f32() {
        return None;
    }
    let x = o.operand(0);
    let xt = body.value_type(x);
    if xt.element_type()?.int_width().is_none_or(|w| ![8, 16, 32].contains(&w)) {
        return None;
    }
    let shape = xt.shape()?.to_vec();
    let n = xt.num_elements()?;
    if n * 4 > MAX_BYTES || n == 0 {
        return None;
    }
    let q: Vec<f32> = match crate::infer::const_i8s(body, x) {
        Some(v) => v.into_iter().map(|v| v as f32).collect(),
        None => crate::infer::const_ints(body, x)?.into_iter().map(|v| v as f32).collect(),
    };
    let scales: Vec<f32> = crate::infer::const_f64s(body, o.operand(1))?.into_iter().map(|v| v as f32).collect();
    let zps: Vec<f32> = match o.operands().get(2).filter(|v| constant(body, **v)) {
        Some(z) => crate::infer::const_ints(body, *z)?.into_iter().map(|v| v as f32).collect(),
        None => vec![0.0; scales.len()],
    };
    if zps.len() != scales.len() || scales.is_empty() {
        return None;
    }
    // Per axis: the index of element i's scale is its coordinate along `axis`.
    let (period, inner) = if scales.len() == 1 {
        (1, 1)
    } else {
        let mut axis = o.attr("axis").and_then(|a| a.as_int()).unwrap_or(1) as i64;
        if axis < 0 {
            axis += shape.len() as i64;
        }
        if shape.get(axis as usize) != Some(&(scales.len() as i64)) {
            return None;
        }
        (scales.len(), shape[axis as usize + 1..].iter().product::<i64>() as usize)
    };
    let mut out = Vec::with_capacity(n as usize * 4);
    for (i, v) in q.iter().enumerate() {
        let c = (i / inner) % period;
        out.extend_from_slice(&((v - zps[c]) * scales[c]).to_le_bytes());
    }
    Some(if out.len() >= 1024 {
        Attribute::new(AttrData::DenseResource { ty: out_ty, resource: Resource::new(&format!("dequantized_{}", body.op_capacity()), 16, Arc::new(out)) })
    } else {
        Attribute::new(AttrData::Dense { ty: out_ty, data: DenseData::canonical(out, 4, n as usize) })
    })
}
