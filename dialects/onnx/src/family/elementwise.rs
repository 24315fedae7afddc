//! Elementwise ops: unary math and activations, broadcasting arithmetic,
//! comparisons and logic, Where, casts, Dropout; their folders (the integer
//! shape arithmetic exporters emit, small float tables) and Dropout's removal
//! in inference.

use super::*;

/// Binary and variadic ops whose result has the broadcast shape and the first input's element type.
const BROADCAST: &[&str] = &["StringConcat", "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Mod", "PRelu"];
/// Ops whose result has the broadcast shape and is boolean.
const COMPARE: &[&str] = &["And", "Or", "Xor", "Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual"];

pub(super) const FAMILY: Family = Family::rules(
    "elementwise",
    // The unary ops (the result has the input's type), then BROADCAST, COMPARE and the rest.
    &[
        "Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Cos", "Cosh", "Elu", "Erf", "Exp", "Floor", "HardSigmoid", "HardSwish",
        "LeakyRelu", "Log", "LogSoftmax", "Mish", "Neg", "Reciprocal", "Relu", "Round", "Selu", "Sigmoid", "Sign", "Sin", "Sinh",
        "Softmax", "Softplus", "Softsign", "Sqrt", "Tan", "Tanh", "ThresholdedRelu", "Celu", "Gelu", "Hardmax", "Shrink", "Not", "BitwiseNot",
        "Clip", "CumSum", "CumProd", "Trilu", "Swish", "ml.Binarizer",
        "StringConcat", "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Mod", "PRelu",
        "And", "Or", "Xor", "Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual",
        "Identity", "IsNaN", "IsInf", "Where", "Cast", "CastLike", "Dropout",
    ],
    infer,
)
.folds(&[
    ("Identity", fold_identity),
    ("Cast", fold_cast),
    ("CastLike", fold_cast),
    ("Add", fold_arith),
    ("Sub", fold_arith),
    ("Mul", fold_arith),
    ("Div", fold_arith),
    ("Max", fold_arith),
    ("Min", fold_arith),
    ("Mod", fold_arith),
    ("Equal", fold_compare),
    ("Less", fold_compare),
    ("Greater", fold_compare),
    ("LessOrEqual", fold_compare),
    ("GreaterOrEqual", fold_compare),
    ("And", fold_logic),
    ("Or", fold_logic),
    ("Xor", fold_logic),
    ("Not", fold_logic),
    ("Where", fold_where),
    ("Neg", fold_unary_int),
    ("Abs", fold_unary_int),
    ("Ceil", fold_scalar_unary),
    ("Floor", fold_scalar_unary),
    ("Relu", fold_scalar_unary),
    ("Round", fold_scalar_unary),
])
.patterns(&[
    ("Dropout", |p| p.add_fn("onnx-dropout-inference", ops::Dropout::NAME, dropout_is_identity)),
    ("Mul", |p| p.add_fn("onnx-fold-channel-scale-into-conv", ops::Mul::NAME, super::nn::fold_channel_affine_into_conv)),
    ("Add", |p| p.add_fn("onnx-fold-channel-shift-into-conv", ops::Add::NAME, super::nn::fold_channel_affine_into_conv)),
    ("Div", |p| p.add_fn("onnx-hard-swish-written-out", ops::Div::NAME, hard_swish_written_out)),
]);

#[allow(unused_variables)]
fn infer(ctx: &Context, body: &Body, op: OpId) -> Option<Vec<Type>> {
    rule_locals!(ctx, body, op => const_ints, d, name, ops, ins, attr, in0, t, one, given, ints_operand);
    if name == "Identity" {
        return one(body.value_type(*ops.first()?).clone());
    }
    if BROADCAST.contains(&name) || COMPARE.contains(&name) {
        let infos: Vec<Info> = ins.iter().cloned().collect::<Option<_>>()?;
        let shape = broadcast(&infos.iter().map(|i| i.shape.clone()).collect::<Vec<_>>());
        let elem = if COMPARE.contains(&name) { ctx.i1() } else { infos[0].elem.clone() };
        return one(t(&elem, shape));
    }
    match name {
        "IsNaN" | "IsInf" => one(t(&ctx.i1(), in0()?.shape)),
        "Where" => {
            let infos: Vec<Info> = ins.iter().cloned().collect::<Option<_>>()?;
            one(t(&infos[1].elem, broadcast(&infos.iter().map(|i| i.shape.clone()).collect::<Vec<_>>())))
        }
        "Cast" => {
            let to = int_attr(attr("to"))?;
            one(t(&crate::types::elem_type(ctx, to as i32).ok()?, in0()?.shape))
        }
        "CastLike" => one(t(&ins.get(1)?.clone()?.elem, in0()?.shape)),
        "Dropout" => {
            let x = in0()?;
            let mut v = vec![t(&x.elem, x.shape.clone())];
            if d.results().len() > 1 {
                v.push(t(&ctx.i1(), x.shape));
            }
            Some(v)
        }
        _ => same_as_first(ctx, body, op),
    }
}

fn fold_identity(x: &FoldInput) -> Option<Vec<FoldResult>> {
    Some(vec![FoldResult::Value(x.body.op(x.op).operand(0))])
}

/// Cast of an integer constant to int64 (shape math in int32 is common), and
/// of a small numeric constant to any numeric type (the scalar math of expanded
/// functions: a window's length cast to float before its `Range`, a trip count
/// cast back to int64). Floats become integers by truncation, as ONNX Runtime
/// casts them; a value out of the target's range is not folded.
fn fold_cast(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let v = *x.body.op(x.op).operands().first()?;
    if result_type(x).scalar() == &x.ctx.i64() && x.body.value_type(v).scalar().is_integer() {
        let vals = const_ints_upto(x.body, v, MAX_FOLD)?;
        return i64_tensor(x, &vals, operand_shape(x, 0)?);
    }
    let vals = operand_f64s(x, 0)?;
    let to = result_type(x).scalar().clone();
    let vals: Vec<f64> = if to.is_integer() && to != x.ctx.i1() { vals.iter().map(|v| v.trunc()).collect() } else { vals };
    typed_tensor(x, &vals, operand_shape(x, 0)?)
}

/// Add/Sub/Mul/Div/Max/Min of small float or narrow-integer constants.
fn fold_scalar_arith(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let (a, b, shape, n) = binary_operands(x, operand_f64s)?;
    let int = result_type(x).scalar().is_integer();
    let op = x.body.name(x.op).as_str();
    let vals: Vec<f64> = (0..n)
        .map(|i| {
            let (p, q) = (at(&a, i), at(&b, i));
            match op {
                ops::Add::NAME => Some(p + q),
                ops::Sub::NAME => Some(p - q),
                ops::Mul::NAME => Some(p * q),
                ops::Max::NAME => Some(p.max(q)),
                ops::Min::NAME => Some(p.min(q)),
                ops::Div::NAME if int => (q != 0.0).then(|| (p / q).trunc()),
                ops::Div::NAME => Some(p / q),
                _ => None,
            }
        })
        .collect::<Option<_>>()?;
    typed_tensor(x, &vals, shape)
}

/// Neg/Abs/Ceil/Floor/Relu/Round of a small float or narrow-integer constant.
fn fold_scalar_unary(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let a = operand_f64s(x, 0)?;
    let f: fn(f64) -> f64 = match x.body.name(x.op).as_str() {
        ops::Neg::NAME => |v| -v,
        ops::Abs::NAME => f64::abs,
        ops::Ceil::NAME => f64::ceil,
        ops::Floor::NAME => f64::floor,
        ops::Relu::NAME => |v| if v.is_nan() { v } else { v.max(0.0) },
        ops::Round::NAME => f64::round_ties_even,
        _ => return None,
    };
    typed_tensor(x, &a.into_iter().map(f).collect::<Vec<_>>(), operand_shape(x, 0)?)
}

/// Integer Add/Sub/Mul/Div/Max/Min/Mod on constants (with scalar broadcast), as shape arithmetic needs.
fn fold_arith(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let Some((a, b, shape, n)) = binary_operands(x, operand_ints) else { return fold_scalar_arith(x) };
    let op = x.body.name(x.op).as_str();
    let fmod = x.body.op(x.op).attr("fmod").and_then(|a| a.as_int()).unwrap_or(0) != 0;
    let vals: Vec<i64> = (0..n)
        .map(|i| {
            let (p, q) = (at(&a, i), at(&b, i));
            match op {
                ops::Add::NAME => p.checked_add(q),
                ops::Sub::NAME => p.checked_sub(q),
                ops::Mul::NAME => p.checked_mul(q),
                ops::Max::NAME => Some(p.max(q)),
                ops::Min::NAME => Some(p.min(q)),
                // Python's modulo (the divisor's sign) unless fmod.
                ops::Mod::NAME if fmod => (q != 0).then(|| p.wrapping_rem(q)),
                ops::Mod::NAME => (q != 0).then(|| ((p % q) + q) % q),
                // Integer division truncates toward zero, as ONNX Runtime computes it.
                _ => (q != 0).then(|| p.wrapping_div(q)),
            }
        })
        .collect::<Option<_>>()?;
    i64_tensor(x, &vals, shape)
}

/// Integer comparisons of constants (shape checks in expanded functions).
fn fold_compare(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let (a, b, shape, n) = binary_operands(x, operand_ints)?;
    let op = x.body.name(x.op).as_str();
    let vals: Vec<bool> = (0..n)
        .map(|i| {
            let (p, q) = (at(&a, i), at(&b, i));
            match op {
                ops::Equal::NAME => p == q,
                ops::Less::NAME => p < q,
                ops::Greater::NAME => p > q,
                ops::LessOrEqual::NAME => p <= q,
                _ => p >= q,
            }
        })
        .collect();
    bool_tensor(x, &vals, shape)
}

/// And/Or/Xor of bool constants; Not of one.
fn fold_logic(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let op = x.body.name(x.op).as_str();
    if op == ops::Not::NAME {
        let a = operand_bools(x, 0)?;
        return bool_tensor(x, &a.iter().map(|v| *v == 0).collect::<Vec<_>>(), operand_shape(x, 0)?);
    }
    let (a, b, shape, n) = binary_operands(x, operand_bools)?;
    let vals: Vec<bool> = (0..n)
        .map(|i| {
            let (p, q) = (at(&a, i) != 0, at(&b, i) != 0);
            match op {
                ops::And::NAME => p && q,
                ops::Or::NAME => p || q,
                _ => p != q,
            }
        })
        .collect();
    bool_tensor(x, &vals, shape)
}

/// Where on constant integers: picks shape values in expanded functions.
fn fold_where(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let c = operand_bools(x, 0)?;
    let (a, b) = (operand_ints(x, 1)?, operand_ints(x, 2)?);
    let n = c.len().max(a.len()).max(b.len());
    if [c.len(), a.len(), b.len()].iter().any(|&l| l != n && l != 1) {
        return None;
    }
    let shape = result_type(x).shape().filter(|s| !s.contains(&DYNAMIC) && s.iter().product::<i64>() == n as i64)?.to_vec();
    let vals: Vec<i64> = (0..n).map(|i| if at(&c, i) != 0 { at(&a, i) } else { at(&b, i) }).collect();
    i64_tensor(x, &vals, shape)
}

/// Integer Neg / Abs of a constant.
fn fold_unary_int(x: &FoldInput) -> Option<Vec<FoldResult>> {
    let Some(a) = operand_ints(x, 0) else { return fold_scalar_unary(x) };
    let neg = x.body.name(x.op).as_str() == ops::Neg::NAME;
    let vals: Vec<i64> = a.iter().map(|v| if neg { v.checked_neg() } else { v.checked_abs() }).collect::<Option<_>>()?;
    i64_tensor(x, &vals, operand_shape(x, 0)?)
}

/// `x · Clip(x + 3, 0, 6) / 6` is HardSwish(x) written out, as paddle2onnx
/// writes every one (PaddleOCR's models: 18-94 each): one op, which a
/// backend runs in one pass (npu16: one vector pass, a function of one value
/// its row bands pass through, where the written-out form took three layers
/// and seven map-sized DRAM moves) and the CPU in fewer operations. Equal up
/// to rounding: HardSwish is x·max(0, min(1, x/6 + 1/2)).
fn hard_swish_written_out(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let b = &*rw.body;
    let is = |v: Value, c: f64| const_f64s_upto(b, v, 1).is_some_and(|k| k == [c]);
    let def = |v: Value, name: &str| b.defining_op(v).filter(|d| b.name(*d).as_str() == name);
    let d = b.op(op);
    let m = match d.operands() {
        [a, six] if is(*six, 6.0) => def(*a, ops::Mul::NAME).filter(|m| b.op(*m).operands().len() == 2),
        _ => None,
    };
    let Some(m) = m else { return rw.match_failure("not a Mul divided by 6") };
    let (p, q) = (b.op(m).operand(0), b.op(m).operand(1));
    // Where the Mul's operands are x and Clip(x + 3, 0, 6): the Add and the Clip.
    let written_out = |x: Value, c: Value| {
        let clip = def(c, ops::Clip::NAME)?;
        let [sum, lo, hi] = b.op(clip).operands() else { return None };
        let add = def(*sum, ops::Add::NAME)?;
        let [u, v] = b.op(add).operands() else { return None };
        (is(*lo, 0.0) && is(*hi, 6.0) && ((*u == x && is(*v, 3.0)) || (*v == x && is(*u, 3.0)))).then_some((add, clip))
    };
    let ((add, clip), x) = match (written_out(p, q), written_out(q, p)) {
        (Some(ops), _) => (ops, p),
        (None, Some(ops)) => (ops, q),
        _ => return rw.match_failure("not x times Clip(x + 3, 0, 6)"),
    };
    let ty = b.value_type(d.result(0)).clone();
    if b.value_type(x) != &ty || !ty.scalar().is_float() {
        return rw.match_failure("the result is not x's float type");
    }
    // Named by all its nodes, as a fused group is.
    let loc = ir::Location::fused(&[b.op(add).loc.clone(), b.op(clip).loc.clone(), b.op(m).loc.clone(), d.loc.clone()]);
    let st = OperationState::new(rw.ctx.op_name(ops::HardSwish::NAME), loc).operands(&[x]).results(&[ty]);
    rw.replace_op_with_new(op, st);
    Ok(())
}

/// Dropout in inference (no training-mode input, or a constant false one) with an unused mask is its input.
fn dropout_is_identity(op: OpId, rw: &mut Rewriter) -> Result<(), MatchFailure> {
    let d = rw.body.op(op);
    if d.results().len() > 1 && rw.body.has_uses(d.result(1)) {
        return rw.match_failure("the mask is used");
    }
    if let Some(&t) = d.operands().get(2) {
        if rw.body.value_type(t).data() != &TypeData::None && crate::infer::const_ints(rw.body, t).unwrap_or(vec![1]) != vec![0] {
            // A bool constant reads as 0/1 through const_ints; anything else may be training.
            return rw.match_failure("training mode is not known to be off");
        }
    }
    let x = d.operand(0);
    let results = d.results().to_vec();
    for r in results {
        let users: Vec<_> = rw.body.uses(r).iter().map(|u| (u.op, u.index as usize)).collect();
        for (u, i) in users {
            rw.modify_in_place(u, |b| b.set_operand(u, i, x));
        }
    }
    rw.erase_op(op);
    Ok(())
}
