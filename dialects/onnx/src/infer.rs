//! What type and shape inference reads: an op's operand types as `Info`s,
//! the values of constant operands (bounded, so a huge constant is not
//! materialized), attribute lists, broadcasting and window arithmetic, the
//! types a subgraph's arguments and yields have. The rules themselves sit
//! with their op family (`crate::family`, whose `infer` finds an op's rule),
//! above this file: nothing here reads a rule.
//! Unknown dimensions are `?`; an unknown rank is an unranked tensor.

use crate::ops;
use crate::types::{unwrap, wrap};
use ir::attributes::{read_int_element, AttrData, Attribute};
use ir::types::{Type, TypeData, DYNAMIC};
use ir::{Body, Context, OpId, Value};

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
    if body.name(d).as_str() != ops::Constant::NAME {
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
    if body.name(d).as_str() != ops::Constant::NAME {
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
    if body.name(d).as_str() != ops::Constant::NAME {
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
    let auto = o.str_attr("auto_pad").unwrap_or("NOTSET");
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

pub(crate) fn is_none(body: &Body, v: Value) -> bool {
    body.value_type(v).data() == &TypeData::None
}

/// An integer list attribute, as `array<i64: …>` or as `[1, 2]` (hand-written IR).
pub(crate) fn ints_attr(a: Option<&Attribute>) -> Option<Vec<i64>> {
    a?.as_ints()
}

pub(crate) fn int_attr(a: Option<&Attribute>) -> Option<i64> {
    a?.as_int().map(|v| v as i64)
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

pub(crate) fn norm_axis(a: i64, rank: usize) -> Option<usize> {
    let r = rank as i64;
    let x = if a < 0 { a + r } else { a };
    (0..r).contains(&x).then_some(x as usize)
}

/// Output size of a sliding window: floor or ceil((in + pads - dil*(k-1) - 1) / stride) + 1.
pub(crate) fn window(input: i64, k: i64, pad: i64, stride: i64, dil: i64, ceil: bool) -> i64 {
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

/// The most elements inference reads of a constant operand (shapes, axes,
/// pads, repeats): checked before reading, so a constant typed with billions
/// of elements is not materialized.
pub(crate) const MAX_SHAPE_OPERAND: usize = 1 << 16;

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

/// Bits per element of a scalar type.
pub(crate) fn bit_width(t: &Type) -> Option<u32> {
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
        ops::Loop::NAME => {
            let mut v = vec![tensor(ctx, &ctx.i64(), Some(vec![])), tensor(ctx, &ctx.i1(), Some(vec![]))];
            v.extend(ops.iter().skip(2).map(|o| body.value_type(*o).clone()));
            Some(v)
        }
        ops::SequenceMap::NAME => Some(ops.iter().map(|o| {
            let t = body.value_type(*o);
            unwrap(ctx, t, "Seq").unwrap_or_else(|| t.clone())
        }).collect()),
        ops::Scan::NAME if opset_of(body, op)? < 9 => {
            // Opset 8: states without their batch dim, scan inputs without batch and sequence.
            let m = int_attr(d.properties.get("num_scan_inputs"))? as usize;
            let n = ops.len().checked_sub(m + 1)?;
            ops[1..].iter().enumerate().map(|(k, o)| {
                let i = info(body.value_type(*o))?;
                let drop = if k < n { 1 } else { 2 };
                Some(tensor(ctx, &i.elem, i.shape.and_then(|s| s.get(drop..).map(<[i64]>::to_vec))))
            }).collect()
        }
        ops::Scan::NAME => {
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
pub(crate) fn merge_any(ctx: &Context, a: &Type, b: &Type) -> Option<Type> {
    for kind in ["Seq", "Opt"] {
        if let (Some(x), Some(y)) = (unwrap(ctx, a, kind), unwrap(ctx, b, kind)) {
            return Some(wrap(ctx, kind, &merge_any(ctx, &x, &y)?));
        }
    }
    merge(ctx, &[a.clone(), b.clone()])
}

/// The most precise tensor type every one of `tys` has (as a sequence's element type).
pub(crate) fn merge(ctx: &Context, tys: &[Type]) -> Option<Type> {
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
