//! The `scf` dialect, named as upstream MLIR's so that our loop-level output is
//! MLIR's input: `scf.for`, `scf.if`, `scf.while`, `scf.parallel` and their
//! terminators. Printed in the generic form, which `mlir-opt` parses.

use ir::dialect::{optional, AttrKind, Count, DialectDef, OpDef, Trait, TypeConstraint as TC};
use ir::{Body, Context, OpId};

/// `scf.for %lb, %ub, %step iter_args(...)`: the body block takes the
/// induction variable, then one argument per loop-carried value.
fn verify_for(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let carried = d.operands().len() - 3;
    if d.results().len() != carried {
        return Err(format!("expects as many results ({}) as loop-carried values ({})", d.results().len(), carried));
    }
    for i in 0..3 {
        if !body.value_type(d.operand(i)).is_index() && !body.value_type(d.operand(i)).is_signless_integer() {
            return Err("expects lower bound, upper bound and step of index or integer type".into());
        }
    }
    let region = d.regions()[0];
    if let Some(&b) = body.region_blocks(region).first() {
        let args = body.block_args(b);
        if args.len() != 1 + carried {
            return Err(format!("expects the body to take the induction variable and {} loop-carried values", carried));
        }
        for i in 0..carried {
            if body.value_type(args[1 + i]) != body.value_type(d.operand(3 + i)) {
                return Err(format!("expects loop-carried value #{} to have the type of its initial value", i));
            }
        }
    }
    Ok(())
}

fn verify_if(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let then_empty = body.region_blocks(d.regions()[0]).is_empty();
    let else_empty = d.regions().len() < 2 || body.region_blocks(d.regions()[1]).is_empty();
    if then_empty {
        return Err("expects a non-empty then region".into());
    }
    if !d.results().is_empty() && else_empty {
        return Err("must have an else region when it has results".into());
    }
    Ok(())
}

pub const OPS: &[OpDef] = &[
    OpDef {
        name: "scf.for",
        summary: "A counted loop with optional loop-carried values.",
        operands: Count::AtLeast(3),
        results: Count::Any,
        regions: Count::Exactly(1),
        traits: &[Trait::SingleBlock],
        verify: Some(verify_for),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "scf.if",
        summary: "A conditional with a then and an optional else region.",
        operands: Count::Exactly(1),
        results: Count::Any,
        regions: Count::Exactly(2),
        operand_types: &[TC::BoolLike],
        traits: &[Trait::SingleBlock],
        verify: Some(verify_if),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "scf.while",
        summary: "A loop with a before region (ending in scf.condition) and an after region.",
        operands: Count::Any,
        results: Count::Any,
        regions: Count::Exactly(2),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "scf.condition",
        summary: "Ends a while loop's before region: continue when true, forwarding values.",
        operands: Count::AtLeast(1),
        traits: &[Trait::Pure, Trait::IsTerminator, Trait::HasParent("scf.while")],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "scf.parallel",
        summary: "A multi-dimensional loop whose iterations are independent.",
        operands: Count::AtLeast(3),
        results: Count::Any,
        regions: Count::Exactly(1),
        properties: &[optional("operandSegmentSizes", AttrKind::Any)],
        traits: &[Trait::SingleBlock],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "scf.reduce",
        summary: "Ends an scf.parallel body, combining values across iterations.",
        operands: Count::Any,
        regions: Count::Any,
        traits: &[Trait::IsTerminator, Trait::HasParent("scf.parallel")],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: "scf.yield",
        summary: "Ends a region of scf.for, scf.if or scf.while, yielding values.",
        operands: Count::Any,
        traits: &[Trait::Pure, Trait::IsTerminator, Trait::ReturnLike],
        ..OpDef::DEFAULT
    },
];

pub static DIALECT: DialectDef = DialectDef { name: "scf", ops: OPS, materialize_constant: None };

pub fn register(ctx: &Context) {
    ctx.register_dialect(&DIALECT);
}
