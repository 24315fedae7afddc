//! Cached analyses: computed on first request, kept across passes that
//! preserve them, dropped after any pass that does not.

use super::Preserved;
use crate::body::{Body, OpId};
use crate::context::Context;
use std::any::{Any, TypeId};
use std::collections::HashMap;

/// Something computed from the IR under an op and worth caching.
pub trait Analysis: Any + Send {
    fn compute(ctx: &Context, body: &Body, op: OpId) -> Self
    where
        Self: Sized;
}

#[derive(Default)]
pub struct AnalysisManager {
    cache: HashMap<(TypeId, OpId), Box<dyn Any + Send>>,
    /// How many analyses were computed (not served from the cache).
    pub computations: u64,
}

impl AnalysisManager {
    /// The analysis `A` of `op`, computed if not cached.
    pub fn get<A: Analysis>(&mut self, ctx: &Context, body: &Body, op: OpId) -> &A {
        let key = (TypeId::of::<A>(), op);
        if !self.cache.contains_key(&key) {
            self.computations += 1;
            self.cache.insert(key, Box::new(A::compute(ctx, body, op)));
        }
        self.cache[&key].downcast_ref::<A>().expect("analysis cache holds the wrong type")
    }

    /// True when `A` of `op` is cached.
    pub fn is_cached<A: Analysis>(&self, op: OpId) -> bool {
        self.cache.contains_key(&(TypeId::of::<A>(), op))
    }

    pub(crate) fn invalidate(&mut self, preserved: &Preserved) {
        match preserved {
            Preserved::All => {}
            Preserved::None => self.cache.clear(),
            Preserved::Some(keep) => self.cache.retain(|(t, _), _| keep.contains(t)),
        }
    }
}
