//! Tensor-level ops: what the NPU computes, in NHWC, before tiling. Each op
//! fuses what the hardware does on the way out of the accumulator: a bias
//! row, an activation (`none`, `relu`, `relu6`, `clip` with `min`/`max`,
//! `sigmoid`, `tanh`: one vector instruction each, in place) and, for int8,
//! requantization. `npu.act` runs the activations that stand alone, also
//! those that take more than one instruction (`hardsigmoid`, `hardswish`,
//! `leakyrelu`).

use crate::ops;
use ir::dialect::{optional, required, AttrKind, AttrSpec, Count, OpDef, Trait};
use ir::{Body, Context, OpId, Value};

/// Activations fused into a producer's epilogue (in place on its accumulator rows).
pub const ACTIVATIONS: &[&str] = &["none", "relu", "relu6", "clip", "sigmoid", "tanh"];
/// What `npu.act` computes: the fused ones, and those needing a temporary row
/// or constant rows (`alpha`, `beta` as ONNX's HardSigmoid and LeakyRelu).
pub const UNARY: &[&str] = &["relu", "relu6", "clip", "sigmoid", "tanh", "hardsigmoid", "hardswish", "leakyrelu", "erf", "rpow"];
/// The exponents `rpow` (x^-beta) takes: those v.rsqrt and v.recip make exactly.
pub const RPOW_BETAS: &[f64] = &[0.5, 0.75, 1.0];
/// `rsub` is `b - a` (a subtraction whose first operand is the broadcast one).
pub const ELTWISE: &[&str] = &["add", "sub", "mul", "max", "min", "rsub"];
pub const POOLS: &[&str] = &["max", "avg"];

/// An attribute list followed by what every op with a fused epilogue takes:
/// its activation (`act`, f32 `min`/`max` for clip) and, in int8, the
/// requantization (`mult`/`shift` per output channel, the `qmin`/`qmax` clamp).
macro_rules! with_epilogue {
    ($($spec:expr),* $(,)?) => {
        &[
            $($spec,)*
            required("act", AttrKind::String),
            optional("min", AttrKind::Float),
            optional("max", AttrKind::Float),
            optional("mult", AttrKind::Any),
            optional("shift", AttrKind::Any),
            optional("qmin", AttrKind::Integer),
            optional("qmax", AttrKind::Integer),
            // The int8 result's zero point, added after requantizing (before the clamp).
            optional("zp", AttrKind::Integer),
            // The multiply-accumulates of the ONNX op(s) it computes (reports count these, not the array's work).
            optional("macs", AttrKind::Integer),
        ]
    };
}

/// `pad_value`: what int8 padding holds (the input's zero point, which means 0.0); 0 by default.
const CONV_ATTRS: &[AttrSpec] = with_epilogue![required("strides", AttrKind::Any), required("pads", AttrKind::Any), required("group", AttrKind::Integer), optional("pad_value", AttrKind::Integer)];
const MATMUL_ATTRS: &[AttrSpec] = with_epilogue![];
const BATCH_MATMUL_ATTRS: &[AttrSpec] = with_epilogue![optional("transpose_b", AttrKind::Any)];
/// An int8 average requantizes. Of the whole image: `avg_shift` fraction
/// bits kept in the mean, the input's zero point `in_zp` taken off, then
/// `mult`/`shift`/`zp` and the `qmin`/`qmax` clamp as `v.requant`. Over an
/// unpadded window (no `avg_shift`): the window's sum less `in_zp`·K (K its
/// size), requantized by `mult`/`shift` (the input scale over the output
/// scale times K), one rounding.
const POOL_ATTRS: &[AttrSpec] = &[
    required("kind", AttrKind::String),
    required("kernel", AttrKind::Any),
    required("strides", AttrKind::Any),
    required("pads", AttrKind::Any),
    optional("count_include_pad", AttrKind::Integer),
    optional("mult", AttrKind::Any),
    optional("shift", AttrKind::Any),
    optional("zp", AttrKind::Integer),
    optional("qmin", AttrKind::Integer),
    optional("qmax", AttrKind::Integer),
    optional("in_zp", AttrKind::Integer),
    optional("avg_shift", AttrKind::Integer),
];
/// `in_zp`: the int8 inputs' zero points, taken off before `in_mult` scales them.
const ELTWISE_ATTRS: &[AttrSpec] = with_epilogue![required("kind", AttrKind::String), optional("in_mult", AttrKind::Any), optional("in_zp", AttrKind::Any)];
const ACT_ATTRS: &[AttrSpec] = &[
    required("act", AttrKind::String),
    optional("min", AttrKind::Float),
    optional("max", AttrKind::Float),
    optional("alpha", AttrKind::Float),
    optional("beta", AttrKind::Float),
];
const SLICE_ATTRS: &[AttrSpec] = &[required("offsets", AttrKind::Any), required("steps", AttrKind::Any)];
const CONCAT_ATTRS: &[AttrSpec] = &[required("axis", AttrKind::Integer)];
const UPSAMPLE_ATTRS: &[AttrSpec] = &[required("factors", AttrKind::Any)];
const PAD_ATTRS: &[AttrSpec] = &[required("pads", AttrKind::Any), optional("value", AttrKind::Float)];
const REQUANT_ATTRS: &[AttrSpec] = &[required("mult", AttrKind::Integer), required("shift", AttrKind::Integer), optional("zp", AttrKind::Integer)];

const LUT_ATTRS: &[AttrSpec] = &[required("table", AttrKind::Any)];

const LAYERNORM_ATTRS: &[AttrSpec] = &[required("epsilon", AttrKind::Float)];

const LAUNCH_ATTRS: &[AttrSpec] = &[required("program", AttrKind::SymbolRef), required("inputs", AttrKind::Array), required("outputs", AttrKind::Array)];

fn verify_launch(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let n = |k: &str| o.attr(k).and_then(|a| a.as_array()).map(|a| a.len()).unwrap_or(0);
    if n("inputs") != o.operands().len() || n("outputs") != o.results().len() {
        return Err(format!("names {} inputs and {} outputs for {} operands and {} results", n("inputs"), n("outputs"), o.operands().len(), o.results().len()));
    }
    let callee = o.attr("program").and_then(|a| a.as_symbol()).map(|s| s.join("::")).unwrap_or_default();
    let p = ir::symbols::lookup_symbol(body, op, &callee).ok_or_else(|| format!("'{}' does not name a program", callee))?;
    if body.op(p).attr(crate::attrs::PROGRAM).is_none() {
        return Err(format!("'{}' is not an npu.program", callee));
    }
    Ok(())
}

pub fn ops() -> Vec<OpDef> {
    vec![
        OpDef {
            name: ops::CONV,
            summary: "2-D convolution, NHWC input, HWIO filter ([KH, KW, C/group, F]), optional bias [F]; grouped and depthwise; fused activation. In int8 (i8 input and filter, i32 bias, i8 result) it requantizes each output channel by `mult`/`shift` as `v.requant` does.",
            operands: Count::AtLeast(2),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: CONV_ATTRS,
            verify: Some(verify_conv),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::MATMUL,
            summary: "[M, K] × [K, N] with optional bias [N] and fused activation; in int8 with per-column `mult`/`shift` requantization, as npu.conv.",
            operands: Count::AtLeast(2),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: MATMUL_ATTRS,
            verify: Some(verify_matmul),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::BATCH_MATMUL,
            summary: "[Bt, M, K] × [Bt, K, N] → [Bt, M, N] (f32), B computed or constant, streamed from DRAM batch by batch (attention's QKᵀ and AV); `transpose_b`: B is given as [Bt, N, K] (Kᵀ without a transpose). Fused activation as npu.matmul, no bias.",
            operands: Count::Exactly(2),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: BATCH_MATMUL_ATTRS,
            verify: Some(verify_batch_matmul),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::POOL,
            summary: "Max or average pooling over NHWC windows (an average of the whole image is a pool with the image as window).",
            operands: Count::Exactly(1),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: POOL_ATTRS,
            verify: Some(verify_pool),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::ELTWISE,
            summary: "Elementwise binary op, with fused activation. In f32 the second operand has the first's shape, or is one value (a scalar broadcast), or one value per channel (`[1, .., 1, C]`, the innermost dim). An int8 add takes two same-shaped tensors, rescales each input by `in_mult` (fixed point, 20 fraction bits), sums in i32 and requantizes by `mult`/`shift`.",
            operands: Count::Exactly(2),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: ELTWISE_ATTRS,
            verify: Some(verify_eltwise),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::ACT,
            summary: "A standalone f32 activation: relu, relu6, clip (`min`, `max`), sigmoid, tanh, hardsigmoid (max(0, min(1, alpha·x + beta))), hardswish (x · hardsigmoid(x) with alpha 1/6, beta 1/2), leakyrelu (alpha·x below zero), erf, rpow (x^-beta for beta 0.5, 0.75 or 1: LRN's divisor).",
            operands: Count::Exactly(1),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: ACT_ATTRS,
            verify: Some(verify_act),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::SLICE,
            summary: "Data movement (DMA only): result[i] = input[offsets + i·steps] per dim (steps positive); a Slice or one output of a Split.",
            operands: Count::Exactly(1),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: SLICE_ATTRS,
            verify: Some(verify_slice),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::CONCAT,
            summary: "Data movement (DMA only): the operands one after another along `axis`.",
            operands: Count::AtLeast(1),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: CONCAT_ATTRS,
            verify: Some(verify_concat),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::UPSAMPLE,
            summary: "Data movement (DMA only): nearest-neighbour upsampling of an NHWC tensor by integer `factors` [fh, fw] (each input pixel stored fh·fw times).",
            operands: Count::Exactly(1),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: UPSAMPLE_ATTRS,
            verify: Some(verify_upsample),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::PAD,
            summary: "Data movement (DMA only): the input surrounded by `value` (default 0), `pads` = [before per dim…, after per dim…] elements (non-negative); the border is copied from the constant image.",
            operands: Count::Exactly(1),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: PAD_ATTRS,
            verify: Some(verify_pad),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::LAYERNORM,
            summary: "Layer normalization over the innermost dim (f32): (x − mean) / √(variance + epsilon) · scale + bias, with scale and bias one value per element of that dim; on the vector unit (the lane reductions v.hsum, v.rsqrt).",
            operands: Count::Exactly(3),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: LAYERNORM_ATTRS,
            verify: Some(verify_layernorm),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::SOFTMAX,
            summary: "Softmax over the innermost dim (f32): e^(x − max) / Σ e^(x − max); on the vector unit (v.hmax, v.exp, v.hsum, v.recip).",
            operands: Count::Exactly(1),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            verify: Some(verify_softmax),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::LAUNCH,
            summary: "Runs an NPU program (`@..._program`) on the operands (bound to its `inputs` arguments in order) and returns its `outputs` arguments as tensors.",
            operands: Count::Any,
            results: Count::Any,
            properties: LAUNCH_ATTRS,
            verify: Some(verify_launch),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::LUT,
            summary: "int8 → int8 through a 256-entry `table` (entry x + 128 for input x, each in -128..127): an int8 function of one value, as the compiler tabulates it from a DequantizeLinear → f → QuantizeLinear (Sigmoid, HardSwish, Tanh…); the vector unit's v.lut.",
            operands: Count::Exactly(1),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: LUT_ATTRS,
            verify: Some(verify_lut),
            ..OpDef::DEFAULT
        },
        OpDef {
            name: ops::REQUANT,
            summary: "i32 → i8: clamp(round_half_up(x·mult / 2^(31+shift)) + zp), as the vector unit's v.requant.",
            operands: Count::Exactly(1),
            results: Count::Exactly(1),
            traits: &[Trait::Pure],
            properties: REQUANT_ATTRS,
            verify: Some(verify_requant),
            ..OpDef::DEFAULT
        },
    ]
}

/// Static shape and element type of a tensor value.
pub fn shape_of(body: &Body, v: Value) -> Result<(Vec<i64>, ir::Type), String> {
    let t = body.value_type(v);
    let s = t.shape().ok_or_else(|| format!("expects ranked tensors, got {}", t))?;
    if s.iter().any(|d| *d < 0) {
        return Err(format!("expects static shapes, got {}", t));
    }
    Ok((s.to_vec(), t.element_type().cloned().ok_or("no element type")?))
}

fn check_act(body: &Body, op: OpId) -> Result<(), String> {
    let a = body.op(op).str_attr("act").unwrap_or("none");
    if !ACTIVATIONS.contains(&a) {
        return Err(format!("unknown activation '{}' (expected one of {})", a, ACTIVATIONS.join(", ")));
    }
    let int8 = body.value_type(body.op(op).operand(0)).element_type().is_some_and(|e| e.to_string() == "i8");
    if int8 && matches!(a, "sigmoid" | "tanh") {
        return Err(format!("an int8 op's activation is a clamp (none, relu, relu6, clip), not {}", a));
    }
    if a == "clip" && !int8 {
        let (lo, hi) = (body.op(op).float_attr("min"), body.op(op).float_attr("max"));
        match (lo, hi) {
            (Some(l), Some(h)) if l <= h => {}
            (Some(_), Some(_)) => return Err("clip needs min <= max".into()),
            _ => return Err("act = \"clip\" needs float min and max".into()),
        }
    }
    Ok(())
}

fn check_dtypes(body: &Body, op: OpId) -> Result<ir::Type, String> {
    let o = body.op(op);
    if o.operands().len() > 3 {
        return Err(format!("takes at most 3 operands, got {}", o.operands().len()));
    }
    let (_, e) = shape_of(body, o.operand(0))?;
    if !(e.is_float() && e.to_string() == "f32") && e.to_string() != "i8" {
        return Err(format!("runs on f32 or i8 tensors, not {}", e));
    }
    Ok(e)
}

/// The int8 form of a product: i8 operands and result, i32 bias, one requantization per output channel.
fn check_int8(body: &Body, op: OpId, channels: i64) -> Result<(), String> {
    let o = body.op(op);
    let t = |v| shape_of(body, v).map(|(_, e)| e.to_string());
    let int8 = t(o.operand(0))? == "i8";
    if !int8 {
        if t(o.operand(1))? != "f32" || t(o.result(0))? != "f32" || o.operands().get(2).map(|b| t(*b)).transpose()?.is_some_and(|e| e != "f32") {
            return Err("an f32 product takes f32 operands and result".into());
        }
        if o.attr("mult").is_some() || o.attr("shift").is_some() || o.attr("zp").is_some() || o.attr("pad_value").is_some() {
            return Err("mult, shift, zp and pad_value belong to int8 products only".into());
        }
        return Ok(());
    }
    if t(o.result(0))? == "i32" {
        // An integer product (ConvInteger, MatMulInteger): the accumulators themselves.
        if t(o.operand(1))? != "i8" || o.operands().len() > 2 || o.attr("mult").is_some() || o.attr("zp").is_some() || o.attr("pad_value").is_some() || body.op(op).str_attr("act").unwrap_or("none") != "none" {
            return Err("an integer product (i32 result) takes an i8 filter, no bias, no requantization, zero points or activation".into());
        }
        return Ok(());
    }
    // A depthwise conv's filter may be i16: weights less their zero points (9 bits), as the vector unit's i32 weight rows hold them.
    let depthwise = body.name(op).as_str() == ops::CONV && body.op(op).int_attr("group").is_some_and(|g| g > 1 && shape_of(body, o.operand(1)).is_ok_and(|(w, _)| w.len() == 4 && w[2] == 1 && w[3] == g));
    if !(t(o.operand(1))? == "i8" || (depthwise && t(o.operand(1))? == "i16")) || t(o.result(0))? != "i8" {
        return Err("an int8 product takes an i8 filter (i16 for a depthwise conv: weights less their zero points) and gives an i8 or i32 result".into());
    }
    if o.operands().get(2).map(|b| t(*b)).transpose()?.is_some_and(|e| e != "i32") {
        return Err("an int8 product takes an i32 bias".into());
    }
    let (m, s) = (body.op(op).ints_attr("mult").unwrap_or_default(), body.op(op).ints_attr("shift").unwrap_or_default());
    if m.len() as i64 != channels || s.len() as i64 != channels {
        return Err(format!("an int8 product needs mult and shift for each of its {} output channels, got {} and {}", channels, m.len(), s.len()));
    }
    if m.iter().any(|v| !(1 << 30..1 << 31).contains(v)) || s.iter().any(|v| !(0..=62).contains(v)) {
        return Err("mult must be in [2^30, 2^31) and shift in 0..=62".into());
    }
    check_clamp(body, op)
}

/// What an int8 average over a window multiplies its inputs by, so that the
/// vector unit's horizontal mean of a window `w'` columns wide is `L/w'`
/// times their exact sum: kw where no window is clipped at the sides, else
/// lcm(1..=kw) (every clipped width divides it).
pub fn avg_premult(kw: i64, pad_left: i64, pad_right: i64) -> i64 {
    if pad_left == 0 && pad_right == 0 {
        return kw;
    }
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    (1..=kw.max(1)).fold(1, |l, n| l / gcd(l, n) * n)
}

/// The zero point of an int8 result (`zp`, 0 by default).
pub fn int8_zp(body: &Body, op: OpId) -> i64 {
    body.op(op).int_attr("zp").unwrap_or(0)
}

/// The clamp of an int8 result: `qmin`/`qmax`, by default the activation's
/// (ReLU: from the zero point, which is 0.0) within int8.
pub fn int8_clamp(body: &Body, op: OpId) -> (i64, i64) {
    let g = |n: &str| body.op(op).int_attr(n);
    let lo = g("qmin").unwrap_or(if body.op(op).str_attr("act") == Some("relu") { int8_zp(body, op).max(-128) } else { -128 });
    (lo, g("qmax").unwrap_or(127))
}

/// The int8 clamp is an ordered range and the zero points are int8 values.
fn check_clamp(body: &Body, op: OpId) -> Result<(), String> {
    let (lo, hi) = int8_clamp(body, op);
    if !(-128..=127).contains(&lo) || !(-128..=127).contains(&hi) || lo > hi {
        return Err(format!("the int8 clamp [{}, {}] must be an ordered range within [-128, 127]", lo, hi));
    }
    for n in ["zp", "pad_value"] {
        if let Some(v) = body.op(op).attr(n).and_then(|a| a.as_int()) {
            if !(-128..=127).contains(&v) {
                return Err(format!("{} {} is not an int8 value", n, v));
            }
        }
    }
    Ok(())
}

/// Output size of one windowed dimension.
pub fn window_out(size: i64, k: i64, stride: i64, pad_lo: i64, pad_hi: i64) -> i64 {
    (size + pad_lo + pad_hi - k).div_euclid(stride) + 1
}

fn verify_conv(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let conv = ops::Conv(op);
    check_dtypes(body, op)?;
    check_act(body, op)?;
    let (x, _) = shape_of(body, conv.input(body))?;
    let (w, _) = shape_of(body, conv.weights(body))?;
    let (y, _) = shape_of(body, conv.output(body))?;
    if x.len() != 4 || w.len() != 4 || y.len() != 4 {
        return Err("input, filter and result must be 4-D (NHWC, HWIO, NHWC)".into());
    }
    let g = conv.group(body).unwrap_or(1);
    let strides = conv.strides(body).ok_or("strides must be a list of 2 integers")?;
    let pads = conv.pads(body).ok_or("pads must be a list of 4 integers")?;
    if strides.len() != 2 || strides.iter().any(|s| *s < 1) {
        return Err("strides must be 2 positive integers".into());
    }
    if pads.len() != 4 || pads.iter().any(|p| *p < 0) {
        return Err("pads must be 4 non-negative integers [top, left, bottom, right]".into());
    }
    if g < 1 || x[3] % g != 0 || w[3] % g != 0 {
        return Err(format!("group {} must divide the input channels {} and the filters {}", g, x[3], w[3]));
    }
    if w[2] * g != x[3] {
        return Err(format!("filter has {} input channels per group; the input has {} channels in {} groups", w[2], x[3], g));
    }
    if let Some(&bias) = conv.bias(body).first() {
        let (b, _) = shape_of(body, bias)?;
        if b != [w[3]] {
            return Err(format!("bias must be [{}], got {:?}", w[3], b));
        }
    }
    check_int8(body, op, w[3])?;
    let oh = window_out(x[1], w[0], strides[0], pads[0], pads[2]);
    let ow = window_out(x[2], w[1], strides[1], pads[1], pads[3]);
    if y != [x[0], oh, ow, w[3]] {
        return Err(format!("result must be [{}, {}, {}, {}], got {:?}", x[0], oh, ow, w[3], y));
    }
    Ok(())
}

fn verify_matmul(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let mm = ops::Matmul(op);
    check_dtypes(body, op)?;
    check_act(body, op)?;
    let (a, _) = shape_of(body, mm.lhs(body))?;
    let (b, _) = shape_of(body, mm.rhs(body))?;
    let (y, _) = shape_of(body, mm.output(body))?;
    if a.len() != 2 || b.len() != 2 || a[1] != b[0] {
        return Err(format!("operands must be [M, K] and [K, N], got {:?} and {:?}", a, b));
    }
    if let Some(&bias) = mm.bias(body).first() {
        if shape_of(body, bias)?.0 != [b[1]] {
            return Err(format!("bias must be [{}]", b[1]));
        }
    }
    if y != [a[0], b[1]] {
        return Err(format!("result must be [{}, {}], got {:?}", a[0], b[1], y));
    }
    check_int8(body, op, b[1])
}

/// Whether `npu.batch_matmul`'s B is given transposed ([Bt, N, K]).
pub fn transpose_b(body: &Body, op: OpId) -> bool {
    ops::BatchMatmul(op).transpose_b(body).is_some()
}

fn verify_batch_matmul(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let bmm = ops::BatchMatmul(op);
    check_act(body, op)?;
    let (a, ea) = shape_of(body, bmm.lhs(body))?;
    let (b, eb) = shape_of(body, bmm.rhs(body))?;
    let (y, ey) = shape_of(body, bmm.output(body))?;
    if [&ea, &eb, &ey].iter().any(|e| e.to_string() != "f32") {
        return Err(format!("runs on f32 tensors, got {}, {} and {}", ea, eb, ey));
    }
    if o.attr("mult").is_some() || o.attr("shift").is_some() {
        return Err("mult and shift requantize int8 products only".into());
    }
    let t = transpose_b(body, op);
    let (bk, bn) = if b.len() == 3 { if t { (b[2], b[1]) } else { (b[1], b[2]) } } else { (-1, -1) };
    if a.len() != 3 || b.len() != 3 || a[0] != b[0] || a[2] != bk {
        let want = if t { "[Bt, N, K]" } else { "[Bt, K, N]" };
        return Err(format!("operands must be [Bt, M, K] and {}, got {:?} and {:?}", want, a, b));
    }
    if y != [a[0], a[1], bn] {
        return Err(format!("result must be [{}, {}, {}], got {:?}", a[0], a[1], bn, y));
    }
    Ok(())
}

fn verify_pool(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    check_dtypes(body, op)?;
    let kind = body.op(op).str_attr("kind").unwrap_or("");
    if !POOLS.contains(&kind) {
        return Err(format!("unknown pool kind '{}' (expected max or avg)", kind));
    }
    let (x, _) = shape_of(body, o.operand(0))?;
    let (y, _) = shape_of(body, o.result(0))?;
    let k = body.op(op).ints_attr("kernel").filter(|k| k.len() == 2 && k.iter().all(|v| *v > 0)).ok_or("kernel must be 2 positive integers")?;
    let s = body.op(op).ints_attr("strides").filter(|k| k.len() == 2 && k.iter().all(|v| *v > 0)).ok_or("strides must be 2 positive integers")?;
    let p = body.op(op).ints_attr("pads").filter(|k| k.len() == 4 && k.iter().all(|v| *v >= 0)).ok_or("pads must be 4 non-negative integers")?;
    if x.len() != 4 {
        return Err("input must be NHWC".into());
    }
    if p[0] >= k[0] || p[2] >= k[0] || p[1] >= k[1] || p[3] >= k[1] {
        return Err("padding must be smaller than the window".into());
    }
    let want = [x[0], window_out(x[1], k[0], s[0], p[0], p[2]), window_out(x[2], k[1], s[1], p[1], p[3]), x[3]];
    if y != want {
        return Err(format!("result must be {:?}, got {:?}", want, y));
    }
    let int8 = shape_of(body, o.operand(0))?.1.to_string() == "i8";
    let requant = ["mult", "shift", "zp", "in_zp", "avg_shift"].iter().any(|a| o.attr(a).is_some());
    if int8 && kind == "avg" {
        let whole = k[0] == x[1] && k[1] == x[2] && p.iter().all(|v| *v == 0);
        let (m, sh) = (body.op(op).ints_attr("mult").unwrap_or_default(), body.op(op).ints_attr("shift").unwrap_or_default());
        let avg_shift = o.attr("avg_shift").and_then(|a| a.as_int());
        if !whole && p.iter().any(|v| *v != 0) && o.attr("count_include_pad").and_then(|a| a.as_int()).unwrap_or(0) != 0 {
            return Err("a padded int8 average over a window does not count the padding".into());
        }
        if !whole && avg_shift.is_some() {
            return Err("avg_shift belongs to an int8 average of the whole image (a window's sum is requantized as it is)".into());
        }
        // Of the whole image one requantization; over a window one per count of window rows inside the image (1..=kh).
        let n = if whole { 1 } else { k[0] as usize };
        if m.len() != n || sh.len() != n || m.iter().any(|v| !(1 << 30..1 << 31).contains(v)) || sh.iter().any(|v| !(0..=62).contains(v)) || (whole && !(0..=24).contains(&avg_shift.unwrap_or(-1))) {
            return Err("an int8 average requantizes: mult and shift (one, or over a window one per window row count 1..=kh; mult in [2^30, 2^31), shift 0..=62), and over the whole image avg_shift (0..=24)".into());
        }
        if o.attr("in_zp").and_then(|a| a.as_int()).is_some_and(|z| !(-128..=127).contains(&z)) {
            return Err("in_zp must be an int8 value".into());
        }
        return check_clamp(body, op);
    }
    if requant {
        return Err("mult, shift, zp, in_zp and avg_shift belong to an int8 average".into());
    }
    Ok(())
}

fn verify_eltwise(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    check_dtypes(body, op)?;
    check_act(body, op)?;
    let kind = body.op(op).str_attr("kind").unwrap_or("");
    if !ELTWISE.contains(&kind) {
        return Err(format!("unknown elementwise kind '{}' (expected one of {})", kind, ELTWISE.join(", ")));
    }
    let (a, _) = shape_of(body, o.operand(0))?;
    let (b, _) = shape_of(body, o.operand(1))?;
    let (y, _) = shape_of(body, o.result(0))?;
    let e = |v| shape_of(body, v).map(|(_, e)| e.to_string());
    let int8 = e(o.operand(0))? == "i8";
    if a != y || (a != b && (int8 || broadcast_of(&a, &b).is_none())) {
        return Err(format!("the first operand and the result must have one shape, the second that shape, one value or one per channel ([1, .., 1, C]); got {:?}, {:?} and {:?}", a, b, y));
    }
    if int8 {
        if e(o.operand(1))? != "i8" || e(o.result(0))? != "i8" || kind != "add" {
            return Err("int8 elementwise ops are adds of two i8 tensors into an i8 result".into());
        }
        let (im, m, s) = (body.op(op).ints_attr("in_mult").unwrap_or_default(), body.op(op).ints_attr("mult").unwrap_or_default(), body.op(op).ints_attr("shift").unwrap_or_default());
        if im.len() != 2 || m.len() != 1 || s.len() != 1 || im.iter().any(|v| !(0..=1 << 20).contains(v)) || !(1 << 30..1 << 31).contains(&m[0]) || !(0..=62).contains(&s[0]) {
            return Err("an int8 add needs in_mult (two values in 0..=2^20), mult (one, in [2^30, 2^31)) and shift (one, in 0..=62)".into());
        }
        if o.attr("in_zp").is_some() && !body.op(op).ints_attr("in_zp").is_some_and(|z| z.len() == 2 && z.iter().all(|v| (-128..=127).contains(v))) {
            return Err("in_zp must be two zero points in [-128, 127]".into());
        }
        check_clamp(body, op)?;
    } else if o.attr("in_mult").is_some() || o.attr("mult").is_some() || o.attr("in_zp").is_some() || o.attr("zp").is_some() {
        return Err("in_mult, in_zp, mult, shift and zp requantize int8 adds only".into());
    }
    Ok(())
}

/// How `b` broadcasts to `a` in `npu.eltwise`: `Some(1)` one value, `Some(C)`
/// one per channel (the innermost dim), `None` not at all (equal shapes are
/// not a broadcast).
pub fn broadcast_of(a: &[i64], b: &[i64]) -> Option<i64> {
    if b.iter().product::<i64>() == 1 && b.len() <= a.len().max(1) {
        return Some(1);
    }
    let c = *a.last()?;
    (b.len() == a.len() && b[b.len() - 1] == c && b[..b.len() - 1].iter().all(|d| *d == 1)).then_some(c)
}

/// An op whose one f32 operand and result have one shape (that shape).
fn same_f32_shape(body: &Body, op: OpId) -> Result<Vec<i64>, String> {
    let o = body.op(op);
    let (x, ex) = shape_of(body, o.operand(0))?;
    let (y, ey) = shape_of(body, o.result(0))?;
    if ex.to_string() != "f32" || ey.to_string() != "f32" || x != y {
        return Err(format!("takes and gives one f32 shape, got {:?} {} and {:?} {}", x, ex, y, ey));
    }
    Ok(x)
}

fn verify_act(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    same_f32_shape(body, op)?;
    let a = body.op(op).str_attr("act").unwrap_or("");
    if !UNARY.contains(&a) {
        return Err(format!("unknown activation '{}' (expected one of {})", a, UNARY.join(", ")));
    }
    let needs = |k: &str| body.op(op).float_attr(k).ok_or_else(|| format!("act = \"{}\" needs a float {}", a, k));
    match a {
        "clip" => check_act(body, op)?,
        "hardsigmoid" => {
            needs("alpha")?;
            needs("beta")?;
        }
        "leakyrelu" => {
            needs("alpha")?;
        }
        "rpow" => {
            let b = needs("beta")?;
            if !RPOW_BETAS.contains(&b) {
                return Err(format!("act = \"rpow\" takes beta 0.5, 0.75 or 1, not {}", b));
            }
        }
        _ => {}
    }
    Ok(())
}

fn verify_lut(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let (x, ex) = shape_of(body, o.operand(0))?;
    let (y, ey) = shape_of(body, o.result(0))?;
    if ex.to_string() != "i8" || ey.to_string() != "i8" || x != y {
        return Err(format!("takes and gives one i8 shape, got {:?} {} and {:?} {}", x, ex, y, ey));
    }
    let t = body.op(op).ints_attr("table").ok_or("table must be a list of integers")?;
    if t.len() != 256 {
        return Err(format!("table has {} entries (expected 256, one per int8 value)", t.len()));
    }
    if let Some((i, v)) = t.iter().enumerate().find(|(_, v)| !(-128..=127).contains(*v)) {
        return Err(format!("table entry {} is {}, outside -128..127", i, v));
    }
    Ok(())
}

/// A normalization over the innermost dim takes and gives one f32 shape of rank 1 or more.
fn row_op_shape(body: &Body, op: OpId) -> Result<Vec<i64>, String> {
    let x = same_f32_shape(body, op)?;
    if x.is_empty() {
        return Err("normalizes over the innermost dim: a scalar has none".into());
    }
    Ok(x)
}

fn verify_layernorm(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let x = row_op_shape(body, op)?;
    let c = x[x.len() - 1];
    for (i, what) in [(1, "scale"), (2, "bias")] {
        let (s, e) = shape_of(body, body.op(op).operand(i))?;
        if s != [c] || e.to_string() != "f32" {
            return Err(format!("{} must be {} f32 values (one per element of the innermost dim), got {:?} {}", what, c, s, e));
        }
    }
    match body.op(op).float_attr("epsilon") {
        Some(e) if !(e.is_finite() && e >= 0.0) => Err(format!("epsilon must be finite and non-negative, got {}", e)),
        _ => Ok(()),
    }
}

fn verify_softmax(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    row_op_shape(body, op).map(|_| ())
}

/// Data movement keeps the element type.
fn same_elem(body: &Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let (_, y) = shape_of(body, o.result(0))?;
    for v in o.operands() {
        let (_, e) = shape_of(body, *v)?;
        if e != y {
            return Err(format!("moves data without converting it: operand {} and result {}", e, y));
        }
    }
    Ok(())
}

fn verify_slice(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    same_elem(body, op)?;
    let o = body.op(op);
    let (x, _) = shape_of(body, o.operand(0))?;
    let (y, _) = shape_of(body, o.result(0))?;
    let off = body.op(op).ints_attr("offsets").unwrap_or_default();
    let st = body.op(op).ints_attr("steps").unwrap_or_default();
    if off.len() != x.len() || st.len() != x.len() || y.len() != x.len() {
        return Err(format!("offsets, steps and the result need one entry per dim of the {}-D input", x.len()));
    }
    for d in 0..x.len() {
        if st[d] < 1 || off[d] < 0 || (y[d] > 0 && off[d] + (y[d] - 1) * st[d] >= x[d]) {
            return Err(format!("dim {}: {} elements from {} by steps of {} do not fit in {} (steps positive)", d, y[d], off[d], st[d], x[d]));
        }
    }
    Ok(())
}

fn verify_concat(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    same_elem(body, op)?;
    let o = body.op(op);
    let (y, _) = shape_of(body, o.result(0))?;
    let axis = o.attr("axis").and_then(|a| a.as_int()).unwrap_or(-1) as i64;
    if axis < 0 || axis as usize >= y.len() {
        return Err(format!("axis {} is not a dim of the {}-D result", axis, y.len()));
    }
    let mut total = 0;
    for v in o.operands() {
        let (s, _) = shape_of(body, *v)?;
        if s.len() != y.len() || (0..y.len()).any(|d| d != axis as usize && s[d] != y[d]) {
            return Err(format!("operand {:?} does not match the result {:?} outside axis {}", s, y, axis));
        }
        total += s[axis as usize];
    }
    if total != y[axis as usize] {
        return Err(format!("the operands give {} along axis {}, the result has {}", total, axis, y[axis as usize]));
    }
    Ok(())
}

fn verify_upsample(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    same_elem(body, op)?;
    let o = body.op(op);
    let (x, _) = shape_of(body, o.operand(0))?;
    let (y, _) = shape_of(body, o.result(0))?;
    let f = body.op(op).ints_attr("factors").filter(|f| f.len() == 2 && f.iter().all(|v| *v >= 1)).ok_or("factors must be 2 positive integers")?;
    if x.len() != 4 {
        return Err(format!("upsamples an NHWC (4-D) input, got {:?}", x));
    }
    let want = [x[0], x[1] * f[0], x[2] * f[1], x[3]];
    if y != want {
        return Err(format!("an NHWC input {:?} upsampled by {:?} gives {:?}, not {:?}", x, f, want, y));
    }
    Ok(())
}

fn verify_pad(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    same_elem(body, op)?;
    let o = body.op(op);
    let (x, _) = shape_of(body, o.operand(0))?;
    let (y, _) = shape_of(body, o.result(0))?;
    let p = body.op(op).ints_attr("pads").unwrap_or_default();
    if p.len() != 2 * x.len() || p.iter().any(|v| *v < 0) {
        return Err(format!("pads must be {} non-negative integers (before, then after, each dim of the {}-D input)", 2 * x.len(), x.len()));
    }
    let want: Vec<i64> = (0..x.len()).map(|d| x[d] + p[d] + p[x.len() + d]).collect();
    if y != want {
        return Err(format!("an input {:?} padded by {:?} gives {:?}, not {:?}", x, p, want, y));
    }
    Ok(())
}

fn verify_requant(_: &Context, body: &Body, op: OpId) -> Result<(), String> {
    let o = body.op(op);
    let (a, e) = shape_of(body, o.operand(0))?;
    let (y, r) = shape_of(body, o.result(0))?;
    if e.to_string() != "i32" || r.to_string() != "i8" {
        return Err(format!("requantizes i32 to i8, got {} to {}", e, r));
    }
    if a != y {
        return Err("operand and result must have one shape".into());
    }
    let shift = o.attr("shift").and_then(|a| a.as_int()).unwrap_or(-1);
    if !(0..=62).contains(&shift) {
        return Err(format!("shift must be in 0..=62, got {}", shift));
    }
    Ok(())
}
