//! The verifier: structure (terminators, successors, dominance, isolation,
//! symbol tables) and each registered op's declared constraints and checks.
//! It collects every error rather than stopping at the first.

use crate::body::{Block, Body, OpId, Region, Value, ValueDef};
use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::dialect::{Count, OpDef, Trait};
use crate::dominance::DominanceInfo;
use std::collections::HashMap;

/// Verifies `op` and everything nested in it.
pub fn verify(ctx: &Context, body: &Body, op: OpId) -> Result<(), Vec<Diagnostic>> {
    let mut v = Verifier { ctx, body, errors: vec![], pos: vec![u32::MAX; body.op_capacity()], dom: HashMap::new() };
    v.number_positions(op);
    v.verify_op(op);
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

struct Verifier<'a> {
    ctx: &'a Context,
    body: &'a Body,
    errors: Vec<Diagnostic>,
    /// Position of each op inside its block, for same-block dominance.
    pos: Vec<u32>,
    dom: HashMap<Region, DominanceInfo>,
}

fn op_error(body: &Body, op: OpId, msg: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(body.op(op).loc.clone(), format!("'{}' op {}", body.name(op), msg))
}

impl<'a> Verifier<'a> {
    fn number_positions(&mut self, op: OpId) {
        for &r in self.body.op(op).regions() {
            for &b in self.body.region_blocks(r) {
                for (i, o) in self.body.block_ops(b).enumerate() {
                    self.pos[o.index()] = i as u32;
                    self.number_positions(o);
                }
            }
        }
    }

    fn err(&mut self, op: OpId, msg: impl std::fmt::Display) {
        self.errors.push(op_error(self.body, op, msg));
    }

    fn verify_op(&mut self, op: OpId) {
        let before = self.errors.len();
        if let Some(def) = self.body.name(op).def() {
            self.verify_declared(op, def);
        }
        self.verify_operands_dominate(op);
        // Successors live in the same region as the op's block.
        let d = self.body.op(op);
        if !d.successors().is_empty() {
            let region = d.parent_block().and_then(|b| self.body.block_parent(b));
            for (i, s) in d.successors().iter().enumerate() {
                if self.body.block_parent(*s) != region || region.is_none() {
                    self.err(op, format!("successor #{} refers to a block defined in another region", i));
                }
            }
            if d.parent_block().is_some() && self.body.next_op(op).is_some() {
                self.err(op, "with successors must be the last operation in its block");
            }
        }
        if self.errors.len() == before {
            if let Some(f) = self.body.name(op).def().and_then(|d| d.verify) {
                if let Err(m) = f(self.ctx, self.body, op) {
                    self.err(op, m);
                }
            }
        }
        for &r in self.body.op(op).regions().to_vec().iter() {
            for &b in self.body.region_blocks(r) {
                let ops: Vec<OpId> = self.body.block_ops(b).collect();
                for o in ops {
                    self.verify_op(o);
                }
            }
        }
    }

    fn verify_declared(&mut self, op: OpId, def: &OpDef) {
        let d = self.body.op(op);
        let plural = |n: &Count, what: &str| format!("{} {}", n.describe(), what);
        let counts = [
            (def.operands, d.operands().len(), "operands"),
            (def.results, d.results().len(), "results"),
            (def.regions, d.regions().len(), "regions"),
            (def.successors, d.successors().len(), "successors"),
        ];
        let mut bad_count = false;
        for (c, n, what) in counts {
            if !c.allows(n) {
                self.err(op, format!("requires {}, but found {}", plural(&c, what), n));
                bad_count = true;
            }
        }
        if bad_count {
            return;
        }
        // Type constraints.
        let d = self.body.op(op);
        for (i, v) in d.operands().iter().enumerate() {
            if let Some(c) = def.operand_types.get(i).or(def.operand_types.last()) {
                let t = self.body.value_type(*v);
                if !c.accepts(t) {
                    self.err(op, format!("operand #{} must be {}, but got '{}'", i, c.describe(), t));
                    return;
                }
            }
        }
        for (i, v) in d.results().iter().enumerate() {
            if let Some(c) = def.result_types.get(i).or(def.result_types.last()) {
                let t = self.body.value_type(*v);
                if !c.accepts(t) {
                    self.err(op, format!("result #{} must be {}, but got '{}'", i, c.describe(), t));
                    return;
                }
            }
        }
        // Properties.
        for spec in def.properties {
            match d.properties.get(spec.name) {
                None if spec.required => self.err(op, format!("requires attribute '{}'", spec.name)),
                Some(a) if !spec.kind.accepts(a) => {
                    self.err(op, format!("attribute '{}' failed to satisfy constraint: {}", spec.name, spec.kind.describe()))
                }
                _ => {}
            }
        }
        for t in def.traits {
            self.verify_trait(op, *t);
        }
        if !def.has_trait(Trait::NoTerminator) && !def.has_trait(Trait::GraphRegions) {
            for &r in d.regions() {
                for &b in self.body.region_blocks(r) {
                    self.verify_terminator(op, b);
                }
            }
        }
    }

    fn verify_terminator(&mut self, op: OpId, b: Block) {
        match self.body.last_op(b) {
            None => self.err(op, "empty block: expect at least a terminator"),
            Some(last) => {
                let name = self.body.name(last);
                if let Some(def) = name.def() {
                    if !def.has_trait(Trait::IsTerminator) {
                        self.errors.push(
                            op_error(self.body, op, "block must end with a terminator operation")
                                .with_note(self.body.op(last).loc.clone(), format!("last operation is '{}'", name)),
                        );
                    }
                }
            }
        }
    }

    fn verify_trait(&mut self, op: OpId, t: Trait) {
        let body = self.body;
        let d = body.op(op);
        let ty = |v: &Value| body.value_type(*v);
        match t {
            Trait::SameOperandsAndResultType => {
                let mut all = d.operands().iter().chain(d.results());
                if let Some(first) = all.next() {
                    if all.any(|v| ty(v) != ty(first)) {
                        self.err(op, "requires the same type for all operands and results");
                    }
                }
            }
            Trait::SameTypeOperands => {
                if let Some(first) = d.operands().first() {
                    if d.operands().iter().any(|v| ty(v) != ty(first)) {
                        self.err(op, "requires all operands to have the same type");
                    }
                }
            }
            Trait::SameOperandsAndResultShape => {
                let shape = |v: &Value| ty(v).shape().map(|s| s.to_vec());
                let mut all = d.operands().iter().chain(d.results());
                if let Some(first) = all.next() {
                    if all.any(|v| shape(v) != shape(first)) {
                        self.err(op, "requires the same shape for all operands and results");
                    }
                }
            }
            Trait::IsTerminator => {
                if d.parent_block().is_some() && body.next_op(op).is_some() {
                    self.err(op, "must be the last operation in the parent block");
                }
            }
            Trait::HasParent(p) => {
                let parent = body.parent_op(op);
                if parent.map(|x| body.name(x).as_str()) != Some(p) {
                    self.err(op, format!("expects parent op '{}'", p));
                }
            }
            Trait::Symbol => {
                // An op that declares `sym_name` as a property is already checked by its spec.
                let declared = d.name.def().is_some_and(|x| x.properties.iter().any(|p| p.name == "sym_name"));
                if !declared && d.properties.get("sym_name").and_then(|a| a.as_str()).is_none() {
                    self.err(op, "requires string attribute 'sym_name'");
                }
                // The custom forms print the visibility as a keyword: only these parse back.
                if let Some(v) = d.properties.get("sym_visibility") {
                    if !matches!(v.as_str(), Some("public" | "private" | "nested")) {
                        self.err(op, format!("visibility expected to be one of [\"public\", \"private\", \"nested\"], but got {}", v));
                    }
                }
            }
            Trait::SingleBlock => {
                for (i, r) in d.regions().iter().enumerate() {
                    if body.region_blocks(*r).len() > 1 {
                        self.err(op, format!("expects region #{} to have 0 or 1 blocks", i));
                    }
                }
            }
            Trait::SymbolTable => self.verify_symbol_table(op),
            _ => {}
        }
    }

    fn verify_symbol_table(&mut self, op: OpId) {
        let body = self.body;
        let mut seen: HashMap<&str, OpId> = HashMap::new();
        for &r in body.op(op).regions() {
            for &b in body.region_blocks(r) {
                for o in body.block_ops(b) {
                    let Some(name) = body.op(o).properties.get("sym_name").and_then(|a| a.as_str()) else { continue };
                    if let Some(prev) = seen.insert(name, o) {
                        self.errors.push(
                            Diagnostic::error(body.op(o).loc.clone(), format!("redefinition of symbol named '{}'", name))
                                .with_note(body.op(prev).loc.clone(), "see existing symbol definition here"),
                        );
                    }
                }
            }
        }
    }

    fn is_graph_region(&self, r: Region) -> bool {
        self.body
            .region_parent(r)
            .and_then(|p| self.body.name(p).def())
            .is_some_and(|d| d.has_trait(Trait::GraphRegions))
    }

    fn verify_operands_dominate(&mut self, op: OpId) {
        let body = self.body;
        let operands: Vec<Value> = body.op(op).operands().to_vec();
        for (i, v) in operands.into_iter().enumerate() {
            if let Some(msg) = self.dominance_problem(op, v) {
                let def_loc = match body.value_def(v) {
                    ValueDef::OpResult { op: d, .. } => Some(body.op(d).loc.clone()),
                    ValueDef::BlockArg { .. } => body.value_loc(v).cloned(),
                };
                let mut diag = op_error(body, op, format!("operand #{} {}", i, msg.0));
                if let Some(l) = def_loc {
                    diag = diag.with_note(l, msg.1);
                }
                self.errors.push(diag);
            }
        }
    }

    /// Why `v` may not be used by `user`, if it may not.
    fn dominance_problem(&mut self, user: OpId, v: Value) -> Option<(&'static str, &'static str)> {
        let body = self.body;
        let def_block = match body.value_block(v) {
            Some(b) if body.block_parent(b).is_some() => b,
            _ => return Some(("does not dominate this use", "operand defined here")),
        };
        let def_region = body.block_parent(def_block)?;
        let def_op = body.defining_op(v);
        // Walk up from the user to the op whose block lies in the defining region.
        let mut anc = user;
        loop {
            let Some(b) = body.op(anc).parent_block() else {
                return Some(("does not dominate this use", "operand defined here"));
            };
            let Some(r) = body.block_parent(b) else {
                return Some(("does not dominate this use", "operand defined here"));
            };
            if r == def_region {
                break;
            }
            let Some(parent) = body.region_parent(r) else {
                return Some(("does not dominate this use", "operand defined here"));
            };
            if body.name(parent).def().is_some_and(|d| d.has_trait(Trait::IsolatedFromAbove)) {
                return Some(("is used in a region isolated from above but defined outside it", "operand defined here"));
            }
            anc = parent;
        }
        if Some(anc) == def_op {
            return Some(("does not dominate this use", "operand defined here"));
        }
        if self.is_graph_region(def_region) {
            return None;
        }
        let anc_block = body.op(anc).parent_block()?;
        if anc_block == def_block {
            return match def_op {
                Some(d) if self.pos[d.index()] >= self.pos[anc.index()] => Some(("does not dominate this use", "operand defined here")),
                _ => None,
            };
        }
        let dom = self.dom.entry(def_region).or_insert_with(|| DominanceInfo::new(body, def_region));
        if dom.dominates(def_block, anc_block) {
            None
        } else {
            Some(("does not dominate this use", "operand defined here"))
        }
    }
}
