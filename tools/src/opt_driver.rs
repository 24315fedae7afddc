//! What `npu-opt` does with one input: split, parse, verify, print, and either
//! report diagnostics or check them against `expected-*` comments.

use ir::diagnostics::{Diagnostic, SourceMgr};
use ir::expected::ExpectedDiagnostics;
use ir::printer::{print_op, PrintOptions};
use ir::Context;
use crate::timing::Timing;

#[derive(Clone, Debug, Default)]
pub struct OptOptions {
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    pub print: PrintOptions,
}

/// The outcome of one run: the text to write, the text for stderr, and success.
pub struct OptOutcome {
    pub output: String,
    pub errors: String,
    pub ok: bool,
}

/// Runs parse → verify → print on `src` (named `file` in diagnostics).
pub fn run(ctx: &Context, src: &str, file: &str, opts: &OptOptions, timing: &mut Timing) -> OptOutcome {
    let chunks = if opts.split_input_file { ir::split::split_input(src) } else { vec![(src.to_string(), 1)] };
    let mut sm = SourceMgr::new();
    sm.add(file, src);
    let mut outputs = vec![];
    let mut errors = String::new();
    let mut ok = true;
    for (chunk, first_line) in &chunks {
        let result = process_chunk(ctx, chunk, file, *first_line, opts, timing);
        let diags = match result {
            Ok(text) => {
                outputs.push(text);
                vec![]
            }
            Err(d) => d,
        };
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
            ok &= diags.is_empty();
        }
    }
    let output = if outputs.len() == 1 { outputs.pop().unwrap() } else { outputs.join("// -----\n") };
    OptOutcome { output, errors, ok }
}

fn process_chunk(
    ctx: &Context,
    chunk: &str,
    file: &str,
    first_line: u32,
    opts: &OptOptions,
    timing: &mut Timing,
) -> Result<String, Vec<Diagnostic>> {
    let parsed = timing.time("Parser", || ir::parser::parse_module(ctx, chunk, file, first_line)).map_err(|d| vec![*d])?;
    timing.time("Verifier", || ir::verifier::verify(ctx, &parsed.body, parsed.module))?;
    let text = timing.time("Output", || print_op(ctx, &parsed.body, parsed.module, opts.print));
    // A million-op module is a million allocations: the process is about to
    // exit, so let the OS reclaim them instead of freeing each one.
    std::mem::forget(parsed);
    Ok(text)
}
