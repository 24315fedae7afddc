//! The onnx ops by family (elementwise, nn, movement, …), one file each. A
//! family's file holds what the dialect knows of its ops beyond their schema
//! row: the type and shape rule, the folders, the canonicalization patterns
//! rooted at them and which operands decide result shapes, declared in its
//! `FAMILY`. `hooks` finds them by op name; the dialect's op definitions,
//! shape inference and `shape_operands` read them from there, and nothing
//! else matches on op names to find a hook.
//!
//! An op in no family has no rule (its results keep the types they have), no
//! folder and no patterns. The CPU lowering of an op is a conversion's
//! (`onnx_to_tensor::table`), and a backend's capability is its own table.

use crate::fold::*;
use crate::infer::*;
use crate::ops;
use crate::types::{unwrap, wrap};
use ir::attributes::{AttrData, Attribute, DenseData};
use ir::dialect::{FoldFn, FoldInput, FoldResult};
use ir::rewrite::{MatchFailure, PatternSet, Rewriter};
use ir::types::{Type, TypeData, DYNAMIC};
use ir::{Body, Context, OpId, OperationState, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};

/// The locals every family's rules read, bound to the names the caller gives
/// (so its rules read as one function's arms): the op's operands and their
/// `Info`s, its attributes, the first input's, a tensor type builder, a
/// one-result answer, operand `i` when present, and an integer list given as
/// operand `i` (then constant: outer `None` otherwise) or, in older forms, as
/// an attribute.
macro_rules! rule_locals {
    ($ctx:ident, $body:ident, $op:ident => $const_ints:ident, $d:ident, $name:ident, $ops:ident, $ins:ident, $attr:ident, $in0:ident, $t:ident, $one:ident, $given:ident, $ints_operand:ident) => {
        let $const_ints = |b: &Body, v: Value| const_ints_upto(b, v, MAX_SHAPE_OPERAND);
        let $d = $body.op($op);
        let $name = $d.name.as_str().strip_prefix("onnx.")?;
        let $ops = $d.operands();
        let $ins: Vec<Option<Info>> = $ops.iter().map(|v| info($body.value_type(*v))).collect();
        let $attr = |n: &str| $d.properties.get(n);
        let $in0 = || $ins.first().cloned().flatten();
        let $t = |elem: &Type, shape: Option<Vec<i64>>| tensor($ctx, elem, shape);
        let $one = |ty: Type| Some(vec![ty]);
        let $given = |i: usize| $ops.get(i).copied().filter(|v| !is_none($body, *v));
        let $ints_operand = |i: usize, name: &str| -> Option<Option<Vec<i64>>> {
            match $given(i) {
                Some(v) => $const_ints($body, v).map(Some),
                None => Some(ints_attr($attr(name))),
            }
        };
    };
}
mod control;
mod elementwise;
mod indexing;
mod misc;
mod movement;
mod nn;
mod norms;
mod quantization;
mod recurrent;
mod reduce;
mod signal;
mod slicing;
mod transforms;

pub use control::constant_if_branch;

/// An op's type and shape rule: its result types, or `None` when its inputs
/// are too unknown.
pub type InferFn = fn(&Context, &Body, OpId) -> Option<Vec<Type>>;
/// Adds the canonicalization patterns rooted at one op.
pub type PatternsFn = fn(&mut PatternSet);

/// One family of onnx ops and its hooks. Ops are named as in the operator
/// table (`"Conv"`, `"ms.QLinearAdd"`); every op a family's `folds`,
/// `patterns` or `shape_operands` names is one of its `ops`.
pub struct Family {
    pub name: &'static str,
    /// The family's ops; `infer` is their type and shape rule.
    pub ops: &'static [&'static str],
    pub infer: InferFn,
    pub folds: &'static [(&'static str, FoldFn)],
    /// Patterns by root op (a pattern's code may sit in the family it fuses into).
    pub patterns: &'static [(&'static str, PatternsFn)],
    /// Operand positions whose values decide a result's shape, by ONNX's
    /// operator specs (`Reshape`'s `shape`, `Slice`'s `starts`, a window's `size`).
    pub shape_operands: &'static [(&'static str, &'static [usize])],
}

impl Family {
    /// A family with a rule and no other hooks.
    pub const fn rules(name: &'static str, ops: &'static [&'static str], infer: InferFn) -> Family {
        Family { name, ops, infer, folds: &[], patterns: &[], shape_operands: &[] }
    }
    pub const fn folds(self, folds: &'static [(&'static str, FoldFn)]) -> Family {
        Family { folds, ..self }
    }
    pub const fn patterns(self, patterns: &'static [(&'static str, PatternsFn)]) -> Family {
        Family { patterns, ..self }
    }
    pub const fn shape_operands(self, shape_operands: &'static [(&'static str, &'static [usize])]) -> Family {
        Family { shape_operands, ..self }
    }
}

/// Every family.
pub const FAMILIES: &[&Family] = &[
    &elementwise::FAMILY,
    &nn::FAMILY,
    &norms::FAMILY,
    &reduce::FAMILY,
    &movement::FAMILY,
    &slicing::FAMILY,
    &indexing::FAMILY,
    &quantization::FAMILY,
    &recurrent::FAMILY,
    &control::FAMILY,
    &signal::FAMILY,
    &transforms::FAMILY,
    &misc::FAMILY,
];

/// Everything the dialect knows of one op beyond its schema row.
pub struct OpHooks {
    pub family: &'static Family,
    pub fold: Option<FoldFn>,
    pub patterns: Option<PatternsFn>,
    pub shape_operands: &'static [usize],
}

/// The hooks of the op named `name` (`"onnx.Conv"` or `"Conv"`), if it is in a family.
pub fn hooks(name: &str) -> Option<&'static OpHooks> {
    static BY_OP: OnceLock<HashMap<&'static str, OpHooks>> = OnceLock::new();
    let by_op = BY_OP.get_or_init(|| {
        let mut m = HashMap::new();
        for &family in FAMILIES {
            for &op in family.ops {
                let hooks = OpHooks {
                    family,
                    fold: find(family.folds, op),
                    patterns: find(family.patterns, op),
                    shape_operands: find(family.shape_operands, op).unwrap_or(&[]),
                };
                m.insert(op, hooks);
            }
        }
        m
    });
    by_op.get(name.strip_prefix("onnx.").unwrap_or(name))
}

/// The hook a family's list gives `op`.
fn find<T: Copy>(list: &'static [(&'static str, T)], op: &str) -> Option<T> {
    list.iter().find(|(n, _)| *n == op).map(|(_, h)| *h)
}

/// Result types for `op` by its family's rule; `None` when it has none or
/// its inputs are too unknown.
pub fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    (hooks(body.name(op).as_str())?.family.infer)(ctx, body, op)
}

/// Whether operand `index` of the op named `op` decides a result's shape.
pub fn is_shape_operand(op: &str, index: usize) -> bool {
    hooks(op).is_some_and(|h| h.shape_operands.contains(&index))
}

/// Results typed as the first input (extra results, as a normalization's
/// mean and inverse deviation, keep the types they have): the rule of every
/// op whose result keeps its input's shape and element type.
fn same_as_first(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    let d = body.op(op);
    let i = info(body.value_type(*d.operands().first()?))?;
    let mut v = vec![tensor(ctx, &i.elem, i.shape)];
    while v.len() < d.results().len() {
        v.push(body.value_type(d.results()[v.len()]).clone());
    }
    Some(v)
}

#[cfg(test)]
mod tests;
