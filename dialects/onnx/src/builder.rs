//! Building `onnx` ops in code: `ir::OpBuilder` with the onnx dialect's
//! constants from their bytes, absent inputs and the slots the generated
//! `ops::X::build` fill (the importer's normalization of older forms, the
//! recurrent unroller, the QLinear expansion, the NPU conversion).

use crate::ops;
use ir::attributes::{ArrayData, AttrData, Attribute, DenseData};
use ir::types::{Type, TypeData};
use ir::{Body, Context, InsertPoint, Location, OpBuilder, Value};

/// An `ir::OpBuilder` (its `ctx`, `body`, `at`, `loc` and `build` are this
/// one's) with the onnx dialect's helpers.
pub struct Builder<'a>(pub OpBuilder<'a>);

ir::extends_op_builder!(Builder);

impl<'a> Builder<'a> {
    pub fn new(ctx: &'a Context, body: &'a mut Body, at: InsertPoint, loc: Location) -> Builder<'a> {
        Builder(OpBuilder::new(ctx, body, at, loc))
    }
    /// An `onnx.Constant` of `elem` and `shape` from its little-endian bytes.
    pub fn constant(&mut self, elem: Type, shape: Vec<i64>, bytes: Vec<u8>) -> Value {
        let ty = self.ctx.intern_type(TypeData::RankedTensor { shape, elem, encoding: None });
        let n = ty.num_elements().unwrap_or(0) as usize;
        let w = ir::attributes::element_bytes(ty.scalar()).unwrap_or(1);
        let a = Attribute::new(AttrData::Dense { ty: ty.clone(), data: DenseData::canonical(bytes, w, n) });
        self.op(ops::Constant::NAME, &[], &[ty], &[("value", a)])[0]
    }
    pub fn i64s(&mut self, v: &[i64]) -> Value {
        let bytes = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.constant(self.ctx.i64(), vec![v.len() as i64], bytes)
    }
    pub fn f32s(&mut self, shape: &[i64], v: &[f32]) -> Value {
        self.constant(self.ctx.f32(), shape.to_vec(), v.iter().flat_map(|x| x.to_le_bytes()).collect())
    }
    /// A scalar of `elem` holding `x` (floats and integers).
    pub fn scalar(&mut self, elem: &Type, x: f64) -> Value {
        let bytes = match elem.float_kind() {
            Some(ir::FloatKind::F64) => x.to_le_bytes().to_vec(),
            Some(k) => {
                let bits = ir::float::f64_to_bits(x, k).unwrap_or(0);
                let w = (k.width() as usize).div_ceil(8);
                bits.to_le_bytes()[..w].to_vec()
            }
            None => {
                let w = ir::attributes::element_bytes(elem).unwrap_or(8);
                (x as i64).to_le_bytes()[..w].to_vec()
            }
        };
        self.constant(elem.clone(), vec![], bytes)
    }
    /// An absent optional input.
    pub fn none(&mut self) -> Value {
        let none = self.ctx.none_type();
        self.0.create_value(ops::NO_VALUE, &[], &none, &[])
    }
    /// The op `name` from its operand slots (an absent optional input `None`:
    /// left out at the end, `onnx.NoValue` before a given one) and then
    /// `rest` (a variadic input); what the generated `ops::X::build` calls.
    pub fn build_op(&mut self, name: &str, slots: &[Option<Value>], rest: &[Value], results: &[Type], props: &[(&str, Attribute)]) -> ir::OpId {
        let given = if rest.is_empty() { slots.iter().rposition(|s| s.is_some()).map_or(0, |k| k + 1) } else { slots.len() };
        let mut operands = Vec::with_capacity(given + rest.len());
        for s in &slots[..given] {
            let v = match s {
                Some(v) => *v,
                None => self.none(),
            };
            operands.push(v);
        }
        operands.extend_from_slice(rest);
        self.0.create(name, &operands, results, props)
    }
    /// `name` with `operands`, results of `results` and properties `props`; its results.
    pub fn op(&mut self, name: &str, operands: &[Value], results: &[Type], props: &[(&str, Attribute)]) -> Vec<Value> {
        let o = self.0.create(name, operands, results, props);
        self.body.op(o).results().to_vec()
    }
}

// Attribute values as the importer makes them (what the generated builders set).
pub fn int_attr(ctx: &Context, v: &i64) -> Attribute {
    Attribute::integer(*v as i128, ctx.i64())
}
pub fn float_attr(ctx: &Context, v: &f64) -> Attribute {
    Attribute::float(*v, ctx.f32())
}
pub fn str_attr(_: &Context, v: &String) -> Attribute {
    Attribute::new(AttrData::String { bytes: v.as_bytes().to_vec().into(), ty: None })
}
pub fn ints_attr(ctx: &Context, v: &[i64]) -> Attribute {
    Attribute::new(AttrData::DenseArray { elem: ctx.i64(), data: ArrayData::Int(v.to_vec()) })
}
pub fn floats_attr(ctx: &Context, v: &[f64]) -> Attribute {
    // An f32 list holds each value rounded to f32, as the importer and the parser store it.
    Attribute::new(AttrData::DenseArray { elem: ctx.f32(), data: ArrayData::Float(v.iter().map(|x| *x as f32 as f64).collect()) })
}
pub fn as_is(_: &Context, v: &Attribute) -> Attribute {
    v.clone()
}
