//! The `memref` ops, typed (see `ir::typed_ops`). Operands that upstream
//! splits into segments (an alloc's dynamic sizes and symbols, a subview's
//! dynamic offsets, sizes and strides) are one variadic rest here.

ir::typed_ops! {
    ALLOC: Alloc = "memref.alloc" (; dynamic_sizes) -> (memref) { alignment: int },
    ALLOCA: Alloca = "memref.alloca" (; dynamic_sizes) -> (memref) { alignment: int },
    CAST: Cast = "memref.cast" (source) -> (dest),
    COPY: Copy = "memref.copy" (source, target) -> (),
    DEALLOC: Dealloc = "memref.dealloc" (memref) -> (),
    DIM: Dim = "memref.dim" (source, index) -> (result),
    GET_GLOBAL: GetGlobal = "memref.get_global" () -> (result) { name: attr },
    GLOBAL: Global = "memref.global" () -> () { sym_name: str, initial_value: attr, constant: attr, alignment: int },
    LOAD: Load = "memref.load" (memref; indices) -> (result) { nontemporal: attr },
    PREFETCH: Prefetch = "memref.prefetch" (memref; indices) -> (),
    REINTERPRET_CAST: ReinterpretCast = "memref.reinterpret_cast" (source; dynamic) -> (result) { static_offsets: ints, static_sizes: ints, static_strides: ints },
    STORE: Store = "memref.store" (value, memref; indices) -> () { nontemporal: attr },
    SUBVIEW: SubView = "memref.subview" (source; dynamic) -> (result) { static_offsets: ints, static_sizes: ints, static_strides: ints },
    VIEW: View = "memref.view" (source, byte_shift; sizes) -> (result),
}
