//! What `npu-opt` owes any text it is given, as checks the fuzz targets
//! (`fuzz/`) and the mutation tests (`tools/tests/opt_robustness.rs`) share:
//! a parse error points inside the text; a module that verifies prints and
//! parses back to one that verifies; each pipeline of [`PIPELINES`] either
//! fails with diagnostics or leaves IR that verifies and prints back; no pass
//! crashes (the pass manager turns a panic into "pass '…' crashed", which is
//! reported here as a violation, as is IR that fails to verify after a pass).
//! A violation is an `Err` naming what broke; a panic outside a pass unwinds
//! to the caller.

use ir::pass::{PassManager, PassManagerConfig, PassRegistry};
use ir::Context;

/// The pipelines every valid input goes through: the generic transforms alone,
/// then chained with ONNX shape inference as `npu-opt` users run them.
pub const PIPELINES: &[&str] = &[
    "builtin.module(canonicalize)",
    "builtin.module(cse)",
    "builtin.module(inline)",
    "builtin.module(sccp)",
    "builtin.module(onnx-shape-inference)",
    "builtin.module(onnx-shape-inference,onnx-resolve-sequences{max-unrolled-ops=10000})",
    "builtin.module(inline,symbol-dce,sccp,onnx-shape-inference,canonicalize,cse,dce)",
];

/// What became of one input.
#[derive(Debug, Default, Clone, Copy)]
pub struct Outcome {
    /// The text parsed and verified (the pipelines ran on it).
    pub valid: bool,
    /// Pipelines that finished without errors.
    pub pipelines_ok: usize,
}

/// Checks one input; see the module's doc. Without a registry, only the
/// parser, the verifier and the printer (the `parse_mlir` fuzz target).
pub fn check_opt_input(ctx: &Context, reg: Option<&PassRegistry>, src: &str) -> Result<Outcome, String> {
    let lines = src.lines().count() as u32 + 1;
    let m = match ir::parser::parse_module(ctx, src, "in.mlir", 1) {
        Ok(m) => m,
        Err(d) => {
            return match d.loc.file_line_col() {
                Some((_, line, _)) if line > lines => Err(format!("the parse error is at line {}, past the text's {} lines: {}", line, lines, d.message)),
                _ => Ok(Outcome::default()),
            };
        }
    };
    if m.reproducer_pipeline.is_some() || ir::verifier::verify(ctx, &m.body, m.module).is_err() {
        return Ok(Outcome::default());
    }
    round_trip(ctx, &m.body, m.module, "the input")?;
    let mut out = Outcome { valid: true, pipelines_ok: 0 };
    let Some(reg) = reg else { return Ok(out) };
    for p in PIPELINES {
        let mut m = ir::parser::parse_module(ctx, src, "in.mlir", 1).map_err(|d| format!("parsing again failed: {}", d.message))?;
        let mut pm = PassManager::new(ir::pass::parse_pipeline(p, reg).map_err(|e| format!("{}: {:?}", p, e))?, PassManagerConfig::default());
        match pm.run(ctx, &mut m.body, m.module) {
            Ok(()) => {
                round_trip(ctx, &m.body, m.module, p)?;
                out.pipelines_ok += 1;
            }
            Err(e) => {
                if let Some(d) = e.diagnostics.iter().find(|d| d.message.contains("crashed:") || d.message.contains("failed to verify after pass")) {
                    return Err(format!("{}: {}", p, d.message));
                }
            }
        }
    }
    Ok(out)
}

/// Verified IR prints, in both forms, to text that parses and verifies.
fn round_trip(ctx: &Context, body: &ir::Body, module: ir::OpId, what: &str) -> Result<(), String> {
    for generic in [false, true] {
        let text = ir::printer::print_op(ctx, body, module, ir::printer::PrintOptions { generic, ..Default::default() });
        let again = ir::parser::parse_module(ctx, &text, "printed.mlir", 1).map_err(|d| format!("{} printed (generic: {}) does not parse: {}\n{}", what, generic, d.message, text))?;
        if let Err(e) = ir::verifier::verify(ctx, &again.body, again.module) {
            return Err(format!("{} printed (generic: {}) does not verify: {}\n{}", what, generic, e[0].message, text));
        }
    }
    Ok(())
}
