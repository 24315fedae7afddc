//! Normalizations, losses, attention and rotary embeddings: their rules, and
//! BatchNormalization's fold into the Conv before it (the pattern's code is nn's).

use super::*;

pub(super) const FAMILY: Family = Family::rules(
    "norms",
    &["Attention", "BatchNormalization", "LayerNormalization", "NegativeLogLikelihoodLoss", "RMSNormalization", "SoftmaxCrossEntropyLoss", "LRN", "MeanVarianceNormalization", "InstanceNormalization", "GroupNormalization", "LpNormalization", "RotaryEmbedding"],
    infer,
)
.patterns(&[
    ("BatchNormalization", |p| p.add_fn("onnx-fold-batchnorm-into-conv", ops::BatchNormalization::NAME, super::nn::fold_batch_norm_into_conv)),
]);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    match name {
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
        "LRN" | "MeanVarianceNormalization" | "InstanceNormalization" | "GroupNormalization" | "LpNormalization" | "RotaryEmbedding" => same_as_first(ctx, body, op),
        _ => None,
    }
}
