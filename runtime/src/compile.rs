//! ONNX model → JIT-compiled CPU function: import (with the inputs' shapes,
//! and the values of inputs that decide shapes), the pass pipeline down to
//! loops, then MLIR through `llvm-cpu`.

use onnx::ops;
use executor::HostTensor;
use driver::pipelines::{cpu_tensor_pipeline, run, CPU_LOOPS_PIPELINE, RESOLVE_PIPELINE};
use ir::types::{TypeData, DYNAMIC};
use ir::{Body, Context, OpId};
use std::collections::HashMap;
use std::time::Instant;

/// How many threads compile the LLVM parts of a model: the cores this
/// process may use.
pub(crate) fn codegen_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Lowers `module` for the CPU; with `weights` the large constants become
/// arguments of `funcs` once they are in the kernels' layout (after
/// [`CPU_TENSOR_PIPELINE`]), returned per function as the one byte buffer
/// `pack-weight-arguments` passes them in (none without). `phases` names the
/// two steps after the first for `--timing`.
pub(crate) fn lower_for_cpu(ctx: &Context, body: &mut Body, module: OpId, funcs: &[OpId], weights: bool, phases: [&'static str; 2]) -> Result<Vec<Vec<HostTensor>>, String> {
    run(ctx, body, module, &cpu_tensor_pipeline())?;
    driver::phases::begin(phases[0]);
    let w = funcs.iter().map(|f| if weights { weights_to_arguments(ctx, body, *f) } else { Ok(vec![]) }).collect::<Result<Vec<_>, _>>()?;
    driver::phases::begin(phases[1]);
    run(ctx, body, module, CPU_LOOPS_PIPELINE)?;
    // `pack-weight-arguments` made each function's weights one byte buffer.
    Ok(w.into_iter().map(|ws| if ws.is_empty() { ws } else { vec![pack_weights(&ws)] }).collect())
}

/// The weights of one function as the byte buffer `pack-weight-arguments`
/// views them in (`cpu_target::abi::weight_offsets`).
fn pack_weights(weights: &[HostTensor]) -> HostTensor {
    let (offsets, total) = cpu_target::abi::weight_offsets(&weights.iter().map(|w| w.data.as_ref().len()).collect::<Vec<_>>());
    let mut packed = HostTensor { dtype: onnx_translate::proto::data_type::UINT8, shape: vec![total as i64], data: executor::tensor::AlignedBytes::zeroed(total) };
    let out = packed.data.as_mut();
    for (w, at) in weights.iter().zip(offsets) {
        let bytes = w.data.as_ref();
        out[at..at + bytes.len()].copy_from_slice(bytes);
    }
    packed
}

pub use executor::TensorSpec;

/// A context with every dialect of the project (`driver::context`).
pub fn context() -> Context {
    driver::context()
}

#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// MLIR/LLVM optimization level (0–3).
    pub opt_level: usize,
    /// Free dimensions by name (`--dim N=1`).
    pub dims: HashMap<String, i64>,
    /// Pass large constants to the compiled function at run time (JIT) rather
    /// than compiling them in as globals (what an object file needs).
    pub weights_as_arguments: bool,
    /// Time each model node (`npu-run --profile`).
    pub profile: bool,
    /// Inputs compiled in as constants with the given values (`npu-run --bind`):
    /// weights a model takes as inputs (as ONNX's node tests do) become constants
    /// the NPU can hold stationary.
    pub bind: Vec<String>,
    /// Where compiled models are kept between runs (`npu-run --cache-dir`);
    /// both paths read and write it (`crate::cached_compile`).
    pub cache_dir: Option<std::path::PathBuf>,
    /// Hardware-description overrides of the backends of a list other than
    /// npu16 (`--set acme.array=64`): `BACKEND.KEY=VALUE`, checked against the
    /// backend's keys (`backend::hw`).
    pub backend_settings: Vec<String>,
    /// Compile even when the cache holds the model, and store the result
    /// (a cached compile has no host reference for `--check-reference`).
    pub recompile: bool,
}

/// The loop-level module of a model, and its signature.
pub struct Lowered {
    pub ctx: Context,
    pub body: Body,
    pub module: OpId,
    pub func: String,
    pub inputs: Vec<TensorSpec>,
    pub outputs: Vec<TensorSpec>,
    /// Inputs compiled in as constants (they decide shapes); not passed at run time.
    pub bound: Vec<String>,
    /// Large constants turned into arguments (after the inputs), to pass at run time.
    pub weights: Vec<HostTensor>,
}

/// The phases both paths share (`crate::phases`).
pub(crate) const IMPORT_PHASE: &str = "import (ONNX to the onnx dialect, inputs specialized)";
pub(crate) const SHAPES_PHASE: &str = "shape inference, sequences, QLinear forms";
pub(crate) const LLVM_PHASE: &str = "MLIR and LLVM to machine code";

/// Where [`LLVM_PHASE`]'s time went, as details of it (each step's time
/// summed over the code generation threads, so they may add up to more).
pub(crate) fn record_codegen(t: &llvm_cpu::CodegenTimes) {
    for (name, ms) in [
        ("  MLIR: parse, lower to the LLVM dialect (thread time)", t.mlir_ms),
        ("  LLVM: translate to LLVM IR (thread time)", t.translate_ms),
        ("  LLVM: optimize (thread time)", t.optimize_ms),
        ("  LLVM: select instructions, emit objects (thread time)", t.emit_ms),
        ("  ORC: link into the process", t.link_ms),
    ] {
        driver::phases::detail(name, ms);
    }
}

/// Float constants of at least this many bytes become arguments of the JIT'd
/// function instead of LLVM globals: LLVM then never sees the weights (a
/// ResNet-18 compiles in a fraction of the time) and they stay in the
/// runtime's memory, as ONNX Runtime keeps its initializers.
pub const WEIGHT_ARGUMENT_BYTES: usize = 4096;

/// Replaces each large float or 8-bit integer tensor constant of `func`,
/// lowered to tensor ops (`arith.constant`), by a new argument (appended
/// after the inputs) and returns their contents in argument order.
pub(crate) fn weights_to_arguments(ctx: &Context, body: &mut Body, func: OpId) -> Result<Vec<HostTensor>, String> {
    let entry = body.region_blocks(body.op(func).regions()[0])[0];
    // Constants of the body and of its loops and branches (a recurrent
    // layer's weights are read inside its `scf.while`): an argument of the
    // entry block is visible there too.
    let in_control_flow = |o: OpId| {
        let mut p = body.parent_op(o);
        while let Some(q) = p.filter(|q| *q != func) {
            if !body.name(q).as_str().starts_with("scf.") {
                return false;
            }
            p = body.parent_op(q);
        }
        p == Some(func)
    };
    let consts: Vec<OpId> = body.walk_preorder(func).into_iter().filter(|o| body.name(*o).as_str() == arith::ops::CONSTANT && body.has_uses(body.op(*o).result(0)) && in_control_flow(*o)).collect();
    let mut weights = Vec::new();
    let mut names = Vec::new();
    for op in consts {
        let r = body.op(op).result(0);
        let t = body.value_type(r).clone();
        let (Some(elem), Some(n)) = (t.element_type(), t.num_elements()) else { continue };
        // Quantized weights: lowered, an int8 or uint8 is a signless i8.
        let dtype = match onnx::types::data_type(ctx, elem) {
            Some(d) => d,
            None if elem.is_signless_integer() && elem.int_width() == Some(8) => onnx_translate::proto::data_type::INT8,
            None => continue,
        };
        let Some(size) = crate::tensor::dtype_size(dtype) else { continue };
        let splat = matches!(body.op(op).properties.get("value").map(|a| a.data()), Some(ir::attributes::AttrData::Dense { data, .. }) if data.splat);
        if splat || !(elem.is_float() || elem.int_width() == Some(8)) || (n as usize) * size < WEIGHT_ARGUMENT_BYTES {
            continue;
        }
        let Ok(h) = constant_tensor_as(body, op, dtype) else { continue };
        let a = body.add_block_arg(entry, t.clone(), None);
        body.replace_all_uses(r, a);
        body.erase(op);
        names.push(format!("__weight_{}", weights.len()));
        weights.push(h);
    }
    if weights.is_empty() {
        return Ok(weights);
    }
    let (_, results) = func::function_type(body, func).ok_or("no function type")?;
    let inputs: Vec<ir::Type> = body.block_args(entry).iter().map(|a| body.value_type(*a).clone()).collect();
    let n_old = inputs.len() - weights.len();
    let ft = ctx.intern_type(TypeData::Function { inputs, results });
    let props = &mut body.op_mut(func).properties;
    props.set(ctx.ident("function_type"), ir::Attribute::type_attr(ft));
    let mut attrs = props.get("arg_attrs").and_then(|a| a.as_array()).map(|a| a.to_vec()).unwrap_or_default();
    attrs.resize(n_old, ir::Attribute::new(ir::attributes::AttrData::Dict(Default::default())));
    for n in names {
        let mut d = ir::attributes::AttrDict::new();
        d.set(ctx.ident("onnx.name"), ir::Attribute::string(&n));
        d.set(ctx.ident(cpu_target::abi::WEIGHT_ARG), ir::Attribute::unit());
        attrs.push(ir::Attribute::new(ir::attributes::AttrData::Dict(d)));
    }
    props.set(ctx.ident("arg_attrs"), ir::Attribute::new(ir::attributes::AttrData::Array(attrs)));
    Ok(weights)
}

/// The value of an `onnx.Constant` as a host tensor (a splat expanded).
pub(crate) fn constant_tensor(ctx: &Context, body: &Body, op: OpId) -> Result<HostTensor, String> {
    let t = body.value_type(body.op(op).result(0)).clone();
    let spec = spec(ctx, "constant".into(), &t)?;
    constant_tensor_as(body, op, spec.dtype)
}

/// The value of a constant (`onnx.Constant` or `arith.constant`) as a host
/// tensor of ONNX type `dtype` (a splat expanded).
fn constant_tensor_as(body: &Body, op: OpId, dtype: i32) -> Result<HostTensor, String> {
    let t = body.value_type(body.op(op).result(0)).clone();
    let shape = t.shape().filter(|s| s.iter().all(|d| *d >= 0)).ok_or("a constant without a static shape")?.to_vec();
    let mut h = HostTensor::zeros(dtype, &shape)?;
    let (bytes, splat): (&[u8], bool) = match body.op(op).properties.get("value").map(|a| a.data()) {
        Some(ir::attributes::AttrData::Dense { data, .. }) => (&data.bytes, data.splat),
        Some(ir::attributes::AttrData::DenseResource { resource, .. }) => (resource.blob.get().ok_or("a constant resource without data")?.bytes(), false),
        _ => return Err("a constant of an unsupported form".into()),
    };
    let out = h.data.as_mut();
    if splat {
        let w = bytes.len();
        if w == 0 || out.len() % w != 0 {
            return Err("a splat constant of the wrong width".into());
        }
        for chunk in out.chunks_mut(w) {
            chunk.copy_from_slice(bytes);
        }
    } else {
        let n = out.len();
        out.copy_from_slice(bytes.get(..n).ok_or("constant data is short")?);
    }
    Ok(h)
}

/// Operands the CPU lowering needs constant besides those that decide shapes
/// (each op family's, `onnx::family::is_shape_operand`): inputs that feed them directly
/// are specialized on their values too.
const LOWERING_CONSTANTS: &[(&str, &[usize])] = &[
    (ops::Resize::NAME, &[1]),
    (ops::Dropout::NAME, &[1, 2]),
    (ops::Trilu::NAME, &[1]),
    (ops::CumSum::NAME, &[1]),
    (ops::CumProd::NAME, &[1]),
    (ops::LSTM::NAME, &[4]),
    (ops::GRU::NAME, &[4]),
    (ops::RNN::NAME, &[4]),
    (ops::Compress::NAME, &[1]),
    (ops::MelWeightMatrix::NAME, &[2, 3, 4]),
];

fn func_of(body: &Body, module: OpId) -> Option<OpId> {
    body.walk_preorder(module).into_iter().find(|o| body.name(*o).as_str() == func::ops::FUNC)
}

fn names(body: &Body, func: OpId, key: &str) -> Vec<String> {
    body.op(func)
        .properties
        .get(key)
        .and_then(|a| a.as_array())
        .map(|a| a.iter().map(|d| d.as_dict().and_then(|d| d.get("onnx.name")).and_then(|n| n.as_str()).unwrap_or("").to_string()).collect())
        .unwrap_or_default()
}

pub(crate) fn spec(ctx: &Context, name: String, t: &ir::Type) -> Result<TensorSpec, String> {
    let (shape, elem) = match t.data() {
        TypeData::RankedTensor { shape, elem, .. } => (shape.clone(), elem),
        _ => return Err(format!("'{}' has type {}; the CPU path needs ranked tensors", name, t)),
    };
    let dtype = onnx::types::data_type(ctx, elem).ok_or_else(|| format!("'{}' has element type {} with no ONNX equivalent", name, elem))?;
    Ok(TensorSpec { name, dtype, shape })
}

/// The signature of the imported graph function.
pub(crate) fn signature(ctx: &Context, body: &Body, func: OpId) -> Result<(Vec<TensorSpec>, Vec<TensorSpec>), String> {
    let (_, outs) = func::function_type(body, func).ok_or("the model function has no type")?;
    let out_names = names(body, func, "res_attrs");
    let outputs = outs.iter().enumerate().map(|(i, t)| spec(ctx, spec_name(&out_names, i, "output"), t)).collect::<Result<_, _>>()?;
    Ok((input_specs(ctx, body, func)?, outputs))
}

/// The inputs of [`signature`] alone: before shape inference, the outputs
/// may still be unranked (a model that declares them without a shape).
fn input_specs(ctx: &Context, body: &Body, func: OpId) -> Result<Vec<TensorSpec>, String> {
    let (ins, _) = func::function_type(body, func).ok_or("the model function has no type")?;
    let in_names = names(body, func, "arg_attrs");
    ins.iter().enumerate().map(|(i, t)| spec(ctx, spec_name(&in_names, i, "input"), t)).collect()
}

fn spec_name(names: &[String], i: usize, prefix: &str) -> String {
    names.get(i).filter(|s| !s.is_empty()).cloned().unwrap_or_else(|| format!("{}{}", prefix, i))
}

fn import(ctx: &Context, model: &onnx_translate::proto::ModelProto, path: Option<&std::path::Path>, dims: &HashMap<String, i64>, bound: Vec<(String, onnx_translate::proto::TensorProto)>) -> Result<onnx_translate::import::Imported, String> {
    let opts = onnx_translate::import::ImportOptions { model_path: path.map(|p| p.to_path_buf()), dims: dims.clone(), bound_inputs: bound, ..Default::default() };
    onnx_translate::import::import_proto(ctx, model, &opts).map_err(|d| driver::pipelines::render_errors(&d))
}

/// A model imported for the inputs at hand: their symbolic dims bound, the
/// inputs that decide shapes compiled in as constants, dynamic input shapes
/// replaced by the given tensors'.
pub(crate) struct Specialized {
    pub ctx: Context,
    pub imp: onnx_translate::import::Imported,
    pub func: OpId,
    pub bound: Vec<String>,
}

pub(crate) fn specialize(model: &[u8], path: Option<&std::path::Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions) -> Result<Specialized, String> {
    let ctx = context();
    // Decoded once; both imports below read the same message (large tensors share its buffer).
    let mut proto = onnx_translate::proto::decode_model(bytes::Bytes::copy_from_slice(model))?;
    // Sequence and optional inputs become the tensors given for them.
    crate::values::flatten_inputs(&mut proto, given)?;
    // Symbolic dims of the given inputs, read off the model's declarations.
    let mut dims = opts.dims.clone();
    for vi in proto.graph.iter().flat_map(|g| &g.input) {
        let Some(t) = given.get(vi.name.as_deref().unwrap_or("")) else { continue };
        if let Some(onnx_translate::proto::TypeValue::TensorType(tt)) = vi.r#type.as_ref().and_then(|t| t.value.as_ref()) {
            for (k, d) in tt.shape.iter().flat_map(|s| s.dim.iter()).enumerate() {
                if let (Some(onnx_translate::proto::DimValue::DimParam(p)), Some(v)) = (d.value.as_ref(), t.shape.get(k)) {
                    dims.entry(p.clone()).or_insert(*v);
                }
            }
        }
    }
    let mut first = import(&ctx, &proto, path, &dims, vec![])?;
    // Inferred types first: whether an If's branches give different shapes (so
    // that a scalar input choosing the branch decides shapes) shows only then.
    run(&ctx, &mut first.body, first.module, "builtin.module(onnx-shape-inference)")?;
    let f = func_of(&first.body, first.module).ok_or("the model has no graph")?;
    let declared = input_specs(&ctx, &first.body, f)?;
    let deciding: Vec<usize> = onnx::shape_operands::deciding_inputs(&first.body, f, LOWERING_CONSTANTS).into_iter().map(|(k, _)| k).collect();
    let mut bound = Vec::new();
    for (i, spec) in declared.iter().enumerate() {
        let name = &spec.name;
        if let (true, Some(t)) = (deciding.contains(&i) || opts.bind.contains(name), given.get(name)) {
            bound.push((name.clone(), t.to_proto(name)));
        }
    }
    // Imported again only when some input becomes a constant.
    let bound_names: Vec<String> = bound.iter().map(|(n, _)| n.clone()).collect();
    let mut imp = if bound.is_empty() { first } else { import(&ctx, &proto, path, &dims, bound)? };
    let f = func_of(&imp.body, imp.module).ok_or("the model has no graph")?;
    // Inputs whose declared shape is not static take the given tensor's shape.
    let entry = imp.body.region_blocks(imp.body.op(f).regions()[0])[0];
    let ins = input_specs(&ctx, &imp.body, f)?;
    for (i, a) in imp.body.block_args(entry).to_vec().iter().enumerate() {
        if let Some(t) = given.get(&ins[i].name) {
            let ty = imp.body.value_type(*a).clone();
            if let TypeData::RankedTensor { shape, elem, .. } = ty.data() {
                if shape.contains(&DYNAMIC) && shape.len() == t.shape.len() {
                    let nt = ctx.intern_type(TypeData::RankedTensor { shape: t.shape.clone(), elem: elem.clone(), encoding: None });
                    imp.body.set_value_type(*a, nt);
                }
            }
        }
    }
    set_arg_types_in_signature(&ctx, &mut imp.body, f, entry);
    Ok(Specialized { ctx, imp, func: f, bound: bound_names })
}

/// The inputs the model declares for these given inputs (names, dtypes,
/// shapes; a free dim not bound stays dynamic): what random inputs must fill.
pub fn declared_inputs(model: &[u8], path: Option<&std::path::Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions) -> Result<Vec<TensorSpec>, String> {
    let s = specialize(model, path, given, opts)?;
    input_specs(&s.ctx, &s.imp.body, s.func)
}

/// Imports `model` specialized to `given` inputs' shapes (and, for inputs that
/// decide shapes, their values), and lowers it to loops.
pub fn lower_model(model: &[u8], path: Option<&std::path::Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions) -> Result<Lowered, String> {
    driver::phases::begin(IMPORT_PHASE);
    let Specialized { ctx, mut imp, func: f, bound } = specialize(model, path, given, opts)?;
    driver::phases::begin(SHAPES_PHASE);
    let func_name = imp.body.op(f).properties.get("sym_name").and_then(|a| a.as_str()).unwrap_or("main").to_string();
    // Shape inference first (and sequences resolved), so the signature is known before lowering.
    run(&ctx, &mut imp.body, imp.module, RESOLVE_PIPELINE)?;
    check_tensor_sizes(&imp.body, f)?;
    let (inputs, outputs) = signature(&ctx, &imp.body, f)?;
    for o in &outputs {
        if o.shape.contains(&DYNAMIC) {
            return Err(format!("output {} has a shape that is not known at compile time; the CPU path needs static shapes", o));
        }
    }
    driver::phases::begin("lowering to tensors (our passes)");
    let weights = lower_for_cpu(&ctx, &mut imp.body, imp.module, &[f], opts.weights_as_arguments, ["weights out as arguments", "lowering to loops (our passes)"])?.pop().unwrap_or_default();
    if opts.profile {
        run(&ctx, &mut imp.body, imp.module, "builtin.module(insert-profiling)")?;
    }
    Ok(Lowered { ctx, body: imp.body, module: imp.module, func: func_name, inputs, outputs, bound, weights })
}

/// The multiply-accumulates of each product node (Conv, MatMul, Gemm, the
/// recurrent ones), by node name, in the model specialized to `given`: what
/// `npu-run --profile` turns into GFLOP/s.
pub fn node_macs(model: &[u8], path: Option<&std::path::Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions) -> Result<HashMap<String, u64>, String> {
    let Specialized { ctx, mut imp, func: f, .. } = specialize(model, path, given, opts)?;
    run(&ctx, &mut imp.body, imp.module, RESOLVE_PIPELINE)?;
    let mut out: HashMap<String, u64> = HashMap::new();
    for op in imp.body.walk_preorder(f) {
        let m = backend::partition::macs(&imp.body, op);
        if let (true, Some(n)) = (m > 0, imp.body.op(op).loc.node_name()) {
            *out.entry(n).or_default() += m;
        }
    }
    Ok(out)
}

/// Every tensor the model takes or computes fits the limit of
/// [`crate::tensor::max_tensor_bytes`]: refused at compile time, naming the
/// node, rather than a failed allocation in the middle of a run.
pub(crate) fn check_tensor_sizes(body: &Body, func: OpId) -> Result<(), String> {
    let limit = crate::tensor::max_tensor_bytes();
    let too_big = |t: &ir::Type| {
        let bytes = (t.num_elements()? as u128) * ir::attributes::element_bytes(t.element_type()?).unwrap_or(1) as u128;
        (bytes > limit as u128).then_some(bytes)
    };
    let entry = body.entry_block(func).ok_or("the model function has no body")?;
    for (i, a) in body.block_args(entry).iter().enumerate() {
        if let Some(b) = too_big(body.value_type(*a)) {
            return Err(format!("input #{} of type {} needs {} bytes, more than the limit of {} (--max-tensor-bytes)", i, body.value_type(*a), b, limit));
        }
    }
    for op in body.walk_preorder(func) {
        for r in body.op(op).results() {
            if let Some(b) = too_big(body.value_type(*r)) {
                let names = body.op(op).loc.node_names();
                let node = if names.is_empty() { body.op(op).loc.to_string() } else { names.join("+") };
                return Err(format!("node '{}' ({}) computes a tensor of type {}, {} bytes, more than the limit of {} (--max-tensor-bytes)", node, body.name(op).as_str(), body.value_type(*r), b, limit));
            }
        }
    }
    Ok(())
}

fn set_arg_types_in_signature(ctx: &Context, body: &mut Body, f: OpId, entry: ir::Block) {
    let Some((_, results)) = func::function_type(body, f) else { return };
    let inputs: Vec<ir::Type> = body.block_args(entry).iter().map(|a| body.value_type(*a).clone()).collect();
    let ft = ctx.intern_type(TypeData::Function { inputs, results });
    body.op_mut(f).properties.set(ctx.ident("function_type"), ir::Attribute::type_attr(ft));
}


/// A compiled model, ready to run: its code (`executor::CpuCode`, whose
/// fields and `run` it shows as its own) and how the compile went.
pub struct Compiled {
    pub code: executor::CpuCode,
    pub compile_ms: f64,
    /// The node of each profiling region (empty unless compiled with `profile`).
    pub profile_regions: Vec<String>,
    /// What the compile cache did (`CompileOptions::cache_dir`).
    pub cache: crate::cached_compile::CacheUse,
    /// The object code, kept for the compile cache (empty without one).
    pub(crate) object: Vec<u8>,
    /// How long each compile phase took, in milliseconds (`npu-run --timing`).
    pub phases: Vec<(&'static str, f64)>,
}

impl std::ops::Deref for Compiled {
    type Target = executor::CpuCode;
    fn deref(&self) -> &executor::CpuCode {
        &self.code
    }
}

impl std::ops::DerefMut for Compiled {
    fn deref_mut(&mut self) -> &mut executor::CpuCode {
        &mut self.code
    }
}

/// Compiles for the JIT (weights passed as arguments); through the compile
/// cache when `opts.cache_dir` names one (`crate::cached_compile`).
pub fn compile(model: &[u8], path: Option<&std::path::Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions) -> Result<Compiled, String> {
    crate::cached_compile::compile_cpu(model, path, given, opts).map_err(|e| crate::model_words::explain(model, path, given, opts, e))
}

/// [`compile`] without the cache.
pub(crate) fn compile_uncached(model: &[u8], path: Option<&std::path::Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions) -> Result<Compiled, String> {
    let t0 = Instant::now();
    let opts = CompileOptions { weights_as_arguments: true, ..opts.clone() };
    let opts = &opts;
    driver::phases::start();
    let l = lower_model(model, path, given, opts)?;
    driver::phases::begin("printing the loops for MLIR");
    let texts = llvm_cpu::to_mlir_parts(&l.ctx, &l.body, l.module, 2 * codegen_threads());
    driver::phases::begin(LLVM_PHASE);
    let regions: Vec<String> = ir::symbols::lookup_symbol_in(&l.body, l.module, &l.func)
        .and_then(|f| l.body.op(f).attributes.get("npu.profile_regions").and_then(|a| a.as_array()).map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect()))
        .unwrap_or_default();
    crate::profile::reset(regions.len());
    let checks = crate::checks::messages(&l.body, l.module);
    // The code is materialized now (the JIT compiles on first lookup), so
    // compile time is not charged to the first run.
    let (jit, object, times) = llvm_cpu::Jit::compile_parts(&texts, codegen_threads(), opts.opt_level, &crate::checks::jit_symbols(), &[&l.func])?;
    record_codegen(&times);
    let object = if opts.cache_dir.is_some() { object } else { vec![] };
    if !jit.has_function(&l.func) {
        return Err(format!("the compiled module has no function @{}", l.func));
    }
    let phases = driver::phases::finish();
    Ok(Compiled {
        code: executor::CpuCode { jit, func: l.func, inputs: l.inputs, outputs: l.outputs, bound: l.bound, weights: l.weights, checks },
        compile_ms: t0.elapsed().as_secs_f64() * 1e3,
        profile_regions: regions,
        cache: crate::cached_compile::CacheUse::Off,
        object,
        phases,
    })
}
