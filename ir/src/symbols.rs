//! Symbol tables: the nearest enclosing op with the `SymbolTable` trait and
//! lookups of `sym_name`s in it.

use crate::body::{Body, OpId};
use crate::dialect::Trait;

/// The nearest ancestor of `op` (excluding itself) that is a symbol table.
pub fn nearest_symbol_table(body: &Body, op: OpId) -> Option<OpId> {
    let mut cur = body.parent_op(op);
    while let Some(c) = cur {
        if body.name(c).def().is_some_and(|d| d.has_trait(Trait::SymbolTable)) {
            return Some(c);
        }
        cur = body.parent_op(c);
    }
    None
}

/// The op named `name` directly inside symbol table `table`.
pub fn lookup_symbol_in(body: &Body, table: OpId, name: &str) -> Option<OpId> {
    let r = *body.op(table).regions().first()?;
    body.region_blocks(r)
        .iter()
        .flat_map(|b| body.block_ops(*b))
        .find(|o| body.op(*o).properties.get("sym_name").and_then(|a| a.as_str()) == Some(name))
}

/// Resolves a flat symbol reference from `from`, searching enclosing tables outward.
pub fn lookup_symbol(body: &Body, from: OpId, name: &str) -> Option<OpId> {
    let mut t = nearest_symbol_table(body, from);
    while let Some(table) = t {
        if let Some(o) = lookup_symbol_in(body, table, name) {
            return Some(o);
        }
        t = nearest_symbol_table(body, table);
    }
    None
}
