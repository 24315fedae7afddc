//! Pattern rewriting, as MLIR's: [`RewritePattern`]s with a root op and a
//! benefit, a [`Rewriter`] that is the only way patterns change IR (so drivers
//! can track what changed), a greedy driver with folding and dead-code removal,
//! and dialect conversion with a conversion target and a type converter.

mod conversion;
mod folder;
mod greedy;
mod pattern;
mod rewriter;

pub use conversion::{apply_full_conversion, apply_partial_conversion, ConversionTarget, Legality, TypeConverter};
pub use folder::{constant_value, OperationFolder};
pub use greedy::{apply_patterns_greedily, is_trivially_dead as is_trivially_dead_op, GreedyConfig, GreedyResult};
pub use pattern::{FnPattern, MatchFailure, PatternSet, RewriteFn, RewritePattern};
pub use rewriter::Rewriter;
