//! Losses: NegativeLogLikelihoodLoss, and SoftmaxCrossEntropyLoss as
//! log-softmax over the class axis followed by the same NLL. The per-element
//! loss reads the input at the target class (`tensor.extract`); `mean` divides
//! by the summed weights of the targets that are not `ignore_index`.

use onnx::ops;
use super::norms::softmax_along;
use super::reduce::{reduce, Combine};
use super::{expr_map, Cmp, Kind, Lower, LowerFn, Sc};
use ir::affine::AffineMap;
use ir::Value;

pub const TABLE: &[(&str, LowerFn)] = &[(ops::NegativeLogLikelihoodLoss::NAME, nll), (ops::SoftmaxCrossEntropyLoss::NAME, sce)];

/// (loss per target position, weight per target position), both shaped like the target.
fn per_element(l: &mut Lower, logp: Value, target: Value, weight: Option<Value>, ignore: Option<i64>) -> Result<(Value, Value), String> {
    let lt = l.body.value_type(logp).clone();
    let lshape = lt.shape().unwrap().to_vec();
    let sc = Sc::of(l.ctx, lt.element_type().unwrap()).unwrap();
    let ti = l.info(target)?;
    let classes = lshape[1];
    let r = ti.rank();
    let tsc = ti.sc.clone();
    let id = AffineMap::identity(r as u32);
    // weight of each position: w[t] (or 1), 0 where t is ignored.
    let (s1, tsc1) = (sc.clone(), tsc.clone());
    let w = l.map_op(&ti.shape, &sc.ty.clone(), &[target], vec![id.clone()], move |e, a| {
        let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
        let t = e.cast(a[0], &tsc1, &i64s);
        let base = match weight {
            Some(wv) => {
                let it = e.ctx.index();
                let ti = e.index_cast(t, &it, false);
                let ti = e.clamp_index(ti, classes);
                e.op(tensor::ops::EXTRACT, &[wv, ti], &s1.ty)
            }
            None => e.scalar(1.0, &s1),
        };
        match ignore {
            Some(ig) => {
                let igv = e.int(ig as i128, &i64s.ty);
                let is_ig = e.cmp(Cmp::Eq, t, igv, &i64s);
                let z = e.scalar(0.0, &s1);
                e.select(is_ig, z, base)
            }
            None => base,
        }
    });
    let s2 = sc.clone();
    let loss = l.map_op(&ti.shape, &sc.ty.clone(), &[target, w], vec![id.clone(), id], move |e, a| {
        let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
        let t = e.cast(a[0], &tsc, &i64s);
        let it = e.ctx.index();
        let ti = e.index_cast(t, &it, false);
        let ti = e.clamp_index(ti, classes);
        let mut at = vec![e.loop_index(0), ti];
        for k in 1..r {
            at.push(e.loop_index(k));
        }
        let mut ops = vec![logp];
        ops.extend(at);
        let v = e.op(tensor::ops::EXTRACT, &ops, &s2.ty);
        let nv = e.op(arith::ops::NEGF, &[v], &s2.ty);
        e.mul(nv, a[1], &s2)
    });
    Ok((loss, w))
}

fn finish(l: &mut Lower, loss: Value, w: Value) -> Result<Value, String> {
    let reduction = l.str_attr("reduction").unwrap_or_else(|| "mean".into());
    let t = l.body.value_type(loss).clone();
    let sc = Sc::of(l.ctx, t.element_type().unwrap()).unwrap();
    let r = t.shape().unwrap().len();
    let all: Vec<usize> = (0..r).collect();
    match reduction.as_str() {
        "none" => Ok(loss),
        "sum" => Ok(reduce(l, loss, &all, false, Combine::Add, &sc, |_, v| v)),
        "mean" => {
            let total = reduce(l, loss, &all, false, Combine::Add, &sc, |_, v| v);
            let wsum = reduce(l, w, &all, false, Combine::Add, &sc, |_, v| v);
            let s = sc.clone();
            Ok(l.map_op(&[], &sc.ty.clone(), &[total, wsum], vec![expr_map(0, vec![]), expr_map(0, vec![])], move |e, a| e.div(a[0], a[1], &s)))
        }
        other => Err(format!("unknown reduction '{}'", other)),
    }
}

fn nll(l: &mut Lower) -> Result<Vec<Value>, String> {
    let (input, target) = (l.operand(0)?, l.operand(1)?);
    l.in_info(0)?;
    let weight = l.opt(2);
    let ignore = l.attr("ignore_index").and_then(|a| a.as_int()).map(|v| v as i64);
    let (loss, w) = per_element(l, input, target, weight, ignore)?;
    Ok(vec![finish(l, loss, w)?])
}

fn sce(l: &mut Lower) -> Result<Vec<Value>, String> {
    let xi = l.in_info(0)?;
    let (scores, labels) = (l.operand(0)?, l.operand(1)?);
    let weight = l.opt(2);
    let ignore = l.attr("ignore_index").and_then(|a| a.as_int()).map(|v| v as i64);
    let sc = xi.sc.clone();
    let mx = reduce(l, scores, &[1], true, Combine::Max, &sc, |_, v| v);
    let logp = softmax_along(l, scores, mx, 1, true);
    let (loss, w) = per_element(l, logp, labels, weight, ignore)?;
    let mut res = vec![finish(l, loss, w)?];
    if l.num_results() > 1 {
        res.push(logp);
    }
    Ok(res)
}
