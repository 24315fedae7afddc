//! The names of the `llvm` ops, one constant each (see `ir::op_names`).

ir::op_names! {
    CALL_INTRINSIC = "llvm.call_intrinsic",
}
