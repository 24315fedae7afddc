//! The names compiled CPU code calls the run-time library by: the code
//! generators declare them, `cpu-runtime` binds them. One place for both
//! sides, so neither can rename a hook alone.

/// `void npu_parallel_for(void (*nest)(void **), void **args, int64_t n, int64_t work)`:
/// runs a parallel loop nest (`outline-loop-nests`) on threads; `args[n-3..n]`
/// point to the outer loop's lower bound, upper bound and step (i64) and
/// `work` is the ops the whole range runs (estimated); the runtime calls
/// `nest` on sub-ranges of them.
pub const PARALLEL_FOR: &str = "npu_parallel_for";
/// `void __npu_check_failed(int64_t id, int64_t count, int64_t value)`: a
/// run-time check of the CPU lowering (`onnx_to_tensor::checks`).
pub const CHECK_FAILED: &str = "__npu_check_failed";

/// A check's message with the offending value in place of its last `{}`
/// (a node's name, earlier in the message, may hold braces of its own): the
/// compiler fills it for a check it decides itself, a run for one that failed.
pub fn fill(message: &str, value: i64) -> String {
    match message.rfind("{}") {
        Some(k) => format!("{}{}{}", &message[..k], value, &message[k + 2..]),
        None => message.to_string(),
    }
}
/// `void npu_profile_enter(int32_t id)` / `npu_profile_exit(int32_t id)`:
/// around a model node's code (`insert-profiling`).
pub const PROFILE_ENTER: &str = "npu_profile_enter";
pub const PROFILE_EXIT: &str = "npu_profile_exit";

/// `memref<?xi8> npu_arena_push(int64_t bytes)` / `void npu_arena_pop()`:
/// a function's intermediate buffers as one block (`plan-arena`), taken on
/// entry and given back before it returns. The push is declared with MLIR's C
/// interface (its memref result comes back through a pointer), so the symbol
/// the runtime binds is [`ARENA_PUSH_SYMBOL`].
pub const ARENA_PUSH: &str = "npu_arena_push";
pub const ARENA_PUSH_SYMBOL: &str = "_mlir_ciface_npu_arena_push";
pub const ARENA_POP: &str = "npu_arena_pop";
/// Every arena block starts at a multiple of this, and every buffer's offset
/// in it is one (a cache line, as `memref.alloc`'s alignment is).
pub const ARENA_ALIGN: usize = 64;

/// The argument attribute of a model function's weight arguments (the large
/// constants the JIT passes instead of compiling them in): `pack-weight-arguments`
/// turns them into one byte buffer, which the runtime packs by [`weight_offsets`].
pub const WEIGHT_ARG: &str = "npu.weight";
/// Each weight's start in the packed buffer is a multiple of this (a cache
/// line, and every element type's alignment).
pub const WEIGHT_ALIGN: usize = 64;

/// Where each weight of `sizes` bytes (in argument order) starts in the packed
/// buffer, and the buffer's length.
pub fn weight_offsets(sizes: &[usize]) -> (Vec<usize>, usize) {
    let mut end = 0usize;
    let offsets = sizes
        .iter()
        .map(|&s| {
            let at = end.div_ceil(WEIGHT_ALIGN) * WEIGHT_ALIGN;
            end = at + s;
            at
        })
        .collect();
    (offsets, end.max(1))
}
