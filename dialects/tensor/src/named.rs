//! Named structured ops: the common computations under their linalg names,
//! each one row of a table that says how its operands are checked and how it
//! becomes a `tensor.generic` (`tensor-generalize`): its indexing maps,
//! iterator types, loop sizes and scalar body. Destination-passing: the last
//! operand is the init tensor (or buffer) the op writes or accumulates into.

use crate::ops;
use crate::generic::Iterator;
use ir::affine::{AffineExpr, AffineMap};
use ir::dialect::{optional, required, AttrKind, AttrSpec, Count, OpDef, Trait};
use ir::{Body, Context, OpId, Value};

/// The scalar body of a generalized named op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedBody {
    /// `yield in0` (copies, transposes, broadcasts, slices).
    Copy,
    /// `yield value` for a scalar operand captured from outside (fill).
    Fill,
    /// `yield acc + in0 * in1` (contractions, convolutions).
    MulAdd,
    /// `yield combine(acc, in0)` (reductions, pooling).
    Combine(Combine),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    Add,
    Mul,
    Max,
    Min,
}

impl Combine {
    pub fn parse(s: &str) -> Option<Combine> {
        Some(match s {
            "add" => Combine::Add,
            "mul" => Combine::Mul,
            "max" => Combine::Max,
            "min" => Combine::Min,
            _ => return None,
        })
    }
}

/// A named op as the generic it stands for.
pub struct Generalized {
    /// Tensor inputs (the fill value is not one: it stays a captured scalar).
    pub ins: Vec<Value>,
    pub init: Value,
    pub maps: Vec<AffineMap>,
    pub iters: Vec<Iterator>,
    pub ranges: Vec<i64>,
    pub body: NamedBody,
    /// Fill's scalar.
    pub value: Option<Value>,
}

fn shape(body: &Body, v: Value) -> Result<Vec<i64>, String> {
    let t = body.value_type(v);
    let s = t.shape().ok_or_else(|| format!("expects ranked tensor or memref operands, got {}", t))?;
    if s.contains(&ir::types::DYNAMIC) {
        return Err(format!("expects static shapes, got {}", t));
    }
    Ok(s.to_vec())
}

fn d(i: usize) -> AffineExpr {
    AffineExpr::Dim(i as u32)
}
fn add(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    match (&a, &b) {
        (_, AffineExpr::Const(0)) => a,
        (AffineExpr::Const(0), _) => b,
        _ => AffineExpr::Add(Box::new(a), Box::new(b)),
    }
}
fn mul(a: AffineExpr, k: i64) -> AffineExpr {
    if k == 1 {
        a
    } else {
        AffineExpr::Mul(Box::new(a), Box::new(AffineExpr::Const(k)))
    }
}
fn map(n: usize, r: Vec<AffineExpr>) -> AffineMap {
    AffineMap { num_dims: n as u32, num_syms: 0, results: r }
}
fn ident(n: usize) -> AffineMap {
    AffineMap::identity(n as u32)
}

fn elem_eq(body: &Body, a: Value, b: Value) -> Result<(), String> {
    if body.value_type(a).element_type() != body.value_type(b).element_type() {
        return Err("expects operands of one element type".into());
    }
    Ok(())
}

fn expect(cond: bool, msg: impl Into<String>) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(msg.into())
    }
}

/// Generalizes (and so checks) any named op; the verifier calls it too.
pub fn generalize(body: &Body, op: OpId) -> Result<Generalized, String> {
    let dd = body.op(op);
    let o = dd.operands().to_vec();
    let name = dd.name.as_str();
    let init = *o.last().ok_or("expects operands")?;
    let out = shape(body, init)?;
    let r = out.len();
    let g = |ins: Vec<Value>, maps: Vec<AffineMap>, iters: Vec<Iterator>, ranges: Vec<i64>, b: NamedBody| Generalized { ins, init, maps, iters, ranges, body: b, value: None };
    match name {
        ops::FILL => {
            expect(Some(body.value_type(o[0])) == body.value_type(init).element_type(), "expects the value to have the init's element type")?;
            Ok(Generalized { ins: vec![], init, maps: vec![ident(r)], iters: vec![Iterator::Parallel; r], ranges: out, body: NamedBody::Fill, value: Some(o[0]) })
        }
        ops::TRANSPOSE => {
            let perm = body.op(op).ints_attr("permutation").ok_or("expects a permutation")?;
            let inp = shape(body, o[0])?;
            let mut sorted = perm.clone();
            sorted.sort();
            expect(sorted == (0..r as i64).collect::<Vec<_>>() && inp.len() == r, "expects a permutation of the init's dims")?;
            // out[i] = in[j] where out dim i is input dim perm[i].
            expect((0..r).all(|i| out[i] == inp[perm[i] as usize]), "expects the init's shape to be the input's, permuted")?;
            elem_eq(body, o[0], init)?;
            let mut res = vec![AffineExpr::Const(0); r];
            for (i, &p) in perm.iter().enumerate() {
                res[p as usize] = d(i);
            }
            Ok(g(vec![o[0]], vec![map(r, res), ident(r)], vec![Iterator::Parallel; r], out, NamedBody::Copy))
        }
        ops::BROADCAST => {
            let dims = body.op(op).ints_attr("dimensions").ok_or("expects dimensions")?;
            let inp = shape(body, o[0])?;
            expect(inp.len() + dims.len() == r && dims.iter().all(|&x| (0..r as i64).contains(&x)), "expects the added dimensions to complete the input's rank to the init's")?;
            let kept: Vec<usize> = (0..r).filter(|i| !dims.contains(&(*i as i64))).collect();
            expect(kept.iter().zip(&inp).all(|(&k, &s)| out[k] == s), "expects the input's dims to match the init's kept dims")?;
            elem_eq(body, o[0], init)?;
            Ok(g(vec![o[0]], vec![map(r, kept.iter().map(|&k| d(k)).collect()), ident(r)], vec![Iterator::Parallel; r], out, NamedBody::Copy))
        }
        ops::MATMUL | ops::BATCH_MATMUL => {
            let (a, b) = (shape(body, o[0])?, shape(body, o[1])?);
            let batched = name == ops::BATCH_MATMUL;
            let nb = if batched { 1 } else { 0 };
            expect(a.len() == 2 + nb && b.len() == 2 + nb && r == 2 + nb, format!("expects rank-{} operands", 2 + nb))?;
            expect(a[nb + 1] == b[nb] && out[nb] == a[nb] && out[nb + 1] == b[nb + 1] && (!batched || (a[0] == b[0] && a[0] == out[0])), "expects [.., M, K] x [.., K, N] into [.., M, N]")?;
            // Loops: (batch), m, n, k.
            let n = 3 + nb;
            let bd: Vec<AffineExpr> = (0..nb).map(d).collect();
            let with = |v: Vec<AffineExpr>| map(n, bd.iter().cloned().chain(v).collect());
            let mut iters = vec![Iterator::Parallel; 2 + nb];
            iters.push(Iterator::Reduction);
            let mut ranges = out.clone();
            ranges.push(a[nb + 1]);
            Ok(g(vec![o[0], o[1]], vec![with(vec![d(nb), d(nb + 2)]), with(vec![d(nb + 2), d(nb + 1)]), with(vec![d(nb), d(nb + 1)])], iters, ranges, NamedBody::MulAdd))
        }
        ops::CONV_2D_NCHW_FCHW | ops::CONV_2D_NHWC_HWCF | ops::DEPTHWISE_CONV_2D_NCHW_CHW => {
            let (x, w) = (shape(body, o[0])?, shape(body, o[1])?);
            let st = body.op(op).ints_attr("strides").unwrap_or_else(|| vec![1, 1]);
            let dl = body.op(op).ints_attr("dilations").unwrap_or_else(|| vec![1, 1]);
            expect(st.len() == 2 && dl.len() == 2 && st.iter().chain(&dl).all(|&v| v > 0), "expects two positive strides and dilations")?;
            let nhwc = name == ops::CONV_2D_NHWC_HWCF;
            let depthwise = name == ops::DEPTHWISE_CONV_2D_NCHW_CHW;
            expect(x.len() == 4 && r == 4 && w.len() == if depthwise { 3 } else { 4 }, "expects a rank-4 input and init")?;
            // Normalized: (n, c, h, w) input, (f, c, kh, kw) filter, (n, f, oh, ow) output.
            let (c, h, wd) = if nhwc { (x[3], x[1], x[2]) } else { (x[1], x[2], x[3]) };
            let (f, kc, kh, kw) = if nhwc { (w[3], w[2], w[0], w[1]) } else if depthwise { (w[0], 1, w[1], w[2]) } else { (w[0], w[1], w[2], w[3]) };
            let (of, oh, ow) = if nhwc { (out[3], out[1], out[2]) } else { (out[1], out[2], out[3]) };
            expect(depthwise && f == c || !depthwise && kc == c, "expects the filter's channels to match the input's")?;
            expect(of == f && out[0] == x[0], "expects the init to have the batch and filter count")?;
            expect((oh - 1) * st[0] + (kh - 1) * dl[0] < h && (ow - 1) * st[1] + (kw - 1) * dl[1] < wd, "expects the (padded) input to cover every window")?;
            // Loops: n, f, oh, ow | c (1 for depthwise), kh, kw.
            let (ih, iw) = (add(mul(d(2), st[0]), mul(d(5), dl[0])), add(mul(d(3), st[1]), mul(d(6), dl[1])));
            let chan = if depthwise { d(1) } else { d(4) };
            let (xm, wm, om) = if nhwc {
                (vec![d(0), ih, iw, chan], vec![d(5), d(6), d(4), d(1)], vec![d(0), d(2), d(3), d(1)])
            } else if depthwise {
                (vec![d(0), chan, ih, iw], vec![d(1), d(5), d(6)], vec![d(0), d(1), d(2), d(3)])
            } else {
                (vec![d(0), chan, ih, iw], vec![d(1), d(4), d(5), d(6)], vec![d(0), d(1), d(2), d(3)])
            };
            let mut iters = vec![Iterator::Parallel; 4];
            iters.extend([Iterator::Reduction; 3]);
            let ranges = vec![out[0], f, oh, ow, if depthwise { 1 } else { c }, kh, kw];
            Ok(g(vec![o[0], o[1]], vec![map(7, xm), map(7, wm), map(7, om)], iters, ranges, NamedBody::MulAdd))
        }
        ops::POOLING_NCHW_MAX | ops::POOLING_NCHW_SUM => {
            let x = shape(body, o[0])?;
            let k = body.op(op).ints_attr("kernel").ok_or("expects a kernel")?;
            let st = body.op(op).ints_attr("strides").unwrap_or_else(|| vec![1; k.len()]);
            let dl = body.op(op).ints_attr("dilations").unwrap_or_else(|| vec![1; k.len()]);
            let s = k.len();
            expect(x.len() == 2 + s && r == 2 + s && st.len() == s && dl.len() == s, "expects kernel, strides and dilations for each spatial dim")?;
            expect(x[0] == out[0] && x[1] == out[1], "expects the init to keep batch and channels")?;
            expect((0..s).all(|i| (out[2 + i] - 1) * st[i] + (k[i] - 1) * dl[i] < x[2 + i]), "expects the (padded) input to cover every window")?;
            let mut xm = vec![d(0), d(1)];
            for i in 0..s {
                xm.push(add(mul(d(2 + i), st[i]), mul(d(2 + s + i), dl[i])));
            }
            let mut iters = vec![Iterator::Parallel; 2 + s];
            iters.extend(vec![Iterator::Reduction; s]);
            let mut ranges = out.clone();
            ranges.extend(&k);
            let comb = if name.ends_with("max") { Combine::Max } else { Combine::Add };
            Ok(g(vec![o[0]], vec![map(2 + 2 * s, xm), map(2 + 2 * s, (0..2 + s).map(d).collect())], iters, ranges, NamedBody::Combine(comb)))
        }
        ops::REDUCE => {
            let x = shape(body, o[0])?;
            let dims = body.op(op).ints_attr("dimensions").ok_or("expects dimensions")?;
            let kind = body.op(op).str_attr("kind").and_then(Combine::parse).ok_or("expects kind = \"add\", \"mul\", \"max\" or \"min\"")?;
            let n = x.len();
            expect(dims.iter().all(|&v| (0..n as i64).contains(&v)) && n == r + dims.len(), "expects the init to be the input without the reduced dims")?;
            let kept: Vec<usize> = (0..n).filter(|i| !dims.contains(&(*i as i64))).collect();
            expect(kept.iter().zip(&out).all(|(&k, &s)| x[k] == s), "expects the init's dims to be the input's kept dims")?;
            let iters = (0..n).map(|i| if dims.contains(&(i as i64)) { Iterator::Reduction } else { Iterator::Parallel }).collect();
            Ok(g(vec![o[0]], vec![ident(n), map(n, kept.iter().map(|&k| d(k)).collect())], iters, x, NamedBody::Combine(kind)))
        }
        ops::EXTRACT_SLICE | ops::INSERT_SLICE => {
            let src = shape(body, o[0])?;
            let offs = body.op(op).ints_attr("static_offsets").ok_or("expects static_offsets")?;
            let strides = body.op(op).ints_attr("static_strides").unwrap_or_else(|| vec![1; offs.len()]);
            let (small, large) = if name == ops::EXTRACT_SLICE { (out.clone(), src.clone()) } else { (src.clone(), out.clone()) };
            let n = small.len();
            expect(offs.len() == n && strides.len() == n && large.len() == n, "expects one offset and stride per dim")?;
            expect((0..n).all(|i| offs[i] >= 0 && strides[i] > 0 && (small[i] == 0 || offs[i] + (small[i] - 1) * strides[i] < large[i])), "expects the slice inside the larger tensor")?;
            elem_eq(body, o[0], init)?;
            let sliced = map(n, (0..n).map(|i| add(mul(d(i), strides[i]), AffineExpr::Const(offs[i]))).collect());
            if name == ops::EXTRACT_SLICE {
                Ok(g(vec![o[0]], vec![sliced, ident(n)], vec![Iterator::Parallel; n], small, NamedBody::Copy))
            } else {
                expect(strides.iter().all(|&s| s == 1), "expects unit strides when inserting")?;
                Ok(g(vec![o[0]], vec![ident(n), sliced], vec![Iterator::Parallel; n], small, NamedBody::Copy))
            }
        }
        other => Err(format!("'{}' is not a named structured op", other)),
    }
}

/// The names of the named structured ops.
pub const NAMES: &[&str] = &[ops::FILL, ops::TRANSPOSE, ops::BROADCAST, ops::MATMUL, ops::BATCH_MATMUL, ops::CONV_2D_NCHW_FCHW, ops::CONV_2D_NHWC_HWCF, ops::DEPTHWISE_CONV_2D_NCHW_CHW, ops::POOLING_NCHW_MAX, ops::POOLING_NCHW_SUM, ops::REDUCE, ops::EXTRACT_SLICE, ops::INSERT_SLICE];

fn verify(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    generalize(body, op).map(|_| ())
}

/// `tensor.pad(%src, %value) {low, high}`: the result is `src` surrounded by
/// `value`. Not one generic: `tensor-generalize` writes it as a fill and an
/// insert of the source.
pub fn pad_parts(body: &Body, op: OpId) -> Result<(Vec<i64>, Vec<i64>), String> {
    let d = body.op(op);
    let (src, res) = (shape(body, d.operand(0))?, shape(body, d.result(0))?);
    let low = body.op(op).ints_attr("low").ok_or("expects low padding")?;
    let high = body.op(op).ints_attr("high").ok_or("expects high padding")?;
    expect(low.len() == src.len() && high.len() == src.len() && res.len() == src.len(), "expects low and high padding for every dim")?;
    expect(low.iter().chain(&high).all(|&p| p >= 0), "expects non-negative padding")?;
    expect((0..src.len()).all(|i| res[i] == src[i] + low[i] + high[i]), "expects the result to be the source's shape plus the padding")?;
    expect(Some(body.value_type(d.operand(1))) == body.value_type(d.result(0)).element_type(), "expects the padding value to have the element type")?;
    Ok((low, high))
}

fn verify_pad(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    pad_parts(body, op).map(|_| ())
}

/// `tensor.concat(%a, %b, ...) {dim}`: the operands joined along `dim`
/// (written as inserts into one destination by `tensor-generalize`).
pub fn concat_dim(body: &Body, op: OpId) -> Result<usize, String> {
    let d = body.op(op);
    let res = shape(body, d.result(0))?;
    let dim = body.op(op).attr("dim").and_then(|a| a.as_int()).ok_or("expects a dim")? as usize;
    expect(dim < res.len(), "expects dim to be a dim of the result")?;
    let mut total = 0;
    for &v in d.operands() {
        let s = shape(body, v)?;
        expect(s.len() == res.len() && (0..res.len()).all(|i| i == dim || s[i] == res[i]), "expects operands equal to the result except along dim")?;
        expect(body.value_type(v).element_type() == body.value_type(d.result(0)).element_type(), "expects operands of the result's element type")?;
        total += s[dim];
    }
    expect(total == res[dim], "expects the operands' sizes along dim to add up to the result's")?;
    Ok(dim)
}

fn verify_concat(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    concat_dim(body, op).map(|_| ())
}

pub const PAD: OpDef = OpDef {
    name: ops::PAD,
    summary: "The source surrounded by a scalar: `low`/`high` elements before/after along each dim.",
    operands: Count::Exactly(2),
    results: Count::Exactly(1),
    traits: &[Trait::Pure],
    properties: &[required("low", AttrKind::Any), required("high", AttrKind::Any)],
    verify: Some(verify_pad),
    ..OpDef::DEFAULT
};

pub const CONCAT: OpDef = OpDef {
    name: ops::CONCAT,
    summary: "The operands joined along `dim`.",
    operands: Count::AtLeast(1),
    results: Count::Exactly(1),
    traits: &[Trait::Pure],
    properties: &[required("dim", AttrKind::Integer)],
    verify: Some(verify_concat),
    ..OpDef::DEFAULT
};

const fn named(name: &'static str, summary: &'static str, operands: usize, properties: &'static [AttrSpec]) -> OpDef {
    OpDef { name, summary, operands: Count::Exactly(operands), results: Count::Any, traits: &[Trait::Pure], properties, verify: Some(verify), ..OpDef::DEFAULT }
}

const CONV: &[AttrSpec] = &[optional("strides", AttrKind::Any), optional("dilations", AttrKind::Any)];
const POOL: &[AttrSpec] = &[required("kernel", AttrKind::Any), optional("strides", AttrKind::Any), optional("dilations", AttrKind::Any)];
const SLICE: &[AttrSpec] = &[required("static_offsets", AttrKind::Any), optional("static_strides", AttrKind::Any)];

pub const FILL: OpDef = named(ops::FILL, "Sets every element of the init to a scalar.", 2, &[]);
pub const TRANSPOSE: OpDef = named(ops::TRANSPOSE, "Permutes dims: init dim i is input dim permutation[i].", 2, &[required("permutation", AttrKind::Any)]);
pub const BROADCAST: OpDef = named(ops::BROADCAST, "Repeats the input along the added `dimensions` of the init.", 2, &[required("dimensions", AttrKind::Any)]);
pub const MATMUL: OpDef = named(ops::MATMUL, "C[m, n] += A[m, k] · B[k, n].", 3, &[]);
pub const BATCH_MATMUL: OpDef = named(ops::BATCH_MATMUL, "C[b, m, n] += A[b, m, k] · B[b, k, n].", 3, &[]);
pub const CONV_2D_NCHW_FCHW: OpDef = named(ops::CONV_2D_NCHW_FCHW, "2-D convolution of an (already padded) NCHW input with FCHW filters, accumulated into the init.", 3, CONV);
pub const CONV_2D_NHWC_HWCF: OpDef = named(ops::CONV_2D_NHWC_HWCF, "2-D convolution of an (already padded) NHWC input with HWCF filters, accumulated into the init.", 3, CONV);
pub const DEPTHWISE_CONV_2D_NCHW_CHW: OpDef = named(ops::DEPTHWISE_CONV_2D_NCHW_CHW, "Depthwise 2-D convolution: one CHW filter per channel.", 3, CONV);
pub const POOLING_NCHW_MAX: OpDef = named(ops::POOLING_NCHW_MAX, "Max over each window of an (already padded) NCHW input, into the init.", 2, POOL);
pub const POOLING_NCHW_SUM: OpDef = named(ops::POOLING_NCHW_SUM, "Sum over each window of an (already padded) NCHW input, into the init.", 2, POOL);
pub const REDUCE: OpDef = named(ops::REDUCE, "Combines the input along `dimensions` (kind add, mul, max, min) into the init.", 2, &[required("dimensions", AttrKind::Any), required("kind", AttrKind::String)]);
pub const EXTRACT_SLICE: OpDef = named(ops::EXTRACT_SLICE, "A strided window of the input, copied into the init.", 2, SLICE);
pub const INSERT_SLICE: OpDef = named(ops::INSERT_SLICE, "The init with a window replaced by the input (unit strides).", 2, SLICE);
