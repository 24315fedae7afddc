//! The names of the `npu` ops, one constant each (see `ir::op_names`).

ir::op_names! {
    ACT = "npu.act",
    ALLOC = "npu.alloc",
    BATCH_MATMUL = "npu.batch_matmul",
    CONCAT = "npu.concat",
    CONV = "npu.conv",
    ELTWISE = "npu.eltwise",
    LAUNCH = "npu.launch",
    LAYER = "npu.layer",
    LAYERNORM = "npu.layernorm",
    LUT = "npu.lut",
    MATMUL = "npu.matmul",
    PAD = "npu.pad",
    POOL = "npu.pool",
    REQUANT = "npu.requant",
    SLICE = "npu.slice",
    SOFTMAX = "npu.softmax",
    UPSAMPLE = "npu.upsample",
}
