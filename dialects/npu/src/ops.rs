//! The `npu` dialect's tensor-level ops, typed (see `ir::typed_ops`); its
//! instruction ops are made from the ISA table (`schedule`). A conv's or
//! matmul's bias is its optional third operand.

ir::typed_ops! {
    ACT: Act = "npu.act" (input) -> (output) { act: str, min: float, max: float, alpha: float, beta: float },
    ALLOC: Alloc = "npu.alloc" () -> (buffer) { row: int, name: str },
    BATCH_MATMUL: BatchMatmul = "npu.batch_matmul" (lhs, rhs) -> (output) { transpose_b: attr, act: str, macs: int },
    CONCAT: Concat = "npu.concat" (; inputs) -> (output) { axis: int },
    CONV: Conv = "npu.conv" (input, weights; bias) -> (output) { strides: ints, pads: ints, group: int, pad_value: int, act: str, zp: int, macs: int },
    ELTWISE: Eltwise = "npu.eltwise" (lhs, rhs) -> (output) { kind: str, act: str, zp: int, macs: int },
    LAUNCH: Launch = "npu.launch" (; inputs) -> (; outputs) { program: attr },
    LAYER: Layer = "npu.layer" () -> () { name: str, macs: int },
    LAYERNORM: Layernorm = "npu.layernorm" (input, scale, bias) -> (output) { epsilon: float },
    LUT: Lut = "npu.lut" (input) -> (output) { table: attr },
    MATMUL: Matmul = "npu.matmul" (lhs, rhs; bias) -> (output) { act: str, zp: int, macs: int },
    PAD: Pad = "npu.pad" (input) -> (output) { pads: ints, value: float },
    POOL: Pool = "npu.pool" (input) -> (output) { kind: str, kernel: ints, strides: ints, pads: ints, count_include_pad: int },
    REQUANT: Requant = "npu.requant" (input) -> (output) { mult: int, shift: int, zp: int },
    SLICE: Slice = "npu.slice" (input) -> (output) { offsets: ints, steps: ints },
    SOFTMAX: Softmax = "npu.softmax" (input) -> (output),
    UPSAMPLE: Upsample = "npu.upsample" (input) -> (output) { factors: ints },
}
