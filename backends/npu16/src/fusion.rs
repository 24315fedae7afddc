//! npu16's grouping rules (`Backend::group`): the ops it runs as one with
//! another, so the partitioner places them together. Activations fuse into
//! the NPU op producing their input where they can (else run alone); a
//! quantized product is one
//! int8 op with its DequantizeLinears, QuantizeLinear and a following
//! DQ → Relu/Clip → Q chain; an int8 MaxPool takes its DQ and Q; a LayerNorm
//! written out is one (`norm.rs`).

use backend::{Reason, Unsupported};
use ir::{Body, OpId};
use std::collections::HashMap;

/// Activations that fuse into the NPU op producing their input, when they can.
const FUSABLE: &[&str] = &["onnx.Relu", "onnx.Clip", "onnx.Sigmoid", "onnx.Tanh"];
/// NPU ops an activation fuses into.
const ACTIVATION_HOSTS: &[&str] = &["onnx.Conv", "onnx.Gemm", "onnx.MatMul", "onnx.Add", "onnx.Sub", "onnx.Mul", "onnx.Div", "onnx.Max", "onnx.Min", "onnx.Sum", "onnx.Mean", "onnx.BatchNormalization"];

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
        if let Some(ln) = super::norm::decomposed_layer_norm(body, op) {
            // A LayerNorm written out: one kernel, or every op of it where it
            // cannot run (a compile failure of an earlier round stands).
            let failed = ln.members.iter().filter_map(|o| index.get(o)).find_map(|&i| npu[i].clone().err().filter(|e| e.reason == Reason::CompileFailed));
            let fits = match failed {
                Some(e) => Err(e),
                None => super::norm::row_fits(body, ln.x),
            };
            for o in &ln.members {
                if let Some(&i) = index.get(o) {
                    npu[i] = fits.clone();
                    group[i] = index[&op];
                }
            }
            continue;
        }
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
    keep_cheap_work_on_the_host(body, work, &index, npu);
    group
}

/// Ops that multiply-accumulate on the array: what makes a program worth its start.
const MAC_OPS: &[&str] = &["onnx.Conv", "onnx.Gemm", "onnx.MatMul", "onnx.QLinearConv", "onnx.QLinearMatMul", "onnx.ConvInteger", "onnx.MatMulInteger"];

/// A connected run of NPU ops without a product, fed by an op that runs
/// elsewhere (a Reshape after the CPU's Softmax, a Relu after a convolution
/// that fell back), stays with that op: as a program of its own it would
/// cost a switch between targets and a DRAM round trip for a pass the host
/// does in microseconds. Runs fed only by the model's inputs stay on the NPU.
fn keep_cheap_work_on_the_host(body: &Body, work: &[OpId], index: &HashMap<OpId, usize>, npu: &mut [Result<(), Unsupported>]) {
    let n = work.len();
    // Components of accepted ops, joined along the values between them (union-find).
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for (i, &op) in work.iter().enumerate() {
        if npu[i].is_err() {
            continue;
        }
        for &v in body.op(op).operands() {
            if let Some(&j) = body.defining_op(v).and_then(|d| index.get(&d)) {
                if npu[j].is_ok() {
                    let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                    parent[a] = b;
                }
            }
        }
    }
    let mut has_mac = vec![false; n];
    let mut fed_from_elsewhere = vec![false; n];
    for (i, &op) in work.iter().enumerate() {
        if npu[i].is_err() {
            continue;
        }
        let r = find(&mut parent, i);
        has_mac[r] |= MAC_OPS.contains(&body.name(op).as_str());
        fed_from_elsewhere[r] |= body.op(op).operands().iter().any(|v| body.defining_op(*v).and_then(|d| index.get(&d)).is_some_and(|&j| npu[j].is_err()));
    }
    for i in 0..n {
        let r = find(&mut parent, i);
        if npu[i].is_ok() && fed_from_elsewhere[r] && !has_mac[r] {
            npu[i] = Err(Unsupported::new(Reason::Constraint, "no product in its run of NPU ops, which another target feeds: cheaper where its input is than as a program of its own"));
        }
    }
}
