//! The body of an `*-opt` tool (`npu-opt`, or a vendor's `acme-opt`): parses,
//! verifies, transforms and prints IR, with `mlir-opt`'s flags. Every
//! registered pass is also a flag (`--cse`, `--canonicalize=max-iterations=3`).
//! A tool gives its name, its context (dialects) and its passes ([`OptTool`]),
//! as `MlirOptMain` takes a registry.

use clap::{Arg, ArgAction, CommandFactory, FromArgMatches, Parser};
use ir::pass::{parse_option_list, IrPrinting, PassManagerConfig, PassTiming, TimingDisplay};
use std::io::Read;
use std::process::ExitCode;
use crate::opt_driver::{build_pipeline, run, OptOptions, PipelineSpec};
use ir::pass::PassRegistry;
use ir::Context;

/// What an `*-opt` tool is made of.
pub struct OptTool {
    /// The tool's name, for `--help` and messages.
    pub name: &'static str,
    /// A context with the tool's dialects registered; the argument is `--allow-unregistered-dialect`.
    pub context: Box<dyn Fn(bool) -> Context>,
    /// Every pass the tool offers (each is also a flag).
    pub registry: PassRegistry,
}

impl OptTool {
    /// `npu-opt`: every dialect and pass of the project.
    pub fn npu_opt() -> OptTool {
        OptTool { name: "npu-opt", context: Box::new(crate::default_context), registry: crate::registry() }
    }
}

#[derive(Parser)]
#[command(about = "Parse, verify, transform and print IR (mlir-opt's flags)", version)]
struct Args {
    /// Input file, or `-` for standard input.
    #[arg(default_value = "-")]
    input: String,
    /// Output file (`-` for standard output); written only when everything succeeds.
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// Process each `// -----` chunk of the input separately.
    #[arg(long = "split-input-file")]
    split_input_file: bool,
    /// Check diagnostics against `expected-*` comments instead of printing them.
    #[arg(long = "verify-diagnostics")]
    verify_diagnostics: bool,
    /// Print every operation in the generic form.
    #[arg(long = "mlir-print-op-generic")]
    generic: bool,
    /// Print locations.
    #[arg(long = "mlir-print-debuginfo")]
    debuginfo: bool,
    /// Accept operations, types and attributes of unregistered dialects.
    #[arg(long = "allow-unregistered-dialect")]
    allow_unregistered: bool,
    /// The passes to run, e.g. `builtin.module(func.func(cse,canonicalize{max-iterations=10}))`.
    #[arg(long = "pass-pipeline")]
    pass_pipeline: Option<String>,
    /// With `npu-partition` in the pipeline: print each op left on the CPU and why, and the CPU/NPU split.
    #[arg(long = "show-cpu-operations")]
    show_cpu_operations: bool,
    /// With `npu-partition` in the pipeline: write the graph coloured by target (Graphviz) to FILE.
    #[arg(long = "dump-partitions")]
    dump_partitions: Option<String>,
    /// Print the pipeline that will run (as text that parses back) and continue.
    #[arg(long = "dump-pass-pipeline")]
    dump_pass_pipeline: bool,
    /// Run the verifier after each pass.
    #[arg(long = "verify-each", default_value_t = true, action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    verify_each: bool,
    /// Print the IR before these passes (comma-separated pass names).
    #[arg(long = "mlir-print-ir-before", value_delimiter = ',')]
    print_before: Vec<String>,
    /// Print the IR after these passes (comma-separated pass names).
    #[arg(long = "mlir-print-ir-after", value_delimiter = ',')]
    print_after: Vec<String>,
    /// Print the IR before every pass.
    #[arg(long = "mlir-print-ir-before-all")]
    print_before_all: bool,
    /// Print the IR after every pass.
    #[arg(long = "mlir-print-ir-after-all")]
    print_after_all: bool,
    /// Print the IR after a pass only when it changed it.
    #[arg(long = "mlir-print-ir-after-change")]
    print_after_change: bool,
    /// Print the IR after a pass that failed.
    #[arg(long = "mlir-print-ir-after-failure")]
    print_after_failure: bool,
    /// Print the whole module in IR dumps, not just the op the pass ran on.
    #[arg(long = "mlir-print-ir-module-scope")]
    print_module_scope: bool,
    /// Report the wall time of each phase and pass on stderr.
    #[arg(long = "mlir-timing")]
    timing: bool,
    /// How to show timing: `list` (by pass, slowest first) or `tree` (the pipeline's structure).
    #[arg(long = "mlir-timing-display", default_value = "list", value_parser = ["list", "tree"])]
    timing_display: String,
    /// Report each pass's statistics on stderr.
    #[arg(long = "mlir-pass-statistics")]
    statistics: bool,
    /// When a pass fails or crashes, write the input and the pipeline to this file (replay: `npu-opt FILE`).
    #[arg(long = "mlir-pass-pipeline-crash-reproducer")]
    crash_reproducer: Option<String>,
}

const PASS_PREFIX: &str = "pass:";

pub fn opt_main(tool: OptTool) -> ExitCode {
    let start = std::time::Instant::now();
    let registry = tool.registry;
    let mut cmd = Args::command().name(tool.name).after_help(format!("Passes (also usable as flags):\n{}", registry.help()));
    for p in registry.iter() {
        cmd = cmd.arg(
            Arg::new(format!("{}{}", PASS_PREFIX, p.argument))
                .long(p.argument)
                .help(p.summary)
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value("")
                .action(ArgAction::Append)
                .hide(true),
        );
    }
    let matches = cmd.get_matches();
    let args = match Args::from_arg_matches(&matches) {
        Ok(a) => a,
        Err(e) => e.exit(),
    };
    // Per-pass flags in command-line order.
    let mut flags: Vec<(usize, String, Vec<(String, String)>)> = vec![];
    for p in registry.iter() {
        let id = format!("{}{}", PASS_PREFIX, p.argument);
        if let (Some(idx), Some(vals)) = (matches.indices_of(&id), matches.get_many::<String>(&id)) {
            for (i, v) in idx.zip(vals) {
                match parse_option_list(v) {
                    Ok(o) => flags.push((i, p.argument.to_string(), o)),
                    Err(e) => {
                        eprintln!("{}: error: --{}: {}", tool.name, p.argument, e.message);
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
    }
    flags.sort_by_key(|f| f.0);
    // Reporting flags of `npu-partition`, as its options.
    let mut partition_opts: Vec<(String, String)> = vec![];
    if args.show_cpu_operations {
        partition_opts.push(("report".into(), "-".into()));
    }
    if let Some(f) = &args.dump_partitions {
        partition_opts.push(("dot".into(), f.clone()));
    }
    let mut pass_pipeline = args.pass_pipeline.clone();
    if !partition_opts.is_empty() {
        let has = flags.iter().any(|f| f.1 == "npu-partition") || pass_pipeline.as_deref().is_some_and(|t| t.contains("npu-partition"));
        if !has {
            eprintln!("{}: error: --show-cpu-operations and --dump-partitions report what npu-partition decides; add it to the pipeline", tool.name);
            return ExitCode::FAILURE;
        }
        for f in flags.iter_mut().filter(|f| f.1 == "npu-partition") {
            f.2.extend(partition_opts.iter().cloned());
        }
        if let Some(t) = &pass_pipeline {
            let opts = partition_opts.iter().map(|(k, v)| format!("{}={}", k, v)).collect::<Vec<_>>().join(" ");
            pass_pipeline = Some(t.replace("npu-partition{", &format!("npu-partition{{{} ", opts)).replace("npu-partition,", &format!("npu-partition{{{}}},", opts)).replace("npu-partition)", &format!("npu-partition{{{}}})", opts)));
        }
    }
    let pipeline = match (&pass_pipeline, flags.is_empty()) {
        (Some(_), false) => {
            eprintln!("{}: error: '--pass-pipeline' cannot be combined with individual pass flags", tool.name);
            return ExitCode::FAILURE;
        }
        (Some(t), true) => Some(PipelineSpec::Text(t.clone())),
        (None, false) => Some(PipelineSpec::Flags(flags.into_iter().map(|(_, n, o)| (n, o)).collect())),
        (None, true) => None,
    };
    // Check the pipeline once, before reading any input.
    if let Some(spec) = &pipeline {
        match build_pipeline(&registry, spec) {
            Ok(pm) => {
                if args.dump_pass_pipeline {
                    eprintln!("Pass Manager with {} top-level entries:\n  {}", if pm.is_empty() { 0 } else { 1 }, pm.to_text());
                }
            }
            Err(e) => {
                eprint!("{}", e);
                return ExitCode::FAILURE;
            }
        }
    }
    let mut src = String::new();
    let (read, name) = if args.input == "-" {
        (std::io::stdin().read_to_string(&mut src).map(|_| ()), "<stdin>".to_string())
    } else {
        (std::fs::read_to_string(&args.input).map(|s| src = s), args.input.clone())
    };
    if let Err(e) = read {
        eprintln!("{}: error: could not open input file '{}': {}", tool.name, args.input, e);
        return ExitCode::FAILURE;
    }
    let ctx = (tool.context)(args.allow_unregistered);
    let opts = OptOptions {
        split_input_file: args.split_input_file,
        verify_diagnostics: args.verify_diagnostics,
        print: ir::printer::PrintOptions { generic: args.generic, debug_info: args.debuginfo },
        pipeline,
        pass_config: PassManagerConfig {
            verify_each: args.verify_each,
            print: IrPrinting {
                before: args.print_before.clone(),
                after: args.print_after.clone(),
                before_all: args.print_before_all,
                after_all: args.print_after_all,
                after_change: args.print_after_change,
                after_failure: args.print_after_failure,
                module_scope: args.print_module_scope,
            },
            timing: args.timing,
            statistics: args.statistics,
            crash_reproducer: args.crash_reproducer.clone(),
        },
    };
    let mut timing = PassTiming::default();
    let out = run(&ctx, &registry, &src, &name, &opts, &mut timing);
    eprint!("{}", out.errors);
    for s in &out.statistics {
        eprint!("{}", s);
    }
    let written = if out.ok { Some(timing.time("Output", || crate::write_output(&args.output, out.output.as_bytes()))) } else { None };
    if args.timing {
        let display = if args.timing_display == "tree" { TimingDisplay::Tree } else { TimingDisplay::List };
        eprint!("{}", timing.report(start.elapsed(), display));
    }
    match written {
        None => ExitCode::FAILURE,
        Some(Err(e)) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("{}: error: could not write output '{}': {}", tool.name, args.output, e);
            ExitCode::FAILURE
        }
        Some(_) => ExitCode::SUCCESS,
    }
}

