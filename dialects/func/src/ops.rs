//! The names of the `func` ops, one constant each (see `ir::op_names`).

ir::op_names! {
    CALL = "func.call",
    FUNC = "func.func",
    RETURN = "func.return",
}
