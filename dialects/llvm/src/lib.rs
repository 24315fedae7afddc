//! The `llvm` dialect, named as upstream MLIR's, holding only what the loop
//! level emits itself: `llvm.call_intrinsic`, a call of an LLVM intrinsic by
//! name, for a target instruction that no upstream dialect op reaches (VNNI's
//! `vpdpbusd`, `llvm.x86.avx512.vpdpbusd.512`). Everything else of the LLVM
//! dialect is MLIR's lowering's business, after our IR is handed over.

pub mod ops;

use ir::attributes::{AttrData, ArrayData};
use ir::dialect::{optional, required, AttrKind, Count, DialectDef, OpDef};
use ir::{Body, Context, OpId};

pub const OPS: &[OpDef] = &[OpDef {
    name: ops::CALL_INTRINSIC,
    summary: "Calls the LLVM intrinsic `intrin` on the operands (operandSegmentSizes: [arguments, bundle operands]).",
    operands: Count::AtLeast(0),
    results: Count::AtLeast(0),
    properties: &[
        required("intrin", AttrKind::String),
        required("operandSegmentSizes", AttrKind::Any),
        optional("op_bundle_sizes", AttrKind::Any),
        optional("fastmathFlags", AttrKind::Any),
    ],
    verify: Some(verify_call_intrinsic),
    ..OpDef::DEFAULT
}];

/// The intrinsic's name is an `llvm.` string, and the segment sizes cover the operands.
fn verify_call_intrinsic(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let d = body.op(op);
    match d.attr("intrin").map(|a| a.data().clone()) {
        Some(AttrData::String { bytes, .. }) if bytes.starts_with(b"llvm.") => {}
        _ => return Err("expects 'intrin' to be a string naming an LLVM intrinsic (\"llvm.…\")".into()),
    }
    let sizes = match d.attr("operandSegmentSizes").map(|a| a.data().clone()) {
        Some(AttrData::DenseArray { data: ArrayData::Int(v), .. }) if v.len() == 2 && v.iter().all(|&x| x >= 0) => v,
        _ => return Err("expects 'operandSegmentSizes' to be array<i32: arguments, bundle operands>".into()),
    };
    if sizes.iter().sum::<i64>() as usize != d.operands().len() {
        return Err(format!("operandSegmentSizes covers {} operands, the op has {}", sizes.iter().sum::<i64>(), d.operands().len()));
    }
    Ok(())
}

pub static DIALECT: DialectDef = DialectDef { name: "llvm", ops: OPS, materialize_constant: None };

pub fn register(ctx: &Context) {
    ctx.register_dialect(&DIALECT);
}
