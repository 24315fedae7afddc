//! The `npu16` NPU as a backend: the capability query the partitioner asks
//! of every `onnx` op, answered from one table of per-op checks, with a reason
//! code and message when the answer is no (the report prints them, as Vela
//! lists its CPU ops); its grouping rules are in `fusion.rs`.

use onnx::ops;
use backend::{Backend, Capability, CapabilityCase, Reason, Unsupported};
use ir::{Body, Context, OpId, Value};
use npu::hw::HwDesc;

/// The backend's name in `--target` lists and on its partitions.
pub const NAME: &str = "npu16";

/// The NPU of `docs/npu-sim.md`; its hardware description travels on the
/// module (`npu.hw`, default `npu16`).
pub struct Npu;

/// The hardware description of a module (`npu.hw`, default `npu16`).
pub fn module_hw(body: &Body, module: OpId) -> Result<HwDesc, String> {
    match body.op(module).attr(npu::attrs::HW) {
        Some(a) => HwDesc::from_attr(a),
        None => Ok(HwDesc::npu16()),
    }
}

/// Makes npu16 known to the backend registry (idempotent).
pub fn register() {
    backend::register_once(|| std::sync::Arc::new(Npu)).expect("npu16 registers once with a valid name");
}

fn no(reason: Reason, message: impl Into<String>) -> Unsupported {
    Unsupported::new(reason, message)
}

type Check = fn(&Npu, &Body, OpId) -> Result<(), Unsupported>;

const BINARY: &str = "static f32 tensors; operands of one shape, or one of them a single value (a constant) or one value per channel ([1, C, 1, 1] of an NCHW tensor, [.., 1, N] of others; a constant or computed); fused activation (Relu, Clip, Sigmoid, Tanh)";
const VARIADIC: &str = "two operands as Add; more as a chain of binary ops, all of the result's shape";
const DIV: &str = "as Add, with a constant divisor (a product with its reciprocal: the vector unit has no divide)";
const ACTIVATION: &str = "static f32 tensors; fused into the NPU op producing its input (Conv, Gemm, MatMul, the elementwise ops) when it is that op's only user, else a pass of the vector unit";
const POOL: &str = "static f32 tensors; 2-D; batch 1, or up to 32 as one pool per image; explicit pads (auto_pad NOTSET or VALID) smaller than the window; no ceil_mode, dilation 1, no indices output; an AveragePool counting the padding (count_include_pad) only without pads";

/// One row per op the NPU runs: its check and its constraints in words (the
/// docs page `docs/npu16-ops.md` is generated from them).
const CAPABILITIES: &[(&str, Check, &str)] = &[
    (ops::Conv::NAME, conv, "static f32 tensors; 2-D; batch 1, or up to 32 as one conv per image (f32); constant weights and bias; explicit pads (auto_pad NOTSET or VALID) smaller than the kernel; dense, depthwise (one channel per group), or grouped (as a dense convolution with block-diagonal weights: the array also multiplies the zeros); dilated when the kernel with zeros between its taps does at most 3x its work (3x3 with dilation 2: 5x5), run as that kernel"),
    (ops::ConvTranspose::NAME, conv_transpose, "static f32 tensors; 2-D; batch 1, or up to 32 as one per image; constant weights and bias; dilation 1; any stride, padding and group: one stride-1 convolution with stride_h·stride_w times the output channels (one per output phase; grouped as block-diagonal weights) and a strided copy that interleaves the phases"),
    (ops::Gemm::NAME, gemm, "static f32 tensors; A 2-D, B constant, C absent or a constant row of N values; transA 0; alpha and beta 1; a K too deep for the scratchpad (a classifier's FC) in parts: A split by the DMA engines, one product per part, their sum"),
    (ops::MatMul::NAME, matmul, "static f32 tensors; A and B not vectors. B a constant matrix: weight-stationary, packed in tile order. Else (attention's QKᵀ and AV, batched weights) batch by batch with B's tiles read from DRAM as they are, a Transpose of B's last two dims folded in (`mx.preload … transpose`); batch dims equal (after leading 1s), or B one matrix"),
    (ops::GRU::NAME, recurrent, "written out as its steps before partitioning, as LSTM: per step z and r from one recurrent MatMul, the candidate from R_h times r·h (or r times R_h·h + Rb_h with linear_before_reset), h = h̃ + z·(h − h̃); the same conditions"),
    (ops::LSTM::NAME, recurrent, "written out as its steps before partitioning (`onnx::unroll_recurrent`: one MatMul for every step's input projection, per step the recurrent MatMul, the gate Split, Sigmoid/Tanh and the cell update, all on the NPU): f32, static shapes, layout 0, the default activations, no clip, peepholes or input_forget, sequence_lens only saying every sequence is whole, constant W, R and B, at most 512 steps times directions; another stays whole on the CPU with the reason"),
    (ops::Relu::NAME, input_static, ACTIVATION),
    (ops::PRelu::NAME, prelu, "static f32 tensors; a constant slope of one value or one per channel ([C, 1, 1] of an NCHW tensor, [N] of others' last dim): x − (1 − slope)·Min(x, 0), three passes of the vector unit"),
    (ops::LRN::NAME, lrn, "static f32 NCHW tensors; batch 1, or up to 32 as one per image; beta 0.5, 0.75 or 1: the squares' sum over each channel's window as a 1×1 convolution with banded weights on the array (alpha/size inside the window, bias as its bias), its −beta power by v.rsqrt/v.recip, a product with x"),
    (ops::Clip::NAME, clip, "constant min and max; as Relu"),
    (ops::Sigmoid::NAME, input_static, ACTIVATION),
    (ops::Tanh::NAME, input_static, ACTIVATION),
    (ops::HardSigmoid::NAME, input_static, "static f32 tensors; a pass of the vector unit (a product, a sum and a clamp)"),
    (ops::HardSwish::NAME, input_static, "static f32 tensors; a pass of the vector unit (x times its HardSigmoid)"),
    (ops::Erf::NAME, input_static, "static f32 tensors; a pass of the vector unit (v.erf, within 1 ulp; GELU's Erf)"),
    (ops::LeakyRelu::NAME, input_static, "static f32 tensors; a pass of the vector unit (the larger or smaller of x and alpha·x)"),
    (ops::Add::NAME, binary, BINARY),
    (ops::Sub::NAME, binary, BINARY),
    (ops::Mul::NAME, binary, BINARY),
    (ops::Div::NAME, binary, DIV),
    (ops::Max::NAME, variadic, VARIADIC),
    (ops::Min::NAME, variadic, VARIADIC),
    (ops::Sum::NAME, variadic, VARIADIC),
    (ops::Mean::NAME, variadic, "as Sum, then a product with 1/n"),
    (ops::MaxPool::NAME, pool, POOL),
    (ops::AveragePool::NAME, pool, POOL),
    (ops::GlobalAveragePool::NAME, global_pool, "static f32 tensors; 2-D; batch 1, or up to 32 as one pool per image; the window's partial sums must fit the accumulator (else the partition falls back: compile-failed)"),
    (ops::GlobalMaxPool::NAME, global_pool, "static f32 tensors; 2-D; batch 1, or up to 32 as one pool per image"),
    (ops::ReduceMean::NAME, spatial_mean, "static f32 tensors; batch 1, 4-D, over H and W (axes 2 and 3) keeping them: a global average pool"),
    (ops::BatchNormalization::NAME, batch_norm, "static f32 tensors; inference (one output), constant scale, bias, mean and variance: a per-channel product and sum on the vector unit (after a Conv it folds into the Conv's weights before partitioning)"),
    (ops::LayerNormalization::NAME, layer_norm, "static f32 tensors; over the innermost dim (axis −1), up to 8,192 elements; constant Scale and B; the Mean and InvStdDev outputs unused: lane sums (v.hsum), v.rsqrt and per-channel rows on the vector unit. Also as exporters write it out before opset 17 (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, a constant per-channel Mul and Add), taken as one"),
    (ops::Softmax::NAME, softmax, "static f32 tensors; over the innermost dim, up to 8,192 elements: v.hmax, v.exp, v.hsum and v.recip on the vector unit (as a Flatten/Softmax/Reshape of an opset before 13 whose axis is the last)"),
    (ops::Flatten::NAME, input_static, RESHAPE),
    (ops::Reshape::NAME, input_static, RESHAPE),
    (ops::Squeeze::NAME, input_static, RESHAPE),
    (ops::Unsqueeze::NAME, input_static, RESHAPE),
    (ops::Transpose::NAME, transpose, "static f32 tensors; a strided copy by the DMA engines (none where only unit dims move); one that moves the innermost dim copies one element per DMA row, so only up to 1024 elements, except a feature map made tokens or tokens made a map (Reshape to [N, C, H·W] and Transpose [0, 2, 1], and back; a Transpose to NCHW for ops that read NHWC), which are the NHWC bytes as they are: free"),
    (ops::Concat::NAME, movement, "static f32 tensors; each operand copied into its part of the result by the DMA engines (constants from the constant image)"),
    (ops::Split::NAME, movement, "static f32 tensors; each output a strided copy by the DMA engines"),
    (ops::Slice::NAME, slice, "static f32 tensors; constant starts, axes and steps, steps positive; a strided copy by the DMA engines"),
    (ops::Pad::NAME, pad, "static f32 tensors; mode constant, constant pads (non-negative) and value; the input copied into the middle of the result and the border from the constant image by the DMA engines (a zero Pad of H and W before a Conv folds into the Conv's padding before partitioning)"),
    (ops::Resize::NAME, resize, "static f32 tensors; 4-D, nearest, integer upsampling of H and W (N and C kept), coordinates half_pixel or pytorch_half_pixel with a rounding nearest_mode, or asymmetric with floor; each pixel stored fh·fw times by the DMA engines. Linear (bilinear) upsampling by integer factors, batch 1, half_pixel, pytorch_half_pixel or asymmetric: the edge rows and columns repeated by DMA, then a depthwise transposed convolution whose kernel is the interpolation's weights"),
];

const RESHAPE: &str = "static f32 tensors; the same bytes (free: the result aliases its input in DRAM)";

/// The corners of the table's constraints, each a model whose op must run on
/// npu16 or fall back with the code given (`tools::testkit::capability_trials`;
/// inputs after the first are constants there, as weights).
const CASES: &[CapabilityCase] = &[
    case("conv_3x3_padded", "g (float[1,4,6,6] x, float[8,4,3,3] w) => (float[1,8,6,6] y) { [conv] y = Conv <pads = [1,1,1,1]> (x, w) }", ops::Conv::NAME, None),
    case("conv_grouped", "g (float[1,8,6,6] x, float[8,2,3,3] w) => (float[1,8,4,4] y) { [conv] y = Conv <group = 4> (x, w) }", ops::Conv::NAME, None),
    case("conv_dilated", "g (float[1,4,6,6] x, float[8,4,3,3] w) => (float[1,8,6,6] y) { [conv] y = Conv <pads = [2,2,2,2], dilations = [2,2]> (x, w) }", ops::Conv::NAME, None),
    case("conv_dilated_strided_grouped", "g (float[1,4,9,8] x, float[6,2,3,2] w) => (float[1,6,4,5] y) { [conv] y = Conv <pads = [1,2,2,1], dilations = [2,2], strides = [2,2], group = 2> (x, w) }", ops::Conv::NAME, None),
    case("conv_dilated_depthwise", "g (float[1,4,7,7] x, float[4,1,3,3] w) => (float[1,4,7,7] y) { [conv] y = Conv <pads = [2,2,2,2], dilations = [2,2], group = 4> (x, w) }", ops::Conv::NAME, None),
    case("conv_dilated_3", "g (float[1,4,9,9] x, float[8,4,3,3] w) => (float[1,8,9,9] y) { [conv] y = Conv <pads = [3,3,3,3], dilations = [3,3]> (x, w) }", ops::Conv::NAME, Some(Reason::Attribute)),
    case("conv_batch_2", "g (float[2,4,6,6] x, float[8,4,3,3] w) => (float[2,8,4,4] y) { [conv] y = Conv (x, w) }", ops::Conv::NAME, None),
    case("conv_batch_3_relu_maxpool", "g (float[3,4,6,6] x, float[8,4,3,3] w) => (float[3,8,2,2] y) { [conv] c = Conv (x, w) [relu] r = Relu (c) [pool] y = MaxPool <kernel_shape = [2,2], strides = [2,2]> (r) }", ops::MaxPool::NAME, None),
    case("conv_batch_33", "g (float[33,4,6,6] x, float[8,4,3,3] w) => (float[33,8,4,4] y) { [conv] y = Conv (x, w) }", ops::Conv::NAME, Some(Reason::Shape)),
    case("conv_batch_2_dilated_3", "g (float[2,4,9,9] x, float[8,4,3,3] w) => (float[2,8,9,9] y) { [conv] y = Conv <pads = [3,3,3,3], dilations = [3,3]> (x, w) }", ops::Conv::NAME, Some(Reason::Attribute)),
    case("conv_pads_as_large_as_the_kernel", "g (float[1,4,6,6] x, float[8,4,3,3] w) => (float[1,8,10,10] y) { [conv] y = Conv <pads = [3,3,3,3]> (x, w) }", ops::Conv::NAME, Some(Reason::Attribute)),
    case("conv_transpose_2x2_stride_2", "g (float[1,4,5,5] x, float[4,3,2,2] w) => (float[1,3,10,10] y) { [up] y = ConvTranspose <strides = [2,2]> (x, w) }", ops::ConvTranspose::NAME, None),
    case("conv_transpose_4x4_stride_2_padded", "g (float[1,4,5,5] x, float[4,3,4,4] w) => (float[1,3,10,10] y) { [up] y = ConvTranspose <strides = [2,2], pads = [1,1,1,1]> (x, w) }", ops::ConvTranspose::NAME, None),
    case("conv_transpose_dilated", "g (float[1,4,5,5] x, float[4,3,3,3] w) => (float[1,3,9,9] y) { [up] y = ConvTranspose <dilations = [2,2]> (x, w) }", ops::ConvTranspose::NAME, Some(Reason::Attribute)),
    case("matmul_constant_b", "g (float[4,8] x, float[8,5] w) => (float[4,5] y) { [mm] y = MatMul (x, w) }", ops::MatMul::NAME, None),
    case("matmul_of_two_activations", "g (float[4,8] x) => (float[4,4] y) { [t] xt = Transpose (x) [mm] y = MatMul (x, xt) }", ops::MatMul::NAME, None),
    case("matmul_attention_scores", "g (float[1,2,6,8] x) => (float[1,2,6,6] y) { [t] xt = Transpose <perm = [0,1,3,2]> (x) [mm] y = MatMul (x, xt) }", ops::MatMul::NAME, None),
    case("matmul_batched_weights", "g (float[3,4,8] x, float[3,8,5] w) => (float[3,4,5] y) { [mm] y = MatMul (x, w) }", ops::MatMul::NAME, None),
    case("matmul_constant_b_of_leading_ones", "g (float[2,4,8] x, float[1,8,5] w) => (float[2,4,5] y) { [mm] y = MatMul (x, w) }", ops::MatMul::NAME, None),
    case("matmul_broadcast_a", "g (float[1,4,8] x, float[3,8,5] w) => (float[3,4,5] y) { [mm] y = MatMul (x, w) }", ops::MatMul::NAME, Some(Reason::Shape)),
    case("matmul_empty_k", "g (float[2,0] a, float[0,3] b) => (float[2,3] y) { [mm] y = MatMul (a, b) }", ops::MatMul::NAME, Some(Reason::Shape)),
    case("gemm_trans_a", "g (float[8,4] a, float[8,5] b) => (float[4,5] y) { [gemm] y = Gemm <transA = 1> (a, b) }", ops::Gemm::NAME, Some(Reason::Attribute)),
    case("add_same_shapes", "g (float[1,8,4,4] x) => (float[1,8,4,4] y) { [add] y = Add (x, x) }", ops::Add::NAME, None),
    case("add_per_channel", "g (float[1,8,4,4] x, float[1,8,1,1] b) => (float[1,8,4,4] y) { [add] y = Add (x, b) }", ops::Add::NAME, None),
    case("add_spatial_broadcast", "g (float[1,8,4,4] x, float[1,1,4,4] b) => (float[1,8,4,4] y) { [add] y = Add (x, b) }", ops::Add::NAME, Some(Reason::Shape)),
    case("div_by_constant", "g (float[1,8,4,4] x, float[1] b) => (float[1,8,4,4] y) { [div] y = Div (x, b) }", ops::Div::NAME, None),
    case("lstm_as_steps", "g (float[3,1,4] x, float[1,16,4] w, float[1,16,4] r, float[1,32] b) => (float[3,1,1,4] y) { [lstm] y = LSTM <hidden_size = 4> (x, w, r, b) }", ops::MatMul::NAME, None),
    case("gru_as_steps", "g (float[3,1,4] x, float[1,12,4] w, float[1,12,4] r, float[1,24] b) => (float[3,1,1,4] y) { [gru] y = GRU <hidden_size = 4, linear_before_reset = 1> (x, w, r, b) }", ops::MatMul::NAME, None),
    case("lstm_clipped", "g (float[3,1,4] x, float[1,16,4] w, float[1,16,4] r) => (float[3,1,1,4] y) { [lstm] y = LSTM <hidden_size = 4, clip = 0.5> (x, w, r) }", ops::LSTM::NAME, Some(Reason::Attribute)),
    case("prelu_per_channel", "g (float[1,8,4,4] x, float[8,1,1] s) => (float[1,8,4,4] y) { [prelu] y = PRelu (x, s) }", ops::PRelu::NAME, None),
    case("prelu_one_slope", "g (float[2,6] x, float[1] s) => (float[2,6] y) { [prelu] y = PRelu (x, s) }", ops::PRelu::NAME, None),
    case("prelu_spatial_slope", "g (float[1,8,4,4] x, float[4] s) => (float[1,8,4,4] y) { [prelu] y = PRelu (x, s) }", ops::PRelu::NAME, Some(Reason::Shape)),
    case("lrn_across_channels", "g (float[1,20,5,5] x) => (float[1,20,5,5] y) { [lrn] y = LRN <size = 5, alpha = 0.0002, beta = 0.75, bias = 2.0> (x) }", ops::LRN::NAME, None),
    case("lrn_beta_one_even_size", "g (float[1,6,3,3] x) => (float[1,6,3,3] y) { [lrn] y = LRN <size = 4, alpha = 0.5, beta = 1.0> (x) }", ops::LRN::NAME, None),
    case("lrn_other_beta", "g (float[1,6,3,3] x) => (float[1,6,3,3] y) { [lrn] y = LRN <size = 3, beta = 0.6> (x) }", ops::LRN::NAME, Some(Reason::Attribute)),
    case("resize_bilinear_x2", "g (float[1,3,4,5] x) => (float[1,3,8,10] y) { s = Constant <value = float[4] {1.0, 1.0, 2.0, 2.0}> () [rs] y = Resize <mode = \"linear\"> (x, \"\", s) }", ops::Resize::NAME, None),
    case("resize_linear_scale_not_the_factor", "g (float[1,3,5,5] x) => (float[1,3,10,10] y) { s = Constant <value = float[4] {1.0, 1.0, 2.1, 2.1}> () [rs] y = Resize <mode = \"linear\"> (x, \"\", s) }", ops::Resize::NAME, Some(Reason::Attribute)),
    case("resize_linear_align_corners", "g (float[1,3,4,5] x) => (float[1,3,8,10] y) { s = Constant <value = float[4] {1.0, 1.0, 2.0, 2.0}> () [rs] y = Resize <mode = \"linear\", coordinate_transformation_mode = \"align_corners\"> (x, \"\", s) }", ops::Resize::NAME, Some(Reason::Attribute)),
    case("matmul_deeper_than_the_scratchpad", "g (float[2,9000] x, float[9000,20] w) => (float[2,20] y) { [mm] y = MatMul (x, w) }", ops::MatMul::NAME, None),
    case("gemm_deeper_than_the_scratchpad", "g (float[1,9000] x, float[8,9000] w, float[8] b) => (float[1,8] y) { [gemm] y = Gemm <transB = 1> (x, w, b) }", ops::Gemm::NAME, None),
    case("relu_alone", "g (float[1,8,4,4] x) => (float[1,8,4,4] y) { [relu] y = Relu (x) }", ops::Relu::NAME, None),
    case("hardswish", "g (float[1,8,4,4] x) => (float[1,8,4,4] y) { [hs] y = HardSwish (x) }", ops::HardSwish::NAME, None),
    case("erf", "g (float[1,8,4,4] x) => (float[1,8,4,4] y) { [erf] y = Erf (x) }", ops::Erf::NAME, None),
    case("relu_after_conv", "g (float[1,4,6,6] x, float[8,4,1,1] w) => (float[1,8,6,6] y) { [conv] c = Conv (x, w) [relu] y = Relu (c) }", ops::Relu::NAME, None),
    case("layernorm_last_axis", "g (float[1,6,40] x, float[40] s, float[40] b) => (float[1,6,40] y) { [ln] y = LayerNormalization <axis = -1> (x, s, b) }", ops::LayerNormalization::NAME, None),
    case("layernorm_over_two_axes", "g (float[1,6,40] x, float[6,40] s) => (float[1,6,40] y) { [ln] y = LayerNormalization <axis = 1> (x, s) }", ops::LayerNormalization::NAME, Some(Reason::Attribute)),
    case("layernorm_scale_broadcast", "g (float[1,6,40] x, float[1] s) => (float[1,6,40] y) { [ln] y = LayerNormalization <axis = -1> (x, s) }", ops::LayerNormalization::NAME, Some(Reason::Shape)),
    case("softmax_last_axis", "g (float[2,3,20] x) => (float[2,3,20] y) { [sm] y = Softmax (x) }", ops::Softmax::NAME, None),
    case("softmax_channels", "g (float[1,8,4,4] x) => (float[1,8,4,4] y) { [sm] y = Softmax <axis = 1> (x) }", ops::Softmax::NAME, Some(Reason::Attribute)),
    case("softmax_row_too_long", "g (float[2,9000] x) => (float[2,9000] y) { [sm] y = Softmax (x) }", ops::Softmax::NAME, Some(Reason::Shape)),
    case("channel_shuffle_transpose", "g (float[1,2,3,4,4] x) => (float[1,3,2,4,4] y) { [t] y = Transpose <perm = [0,2,1,3,4]> (x) }", ops::Transpose::NAME, None),
    case("pad_border", "g (float[1,4,5,5] x) => (float[1,4,7,8] y) { p = Constant <value = int64[8] {0, 0, 1, 2, 0, 0, 1, 1}> () [pad] y = Pad (x, p) }", ops::Pad::NAME, None),
    case("pad_reflect", "g (float[1,4,5,5] x) => (float[1,4,7,8] y) { p = Constant <value = int64[8] {0, 0, 1, 2, 0, 0, 1, 1}> () [pad] y = Pad <mode = \"reflect\"> (x, p) }", ops::Pad::NAME, Some(Reason::Attribute)),
    case("maxpool_2x2", "g (float[1,4,6,6] x) => (float[1,4,3,3] y) { [pool] y = MaxPool <kernel_shape = [2,2], strides = [2,2]> (x) }", ops::MaxPool::NAME, None),
    case("maxpool_ceil_mode", "g (float[1,4,5,5] x) => (float[1,4,3,3] y) { [pool] y = MaxPool <kernel_shape = [2,2], strides = [2,2], ceil_mode = 1> (x) }", ops::MaxPool::NAME, Some(Reason::Attribute)),
];

const fn case(name: &'static str, model: &'static str, op: &'static str, refused: Option<Reason>) -> CapabilityCase {
    CapabilityCase { name, model, op, refused }
}

/// Ops taken only as members of a quantized group (`fusion.rs`, `quant.rs`).
const GROUPED: &[(&str, &str)] = &[
    (ops::Pow::NAME, "the square of a LayerNorm written out (see LayerNormalization)"),
    (ops::Sqrt::NAME, "the root of a LayerNorm written out (see LayerNormalization)"),
    (ops::DequantizeLinear::NAME, "int8 (QDQ): with the Conv, Gemm, MatMul, Add, MaxPool, GlobalAveragePool, AveragePool (padding not counted), function of one value (Sigmoid, HardSwish, Tanh, LeakyRelu, Elu… as a 256-entry table, `v.lut`) or data movement (Flatten, Reshape, Squeeze, Unsqueeze, Transpose; MaxPool and these with one scale and zero point on both sides) it feeds: int8 activations per tensor with any zero point, int8 or uint8 weights per tensor or per output channel (with zero points: as symmetric int8 parts over a repeated reduction, in ungrouped products), a constant int32 bias; positive finite scales; asymmetric weights of a grouped (not depthwise) convolution stay on the CPU with that reason"),
    (ops::QuantizeLinear::NAME, "int8 (QDQ): the output of a quantized Conv, Gemm, MatMul, Add, MaxPool, GlobalAveragePool, AveragePool, function of one value or data movement, with a following DequantizeLinear → Relu/Clip → QuantizeLinear folded in"),
    (ops::Elu::NAME, "int8 only: between a DequantizeLinear and a QuantizeLinear (per tensor, int8) as a 256-entry table (`npu.lut`, `v.lut`: npu16 revision 3)"),
    (ops::Selu::NAME, "int8 only, as Elu"),
    (ops::Softplus::NAME, "int8 only, as Elu"),
    (ops::Softsign::NAME, "int8 only, as Elu"),
    (ops::Mish::NAME, "int8 only, as Elu"),
    (ops::Gelu::NAME, "int8 only, as Elu"),
    (ops::Exp::NAME, "int8 only, as Elu"),
    (ops::Neg::NAME, "int8 only, as Elu"),
    (ops::Abs::NAME, "int8 only, as Elu"),
    (ops::QLinearConv::NAME, "int8 activations with any zero point, constant int8 or uint8 weights (with zero points: as symmetric parts, ungrouped); the Conv constraints"),
    (ops::QLinearMatMul::NAME, "int8 activations with any zero point, a constant int8 or uint8 B matrix (with zero points: as symmetric parts)"),
    (ops::ConvInteger::NAME, "constant weights; the Conv constraints; int8 with zero points 0 as it is; unpadded, one group, uint8 or int8 with any zero points (DynamicQuantizeLinear's) as an int8 product with its exact i32 corrections on the CPU"),
    (ops::MatMulInteger::NAME, "constant B; int8 with zero points 0 as it is; uint8 or int8 with any zero points (DynamicQuantizeLinear's, known at run time) as an int8 product with its exact i32 corrections on the CPU"),
];

impl Backend for Npu {
    fn name(&self) -> &str {
        NAME
    }
    fn prepare(&self, ctx: &Context, body: &mut Body, module: OpId) -> Result<(), String> {
        let hw = module_hw(body, module)?;
        if body.op(module).attr(npu::attrs::HW).is_none() {
            body.op_mut(module).attributes.set(ctx.ident(npu::attrs::HW), hw.to_attr(ctx));
        }
        // The array multiplies int8: uint8 activations become int8, exactly.
        super::uint8::rewrite(ctx, body, module);
        // Integer products with zero points (dynamic quantization): the product on
        // int8 with zero points 0, the corrections on the CPU, exactly.
        super::dynamic::rewrite(ctx, body, module);
        // Weights with zero points: the product over n times the reduction, in symmetric int8 parts, exactly.
        super::asymmetric::rewrite(ctx, body, module);
        // No loops on the NPU: an LSTM or GRU runs as its steps written out (one that
        // cannot be stays whole, and on the CPU with its reason).
        // One a placement rule pins to another backend stays whole for it.
        let ours = |body: &Body, op: OpId| body.op(op).str_attr(backend::partition::PINNED_ATTR).is_none_or(|b| b == NAME);
        onnx::unroll_recurrent::unroll_all(ctx, body, module, onnx::unroll_recurrent::DEFAULT_MAX_STEPS, ours);
        // Convolutions and pools of a batch of images: one of each per image.
        super::batch::rewrite(ctx, body, module, &ours, &|body: &Body, op: OpId| self.supports(body, op).is_ok());
        // Chains of layers whose maps do not fit on chip: band by band, the bands' maps on chip.
        super::bands::rewrite(ctx, body, module, &hw, &ours, &|body: &Body, op: OpId| self.supports(body, op).is_ok());
        Ok(())
    }
    fn supports(&self, body: &Body, op: OpId) -> Result<(), Unsupported> {
        let name = body.name(op);
        let Some((_, check, _)) = CAPABILITIES.iter().find(|(n, _, _)| *n == name.as_str()) else {
            return Err(no(Reason::NoLowering, format!("no NPU lowering for {}", name.as_str())));
        };
        for &r in body.op(op).results() {
            let s = static_f32(body, r)?;
            if s.is_empty() || s.contains(&0) {
                return Err(no(Reason::Shape, format!("{} result (nothing for the NPU to stream)", if s.is_empty() { "a scalar" } else { "an empty" })));
            }
        }
        let operands = body.op(op).operands();
        // A MatMul over an empty K has a result but nothing to multiply (an
        // empty constant, a Resize's unused roi, is no data to stream).
        if operands.iter().any(|v| !is_constant(body, *v) && body.value_type(*v).shape().is_some_and(|s| s.contains(&0))) {
            return Err(no(Reason::Shape, "an empty operand (nothing for the NPU to stream)"));
        }
        if !operands.is_empty() && operands.iter().all(|v| is_constant(body, *v)) {
            return Err(no(Reason::Constraint, "every operand is a constant (nothing to stream through the NPU)"));
        }
        check(self, body, op)
    }
    fn capabilities(&self) -> Vec<Capability> {
        CAPABILITIES.iter().map(|(op, _, constraints)| Capability { op, constraints }).chain(GROUPED.iter().map(|(op, constraints)| Capability { op, constraints })).collect()
    }
    fn capability_cases(&self) -> Vec<CapabilityCase> {
        CASES.to_vec()
    }
    fn group(&self, body: &Body, ops: &[OpId], answers: &mut [Result<(), Unsupported>]) -> Vec<usize> {
        super::fusion::group(body, ops, answers)
    }
}

/// The shape of a static f32 tensor, or why the NPU path cannot take it.
pub fn static_f32(body: &Body, v: Value) -> Result<Vec<i64>, Unsupported> {
    let t = body.value_type(v);
    let s = t.shape().ok_or_else(|| no(Reason::DynamicShape, format!("unranked tensor {}", t)))?;
    if s.iter().any(|d| *d < 0) {
        return Err(no(Reason::DynamicShape, format!("dynamic shape {}", t)));
    }
    match t.element_type() {
        Some(e) if e.to_string() == "f32" => Ok(s.to_vec()),
        Some(e) => Err(no(Reason::ElementType, format!("element type {} (the NPU path takes f32; int8 only through QDQ, not yet)", e))),
        None => Err(no(Reason::ElementType, format!("not a tensor: {}", t))),
    }
}

pub fn is_constant(body: &Body, v: Value) -> bool {
    body.defining_op(v).is_some_and(|d| body.name(d).as_str() == ops::Constant::NAME)
}

fn operand(body: &Body, op: OpId, i: usize) -> Option<Value> {
    body.op(op).operands().get(i).copied()
}

fn no_auto_pad(body: &Body, op: OpId) -> Result<(), Unsupported> {
    match body.op(op).str_attr("auto_pad").unwrap_or("NOTSET") {
        "NOTSET" | "VALID" => Ok(()),
        a => Err(no(Reason::Attribute, format!("auto_pad {} (explicit pads only)", a))),
    }
}

/// A static f32 input, f32 weights and bias (when present) that are constants.
fn constant_weights(body: &Body, op: OpId) -> Result<(), Unsupported> {
    static_f32(body, operand(body, op, 0).ok_or("no input")?)?;
    static_f32(body, operand(body, op, 1).ok_or("no weights")?)?;
    if !is_constant(body, operand(body, op, 1).unwrap()) {
        return Err(no(Reason::NotConstant, "weights are not constant"));
    }
    match operand(body, op, 2) {
        Some(b) if !is_constant(body, b) && !matches!(body.value_type(b).data(), ir::types::TypeData::None) => Err(no(Reason::NotConstant, "bias is not constant")),
        _ => Ok(()),
    }
}

fn prelu(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    let x = static_f32(body, operand(body, op, 0).ok_or("no input")?)?;
    let s = operand(body, op, 1).ok_or("no slope")?;
    let ss = static_f32(body, s)?;
    if !is_constant(body, s) {
        return Err(no(Reason::NotConstant, "slope is not constant"));
    }
    let n: i64 = ss.iter().product();
    // The slope right-aligned against x: one value, or the channels.
    let padded: Vec<i64> = std::iter::repeat_n(1, x.len().saturating_sub(ss.len())).chain(ss.iter().copied()).collect();
    let channel = if x.len() == 4 { 1 } else { x.len().saturating_sub(1) };
    let per_channel = padded.len() == x.len() && padded.iter().enumerate().all(|(i, d)| *d == 1 || (i == channel && *d == x[i]));
    if n == 1 || per_channel {
        Ok(())
    } else {
        Err(no(Reason::Shape, format!("slope {:?} against {:?} (one value or one per channel)", ss, x)))
    }
}

fn lrn(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    let x = static_f32(body, operand(body, op, 0).ok_or("no input")?)?;
    if x.len() != 4 {
        return Err(no(Reason::Shape, format!("{}-D input (NCHW only)", x.len())));
    }
    let beta = body.op(op).float_attr("beta").unwrap_or(0.75);
    if !npu::tensor_ops::RPOW_BETAS.contains(&beta) {
        return Err(no(Reason::Attribute, format!("beta {} (0.5, 0.75 or 1: the powers v.rsqrt and v.recip make)", beta)));
    }
    if body.op(op).int_attr("size").unwrap_or(0) < 1 {
        return Err(no(Reason::Attribute, "size below 1"));
    }
    one_image(x[0])
}

/// An LSTM or GRU still here is one `prepare` could not write out: say why.
fn recurrent(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    use onnx::unroll_recurrent::Cause;
    let k = onnx::unroll_recurrent::why_kept(body, op, onnx::unroll_recurrent::DEFAULT_MAX_STEPS);
    let reason = match k.cause {
        Cause::Attribute => Reason::Attribute,
        Cause::Operand => Reason::Constraint,
        Cause::NotConstant => Reason::NotConstant,
        Cause::Shape => Reason::Shape,
    };
    Err(no(reason, format!("{} is written out as its steps, not this one: {}", body.name(op).as_str().trim_start_matches("onnx."), k)))
}

fn conv(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    constant_weights(body, op)?;
    // f32: a grouped convolution runs as a dense one with block-diagonal weights (`to_npu`).
    conv_geometry_of(body, op, 1, true)
}

fn conv_transpose(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    constant_weights(body, op)?;
    super::deconv::plan(body, op).map(|_| ())
}

/// What the NPU's convolution kernel takes in int8 (dense or depthwise).
pub fn conv_geometry(body: &Body, op: OpId) -> Result<(), Unsupported> {
    conv_geometry_of(body, op, 1, false)
}

/// How much more work than its own a dilated kernel may do as the dense
/// kernel with zeros between its taps that the array runs: 3x3 with dilation
/// 2 (25 taps for 9) is taken, dilation 3 (49 for 9) is not.
const MAX_DILATED_WORK: i64 = 3;

/// The same, with the filter at operand `w_index` (QLinearConv's is 3); if
/// `expand` (f32, whose weights `to_npu` rewrites), any group count (as
/// block-diagonal weights) and dilations (as zeros between the taps).
fn conv_geometry_of(body: &Body, op: OpId, w_index: usize, expand: bool) -> Result<(), Unsupported> {
    let shape = |v: Value| body.value_type(v).shape().map(|s| s.to_vec()).filter(|s| s.iter().all(|d| *d >= 0)).ok_or_else(|| no(Reason::DynamicShape, "dynamic shape"));
    let x = shape(operand(body, op, 0).ok_or("no input")?)?;
    let w = shape(operand(body, op, w_index).ok_or("no weights")?)?;
    if x.len() != 4 {
        return Err(no(Reason::Shape, format!("{}-D convolution (the NPU runs 2-D)", x.len() as i64 - 2)));
    }
    no_auto_pad(body, op)?;
    let d = body.op(op).ints_attr("dilations").unwrap_or(vec![1, 1]);
    if d.len() != 2 || d.iter().any(|v| *v < 1) {
        return Err(no(Reason::Attribute, format!("dilations {:?}", d)));
    }
    // The kernel the array runs: a dilated one with zeros between its taps (`to_npu`).
    let (kh, kw) = ((w[2] - 1) * d[0] + 1, (w[3] - 1) * d[1] + 1);
    if (d[0] != 1 || d[1] != 1) && !expand {
        return Err(no(Reason::Attribute, "dilation other than 1"));
    }
    if kh * kw > MAX_DILATED_WORK * w[2] * w[3] {
        return Err(no(Reason::Attribute, format!("dilations {:?}: the zero-filled {}x{} kernel would do {:.1}x the {}x{} kernel's work (at most {}x)", d, kh, kw, (kh * kw) as f64 / (w[2] * w[3]) as f64, w[2], w[3], MAX_DILATED_WORK)));
    }
    let pads = body.op(op).ints_attr("pads").unwrap_or(vec![0; 4]);
    if pads.len() != 4 || pads[0] >= kh || pads[2] >= kh || pads[1] >= kw || pads[3] >= kw {
        return Err(no(Reason::Attribute, "padding as large as the kernel"));
    }
    let g = body.op(op).int_attr("group").unwrap_or(1);
    if g != 1 && !(w[1] == 1 && w[0] == g) && !expand {
        return Err(no(Reason::Attribute, format!("grouped convolution with {} channels per group (dense and depthwise only)", w[1])));
    }
    one_image(x[0])
}

/// The int8 (QDQ) form of a Conv, Gemm or MatMul: what its quantization and shapes must be.
pub fn quantized_mac(body: &Body, op: OpId) -> Result<(), Unsupported> {
    super::quant::qmac(body, op).map_err(|e| no(Reason::ElementType, format!("int8 pattern refused: {}", e)))?;
    match body.name(op).as_str() {
        ops::Conv::NAME => conv_geometry(body, op),
        ops::QLinearConv::NAME => conv_geometry_of(body, op, 3, false),
        ops::Gemm::NAME => gemm_form(body, op),
        name => {
            let bi = if name == ops::QLinearMatMul::NAME { 3 } else { 1 };
            let b = body.value_type(body.op(op).operand(bi)).shape().map(|s| s.len()).unwrap_or(0);
            if b != 2 { Err(no(Reason::Shape, "B is not a matrix")) } else { Ok(()) }
        }
    }
}

/// A plain product: no transposed A, alpha = beta = 1.
fn gemm_form(body: &Body, op: OpId) -> Result<(), Unsupported> {
    if body.op(op).int_attr("transA").unwrap_or(0) != 0 {
        return Err(no(Reason::Attribute, "transA"));
    }
    let alpha = body.op(op).float_attr("alpha").unwrap_or(1.0);
    let beta = body.op(op).float_attr("beta").unwrap_or(1.0);
    if alpha != 1.0 || beta != 1.0 {
        return Err(no(Reason::Attribute, "alpha or beta other than 1"));
    }
    Ok(())
}

fn gemm(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    let a = static_f32(body, operand(body, op, 0).ok_or("no A")?)?;
    if a.len() != 2 {
        return Err(no(Reason::Shape, "A is not 2-D"));
    }
    gemm_form(body, op)?;
    let b = operand(body, op, 1).ok_or("no B")?;
    if !is_constant(body, b) {
        return Err(no(Reason::NotConstant, "B is not constant"));
    }
    if let Some(c) = operand(body, op, 2) {
        let cs = static_f32(body, c)?;
        let n = body.value_type(body.op(op).result(0)).shape().map(|s| s[1]).unwrap_or(-1);
        if !is_constant(body, c) || !(cs == [n] || cs == [1, n]) {
            return Err(no(Reason::NotConstant, "C is not a constant row of N values"));
        }
    }
    Ok(())
}

fn matmul(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    let a = static_f32(body, operand(body, op, 0).ok_or("no A")?)?;
    let b = static_f32(body, operand(body, op, 1).ok_or("no B")?)?;
    if a.len() < 2 || b.len() < 2 {
        return Err(no(Reason::Shape, "A or B is a vector"));
    }
    batches(&a, &b).map(|_| ())
}

/// The batches of a MatMul of `a` by `b` (both at least 2-D): 1 when B is one
/// matrix (A's batch dims fold into its rows), else the batch dims they share
/// (the same after leading 1s). A broadcast A is refused.
pub fn batches(a: &[i64], b: &[i64]) -> Result<i64, Unsupported> {
    let lead = |s: &[i64]| s[..s.len() - 2].iter().copied().skip_while(|d| *d == 1).collect::<Vec<i64>>();
    let (ab, bb) = (lead(a), lead(b));
    if bb.is_empty() {
        return Ok(1);
    }
    if ab != bb {
        return Err(no(Reason::Shape, format!("batch dims {:?} and {:?} broadcast (the NPU multiplies equal batches)", &a[..a.len() - 2], &b[..b.len() - 2])));
    }
    Ok(bb.iter().product())
}

/// Ops whose only demand is a static f32 input: activations, and reshapes
/// (the same bytes: the result aliases the input).
fn input_static(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    static_f32(body, operand(body, op, 0).ok_or("no input")?)?;
    Ok(())
}

fn clip(npu: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    for i in 1..3 {
        if let Some(v) = operand(body, op, i) {
            if !is_constant(body, v) {
                return Err(no(Reason::NotConstant, "min or max is not constant"));
            }
        }
    }
    input_static(npu, body, op)
}

/// Two operands as a binary op; more (or one) all of the result's shape.
fn variadic(npu: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    let o = body.op(op);
    if o.operands().len() == 2 {
        return binary(npu, body, op);
    }
    let y = static_f32(body, o.result(0))?;
    for &v in o.operands() {
        if static_f32(body, v)? != y {
            return Err(no(Reason::Shape, format!("an operand of shape {:?} broadcast to {:?} among more than two", static_f32(body, v)?, y)));
        }
    }
    Ok(())
}

fn binary(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    let o = body.op(op);
    if o.operands().len() != 2 {
        return Err(no(Reason::Shape, "more than two operands"));
    }
    let a = static_f32(body, o.operand(0))?;
    let b = static_f32(body, o.operand(1))?;
    let y = static_f32(body, o.result(0))?;
    let div = body.name(op).as_str() == ops::Div::NAME;
    if div && !is_constant(body, o.operand(1)) {
        return Err(no(Reason::NotConstant, "a divisor that is not constant (the vector unit has no divide)"));
    }
    if a == b {
        return Ok(());
    }
    let (small, first) = match (a == y, b == y) {
        (true, _) => (&b, o.operand(1)),
        (_, true) if !div => (&a, o.operand(0)),
        _ => return Err(no(Reason::Shape, format!("broadcast {:?} with {:?} (one of them must have the result's shape)", a, b))),
    };
    // Right-aligned to the result's rank: one value, or one per channel (dim 1 of NCHW, else the last).
    let mut padded = vec![1; y.len().saturating_sub(small.len())];
    padded.extend(small);
    let n: i64 = small.iter().product();
    let channel = if y.len() == 4 { 1 } else { y.len().saturating_sub(1) };
    let per_channel = padded.len() == y.len() && padded.iter().enumerate().all(|(i, d)| *d == 1 || (i == channel && *d == y[i]));
    if n == 1 && !is_constant(body, first) {
        return Err(no(Reason::Shape, "a computed single value to broadcast (the DMA cannot fill the lanes with it)"));
    }
    if n != 1 && !per_channel {
        return Err(no(Reason::Shape, format!("broadcast {:?} with {:?} (one value, or one per channel)", a, b)));
    }
    Ok(())
}

/// npu16's convolution and pooling kernels take one image; a batch of up to
/// `batch::MAX_BATCH` runs as one op per image (`batch.rs`, before
/// partitioning), so a batch met here is one that rewrite left whole.
pub(crate) fn one_image(n: i64) -> Result<(), Unsupported> {
    if n == 1 {
        return Ok(());
    }
    Err(no(Reason::Shape, format!("batch {} (the kernels take one image; a batch of up to {} f32 images runs as one op per image where each image's op is taken)", n, super::batch::MAX_BATCH)))
}

/// A pool's input must be a static NCHW f32 tensor: its batch.
fn pool_2d_batch(body: &Body, op: OpId) -> Result<i64, Unsupported> {
    let x = static_f32(body, operand(body, op, 0).ok_or("no input")?)?;
    if x.len() != 4 {
        return Err(no(Reason::Shape, "not a 2-D pool"));
    }
    Ok(x[0])
}

fn pool(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    let n = pool_2d_batch(body, op)?;
    no_auto_pad(body, op)?;
    if body.op(op).int_attr("ceil_mode").unwrap_or(0) != 0 {
        return Err(no(Reason::Attribute, "ceil_mode"));
    }
    if body.op(op).ints_attr("dilations").is_some_and(|d| d.iter().any(|v| *v != 1)) {
        return Err(no(Reason::Attribute, "dilation other than 1"));
    }
    if body.op(op).results().len() > 1 && body.has_uses(body.op(op).result(1)) {
        return Err(no(Reason::Constraint, "MaxPool indices"));
    }
    let k = body.op(op).ints_attr("kernel_shape").unwrap_or_default();
    let p = body.op(op).ints_attr("pads").unwrap_or(vec![0; 4]);
    if k.len() != 2 || p.len() != 4 || p[0] >= k[0] || p[2] >= k[0] || p[1] >= k[1] || p[3] >= k[1] {
        return Err(no(Reason::Attribute, "padding as large as the window"));
    }
    if body.name(op).as_str() == ops::AveragePool::NAME && p.iter().any(|v| *v != 0) && body.op(op).int_attr("count_include_pad").unwrap_or(0) != 0 {
        return Err(no(Reason::Attribute, "padded average counting the padding (count_include_pad)"));
    }
    // Last: a batch the rewrite left whole was refused for one image by a check above.
    one_image(n)
}

fn global_pool(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    one_image(pool_2d_batch(body, op)?)
}

fn spatial_mean(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    // Not split per image (`batch.rs` leaves ReduceMean alone).
    let n = pool_2d_batch(body, op)?;
    if n != 1 {
        return Err(no(Reason::Shape, format!("batch {} (a mean over H and W runs batch 1)", n)));
    }
    let axes = onnx::infer::reduce_axes(body, op, 4).ok_or_else(|| no(Reason::NotConstant, "axes are not constant"))?;
    if axes.as_deref() != Some(&[2, 3][..]) || body.op(op).int_attr("keepdims").unwrap_or(1) != 1 {
        return Err(no(Reason::Attribute, format!("a mean over axes {:?} (over H and W, keeping them, only)", axes)));
    }
    Ok(())
}

fn batch_norm(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    let x = static_f32(body, operand(body, op, 0).ok_or("no input")?)?;
    if x.len() < 2 || body.op(op).results().iter().skip(1).any(|r| body.has_uses(*r)) || body.op(op).int_attr("training_mode").unwrap_or(0) != 0 {
        return Err(no(Reason::Constraint, "training mode (running statistics as outputs)"));
    }
    if (1..5).any(|i| operand(body, op, i).is_none_or(|v| !is_constant(body, v))) {
        return Err(no(Reason::NotConstant, "scale, bias, mean or variance is not constant"));
    }
    Ok(())
}

fn layer_norm(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    super::norm::over_last_axis(body, op, -1)?;
    let o = body.op(op);
    if o.results().iter().skip(1).any(|r| body.has_uses(*r)) {
        return Err(no(Reason::Constraint, "the Mean or InvStdDev output is used"));
    }
    if !operand(body, op, 1).is_some_and(|v| is_constant(body, v)) || operand(body, op, 2).is_some_and(|v| !matches!(body.value_type(v).data(), ir::types::TypeData::None) && !is_constant(body, v)) {
        return Err(no(Reason::NotConstant, "Scale or B is not constant"));
    }
    let c = static_f32(body, o.operand(0))?.last().copied().unwrap_or(0);
    for i in 1..3 {
        if let Some(v) = operand(body, op, i).filter(|v| !matches!(body.value_type(*v).data(), ir::types::TypeData::None)) {
            if body.value_type(v).shape().map(|s| s.iter().product::<i64>()) != Some(c) {
                return Err(no(Reason::Shape, format!("Scale or B of shape {:?} (one value per element of the last dim, {}, only)", body.value_type(v).shape().unwrap_or(&[]), c)));
            }
        }
    }
    let eps = body.op(op).float_attr("epsilon").unwrap_or(1e-5);
    if !(eps.is_finite() && eps >= 0.0) {
        return Err(no(Reason::Attribute, format!("epsilon {}", eps)));
    }
    super::norm::row_fits(body, o.operand(0))
}

fn softmax(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    super::norm::over_last_axis(body, op, -1)?;
    super::norm::row_fits(body, body.op(op).operand(0))
}

/// Data movement: every operand a static f32 tensor.
fn movement(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    for &v in body.op(op).operands() {
        if !matches!(body.value_type(v).data(), ir::types::TypeData::None) && body.value_type(v).element_type().is_some_and(|e| e.is_float()) {
            static_f32(body, v)?;
        }
    }
    static_f32(body, operand(body, op, 0).ok_or("no input")?)?;
    Ok(())
}

/// Elements a transpose of the innermost dim may move (one per DMA row, ~15
/// cycles each: beyond this the host is faster than the NPU, switch included).
const ELEMENT_ROWS: i64 = 1024;

/// A feature map turned into tokens or back (`tokens.rs`) whose other side
/// an NPU op produces: the NHWC bytes as they are.
fn free_as_tokens(npu: &Npu, body: &Body, t: OpId) -> bool {
    const LAYOUT_AS_IS: &[&str] = &[ops::Reshape::NAME, ops::Flatten::NAME, ops::Squeeze::NAME, ops::Unsqueeze::NAME, ops::Transpose::NAME, ops::Softmax::NAME, ops::LayerNormalization::NAME];
    // A map produced in NHWC by an op of the NPU.
    let nhwc_on_npu = |v: Value| body.defining_op(super::tokens::unaliased(body, v)).is_some_and(|p| !LAYOUT_AS_IS.contains(&body.name(p).as_str()) && npu.supports(body, p).is_ok());
    if let Some(img) = super::tokens::image_to_tokens(body, t) {
        return nhwc_on_npu(img);
    }
    let on_npu = |v: Value| body.defining_op(v).is_some_and(|p| npu.supports(body, p).is_ok());
    // To NCHW for users that read NHWC: it cancels against their transpose back.
    if body.op(t).ints_attr("perm").as_deref() == Some(&super::to_npu::TO_NCHW[..]) {
        let users = body.uses(body.op(t).result(0));
        return !users.is_empty() && users.iter().all(|u| !LAYOUT_AS_IS.contains(&body.name(u.op).as_str()) && npu.supports(body, u.op).is_ok());
    }
    let reshape = match body.uses(body.op(t).result(0)) {
        [u] => u.op,
        _ => return false,
    };
    super::tokens::tokens_to_image(body, reshape).is_some_and(on_npu)
}

fn transpose(npu: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    movement(npu, body, op)?;
    let x = static_f32(body, operand(body, op, 0).ok_or("no input")?)?;
    let perm: Vec<i64> = onnx::infer::transpose_perm(body, op).ok_or("a permutation that does not fit the input")?.iter().map(|p| *p as i64).collect();
    // The innermost dim of the result that is not 1, and where it comes from.
    let moved = perm.iter().rev().find(|p| x[**p as usize] != 1).is_some_and(|p| x[*p as usize + 1..].iter().any(|d| *d != 1));
    let n: i64 = x.iter().product();
    if moved && n > ELEMENT_ROWS && !free_as_tokens(npu, body, op) && !folded_into_products(npu, body, op, &perm) {
        return Err(no(Reason::Constraint, format!("moves the innermost dim of {} elements: one element per DMA row, slower than the host beyond {}", n, ELEMENT_ROWS)));
    }
    Ok(())
}

/// For a MatMul's B = Transpose(`perm`)(z): the permutation giving Bᵀ from
/// z (`perm` with its last two entries swapped) when it keeps z's innermost
/// dim innermost, so Bᵀ is z's rows moved whole (or z itself).
pub fn rows_of_transposed_b(perm: &[i64]) -> Option<Vec<i64>> {
    let r = perm.len();
    let mut q = perm.to_vec();
    if r < 2 {
        return None;
    }
    q.swap(r - 1, r - 2);
    (q[r - 1] == r as i64 - 1).then_some(q)
}

/// A Transpose that only MatMuls the NPU takes read, as their B, and whose
/// Bᵀ keeps the innermost dim: each product reads B transposed
/// (`npu.batch_matmul`'s `transpose_b`), so no element moves alone.
fn folded_into_products(npu: &Npu, body: &Body, op: OpId, perm: &[i64]) -> bool {
    let uses = body.uses(body.op(op).result(0));
    rows_of_transposed_b(perm).is_some() && !uses.is_empty() && uses.iter().all(|u| body.name(u.op).as_str() == ops::MatMul::NAME && u.index == 1 && matmul(npu, body, u.op).is_ok())
}

/// The integer values of a constant operand (`None`: absent).
fn const_ints(body: &Body, op: OpId, i: usize) -> Result<Option<Vec<i64>>, Unsupported> {
    match operand(body, op, i) {
        Some(v) if !matches!(body.value_type(v).data(), ir::types::TypeData::None) => {
            onnx::infer::const_f64s(body, v).map(|v| Some(v.iter().map(|x| *x as i64).collect())).ok_or_else(|| no(Reason::NotConstant, "starts, axes or steps are not constant"))
        }
        _ => Ok(None),
    }
}

fn slice(npu: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    movement(npu, body, op)?;
    const_ints(body, op, 1)?.ok_or_else(|| no(Reason::NotConstant, "no constant starts"))?;
    const_ints(body, op, 3)?;
    if const_ints(body, op, 4)?.is_some_and(|s| s.iter().any(|v| *v < 1)) {
        return Err(no(Reason::Attribute, "a step that is not positive (the DMA strides forward)"));
    }
    Ok(())
}

/// A constant-mode Pad as the DMA engines run it: the padding before and
/// after each dim ([before…, after…]) and the value, or why not.
pub fn pad_geometry(body: &Body, op: OpId) -> Result<(Vec<i64>, f64), Unsupported> {
    let x = static_f32(body, operand(body, op, 0).ok_or("no input")?)?;
    let mode = body.op(op).str_attr("mode").unwrap_or("constant");
    if mode != "constant" {
        return Err(no(Reason::Attribute, format!("mode {} (constant only)", mode)));
    }
    let pads = onnx::infer::pad_amounts(body, op).ok_or_else(|| no(Reason::NotConstant, format!("pads (and axes) are not constants giving a before and an after per axis of the {}-D input", x.len())))?;
    if pads.iter().any(|p| *p < 0) {
        return Err(no(Reason::Attribute, "negative pads (a crop)"));
    }
    let value = match operand(body, op, 2).filter(|v| !matches!(body.value_type(*v).data(), ir::types::TypeData::None)) {
        Some(v) => *onnx::infer::const_f64s(body, v).and_then(|v| v.first().copied()).as_ref().ok_or_else(|| no(Reason::NotConstant, "the padding value is not constant"))?,
        None => 0.0,
    };
    Ok((pads, value))
}

fn pad(npu: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    movement(npu, body, op)?;
    pad_geometry(body, op).map(|_| ())
}

fn resize(_: &Npu, body: &Body, op: OpId) -> Result<(), Unsupported> {
    let x = static_f32(body, operand(body, op, 0).ok_or("no input")?)?;
    let y = static_f32(body, body.op(op).result(0))?;
    let coord = body.op(op).str_attr("coordinate_transformation_mode").unwrap_or("half_pixel");
    let upsampling = x.len() == 4 && !x.contains(&0) && y[0] == x[0] && y[1] == x[1] && y[2] % x[2] == 0 && y[3] % x[3] == 0 && y[2] >= x[2] && y[3] >= x[3];
    match body.op(op).str_attr("mode").unwrap_or("nearest") {
        "nearest" => {}
        "linear" => {
            if !matches!(coord, "half_pixel" | "pytorch_half_pixel" | "asymmetric") {
                return Err(no(Reason::Attribute, format!("linear with coordinate_transformation_mode {} (half_pixel, pytorch_half_pixel or asymmetric)", coord)));
            }
            if !upsampling || x[0] != 1 {
                return Err(no(Reason::Shape, format!("{:?} to {:?} (linear: integer upsampling of H and W, batch 1)", x, y)));
            }
            // Coordinates follow the scales: they must be the factors the shapes show.
            let scales = operand(body, op, 2).filter(|v| !matches!(body.value_type(*v).data(), ir::types::TypeData::None)).and_then(|v| onnx::infer::const_f64s(body, v)).filter(|s| !s.is_empty());
            if let Some(s) = scales {
                let want = [1.0, 1.0, (y[2] / x[2]) as f64, (y[3] / x[3]) as f64];
                if s.len() != 4 || s.iter().zip(want).any(|(a, b)| *a != b) {
                    return Err(no(Reason::Attribute, format!("scales {:?} (linear: integer factors, those of the shapes)", s)));
                }
            }
            return Ok(());
        }
        m => return Err(no(Reason::Attribute, format!("mode {} (nearest, or linear upsampling)", m))),
    }
    let nearest = body.op(op).str_attr("nearest_mode").unwrap_or("round_prefer_floor");
    // With an integer factor these pick input pixel ⌊out / factor⌋ (half_pixel's
    // source lies strictly within half a pixel of it, so either rounding gives it).
    let rounds = matches!(nearest, "round_prefer_floor" | "round_prefer_ceil");
    if !((matches!(coord, "half_pixel" | "pytorch_half_pixel") && rounds) || (coord == "asymmetric" && nearest == "floor")) {
        return Err(no(Reason::Attribute, format!("coordinate_transformation_mode {} with nearest_mode {}", coord, body.op(op).str_attr("nearest_mode").unwrap_or("round_prefer_floor"))));
    }
    if !upsampling {
        return Err(no(Reason::Shape, format!("{:?} to {:?} (integer upsampling of H and W only)", x, y)));
    }
    Ok(())
}
