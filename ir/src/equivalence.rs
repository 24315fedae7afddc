//! Structural equivalence of two operations, possibly in different arenas:
//! same names, types, attributes, locations (optionally), region and block
//! structure, and operands that correspond value for value. Used to check
//! that `parse(print(x)) == x`.

use crate::body::{Block, Body, OpId, Value};
use std::collections::HashMap;

/// `Ok(())` when equivalent, else the first difference found.
pub fn check_equivalent(a: &Body, ao: OpId, b: &Body, bo: OpId, compare_locations: bool) -> Result<(), String> {
    let mut eq = Eq { a, b, values: HashMap::new(), blocks: HashMap::new(), locs: compare_locations };
    eq.op(ao, bo)
}

struct Eq<'a> {
    a: &'a Body,
    b: &'a Body,
    values: HashMap<Value, Value>,
    blocks: HashMap<Block, Block>,
    locs: bool,
}

impl Eq<'_> {
    fn bind(&mut self, x: Value, y: Value) -> Result<(), String> {
        if self.a.value_type(x) != self.b.value_type(y) {
            return Err(format!("value types differ: '{}' vs '{}'", self.a.value_type(x), self.b.value_type(y)));
        }
        self.values.insert(x, y);
        Ok(())
    }

    fn op(&mut self, x: OpId, y: OpId) -> Result<(), String> {
        let (dx, dy) = (self.a.op(x), self.b.op(y));
        let name = dx.name.as_str();
        if name != dy.name.as_str() {
            return Err(format!("op names differ: '{}' vs '{}'", name, dy.name));
        }
        if dx.properties != dy.properties {
            return Err(format!("'{}': properties differ", name));
        }
        if dx.attributes != dy.attributes {
            return Err(format!("'{}': attributes differ", name));
        }
        if self.locs && dx.loc != dy.loc {
            return Err(format!("'{}': locations differ: {} vs {}", name, dx.loc, dy.loc));
        }
        if dx.operands().len() != dy.operands().len() || dx.results().len() != dy.results().len() {
            return Err(format!("'{}': operand or result counts differ", name));
        }
        for (i, (p, q)) in dx.operands().iter().zip(dy.operands()).enumerate() {
            // Operands defined later (graph regions, forward branches) are checked when bound.
            match self.values.get(p) {
                Some(m) if m != q => return Err(format!("'{}': operand #{} refers to a different value", name, i)),
                None => self.bind(*p, *q)?,
                _ => {}
            }
        }
        for (p, q) in dx.results().iter().zip(dy.results()) {
            if let Some(m) = self.values.get(p) {
                if m != q {
                    return Err(format!("'{}': a result is used before its definition inconsistently", name));
                }
            }
            self.bind(*p, *q)?;
        }
        if dx.successors().len() != dy.successors().len() || dx.regions().len() != dy.regions().len() {
            return Err(format!("'{}': successor or region counts differ", name));
        }
        for (p, q) in dx.successors().iter().zip(dy.successors()) {
            match self.blocks.get(p) {
                Some(m) if m != q => return Err(format!("'{}': successors differ", name)),
                None => {
                    self.blocks.insert(*p, *q);
                }
                _ => {}
            }
        }
        for (rp, rq) in dx.regions().iter().zip(dy.regions()) {
            let (bp, bq) = (self.a.region_blocks(*rp), self.b.region_blocks(*rq));
            if bp.len() != bq.len() {
                return Err(format!("'{}': regions have {} vs {} blocks", name, bp.len(), bq.len()));
            }
            for (p, q) in bp.iter().zip(bq) {
                if let Some(m) = self.blocks.get(p) {
                    if m != q {
                        return Err(format!("'{}': block order differs", name));
                    }
                }
                self.blocks.insert(*p, *q);
                let (ap, aq) = (self.a.block_args(*p), self.b.block_args(*q));
                if ap.len() != aq.len() {
                    return Err(format!("'{}': block argument counts differ", name));
                }
                for (u, v) in ap.to_vec().into_iter().zip(aq.to_vec()) {
                    self.bind(u, v)?;
                    if self.locs && self.a.value_loc(u) != self.b.value_loc(v) {
                        return Err(format!("'{}': block argument locations differ", name));
                    }
                }
                let (op, oq): (Vec<OpId>, Vec<OpId>) = (self.a.block_ops(*p).collect(), self.b.block_ops(*q).collect());
                if op.len() != oq.len() {
                    return Err(format!("'{}': blocks have {} vs {} ops", name, op.len(), oq.len()));
                }
                for (u, v) in op.into_iter().zip(oq) {
                    self.op(u, v)?;
                }
            }
        }
        Ok(())
    }
}
