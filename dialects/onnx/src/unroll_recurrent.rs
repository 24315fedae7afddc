//! An LSTM or GRU written out as its time steps in `onnx` ops, for a backend that
//! runs products and elementwise ops but has no loops (npu16's ISA has no
//! branches, so a sequence is a straight line of layers). Per direction: the
//! input projection of every step as one MatMul with the two biases summed
//! into one row, a Split into steps; per step the recurrent MatMul, the gate
//! Split (ONNX's order i, o, f, c), Sigmoid/Tanh, the cell update
//! `c = f·c' + i·g`, `h = o·tanh(c)`; Y, Y_h and Y_c as Concats. A GRU's step:
//! z and r from one product, the candidate from R_h times r·h (or r times
//! R_h·h + Rb_h with linear_before_reset), `h = h̃ + z·(h' − h̃)`. A zero or
//! absent initial state drops the first step's recurrent products and `f·c'`.
//!
//! Only the plain form is written out: f32, static shapes, layout 0, the
//! default activations, no clip, no peepholes, no input_forget, no
//! sequence_lens (but one saying every sequence is whole), constant W, R and B; anything else keeps the op whole
//! (the CPU path runs it as one loop, which is faster there and compiles in
//! a time that does not grow with the sequence).

use crate::ops;
use crate::builder::Builder;
use ir::attributes::Attribute;
use ir::types::TypeData;
use ir::{Body, Context, InsertPoint, Location, OpId, Type, Value};

use crate::infer::{const_f64s, const_f64s_upto, tensor};

/// Steps times directions written out at most by default (each step is ~11 ops).
pub const DEFAULT_MAX_STEPS: i64 = 512;

/// What keeps an LSTM whole, for a backend's fallback reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// An attribute of a form not written out (clip, activations, layout …).
    Attribute,
    /// An operand not written out (sequence_lens, peepholes).
    Operand,
    /// W, R or B not constant.
    NotConstant,
    /// Types or sizes: not static f32, or more steps than the limit.
    Shape,
}

/// Why an LSTM stays whole.
#[derive(Clone, Debug)]
pub struct Kept {
    pub cause: Cause,
    pub why: String,
}

impl std::fmt::Display for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

fn kept(cause: Cause, why: impl Into<String>) -> Kept {
    Kept { cause, why: why.into() }
}

/// Which recurrent cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Lstm,
    /// `linear_before_reset`: r multiplies (R_h·h + Rb_h), not h.
    Gru { linear_before_reset: bool },
}

impl Cell {
    /// Gates per step, the blocks of W and R (LSTM i, o, f, c; GRU z, r, h).
    fn gates(self) -> i64 {
        match self {
            Cell::Lstm => 4,
            Cell::Gru { .. } => 3,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Cell::Lstm => "LSTM",
            Cell::Gru { .. } => "GRU",
        }
    }
}

/// A recurrent op's sizes and constants, read once.
struct Rnn {
    cell: Cell,
    /// Sequence length, batch, input size, hidden size.
    t: i64,
    b: i64,
    i: i64,
    h: i64,
    /// Per direction: whether it runs backwards in time.
    reverse: Vec<bool>,
    w: Vec<f64>,
    r: Vec<f64>,
    bias: Option<Vec<f64>>,
    /// Initial hidden and (LSTM) cell states ([D, B, H]), `None` when absent or zero.
    h0: Option<Value>,
    c0: Option<Value>,
}

fn is_none(body: &Body, op: OpId, i: usize) -> bool {
    body.op(op).operands().get(i).is_none_or(|v| body.value_type(*v).data() == &TypeData::None)
}

fn static_f32(body: &Body, v: Value) -> Option<Vec<i64>> {
    let t = body.value_type(v);
    (t.element_type()?.to_string() == "f32").then_some(())?;
    t.shape().filter(|s| s.iter().all(|d| *d >= 0)).map(|s| s.to_vec())
}

/// An initial state operand: `None` when absent or a constant of zeros.
fn initial_state(body: &Body, op: OpId, i: usize, shape: &[i64]) -> Result<Option<Value>, Kept> {
    if is_none(body, op, i) {
        return Ok(None);
    }
    let v = body.op(op).operand(i);
    if static_f32(body, v).as_deref() != Some(shape) {
        return Err(kept(Cause::Shape, format!("initial state {} is not a static f32 {:?}", i, shape)));
    }
    let zero = const_f64s_upto(body, v, 1 << 20).is_some_and(|x| x.iter().all(|e| *e == 0.0));
    Ok((!zero).then_some(v))
}

/// What `op` is, or why it is not written out.
fn read(body: &Body, op: OpId, max_steps: i64) -> Result<Rnn, Kept> {
    let o = body.op(op);
    let int = |n: &str| o.attr(n).and_then(|a| a.as_int()).unwrap_or(0) as i64;
    let cell = match body.name(op).as_str() {
        ops::LSTM::NAME => Cell::Lstm,
        ops::GRU::NAME => Cell::Gru { linear_before_reset: int("linear_before_reset") != 0 },
        _ => return Err(kept(Cause::Operand, "not an LSTM or a GRU")),
    };
    if int("layout") != 0 {
        return Err(kept(Cause::Attribute, "layout 1 (batch first)"));
    }
    if cell == Cell::Lstm && int("input_forget") != 0 {
        return Err(kept(Cause::Attribute, "input_forget"));
    }
    if o.attr("clip").is_some() {
        return Err(kept(Cause::Attribute, "a clip"));
    }
    let defaults: &[&str] = if cell == Cell::Lstm { &["Sigmoid", "Tanh", "Tanh"] } else { &["Sigmoid", "Tanh"] };
    if let Some(a) = o.attr("activations") {
        let names: Vec<String> = a.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(|x| x.to_string())).collect()).unwrap_or_default();
        if names.chunks(defaults.len()).any(|c| c != defaults) || names.is_empty() {
            return Err(kept(Cause::Attribute, format!("activations {:?} (only {})", names, defaults.join(", "))));
        }
    }
    let reverse = match o.str_attr("direction").unwrap_or("forward") {
        "forward" => vec![false],
        "reverse" => vec![true],
        "bidirectional" => vec![false, true],
        d => return Err(kept(Cause::Attribute, format!("direction {}", d))),
    };
    let d = reverse.len() as i64;
    let x = static_f32(body, o.operand(0)).ok_or_else(|| kept(Cause::Shape, "X is not a static f32 tensor"))?;
    let [t, b, i] = x[..] else { return Err(kept(Cause::Shape, "X is not 3-D")) };
    let h = int("hidden_size");
    if h <= 0 || t <= 0 || b <= 0 || i <= 0 {
        return Err(kept(Cause::Shape, "empty sizes"));
    }
    if t * d > max_steps {
        return Err(kept(Cause::Shape, format!("{} steps in {} directions (more than {} written out)", t, d, max_steps)));
    }
    // Every sequence T long (as exporters write it) is no sequence_lens at all.
    if !is_none(body, op, 4) {
        match crate::infer::const_ints(body, o.operand(4)) {
            Some(lens) if lens.len() == b as usize && lens.iter().all(|l| *l == t) => {}
            Some(_) => return Err(kept(Cause::Operand, "sequence_lens shorter than the sequence")),
            None => return Err(kept(Cause::Operand, "sequence_lens")),
        }
    }
    if cell == Cell::Lstm && !is_none(body, op, 7) {
        return Err(kept(Cause::Operand, "peepholes"));
    }
    let constant = |idx: usize, shape: &[i64], what: &str| -> Result<Vec<f64>, Kept> {
        let v = body.op(op).operand(idx);
        if static_f32(body, v).as_deref() != Some(shape) {
            return Err(kept(Cause::Shape, format!("{} is not a static f32 {:?}", what, shape)));
        }
        const_f64s(body, v).ok_or_else(|| kept(Cause::NotConstant, format!("{} is not a constant", what)))
    };
    let g = cell.gates();
    let w = constant(1, &[d, g * h, i], "W")?;
    let r = constant(2, &[d, g * h, h], "R")?;
    let bias = if is_none(body, op, 3) { None } else { Some(constant(3, &[d, 2 * g * h], "B")?) };
    let h0 = initial_state(body, op, 5, &[d, b, h])?;
    let c0 = if cell == Cell::Lstm { initial_state(body, op, 6, &[d, b, h])? } else { None };
    Ok(Rnn { cell, t, b, i, h, reverse, w, r, bias, h0, c0 })
}

/// Builds ops before the recurrent op, each named after it and its step.
struct Writer<'a> {
    b: Builder<'a>,
    node: String,
    /// i64 constants already made (split sizes, shapes), one per value.
    sizes: std::collections::HashMap<Vec<i64>, Value>,
}

impl<'a> Writer<'a> {
    fn ty(&self, shape: &[i64]) -> Type {
        tensor(self.b.ctx, &self.b.ctx.f32(), Some(shape.to_vec()))
    }
    /// The builder, its ops named `<node>/<role>`.
    fn named(&mut self, role: &str) -> &mut Builder<'a> {
        self.b.loc = Location::name(&format!("{}/{}", self.node, role));
        &mut self.b
    }
    fn op(&mut self, name: &str, operands: &[Value], results: &[Type], props: &[(&str, Attribute)], role: &str) -> Vec<Value> {
        self.named(role).op(name, operands, results, props)
    }
    fn one(&mut self, name: &str, operands: &[Value], shape: &[i64], role: &str) -> Value {
        let ty = self.ty(shape);
        self.op(name, operands, &[ty], &[], role)[0]
    }
    fn f32s(&mut self, shape: &[i64], v: &[f32], role: &str) -> Value {
        self.named(role).f32s(shape, v)
    }
    /// An i64 vector constant (split sizes, shapes), one per value.
    fn i64s(&mut self, v: &[i64], role: &str) -> Value {
        if let Some(c) = self.sizes.get(v) {
            return *c;
        }
        let c = self.named(role).i64s(v);
        self.sizes.insert(v.to_vec(), c);
        c
    }
    fn axis(&self, a: i64) -> (&'static str, Attribute) {
        ("axis", Attribute::integer(a as i128, self.b.ctx.i64()))
    }
    /// `x` cut along `axis` into pieces of the given sizes (`shape` is x's).
    fn split(&mut self, x: Value, shape: &[i64], axis: usize, sizes: &[i64], role: &str) -> Vec<Value> {
        if sizes.len() == 1 {
            return vec![x];
        }
        let s = self.i64s(sizes, &format!("{}.sizes", role));
        let tys: Vec<Type> = sizes
            .iter()
            .map(|n| {
                let mut p = shape.to_vec();
                p[axis] = *n;
                self.ty(&p)
            })
            .collect();
        let a = self.axis(axis as i64);
        self.op(ops::Split::NAME, &[x, s], &tys, &[a], role)
    }
    fn concat(&mut self, xs: &[Value], shape: &[i64], axis: i64, role: &str) -> Value {
        if xs.len() == 1 {
            return xs[0];
        }
        let ty = self.ty(shape);
        let a = self.axis(axis);
        self.op(ops::Concat::NAME, xs, &[ty], &[a], role)[0]
    }
}

/// Rows `r0..r0 + n` of direction `d`'s R (or W: `cols` wide), as the constant
/// a product reads: as they are for R times a column, transposed for a row
/// times Rᵀ; with the rows themselves, for products made at compile time.
struct Block {
    rows: Vec<f64>,
    n: i64,
    value: Value,
}

fn block(w: &mut Writer, m: &[f64], d: usize, total: usize, r0: usize, n: usize, cols: usize, as_is: bool, role: &str) -> Block {
    let rows = m[(d * total + r0) * cols..(d * total + r0 + n) * cols].to_vec();
    let value = if as_is {
        w.f32s(&[n as i64, cols as i64], &rows.iter().map(|v| *v as f32).collect::<Vec<_>>(), role)
    } else {
        let mut t = vec![0f32; n * cols];
        for r in 0..n {
            for c in 0..cols {
                t[c * n + r] = rows[r * cols + c] as f32;
            }
        }
        w.f32s(&[cols as i64, n as i64], &t, role)
    };
    Block { rows, n: n as i64, value }
}

/// The sizes every step shares.
#[derive(Clone, Copy)]
struct Dims {
    b: i64,
    h: i64,
    /// Batch 1: R times h as a column (R streams through a weight-stationary
    /// array past h's few tiles, where h times Rᵀ would preload all of Rᵀ to
    /// multiply one row); else h times Rᵀ.
    column: bool,
}

/// `hv` ([1, B, H]) times the block's rows transposed: [1, B, n]. A constant
/// `hv` (an initial state) is multiplied now, in f32 and k order as the array
/// sums, so no product of two constants is left for a backend.
fn product(w: &mut Writer, blk: &Block, hv: Value, dims: Dims, dn: &str, role: &str) -> Value {
    let (b, h, n) = (dims.b, dims.h, blk.n);
    let hs = h as usize;
    if let Some(hval) = const_f64s(w.b.body, hv) {
        let prod: Vec<f32> = (0..b as usize)
            .flat_map(|bi| (0..n as usize).map(move |j| (bi, j)))
            .map(|(bi, j)| (0..hs).fold(0f32, |acc, k| acc + hval[bi * hs + k] as f32 * blk.rows[j * hs + k] as f32))
            .collect();
        return w.f32s(&[1, b, n], &prod, role);
    }
    if dims.column {
        let to_col = w.i64s(&[h, 1], &format!("{}.column", dn));
        let hc = w.one(ops::Reshape::NAME, &[hv, to_col], &[h, 1], &format!("{}.column", role));
        let rc = w.one(ops::MatMul::NAME, &[blk.value, hc], &[n, 1], role);
        let to_row = w.i64s(&[1, 1, n], &format!("{}.row", dn));
        w.one(ops::Reshape::NAME, &[rc, to_row], &[1, 1, n], &format!("{}.row", role))
    } else {
        w.one(ops::MatMul::NAME, &[hv, blk.value], &[1, b, n], role)
    }
}

/// Writes out `op` (an `onnx.LSTM` or `onnx.GRU`) as its steps and erases it;
/// `Err` says why it stays whole (nothing is changed then).
pub fn unroll(ctx: &Context, body: &mut Body, op: OpId, max_steps: i64) -> Result<(), Kept> {
    let l = read(body, op, max_steps)?;
    let node = body.op(op).loc.node_name().unwrap_or_else(|| l.cell.name().into());
    let results = body.op(op).results().to_vec();
    let x = body.op(op).operand(0);
    let loc = body.op(op).loc.clone();
    let mut w = Writer { b: Builder::new(ctx, body, InsertPoint::Before(op), loc), node, sizes: Default::default() };
    let (t, b, h, d) = (l.t, l.b, l.h, l.reverse.len() as i64);
    let (i, hs) = (l.i as usize, h as usize);
    let g = l.cell.gates();
    let gh = (g * h) as usize;
    let dims = Dims { b, h, column: b == 1 };
    let state = [1, b, h];
    // Initial states per direction.
    let per_dir = |w: &mut Writer, v: Option<Value>, role: &str| -> Vec<Option<Value>> {
        match v {
            None => vec![None; d as usize],
            // A constant state: one constant per direction, cut now.
            Some(v) => match const_f64s(w.b.body, v) {
                Some(vals) => vals
                    .chunks((b * h) as usize)
                    .enumerate()
                    .map(|(k, part)| Some(w.f32s(&[1, b, h], &part.iter().map(|x| *x as f32).collect::<Vec<_>>(), &format!("{}.{}", role, k))))
                    .collect(),
                None => w.split(v, &[d, b, h], 0, &vec![1; d as usize], role).into_iter().map(Some).collect(),
            },
        }
    };
    let h0 = per_dir(&mut w, l.h0, "h0");
    let c0 = per_dir(&mut w, l.c0, "c0");
    let (mut ys, mut yh, mut yc) = (vec![], vec![], vec![]);
    for (di, &rev) in l.reverse.iter().enumerate() {
        let dn = if rev { "bw" } else { "fw" };
        let wt = block(&mut w, &l.w, di, gh, 0, gh, i, false, &format!("{}.W", dn));
        // LSTM: one product for all four gates; GRU: z and r together, then h (its input is r·h).
        let (rzr, rh) = match l.cell {
            Cell::Lstm => (block(&mut w, &l.r, di, gh, 0, gh, hs, dims.column, &format!("{}.R", dn)), None),
            Cell::Gru { .. } => (
                block(&mut w, &l.r, di, gh, 0, 2 * hs, hs, dims.column, &format!("{}.R_zr", dn)),
                Some(block(&mut w, &l.r, di, gh, 2 * hs, hs, hs, dims.column, &format!("{}.R_h", dn))),
            ),
        };
        // The input projection of every step at once, with the biases that add to it.
        let mut xp = w.one(ops::MatMul::NAME, &[x, wt.value], &[t, b, g * h], &format!("{}.input", dn));
        let lbr = l.cell == Cell::Gru { linear_before_reset: true };
        let mut rb_h = None;
        if let Some(bias) = &l.bias {
            let (wb, rb) = (&bias[di * 2 * gh..di * 2 * gh + gh], &bias[di * 2 * gh + gh..(di + 1) * 2 * gh]);
            // With linear_before_reset, R's h bias is inside r·(…): kept apart.
            let row: Vec<f32> = (0..gh).map(|n| (wb[n] + if lbr && n >= 2 * hs { 0.0 } else { rb[n] }) as f32).collect();
            let row = w.f32s(&[g * h], &row, &format!("{}.bias", dn));
            xp = w.one(ops::Add::NAME, &[xp, row], &[t, b, g * h], &format!("{}.input_bias", dn));
            if lbr {
                rb_h = Some(w.f32s(&[h], &rb[2 * hs..].iter().map(|v| *v as f32).collect::<Vec<_>>(), &format!("{}.R_h_bias", dn)));
            }
        }
        let steps = w.split(xp, &[t, b, g * h], 0, &vec![1; t as usize], &format!("{}.steps", dn));
        let (mut hp, mut cp) = (h0[di], c0[di]);
        let mut out = vec![None; t as usize];
        let order: Vec<usize> = if rev { (0..t as usize).rev().collect() } else { (0..t as usize).collect() };
        for s in order {
            let role = |r: &str| format!("{}{}.{}", dn, s, r);
            let hv = match l.cell {
                Cell::Lstm => {
                    let mut gates = steps[s];
                    if let Some(hv) = hp {
                        let rec = product(&mut w, &rzr, hv, dims, dn, &role("recurrent"));
                        gates = w.one(ops::Add::NAME, &[gates, rec], &[1, b, 4 * h], &role("gates"));
                    }
                    let gs = w.split(gates, &[1, b, 4 * h], 2, &[h; 4], &role("split"));
                    let ig = w.one(ops::Sigmoid::NAME, &[gs[0]], &state, &role("i"));
                    let og = w.one(ops::Sigmoid::NAME, &[gs[1]], &state, &role("o"));
                    let cand = w.one(ops::Tanh::NAME, &[gs[3]], &state, &role("g"));
                    let mut c = w.one(ops::Mul::NAME, &[ig, cand], &state, &role("ig"));
                    if let Some(cv) = cp {
                        let fg = w.one(ops::Sigmoid::NAME, &[gs[2]], &state, &role("f"));
                        let fc = w.one(ops::Mul::NAME, &[fg, cv], &state, &role("fc"));
                        c = w.one(ops::Add::NAME, &[fc, c], &state, &role("c"));
                    }
                    let tc = w.one(ops::Tanh::NAME, &[c], &state, &role("tanh_c"));
                    cp = Some(c);
                    w.one(ops::Mul::NAME, &[og, tc], &state, &role("h"))
                }
                Cell::Gru { linear_before_reset } => {
                    let parts = w.split(steps[s], &[1, b, 3 * h], 2, &[2 * h, h], &role("split"));
                    let mut zr = parts[0];
                    if let Some(hv) = hp {
                        let rec = product(&mut w, &rzr, hv, dims, dn, &role("recurrent_zr"));
                        zr = w.one(ops::Add::NAME, &[zr, rec], &[1, b, 2 * h], &role("zr_sum"));
                    }
                    let zr = w.one(ops::Sigmoid::NAME, &[zr], &[1, b, 2 * h], &role("zr"));
                    let zr = w.split(zr, &[1, b, 2 * h], 2, &[h, h], &role("zr_split"));
                    let (z, r) = (zr[0], zr[1]);
                    let rh = rh.as_ref().expect("a GRU has an h block");
                    // r·(R_h·h + Rb_h) (linear_before_reset) or R_h·(r·h), added to the input's part.
                    let reset = match (hp, linear_before_reset) {
                        (Some(hv), true) => {
                            let p = product(&mut w, rh, hv, dims, dn, &role("recurrent_h"));
                            let p = match (rb_h, const_f64s(w.b.body, p)) {
                                // From a constant state: the sum made now too.
                                (Some(bias), Some(pv)) => {
                                    let bv = const_f64s(w.b.body, bias).expect("a constant bias");
                                    let sum: Vec<f32> = pv.iter().enumerate().map(|(k, v)| (*v as f32) + bv[k % hs] as f32).collect();
                                    w.f32s(&state, &sum, &role("recurrent_h_bias"))
                                }
                                (Some(bias), None) => w.one(ops::Add::NAME, &[p, bias], &state, &role("recurrent_h_bias")),
                                (None, _) => p,
                            };
                            Some(w.one(ops::Mul::NAME, &[r, p], &state, &role("reset")))
                        }
                        (Some(hv), false) => {
                            let rv = w.one(ops::Mul::NAME, &[r, hv], &state, &role("reset"));
                            Some(product(&mut w, rh, rv, dims, dn, &role("recurrent_h")))
                        }
                        (None, true) => rb_h.map(|bias| w.one(ops::Mul::NAME, &[r, bias], &state, &role("reset"))),
                        (None, false) => None,
                    };
                    let pre = match reset {
                        Some(v) => w.one(ops::Add::NAME, &[parts[1], v], &state, &role("h_sum")),
                        None => parts[1],
                    };
                    let cand = w.one(ops::Tanh::NAME, &[pre], &state, &role("candidate"));
                    // h' = (1 − z)·h̃ + z·h = h̃ + z·(h − h̃); from a zero state, h̃ − z·h̃.
                    match hp {
                        Some(hv) => {
                            let diff = w.one(ops::Sub::NAME, &[hv, cand], &state, &role("diff"));
                            let zd = w.one(ops::Mul::NAME, &[z, diff], &state, &role("zdiff"));
                            w.one(ops::Add::NAME, &[cand, zd], &state, &role("h"))
                        }
                        None => {
                            let zc = w.one(ops::Mul::NAME, &[z, cand], &state, &role("zc"));
                            w.one(ops::Sub::NAME, &[cand, zc], &state, &role("h"))
                        }
                    }
                }
            };
            out[s] = Some(hv);
            hp = Some(hv);
        }
        let out: Vec<Value> = out.into_iter().map(|v| v.expect("every step written")).collect();
        if results.first().is_some_and(|r| w.b.body.has_uses(*r)) {
            let y = w.concat(&out, &[t, b, h], 0, &format!("{}.Y", dn));
            let axes = w.i64s(&[1], &format!("{}.Y.axes", dn));
            ys.push(w.one(ops::Unsqueeze::NAME, &[y, axes], &[t, 1, b, h], &format!("{}.Y", dn)));
        }
        yh.push(hp.expect("at least one step"));
        yc.extend(cp);
    }
    let outs = [(ys, vec![t, d, b, h], 1, "Y"), (yh, vec![d, b, h], 0, "Y_h"), (yc, vec![d, b, h], 0, "Y_c")];
    for (k, (parts, shape, axis, role)) in outs.into_iter().enumerate() {
        let Some(&r) = results.get(k) else { continue };
        if parts.is_empty() || !w.b.body.has_uses(r) {
            continue;
        }
        let v = w.concat(&parts, &shape, axis, role);
        w.b.body.replace_all_uses(r, v);
    }
    body.erase(op);
    Ok(())
}

/// Why `op`, a recurrent op left in the module, was not written out.
pub fn why_kept(body: &Body, op: OpId, max_steps: i64) -> Kept {
    match read(body, op, max_steps) {
        Err(k) => k,
        Ok(_) => kept(Cause::Operand, "not written out (the backend's prepare did not run)"),
    }
}

/// Writes out every LSTM and GRU under `root` that can be and `wanted`
/// accepts; returns how many were and, for the others it was asked about,
/// why not.
pub fn unroll_all(ctx: &Context, body: &mut Body, root: OpId, max_steps: i64, wanted: impl Fn(&Body, OpId) -> bool) -> (usize, Vec<(OpId, Kept)>) {
    let (mut n, mut kept) = (0, vec![]);
    for op in body.walk_preorder(root) {
        if body.is_erased(op) || !matches!(body.name(op).as_str(), ops::LSTM::NAME | ops::GRU::NAME) || !wanted(body, op) {
            continue;
        }
        match unroll(ctx, body, op, max_steps) {
            Ok(()) => n += 1,
            Err(e) => kept.push((op, e)),
        }
    }
    (n, kept)
}
