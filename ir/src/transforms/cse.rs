//! `cse`: replaces a side-effect-free op by an identical one that dominates it.
//! Scopes follow dominance: a nested region sees its parents' ops, an
//! isolated-from-above op starts afresh, and in multi-block regions a block
//! sees what its dominators hold. Ops with regions or side effects are never merged.

use crate::dialect::Trait;
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};
use crate::dominance::DominanceInfo;
use crate::pass::{Pass, PassContext};
use crate::rewrite::GreedyConfig;
use crate::{Block, Body, OpId, Region, Value};
use std::collections::HashMap;

pub struct Cse;

/// Ops that may merge, by a hash of what makes them equal; collisions are
/// resolved by comparing the ops themselves (no key is ever cloned).
struct Scopes {
    maps: Vec<HashMap<u64, SmallVec<[OpId; 1]>>>,
    cse: u64,
    dce: u64,
}

/// Operands in canonical order (sorted for commutative ops).
fn operands_of(body: &Body, op: OpId, commutative: bool) -> SmallVec<[Value; 4]> {
    let mut v: SmallVec<[Value; 4]> = SmallVec::from_slice(body.op(op).operands());
    if commutative {
        v.sort();
    }
    v
}

/// The hash of a mergeable op, `None` if it may not merge.
fn key(body: &Body, op: OpId) -> Option<u64> {
    let d = body.op(op);
    let def = d.name.def()?;
    if !def.has_trait(Trait::Pure) || !d.regions().is_empty() || d.results().is_empty() || def.has_trait(Trait::IsTerminator) {
        return None;
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    d.name.hash(&mut h);
    operands_of(body, op, def.has_trait(Trait::Commutative)).hash(&mut h);
    for r in d.results() {
        body.value_type(*r).hash(&mut h);
    }
    d.properties.hash(&mut h);
    d.attributes.hash(&mut h);
    Some(h.finish())
}

fn same(body: &Body, a: OpId, b: OpId) -> bool {
    let (x, y) = (body.op(a), body.op(b));
    let comm = x.name.def().is_some_and(|d| d.has_trait(Trait::Commutative));
    x.name == y.name
        && operands_of(body, a, comm) == operands_of(body, b, comm)
        && x.results().len() == y.results().len()
        && x.results().iter().zip(y.results()).all(|(p, q)| body.value_type(*p) == body.value_type(*q))
        && x.properties == y.properties
        && x.attributes == y.attributes
}

impl Scopes {
    fn find(&self, body: &Body, k: u64, op: OpId) -> Option<OpId> {
        self.maps.iter().rev().find_map(|m| m.get(&k).and_then(|c| c.iter().copied().find(|c| same(body, *c, op))))
    }
}

fn visit_block(body: &mut Body, b: Block, s: &mut Scopes) {
    let ops: Vec<OpId> = body.block_ops(b).collect();
    for op in ops {
        if body.is_erased(op) {
            continue;
        }
        let isolated = body.name(op).def().is_some_and(|d| d.has_trait(Trait::IsolatedFromAbove));
        for r in body.op(op).regions().to_vec() {
            if isolated {
                let mut fresh = Scopes { maps: vec![], cse: 0, dce: 0 };
                visit_region(body, r, &mut fresh);
                s.cse += fresh.cse;
                s.dce += fresh.dce;
            } else {
                visit_region(body, r, s);
            }
        }
        if crate::rewrite::is_trivially_dead_op(body, op) {
            body.erase(op);
            s.dce += 1;
            continue;
        }
        let Some(k) = key(body, op) else { continue };
        match s.find(body, k, op) {
            Some(existing) => {
                let (old, new) = (body.op(op).results().to_vec(), body.op(existing).results().to_vec());
                for (o, n) in old.iter().zip(&new) {
                    body.replace_all_uses(*o, *n);
                }
                body.erase(op);
                s.cse += 1;
            }
            None => {
                s.maps.last_mut().unwrap().entry(k).or_default().push(op);
            }
        }
    }
}

fn visit_region(body: &mut Body, r: Region, s: &mut Scopes) {
    let blocks = body.region_blocks(r).to_vec();
    if blocks.len() <= 1 {
        for b in blocks {
            s.maps.push(HashMap::new());
            visit_block(body, b, s);
            s.maps.pop();
        }
        return;
    }
    // Walk the dominator tree: each block inherits the scopes of its dominators.
    let dom = DominanceInfo::new(body, r);
    fn rec(body: &mut Body, dom: &DominanceInfo, b: Block, s: &mut Scopes) {
        s.maps.push(HashMap::new());
        visit_block(body, b, s);
        for c in dom.children(b) {
            rec(body, dom, c, s);
        }
        s.maps.pop();
    }
    rec(body, &dom, blocks[0], s);
    // Unreachable blocks: on their own.
    for b in blocks.iter().skip(1).filter(|b| !dom.is_reachable(**b)) {
        s.maps.push(HashMap::new());
        visit_block(body, *b, s);
        s.maps.pop();
    }
}

impl Pass for Cse {
    fn argument(&self) -> &'static str {
        "cse"
    }
    fn display_name(&self) -> &'static str {
        "CSE"
    }
    fn run(&mut self, cx: &mut PassContext, op: OpId) -> Result<(), String> {
        let mut s = Scopes { maps: vec![], cse: 0, dce: 0 };
        let isolated_root = cx.body.name(op).def().is_some_and(|d| d.has_trait(Trait::IsolatedFromAbove));
        let _ = isolated_root;
        for r in cx.body.op(op).regions().to_vec() {
            visit_region(cx.body, r, &mut s);
        }
        cx.stat("num-cse'd", "Number of operations CSE'd", s.cse);
        cx.stat("num-dce'd", "Number of operations DCE'd", s.dce);
        let _ = GreedyConfig::default;
        Ok(())
    }
}
