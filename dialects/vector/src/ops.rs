//! The `vector` ops, typed (see `ir::typed_ops`). Where upstream has a
//! variadic group between fixed operands (a gather's or masked access's
//! base, indices, mask and pass-through), the operands are one rest.

ir::typed_ops! {
    BITCAST: Bitcast = "vector.bitcast" (source) -> (result),
    BROADCAST: Broadcast = "vector.broadcast" (source) -> (vector),
    CREATE_MASK: CreateMask = "vector.create_mask" (; operands) -> (result),
    FMA: Fma = "vector.fma" (lhs, rhs, acc) -> (result),
    GATHER: Gather = "vector.gather" (; operands) -> (result) { alignment: int },
    LOAD: Load = "vector.load" (base; indices) -> (result) { alignment: int },
    MASKEDLOAD: MaskedLoad = "vector.maskedload" (; operands) -> (result) { alignment: int },
    MASKEDSTORE: MaskedStore = "vector.maskedstore" (; operands) -> () { alignment: int },
    REDUCTION: Reduction = "vector.reduction" (vector; acc) -> (dest) { kind: attr, fastmath: attr },
    SHUFFLE: Shuffle = "vector.shuffle" (v1, v2) -> (result) { mask: ints },
    STORE: Store = "vector.store" (value_to_store, base; indices) -> () { alignment: int },
}
