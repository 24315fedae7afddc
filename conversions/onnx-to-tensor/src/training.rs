//! The `ai.onnx.preview.training` optimizers: Adagrad, Adam and Momentum,
//! each over n (X, G, state...) groups with a shared learning rate R and step
//! count T, as the ONNX specification writes their update rules.

use onnx::ops;
use super::{Cmp, Emit, Lower, LowerFn};
use ir::affine::AffineMap;
use ir::Value;
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[(ops::training::Adagrad::NAME, optimizer), (ops::training::Adam::NAME, optimizer), (ops::training::Momentum::NAME, optimizer)];

#[derive(Clone, Copy, PartialEq)]
enum Rule {
    Adagrad { decay: f64, eps: f64, norm: f64 },
    Adam { alpha: f64, beta: f64, eps: f64, norm: f64, norm_post: f64 },
    Momentum { alpha: f64, beta: f64, norm: f64, nesterov: bool },
}

impl Rule {
    /// Tensors per group: X, G and the states.
    fn group(self) -> usize {
        match self {
            Rule::Adam { .. } => 4,
            _ => 3,
        }
    }
}

fn optimizer(l: &mut Lower) -> Result<Vec<Value>, String> {
    let rule = match l.name() {
        ops::training::Adagrad::NAME => Rule::Adagrad { decay: l.float_attr("decay_factor", 0.0), eps: l.float_attr("epsilon", 1e-6), norm: l.float_attr("norm_coefficient", 0.0) },
        ops::training::Adam::NAME => Rule::Adam {
            alpha: l.float_attr("alpha", 0.9),
            beta: l.float_attr("beta", 0.999),
            eps: l.float_attr("epsilon", 1e-6),
            norm: l.float_attr("norm_coefficient", 0.0),
            norm_post: l.float_attr("norm_coefficient_post", 0.0),
        },
        _ => Rule::Momentum {
            alpha: l.float_attr("alpha", 0.0),
            beta: l.float_attr("beta", 0.0),
            norm: l.float_attr("norm_coefficient", 0.0),
            nesterov: match l.str_attr("mode").as_deref() {
                Some("standard") | None => false,
                Some("nesterov") => true,
                Some(m) => return Err(format!("Momentum mode '{}' is neither 'standard' nor 'nesterov'", m)),
            },
        },
    };
    let k = rule.group();
    let ops = l.num_operands();
    if ops < 2 + k || (ops - 2) % k != 0 {
        return Err(format!("{} operands do not make groups of {} after R and T", ops, k));
    }
    let n = (ops - 2) / k;
    let (r, t) = (l.operand(0)?, l.operand(1)?);
    let (rsc, tsc) = (l.in_info(0)?.sc, l.in_info(1)?.sc);
    let (rr, tr) = (l.in_info(0)?.rank(), l.in_info(1)?.rank());
    // Per group: the new X and the new states; results are all X's, then each state's.
    let mut per_group: Vec<Vec<Value>> = vec![];
    for i in 0..n {
        let xs: Vec<Value> = (0..k).map(|j| l.operand(2 + j * n + i)).collect::<Result<_, _>>()?;
        let xi = l.info(xs[0])?;
        for v in &xs[1..] {
            if l.info(*v)?.shape != xi.shape {
                return Err(format!("group {} mixes shapes {:?} and {:?}", i, xi.shape, l.info(*v)?.shape));
            }
        }
        let rank = xi.rank();
        let s = xi.sc.clone();
        if !s.is_float() {
            return Err("the optimizers need float tensors".into());
        }
        let id = AffineMap::identity(rank as u32);
        let scalar = |r: usize| AffineMap { num_dims: rank as u32, num_syms: 0, results: vec![super::c(0); r] };
        let mut ins = vec![r, t];
        ins.extend(&xs);
        let mut maps = vec![scalar(rr), scalar(tr)];
        maps.extend(std::iter::repeat_n(id.clone(), k));
        let outs: Vec<Value> = (0..k - 1).map(|_| l.empty(&xi.shape, &s.ty.clone())).collect();
        maps.extend(std::iter::repeat_n(id, k - 1));
        let (rsc, tsc) = (rsc.clone(), tsc.clone());
        let res = l.generic(&ins, &outs, maps, &vec![Iterator::Parallel; rank], move |e, a| {
            let c = |e: &mut Emit, v: f64| e.scalar(v, &s);
            let rv = e.cast(a[0], &rsc, &s);
            let tv = e.cast(a[1], &tsc, &s);
            let (x, g) = (a[2], a[3]);
            let greg = |e: &mut Emit, norm: f64| {
                let nc = c(e, norm);
                let nx = e.mul(nc, x, &s);
                e.add(nx, g, &s)
            };
            match rule {
                Rule::Adagrad { decay, eps, norm } => {
                    let h = a[4];
                    let dc = c(e, decay);
                    let td = e.mul(tv, dc, &s);
                    let one = c(e, 1.0);
                    let den = e.add(one, td, &s);
                    let lr = e.div(rv, den, &s);
                    let gr = greg(e, norm);
                    let g2 = e.mul(gr, gr, &s);
                    let hn = e.add(h, g2, &s);
                    let sq = e.op(math::ops::SQRT, &[hn], &s.ty);
                    let ep = c(e, eps);
                    let hs = e.add(sq, ep, &s);
                    let step = e.mul(lr, gr, &s);
                    let step = e.div(step, hs, &s);
                    vec![e.sub(x, step, &s), hn]
                }
                Rule::Adam { alpha, beta, eps, norm, norm_post } => {
                    let (v, h) = (a[4], a[5]);
                    let gr = greg(e, norm);
                    let (al, be, one) = (c(e, alpha), c(e, beta), c(e, 1.0));
                    let av = e.mul(al, v, &s);
                    let oma = e.sub(one, al, &s);
                    let ag = e.mul(oma, gr, &s);
                    let vn = e.add(av, ag, &s);
                    let bh = e.mul(be, h, &s);
                    let omb = e.sub(one, be, &s);
                    let g2 = e.mul(gr, gr, &s);
                    let bg = e.mul(omb, g2, &s);
                    let hn = e.add(bh, bg, &s);
                    let sq = e.op(math::ops::SQRT, &[hn], &s.ty);
                    let ep = c(e, eps);
                    let hs = e.add(sq, ep, &s);
                    // Bias correction once steps have been taken.
                    let bt = e.op(math::ops::POWF, &[be, tv], &s.ty);
                    let at = e.op(math::ops::POWF, &[al, tv], &s.ty);
                    let num = e.sub(one, bt, &s);
                    let num = e.op(math::ops::SQRT, &[num], &s.ty);
                    let num = e.mul(rv, num, &s);
                    let den = e.sub(one, at, &s);
                    let corrected = e.div(num, den, &s);
                    let zero = c(e, 0.0);
                    let started = e.cmp(Cmp::Gt, tv, zero, &s);
                    let lr = e.select(started, corrected, rv);
                    let ratio = e.div(vn, hs, &s);
                    let step = e.mul(lr, ratio, &s);
                    let xn = e.sub(x, step, &s);
                    let np = c(e, 1.0 - norm_post);
                    vec![e.mul(np, xn, &s), vn, hn]
                }
                Rule::Momentum { alpha, beta, norm, nesterov } => {
                    let v = a[4];
                    let gr = greg(e, norm);
                    let (al, be, one, zero) = (c(e, alpha), c(e, beta), c(e, 1.0), c(e, 0.0));
                    let started = e.cmp(Cmp::Gt, tv, zero, &s);
                    let badj = e.select(started, be, one);
                    let av = e.mul(al, v, &s);
                    let bg = e.mul(badj, gr, &s);
                    let vn = e.add(av, bg, &s);
                    let dir = if nesterov {
                        let avn = e.mul(al, vn, &s);
                        e.add(gr, avn, &s)
                    } else {
                        vn
                    };
                    let step = e.mul(rv, dir, &s);
                    vec![e.sub(x, step, &s), vn]
                }
            }
        });
        per_group.push(res);
    }
    Ok((0..k - 1).flat_map(|j| per_group.iter().map(move |g| g[j])).collect())
}
