//! `symbol-dce`: in every symbol table, erases private symbols that no public
//! symbol (or non-symbol op) reaches through symbol references.

use crate::attributes::{AttrData, Attribute};
use crate::dialect::Trait;
use crate::pass::{Pass, PassContext};
use crate::{Body, OpId};
use std::collections::{HashMap, HashSet};

pub struct SymbolDce;

fn refs_in_attr(a: &Attribute, out: &mut Vec<String>) {
    match a.data() {
        AttrData::SymbolRef(parts) => out.push(parts[0].clone()),
        AttrData::Array(xs) => xs.iter().for_each(|x| refs_in_attr(x, out)),
        AttrData::Dict(d) => d.iter().for_each(|(_, x)| refs_in_attr(x, out)),
        _ => {}
    }
}

/// Symbol names referenced anywhere under `op` (itself included).
fn refs_under(body: &Body, op: OpId) -> Vec<String> {
    let mut out = vec![];
    body.walk(op, &mut |o| {
        let d = body.op(o);
        for (_, a) in d.properties.iter().chain(d.attributes.iter()) {
            refs_in_attr(a, &mut out);
        }
    });
    out
}

fn sym_name(body: &Body, op: OpId) -> Option<String> {
    body.op(op).properties.get("sym_name").and_then(|a| a.as_str()).map(|s| s.to_string())
}

fn is_private(body: &Body, op: OpId) -> bool {
    matches!(body.op(op).properties.get("sym_visibility").and_then(|a| a.as_str()), Some("private") | Some("nested"))
}

impl Pass for SymbolDce {
    fn argument(&self) -> &'static str {
        "symbol-dce"
    }
    fn display_name(&self) -> &'static str {
        "SymbolDCE"
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let tables: Vec<OpId> = cx
            .body
            .walk_postorder(root)
            .into_iter()
            .filter(|o| cx.body.name(*o).def().is_some_and(|d| d.has_trait(Trait::SymbolTable)))
            .collect();
        let mut erased = 0;
        for t in tables {
            if cx.body.is_erased(t) {
                continue;
            }
            let body = &*cx.body;
            let children: Vec<OpId> = body.op(t).regions().iter().flat_map(|r| body.region_blocks(*r).to_vec()).flat_map(|b| body.block_ops(b).collect::<Vec<_>>()).collect();
            let by_name: HashMap<String, OpId> = children.iter().filter_map(|o| sym_name(body, *o).map(|n| (n, *o))).collect();
            // Roots: public symbols and every non-symbol op of the table.
            let mut live: HashSet<OpId> = HashSet::new();
            let mut stack: Vec<OpId> = children.iter().copied().filter(|o| sym_name(body, *o).is_none() || !is_private(body, *o)).collect();
            // Uses from outside this table (an enclosing table's ops) keep symbols alive too.
            if let Some(outer) = crate::symbols::nearest_symbol_table(body, t) {
                let _ = outer;
                stack.extend(children.iter().copied().filter(|o| !is_private(body, *o)));
            }
            while let Some(o) = stack.pop() {
                if !live.insert(o) {
                    continue;
                }
                for r in refs_under(body, o) {
                    if let Some(&s) = by_name.get(&r) {
                        stack.push(s);
                    }
                }
            }
            let dead: Vec<OpId> = children.into_iter().filter(|o| !live.contains(o)).collect();
            for d in dead {
                cx.body.erase(d);
                erased += 1;
            }
        }
        cx.stat("num-dce'd", "Number of symbols DCE'd", erased);
        Ok(())
    }
}
