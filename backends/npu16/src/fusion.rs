//! npu16's grouping rules (`Backend::group`): the ops it runs as one with
//! another, so the partitioner places them together. Activations fuse into
//! the NPU op producing their input where they can (else run alone); a
//! quantized product is one
//! int8 op with its DequantizeLinears, QuantizeLinear and a following
//! DQ → Relu/Clip → Q chain; an int8 MaxPool takes its DQ and Q.

use backend::{Reason, Unsupported};
use ir::{Body, OpId};
use std::collections::HashMap;

/// Activations that fuse into the NPU op producing their input, when they can.
const FUSABLE: &[&str] = &["onnx.Relu", "onnx.Clip", "onnx.Sigmoid", "onnx.Tanh"];
/// NPU ops an activation fuses into.
const ACTIVATION_HOSTS: &[&str] = &["onnx.Conv", "onnx.Gemm", "onnx.MatMul", "onnx.Add", "onnx.Sub", "onnx.Mul", "onnx.Div", "onnx.Max", "onnx.Min"];

/// For each op of `work`, the index of the op it runs with (itself when alone);
/// `npu` (the capability answers) is refined: the members of a quantized
/// pattern are accepted with it.
pub fn group(body: &Body, work: &[OpId], npu: &mut [Result<(), Unsupported>]) -> Vec<usize> {
    let index: HashMap<OpId, usize> = work.iter().enumerate().map(|(i, o)| (*o, i)).collect();
    let mut group: Vec<usize> = (0..work.len()).collect();
    for (i, &op) in work.iter().enumerate() {
        if npu[i].is_err() || !FUSABLE.contains(&body.name(op).as_str()) {
            continue;
        }
        // Not fused (no NPU producer, or one with other users): a pass of the vector unit of its own.
        let x = body.op(op).operand(0);
        let host = body.defining_op(x).and_then(|d| index.get(&d).copied());
        if let Some(h) = host.filter(|h| npu[*h].is_ok() && body.uses(x).len() == 1 && ACTIVATION_HOSTS.contains(&body.name(work[*h]).as_str())) {
            group[i] = h;
        }
    }
    for &op in work {
        let (mut members, q) = if let Some(a) = super::quant::qadd(body, op) {
            (vec![op, a.a.op, a.b.op, a.q], a.q)
        } else if super::quant::qinteger(body, op) {
            let geometry = if body.name(op).as_str() == "onnx.ConvInteger" {
                super::target::conv_geometry(body, op)
            } else if body.value_type(body.op(op).operand(1)).shape().map(|s| s.len()) == Some(2) {
                Ok(())
            } else {
                Err(Unsupported::new(Reason::Shape, "B is not a matrix"))
            };
            npu[index[&op]] = geometry;
            continue;
        } else if let Some((x, q)) = super::quant::qmaxpool(body, op) {
            if npu[index[&op]].is_err() {
                continue;
            }
            // No chain after a pool: its Q is the group's last op.
            for o in [op, x.op, q] {
                if let Some(&i) = index.get(&o) {
                    npu[i] = Ok(());
                    group[i] = index[&op];
                }
            }
            continue;
        } else {
            if !matches!(body.name(op).as_str(), "onnx.Conv" | "onnx.Gemm" | "onnx.MatMul" | "onnx.QLinearConv" | "onnx.QLinearMatMul") {
                continue;
            }
            let Some(m) = super::quant::qmac(body, op) else { continue };
            if let Err(r) = super::target::quantized_mac(body, op) {
                npu[index[&op]] = Err(r);
                continue;
            }
            let mut v = vec![op, m.x.op, m.w.op, m.q];
            v.extend(m.b.as_ref().map(|b| b.op));
            (v, m.q)
        };
        if let Some((dq, relu, q2, _)) = super::quant::relu_chain(body, body.op(q).result(0)) {
            members.extend([dq, relu, q2]);
        }
        for o in members {
            if let Some(&i) = index.get(&o) {
                npu[i] = Ok(());
                group[i] = index[&op];
            }
        }
    }
    group
}
