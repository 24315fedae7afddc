//! The names of the `scf` ops, one constant each (see `ir::op_names`).

ir::op_names! {
    CONDITION = "scf.condition",
    FOR = "scf.for",
    IF = "scf.if",
    PARALLEL = "scf.parallel",
    REDUCE = "scf.reduce",
    WHILE = "scf.while",
    YIELD = "scf.yield",
}
