//! `canonicalize`: the greedy driver with every registered op's folder and
//! canonicalization patterns.

use crate::pass::{Pass, PassContext, PassOptions};
use crate::rewrite::{apply_patterns_greedily, GreedyConfig, PatternSet};
use crate::OpId;

pub struct Canonicalize {
    cfg: GreedyConfig,
    test_convergence: bool,
    disabled: Vec<String>,
}

impl Canonicalize {
    pub fn from_options(o: &PassOptions) -> Canonicalize {
        Canonicalize {
            cfg: GreedyConfig {
                max_iterations: o.int("max-iterations").max(1) as u32,
                max_rewrites: o.int("max-num-rewrites"),
                top_down: o.bool("top-down"),
                ..GreedyConfig::default()
            },
            test_convergence: o.bool("test-convergence"),
            disabled: o.list("disable-patterns"),
        }
    }
}

/// The canonicalization patterns of every registered op.
pub fn canonicalization_patterns(ctx: &crate::Context, disabled: &[String]) -> PatternSet {
    let mut all = PatternSet::new();
    for def in ctx.registered_ops() {
        if let Some(f) = def.canonicalize {
            f(&mut all);
        }
    }
    if disabled.is_empty() {
        return all;
    }
    // Rebuild without the disabled ones.
    let mut kept = PatternSet::new();
    for def in ctx.registered_ops() {
        for p in all.for_op(def.name) {
            if !disabled.iter().any(|d| d == p.name()) && p.root() == Some(def.name) {
                kept.add(p);
            }
        }
    }
    kept
}

impl Pass for Canonicalize {
    fn argument(&self) -> &'static str {
        "canonicalize"
    }
    fn display_name(&self) -> &'static str {
        "Canonicalizer"
    }
    fn run(&mut self, cx: &mut PassContext, op: OpId) -> Result<(), String> {
        let patterns = canonicalization_patterns(cx.ctx, &self.disabled);
        let r = apply_patterns_greedily(cx.ctx, cx.body, op, &patterns, &self.cfg);
        cx.stat("num-folds", "Ops folded", r.folds);
        cx.stat("num-rewrites", "Patterns applied", r.rewrites);
        cx.stat("num-dead", "Dead ops erased", r.dead_erased);
        if self.test_convergence && !r.converged {
            return Err(format!("canonicalizer failed to converge within {} iterations", self.cfg.max_iterations));
        }
        Ok(())
    }
}
