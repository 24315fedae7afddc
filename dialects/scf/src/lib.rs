//! The `scf` dialect, named as upstream MLIR's so that our loop-level output is
//! MLIR's input: `scf.for`, `scf.if`, `scf.while`, `scf.parallel` and their
//! terminators. Printed in the generic form, which `mlir-opt` parses.

pub mod ops;

use ir::dialect::{optional, AttrKind, Count, DialectDef, OpDef, Trait, TypeConstraint as TC};
use ir::{Body, Context, OpId, Region, Type};

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
    let results: Vec<Type> = d.results().iter().map(|r| body.value_type(*r).clone()).collect();
    for (i, r) in d.regions().iter().enumerate() {
        if let Some(got) = terminator_types(body, *r, ops::YIELD) {
            if got != results {
                return Err(format!("expects the {} region to yield the result types", ["then", "else"][i]));
            }
        }
    }
    Ok(())
}

/// The operand types of a region's terminator, when it is `name`.
fn terminator_types(body: &Body, r: Region, name: &str) -> Option<Vec<Type>> {
    let b = *body.region_blocks(r).first()?;
    let t = body.last_op(b)?;
    (body.name(t).as_str() == name).then(|| body.op(t).operands().iter().map(|v| body.value_type(*v).clone()).collect())
}

fn arg_types(body: &Body, r: Region) -> Option<Vec<Type>> {
    let b = *body.region_blocks(r).first()?;
    Some(body.block_args(b).iter().map(|v| body.value_type(*v).clone()).collect())
}

/// `scf.while`: the before region takes the operands' types and forwards
/// the results' types (after the condition); the after region takes the
/// results' types and yields the operands' types.
fn verify_while(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    let inits: Vec<Type> = d.operands().iter().map(|v| body.value_type(*v).clone()).collect();
    let results: Vec<Type> = d.results().iter().map(|r| body.value_type(*r).clone()).collect();
    let (before, after) = (d.regions()[0], d.regions()[1]);
    if arg_types(body, before).is_some_and(|a| a != inits) {
        return Err("expects the before region to take the operands' types".into());
    }
    if let Some(fwd) = terminator_types(body, before, ops::CONDITION) {
        if fwd.first().is_none_or(|c| !matches!(c.data(), ir::types::TypeData::Integer { width: 1, .. })) || fwd[1..] != results[..] {
            return Err("expects scf.condition to take an i1 and forward the results' types".into());
        }
    }
    if arg_types(body, after).is_some_and(|a| a != results) {
        return Err("expects the after region to take the results' types".into());
    }
    if terminator_types(body, after, ops::YIELD).is_some_and(|y| y != inits) {
        return Err("expects the after region to yield the operands' types".into());
    }
    Ok(())
}

pub const OPS: &[OpDef] = &[
    OpDef {
        name: ops::FOR,
        summary: "A counted loop with optional loop-carried values.",
        operands: Count::AtLeast(3),
        results: Count::Any,
        regions: Count::Exactly(1),
        traits: &[Trait::SingleBlock],
        verify: Some(verify_for),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::IF,
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
        name: ops::WHILE,
        summary: "A loop with a before region (ending in scf.condition) and an after region.",
        operands: Count::Any,
        results: Count::Any,
        regions: Count::Exactly(2),
        verify: Some(verify_while),
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::CONDITION,
        summary: "Ends a while loop's before region: continue when true, forwarding values.",
        operands: Count::AtLeast(1),
        traits: &[Trait::Pure, Trait::IsTerminator, Trait::HasParent(ops::WHILE)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::PARALLEL,
        summary: "A multi-dimensional loop whose iterations are independent.",
        operands: Count::AtLeast(3),
        results: Count::Any,
        regions: Count::Exactly(1),
        properties: &[optional("operandSegmentSizes", AttrKind::Any)],
        traits: &[Trait::SingleBlock],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::REDUCE,
        summary: "Ends an scf.parallel body, combining values across iterations.",
        operands: Count::Any,
        regions: Count::Any,
        traits: &[Trait::IsTerminator, Trait::HasParent(ops::PARALLEL)],
        ..OpDef::DEFAULT
    },
    OpDef {
        name: ops::YIELD,
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
