//! Passes, as MLIR has them: a [`Pass`] runs on one operation (its anchor, e.g.
//! every `func.func`, or any op); a [`PassRegistry`] names passes and their typed
//! options; pipelines are nested [`OpPassManager`]s written as text
//! (`builtin.module(func.func(cse,canonicalize{max-iterations=10}))`). The
//! manager verifies after each pass and drives instrumentation (IR printing,
//! timing, statistics, crash reproducers).

mod analysis;
mod instrument;
mod manager;
mod options;
mod pipeline;
mod registry;

pub use analysis::{Analysis, AnalysisManager};
pub use instrument::{IrPrinting, PassTiming, Statistics, TimingDisplay};
pub use manager::{OpPassManager, PassManager, PassManagerConfig, RunError};
pub use options::{OptionKind, OptionSpec, OptionValue, PassOptions};
pub use pipeline::{parse_option_list, parse_pipeline, PipelineError};
pub use registry::{PassInfo, PassRegistry};

use crate::body::{Body, OpId};
use crate::context::Context;
use crate::diagnostics::Diagnostic;
use std::any::TypeId;

/// What a pass sees while it runs.
pub struct PassContext<'a> {
    pub ctx: &'a Context,
    pub body: &'a mut Body,
    pub analyses: &'a mut AnalysisManager,
    /// Counters reported by `--mlir-pass-statistics`.
    pub statistics: &'a mut Statistics,
    pub(crate) preserved: Preserved,
    /// Diagnostics a pass emits (warnings, remarks, errors).
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Debug, Default)]
pub(crate) enum Preserved {
    #[default]
    None,
    All,
    Some(Vec<TypeId>),
}

impl PassContext<'_> {
    /// Keeps every cached analysis valid after this pass (it changed nothing they depend on).
    pub fn preserve_all(&mut self) {
        self.preserved = Preserved::All;
    }
    /// Keeps analysis `A` valid after this pass.
    pub fn preserve<A: Analysis>(&mut self) {
        match &mut self.preserved {
            Preserved::All => {}
            Preserved::Some(v) => v.push(TypeId::of::<A>()),
            p @ Preserved::None => *p = Preserved::Some(vec![TypeId::of::<A>()]),
        }
    }
    /// Adds `n` to the statistic `name` (described by `desc`) of the running pass.
    pub fn stat(&mut self, name: &'static str, desc: &'static str, n: u64) {
        self.statistics.add(name, desc, n);
    }
    pub fn emit(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }
}

/// A transformation of one operation and what it contains.
pub trait Pass: Send {
    /// The registered name (`cse`), also the flag `--cse`.
    fn argument(&self) -> &'static str;
    /// A readable name for reports (`CSE`).
    fn display_name(&self) -> &'static str {
        self.argument()
    }
    /// The op this pass runs on (`func.func`), or `None` for any op.
    fn anchor(&self) -> Option<&'static str> {
        None
    }
    /// Options as written in the pipeline (`max-iterations=10`), for printing it back.
    fn options_text(&self) -> String {
        String::new()
    }
    /// Runs on `op`. `Err` fails the pipeline; diagnostics go to `cx.emit`.
    fn run(&mut self, cx: &mut PassContext, op: OpId) -> Result<(), String>;
}
