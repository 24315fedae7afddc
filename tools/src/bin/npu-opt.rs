//! `npu-opt`: parses, verifies and prints IR, with `mlir-opt`'s flags.

use clap::Parser;
use std::io::{Read, Write};
use std::process::ExitCode;
use tools::opt_driver::{run, OptOptions};
use tools::timing::Timing;

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
    /// Report the wall time of each phase on stderr.
    #[arg(long = "mlir-timing")]
    timing: bool,
}

fn main() -> ExitCode {
    let start = std::time::Instant::now();
    let args = Args::parse();
    let mut timing = Timing::default();
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
    let out = run(&ctx, &src, &name, &opts, &mut timing);
    eprint!("{}", out.errors);
    if !out.ok {
        return ExitCode::FAILURE;
    }
    let written = timing.time("Output", || write_output(&args.output, &out.output));
    if args.timing {
        eprint!("{}", timing.report(start.elapsed()));
    }
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("npu-opt: error: could not write output '{}': {}", args.output, e);
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn write_output(path: &str, text: &str) -> std::io::Result<()> {
    if path == "-" {
        std::io::stdout().lock().write_all(text.as_bytes())
    } else if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        // A device or pipe (/dev/null, a FIFO): write it directly; renaming over it would replace it.
        std::fs::write(path, text.as_bytes())
    } else {
        // Write beside the target and rename, so a failure never leaves half a file.
        let tmp = format!("{}.tmp{}", path, std::process::id());
        std::fs::write(&tmp, text.as_bytes()).and_then(|_| std::fs::rename(&tmp, path)).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
    }
}
