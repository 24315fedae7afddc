//! Block dominance inside one region (Cooper-Harvey-Kennedy iterative
//! algorithm on reverse post-order), used by the verifier for multi-block regions.

use crate::body::{Block, Body, Region};
use std::collections::HashMap;

pub struct DominanceInfo {
    /// Immediate dominator per reachable block, by position in the region.
    idom: Vec<Option<usize>>,
    index: HashMap<Block, usize>,
    blocks: Vec<Block>,
}

impl DominanceInfo {
    pub fn new(body: &Body, region: Region) -> DominanceInfo {
        let blocks = body.region_blocks(region);
        let index: HashMap<Block, usize> = blocks.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let n = blocks.len();
        let succs: Vec<Vec<usize>> = blocks
            .iter()
            .map(|b| match body.last_op(*b) {
                Some(t) => body.op(t).successors().iter().filter_map(|s| index.get(s).copied()).collect(),
                None => vec![],
            })
            .collect();
        let mut preds = vec![vec![]; n];
        for (i, ss) in succs.iter().enumerate() {
            for &s in ss {
                preds[s].push(i);
            }
        }
        // Reverse post-order from the entry block.
        let mut order = vec![];
        let mut seen = vec![false; n];
        if n > 0 {
            let mut stack = vec![(0usize, 0usize)];
            seen[0] = true;
            while let Some((b, i)) = stack.pop() {
                if i < succs[b].len() {
                    stack.push((b, i + 1));
                    let s = succs[b][i];
                    if !seen[s] {
                        seen[s] = true;
                        stack.push((s, 0));
                    }
                } else {
                    order.push(b);
                }
            }
        }
        order.reverse();
        let mut rpo = vec![usize::MAX; n];
        for (i, b) in order.iter().enumerate() {
            rpo[*b] = i;
        }
        let mut idom: Vec<Option<usize>> = vec![None; n];
        if n > 0 {
            idom[0] = Some(0);
        }
        let intersect = |idom: &Vec<Option<usize>>, mut a: usize, mut b: usize| {
            while a != b {
                while rpo[a] > rpo[b] {
                    a = idom[a].unwrap();
                }
                while rpo[b] > rpo[a] {
                    b = idom[b].unwrap();
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().skip(1) {
                let mut new: Option<usize> = None;
                for &p in &preds[b] {
                    if idom[p].is_some() {
                        new = Some(match new {
                            None => p,
                            Some(x) => intersect(&idom, p, x),
                        });
                    }
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        DominanceInfo { idom, index, blocks: blocks.to_vec() }
    }

    /// Blocks whose immediate dominator is `b`, in region order.
    pub fn children(&self, b: Block) -> Vec<Block> {
        let Some(&ib) = self.index.get(&b) else { return vec![] };
        (0..self.blocks.len()).filter(|&i| i != ib && self.idom[i] == Some(ib)).map(|i| self.blocks[i]).collect()
    }

    pub fn is_reachable(&self, b: Block) -> bool {
        self.index.get(&b).is_some_and(|&i| self.idom[i].is_some())
    }

    /// True when `a` dominates `b` (a block dominates itself). Unreachable `b` is dominated by everything.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        let (Some(&ia), Some(&ib)) = (self.index.get(&a), self.index.get(&b)) else { return false };
        if self.idom[ib].is_none() {
            return true;
        }
        let mut cur = ib;
        loop {
            if cur == ia {
                return true;
            }
            match self.idom[cur] {
                Some(p) if p != cur => cur = p,
                _ => return false,
            }
        }
    }
}
