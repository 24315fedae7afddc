//! The `llvm` ops, typed (see `ir::typed_ops`).

ir::typed_ops! {
    CALL_INTRINSIC: CallIntrinsic = "llvm.call_intrinsic" (; args) -> (; results) { intrin: str },
}
