//! `translate_main`: between external formats and IR, for `npu-translate` and
//! a vendor's `*-translate`: our translations (`--import-onnx` (ONNX model →
//! onnx dialect), `--export-onnx`, `--mlir-to-llvmir`, `--mlir-to-npu`) and the
//! tool's own (`driver::Translation`, one `--FLAG` each: IR in, bytes out).

use clap::{Arg, ArgAction, CommandFactory, FromArgMatches, Parser};
use driver::Translation;
use ir::diagnostics::SourceMgr;
use ir::printer::{print_op, PrintOptions};
use std::process::ExitCode;
use std::sync::OnceLock;

/// A `*-translate` tool: its name, its context (dialects) and the translations it adds to ours.
pub struct TranslateTool {
    pub name: &'static str,
    pub context: fn(bool) -> ir::Context,
    pub translations: Vec<Translation>,
}

impl TranslateTool {
    pub fn npu_translate() -> TranslateTool {
        TranslateTool { name: "npu-translate", context: driver::default_context, translations: vec![] }
    }
}

static TOOL: OnceLock<(&'static str, fn(bool) -> ir::Context)> = OnceLock::new();

fn tool() -> &'static str {
    TOOL.get().map(|t| t.0).unwrap_or("npu-translate")
}

fn tool_context(allow_unregistered: bool) -> ir::Context {
    (TOOL.get().map(|t| t.1).unwrap_or(driver::default_context))(allow_unregistered)
}

#[derive(Parser)]
#[command(name = "npu-translate", about = "Translate between external formats and IR", version)]
struct Args {
    /// Import an ONNX model (binary ModelProto) into the onnx dialect.
    #[arg(long = "import-onnx")]
    import_onnx: bool,
    /// Read the input as ONNX's textual syntax (implied by a `.onnxtext` file name).
    #[arg(long = "onnx-text")]
    onnx_text: bool,
    /// Export a module of onnx dialect ops (IR text) as an ONNX model (binary ModelProto).
    #[arg(long = "export-onnx")]
    export_onnx: bool,
    /// Print the table of supported ONNX operators (markdown) and exit.
    #[arg(long = "list-onnx-ops")]
    list_onnx_ops: bool,
    /// Input file.
    #[arg(default_value = "")]
    input: String,
    /// Output file (`-` for standard output); written only on success.
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// Print every operation in the generic form.
    #[arg(long = "mlir-print-op-generic")]
    generic: bool,
    /// Print locations.
    #[arg(long = "mlir-print-debuginfo")]
    debuginfo: bool,
    /// Compile IR (any level: onnx, tensor or loops) for the CPU; `--emit` says to what (default llvm-ir).
    #[arg(long = "mlir-to-llvmir")]
    mlir_to_llvmir: bool,
    /// Translate the NPU programs (`npu.program` functions of schedule-level
    /// ops) of an IR module to NPU assembly (`--emit=npu-asm`, the default) or
    /// an NPU binary (`--emit=npu-bin`).
    #[arg(long = "mlir-to-npu")]
    mlir_to_npu: bool,
    /// With several NPU programs: the one to write (by function name).
    #[arg(long = "program")]
    program: Option<String>,
    /// What to write: the imported IR (`mlir`); nothing (`none`: import and verify
    /// only); compiled for the CPU: the loop-level IR (`loops`), the LLVM
    /// dialect (`llvm-dialect`), LLVM IR (`llvm-ir`), an object file (`obj`) or a
    /// shared library (`lib`) whose C entry point is `_mlir_ciface_<graph name>`;
    /// or compiled for the NPU (partitions that fall back to the CPU are left
    /// out): assembly (`npu-asm`) or a binary (`npu-bin`).
    #[arg(long = "emit", value_parser = ["mlir", "none", "loops", "llvm-dialect", "llvm-ir", "obj", "lib", "npu-asm", "npu-bin"])]
    emit: Option<String>,
    /// Ignore the types the model declares for intermediate values and outputs
    /// (to see what shape inference alone derives); outputs keep theirs as `onnx.declared_type`.
    #[arg(long = "ignore-value-info")]
    ignore_value_info: bool,
    /// Bind a free (symbolic) dimension: `--dim batch=1` (repeatable).
    #[arg(long = "dim")]
    dims: Vec<String>,
    /// Bind a graph input to a known value, a serialized TensorProto (`--bind-input
    /// shape=shape.pb`, repeatable): it becomes a constant, so shapes it carries fold.
    #[arg(long = "bind-input")]
    bind_inputs: Vec<String>,
    /// With --import-onnx: print the graph inputs whose values decide shapes
    /// (Reshape targets, Resize scales, Reduce axes, … directly or through other
    /// ops), one name a line, instead of the IR: bind them to get static shapes.
    #[arg(long = "list-shape-inputs")]
    list_shape_inputs: bool,
    /// Tensors of at least this many bytes become dense_resource blobs.
    #[arg(long = "resource-threshold", default_value_t = 1024)]
    resource_threshold: usize,
}

/// Parses the command line (ours and `tool.translations`' flags) and runs the one translation asked for.
pub fn translate_main(tool_desc: TranslateTool) -> ExitCode {
    let _ = TOOL.set((tool_desc.name, tool_desc.context));
    let mut cmd = Args::command().name(tool_desc.name);
    for t in &tool_desc.translations {
        cmd = cmd.arg(Arg::new(t.flag).long(t.flag).help(t.help).action(ArgAction::SetTrue));
    }
    let matches = cmd.get_matches();
    let args = match Args::from_arg_matches(&matches) {
        Ok(a) => a,
        Err(e) => e.exit(),
    };
    if args.list_onnx_ops {
        print!("{}", onnx::table::markdown());
        return ExitCode::SUCCESS;
    }
    let own: Vec<&Translation> = tool_desc.translations.iter().filter(|t| matches.get_flag(t.flag)).collect();
    if [args.import_onnx, args.export_onnx, args.mlir_to_llvmir, args.mlir_to_npu].iter().filter(|b| **b).count() + own.len() != 1 {
        let mut flags = vec!["--import-onnx", "--export-onnx", "--mlir-to-llvmir", "--mlir-to-npu"].into_iter().map(String::from).collect::<Vec<_>>();
        flags.extend(tool_desc.translations.iter().map(|t| format!("--{}", t.flag)));
        let last = flags.pop().unwrap_or_default();
        eprintln!("{}: error: choose one translation ({} or {})", tool(), flags.join(", "), last);
        return ExitCode::FAILURE;
    }
    if let Some(t) = own.first() {
        let ctx = tool_context(false);
        let (parsed, _, file) = match parse_input(&args, &ctx, "translating") {
            Ok(x) => x,
            Err(code) => return code,
        };
        return match (t.run)(&ctx, &parsed.body, parsed.module) {
            Ok(bytes) => write(&args.output, &bytes),
            Err(e) => {
                eprintln!("{}: error: --{} of '{}': {}", tool(), t.flag, file, e);
                ExitCode::FAILURE
            }
        };
    }
    if args.mlir_to_npu {
        let ctx = tool_context(false);
        let (mut parsed, _, _) = match parse_input(&args, &ctx, "translating") {
            Ok(x) => x,
            Err(code) => return code,
        };
        return npu_programs(&args, &ctx, &mut parsed.body, parsed.module, false);
    }
    if args.export_onnx {
        return export(&args);
    }
    if args.mlir_to_llvmir {
        return from_ir(&args);
    }
    let bytes = match std::fs::read(&args.input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}: error: could not read '{}': {}", tool(), args.input, e);
            return ExitCode::FAILURE;
        }
    };
    let ctx = tool_context(false);
    let mut dims = std::collections::HashMap::new();
    for d in &args.dims {
        match d.split_once('=').map(|(n, v)| (n, v.parse::<i64>())) {
            Some((n, Ok(v))) if v >= 0 => {
                dims.insert(n.to_string(), v);
            }
            _ => {
                eprintln!("{}: error: --dim expects NAME=SIZE with a non-negative size, got '{}'", tool(), d);
                return ExitCode::FAILURE;
            }
        }
    }
    let mut bound_inputs = vec![];
    for b in &args.bind_inputs {
        let Some((name, file)) = b.split_once('=') else {
            eprintln!("{}: error: --bind-input expects NAME=FILE.pb, got '{}'", tool(), b);
            return ExitCode::FAILURE;
        };
        let tensor = std::fs::read(file).map_err(|e| e.to_string()).and_then(|b| onnx_translate::proto::decode_tensor(b.into()));
        match tensor {
            Ok(t) => bound_inputs.push((name.to_string(), t)),
            Err(e) => {
                eprintln!("{}: error: --bind-input {}: '{}': {}", tool(), name, file, e);
                return ExitCode::FAILURE;
            }
        }
    }
    let opts = onnx_translate::import::ImportOptions {
        model_path: Some(args.input.clone().into()),
        resource_threshold: args.resource_threshold,
        use_declared_types: !args.ignore_value_info,
        dims,
        bound_inputs,
    };
    let text = args.onnx_text || args.input.ends_with(".onnxtext");
    let mut sm = SourceMgr::new();
    let result = if text {
        // Textual syntax: parsed to a ModelProto, then imported like a binary model.
        let src = String::from_utf8_lossy(&bytes).into_owned();
        sm.add(&args.input, &src);
        match onnx_translate::text::parse_model(&src) {
            Ok(model) => onnx_translate::import::import_proto(&ctx, &model, &opts),
            Err(e) => {
                let (line, col) = onnx_translate::text::line_col(&src, e.pos);
                Err(vec![ir::diagnostics::Diagnostic::error(ir::Location::file(args.input.as_str().into(), line, col), e.message)])
            }
        }
    } else {
        // The buffer is handed over: large weights stay in it, shared, not copied.
        onnx_translate::import::import_model_bytes(&ctx, bytes.into(), &opts)
    };
    let mut imported = match result {
        Ok(m) => m,
        Err(diags) => return report(&sm, &diags, "importing", &args.input),
    };
    if args.list_shape_inputs {
        // As npu-run decides them: on inferred types (an If's branches compared).
        if let Err(e) = driver::pipelines::run(&ctx, &mut imported.body, imported.module, "builtin.module(onnx-shape-inference)") {
            eprintln!("npu-translate: {}", e);
            return ExitCode::FAILURE;
        }
        let b = &imported.body;
        let Some(f) = b.entry_block(imported.module).and_then(|e| b.block_ops(e).next()) else { return ExitCode::SUCCESS };
        let names: String = onnx::shape_operands::deciding_inputs(b, f, &[]).into_iter().map(|(_, n)| n + "\n").collect();
        return write(&args.output, names.as_bytes());
    }
    let emit = args.emit.clone().unwrap_or_else(|| "mlir".into());
    if emit == "none" {
        return ExitCode::SUCCESS;
    }
    if emit == "npu-asm" || emit == "npu-bin" {
        let mut imported = imported;
        return npu_programs(&args, &ctx, &mut imported.body, imported.module, true);
    }
    if emit != "mlir" {
        let mut imported = imported;
        return compile(&args, &ctx, &mut imported.body, imported.module, &emit);
    }
    let text = print_op(&ctx, &imported.body, imported.module, PrintOptions { generic: args.generic, debug_info: args.debuginfo });
    write(&args.output, text.as_bytes())
}

/// IR text → the CPU pipeline → what `--emit` asks for (LLVM IR by default).
fn from_ir(args: &Args) -> ExitCode {
    let ctx = tool_context(false);
    let (mut parsed, _, _) = match parse_input(args, &ctx, "compiling") {
        Ok(x) => x,
        Err(code) => return code,
    };
    let emit = args.emit.clone().unwrap_or_else(|| "llvm-ir".into());
    if emit == "mlir" || emit == "none" {
        eprintln!("{}: error: --mlir-to-llvmir emits loops, llvm-dialect, llvm-ir, obj or lib", tool());
        return ExitCode::FAILURE;
    }
    compile(args, &ctx, &mut parsed.body, parsed.module, &emit)
}

/// Runs the CPU pipeline on `module` and writes the requested form.
fn compile(args: &Args, ctx: &ir::Context, body: &mut ir::Body, module: ir::OpId, emit: &str) -> ExitCode {
    if let Err(e) = driver::pipelines::run(ctx, body, module, driver::pipelines::CPU_PIPELINE) {
        eprintln!("{}", e);
        eprintln!("{}: could not compile '{}' for the CPU", tool(), args.input);
        return ExitCode::FAILURE;
    }
    if emit != "loops" {
        // No runtime to report a failed check: the code aborts instead.
        if let Err(e) = onnx_to_tensor::checks::call_abort_on_failed_checks(ctx, body, module) {
            eprintln!("{}: error: {}", tool(), e);
            return ExitCode::FAILURE;
        }
        tensor_to_loops::plan_arena::allocate_arenas_without_runtime(ctx, body, module);
    }
    let text = print_op(ctx, body, module, PrintOptions { generic: emit != "loops" || args.generic, debug_info: args.debuginfo });
    let fail = |e: String| {
        eprintln!("{}: error: {}", tool(), e);
        ExitCode::FAILURE
    };
    match emit {
        "loops" => write(&args.output, text.as_bytes()),
        _ => match cpu_codegen(emit, &text, &args.output) {
            Ok(code) => code,
            Err(e) => fail(e),
        },
    }
}

/// Writes the NPU programs of `module` (compiled first when `lower`) as assembly or a binary.
fn npu_programs(args: &Args, ctx: &ir::Context, body: &mut ir::Body, module: ir::OpId, lower: bool) -> ExitCode {
    let fail = |e: String| {
        eprintln!("{}: error: {}", tool(), e);
        ExitCode::FAILURE
    };
    if lower {
        let pipeline = "builtin.module(onnx-shape-inference, canonicalize)";
        if let Err(e) = driver::pipelines::run(ctx, body, module, pipeline).and_then(|_| driver::partition_compile::schedule_for_npu16(ctx, body, module)) {
            eprintln!("{}", e);
            return fail(format!("could not compile '{}' for the NPU", args.input));
        }
    }
    let emit = args.emit.clone().unwrap_or_else(|| "npu-asm".into());
    if emit != "npu-asm" && emit != "npu-bin" {
        return fail(format!("--mlir-to-npu emits npu-asm or npu-bin, not {}", emit));
    }
    let programs: Vec<ir::OpId> = body.walk_preorder(module).into_iter().filter(|o| body.op(*o).attr(npu::attrs::PROGRAM).is_some()).collect();
    let name = |o: ir::OpId| body.op(o).str_attr("sym_name").unwrap_or("").to_string();
    let chosen: Vec<ir::OpId> = match &args.program {
        Some(p) => programs.iter().copied().filter(|o| &name(*o) == p).collect(),
        None => programs.clone(),
    };
    if chosen.is_empty() {
        let all: Vec<String> = programs.iter().map(|o| name(*o)).collect();
        return fail(match &args.program {
            Some(p) => format!("no NPU program '{}'; the module has: {}", p, if all.is_empty() { "none".into() } else { all.join(", ") }),
            None => "the module has no NPU program (npu.program functions; run npu-schedule first)".into(),
        });
    }
    let mut encoded = vec![];
    for p in &chosen {
        match driver::npu_program::encode_program(body, *p) {
            Ok(e) => encoded.push(e),
            Err(e) => return fail(format!("@{}: {}", name(*p), e)),
        }
    }
    if emit == "npu-asm" {
        let text: String = chosen.iter().zip(&encoded).map(|(o, e)| format!("; {}\n{}", name(*o), npu_sim::disasm::disassemble(e))).collect();
        return write(&args.output, text.as_bytes());
    }
    if chosen.len() != 1 {
        return fail(format!("--emit=npu-bin writes one program; choose one of {} with --program", chosen.iter().map(|o| name(*o)).collect::<Vec<_>>().join(", ")));
    }
    if args.output == "-" {
        return fail("--emit=npu-bin writes a binary file: give -o FILE".into());
    }
    write(&args.output, &npu_sim::binary::write(&encoded[0]))
}

/// The IR text to translate: the input file, or standard input for `-` or none.
fn read_ir(args: &Args) -> Result<(String, String), ExitCode> {
    use std::io::Read;
    let file = if args.input.is_empty() { "-".to_string() } else { args.input.clone() };
    let mut src = String::new();
    let read = if file == "-" { std::io::stdin().read_to_string(&mut src).map(|_| ()) } else { std::fs::read_to_string(&file).map(|s| src = s) };
    match read {
        Ok(()) => Ok((file, src)),
        Err(e) => {
            eprintln!("{}: error: could not read '{}': {}", tool(), file, e);
            Err(ExitCode::FAILURE)
        }
    }
}

/// Prints located diagnostics and a one-line summary: a failed translation.
fn report(sm: &SourceMgr, diags: &[ir::diagnostics::Diagnostic], doing: &str, file: &str) -> ExitCode {
    for d in diags {
        eprint!("{}", sm.render(d));
    }
    eprintln!("{}: {} error{} {} '{}'", tool(), diags.len(), if diags.len() == 1 { "" } else { "s" }, doing, file);
    ExitCode::FAILURE
}

/// The input IR, parsed and verified (with its sources, for later diagnostics).
fn parse_input(args: &Args, ctx: &ir::Context, doing: &str) -> Result<(ir::parser::ParsedModule, SourceMgr, String), ExitCode> {
    let (file, src) = read_ir(args)?;
    let mut sm = SourceMgr::new();
    sm.add(&file, &src);
    let parsed = ir::parser::parse_module(ctx, &src, &file, 1).map_err(|d| vec![*d]).and_then(|p| ir::verifier::verify(ctx, &p.body, p.module).map(|_| p));
    match parsed {
        Ok(p) => Ok((p, sm, file)),
        Err(diags) => Err(report(&sm, &diags, doing, &file)),
    }
}

/// IR text (a file or `-` for standard input) → verified module → ModelProto bytes, written only on success.
fn export(args: &Args) -> ExitCode {
    let ctx = tool_context(false);
    let (parsed, sm, file) = match parse_input(args, &ctx, "exporting") {
        Ok(x) => x,
        Err(code) => return code,
    };
    let bytes = match onnx_translate::export::export_bytes(&ctx, &parsed.body, parsed.module) {
        Ok(b) => b,
        Err(e) => return report(&sm, &e, "exporting", &file),
    };
    write(&args.output, &bytes)
}

/// Writes the output (see `driver::write_output`); a closed pipe is not an error.
fn write(path: &str, bytes: &[u8]) -> ExitCode {
    match driver::write_output(path, bytes) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("{}: error: could not write '{}': {}", tool(), path, e);
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    }
}


/// The CPU code generator's forms of loop-level IR (`llvm-dialect`,
/// `llvm-ir`, `obj`, `lib`): MLIR and LLVM, linked with the `cpu` feature.
#[cfg(feature = "cpu")]
fn cpu_codegen(emit: &str, text: &str, output: &str) -> Result<ExitCode, String> {
    match emit {
        "llvm-dialect" => Ok(write(output, llvm_cpu::lower_to_llvm_dialect(text)?.as_bytes())),
        "llvm-ir" => Ok(write(output, llvm_cpu::emit_llvm_ir(text)?.as_bytes())),
        _ => {
            if output == "-" {
                return Err(format!("--emit={} writes a binary file: give -o FILE", emit));
            }
            // Written beside the target and renamed, so a failure leaves nothing half-written.
            let tmp = format!("{}.tmp{}.o", output, std::process::id());
            if let Err(e) = llvm_cpu::emit_object(text, &tmp) {
                let _ = std::fs::remove_file(&tmp);
                return Err(e);
            }
            if emit == "obj" {
                return std::fs::rename(&tmp, output).map(|_| ExitCode::SUCCESS).map_err(|e| e.to_string());
            }
            let so = format!("{}.tmp{}.so", output, std::process::id());
            let r = std::process::Command::new("cc").args(["-shared", "-o", &so, &tmp, "-lm"]).status();
            let _ = std::fs::remove_file(&tmp);
            match r {
                Ok(s) if s.success() => std::fs::rename(&so, output).map(|_| ExitCode::SUCCESS).map_err(|e| e.to_string()),
                Ok(s) => {
                    let _ = std::fs::remove_file(&so);
                    Err(format!("linking the shared library failed ({})", s))
                }
                Err(e) => Err(format!("could not run the linker 'cc': {}", e)),
            }
        }
    }
}

/// Without the `cpu` feature (`npu-opt`-like builds that link no LLVM) the
/// CPU code generator's forms are refused by name.
#[cfg(not(feature = "cpu"))]
fn cpu_codegen(emit: &str, _text: &str, _output: &str) -> Result<ExitCode, String> {
    Err(format!("--emit={} needs the CPU code generator, which this {} was built without (cargo feature `cpu` of the tools crate)", emit, tool()))
}
