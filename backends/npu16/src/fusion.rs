//! npu16's grouping rules (`Backend::group`): the ops it runs as one with
//! another, so the partitioner places them together. Activations fuse into
//! the NPU op producing their input where they can (else run alone); a
//! quantized product is one
//! int8 op with its DequantizeLinears, QuantizeLinear and a following
//! DQ → Relu/Clip → Q chain; an int8 MaxPool or GlobalAveragePool takes its DQ and Q; a LayerNorm
//! written out is one (`norm.rs`).

use onnx::ops;
use backend::{Reason, Unsupported};
use ir::{Body, OpId};
use std::collections::HashMap;

/// Activations that fuse into the NPU op producing their input, when they can.
const FUSABLE: &[&str] = &[ops::Relu::NAME, ops::Clip::NAME, ops::Sigmoid::NAME, ops::Tanh::NAME];
/// NPU ops an activation fuses into.
const ACTIVATION_HOSTS: &[&str] = &[ops::Conv::NAME, ops::Gemm::NAME, ops::MatMul::NAME, ops::Add::NAME, ops::Sub::NAME, ops::Mul::NAME, ops::Div::NAME, ops::Max::NAME, ops::Min::NAME, ops::Sum::NAME, ops::Mean::NAME, ops::BatchNormalization::NAME];

/// For each op of `work`, the index of the op it runs with (itself when alone);
/// `npu` (the capability answers) is refined: the members of a quantized
/// pattern are accepted with it.
pub fn group(body: &Body, work: &[OpId], npu: &mut [Result<(), Unsupported>]) -> Vec<usize> {
    let index: HashMap<OpId, usize> = work.iter().enumerate().map(|(i, o)| (*o, i)).collect();
    let mut group: Vec<usize> = (0..work.len()).collect();
    // Why an op that reads or feeds quantized tensors was not taken in int8.
    let mut refused_int8: HashMap<OpId, String> = HashMap::new();
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
        let name = body.name(op);
        let quantized_input = |i: usize| body.op(op).operands().get(i).and_then(|v| body.defining_op(*v)).is_some_and(|d| body.name(d).as_str() == ops::DequantizeLinear::NAME);
        let (mut members, q) = if name.as_str() == ops::Add::NAME && quantized_input(0) && quantized_input(1) {
            match super::quant::qadd(body, op) {
                Ok(a) => (vec![op, a.a.op, a.b.op, a.q], a.q),
                Err(e) => {
                    // The f32 Add may still run on the NPU (its inputs dequantized elsewhere).
                    refused_int8.insert(op, e);
                    continue;
                }
            }
        } else if matches!(name.as_str(), ops::ConvInteger::NAME | ops::MatMulInteger::NAME) {
            npu[index[&op]] = match super::quant::qinteger(body, op) {
                Err(e) => Err(Unsupported::new(Reason::ElementType, e)),
                Ok(()) if name.as_str() == ops::ConvInteger::NAME => super::target::conv_geometry(body, op),
                Ok(()) if body.value_type(body.op(op).operand(1)).shape().map(|s| s.len()) == Some(2) => Ok(()),
                Ok(()) => Err(Unsupported::new(Reason::Shape, "B is not a matrix")),
            };
            continue;
        } else if name.as_str() == ops::Mul::NAME && quantized_input(0) && quantized_input(1) {
            // x·f(x) of one int8 tensor: one table (its function's own group, if any, joins it).
            let Ok(l) = super::quant_lut::qswish(body, op) else { continue };
            claim(npu, &mut group, &index, l.members, index[&op]);
            continue;
        } else if super::quant_lut::LUT_FUNCTIONS.contains(&name.as_str()) && quantized_input(0) {
            // A Relu or Clip a product's requantization already took (`relu_chain`).
            if group[index[&op]] != index[&op] {
                continue;
            }
            // An int8 function of one value: a table on the vector unit, whatever its f32 form.
            let l = match super::quant_lut::qlut(body, op) {
                Ok(l) => l,
                Err(e) => {
                    // Between a DQ and a Q on the CPU its float form gains nothing: the int8 reason is the true one.
                    npu[index[&op]] = Err(Unsupported::new(Reason::ElementType, format!("int8 pattern refused: {}", e)));
                    refused_int8.insert(op, e);
                    continue;
                }
            };
            claim(npu, &mut group, &index, l.members, index[&op]);
            continue;
        } else if (super::quant::MOVES.contains(&name.as_str()) || matches!(name.as_str(), ops::GlobalAveragePool::NAME | ops::AveragePool::NAME | ops::Concat::NAME)) && quantized_input(0) {
            let pooled = match name.as_str() {
                ops::GlobalAveragePool::NAME | ops::AveragePool::NAME => super::quant::qavgpool(body, op).map(|a| (vec![a.x], a.q)),
                ops::Concat::NAME => super::quant::qconcat(body, op),
                _ => super::quant::qmaxpool(body, op).map(|(x, q)| (vec![x], q)),
            };
            let (xs, q) = match pooled {
                Ok(p) => p,
                Err(e) => {
                    refused_int8.insert(op, e);
                    continue;
                }
            };
            if npu[index[&op]].is_err() {
                continue;
            }
            // No chain after a pool: its Q is the group's last op.
            claim(npu, &mut group, &index, xs.iter().map(|x| x.op).chain([op, q]), index[&op]);
            continue;
        } else {
            let qlinear = matches!(name.as_str(), ops::QLinearConv::NAME | ops::QLinearMatMul::NAME);
            if !qlinear && !(matches!(name.as_str(), ops::Conv::NAME | ops::Gemm::NAME | ops::MatMul::NAME) && (quantized_input(0) || quantized_input(1))) {
                continue;
            }
            let m = match super::quant::qmac(body, op) {
                Ok(m) => m,
                Err(e) => {
                    // Its float form needs constant f32 weights: the int8 reason is the true one.
                    if qlinear || npu[index[&op]].is_err() {
                        npu[index[&op]] = Err(Unsupported::new(Reason::ElementType, format!("int8 pattern refused: {}", e)));
                    }
                    refused_int8.insert(op, e);
                    continue;
                }
            };
            if let Err(r) = super::target::quantized_mac(body, op) {
                npu[index[&op]] = Err(r);
                continue;
            }
            let mut v = vec![op, m.x.op, m.w.op, m.q];
            v.extend(m.b.as_ref().map(|b| b.op));
            (v, m.q)
        };
        if let Some(c) = super::quant::relu_chain(body, body.op(q).result(0)) {
            members.extend([c.dq, c.act, c.q.op]);
        }
        claim(npu, &mut group, &index, members, index[&op]);
    }
    keep_cheap_work_on_the_host(body, work, &index, npu);
    explain_lone_quantize_ops(body, work, &index, npu, &refused_int8);
    group
}

/// Puts `members` in the group of `rep`, accepted, unless one of them failed
/// to compile on npu16 before (`Reason::CompileFailed`): then the whole
/// group is refused with that reason, so a failed layer leaves the NPU with
/// its DequantizeLinears and QuantizeLinear and the rest compiles again.
fn claim(npu: &mut [Result<(), Unsupported>], group: &mut [usize], index: &HashMap<OpId, usize>, members: impl IntoIterator<Item = OpId>, rep: usize) {
    let ids: Vec<usize> = members.into_iter().filter_map(|o| index.get(&o).copied()).collect();
    let failed = ids.iter().find_map(|&i| npu[i].clone().err().filter(|e| e.reason == Reason::CompileFailed));
    for i in ids {
        npu[i] = match &failed {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        };
        group[i] = rep;
    }
}

/// A DequantizeLinear or QuantizeLinear that is not part of an int8 group
/// stays on the host; its reason names the op it belongs to and why that op
/// is not int8 on the NPU (ONNX Runtime's question "why is my QDQ model
/// slow" answered per node).
fn explain_lone_quantize_ops(body: &Body, work: &[OpId], index: &HashMap<OpId, usize>, npu: &mut [Result<(), Unsupported>], refused_int8: &HashMap<OpId, String>) {
    let node = |op: OpId| body.op(op).loc.node_name().unwrap_or_else(|| body.name(op).as_str().to_string());
    for (i, &op) in work.iter().enumerate() {
        if npu[i].is_ok() {
            continue;
        }
        let (dq, other) = match body.name(op).as_str() {
            ops::DequantizeLinear::NAME => (true, body.uses(body.op(op).result(0)).first().map(|u| u.op)),
            ops::QuantizeLinear::NAME => (false, body.defining_op(body.op(op).operand(0))),
            _ => continue,
        };
        let what = if dq { "dequantizes an input of" } else { "quantizes the result of" };
        let why = match other {
            None => Unsupported::new(Reason::NoLowering, if dq { "its result is unused" } else { "quantizes a model input: the NPU runs a QuantizeLinear only fused into the op before it" }.to_string()),
            Some(o) if dq && body.name(o).as_str() == func::ops::RETURN => Unsupported::new(Reason::NoLowering, "dequantizes a model output: the NPU runs a DequantizeLinear only fused into the int8 op after it".to_string()),
            Some(o) => {
                let which = format!("{} {} ({})", what, node(o), body.name(o).as_str());
                match (refused_int8.get(&o), index.get(&o).map(|&j| &npu[j])) {
                    (Some(e), _) => Unsupported::new(Reason::ElementType, format!("{}, whose int8 form the NPU refuses: {}", which, e)),
                    (None, Some(Err(e))) => Unsupported::new(e.reason, format!("{}, which stays off the NPU: {}", which, e.message)),
                    _ => Unsupported::new(Reason::NoLowering, format!("{}, which has no int8 form on the NPU: a {} runs there only fused into an int8 op", which, if dq { "DequantizeLinear" } else { "QuantizeLinear" })),
                }
            }
        };
        npu[i] = Err(why);
    }
}

/// Ops that multiply-accumulate on the array: what makes a program worth its start.
const MAC_OPS: &[&str] = &[ops::Conv::NAME, ops::Gemm::NAME, ops::MatMul::NAME, ops::QLinearConv::NAME, ops::QLinearMatMul::NAME, ops::ConvInteger::NAME, ops::MatMulInteger::NAME];

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
