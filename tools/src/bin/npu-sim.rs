//! `npu-sim`: assemble, disassemble and run NPU programs on the simulator.

use clap::{Args as ClapArgs, Parser, Subcommand};
use npu_sim::{asm, binary, disasm, npy, report, sim, HwConfig, Program};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "npu-sim", about = "NPU assembler, disassembler and functional + timed simulator", version)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(ClapArgs)]
struct HwArgs {
    /// Hardware description (TOML); default: the built-in target named by --target.
    #[arg(long)]
    config: Option<String>,
    /// Built-in target when no --config is given.
    #[arg(long, default_value = "npu16")]
    target: String,
    /// Override a hardware parameter, e.g. `--set dram.bytes_per_cycle=32` (repeatable).
    #[arg(long = "set")]
    set: Vec<String>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Assemble text to a binary.
    Asm {
        input: String,
        #[arg(short = 'o')]
        output: String,
    },
    /// Disassemble a binary to text.
    Disasm {
        input: String,
        #[arg(short = 'o', default_value = "-")]
        output: String,
    },
    /// Print the ISA reference (markdown) generated from the instruction table.
    Doc,
    /// Print the hardware description (defaults of --target, with --set applied) as TOML.
    Config {
        #[command(flatten)]
        hw: HwArgs,
    },
    /// Run a program (assembly or binary).
    Run {
        program: String,
        #[command(flatten)]
        hw: HwArgs,
        /// Input argument: `name=file.npy`, or generated: `name=iota` (0, 1, 2, …),
        /// `name=fill:V`, `name=random:SEED` (int8 in -128..127, f32 in [-1, 1)) (repeatable).
        #[arg(long = "arg")]
        args: Vec<String>,
        /// Print an output argument's values as text (repeatable).
        #[arg(long = "print")]
        print: Vec<String>,
        /// Output argument to save: `name=file.npy` (repeatable).
        #[arg(long = "out")]
        outs: Vec<String>,
        /// Print the summary and per-layer report.
        #[arg(long)]
        report: bool,
        /// Print the report as JSON on stdout instead.
        #[arg(long)]
        json: bool,
        /// Write a Chrome/Perfetto trace.
        #[arg(long)]
        trace: Option<String>,
        /// Stop with an error when the units would be busy for more cycles than this,
        /// checked before an instruction's work is done.
        #[arg(long, default_value_t = npu_sim::sim::Limits::default().max_cycles)]
        max_cycles: u64,
    },
}

fn load_program(path: &str) -> Result<Program, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("could not read '{}': {}", path, e))?;
    if bytes.starts_with(binary::MAGIC) {
        return binary::read(&bytes).map_err(|e| format!("{}: {}", path, e));
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: neither an NPU binary nor UTF-8 assembly", path))?;
    asm::assemble(&text).map_err(|e| format!("{}:{}", path, e))
}

fn hardware(h: &HwArgs) -> Result<HwConfig, String> {
    let mut cfg = match &h.config {
        Some(p) => HwConfig::from_toml(&std::fs::read_to_string(p).map_err(|e| format!("could not read '{}': {}", p, e))?).map_err(|e| format!("{}: {}", p, e))?,
        None => HwConfig::builtin(&h.target).ok_or_else(|| format!("unknown built-in target '{}' (known: npu16)", h.target))?,
    };
    for s in &h.set {
        cfg.set(s)?;
    }
    Ok(cfg)
}

fn write_file(path: &str, bytes: &[u8]) -> Result<(), String> {
    driver::write_output(path, bytes).map_err(|e| format!("could not write '{}': {}", path, e))
}

/// Generated input contents (`iota`, `fill:V`, `random:SEED`), or `None` for a file name.
fn generated(spec: &str, decl: &npu_sim::program::ArgDecl) -> Result<Option<Vec<u8>>, String> {
    use npu_sim::isa::Dtype;
    let n = decl.elements() as usize;
    let enc = |v: f64| -> Vec<u8> {
        match decl.dtype {
            Dtype::I8 => vec![(v as i64) as i8 as u8],
            Dtype::I32 => ((v as i64) as i32).to_le_bytes().to_vec(),
            Dtype::F32 => (v as f32).to_le_bytes().to_vec(),
        }
    };
    let vals: Vec<f64> = if spec == "iota" {
        (0..n).map(|i| i as f64).collect()
    } else if let Some(v) = spec.strip_prefix("fill:") {
        let v: f64 = v.parse().map_err(|_| format!("fill:{} is not a number", v))?;
        vec![v; n]
    } else if let Some(seed) = spec.strip_prefix("random:") {
        let mut x: u64 = seed.parse::<u64>().map_err(|_| format!("random:{} needs an integer seed", seed))? ^ 0x9E37_79B9_7F4A_7C15;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match decl.dtype {
                    Dtype::F32 => ((x >> 40) as f64 / (1u64 << 24) as f64) * 2.0 - 1.0,
                    _ => ((x >> 56) as i64 - 128) as f64,
                }
            })
            .collect()
    } else {
        return Ok(None);
    };
    Ok(Some(vals.into_iter().flat_map(enc).collect()))
}

/// Values as nested lists following the shape.
fn format_values(decl: &npu_sim::program::ArgDecl, data: &[u8]) -> String {
    use npu_sim::isa::Dtype;
    let vals: Vec<String> = match decl.dtype {
        Dtype::I8 => data.iter().map(|b| (*b as i8).to_string()).collect(),
        Dtype::I32 => data.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap()).to_string()).collect(),
        Dtype::F32 => data.chunks(4).map(|c| format!("{:?}", f32::from_le_bytes(c.try_into().unwrap()))).collect(),
    };
    fn rec(vals: &[String], shape: &[u64]) -> String {
        if shape.len() <= 1 {
            return format!("[{}]", vals.join(", "));
        }
        let step = vals.len() / shape[0] as usize;
        let parts: Vec<String> = vals.chunks(step.max(1)).map(|c| rec(c, &shape[1..])).collect();
        format!("[{}]", parts.join(", "))
    }
    rec(&vals, &decl.shape)
}

fn pair(s: &str, what: &str) -> Result<(String, String), String> {
    let (a, b) = s.split_once('=').ok_or_else(|| format!("{} expects name=file, got '{}'", what, s))?;
    Ok((a.trim_start_matches('%').to_string(), b.to_string()))
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.cmd {
        Cmd::Asm { input, output } => {
            let p = load_program(&input)?;
            write_file(&output, &binary::write(&p))
        }
        Cmd::Disasm { input, output } => {
            let p = load_program(&input)?;
            write_file(&output, disasm::disassemble(&p).as_bytes())
        }
        Cmd::Doc => {
            print!("{}", npu_sim::isa::markdown());
            Ok(())
        }
        Cmd::Config { hw } => {
            print!("{}", hardware(&hw)?.to_toml());
            Ok(())
        }
        Cmd::Run { program, hw, args, print, outs, report: want_report, json, trace, max_cycles } => {
            let cfg = hardware(&hw)?;
            let p = load_program(&program)?;
            // Nothing is generated or read for arguments the target cannot hold.
            sim::dram_layout(&cfg, &p).map_err(|e| e.0)?;
            let mut inputs = vec![];
            for a in &args {
                let (name, file) = pair(a, "--arg")?;
                let decl = p.args.iter().find(|d| d.name == name).ok_or_else(|| format!("the program has no argument '%{}'", name))?;
                if let Some(data) = generated(&file, decl)? {
                    inputs.push((name, data));
                    continue;
                }
                let bytes = std::fs::read(&file).map_err(|e| format!("could not read '{}': {}", file, e))?;
                let arr = npy::read(&bytes).map_err(|e| format!("{}: {}", file, e))?;
                if arr.dtype != decl.dtype || arr.shape != decl.shape {
                    return Err(format!(
                        "{}: {} {:?} does not match '%{}' declared as {} {:?}",
                        file,
                        arr.dtype.name(),
                        arr.shape,
                        name,
                        decl.dtype.name(),
                        decl.shape
                    ));
                }
                inputs.push((name, arr.data));
            }
            let record = want_report || json || trace.is_some();
            let r = sim::run_limited(&cfg, &p, &inputs, record, sim::Limits { max_cycles }).map_err(|e| e.0)?;
            for o in &outs {
                let (name, file) = pair(o, "--out")?;
                let (_, data) = r.outputs.iter().find(|(n, _)| *n == name).ok_or_else(|| format!("'%{}' is not an output of the program", name))?;
                let decl = p.args.iter().find(|d| d.name == name).unwrap();
                write_file(&file, &npy::write(&npy::Array { dtype: decl.dtype, shape: decl.shape.clone(), data: data.clone() }))?;
            }
            for name in &print {
                let name = name.trim_start_matches('%');
                let (_, data) = r.outputs.iter().find(|(n, _)| n == name).ok_or_else(|| format!("'%{}' is not an output of the program", name))?;
                let decl = p.args.iter().find(|d| d.name == name).unwrap();
                println!("%{} = {}", name, format_values(decl, data));
            }
            let rep = report::build(&cfg, &p, &r);
            if json {
                println!("{}", serde_json::to_string_pretty(&rep).map_err(|e| e.to_string())?);
            } else if want_report {
                print!("{}", report::text(&rep));
            }
            if let Some(t) = trace {
                write_file(&t, report::trace(&cfg, &p, &r).as_bytes())?;
            }
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Located errors already read `file:line:col: error: ...`.
            if e.contains(": error: ") {
                eprintln!("{}", e);
            } else {
                eprintln!("npu-sim: error: {}", e.trim_start_matches("error: "));
            }
            ExitCode::FAILURE
        }
    }
}
