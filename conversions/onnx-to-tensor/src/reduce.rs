//! Reductions: one `tensor.generic` with reduction loops over the reduced
//! axes, accumulating into an output initialized to the identity; a final
//! elementwise step where the op needs one (mean, L2, log-sum).

use onnx::ops;
use super::{axis, broadcast_map, c, d, expr_map, Cmp, Emit, Lower, LowerFn, Sc};
use ir::affine::AffineMap;
use ir::Value;
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[
    (ops::ReduceSum::NAME, reduce_op),
    (ops::ReduceMean::NAME, reduce_op),
    (ops::ReduceMax::NAME, reduce_op),
    (ops::ReduceMin::NAME, reduce_op),
    (ops::ReduceProd::NAME, reduce_op),
    (ops::ReduceL1::NAME, reduce_op),
    (ops::ReduceL2::NAME, reduce_op),
    (ops::ReduceLogSum::NAME, reduce_op),
    (ops::ReduceLogSumExp::NAME, reduce_op),
    (ops::ReduceSumSquare::NAME, reduce_op),
    (ops::ArgMax::NAME, arg_reduce),
    (ops::ArgMin::NAME, arg_reduce),
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Combine {
    Add,
    Mul,
    Max,
    Min,
}

/// The reduced-output map: loops of the input, reduced dims read as 0 (keepdims) or dropped.
pub fn out_map(rank: usize, axes: &[usize], keep: bool) -> AffineMap {
    let res = (0..rank).filter_map(|i| if axes.contains(&i) { keep.then(|| c(0)) } else { Some(d(i)) }).collect();
    expr_map(rank, res)
}

pub fn reduced_shape(shape: &[i64], axes: &[usize], keep: bool) -> Vec<i64> {
    (0..shape.len()).filter_map(|i| if axes.contains(&i) { keep.then_some(1) } else { Some(shape[i]) }).collect()
}

pub fn identity(comb: Combine, sc: &Sc) -> f64 {
    match comb {
        Combine::Add => 0.0,
        Combine::Mul => 1.0,
        Combine::Max => {
            if sc.is_float() {
                f64::NEG_INFINITY
            } else if sc.kind == super::Kind::Unsigned || sc.kind == super::Kind::Bool {
                0.0
            } else {
                -(2f64.powi(sc.width() as i32 - 1))
            }
        }
        Combine::Min => {
            if sc.is_float() {
                f64::INFINITY
            } else if sc.kind == super::Kind::Unsigned || sc.kind == super::Kind::Bool {
                2f64.powi(sc.width() as i32) - 1.0
            } else {
                2f64.powi(sc.width() as i32 - 1) - 1.0
            }
        }
    }
}

pub fn combine(e: &mut Emit, comb: Combine, acc: Value, x: Value, sc: &Sc) -> Value {
    match comb {
        Combine::Add => e.add(acc, x, sc),
        Combine::Mul => e.mul(acc, x, sc),
        Combine::Max => e.max(acc, x, sc),
        Combine::Min => e.min(acc, x, sc),
    }
}

/// Partial results a reduction to one value keeps side by side: a vector.
const LANES_OF_PARTIALS: i64 = 16;

/// Reduces `x` over `axes` (keeping them as size-1 dims when `keep`), applying
/// `pre` to each element first.
pub fn reduce(l: &mut Lower, x: Value, axes: &[usize], keep: bool, comb: Combine, sc: &Sc, pre: impl Fn(&mut Emit, Value) -> Value) -> Value {
    let shape = l.body.value_type(x).shape().unwrap().to_vec();
    let r = shape.len();
    let n: i64 = shape.iter().product();
    if axes.len() == r && r > 0 && n % LANES_OF_PARTIALS == 0 && n >= 16 * LANES_OF_PARTIALS {
        // To one value: first 16 partial results side by side (one vector
        // accumulator, not one scalar chain whose every step waits for the
        // last: DynamicQuantizeLinear's min and max took 5 ns an element),
        // then those 16.
        let x2 = super::shape::reshape(l, x, &[n / LANES_OF_PARTIALS, LANES_OF_PARTIALS]);
        let partial = reduce_once(l, x2, &[0], false, comb, sc, &pre);
        let one = reduce_once(l, partial, &[0], false, comb, sc, &|_, v| v);
        return super::shape::reshape(l, one, &reduced_shape(&shape, axes, keep));
    }
    reduce_once(l, x, axes, keep, comb, sc, &pre)
}

fn reduce_once(l: &mut Lower, x: Value, axes: &[usize], keep: bool, comb: Combine, sc: &Sc, pre: &dyn Fn(&mut Emit, Value) -> Value) -> Value {
    let shape = l.body.value_type(x).shape().unwrap().to_vec();
    let r = shape.len();
    let oshape = reduced_shape(&shape, axes, keep);
    let init_v = identity(comb, sc);
    let init = l.fill(&oshape, sc, init_v);
    let iters: Vec<Iterator> = (0..r).map(|i| if axes.contains(&i) { Iterator::Reduction } else { Iterator::Parallel }).collect();
    let sc2 = sc.clone();
    l.generic(&[x], &[init], vec![AffineMap::identity(r as u32), out_map(r, axes, keep)], &iters, move |e, a| {
        let v = pre(e, a[0]);
        vec![combine(e, comb, a[1], v, &sc2)]
    })[0]
}

/// The axes of a Reduce op: from the `axes` input (or attribute, normalized to
/// an input by the importer); none means all unless `noop_with_empty_axes`.
fn reduce_axes(l: &Lower, rank: usize) -> Result<Option<Vec<usize>>, String> {
    let given = l.const_ints(1)?.or_else(|| l.ints_attr("axes"));
    match given {
        Some(a) if !a.is_empty() => {
            let mut v: Vec<usize> = a.iter().map(|&x| axis(x, rank)).collect::<Result<_, _>>()?;
            v.sort();
            v.dedup();
            Ok(Some(v))
        }
        _ => {
            if l.int_attr("noop_with_empty_axes", 0) != 0 {
                Ok(None)
            } else {
                Ok(Some((0..rank).collect()))
            }
        }
    }
}

fn reduce_op(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let x = l.operand(0)?;
    let name = l.name();
    let keep = l.int_attr("keepdims", 1) != 0;
    let sc = xi.sc.clone();
    let Some(axes) = reduce_axes(l, xi.rank())? else {
        // No axes and noop_with_empty_axes: the input itself (through the elementwise forms).
        let m = broadcast_map(&xi.shape, &out.shape);
        let s2 = sc.clone();
        let v = l.map_op(&out.shape, &sc.ty.clone(), &[x], vec![m], move |e, a| match name {
            ops::ReduceL1::NAME => {
                let z = e.scalar(0.0, &s2);
                let n = e.sub(z, a[0], &s2);
                e.max(a[0], n, &s2)
            }
            ops::ReduceSumSquare::NAME => e.mul(a[0], a[0], &s2),
            _ => a[0],
        });
        return Ok(vec![v]);
    };
    if xi.shape.iter().enumerate().any(|(i, &n)| n == 0 && axes.contains(&i)) && matches!(name, ops::ReduceMax::NAME | ops::ReduceMin::NAME) {
        // Reducing nothing: ONNX gives the identity (-inf / +inf), which fill does.
    }
    let count: i64 = axes.iter().map(|&a| xi.shape[a]).product();
    let s = sc.clone();
    let v = match name {
        ops::ReduceSum::NAME | ops::ReduceMean::NAME | ops::ReduceLogSum::NAME => reduce(l, x, &axes, keep, Combine::Add, &sc, |_, v| v),
        ops::ReduceMax::NAME => reduce(l, x, &axes, keep, Combine::Max, &sc, |_, v| v),
        ops::ReduceMin::NAME => reduce(l, x, &axes, keep, Combine::Min, &sc, |_, v| v),
        ops::ReduceProd::NAME => reduce(l, x, &axes, keep, Combine::Mul, &sc, |_, v| v),
        ops::ReduceL1::NAME => reduce(l, x, &axes, keep, Combine::Add, &sc, move |e, v| {
            let z = e.scalar(0.0, &s);
            let n = e.sub(z, v, &s);
            e.max(v, n, &s)
        }),
        ops::ReduceL2::NAME | ops::ReduceSumSquare::NAME => reduce(l, x, &axes, keep, Combine::Add, &sc, move |e, v| e.mul(v, v, &s)),
        ops::ReduceLogSumExp::NAME => {
            // log(sum(exp(x - max))) + max, stable for large inputs.
            if !sc.is_float() {
                return Err("ReduceLogSumExp needs a float input".into());
            }
            let mx = reduce(l, x, &axes, true, Combine::Max, &sc, |_, v| v);
            let s3 = sc.clone();
            let m = out_map(xi.rank(), &axes, true);
            let init = l.fill(&reduced_shape(&xi.shape, &axes, keep), &sc, 0.0);
            let iters: Vec<Iterator> = (0..xi.rank()).map(|i| if axes.contains(&i) { Iterator::Reduction } else { Iterator::Parallel }).collect();
            let sum = l.generic(&[x, mx], &[init], vec![AffineMap::identity(xi.rank() as u32), m.clone(), out_map(xi.rank(), &axes, keep)], &iters, move |e, a| {
                let dlt = e.sub(a[0], a[1], &s3);
                let ex = e.op(math::ops::EXP, &[dlt], &s3.ty);
                vec![e.add(a[2], ex, &s3)]
            })[0];
            let mx_k = super::shape::reshape(l, mx, &reduced_shape(&xi.shape, &axes, keep));
            let s4 = sc.clone();
            let oshape = out.shape.clone();
            let ident = AffineMap::identity(oshape.len() as u32);
            let r = l.map_op(&oshape, &sc.ty.clone(), &[sum, mx_k], vec![ident.clone(), ident], move |e, a| {
                let lg = e.op(math::ops::LOG, &[a[0]], &s4.ty);
                // An all -inf slice has max -inf: keep it (log(sum) would be NaN).
                let ninf = e.float(f64::NEG_INFINITY, &s4.ty);
                let isinf = e.cmp(Cmp::Eq, a[1], ninf, &s4);
                let v = e.add(lg, a[1], &s4);
                e.select(isinf, a[1], v)
            });
            return Ok(vec![r]);
        }
        _ => unreachable!(),
    };
    let post = match name {
        ops::ReduceMean::NAME => Some("mean"),
        ops::ReduceL2::NAME => Some("sqrt"),
        ops::ReduceLogSum::NAME => Some("log"),
        _ => None,
    };
    let Some(post) = post else { return Ok(vec![v]) };
    let s = sc.clone();
    let oshape = out.shape.clone();
    let r = l.map_op(&oshape, &sc.ty.clone(), &[v], vec![AffineMap::identity(oshape.len() as u32)], move |e, a| match post {
        "mean" => {
            let n = e.scalar(count as f64, &s);
            e.div(a[0], n, &s)
        }
        "sqrt" => {
            if s.is_float() {
                e.op(math::ops::SQRT, &[a[0]], &s.ty)
            } else {
                let f = Sc { ty: e.ctx.f64(), kind: super::Kind::Float };
                let x = e.cast(a[0], &s, &f);
                let r = e.op(math::ops::SQRT, &[x], &f.ty);
                e.cast(r, &f, &s)
            }
        }
        _ => e.op(math::ops::LOG, &[a[0]], &s.ty),
    });
    Ok(vec![r])
}

/// ArgMax/ArgMin: a reduction with two outputs, the best value and its index.
fn arg_reduce(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let out = l.out_info(0)?;
    let x = l.operand(0)?;
    let ax = axis(l.int_attr("axis", 0), xi.rank())?;
    let keep = l.int_attr("keepdims", 1) != 0;
    let last = l.int_attr("select_last_index", 0) != 0;
    let is_max = l.name() == ops::ArgMax::NAME;
    let sc = xi.sc.clone();
    let oshape = reduced_shape(&xi.shape, &[ax], keep);
    let best_init = l.fill(&oshape, &sc, identity(if is_max { Combine::Max } else { Combine::Min }, &sc));
    let isc = out.sc.clone();
    let idx_init = l.fill(&oshape, &isc, -1.0);
    let r = xi.rank();
    let iters: Vec<Iterator> = (0..r).map(|i| if i == ax { Iterator::Reduction } else { Iterator::Parallel }).collect();
    let om = out_map(r, &[ax], keep);
    let res = l.generic(&[x], &[best_init, idx_init], vec![AffineMap::identity(r as u32), om.clone(), om], &iters, move |e, a| {
        let k = e.op_with(tensor::ops::INDEX, &[], &e.ctx.index(), &[("dim", ir::Attribute::integer(ax as i128, e.ctx.i64()))]);
        let k = e.index_cast(k, &isc.ty, false);
        let cmp = match (is_max, last) {
            (true, false) => Cmp::Gt,
            (true, true) => Cmp::Ge,
            (false, false) => Cmp::Lt,
            (false, true) => Cmp::Le,
        };
        let better = e.cmp(cmp, a[0], a[1], &sc);
        // The first element always wins (the identity may equal it).
        let m1 = e.int(-1, &isc.ty);
        let first = e.cmp(Cmp::Eq, a[2], m1, &isc);
        let take = e.op(arith::ops::ORI, &[better, first], &e.ctx.i1());
        let v = e.select(take, a[0], a[1]);
        let i = e.select(take, k, a[2]);
        vec![v, i]
    });
    Ok(vec![res[1]])
}
