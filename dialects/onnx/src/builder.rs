//! Building `onnx` ops in code: constants from their bytes and ops with
//! their properties, at one insertion point and location (the importer's
//! normalization of older forms, the recurrent unroller).

use crate::ops;
use ir::attributes::{AttrData, Attribute, DenseData};
use ir::types::{Type, TypeData};
use ir::{Body, Context, InsertPoint, Location, OperationState, Value};

pub struct Builder<'a> {
    pub ctx: &'a Context,
    pub body: &'a mut Body,
    pub at: InsertPoint,
    pub loc: Location,
}

impl Builder<'_> {
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
        crate::dialect::no_value(self.ctx, self.body, self.at, self.loc.clone())
    }
    /// `name` with `operands`, results of `results` and properties `props`; its results.
    pub fn op(&mut self, name: &str, operands: &[Value], results: &[Type], props: &[(&str, Attribute)]) -> Vec<Value> {
        let mut st = OperationState::new(self.ctx.op_name(name), self.loc.clone()).operands(operands).results(results);
        for (k, v) in props {
            st = st.property(self.ctx.ident(k), v.clone());
        }
        let o = self.body.build(st, self.at);
        self.body.op(o).results().to_vec()
    }
}
