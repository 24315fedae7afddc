//! LSTM, GRU and RNN: the input projection of every step as one product, then
//! the sequence as a loop (`scf.while`) whose step is a few `tensor.generic`s
//! — the recurrent contraction into the gate pre-activations, then one
//! elementwise step computing the new hidden (and cell) state — and writes its
//! hidden state into its row of the direction's output.
//! `com.microsoft`'s DynamicQuantizeLSTM is the LSTM with int8/uint8 weights
//! whose products run as ONNX Runtime runs them: the float operand quantized to
//! uint8 over the whole product (all of X once, H at every step), an integer
//! product, scaled back by both scales.

use onnx::ops;
use super::linalg::{column_panels, contract, gemv_panel_columns};
use super::{c, d, expr_map, Emit, Lower, LowerFn, Sc};
use ir::affine::AffineExpr;
use ir::Value;
use tensor::Iterator;

pub const TABLE: &[(&str, LowerFn)] = &[(ops::LSTM::NAME, recurrent), (ops::GRU::NAME, recurrent), (ops::RNN::NAME, recurrent), (ops::ms::DynamicQuantizeLSTM::NAME, recurrent)];

/// The quantized weights of DynamicQuantizeLSTM (W or R, [dirs, K, gates·H]) with
/// their scale and zero point (per direction, or per direction and column).
#[derive(Clone, Copy)]
struct QWeights {
    w: Value,
    scale: Value,
    zp: Value,
}

/// `a` ([m, k] float) times direction `dir` of quantized weights, as ONNX
/// Runtime's quantized GEMM computes it: `a` quantized to uint8 over all its
/// elements, the i32 product of the zero-point-corrected integers, times
/// `a_scale · w_scale[col]`. Only the direction's first zero point is read, as
/// ONNX Runtime reads it.
fn quantized_product(l: &mut Lower, a: Value, q: QWeights, dir: i64, m: i64, n: i64) -> Result<Value, String> {
    let u8 = l.ctx.intern_type(ir::types::TypeData::Integer { width: 8, signedness: ir::types::Signedness::Unsigned });
    let u8s = Sc { ty: u8, kind: super::Kind::Unsigned };
    let (aq, a_scale, a_zp) = super::quant::dynamic_quantize_values(l, a, &u8s)?;
    let zr = l.info(q.zp)?.rank();
    let first = ir::affine::AffineMap { num_dims: 0, num_syms: 0, results: (0..zr).map(|k| if k == 0 { c(dir) } else { c(0) }).collect() };
    let wsc = l.info(q.w)?.sc;
    let w_zp = l.map_op(&[], &wsc.ty.clone(), &[q.zp], vec![first], |_, x| x[0]);
    let i32s = Sc { ty: l.ctx.i32(), kind: super::Kind::Signed };
    let acc = match vnni_weights(l, q, dir, n) {
        Some((wv, k)) => super::int8::matmul_of(l, aq, &wv, k, Some(a_zp), None, super::int8::Tail::Int32, &[m, n], &i32s)?,
        None => None,
    };
    let acc = match acc {
        Some(acc) => acc,
        None => {
            let init = l.fill(&[m, n], &i32s, 0.0);
            let it3 = [Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
            contract(l, aq, expr_map(3, vec![d(0), d(2)]), q.w, expr_map(3, vec![c(dir), d(2), d(1)]), init, &it3, 1.0, (Some(a_zp), Some(w_zp)))
        }
    };
    let si = l.info(q.scale)?;
    let scale_map = match si.rank() {
        1 => expr_map(2, vec![c(dir)]),
        2 if si.shape[1] == n => expr_map(2, vec![c(dir), d(1)]),
        2 if si.shape[1] == 1 => expr_map(2, vec![c(dir), c(0)]),
        _ => return Err(format!("weight scales of shape {:?} are neither per direction nor per direction and column", si.shape)),
    };
    let f = Sc { ty: l.ctx.f32(), kind: super::Kind::Float };
    Ok(l.map_op(&[m, n], &f.ty.clone(), &[acc, a_scale, q.scale], vec![expr_map(2, vec![d(0), d(1)]), expr_map(2, vec![]), scale_map], move |e, x| {
        let v = e.cast(x[0], &i32s, &f);
        let sm = e.mul(x[1], x[2], &f);
        e.mul(v, sm, &f)
    }))
}

/// Direction `dir` of constant quantized weights for the VNNI kernel
/// (`int8.rs`), with K; None where they are not constant or the host has no VNNI.
fn vnni_weights(l: &Lower, q: QWeights, dir: i64, n: i64) -> Option<(super::int8::Weights, i64)> {
    if !crate::host_has_vnni() {
        return None;
    }
    let wi = l.info(q.w).ok()?;
    let (dirs, k) = (wi.shape[0], wi.shape[1]);
    if wi.rank() != 3 || wi.shape[2] != n || dirs <= dir {
        return None;
    }
    let zp = onnx::infer::const_ints(l.body, q.zp)?;
    let z = zp[(dir * (zp.len() as i64 / dirs)) as usize];
    let vals = onnx::infer::const_8bit(l.body, q.w)?;
    let per = (k * n) as usize;
    Some((super::int8::Weights::new(&vals[dir as usize * per..(dir as usize + 1) * per], &wi.sc, &[z], n)?, k))
}

#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Lstm,
    Gru,
    Rnn,
}

#[derive(Clone)]
struct Act {
    name: String,
    alpha: f64,
    beta: f64,
}

fn apply(e: &mut Emit, a: &Act, x: Value, s: &Sc) -> Value {
    let t = s.ty.clone();
    match a.name.to_ascii_lowercase().as_str() {
        "sigmoid" => {
            let one = e.float(1.0, &t);
            let n = e.op(arith::ops::NEGF, &[x], &t);
            let ex = e.op(math::ops::EXP, &[n], &t);
            let den = e.op(arith::ops::ADDF, &[one, ex], &t);
            e.op(arith::ops::DIVF, &[one, den], &t)
        }
        "tanh" => e.op(math::ops::TANH, &[x], &t),
        "relu" => {
            let z = e.float(0.0, &t);
            e.op(arith::ops::MAXIMUMF, &[x, z], &t)
        }
        "leakyrelu" => {
            let z = e.float(0.0, &t);
            let al = e.float(a.alpha, &t);
            let neg = e.cmp(super::Cmp::Lt, x, z, s);
            let m = e.op(arith::ops::MULF, &[x, al], &t);
            e.select(neg, m, x)
        }
        "hardsigmoid" => {
            let al = e.float(a.alpha, &t);
            let be = e.float(a.beta, &t);
            let z = e.float(0.0, &t);
            let one = e.float(1.0, &t);
            let m = e.op(arith::ops::MULF, &[al, x], &t);
            let y = e.op(arith::ops::ADDF, &[m, be], &t);
            let y = e.op(arith::ops::MAXIMUMF, &[y, z], &t);
            e.op(arith::ops::MINIMUMF, &[y, one], &t)
        }
        "affine" => {
            let al = e.float(a.alpha, &t);
            let be = e.float(a.beta, &t);
            let m = e.op(arith::ops::MULF, &[al, x], &t);
            e.op(arith::ops::ADDF, &[m, be], &t)
        }
        "scaledtanh" => {
            let al = e.float(a.alpha, &t);
            let be = e.float(a.beta, &t);
            let m = e.op(arith::ops::MULF, &[be, x], &t);
            let th = e.op(math::ops::TANH, &[m], &t);
            e.op(arith::ops::MULF, &[al, th], &t)
        }
        _ => x,
    }
}

fn recurrent(l: &mut Lower) -> Result<Vec<Value>, String> {
    let quantized = l.name() == ops::ms::DynamicQuantizeLSTM::NAME;
    let cell = match l.name() {
        ops::LSTM::NAME | ops::ms::DynamicQuantizeLSTM::NAME => Cell::Lstm,
        ops::GRU::NAME => Cell::Gru,
        _ => Cell::Rnn,
    };
    let gates = match cell {
        Cell::Lstm => 4,
        Cell::Gru => 3,
        Cell::Rnn => 1,
    };
    let xi = l.in_info(0)?;
    let wi = l.in_info(1)?;
    let sc = xi.sc.clone();
    if !sc.is_float() {
        return Err("recurrent ops need float inputs".into());
    }
    let batch_first = l.int_attr("layout", 0) != 0;
    let (seq, batch) = if batch_first { (xi.shape[1], xi.shape[0]) } else { (xi.shape[0], xi.shape[1]) };
    // DynamicQuantizeLSTM's weights are stored transposed: [dirs, K, gates·H].
    let hidden = if quantized { wi.shape[2] / gates } else { wi.shape[1] / gates };
    let dirs = wi.shape[0];
    let direction = l.str_attr("direction").unwrap_or_else(|| "forward".into());
    if l.opt(4).is_some() {
        // sequence_lens: only the all-full case is the same computation.
        let lens = l.const_ints(4).ok().flatten();
        if lens.is_none_or(|v| v.iter().any(|&x| x != seq)) {
            return Err("sequence_lens shorter than the sequence are not supported yet".into());
        }
    }
    if cell == Cell::Lstm && l.int_attr("input_forget", 0) != 0 {
        return Err("LSTM input_forget is not supported yet".into());
    }
    let clip = l.attr("clip").and_then(|a| a.as_float());
    let lbr = l.int_attr("linear_before_reset", 0) != 0;
    let acts = activations(l, cell, dirs)?;
    let per_dir = acts.len() / dirs as usize;
    let (x, w0, r0) = (l.operand(0)?, l.operand(1)?, l.operand(2)?);
    // W and R transposed once to [dirs, K, gates·H], so every step's products
    // read weight rows contiguously along the gates (the vectorized form).
    // (Of constant weights, fold-constant-copies makes this a constant.)
    let transpose_last2 = |l: &mut Lower, v: Value| -> Result<Value, String> {
        let sh = l.info(v)?.shape;
        let t = vec![sh[0], sh[2], sh[1]];
        Ok(l.map_op(&t, &sc.ty.clone(), &[v], vec![expr_map(3, vec![d(0), d(2), d(1)])], |_, a| a[0]))
    };
    let (w, r, qw, qr) = if quantized {
        let qw = QWeights { w: w0, scale: l.operand(8)?, zp: l.operand(9)? };
        let qr = QWeights { w: r0, scale: l.operand(10)?, zp: l.operand(11)? };
        (w0, r0, Some(qw), Some(qr))
    } else {
        (transpose_last2(l, w0)?, transpose_last2(l, r0)?, None, None)
    };
    let b = l.opt(3);
    let h0 = l.opt(5);
    let c0 = if cell == Cell::Lstm { l.opt(6) } else { None };
    let p = if cell == Cell::Lstm { l.opt(7) } else { None };
    let g = gates * hidden;
    // Y: [seq, dirs, batch, H] (layout 0) or [batch, seq, dirs, H].
    let y_shape = if batch_first { vec![batch, seq, dirs, hidden] } else { vec![seq, dirs, batch, hidden] };
    let mut y = l.fill(&y_shape, &sc, 0.0);
    let state_shape = vec![batch, hidden];
    let mut last_h = Vec::new();
    let mut last_c = Vec::new();
    for dir in 0..dirs {
        let reverse = direction == "reverse" || (direction == "bidirectional" && dir == 1);
        // Initial states: [batch, H] slices of initial_h / initial_c (or zeros).
        let init_state = |l: &mut Lower, v: Option<Value>| -> Value {
            match v {
                Some(v) => {
                    let m = if batch_first { expr_map(2, vec![d(0), c(dir), d(1)]) } else { expr_map(2, vec![c(dir), d(0), d(1)]) };
                    l.map_op(&state_shape, &sc.ty.clone(), &[v], vec![m], |_, a| a[0])
                }
                None => l.fill(&state_shape, &sc, 0.0),
            }
        };
        let h = init_state(l, h0);
        let cst = if cell == Cell::Lstm { Some(init_state(l, c0)) } else { None };
        let acts_d: Vec<Act> = acts[dir as usize * per_dir..(dir as usize + 1) * per_dir].to_vec();
        // The input projection for every step at once: X as [rows, input]
        // (rows = the sequence and batch, in X's order) times W^T, bias-initialized:
        // one well-shaped product instead of one per step.
        let rows = seq * batch;
        let x2 = super::shape::reshape(l, x, &[rows, xi.shape[2]]);
        let s = sc.clone();
        let bias_init = match b {
            Some(bv) => {
                let m_w = expr_map(2, vec![c(dir), d(1)]);
                let m_r = expr_map(2, vec![c(dir), add_c(d(1), g)]);
                let s2 = s.clone();
                if cell == Cell::Gru && lbr {
                    // With linear_before_reset the recurrent bias goes with R's
                    // product (every gate's: the h gate's is multiplied by r).
                    l.map_op(&[rows, g], &sc.ty.clone(), &[bv], vec![m_w], |_, a| a[0])
                } else {
                    l.map_op(&[rows, g], &sc.ty.clone(), &[bv, bv], vec![m_w, m_r], move |e, a| e.add(a[0], a[1], &s2))
                }
            }
            None => l.fill(&[rows, g], &sc, 0.0),
        };
        let it3 = [Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
        let xw = match qw {
            Some(q) => {
                let p = quantized_product(l, x2, q, dir, rows, g)?;
                let s2 = s.clone();
                let m = expr_map(2, vec![d(0), d(1)]);
                l.map_op(&[rows, g], &sc.ty.clone(), &[bias_init, p], vec![m.clone(), m], move |e, a| e.add(a[0], a[1], &s2))
            }
            None => contract(l, x2, expr_map(3, vec![d(0), d(2)]), w, expr_map(3, vec![c(dir), d(2), d(1)]), bias_init, &it3, 1.0, (None, None)),
        };
        // With a batch of one, R^T in panels of the product's tile of
        // columns, [4H/128, H, 128], made once before the loop: each step's
        // product streams them in order instead of 128 columns of rows 4H
        // apart (4 KB for H = 256, a new page every row).
        let r_panels = (qr.is_none() && cell != Cell::Gru && batch == 1 && g % gemv_panel_columns() == 0).then(|| column_panels(l, r, &[c(dir)], hidden, g, gemv_panel_columns()));
        // The sequence as one loop (`scf.while`: the step number, H, C and this
        // direction's [seq, batch, H] outputs carried), not unrolled: compile
        // time does not grow with the sequence. The step's ops are built before
        // the loop body's terminator, which stands in for the op being lowered.
        let xw3 = super::shape::reshape(l, xw, &if batch_first { [batch, seq, g] } else { [seq, batch, g] });
        let (ctx, loc) = (l.ctx, l.loc.clone());
        let (i64t, it) = (ctx.i64(), ctx.index());
        let mut inits = vec![l.emit().int(0, &i64t), h];
        inits.extend(cst);
        inits.push(l.empty(&[seq, batch, hidden], &sc.ty.clone()));
        let types: Vec<ir::Type> = inits.iter().map(|v| l.body.value_type(*v).clone()).collect();
        let before = l.body.new_region();
        let bb = l.body.add_block(before, &types);
        let bargs = l.body.block_args(bb).to_vec();
        let mut e = Emit::new(ctx, l.body, ir::InsertPoint::AtEnd(bb), loc.clone());
        let n = e.int(seq as i128, &i64t);
        let go = e.op_with(arith::ops::CMPI, &[bargs[0], n], &ctx.i1(), &[("predicate", ir::Attribute::integer(2, i64t.clone()))]);
        let mut fwd = vec![go];
        fwd.extend(&bargs);
        e.build(ir::OperationState::new(ctx.op_name(scf::ops::CONDITION), loc.clone()).operands(&fwd));
        let after = l.body.new_region();
        let ab = l.body.add_block(after, &types);
        let args = l.body.block_args(ab).to_vec();
        let term = l.body.build(ir::OperationState::new(ctx.op_name(scf::ops::YIELD), loc.clone()), ir::InsertPoint::AtEnd(ab));
        let lowered = l.op;
        l.op = term;
        let stepped = (|| -> Result<Vec<Value>, String> {
            let step = l.emit().op(arith::ops::INDEX_CAST, &[args[0]], &it);
            let t = if reverse {
                let last = l.emit().index(seq - 1);
                l.emit().op(arith::ops::SUBI, &[last, step], &it)
            } else {
                step
            };
            let h = args[1];
            let cst = if cell == Cell::Lstm { Some(args[2]) } else { None };
            // This step's rows of the projected input: [batch, gates·H].
            let xw = super::control::row_of(&mut l.emit(), xw3, if batch_first { 1 } else { 0 }, t);
            let hr = match (qr, r_panels) {
                (Some(q), _) => quantized_product(l, h, q, dir, batch, g)?,
                (None, Some(rp)) => {
                    // Loops: batch, 4H/128, 128 | H; [batch, 4H/128, 128] is [batch, 4H].
                    let t = gemv_panel_columns();
                    let init = l.fill(&[batch, g / t, t], &sc, 0.0);
                    let it4 = [Iterator::Parallel, Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
                    let y = contract(l, h, expr_map(4, vec![d(0), d(3)]), rp, expr_map(4, vec![d(1), d(3), d(2)]), init, &it4, 1.0, (None, None));
                    super::shape::reshape(l, y, &[batch, g])
                }
                (None, None) => {
                    // H_{t-1} R^T: for GRU's h gate (rows 2H..3H) this must wait for the reset gate, so it is kept apart.
                    let rinit = match b {
                        Some(bv) if cell == Cell::Gru && lbr => l.map_op(&[batch, g], &sc.ty.clone(), &[bv], vec![expr_map(2, vec![c(dir), add_c(d(1), g)])], |_, a| a[0]),
                        _ => l.fill(&[batch, g], &sc, 0.0),
                    };
                    let hmap = expr_map(3, vec![d(0), d(2)]);
                    let rmap = expr_map(3, vec![c(dir), d(2), d(1)]);
                    contract(l, h, hmap, r, rmap, rinit, &it3, 1.0, (None, None))
                }
            };
            let step = Step { sc: &sc, acts: &acts_d, clip, hidden, dir, xw, hr, h, c: cst, peep: p, r, lbr };
            let (nh, nc) = match cell {
                Cell::Rnn => (rnn_cell(l, &step), None),
                Cell::Lstm => {
                    let (nh, nc) = lstm_cell(l, &step);
                    (nh, Some(nc))
                }
                Cell::Gru => (gru_cell(l, &step), None),
            };
            let yd_ty = l.body.value_type(*args.last().unwrap()).clone();
            let yd = l.emit().op_with(tensor::ops::INSERT_ROW, &[nh, *args.last().unwrap(), t], &yd_ty, &[("dim", ir::Attribute::integer(0, i64t.clone()))]);
            let one = l.emit().int(1, &i64t);
            let mut next = vec![l.emit().op(arith::ops::ADDI, &[args[0], one], &i64t), nh];
            next.extend(nc);
            next.push(yd);
            Ok(next)
        })();
        l.op = lowered;
        let next = stepped?;
        l.body.set_operands(term, &next);
        let st = ir::OperationState::new(ctx.op_name(scf::ops::WHILE), loc).operands(&inits).results(&types).region(before).region(after);
        let w = l.body.build(st, ir::InsertPoint::Before(l.op));
        let res = l.body.op(w).results().to_vec();
        let h = res[1];
        let cst = if cell == Cell::Lstm { Some(res[2]) } else { None };
        // Y[.., dir, ..] = this direction's outputs, in place into Y.
        let ymap = if batch_first { expr_map(3, vec![d(1), d(0), c(dir), d(2)]) } else { expr_map(3, vec![d(0), c(dir), d(1), d(2)]) };
        y = l.generic(&[*res.last().unwrap()], &[y], vec![expr_map(3, vec![d(0), d(1), d(2)]), ymap], &[Iterator::Parallel; 3], |_, a| vec![a[0]])[0];
        last_h.push(h);
        if let Some(cv) = cst {
            last_c.push(cv);
        }
    }
    // Y_h, Y_c: [dirs, batch, H] (layout 0) or [batch, dirs, H].
    let stack = |l: &mut Lower, parts: &[Value]| -> Value {
        let shape = if batch_first { vec![batch, dirs, hidden] } else { vec![dirs, batch, hidden] };
        let mut acc = l.fill(&shape, &sc, 0.0);
        for (k, v) in parts.iter().enumerate() {
            let m = if batch_first { expr_map(2, vec![d(0), c(k as i64), d(1)]) } else { expr_map(2, vec![c(k as i64), d(0), d(1)]) };
            acc = l.generic(&[*v], &[acc], vec![expr_map(2, vec![d(0), d(1)]), m], &[Iterator::Parallel, Iterator::Parallel], |_, a| vec![a[0]])[0];
        }
        acc
    };
    let mut res = vec![y];
    if l.num_results() > 1 {
        res.push(stack(l, &last_h));
    }
    if l.num_results() > 2 {
        res.push(stack(l, &last_c));
    }
    Ok(res)
}

/// Each direction's activations (f, g, h for an LSTM; f, g for a GRU; f for
/// an RNN), named or the defaults, with their alpha and beta.
fn activations(l: &Lower, cell: Cell, dirs: i64) -> Result<Vec<Act>, String> {
    let names: Vec<String> = l.attr("activations").and_then(|a| a.as_array()).map(|a| a.iter().filter_map(|s| s.as_str().map(|x| x.to_string())).collect()).unwrap_or_default();
    let alphas = l.floats_attr("activation_alpha").unwrap_or_default();
    let betas = l.floats_attr("activation_beta").unwrap_or_default();
    let defaults: &[&str] = match cell {
        Cell::Lstm => &["Sigmoid", "Tanh", "Tanh"],
        Cell::Gru => &["Sigmoid", "Tanh"],
        Cell::Rnn => &["Tanh"],
    };
    let per_dir = defaults.len();
    let acts: Vec<Act> = (0..per_dir * dirs as usize)
        .map(|i| {
            let name = names.get(i).cloned().unwrap_or_else(|| defaults[i % per_dir].to_string());
            let default_alpha = match name.as_str() {
                "LeakyRelu" => 0.01,
                "HardSigmoid" => 0.2,
                _ => 1.0,
            };
            let default_beta = if name == "HardSigmoid" { 0.5 } else { 0.0 };
            Act { name, alpha: alphas.get(i).copied().unwrap_or(default_alpha), beta: betas.get(i).copied().unwrap_or(default_beta) }
        })
        .collect();
    for a in &acts {
        if !matches!(a.name.to_ascii_lowercase().as_str(), "sigmoid" | "tanh" | "relu" | "leakyrelu" | "hardsigmoid" | "affine" | "scaledtanh") {
            return Err(format!("activation '{}' is not supported yet", a.name));
        }
    }
    Ok(acts)
}

/// What one step's cell update reads: this step's rows of the projected
/// input, its recurrent product, the state before it, and the op's settings
/// for this direction.
struct Step<'a> {
    sc: &'a Sc,
    acts: &'a [Act],
    clip: Option<f64>,
    hidden: i64,
    dir: i64,
    xw: Value,
    hr: Value,
    h: Value,
    c: Option<Value>,
    /// An LSTM's peepholes [dirs, 3·H].
    peep: Option<Value>,
    /// R as [dirs, H, gates·H] (a GRU's h gate multiplies it again).
    r: Value,
    lbr: bool,
}

impl Step<'_> {
    fn state_shape(&self, l: &Lower) -> Vec<i64> {
        l.body.value_type(self.h).shape().expect("a static state").to_vec()
    }
    /// Gate `k`'s columns of a [batch, gates·H] value.
    fn gate(&self, k: i64) -> ir::affine::AffineMap {
        expr_map(2, vec![d(0), add_c(d(1), k * self.hidden)])
    }
}

/// H = f(X W^T + H R^T (+ biases)).
fn rnn_cell(l: &mut Lower, st: &Step) -> Value {
    let (s, a0, clip) = (st.sc.clone(), st.acts[0].clone(), st.clip);
    let m = expr_map(2, vec![d(0), d(1)]);
    let shape = st.state_shape(l);
    l.map_op(&shape, &st.sc.ty.clone(), &[st.xw, st.hr], vec![st.gate(0), m], move |e, a| {
        let v = e.add(a[0], a[1], &s);
        let v = clip_val(e, v, clip, &s);
        apply(e, &a0, v, &s)
    })
}

/// The LSTM cell (gates i, o, f, c; peepholes if given): the new H and C, one generic.
fn lstm_cell(l: &mut Lower, st: &Step) -> (Value, Value) {
    let shape = st.state_shape(l);
    let (xw, hr) = (st.xw, st.hr);
    let full = expr_map(2, vec![d(0), d(1)]);
    let mut ins = vec![xw, xw, xw, xw, hr, hr, hr, hr, st.c.expect("an LSTM's C")];
    let mut maps = vec![st.gate(0), st.gate(1), st.gate(2), st.gate(3), st.gate(0), st.gate(1), st.gate(2), st.gate(3), full.clone()];
    if let Some(pv) = st.peep {
        for k in 0..3 {
            ins.push(pv);
            maps.push(expr_map(2, vec![c(st.dir), add_c(d(1), k * st.hidden)]));
        }
    }
    let (has_p, clip) = (st.peep.is_some(), st.clip);
    let s = st.sc.clone();
    let ad = st.acts.to_vec();
    let outs = [l.empty(&shape, &st.sc.ty.clone()), l.empty(&shape, &st.sc.ty.clone())];
    maps.push(full.clone());
    maps.push(full);
    let res = l.generic(&ins, &outs, maps, &[Iterator::Parallel, Iterator::Parallel], move |e, a| {
        let pre = |e: &mut Emit, k: usize| {
            let v = e.add(a[k], a[4 + k], &s);
            clip_val(e, v, clip, &s)
        };
        let (gi, go, gf, gc) = (pre(e, 0), pre(e, 1), pre(e, 2), pre(e, 3));
        let cprev = a[8];
        let (gi, gf) = if has_p {
            let pi = e.mul(a[9], cprev, &s);
            let pf = e.mul(a[11], cprev, &s);
            (e.add(gi, pi, &s), e.add(gf, pf, &s))
        } else {
            (gi, gf)
        };
        let i = apply(e, &ad[0], gi, &s);
        let f = apply(e, &ad[0], gf, &s);
        let cc = apply(e, &ad[1], gc, &s);
        let fc = e.mul(f, cprev, &s);
        let ic = e.mul(i, cc, &s);
        let cnew = e.add(fc, ic, &s);
        let go = if has_p {
            let po = e.mul(a[10], cnew, &s);
            e.add(go, po, &s)
        } else {
            go
        };
        let o = apply(e, &ad[0], go, &s);
        let hc = apply(e, &ad[2], cnew, &s);
        vec![e.mul(o, hc, &s), cnew]
    });
    (res[0], res[1])
}

/// The GRU cell: z and r first, then the h gate, whose recurrent term needs
/// r: (r ⊙ H) R_h^T, or r ⊙ (H R_h^T + Rb_h) with linear_before_reset.
fn gru_cell(l: &mut Lower, st: &Step) -> Value {
    let shape = st.state_shape(l);
    let full = expr_map(2, vec![d(0), d(1)]);
    let (s, clip, ad) = (st.sc.clone(), st.clip, st.acts.to_vec());
    let (xw, hr, h) = (st.xw, st.hr, st.h);
    let zr = [l.empty(&shape, &st.sc.ty.clone()), l.empty(&shape, &st.sc.ty.clone())];
    let (s1, ad1) = (s.clone(), ad.clone());
    let zr = l.generic(&[xw, xw, hr, hr], &zr, vec![st.gate(0), st.gate(1), st.gate(0), st.gate(1), full.clone(), full.clone()], &[Iterator::Parallel, Iterator::Parallel], move |e, a| {
        let z = e.add(a[0], a[2], &s1);
        let z = clip_val(e, z, clip, &s1);
        let r = e.add(a[1], a[3], &s1);
        let r = clip_val(e, r, clip, &s1);
        vec![apply(e, &ad1[0], z, &s1), apply(e, &ad1[0], r, &s1)]
    });
    let (z, rg) = (zr[0], zr[1]);
    let rec = if st.lbr {
        let s2 = s.clone();
        l.map_op(&shape, &st.sc.ty.clone(), &[rg, hr], vec![full.clone(), st.gate(2)], move |e, a| e.mul(a[0], a[1], &s2))
    } else {
        let s2 = s.clone();
        let rh = l.map_op(&shape, &st.sc.ty.clone(), &[rg, h], vec![full.clone(), full.clone()], move |e, a| e.mul(a[0], a[1], &s2));
        // Rb_h is already in the bias-initialized input term.
        let init = l.fill(&shape, st.sc, 0.0);
        let rmap = expr_map(3, vec![c(st.dir), d(2), add_c(d(1), 2 * st.hidden)]);
        let it3 = [Iterator::Parallel, Iterator::Parallel, Iterator::Reduction];
        contract(l, rh, expr_map(3, vec![d(0), d(2)]), st.r, rmap, init, &it3, 1.0, (None, None))
    };
    l.map_op(&shape, &st.sc.ty.clone(), &[xw, rec, z, h], vec![st.gate(2), full.clone(), full.clone(), full], move |e, a| {
        let v = e.add(a[0], a[1], &s);
        let v = clip_val(e, v, clip, &s);
        let hh = apply(e, &ad[1], v, &s);
        let one = e.scalar(1.0, &s);
        let omz = e.sub(one, a[2], &s);
        let p1 = e.mul(omz, hh, &s);
        let p2 = e.mul(a[2], a[3], &s);
        e.add(p1, p2, &s)
    })
}

fn add_c(e: AffineExpr, k: i64) -> AffineExpr {
    super::add(e, c(k))
}

fn clip_val(e: &mut Emit, v: Value, clip: Option<f64>, s: &Sc) -> Value {
    match clip {
        Some(k) => {
            let hi = e.scalar(k, s);
            let lo = e.scalar(-k, s);
            let v = e.min(v, hi, s);
            e.max(v, lo, s)
        }
        None => v,
    }
}
