//! `convert-onnx-to-tensor`: each onnx op becomes `tensor` dialect ops
//! (`tensor.generic` loop nests, `tensor.empty` destinations, reshapes) with
//! `arith`/`math` bodies. One table maps op names to lowering functions, each
//! in the file of its family. Shapes must be static (run
//! `onnx-shape-inference` first); an op or dtype without a lowering is an
//! error naming the node, never a crash later. At the end every integer type
//! in the function is made signless, as arith requires.

mod attention;
pub mod checks;
mod control;
mod elementwise;
mod emit;
mod form_integer_products;
mod index;
mod int8;
mod linalg;
mod linear_attention;
mod loss;
mod minifloat;
mod ml;
mod conv;
mod conv_variants;
mod norms;
mod pool;
mod quant;
mod reduce;
mod resize;
mod rnn;
mod rotary;
mod shape;
mod signal;
mod text;
mod training;

pub use emit::{signless, Cmp, Emit, Kind, Sc};

use onnx::ops;
use ir::affine::{AffineExpr, AffineMap};
use ir::attributes::Attribute;
use ir::diagnostics::Diagnostic;
use ir::pass::{Pass, PassContext};
use ir::types::{TypeData, DYNAMIC};
use ir::{Block, Body, Context, InsertPoint, Location, OpId, OperationState, Type, Value};
use tensor::{GenericBuilder, Iterator};

use cpu_target::{cpu_target, host_has_vnni};
use ir::pass::{OptionKind, OptionSpec, PassInfo, PassRegistry};
pub use tensor::i64_array;

/// Registers `convert-onnx-to-tensor` and `onnx-form-integer-products`, the
/// CPU path's onnx-level preparation for it.
pub fn register(reg: &mut PassRegistry) {
    reg.register(PassInfo {
        argument: "onnx-form-integer-products",
        summary: "CPU path: form QLinearConv, QLinearMatMul and com.microsoft QGemm from the QDQ groups of int8 products (constant int8 weights) that the CPU runs as integer kernels (VNNI); nothing on a host without VNNI",
        options: vec![],
        create: |_| Ok(Box::new(form_integer_products::FormIntegerProducts)),
    });
    reg.register(PassInfo {
        argument: "convert-onnx-to-tensor",
        summary: "Lower onnx ops to tensor.generic loop nests and tensor reshapes (static shapes)",
        options: vec![OptionSpec::new(
            "max-loop-iterations",
            OptionKind::Int,
            "2147483647",
            "Iterations a Loop or Scan may run before the run fails with an error naming the node (a model whose loop never ends)",
        )],
        create: |o| Ok(Box::new(OnnxToTensor { max_loop_iterations: o.int("max-loop-iterations").max(0) })),
    });
}

pub type LowerFn = fn(&mut Lower) -> Result<Vec<Value>, String>;

/// Every onnx op with a CPU lowering, and where it is.
pub fn table() -> Vec<(&'static str, LowerFn)> {
    let mut t: Vec<(&'static str, LowerFn)> = Vec::new();
    t.extend(elementwise::TABLE.iter().map(|(n, _)| (*n, elementwise::lower as LowerFn)));
    t.extend_from_slice(shape::TABLE);
    t.extend_from_slice(linalg::TABLE);
    t.extend_from_slice(conv::TABLE);
    t.extend_from_slice(conv_variants::TABLE);
    t.extend_from_slice(pool::TABLE);
    t.extend_from_slice(norms::TABLE);
    t.extend_from_slice(reduce::TABLE);
    t.extend_from_slice(resize::TABLE);
    t.extend_from_slice(rnn::TABLE);
    t.extend_from_slice(index::TABLE);
    t.extend_from_slice(loss::TABLE);
    t.extend_from_slice(quant::TABLE);
    t.extend_from_slice(attention::TABLE);
    t.extend_from_slice(rotary::TABLE);
    t.extend_from_slice(control::TABLE);
    t.extend_from_slice(signal::TABLE);
    t.extend_from_slice(linear_attention::TABLE);
    t.extend_from_slice(text::TABLE);
    t.extend_from_slice(ml::TABLE);
    t.extend_from_slice(training::TABLE);
    t
}

/// One onnx op being lowered: its operands, attributes and where new ops go.
pub struct Lower<'a> {
    pub ctx: &'a Context,
    pub body: &'a mut Body,
    pub op: OpId,
    pub loc: Location,
    /// Iterations a Loop or Scan may run (the pass's `max-loop-iterations`).
    pub max_loop_iterations: i64,
}

/// A static tensor's shape and element kind.
#[derive(Clone, Debug)]
pub struct TInfo {
    pub shape: Vec<i64>,
    pub sc: Sc,
}

impl TInfo {
    pub fn rank(&self) -> usize {
        self.shape.len()
    }
    pub fn numel(&self) -> i64 {
        self.shape.iter().product()
    }
}

impl<'a> Lower<'a> {
    pub fn name(&self) -> &'static str {
        self.body.name(self.op).as_str()
    }
    pub fn num_operands(&self) -> usize {
        self.body.op(self.op).operands().len()
    }
    /// Operand `i` if present (ONNX's optional inputs are `none` values).
    pub fn opt(&self, i: usize) -> Option<Value> {
        onnx::dialect::present_operand(self.body, self.op, i)
    }
    pub fn operand(&self, i: usize) -> Result<Value, String> {
        self.opt(i).ok_or_else(|| format!("input #{} is required", i))
    }
    pub fn result(&self, i: usize) -> Value {
        self.body.op(self.op).result(i)
    }
    pub fn num_results(&self) -> usize {
        self.body.op(self.op).results().len()
    }
    pub fn info(&self, v: Value) -> Result<TInfo, String> {
        let t = self.body.value_type(v);
        let (shape, elem) = match t.data() {
            TypeData::RankedTensor { shape, elem, .. } => (shape, elem),
            _ => return Err(format!("needs ranked tensor types, got {}", t)),
        };
        if shape.contains(&DYNAMIC) {
            return Err(format!("needs static shapes, got {} (bind the inputs' shapes, e.g. --dim)", t));
        }
        let sc = Sc::of(self.ctx, elem).ok_or_else(|| format!("element type {} is not supported on the CPU", elem))?;
        Ok(TInfo { shape: shape.clone(), sc })
    }
    pub fn in_info(&self, i: usize) -> Result<TInfo, String> {
        self.info(self.operand(i)?)
    }
    pub fn out_info(&self, i: usize) -> Result<TInfo, String> {
        self.info(self.result(i))
    }

    pub fn attr(&self, name: &str) -> Option<&Attribute> {
        self.body.op(self.op).attr(name)
    }
    pub fn int_attr(&self, name: &str, default: i64) -> i64 {
        self.body.op(self.op).int_attr(name).unwrap_or(default)
    }
    pub fn float_attr(&self, name: &str, default: f64) -> f64 {
        self.body.op(self.op).float_attr(name).unwrap_or(default)
    }
    pub fn str_attr(&self, name: &str) -> Option<String> {
        self.body.op(self.op).str_attr(name).map(|s| s.to_string())
    }
    pub fn ints_attr(&self, name: &str) -> Option<Vec<i64>> {
        self.body.op(self.op).ints_attr(name)
    }
    pub fn floats_attr(&self, name: &str) -> Option<Vec<f64>> {
        self.body.op(self.op).floats_attr(name)
    }
    /// The values of a constant integer operand (axes, shapes, pads).
    pub fn const_ints(&self, i: usize) -> Result<Option<Vec<i64>>, String> {
        match self.opt(i) {
            None => Ok(None),
            Some(v) => onnx::infer::const_ints(self.body, v)
                .map(Some)
                .ok_or_else(|| format!("input #{} must be a constant (bind it with --bind-input, or fold it)", i)),
        }
    }
    /// Whether `v` is a constant (`onnx.Constant`, or one already lowered):
    /// weights that the lowering may lay out at compile time.
    pub fn is_constant(&self, v: Value) -> bool {
        self.body.defining_op(v).is_some_and(|o| matches!(self.body.name(o).as_str(), ops::Constant::NAME | arith::ops::CONSTANT))
    }
    pub fn const_f64s(&self, i: usize) -> Result<Option<Vec<f64>>, String> {
        match self.opt(i) {
            None => Ok(None),
            Some(v) => onnx::infer::const_f64s(self.body, v).map(Some).ok_or_else(|| format!("input #{} must be a constant", i)),
        }
    }

    pub fn at(&self) -> InsertPoint {
        InsertPoint::Before(self.op)
    }
    pub fn emit(&mut self) -> Emit<'_> {
        let at = self.at();
        Emit::new(self.ctx, self.body, at, self.loc.clone())
    }
    pub fn tensor_type(&self, shape: &[i64], elem: &Type) -> Type {
        self.ctx.intern_type(TypeData::RankedTensor { shape: shape.to_vec(), elem: elem.clone(), encoding: None })
    }
    /// `tensor.empty` of a static shape: a destination for a generic.
    pub fn empty(&mut self, shape: &[i64], elem: &Type) -> Value {
        let t = self.tensor_type(shape, elem);
        let st = OperationState::new(self.ctx.op_name(tensor::ops::EMPTY), self.loc.clone()).results(&[t]);
        let op = self.body.build(st, InsertPoint::Before(self.op));
        self.body.op(op).result(0)
    }
    /// A `tensor.generic` inserted before the op being lowered; returns its results.
    pub fn generic(
        &mut self,
        ins: &[Value],
        outs: &[Value],
        maps: Vec<AffineMap>,
        iters: &[Iterator],
        f: impl FnOnce(&mut Emit, &[Value]) -> Vec<Value>,
    ) -> Vec<Value> {
        self.generic_ranged(ins, outs, maps, iters, None, f)
    }
    /// A generic whose loop sizes are given (for loops no operand is indexed by).
    pub fn generic_ranged(
        &mut self,
        ins: &[Value],
        outs: &[Value],
        maps: Vec<AffineMap>,
        iters: &[Iterator],
        ranges: Option<Vec<i64>>,
        f: impl FnOnce(&mut Emit, &[Value]) -> Vec<Value>,
    ) -> Vec<Value> {
        let (ctx, loc) = (self.ctx, self.loc.clone());
        let gb = GenericBuilder { ctx, loc: loc.clone() };
        let op = gb.build(self.body, InsertPoint::Before(self.op), ins, outs, maps, iters, ranges, |body: &mut Body, block: Block, args: &[Value]| {
            let mut e = Emit::new(ctx, body, InsertPoint::AtEnd(block), loc);
            f(&mut e, args)
        });
        self.body.op(op).results().to_vec()
    }
    /// A parallel generic over `shape` writing one new tensor of `elem`.
    pub fn map_op(
        &mut self,
        shape: &[i64],
        elem: &Type,
        ins: &[Value],
        in_maps: Vec<AffineMap>,
        f: impl FnOnce(&mut Emit, &[Value]) -> Value,
    ) -> Value {
        let out = self.empty(shape, elem);
        let mut maps = in_maps;
        maps.push(AffineMap::identity(shape.len() as u32));
        let iters = vec![Iterator::Parallel; shape.len()];
        let n_in = ins.len();
        // The formula sees the inputs only (not the destination's old value).
        self.generic(ins, &[out], maps, &iters, |e, a| vec![f(e, &a[..n_in])])[0]
    }
    /// A named structured op (`tensor.matmul`, ...) writing into `init`.
    pub fn named(&mut self, name: &str, operands: &[Value], props: &[(&str, Attribute)]) -> Value {
        let init = *operands.last().unwrap();
        let ty = self.body.value_type(init).clone();
        let mut st = OperationState::new(self.ctx.op_name(name), self.loc.clone()).operands(operands).results(&[ty]);
        for (k, v) in props {
            st = st.property(self.ctx.ident(k), v.clone());
        }
        let op = self.body.build(st, InsertPoint::Before(self.op));
        self.body.op(op).result(0)
    }
    /// A filled tensor (reduction inits, pads): `tensor.fill`.
    pub fn fill(&mut self, shape: &[i64], sc: &Sc, value: f64) -> Value {
        let v = self.emit().scalar(value, sc);
        let e = self.empty(shape, &sc.ty.clone());
        self.named(tensor::ops::FILL, &[v, e], &[])
    }
    pub fn fill_with(&mut self, shape: &[i64], elem: &Type, f: impl FnOnce(&mut Emit) -> Value) -> Value {
        self.map_op(shape, elem, &[], vec![], |e, _| f(e))
    }
}

/// `broadcast_map` for operand `k` of a node, refusing a shape that does not
/// broadcast to the result's (a model whose declared output hides the clash).
pub fn broadcast_operand(k: usize, in_shape: &[i64], out_shape: &[i64]) -> Result<AffineMap, String> {
    let fits = in_shape.len() <= out_shape.len() && in_shape.iter().zip(&out_shape[out_shape.len() - in_shape.len()..]).all(|(&i, &o)| i == o || i == 1);
    if !fits {
        return Err(format!("operand {} of shape {:?} does not broadcast to the result's shape {:?} (numpy rules: sizes equal or 1, aligned right)", k, in_shape, out_shape));
    }
    Ok(broadcast_map(in_shape, out_shape))
}

/// The map from an output of rank `out_rank` to an operand broadcast to it
/// (numpy rules: dims aligned right, size-1 dims read index 0).
pub fn broadcast_map(in_shape: &[i64], out_shape: &[i64]) -> AffineMap {
    let (r, k) = (out_shape.len(), in_shape.len());
    let results = (0..k)
        .map(|i| {
            let od = r - k + i;
            if in_shape[i] == 1 && out_shape[od] != 1 {
                AffineExpr::Const(0)
            } else {
                AffineExpr::Dim(od as u32)
            }
        })
        .collect();
    AffineMap { num_dims: r as u32, num_syms: 0, results }
}

pub fn dims_map(n: usize, dims: &[usize]) -> AffineMap {
    AffineMap { num_dims: n as u32, num_syms: 0, results: dims.iter().map(|&d| AffineExpr::Dim(d as u32)).collect() }
}

pub fn expr_map(n: usize, results: Vec<AffineExpr>) -> AffineMap {
    AffineMap { num_dims: n as u32, num_syms: 0, results }
}

pub fn d(i: usize) -> AffineExpr {
    AffineExpr::Dim(i as u32)
}
pub fn c(v: i64) -> AffineExpr {
    AffineExpr::Const(v)
}
pub fn add(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    match (&a, &b) {
        (_, AffineExpr::Const(0)) => a,
        (AffineExpr::Const(0), _) => b,
        _ => AffineExpr::Add(Box::new(a), Box::new(b)),
    }
}
pub fn mul(a: AffineExpr, k: i64) -> AffineExpr {
    match k {
        1 => a,
        0 => AffineExpr::Const(0),
        _ => AffineExpr::Mul(Box::new(a), Box::new(AffineExpr::Const(k))),
    }
}

/// Normalizes a possibly negative axis.
pub fn axis(a: i64, rank: usize) -> Result<usize, String> {
    let r = rank as i64;
    let v = if a < 0 { a + r } else { a };
    if v < 0 || v >= r.max(1) {
        return Err(format!("axis {} is out of range for rank {}", a, rank));
    }
    Ok(v as usize)
}

pub struct OnnxToTensor {
    /// Iterations a Loop or Scan may run before the run fails naming the node.
    pub max_loop_iterations: i64,
}

impl Default for OnnxToTensor {
    fn default() -> Self {
        OnnxToTensor { max_loop_iterations: i32::MAX as i64 }
    }
}

impl Pass for OnnxToTensor {
    fn argument(&self) -> &'static str {
        "convert-onnx-to-tensor"
    }
    fn display_name(&self) -> &'static str {
        "ConvertONNXToTensor"
    }
    fn anchor(&self) -> Option<&'static str> {
        Some(func::ops::FUNC)
    }
    fn run(&mut self, cx: &mut PassContext, root: OpId) -> Result<(), String> {
        let ctx = cx.ctx;
        let table = table();
        // Constants last: lowerings read constant operands (axes, shapes) off onnx.Constant.
        let mut ops: Vec<OpId> = cx.body.walk_preorder(root).into_iter().filter(|o| cx.body.name(*o).dialect() == "onnx").collect();
        ops.sort_by_key(|o| matches!(cx.body.name(*o).as_str(), ops::Constant::NAME | ops::NO_VALUE));
        let mut failed = 0;
        // Ops whose lowering failed: their bodies are not lowered (one error per node).
        let mut failed_ops: Vec<OpId> = Vec::new();
        for op in ops {
            if cx.body.is_erased(op) || failed_ops.iter().any(|f| cx.body.is_ancestor(*f, op)) {
                continue;
            }
            let name = cx.body.name(op).as_str();
            let loc = cx.body.op(op).loc.clone();
            if matches!(name, ops::Constant::NAME | ops::NO_VALUE) && cx.body.op(op).results().iter().all(|r| !cx.body.has_uses(*r)) {
                cx.body.erase(op);
                continue;
            }
            // An absent input still used here belongs to an op that failed (and said so).
            if name == ops::NO_VALUE {
                continue;
            }
            let Some((_, f)) = table.iter().find(|(n, _)| *n == name) else {
                cx.emit(Diagnostic::error(loc, format!("'{}' has no CPU lowering yet (docs/cpu-node-tests.md lists the ops the CPU path runs)", name)));
                failed_ops.push(op);
                failed += 1;
                continue;
            };
            let mut l = Lower { ctx, body: cx.body, op, loc: loc.clone(), max_loop_iterations: self.max_loop_iterations };
            match f(&mut l) {
                Ok(vals) => {
                    let results = cx.body.op(op).results().to_vec();
                    for (r, v) in results.iter().zip(&vals) {
                        // Lowerings build signless tensors; the value keeps ONNX's signedness until the
                        // pass ends, so a consumer lowered later reads a computed uint8 as unsigned.
                        let (rt, vt) = (cx.body.value_type(*r).clone(), cx.body.value_type(*v).clone());
                        if rt != vt && signless(ctx, &rt) == vt {
                            cx.body.set_value_type(*v, rt);
                        }
                        cx.body.replace_all_uses(*r, *v);
                    }
                    cx.body.erase(op);
                }
                Err(e) => {
                    // The operands' types, so the message can be checked against the model in Netron.
                    let types: Vec<String> = cx.body.op(op).operands().iter().map(|v| cx.body.value_type(*v).to_string()).collect();
                    cx.emit(Diagnostic::error(loc, format!("cannot lower '{}' to the CPU: {} (operands: {})", name, e, types.join(", "))));
                    failed_ops.push(op);
                    failed += 1;
                }
            }
        }
        if failed > 0 {
            return Err(format!("{} op(s) could not be lowered", failed));
        }
        make_signless(ctx, cx.body, root);
        Ok(())
    }
}

/// Gives every value, constant and the function type in `root` signless integer types.
fn make_signless(ctx: &Context, body: &mut Body, root: OpId) {
    for op in body.walk_preorder(root) {
        for r in body.op(op).regions().to_vec() {
            for b in body.region_blocks(r).to_vec() {
                for a in body.block_args(b).to_vec() {
                    let t = signless(ctx, body.value_type(a));
                    body.set_value_type(a, t);
                }
            }
        }
        for r in body.op(op).results().to_vec() {
            let t = signless(ctx, body.value_type(r));
            body.set_value_type(r, t);
        }
    }
    if let Some(ft) = body.op(root).properties.get("function_type").and_then(|a| a.as_type()).cloned() {
        let nt = signless(ctx, &ft);
        body.op_mut(root).properties.set(ctx.ident("function_type"), Attribute::type_attr(nt));
    }
}
