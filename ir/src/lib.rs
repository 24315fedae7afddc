//! The framework core, shaped after MLIR: a [`Context`] (shared, `Sync`) holds
//! the dialect registry and interned names and types; a [`Body`] is the arena
//! that owns one top-level operation with everything nested in it.
//!
//! Threading: `Context` is `Sync` and every [`Type`], [`Attribute`] and
//! [`Location`] is an immutable `Arc`-shared value, so several threads may read
//! and create them at once. A `Body` is `Send`; passes on different functions can
//! run in parallel by moving each function into a `Body` of its own
//! ([`Body::extract_op`] / [`Body::adopt_op`]) and back.

pub mod affine;
pub mod asm;
pub mod attributes;
pub mod body;
pub mod builder;
pub mod builtin;
pub mod context;
pub mod diagnostics;
pub mod dialect;
pub mod dominance;
pub mod equivalence;
pub mod expected;
pub mod float;
pub mod function_like;
pub mod lexer;
pub mod location;
pub mod parser;
pub mod pass;
pub mod printer;
pub mod rewrite;
pub mod split;
pub mod symbols;
pub mod transforms;
pub mod typed_ops;
pub mod types;
pub mod verifier;

pub use affine::{AffineExpr, AffineMap};
pub use attributes::{AttrDict, Attribute, AttrData, DenseData, Resource};
pub use body::{Block, Body, InsertPoint, OpId, OperationState, Region, Value, ValueDef};
pub use builder::OpBuilder;
pub use context::{Context, Ident, OpName};
pub use diagnostics::{Diagnostic, Severity};
pub use dialect::{Count, OpDef, Trait, TypeConstraint};
pub use location::Location;
pub use types::{FloatKind, Signedness, Type, TypeData, DYNAMIC};
