//! Type and shape inference for `onnx` ops: given an op's operand types (and
//! the values of constant operands), its result types. Rules are grouped by
//! operator family in one table; an op without a rule keeps what it has.
//! Unknown dimensions are `?`; an unknown rank is an unranked tensor.

use crate::types::{unwrap, wrap};
use ir::attributes::{read_int_element, AttrData, Attribute};
use ir::types::{Type, TypeData, DYNAMIC};
use ir::{Body, Context, OpId, Value};
use std::collections::BTreeMap;

/// A tensor's element type and, when the rank is known, its shape.
#[derive(Clone, Debug)]
pub struct Info {
    pub elem: Type,
    pub shape: Option<Vec<i64>>,
}

pub fn info(t: &Type) -> Option<Info> {
    match t.data() {
        TypeData::RankedTensor { shape, elem, .. } => Some(Info { elem: elem.clone(), shape: Some(shape.clone()) }),
        TypeData::UnrankedTensor { elem } => Some(Info { elem: elem.clone(), shape: None }),
        _ => None,
    }
}

pub fn tensor(ctx: &Context, elem: &Type, shape: Option<Vec<i64>>) -> Type {
    match shape {
        Some(shape) => ctx.intern_type(TypeData::RankedTensor { shape, elem: elem.clone(), encoding: None }),
        None => ctx.intern_type(TypeData::UnrankedTensor { elem: elem.clone() }),
    }
}

/// The stored bytes of an elements attribute (`dense` or `dense_resource`)
/// and whether they are one splat element: how every reader of constants sees them.
pub(crate) fn stored_bytes(a: &Attribute) -> Option<(&Type, &[u8], bool)> {
    match a.data() {
        AttrData::Dense { ty, data } => Some((ty, &data.bytes, data.splat)),
        AttrData::DenseResource { ty, resource } => Some((ty, resource.blob.get()?.bytes(), false)),
        _ => None,
    }
}

/// Every element of a constant operand (an `onnx.Constant`), read by `read`
/// from the stored bytes; `None` if it is not constant, too short for its type
/// (a hand-written `dense_resource` may be), or `read` refuses an element.
/// Of at most `max` elements (`usize::MAX` for any): a folder's limit is
/// checked before anything is read, so a splat typed with billions of
/// elements stays a splat.
fn const_values_upto<T>(body: &Body, v: Value, max: usize, read: impl Fn(&[u8], usize, &Type) -> Option<T>) -> Option<Vec<T>> {
    if body.value_type(v).num_elements().is_some_and(|n| n > max as u64) {
        return None;
    }
    // A tensor with no elements has known (no) values, constant or not.
    if body.value_type(v).num_elements() == Some(0) {
        return Some(vec![]);
    }
    let d = body.defining_op(v)?;
    if body.name(d).as_str() != "onnx.Constant" {
        return None;
    }
    let (ty, bytes, splat) = stored_bytes(body.op(d).properties.get("value")?)?;
    let (elem, n) = (ty.scalar(), ty.num_elements()? as usize);
    let stored = if splat { 1 } else { n };
    if bytes.len() < stored * ir::attributes::element_bytes(elem)? {
        return None;
    }
    (0..n).map(|i| read(bytes, if splat { 0 } else { i }, elem)).collect()
}

/// The values of a constant int8 operand, copied from the stored bytes (a
/// model's quantized weights: millions of elements, read without a per-element
/// type dispatch).
pub fn const_i8s(body: &Body, v: Value) -> Option<Vec<i8>> {
    let (bytes, unsigned) = const_bytes(body, v)?;
    (!unsigned).then(|| bytes.into_iter().map(|b| b as i8).collect())
}

/// The values of a constant int8 or uint8 operand as i16, as [`const_i8s`].
pub fn const_8bit(body: &Body, v: Value) -> Option<Vec<i16>> {
    let (bytes, unsigned) = const_bytes(body, v)?;
    Some(bytes.into_iter().map(|b| if unsigned { b as i16 } else { b as i8 as i16 }).collect())
}

/// The stored bytes of a constant int8/uint8 (a splat expanded) and whether it is unsigned.
fn const_bytes(body: &Body, v: Value) -> Option<(Vec<u8>, bool)> {
    let d = body.defining_op(v)?;
    if body.name(d).as_str() != "onnx.Constant" {
        return None;
    }
    let (ty, bytes, splat) = stored_bytes(body.op(d).properties.get("value")?)?;
    let unsigned = match ty.scalar().to_string().as_str() {
        "i8" => false,
        "ui8" => true,
        _ => return None,
    };
    let n = ty.num_elements()? as usize;
    let stored = if splat { 1 } else { n };
    if bytes.len() < stored {
        return None;
    }
    Some((if splat { vec![bytes.first().copied().unwrap_or(0); n] } else { bytes[..n].to_vec() }, unsigned))
}

/// The integer values of a constant operand (an `onnx.Constant` of integers).
pub fn const_ints(body: &Body, v: Value) -> Option<Vec<i64>> {
    const_ints_upto(body, v, usize::MAX)
}

/// [`const_ints`] of a constant of at most `max` elements.
pub fn const_ints_upto(body: &Body, v: Value, max: usize) -> Option<Vec<i64>> {
    const_values_upto(body, v, max, |b, i, elem| {
        elem.int_width()?;
        Some(read_int_element(b, i, elem) as i64)
    })
}

/// The values of a constant operand of any numeric type, as f64 (scales, float ranges).
pub fn const_f64s(body: &Body, v: Value) -> Option<Vec<f64>> {
    const_f64s_upto(body, v, usize::MAX)
}

/// The values of a constant f32 operand, copied from the stored bytes (a
/// model's weights: hundreds of millions of elements, read without going
/// through f64); `None` for another element type, as [`const_f64s`] otherwise.
pub fn const_f32s(body: &Body, v: Value) -> Option<Vec<f32>> {
    let d = body.defining_op(v)?;
    if body.name(d).as_str() != "onnx.Constant" {
        return None;
    }
    let (ty, bytes, splat) = stored_bytes(body.op(d).properties.get("value")?)?;
    if ty.scalar().to_string() != "f32" {
        return None;
    }
    let n = ty.num_elements()? as usize;
    let stored = if splat { 1 } else { n };
    let raw = bytes.get(..stored * 4)?;
    let vals: Vec<f32> = raw.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    Some(if splat { vec![vals[0]; n] } else { vals })
}

/// [`const_f64s`] of a constant of at most `max` elements.
pub fn const_f64s_upto(body: &Body, v: Value, max: usize) -> Option<Vec<f64>> {
    const_values_upto(body, v, max, |b, i, elem| match elem.float_kind() {
        Some(kind) => ir::float::bits_to_f64(ir::attributes::read_raw_element(b, i, ir::attributes::element_bytes(elem)?), kind),
        None => {
            elem.int_width()?;
            Some(read_int_element(b, i, elem) as f64)
        }
    })
}

/// ConvTranspose's padding before each spatial dim: `pads` when explicit,
/// else derived from the output size (auto_pad SAME_*, or `output_shape`) as
/// ONNX Runtime does; every consumer (CPU lowering, NPU backends) reads it here.
/// None when a shape is not static.
pub fn conv_transpose_pads_before(body: &Body, op: OpId) -> Option<Vec<i64>> {
    let o = body.op(op);
    let x = body.value_type(o.operand(0)).shape()?.to_vec();
    let w = body.value_type(o.operand(1)).shape()?.to_vec();
    let y = body.value_type(o.result(0)).shape()?.to_vec();
    let s = x.len().checked_sub(2)?;
    let auto = o.attr("auto_pad").and_then(|a| a.as_str()).unwrap_or("NOTSET");
    if let (Some(p), "NOTSET") = (ints_attr(o.attr("pads")), auto) {
        return p.get(..s).map(|p| p.to_vec());
    }
    if !auto.starts_with("SAME") && o.attr("output_shape").is_none() {
        return Some(vec![0; s]);
    }
    let or_ones = |n: &str| ints_attr(o.attr(n)).filter(|v| v.len() == s).unwrap_or(vec![1; s]);
    let (strides, dil) = (or_ones("strides"), or_ones("dilations"));
    let opad = ints_attr(o.attr("output_padding")).filter(|v| v.len() == s).unwrap_or(vec![0; s]);
    (0..s)
        .map(|i| {
            let (xi, k, yi) = (*x.get(2 + i)?, *w.get(2 + i)?, *y.get(2 + i)?);
            if xi < 0 || yi < 0 {
                return None;
            }
            let total = strides[i] * (xi - 1) + opad[i] + (k - 1) * dil[i] + 1 - yi;
            Some(if auto == "SAME_LOWER" { total - total / 2 } else { total / 2 })
        })
        .collect()
}

/// A Pad's amounts for every dim, [before per dim…, after per dim…], from its
/// constant `pads` and (opset 18) constant `axes`; every consumer (CPU
/// lowering, folds, NPU backends) reads them here. None when they are not
/// constants of matching lengths, or an axis is out of range.
pub fn pad_amounts(body: &Body, op: OpId) -> Option<Vec<i64>> {
    let o = body.op(op);
    let r = body.value_type(o.operand(0)).shape()?.len();
    let given = |i: usize| o.operands().get(i).copied().filter(|v| !is_none(body, *v));
    let pads = const_ints_upto(body, given(1)?, 2 * r)?;
    let axes: Vec<usize> = match given(3) {
        Some(v) => const_ints_upto(body, v, r)?.iter().map(|a| norm_axis(*a, r)).collect::<Option<_>>()?,
        None => (0..r).collect(),
    };
    if pads.len() != 2 * axes.len() {
        return None;
    }
    let mut full = vec![0; 2 * r];
    for (k, a) in axes.iter().enumerate() {
        full[*a] = pads[k];
        full[r + a] = pads[axes.len() + k];
    }
    Some(full)
}

fn is_none(body: &Body, v: Value) -> bool {
    body.value_type(v).data() == &TypeData::None
}

/// An integer list attribute, as `array<i64: …>` or as `[1, 2]` (hand-written IR).
pub(crate) fn ints_attr(a: Option<&Attribute>) -> Option<Vec<i64>> {
    match a?.data() {
        AttrData::DenseArray { data: ir::attributes::ArrayData::Int(v), .. } => Some(v.clone()),
        AttrData::Array(v) => v.iter().map(|x| x.as_int().map(|i| i as i64)).collect(),
        _ => None,
    }
}

fn int_attr(a: Option<&Attribute>) -> Option<i64> {
    a.and_then(|a| a.as_int()).map(|v| v as i64)
}

/// Numpy-style broadcast of shapes (None: unknown rank).
pub(crate) fn broadcast(shapes: &[Option<Vec<i64>>]) -> Option<Vec<i64>> {
    let shapes: Vec<&Vec<i64>> = shapes.iter().map(|s| s.as_ref()).collect::<Option<_>>()?;
    let rank = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1i64; rank];
    for s in shapes {
        for (i, &d) in s.iter().enumerate() {
            let o = &mut out[rank - s.len() + i];
            *o = match (*o, d) {
                (1, d) => d,
                (o, 1) => o,
                // An unknown size against a known one (not 1) must be that one.
                (DYNAMIC, d) | (d, DYNAMIC) => d,
                (o, d) if o == d => o,
                _ => return None,
            };
        }
    }
    Some(out)
}

fn norm_axis(a: i64, rank: usize) -> Option<usize> {
    let r = rank as i64;
    let x = if a < 0 { a + r } else { a };
    (0..r).contains(&x).then_some(x as usize)
}

/// Output size of a sliding window: floor or ceil((in + pads - dil*(k-1) - 1) / stride) + 1.
fn window(input: i64, k: i64, pad: i64, stride: i64, dil: i64, ceil: bool) -> i64 {
    if input == DYNAMIC {
        return DYNAMIC;
    }
    let eff = dil * (k - 1) + 1;
    let num = input + pad - eff;
    if num < 0 || stride <= 0 {
        return DYNAMIC;
    }
    if ceil {
        let o = (num + stride - 1) / stride + 1;
        // The last window must start inside the input (or its left padding).
        if (o - 1) * stride >= input + pad / 2 { o - 1 } else { o }
    } else {
        num / stride + 1
    }
}

const UNARY: &[&str] = &[
    "Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Cos", "Cosh", "Elu", "Erf", "Exp", "Floor", "HardSigmoid", "HardSwish",
    "Identity", "LeakyRelu", "Log", "LogSoftmax", "Mish", "Neg", "Reciprocal", "Relu", "Round", "Selu", "Sigmoid", "Sign", "Sin", "Sinh",
    "Softmax", "Softplus", "Softsign", "Sqrt", "Tan", "Tanh", "ThresholdedRelu", "Celu", "Gelu", "Hardmax", "Shrink", "Not", "BitwiseNot",
    "LRN", "MeanVarianceNormalization", "Clip", "CumSum", "Trilu", "ReverseSequence", "InstanceNormalization",
    "GroupNormalization", "Swish", "CumProd", "LpNormalization", "RotaryEmbedding", "ScatterElements", "Scatter", "ScatterND",
    "TensorScatter", "ms.QLinearSoftmax", "ml.Binarizer",
];
const BROADCAST: &[&str] = &["StringConcat", "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Mod", "PRelu"];
const COMPARE: &[&str] = &["And", "Or", "Xor", "Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual"];
const REDUCE: &[&str] = &[
    "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare",
];

/// A Transpose's permutation, ONNX's default (the dims reversed) when it has none;
/// None when the rank is unknown or the attribute does not fit it.
pub fn transpose_perm(body: &Body, op: OpId) -> Option<Vec<usize>> {
    let rank = body.value_type(body.op(op).operand(0)).shape()?.len();
    match body.op(op).properties.get("perm").map(|a| a.data()) {
        Some(AttrData::DenseArray { data: ir::attributes::ArrayData::Int(v), .. }) => Some(v.iter().map(|x| *x as usize).collect()),
        Some(AttrData::Array(a)) => a.iter().map(|x| x.as_int().map(|v| v as usize)).collect(),
        None => Some((0..rank).rev().collect()),
        _ => None,
    }
    .filter(|p: &Vec<usize>| p.len() == rank)
}

/// Result types for `op`, or `None` when no rule applies or inputs are too unknown.
/// The axes a Reduce op reduces, sorted, from its `axes` input (or, in
/// hand-written older forms, attribute): `Some(None)` when it reduces nothing
/// (no axes and `noop_with_empty_axes`), `None` when the axes are not
/// constant or out of range for rank `rank`.
pub fn reduce_axes(body: &Body, op: OpId, rank: usize) -> Option<Option<Vec<usize>>> {
    let d = body.op(op);
    let given = match d.operands().get(1).filter(|v| !is_none(body, **v)) {
        Some(v) => Some(const_ints_upto(body, *v, MAX_SHAPE_OPERAND)?),
        None => ints_attr(d.properties.get("axes")),
    };
    match given {
        Some(a) if !a.is_empty() => {
            let mut v: Vec<usize> = a.iter().map(|x| norm_axis(*x, rank)).collect::<Option<_>>()?;
            v.sort();
            v.dedup();
            Some(Some(v))
        }
        _ if int_attr(d.properties.get("noop_with_empty_axes")).unwrap_or(0) != 0 => Some(None),
        _ => Some(Some((0..rank).collect())),
    }
}

/// The most elements inference reads of a constant operand (shapes, axes,
/// pads, repeats): checked before reading, so a constant typed with billions
/// of elements is not materialized.
const MAX_SHAPE_OPERAND: usize = 1 << 16;

pub fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    let const_ints = |b: &Body, v: Value| const_ints_upto(b, v, MAX_SHAPE_OPERAND);
    let d = body.op(op);
    let name = d.name.as_str().strip_prefix("onnx.")?;
    let ops = d.operands();
    let ins: Vec<Option<Info>> = ops.iter().map(|v| info(body.value_type(*v))).collect();
    let attr = |n: &str| d.properties.get(n);
    let in0 = || ins.first().cloned().flatten();
    let t = |elem: &Type, shape: Option<Vec<i64>>| tensor(ctx, elem, shape);
    let one = |ty: Type| Some(vec![ty]);
    // Operand `i` when present (not absent or `onnx.NoValue`).
    let given = |i: usize| ops.get(i).copied().filter(|v| !is_none(body, *v));
    // An integer list given as operand `i` (then it must be constant: outer `None`
    // otherwise) or, in hand-written older forms, as attribute `name`.
    let ints_operand = |i: usize, name: &str| -> Option<Option<Vec<i64>>> {
        match given(i) {
            Some(v) => const_ints(body, v).map(Some),
            None => Some(ints_attr(attr(name))),
        }
    };
    if name == "Identity" {
        return one(body.value_type(*ops.first()?).clone());
    }
    if UNARY.contains(&name) {
        let i = in0()?;
        let mut v = vec![t(&i.elem, i.shape.clone())];
        // Extra outputs of normalizations (mean, inv std) and dropout's mask are not inferred here.
        while v.len() < d.results().len() {
            v.push(body.value_type(d.results()[v.len()]).clone());
        }
        return Some(v);
    }
    if name == "IsNaN" || name == "IsInf" {
        return one(t(&ctx.i1(), in0()?.shape));
    }
    if BROADCAST.contains(&name) || COMPARE.contains(&name) {
        let infos: Vec<Info> = ins.iter().cloned().collect::<Option<_>>()?;
        let shape = broadcast(&infos.iter().map(|i| i.shape.clone()).collect::<Vec<_>>());
        let elem = if COMPARE.contains(&name) && !matches!(name, "And" | "Or" | "Xor") { ctx.i1() } else { infos[0].elem.clone() };
        let elem = if matches!(name, "And" | "Or" | "Xor") { ctx.i1() } else { elem };
        return one(t(&elem, shape));
    }
    match name {
        "Where" => {
            let infos: Vec<Info> = ins.iter().cloned().collect::<Option<_>>()?;
            one(t(&infos[1].elem, broadcast(&infos.iter().map(|i| i.shape.clone()).collect::<Vec<_>>())))
        }
        "Cast" => {
            let to = int_attr(attr("to"))?;
            one(t(&crate::types::elem_type(ctx, to as i32).ok()?, in0()?.shape))
        }
        "CastLike" => one(t(&ins.get(1)?.clone()?.elem, in0()?.shape)),
        "Shape" => {
            let r = in0()?.shape?.len() as i64;
            let clamp = |x: i64| if x < 0 { (x + r).max(0) } else { x.min(r) };
            let start = clamp(int_attr(attr("start")).unwrap_or(0));
            let end = clamp(int_attr(attr("end")).unwrap_or(r));
            one(t(&ctx.i64(), Some(vec![(end - start).max(0)])))
        }
        "Size" => one(t(&ctx.i64(), Some(vec![]))),
        "MatMul" | "MatMulInteger" => {
            let (a, b) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            let elem = if name == "MatMulInteger" { ctx.i32() } else { in0()?.elem };
            if a.is_empty() || b.is_empty() {
                return None;
            }
            let (a2, b2) = (if a.len() == 1 { vec![1, a[0]] } else { a.clone() }, if b.len() == 1 { vec![b[0], 1] } else { b.clone() });
            let batch = broadcast(&[Some(a2[..a2.len() - 2].to_vec()), Some(b2[..b2.len() - 2].to_vec())])?;
            let mut out = batch;
            if a.len() > 1 {
                out.push(a2[a2.len() - 2]);
            }
            if b.len() > 1 {
                out.push(b2[b2.len() - 1]);
            }
            one(t(&elem, Some(out)))
        }
        "Gemm" => {
            let (a, b) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            if a.len() != 2 || b.len() != 2 {
                return None;
            }
            let m = if int_attr(attr("transA")).unwrap_or(0) != 0 { a[1] } else { a[0] };
            let n = if int_attr(attr("transB")).unwrap_or(0) != 0 { b[0] } else { b[1] };
            one(t(&in0()?.elem, Some(vec![m, n])))
        }
        "Conv" | "ConvInteger" | "MaxPool" | "AveragePool" | "LpPool" | "ConvTranspose" | "DeformConv" => {
            let x = in0()?.shape?;
            if x.len() < 3 {
                return None;
            }
            let sp = x.len() - 2;
            let kernel: Vec<i64> = match ints_attr(attr("kernel_shape")) {
                Some(k) => k,
                None if name.contains("Conv") => ins.get(1)?.clone()?.shape?[2..].to_vec(),
                None => return None,
            };
            if kernel.len() != sp {
                return None;
            }
            let strides = ints_attr(attr("strides")).unwrap_or(vec![1; sp]);
            let dil = ints_attr(attr("dilations")).unwrap_or(vec![1; sp]);
            let pads = ints_attr(attr("pads")).unwrap_or(vec![0; 2 * sp]);
            let auto = attr("auto_pad").and_then(|a| a.as_str()).unwrap_or("NOTSET");
            let ceil = int_attr(attr("ceil_mode")).unwrap_or(0) != 0;
            // Attributes of the wrong length say nothing (the verifier names them).
            if strides.len() != sp || dil.len() != sp || pads.len() != 2 * sp || ints_attr(attr("output_padding")).is_some_and(|p| p.len() != sp) {
                return None;
            }
            let channels = if name.contains("Conv") {
                let w = ins.get(1)?.clone()?.shape?;
                if name == "ConvTranspose" { w.get(1).copied()? * int_attr(attr("group")).unwrap_or(1) } else { w[0] }
            } else {
                x[1]
            };
            let mut out = vec![x[0], channels];
            for i in 0..sp {
                let v = if name == "ConvTranspose" {
                    if let Some(os) = ints_attr(attr("output_shape")) {
                        *os.get(i)?
                    } else if x[2 + i] == DYNAMIC {
                        DYNAMIC
                    } else {
                        let op_pad = ints_attr(attr("output_padding")).map(|p| p[i]).unwrap_or(0);
                        let total_pad = if auto == "NOTSET" { pads[i] + pads[i + sp] } else { 0 };
                        let full = strides[i] * (x[2 + i] - 1) + op_pad + (kernel[i] - 1) * dil[i] + 1;
                        if auto == "SAME_UPPER" || auto == "SAME_LOWER" { x[2 + i] * strides[i] } else { full - total_pad }
                    }
                } else {
                    match auto {
                        "SAME_UPPER" | "SAME_LOWER" => {
                            if x[2 + i] == DYNAMIC { DYNAMIC } else { (x[2 + i] + strides[i] - 1) / strides[i] }
                        }
                        "VALID" => window(x[2 + i], kernel[i], 0, strides[i], dil[i], ceil),
                        _ => window(x[2 + i], kernel[i], pads[i] + pads[i + sp], strides[i], dil[i], ceil),
                    }
                };
                out.push(v);
            }
            let elem = if name == "ConvInteger" { ctx.i32() } else { in0()?.elem };
            let mut v = vec![t(&elem, Some(out.clone()))];
            if name == "MaxPool" && d.results().len() == 2 {
                v.push(t(&ctx.i64(), Some(out)));
            }
            Some(v)
        }
        "GlobalAveragePool" | "GlobalMaxPool" | "GlobalLpPool" => {
            let x = in0()?.shape?;
            let mut out = x[..2.min(x.len())].to_vec();
            out.extend(std::iter::repeat_n(1, x.len().saturating_sub(2)));
            one(t(&in0()?.elem, Some(out)))
        }
        "Transpose" => {
            let x = in0()?.shape?;
            let perm = ints_attr(attr("perm")).unwrap_or_else(|| (0..x.len() as i64).rev().collect());
            one(t(&in0()?.elem, Some(perm.iter().map(|p| x.get(*p as usize).copied()).collect::<Option<_>>()?)))
        }
        "Flatten" => {
            let x = in0()?.shape?;
            // The axis may be rank itself (everything in the first factor); negative counts from rank.
            let a = int_attr(attr("axis")).unwrap_or(1);
            let axis = usize::try_from(if a < 0 { a + x.len() as i64 } else { a }).ok().filter(|a| *a <= x.len())?;
            let prod = |s: &[i64]| if s.contains(&DYNAMIC) { DYNAMIC } else { s.iter().product() };
            one(t(&in0()?.elem, Some(vec![prod(&x[..axis]), prod(&x[axis..])])))
        }
        "Reshape" => {
            let x = in0()?;
            let target = const_ints(body, *ops.get(1)?)?;
            let allowzero = int_attr(attr("allowzero")).unwrap_or(0) != 0;
            // A shape ONNX refuses (a dim below -1, two -1s) infers nothing; the lowering says why.
            if target.iter().any(|s| *s < -1) || target.iter().filter(|s| **s == -1).count() > 1 {
                return None;
            }
            let mut out: Vec<i64> = vec![];
            for (i, &s) in target.iter().enumerate() {
                out.push(if s == 0 && !allowzero { *x.shape.as_ref()?.get(i)? } else { s });
            }
            if let Some(k) = out.iter().position(|s| *s == -1) {
                let known: Vec<i64> = out.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, s)| *s).collect();
                let total = x.shape.as_ref().filter(|s| !s.contains(&DYNAMIC)).map(|s| s.iter().product::<i64>());
                out[k] = match total {
                    Some(tot) if !known.contains(&DYNAMIC) && known.iter().product::<i64>() != 0 => {
                        let rest = known.iter().product::<i64>();
                        if tot % rest != 0 {
                            return None;
                        }
                        tot / rest
                    }
                    _ => DYNAMIC,
                };
            }
            one(t(&x.elem, Some(out)))
        }
        "Squeeze" | "Unsqueeze" => {
            let x = in0()?;
            let shape = x.shape?;
            let axes = ints_operand(1, "axes")?;
            if name == "Squeeze" {
                let out: Vec<i64> = match axes {
                    Some(a) => {
                        let a: Vec<usize> = a.iter().map(|x| norm_axis(*x, shape.len())).collect::<Option<_>>()?;
                        shape.iter().enumerate().filter(|(i, _)| !a.contains(i)).map(|(_, d)| *d).collect()
                    }
                    None => {
                        if shape.contains(&DYNAMIC) {
                            return None;
                        }
                        shape.iter().copied().filter(|d| *d != 1).collect()
                    }
                };
                one(t(&x.elem, Some(out)))
            } else {
                let axes = axes?;
                let rank = shape.len() + axes.len();
                let mut a: Vec<usize> = axes.iter().map(|x| norm_axis(*x, rank)).collect::<Option<_>>()?;
                a.sort();
                let mut out = shape.clone();
                for ax in a {
                    out.insert(ax.min(out.len()), 1);
                }
                one(t(&x.elem, Some(out)))
            }
        }
        "Concat" => {
            let infos: Vec<Info> = ins.iter().cloned().collect::<Option<_>>()?;
            let shapes: Vec<Vec<i64>> = infos.iter().map(|i| i.shape.clone()).collect::<Option<_>>()?;
            let rank = shapes.first()?.len();
            let axis = norm_axis(int_attr(attr("axis"))?, rank)?;
            let mut out = shapes[0].clone();
            out[axis] = shapes.iter().map(|s| s.get(axis).copied().unwrap_or(DYNAMIC)).try_fold(0i64, |a, d| if d == DYNAMIC { None } else { Some(a + d) }).unwrap_or(DYNAMIC);
            one(t(&infos[0].elem, Some(out)))
        }
        "Gather" => {
            let (x, idx) = (in0()?, ins.get(1)?.clone()?);
            let (xs, is) = (x.shape?, idx.shape?);
            let axis = norm_axis(int_attr(attr("axis")).unwrap_or(0), xs.len())?;
            let mut out = xs[..axis].to_vec();
            out.extend(is);
            out.extend(&xs[axis + 1..]);
            one(t(&x.elem, Some(out)))
        }
        "Expand" => {
            let x = in0()?;
            let target = const_ints(body, *ops.get(1)?)?;
            one(t(&x.elem, broadcast(&[x.shape, Some(target)])))
        }
        "Tile" => {
            let x = in0()?;
            let reps = const_ints(body, *ops.get(1)?)?;
            let xs = x.shape?;
            one(t(&x.elem, Some(xs.iter().zip(&reps).map(|(a, r)| if *a == DYNAMIC { DYNAMIC } else { a * r }).collect())))
        }
        "ConstantOfShape" => {
            let shape = const_ints(body, *ops.first()?)?;
            let elem = attr("value").and_then(|a| a.typ()).map(|t| t.scalar().clone()).unwrap_or_else(|| ctx.f32());
            one(t(&elem, Some(shape)))
        }
        "ArgMax" | "ArgMin" => {
            let xs = in0()?.shape?;
            let axis = norm_axis(int_attr(attr("axis")).unwrap_or(0), xs.len())?;
            let keep = int_attr(attr("keepdims")).unwrap_or(1) != 0;
            let mut out = xs.clone();
            if keep { out[axis] = 1 } else { out.remove(axis); }
            one(t(&ctx.i64(), Some(out)))
        }
        r if REDUCE.contains(&r) => {
            let x = in0()?;
            let xs = x.shape?;
            let keep = int_attr(attr("keepdims")).unwrap_or(1) != 0;
            let Some(axes) = reduce_axes(body, op, xs.len())? else { return one(t(&x.elem, Some(xs))) };
            let mut out = vec![];
            for (i, d) in xs.iter().enumerate() {
                if axes.contains(&i) {
                    if keep {
                        out.push(1);
                    }
                } else {
                    out.push(*d);
                }
            }
            one(t(&x.elem, Some(out)))
        }
        "Slice" => {
            let x = in0()?;
            let xs = x.shape?;
            let axes = match given(3) {
                Some(v) => const_ints(body, v)?,
                None => (0..body.value_type(*ops.get(1)?).shape()?.first().copied().filter(|n| *n != DYNAMIC)?).collect(),
            };
            let (Some(starts), Some(ends)) = (const_ints(body, *ops.get(1)?), const_ints(body, *ops.get(2)?)) else {
                // Runtime bounds: the sliced axes become unknown, the rank stays.
                let mut out = xs.clone();
                for a in &axes {
                    out[norm_axis(*a, xs.len())?] = DYNAMIC;
                }
                return one(t(&x.elem, Some(out)));
            };
            let steps = match given(4) {
                Some(v) => const_ints(body, v)?,
                None => vec![1; starts.len()],
            };
            let mut out = xs.clone();
            for i in 0..starts.len() {
                let a = norm_axis(*axes.get(i)?, xs.len())?;
                let dim = xs[a];
                if dim == DYNAMIC {
                    out[a] = DYNAMIC;
                    continue;
                }
                let step = *steps.get(i)?;
                if step == 0 {
                    return None;
                }
                let clampi = |v: i64, lo: i64, hi: i64| v.max(lo).min(hi);
                let (mut s, mut e) = (starts[i], *ends.get(i)?);
                if s < 0 {
                    s += dim;
                }
                if e < 0 {
                    e += dim;
                }
                let len = if step > 0 {
                    let (s, e) = (clampi(s, 0, dim), clampi(e, 0, dim));
                    if e > s { (e - s + step - 1) / step } else { 0 }
                } else {
                    let (s, e) = (clampi(s, -1, dim - 1), clampi(e, -1, dim - 1));
                    if s > e { (s - e + (-step) - 1) / (-step) } else { 0 }
                };
                out[a] = len;
            }
            one(t(&x.elem, Some(out)))
        }
        "Pad" => {
            let x = in0()?;
            let xs = x.shape?;
            let pads = ints_operand(1, "pads")??;
            let axes: Vec<usize> = match given(3) {
                Some(v) => const_ints(body, v)?.iter().map(|a| norm_axis(*a, xs.len())).collect::<Option<_>>()?,
                _ => (0..xs.len()).collect(),
            };
            let n = axes.len();
            if pads.len() != 2 * n {
                return None;
            }
            let mut out = xs.clone();
            for (k, a) in axes.iter().enumerate() {
                if out[*a] != DYNAMIC {
                    out[*a] += pads[k] + pads[k + n];
                }
            }
            one(t(&x.elem, Some(out)))
        }
        "Split" => {
            let x = in0()?;
            let xs = x.shape?;
            let axis = norm_axis(int_attr(attr("axis")).unwrap_or(0), xs.len())?;
            let n = d.results().len();
            let sizes: Vec<i64> = match ints_operand(1, "split")? {
                Some(s) => s,
                None => {
                    let dim = xs[axis];
                    if dim == DYNAMIC {
                        vec![DYNAMIC; n]
                    } else {
                        let chunk = (dim + n as i64 - 1) / n as i64;
                        (0..n as i64).map(|i| (dim - i * chunk).clamp(0, chunk)).collect()
                    }
                }
            };
            Some(sizes.iter().map(|s| {
                let mut o = xs.clone();
                o[axis] = *s;
                t(&x.elem, Some(o))
            }).collect())
        }
        "DepthToSpace" | "SpaceToDepth" => {
            let xs = in0()?.shape?;
            let b = int_attr(attr("blocksize"))?;
            if xs.len() != 4 || xs.contains(&DYNAMIC) {
                return None;
            }
            let out = if name == "DepthToSpace" { vec![xs[0], xs[1] / (b * b), xs[2] * b, xs[3] * b] } else { vec![xs[0], xs[1] * b * b, xs[2] / b, xs[3] / b] };
            one(t(&in0()?.elem, Some(out)))
        }
        "Range" => {
            let vals: Vec<f64> = ops.iter().map(|v| const_f64s(body, *v).and_then(|x| x.first().copied())).collect::<Option<_>>()?;
            let (s, l, dlt) = (vals[0], vals[1], vals[2]);
            if dlt == 0.0 || !((l - s) / dlt).is_finite() {
                return None;
            }
            one(t(&in0()?.elem, Some(vec![(((l - s) / dlt).ceil() as i64).max(0)])))
        }
        "Resize" | "Upsample" => {
            // sizes if given (per keep_aspect_ratio_policy), else floor(dim × scale), over `axes` or all.
            let x = in0()?;
            let xs = x.shape?;
            // An empty scales or sizes tensor means "not given" as well.
            let nonempty = |i: usize| given(i).filter(|v| body.value_type(*v).num_elements() != Some(0));
            let axes: Vec<usize> = match ints_attr(attr("axes")) {
                Some(a) => a.iter().map(|a| norm_axis(*a, xs.len())).collect::<Option<_>>()?,
                None => (0..xs.len()).collect(),
            };
            let mut out = xs.clone();
            let (scales_at, sizes_at) = if name == "Upsample" { (1, usize::MAX) } else { (2, 3) };
            if let Some(v) = nonempty(sizes_at) {
                let sizes = const_ints(body, v)?;
                if sizes.len() != axes.len() {
                    return None;
                }
                let policy = attr("keep_aspect_ratio_policy").and_then(|a| a.as_str()).unwrap_or("stretch");
                if policy == "stretch" {
                    for (a, n) in axes.iter().zip(&sizes) {
                        out[*a] = *n;
                    }
                } else {
                    if axes.iter().any(|a| xs[*a] == DYNAMIC) {
                        return None;
                    }
                    let ratios = axes.iter().zip(&sizes).map(|(a, n)| *n as f64 / xs[*a] as f64);
                    let r = if policy == "not_larger" { ratios.fold(f64::INFINITY, f64::min) } else { ratios.fold(0.0, f64::max) };
                    for a in &axes {
                        out[*a] = (r * xs[*a] as f64).round() as i64;
                    }
                }
            } else {
                let scales = match nonempty(scales_at) {
                    Some(v) => const_f64s(body, v)?,
                    None => return None,
                };
                if scales.len() != axes.len() {
                    return None;
                }
                for (a, sc) in axes.iter().zip(&scales) {
                    out[*a] = if xs[*a] == DYNAMIC { DYNAMIC } else { (xs[*a] as f64 * sc).floor() as i64 };
                }
            }
            one(t(&x.elem, Some(out)))
        }
        "TopK" => {
            let x = in0()?;
            let mut xs = x.shape?;
            let k = const_ints(body, *ops.get(1)?)?.first().copied()?;
            let axis = norm_axis(int_attr(attr("axis")).unwrap_or(-1), xs.len())?;
            xs[axis] = k;
            Some(vec![t(&x.elem, Some(xs.clone())), t(&ctx.i64(), Some(xs))])
        }
        "OneHot" => {
            let idx = in0()?.shape?;
            // Depth may be of any numeric type.
            let depth = const_f64s(body, *ops.get(1)?)?.first().copied()? as i64;
            let vals = ins.get(2)?.clone()?;
            let axis = norm_axis(int_attr(attr("axis")).unwrap_or(-1), idx.len() + 1)?;
            let mut out = idx.clone();
            out.insert(axis, depth);
            one(t(&vals.elem, Some(out)))
        }
        "LayerNormalization" | "RMSNormalization" => {
            // Y like X; Mean and InvStdDev keep the dims before `axis`, 1 from there on, in the stash type.
            let x = in0()?;
            let mut v = vec![t(&x.elem, x.shape.clone())];
            if d.results().len() > 1 {
                let xs = x.shape?;
                let axis = norm_axis(int_attr(attr("axis")).unwrap_or(-1), xs.len())?;
                let stats: Vec<i64> = xs.iter().enumerate().map(|(i, d)| if i < axis { *d } else { 1 }).collect();
                let stash = crate::types::elem_type(ctx, int_attr(attr("stash_type")).unwrap_or(1) as i32).ok()?;
                while v.len() < d.results().len() {
                    v.push(t(&stash, Some(stats.clone())));
                }
            }
            Some(v)
        }
        "SoftmaxCrossEntropyLoss" | "NegativeLogLikelihoodLoss" => {
            // Reduced to a scalar unless reduction = none (then the target's shape); log_prob like the scores.
            let x = in0()?;
            let target = ins.get(1)?.clone()?;
            let reduction = attr("reduction").and_then(|a| a.as_str()).unwrap_or("mean");
            let out = if reduction == "none" { target.shape } else { Some(vec![]) };
            let mut v = vec![t(&x.elem, out)];
            if d.results().len() > 1 {
                v.push(t(&x.elem, x.shape));
            }
            Some(v)
        }
        "Attention" => {
            // 4-D: (B, Hq, Sq, Dh) → (B, Hq, Sq, Dv); 3-D: (B, Sq, Hq·Dh) → (B, Sq, Hq·Dv), Dv = V's last / kv_num_heads.
            let q = in0()?;
            let (qs, vs) = (q.shape?, ins.get(2)?.clone()?.shape?);
            let out = match (qs.len(), vs.len()) {
                (4, 4) => vec![qs[0], qs[1], qs[2], vs[3]],
                (3, 3) => {
                    let (hq, hkv) = (int_attr(attr("q_num_heads"))?, int_attr(attr("kv_num_heads"))?);
                    let hidden = if vs[2] == DYNAMIC || hkv == 0 { DYNAMIC } else { hq * (vs[2] / hkv) };
                    vec![qs[0], qs[1], hidden]
                }
                _ => return None,
            };
            // present_key / present_value: (B, Hkv, past + Skv, D) with the past concatenated in
            // front; qk_matmul_output: (B, Hq, Sq, past + Skv).
            let ks = ins.get(1)?.clone()?.shape?;
            let heads4 = |s: &[i64], h: Option<i64>| -> Option<Vec<i64>> {
                match s.len() {
                    4 => Some(s.to_vec()),
                    3 => {
                        let h = h?;
                        Some(vec![s[0], h, s[1], if s[2] == DYNAMIC || h == 0 { DYNAMIC } else { s[2] / h }])
                    }
                    _ => None,
                }
            };
            let hkv = int_attr(attr("kv_num_heads"));
            let (k4, v4) = (heads4(&ks, hkv), heads4(&vs, hkv));
            let past = ins.get(4).cloned().flatten().and_then(|p| p.shape).and_then(|p| p.get(2).copied());
            let total = match (k4.as_ref().map(|k| k[2]), past) {
                (Some(s), _) if s == DYNAMIC => DYNAMIC,
                (Some(s), Some(p)) if p != DYNAMIC => s + p,
                (Some(_), Some(_)) => DYNAMIC,
                (Some(s), None) => s,
                (None, _) => DYNAMIC,
            };
            let present = |x: Option<Vec<i64>>| x.map(|mut x| {
                x[2] = total;
                x
            });
            let q4 = heads4(&qs, int_attr(attr("q_num_heads")));
            let mut v = vec![t(&q.elem, Some(out))];
            let extra = [present(k4), present(v4), q4.map(|q| vec![q[0], q[1], q[2], total])];
            for e in extra.into_iter().take(d.results().len().saturating_sub(1)) {
                v.push(t(&q.elem, e));
            }
            Some(v)
        }
        "BatchNormalization" => {
            // Y like X; in training mode running mean and variance are per channel.
            let x = in0()?;
            let mut v = vec![t(&x.elem, x.shape.clone())];
            while v.len() < d.results().len() {
                let c = ins.get(3 + v.len() - 1).cloned().flatten().or_else(|| ins.get(1).cloned().flatten())?;
                v.push(t(&c.elem, c.shape));
            }
            Some(v)
        }
        "GatherElements" => one(t(&in0()?.elem, ins.get(1)?.clone()?.shape)),
        "GatherND" => {
            let (ds, is) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            let b = int_attr(attr("batch_dims")).unwrap_or(0) as usize;
            let k = *is.last()?;
            if k == DYNAMIC || b + k as usize > ds.len() {
                return None;
            }
            let mut out = is[..is.len() - 1].to_vec();
            out.extend(&ds[b + k as usize..]);
            one(t(&in0()?.elem, Some(out)))
        }
        "GridSample" => {
            let (xs, gs) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            if xs.len() < 3 || gs.len() != xs.len() {
                return None;
            }
            let mut out = vec![xs[0], xs[1]];
            out.extend(&gs[1..gs.len() - 1]);
            one(t(&in0()?.elem, Some(out)))
        }
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
        "EyeLike" | "RandomUniformLike" | "RandomNormalLike" | "Bernoulli" => {
            let x = in0()?;
            let elem = match int_attr(attr("dtype")) {
                Some(dt) => crate::types::elem_type(ctx, dt as i32).ok()?,
                None => x.elem,
            };
            one(t(&elem, x.shape))
        }
        "RegexFullMatch" => one(t(&ctx.i1(), in0()?.shape)),
        "Det" => {
            let xs = in0()?.shape?;
            one(t(&in0()?.elem, Some(xs[..xs.len().checked_sub(2)?].to_vec())))
        }
        "RoiAlign" => {
            let (xs, rs) = (in0()?.shape?, ins.get(1)?.clone()?.shape?);
            let (h, w) = (int_attr(attr("output_height")).unwrap_or(1), int_attr(attr("output_width")).unwrap_or(1));
            one(t(&in0()?.elem, Some(vec![*rs.first()?, *xs.get(1)?, h, w])))
        }
        "MaxUnpool" => {
            let xs = in0()?.shape?;
            if let Some(v) = given(2) {
                return one(t(&in0()?.elem, Some(const_ints(body, v)?)));
            }
            let kernel = ints_attr(attr("kernel_shape"))?;
            let sp = kernel.len();
            if xs.len() != sp + 2 {
                return None;
            }
            let strides = ints_attr(attr("strides")).unwrap_or(vec![1; sp]);
            let pads = ints_attr(attr("pads")).unwrap_or(vec![0; 2 * sp]);
            let mut out = xs[..2].to_vec();
            for i in 0..sp {
                out.push(if xs[2 + i] == DYNAMIC { DYNAMIC } else { (xs[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[i + sp] });
            }
            one(t(&in0()?.elem, Some(out)))
        }
        "TfIdfVectorizer" => {
            let xs = in0()?.shape?;
            let m = ints_attr(attr("ngram_indexes"))?.into_iter().max()? + 1;
            let out = match xs.len() {
                1 => vec![m],
                2 => vec![xs[0], m],
                _ => return None,
            };
            one(t(&ctx.f32(), Some(out)))
        }
        "ml.ArrayFeatureExtractor" => {
            // X[..., indices]: the indices flattened along the last axis; a 1-D X gives [1, count].
            let x = in0()?;
            let xs = x.shape?;
            let is = ins.get(1)?.clone()?.shape?;
            let count = if is.contains(&DYNAMIC) { DYNAMIC } else { is.iter().product() };
            let shape = if xs.len() <= 1 { vec![1, count] } else { [&xs[..xs.len() - 1], &[count][..]].concat() };
            one(t(&x.elem, Some(shape)))
        }
        "training.Adagrad" | "training.Adam" | "training.Momentum" => {
            // After R and T, groups of n tensors (X, G, states...); the results are the
            // new X's and then each state's, typed like the inputs they replace.
            let k = if name == "training.Adam" { 4 } else { 3 };
            let n = ops.len().checked_sub(2)? / k;
            let states: &[usize] = if name == "training.Adam" { &[0, 2, 3] } else { &[0, 2] };
            Some(states.iter().flat_map(|s| (0..n).map(move |i| 2 + s * n + i)).map(|i| body.value_type(ops[i]).clone()).collect())
        }
        "RNN" | "GRU" | "LSTM" | "ms.DynamicQuantizeLSTM" => {
            // Y: (seq, dirs, batch, hidden), Y_h / Y_c: (dirs, batch, hidden); layout = 1 puts batch first.
            let xs = in0()?.shape?;
            if xs.len() != 3 {
                return None;
            }
            let hidden = int_attr(attr("hidden_size"))?;
            let dirs = if attr("direction").and_then(|a| a.as_str()) == Some("bidirectional") { 2 } else { 1 };
            let batch_first = int_attr(attr("layout")).unwrap_or(0) != 0;
            let (seq, batch) = if batch_first { (xs[1], xs[0]) } else { (xs[0], xs[1]) };
            let y = if batch_first { vec![batch, seq, dirs, hidden] } else { vec![seq, dirs, batch, hidden] };
            let yh = if batch_first { vec![batch, dirs, hidden] } else { vec![dirs, batch, hidden] };
            let e = in0()?.elem;
            let mut v = vec![t(&e, Some(y))];
            while v.len() < d.results().len() {
                v.push(t(&e, Some(yh.clone())));
            }
            Some(v)
        }
        "Einsum" => {
            let eq: String = attr("equation")?.as_str()?.chars().filter(|c| !c.is_whitespace()).collect();
            // Without "->" the output is every letter used once, in alphabetical order.
            let implicit: String;
            let (lhs, rhs) = match eq.split_once("->") {
                Some(p) => p,
                None => {
                    let mut letters: Vec<char> = eq.chars().filter(|c| c.is_ascii_alphabetic()).collect();
                    letters.sort();
                    implicit = letters.iter().filter(|c| letters.iter().filter(|d| d == c).count() == 1).collect();
                    (eq.as_str(), implicit.as_str())
                }
            };
            let terms: Vec<&str> = lhs.split(',').collect();
            if terms.len() != ins.len() {
                return None;
            }
            // Letters name dims; "..." stands for the dims no letter names, broadcast across terms.
            let mut dims: BTreeMap<char, i64> = BTreeMap::new();
            let mut ellipsis: Vec<Option<Vec<i64>>> = vec![];
            for (term, i) in terms.iter().zip(&ins) {
                let s = i.clone()?.shape?;
                let letters: Vec<char> = term.chars().filter(|c| c.is_ascii_alphabetic()).collect();
                let (before, after) = match term.split_once("...") {
                    Some((b, a)) => (b.chars().count(), a.chars().count()),
                    None if letters.len() == s.len() => (letters.len(), 0),
                    None => return None,
                };
                let ell = s.len().checked_sub(before + after)?;
                ellipsis.push(Some(s[before..before + ell].to_vec()));
                let named = s[..before].iter().chain(&s[before + ell..]);
                for (c, dim) in letters.iter().zip(named) {
                    let e = dims.entry(*c).or_insert(*dim);
                    if *e == DYNAMIC || *e == 1 {
                        *e = *dim;
                    }
                }
            }
            let ell = broadcast(&ellipsis)?;
            let mut out = vec![];
            // In implicit mode the broadcast dims come first.
            if !rhs.contains("...") && !eq.contains("->") {
                out.extend(&ell);
            }
            let (rb, ra) = rhs.split_once("...").unwrap_or((rhs, ""));
            for c in rb.chars() {
                out.push(*dims.get(&c)?);
            }
            if rhs.contains("...") {
                out.extend(&ell);
            }
            for c in ra.chars() {
                out.push(*dims.get(&c)?);
            }
            one(t(&in0()?.elem, Some(out)))
        }
        "BitCast" => {
            // Same width: same shape; narrower: a new last dim of the ratio; wider: the last dim absorbed.
            let x = in0()?;
            let to = crate::types::elem_type(ctx, int_attr(attr("to"))? as i32).ok()?;
            let (wi, wo) = (bit_width(&x.elem)?, bit_width(&to)?);
            let mut xs = x.shape?;
            if wi > wo {
                xs.push((wi / wo) as i64);
            } else if wi < wo {
                if xs.last() != Some(&((wo / wi) as i64)) {
                    return None;
                }
                xs.pop();
            }
            one(t(&to, Some(xs)))
        }
        "DFT" => {
            // The last dim becomes (re, im), or 1 for a real inverse of a one-sided spectrum;
            // the signal axis changes only with dft_length or onesided, so only then must it be known.
            let x = in0()?;
            let mut xs = x.shape?;
            let inverse = int_attr(attr("inverse")).unwrap_or(0) != 0;
            let onesided = int_attr(attr("onesided")).unwrap_or(0) != 0;
            let length = match given(1) {
                Some(v) => Some(*const_ints(body, v)?.first()?),
                None => None,
            };
            if length.is_some() || onesided {
                let axis = match given(2) {
                    Some(v) => *const_ints(body, v)?.first()?,
                    None => int_attr(attr("axis")).unwrap_or(if ops.len() > 2 { -2 } else { 1 }),
                };
                let a = norm_axis(axis, xs.len())?;
                if a + 1 == xs.len() {
                    return None;
                }
                let n = xs[a];
                xs[a] = match (length, onesided, inverse) {
                    (Some(l), true, false) => l / 2 + 1,
                    (Some(l), _, _) => l,
                    (None, true, false) if n != DYNAMIC => n / 2 + 1,
                    (None, true, true) if n != DYNAMIC => 2 * (n - 1),
                    _ => DYNAMIC,
                };
            }
            *xs.last_mut()? = if inverse && onesided { 1 } else { 2 };
            one(t(&x.elem, Some(xs)))
        }
        "SequenceLength" => one(t(&ctx.i64(), Some(vec![]))),
        "OptionalHasElement" => one(t(&ctx.i1(), Some(vec![]))),
        "SequenceEmpty" => {
            let elem = match int_attr(attr("dtype")) {
                Some(dt) => crate::types::elem_type(ctx, dt as i32).ok()?,
                None => ctx.f32(),
            };
            one(wrap(ctx, "Seq", &t(&elem, None)))
        }
        "SequenceConstruct" => {
            let tys: Vec<Type> = ops.iter().map(|v| body.value_type(*v).clone()).collect();
            one(wrap(ctx, "Seq", &merge(ctx, &tys)?))
        }
        "SequenceInsert" => {
            let inner = unwrap(ctx, body.value_type(*ops.first()?), "Seq")?;
            one(wrap(ctx, "Seq", &merge(ctx, &[inner, body.value_type(*ops.get(1)?).clone()])?))
        }
        "SequenceErase" => one(wrap(ctx, "Seq", &unwrap(ctx, body.value_type(*ops.first()?), "Seq")?)),
        "SequenceAt" => one(unwrap(ctx, body.value_type(*ops.first()?), "Seq")?),
        "SplitToSequence" => one(wrap(ctx, "Seq", &t(&in0()?.elem, None))),
        "Optional" => {
            let inner = match ops.first() {
                Some(v) => body.value_type(*v).clone(),
                None => attr("type")?.as_type()?.clone(),
            };
            one(wrap(ctx, "Opt", &inner))
        }
        "OptionalGetElement" => {
            let ty = body.value_type(*ops.first()?);
            one(unwrap(ctx, ty, "Opt").unwrap_or_else(|| ty.clone()))
        }
        "If" => {
            // Each result is what both branches yield, merged.
            let a = yields(body, op, 0)?;
            let b = yields(body, op, 1)?;
            if a.len() != b.len() {
                return None;
            }
            a.iter().zip(&b).map(|(x, y)| merge_any(ctx, x, y)).collect()
        }
        "SequenceMap" => {
            // One sequence per body result, of what the body yields.
            let y = yields(body, op, 0)?;
            Some(y.iter().map(|t| wrap(ctx, "Seq", t)).collect())
        }
        "Loop" => {
            // Carried values: initial merged with what the body yields; scan outputs gain a leading
            // iteration dim (the trip count, when the loop is known to run exactly that many times).
            let y = yields(body, op, 0)?;
            let n = ops.len().checked_sub(2)?;
            if y.len() < n + 1 {
                return None;
            }
            // An optional carried value may come out as its element (a body that fills it in).
            // An empty sequence carried in takes the type the body gives it (its no elements have any).
            let carried = |i: usize| {
                let init = body.value_type(ops[2 + i]);
                if body.defining_op(ops[2 + i]).is_some_and(|d| body.name(d).as_str() == "onnx.SequenceEmpty") && unwrap(ctx, &y[1 + i], "Seq").is_some() {
                    return Some(y[1 + i].clone());
                }
                merge_any(ctx, init, &y[1 + i]).or_else(|| merge_any(ctx, &unwrap(ctx, init, "Opt")?, &y[1 + i]))
            };
            let mut v: Vec<Type> = (0..n).map(carried).collect::<Option<_>>()?;
            let trips = loop_trip_count(body, op).unwrap_or(DYNAMIC);
            for s in &y[1 + n..] {
                let i = info(s)?;
                v.push(t(&i.elem, i.shape.map(|sh| [vec![trips], sh].concat())));
            }
            Some(v)
        }
        "Scan" => {
            // Opset 9+: states then scan inputs; state results as the states, scan outputs stacked
            // along scan_output_axes with the length of the first scan input's scanned axis.
            let y = yields(body, op, 0)?;
            if opset_of(body, op)? < 9 {
                // Opset 8: (sequence_lens, states, scan inputs), all batched: states keep their
                // (batch, ...) shape; scan outputs are (batch, sequence, what the body yields).
                let m = int_attr(attr("num_scan_inputs"))? as usize;
                let n = ops.len().checked_sub(m + 1)?;
                let first = ins.get(1 + n)?.clone()?.shape?;
                if y.len() < n || first.len() < 2 {
                    return None;
                }
                let mut v: Vec<Type> = (0..n).map(|i| body.value_type(ops[1 + i]).clone()).collect();
                for s in &y[n..] {
                    let i = info(s)?;
                    v.push(t(&i.elem, Some([first[..2].to_vec(), i.shape?].concat())));
                }
                return Some(v);
            }
            let m = int_attr(attr("num_scan_inputs"))? as usize;
            let n = ops.len().checked_sub(m)?;
            if y.len() < n {
                return None;
            }
            let first = ins.get(n)?.clone()?.shape?;
            let in_axis = ints_attr(attr("scan_input_axes")).and_then(|a| a.first().copied()).unwrap_or(0);
            let len = *first.get(norm_axis(in_axis, first.len())?)?;
            let out_axes = ints_attr(attr("scan_output_axes")).unwrap_or_default();
            let mut v: Vec<Type> = (0..n).map(|i| merge_any(ctx, body.value_type(ops[i]), &y[i])).collect::<Option<_>>()?;
            for (k, s) in y[n..].iter().enumerate() {
                let i = info(s)?;
                let mut sh = i.shape?;
                let ax = norm_axis(out_axes.get(k).copied().unwrap_or(0), sh.len() + 1)?;
                sh.insert(ax, len);
                v.push(t(&i.elem, Some(sh)));
            }
            Some(v)
        }
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
        "Dropout" => {
            let x = in0()?;
            let mut v = vec![t(&x.elem, x.shape.clone())];
            if d.results().len() > 1 {
                v.push(t(&ctx.i1(), x.shape));
            }
            Some(v)
        }
        _ => None,
    }
}

/// Bits per element of a scalar type.
fn bit_width(t: &Type) -> Option<u32> {
    // ONNX stores a bool in a byte.
    t.int_width().map(|w| w.max(8)).or_else(|| t.float_kind().map(|k| k.width()))
}

/// Types for the entry-block arguments of a Loop, Scan or SequenceMap body, from
/// the op's operands: Loop passes (iteration, condition, carried...); Scan (opset
/// 9+) the states, then one slice of each scanned input (its scan axis removed);
/// SequenceMap one element of each sequence and the other inputs whole.
pub fn body_arg_types(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    let d = body.op(op);
    let ops = d.operands();
    match d.name.as_str() {
        "onnx.Loop" => {
            let mut v = vec![tensor(ctx, &ctx.i64(), Some(vec![])), tensor(ctx, &ctx.i1(), Some(vec![]))];
            v.extend(ops.iter().skip(2).map(|o| body.value_type(*o).clone()));
            Some(v)
        }
        "onnx.SequenceMap" => Some(ops.iter().map(|o| {
            let t = body.value_type(*o);
            unwrap(ctx, t, "Seq").unwrap_or_else(|| t.clone())
        }).collect()),
        "onnx.Scan" if opset_of(body, op)? < 9 => {
            // Opset 8: states without their batch dim, scan inputs without batch and sequence.
            let m = int_attr(d.properties.get("num_scan_inputs"))? as usize;
            let n = ops.len().checked_sub(m + 1)?;
            ops[1..].iter().enumerate().map(|(k, o)| {
                let i = info(body.value_type(*o))?;
                let drop = if k < n { 1 } else { 2 };
                Some(tensor(ctx, &i.elem, i.shape.and_then(|s| s.get(drop..).map(<[i64]>::to_vec))))
            }).collect()
        }
        "onnx.Scan" => {
            let m = int_attr(d.properties.get("num_scan_inputs"))? as usize;
            let n = ops.len().checked_sub(m)?;
            let axes = ints_attr(d.properties.get("scan_input_axes")).unwrap_or_default();
            let mut v: Vec<Type> = ops[..n].iter().map(|o| body.value_type(*o).clone()).collect();
            for (k, o) in ops[n..].iter().enumerate() {
                let i = info(body.value_type(*o))?;
                let shape = match i.shape {
                    Some(mut s) => {
                        let a = norm_axis(axes.get(k).copied().unwrap_or(0), s.len())?;
                        s.remove(a);
                        Some(s)
                    }
                    None => None,
                };
                v.push(tensor(ctx, &i.elem, shape));
            }
            Some(v)
        }
        _ => None,
    }
}

/// How many times a Loop runs, when that is known before it runs: a constant
/// trip count, a condition that starts true (or is absent), and a body that
/// passes its condition through unchanged (or yields a constant true).
pub fn loop_trip_count(body: &Body, op: OpId) -> Option<i64> {
    let const_ints = |b: &Body, v: Value| const_ints_upto(b, v, MAX_SHAPE_OPERAND);
    let ops = body.op(op).operands();
    let trips = *const_ints(body, *ops.first()?)?.first()?;
    let is_true = |v: Value| is_none(body, v) || const_ints(body, v).is_some_and(|c| c.first().is_some_and(|c| *c != 0));
    if !is_true(*ops.get(1)?) {
        return None;
    }
    let region = *body.op(op).regions().first()?;
    let block = *body.region_blocks(region).first()?;
    let cond_out = *body.op(body.last_op(block)?).operands().first()?;
    (cond_out == *body.block_args(block).get(1)? || is_true(cond_out)).then_some(trips.max(0))
}

/// The types `op`'s region `r` yields (its entry block's terminator operands).
pub(crate) fn yields(body: &Body, op: OpId, r: usize) -> Option<Vec<Type>> {
    let region = *body.op(op).regions().get(r)?;
    let block = *body.region_blocks(region).first()?;
    let term = body.last_op(block)?;
    Some(body.op(term).operands().iter().map(|v| body.value_type(*v).clone()).collect())
}

/// The opset the enclosing function was imported at (`onnx.opset`).
pub fn opset_of(body: &Body, op: OpId) -> Option<i64> {
    let mut cur = op;
    while let Some(p) = body.parent_op(cur) {
        if let Some(v) = body.op(p).attributes.get("onnx.opset").and_then(|a| a.as_int()) {
            return Some(v as i64);
        }
        cur = p;
    }
    None
}

/// `merge` of two types, also for sequences and optionals (nested: an optional sequence).
fn merge_any(ctx: &Context, a: &Type, b: &Type) -> Option<Type> {
    for kind in ["Seq", "Opt"] {
        if let (Some(x), Some(y)) = (unwrap(ctx, a, kind), unwrap(ctx, b, kind)) {
            return Some(wrap(ctx, kind, &merge_any(ctx, &x, &y)?));
        }
    }
    merge(ctx, &[a.clone(), b.clone()])
}

/// The most precise tensor type every one of `tys` has (as a sequence's element type).
fn merge(ctx: &Context, tys: &[Type]) -> Option<Type> {
    let infos: Vec<Info> = tys.iter().map(info).collect::<Option<_>>()?;
    let first = infos.first()?;
    if infos.iter().any(|i| i.elem != first.elem) {
        return None;
    }
    let mut shape = first.shape.clone();
    for i in &infos[1..] {
        shape = match (shape, &i.shape) {
            (Some(a), Some(b)) if a.len() == b.len() => Some(a.iter().zip(b).map(|(x, y)| if x == y { *x } else { DYNAMIC }).collect()),
            _ => None,
        };
    }
    Some(tensor(ctx, &first.elem, shape))
}

/// Whether `new` agrees with `old` wherever `old` is known, so it may replace it:
/// anything replaces `none`, a declared `?` takes any size, an unranked tensor
/// any rank, and sequences and optionals compare their elements.
pub fn compatible(ctx: &Context, old: &Type, new: &Type) -> bool {
    match (old.data(), new.data()) {
        (TypeData::None, _) => true,
        (TypeData::UnrankedTensor { elem: a }, TypeData::UnrankedTensor { elem: b } | TypeData::RankedTensor { elem: b, .. }) => a == b,
        (TypeData::RankedTensor { shape: s, elem: a, .. }, TypeData::RankedTensor { shape: t, elem: b, .. }) => {
            a == b && s.len() == t.len() && s.iter().zip(t).all(|(x, y)| *x == DYNAMIC || x == y)
        }
        _ => {
            for kind in ["Seq", "Opt"] {
                if let (Some(a), Some(b)) = (unwrap(ctx, old, kind), unwrap(ctx, new, kind)) {
                    return compatible(ctx, &a, &b);
                }
            }
            old == new
        }
    }
}

/// `precision`, also of the elements of sequences and optionals.
pub fn precision_in(ctx: &Context, t: &Type) -> i64 {
    for kind in ["Seq", "Opt"] {
        if let Some(inner) = unwrap(ctx, t, kind) {
            return precision_in(ctx, &inner);
        }
    }
    precision(t)
}

/// How many dimensions a type pins down (more is more precise).
pub fn precision(t: &Type) -> i64 {
    match t.data() {
        TypeData::RankedTensor { shape, .. } => 1 + shape.iter().filter(|d| **d != DYNAMIC).count() as i64,
        TypeData::UnrankedTensor { .. } => 0,
        TypeData::None => -2,
        _ => -1,
    }
}
