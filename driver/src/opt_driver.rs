//! What `npu-opt` does with one input: split, parse, verify, run a pass
//! pipeline, print; and report diagnostics or check them against `expected-*`.

use ir::diagnostics::{Diagnostic, SourceMgr};
use ir::expected::ExpectedDiagnostics;
use ir::pass::{parse_pipeline, OpPassManager, PassManager, PassManagerConfig, PassRegistry, PassTiming};
use ir::printer::{print_op, PrintOptions};
use ir::Context;

/// Where the passes come from.
#[derive(Clone, Debug)]
pub enum PipelineSpec {
    /// `--pass-pipeline=...`.
    Text(String),
    /// `--cse --canonicalize=max-iterations=3`: (pass, options) in command-line order.
    Flags(Vec<(String, Vec<(String, String)>)>),
}

#[derive(Clone, Debug, Default)]
pub struct OptOptions {
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    pub print: PrintOptions,
    pub pipeline: Option<PipelineSpec>,
    pub pass_config: PassManagerConfig,
}

/// The outcome of one run: the text to write, the text for stderr, and success.
pub struct OptOutcome {
    pub output: String,
    pub errors: String,
    pub ok: bool,
    /// `--mlir-pass-statistics` reports, one per pipeline run.
    pub statistics: Vec<String>,
}

/// Builds the pass manager of a spec; `Err` is a rendered error.
pub fn build_pipeline(reg: &PassRegistry, spec: &PipelineSpec) -> Result<OpPassManager, String> {
    match spec {
        PipelineSpec::Text(t) => parse_pipeline(t, reg).map_err(|e| e.render(t)),
        PipelineSpec::Flags(flags) => {
            let mut pm = OpPassManager::new("builtin.module");
            for (name, opts) in flags {
                let (pass, text) = reg.create_with_text(name, opts).map_err(|e| format!("error: --{}: {}\n", name, e))?;
                pm.add_pass_with_options(pass, text);
            }
            Ok(pm)
        }
    }
}

/// Runs parse → verify → passes → print on `src` (named `file` in diagnostics).
pub fn run(ctx: &Context, reg: &PassRegistry, src: &str, file: &str, opts: &OptOptions, timing: &mut PassTiming) -> OptOutcome {
    let chunks = if opts.split_input_file { ir::split::split_input(src) } else { vec![(src.to_string(), 1)] };
    let mut sm = SourceMgr::new();
    sm.add(file, src);
    let mut outputs = vec![];
    let mut errors = String::new();
    let mut statistics = vec![];
    let mut ok = true;
    for (chunk, first_line) in &chunks {
        let (text, diags, failed) = process_chunk(ctx, reg, chunk, file, *first_line, opts, timing, &mut statistics);
        if let Some(t) = text {
            outputs.push(t);
        }
        if opts.verify_diagnostics {
            let mut exp = match ExpectedDiagnostics::parse(chunk, file, *first_line) {
                Ok(e) => e,
                Err(es) => {
                    for e in es {
                        errors.push_str(&sm.render(&e));
                    }
                    ok = false;
                    continue;
                }
            };
            let mut bad: Vec<Diagnostic> = vec![];
            for d in &diags {
                bad.extend(exp.check(d));
            }
            bad.extend(exp.unmatched());
            for d in &bad {
                errors.push_str(&sm.render(d));
            }
            ok &= bad.is_empty();
        } else {
            for d in &diags {
                errors.push_str(&sm.render(d));
            }
            ok &= !failed;
        }
    }
    let output = if outputs.len() == 1 { outputs.pop().unwrap() } else { outputs.join("// -----\n") };
    OptOutcome { output, errors, ok, statistics }
}

/// The printed result (on success), every diagnostic, and whether it failed.
#[allow(clippy::too_many_arguments)]
fn process_chunk(
    ctx: &Context,
    reg: &PassRegistry,
    chunk: &str,
    file: &str,
    first_line: u32,
    opts: &OptOptions,
    timing: &mut PassTiming,
    statistics: &mut Vec<String>,
) -> (Option<String>, Vec<Diagnostic>, bool) {
    let mut parsed = match timing.time("Parser", || ir::parser::parse_module(ctx, chunk, file, first_line)) {
        Ok(p) => p,
        Err(d) => return (None, vec![*d], true),
    };
    if let Err(e) = timing.time("Verifier", || ir::verifier::verify(ctx, &parsed.body, parsed.module)) {
        return (None, e, true);
    }
    let mut diags = vec![];
    // An explicit pipeline wins; else a crash reproducer's own pipeline replays.
    let spec = opts.pipeline.clone().or_else(|| parsed.reproducer_pipeline.clone().map(PipelineSpec::Text));
    if let Some(spec) = spec {
        let root = match build_pipeline(reg, &spec) {
            Ok(pm) => pm,
            Err(e) => {
                let loc = parsed.body.op(parsed.module).loc.clone();
                return (None, vec![Diagnostic::error(loc, format!("invalid pass pipeline: {}", e.trim_end()))], true);
            }
        };
        let mut pm = PassManager::new(root, opts.pass_config.clone());
        let r = pm.run(ctx, &mut parsed.body, parsed.module);
        timing.merge(&pm.timing);
        if opts.pass_config.statistics && !pm.statistics.is_empty() {
            statistics.push(pm.statistics.report());
        }
        diags.append(&mut pm.diagnostics);
        if let Err(e) = r {
            diags.extend(e.diagnostics);
            return (None, diags, true);
        }
    }
    let text = timing.time("Output", || print_op(ctx, &parsed.body, parsed.module, opts.print));
    // A million-op module is a million allocations: the process is about to
    // exit, so let the OS reclaim them instead of freeing each one.
    std::mem::forget(parsed);
    (Some(text), diags, false)
}
