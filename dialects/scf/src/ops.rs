//! The `scf` ops, typed (see `ir::typed_ops`). A `scf.parallel`'s bounds,
//! steps and initial values are one variadic rest (upstream's segments).

ir::typed_ops! {
    CONDITION: Condition = "scf.condition" (condition; args) -> (),
    FOR: For = "scf.for" (lower_bound, upper_bound, step; init_args) -> (; results) [region],
    IF: If = "scf.if" (condition) -> (; results) [then_region, else_region],
    PARALLEL: Parallel = "scf.parallel" (; operands) -> (; results) [region],
    REDUCE: Reduce = "scf.reduce" (; operands) -> () [; reductions],
    WHILE: While = "scf.while" (; inits) -> (; results) [before, after],
    YIELD: Yield = "scf.yield" (; results) -> (),
}
