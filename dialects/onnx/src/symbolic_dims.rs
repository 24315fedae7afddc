//! Named (symbolic) dimensions through a function: a dim the inputs call
//! `batch` (`onnx.dims` on the arguments) keeps that name in every value it
//! reaches, so outputs say `batch` too. Types hold `?` for such a dim; the
//! names live beside them. Each op's inference rule runs once more with every
//! named dim stood in for by its own probe size (a prime no real tensor has):
//! a result dim equal to a probe is that name; a dim computed from names
//! (2·batch, batch·seq) equals no probe and stays `?` without a name.

use crate::family::infer;
use ir::function_like::{io_attr, Io};
use ir::types::{Type, TypeData, DYNAMIC};
use ir::{Body, Context, OpId, Value};
use std::collections::HashMap;

/// The name of each dim of a value that has any (`None`: not a named dim).
pub type DimNames = Vec<Option<String>>;

/// Names of the dims of `func`'s values, from its arguments' `onnx.dims`.
/// Values with no named dim are absent.
pub fn propagate(ctx: &Context, body: &mut Body, func: OpId) -> HashMap<Value, DimNames> {
    let mut names: Vec<String> = vec![];
    let mut sym: HashMap<Value, Vec<Option<usize>>> = HashMap::new();
    let Some(entry) = body.entry_block(func) else { return HashMap::new() };
    for (i, a) in body.block_args(entry).to_vec().into_iter().enumerate() {
        let Some(dims) = io_attr(body, func, Io::Arg, i, "onnx.dims").and_then(|d| d.as_array()) else { continue };
        let Some(shape) = body.value_type(a).shape().map(<[i64]>::to_vec) else { continue };
        let ids: Vec<Option<usize>> = shape
            .iter()
            .enumerate()
            .map(|(j, d)| {
                let n = dims.get(j)?.as_str().filter(|n| !n.is_empty() && *d == DYNAMIC)?;
                Some(names.iter().position(|m| m == n).unwrap_or_else(|| {
                    names.push(n.to_string());
                    names.len() - 1
                }))
            })
            .collect();
        if ids.iter().any(Option::is_some) {
            sym.insert(a, ids);
        }
    }
    if names.is_empty() {
        return HashMap::new();
    }
    let probes = probes(names.len());
    let ops: Vec<OpId> = body.walk_preorder(func).into_iter().filter(|o| body.name(*o).dialect() == "onnx").collect();
    for op in ops {
        let mut operands = body.op(op).operands().to_vec();
        operands.sort();
        operands.dedup();
        let named: Vec<Value> = operands.into_iter().filter(|v| sym.contains_key(v)).collect();
        if named.is_empty() {
            continue;
        }
        // Stand the probes in, run the rule, put the types back.
        let saved: Vec<(Value, Type)> = named.iter().map(|v| (*v, body.value_type(*v).clone())).collect();
        for (v, t) in &saved {
            if let Some(p) = with_probes(ctx, t, &sym[v], &probes) {
                body.set_value_type(*v, p);
            }
        }
        let inferred = infer(ctx, body, op);
        for (v, t) in saved {
            body.set_value_type(v, t);
        }
        let Some(inferred) = inferred else { continue };
        for (r, t) in body.op(op).results().to_vec().into_iter().zip(inferred) {
            let (Some(now), Some(probed)) = (body.value_type(r).shape(), t.shape()) else { continue };
            if now.len() != probed.len() {
                continue;
            }
            let ids: Vec<Option<usize>> = now.iter().zip(probed).map(|(n, p)| if *n == DYNAMIC { probes.iter().position(|q| q == p) } else { None }).collect();
            if ids.iter().any(Option::is_some) {
                sym.insert(r, ids);
            }
        }
    }
    sym.into_iter().map(|(v, ids)| (v, ids.into_iter().map(|i| i.map(|i| names[i].clone())).collect())).collect()
}

/// `t` with each named dynamic dim replaced by its probe.
fn with_probes(ctx: &Context, t: &Type, ids: &[Option<usize>], probes: &[i64]) -> Option<Type> {
    let TypeData::RankedTensor { shape, elem, encoding } = t.data() else { return None };
    if shape.len() != ids.len() || ids.iter().flatten().count() > MAX_NAMED_PER_VALUE {
        return None;
    }
    let shape = shape.iter().zip(ids).map(|(d, id)| match id {
        Some(k) if *d == DYNAMIC => probes[*k],
        _ => *d,
    });
    Some(ctx.intern_type(TypeData::RankedTensor { shape: shape.collect(), elem: elem.clone(), encoding: encoding.clone() }))
}

/// `n` distinct primes above 10,000: sizes no model has, small enough that a
/// product of three of them and real sizes stays far from overflow.
fn probes(n: usize) -> Vec<i64> {
    let is_prime = |p: i64| (2..).take_while(|d| d * d <= p).all(|d| p % d != 0);
    (10_007..).filter(|p| is_prime(*p)).take(n).collect()
}

/// A tensor with more named dims than this keeps them unnamed in what it feeds.
const MAX_NAMED_PER_VALUE: usize = 3;
