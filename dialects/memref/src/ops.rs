//! The names of the `memref` ops, one constant each (see `ir::op_names`).

ir::op_names! {
    ALLOC = "memref.alloc",
    ALLOCA = "memref.alloca",
    CAST = "memref.cast",
    COPY = "memref.copy",
    DEALLOC = "memref.dealloc",
    DIM = "memref.dim",
    GET_GLOBAL = "memref.get_global",
    GLOBAL = "memref.global",
    LOAD = "memref.load",
    PREFETCH = "memref.prefetch",
    REINTERPRET_CAST = "memref.reinterpret_cast",
    STORE = "memref.store",
    SUBVIEW = "memref.subview",
}
