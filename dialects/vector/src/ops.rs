//! The names of the `vector` ops, one constant each (see `ir::op_names`).

ir::op_names! {
    BITCAST = "vector.bitcast",
    BROADCAST = "vector.broadcast",
    CREATE_MASK = "vector.create_mask",
    FMA = "vector.fma",
    GATHER = "vector.gather",
    LOAD = "vector.load",
    MASKEDLOAD = "vector.maskedload",
    MASKEDSTORE = "vector.maskedstore",
    REDUCTION = "vector.reduction",
    SHUFFLE = "vector.shuffle",
    STORE = "vector.store",
}
