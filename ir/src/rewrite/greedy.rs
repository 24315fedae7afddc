//! The greedy pattern driver: a worklist over the ops under a root, removing
//! trivially dead ops, folding, uniquing constants, putting constants of
//! commutative ops on the right, and applying patterns by benefit, until
//! nothing changes or the iteration limit is hit.

use super::folder::{constant_value, OperationFolder};
use super::pattern::PatternSet;
use super::rewriter::Rewriter;
use crate::body::{Body, OpId};
use crate::context::Context;
use crate::dialect::Trait;
use crate::location::Location;

#[derive(Clone, Debug)]
pub struct GreedyConfig {
    /// Full sweeps over the IR before giving up on convergence.
    pub max_iterations: u32,
    /// Stop after this many pattern applications and folds (< 0: no limit).
    pub max_rewrites: i64,
    /// Visit parents before children and earlier ops first.
    pub top_down: bool,
    /// Use op folders.
    pub fold: bool,
    /// Keep (pattern, location, reason) of failed matches in the result.
    pub record_failures: bool,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig { max_iterations: 10, max_rewrites: -1, top_down: true, fold: true, record_failures: false }
    }
}

#[derive(Debug, Default)]
pub struct GreedyResult {
    pub converged: bool,
    pub iterations: u32,
    pub rewrites: u64,
    pub folds: u64,
    pub dead_erased: u64,
    /// (pattern, op location, reason) for every failed match, for debugging.
    pub match_failures: Vec<(&'static str, Location, String)>,
}

/// An op that can be removed when its results are unused.
pub fn is_trivially_dead(body: &Body, op: OpId) -> bool {
    let d = body.op(op);
    let Some(def) = d.name.def() else { return false };
    def.has_trait(Trait::Pure) && !def.has_trait(Trait::IsTerminator) && d.results().iter().all(|r| !body.has_uses(*r))
}

struct Worklist {
    stack: Vec<OpId>,
    queued: Vec<bool>,
}

impl Worklist {
    fn push(&mut self, op: OpId) {
        let i = op.index();
        if i >= self.queued.len() {
            self.queued.resize(i + 1024, false);
        }
        if !self.queued[i] {
            self.queued[i] = true;
            self.stack.push(op);
        }
    }
    fn pop(&mut self) -> Option<OpId> {
        let op = self.stack.pop()?;
        self.queued[op.index()] = false;
        Some(op)
    }
}

/// Applies `patterns` (and folders) to everything nested under `root`.
pub fn apply_patterns_greedily(ctx: &Context, body: &mut Body, root: OpId, patterns: &PatternSet, cfg: &GreedyConfig) -> GreedyResult {
    let mut res = GreedyResult::default();
    let mut folder = OperationFolder::default();
    let mut cache: std::collections::HashMap<crate::context::OpName, Vec<std::sync::Arc<dyn super::RewritePattern>>> = Default::default();
    for iter in 0..cfg.max_iterations.max(1) {
        res.iterations = iter + 1;
        let mut changed = false;
        let mut ops = body.walk_preorder(root);
        ops.remove(0);
        if cfg.top_down {
            ops.reverse(); // the stack pops from the end
        }
        let mut wl = Worklist { stack: Vec::with_capacity(ops.len()), queued: vec![false; body.op_capacity()] };
        for o in ops {
            wl.push(o);
        }
        while let Some(op) = wl.pop() {
            if cfg.max_rewrites >= 0 && (res.rewrites + res.folds) as i64 >= cfg.max_rewrites {
                return res;
            }
            if body.is_erased(op) {
                continue;
            }
            if is_trivially_dead(body, op) {
                let defs: Vec<OpId> = body.op(op).operands().iter().filter_map(|v| body.defining_op(*v)).collect();
                body.erase(op);
                res.dead_erased += 1;
                changed = true;
                defs.into_iter().for_each(|d| wl.push(d));
                continue;
            }
            if cfg.fold && constant_value(body, op).is_some() {
                if let Some(users) = folder.visit_constant(body, op) {
                    changed = true;
                    users.into_iter().for_each(|u| wl.push(u));
                }
                continue;
            }
            // Constants of commutative binary ops go to the right, so folders and patterns see one form.
            let def = body.name(op).def();
            if def.is_some_and(|d| d.has_trait(Trait::Commutative)) && body.op(op).operands().len() == 2 {
                let (a, b) = (body.op(op).operand(0), body.op(op).operand(1));
                let is_const = |v| body.defining_op(v).is_some_and(|d| constant_value(body, d).is_some());
                if is_const(a) && !is_const(b) {
                    body.set_operands(op, &[b, a]);
                    changed = true;
                }
            }
            if cfg.fold {
                // The producers of the operands may become dead once `op` folds away.
                let defs: Vec<OpId> = body.op(op).operands().iter().filter_map(|v| body.defining_op(*v)).collect();
                if let Some((created, users)) = folder.try_fold(ctx, body, op) {
                    res.folds += 1;
                    changed = true;
                    created.into_iter().chain(users).chain(defs).filter(|o| !body.is_erased(*o)).for_each(|u| wl.push(u));
                    continue;
                }
            }
            let name = body.name(op);
            let pats = cache.entry(name).or_insert_with(|| patterns.for_op(name.as_str())).clone();
            for p in pats {
                let mut rw = Rewriter::new(ctx, body);
                rw.set_insertion_point(crate::body::InsertPoint::Before(op));
                match p.match_and_rewrite(op, &mut rw) {
                    Ok(()) => {
                        let touched: Vec<OpId> = rw
                            .created
                            .drain(..)
                            .chain(rw.modified.drain(..))
                            .chain(rw.touched_users.drain(..))
                            .chain(rw.freed_operands.drain(..))
                            .collect();
                        let still_there = !body.is_erased(op);
                        for t in touched {
                            if !body.is_erased(t) {
                                wl.push(t);
                            }
                        }
                        if still_there {
                            wl.push(op);
                        }
                        res.rewrites += 1;
                        changed = true;
                        break;
                    }
                    Err(f) => {
                        if cfg.record_failures {
                            res.match_failures.push((p.name(), body.op(op).loc.clone(), f.0))
                        }
                    }
                }
            }
        }
        if !changed {
            res.converged = true;
            return res;
        }
    }
    res
}
