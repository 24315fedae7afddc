//! A partitioned model's plan and its run: NPU programs on the simulator,
//! CPU partitions on the JIT (one module for all of them), other backends'
//! executables, and the layout glue between them (transposes, reshapes,
//! constants), as steps over a table of value slots, run in order.

use crate::tensor::HostTensor;
use crate::TensorSpec;
use npu_sim::HwConfig;
use std::collections::HashMap;
use std::time::Instant;

/// A scheduled NPU partition: its program and its constant image.
pub struct NpuProgram {
    pub name: String,
    pub program: npu_sim::Program,
    pub consts: bytes::Bytes,
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
}

impl NpuProgram {
    /// The program's assembly (its disassembly: the program's error messages
    /// name lines of this text). Made when asked, as few runs want it.
    pub fn asm(&self) -> String {
        npu_sim::disasm::disassemble(&self.program)
    }
}

pub struct CpuFunc {
    pub name: String,
    /// The partition's arguments (before its weights), checked at every call.
    pub inputs: Vec<TensorSpec>,
    pub outputs: Vec<TensorSpec>,
    pub weights: Vec<HostTensor>,
}

/// One step of a run, over a table of value slots.
pub enum Stage {
    Cpu { func: usize, args: Vec<usize>, results: Vec<usize> },
    Exec { exe: usize, args: Vec<usize>, results: Vec<usize>, specs: Vec<TensorSpec> },
    Npu { program: usize, partition: String, args: Vec<usize>, results: Vec<usize>, specs: Vec<TensorSpec> },
    Transpose { perm: Vec<usize>, arg: usize, result: usize },
    Reshape { arg: usize, result: usize, shape: Vec<i64> },
    Const { value: HostTensor, result: usize },
}

/// A partition another backend compiled (`Backend::compile`).
pub struct Executable {
    pub backend: String,
    pub partition: String,
    pub exe: Box<dyn backend::Executable>,
}

/// What computes an NPU partition's outputs on the host, to check the
/// simulator's against (`runtime::npu_reference`): partition name and inputs in.
pub type Reference<'a> = dyn Fn(&str, &[HostTensor]) -> Result<Vec<HostTensor>, String> + 'a;

/// Everything a run needs, and nothing of the compile.
pub struct Plan {
    pub inputs: Vec<TensorSpec>,
    pub outputs: Vec<TensorSpec>,
    /// Inputs whose values were compiled in (they decide shapes): not passed.
    pub bound: Vec<String>,
    pub programs: Vec<NpuProgram>,
    pub hw: HwConfig,
    /// The CPU partitions' code, one JIT module for all.
    pub jit: Option<llvm_cpu::Jit>,
    pub cpu: Vec<CpuFunc>,
    /// The messages of the CPU partitions' run-time checks (`crate::checks`).
    pub cpu_checks: Vec<String>,
    /// What each NPU program may spend in the simulator (`npu-run --max-cycles`).
    pub sim_limits: npu_sim::sim::Limits,
    pub executables: Vec<Executable>,
    pub stages: Vec<Stage>,
    /// How many value slots the stages use; where the model's inputs and outputs sit.
    pub slots: usize,
    pub input_slots: Vec<usize>,
    pub output_slots: Vec<usize>,
}

/// What one run did on the NPU: each program's simulator report.
pub struct NpuRun {
    pub outputs: Vec<HostTensor>,
    pub reports: Vec<(String, npu_sim::report::Report)>,
    /// Simulator results kept for traces (program index, result).
    pub runs: Vec<(usize, npu_sim::sim::RunResult)>,
    /// The run's stages in order: (partition, on the NPU?, microseconds: simulated for NPU programs, host time for the rest).
    pub stages: Vec<(String, bool, f64)>,
    pub cpu_ms: f64,
    pub glue_ms: f64,
    /// Array MAC slots used (f32 MACs count `f32_rate` slots): the compute half of the roofline.
    pub mac_slots: u64,
    /// Bytes every program must move at least: its inputs, outputs and constants once.
    pub min_dram_bytes: u64,
    /// With the reference check: partition outputs compared, how many of them integer (compared bit for bit), and the ones that differ.
    pub reference_checked: usize,
    pub reference_int8: usize,
    pub reference_mismatches: Vec<String>,
    /// What each partition of another backend cost: (backend, partition, counters).
    pub backend_counters: Vec<(String, String, backend::Counters)>,
}

/// Every CPU partition is in the compiled code.
pub fn check_cpu_functions(jit: &llvm_cpu::Jit, funcs: &[CpuFunc]) -> Result<(), String> {
    match funcs.iter().find(|f| !jit.has_function(&f.name)) {
        Some(f) => Err(format!("the compiled module has no function @{}", f.name)),
        None => Ok(()),
    }
}

fn take(vals: &[Option<HostTensor>], s: usize) -> Result<&HostTensor, String> {
    vals[s].as_ref().ok_or_else(|| "a partition input was never computed".to_string())
}

fn transpose(t: &HostTensor, perm: &[usize]) -> Result<HostTensor, String> {
    let mut seen = vec![false; t.shape.len()];
    if perm.len() != t.shape.len() || perm.iter().any(|&p| p >= seen.len() || std::mem::replace(&mut seen[p], true)) {
        return Err(format!("transpose: {:?} is not a permutation of a rank-{} tensor", perm, t.shape.len()));
    }
    let shape: Vec<i64> = perm.iter().map(|&p| t.shape[p]).collect();
    let w = crate::tensor::dtype_size(t.dtype).ok_or("transpose of an unsized dtype")?;
    let mut out = HostTensor::zeros(t.dtype, &shape)?;
    out.data.as_mut().copy_from_slice(&ir::attributes::transpose_elements(t.data.as_ref(), w, &t.shape, perm));
    Ok(out)
}

impl Plan {
    pub fn runtime_inputs(&self) -> impl Iterator<Item = &TensorSpec> {
        self.inputs.iter().filter(|i| !self.bound.contains(&i.name))
    }

    /// Runs once: CPU partitions on the JIT, NPU programs on the simulator
    /// (`record`: keep their results for traces), `notify` told what runs.
    /// With a `reference`, each NPU partition's outputs are also computed by it
    /// from the same inputs: integer outputs must be equal bit for bit, f32
    /// ones within 1e-4 relative.
    pub fn run_with(&self, inputs: &HashMap<String, HostTensor>, record: bool, reference: Option<&Reference>, notify: &dyn Fn(&str)) -> Result<NpuRun, String> {
        let mut vals: Vec<Option<HostTensor>> = (0..self.slots).map(|_| None).collect();
        for (i, spec) in self.inputs.iter().enumerate() {
            if self.bound.contains(&spec.name) {
                continue;
            }
            let t = inputs.get(&spec.name).ok_or_else(|| format!("missing input '{}'", spec.name))?;
            if t.dtype != spec.dtype || t.shape != spec.shape {
                return Err(format!("input '{}' is {:?}, the model expects {}", spec.name, t.shape, spec));
            }
            vals[self.input_slots[i]] = Some(t.clone());
        }
        let mut reports = vec![];
        let mut runs = vec![];
        let (mut cpu_ms, mut glue_ms) = (0.0, 0.0);
        let (mut mac_slots, mut min_dram_bytes) = (0u64, 0u64);
        let mut timeline: Vec<(String, bool, f64)> = vec![];
        let (mut reference_checked, mut reference_int8, mut reference_mismatches) = (0usize, 0usize, vec![]);
        let mut backend_counters = vec![];
        for st in &self.stages {
            let t0 = Instant::now();
            match st {
                Stage::Cpu { func, args, results } => {
                    let f = &self.cpu[*func];
                    notify(&format!("running {} on the CPU", f.name));
                    let jit = self.jit.as_ref().ok_or("no CPU code")?;
                    // The compiled code trusts its buffers' shapes: check them (a plan from the cache included).
                    if args.len() != f.inputs.len() || results.len() != f.outputs.len() {
                        return Err(format!("@{}: called with {} arguments and {} results, compiled for {} and {}", f.name, args.len(), results.len(), f.inputs.len(), f.outputs.len()));
                    }
                    let mut outs: Vec<HostTensor> = f.outputs.iter().map(|o| HostTensor::zeros(o.dtype, &o.shape)).collect::<Result<_, _>>()?;
                    let mut ins = vec![];
                    for (a, spec) in args.iter().zip(&f.inputs) {
                        let t = take(&vals, *a)?;
                        if t.dtype != spec.dtype || t.shape != spec.shape {
                            return Err(format!("@{}: {} given {:?}", f.name, spec, t.shape));
                        }
                        ins.push(t);
                    }
                    crate::cpu::call(jit, &f.name, &self.cpu_checks, &ins, &f.weights, &mut outs)?;
                    for (r, o) in results.iter().zip(outs) {
                        vals[*r] = Some(o);
                    }
                    cpu_ms += t0.elapsed().as_secs_f64() * 1e3;
                    timeline.push((f.name.clone(), false, t0.elapsed().as_secs_f64() * 1e6));
                }
                Stage::Npu { program, partition, args, results, specs } => {
                    let p = &self.programs[*program];
                    notify(&format!("simulating {} on {} (program {} of {})", p.name, self.hw.name, program + 1, self.programs.len()));
                    let reference = match reference {
                        Some(evaluate) => {
                            let ins: Vec<HostTensor> = args.iter().map(|a| take(&vals, *a).cloned()).collect::<Result<_, _>>()?;
                            Some(evaluate(partition, &ins).map_err(|e| format!("reference of @{}: {}", partition, e))?)
                        }
                        None => None,
                    };
                    // Borrowed: the simulator copies each image into its DRAM once.
                    let mut ins: Vec<(&str, &[u8])> = vec![];
                    for (a, name) in args.iter().zip(&p.inputs) {
                        ins.push((name.as_str(), take(&vals, *a)?.data.as_ref()));
                    }
                    ins.push((npu_isa::CONST_ARG, &p.consts[..]));
                    let r = npu_sim::sim::run_limited(&self.hw, &p.program, &ins, record, self.sim_limits).map_err(|e| format!("{}: {}", p.name, e))?;
                    for ((res, name), spec) in results.iter().zip(&p.outputs).zip(specs) {
                        let bytes = r.outputs.iter().find(|(n, _)| n == name).map(|(_, b)| b).ok_or_else(|| format!("{} produced no '{}'", p.name, name))?;
                        let mut h = HostTensor::zeros(spec.dtype, &spec.shape)?;
                        let len = h.data.as_ref().len();
                        h.data.as_mut().copy_from_slice(bytes.get(..len).ok_or_else(|| format!("{} produced {} bytes of '{}', {} expected", p.name, bytes.len(), name, len))?);
                        vals[*res] = Some(h);
                    }
                    if let Some(want) = reference {
                        for ((res, spec), w) in results.iter().zip(specs).zip(&want) {
                            let got = take(&vals, *res)?;
                            let exact = spec.dtype != onnx_translate::proto::data_type::FLOAT;
                            let ok = if exact { got.data.as_ref() == w.data.as_ref() } else { crate::compare(got, w, 1e-4, 1e-5).is_ok() };
                            if !ok {
                                let detail = crate::compare(got, w, 0.0, 0.0).err().unwrap_or_default();
                                reference_mismatches.push(format!("@{}: {}", partition, detail));
                            }
                            reference_checked += 1;
                            reference_int8 += exact as usize;
                        }
                    }
                    let rep = npu_sim::report::build(&self.hw, &p.program, &r);
                    mac_slots += rep.mac_slots;
                    min_dram_bytes += p.program.args.iter().filter(|a| a.dir != npu_sim::program::ArgDir::Out || p.outputs.contains(&a.name)).map(|a| a.bytes()).sum::<u64>();
                    reports.push((p.name.clone(), rep));
                    timeline.push((p.name.clone(), true, r.cycles as f64 / self.hw.clock_mhz));
                    if record {
                        runs.push((*program, r));
                    }
                }
                Stage::Exec { exe, args, results, specs } => {
                    let e = &self.executables[*exe];
                    let mut outs: Vec<HostTensor> = specs.iter().map(|s| HostTensor::zeros(s.dtype, &s.shape)).collect::<Result<_, _>>()?;
                    let ins: Vec<&[u8]> = args.iter().map(|a| take(&vals, *a).map(|t| t.data.as_ref())).collect::<Result<_, _>>()?;
                    let mut out_bytes: Vec<&mut [u8]> = outs.iter_mut().map(|t| t.data.as_mut()).collect();
                    let counters = e.exe.run(&ins, &mut out_bytes).map_err(|err| format!("{} partition @{}: {}", e.backend, e.partition, err))?;
                    for (r, o) in results.iter().zip(outs) {
                        vals[*r] = Some(o);
                    }
                    timeline.push((e.partition.clone(), false, t0.elapsed().as_secs_f64() * 1e6));
                    backend_counters.push((e.backend.clone(), e.partition.clone(), counters));
                }
                Stage::Transpose { perm, arg, result } => {
                    vals[*result] = Some(transpose(take(&vals, *arg)?, perm)?);
                    glue_ms += t0.elapsed().as_secs_f64() * 1e3;
                    timeline.push(("transpose".into(), false, t0.elapsed().as_secs_f64() * 1e6));
                }
                Stage::Reshape { arg, result, shape } => {
                    let mut t = take(&vals, *arg)?.clone();
                    if shape.iter().product::<i64>() != t.shape.iter().product::<i64>() || shape.iter().any(|d| *d < 0) {
                        return Err(format!("reshape of {:?} to {:?}", t.shape, shape));
                    }
                    t.shape = shape.clone();
                    vals[*result] = Some(t);
                }
                Stage::Const { value, result } => vals[*result] = Some(value.clone()),
            }
        }
        let outputs = self.output_slots.iter().map(|s| take(&vals, *s).cloned()).collect::<Result<Vec<_>, _>>()?;
        Ok(NpuRun { outputs, reports, runs, stages: timeline, cpu_ms, glue_ms, mac_slots, min_dram_bytes, reference_checked, reference_int8, reference_mismatches, backend_counters })
    }
}
