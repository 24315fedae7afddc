//! Building scalar code (arith, math) inside a `tensor.generic` body, with the
//! ONNX element kind deciding the op: `Add` is `arith.addf` on floats,
//! `arith.addi` on integers; `Div` is `divsi` or `divui` by signedness.

use ir::attributes::Attribute;
use ir::types::{Signedness, TypeData};
use ir::{Body, Context, InsertPoint, Location, OpBuilder, Type, Value};

/// What an ONNX element type is, arithmetically.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Float,
    Signed,
    Unsigned,
    Bool,
    /// An 8- or 4-bit float: stored narrow, converted through its bits (minifloat.rs).
    Mini(super::minifloat::Mini),
}

/// An element type as the loop level sees it: signless, with its kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Sc {
    pub ty: Type,
    pub kind: Kind,
}

impl Sc {
    pub fn of(ctx: &Context, elem: &Type) -> Option<Sc> {
        let kind = match elem.data() {
            TypeData::Float(k) => match super::minifloat::Mini::of(*k) {
                Some(m) => Kind::Mini(m),
                None => Kind::Float,
            },
            TypeData::Integer { width: 1, .. } => Kind::Bool,
            TypeData::Integer { signedness: Signedness::Unsigned, .. } => Kind::Unsigned,
            TypeData::Integer { .. } => Kind::Signed,
            _ => return None,
        };
        Some(Sc { ty: signless(ctx, elem), kind })
    }
    pub fn is_float(&self) -> bool {
        self.kind == Kind::Float
    }
    pub fn width(&self) -> u32 {
        self.ty.int_width().or_else(|| self.ty.float_kind().map(|k| k.width())).unwrap_or(0)
    }
}

/// The type with every integer made signless (arith's convention); tensors and
/// memrefs keep their shape.
pub fn signless(ctx: &Context, t: &Type) -> Type {
    match t.data() {
        TypeData::Integer { width, signedness } if *signedness != Signedness::Signless => ctx.int_type(*width),
        TypeData::RankedTensor { shape, elem, encoding } => {
            let e = signless(ctx, elem);
            if &e == elem {
                return t.clone();
            }
            ctx.intern_type(TypeData::RankedTensor { shape: shape.clone(), elem: e, encoding: encoding.clone() })
        }
        TypeData::Function { inputs, results } => ctx.intern_type(TypeData::Function {
            inputs: inputs.iter().map(|x| signless(ctx, x)).collect(),
            results: results.iter().map(|x| signless(ctx, x)).collect(),
        }),
        _ => t.clone(),
    }
}

/// Comparison predicates by meaning; the emitter picks the arith spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// An `ir::OpBuilder` (its `ctx`, `body`, `at`, `loc` and `build` are this
/// one's) that picks arith and math ops by element kind, for the bodies of
/// the lowerings' loop nests.
pub struct Emit<'a>(pub OpBuilder<'a>);

ir::extends_op_builder!(Emit);

impl<'a> Emit<'a> {
    pub fn new(ctx: &'a Context, body: &'a mut Body, at: InsertPoint, loc: Location) -> Emit<'a> {
        Emit(OpBuilder::new(ctx, body, at, loc))
    }

    pub fn op(&mut self, name: &str, operands: &[Value], ty: &Type) -> Value {
        self.0.create_value(name, operands, ty, &[])
    }

    pub fn op_with(&mut self, name: &str, operands: &[Value], ty: &Type, props: &[(&str, Attribute)]) -> Value {
        self.0.create_value(name, operands, ty, props)
    }

    pub fn constant(&mut self, value: Attribute) -> Value {
        let ty = value.typ().expect("typed constant").clone();
        self.op_with(arith::ops::CONSTANT, &[], &ty, &[("value", value)])
    }
    pub fn float(&mut self, v: f64, ty: &Type) -> Value {
        self.constant(Attribute::float(v, ty.clone()))
    }
    pub fn int(&mut self, v: i128, ty: &Type) -> Value {
        let t = signless(self.ctx, ty);
        self.constant(Attribute::integer(ir::attributes::normalize_int(v, &t), t))
    }
    pub fn index(&mut self, v: i64) -> Value {
        let t = self.ctx.index();
        self.constant(Attribute::integer(v as i128, t))
    }
    /// A constant of the element kind: `v` converted as ONNX would (float or integer).
    pub fn scalar(&mut self, v: f64, s: &Sc) -> Value {
        if s.is_float() {
            self.float(v, &s.ty)
        } else {
            // Past the type's largest value, its largest value: an f64 cannot
            // hold 2^63 - 1 (the int64 identity of Min rounds up to 2^63,
            // which would wrap to the smallest value).
            let w = s.width().min(64);
            let max = if s.kind == super::Kind::Unsigned || s.kind == super::Kind::Bool { (1i128 << w) - 1 } else { (1i128 << (w - 1).max(0)) - 1 };
            self.int((v as i128).min(max), &s.ty)
        }
    }

    pub fn cmp(&mut self, c: Cmp, a: Value, b: Value, s: &Sc) -> Value {
        let i1 = self.ctx.i1();
        if s.is_float() {
            // Ordered predicates: any comparison with NaN is false, except `ne` (unordered).
            let p = match c {
                Cmp::Eq => 1,
                Cmp::Gt => 2,
                Cmp::Ge => 3,
                Cmp::Lt => 4,
                Cmp::Le => 5,
                Cmp::Ne => 13,
            };
            self.op_with(arith::ops::CMPF, &[a, b], &i1, &[("predicate", Attribute::integer(p, self.ctx.i64()))])
        } else {
            let unsigned = matches!(s.kind, Kind::Unsigned | Kind::Bool);
            let p = match (c, unsigned) {
                (Cmp::Eq, _) => 0,
                (Cmp::Ne, _) => 1,
                (Cmp::Lt, false) => 2,
                (Cmp::Le, false) => 3,
                (Cmp::Gt, false) => 4,
                (Cmp::Ge, false) => 5,
                (Cmp::Lt, true) => 6,
                (Cmp::Le, true) => 7,
                (Cmp::Gt, true) => 8,
                (Cmp::Ge, true) => 9,
            };
            self.op_with(arith::ops::CMPI, &[a, b], &i1, &[("predicate", Attribute::integer(p, self.ctx.i64()))])
        }
    }

    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let t = self.body.value_type(a).clone();
        self.op(arith::ops::SELECT, &[c, a, b], &t)
    }

    /// An arith op chosen by kind: `(float, signed, unsigned)` names.
    pub fn by_kind(&mut self, names: (&str, &str, &str), operands: &[Value], s: &Sc) -> Value {
        let name = match s.kind {
            Kind::Float | Kind::Mini(_) => names.0,
            Kind::Signed => names.1,
            Kind::Unsigned | Kind::Bool => names.2,
        };
        self.op(name, operands, &s.ty)
    }
    pub fn add(&mut self, a: Value, b: Value, s: &Sc) -> Value {
        self.by_kind((arith::ops::ADDF, arith::ops::ADDI, arith::ops::ADDI), &[a, b], s)
    }
    pub fn sub(&mut self, a: Value, b: Value, s: &Sc) -> Value {
        self.by_kind((arith::ops::SUBF, arith::ops::SUBI, arith::ops::SUBI), &[a, b], s)
    }
    pub fn mul(&mut self, a: Value, b: Value, s: &Sc) -> Value {
        self.by_kind((arith::ops::MULF, arith::ops::MULI, arith::ops::MULI), &[a, b], s)
    }
    pub fn div(&mut self, a: Value, b: Value, s: &Sc) -> Value {
        self.by_kind((arith::ops::DIVF, arith::ops::DIVSI, arith::ops::DIVUI), &[a, b], s)
    }
    /// NaN-propagating maximum for floats (ONNX Max/ReduceMax/MaxPool).
    pub fn max(&mut self, a: Value, b: Value, s: &Sc) -> Value {
        self.by_kind((arith::ops::MAXIMUMF, arith::ops::MAXSI, arith::ops::MAXUI), &[a, b], s)
    }
    pub fn min(&mut self, a: Value, b: Value, s: &Sc) -> Value {
        self.by_kind((arith::ops::MINIMUMF, arith::ops::MINSI, arith::ops::MINUI), &[a, b], s)
    }
    /// Reads `t` at computed indices (`tensor.extract`): gathers, resamplers, pads.
    pub fn extract(&mut self, t: Value, at: &[Value]) -> Value {
        let elem = self.body.value_type(t).element_type().unwrap().clone();
        let mut ops = vec![t];
        ops.extend_from_slice(at);
        self.op(tensor::ops::EXTRACT, &ops, &elem)
    }
    /// The enclosing generic's index along loop `dim` (`tensor.index`).
    pub fn loop_index(&mut self, dim: usize) -> Value {
        let it = self.ctx.index();
        self.op_with(tensor::ops::INDEX, &[], &it, &[("dim", Attribute::integer(dim as i128, self.ctx.i64()))])
    }
    /// `i` clamped into 0..n, so a computed read never leaves its tensor.
    pub fn clamp_index(&mut self, i: Value, n: i64) -> Value {
        let it = self.ctx.index();
        let zero = self.index(0);
        let hi = self.index((n - 1).max(0));
        let i = self.op(arith::ops::MAXSI, &[i, zero], &it);
        self.op(arith::ops::MINSI, &[i, hi], &it)
    }
    /// An integer element as an index, negative values counted from `n` (as
    /// ONNX's Gather, OneHot and Scatter read their indices).
    pub fn wrap_index(&mut self, v: Value, n: i64) -> Value {
        let it = self.ctx.index();
        let i = self.index_cast(v, &it, false);
        let s = Sc { ty: it.clone(), kind: Kind::Signed };
        let zero = self.index(0);
        let nn = self.index(n);
        let neg = self.cmp(Cmp::Lt, i, zero, &s);
        let w = self.op(arith::ops::ADDI, &[i, nn], &it);
        self.select(neg, w, i)
    }
    /// An index (a loop index, a position) as a float of `to`, through i64.
    pub fn index_to_float(&mut self, i: Value, to: &Sc) -> Value {
        let i64t = self.ctx.i64();
        let v = self.index_cast(i, &i64t, false);
        self.cast(v, &Sc { ty: i64t, kind: Kind::Signed }, to)
    }
    pub fn index_cast(&mut self, v: Value, to: &Type, unsigned: bool) -> Value {
        self.op(if unsigned { arith::ops::INDEX_CASTUI } else { arith::ops::INDEX_CAST }, &[v], to)
    }

    /// Converts between element kinds as ONNX's Cast does (float→int truncates
    /// toward zero, →bool is `!= 0`, bool→ is 0 or 1).
    pub fn cast(&mut self, v: Value, from: &Sc, to: &Sc) -> Value {
        self.cast_saturating(v, from, to, true)
    }

    /// `cast`, with ONNX's `saturate` for 8-bit float targets.
    pub fn cast_saturating(&mut self, v: Value, from: &Sc, to: &Sc, saturate: bool) -> Value {
        let f32s = Sc { ty: self.ctx.f32(), kind: Kind::Float };
        if let Kind::Mini(m) = from.kind {
            if from.ty == to.ty {
                return v;
            }
            let f = super::minifloat::decode(self, v, m);
            return self.cast_saturating(f, &f32s, to, saturate);
        }
        if let Kind::Mini(m) = to.kind {
            let f = self.cast(v, from, &f32s);
            return super::minifloat::encode(self, f, m, saturate, &to.ty);
        }
        if from.ty == to.ty && (from.kind == to.kind || !from.is_float() && !to.is_float() && to.kind != Kind::Bool) {
            return v;
        }
        if to.kind == Kind::Bool {
            let zero = self.scalar(0.0, from);
            return self.cmp(Cmp::Ne, v, zero, from);
        }
        let (fw, tw) = (from.width(), to.width());
        match (from.is_float(), to.is_float()) {
            (true, true) => {
                if fw < tw {
                    self.op(arith::ops::EXTF, &[v], &to.ty)
                } else if fw > tw {
                    self.op(arith::ops::TRUNCF, &[v], &to.ty)
                } else if from.ty != to.ty {
                    // f16 <-> bf16: through f32.
                    let f32 = self.ctx.f32();
                    let w = self.op(arith::ops::EXTF, &[v], &f32);
                    self.op(arith::ops::TRUNCF, &[w], &to.ty)
                } else {
                    v
                }
            }
            (false, true) => {
                let name = if matches!(from.kind, Kind::Unsigned | Kind::Bool) { arith::ops::UITOFP } else { arith::ops::SITOFP };
                self.op(name, &[v], &to.ty)
            }
            (true, false) => {
                let name = if to.kind == Kind::Unsigned { arith::ops::FPTOUI } else { arith::ops::FPTOSI };
                self.op(name, &[v], &to.ty)
            }
            (false, false) => {
                if fw < tw {
                    let name = if matches!(from.kind, Kind::Unsigned | Kind::Bool) { arith::ops::EXTUI } else { arith::ops::EXTSI };
                    self.op(name, &[v], &to.ty)
                } else if fw > tw {
                    self.op(arith::ops::TRUNCI, &[v], &to.ty)
                } else {
                    v
                }
            }
        }
    }
}
