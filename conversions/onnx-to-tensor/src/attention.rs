//! Attention (opset 23), as ONNX's reference computes it: 3-D inputs split
//! into heads, the key/value caches concatenated in front, scores
//! `Q·Kᵀ·scale` (grouped-query heads read their shared K/V head), softcap,
//! the mask (bool or additive, padded with −inf to the full length) and the
//! causal mask, softmax, then `·V`, heads merged back for 3-D outputs.

use onnx::ops;
use super::norms::softmax_along;
use super::reduce::{reduce, Combine};
use super::{broadcast_map, c, d, dims_map, expr_map, Cmp, Kind, Lower, LowerFn, Sc};
use ir::affine::{AffineExpr, AffineMap};
use ir::attributes::Attribute;
use ir::{OperationState, Value};
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[(ops::Attention::NAME, attention)];

fn transpose(l: &mut Lower, v: Value, perm: &[i64]) -> Value {
    let t = l.body.value_type(v).clone();
    let s = t.shape().unwrap();
    let out: Vec<i64> = perm.iter().map(|&p| s[p as usize]).collect();
    let e = l.empty(&out, t.element_type().unwrap());
    let attr = super::i64_array(l.ctx, perm);
    l.named(tensor::ops::TRANSPOSE, &[v, e], &[("permutation", attr)])
}

/// [B, S, H·D] → [B, H, S, D].
fn split_heads(l: &mut Lower, v: Value, heads: i64) -> Result<Value, String> {
    let s = l.info(v)?.shape;
    if heads <= 0 || s[2] % heads != 0 {
        return Err(format!("hidden size {} is not a multiple of {} heads", s[2], heads));
    }
    let r = super::shape::reshape(l, v, &[s[0], s[1], heads, s[2] / heads]);
    Ok(transpose(l, r, &[0, 2, 1, 3]))
}

/// `tensor.concat` of `parts` along `dim`.
pub(super) fn concat(l: &mut Lower, parts: &[Value], dim: usize) -> Value {
    let t = l.body.value_type(parts[0]).clone();
    let mut shape = t.shape().unwrap().to_vec();
    shape[dim] = parts.iter().map(|p| l.body.value_type(*p).shape().unwrap()[dim]).sum();
    let ty = l.tensor_type(&shape, t.element_type().unwrap());
    let st = OperationState::new(l.ctx.op_name(tensor::ops::CONCAT), l.loc.clone())
        .operands(parts)
        .results(&[ty])
        .property(l.ctx.ident("dim"), Attribute::integer(dim as i128, l.ctx.i64()));
    let op = l.body.build(st, l.at());
    l.body.op(op).result(0)
}

/// out[b, h, i, k] = Σ_r a[b, h, i, r] · bb[b, h / group, ·] with `b_map` over (b, h, i, k, r).
fn product(l: &mut Lower, a: Value, bb: Value, b_map: AffineMap, out: &[i64], cs: &Sc) -> Value {
    let (sa, sbb) = (Sc::of(l.ctx, l.body.value_type(a).element_type().unwrap()).unwrap(), Sc::of(l.ctx, l.body.value_type(bb).element_type().unwrap()).unwrap());
    let init = l.fill(out, cs, 0.0);
    let iters = [Iterator::Parallel, Iterator::Parallel, Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
    let a_map = expr_map(5, vec![d(0), d(1), d(2), d(4)]);
    let cs2 = cs.clone();
    l.generic(&[a, bb], &[init], vec![a_map, b_map, expr_map(5, vec![d(0), d(1), d(2), d(3)])], &iters, move |e, x| {
        let p = e.cast(x[0], &sa, &cs2);
        let q = e.cast(x[1], &sbb, &cs2);
        let m = e.mul(p, q, &cs2);
        vec![e.add(x[2], m, &cs2)]
    })[0]
}

fn cast_to(l: &mut Lower, v: Value, to: &Sc) -> Value {
    let t = l.body.value_type(v).clone();
    let from = Sc::of(l.ctx, t.element_type().unwrap()).unwrap();
    if from.ty == to.ty {
        return v;
    }
    let shape = t.shape().unwrap().to_vec();
    let to2 = to.clone();
    l.map_op(&shape, &to.ty.clone(), &[v], vec![AffineMap::identity(shape.len() as u32)], move |e, a| e.cast(a[0], &from, &to2))
}

fn attention(l: &mut Lower) -> Result<Vec<Value>, String> {
    let qi = l.in_info(0)?;
    let three_d = qi.rank() == 3;
    let (mut q, mut k, mut v) = (l.operand(0)?, l.operand(1)?, l.operand(2)?);
    if three_d {
        let (hq, hkv) = (l.int_attr("q_num_heads", 0), l.int_attr("kv_num_heads", 0));
        q = split_heads(l, q, hq)?;
        k = split_heads(l, k, hkv)?;
        v = split_heads(l, v, hkv)?;
    }
    let (qs, ks, vs) = (l.info(q)?.shape, l.info(k)?.shape, l.info(v)?.shape);
    if qs.len() != 4 || ks.len() != 4 || vs.len() != 4 {
        return Err("Attention needs 3-D or 4-D Q, K and V".into());
    }
    let past = l.opt(4).map(|p| l.info(p).map(|i| i.shape[2])).transpose()?.unwrap_or(0);
    if let Some(pk) = l.opt(4) {
        k = concat(l, &[pk, k], 2);
    }
    if let Some(pv) = l.opt(5) {
        v = concat(l, &[pv, v], 2);
    }
    let (b, hq, s, dh) = (qs[0], qs[1], qs[2], qs[3]);
    let hkv = ks[1];
    let total = l.info(k)?.shape[2];
    let dv = vs[3];
    if hkv <= 0 || hq % hkv != 0 {
        return Err(format!("{} query heads cannot share {} key/value heads", hq, hkv));
    }
    let group = hq / hkv;
    let head_of = if group == 1 { d(1) } else { AffineExpr::FloorDiv(Box::new(d(1)), Box::new(c(group))) };
    // Compute in f32 (or f64 for f64 inputs).
    let out_sc = qi.sc.clone();
    let cs = if out_sc.ty == l.ctx.f64() { out_sc.clone() } else { Sc { ty: l.ctx.f32(), kind: Kind::Float } };
    let scores_shape = [b, hq, s, total];
    let scores = product(l, q, k, expr_map(5, vec![d(0), head_of.clone(), d(3), d(4)]), &scores_shape, &cs);
    let scale = l.attr("scale").and_then(|a| a.as_float()).unwrap_or(1.0 / (dh as f64).sqrt());
    let softcap = l.float_attr("softcap", 0.0);
    let id4 = AffineMap::identity(4);
    let c1 = cs.clone();
    let capped = l.map_op(&scores_shape, &cs.ty.clone(), &[scores], vec![id4.clone()], move |e, a| {
        let sv = e.scalar(scale, &c1);
        let x = e.mul(a[0], sv, &c1);
        if softcap > 0.0 {
            let k = e.scalar(softcap, &c1);
            let y = e.div(x, k, &c1);
            let t = e.op(math::ops::TANH, &[y], &c1.ty);
            e.mul(t, k, &c1)
        } else {
            x
        }
    });
    // The bias: mask (padded to the full length) and causal positions.
    let causal = l.int_attr("is_causal", 0) != 0;
    let mut ins = vec![capped];
    let mut maps = vec![id4.clone()];
    let mut mask_kind = None;
    if let Some(m) = l.opt(3) {
        let mi = l.info(m)?;
        let is_bool = mi.sc.kind == Kind::Bool;
        let lm = *mi.shape.last().unwrap();
        let mut mv = m;
        if lm < total {
            let low = vec![0; mi.rank()];
            let mut high = vec![0; mi.rank()];
            high[mi.rank() - 1] = total - lm;
            let fill = l.emit().scalar(if is_bool { 0.0 } else { f64::NEG_INFINITY }, &mi.sc);
            let mut shape = mi.shape.clone();
            shape[mi.rank() - 1] = total;
            let ty = l.tensor_type(&shape, &mi.sc.ty);
            let st = OperationState::new(l.ctx.op_name(tensor::ops::PAD), l.loc.clone())
                .operands(&[m, fill])
                .results(&[ty])
                .property(l.ctx.ident("low"), super::i64_array(l.ctx, &low))
                .property(l.ctx.ident("high"), super::i64_array(l.ctx, &high));
            let op = l.body.build(st, l.at());
            mv = l.body.op(op).result(0);
        }
        let shape = l.info(mv)?.shape;
        ins.push(mv);
        maps.push(broadcast_map(&shape, &scores_shape));
        mask_kind = Some((is_bool, mi.sc.clone()));
    }
    // Keys past each sample's valid length (nonpad_kv_seqlen) are padding.
    let nonpad = match l.opt(6) {
        Some(n) => {
            let ni = l.info(n)?;
            if ni.shape != [b] {
                return Err(format!("Attention's nonpad_kv_seqlen is {:?}, not [{}]", ni.shape, b));
            }
            ins.push(n);
            maps.push(dims_map(4, &[0]));
            Some((ins.len() - 1, ni.sc))
        }
        None => None,
    };
    let c2 = cs.clone();
    let biased = l.map_op(&scores_shape, &cs.ty.clone(), &ins, maps, move |e, a| {
        let ninf = e.scalar(f64::NEG_INFINITY, &c2);
        let mut x = a[0];
        if let Some((k, nsc)) = &nonpad {
            let j = e.loop_index(3);
            let i64s = Sc { ty: e.ctx.i64(), kind: Kind::Signed };
            let jv = e.index_cast(j, &e.ctx.i64(), false);
            let len = e.cast(a[*k], nsc, &i64s);
            let pad = e.cmp(Cmp::Ge, jv, len, &i64s);
            x = e.select(pad, ninf, x);
        }
        if let Some((is_bool, msc)) = &mask_kind {
            x = if *is_bool {
                e.select(a[1], x, ninf)
            } else {
                let mv = e.cast(a[1], msc, &c2);
                e.add(x, mv, &c2)
            };
        }
        if causal {
            // Masked where j − past > i.
            let (i, j) = (e.loop_index(2), e.loop_index(3));
            let it = e.ctx.index();
            let isc = Sc { ty: it.clone(), kind: Kind::Signed };
            let pv = e.index(past);
            let ip = e.op(arith::ops::ADDI, &[i, pv], &it);
            let future = e.cmp(Cmp::Gt, j, ip, &isc);
            x = e.select(future, ninf, x);
        }
        x
    });
    let mx = reduce(l, biased, &[3], true, Combine::Max, &cs, |_, v| v);
    let probs = softmax_along(l, biased, mx, 3, false);
    let y = product(l, probs, v, expr_map(5, vec![d(0), head_of, d(4), d(3)]), &[b, hq, s, dv], &cs);
    let mut y = cast_to(l, y, &out_sc);
    if three_d {
        let t = transpose(l, y, &[0, 2, 1, 3]);
        y = super::shape::reshape(l, t, &[b, s, hq * dv]);
    }
    let mut res = vec![y];
    if l.num_results() > 1 {
        res.push(k);
    }
    if l.num_results() > 2 {
        res.push(v);
    }
    if l.num_results() > 3 {
        let mode = l.int_attr("qk_matmul_output_mode", 0);
        let qk = match mode {
            0 | 1 => capped,
            2 => biased,
            _ => probs,
        };
        res.push(cast_to(l, qk, &out_sc));
    }
    Ok(res)
}
