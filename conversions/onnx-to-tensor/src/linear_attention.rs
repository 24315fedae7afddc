//! LinearAttention: the recurrent form, one step per token, unrolled (the
//! step count is the sequence length, known at compile time). The state S is
//! [B, H_kv, d_k, d_v]; each step decays it (gated rules), writes k ⊗ v (or,
//! for the delta rules, k ⊗ β(v − Sᵀk)), and reads o = scale · qᵀS, query
//! heads sharing their KV head's state (GQA). Computed in f32 at least.

use onnx::ops;
use super::{add, c, d, dims_map, expr_map, mul, Kind, Lower, LowerFn, Sc};
use ir::affine::{AffineExpr, AffineMap};
use ir::attributes::Attribute;
use ir::Value;
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[(ops::LinearAttention::NAME, linear_attention)];

/// Steps unrolled at most (each is a handful of loops over the state).
const MAX_STEPS: i64 = 4096;

fn linear_attention(l: &mut Lower) -> Result<Vec<Value>, String> {
    let (qi, ki, vi) = (l.in_info(0)?, l.in_info(1)?, l.in_info(2)?);
    let (hq, hkv) = (l.int_attr("q_num_heads", 0), l.int_attr("kv_num_heads", 0));
    let (&[b, t, qd], &[_, _, kd], &[_, _, vd]) = (qi.shape.as_slice(), ki.shape.as_slice(), vi.shape.as_slice()) else {
        return Err("LinearAttention needs 3-D query, key and value [B, T, H·d]".into());
    };
    if hq <= 0 || hkv <= 0 || hq % hkv != 0 || qd % hq != 0 || vd % hkv != 0 || kd != hkv * (qd / hq) {
        return Err(format!("LinearAttention: {} query and {} key/value heads do not fit query {:?}, key {:?}, value {:?}", hq, hkv, qi.shape, ki.shape, vi.shape));
    }
    if t > MAX_STEPS {
        return Err(format!("LinearAttention over {} tokens: at most {} are unrolled", t, MAX_STEPS));
    }
    let (dk, dv, group) = (qd / hq, vd / hkv, hq / hkv);
    let rule = l.str_attr("update_rule").unwrap_or_else(|| "gated_delta".into());
    let (gated, delta) = match rule.as_str() {
        "linear" => (false, false),
        "gated" => (true, false),
        "delta" => (false, true),
        "gated_delta" => (true, true),
        r => return Err(format!("LinearAttention's update_rule '{}' is not linear, gated, delta or gated_delta", r)),
    };
    let scale = match l.float_attr("scale", 0.0) {
        s if s != 0.0 => s,
        _ => 1.0 / (dk as f64).sqrt(),
    };
    let (q, k, v) = (l.operand(0)?, l.operand(1)?, l.operand(2)?);
    let decay = if gated { Some(l.opt(4).ok_or("LinearAttention's gated rules need a decay")?) } else { None };
    let beta = if delta { Some(l.opt(5).ok_or("LinearAttention's delta rules need a beta")?) } else { None };
    // Decay per key dim ([B, T, H_kv·d_k]) or per head ([B, T, H_kv]); beta per head or one.
    let per_key = |l: &Lower, x: Value, what: &str| -> Result<i64, String> {
        let s = l.info(x)?.shape;
        match s.as_slice() {
            [bb, tt, n] if *bb == b && *tt == t && (*n == hkv * dk || *n == hkv || *n == 1) => Ok(*n),
            _ => Err(format!("LinearAttention's {} of shape {:?} is not [B, T, H_kv·d_k], [B, T, H_kv] or [B, T, 1]", what, s)),
        }
    };
    let decay_len = decay.map(|g| per_key(l, g, "decay")).transpose()?;
    let beta_len = beta.map(|x| per_key(l, x, "beta")).transpose()?;
    let out = l.out_info(0)?;
    let osc = out.sc.clone();
    let f = if osc.width() > 32 { osc.clone() } else { Sc { ty: l.ctx.f32(), kind: Kind::Float } };
    let sshape = [b, hkv, dk, dv];
    let mut s = match l.opt(3) {
        Some(p) => {
            let ps = l.info(p)?;
            if ps.shape != sshape {
                return Err(format!("LinearAttention's past_state is {:?}, not {:?}", ps.shape, sshape));
            }
            let (from, to) = (ps.sc, f.clone());
            l.map_op(&sshape, &f.ty.clone(), &[p], vec![AffineMap::identity(4)], move |e, a| e.cast(a[0], &from, &to))
        }
        None => l.fill(&sshape, &f, 0.0),
    };
    let scs = |l: &Lower, x: Value| l.info(x).map(|i| i.sc);
    let (qsc, ksc, vsc) = (scs(l, q)?, scs(l, k)?, scs(l, v)?);
    let mut outs = l.fill(&[b, t, hq * dv], &f, 0.0);
    let id4 = AffineMap::identity(4);
    for step in 0..t {
        // Over the state's dims (b, h, i, j): key element i and value element j of head h at this step.
        let key_at = expr_map(4, vec![d(0), c(step), add(mul(d(1), dk), d(2))]);
        let val_at = expr_map(4, vec![d(0), c(step), add(mul(d(1), dv), d(3))]);
        let head_at = |n: i64| match n {
            1 => expr_map(4, vec![d(0), c(step), c(0)]),
            n if n == hkv => expr_map(4, vec![d(0), c(step), d(1)]),
            _ => expr_map(4, vec![d(0), c(step), add(mul(d(1), dk), d(2))]),
        };
        if let (Some(g), Some(n)) = (decay, decay_len) {
            let (gsc, f1) = (scs(l, g)?, f.clone());
            s = l.map_op(&sshape, &f.ty.clone(), &[s, g], vec![id4.clone(), head_at(n)], move |e, a| {
                let gv = e.cast(a[1], &gsc, &f1);
                let ex = e.op(math::ops::EXP, &[gv], &f1.ty);
                e.mul(a[0], ex, &f1)
            });
        }
        // What the state adds along v: v, or for the delta rules β(v − Sᵀk).
        let update = match (beta, beta_len) {
            (Some(bv), Some(n)) => {
                // pred[b, h, j] = Σ_i S[b, h, i, j] · k[b, h, i], over (b, h, j, i).
                let init = l.fill(&[b, hkv, dv], &f, 0.0);
                let maps = vec![expr_map(4, vec![d(0), d(1), d(3), d(2)]), expr_map(4, vec![d(0), c(step), add(mul(d(1), dk), d(3))]), dims_map(4, &[0, 1, 2])];
                let (ks, f1) = (ksc.clone(), f.clone());
                let pred = l.generic(&[s, k], &[init], maps, &[Iterator::Parallel, Iterator::Parallel, Iterator::Parallel, Iterator::Reduction], move |e, a| {
                    let kv = e.cast(a[1], &ks, &f1);
                    let p = e.mul(a[0], kv, &f1);
                    vec![e.add(a[2], p, &f1)]
                })[0];
                let (bsc, vs, f1) = (scs(l, bv)?, vsc.clone(), f.clone());
                let bmap = match n {
                    1 => expr_map(3, vec![d(0), c(step), c(0)]),
                    _ => expr_map(3, vec![d(0), c(step), d(1)]),
                };
                let vmap = expr_map(3, vec![d(0), c(step), add(mul(d(1), dv), d(2))]);
                Some(l.map_op(&[b, hkv, dv], &f.ty.clone(), &[v, pred, bv], vec![vmap, AffineMap::identity(3), bmap], move |e, a| {
                    let vv = e.cast(a[0], &vs, &f1);
                    let diff = e.sub(vv, a[1], &f1);
                    let bb = e.cast(a[2], &bsc, &f1);
                    e.mul(bb, diff, &f1)
                }))
            }
            _ => None,
        };
        let (ks, vs, f1) = (ksc.clone(), vsc.clone(), f.clone());
        let (ins, umap) = match update {
            Some(u) => (vec![s, k, u], dims_map(4, &[0, 1, 3])),
            None => (vec![s, k, v], val_at.clone()),
        };
        let has_update = update.is_some();
        s = l.map_op(&sshape, &f.ty.clone(), &ins, vec![id4.clone(), key_at.clone(), umap], move |e, a| {
            let kv = e.cast(a[1], &ks, &f1);
            let uv = if has_update { a[2] } else { e.cast(a[2], &vs, &f1) };
            let p = e.mul(kv, uv, &f1);
            e.add(a[0], p, &f1)
        });
        // o[b, hq, j] = scale · Σ_i q[b, hq, i] · S[b, hq / group, i, j], over (b, hq, j, i).
        let init = l.fill(&[b, hq, dv], &f, 0.0);
        let kv_head = if group == 1 { d(1) } else { AffineExpr::FloorDiv(Box::new(d(1)), Box::new(c(group))) };
        let maps = vec![expr_map(4, vec![d(0), c(step), add(mul(d(1), dk), d(3))]), expr_map(4, vec![d(0), kv_head, d(3), d(2)]), dims_map(4, &[0, 1, 2])];
        let (qs, f1) = (qsc.clone(), f.clone());
        let o = l.generic(&[q, s], &[init], maps, &[Iterator::Parallel, Iterator::Parallel, Iterator::Parallel, Iterator::Reduction], move |e, a| {
            let qv = e.cast(a[0], &qs, &f1);
            let p = e.mul(qv, a[1], &f1);
            vec![e.add(a[2], p, &f1)]
        })[0];
        let row = super::shape::reshape(l, o, &[b, hq * dv]);
        let full = l.body.value_type(outs).clone();
        let at = l.emit().index(step);
        let dim = Attribute::integer(1, l.ctx.i64());
        outs = l.emit().op_with(tensor::ops::INSERT_ROW, &[row, outs, at], &full, &[("dim", dim)]);
    }
    let (f1, o1) = (f.clone(), osc.clone());
    let y = l.map_op(&[b, t, hq * dv], &osc.ty.clone(), &[outs], vec![AffineMap::identity(3)], move |e, a| {
        let sv = e.scalar(scale, &f1);
        let v = e.mul(a[0], sv, &f1);
        e.cast(v, &f1, &o1)
    });
    let ssc = l.out_info(1)?.sc;
    let state = l.map_op(&sshape, &ssc.ty.clone(), &[s], vec![id4], move |e, a| e.cast(a[0], &f, &ssc));
    Ok(vec![y, state])
}
