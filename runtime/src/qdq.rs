//! Writing a QDQ model (`npu-quantize`), in the form ONNX Runtime's static
//! quantizer writes and runs: each activation that a quantized op reads or
//! writes gets a QuantizeLinear → DequantizeLinear pair (int8 with its own
//! zero point, or symmetric), constant weights are stored as int8 with a
//! DequantizeLinear (symmetric, per tensor or per output channel), and a
//! Conv's or Gemm's bias as int32 in the scale input scale · weight scale.
//! With zero points, a Relu (or a Clip from 0) right after a quantized op
//! goes: the QuantizeLinear of its output clamps at the zero point, which is
//! 0.0, and saturates at its calibrated maximum.

use crate::tensor::HostTensor;
use onnx_translate::proto::{data_type as dt, AttributeProto, ModelProto, NodeProto, TensorProto};
use std::collections::{HashMap, HashSet};

/// The ops whose inputs and outputs are quantized.
pub const QUANTIZED_OPS: &[&str] = &["Conv", "MatMul", "Gemm", "Add", "MaxPool", "AveragePool", "GlobalAveragePool", "Concat"];

#[derive(Clone, Debug)]
pub struct Options {
    pub per_channel: bool,
    pub symmetric_activations: bool,
}

/// What quantizing a model means for its tensors: the activations to
/// calibrate, the weights and biases to store as integers, the Relus to drop.
#[derive(Debug, Default)]
pub struct Plan {
    /// Float activations to give a Q/DQ pair (calibrated), in the order first met.
    pub activations: Vec<String>,
    /// Weight initializer → (its consumer's node index, the output-channel axis).
    weights: HashMap<String, (usize, i64)>,
    /// Bias initializer → (node index, its input activation, its weight).
    biases: HashMap<String, (usize, String, String)>,
    /// Relu nodes (by index) that go: their producer writes their output.
    dropped_relus: HashSet<usize>,
    /// (tensor, tensor whose scale and zero point it takes).
    shared: Vec<(String, String)>,
}

fn op(n: &NodeProto) -> &str {
    n.op_type.as_deref().unwrap_or("")
}

fn is_default_domain(n: &NodeProto) -> bool {
    matches!(n.domain.as_deref(), None | Some("") | Some("ai.onnx"))
}

fn attr_i(n: &NodeProto, name: &str) -> Option<i64> {
    n.attribute.iter().find(|a| a.name.as_deref() == Some(name)).and_then(|a| a.i)
}

/// A Relu, or a Clip from 0 (Relu6): the QuantizeLinear of its output does
/// what it does. Its calibrated range starts at 0, so the zero point is the
/// bottom of int8 and clamps there; it ends at most at the Clip's maximum,
/// where the QuantizeLinear saturates anyway.
fn is_relu(n: &NodeProto, inits: &HashMap<&str, &TensorProto>) -> bool {
    match op(n) {
        "Relu" => true,
        "Clip" => {
            let lo = match n.input.get(1).filter(|x| !x.is_empty()) {
                Some(x) => inits.get(x.as_str()).and_then(|t| HostTensor::from_proto(t).ok()).and_then(|t| t.to_f64().ok()).and_then(|v| v.first().copied()),
                None => n.attribute.iter().find(|a| a.name.as_deref() == Some("min")).and_then(|a| a.f).map(|v| v as f64),
            };
            lo == Some(0.0)
        }
        _ => false,
    }
}

/// Which tensors the model quantizes (weights only from initializers, as ONNX Runtime's quantizer).
/// A Relu after a quantized op goes only with asymmetric activations (its
/// QuantizeLinear's zero point is what clamps).
pub fn plan(m: &ModelProto, o: &Options) -> Result<Plan, String> {
    let g = m.graph.as_ref().ok_or("the model has no graph")?;
    let inits: HashMap<&str, &TensorProto> = g.initializer.iter().filter_map(|t| Some((t.name.as_deref()?, t))).collect();
    let float_init = |n: &str| inits.get(n).is_some_and(|t| t.data_type == Some(dt::FLOAT));
    let mut consumers: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, n) in g.node.iter().enumerate() {
        for x in &n.input {
            consumers.entry(x.as_str()).or_default().push(i);
        }
    }
    let outputs: HashSet<&str> = g.output.iter().filter_map(|o| o.name.as_deref()).collect();
    let mut p = Plan::default();
    let add = |p: &mut Plan, t: &str| {
        if !t.is_empty() && !inits.contains_key(t) && !p.activations.iter().any(|a| a == t) {
            p.activations.push(t.to_string());
        }
    };
    for (i, n) in g.node.iter().enumerate() {
        if !is_default_domain(n) || !QUANTIZED_OPS.contains(&op(n)) {
            continue;
        }
        let weighted = matches!(op(n), "Conv" | "MatMul" | "Gemm");
        if weighted && !n.input.get(1).is_some_and(|w| float_init(w)) {
            // A product of two activations: both quantized, as the rest.
            if op(n) != "MatMul" {
                continue;
            }
        }
        for (k, x) in n.input.iter().enumerate() {
            match (weighted, k) {
                (true, 1) if float_init(x) => {
                    let axis = match op(n) {
                        "Conv" => 0,
                        "Gemm" if attr_i(n, "transB").unwrap_or(0) != 0 => 0,
                        _ => inits[x.as_str()].dims.len() as i64 - 1,
                    };
                    p.weights.insert(x.clone(), (i, axis));
                }
                (true, 2) if float_init(x) && inits[x.as_str()].dims.len() == 1 && op(n) != "MatMul" => {
                    p.biases.insert(x.clone(), (i, n.input[0].clone(), n.input[1].clone()));
                }
                (_, 0) => add(&mut p, x),
                (_, _) if op(n) == "Add" || op(n) == "Concat" || op(n) == "MatMul" => add(&mut p, x),
                _ => {}
            }
        }
        // The result, or the Relu's after it when it is the result's one reader.
        let y = n.output.first().cloned().unwrap_or_default();
        let readers = consumers.get(y.as_str()).cloned().unwrap_or_default();
        let relu = match readers.as_slice() {
            // Only with zero points: a symmetric quantization keeps negative values.
            [r] if !o.symmetric_activations && is_relu(&g.node[*r], &inits) && g.node[*r].output.len() == 1 && !outputs.contains(y.as_str()) && matches!(op(n), "Conv" | "MatMul" | "Gemm" | "Add") => Some(*r),
            _ => None,
        };
        let out = match relu {
            Some(r) => {
                p.dropped_relus.insert(r);
                g.node[r].output[0].clone()
            }
            None => y,
        };
        add(&mut p, &out);
        // A max pool's result keeps its input's quantization (the max commutes with it).
        if let (true, Some(x)) = (op(n) == "MaxPool", n.input.first()) {
            p.shared.push((out, x.clone()));
        }
    }
    // Graph inputs and outputs stay float: an output gets its pair for its readers only.
    Ok(p)
}

/// Folds each BatchNormalization (inference form) that alone reads a Conv
/// with constant weights into that Conv's weights and bias, as ONNX
/// Runtime's quantization pre-processing does: the int8 Conv then carries
/// the normalization, and a Relu after it follows the Conv directly.
pub fn fold_batch_norms(m: &mut ModelProto) -> Result<usize, String> {
    let g = m.graph.as_mut().ok_or("the model has no graph")?;
    let mut readers: HashMap<String, usize> = HashMap::new();
    for n in &g.node {
        for x in &n.input {
            *readers.entry(x.clone()).or_default() += 1;
        }
    }
    for o in &g.output {
        *readers.entry(o.name.clone().unwrap_or_default()).or_default() += 1;
    }
    let values = |g: &onnx_translate::proto::GraphProto, name: &str| -> Option<Vec<f32>> {
        let t = g.initializer.iter().find(|t| t.name.as_deref() == Some(name) && t.data_type == Some(dt::FLOAT))?;
        Some(HostTensor::from_proto(t).ok()?.to_f64().ok()?.into_iter().map(|v| v as f32).collect())
    };
    let mut folded = 0;
    let mut gone = vec![];
    for b in 0..g.node.len() {
        let bn = &g.node[b];
        if op(bn) != "BatchNormalization" || !is_default_domain(bn) || bn.output.len() != 1 || bn.input.len() != 5 {
            continue;
        }
        let Some(c) = g.node.iter().position(|n| op(n) == "Conv" && n.input.len() >= 2 && n.output.first() == bn.input.first()) else { continue };
        if readers.get(&bn.input[0]).copied() != Some(1) {
            continue;
        }
        let conv = &g.node[c];
        let (Some(w), Some(gamma), Some(beta), Some(mean), Some(var)) = (values(g, &conv.input[1]), values(g, &bn.input[1]), values(g, &bn.input[2]), values(g, &bn.input[3]), values(g, &bn.input[4])) else { continue };
        let f = gamma.len();
        if f == 0 || w.len() % f != 0 || [&beta, &mean, &var].iter().any(|v| v.len() != f) {
            continue;
        }
        let bias = match conv.input.get(2).filter(|b| !b.is_empty()) {
            Some(b) => match values(g, b) {
                Some(v) if v.len() == f => v,
                _ => continue,
            },
            None => vec![0.0; f],
        };
        let eps = bn.attribute.iter().find(|a| a.name.as_deref() == Some("epsilon")).and_then(|a| a.f).unwrap_or(1e-5);
        let k: Vec<f32> = (0..f).map(|c| gamma[c] / (var[c] + eps).sqrt()).collect();
        let per = w.len() / f;
        let w2: Vec<u8> = w.iter().enumerate().flat_map(|(i, v)| (v * k[i / per]).to_le_bytes()).collect();
        let b2: Vec<u8> = (0..f).flat_map(|c| ((bias[c] - mean[c]) * k[c] + beta[c]).to_le_bytes()).collect();
        let wdims = g.initializer.iter().find(|t| t.name.as_deref() == Some(conv.input[1].as_str())).map(|t| t.dims.clone()).unwrap_or_default();
        let (wn, bname) = (format!("{}_bn_folded", conv.input[1]), format!("{}_bias_bn_folded", conv.output[0]));
        g.initializer.push(tensor(&wn, dt::FLOAT, wdims, &w2));
        g.initializer.push(tensor(&bname, dt::FLOAT, vec![f as i64], &b2));
        let y = bn.output[0].clone();
        let conv = &mut g.node[c];
        conv.input.truncate(2);
        conv.input[1] = wn;
        conv.input.push(bname);
        conv.output[0] = y;
        gone.push(b);
        folded += 1;
    }
    let mut i = 0;
    g.node.retain(|_| {
        i += 1;
        !gone.contains(&(i - 1))
    });
    Ok(folded)
}

/// (scale, zero point) of int8 for the range `[lo, hi]` (zero always inside it).
pub fn int8_params(lo: f32, hi: f32, symmetric: bool) -> (f32, i8) {
    let (lo, hi) = (lo.min(0.0), hi.max(0.0));
    if symmetric {
        let a = lo.abs().max(hi);
        let s = if a > 0.0 { a / 127.5 } else { 1.0 };
        return (s, 0);
    }
    let s = if hi > lo { (hi - lo) / 255.0 } else { 1.0 };
    let zp = (-128.0 - lo / s).round_ties_even().clamp(-128.0, 127.0);
    (s, zp as i8)
}

fn scalar_f32(name: &str, v: f32) -> TensorProto {
    HostTensor { dtype: dt::FLOAT, shape: vec![], data: crate::tensor::AlignedBytes::from_slice(&v.to_le_bytes()) }.to_proto(name)
}

fn tensor(name: &str, dtype: i32, shape: Vec<i64>, bytes: &[u8]) -> TensorProto {
    HostTensor { dtype, shape, data: crate::tensor::AlignedBytes::from_slice(bytes) }.to_proto(name)
}

fn node(op_type: &str, name: &str, inputs: &[&str], outputs: &[&str], axis: Option<i64>) -> NodeProto {
    NodeProto {
        op_type: Some(op_type.into()),
        name: Some(name.into()),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: outputs.iter().map(|s| s.to_string()).collect(),
        attribute: axis.map(|a| AttributeProto { name: Some("axis".into()), i: Some(a), r#type: Some(2), ..Default::default() }).into_iter().collect(),
        ..Default::default()
    }
}

/// The QDQ model: `ranges` gives each planned activation's calibrated range.
pub fn write(m: &ModelProto, p: &Plan, ranges: &HashMap<String, (f32, f32)>, o: &Options) -> Result<ModelProto, String> {
    let mut m = m.clone();
    // DequantizeLinear's `axis` needs opset 13.
    for imp in m.opset_import.iter_mut().filter(|i| matches!(i.domain.as_deref(), None | Some("") | Some("ai.onnx"))) {
        if imp.version.unwrap_or(0) < 13 {
            return Err(format!("the model's opset {} is older than 13, where per-axis DequantizeLinear begins; convert it first (onnx.version_converter)", imp.version.unwrap_or(0)));
        }
    }
    let g = m.graph.as_mut().ok_or("the model has no graph")?;
    let mut params: HashMap<String, (f32, i8)> = HashMap::new();
    for a in &p.activations {
        let (lo, hi) = *ranges.get(a).ok_or_else(|| format!("no range for '{}'", a))?;
        params.insert(a.clone(), int8_params(lo, hi, o.symmetric_activations));
    }
    for (a, from) in &p.shared {
        if let Some(v) = params.get(from).copied() {
            params.insert(a.clone(), v);
        }
    }
    let mut inits: Vec<TensorProto> = vec![];
    let mut head: Vec<NodeProto> = vec![];
    // Weights: int8, symmetric, per output channel or per tensor.
    let mut weight_scales: HashMap<String, Vec<f32>> = HashMap::new();
    let mut renamed: HashMap<(usize, String), String> = HashMap::new();
    let mut ws: Vec<(&String, &(usize, i64))> = p.weights.iter().collect();
    ws.sort();
    for (w, &(i, axis)) in ws {
        let t = g.initializer.iter().find(|t| t.name.as_deref() == Some(w.as_str())).ok_or("weight not found")?;
        let v: Vec<f32> = HostTensor::from_proto(t)?.to_f64()?.into_iter().map(|x| x as f32).collect();
        let dims = t.dims.clone();
        let per_channel = o.per_channel && (axis as usize) < dims.len();
        let channels = if per_channel { dims[axis as usize].max(1) as usize } else { 1 };
        let inner: usize = if per_channel { dims[axis as usize + 1..].iter().product::<i64>().max(1) as usize } else { v.len() };
        // Each channel's largest magnitude, in one pass.
        let mut absmax = vec![0f32; channels];
        for (k, x) in v.iter().enumerate() {
            let c = if channels == 1 { 0 } else { (k / inner) % channels };
            absmax[c] = absmax[c].max(x.abs());
        }
        let scales: Vec<f32> = absmax.iter().map(|m| if *m > 0.0 { m / 127.0 } else { 1.0 }).collect();
        let q: Vec<u8> = v.iter().enumerate().map(|(k, x)| (x / scales[if channels == 1 { 0 } else { (k / inner) % channels }]).round_ties_even().clamp(-127.0, 127.0) as i8 as u8).collect();
        let (qn, sn, zn, dn) = (format!("{}_quantized", w), format!("{}_scale", w), format!("{}_zero_point", w), format!("{}_DequantizeLinear_Output", w));
        inits.push(tensor(&qn, dt::INT8, dims.clone(), &q));
        let shape = if channels == 1 { vec![] } else { vec![channels as i64] };
        inits.push(tensor(&sn, dt::FLOAT, shape.clone(), &scales.iter().flat_map(|s| s.to_le_bytes()).collect::<Vec<_>>()));
        inits.push(tensor(&zn, dt::INT8, shape, &vec![0u8; channels]));
        head.push(node("DequantizeLinear", &format!("{}_DequantizeLinear", w), &[&qn, &sn, &zn], &[&dn], (channels > 1).then_some(axis)));
        weight_scales.insert(w.clone(), scales);
        renamed.insert((i, w.clone()), dn);
    }
    // Biases: int32 in the scale input scale · weight scale.
    let mut bs: Vec<(&String, &(usize, String, String))> = p.biases.iter().collect();
    bs.sort();
    for (b, (i, x, w)) in bs {
        let (Some(&(sx, _)), Some(sw)) = (params.get(x), weight_scales.get(w)) else { continue };
        let t = g.initializer.iter().find(|t| t.name.as_deref() == Some(b.as_str())).ok_or("bias not found")?;
        let v: Vec<f32> = HostTensor::from_proto(t)?.to_f64()?.into_iter().map(|x| x as f32).collect();
        if sw.len() != 1 && sw.len() != v.len() {
            // A bias that does not match its weight's channels stays float.
            continue;
        }
        let scales: Vec<f32> = (0..v.len()).map(|c| sx * sw[if sw.len() == 1 { 0 } else { c }]).collect();
        let q: Vec<u8> = v.iter().zip(&scales).flat_map(|(x, s)| ((x / s).round_ties_even().clamp(i32::MIN as f32, i32::MAX as f32) as i32).to_le_bytes()).collect();
        let (qn, sn, zn, dn) = (format!("{}_quantized", b), format!("{}_scale", b), format!("{}_zero_point", b), format!("{}_DequantizeLinear_Output", b));
        inits.push(tensor(&qn, dt::INT32, t.dims.clone(), &q));
        inits.push(tensor(&sn, dt::FLOAT, vec![v.len() as i64], &scales.iter().flat_map(|s| s.to_le_bytes()).collect::<Vec<_>>()));
        inits.push(tensor(&zn, dt::INT32, vec![v.len() as i64], &vec![0u8; 4 * v.len()]));
        head.push(node("DequantizeLinear", &format!("{}_DequantizeLinear", b), &[&qn, &sn, &zn], &[&dn], Some(0)));
        renamed.insert((*i, b.clone()), dn);
    }
    // Activations: Q → DQ after the producer (or first, for a graph input);
    // readers read the DQ. A graph output is the DQ's result, as ONNX
    // Runtime writes it: its producer writes `NAME_float`.
    let graph_outputs: HashSet<String> = g.output.iter().filter_map(|o| o.name.clone()).collect();
    let float_of = |a: &str| if graph_outputs.contains(a) { format!("{}_float", a) } else { a.to_string() };
    let dq_of = |a: &str| if graph_outputs.contains(a) { a.to_string() } else { format!("{}_DequantizeLinear_Output", a) };
    let pair = |a: &str, inits: &mut Vec<TensorProto>| -> Vec<NodeProto> {
        let (s, z) = params[a];
        let (sn, zn, qn) = (format!("{}_scale", a), format!("{}_zero_point", a), format!("{}_QuantizeLinear_Output", a));
        inits.push(scalar_f32(&sn, s));
        inits.push(tensor(&zn, dt::INT8, vec![], &[z as u8]));
        vec![node("QuantizeLinear", &format!("{}_QuantizeLinear", a), &[&float_of(a), &sn, &zn], &[&qn], None), node("DequantizeLinear", &format!("{}_DequantizeLinear", a), &[&qn, &sn, &zn], &[&dq_of(a)], None)]
    };
    let quantized: HashSet<&str> = p.activations.iter().map(String::as_str).collect();
    let mut nodes = head;
    let graph_inputs: Vec<String> = g.input.iter().filter_map(|i| i.name.clone()).collect();
    for a in &graph_inputs {
        if quantized.contains(a.as_str()) {
            nodes.extend(pair(a, &mut inits));
        }
    }
    let old = std::mem::take(&mut g.node);
    // A dropped Relu's output is written by its producer instead.
    let mut relu_of: HashMap<String, String> = HashMap::new();
    for &r in &p.dropped_relus {
        relu_of.insert(old[r].input[0].clone(), old[r].output[0].clone());
    }
    for (i, mut n) in old.into_iter().enumerate() {
        if p.dropped_relus.contains(&i) {
            continue;
        }
        for (k, x) in n.input.iter_mut().enumerate() {
            if let Some(r) = renamed.get(&(i, x.clone())) {
                *x = r.clone();
            } else if quantized.contains(x.as_str()) && !(k > 0 && p.weights.contains_key(x.as_str())) {
                *x = dq_of(x);
            }
        }
        for y in n.output.iter_mut() {
            if let Some(r) = relu_of.get(y.as_str()) {
                *y = r.clone();
            }
            if quantized.contains(y.as_str()) {
                *y = float_of(y);
            }
        }
        let outs = n.output.clone();
        nodes.push(n);
        for y in outs {
            let a = y.strip_suffix("_float").filter(|a| graph_outputs.contains(*a)).unwrap_or(&y);
            if quantized.contains(a) {
                nodes.extend(pair(a, &mut inits));
            }
        }
    }
    g.node = nodes;
    // The float weights and biases quantized above are no longer read.
    let gone: HashSet<&String> = p.weights.keys().chain(p.biases.keys()).filter(|k| renamed.keys().any(|(_, n)| n == *k)).collect();
    let still_read: HashSet<String> = g.node.iter().flat_map(|n| n.input.iter().cloned()).collect();
    g.initializer.retain(|t| t.name.as_ref().is_none_or(|n| !gone.contains(n) || still_read.contains(n)));
    g.initializer.extend(inits);
    Ok(m)
}
