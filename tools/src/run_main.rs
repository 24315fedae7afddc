//! The body of a `*-run` tool (`npu-run`, or a vendor's `acme-run` that
//! registers its backend first): compile and run an ONNX model
//! (`npu-run model.onnx --target npu16,cpu`), or run ONNX's node tests
//! (`npu-run onnx-tests DIR`). Flags here, the work in `runtime`.

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use runtime::{CompileOptions, HostTensor};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use conformance::suite::{run_tests, TestArgs};

#[derive(Parser)]
#[command(name = "npu-run", version, about = "Compile and run ONNX models on the CPU and on NPU backends; `npu-run MODEL` is short for `npu-run run MODEL`")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Compile and run a model (`npu-run MODEL [FLAGS]` does this too).
    Run(RunArgs),
    /// Run ONNX's backend node tests on the CPU path.
    OnnxTests(TestArgs),
    /// Print what a backend runs: its capability table, as its markdown docs page.
    ListOps {
        /// The backend (`npu16`, or a registered vendor's).
        backend: String,
    },
}

#[derive(Args)]
struct RunArgs {
    /// The model (.onnx).
    model: PathBuf,
    /// Where to run: `cpu`, or a list of backends in order of preference, the CPU
    /// last (`npu16,cpu`; `npu` is short for it): each op runs on the first that takes it.
    #[arg(long, default_value = "cpu", help_heading = "Where to run")]
    target: String,
    /// With a backend list: force nodes onto backends, lines `NODE BACKEND` or
    /// `/REGEX/ BACKEND` (the CPU if the backend refuses them), or a --report-json file.
    #[arg(long, help_heading = "Where to run")]
    placement: Option<PathBuf>,
    /// Keep each compiled model in DIR and load it when the same model, input
    /// shapes, options, hardware and backends come again (a damaged or stale
    /// entry is recompiled with a warning).
    #[arg(long = "cache-dir", help_heading = "Compiling")]
    cache_dir: Option<PathBuf>,
    /// With --target npu: the hardware, a built-in name (`npu16`) or a TOML file.
    #[arg(long, default_value = "npu16", help_heading = "NPU path (--target with a backend)")]
    hw: String,
    /// Override a hardware key: npu16's `section.key=value`, another backend's `BACKEND.key=value` (repeatable).
    #[arg(long = "set", help_heading = "NPU path (--target with a backend)")]
    sets: Vec<String>,
    /// With --target npu: write the whole-model figures as JSON.
    #[arg(long = "report-json", help_heading = "NPU path (--target with a backend)")]
    report_json: Option<PathBuf>,
    /// With --target npu: write one self-contained HTML page of the run (the
    /// partition graph, cycles and DRAM bytes per layer against the roofline,
    /// utilization over time, the CPU ops and why, the hardware).
    #[arg(long = "report-html", help_heading = "NPU path (--target with a backend)")]
    report_html: Option<PathBuf>,
    /// With --target npu: write one Chrome/Perfetto trace of the whole run.
    #[arg(long, help_heading = "NPU path (--target with a backend)")]
    trace: Option<PathBuf>,
    /// With --target npu: write an SVG roofline chart of the run: each NPU
    /// layer's MAC slots a cycle against its arithmetic intensity, under the
    /// array's peak and the DRAM's bandwidth.
    #[arg(long, value_name = "FILE", help_heading = "NPU path (--target with a backend)")]
    plot: Option<PathBuf>,
    /// With --target npu: also compute each NPU partition's outputs with the host
    /// reference from the same inputs; int8 must match bit for bit, f32 within 1e-4.
    #[arg(long = "check-reference", help_heading = "NPU path (--target with a backend)")]
    check_reference: bool,
    /// With --target npu: write each NPU program's assembly to DIR/<partition>.s.
    #[arg(long = "asm-dir", help_heading = "NPU path (--target with a backend)")]
    asm_dir: Option<PathBuf>,
    /// An input: NAME=FILE with FILE a .npy or an ONNX TensorProto .pb (repeatable).
    #[arg(long = "input", help_heading = "Inputs")]
    inputs: Vec<String>,
    /// A node-test data set directory: inputs from input_*.pb, expected outputs from output_*.pb.
    #[arg(long = "test-data", help_heading = "Inputs")]
    test_data: Option<PathBuf>,
    /// Seed for random inputs (inputs not given are random).
    #[arg(long, default_value_t = 0, help_heading = "Inputs")]
    seed: u64,
    /// Compile these inputs in as constants with their given values (comma-separated
    /// names, or `weights`: every input but the first), as weights are.
    #[arg(long = "bind", help_heading = "Inputs")]
    bind: Option<String>,
    /// A free dimension's size, NAME=N (repeatable).
    #[arg(long = "dim", help_heading = "Inputs")]
    dims: Vec<String>,
    /// A random input's whole shape, NAME=D0,D1,… (repeatable): for free
    /// dimensions the model leaves without names (`?`, -1).
    #[arg(long = "shape", help_heading = "Inputs")]
    shapes: Vec<String>,
    /// Write each output to DIR/<output name>.npy, named as --output-names says
    /// (bfloat16 and 8-/4-bit floats, which numpy lacks, as their exact float32
    /// values; 4-/2-bit integers as int8/uint8).
    #[arg(long = "output-dir", help_heading = "Outputs and checks")]
    output_dir: Option<PathBuf>,
    /// How --output-dir names files: `sanitized` writes `/`, `\` and NUL in an
    /// output's name as `_` (`gpu_0/softmax_1` → `gpu_0_softmax_1.npy`);
    /// `original` keeps the name, a `/` making subdirectories (`gpu_0/softmax_1.npy`).
    #[arg(long = "output-names", value_enum, default_value_t = OutputNames::Sanitized, help_heading = "Outputs and checks")]
    output_names: OutputNames,
    /// Compare outputs with DIR/<name>.npy (or .pb, or output_<i>.pb): per-output max abs/rel error.
    #[arg(long, help_heading = "Outputs and checks")]
    compare: Option<PathBuf>,
    /// --compare's relative tolerance (integers and 8-/4-bit floats compare exactly).
    #[arg(long, default_value_t = 1e-3, help_heading = "Outputs and checks")]
    rtol: f64,
    /// --compare's absolute tolerance.
    #[arg(long, default_value_t = 1e-5, help_heading = "Outputs and checks")]
    atol: f64,
    /// Time N runs after the first: compile time, first run, P50/P90/P99.
    #[arg(long, help_heading = "Timing")]
    perf: Option<usize>,
    /// Print the --perf figures as one JSON object on stdout (and no summary).
    #[arg(long, help_heading = "Timing")]
    json: bool,
    /// No summary after the run (where it ran, the times, each output's shape and values).
    #[arg(short = 'q', long, help_heading = "Outputs and checks")]
    quiet: bool,
    /// With --target npu: every CPU op with its reason and every program's layers,
    /// not the one-screen summary; with --profile, every node, not the 25 slowest.
    #[arg(short = 'v', long, help_heading = "NPU path (--target with a backend)")]
    verbose: bool,
    /// Print how long each compile phase took (import, shape inference,
    /// partitioning, our lowering, NPU scheduling, MLIR and LLVM), on stderr,
    /// as `--mlir-timing` does.
    #[arg(long, help_heading = "Timing")]
    timing: bool,
    /// Time every model node and print where the time goes (per node and per op type).
    #[arg(long, help_heading = "Timing")]
    profile: bool,
    /// Optimization level for MLIR/LLVM (0–3). 2 runs as fast as 3 on our
    /// benchmark models and compiles up to 6× faster (O3's extra loop passes;
    /// below 3 LLVM's loop unroller is off, as our kernels come unrolled).
    #[arg(short = 'O', default_value_t = 2, help_heading = "Compiling")]
    opt: usize,
    /// Threads the CPU path's large loop nests run on (each splits its outer
    /// loop) [default: every core this process may use].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024), help_heading = "Timing")]
    threads: Option<u64>,
    /// The most bytes one tensor may take, checked before an input is made or
    /// copied and, at compile time, for every tensor the model computes
    /// [default: the machine's memory].
    #[arg(long = "max-tensor-bytes", help_heading = "Limits")]
    max_tensor_bytes: Option<u64>,
    /// With --target npu: stop with an error when an NPU program would keep the
    /// simulator's units busy for more cycles than this.
    #[arg(long = "max-cycles", default_value_t = npu_sim::sim::Limits::default().max_cycles, help_heading = "NPU path (--target with a backend)")]
    max_cycles: u64,
    /// The most iterations a Loop or Scan may run; past it the run stops with
    /// an error naming the node (a model whose loop never ends).
    #[arg(long = "max-loop-iterations", default_value_t = driver::pipelines::max_loop_iterations(), help_heading = "Limits")]
    max_loop_iterations: i64,
}

#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
enum OutputNames {
    Sanitized,
    Original,
}

/// The file `--output-dir` writes an output `name` to (without `.npy`).
fn output_file(name: &str, how: OutputNames) -> Result<PathBuf, String> {
    match how {
        OutputNames::Sanitized => Ok(PathBuf::from(name.replace(['/', '\\', '\0'], "_"))),
        OutputNames::Original => {
            let parts: Vec<&str> = name.split('/').collect();
            if name.contains(['\\', '\0']) || parts.iter().any(|p| p.is_empty() || *p == "." || *p == "..") {
                return Err(format!("output '{}' is not a relative path of plain names: write it with --output-names sanitized", name));
            }
            Ok(parts.iter().collect())
        }
    }
}

/// DIR/<file of `name`>.npy.
fn npy_path(dir: &Path, name: &str, how: OutputNames) -> Result<PathBuf, String> {
    let mut p = dir.join(output_file(name, how)?);
    p.as_mut_os_string().push(".npy");
    Ok(p)
}


fn parse_kv(s: &str, what: &str) -> Result<(String, String), String> {
    s.split_once('=').map(|(a, b)| (a.to_string(), b.to_string())).ok_or_else(|| format!("--{} expects NAME=VALUE, got '{}'", what, s))
}

/// `--shape NAME=D0,D1,…`: the shape, checked against the input's declared rank and fixed dimensions.
fn input_shape(arg: &str, specs: &[runtime::TensorSpec]) -> Result<(String, Vec<i64>), String> {
    let (name, dims) = parse_kv(arg, "shape")?;
    let spec = specs.iter().find(|s| s.name == name).ok_or_else(|| format!("--shape {}: the model has no input '{}'; its inputs are: {}", arg, name, specs.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ")))?;
    let shape = dims.split(',').map(|d| d.trim().parse::<i64>().ok().filter(|d| *d >= 0)).collect::<Option<Vec<i64>>>().ok_or_else(|| format!("--shape {}: expected sizes like 1,3,224,224", arg))?;
    let fits = shape.len() == spec.shape.len() && shape.iter().zip(&spec.shape).all(|(d, want)| *want == ir::types::DYNAMIC || d == want);
    if !fits {
        return Err(format!("--shape {}: the model declares input {}", arg, spec));
    }
    Ok((name, shape))
}

fn expected_output(dir: &Path, name: &str, index: usize) -> Option<PathBuf> {
    // `--output-dir` writes `gpu_0/softmax_1` as `gpu_0_softmax_1.npy` (or, `original`, `gpu_0/softmax_1.npy`).
    let file_name = output_file(name, OutputNames::Sanitized).unwrap_or_default().to_string_lossy().to_string();
    [format!("{}.npy", name), format!("{}.npy", file_name), format!("{}.pb", name), format!("{}.pb", file_name), format!("output_{}.pb", index)].into_iter().map(|f| dir.join(f)).find(|p| p.exists())
}

fn run_model(a: RunArgs) -> Result<bool, String> {
    if let Some(n) = a.max_tensor_bytes {
        runtime::tensor::set_max_tensor_bytes(n);
    }
    driver::pipelines::set_max_loop_iterations(a.max_loop_iterations);
    let targets = driver::partition_compile::target_list(&a.target).map_err(|e| format!("--target {}: {}", a.target, e))?;
    let model = std::fs::read(&a.model).map_err(|e| format!("{}: {}", a.model.display(), e))?;
    let mut given: HashMap<String, HostTensor> = HashMap::new();
    let names = runtime::values::input_names(&model).map_err(|e| format!("{}: {}", a.model.display(), e))?;
    if let Some(d) = &a.test_data {
        let types = input_types(&model, &names);
        for (i, n) in names.iter().enumerate() {
            let p = d.join(format!("input_{}.pb", i));
            if p.exists() {
                // Sequence and optional values travel as tensors (`runtime::values`).
                let bytes = std::fs::read(&p).map_err(|e| format!("{}: {}", p.display(), e))?;
                runtime::values::HostValue::from_pb(&bytes, &types[i]).map_err(|e| format!("{}: {}", p.display(), e))?.flatten_into(n, &mut given);
            }
        }
    }
    for s in &a.inputs {
        let (n, f) = parse_kv(s, "input")?;
        // A sequence's elements are `NAME[0]`, `NAME[1]`, … (`NAME[]`: an empty sequence).
        let base = n.split_once('[').filter(|(_, i)| i.ends_with(']')).map(|(b, _)| b).unwrap_or(&n);
        if !names.iter().any(|m| m == &n || m == base) {
            return Err(format!("the model has no input '{}'; its inputs are: {}", n, names.join(", ")));
        }
        given.insert(n, HostTensor::read_file(Path::new(&f))?);
    }
    let mut dims = HashMap::new();
    for s in &a.dims {
        let (n, v) = parse_kv(s, "dim")?;
        dims.insert(n, v.parse::<i64>().map_err(|_| format!("--dim {}: not an integer", s))?);
    }
    let bind = match a.bind.as_deref() {
        None => vec![],
        Some("weights") => names.iter().skip(1).cloned().collect(),
        Some(list) => list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
    };
    for b in &bind {
        if let Some((n, _)) = b.split_once('=').filter(|(n, _)| names.contains(&n.to_string())) {
            return Err(format!("--bind {}: --bind takes input names only (`--bind {}`); give the value with --input {}", b, n, b));
        }
        if !names.contains(b) {
            return Err(format!("--bind {}: the model has no such input; its inputs are: {}", b, names.join(", ")));
        }
    }
    if let Some(t) = a.threads {
        runtime::parallel::set_threads(t as usize);
    }
    // A compile from the cache has no host reference to check against.
    let opts = CompileOptions { opt_level: a.opt, dims, weights_as_arguments: true, profile: a.profile, bind, cache_dir: a.cache_dir.clone(), recompile: a.check_reference, backend_settings: vec![] };
    // Inputs not given: random, after a first look at the declared shapes.
    let covered = |n: &String| given.contains_key(n) || given.contains_key(&runtime::values::element_name(n, 0)) || given.contains_key(&runtime::values::empty_name(n));
    if !names.iter().all(covered) {
        // The declared inputs only: no lowering before the real compile.
        let specs = runtime::declared_inputs(&model, Some(&a.model), &given, &opts)?;
        let shapes = a.shapes.iter().map(|s| input_shape(s, &specs)).collect::<Result<HashMap<_, _>, _>>()?;
        for (k, s) in specs.iter().enumerate() {
            if !given.contains_key(&s.name) {
                let shape = shapes.get(&s.name).unwrap_or(&s.shape);
                if shape.contains(&ir::types::DYNAMIC) {
                    let example: Vec<String> = s.shape.iter().map(|d| if *d == ir::types::DYNAMIC { "N".into() } else { d.to_string() }).collect();
                    return Err(format!("input {} has a free dimension: give the input (--input {}=FILE.npy), its shape (--shape {}={}) or a named dimension's size (--dim NAME=N)", s, s.name, s.name, example.join(",")));
                }
                given.insert(s.name.clone(), HostTensor::random(s.dtype, shape, a.seed.wrapping_add(k as u64))?);
            }
        }
    }
    if targets.len() > 1 {
        return run_npu(&a, &model, given, &opts, &targets);
    }
    if a.placement.is_some() {
        return Err("--placement places nodes among the backends of a list (--target npu16,cpu); --target cpu has one".into());
    }
    let npu_only = [("--report-html", a.report_html.is_some()), ("--report-json", a.report_json.is_some()), ("--trace", a.trace.is_some()), ("--plot", a.plot.is_some()), ("--asm-dir", a.asm_dir.is_some()), ("--check-reference", a.check_reference)];
    if let Some((flag, _)) = npu_only.iter().find(|f| f.1) {
        return Err(format!("{} describes a run on the NPU path: add --target npu (or a backend list such as npu16,cpu)", flag));
    }
    if runtime::staged::needs_stages(&model) {
        return run_cpu_in_stages(&a, &model, given, &opts);
    }
    let progress = crate::progress::Phases::show(!summary_wanted(&a));
    let c = runtime::compile(&model, Some(&a.model), &given, &opts)?;
    cache_warnings(&c.cache);
    // Each product node's MACs, for the profile's GFLOP/s (a profile without them still prints).
    let macs = if a.profile { runtime::node_macs(&model, Some(&a.model), &given, &opts).unwrap_or_default() } else { HashMap::new() };
    // A sequence's `s[]` marks an empty one: the compile built it, it is no input.
    let inputs: HashMap<String, HostTensor> = given.into_iter().filter(|(k, _)| c.inputs.iter().any(|s| &s.name == k) && !c.bound.contains(k)).collect();
    driver::phases::notify("running on the CPU");
    runtime::arena::reset_peak();
    let t0 = Instant::now();
    let outs = c.run(&inputs)?;
    let first_ms = t0.elapsed().as_secs_f64() * 1e3;
    drop(progress);
    if a.profile {
        runtime::profile::reset(c.profile_regions.len());
    }
    if a.timing {
        eprint!("{}", phase_table(&c.phases, c.compile_ms));
    }
    if summary_wanted(&a) {
        let cached = c.cache == runtime::cached_compile::CacheUse::Hit;
        print!("{}{}", crate::run_summary::cpu_line(node_count(&model), c.compile_ms, cached, first_ms), crate::run_summary::outputs(&c.outputs, &outs));
    }
    let ok = write_and_compare(&a, &model, &outs, &c.outputs)?;
    // A profile times warm runs: --perf's, or one of its own.
    let timed = a.perf.filter(|&n| n > 0).or(a.profile.then_some(1));
    // Two-thread figures depend on whether the cores share an L3: measured
    // on each side of the runs, as the host may move them in between.
    let cross_core = || (a.perf.is_some_and(|n| n > 0) && runtime::parallel::threads() > 1).then(runtime::host::cross_core_read_ratio).flatten();
    let cross_before = cross_core();
    let mut times = Vec::new();
    if let Some(n) = timed {
        let mut outs = outs;
        for _ in 0..n {
            let t = Instant::now();
            c.run_into(&inputs, &mut outs)?;
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    if a.perf.is_some() {
        let figures = crate::perf_report::Figures { compile_ms: c.compile_ms, cached: c.cache == runtime::cached_compile::CacheUse::Hit, cache_label: c.cache.label(), first_ms, times, memory: crate::perf_report::Memory::after_runs(&c), cross_core_read: cross_before.zip(cross_core()) };
        crate::perf_report::print(&figures, a.json);
    }
    if a.profile {
        print_profile(&model, &c, timed.unwrap_or(1).max(1), &macs, if a.verbose { usize::MAX } else { 25 });
    }
    Ok(ok)
}

/// `--timing`: each compile phase, its milliseconds and share of the whole.
fn phase_table(phases: &[(&'static str, f64)], total_ms: f64) -> String {
    if phases.is_empty() {
        return format!("compile: {:.1} ms, loaded from the compile cache\n", total_ms);
    }
    let mut s = format!("compile phases ({:.1} ms in all):\n", total_ms);
    for (name, ms) in phases {
        s.push_str(&format!("  {:>9.1} ms {:>5.1}%  {}\n", ms, 100.0 * ms / total_ms.max(1e-9), name));
    }
    s
}

/// The summary after a run: unless `-q`, or `--json` (whose stdout is the JSON).
fn summary_wanted(a: &RunArgs) -> bool {
    !a.quiet && !a.json
}

/// The nodes of the model's top-level graph.
fn node_count(model: &[u8]) -> usize {
    onnx_translate::proto::decode_model(bytes_of(model)).ok().and_then(|m| m.graph).map_or(0, |g| g.node.len())
}

/// Says which node a stage stops before, and why.
fn stage_note(kind: &runtime::staged::StageKind) {
    if let runtime::staged::StageKind::Prefix(n) = kind {
        crate::progress::note(&format!("stage: up to {} '{}', whose output size depends on the data: its inputs computed, it runs on the host, the rest is compiled for its results", n.op_type.as_deref().unwrap_or(""), n.name.as_deref().unwrap_or("")));
    }
}

/// `--target cpu` for a model cut into stages (`runtime::staged`): each stage
/// compiled for the values before it (through `--cache-dir` when given, so a
/// repeated shape does not compile again).
fn run_cpu_in_stages(a: &RunArgs, model: &[u8], given: HashMap<String, HostTensor>, opts: &CompileOptions) -> Result<bool, String> {
    if a.profile {
        return Err("--profile times one compiled model; this one runs in stages (an op's output size depends on the data)".into());
    }
    let once = |quiet: bool| {
        let mut notice = |kind: &runtime::staged::StageKind, c: &runtime::Compiled| {
            if !quiet {
                stage_note(kind);
                cache_warnings(&c.cache);
            }
        };
        runtime::staged::run_cpu(model, Some(&a.model), given.clone(), opts, &mut notice)
    };
    let t0 = Instant::now();
    let progress = crate::progress::Phases::show(!summary_wanted(a));
    let (specs, outs) = once(false)?;
    drop(progress);
    let first_ms = t0.elapsed().as_secs_f64() * 1e3;
    if summary_wanted(a) {
        print!("ran on cpu in stages: {} ONNX nodes, compiled and run in {:.1} ms\n{}", node_count(model), first_ms, crate::run_summary::outputs(&specs, &outs));
    }
    let ok = write_and_compare(a, model, &outs, &specs)?;
    if let Some(n) = a.perf {
        let mut times = Vec::with_capacity(n);
        for _ in 0..n {
            let t = Instant::now();
            once(true)?;
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let (p50, p90, p99) = crate::perf_report::percentiles(&times);
        if a.json {
            println!("{}", serde_json::json!({"staged": true, "first_run_ms": first_ms, "p50_ms": p50, "p90_ms": p90, "p99_ms": p99, "runs": n}));
        } else {
            println!("in stages: every run compiles each stage for the shapes it meets (from --cache-dir when given)");
            println!("first run:      {:.3} ms", first_ms);
            println!("latency over {} runs: P50 {:.3} ms, P90 {:.3} ms, P99 {:.3} ms", n, p50, p90, p99);
        }
    }
    Ok(ok)
}

/// Why an entry of the compile cache was not used or not written.
fn cache_warnings(c: &runtime::cached_compile::CacheUse) {
    if let runtime::cached_compile::CacheUse::Miss { notes } = c {
        for n in notes {
            crate::progress::note(&format!("warning: compile cache: {}", n));
        }
    }
}

/// `--target npu`: compile with CPU fallback, run on the simulator, report.
fn run_npu(a: &RunArgs, model: &[u8], given: HashMap<String, HostTensor>, opts: &CompileOptions, targets: &[String]) -> Result<bool, String> {
    let mut hw = match npu_sim::HwConfig::builtin(&a.hw) {
        Some(h) => h,
        None => {
            let text = std::fs::read_to_string(&a.hw).map_err(|e| format!("--hw {}: not a built-in target and not readable: {}", a.hw, e))?;
            npu_sim::HwConfig::from_toml(&text).map_err(|e| format!("--hw {}: {}", a.hw, e))?
        }
    };
    // `--set BACKEND.KEY=V` for another backend of the list goes to its description;
    // the rest (`section.key=V`, or `npu16.section.key=V`) to npu16's.
    let mut backend_settings = vec![];
    for s in &a.sets {
        let first = s.split(['.', '=']).next().unwrap_or("");
        if first != npu16::target::NAME && backend::registered().iter().any(|n| n == first) {
            backend_settings.push(s.clone());
            continue;
        }
        let own = s.strip_prefix("npu16.").unwrap_or(s);
        hw.set(own).map_err(|e| format!("--set {}: {}", s, e))?;
    }
    let opts = &CompileOptions { backend_settings, ..opts.clone() };
    hw.validate().map_err(|e| format!("hardware description: {}", e))?;
    if !runtime::staged::needs_stages(model) {
        return npu_stage(a, model, model, given, opts, &hw, targets, true).map(|(ok, _, _)| ok);
    }
    let mut stage = |kind: runtime::staged::StageKind, m: &[u8], given: &runtime::staged::Values| {
        stage_note(&kind);
        npu_stage(a, model, m, given.clone(), opts, &hw, targets, matches!(kind, runtime::staged::StageKind::Last))
    };
    let (ok, _, _) = runtime::staged::run_in_stages(model, given, &mut stage, &|(_, specs, outs)| specs.iter().map(|s| s.name.clone()).zip(outs.iter().cloned()).collect())?;
    Ok(ok)
}

/// One model (or one stage of it, `runtime::staged`) on the NPU path: compiled,
/// run, reported; the last stage's outputs are written, compared and traced.
#[allow(clippy::too_many_arguments)]
fn npu_stage(a: &RunArgs, model: &[u8], stage: &[u8], given: HashMap<String, HostTensor>, opts: &CompileOptions, hw: &npu_sim::HwConfig, targets: &[String], last: bool) -> Result<(bool, Vec<runtime::TensorSpec>, Vec<HostTensor>), String> {
    let progress = crate::progress::Phases::show(!summary_wanted(a));
    let mut c = runtime::npu_path::compile_npu(stage, Some(&a.model), &given, opts, hw, targets, a.placement.as_deref().and_then(|p| p.to_str()))?;
    c.sim_limits = npu_sim::sim::Limits { max_cycles: a.max_cycles };
    cache_warnings(&c.cache);
    if let (Some(dir), true) = (&a.asm_dir, last) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {}", dir.display(), e))?;
        for p in &c.programs {
            let f = dir.join(format!("{}.s", p.name));
            driver::write_output(f.to_str().unwrap_or_default(), p.asm().as_bytes()).map_err(|e| format!("{}: {}", f.display(), e))?;
        }
    }
    let inputs: HashMap<String, HostTensor> = given.into_iter().filter(|(k, _)| c.inputs.iter().any(|s| &s.name == k) && !c.bound.contains(k)).collect();
    let t0 = Instant::now();
    let r = c.run(&inputs, true, a.check_reference)?;
    let run_ms = t0.elapsed().as_secs_f64() * 1e3;
    drop(progress);
    if a.timing {
        eprint!("{}", phase_table(&c.phases, c.compile_ms));
    }
    let summary = crate::npu_report::summarize(&c, &r, run_ms);
    if !a.quiet {
        print!("{}", if a.verbose { crate::npu_report::text(&c, &r, &summary) } else { crate::npu_report::brief(&c, &r, &summary) });
    }
    use std::io::Write;
    let _ = std::io::stdout().flush();
    // A stage before the last computes values for the next: nothing to write or compare.
    if last && summary_wanted(a) {
        print!("{}", crate::run_summary::outputs(&c.outputs, &r.outputs));
    }
    let mut ok = if last { write_and_compare(a, model, &r.outputs, &c.outputs)? } else { true };
    if a.check_reference {
        if r.reference_mismatches.is_empty() {
            eprintln!("reference: {} NPU partition outputs match the host reference ({} integer bit for bit, {} f32 within 1e-4)", r.reference_checked, r.reference_int8, r.reference_checked - r.reference_int8);
        } else {
            for m in &r.reference_mismatches {
                eprintln!("reference: MISMATCH {}", m);
            }
            ok = false;
        }
    }
    if let (Some(p), true) = (&a.report_json, last) {
        let j = crate::npu_report::json(&c, &r, &summary);
        driver::write_output(p.to_str().unwrap_or_default(), j.as_bytes()).map_err(|e| format!("{}: {}", p.display(), e))?;
    }
    if let (Some(p), true) = (&a.report_html, last) {
        let h = crate::report_html::html(&a.model.file_name().unwrap_or_default().to_string_lossy(), &c, &r, &summary);
        driver::write_output(p.to_str().unwrap_or_default(), h.as_bytes()).map_err(|e| format!("{}: {}", p.display(), e))?;
    }
    if let (Some(p), true) = (&a.plot, last) {
        let svg = crate::roofline_plot::svg(&a.model.file_name().unwrap_or_default().to_string_lossy(), &c, &r, &summary);
        driver::write_output(p.to_str().unwrap_or_default(), svg.as_bytes()).map_err(|e| format!("{}: {}", p.display(), e))?;
    }
    if let (Some(p), true) = (&a.trace, last) {
        let t = crate::npu_report::trace(&c, &r);
        driver::write_output(p.to_str().unwrap_or_default(), t.as_bytes()).map_err(|e| format!("{}: {}", p.display(), e))?;
    }
    Ok((ok, c.outputs.clone(), r.outputs))
}

/// `--output-dir` and `--compare` (or `--test-data`): false if an output differs.
/// The declared types of the named graph inputs (a tensor type where none is declared).
fn input_types(model: &[u8], names: &[String]) -> Vec<onnx_translate::proto::TypeProto> {
    let g = onnx_translate::proto::decode_model(bytes_of(model)).ok().and_then(|m| m.graph).unwrap_or_default();
    names.iter().map(|n| g.input.iter().find(|v| v.name.as_deref() == Some(n.as_str())).and_then(|v| v.r#type.clone()).unwrap_or_default()).collect()
}

/// The model's declared outputs when one is a sequence or an optional (their
/// tensors come back under `runtime::values`' names), else none.
fn value_outputs(model: &[u8]) -> Vec<(String, onnx_translate::proto::TypeProto)> {
    let g = onnx_translate::proto::decode_model(bytes_of(model)).ok().and_then(|m| m.graph).unwrap_or_default();
    let d = runtime::values::declared_outputs(&g);
    let tensor = |t: &onnx_translate::proto::TypeProto| matches!(t.value, Some(onnx_translate::proto::TypeValue::TensorType(_)) | None);
    if d.iter().all(|(_, t)| tensor(t)) {
        return vec![];
    }
    d
}

/// `--compare`/`--test-data` for a model with sequence or optional outputs: each declared output from `output_<i>.pb`.
fn compare_values(a: &RunArgs, dir: &Path, declared: &[(String, onnx_translate::proto::TypeProto)], outs: &[HostTensor], specs: &[runtime::TensorSpec]) -> Result<bool, String> {
    let named: HashMap<String, HostTensor> = specs.iter().map(|s| s.name.clone()).zip(outs.iter().cloned()).collect();
    let mut ok = true;
    for (k, (name, tp)) in declared.iter().enumerate() {
        let p = dir.join(format!("output_{}.pb", k));
        let want = if p.exists() {
            let bytes = std::fs::read(&p).map_err(|e| format!("{}: {}", p.display(), e))?;
            runtime::values::HostValue::from_pb(&bytes, tp).map_err(|e| format!("{}: {}", p.display(), e))?
        } else {
            // The .npy files --output-dir writes: `name.npy`, `name[i].npy`, `name[].npy`.
            let file = |n: &str| {
                let f = |how| npy_path(dir, n, how).ok().filter(|p| p.exists());
                f(a.output_names).or_else(|| f(OutputNames::Sanitized)).unwrap_or_else(|| dir.join(format!("{}.npy", n)))
            };
            let mut files = HashMap::new();
            let mut add = |n: String| -> Result<(), String> {
                if file(&n).exists() {
                    files.insert(n.clone(), HostTensor::read_file(&file(&n))?);
                }
                Ok(())
            };
            add(name.clone())?;
            add(runtime::values::empty_name(name))?;
            for i in 0.. {
                let n = runtime::values::element_name(name, i);
                if !file(&n).exists() {
                    break;
                }
                add(n)?;
            }
            match runtime::values::HostValue::gather(name, tp, &files) {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("{}: no expected output in {}: {}", name, dir.display(), e);
                    ok = false;
                    continue;
                }
            }
        };
        let got = runtime::values::HostValue::gather(name, tp, &named);
        match got.and_then(|g| g.compare(&want, &|x, y| runtime::compare(x, y, a.rtol, a.atol).map(|_| ()))) {
            Ok(()) => eprintln!("{}: ok", name),
            Err(e) => {
                eprintln!("{}: MISMATCH: {}", name, e);
                ok = false;
            }
        }
    }
    Ok(ok)
}

fn write_and_compare(a: &RunArgs, model: &[u8], outs: &[HostTensor], specs: &[runtime::TensorSpec]) -> Result<bool, String> {
    let mut ok = true;
    if let Some(dir) = &a.output_dir {
        // Every name checked before the first file is written.
        let files = specs.iter().map(|s| npy_path(dir, &s.name, a.output_names)).collect::<Result<Vec<_>, _>>()?;
        for (o, p) in outs.iter().zip(files) {
            if let Some(parent) = p.parent() {
                std::fs::create_dir_all(parent).map_err(|e| format!("{}: {}", parent.display(), e))?;
            }
            driver::write_output(p.to_str().unwrap_or_default(), &o.to_npy()?).map_err(|e| format!("{}: {}", p.display(), e))?;
        }
    }
    let compare_dir = a.compare.clone().or(a.test_data.clone());
    // The model's declared outputs (decoded again) matter only when comparing.
    let declared = if compare_dir.is_some() { value_outputs(model) } else { vec![] };
    if let (Some(dir), false) = (&compare_dir, declared.is_empty()) {
        return Ok(ok && compare_values(a, dir, &declared, outs, specs)?);
    }
    if let Some(dir) = compare_dir {
        for (i, (o, spec)) in outs.iter().zip(specs).enumerate() {
            // ONNX's test data are positional (`output_<i>.pb`), whatever the outputs are named.
            let p = if a.compare.is_none() { Some(dir.join(format!("output_{}.pb", i))).filter(|p| p.exists()) } else { expected_output(&dir, &spec.name, i) };
            let Some(p) = p else {
                eprintln!("{}: no expected output in {}", spec.name, dir.display());
                ok = false;
                continue;
            };
            let want = HostTensor::read_file(&p)?;
            // A .npy holds types numpy lacks widened (as --output-dir writes them): compare in that form.
            let widened = if want.dtype != o.dtype && p.extension().is_some_and(|e| e == "npy") { Some(HostTensor::from_npy(&o.to_npy()?)?) } else { None };
            match runtime::compare(widened.as_ref().unwrap_or(o), &want, a.rtol, a.atol) {
                Ok((abs, rel)) => eprintln!("{}: ok (max abs {:.3e}, max rel {:.3e})", spec.name, abs, rel),
                Err(e) => {
                    eprintln!("{}: MISMATCH: {}", spec.name, e);
                    ok = false;
                }
            }
        }
    }
    Ok(ok)
}

/// Where the time goes: per node (the `rows_shown` slowest: 25, all with
/// `-v`) and per op type, averaged over the timed runs. A fused group is one
/// row named after all its nodes (`conv1+relu1`, op `Conv+Relu`), with its
/// MACs, the GFLOP/s it reached and their share of the core's measured peak.
fn print_profile(model: &[u8], c: &runtime::Compiled, runs: usize, macs: &HashMap<String, u64>, rows_shown: usize) {
    let mut kinds: HashMap<String, String> = HashMap::new();
    if let Ok(m) = onnx_translate::proto::decode_model(bytes_of(model)) {
        for n in m.graph.map(|g| g.node).unwrap_or_default() {
            if let (Some(name), Some(op)) = (n.name.clone(), n.op_type.clone()) {
                kinds.insert(name, op);
            }
        }
    }
    let totals = runtime::profile::totals();
    let all: f64 = totals.iter().map(|t| t.0).sum::<f64>() / runs as f64;
    // A node's code can span regions (a Conv's padding or im2col columns, or
    // its zero point's subtraction fused into the op before, then its loop
    // nest, then a copy back from the layout the product wrote): its MACs
    // count once, in the region of the most time, its product.
    let mut owner: HashMap<&str, usize> = HashMap::new();
    for (i, r) in c.profile_regions.iter().enumerate() {
        for n in r.split('+') {
            let slower = owner.get(n).is_none_or(|&o| totals[i].0 > totals[o].0);
            if slower {
                owner.insert(n, i);
            }
        }
    }
    let region_macs: Vec<u64> = (0..c.profile_regions.len()).map(|i| c.profile_regions[i].split('+').filter(|n| owner.get(n) == Some(&i)).map(|n| macs.get(n).copied().unwrap_or(0)).sum()).collect();
    let mut rows: Vec<(f64, &str, u64)> = totals.iter().zip(&c.profile_regions).zip(&region_macs).map(|((t, n), m)| (t.0 / runs as f64, n.as_str(), *m)).collect();
    rows.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap());
    let kind1 = |n: &str| kinds.get(n).cloned().unwrap_or_else(|| n.split('#').next().unwrap_or(n).to_string());
    let kind = |group: &str| group.split('+').map(kind1).collect::<Vec<_>>().join("+");
    let rate = |m: u64, ms: f64| (m > 0 && ms > 0.0).then(|| 2.0 * m as f64 / ms / 1e6);
    let gflops = |m: u64, ms: f64| rate(m, ms).map(|g| format!("{:.1}", g)).unwrap_or_default();
    println!("time per run by node (mean of {} runs; {:.3} ms in profiled nodes):", runs, all);
    // Measured after the runs, at the clock the kernels ran at.
    let peak = runtime::host::measured_peak_gflops(20);
    if let Some(p) = &peak {
        println!("  (GFLOP/s: 2 x MACs / time; peak: one core's measured peak, {:.0} GFLOP/s, {})", p.gflops, p.how);
    }
    if let Some(p) = runtime::host::nominal_peak_gflops() {
        println!("  (nominal at the base clock: {:.0} GFLOP/s, {})", p.gflops, p.how);
    }
    let of_peak = |m: u64, ms: f64| match (rate(m, ms), &peak) {
        (Some(g), Some(p)) => format!("{:.0}%", 100.0 * g / p.gflops),
        _ => String::new(),
    };
    println!("  {:>9} {:>6} {:>8} {:>5} {:>9}  {:<20} node", "ms", "%", "GFLOP/s", "peak", "MMACs", "op");
    for &(ms, n, m) in rows.iter().take(rows_shown) {
        let mm = if m == 0 { String::new() } else { format!("{:.1}", m as f64 / 1e6) };
        println!("  {:>9.3} {:>5.1}% {:>8} {:>5} {:>9}  {:<20} {}", ms, 100.0 * ms / all.max(1e-12), gflops(m, ms), of_peak(m, ms), mm, kind(n), n);
    }
    let mut by_op: HashMap<String, (f64, usize, u64)> = HashMap::new();
    for &(ms, n, m) in &rows {
        let e = by_op.entry(kind(n)).or_default();
        e.0 += ms;
        e.1 += 1;
        e.2 += m;
    }
    let mut ops: Vec<_> = by_op.into_iter().collect();
    ops.sort_by(|x, y| y.1 .0.partial_cmp(&x.1 .0).unwrap());
    println!("time per run by op type (fused groups by their ops):");
    for (op, (ms, n, m)) in ops {
        // Constants and views lower to no code: nothing to show.
        if ms < 5e-4 && m == 0 {
            continue;
        }
        println!("  {:>9.3} {:>5.1}% {:>8} {:>5}  {:<20} ({} nodes)", ms, 100.0 * ms / all.max(1e-12), gflops(m, ms), of_peak(m, ms), op, n);
    }
}

fn bytes_of(b: &[u8]) -> bytes::Bytes {
    bytes::Bytes::copy_from_slice(b)
}


/// Runs the tool named `name` on the process's arguments. Backends registered
/// before the call (`backend::register`) can be named in `--target`.
/// `npu-run list-ops BACKEND`: the backend's capability table as its markdown docs page.
fn list_ops(name: &str) -> Result<bool, String> {
    let names = driver::partition_compile::target_list(name)?;
    let b = backend::resolve(&names[..1])?.into_iter().next().ok_or("no backend")?;
    print!("{}", backend::capability::markdown(b.as_ref()));
    Ok(true)
}

pub fn run_main(name: &'static str) -> ExitCode {
    let mut args: Vec<String> = std::env::args().collect();
    // `npu-run MODEL …` (and `npu-run --target … MODEL`) is `npu-run run …`.
    let first = args.get(1).map(String::as_str).unwrap_or("");
    let known = Cli::command().get_subcommands().any(|c| c.get_name() == first) || matches!(first, "" | "-h" | "--help" | "-V" | "--version" | "help");
    if !known {
        args.insert(1, "run".into());
    }
    let cli = match Cli::from_arg_matches(&Cli::command().name(name).get_matches_from(args)) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    let r = match cli.cmd {
        Cmd::Run(a) => run_model(a),
        Cmd::OnnxTests(a) => run_tests(a),
        Cmd::ListOps { backend } => list_ops(&backend),
    };
    match r {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            if e.contains(": error: ") {
                eprintln!("{}", e);
            } else {
                eprintln!("{}: error: {}", name, e);
            }
            ExitCode::FAILURE
        }
    }
}
