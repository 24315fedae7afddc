//! Batch > 1 on npu16. The array's convolution and pooling kernels stream one
//! image; an op of those with a batch of N becomes, before partitioning
//! (`Backend::prepare`), a Split of its input along the batch, the op once
//! per image and a Concat of the results: DMA copies around kernels that run
//! as they do at batch 1; one such op after another passes the images on
//! without a Concat and a Split between them, and an activation after one
//! runs per image too (after a Conv, Relu, Clip, Sigmoid and Tanh fuse into it). Other elementwise ops, products
//! (the batch is rows) and data movement take any batch as they are. Exact for every backend; done
//! only where npu16 takes the op of one image, so an op it refuses stays whole.

use ir::body::OperationState;
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, OpId, Type, Value};
use onnx::builder::Builder;
use onnx::ops;

/// The ops whose kernels take one image.
const PER_IMAGE: &[&str] = &[ops::Conv::NAME, ops::ConvTranspose::NAME, ops::MaxPool::NAME, ops::AveragePool::NAME, ops::GlobalAveragePool::NAME, ops::GlobalMaxPool::NAME, ops::LRN::NAME];

/// Activations, one image at a time where their input is already a batch
/// of pieces: no Concat and Split around them, and Relu, Clip, Sigmoid and
/// Tanh after a Conv fuse into it (`fusion.rs`).
const ACTIVATIONS: &[&str] = &[ops::Relu::NAME, ops::Clip::NAME, ops::Sigmoid::NAME, ops::Tanh::NAME, ops::LeakyRelu::NAME, ops::HardSigmoid::NAME, ops::HardSwish::NAME];

/// At most this many images: beyond, the program would repeat each kernel more
/// times than a batch dimension of the kernels themselves would be worth.
pub const MAX_BATCH: i64 = 32;

fn f32_shape(body: &Body, v: Value) -> Option<Vec<i64>> {
    let t = body.value_type(v);
    let f32 = t.element_type().is_some_and(|e| matches!(e.data(), TypeData::Float(ir::FloatKind::F32)));
    f32.then(|| t.shape().map(|s| s.to_vec())).flatten().filter(|s| s.iter().all(|d| *d >= 0))
}

/// The batch of `op` when it is one to split: a per-image op of one result
/// on a static 4-D f32 input of 2..=MAX_BATCH images, not between the
/// DequantizeLinear and QuantizeLinear of an int8 pattern.
fn batch_of(body: &Body, op: OpId) -> Option<i64> {
    let o = body.op(op);
    let name = body.name(op);
    let per_image = PER_IMAGE.contains(&name.as_str()) || (ACTIVATIONS.contains(&name.as_str()) && o.operands().first().is_some_and(|x| pieces_of(body, *x).is_some()));
    if !per_image || o.results().len() != 1 || o.operands().is_empty() {
        return None;
    }
    let x = f32_shape(body, o.operand(0))?;
    let y = f32_shape(body, o.result(0))?;
    let quantized = body.defining_op(o.operand(0)).is_some_and(|d| body.name(d).as_str() == ops::DequantizeLinear::NAME)
        || body.uses(o.result(0)).iter().any(|u| body.name(u.op).as_str() == ops::QuantizeLinear::NAME);
    (x.len() == 4 && y.len() == 4 && x[0] == y[0] && (2..=MAX_BATCH).contains(&x[0]) && !quantized).then_some(x[0])
}

/// The images of `v` when it is a Concat along the batch of one-image
/// values (as this rewrite makes them): the next per-image op takes them
/// as they are, with no Split of the Concat.
fn pieces_of(body: &Body, v: Value) -> Option<Vec<Value>> {
    let c = body.defining_op(v)?;
    let o = body.op(c);
    let one = |p: &Value| f32_shape(body, *p).is_some_and(|s| s.first() == Some(&1));
    (body.name(c).as_str() == ops::Concat::NAME && o.int_attr("axis") == Some(0) && o.operands().iter().all(one)).then(|| o.operands().to_vec())
}

fn one_image(ctx: &Context, v: &[i64]) -> Type {
    let mut s = v.to_vec();
    s[0] = 1;
    ctx.intern_type(TypeData::RankedTensor { shape: s, elem: ctx.f32(), encoding: None })
}

/// Splits every per-image op of a batch of N that `takes` accepts for one
/// image; `ours` says which ops npu16 may change (placement rules).
pub fn rewrite(ctx: &Context, body: &mut Body, module: OpId, ours: &dyn Fn(&Body, OpId) -> bool, takes: &dyn Fn(&Body, OpId) -> bool) {
    // In order, each op seen as the ops before it left it (an activation
    // after a split conv is split too); the ops made here are not visited.
    let all: Vec<OpId> = body.walk_preorder(module);
    for op in all {
        if batch_of(body, op).is_some() && ours(body, op) {
            split(ctx, body, op, takes);
        }
    }
}

fn split(ctx: &Context, body: &mut Body, op: OpId, takes: &dyn Fn(&Body, OpId) -> bool) {
    let Some(n) = batch_of(body, op) else { return };
    let o = body.op(op);
    let (x, y, loc) = (o.operand(0), o.result(0), o.loc.clone());
    let rest: Vec<Value> = o.operands()[1..].to_vec();
    let (name, properties, attributes) = (o.name, o.properties.clone(), o.attributes.clone());
    let (piece, part) = (one_image(ctx, &f32_shape(body, x).unwrap()), one_image(ctx, &f32_shape(body, y).unwrap()));
    let y_ty = body.value_type(y).clone();
    let given = pieces_of(body, x).filter(|p| p.len() == n as usize);
    let mut b = Builder::new(ctx, body, InsertPoint::Before(op), loc.clone());
    let (images, s) = match given {
        Some(p) => (p, None),
        None => {
            let sizes = b.i64s(&vec![1; n as usize]);
            let s = ops::Split::build(&mut b, x, Some(sizes), &vec![piece; n as usize], &ops::SplitAttrs { axis: Some(0), ..Default::default() }).op();
            (b.body.op(s).results().to_vec(), Some(s))
        }
    };
    let mut parts = vec![];
    let mut built = vec![];
    for img in images {
        let mut st = OperationState::new(name, loc.clone()).operands(&[img]).operands(&rest).results(std::slice::from_ref(&part));
        st.properties = properties.clone();
        st.attributes = attributes.clone();
        let p = b.build(st);
        built.push(p);
        parts.push(b.body.op(p).result(0));
    }
    let c = ops::Concat::build(&mut b, &parts, &[y_ty], &ops::ConcatAttrs { axis: Some(0) }).op();
    let size_op = s.and_then(|s| body.defining_op(body.op(s).operand(1)));
    if !takes(body, built[0]) {
        // npu16 would not run one image either: the op stays whole.
        for d in std::iter::once(c).chain(built.into_iter().rev()).chain(s).chain(size_op) {
            body.erase(d);
        }
        return;
    }
    let joined = body.op(c).result(0);
    body.replace_all_uses(y, joined);
    body.erase(op);
    // A Concat whose images went on to the next op alone is dead.
    if let Some(d) = body.defining_op(x).filter(|d| s.is_none() && !body.has_uses(body.op(*d).result(0))) {
        body.erase(d);
    }
}
