//! What the folders of onnx ops read and write (each folder sits with its op
//! family in `crate::family`): operands as integers, floats, booleans or raw
//! stored bytes, and folded constants as inline or `dense_resource` elements.
//! The folders are identities, and constant folding of the integer
//! shape computations exporters emit (`Shape → Gather → Unsqueeze → Concat →
//! Reshape`), so that models whose inputs are static end up fully static, and
//! of the float tables they build from them (a detector's anchor grid:
//! `Range → Add → Expand → Concat`), so that no op of it is left to run.
//! Results of up to 64K elements fold: integers exactly, floats through f64
//! with one rounding to their type (the correctly rounded result of one
//! operation), data movement (Concat, Slice, Transpose, Expand) on the stored
//! bytes of any element type.

use crate::ops;
use crate::infer::{const_ints_upto, info};
use ir::attributes::{AttrData, Attribute, DenseData};
use ir::dialect::{FoldInput, FoldResult};
use ir::types::{Type, TypeData, DYNAMIC};

/// Integer constants at most this long are folded.
pub(crate) const MAX_FOLD: usize = 1 << 16;

/// The folded constant `ty` holding `bytes`: inline when small, as a
/// `dense_resource` (printed once at the end of the module) from 1 KiB, named
/// by its content so equal tables stay equal.
pub(crate) fn elements(ty: Type, bytes: Vec<u8>, width: usize, n: usize) -> Option<Vec<FoldResult>> {
    let uniform = bytes.chunks(width).all(|c| c == &bytes[..width]);
    let a = if bytes.len() >= 1024 && !uniform {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (ty.to_string(), &bytes).hash(&mut h);
        AttrData::DenseResource { ty, resource: ir::attributes::Resource::new(&format!("folded_{:016x}", h.finish()), 16, std::sync::Arc::new(bytes)) }
    } else {
        AttrData::Dense { ty, data: DenseData::canonical(bytes, width, n) }
    };
    Some(vec![FoldResult::Attr(Attribute::new(a))])
}

pub(crate) fn i64_tensor(x: &FoldInput, vals: &[i64], shape: Vec<i64>) -> Option<Vec<FoldResult>> {
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem: x.ctx.i64(), encoding: None });
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    elements(ty, bytes, 8, vals.len())
}

/// An integer constant of element type `elem` (any width; values wrap to it).
pub(crate) fn int_tensor(x: &FoldInput, vals: &[i64], shape: Vec<i64>, elem: &Type) -> Option<Vec<FoldResult>> {
    let w = ir::attributes::element_bytes(elem)?;
    if elem == &x.ctx.i64() {
        return i64_tensor(x, vals, shape);
    }
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem: elem.clone(), encoding: None });
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()[..w].to_vec()).collect();
    elements(ty, bytes, w, vals.len())
}

/// A constant integer operand of any width (not bool), with its element type.
pub(crate) fn operand_any_ints(x: &FoldInput, i: usize) -> Option<(Vec<i64>, Type)> {
    let v = *x.body.op(x.op).operands().get(i)?;
    let elem = x.body.value_type(v).scalar().clone();
    if !elem.is_integer() || elem == x.ctx.i1() {
        return None;
    }
    Some((const_ints_upto(x.body, v, MAX_FOLD)?, elem))
}

pub(crate) fn result_type(x: &FoldInput) -> Type {
    x.body.value_type(x.body.op(x.op).result(0)).clone()
}

pub(crate) fn operand_ints(x: &FoldInput, i: usize) -> Option<Vec<i64>> {
    let v = *x.body.op(x.op).operands().get(i)?;
    let t = x.body.value_type(v);
    if t.scalar() != &x.ctx.i64() {
        return None;
    }
    const_ints_upto(x.body, v, MAX_FOLD)
}

/// A constant operand's stored elements, row-major, as bytes of one width
/// (any element type; a splat expanded): what data movement folds on.
pub(crate) struct Raw {
    pub(crate) bytes: Vec<u8>,
    pub(crate) width: usize,
    pub(crate) shape: Vec<i64>,
    pub(crate) elem: Type,
}

impl Raw {
    /// The elements at flat indices `idx`, in order.
    pub(crate) fn pick(&self, idx: &[usize]) -> Vec<u8> {
        let w = self.width;
        idx.iter().flat_map(|&i| self.bytes[i * w..(i + 1) * w].iter().copied()).collect()
    }
}

/// Operand `i` as [`Raw`], if it is a static constant of at most `MAX_FOLD` elements.
pub(crate) fn operand_raw(x: &FoldInput, i: usize) -> Option<Raw> {
    let v = *x.body.op(x.op).operands().get(i)?;
    let t = x.body.value_type(v);
    let shape = t.shape().filter(|s| !s.contains(&DYNAMIC))?.to_vec();
    let n = t.num_elements()? as usize;
    let elem = t.scalar().clone();
    let width = ir::attributes::element_bytes(&elem)?;
    if n > MAX_FOLD {
        return None;
    }
    if n == 0 {
        return Some(Raw { bytes: vec![], width, shape, elem });
    }
    let (_, stored, splat) = crate::infer::stored_bytes(x.constants.get(i)?.as_ref()?)?;
    let bytes = if splat { stored.get(..width)?.repeat(n) } else { stored.get(..n * width)?.to_vec() };
    Some(Raw { bytes, width, shape, elem })
}

/// A constant of `shape` and element type `elem` holding `bytes` as stored.
pub(crate) fn raw_tensor(x: &FoldInput, bytes: Vec<u8>, width: usize, shape: Vec<i64>, elem: Type) -> Option<Vec<FoldResult>> {
    let n = bytes.len() / width;
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem, encoding: None });
    elements(ty, bytes, width, n)
}

pub(crate) fn operand_shape(x: &FoldInput, i: usize) -> Option<Vec<i64>> {
    info(x.body.value_type(*x.body.op(x.op).operands().get(i)?))?.shape
}

/// For each element of `to`, the flat index of the element of `from` that broadcasts to it.
pub(crate) fn broadcast_indices(from: &[i64], to: &[i64]) -> Option<Vec<usize>> {
    if from.len() > to.len() {
        return None;
    }
    let lead = to.len() - from.len();
    if from.iter().enumerate().any(|(i, &d)| d != 1 && d != to[lead + i]) {
        return None;
    }
    source_indices(from, to, |i, c| if i < lead { None } else { Some((i - lead, if from[i - lead] == 1 { 0 } else { c })) })
}

/// Numeric constants of any type other than i64 (which `arith` folds
/// exactly) are folded through f64: exact for integers below 2^53, and for
/// f32/f16/bf16 the one rounding to the result type gives the correctly rounded
/// result of the operation in that type.
pub(crate) fn operand_f64s(x: &FoldInput, i: usize) -> Option<Vec<f64>> {
    let v = *x.body.op(x.op).operands().get(i)?;
    let vals = crate::infer::const_f64s_upto(x.body, v, MAX_FOLD)?;
    let exact = !x.body.value_type(v).scalar().is_integer() || vals.iter().all(|v| v.abs() < 2f64.powi(53));
    exact.then_some(vals)
}

/// `vals` stored in the result's element type: floats rounded to nearest even,
/// integers (already integral) wrapped to their width, bools as nonzero.
pub(crate) fn typed_tensor(x: &FoldInput, vals: &[f64], shape: Vec<i64>) -> Option<Vec<FoldResult>> {
    let elem = result_type(x).scalar().clone();
    let w = ir::attributes::element_bytes(&elem)?;
    let mut bytes = Vec::with_capacity(vals.len() * w);
    for v in vals {
        let bits: u64 = if let Some(kind) = elem.float_kind() {
            ir::float::f64_to_bits(*v, kind)?
        } else if elem == x.ctx.i1() {
            (*v != 0.0) as u64
        } else {
            // Integral and within the type's range (normalizing leaves it unchanged).
            if !v.is_finite() || v.fract() != 0.0 || v.abs() >= 2f64.powi(63) || ir::attributes::normalize_int(*v as i128, &elem) != *v as i128 {
                return None;
            }
            *v as i64 as u64
        };
        bytes.extend_from_slice(&bits.to_le_bytes()[..w]);
    }
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem, encoding: None });
    elements(ty, bytes, w, vals.len())
}

/// The constants of a binary op, each broadcast to the result's shape (numpy
/// rules), with that shape and its element count.
pub(crate) fn binary_operands<T: Copy>(x: &FoldInput, read: fn(&FoldInput, usize) -> Option<Vec<T>>) -> Option<(Vec<T>, Vec<T>, Vec<i64>, usize)> {
    let (a, b) = (read(x, 0)?, read(x, 1)?);
    let (sa, sb) = (operand_shape(x, 0)?, operand_shape(x, 1)?);
    if sa.contains(&DYNAMIC) || sb.contains(&DYNAMIC) {
        return None;
    }
    let shape = crate::infer::broadcast(&[Some(sa.clone()), Some(sb.clone())])?;
    let n = shape.iter().product::<i64>() as usize;
    if n > MAX_FOLD {
        return None;
    }
    let spread = |v: Vec<T>, from: &[i64]| -> Option<Vec<T>> {
        if v.len() == n {
            return Some(v);
        }
        Some(broadcast_indices(from, &shape)?.into_iter().map(|i| v[i]).collect())
    };
    Some((spread(a, &sa)?, spread(b, &sb)?, shape.clone(), n))
}

pub(crate) fn at<T: Copy>(v: &[T], i: usize) -> T {
    if v.len() == 1 {
        v[0]
    } else {
        v[i]
    }
}

pub(crate) fn bool_tensor(x: &FoldInput, vals: &[bool], shape: Vec<i64>) -> Option<Vec<FoldResult>> {
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem: x.ctx.i1(), encoding: None });
    let bytes: Vec<u8> = vals.iter().map(|v| *v as u8).collect();
    elements(ty, bytes, 1, vals.len())
}

pub(crate) fn operand_bools(x: &FoldInput, i: usize) -> Option<Vec<i64>> {
    let v = *x.body.op(x.op).operands().get(i)?;
    if x.body.value_type(v).scalar() != &x.ctx.i1() {
        return None;
    }
    const_ints_upto(x.body, v, MAX_FOLD).map(|v| v.into_iter().map(|b| (b != 0) as i64).collect())
}

/// For each element of `out_shape` (row-major), the flat index in a tensor of
/// `shape` it reads: `source(i, c)` says which input dim and index output dim
/// `i` at index `c` reads (None: none, a broadcast dim).
pub(crate) fn source_indices(shape: &[i64], out_shape: &[i64], source: impl Fn(usize, i64) -> Option<(usize, i64)>) -> Option<Vec<usize>> {
    let strides: Vec<i64> = (0..shape.len()).map(|i| shape[i + 1..].iter().product()).collect();
    let total: i64 = out_shape.iter().product();
    let n: i64 = shape.iter().product();
    let mut idx = Vec::with_capacity(total as usize);
    for flat in 0..total {
        let (mut rest, mut at) = (flat, 0i64);
        for i in (0..out_shape.len()).rev() {
            let c = rest % out_shape[i];
            rest /= out_shape[i];
            if let Some((d, k)) = source(i, c) {
                at += k * strides[d];
            }
        }
        if !(0..n).contains(&at) {
            return None;
        }
        idx.push(at as usize);
    }
    Some(idx)
}

/// `onnx.Constant` holding `value`: the dialect's constant materializer.
pub fn materialize(ctx: &ir::Context, body: &mut ir::Body, value: &Attribute, ty: &Type, loc: ir::Location) -> Option<ir::OpId> {
    if value.typ() != Some(ty) {
        return None;
    }
    let st = ir::OperationState::new(ctx.op_name(ops::Constant::NAME), loc).property(ctx.ident("value"), value.clone()).results(&[ty.clone()]);
    Some(body.create_op(st))
}
