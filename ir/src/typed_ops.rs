//! Typed ops for the dialects whose ops are not generated from a schema
//! (ONNX's are: `onnx::ops::X`), as MLIR's ODS makes an op class from an op
//! definition. One line of [`typed_ops!`] per op gives its name constant and
//! a view struct: its operands, results and regions by name, its attributes
//! by type, and a builder taking the operands by name. Passes match, read and
//! build ops through them, so a misspelt op or operand fails to compile
//! rather than to match; [`check`] holds a dialect's lines to its op table
//! (names, operand, result and region counts, attribute names).

use crate::dialect::{Count, DialectDef};

/// How many of one kind of entity (operands, results, regions) an op has:
/// `fixed` named ones, then a variadic rest when `variadic`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arity {
    pub fixed: usize,
    pub variadic: bool,
}

impl Arity {
    /// Whether this arity declares the op table's count: `Exactly(n)` is `n`
    /// named; `AtLeast(n)` (`Any` is `AtLeast(0)`) a variadic rest after
    /// `n` named, or a rest alone (holding required ones too: a
    /// `scf.parallel`'s segments, a `tensor.concat`'s inputs).
    pub fn matches(self, c: Count) -> bool {
        match c {
            Count::Exactly(n) => !self.variadic && self.fixed == n,
            Count::AtLeast(n) => self.variadic && (self.fixed == n || self.fixed == 0),
            Count::Any => self.variadic && self.fixed == 0,
        }
    }
}

/// What one [`typed_ops!`] line declares of an op, for [`check`].
#[derive(Clone, Copy, Debug)]
pub struct Signature {
    pub name: &'static str,
    pub operands: Arity,
    pub results: Arity,
    pub regions: Arity,
    /// The attributes it has getters for (each one of the op's properties).
    pub attrs: &'static [&'static str],
}

/// Declares a dialect's typed ops, one line each:
///
/// ```text
/// ADDF: AddF = "arith.addf" (lhs, rhs) -> (result) { fastmath: attr },
/// FOR: For = "scf.for" (lower_bound, upper_bound, step; init_args) -> (; results) [region],
/// ```
///
/// `(…)` are the operands, `-> (…)` the results, `[…]` the regions (none when
/// left out): named ones, then after `;` the name of a variadic rest. `{…}`
/// names attributes with the getter kind (`int`, `ints`, `float`, `floats`,
/// `str`, `attr`). Each line gives `pub const ADDF: &str` and `pub struct
/// AddF(OpId)` with `NAME`, `of(body, op)`, `op()`, a getter per name and
/// `build(builder, operands…, regions…, result_types, props)`; the dialect gets
/// `ALL` (the names) and `SIGNATURES`.
#[macro_export]
macro_rules! typed_ops {
    ($(
        $(#[$doc:meta])*
        $konst:ident : $ty:ident = $name:literal
        ( $($opd:ident),* $(; $vopd:ident)? ) -> ( $($res:ident),* $(; $vres:ident)? )
        $([ $($reg:ident),* $(; $vreg:ident)? ])?
        $({ $($attr:ident : $akind:ident),* $(,)? })?
    ),* $(,)?) => {
        $(
            #[doc = concat!("`", $name, "`")]
            pub const $konst: &str = $name;

            $(#[$doc])*
            #[doc = concat!("`", $name, "` by name: its operands, results, regions and attributes, and a builder.")]
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct $ty(pub $crate::OpId);

            #[allow(clippy::too_many_arguments)]
            impl $ty {
                pub const NAME: &'static str = $name;
                /// What this op's line declares, checked against the op table.
                pub const SIGNATURE: $crate::typed_ops::Signature = $crate::typed_ops::Signature {
                    name: $name,
                    operands: $crate::typed_ops::Arity { fixed: 0 $(+ $crate::__typed_one!($opd))*, variadic: false $(|| $crate::__typed_yes!($vopd))? },
                    results: $crate::typed_ops::Arity { fixed: 0 $(+ $crate::__typed_one!($res))*, variadic: false $(|| $crate::__typed_yes!($vres))? },
                    regions: $crate::typed_ops::Arity {
                        fixed: 0 $($(+ $crate::__typed_one!($reg))*)?,
                        variadic: false $($(|| $crate::__typed_yes!($vreg))?)?,
                    },
                    attrs: &[$($(stringify!($attr)),*)?],
                };
                #[doc = concat!("`op` as a `", $name, "`, if it is one.")]
                pub fn of(body: &$crate::Body, op: $crate::OpId) -> Option<Self> {
                    (body.name(op).as_str() == $name).then_some(Self(op))
                }
                pub fn op(self) -> $crate::OpId {
                    self.0
                }
                $crate::__typed_getters!(operand, 0usize; $($opd),*);
                $(
                    #[doc = concat!("The operands after the named ones (`", stringify!($vopd), "`).")]
                    pub fn $vopd(self, body: &$crate::Body) -> &[$crate::Value] {
                        &body.op(self.0).operands()[Self::SIGNATURE.operands.fixed..]
                    }
                )?
                $crate::__typed_getters!(result, 0usize; $($res),*);
                $(
                    #[doc = concat!("The results after the named ones (`", stringify!($vres), "`).")]
                    pub fn $vres(self, body: &$crate::Body) -> &[$crate::Value] {
                        &body.op(self.0).results()[Self::SIGNATURE.results.fixed..]
                    }
                )?
                $(
                    $crate::__typed_getters!(region, 0usize; $($reg),*);
                    $(
                        #[doc = concat!("The regions after the named ones (`", stringify!($vreg), "`).")]
                        pub fn $vreg(self, body: &$crate::Body) -> &[$crate::Region] {
                            &body.op(self.0).regions()[Self::SIGNATURE.regions.fixed..]
                        }
                    )?
                )?
                $($( $crate::__typed_attr!($akind, $attr); )*)?
                #[doc = concat!("Builds `", $name, "` at `builder`'s point: its operands and regions by name, its results' types and its properties.")]
                pub fn build(
                    builder: &mut $crate::OpBuilder,
                    $($opd: $crate::Value,)*
                    $($vopd: &[$crate::Value],)?
                    $($($reg: $crate::Region,)* $($vreg: Vec<$crate::Region>,)?)?
                    result_types: &[$crate::Type],
                    props: &[(&str, $crate::Attribute)],
                ) -> Self {
                    #[allow(unused_mut)]
                    let mut operands: Vec<$crate::Value> = vec![$($opd),*];
                    $(operands.extend_from_slice($vopd);)?
                    #[allow(unused_mut)]
                    let mut regions: Vec<$crate::Region> = Vec::new();
                    $($(regions.push($reg);)* $(regions.extend($vreg);)?)?
                    Self(builder.create_with_regions($name, &operands, result_types, props, regions))
                }
            }
        )*
        /// Every op name above, in order.
        pub const ALL: &[&str] = &[$($konst),*];
        /// Every op's declared signature, in order (see `ir::typed_ops::check`).
        pub const SIGNATURES: &[$crate::typed_ops::Signature] = &[$($ty::SIGNATURE),*];
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __typed_one {
    ($x:ident) => {
        1
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __typed_yes {
    ($x:ident) => {
        true
    };
}

/// One getter per named operand, result or region, numbered from `$i`.
#[doc(hidden)]
#[macro_export]
macro_rules! __typed_getters {
    ($kind:ident, $i:expr;) => {};
    (operand, $i:expr; $first:ident $(, $rest:ident)*) => {
        #[doc = concat!("Operand `", stringify!($first), "`.")]
        pub fn $first(self, body: &$crate::Body) -> $crate::Value {
            body.op(self.0).operand($i)
        }
        $crate::__typed_getters!(operand, $i + 1; $($rest),*);
    };
    (result, $i:expr; $first:ident $(, $rest:ident)*) => {
        #[doc = concat!("Result `", stringify!($first), "`.")]
        pub fn $first(self, body: &$crate::Body) -> $crate::Value {
            body.op(self.0).result($i)
        }
        $crate::__typed_getters!(result, $i + 1; $($rest),*);
    };
    (region, $i:expr; $first:ident $(, $rest:ident)*) => {
        #[doc = concat!("Region `", stringify!($first), "`.")]
        pub fn $first(self, body: &$crate::Body) -> $crate::Region {
            body.op(self.0).regions()[$i]
        }
        $crate::__typed_getters!(region, $i + 1; $($rest),*);
    };
}

/// An attribute getter of one kind (`OpData`'s readers: absent or of another
/// kind is `None`).
#[doc(hidden)]
#[macro_export]
macro_rules! __typed_attr {
    (int, $a:ident) => {
        #[doc = concat!("Attribute `", stringify!($a), "` as an integer.")]
        pub fn $a(self, body: &$crate::Body) -> Option<i64> {
            body.op(self.0).int_attr(stringify!($a))
        }
    };
    (ints, $a:ident) => {
        #[doc = concat!("Attribute `", stringify!($a), "` as integers.")]
        pub fn $a(self, body: &$crate::Body) -> Option<Vec<i64>> {
            body.op(self.0).ints_attr(stringify!($a))
        }
    };
    (float, $a:ident) => {
        #[doc = concat!("Attribute `", stringify!($a), "` as a float.")]
        pub fn $a(self, body: &$crate::Body) -> Option<f64> {
            body.op(self.0).float_attr(stringify!($a))
        }
    };
    (floats, $a:ident) => {
        #[doc = concat!("Attribute `", stringify!($a), "` as floats.")]
        pub fn $a(self, body: &$crate::Body) -> Option<Vec<f64>> {
            body.op(self.0).floats_attr(stringify!($a))
        }
    };
    (str, $a:ident) => {
        #[doc = concat!("Attribute `", stringify!($a), "` as a string.")]
        pub fn $a(self, body: &$crate::Body) -> Option<&str> {
            body.op(self.0).str_attr(stringify!($a))
        }
    };
    (attr, $a:ident) => {
        #[doc = concat!("Attribute `", stringify!($a), "`.")]
        pub fn $a(self, body: &$crate::Body) -> Option<&$crate::Attribute> {
            body.op(self.0).attr(stringify!($a))
        }
    };
}

/// Checks that `sigs` are exactly the ops of `dialect` that `named` says a
/// line should exist for (every op but those a dialect makes from another
/// table, like the NPU's instructions), each once, with the table's operand,
/// result and region counts, and getters only for attributes the op has.
pub fn check(dialect: &DialectDef, sigs: &[Signature], named: impl Fn(&str) -> bool) -> Result<(), String> {
    let mut errors = Vec::new();
    for d in dialect.ops.iter().filter(|d| named(d.name)) {
        let Some(s) = sigs.iter().find(|s| s.name == d.name) else {
            errors.push(format!("'{}' has no typed op", d.name));
            continue;
        };
        for (what, arity, count) in [("operands", s.operands, d.operands), ("results", s.results, d.results), ("regions", s.regions, d.regions)] {
            if !arity.matches(count) {
                errors.push(format!("'{}': {} declared {:?}, the op table says {:?}", d.name, what, arity, count));
            }
        }
        for a in s.attrs {
            if !d.properties.iter().any(|p| p.name == *a) {
                errors.push(format!("'{}': attribute getter '{}' names no property of the op", d.name, a));
            }
        }
    }
    for (i, s) in sigs.iter().enumerate() {
        if !dialect.ops.iter().any(|d| d.name == s.name && named(d.name)) {
            errors.push(format!("typed op '{}' names no op of dialect '{}'", s.name, dialect.name));
        }
        if sigs[..i].iter().any(|t| t.name == s.name) {
            errors.push(format!("'{}' is declared twice", s.name));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}
