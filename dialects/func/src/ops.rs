//! The `func` ops, typed (see `ir::typed_ops`).

ir::typed_ops! {
    CALL: Call = "func.call" (; operands) -> (; results) { callee: attr },
    FUNC: Func = "func.func" () -> () [body] { sym_name: str, function_type: attr, sym_visibility: str },
    RETURN: Return = "func.return" (; operands) -> (),
}
