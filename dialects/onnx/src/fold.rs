//! Folders of onnx ops: identities, and constant folding of the integer
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
const MAX_FOLD: usize = 1 << 16;

/// The folded constant `ty` holding `bytes`: inline when small, as a
/// `dense_resource` (printed once at the end of the module) from 1 KiB, named
/// by its content so equal tables stay equal.
fn elements(ty: Type, bytes: Vec<u8>, width: usize, n: usize) -> Option<Vec<FoldResult>> {
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

fn i64_tensor(x: &FoldInput, vals: &[i64], shape: Vec<i64>) -> Option<Vec<FoldResult>> {
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem: x.ctx.i64(), encoding: None });
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    elements(ty, bytes, 8, vals.len())
}

/// An integer constant of element type `elem` (any width; values wrap to it).
fn int_tensor(x: &FoldInput, vals: &[i64], shape: Vec<i64>, elem: &Type) -> Option<Vec<FoldResult>> {
    let w = ir::attributes::element_bytes(elem)?;
    if elem == &x.ctx.i64() {
        return i64_tensor(x, vals, shape);
    }
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem: elem.clone(), encoding: None });
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()[..w].to_vec()).collect();
    elements(ty, bytes, w, vals.len())
}

/// A constant integer operand of any width (not bool), with its element type.
fn operand_any_ints(x: &FoldInput, i: usize) -> Option<(Vec<i64>, Type)> {
    let v = *x.body.op(x.op).operands().get(i)?;
    let elem = x.body.value_type(v).scalar().clone();
    if !elem.is_integer() || elem == x.ctx.i1() {
        return None;
    }
    Some((const_ints_upto(x.body, v, MAX_FOLD)?, elem))
}

fn result_type(x: &FoldInput) -> Type {
    x.body.value_type(x.body.op(x.op).result(0)).clone()
}

fn operand_ints(x: &FoldInput, i: usize) -> Option<Vec<i64>> {
    let v = *x.body.op(x.op).operands().get(i)?;
    let t = x.body.value_type(v);
    if t.scalar() != &x.ctx.i64() {
        return None;
    }
    const_ints_upto(x.body, v, MAX_FOLD)
}

/// A constant operand's stored elements, row-major, as bytes of one width
/// (any element type; a splat expanded): what data movement folds on.
struct Raw {
    bytes: Vec<u8>,
    width: usize,
    shape: Vec<i64>,
    elem: Type,
}

impl Raw {
    /// The elements at flat indices `idx`, in order.
    fn pick(&self, idx: &[usize]) -> Vec<u8> {
        let w = self.width;
        idx.iter().flat_map(|&i| self.bytes[i * w..(i + 1) * w].iter().copied()).collect()
    }
}

/// Operand `i` as [`Raw`], if it is a static constant of at most `MAX_FOLD` elements.
fn operand_raw(x: &FoldInput, i: usize) -> Option<Raw> {
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
fn raw_tensor(x: &FoldInput, bytes: Vec<u8>, width: usize, shape: Vec<i64>, elem: Type) -> Option<Vec<FoldResult>> {
    let n = bytes.len() / width;
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem, encoding: None });
    elements(ty, bytes, width, n)
}

fn operand_shape(x: &FoldInput, i: usize) -> Option<Vec<i64>> {
    info(x.body.value_type(*x.body.op(x.op).operands().get(i)?))?.shape
}

pub fn identity(x: &FoldInput) -> Option<Vec<FoldResult>> {
    Some(vec![FoldResult::Value(x.body.op(x.op).operand(0))])
}

pub fn shape(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let s = operand_shape(x, 0)?;
    if s.contains(&DYNAMIC) {
        return None;
    }
    let r = s.len() as i64;
    let clamp = |v: i64| if v < 0 { (v + r).max(0) } else { v.min(r) };
    let d = x.body.op(x.op);
    let start = clamp(d.properties.get("start").and_then(|a| a.as_int()).unwrap_or(0) as i64) as usize;
    let end = clamp(d.properties.get("end").and_then(|a| a.as_int()).map(|v| v as i64).unwrap_or(r)) as usize;
    let vals = s[start..end.max(start)].to_vec();
    let n = vals.len() as i64;
    i64_tensor(x, &vals, vec![n])
}

pub fn gather(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let (data, elem) = operand_any_ints(x, 0)?;
    let (idx, _) = operand_any_ints(x, 1)?;
    let (ds, is) = (operand_shape(x, 0)?, operand_shape(x, 1)?);
    if ds.len() != 1 {
        return None;
    }
    let n = data.len() as i64;
    let vals: Vec<i64> = idx.iter().map(|i| data.get((if *i < 0 { i + n } else { *i }) as usize).copied()).collect::<Option<_>>()?;
    int_tensor(x, &vals, is, &elem)
}

/// Unsqueeze, Squeeze, Reshape, Flatten of a constant: the same stored bytes
/// (shared, not copied) under the new static type, whatever the element type.
pub fn reshape_like(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let rt = result_type(x);
    let shape = rt.shape()?.to_vec();
    if shape.contains(&DYNAMIC) {
        return None;
    }
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem: rt.scalar().clone(), encoding: None });
    let same_count = |t: &Type| t.num_elements() == ty.num_elements();
    let a = match x.constants.first()?.as_ref()?.data() {
        AttrData::Dense { ty: t, data } if same_count(t) => AttrData::Dense { ty, data: data.clone() },
        AttrData::DenseResource { ty: t, resource } if same_count(t) => AttrData::DenseResource { ty, resource: resource.clone() },
        _ => return None,
    };
    Some(vec![FoldResult::Attr(Attribute::new(a))])
}

/// Concat of constants of one element type along any axis (shape vectors,
/// which tf2onnx builds in int32; an anchor grid's coordinates).
pub fn concat(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let d = x.body.op(x.op);
    let parts: Vec<Raw> = (0..d.operands().len()).map(|i| operand_raw(x, i)).collect::<Option<_>>()?;
    let first = parts.first()?;
    let rank = first.shape.len() as i64;
    let axis = d.attr("axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
    let axis = if axis < 0 { axis + rank } else { axis };
    let axis_u = axis as usize;
    let same_but_axis = |p: &Raw| p.shape.len() == first.shape.len() && (0..first.shape.len()).all(|d| d == axis_u || p.shape[d] == first.shape[d]);
    if !(0..rank).contains(&axis) || parts.iter().any(|p| p.elem != first.elem || !same_but_axis(p)) {
        return None;
    }
    let axis = axis_u;
    let mut shape = first.shape.clone();
    shape[axis] = parts.iter().map(|p| p.shape[axis]).sum();
    if shape.iter().product::<i64>() as usize > MAX_FOLD {
        return None;
    }
    // Each part contributes one run of its inner block per outer index.
    let outer: i64 = first.shape[..axis].iter().product();
    let mut bytes = Vec::with_capacity(shape.iter().product::<i64>() as usize * first.width);
    for o in 0..outer as usize {
        for p in &parts {
            let run = p.shape[axis..].iter().product::<i64>() as usize * p.width;
            bytes.extend_from_slice(&p.bytes[o * run..(o + 1) * run]);
        }
    }
    raw_tensor(x, bytes, first.width, shape, first.elem.clone())
}

/// Expand of a constant to a static result shape (numpy broadcasting).
pub fn expand(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let data = operand_raw(x, 0)?;
    let out = result_type(x).shape().filter(|s| !s.contains(&DYNAMIC))?.to_vec();
    if out.iter().product::<i64>() as usize > MAX_FOLD {
        return None;
    }
    let idx = broadcast_indices(&data.shape, &out)?;
    raw_tensor(x, data.pick(&idx), data.width, out, data.elem.clone())
}

/// For each element of `to`, the flat index of the element of `from` that broadcasts to it.
fn broadcast_indices(from: &[i64], to: &[i64]) -> Option<Vec<usize>> {
    if from.len() > to.len() {
        return None;
    }
    let lead = to.len() - from.len();
    if from.iter().enumerate().any(|(i, &d)| d != 1 && d != to[lead + i]) {
        return None;
    }
    source_indices(from, to, |i, c| if i < lead { None } else { Some((i - lead, if from[i - lead] == 1 { 0 } else { c })) })
}

/// Cast of an integer constant to int64 (shape math in int32 is common), and
/// of a small numeric constant to any numeric type (the scalar math of expanded
/// functions: a window's length cast to float before its `Range`, a trip count
/// cast back to int64). Floats become integers by truncation, as ONNX Runtime
/// casts them; a value out of the target's range is not folded.
pub fn cast(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let v = *x.body.op(x.op).operands().first()?;
    if result_type(x).scalar() == &x.ctx.i64() && x.body.value_type(v).scalar().is_integer() {
        let vals = const_ints_upto(x.body, v, MAX_FOLD)?;
        return i64_tensor(x, &vals, operand_shape(x, 0)?);
    }
    let vals = operand_f64s(x, 0)?;
    let to = result_type(x).scalar().clone();
    let vals: Vec<f64> = if to.is_integer() && to != x.ctx.i1() { vals.iter().map(|v| v.trunc()).collect() } else { vals };
    typed_tensor(x, &vals, operand_shape(x, 0)?)
}

/// Numeric constants of any type other than i64 (which `arith` folds
/// exactly) are folded through f64: exact for integers below 2^53, and for
/// f32/f16/bf16 the one rounding to the result type gives the correctly rounded
/// result of the operation in that type.
fn operand_f64s(x: &FoldInput, i: usize) -> Option<Vec<f64>> {
    let v = *x.body.op(x.op).operands().get(i)?;
    let vals = crate::infer::const_f64s_upto(x.body, v, MAX_FOLD)?;
    let exact = !x.body.value_type(v).scalar().is_integer() || vals.iter().all(|v| v.abs() < 2f64.powi(53));
    exact.then_some(vals)
}

/// `vals` stored in the result's element type: floats rounded to nearest even,
/// integers (already integral) wrapped to their width, bools as nonzero.
fn typed_tensor(x: &FoldInput, vals: &[f64], shape: Vec<i64>) -> Option<Vec<FoldResult>> {
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

/// Add/Sub/Mul/Div/Max/Min of small float or narrow-integer constants.
fn scalar_arith(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let (a, b, shape, n) = binary_operands(x, operand_f64s)?;
    let int = result_type(x).scalar().is_integer();
    let op = x.body.name(x.op).as_str();
    let vals: Vec<f64> = (0..n)
        .map(|i| {
            let (p, q) = (at(&a, i), at(&b, i));
            match op {
                ops::Add::NAME => Some(p + q),
                ops::Sub::NAME => Some(p - q),
                ops::Mul::NAME => Some(p * q),
                ops::Max::NAME => Some(p.max(q)),
                ops::Min::NAME => Some(p.min(q)),
                ops::Div::NAME if int => (q != 0.0).then(|| (p / q).trunc()),
                ops::Div::NAME => Some(p / q),
                _ => None,
            }
        })
        .collect::<Option<_>>()?;
    typed_tensor(x, &vals, shape)
}

/// Neg/Abs/Ceil/Floor/Relu/Round of a small float or narrow-integer constant.
fn scalar_unary(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let a = operand_f64s(x, 0)?;
    let f: fn(f64) -> f64 = match x.body.name(x.op).as_str() {
        ops::Neg::NAME => |v| -v,
        ops::Abs::NAME => f64::abs,
        ops::Ceil::NAME => f64::ceil,
        ops::Floor::NAME => f64::floor,
        ops::Relu::NAME => |v| if v.is_nan() { v } else { v.max(0.0) },
        ops::Round::NAME => f64::round_ties_even,
        _ => return None,
    };
    typed_tensor(x, &a.into_iter().map(f).collect::<Vec<_>>(), operand_shape(x, 0)?)
}

/// The constants of a binary op, each broadcast to the result's shape (numpy
/// rules), with that shape and its element count.
fn binary_operands<T: Copy>(x: &FoldInput, read: fn(&FoldInput, usize) -> Option<Vec<T>>) -> Option<(Vec<T>, Vec<T>, Vec<i64>, usize)> {
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

fn at<T: Copy>(v: &[T], i: usize) -> T {
    if v.len() == 1 {
        v[0]
    } else {
        v[i]
    }
}

/// Integer Add/Sub/Mul/Div/Max/Min/Mod on constants (with scalar broadcast), as shape arithmetic needs.
pub fn arith(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let Some((a, b, shape, n)) = binary_operands(x, operand_ints) else { return scalar_arith(x) };
    let op = x.body.name(x.op).as_str();
    let fmod = x.body.op(x.op).attr("fmod").and_then(|a| a.as_int()).unwrap_or(0) != 0;
    let vals: Vec<i64> = (0..n)
        .map(|i| {
            let (p, q) = (at(&a, i), at(&b, i));
            match op {
                ops::Add::NAME => p.checked_add(q),
                ops::Sub::NAME => p.checked_sub(q),
                ops::Mul::NAME => p.checked_mul(q),
                ops::Max::NAME => Some(p.max(q)),
                ops::Min::NAME => Some(p.min(q)),
                // Python's modulo (the divisor's sign) unless fmod.
                ops::Mod::NAME if fmod => (q != 0).then(|| p.wrapping_rem(q)),
                ops::Mod::NAME => (q != 0).then(|| ((p % q) + q) % q),
                // Integer division truncates toward zero, as ONNX Runtime computes it.
                _ => (q != 0).then(|| p.wrapping_div(q)),
            }
        })
        .collect::<Option<_>>()?;
    i64_tensor(x, &vals, shape)
}

fn bool_tensor(x: &FoldInput, vals: &[bool], shape: Vec<i64>) -> Option<Vec<FoldResult>> {
    let ty = x.ctx.intern_type(TypeData::RankedTensor { shape, elem: x.ctx.i1(), encoding: None });
    let bytes: Vec<u8> = vals.iter().map(|v| *v as u8).collect();
    elements(ty, bytes, 1, vals.len())
}

fn operand_bools(x: &FoldInput, i: usize) -> Option<Vec<i64>> {
    let v = *x.body.op(x.op).operands().get(i)?;
    if x.body.value_type(v).scalar() != &x.ctx.i1() {
        return None;
    }
    const_ints_upto(x.body, v, MAX_FOLD).map(|v| v.into_iter().map(|b| (b != 0) as i64).collect())
}

/// Integer comparisons of constants (shape checks in expanded functions).
pub fn compare(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let (a, b, shape, n) = binary_operands(x, operand_ints)?;
    let op = x.body.name(x.op).as_str();
    let vals: Vec<bool> = (0..n)
        .map(|i| {
            let (p, q) = (at(&a, i), at(&b, i));
            match op {
                ops::Equal::NAME => p == q,
                ops::Less::NAME => p < q,
                ops::Greater::NAME => p > q,
                ops::LessOrEqual::NAME => p <= q,
                _ => p >= q,
            }
        })
        .collect();
    bool_tensor(x, &vals, shape)
}

/// And/Or/Xor of bool constants; Not of one.
pub fn logic(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let op = x.body.name(x.op).as_str();
    if op == ops::Not::NAME {
        let a = operand_bools(x, 0)?;
        return bool_tensor(x, &a.iter().map(|v| *v == 0).collect::<Vec<_>>(), operand_shape(x, 0)?);
    }
    let (a, b, shape, n) = binary_operands(x, operand_bools)?;
    let vals: Vec<bool> = (0..n)
        .map(|i| {
            let (p, q) = (at(&a, i) != 0, at(&b, i) != 0);
            match op {
                ops::And::NAME => p && q,
                ops::Or::NAME => p || q,
                _ => p != q,
            }
        })
        .collect();
    bool_tensor(x, &vals, shape)
}

/// Where on constant integers: picks shape values in expanded functions.
pub fn where_(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let c = operand_bools(x, 0)?;
    let (a, b) = (operand_ints(x, 1)?, operand_ints(x, 2)?);
    let n = c.len().max(a.len()).max(b.len());
    if [c.len(), a.len(), b.len()].iter().any(|&l| l != n && l != 1) {
        return None;
    }
    let shape = result_type(x).shape().filter(|s| !s.contains(&DYNAMIC) && s.iter().product::<i64>() == n as i64)?.to_vec();
    let vals: Vec<i64> = (0..n).map(|i| if at(&c, i) != 0 { at(&a, i) } else { at(&b, i) }).collect();
    i64_tensor(x, &vals, shape)
}

/// Integer Neg / Abs of a constant.
pub fn unary_int(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let Some(a) = operand_ints(x, 0) else { return scalar_unary(x) };
    let neg = x.body.name(x.op).as_str() == ops::Neg::NAME;
    let vals: Vec<i64> = a.iter().map(|v| if neg { v.checked_neg() } else { v.checked_abs() }).collect::<Option<_>>()?;
    i64_tensor(x, &vals, operand_shape(x, 0)?)
}

/// Size of a statically shaped tensor.
pub fn size(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let s = operand_shape(x, 0)?;
    if s.contains(&DYNAMIC) || result_type(x).shape() != Some(&[][..]) {
        return None;
    }
    i64_tensor(x, &[s.iter().product()], vec![])
}

/// Slice of a constant along any axes with any steps (shape vectors, the pads
/// tables PyTorch exports reverse with a step of -1, float tables).
pub fn slice(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let data = operand_raw(x, 0)?;
    let shape = data.shape.clone();
    let rank = shape.len();
    let d = x.body.op(x.op);
    let ints = |i: usize| operand_any_ints(x, i).map(|(v, _)| v);
    let (starts, ends) = (ints(1)?, ints(2)?);
    let given = |i: usize| d.operands().get(i).is_some_and(|v| !matches!(x.body.value_type(*v).data(), TypeData::None));
    let axes = if given(3) { ints(3)? } else { (0..starts.len() as i64).collect() };
    let steps = if given(4) { ints(4)? } else { vec![1; starts.len()] };
    if rank == 0 || ends.len() != starts.len() || axes.len() != starts.len() || steps.len() != starts.len() {
        return None;
    }
    // Per dim: the indices it keeps, in order (ONNX's clamping rules).
    let mut keep: Vec<Vec<i64>> = shape.iter().map(|&n| (0..n).collect()).collect();
    for k in 0..starts.len() {
        let a = if axes[k] < 0 { axes[k] + rank as i64 } else { axes[k] };
        if !(0..rank as i64).contains(&a) || steps[k] == 0 {
            return None;
        }
        let n = shape[a as usize];
        let (mut s, mut e, step) = (starts[k], ends[k], steps[k]);
        if s < 0 {
            s = s.saturating_add(n);
        }
        if e < 0 {
            e = e.saturating_add(n);
        }
        let mut idx = vec![];
        if step > 0 {
            let (mut i, e) = (s.clamp(0, n), e.clamp(0, n));
            while i < e {
                idx.push(i);
                i = i.saturating_add(step);
            }
        } else {
            let (mut i, e) = (s.clamp(-1, n - 1), e.clamp(-1, n - 1));
            while i > e {
                idx.push(i);
                i = i.saturating_add(step);
            }
        }
        keep[a as usize] = idx;
    }
    let out_shape: Vec<i64> = keep.iter().map(|k| k.len() as i64).collect();
    let idx = source_indices(&shape, &out_shape, |i, c| Some((i, keep[i][c as usize])))?;
    raw_tensor(x, data.pick(&idx), data.width, out_shape, data.elem.clone())
}

/// For each element of `out_shape` (row-major), the flat index in a tensor of
/// `shape` it reads: `source(i, c)` says which input dim and index output dim
/// `i` at index `c` reads (None: none, a broadcast dim).
fn source_indices(shape: &[i64], out_shape: &[i64], source: impl Fn(usize, i64) -> Option<(usize, i64)>) -> Option<Vec<usize>> {
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

/// Transpose of a constant (pads tables, shape tables, float tables).
pub fn transpose(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let data = operand_raw(x, 0)?;
    let shape = data.shape.clone();
    let rank = shape.len();
    let perm: Vec<usize> = match x.body.op(x.op).attr("perm") {
        Some(a) => super::infer::ints_attr(Some(a))?.iter().map(|&p| p as usize).collect(),
        None => (0..rank).rev().collect(),
    };
    if perm.len() != rank || (0..rank).any(|i| !perm.contains(&i)) {
        return None;
    }
    let out_shape: Vec<i64> = perm.iter().map(|&p| shape[p]).collect();
    let idx = source_indices(&shape, &out_shape, |i, c| Some((perm[i], c)))?;
    raw_tensor(x, data.pick(&idx), data.width, out_shape, data.elem.clone())
}

/// Split of a 1-D integer constant into results of known lengths (expanded
/// functions take a shape vector apart this way).
pub fn split(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let data = operand_ints(x, 0)?;
    let d = x.body.op(x.op);
    let lens: Vec<usize> = d.results().iter().map(|r| match x.body.value_type(*r).shape()? {
        [n] if *n >= 0 => Some(*n as usize),
        _ => None,
    }).collect::<Option<_>>()?;
    if operand_shape(x, 0)?.len() != 1 || lens.iter().sum::<usize>() != data.len() {
        return None;
    }
    let mut at = 0;
    lens.iter()
        .map(|&n| {
            let part = &data[at..at + n];
            at += n;
            i64_tensor(x, part, vec![n as i64]).map(|mut v| v.remove(0))
        })
        .collect()
}

/// ConstantOfShape with a constant shape: a splat of its value (splats are stored once).
pub fn constant_of_shape(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let ty = result_type(x);
    if ty.shape().is_none_or(|s| s.contains(&DYNAMIC)) {
        return None;
    }
    let n = ty.num_elements()?;
    let d = x.body.op(x.op);
    // The value is a one-element tensor, so its bytes are exactly one element.
    let one: std::sync::Arc<[u8]> = match d.properties.get("value").map(|a| a.data()) {
        Some(AttrData::Dense { data, ty: vty }) if vty.scalar() == ty.scalar() && vty.num_elements() == Some(1) => data.bytes.clone(),
        None if ty.scalar() == &x.ctx.f32() => std::sync::Arc::from(&0f32.to_le_bytes()[..]),
        _ => return None,
    };
    let data = if n == 0 { DenseData { bytes: std::sync::Arc::from(&[][..]), splat: false } } else { DenseData { bytes: one, splat: true } };
    Some(vec![FoldResult::Attr(Attribute::new(AttrData::Dense { ty, data }))])
}

/// Range with constant bounds: integers exactly; floats as the CPU lowering
/// computes them (start + i·delta, each operation rounded to the type), to a
/// static result length.
pub fn range(x: &FoldInput) -> Option<Vec<FoldResult>> {
    if result_type(x).scalar().float_kind().is_some() {
        let n = result_type(x).shape().filter(|s| s.len() == 1 && s[0] >= 0)?[0] as usize;
        let (s, d) = (*operand_f64s(x, 0)?.first()?, *operand_f64s(x, 2)?.first()?);
        if n > MAX_FOLD {
            return None;
        }
        let vals: Vec<f64> = if result_type(x).scalar() == &x.ctx.f32() {
            (0..n).map(|i| (s as f32 + i as f32 * d as f32) as f64).collect()
        } else if result_type(x).scalar() == &x.ctx.f64() {
            (0..n).map(|i| s + i as f64 * d).collect()
        } else {
            return None;
        };
        return typed_tensor(x, &vals, vec![n as i64]);
    }
    let (s, l, d) = (*operand_ints(x, 0)?.first()?, *operand_ints(x, 1)?.first()?, *operand_ints(x, 2)?.first()?);
    if d == 0 {
        return None;
    }
    let n = ((l - s) as f64 / d as f64).ceil().max(0.0) as usize;
    if n > MAX_FOLD {
        return None;
    }
    let vals: Vec<i64> = (0..n as i64).map(|i| s + i * d).collect();
    i64_tensor(x, &vals, vec![n as i64])
}

/// The folder of an onnx op, if it has one.
pub fn folder(name: &str) -> Option<ir::dialect::FoldFn> {
    Some(match name {
        "Identity" => identity,
        "Shape" => shape,
        "Gather" => gather,
        "Unsqueeze" | "Squeeze" | "Reshape" | "Flatten" => reshape_like,
        "Concat" => concat,
        "Cast" | "CastLike" => cast,
        "Split" => split,
        "Add" | "Sub" | "Mul" | "Div" | "Max" | "Min" | "Mod" => arith,
        "Equal" | "Less" | "Greater" | "LessOrEqual" | "GreaterOrEqual" => compare,
        "And" | "Or" | "Xor" | "Not" => logic,
        "Where" => where_,
        "Size" => size,
        "Neg" | "Abs" => unary_int,
        "Ceil" | "Floor" | "Relu" | "Round" => scalar_unary,
        "Slice" => slice,
        "Transpose" => transpose,
        "ConstantOfShape" => constant_of_shape,
        "Expand" => expand,
        "Range" => range,
        _ => return None,
    })
}

/// `onnx.Constant` holding `value`: the dialect's constant materializer.
pub fn materialize(ctx: &ir::Context, body: &mut ir::Body, value: &Attribute, ty: &Type, loc: ir::Location) -> Option<ir::OpId> {
    if value.typ() != Some(ty) {
        return None;
    }
    let st = ir::OperationState::new(ctx.op_name(ops::Constant::NAME), loc).property(ctx.ident("value"), value.clone()).results(&[ty.clone()]);
    Some(body.create_op(st))
}
