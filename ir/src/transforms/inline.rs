//! `inline`: replaces `func.call` of a function whose body is one block ending
//! in `func.return` by a copy of that body. Recursive calls (a callee that
//! reaches itself) are left alone; `max-depth` rounds inline calls that
//! inlining exposed.

use crate::pass::{Pass, PassContext};
use crate::{Body, InsertPoint, OpId, Value};
use std::collections::{HashMap, HashSet};

pub struct Inline {
    pub max_depth: u32,
}

fn callee_name(body: &Body, call: OpId) -> Option<String> {
    body.op(call).properties.get("callee")?.as_symbol().filter(|p| p.len() == 1).map(|p| p[0].clone())
}

fn calls_in(body: &Body, f: OpId) -> Vec<OpId> {
    body.walk_preorder(f).into_iter().filter(|o| body.name(*o).as_str() == "func.call").collect()
}

/// True when `f` can reach itself through calls.
fn is_recursive(body: &Body, f: OpId) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![f];
    while let Some(g) = stack.pop() {
        for c in calls_in(body, g) {
            let Some(t) = callee_name(body, c).and_then(|n| crate::symbols::lookup_symbol(body, c, &n)) else { continue };
            if t == f {
                return true;
            }
            if seen.insert(t) {
                stack.push(t);
            }
        }
    }
    false
}

fn inline_call(body: &mut Body, call: OpId, callee: OpId) -> bool {
    let Some(r) = body.op(callee).regions().first().copied() else { return false };
    let blocks = body.region_blocks(r).to_vec();
    if blocks.len() != 1 {
        return false;
    }
    let entry = blocks[0];
    let Some(ret) = body.last_op(entry) else { return false };
    if body.name(ret).as_str() != "func.return" {
        return false;
    }
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (p, a) in body.block_args(entry).to_vec().into_iter().zip(body.op(call).operands().to_vec()) {
        map.insert(p, a);
    }
    let ops: Vec<OpId> = body.block_ops(entry).collect();
    for o in ops {
        if o == ret {
            break;
        }
        let c = body.clone_op(o, &mut map);
        body.insert(c, InsertPoint::Before(call));
    }
    let results: Vec<Value> = body.op(ret).operands().iter().map(|v| *map.get(v).unwrap_or(v)).collect();
    body.replace_op(call, &results);
    true
}

impl Pass for Inline {
    fn argument(&self) -> &'static str {
        "inline"
    }
    fn display_name(&self) -> &'static str {
        "Inliner"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let mut inlined = 0;
        for _ in 0..self.max_depth {
            let mut any = false;
            let calls: Vec<OpId> = cx.body.walk_preorder(root).into_iter().filter(|o| cx.body.name(*o).as_str() == "func.call").collect();
            for call in calls {
                if cx.body.is_erased(call) {
                    continue;
                }
                let Some(name) = callee_name(cx.body, call) else { continue };
                let Some(callee) = crate::symbols::lookup_symbol(cx.body, call, &name) else { continue };
                if cx.body.name(callee).as_str() != "func.func" || cx.body.is_ancestor(callee, call) || is_recursive(cx.body, callee) {
                    continue;
                }
                if inline_call(cx.body, call, callee) {
                    inlined += 1;
                    any = true;
                }
            }
            if !any {
                break;
            }
        }
        cx.stat("num-inlined", "Calls inlined", inlined);
        Ok(())
    }
}
