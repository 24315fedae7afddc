//! `npu-opt`: parses, verifies and prints IR, with `mlir-opt`'s flags.

use clap::Parser;
use std::io::{Read, Write};
use std::process::ExitCode;
use tools::opt_driver::{run, OptOptions};

#[derive(Parser)]
#[command(name = "npu-opt", about = "Parse, verify and print IR (mlir-opt's flags)", version)]
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
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut src = String::new();
    let (read, name) = if args.input == "-" {
        (std::io::stdin().read_to_string(&mut src).map(|_| ()), "<stdin>".to_string())
    } else {
        (std::fs::read_to_string(&args.input).map(|s| src = s), args.input.clone())
    };
    if let Err(e) = read {
        eprintln!("npu-opt: error: could not open input file '{}': {}", args.input, e);
        return ExitCode::FAILURE;
    }
    let ctx = tools::default_context(args.allow_unregistered);
    let opts = OptOptions {
        split_input_file: args.split_input_file,
        verify_diagnostics: args.verify_diagnostics,
        print: ir::printer::PrintOptions { generic: args.generic, debug_info: args.debuginfo },
    };
    let out = run(&ctx, &src, &name, &opts);
    eprint!("{}", out.errors);
    if !out.ok {
        return ExitCode::FAILURE;
    }
    let written = if args.output == "-" {
        std::io::stdout().lock().write_all(out.output.as_bytes())
    } else {
        // Write beside the target and rename, so a failure never leaves half a file.
        let tmp = format!("{}.tmp{}", args.output, std::process::id());
        std::fs::write(&tmp, out.output.as_bytes()).and_then(|_| std::fs::rename(&tmp, &args.output)).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
    };
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("npu-opt: error: could not write output '{}': {}", args.output, e);
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
