//! Running pipelines: nested op pass managers, the verifier after each pass,
//! instrumentation, and a crash reproducer that `npu-opt FILE` replays.

use super::analysis::AnalysisManager;
use super::instrument::{IrPrinting, PassTiming, Statistics};
use super::{Pass, PassContext, Preserved};
use crate::body::{Body, OpId};
use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::printer::{print_op, PrintOptions};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

enum Entry {
    /// A pass and its options as they print in a pipeline.
    Pass(Box<dyn Pass>, String),
    Nested(OpPassManager),
}

/// Passes to run on ops named `anchor` (or on any op for `"any"`).
pub struct OpPassManager {
    anchor: String,
    entries: Vec<Entry>,
}

impl OpPassManager {
    pub fn new(anchor: &str) -> OpPassManager {
        OpPassManager { anchor: anchor.to_string(), entries: vec![] }
    }
    pub fn anchor(&self) -> &str {
        &self.anchor
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// Adds a pass, nesting it under a pass manager for its anchor when this one
    /// runs on something else (consecutive passes share that nested manager).
    pub fn add_pass(&mut self, pass: Box<dyn Pass>) {
        let text = pass.options_text();
        self.add_pass_with_options(pass, text);
    }
    /// `add_pass`, with the options text the registry parsed (printed by `to_text`).
    pub fn add_pass_with_options(&mut self, pass: Box<dyn Pass>, options: String) {
        match pass.anchor() {
            Some(a) if a != self.anchor && self.anchor != "any" => {
                if let Some(Entry::Nested(n)) = self.entries.last_mut() {
                    if n.anchor == a {
                        n.add_pass_with_options(pass, options);
                        return;
                    }
                }
                let mut n = OpPassManager::new(a);
                n.add_pass_with_options(pass, options);
                self.entries.push(Entry::Nested(n));
            }
            _ => self.entries.push(Entry::Pass(pass, options)),
        }
    }
    /// Adds a pass to this manager itself (the pipeline parser checked the anchor).
    pub(crate) fn add_pass_here(&mut self, pass: Box<dyn Pass>, options: String) {
        self.entries.push(Entry::Pass(pass, options));
    }
    pub fn add_nested(&mut self, pm: OpPassManager) {
        self.entries.push(Entry::Nested(pm));
    }
    /// The pipeline as text, as parsed.
    pub fn to_text(&self) -> String {
        let inner: Vec<String> = self
            .entries
            .iter()
            .map(|e| match e {
                Entry::Pass(p, opts) => format!("{}{}", p.argument(), opts),
                Entry::Nested(n) => n.to_text(),
            })
            .collect();
        format!("{}({})", self.anchor, inner.join(","))
    }
}

#[derive(Clone, Debug)]
pub struct PassManagerConfig {
    pub verify_each: bool,
    pub print: IrPrinting,
    pub timing: bool,
    pub statistics: bool,
    /// Where to write a reproducer when a pass fails or crashes.
    pub crash_reproducer: Option<String>,
}

impl Default for PassManagerConfig {
    fn default() -> Self {
        PassManagerConfig { verify_each: true, print: IrPrinting::default(), timing: false, statistics: false, crash_reproducer: None }
    }
}

/// Why a pipeline stopped.
#[derive(Debug)]
pub struct RunError {
    pub diagnostics: Vec<Diagnostic>,
}

/// A top-level pipeline with its configuration and what it measured.
pub struct PassManager {
    pub root: OpPassManager,
    pub config: PassManagerConfig,
    pub timing: PassTiming,
    pub statistics: Statistics,
    pub analyses: AnalysisManager,
    /// Diagnostics passes emitted that did not fail them (warnings, remarks).
    pub diagnostics: Vec<Diagnostic>,
}

struct Run<'a> {
    ctx: &'a Context,
    top: OpId,
    path: Vec<String>,
}

impl PassManager {
    pub fn new(root: OpPassManager, config: PassManagerConfig) -> PassManager {
        PassManager {
            root,
            config,
            timing: PassTiming::default(),
            statistics: Statistics::default(),
            analyses: AnalysisManager::default(),
            diagnostics: vec![],
        }
    }

    /// Runs the pipeline on `top` (usually the module).
    pub fn run(&mut self, ctx: &Context, body: &mut Body, top: OpId) -> Result<(), RunError> {
        if self.root.anchor != "any" && body.name(top).as_str() != self.root.anchor {
            return Err(RunError {
                diagnostics: vec![Diagnostic::error(
                    body.op(top).loc.clone(),
                    format!("can't run '{}' pass manager on '{}' op", self.root.anchor, body.name(top)),
                )],
            });
        }
        let snapshot = self.config.crash_reproducer.as_ref().map(|_| {
            print_op(ctx, body, top, PrintOptions { generic: true, debug_info: true })
        });
        let mut root = std::mem::replace(&mut self.root, OpPassManager::new(""));
        let mut run = Run { ctx, top, path: vec![] };
        let r = self.run_pm(&mut run, &mut root, body, top);
        self.root = root;
        if let (Err(_), Some(path), Some(text)) = (&r, &self.config.crash_reproducer, snapshot) {
            let repro = format!(
                "{}\n{{-#\n  external_resources: {{\n    mlir_reproducer: {{\n      pipeline: \"{}\",\n      verify_each: {}\n    }}\n  }}\n#-}}\n",
                text.trim_end(),
                self.root.to_text(),
                self.config.verify_each
            );
            if let Err(e) = std::fs::write(path, repro) {
                let mut err = r.unwrap_err();
                err.diagnostics.push(Diagnostic::error(body.op(top).loc.clone(), format!("could not write crash reproducer '{}': {}", path, e)));
                return Err(err);
            }
            let mut err = r.unwrap_err();
            err.diagnostics.push(Diagnostic::new(
                crate::diagnostics::Severity::Note,
                body.op(top).loc.clone(),
                format!("a reproducer was written to '{}'; run `npu-opt {}` to replay it", path, path),
            ));
            return Err(err);
        }
        r
    }

    fn run_pm(&mut self, run: &mut Run, pm: &mut OpPassManager, body: &mut Body, op: OpId) -> Result<(), RunError> {
        for e in pm.entries.iter_mut() {
            match e {
                Entry::Pass(p, _) => self.run_pass(run, p.as_mut(), body, op)?,
                Entry::Nested(n) => {
                    let children: Vec<OpId> = body
                        .op(op)
                        .regions()
                        .iter()
                        .flat_map(|r| body.region_blocks(*r).to_vec())
                        .flat_map(|b| body.block_ops(b).collect::<Vec<_>>())
                        .filter(|c| n.anchor == "any" || body.name(*c).as_str() == n.anchor)
                        .collect();
                    run.path.push(format!("'{}' Pipeline", n.anchor));
                    for c in children {
                        if body.is_erased(c) {
                            continue;
                        }
                        if let Err(e) = self.run_pm(run, n, body, c) {
                            run.path.pop();
                            return Err(e);
                        }
                    }
                    run.path.pop();
                }
            }
        }
        Ok(())
    }

    fn dump(&self, run: &Run, body: &Body, op: OpId, when: &str, pass: &dyn Pass) {
        let target = if self.config.print.module_scope { run.top } else { op };
        let text = print_op(run.ctx, body, target, PrintOptions::default());
        eprint!("// -----// IR Dump {} {} ({}) //----- //\n{}\n", when, pass.display_name(), pass.argument(), text.trim_end());
    }

    fn run_pass(&mut self, run: &mut Run, pass: &mut dyn Pass, body: &mut Body, op: OpId) -> Result<(), RunError> {
        let ctx = run.ctx;
        let printing = &self.config.print;
        if printing.wants_before(pass.argument()) {
            self.dump(run, body, op, "Before", pass);
        }
        let fingerprint = |b: &Body| print_op(ctx, b, op, PrintOptions { generic: true, debug_info: true });
        let before = if self.config.print.after_change { Some(fingerprint(body)) } else { None };
        run.path.push(pass.display_name().to_string());
        let start = Instant::now();
        let mut cx = PassContext {
            ctx,
            body,
            analyses: &mut self.analyses,
            statistics: &mut self.statistics,
            preserved: Preserved::None,
            diagnostics: vec![],
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| pass.run(&mut cx, op)));
        let preserved = std::mem::take(&mut cx.preserved);
        let mut diags = std::mem::take(&mut cx.diagnostics);
        let elapsed = start.elapsed();
        if self.config.timing {
            self.timing.add(&run.path, elapsed);
        }
        self.statistics.finish_pass(&run.path);
        run.path.pop();
        self.analyses.invalidate(&preserved);
        let loc = body.op(op).loc.clone();
        let failure = match outcome {
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown panic".into());
                diags.push(Diagnostic::error(loc.clone(), format!("pass '{}' crashed: {}", pass.argument(), msg)));
                true
            }
            Ok(Err(msg)) => {
                // A pass that already reported its errors failed for those reasons.
                if !diags.iter().any(|d| d.severity == crate::diagnostics::Severity::Error) {
                    diags.push(Diagnostic::error(loc.clone(), msg));
                }
                true
            }
            Ok(Ok(())) => false,
        };
        let has_error = diags.iter().any(|d| d.severity == crate::diagnostics::Severity::Error);
        if failure || has_error {
            if self.config.print.after_failure {
                // After a crash the IR may be inconsistent; print it anyway, as upstream does.
                let body_ref: &Body = body;
                self.dump(run, body_ref, op, "After Failed", pass);
            }
            if !has_error {
                diags.push(Diagnostic::error(loc, format!("pass '{}' failed", pass.argument())));
            }
            return Err(RunError { diagnostics: diags });
        }
        self.diagnostics.extend(diags);
        if self.config.verify_each {
            let t = Instant::now();
            let verified = crate::verifier::verify(ctx, body, op);
            if self.config.timing {
                self.timing.add(&["Verifier".to_string()], t.elapsed());
            }
            if let Err(mut errs) = verified {
                errs.push(Diagnostic::new(
                    crate::diagnostics::Severity::Note,
                    body.op(op).loc.clone(),
                    format!("the IR failed to verify after pass '{}'", pass.argument()),
                ));
                if self.config.print.after_failure {
                    self.dump(run, body, op, "After Failed", pass);
                }
                return Err(RunError { diagnostics: errs });
            }
        }
        let p = &self.config.print;
        let changed = before.map(|b| b != fingerprint(body));
        let print_after = p.after_all || p.after.iter().any(|x| x == pass.argument()) || (p.after_change && changed == Some(true));
        if print_after {
            self.dump(run, body, op, "After", pass);
        }
        Ok(())
    }
}
