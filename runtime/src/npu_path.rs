//! The heterogeneous path (`npu-run --target npu16,cpu`): the model is
//! partitioned over an ordered list of backends (`backend::partition`); CPU
//! partitions are compiled together through the CPU pipeline into one JIT
//! module, npu16 partitions into simulator programs; a run walks the graph
//! function's calls in order, passing host tensors between them (NHWC
//! tensors between NPU partitions; the layout transposes left at CPU
//! boundaries run on the host).

use onnx::ops;
use crate::compile::{self, CompileOptions};
use executor::plan::{check_cpu_functions, CpuFunc, Stage};
pub use executor::plan::NpuProgram;
use executor::HostTensor;
pub use executor::{NpuRun, Plan};
use driver::npu_program::encode_program;
use driver::partition_compile::{apply_backend_settings, partition_and_compile};
use ir::{Body, Context, OpId, Value};
use npu_sim::HwConfig;
use std::collections::HashMap;
use std::time::Instant;


/// The compiler's view of a simulator configuration.
pub fn hw_desc(cfg: &HwConfig) -> npu::hw::HwDesc {
    npu::hw::HwDesc {
        name: cfg.name.clone(),
        array_rows: cfg.array.rows as u64,
        array_cols: cfg.array.cols as u64,
        fill_latency: cfg.array.fill_latency as u64,
        weight_buffers: cfg.array.weight_buffers as u64,
        f32_rate: cfg.array.f32_rate as u64,
        spad_rows: cfg.scratchpad.rows as u64,
        acc_rows: cfg.accumulator.rows as u64,
        vector_latency: cfg.vector.latency as u64,
        vector_mac: cfg.vector.mac as u64,
        vector_lut: cfg.vector.lut as u64,
        vector_bias: cfg.vector.bias as u64,
        spad_dma: cfg.scratchpad.dma as u64,
        dram_bytes_per_cycle: cfg.dram.bytes_per_cycle as u64,
        dram_latency: cfg.dram.latency as u64,
        dram_burst_bytes: cfg.dram.burst_bytes as u64,
        dram_coalesce: cfg.dram.coalesce as u64,
        dram_pipelined: cfg.dram.pipelined as u64,
    }
}

/// Where each op of the model runs, and why not on the NPU.
pub use backend::partition::Placement;

/// A model compiled for a list of backends: its plan (`executor::Plan`,
/// whose fields it shows as its own) and how the compile went.
pub struct NpuCompiled {
    pub plan: Plan,
    pub placements: Vec<Placement>,
    /// The backends the model was partitioned over, in order (the CPU last).
    pub targets: Vec<String>,
    pub compile_ms: f64,
    /// How long each compile phase took, in milliseconds, in order (`crate::phases`; none from the cache).
    pub phases: Vec<(&'static str, f64)>,
    /// What the compile cache did (`CompileOptions::cache_dir`).
    pub cache: crate::cached_compile::CacheUse,
    /// The CPU partitions' object code, kept for the compile cache (empty
    /// without CPU partitions or a cache).
    pub(crate) cpu_object: Vec<u8>,
    /// The partitions at the tensor level (before scheduling), for the host
    /// reference; none when the compile came from the cache.
    pub(crate) reference: Option<(Context, Body, OpId)>,
}

impl std::ops::Deref for NpuCompiled {
    type Target = Plan;
    fn deref(&self) -> &Plan {
        &self.plan
    }
}

impl std::ops::DerefMut for NpuCompiled {
    fn deref_mut(&mut self) -> &mut Plan {
        &mut self.plan
    }
}

impl NpuCompiled {
    /// Runs once ([`Plan::run_with`]), telling `driver::phases` what runs.
    /// With `check_reference`, each NPU partition's outputs are also computed
    /// by the host reference (`crate::npu_reference`) from the same inputs.
    pub fn run(&self, inputs: &HashMap<String, HostTensor>, record: bool, check_reference: bool) -> Result<NpuRun, String> {
        let evaluate = |partition: &str, ins: &[HostTensor]| -> Result<Vec<HostTensor>, String> {
            let (ctx, body, module) = self.reference.as_ref().ok_or("the host reference needs a compile, and this one came from the cache (compile with `recompile`)")?;
            let f = func_named(body, *module, partition).ok_or_else(|| format!("no partition @{} for the reference", partition))?;
            crate::npu_reference::evaluate(ctx, body, f, ins)
        };
        let reference: Option<&executor::plan::Reference> = if check_reference { Some(&evaluate) } else { None };
        self.plan.run_with(inputs, record, reference, &|what| driver::phases::notify(what))
    }
}

fn module_block(body: &Body, module: OpId) -> ir::Block {
    body.region_blocks(body.op(module).regions()[0])[0]
}

fn func_named(body: &Body, module: OpId, name: &str) -> Option<OpId> {
    body.block_ops(module_block(body, module)).find(|f| body.op(*f).str_attr("sym_name") == Some(name))
}

/// The CPU partitions, compiled together.
/// With `keep_object`, also their object code (for the compile cache).
fn compile_cpu(ctx: &Context, body: &Body, module: OpId, opt_level: usize, keep_object: bool) -> Result<(Option<llvm_cpu::Jit>, Vec<CpuFunc>, Vec<u8>, Vec<String>), String> {
    let mut b = body.clone();
    let mb = module_block(&b, module);
    let funcs: Vec<OpId> = b.block_ops(mb).collect();
    let mut cpu = vec![];
    for f in funcs {
        if backend::partition::partition_backend(&b, f) == Some(backend::CPU) {
            b.op_mut(f).properties.remove("sym_visibility");
            cpu.push(f);
        } else {
            b.erase(f);
        }
    }
    if cpu.is_empty() {
        return Ok((None, vec![], vec![], vec![]));
    }
    driver::phases::begin("CPU partitions: lowering to tensors (our passes)");
    driver::pipelines::run(ctx, &mut b, module, "builtin.module(onnx-shape-inference, canonicalize)")?;
    let mut funcs = vec![];
    for f in &cpu {
        let name = b.op(*f).str_attr("sym_name").unwrap_or("").to_string();
        let (ins, outs) = func::function_type(&b, *f).ok_or("partition without type")?;
        let inputs = ins.iter().enumerate().map(|(i, t)| compile::spec(ctx, partition_value(&b, *f, i, false), t)).collect::<Result<Vec<_>, _>>()?;
        let outputs = outs.iter().enumerate().map(|(i, t)| compile::spec(ctx, partition_value(&b, *f, i, true), t)).collect::<Result<Vec<_>, _>>()?;
        funcs.push(CpuFunc { name, inputs, outputs, weights: vec![] });
    }
    let weights = compile::lower_for_cpu(ctx, &mut b, module, &cpu, true, ["CPU partitions: weights out as arguments", "CPU partitions: lowering to loops (our passes)"])?;
    for (f, w) in funcs.iter_mut().zip(weights) {
        f.weights = w;
    }
    driver::phases::begin("CPU partitions: printing the loops for MLIR");
    let texts = llvm_cpu::to_mlir_parts(ctx, &b, module, 2 * compile::codegen_threads());
    driver::phases::begin(compile::LLVM_PHASE);
    let names: Vec<&str> = funcs.iter().map(|f| f.name.as_str()).collect();
    let (jit, object, times) = llvm_cpu::Jit::compile_parts(&texts, compile::codegen_threads(), opt_level, &crate::checks::jit_symbols(), &names)?;
    compile::record_codegen(&times);
    let object = if keep_object { object } else { vec![] };
    check_cpu_functions(&jit, &funcs)?;
    Ok((Some(jit), funcs, object, crate::checks::messages(&b, module)))
}

/// A CPU partition's argument or result in the model's words: the ONNX node
/// that computes it, or (an argument) the first that reads it; the partition's
/// own name only where neither is known.
fn partition_value(body: &Body, f: OpId, i: usize, result: bool) -> String {
    let fname = body.op(f).str_attr("sym_name").unwrap_or("").to_string();
    let fallback = if result { format!("{}#{}", fname, i) } else { format!("{} argument {}", fname, i) };
    let Some(entry) = body.entry_block(f) else { return fallback };
    let node = |op: OpId| body.op(op).loc.node_name().map(|n| format!("'{}' ({})", n, body.name(op).as_str().trim_start_matches("onnx.")));
    let named = if result {
        let ret = body.block_ops(entry).last();
        ret.and_then(|r| body.op(r).operands().get(i).copied()).and_then(|v| body.defining_op(v)).and_then(node).map(|n| format!("the output of node {}", n))
    } else {
        body.block_args(entry).get(i).and_then(|a| body.uses(*a).first()).and_then(|u| node(u.op)).map(|n| format!("an input of node {}", n))
    };
    named.unwrap_or(fallback)
}

/// Every partition of a backend other than npu16 and the CPU, compiled by its
/// backend (`Backend::compile`); one it cannot compile goes to the CPU with the
/// reason, or to the next backend of the list (`Refusals`).
fn program(body: &Body, f: OpId, launch: OpId) -> Result<NpuProgram, String> {
    let program = encode_program(body, f).map_err(|e| format!("the generated program does not encode: {}", e))?;
    let consts = match body.op(f).attr(npu::attrs::CONST_IMAGE).map(|a| a.data()) {
        // Shared with the IR's blob, not copied (ResNet-18's image is 47 MB).
        Some(ir::attributes::AttrData::DenseResource { resource, .. }) => resource.blob.get().map(|b| bytes::Bytes::from_owner(SharedBlob(b.data.clone()))).unwrap_or_default(),
        _ => return Err("the program has no constant image".into()),
    };
    let names = |k: &str| -> Vec<String> { body.op(launch).attr(k).and_then(|a| a.as_array()).map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect()).unwrap_or_default() };
    let name = body.op(f).str_attr("sym_name").unwrap_or("").to_string();
    Ok(NpuProgram { name, program, consts, inputs: names("inputs"), outputs: names("outputs") })
}

/// A blob's bytes as the owner of a `bytes::Bytes`.
struct SharedBlob(ir::attributes::BlobBytes);

impl AsRef<[u8]> for SharedBlob {
    fn as_ref(&self) -> &[u8] {
        (*self.0).as_ref()
    }
}

/// Compiles `model` for the backends of `targets` (see [`target_list`]), npu16
/// described by `hw`, with CPU fallback; through the compile cache when
/// `opts.cache_dir` names one (`crate::cached_compile`).
pub fn compile_npu(model: &[u8], path: Option<&std::path::Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions, hw: &HwConfig, targets: &[String], placement: Option<&str>) -> Result<NpuCompiled, String> {
    crate::cached_compile::compile_npu(model, path, given, opts, hw, targets, placement).map_err(|e| crate::model_words::explain(model, path, given, opts, e))
}

/// [`compile_npu`] without the cache.
pub(crate) fn compile_uncached(model: &[u8], path: Option<&std::path::Path>, given: &HashMap<String, HostTensor>, opts: &CompileOptions, hw: &HwConfig, targets: &[String], placement: Option<&str>) -> Result<NpuCompiled, String> {
    let t0 = Instant::now();
    driver::phases::start();
    driver::phases::begin(compile::IMPORT_PHASE);
    let compile::Specialized { ctx, mut imp, func: f, bound } = compile::specialize(model, path, given, opts)?;
    let graph = imp.body.op(f).str_attr("sym_name").unwrap_or("main").to_string();
    driver::phases::begin(compile::SHAPES_PHASE);
    driver::pipelines::run(&ctx, &mut imp.body, imp.module, driver::pipelines::RESOLVE_PIPELINE)?;
    driver::pipelines::run(&ctx, &mut imp.body, imp.module, "builtin.module(canonicalize)")?;
    compile::check_tensor_sizes(&imp.body, f)?;
    let (inputs, outputs) = compile::signature(&ctx, &imp.body, f)?;
    for o in &outputs {
        if o.shape.contains(&ir::types::DYNAMIC) {
            return Err(format!("output {} has a shape that is not known at compile time", o));
        }
    }
    let desc = hw_desc(hw);
    imp.body.op_mut(imp.module).attributes.set(ctx.ident(npu::attrs::HW), desc.to_attr(&ctx));
    npu16::target::register();
    if placement.is_some_and(|p| p.contains(|c: char| c.is_whitespace() || "{}".contains(c))) {
        return Err(format!("placement file '{}': a path without spaces or braces, please", placement.unwrap_or("")));
    }
    apply_backend_settings(&ctx, &mut imp.body, imp.module, targets, &opts.backend_settings)?;
    let (executables, reference_body, scheduled) = partition_and_compile(&ctx, &mut imp.body, imp.module, targets, placement)?;
    let placements = backend::partition::placements(&imp.body, imp.module);
    let (jit, cpu, cpu_object, cpu_checks) = compile_cpu(&ctx, &imp.body, imp.module, opts.opt_level, opts.cache_dir.is_some())?;
    imp.body = scheduled;
    let body = &imp.body;
    let module = imp.module;
    let main = func_named(body, module, &graph).ok_or("the graph function disappeared")?;
    let entry = body.entry_block(main).ok_or("graph function without body")?;
    driver::phases::begin("NPU programs encoded, the run plan");
    // The plan: main's ops in order over a table of value slots.
    let mut slot: HashMap<Value, usize> = HashMap::new();
    let mut next = 0usize;
    let mut slot_of = |v: Value, slot: &mut HashMap<Value, usize>| *slot.entry(v).or_insert_with(|| {
        next += 1;
        next - 1
    });
    let input_slots: Vec<usize> = body.block_args(entry).iter().map(|a| slot_of(*a, &mut slot)).collect();
    let mut stages = vec![];
    let mut programs = vec![];
    let mut output_slots = vec![];
    for op in body.block_ops(entry) {
        let n = body.name(op);
        let o = body.op(op);
        let args: Vec<usize> = o.operands().iter().map(|v| slot[v]).collect();
        let results: Vec<usize> = o.results().iter().map(|v| slot_of(*v, &mut slot)).collect();
        match n.as_str() {
            func::ops::RETURN => output_slots = args,
            func::ops::CALL => {
                let callee = o.attr("callee").and_then(|a| a.as_symbol()).map(|s| s.join("::")).unwrap_or_default();
                let cf = func_named(body, module, &callee).ok_or_else(|| format!("no partition @{}", callee))?;
                match backend::partition::partition_backend(body, cf) {
                    Some(backend::CPU) => {
                        let k = cpu.iter().position(|c| c.name == callee).ok_or_else(|| format!("CPU partition @{} was not compiled", callee))?;
                        stages.push(Stage::Cpu { func: k, args, results });
                    }
                    Some(npu16::target::NAME) => {
                        let ce = body.entry_block(cf).ok_or("empty partition")?;
                        let launch = body.block_ops(ce).find(|x| body.name(*x).as_str() == npu::ops::LAUNCH).ok_or_else(|| format!("NPU partition @{} was not scheduled", callee))?;
                        let pname = body.op(launch).attr("program").and_then(|a| a.as_symbol()).map(|s| s.join("::")).unwrap_or_default();
                        let pf = func_named(body, module, &pname).ok_or_else(|| format!("no program @{}", pname))?;
                        programs.push(program(body, pf, launch)?);
                        let specs = o.results().iter().map(|r| compile::spec(&ctx, callee.clone(), body.value_type(*r))).collect::<Result<Vec<_>, _>>()?;
                        stages.push(Stage::Npu { program: programs.len() - 1, partition: callee.clone(), args, results, specs });
                    }
                    Some(other) => {
                        let k = executables.iter().position(|e| e.partition == callee).ok_or_else(|| format!("@{}: backend '{}' compiled no executable for it", callee, other))?;
                        let specs = o.results().iter().map(|r| compile::spec(&ctx, callee.clone(), body.value_type(*r))).collect::<Result<Vec<_>, _>>()?;
                        stages.push(Stage::Exec { exe: k, args, results, specs });
                    }
                    None => return Err(format!("@{} is not a partition", callee)),
                }
            }
            ops::Transpose::NAME => {
                let perm = body.op(op).ints_attr("perm").ok_or("transpose without perm")?;
                stages.push(Stage::Transpose { perm: perm.iter().map(|p| *p as usize).collect(), arg: args[0], result: results[0] });
            }
            ops::Reshape::NAME | ops::Flatten::NAME => {
                let shape = body.value_type(o.result(0)).shape().ok_or("reshape of unknown shape")?.to_vec();
                stages.push(Stage::Reshape { arg: args[0], result: results[0], shape });
            }
            ops::Constant::NAME => stages.push(Stage::Const { value: compile::constant_tensor(&ctx, body, op)?, result: results[0] }),
            other => return Err(format!("{}: '{}' left between partitions", o.loc, other)),
        }
    }
    let phases = driver::phases::finish();
    let compile_ms = t0.elapsed().as_secs_f64() * 1e3;
    let module = imp.module;
    let executables = executables.into_iter().map(|e| executor::plan::Executable { backend: e.backend, partition: e.partition, exe: e.exe }).collect();
    let plan = Plan { inputs, outputs, bound, programs, hw: hw.clone(), jit, cpu, cpu_checks, sim_limits: Default::default(), executables, stages, slots: next, input_slots, output_slots };
    Ok(NpuCompiled {
        plan,
        phases,
        placements,
        targets: targets.to_vec(),
        compile_ms,
        cache: crate::cached_compile::CacheUse::Off,
        cpu_object,
        reference: Some((ctx, reference_body, module)),
    })
}

