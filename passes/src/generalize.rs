//! `tensor-generalize`: every named structured op (`tensor.matmul`,
//! `tensor.conv_2d_nchw_fchw`, `tensor.fill`, ...) becomes the
//! `tensor.generic` it stands for (maps, iterators and body from the op's row
//! in `tensor::named`), so fusion and the loop lowering see one form.

use ir::pass::{Pass, PassContext};
use ir::{InsertPoint, OpId, OperationState, Type, Value};
use tensor::named::{generalize, Combine, NamedBody};
use tensor::GenericBuilder;

pub struct Generalize;

fn is_named(name: &str) -> bool {
    tensor::named::NAMES.contains(&name)
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
                        let p = bin(body, if float { "arith.mulf" } else { "arith.muli" }, args[0], args[1]);
                        bin(body, if float { "arith.addf" } else { "arith.addi" }, acc, p)
                    }
                    NamedBody::Combine(c) => {
                        let name = match (c, float) {
                            (Combine::Add, true) => "arith.addf",
                            (Combine::Add, false) => "arith.addi",
                            (Combine::Mul, true) => "arith.mulf",
                            (Combine::Mul, false) => "arith.muli",
                            (Combine::Max, true) => "arith.maximumf",
                            (Combine::Max, false) => "arith.maxsi",
                            (Combine::Min, true) => "arith.minimumf",
                            (Combine::Min, false) => "arith.minsi",
                        };
                        bin(body, name, acc, args[0])
                    }
                }]
            });
            // Explicit loop sizes only where the operands do not already say
            // exactly these (fusion prefers generics without).
            if let Some(saved) = cx.body.op_mut(new).properties.remove("loop_ranges") {
                let derived = tensor::Generic::new(cx.body, new).loop_sizes();
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
