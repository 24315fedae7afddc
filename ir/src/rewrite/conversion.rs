//! Dialect conversion: rewrite every illegal op with conversion patterns until
//! the IR is legal for a [`ConversionTarget`]. Values whose types change are
//! bridged by materializations (casts) that a [`TypeConverter`] builds, or
//! `builtin.unrealized_conversion_cast` by default; casts that cancel are
//! removed at the end. A failed conversion reports every op that could not be
//! legalized, at its location, and leaves the input unchanged.

use super::greedy::is_trivially_dead;
use super::pattern::PatternSet;
use super::rewriter::Rewriter;
use crate::body::{Body, InsertPoint, OpId, Value};
use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::location::Location;
use crate::types::Type;
use std::collections::HashMap;

/// What the target says of an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legality {
    Legal,
    Illegal,
    /// Neither said: illegal for a full conversion, left alone by a partial one.
    Unknown,
}

type DynamicCheck = Box<dyn Fn(&Context, &Body, OpId) -> bool + Send + Sync>;

/// Which ops may remain after conversion.
#[derive(Default)]
pub struct ConversionTarget {
    legal_dialects: Vec<String>,
    illegal_dialects: Vec<String>,
    legal_ops: Vec<String>,
    illegal_ops: Vec<String>,
    dynamic: HashMap<String, DynamicCheck>,
}

impl ConversionTarget {
    pub fn new() -> ConversionTarget {
        ConversionTarget::default()
    }
    pub fn add_legal_dialect(&mut self, d: &str) -> &mut Self {
        self.legal_dialects.push(d.into());
        self
    }
    pub fn add_illegal_dialect(&mut self, d: &str) -> &mut Self {
        self.illegal_dialects.push(d.into());
        self
    }
    pub fn add_legal_op(&mut self, op: &str) -> &mut Self {
        self.legal_ops.push(op.into());
        self
    }
    pub fn add_illegal_op(&mut self, op: &str) -> &mut Self {
        self.illegal_ops.push(op.into());
        self
    }
    /// `op` is legal exactly when `check` says so.
    pub fn add_dynamically_legal_op(&mut self, op: &str, check: impl Fn(&Context, &Body, OpId) -> bool + Send + Sync + 'static) -> &mut Self {
        self.dynamic.insert(op.into(), Box::new(check));
        self
    }
    /// Op rules win over dialect rules; dynamic rules win over both.
    pub fn legality(&self, ctx: &Context, body: &Body, op: OpId) -> Legality {
        let name = body.name(op);
        if let Some(f) = self.dynamic.get(name.as_str()) {
            return if f(ctx, body, op) { Legality::Legal } else { Legality::Illegal };
        }
        if self.legal_ops.iter().any(|o| o == name.as_str()) {
            return Legality::Legal;
        }
        if self.illegal_ops.iter().any(|o| o == name.as_str()) {
            return Legality::Illegal;
        }
        if self.legal_dialects.iter().any(|d| d == name.dialect()) {
            return Legality::Legal;
        }
        if self.illegal_dialects.iter().any(|d| d == name.dialect()) {
            return Legality::Illegal;
        }
        Legality::Unknown
    }
}

type Conversion = Box<dyn Fn(&Context, &Type) -> Option<Type> + Send + Sync>;
type Materialization = Box<dyn Fn(&Context, &mut Body, Value, &Type, InsertPoint, Location) -> Option<Value> + Send + Sync>;

/// Maps types to legal types; builds the casts between old and new values.
#[derive(Default)]
pub struct TypeConverter {
    conversions: Vec<Conversion>,
    /// new type → old type, for users not yet converted.
    source: Option<Materialization>,
    /// old type → new type, for operands of converted ops.
    target: Option<Materialization>,
}

impl TypeConverter {
    pub fn new() -> TypeConverter {
        TypeConverter::default()
    }
    /// Adds a conversion; the most recently added one is tried first. A type no
    /// conversion accepts is illegal.
    pub fn add_conversion(&mut self, f: impl Fn(&Context, &Type) -> Option<Type> + Send + Sync + 'static) -> &mut Self {
        self.conversions.insert(0, Box::new(f));
        self
    }
    pub fn set_source_materialization(
        &mut self,
        f: impl Fn(&Context, &mut Body, Value, &Type, InsertPoint, Location) -> Option<Value> + Send + Sync + 'static,
    ) -> &mut Self {
        self.source = Some(Box::new(f));
        self
    }
    pub fn set_target_materialization(
        &mut self,
        f: impl Fn(&Context, &mut Body, Value, &Type, InsertPoint, Location) -> Option<Value> + Send + Sync + 'static,
    ) -> &mut Self {
        self.target = Some(Box::new(f));
        self
    }
    pub fn convert(&self, ctx: &Context, t: &Type) -> Option<Type> {
        self.conversions.iter().find_map(|f| f(ctx, t))
    }
    pub fn is_legal(&self, ctx: &Context, t: &Type) -> bool {
        self.convert(ctx, t).as_ref() == Some(t)
    }
    /// A cast of `v` to `to`: the target materialization when `to` is the
    /// converted type of `v`'s type, else the source materialization.
    pub(crate) fn materialize(&self, ctx: &Context, body: &mut Body, v: Value, to: &Type, at: InsertPoint, loc: Location) -> Option<Value> {
        let from = body.value_type(v).clone();
        let towards_legal = self.convert(ctx, &from).as_ref() == Some(to);
        let f = if towards_legal { self.target.as_ref() } else { self.source.as_ref() }?;
        f(ctx, body, v, to, at, loc)
    }
}

/// Converts what is under `root`; only ops the target calls illegal must be converted.
pub fn apply_partial_conversion(
    ctx: &Context,
    body: &mut Body,
    root: OpId,
    target: &ConversionTarget,
    patterns: &PatternSet,
    types: Option<&TypeConverter>,
) -> Result<(), Vec<Diagnostic>> {
    convert(ctx, body, root, target, patterns, types, false)
}

/// Converts what is under `root`; every op must end up legal.
pub fn apply_full_conversion(
    ctx: &Context,
    body: &mut Body,
    root: OpId,
    target: &ConversionTarget,
    patterns: &PatternSet,
    types: Option<&TypeConverter>,
) -> Result<(), Vec<Diagnostic>> {
    convert(ctx, body, root, target, patterns, types, true)
}

fn needs_conversion(l: Legality, full: bool) -> bool {
    l == Legality::Illegal || (full && l == Legality::Unknown)
}

fn is_cast(body: &Body, op: OpId) -> bool {
    body.name(op).as_str() == "builtin.unrealized_conversion_cast"
}

fn convert(
    ctx: &Context,
    body: &mut Body,
    root: OpId,
    target: &ConversionTarget,
    patterns: &PatternSet,
    types: Option<&TypeConverter>,
    full: bool,
) -> Result<(), Vec<Diagnostic>> {
    // A copy to restore from: the input is left as it was when conversion fails.
    let mut map = HashMap::new();
    let backup = body.clone_op(root, &mut map);
    let mut failed: Vec<Diagnostic> = vec![];
    let ops: Vec<OpId> = body.walk_preorder(root).into_iter().skip(1).collect();
    for op in ops {
        if body.is_erased(op) || is_cast(body, op) || !needs_conversion(target.legality(ctx, body, op), full) {
            continue;
        }
        let name = body.name(op);
        let mut done = false;
        for p in patterns.for_op(name.as_str()) {
            let mut rw = Rewriter::new(ctx, body);
            rw.converter = types;
            rw.set_insertion_point(InsertPoint::Before(op));
            if p.match_and_rewrite(op, &mut rw).is_ok() {
                done = true;
                break;
            }
        }
        if !done {
            failed.push(Diagnostic::error(body.op(op).loc.clone(), format!("failed to legalize operation '{}'", name)));
        }
    }
    cleanup_casts(body, root);
    if failed.is_empty() {
        // What patterns created must be legal too; casts left over mean a type was not bridged.
        for op in body.walk_preorder(root).into_iter().skip(1) {
            if is_cast(body, op) && full {
                let d = body.op(op);
                let (from, to) = (body.value_type(d.operand(0)), body.value_type(d.result(0)));
                failed.push(Diagnostic::error(
                    d.loc.clone(),
                    format!("failed to legalize unresolved materialization from '{}' to '{}' that remained live after conversion", from, to),
                ));
            } else if !is_cast(body, op) && needs_conversion(target.legality(ctx, body, op), full) {
                failed.push(Diagnostic::error(body.op(op).loc.clone(), format!("failed to legalize operation '{}'", body.name(op))));
            }
        }
    }
    if failed.is_empty() {
        body.erase(backup);
        return Ok(());
    }
    restore(body, root, backup);
    Err(failed)
}

/// Removes cast chains that return to the original type and casts nobody uses.
fn cleanup_casts(body: &mut Body, root: OpId) {
    loop {
        let mut changed = false;
        for op in body.walk_postorder(root) {
            if body.is_erased(op) || op == root || !is_cast(body, op) {
                continue;
            }
            let r = body.op(op).result(0);
            if !body.has_uses(r) {
                body.erase(op);
                changed = true;
                continue;
            }
            let src = body.op(op).operand(0);
            if let Some(inner) = body.defining_op(src).filter(|d| is_cast(body, *d)) {
                let orig = body.op(inner).operand(0);
                if body.value_type(orig) == body.value_type(r) {
                    body.replace_all_uses(r, orig);
                    body.erase(op);
                    if !body.has_uses(src) {
                        body.erase(inner);
                    }
                    changed = true;
                }
            }
        }
        // Ops made dead by the conversion (e.g. a pattern that left an unused op) stay: that is the pattern's business.
        let _ = is_trivially_dead;
        if !changed {
            return;
        }
    }
}

/// Puts `backup`'s contents back into `root` and drops `backup`.
fn restore(body: &mut Body, root: OpId, backup: OpId) {
    let regions = body.op(root).regions().to_vec();
    let saved = body.op(backup).regions().to_vec();
    for (r, s) in regions.iter().zip(&saved) {
        body.erase_region_contents(*r);
        for b in body.region_blocks(*s).to_vec() {
            body.remove_block(b);
            body.append_block(*r, b);
        }
    }
    let (props, attrs) = (body.op(backup).properties.clone(), body.op(backup).attributes.clone());
    body.op_mut(root).properties = props;
    body.op_mut(root).attributes = attrs;
    body.erase(backup);
}
