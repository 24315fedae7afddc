//! Control flow: `If` becomes `scf.if`, `Loop` and `Scan` become `scf.while`
//! with their carried values as loop-carried tensors. The bodies move into the
//! new ops as they are (their onnx ops are lowered where they land, captured
//! values included); each `onnx.Yield` becomes the `scf` terminator. A scan
//! output is a tensor carried through the loop, one row written per iteration
//! (`tensor.insert_row`), so it needs its row count before the loop starts.

use onnx::ops;
use super::{Emit, Lower, LowerFn};
use ir::affine::AffineMap;
use ir::attributes::Attribute;
use ir::types::{TypeData, DYNAMIC};
use ir::{Block, Body, InsertPoint, OpId, OperationState, Region, Type, Value};
use tensor::{GenericBuilder, Iterator};

pub const TABLE: &[(&str, LowerFn)] = &[(ops::If::NAME, lower_if), (ops::Loop::NAME, lower_loop), (ops::Scan::NAME, lower_scan)];

/// Builds ops at a point of any block: an [`Emit`] (the lowering's own
/// helpers insert before the op being lowered; loop bodies need their own points).
type At<'a> = Emit<'a>;

/// The single element of a one-element tensor (a condition, a trip count).
fn scalar_of(at: &mut At, t: Value) -> Value {
    let rank = at.body.value_type(t).shape().map_or(0, |s| s.len());
    let idx: Vec<Value> = (0..rank).map(|_| at.index(0)).collect();
    at.extract(t, &idx)
}

/// A rank-0 tensor holding a scalar (the body's iteration number and condition).
fn tensor_of(at: &mut At, v: Value) -> Value {
    let elem = at.body.value_type(v).clone();
    let ty = at.ctx.intern_type(TypeData::RankedTensor { shape: vec![], elem, encoding: None });
    let e = at.op(tensor::ops::EMPTY, &[], &ty);
    at.op(tensor::ops::FILL, &[v, e], &ty)
}

/// Row `i` of `x` along `axis`: a generic reading `x` at the loop's indices with `i` inserted.
pub(super) fn row_of(at: &mut At, x: Value, axis: usize, i: Value) -> Value {
    let xt = at.body.value_type(x).clone();
    let mut shape = xt.shape().unwrap().to_vec();
    shape.remove(axis);
    let elem = xt.element_type().unwrap().clone();
    let ty = at.ctx.intern_type(TypeData::RankedTensor { shape: shape.clone(), elem, encoding: None });
    let out = at.op(tensor::ops::EMPTY, &[], &ty);
    let n = shape.len();
    let (ctx, loc) = (at.ctx, at.loc.clone());
    let gb = GenericBuilder { ctx, loc: loc.clone() };
    let g = gb.build(at.0.body, at.0.at, &[], &[out], vec![AffineMap::identity(n as u32)], &vec![Iterator::Parallel; n], None, |body, block, _| {
        let mut e = Emit::new(ctx, body, InsertPoint::AtEnd(block), loc);
        let mut idx: Vec<Value> = (0..n).map(|d| e.loop_index(d)).collect();
        idx.insert(axis, i);
        vec![e.extract(x, &idx)]
    });
    at.body.op(g).result(0)
}

/// The static type of a value a body yields or a loop carries.
fn static_type(l: &Lower, v: Value, what: &str) -> Result<Type, String> {
    l.info(v).map_err(|e| format!("{}: {}", what, e))?;
    Ok(l.body.value_type(v).clone())
}

/// The single block of region `r` of `op`.
fn body_block(body: &Body, op: OpId, r: usize) -> Result<Block, String> {
    let region = *body.op(op).regions().get(r).ok_or("a body region is missing")?;
    body.region_blocks(region).first().copied().ok_or_else(|| "a body is empty".to_string())
}

/// The body's `onnx.Yield` and its operands.
fn yield_of(body: &Body, block: Block) -> Result<(OpId, Vec<Value>), String> {
    let t = body.last_op(block).filter(|t| body.name(*t).as_str() == ops::YIELD).ok_or("a body does not end in onnx.Yield")?;
    Ok((t, body.op(t).operands().to_vec()))
}

fn new_region_with(body: &mut Body, types: &[Type]) -> (Region, Block) {
    let r = body.new_region();
    let b = body.add_block(r, types);
    (r, b)
}

/// `If`: the branches move into an `scf.if` on the condition's element.
fn lower_if(l: &mut Lower) -> Result<Vec<Value>, String> {
    let cond = l.operand(0)?;
    if l.in_info(0)?.numel() != 1 {
        return Err("the condition must hold one element".into());
    }
    let (then_b, else_b) = (body_block(l.body, l.op, 0)?, body_block(l.body, l.op, 1)?);
    let (ty, ey) = (yield_of(l.body, then_b)?, yield_of(l.body, else_b)?);
    if ty.1.len() != l.num_results() || ey.1.len() != l.num_results() {
        return Err("each branch must yield one value per result".into());
    }
    let mut types = Vec::new();
    for (k, (a, b)) in ty.1.iter().zip(&ey.1).enumerate() {
        let (ta, tb) = (static_type(l, *a, "the then branch")?, static_type(l, *b, "the else branch")?);
        if ta != tb {
            return Err(format!("the branches give result #{} different types ({} and {}); the CPU path needs one static type", k, ta, tb));
        }
        types.push(ta);
    }
    let (ctx, loc) = (l.ctx, l.loc.clone());
    let mut at = At::new(ctx, l.body, InsertPoint::Before(l.op), loc.clone());
    let c = scalar_of(&mut at, cond);
    let mut regions = Vec::new();
    for (b, (y, vals)) in [(then_b, ty), (else_b, ey)] {
        let r = l.body.new_region();
        l.body.remove_block(b);
        l.body.append_block(r, b);
        l.body.build(OperationState::new(ctx.op_name(scf::ops::YIELD), loc.clone()).operands(&vals), InsertPoint::Before(y));
        l.body.erase(y);
        regions.push(r);
    }
    let st = OperationState::new(ctx.op_name(scf::ops::IF), loc).operands(&[c]).results(&types).region(regions[0]).region(regions[1]);
    let op = l.body.build(st, InsertPoint::Before(l.op));
    Ok(l.body.op(op).results().to_vec())
}

/// What a loop body sees and yields, for [`build_while`].
struct LoopParts {
    /// Run while `i < trips` (and the carried condition, for Loop).
    trips: Value,
    /// The initial condition (Loop) or none (Scan).
    cond: Option<Value>,
    /// The carried tensors' initial values.
    carried: Vec<Value>,
    /// Each scan output's full type and the axis its rows go along, reversed or not.
    scans: Vec<(Type, usize, bool)>,
    /// Each scanned input, the axis its rows come from, reversed or not (Scan).
    scan_ins: Vec<(Value, usize, bool)>,
    /// The row count when known (for reversed directions).
    rows: i64,
}

/// Builds the `scf.while` of a Loop or Scan whose body is region 0 of the op
/// being lowered. Carried by the loop: the iteration number (i64), the
/// condition (i1, Loop only), the carried tensors, the scan outputs.
/// Returns the final carried tensors, then the scan outputs.
fn build_while(l: &mut Lower, p: LoopParts) -> Result<Vec<Value>, String> {
    let (ctx, loc) = (l.ctx, l.loc.clone());
    let (i64t, i1t, it) = (ctx.i64(), ctx.i1(), ctx.index());
    let old = body_block(l.body, l.op, 0)?;
    let (y, yields) = yield_of(l.body, old)?;
    let is_loop = p.cond.is_some();
    let n_carried = p.carried.len();
    let lead = if is_loop { 1 } else { 0 };
    if yields.len() != lead + n_carried + p.scans.len() {
        return Err(format!("the body yields {} values, expected {}", yields.len(), lead + n_carried + p.scans.len()));
    }
    let mut at = At::new(ctx, l.body, InsertPoint::Before(l.op), loc.clone());
    let zero = at.int(0 as i128, &i64t);
    let mut inits = vec![zero];
    inits.extend(p.cond);
    inits.extend(&p.carried);
    for (t, _, _) in &p.scans {
        inits.push(at.op(tensor::ops::EMPTY, &[], t));
    }
    let types: Vec<Type> = inits.iter().map(|v| l.body.value_type(*v).clone()).collect();
    for (k, v) in yields[lead..lead + n_carried].iter().enumerate() {
        let t = static_type(l, *v, "a loop-carried value")?;
        if t != types[1 + lead + k] {
            return Err(format!("loop-carried value #{} changes type in the body ({} to {}); the CPU path needs one static type", k, types[1 + lead + k], t));
        }
    }
    for (k, v) in yields[lead + n_carried..].iter().enumerate() {
        let (full, axis, _) = &p.scans[k];
        let mut row = full.shape().unwrap().to_vec();
        row.remove(*axis);
        let t = static_type(l, *v, "a scan output")?;
        if t.shape() != Some(&row[..]) {
            return Err(format!("scan output #{} has rows of type {}, expected shape {:?}", k, t, row));
        }
    }
    // Before: i < trips (and the condition).
    let (before, bb) = new_region_with(l.body, &types);
    let args = l.body.block_args(bb).to_vec();
    let mut at = At::new(ctx, l.body, InsertPoint::AtEnd(bb), loc.clone());
    let pred = Attribute::integer(2, ctx.i64()); // slt
    let mut go = at.op_with(arith::ops::CMPI, &[args[0], p.trips], &i1t, &[("predicate", pred.clone())]);
    if is_loop {
        go = at.op(arith::ops::ANDI, &[go, args[1]], &i1t);
    }
    // Past the iteration limit the loop stops; the check after it fails the run.
    let cap = at.int(l.max_loop_iterations as i128, &i64t);
    let under = at.op_with(arith::ops::CMPI, &[args[0], cap], &i1t, &[("predicate", pred.clone())]);
    let go = at.op(arith::ops::ANDI, &[go, under], &i1t);
    let mut fwd = vec![go];
    fwd.extend(&args);
    at.build(OperationState::new(ctx.op_name(scf::ops::CONDITION), loc.clone()).operands(&fwd));
    // After: the body with its arguments rebuilt from the carried values.
    let (after, ab) = new_region_with(l.body, &types);
    let args = l.body.block_args(ab).to_vec();
    let mut at = At::new(ctx, l.body, InsertPoint::AtEnd(ab), loc.clone());
    let idx = at.op(arith::ops::INDEX_CAST, &[args[0]], &it);
    let row_index = |at: &mut At, reverse: bool| -> Value {
        if reverse {
            let last = at.index(p.rows - 1);
            at.op(arith::ops::SUBI, &[last, idx], &it)
        } else {
            idx
        }
    };
    let mut body_args = Vec::new();
    if is_loop {
        body_args.push(tensor_of(&mut at, args[0]));
        body_args.push(tensor_of(&mut at, args[1]));
    }
    body_args.extend(&args[1 + lead..1 + lead + n_carried]);
    for (x, axis, rev) in &p.scan_ins {
        let j = row_index(&mut at, *rev);
        body_args.push(row_of(&mut at, *x, *axis, j));
    }
    if body_args.len() != l.body.block_args(old).len() {
        return Err(format!("the body takes {} arguments, expected {}", l.body.block_args(old).len(), body_args.len()));
    }
    l.body.inline_block(old, InsertPoint::AtEnd(ab), &body_args);
    // The yield may pass a body argument through: read it again, replaced.
    let yields = l.body.op(y).operands().to_vec();
    let mut at = At::new(ctx, l.body, InsertPoint::Before(y), loc.clone());
    let one = at.int(1 as i128, &i64t);
    let mut next = vec![at.op(arith::ops::ADDI, &[args[0], one], &i64t)];
    if is_loop {
        next.push(scalar_of(&mut at, yields[0]));
    }
    next.extend(&yields[lead..lead + n_carried]);
    for (k, v) in yields[lead + n_carried..].iter().enumerate() {
        let (full, axis, rev) = &p.scans[k];
        let j = row_index(&mut at, *rev);
        let acc = args[1 + lead + n_carried + k];
        next.push(at.op_with(tensor::ops::INSERT_ROW, &[*v, acc, j], full, &[("dim", Attribute::integer(*axis as i128, ctx.i64()))]));
    }
    at.build(OperationState::new(ctx.op_name(scf::ops::YIELD), loc.clone()).operands(&next));
    l.body.erase(y);
    let st = OperationState::new(ctx.op_name(scf::ops::WHILE), loc.clone()).operands(&inits).results(&types).region(before).region(after);
    let w = l.body.build(st, InsertPoint::Before(l.op));
    let res = l.body.op(w).results().to_vec();
    // Stopped by the limit with iterations left: i reached it, i < trips and the condition held.
    let max = l.max_loop_iterations;
    let mut at = At::new(ctx, l.body, InsertPoint::Before(l.op), loc);
    let cap = at.int(max as i128, &i64t);
    let sge = Attribute::integer(5, ctx.i64());
    let mut over = at.op_with(arith::ops::CMPI, &[res[0], cap], &i1t, &[("predicate", sge)]);
    let more = at.op_with(arith::ops::CMPI, &[res[0], p.trips], &i1t, &[("predicate", pred)]);
    over = at.op(arith::ops::ANDI, &[over, more], &i1t);
    if is_loop {
        over = at.op(arith::ops::ANDI, &[over, res[1]], &i1t);
    }
    super::checks::loop_iterations(l, over, max);
    Ok(res[1 + lead..].to_vec())
}

/// `Loop(M, cond, v...)`: while `i < M` and the condition holds. Scan outputs
/// need a trip count known before the loop runs (a constant M, a condition that
/// cannot end it early), which gives their row count.
fn lower_loop(l: &mut Lower) -> Result<Vec<Value>, String> {
    let (ctx, loc) = (l.ctx, l.loc.clone());
    let n_carried = l.num_operands().saturating_sub(2);
    let n_scans = l.num_results().checked_sub(n_carried).ok_or("a Loop has fewer results than carried values")?;
    let (m, c) = (l.opt(0), l.opt(1));
    let mut at = At::new(ctx, l.body, InsertPoint::Before(l.op), loc);
    let trips = match m {
        Some(m) => {
            let s = scalar_of(&mut at, m);
            if at.body.value_type(s) != &ctx.i64() {
                return Err("the trip count must be an int64".into());
            }
            s
        }
        None => at.int(i64::MAX as i128, &ctx.i64()),
    };
    let cond = match c {
        Some(c) => scalar_of(&mut at, c),
        None => at.int(1 as i128, &ctx.i1()),
    };
    let mut carried = Vec::new();
    for k in 0..n_carried {
        let v = l.operand(2 + k)?;
        static_type(l, v, "a loop-carried value")?;
        carried.push(v);
    }
    let mut scans = Vec::new();
    if n_scans > 0 {
        let known = onnx::infer::loop_trip_count(l.body, l.op);
        for k in 0..n_scans {
            let r = l.result(n_carried + k);
            let info = l.info(r).map_err(|e| format!("scan output #{}: {}", k, e))?;
            if known != Some(info.shape[0]) {
                return Err(format!(
                    "scan output #{} needs the trip count before the loop runs (a constant trip count, and a condition that cannot end the loop early); its rows are data-dependent here",
                    k
                ));
            }
            scans.push((l.body.value_type(r).clone(), 0, false));
        }
    }
    let rows = scans.first().map_or(0, |(t, _, _)| t.shape().unwrap()[0]);
    build_while(l, LoopParts { trips, cond: Some(cond), carried, scans, scan_ins: vec![], rows })
}

/// `Scan` (opset 9 and later): states carried, each scanned input read one
/// row per iteration along its axis, each scan output written likewise.
fn lower_scan(l: &mut Lower) -> Result<Vec<Value>, String> {
    if onnx::infer::opset_of(l.body, l.op).is_some_and(|o| o < 9) {
        return lower_scan8(l);
    }
    let m = l.int_attr("num_scan_inputs", -1);
    let n_in = l.num_operands();
    if m < 0 || m as usize > n_in {
        return Err("num_scan_inputs must count scanned inputs among the inputs".into());
    }
    let m = m as usize;
    let n_states = n_in - m;
    let n_outs = l.num_results().checked_sub(n_states).ok_or("a Scan has fewer results than states")?;
    let in_axes = l.ints_attr("scan_input_axes").unwrap_or_else(|| vec![0; m]);
    let in_dirs = l.ints_attr("scan_input_directions").unwrap_or_else(|| vec![0; m]);
    let out_axes = l.ints_attr("scan_output_axes").unwrap_or_else(|| vec![0; n_outs]);
    let out_dirs = l.ints_attr("scan_output_directions").unwrap_or_else(|| vec![0; n_outs]);
    let mut rows = None;
    let mut scan_ins = Vec::new();
    for k in 0..m {
        let info = l.in_info(n_states + k)?;
        let a = super::axis(*in_axes.get(k).unwrap_or(&0), info.rank())?;
        if rows.is_some_and(|r| r != info.shape[a]) {
            return Err("the scanned inputs have different lengths along their axes".into());
        }
        rows = Some(info.shape[a]);
        scan_ins.push((l.operand(n_states + k)?, a, in_dirs.get(k).copied().unwrap_or(0) == 1));
    }
    let rows = rows.ok_or("a Scan needs at least one scanned input")?;
    let mut carried = Vec::new();
    for k in 0..n_states {
        let v = l.operand(k)?;
        static_type(l, v, "a state")?;
        carried.push(v);
    }
    let mut scans = Vec::new();
    for k in 0..n_outs {
        let r = l.result(n_states + k);
        let info = l.info(r).map_err(|e| format!("scan output #{}: {}", k, e))?;
        let a = super::axis(*out_axes.get(k).unwrap_or(&0), info.rank())?;
        if info.shape[a] != rows && info.shape[a] != DYNAMIC {
            return Err(format!("scan output #{} has {} rows along axis {}, the scan {}", k, info.shape[a], a, rows));
        }
        scans.push((l.body.value_type(r).clone(), a, out_dirs.get(k).copied().unwrap_or(0) == 1));
    }
    let mut at = At::new(l.ctx, l.body, InsertPoint::Before(l.op), l.loc.clone());
    let trips = at.int(rows as i128, &l.ctx.i64());
    build_while(l, LoopParts { trips, cond: None, carried, scans, scan_ins, rows })
}

/// `Scan` of opset 8: a batch axis first on every state and scanned input,
/// and optional sequence lengths. With a batch of one and the lengths absent
/// (or all the full length) it is the opset-9 Scan of the batch's one row.
fn lower_scan8(l: &mut Lower) -> Result<Vec<Value>, String> {
    let m = l.int_attr("num_scan_inputs", -1);
    let n_in = l.num_operands();
    if m < 0 || m as usize + 1 > n_in {
        return Err("num_scan_inputs must count scanned inputs among the inputs".into());
    }
    let m = m as usize;
    let n_states = n_in - 1 - m;
    let n_outs = l.num_results().checked_sub(n_states).ok_or("a Scan has fewer results than states")?;
    let dirs = l.ints_attr("directions").unwrap_or_else(|| vec![0; m]);
    let mut rows = None;
    let unbatched = |l: &mut Lower, v: Value| -> Result<Value, String> {
        let info = l.info(v)?;
        if info.shape.first() != Some(&1) {
            return Err(format!("Scan of opset 8 runs a batch of one on the CPU path, got shape {:?}", info.shape));
        }
        Ok(super::shape::reshape(l, v, &info.shape[1..]))
    };
    let mut carried = Vec::new();
    for k in 0..n_states {
        let v = l.operand(1 + k)?;
        carried.push(unbatched(l, v)?);
    }
    let mut scan_ins = Vec::new();
    for k in 0..m {
        let v = l.operand(1 + n_states + k)?;
        let x = unbatched(l, v)?;
        let t = l.info(x)?.shape.first().copied().ok_or("a scanned input needs a sequence axis")?;
        if rows.is_some_and(|r| r != t) {
            return Err("the scanned inputs have different lengths".into());
        }
        rows = Some(t);
        scan_ins.push((x, 0, dirs.get(k).copied().unwrap_or(0) == 1));
    }
    let rows = rows.ok_or("a Scan needs at least one scanned input")?;
    if let Some(lens) = l.const_ints(0)? {
        if lens.iter().any(|&n| n != rows) {
            return Err(format!("sequence lengths {:?} shorter than the sequence ({}) are not supported on the CPU path yet", lens, rows));
        }
    }
    let mut scans = Vec::new();
    let mut out_shapes = Vec::new();
    for k in 0..n_outs {
        let info = l.out_info(n_states + k).map_err(|e| format!("scan output #{}: {}", k, e))?;
        let ty = l.tensor_type(&info.shape[1..], &l.body.value_type(l.result(n_states + k)).element_type().unwrap().clone());
        scans.push((ty, 0, false));
        out_shapes.push(info.shape);
    }
    let mut at = At::new(l.ctx, l.body, InsertPoint::Before(l.op), l.loc.clone());
    let trips = at.int(rows as i128, &l.ctx.i64());
    let results = build_while(l, LoopParts { trips, cond: None, carried, scans, scan_ins, rows })?;
    // The batch axis back on every result.
    let mut out = Vec::new();
    for (k, v) in results.into_iter().enumerate() {
        let shape = if k < n_states { l.out_info(k)?.shape } else { out_shapes[k - n_states].clone() };
        out.push(super::shape::reshape(l, v, &shape));
    }
    Ok(out)
}
