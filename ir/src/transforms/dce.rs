//! `dce`: erases side-effect-free ops whose results are unused (transitively)
//! and blocks no path from the entry reaches.

use crate::dominance::DominanceInfo;
use crate::pass::{Pass, PassContext};
use crate::OpId;

pub struct Dce;

impl Pass for Dce {
    fn argument(&self) -> &'static str {
        "dce"
    }
    fn display_name(&self) -> &'static str {
        "DCE"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let body = &mut *cx.body;
        // Unreachable blocks first: their ops may be the only users of others.
        let mut blocks_removed = 0;
        for op in body.walk_preorder(root) {
            if body.is_erased(op) {
                continue;
            }
            for r in body.op(op).regions().to_vec() {
                let blocks = body.region_blocks(r).to_vec();
                if blocks.len() < 2 {
                    continue;
                }
                let dom = DominanceInfo::new(body, r);
                let dead: Vec<_> = blocks.into_iter().skip(1).filter(|b| !dom.is_reachable(*b)).collect();
                if dead.is_empty() {
                    continue;
                }
                // Detach all their ops together: they may use each other's values.
                let tmp = body.new_region();
                for b in &dead {
                    body.remove_block(*b);
                    body.append_block(tmp, *b);
                }
                body.erase_region_contents(tmp);
                blocks_removed += dead.len() as u64;
            }
        }
        // Then dead ops, children before parents so a parent's uses go first.
        let mut erased = 0;
        let mut wl: Vec<OpId> = body.walk_preorder(root);
        wl.remove(0);
        while let Some(op) = wl.pop() {
            if body.is_erased(op) || !crate::rewrite::is_trivially_dead_op(body, op) {
                continue;
            }
            let defs: Vec<OpId> = body.op(op).operands().iter().filter_map(|v| body.defining_op(*v)).collect();
            body.erase(op);
            erased += 1;
            wl.extend(defs);
        }
        cx.stat("num-erased", "Dead ops erased", erased);
        cx.stat("num-blocks", "Unreachable blocks erased", blocks_removed);
        Ok(())
    }
}
