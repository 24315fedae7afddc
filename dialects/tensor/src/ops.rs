//! The `tensor` ops, typed (see `ir::typed_ops`). The named structured ops
//! take their inputs then the `init` they write (MLIR's `ins`/`outs`); on
//! tensors they have one result, after bufferization none.

ir::typed_ops! {
    BATCH_MATMUL: BatchMatmul = "tensor.batch_matmul" (lhs, rhs, init) -> (; results),
    BROADCAST: Broadcast = "tensor.broadcast" (input, init) -> (; results) { dimensions: ints },
    COLLAPSE_SHAPE: CollapseShape = "tensor.collapse_shape" (src) -> (result) { reassociation: attr },
    CONCAT: Concat = "tensor.concat" (; inputs) -> (result) { dim: int },
    CONV_2D_NCHW_FCHW: Conv2DNchwFchw = "tensor.conv_2d_nchw_fchw" (input, filter, init) -> (; results) { strides: ints, dilations: ints },
    CONV_2D_NHWC_HWCF: Conv2DNhwcHwcf = "tensor.conv_2d_nhwc_hwcf" (input, filter, init) -> (; results) { strides: ints, dilations: ints },
    DEPTHWISE_CONV_2D_NCHW_CHW: DepthwiseConv2DNchwChw = "tensor.depthwise_conv_2d_nchw_chw" (input, filter, init) -> (; results) { strides: ints, dilations: ints },
    EMPTY: Empty = "tensor.empty" (; dynamic_sizes) -> (result),
    EXPAND_SHAPE: ExpandShape = "tensor.expand_shape" (src; output_shape) -> (result) { reassociation: attr, static_output_shape: ints },
    EXTRACT: Extract = "tensor.extract" (tensor; indices) -> (result),
    EXTRACT_SLICE: ExtractSlice = "tensor.extract_slice" (input, init) -> (; results) { static_offsets: ints, static_strides: ints },
    FILL: Fill = "tensor.fill" (value, init) -> (; results),
    GENERIC: Generic = "tensor.generic" (; operands) -> (; results) [region; more_regions] { indexing_maps: attr, iterator_types: attr, loop_ranges: ints },
    INDEX: Index = "tensor.index" () -> (result) { dim: int },
    INSERT_ROW: InsertRow = "tensor.insert_row" (source, dest, offset) -> (result) { dim: int },
    INSERT_SLICE: InsertSlice = "tensor.insert_slice" (input, init) -> (; results) { static_offsets: ints, static_strides: ints },
    MATMUL: Matmul = "tensor.matmul" (lhs, rhs, init) -> (; results),
    PAD: Pad = "tensor.pad" (source, padding_value) -> (result) { low: ints, high: ints },
    POOLING_NCHW_MAX: PoolingNchwMax = "tensor.pooling_nchw_max" (input, init) -> (; results) { kernel: ints, strides: ints, dilations: ints },
    POOLING_NCHW_SUM: PoolingNchwSum = "tensor.pooling_nchw_sum" (input, init) -> (; results) { kernel: ints, strides: ints, dilations: ints },
    REDUCE: Reduce = "tensor.reduce" (input, init) -> (; results) { dimensions: ints, kind: str },
    TRANSPOSE: Transpose = "tensor.transpose" (input, init) -> (; results) { permutation: ints },
    YIELD: Yield = "tensor.yield" (; values) -> (),
}
