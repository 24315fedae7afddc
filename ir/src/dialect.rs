//! Declarative op definitions. A dialect is a table of [`OpDef`] rows: counts,
//! type and attribute constraints and traits are data that the generic verifier
//! checks; only what cannot be said as data is a function (extra verification,
//! folding, custom syntax). Most rows take a few lines thanks to `..OpDef::DEFAULT`.

use crate::asm::{OpParser, OpPrinter};
use crate::attributes::{AttrData, Attribute};
use crate::body::{Body, OpId, OperationState, Value};
use crate::context::Context;
use crate::location::Location;
use crate::parser::PResult;
use crate::types::{Type, TypeData};

/// How many operands, results, regions or successors an op takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    Exactly(usize),
    AtLeast(usize),
    Any,
}

impl Count {
    pub fn allows(self, n: usize) -> bool {
        match self {
            Count::Exactly(k) => n == k,
            Count::AtLeast(k) => n >= k,
            Count::Any => true,
        }
    }
    pub fn describe(self) -> String {
        match self {
            Count::Exactly(k) => format!("{}", k),
            Count::AtLeast(k) => format!("at least {}", k),
            Count::Any => "any number of".into(),
        }
    }
}

/// Properties of an op that the core understands (MLIR's traits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trait {
    /// No side effects: may be removed when unused, CSE'd, hoisted.
    Pure,
    Commutative,
    Idempotent,
    Involution,
    /// Must end its block.
    IsTerminator,
    /// Its regions' blocks need no terminator.
    NoTerminator,
    /// Returns control to the parent op (func.return, scf.yield).
    ReturnLike,
    SameOperandsAndResultType,
    SameTypeOperands,
    SameOperandsAndResultShape,
    /// Regions cannot see values defined outside.
    IsolatedFromAbove,
    /// Its region holds symbols whose names must be unique.
    SymbolTable,
    /// Has a `sym_name` string property.
    Symbol,
    /// Its regions are graph regions (no dominance requirement).
    GraphRegions,
    SingleBlock,
    ConstantLike,
    /// May only appear directly inside an op of this name.
    HasParent(&'static str),
}

/// A constraint on an operand or result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeConstraint {
    Any,
    /// Signless integer or index, or a tensor/vector of them.
    SignlessIntegerLike,
    /// Any float, or a tensor/vector of floats.
    FloatLike,
    /// `i1`, or a tensor/vector of `i1`.
    BoolLike,
    /// Signless integer, index or float, or a tensor/vector of them.
    IntOrFloatLike,
    Index,
}

impl TypeConstraint {
    pub fn accepts(self, t: &Type) -> bool {
        let s = match t.data() {
            TypeData::RankedTensor { elem, .. } | TypeData::UnrankedTensor { elem } | TypeData::Vector { elem, .. } => elem,
            _ => t,
        };
        match self {
            TypeConstraint::Any => true,
            TypeConstraint::SignlessIntegerLike => s.is_signless_integer() || s.is_index(),
            TypeConstraint::FloatLike => s.is_float(),
            TypeConstraint::BoolLike => matches!(s.data(), TypeData::Integer { width: 1, signedness: crate::Signedness::Signless }),
            TypeConstraint::IntOrFloatLike => s.is_signless_integer() || s.is_index() || s.is_float(),
            TypeConstraint::Index => t.is_index(),
        }
    }
    pub fn describe(self) -> &'static str {
        match self {
            TypeConstraint::Any => "any type",
            TypeConstraint::SignlessIntegerLike => "signless-integer-like",
            TypeConstraint::FloatLike => "floating-point-like",
            TypeConstraint::BoolLike => "bool-like",
            TypeConstraint::IntOrFloatLike => "signless-integer-or-float-like",
            TypeConstraint::Index => "index",
        }
    }
}

/// What kind of attribute a property or attribute must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrKind {
    Any,
    Integer,
    Float,
    String,
    Type,
    FunctionType,
    SymbolRef,
    Array,
    Dict,
    Unit,
    /// Integer, float or elements attribute whose type gives the op's result type.
    Typed,
}

impl AttrKind {
    pub fn accepts(self, a: &Attribute) -> bool {
        match (self, a.data()) {
            (AttrKind::Any, _) => true,
            (AttrKind::Integer, AttrData::Integer { .. }) => true,
            (AttrKind::Float, AttrData::Float { .. }) => true,
            (AttrKind::String, AttrData::String { .. }) => true,
            (AttrKind::Type, AttrData::Type(_)) => true,
            (AttrKind::FunctionType, AttrData::Type(t)) => t.function_parts().is_some(),
            (AttrKind::SymbolRef, AttrData::SymbolRef(_)) => true,
            (AttrKind::Array, AttrData::Array(_)) => true,
            (AttrKind::Dict, AttrData::Dict(_)) => true,
            (AttrKind::Unit, AttrData::Unit) => true,
            (AttrKind::Typed, AttrData::Integer { .. } | AttrData::Float { .. } | AttrData::Dense { .. } | AttrData::DenseResource { .. }) => true,
            _ => false,
        }
    }
    pub fn describe(self) -> &'static str {
        match self {
            AttrKind::Any => "any attribute",
            AttrKind::Integer => "an integer attribute",
            AttrKind::Float => "a float attribute",
            AttrKind::String => "a string attribute",
            AttrKind::Type => "a type attribute",
            AttrKind::FunctionType => "a function type attribute",
            AttrKind::SymbolRef => "a symbol reference attribute",
            AttrKind::Array => "an array attribute",
            AttrKind::Dict => "a dictionary attribute",
            AttrKind::Unit => "a unit attribute",
            AttrKind::Typed => "an integer, float or elements attribute",
        }
    }
}

/// One named attribute an op declares (an inherent property).
#[derive(Clone, Copy, Debug)]
pub struct AttrSpec {
    pub name: &'static str,
    pub kind: AttrKind,
    pub required: bool,
}

pub const fn required(name: &'static str, kind: AttrKind) -> AttrSpec {
    AttrSpec { name, kind, required: true }
}
pub const fn optional(name: &'static str, kind: AttrKind) -> AttrSpec {
    AttrSpec { name, kind, required: false }
}

/// What a folder returns for one result: a constant or an existing value.
#[derive(Clone, Debug)]
pub enum FoldResult {
    Attr(Attribute),
    Value(Value),
}

/// What a folder sees: the op, and for each operand the constant it is, if any.
pub struct FoldInput<'a> {
    pub ctx: &'a Context,
    pub body: &'a Body,
    pub op: OpId,
    pub constants: &'a [Option<Attribute>],
}

pub type VerifyFn = fn(&Context, &Body, OpId) -> Result<(), String>;
pub type FoldFn = fn(&FoldInput) -> Option<Vec<FoldResult>>;

/// A custom textual form (MLIR's assembly format): both directions together.
#[derive(Clone, Copy)]
pub struct Assembly {
    pub print: fn(&mut OpPrinter, OpId),
    pub parse: fn(&mut OpParser, OperationState) -> PResult<OperationState>,
}

/// The definition of one operation.
pub struct OpDef {
    pub name: &'static str,
    pub summary: &'static str,
    pub operands: Count,
    pub results: Count,
    pub regions: Count,
    pub successors: Count,
    pub traits: &'static [Trait],
    /// Per operand position; the last entry covers the rest. Empty: no constraint.
    pub operand_types: &'static [TypeConstraint],
    pub result_types: &'static [TypeConstraint],
    pub properties: &'static [AttrSpec],
    pub verify: Option<VerifyFn>,
    pub fold: Option<FoldFn>,
    /// Adds this op's canonicalization patterns (used by `canonicalize`).
    pub canonicalize: Option<fn(&mut crate::rewrite::PatternSet)>,
    pub assembly: Option<Assembly>,
    /// Dialect name used to resolve unprefixed op names inside this op's regions.
    pub default_dialect: Option<&'static str>,
}

impl OpDef {
    pub const DEFAULT: OpDef = OpDef {
        name: "",
        summary: "",
        operands: Count::Exactly(0),
        results: Count::Exactly(0),
        regions: Count::Exactly(0),
        successors: Count::Exactly(0),
        traits: &[],
        operand_types: &[],
        result_types: &[],
        properties: &[],
        verify: None,
        fold: None,
        canonicalize: None,
        assembly: None,
        default_dialect: None,
    };
    /// The same row with canonicalization patterns (for table rows built by helpers).
    pub const fn with_canonicalize(self, f: fn(&mut crate::rewrite::PatternSet)) -> OpDef {
        OpDef { canonicalize: Some(f), ..self }
    }
    pub fn has_trait(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }
}

/// Builds the op a dialect uses to hold a constant (for folding).
pub type MaterializeFn = fn(&Context, &mut Body, &Attribute, &Type, Location) -> Option<OpId>;

/// A dialect: its name, its op table and its constant materializer.
pub struct DialectDef {
    pub name: &'static str,
    pub ops: &'static [OpDef],
    pub materialize_constant: Option<MaterializeFn>,
}
