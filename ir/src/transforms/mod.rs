//! The generic transforms (as MLIR's `Transforms`): they work on any dialect
//! through traits and op definitions (folders, canonicalization patterns,
//! `Pure`, symbols, calls).

mod canonicalize;
mod cse;
mod dce;
mod inline;
mod sccp;
mod symbol_dce;

use crate::pass::{OptionKind, OptionSpec as Opt, PassInfo, PassRegistry};

pub use canonicalize::Canonicalize;

/// Registers the generic transforms.
pub fn register(reg: &mut PassRegistry) {
    reg.register(PassInfo {
        argument: "canonicalize",
        summary: "Fold, remove dead ops and apply every op's canonicalization patterns until a fixed point",
        options: vec![
            Opt::new("max-iterations", OptionKind::Int, "10", "Sweeps over the IR before giving up on convergence"),
            Opt::new("max-num-rewrites", OptionKind::Int, "-1", "Pattern applications allowed (-1: no limit)"),
            Opt::new("top-down", OptionKind::Bool, "true", "Visit ops parents-first and in order"),
            Opt::new("test-convergence", OptionKind::Bool, "false", "Fail if no fixed point is reached"),
            Opt::new("disable-patterns", OptionKind::List, "", "Patterns not to apply, by name"),
        ],
        create: |o| Ok(Box::new(Canonicalize::from_options(o))),
    });
    reg.register(PassInfo {
        argument: "cse",
        summary: "Eliminate common sub-expressions of side-effect-free ops, scoped by dominance",
        options: vec![],
        create: |_| Ok(Box::new(cse::Cse)),
    });
    reg.register(PassInfo {
        argument: "dce",
        summary: "Remove side-effect-free ops whose results are unused, and unreachable blocks",
        options: vec![],
        create: |_| Ok(Box::new(dce::Dce)),
    });
    reg.register(PassInfo {
        argument: "symbol-dce",
        summary: "Remove private symbols (functions) that nothing public reaches",
        options: vec![],
        create: |_| Ok(Box::new(symbol_dce::SymbolDce)),
    });
    reg.register(PassInfo {
        argument: "inline",
        summary: "Inline func.call of single-block, non-recursive functions",
        options: vec![Opt::new("max-depth", OptionKind::Int, "8", "Rounds of inlining (calls exposed by inlining)")],
        create: |o| Ok(Box::new(inline::Inline { max_depth: o.int("max-depth").max(1) as u32 })),
    });
    reg.register(PassInfo {
        argument: "sccp",
        summary: "Propagate constants through folders to a fixed point and replace values with constants",
        options: vec![],
        create: |_| Ok(Box::new(sccp::Sccp)),
    });
}
