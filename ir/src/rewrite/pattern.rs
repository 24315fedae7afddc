//! Rewrite patterns and sets of them, ordered by benefit.

use super::rewriter::Rewriter;
use crate::body::OpId;
use std::collections::HashMap;
use std::sync::Arc;

/// Why a pattern did not apply (kept for `--debug`-style reports).
#[derive(Clone, Debug)]
pub struct MatchFailure(pub String);

/// A rewrite of one op. A pattern that returns `Err` must not have changed the IR.
pub trait RewritePattern: Send + Sync {
    fn name(&self) -> &'static str;
    /// The op name it matches, or `None` for any op.
    fn root(&self) -> Option<&'static str>;
    /// Higher benefit is tried first.
    fn benefit(&self) -> u16 {
        1
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure>;
}

/// The signature of a stateless rewrite of one op.
pub type RewriteFn = fn(OpId, &mut Rewriter) -> Result<(), MatchFailure>;

/// A pattern that is just a named function on one op kind: most patterns, with
/// no state, need nothing more than this (`PatternSet::add_fn`).
pub struct FnPattern {
    pub name: &'static str,
    pub root: &'static str,
    pub rewrite: RewriteFn,
}

impl RewritePattern for FnPattern {
    fn name(&self) -> &'static str {
        self.name
    }
    fn root(&self) -> Option<&'static str> {
        Some(self.root)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
        (self.rewrite)(op, rw)
    }
}

/// Patterns indexed by root name, each list sorted by decreasing benefit.
#[derive(Default, Clone)]
pub struct PatternSet {
    by_root: HashMap<&'static str, Vec<Arc<dyn RewritePattern>>>,
    any: Vec<Arc<dyn RewritePattern>>,
}

impl PatternSet {
    pub fn new() -> PatternSet {
        PatternSet::default()
    }
    pub fn add(&mut self, p: Arc<dyn RewritePattern>) {
        let list = match p.root() {
            Some(r) => self.by_root.entry(r).or_default(),
            None => &mut self.any,
        };
        list.push(p);
        list.sort_by_key(|p| std::cmp::Reverse(p.benefit()));
    }
    /// Adds `rewrite` as the pattern `name` on ops named `root`.
    pub fn add_fn(&mut self, name: &'static str, root: &'static str, rewrite: RewriteFn) {
        self.add(Arc::new(FnPattern { name, root, rewrite }));
    }
    pub fn len(&self) -> usize {
        self.by_root.values().map(|v| v.len()).sum::<usize>() + self.any.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Patterns for ops named `name`: specific ones and any-op ones, by benefit.
    pub fn for_op(&self, name: &str) -> Vec<Arc<dyn RewritePattern>> {
        let mut v: Vec<_> = self.by_root.get(name).cloned().unwrap_or_default();
        v.extend(self.any.iter().cloned());
        v.sort_by_key(|p| std::cmp::Reverse(p.benefit()));
        v
    }
}
