//! `tensor-generalize`: every named structured op (`tensor.matmul`,
//! `tensor.conv_2d_nchw_fchw`, `tensor.fill`, ...) becomes the
//! `tensor.generic` it stands for (maps, iterators and body from the op's row
//! in `crate::named`), so fusion and the loop lowering see one form.

use crate::ops;
use ir::pass::{Pass, PassContext};
use ir::{InsertPoint, OpId, OperationState, Type, Value};
use crate::named::{generalize, Combine, NamedBody};
use crate::GenericBuilder;
use crate::i64_array;

pub struct Generalize;

/// `tensor.pad` becomes a fill and an insert; `tensor.concat` a chain of
/// inserts into one destination (both then generalize like the rest).
fn decompose(ctx: &ir::Context, body: &mut ir::Body, root: OpId) -> Result<(), String> {
    let ops: Vec<OpId> = body.walk_preorder(root).into_iter().filter(|o| matches!(body.name(*o).as_str(), ops::PAD | ops::CONCAT)).collect();
    for op in ops {
        let loc = body.op(op).loc.clone();
        let rt = body.value_type(body.op(op).result(0)).clone();
        let mk = |body: &mut ir::Body, name: &str, operands: &[Value], props: Vec<(&str, ir::Attribute)>| -> Value {
            let mut st = OperationState::new(ctx.op_name(name), loc.clone()).operands(operands).results(&[rt.clone()]);
            for (k, v) in props {
                st = st.property(ctx.ident(k), v);
            }
            let o = body.build(st, InsertPoint::Before(op));
            body.op(o).result(0)
        };
        let empty = mk(body, ops::EMPTY, &[], vec![]);
        let result = if body.name(op).as_str() == ops::PAD {
            let (low, high) = crate::named::pad_parts(body, op)?;
            let (src, value) = (body.op(op).operand(0), body.op(op).operand(1));
            let shape = rt.shape().unwrap_or(&[]).to_vec();
            // (pad_parts has checked the padding is not negative.)
            let filled = if !shape.contains(&ir::types::DYNAMIC) {
                fill_borders(ctx, body, op, value, empty, &shape, &low, &high)
            } else {
                mk(body, ops::FILL, &[value, empty], vec![])
            };
            mk(body, ops::INSERT_SLICE, &[src, filled], vec![("static_offsets", i64_array(ctx, &low))])
        } else {
            let dim = crate::named::concat_dim(body, op)?;
            let mut acc = empty;
            let mut offset = 0;
            for v in body.op(op).operands().to_vec() {
                let s = body.value_type(v).shape().unwrap().to_vec();
                if s[dim] > 0 {
                    let mut offs = vec![0; s.len()];
                    offs[dim] = offset;
                    acc = mk(body, ops::INSERT_SLICE, &[v, acc], vec![("static_offsets", i64_array(ctx, &offs))]);
                }
                offset += s[dim];
            }
            acc
        };
        let old = body.op(op).result(0);
        body.replace_all_uses(old, result);
        body.erase(op);
    }
    Ok(())
}

/// The padding of a `tensor.pad` of `shape`: along each dim, the slab of
/// `low` elements before and `high` after (the whole extent of the other
/// dims) filled with `value`, in place into `dest`; the interior, which the
/// source overwrites, is not written twice (a Conv's padded input is as
/// large as the layer's: a full fill was a third of the copy's traffic).
#[allow(clippy::too_many_arguments)]
fn fill_borders(ctx: &ir::Context, body: &mut ir::Body, op: OpId, value: Value, dest: Value, shape: &[i64], low: &[i64], high: &[i64]) -> Value {
    use ir::affine::{AffineExpr, AffineMap};
    let r = shape.len();
    let gb = GenericBuilder { ctx, loc: body.op(op).loc.clone() };
    let mut acc = dest;
    for dim in 0..r {
        for (offset, extent) in [(0, low[dim]), (shape[dim] - high[dim], high[dim])] {
            if extent == 0 {
                continue;
            }
            let mut ranges = shape.to_vec();
            ranges[dim] = extent;
            let results = (0..r).map(|k| if k == dim && offset > 0 { AffineExpr::Add(Box::new(AffineExpr::Dim(k as u32)), Box::new(AffineExpr::Const(offset))) } else { AffineExpr::Dim(k as u32) }).collect();
            let map = AffineMap { num_dims: r as u32, num_syms: 0, results };
            let g = gb.build(body, InsertPoint::Before(op), &[], &[acc], vec![map], &vec![crate::Iterator::Parallel; r], Some(ranges), |_, _, _| vec![value]);
            acc = body.op(g).result(0);
        }
    }
    acc
}

fn is_named(name: &str) -> bool {
    crate::named::NAMES.contains(&name)
}

impl Pass for Generalize {
    fn argument(&self) -> &'static str {
        "tensor-generalize"
    }
    fn display_name(&self) -> &'static str {
        "TensorGeneralize"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        decompose(ctx, cx.body, root)?;
        let ops: Vec<OpId> = cx.body.walk_preorder(root).into_iter().filter(|o| is_named(cx.body.name(*o).as_str())).collect();
        let mut n = 0;
        for op in ops {
            let g = generalize(cx.body, op)?;
            let loc = cx.body.op(op).loc.clone();
            let elem: Type = cx.body.value_type(g.init).element_type().cloned().unwrap();
            let float = elem.is_float();
            let (body_kind, value) = (g.body, g.value);
            let ranges = g.ranges.clone();
            let builder = GenericBuilder { ctx, loc: loc.clone() };
            let new = builder.build(cx.body, InsertPoint::Before(op), &g.ins, &[g.init], g.maps, &g.iters, Some(g.ranges), |body, block, args| {
                let bin = |body: &mut ir::Body, name: &str, a: Value, b: Value| -> Value {
                    let st = OperationState::new(ctx.op_name(name), loc.clone()).operands(&[a, b]).results(&[elem.clone()]);
                    let o = body.build(st, InsertPoint::AtEnd(block));
                    body.op(o).result(0)
                };
                let acc = *args.last().unwrap();
                vec![match body_kind {
                    NamedBody::Copy => args[0],
                    NamedBody::Fill => value.unwrap(),
                    NamedBody::MulAdd => {
                        let p = bin(body, if float { arith::ops::MULF } else { arith::ops::MULI }, args[0], args[1]);
                        bin(body, if float { arith::ops::ADDF } else { arith::ops::ADDI }, acc, p)
                    }
                    NamedBody::Combine(c) => {
                        let name = match (c, float) {
                            (Combine::Add, true) => arith::ops::ADDF,
                            (Combine::Add, false) => arith::ops::ADDI,
                            (Combine::Mul, true) => arith::ops::MULF,
                            (Combine::Mul, false) => arith::ops::MULI,
                            (Combine::Max, true) => arith::ops::MAXIMUMF,
                            (Combine::Max, false) => arith::ops::MAXSI,
                            (Combine::Min, true) => arith::ops::MINIMUMF,
                            (Combine::Min, false) => arith::ops::MINSI,
                        };
                        bin(body, name, acc, args[0])
                    }
                }]
            });
            // Explicit loop sizes only where the operands do not already say
            // exactly these (fusion prefers generics without).
            if let Some(saved) = cx.body.op_mut(new).properties.remove("loop_ranges") {
                let derived = crate::Generic::new(cx.body, new).loop_sizes();
                if derived.iter().zip(&ranges).any(|(d, r)| *d != Some(*r)) {
                    cx.body.op_mut(new).properties.set(ctx.ident("loop_ranges"), saved);
                }
            }
            let olds = cx.body.op(op).results().to_vec();
            let news = cx.body.op(new).results().to_vec();
            for (o, nv) in olds.iter().zip(&news) {
                cx.body.replace_all_uses(*o, *nv);
            }
            cx.body.erase(op);
            n += 1;
        }
        cx.stat("num-generalized", "Named ops turned into tensor.generic", n);
        Ok(())
    }
}
